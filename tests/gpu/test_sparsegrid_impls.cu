/* sparsegrid --exp=sparse --sparse-impls=P1,P2,...: the rows whose implementation name starts with
 * one of the comma-separated prefixes, and always the copy row (exp_sparse.cuh: impl_selected,
 * sparse_impls).  Checked on the names the experiment uses: no list (or an empty one) keeps every
 * row; a prefix matches at the start of a name only; empty entries (",", a leading or trailing
 * comma, ",,") select nothing; a prefix longer than the name does not match; and the rows of a
 * batch without GPU plans (the CPU rows: cpu_tuned, cpu_shift, each forward then _inverse)
 * come out in the data files' order with the copy row first.  Host code only (no GPU needed). */
#include "../../common/testlib.h"
/* the experiment is a program's whole toolkit, most of it unused here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../sparsegrid/exp_sparse.cuh"

/* The rows sparse_impls keeps for impls on a batch without GPU plans, as "name name ...". */
static void rows_of(const char *impls, char *out, size_t size)
{
    static sparse_plans p; /* no GPU plan (zero counts) */
    static sparse_impl list[SPARSE_IMPLS_MAX];
    int n = sparse_impls(list, &p, 2, impls);
    out[0] = 0;
    for (int i = 0; i < n && strlen(out) + strlen(list[i].name) + 2 < size; i++) {
        if (i) strcat(out, " ");
        strcat(out, list[i].name);
    }
}

int main(void)
{
    const char *stream = "gpu_sparse_stream_m3_g1", *multi = "gpu_sparse_multi_g1_u4", *table = "gpu_sparse_table";
    /* no list: every row */
    T_CHECK(impl_selected(NULL, stream) && impl_selected(NULL, "cpu_tuned"));
    T_CHECK(impl_selected("", multi) && impl_selected("", "cpu_shift"));
    /* prefixes at the start of the name */
    T_CHECK(impl_selected("gpu_sparse_stream", stream));
    T_CHECK(!impl_selected("gpu_sparse_stream", multi));
    T_CHECK(impl_selected("gpu_sparse", stream) && impl_selected("gpu_sparse", table));
    T_CHECK(!impl_selected("sparse_stream", stream)); /* not a substring match */
    T_CHECK(!impl_selected("gpu_sparse_stream_m3_g1_direct", stream)); /* longer than the name */
    T_CHECK(impl_selected("cpu_shift,gpu_sparse_table", table) && impl_selected("cpu_shift,gpu_sparse_table", "cpu_shift"));
    T_CHECK(!impl_selected("cpu_shift,gpu_sparse_table", "cpu_tuned"));
    /* the copy row always */
    T_CHECK(impl_selected("cpu_shift", "copy") && impl_selected(",", "copy"));
    /* empty entries select nothing */
    const char *empty[] = {",", ",,", ",,,"};
    for (int i = 0; i < 3; i++) {
        T_CHECK(!impl_selected(empty[i], stream));
        T_CHECK(!impl_selected(empty[i], "cpu_tuned"));
    }
    T_CHECK(impl_selected(",cpu_tuned", "cpu_tuned") && !impl_selected(",cpu_tuned", stream));
    T_CHECK(impl_selected("cpu_tuned,", "cpu_tuned") && !impl_selected("cpu_tuned,", stream));
    T_CHECK(impl_selected("gpu_sparse_multi,,cpu_shift", "cpu_shift") && impl_selected("gpu_sparse_multi,,cpu_shift", multi));
    T_CHECK(!impl_selected("gpu_sparse_multi,,cpu_shift", "cpu_tuned"));
    /* the rows of a batch, in order */
    char got[512];
    const struct { const char *impls, *want; } R[] = {
        {NULL, "copy cpu_tuned cpu_tuned_inverse cpu_shift cpu_shift_inverse"},
        {"", "copy cpu_tuned cpu_tuned_inverse cpu_shift cpu_shift_inverse"},
        {"cpu_s", "copy cpu_shift cpu_shift_inverse"},
        {"cpu", "copy cpu_tuned cpu_tuned_inverse cpu_shift cpu_shift_inverse"},
        {"gpu_sparse", "copy"},
        {",", "copy"},
        {"cpu_tuned,", "copy cpu_tuned cpu_tuned_inverse"},
    };
    for (size_t i = 0; i < sizeof R / sizeof *R; i++) {
        rows_of(R[i].impls, got, sizeof got);
        T_CHECK(!strcmp(got, R[i].want));
        if (strcmp(got, R[i].want))
            printf("  --sparse-impls=%s: rows \"%s\", want \"%s\"\n", R[i].impls ? R[i].impls : "(none)", got, R[i].want);
    }
    return T_DONE();
}
