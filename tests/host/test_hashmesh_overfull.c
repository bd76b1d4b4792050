/* test_hashmesh_overfull.c -- the partitioned hash sort (hashmesh/hashsort_part.h) when a
 * partition receives more keys than its fixed region holds, in every scheme: direct, ranked
 * and two-level (a full coarse partition and a full fine one).  That happens only when keys
 * share a bucket (the perfect hash's precondition broken, keys closer than dmin); the sort
 * must then drop the extra keys, never write them into the next partition's region (or past
 * the buffer: the last partition is overfull too, which the asan build sees), and every other
 * partition must come out exactly as without the extra keys.
 *
 * The oracle is a second implementation written differently (lists, no regions): the keys
 * arrive in input order (tiles of pass 1 in reverse order when `reverse`); a coarse partition
 * keeps its first 2^pw1 arrivals, a fine partition the first 2^pw of those (two-level); a
 * bucket keeps the last key it got; partition q's output starts at the number of keys that
 * arrived in the partitions before it (the coarse ones counted whole, its fine siblings
 * counted up to their width); positions that no partition writes keep their poison. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "hashmesh_overfull_keys.h"
#include "../../hashmesh/hashsort_part.h"

#define POISON (-7)

/* got == want, printed when not; the check's outcome */
static int eq_long(long got, long want, const char *what)
{
    int ok = T_CHECK(got == want);
    if (!ok) fprintf(stderr, "  %s: got %ld, expected %ld\n", what, got, want);
    return ok;
}

/* the oracle: the expected idx[] (n entries, POISON where nothing is written) and the count */
static long oracle(const double *x, long n, long m, int pw1, int pw, long tile, int reverse, int *want)
{
    long parts1 = (m + (1L << pw1) - 1) >> pw1, parts = parts1 << (pw1 - pw), tiles = (n + tile - 1) / tile;
    long W1 = 1L << pw1, W = 1L << pw;
    long *arr = (long *)gen_alloc(sizeof(long) * (size_t)n), na = 0; /* arrival order */
    for (long a = 0; a < tiles; a++) {
        long t = reverse ? tiles - 1 - a : a;
        for (long i = t * tile; i < n && i < (t + 1) * tile; i++) arr[na++] = i;
    }
    long *c1 = (long *)calloc((size_t)parts1, sizeof(long)), *c2 = (long *)calloc((size_t)parts, sizeof(long));
    long *last = (long *)gen_alloc(sizeof(long) * (size_t)m);
    for (long b = 0; b < m; b++) last[b] = -1;
    for (long a = 0; a < n; a++) {
        long i = arr[a], b = (long)x[i], q1 = b >> pw1, f = b >> pw;
        if (c1[q1]++ >= W1) continue; /* the coarse region is full */
        if (c2[f]++ >= W) continue;   /* the fine region is full */
        last[b] = i;
    }
    for (long i = 0; i < n; i++) want[i] = POISON;
    long written = 0, before = 0; /* keys that arrived in the coarse partitions before */
    for (long q1 = 0; q1 < parts1; q1++) {
        long base = before;
        for (long f = q1 << (pw1 - pw); f < (q1 + 1) << (pw1 - pw); f++) {
            long o = base;
            for (long b = f << pw; b < (f + 1) << pw && b < m; b++)
                if (last[b] >= 0) {
                    want[o++] = (int)last[b];
                    written++;
                }
            base += pw1 == pw ? c2[f] : c2[f] < W ? c2[f] : W;
        }
        before += c1[q1];
    }
    free(arr); free(c1); free(c2); free(last);
    return written;
}

static int *got_array(long n)
{
    int *a = (int *)gen_alloc(sizeof(int) * (size_t)n);
    for (long i = 0; i < n; i++) a[i] = POISON;
    return a;
}

/* the direct scheme (hsp_sort_cpu), partition width pw */
static void check_direct(const region *r, int nr, long m, int pw, const char *what)
{
    double *x;
    long n = make_keys(&x, r, nr, 7 + (uint64_t)m);
    hsp_tuning t = {pw, pw, 0, HSP_AGG_AUTO, HSP_SCHEME_DIRECT, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    hsp_plan p;
    char why[256];
    if (!T_CHECK(hsp_plan_make(&p, n, m, 1, &t, why, sizeof why) == 0)) { fprintf(stderr, "  %s: %s\n", what, why); free(x); return; }
    T_EQ_INT(p.scheme, HSP_SCHEME_DIRECT);
    T_EQ_INT(p.pw, pw);
    /* every array of exactly its size: a write past a region of the last partition, or a
     * read past the table, is an asan report */
    unsigned *cnt = (unsigned *)gen_alloc(sizeof(unsigned) * (size_t)p.parts);
    long *off = (long *)gen_alloc(sizeof(long) * (size_t)(p.parts + 1));
    hsp_entry *part = (hsp_entry *)gen_alloc(sizeof(hsp_entry) * ((size_t)p.parts << p.pw));
    int *tab = (int *)gen_alloc(sizeof(int) << p.pw), *want = (int *)gen_alloc(sizeof(int) * (size_t)n), *got = got_array(n);
    double *sorted = (double *)gen_alloc(sizeof(double) * (size_t)n);
    long ww = oracle(x, n, m, pw, pw, n, 0, want);
    long w = hsp_sort_cpu(x, &p, 0.0, 1.0, cnt, off, part, tab, got, sorted);
    int ok = eq_long(w, ww, "keys written");
    ok &= T_CHECK(off[p.parts] == n); /* the offsets count every key, kept or not */
    ok &= T_CHECK(!memcmp(got, want, sizeof(int) * (size_t)n));
    for (long i = 0; i < n; i++)
        if (got[i] != POISON) ok &= T_CHECK(sorted[i] == x[got[i]]);
    if (!ok) fprintf(stderr, "  failed: direct, %s (n %ld, m %ld, pw %d)\n", what, n, m, pw);
    free(x); free(cnt); free(off); free(part); free(tab); free(want); free(got); free(sorted);
}

/* the ranked (pw1 = 0) or two-level scheme (hsp_sort_ranked_cpu), both tile orders, both
 * place passes */
static void check_ranked(const region *r, int nr, long m, int pw, int pw1, const char *what)
{
    double *x;
    long n = make_keys(&x, r, nr, 11 + (uint64_t)m);
    hsp_scheme sc = pw1 ? HSP_SCHEME_TWO_LEVEL : HSP_SCHEME_RANKED;
    for (int bitmap = 0; bitmap < 2; bitmap++) {
        hsp_tuning t = {pw, 0, 4, HSP_AGG_AUTO, sc, 0, pw1, HSP_MATCH_AUTO, 4, bitmap ? HSP_BITMAP_ON : HSP_BITMAP_OFF};
        hsp_plan p;
        char why[256];
        if (!T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 0)) { fprintf(stderr, "  %s: %s\n", what, why); break; }
        T_EQ_INT(p.scheme, sc);
        T_EQ_INT(p.pw, pw);
        T_EQ_INT(p.pw1, pw1 ? pw1 : pw);
        hsp_cpu_bufs b;
        hsp_cpu_bufs_alloc(&b, &p);
        int *want = (int *)gen_alloc(sizeof(int) * (size_t)n);
        for (int reverse = 0; reverse < 2; reverse++) {
            int *got = got_array(n);
            long ww = oracle(x, n, m, p.pw1, p.pw, p.tile, reverse, want);
            long w = hsp_sort_ranked_cpu(x, &p, 0.0, 1.0, &b, reverse, got, NULL);
            int ok = eq_long(w, ww, "keys written");
            ok &= T_CHECK(b.off1[p.parts1] == n);
            ok &= T_CHECK(!memcmp(got, want, sizeof(int) * (size_t)n));
            if (p.rbits) ok &= T_CHECK(b.tstart[p.parts1] <= p.tiles2);
            if (!ok)
                fprintf(stderr, "  failed: %s, %s (n %ld, m %ld, pw %d, pw1 %d, reverse %d, bitmap %d)\n",
                        HSP_SCHEME_NAME[sc], what, n, m, p.pw, p.pw1, reverse, bitmap);
            free(got);
        }
        free(want);
        hsp_cpu_bufs_free(&b);
    }
    free(x);
}

int main(void)
{
    /* one level, W = 256, four partitions: 0 overfull (300 keys in 200 buckets: a region of
     * 256 entries), 1 ordinary, 2 empty, 3 (the last) full and 44 keys over */
    const region one[] = {{0, 200, 100}, {256, 100, 0}, {768, 256, 44}};
    check_direct(one, 3, 1024, 8, "overfull first and last partitions");
    /* the region overfull by exactly one key, and full without one over (boundary) */
    const region by1[] = {{0, 256, 1}, {256, 256, 0}, {512, 10, 0}};
    check_direct(by1, 3, 768, 8, "a partition one key over its region");
    /* ranked: the same kind of set, more keys than one tile of 2048 (32 partitions) */
    const region big[] = {{0, 256, 900}, {256, 100, 0}, {1024, 250, 0}, {7936, 256, 1500}};
    check_ranked(big, 4, 8192, 8, 0, "overfull first and last partitions");
    check_direct(big, 4, 8192, 8, "overfull by more than a tile");
    check_ranked(by1, 3, 768, 8, 0, "a partition one key over its region");
    /* two-level, fine 2^8, coarse 2^9 (two fine a coarse one, 16 coarse): coarse 0 overfull
     * (its 512 buckets and 1000 keys more), coarse 1 not, but its fine partition 2 is (256 +
     * 300 keys), coarse 2 ordinary, coarse 15 (the last) overfull in its last fine partition */
    const region two[] = {{0, 512, 1000}, {512, 256, 300}, {768, 100, 0}, {1030, 60, 0}, {7680, 200, 0}, {7936, 256, 700}};
    check_ranked(two, 6, 8192, 8, 9, "overfull coarse and fine partitions");
    /* four fine partitions a coarse one: a fine one exactly full and the next one key over;
     * the last coarse one overfull */
    const region two4[] = {{0, 256, 0}, {256, 256, 1}, {7168, 1024, 3000}};
    check_ranked(two4, 3, 8192, 8, 10, "fine partitions full and one key over; a coarse one overfull");
    return T_DONE();
}
