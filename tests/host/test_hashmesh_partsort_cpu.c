/* Host test of hashmesh/hashsort_part.h: the partition of a bucket (high bits = partition,
 * low bits = slot, round trip), the plan (partition width, tile, histogram choice and its
 * refusals), and the whole partitioned hash sort run serially (hsp_sort_cpu) against the
 * paper's CPU hash sort (Listing 1, hash_sort1d_cpu): indices and sorted keys equal for
 * uniform and clustered keys, every partition width, empty partitions, partitions of exactly
 * the table size, and the precondition (two keys in a bucket) failing visibly. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/hashsort_part.h"

static void test_index(void)
{
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++) {
        const unsigned bs[] = {0u, 1u, (1u << pw) - 1u, 1u << pw, (1u << pw) + 1u, 123456789u, 4294967295u};
        int ok = 1;
        for (int a = 0; a < 7; a++) {
            unsigned b = bs[a], q = hsp_part(b, pw), s = hsp_slot(b, pw);
            ok &= s < (1u << pw) && (((unsigned long long)q << pw) | s) == b;
            ok &= hsp_entry_at(q, pw, s) == (size_t)b; /* the region of q starts at q 2^pw */
        }
        T_CHECK(ok);
        const long ms[] = {1, 2, (1L << pw) - 1, 1L << pw, (1L << pw) + 1, 1000003, 4294967296L};
        for (int a = 0; a < 7; a++) {
            long parts = hsp_parts_for(ms[a], pw);
            T_CHECK(parts << pw >= ms[a] && (parts - 1) << pw < ms[a]); /* covers m, no partition to spare */
        }
        int t = hsp_place_threads(pw), warps = t / 32, chunk = (1 << pw) / warps;
        T_CHECK(t % 32 == 0 && t >= 128 && t <= 1024);
        T_CHECK(chunk * warps == (1 << pw) && chunk % 32 == 0 && chunk >= 64); /* the place kernel's warp chunks */
    }
    T_EQ_INT(sizeof(hsp_entry), 8); /* one 8-byte store per key */
}

static void test_plan(void)
{
    char why[256];
    hsp_plan p;
    const long ns[] = {1, 2, 31, 1025, 65536, 1L << 20, 1L << 24, 1L << 27, 2147483647L};
    for (int a = 0; a < 9; a++)
        for (int keys = 0; keys < 2; keys++) {
            long n = ns[a], m = n + n / 2;
            if (m > 4294967296L) m = 4294967296L;
            if (!T_CHECK(hsp_plan_make(&p, n, m, keys, NULL, why, sizeof why) == 0)) continue;
            T_CHECK(p.pw >= HSP_PW_MIN && p.pw <= HSP_PW_MAX_DEFAULT);
            T_CHECK(p.parts == hsp_parts_for(m, p.pw));
            T_CHECK(p.tile == (long)HSP_SCATTER_THREADS * p.ipt && p.tiles * p.tile >= n && (p.tiles - 1) * p.tile < n);
            T_CHECK(p.ipt >= 1 && p.ipt <= HSP_IPT_MAX && !(p.ipt & (p.ipt - 1)));
            T_CHECK(!p.aggregate || p.parts <= HSP_AGG_MAX_BINS);
            T_CHECK(p.ipt <= 8 || (p.aggregate && !keys)); /* the kernels that fit 64 registers */
            T_CHECK(p.keys == keys);
            /* the automatic pw aims at HSP_TARGET_PARTS partitions unless a bound stops it */
            T_CHECK(p.parts <= HSP_TARGET_PARTS || p.pw == HSP_PW_MAX_DEFAULT);
            T_CHECK(p.parts > HSP_TARGET_PARTS / 2 || p.pw == HSP_PW_MIN);
        }
    /* the uniform keys of the sweep at 2^27: pw 14, 12288 partitions, the block histogram */
    T_CHECK(hsp_plan_make(&p, 1L << 27, 201326592L, 0, NULL, why, sizeof why) == 0);
    T_EQ_INT(p.pw, 14);
    T_EQ_INT(p.parts, 12288);
    T_EQ_INT(p.aggregate, 1);
    T_EQ_INT(p.ipt, 16);
    /* the cap and the forced values */
    hsp_tuning t = {0, 15, 0, HSP_AGG_AUTO};
    T_CHECK(hsp_plan_make(&p, 1L << 27, 201326592L, 0, &t, why, sizeof why) == 0);
    T_EQ_INT(p.pw, 15);
    T_EQ_INT(p.parts, 6144);
    hsp_tuning f = {9, 0, 2, HSP_AGG_OFF};
    T_CHECK(hsp_plan_make(&p, 100000, 150000, 1, &f, why, sizeof why) == 0);
    T_CHECK(p.pw == 9 && p.ipt == 2 && !p.aggregate && p.parts == hsp_parts_for(150000, 9));
    hsp_tuning g = {0, 0, 16, HSP_AGG_OFF}; /* 16 keys a thread without the histogram: 8 */
    T_CHECK(hsp_plan_make(&p, 1L << 22, 3L << 21, 0, &g, why, sizeof why) == 0);
    T_CHECK(p.ipt == 8 && p.tiles == (1L << 22) / (HSP_SCATTER_THREADS * 8));
    /* small n: the smallest tile; the block histogram only while a tile has about one key a partition */
    T_CHECK(hsp_plan_make(&p, 1, 1, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.ipt == 1 && p.tiles == 1 && p.parts == 1 && p.pw == HSP_PW_MIN && p.aggregate);
    hsp_tuning h = {8, 0, 0, HSP_AGG_AUTO};
    T_CHECK(hsp_plan_make(&p, 4096, 1000000, 0, &h, why, sizeof why) == 0);
    T_CHECK(p.tile == HSP_SCATTER_THREADS && p.parts == 3907 && !p.aggregate);
    T_CHECK(hsp_plan_make(&p, 4096, 6144, 0, &h, why, sizeof why) == 0);
    T_CHECK(p.parts == 24 && p.aggregate);
    /* refusals: one reason each */
    const struct {
        long n, m;
        hsp_tuning t;
    } bad[] = {{0, 1, {0, 0, 0, HSP_AGG_AUTO}},          {2147483648L, 2147483648L, {0, 0, 0, HSP_AGG_AUTO}},
               {10, 9, {0, 0, 0, HSP_AGG_AUTO}},         {10, 4294967297L, {0, 0, 0, HSP_AGG_AUTO}},
               {10, 10, {HSP_PW_MIN - 1, 0, 0, HSP_AGG_AUTO}}, {10, 10, {HSP_PW_LIMIT + 1, 0, 0, HSP_AGG_AUTO}},
               {10, 10, {0, 16, 0, HSP_AGG_AUTO}},       {10, 10, {0, 0, 3, HSP_AGG_AUTO}},
               {10, 10, {0, 0, 32, HSP_AGG_AUTO}}};
    for (int a = 0; a < 9; a++) {
        why[0] = '\0';
        T_CHECK(hsp_plan_make(&p, bad[a].n, bad[a].m, 0, &bad[a].t, why, sizeof why) == 1 && why[0]);
    }
}

/* The serial partitioned sort of k with tuning t equals Listing 1 (indices and keys). */
static void check_cpu(const keys1d *k, const hsp_tuning *t, const char *what)
{
    long n = k->n;
    hsp_plan p;
    char why[256];
    if (!T_CHECK(hsp_plan_make(&p, n, k->m, 1, t, why, sizeof why) == 0)) {
        fprintf(stderr, "  %s: %s\n", what, why);
        return;
    }
    int *tab = (int *)gen_alloc(sizeof(int) * (size_t)k->m), *ref = (int *)gen_alloc(sizeof(int) * n),
        *got = (int *)gen_alloc(sizeof(int) * n), *ptab = (int *)gen_alloc(sizeof(int) << p.pw);
    double *sref = (double *)gen_alloc(sizeof(double) * n), *sgot = (double *)gen_alloc(sizeof(double) * n);
    unsigned *cnt = (unsigned *)gen_alloc(sizeof(unsigned) * (size_t)p.parts);
    long *off = (long *)gen_alloc(sizeof(long) * (size_t)(p.parts + 1));
    hsp_entry *part = (hsp_entry *)gen_alloc(sizeof(hsp_entry) * ((size_t)p.parts << p.pw));
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, tab, k->m, ref, sref), n);
    memset(got, 0xAB, sizeof(int) * n);
    memset(sgot, 0xFF, sizeof(double) * n);
    long w = hsp_sort_cpu(k->x, &p, k->xmin, k->dmin, cnt, off, part, ptab, got, sgot);
    int ok = T_CHECK(w == n);
    ok &= T_CHECK(off[p.parts] == n);
    ok &= T_CHECK(memcmp(got, ref, sizeof(int) * n) == 0);
    ok &= T_CHECK(memcmp(sgot, sref, sizeof(double) * n) == 0);
    if (!ok) fprintf(stderr, "  failed: %s (n %ld, m %ld, pw %d, parts %ld)\n", what, n, k->m, p.pw, p.parts);
    free(tab); free(ref); free(got); free(ptab); free(sref); free(sgot); free(cnt); free(off); free(part);
}

int main(void)
{
    test_index();
    test_plan();
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
    keys1d k;
    for (int a = 0; a < 6; a++) {
        keys1d_generate(&k, ns[a], 2.0, 4.0, 17 + ns[a]);
        check_cpu(&k, NULL, "uniform keys");
        keys1d_free(&k);
        keys1d_clustered(&k, ns[a], 2.0, 1.2, 29 + ns[a]);
        check_cpu(&k, NULL, "clustered keys, alpha 1.2");
        keys1d_free(&k);
    }
    /* every partition width on one input: one partition (pw 15) down to many (pw 8) */
    keys1d_generate(&k, 20011, 2.0, 3.0, 5);
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++) {
        hsp_tuning t = {pw, 15, 0, HSP_AGG_AUTO};
        check_cpu(&k, &t, "forced partition width");
    }
    keys1d_free(&k);
    /* clustered keys with heavy gaps: most partitions empty */
    keys1d_clustered(&k, 5000, 2.0, 0.9, 3);
    hsp_tuning t8 = {8, 0, 0, HSP_AGG_AUTO};
    check_cpu(&k, &t8, "clustered keys, alpha 0.9 (empty partitions)");
    keys1d_free(&k);
    /* partitions of exactly the table size (every bucket used), and one key more */
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw += 7) {
        hsp_tuning t = {pw, 15, 0, HSP_AGG_AUTO};
        keys1d_generate(&k, 3L << pw, 2.0, 2.0, 9);
        check_cpu(&k, &t, "full partitions");
        keys1d_free(&k);
        keys1d_generate(&k, (3L << pw) + 1, 2.0, 2.0, 10);
        check_cpu(&k, &t, "full partitions and one key");
        keys1d_free(&k);
    }
    /* the precondition: keys closer than dmin share a bucket and the sort loses one of them
     * (as Listing 1's table does), so its count shows it */
    {
        double x[4] = {0.0, 2.0, 2.5, 6.0};
        hsp_plan p;
        char why[128];
        unsigned cnt[1];
        long off[2];
        hsp_entry part[256];
        int tab[256], idx[4] = {-1, -1, -1, -1};
        T_CHECK(hsp_plan_make(&p, 4, 4, 0, NULL, why, sizeof why) == 0);
        T_EQ_INT(hsp_sort_cpu(x, &p, 0.0, 2.0, cnt, off, part, tab, idx, NULL), 3);
    }
    return T_DONE();
}
