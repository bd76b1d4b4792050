/* test_sparsegrid_npy.c -- the .npy files sparsegrid/npy.h writes, read by an independent
 * reader written here from the format's description (numpy.lib.format, version 1.0):
 *   bytes 0-5  the magic "\x93NUMPY"; 6-7 the version (1, 0); 8-9 the header length HLEN,
 *   unsigned little-endian; then HLEN bytes of ASCII: a Python dict literal with exactly the
 *   keys 'descr' (a dtype string, '<f4' or '<f8' here), 'fortran_order' (False) and 'shape'
 *   (a tuple of ints: a 1-tuple is written "(n,)", "(n)" being an int in Python), padded with
 *   spaces and ended by one '\n' so that 10 + HLEN is a multiple of 64 (numpy >= 1.14 aligns
 *   the data to 64 bytes; npy.h claims 64), the padding shorter than 64 bytes; then the raw
 *   values, nothing after them.
 * And npy_read_header at every one of its limits, both sides: header length 65536 / 65537
 * (version 1.0: lengths past 255 and 65535, the two length bytes),
 * 16 / 17 dimensions, the data one byte short / long, versions 0..4, the element count at
 * 2^62 / past it, each key missing, the other quote style, Fortran order; and a write error
 * (a full device: /dev/full, unbuffered) returns -1. */
#include "../../common/testlib.h"
#include "../../sparsegrid/npy.h"
#include <ctype.h>
#include <stdint.h>

/* got == want as a check whose outcome is returned (printed when not) */
static int eqll(long long got, long long want, const char *what)
{
    int ok = T_CHECK(got == want);
    if (!ok) fprintf(stderr, "  %s: got %lld, expected %lld\n", what, got, want);
    return ok;
}
#define T_EQ_INT_R(g, w) eqll((long long)(g), (long long)(w), #g)

/* ---------------------------------------------------------------- the independent reader */

/* A whole file into memory; its size in *n. */
static unsigned char *slurp(FILE *f, long *n)
{
    fflush(f);
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    unsigned char *b = (unsigned char *)malloc((size_t)*n + 1);
    if (fread(b, 1, (size_t)*n, f) != (size_t)*n) *n = -1;
    return b;
}

/* Parses a Python tuple of non-negative ints at s ("(3, 4)", "(5,)", "()"); returns the
 * position after ')' or NULL when it is not a tuple (an int in parentheses "(5)" is not). */
static const char *py_tuple(const char *s, long long *v, int *nv)
{
    *nv = 0;
    if (*s++ != '(') return NULL;
    int commas = 0;
    while (*s == ' ') s++;
    if (*s == ')') return s + 1;
    for (;;) {
        if (!isdigit((unsigned char)*s)) return NULL;
        long long x = 0;
        while (isdigit((unsigned char)*s)) x = 10 * x + (*s++ - '0');
        v[(*nv)++] = x;
        while (*s == ' ') s++;
        if (*s == ',') { s++; commas++; while (*s == ' ') s++; }
        if (*s == ')') break;
        if (*nv == commas) continue;
        return NULL;
    }
    if (*nv == 1 && commas != 1) return NULL; /* (5) is 5 */
    return s + 1;
}

typedef struct {
    int ok, elem, ndim;
    long long shape[32];
    long data_off;
    char why[160];
} indep;

/* The file's bytes b (n of them) judged by the rules above. */
static indep read_indep(const unsigned char *b, long n)
{
    indep r;
    memset(&r, 0, sizeof r);
#define BAD(...) do { snprintf(r.why, sizeof r.why, __VA_ARGS__); return r; } while (0)
    if (n < 10 || memcmp(b, "\x93NUMPY", 6)) BAD("magic");
    if (b[6] != 1 || b[7] != 0) BAD("version %d.%d, want 1.0", b[6], b[7]);
    long hlen = (long)b[8] + 256L * b[9];
    r.data_off = 10 + hlen;
    if (r.data_off > n) BAD("header past the end");
    if (r.data_off % 64) BAD("data at %ld, not a multiple of 64", r.data_off);
    const char *h = (const char *)b + 10;
    if (h[hlen - 1] != '\n') BAD("header not ended by a newline");
    for (long i = 0; i < hlen - 1; i++)
        if (h[i] < 0x20 || h[i] > 0x7e) BAD("byte %ld of the header is not printable ASCII", i);
    char dict[65536];
    memcpy(dict, h, (size_t)hlen - 1);
    dict[hlen - 1] = 0;
    long end = hlen - 1;
    while (end > 0 && dict[end - 1] == ' ') end--;
    if (hlen - 1 - end >= 64) BAD("%ld bytes of padding (a multiple of 64 too many)", hlen - 1 - end);
    dict[end] = 0;
    if (dict[0] != '{' || dict[end - 1] != '}') BAD("not a dict: %.60s", dict);
    /* the keys in numpy's order, each once */
    const char *p = dict + 1;
    if (strncmp(p, "'descr': '", 10)) BAD("first key not 'descr': %.60s", dict);
    p += 10;
    if (!strncmp(p, "<f4'", 4)) r.elem = 4;
    else if (!strncmp(p, "<f8'", 4)) r.elem = 8;
    else BAD("descr %.4s", p);
    p += 4;
    if (strncmp(p, ", 'fortran_order': False, 'shape': ", 35)) BAD("after descr: %.60s", p);
    p = py_tuple(p + 35, r.shape, &r.ndim);
    if (!p) BAD("shape not a tuple: %.60s", dict);
    if (strcmp(p, ", }") && strcmp(p, "}")) BAD("after shape: '%.60s'", p);
    long long count = 1;
    for (int i = 0; i < r.ndim; i++) count *= r.shape[i];
    if (r.data_off + count * r.elem != n) BAD("%lld values of %d bytes after %ld bytes of header, file %ld bytes", count, r.elem, r.data_off, n);
    r.ok = 1;
#undef BAD
    return r;
}

/* ndim dimensions of shape[], elem bytes: written by npy.h with its values, checked by the
 * independent reader (shape, values) and read back by npy_read_header. */
static void check_write(int elem, int ndim, const long long *shape)
{
    long long count = 1;
    for (int i = 0; i < ndim; i++) count *= shape[i];
    FILE *f = tmpfile();
    if (!T_CHECK(f != NULL)) return;
    T_EQ_INT(npy_write_header(f, elem, ndim, shape), 0);
    for (long long i = 0; i < count; i++) {
        if (elem == 4) { float v = 1.5f + (float)i; fwrite(&v, 4, 1, f); }
        else { double v = -2.25 + (double)i; fwrite(&v, 8, 1, f); }
    }
    long n;
    unsigned char *b = slurp(f, &n);
    indep r = read_indep(b, n);
    int ok = T_CHECK(r.ok);
    if (r.ok) {
        ok &= T_EQ_INT_R(r.elem, elem);
        ok &= T_EQ_INT_R(r.ndim, ndim);
        for (int i = 0; i < ndim && i < r.ndim; i++) ok &= T_EQ_INT_R(r.shape[i], shape[i]);
        for (long long i = 0; i < count; i++) { /* little-endian IEEE values at the data offset */
            const unsigned char *q = b + r.data_off + i * elem;
            if (elem == 4) {
                uint32_t u = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
                float v;
                memcpy(&v, &u, 4);
                ok &= T_CHECK(v == 1.5f + (float)i);
            } else {
                uint64_t u = 0;
                for (int j = 7; j >= 0; j--) u = u << 8 | q[j];
                double v;
                memcpy(&v, &u, 8);
                ok &= T_CHECK(v == -2.25 + (double)i);
            }
        }
    }
    /* and our own reader agrees */
    npy_info ni;
    char err[256] = "";
    rewind(f);
    ok &= T_CHECK(npy_read_header(f, n, &ni, err, sizeof err) == 0);
    ok &= T_EQ_INT_R(ni.data_offset, r.data_off);
    ok &= T_EQ_INT_R(ni.count, count);
    ok &= T_EQ_INT_R(ni.elem, elem);
    if (!ok) fprintf(stderr, "  write: elem %d, ndim %d, shape[0] %lld: %s %s\n", elem, ndim, shape[0], r.why, err);
    free(b);
    fclose(f);
}

/* ------------------------------------------------------------- npy_read_header at limits */

/* A file of version major with header text dict padded to hlen bytes (hlen >= strlen + 1,
 * '\n' last), then data bytes; npy_read_header's return (its message in err). */
static int read_hand(int major, const char *dict, long hlen, long data, char *err, size_t errsz, npy_info *ni)
{
    FILE *f = tmpfile();
    unsigned char pre[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0};
    int plen = major == 1 ? 10 : 12;
    for (int i = 0; i < plen - 8; i++) pre[8 + i] = (unsigned char)(hlen >> (8 * i));
    fwrite(pre, 1, (size_t)plen, f);
    long dl = (long)strlen(dict);
    fwrite(dict, 1, (size_t)dl, f);
    for (long i = dl; i < hlen - 1; i++) fputc(' ', f);
    fputc('\n', f);
    for (long i = 0; i < data; i++) fputc(0, f);
    fflush(f);
    long n = ftell(f);
    rewind(f);
    err[0] = 0;
    int rc = npy_read_header(f, n, ni, err, errsz);
    fclose(f);
    return rc;
}

static void test_read_limits(void)
{
    char err[256], dict[512];
    npy_info ni;
    /* a plain header, then the data one byte short and one long */
    const char *d1 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }";
    T_EQ_INT(read_hand(1, d1, 118, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.count, 15);
    T_EQ_INT(ni.ndim, 2);
    T_EQ_INT(ni.data_offset, 128);
    T_EQ_INT(read_hand(1, d1, 118, 59, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "15 values (4 bytes each)") && strstr(err, "59 bytes"));
    T_EQ_INT(read_hand(1, d1, 118, 61, err, sizeof err, &ni), -1);
    /* versions: 1, 2, 3 accepted (2 and 3 with a 4-byte length), 0 and 4 refused */
    T_EQ_INT(read_hand(2, d1, 116, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.data_offset, 128);
    T_EQ_INT(read_hand(3, d1, 116, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(read_hand(0, d1, 118, 60, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "version 0.0") != NULL);
    T_EQ_INT(read_hand(4, d1, 116, 60, err, sizeof err, &ni), -1);
    /* version 1.0 headers past 255 bytes: both length bytes count (little-endian), up to the
     * largest a 2-byte length states, 65535 (numpy pads many-dimensional dicts that far) */
    T_EQ_INT(read_hand(1, d1, 374, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.data_offset, 384);
    T_EQ_INT(ni.count, 15);
    T_EQ_INT(read_hand(1, d1, 65535, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.data_offset, 10 + 65535);
    /* header length: 65536 accepted, 65537 refused (version 2: the length needs 3 bytes) */
    T_EQ_INT(read_hand(2, d1, 65536, 60, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.data_offset, 12 + 65536);
    T_EQ_INT(read_hand(2, d1, 65537, 60, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "65537") != NULL);
    /* a header longer than the file */
    {
        FILE *f = tmpfile();
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0x76, 0};
        fwrite(pre, 1, 10, f);
        fputs(d1, f);
        fflush(f);
        long n = ftell(f);
        rewind(f);
        T_EQ_INT(npy_read_header(f, n, &ni, err, sizeof err), -1);
        T_CHECK(strstr(err, "past the end") != NULL);
        fclose(f);
    }
    /* 16 dimensions of 1 accepted, 17 refused; 0 dimensions (a scalar) is one value */
    for (int nd = 15; nd <= 17; nd++) {
        int n = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (");
        for (int i = 0; i < nd; i++) n += snprintf(dict + n, sizeof dict - n, "1, ");
        snprintf(dict + n, sizeof dict - n, "), }");
        T_EQ_INT(read_hand(1, dict, 246, 8, err, sizeof err, &ni), nd <= NPY_MAX_DIMS ? 0 : -1);
        if (nd <= NPY_MAX_DIMS) T_EQ_INT(ni.ndim, nd);
    }
    T_EQ_INT(read_hand(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 118, 8, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.count, 1);
    T_EQ_INT(ni.ndim, 0);
    /* element count at 2^62 passes the overflow guard (then the size check refuses it: its
     * 2^64 bytes wrapped to 0 once matched a file without data), past 2^62 the guard refuses */
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, 2147483648), }", 118, 0, err,
                       sizeof err, &ni), -1);
    T_CHECK(strstr(err, "4611686018427387904 values") != NULL);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, 2147483649), }", 118, 4, err,
                       sizeof err, &ni), -1);
    T_CHECK(strstr(err, "too large") != NULL);
    /* a zero dimension: no data */
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 7), }", 118, 0, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.count, 0);
    /* the keys: each missing is named; double quotes accepted; Fortran order, other types refused */
    T_EQ_INT(read_hand(1, "{'fortran_order': False, 'shape': (3,), }", 118, 12, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "'descr'") != NULL);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'shape': (3,), }", 118, 12, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "'fortran_order'") != NULL);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, }", 118, 12, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "'shape'") != NULL);
    T_EQ_INT(read_hand(1, "{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (3,), }", 118, 24, err, sizeof err, &ni), 0);
    T_EQ_INT(ni.elem, 8);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", 118, 12, err, sizeof err, &ni), -1);
    T_CHECK(strstr(err, "Fortran") != NULL);
    T_EQ_INT(read_hand(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 118, 12, err, sizeof err, &ni), -1);
    T_EQ_INT(read_hand(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 118, 12, err, sizeof err, &ni), -1);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': 3, }", 118, 12, err, sizeof err, &ni), -1);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3; 4), }", 118, 48, err, sizeof err, &ni), -1);
    T_EQ_INT(read_hand(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", 118, 0, err, sizeof err, &ni), -1);
    /* a NUL byte in the header */
    {
        char nul[120];
        snprintf(nul, sizeof nul, "%s", d1);
        nul[3] = 'X';
        FILE *f = tmpfile();
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 118, 0};
        fwrite(pre, 1, 10, f);
        fwrite(d1, 1, strlen(d1), f);
        fputc(0, f);
        for (long i = (long)strlen(d1) + 1; i < 117; i++) fputc(' ', f);
        fputc('\n', f);
        for (int i = 0; i < 60; i++) fputc(0, f);
        fflush(f);
        long n = ftell(f);
        rewind(f);
        T_EQ_INT(npy_read_header(f, n, &ni, err, sizeof err), -1);
        T_CHECK(strstr(err, "NUL") != NULL);
        fclose(f);
    }
    /* not the magic */
    T_CHECK(npy_is_npy_name("a.npy") && !npy_is_npy_name("a.npz") && !npy_is_npy_name("npy") && npy_is_npy_name(".npy"));
}

int main(void)
{
    /* 1-D (the (n,) form), 2-D to 5-D and 16-D, float and double */
    for (int elem = 4; elem <= 8; elem += 4) {
        const long long s1[] = {5}, s1b[] = {1}, s1c[] = {123456}, s2[] = {2, 33}, s3[] = {2, 33, 33}, s4[] = {3, 5, 9, 17},
                        s5[] = {1, 2, 3, 4, 5};
        check_write(elem, 1, s1);
        check_write(elem, 1, s1b);
        check_write(elem, 1, s1c);
        check_write(elem, 2, s2);
        check_write(elem, 3, s3);
        check_write(elem, 4, s4);
        check_write(elem, 5, s5);
        /* the dict grows a digit at a time: every header length modulo 64 around the
         * boundary (10 + dict + '\n' = 64 k exactly for one of them) */
        long long big[2] = {1, 1};
        for (int digits = 1; digits <= 12; digits++) {
            big[1] = 0;
            for (int i = 0; i < digits; i++) big[1] = big[1] * 10 + 1;
            check_write(elem, 2, (const long long[]){0, big[1]}); /* count 0: no data */
        }
        long long many[16];
        for (int i = 0; i < 16; i++) many[i] = 1 + (i == 3);
        check_write(elem, 16, many);
    }
    /* the header at a 64-byte boundary: the dict "{'descr': '<f4', 'fortran_order': False,
     * 'shape': (X), }" is 55 + len(X) bytes, so X of 61, 62, 63 bytes gives 10 + dict + '\n'
     * = 127, 128, 129: headers of 128, 128 (no padding at all) and 192 bytes.  X = "0, " then
     * six 7-digit sizes and one of 4, 5 or 6 digits (8 dimensions, no data) */
    for (int extra = 0; extra < 3; extra++) {
        long long s[8] = {0, 1000000, 2000000, 3000000, 4000000, 5000000, 6000000, 1000};
        for (int i = 0; i < extra; i++) s[7] *= 10;
        FILE *f = tmpfile();
        T_EQ_INT(npy_write_header(f, 4, 8, s), 0);
        T_EQ_INT(ftell(f), extra < 2 ? 128 : 192);
        fclose(f);
        check_write(4, 8, s);
    }
    /* a write error: /dev/full, unbuffered so that the first write fails */
    {
        FILE *f = fopen("/dev/full", "wb");
        if (f) {
            setvbuf(f, NULL, _IONBF, 0);
            const long long s[] = {2, 3};
            T_EQ_INT(npy_write_header(f, 8, 2, s), -1);
            fclose(f);
        }
    }
    test_read_limits();
    return T_DONE();
}
