/* The check every sparsegrid experiment runs before it times a row (harness.cuh: job_check):
 * a result equal to the expected one bitwise passes (0 wrong elements); otherwise it returns
 * the number of wrong elements -- one wrong element first, last or in the middle, every
 * element, a difference in one byte of one element, for 4- and 8-byte elements, and an output
 * still holding run_case's poison (job_poison: NaN, all bits set). Host results only (ON_CPU:
 * the GPU is not needed, so this runs on any machine); the GPU place differs only by the
 * download before the same comparison. */
#include "../../common/testlib.h"
/* the harness is a program's whole toolkit, most of it unused here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../sparsegrid/harness.cuh"

static size_t check_of(void *out, const void *expect, long long n, size_t elem)
{
    job_io io;
    memset(&io, 0, sizeof io);
    snprintf(io.label, sizeof io.label, "test n=%lld elem=%zu", n, elem);
    io.place = ON_CPU;
    io.h_out = out;
    io.expect = expect;
    io.n = n;
    io.elem = elem;
    return job_check(&io);
}

static void case_elem(size_t elem)
{
    const long long sizes[] = {1, 2, 7, 64, 1000, 4099};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        long long n = sizes[k];
        size_t bytes = (size_t)n * elem;
        unsigned char *ref = (unsigned char *)malloc(bytes), *out = (unsigned char *)malloc(bytes);
        for (size_t i = 0; i < bytes; i++) ref[i] = (unsigned char)(i * 131u + 7u);
        memcpy(out, ref, bytes);
        T_EQ_INT((long long)check_of(out, ref, n, elem), 0);
        long long at[3] = {0, n / 2, n - 1};
        for (int a = 0; a < 3; a++) { /* one element wrong, in its last byte */
            memcpy(out, ref, bytes);
            out[(size_t)at[a] * elem + elem - 1] ^= 0x10;
            T_EQ_INT((long long)check_of(out, ref, n, elem), 1);
        }
        memcpy(out, ref, bytes); /* the first byte of the last element */
        out[(size_t)(n - 1) * elem] ^= 0x01;
        T_EQ_INT((long long)check_of(out, ref, n, elem), 1);
        for (size_t i = 0; i < bytes; i++) out[i] = (unsigned char)(ref[i] ^ 0x80); /* every element */
        T_EQ_INT((long long)check_of(out, ref, n, elem), n);
        if (n >= 2) { /* two wrong elements, apart */
            memcpy(out, ref, bytes);
            out[0] ^= 1, out[bytes - 1] ^= 1;
            T_EQ_INT((long long)check_of(out, ref, n, elem), 2);
        }
        job_io io; /* run_case's poison on a host output: every element wrong afterwards */
        memset(&io, 0, sizeof io);
        io.place = ON_CPU, io.h_out = out, io.n = n, io.elem = elem, io.expect = ref;
        memcpy(out, ref, bytes);
        job_poison(&io);
        long long nan_bits = 0;
        for (size_t i = 0; i < bytes; i++) nan_bits += out[i] == 0xFF;
        T_EQ_INT(nan_bits, (long long)bytes);
        T_EQ_INT((long long)job_check(&io), n);
        free(ref), free(out);
    }
}

int main(void)
{
    case_elem(sizeof(float));
    case_elem(sizeof(double));
    return T_DONE();
}
