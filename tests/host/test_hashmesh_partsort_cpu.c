/* Host test of hashmesh/hashsort_part.h: the partition of a bucket (high bits = partition,
 * low bits = slot, round trip), the plan of each scheme (direct, ranked, two-level: widths,
 * tiles, histogram and ranking choices, the automatic choice of scheme and its refusals), the
 * two-level index logic (fine partitions, the fine pass's tile starts and their grid bound,
 * where a fine partition starts), and the whole partitioned hash sort run serially
 * (hsp_sort_cpu, hsp_sort_ranked_cpu) against the paper's CPU hash sort (Listing 1,
 * hash_sort1d_cpu): indices and sorted keys equal for uniform and clustered keys, every
 * partition width, ranked passes whose tiles reserve in either order, coarse partitions of
 * every width above the fine one, empty partitions, partitions of exactly the table size and
 * one key more, one coarse partition of many fine-pass tiles, and the precondition (two keys
 * in a bucket) failing visibly.  The same for the partitioned sort on all cores
 * (hashsort_omp.h): 1, 2 and 4 threads, forced widths and chunk sizes (chunks limited by the
 * entry's 32 - pw bits of place), entries round trip, run records add up, two runs in a row. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/hashsort_part.h"
#include "../../hashmesh/hashsort_omp.h"
#include "hashmesh_partsort_cases.h"

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

/* a tuning with only the scheme set (the rest automatic) */
static hsp_tuning scheme_only(hsp_scheme sc)
{
    hsp_tuning t;
    memset(&t, 0, sizeof t);
    t.scheme = sc;
    return t;
}

/* the invariants of any plan p made for n keys over m buckets */
static int plan_ok(const hsp_plan *p, long n, long m, int keys)
{
    int ok = p->n == n && p->m == m && p->keys == keys && p->pw >= HSP_PW_MIN && p->pw <= HSP_PW_LIMIT;
    ok &= p->tile == (long)HSP_SCATTER_THREADS * p->ipt && p->tiles * p->tile >= n && (p->tiles - 1) * p->tile < n;
    ok &= p->ipt >= 1 && p->ipt <= HSP_IPT_MAX && !(p->ipt & (p->ipt - 1));
    ok &= p->place_threads == hsp_place_threads(p->pw);
    ok &= p->parts << p->pw >= m && (p->parts1 - 1) << p->pw1 < m; /* covers m, no coarse partition to spare */
    switch (p->scheme) {
    case HSP_SCHEME_DIRECT:
        ok &= p->pw1 == p->pw && p->parts1 == p->parts && p->rbits == 0 && p->parts == hsp_parts_for(m, p->pw);
        ok &= !p->aggregate || p->parts <= HSP_AGG_MAX_BINS;
        ok &= p->ipt <= 8 || (p->aggregate && !keys); /* the kernels that fit 64 registers */
        break;
    case HSP_SCHEME_RANKED:
        ok &= !keys && p->pw1 == p->pw && p->parts1 == p->parts && p->rbits == 0 && p->parts == hsp_parts_for(m, p->pw);
        ok &= p->ipt >= HSP_RANK_IPT_MIN && p->parts <= HSP_RANK_BINS_LIMIT && !p->match2;
        break;
    case HSP_SCHEME_TWO_LEVEL:
        ok &= !keys && p->pw1 > p->pw && p->pw1 <= HSP_COARSE_PW_LIMIT && p->rbits == p->pw1 - p->pw;
        ok &= p->parts1 == hsp_parts_for(m, p->pw1) && p->parts == p->parts1 << p->rbits;
        ok &= p->parts1 <= HSP_RANK_BINS_LIMIT && (1L << p->rbits) <= HSP_RANK_BINS_LIMIT && p->ipt >= HSP_RANK_IPT_MIN;
        ok &= p->tile2 == (long)HSP_SCATTER_THREADS * p->ipt2 && p->tiles2 == n / p->tile2 + p->parts1;
        break;
    default: ok = 0;
    }
    /* a ranked block's shared memory (two an SM want <= 113 KiB each; the limit is 227 KiB) */
    if (p->scheme != HSP_SCHEME_DIRECT) ok &= hsp_rank_smem(p->tile, p->parts1) <= 227 * 1024;
    return ok;
}

static void test_plan(void)
{
    char why[256];
    hsp_plan p;
    const long ns[] = {1, 2, 31, 1025, 65536, 1L << 20, (1L << 22) - 1, 1L << 22, 1L << 24, 1L << 25, 1L << 26,
                       1L << 27, 2147483647L};
    const int nns = (int)(sizeof ns / sizeof ns[0]);
    for (int a = 0; a < nns; a++)
        for (int mult = 0; mult < 3; mult++) /* m = 1.5 n (uniform keys), 6.5 n (clustered), 2^32 */
            for (int keys = 0; keys < 2; keys++) {
                long n = ns[a], m = mult == 0 ? n + n / 2 : mult == 1 ? n * 13 / 2 : 4294967296L;
                if (m > 4294967296L) m = 4294967296L;
                if (m < n) m = n;
                if (!T_CHECK(hsp_plan_make(&p, n, m, keys, NULL, why, sizeof why) == 0)) {
                    fprintf(stderr, "  n %ld m %ld: %s\n", n, m, why);
                    continue;
                }
                T_CHECK(plan_ok(&p, n, m, keys));
                T_CHECK(!p.bitmap); /* automatic: the int table's scan */
                if (p.scheme != HSP_SCHEME_DIRECT) /* automatic ranking by match: into at most 4 partitions */
                    T_CHECK(p.match1 == (p.parts1 <= 4) && p.match2 == (p.rbits > 0 && p.rbits <= 2));
                /* the automatic scheme: direct below HSP_RANK_MIN_N keys or with the keys; ranked
                 * while its partitions are few enough; two-level beyond */
                if (keys || n < HSP_RANK_MIN_N) T_EQ_INT(p.scheme, HSP_SCHEME_DIRECT);
                else if (hsp_parts_for(m, hsp_auto_pw(m, HSP_TARGET_PARTS, HSP_PW_MIN, HSP_PW_LIMIT)) <= HSP_RANK_PARTS_MAX)
                    T_EQ_INT(p.scheme, HSP_SCHEME_RANKED);
                else T_EQ_INT(p.scheme, HSP_SCHEME_TWO_LEVEL);
                if (p.scheme == HSP_SCHEME_DIRECT) { /* the direct pw aims at HSP_TARGET_PARTS unless a bound stops it */
                    T_CHECK(p.pw <= HSP_PW_MAX_DEFAULT);
                    T_CHECK(p.parts <= HSP_TARGET_PARTS || p.pw == HSP_PW_MAX_DEFAULT);
                    T_CHECK(p.parts > HSP_TARGET_PARTS / 2 || p.pw == HSP_PW_MIN);
                } else if (p.scheme == HSP_SCHEME_RANKED)
                    T_CHECK(p.parts <= HSP_RANK_PARTS_MAX);
                else { /* about HSP_COARSE_TARGET coarse partitions, the fine ones of HSP_FINE_PW */
                    T_CHECK(p.pw == HSP_FINE_PW);
                    T_CHECK(p.parts1 <= HSP_COARSE_TARGET || p.pw1 == HSP_COARSE_PW_LIMIT);
                    T_CHECK(p.parts1 >= HSP_COARSE_TARGET / 2 || p.pw1 == p.pw + 1);
                }
            }
    /* the sweep's sizes: uniform 2^25 ranked (pw 15, 1536 partitions), 2^26 and 2^27 two-level;
     * clustered 2^23 ranked, 2^24 two-level */
    T_CHECK(hsp_plan_make(&p, 1L << 25, 50331648L, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.pw == 15 && p.parts == 1536 && p.ipt == 16 && p.tiles == 4096);
    T_CHECK(!p.match1 && !p.match2);
    T_CHECK(hsp_plan_make(&p, 1L << 27, 201326592L, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_TWO_LEVEL && p.pw == 14 && p.pw1 == 18 && p.parts1 == 768 && p.rbits == 4);
    T_CHECK(p.parts == 12288 && p.ipt2 == HSP_FINE_IPT && !p.match2 && !p.match1 && !p.bitmap);
    T_CHECK(hsp_plan_make(&p, 1L << 23, 42519922L, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.pw == 15 && p.parts == 1298);
    T_CHECK(hsp_plan_make(&p, 1L << 24, 87893741L, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_TWO_LEVEL && p.pw1 == 17 && p.parts1 == 671 && p.rbits == 3);
    T_CHECK(!p.match1 && !p.match2 && !p.bitmap); /* the clustered keys' m = 5.2 n: still the int table */
    /* automatic ranking by match only into at most HSP_MATCH_BINS partitions: the fine pass
     * into 2 (coarse 2^15 of fine 2^14) and 4, not 8 */
    for (int rb = 1; rb <= 3; rb++) {
        hsp_tuning two = scheme_only(HSP_SCHEME_TWO_LEVEL);
        two.coarse_pw = HSP_FINE_PW + rb;
        T_CHECK(hsp_plan_make(&p, 1L << 22, 3L << 21, 0, &two, why, sizeof why) == 0);
        T_CHECK(p.rbits == rb && p.match2 == (rb <= 2) && !p.match1);
    }
    /* the direct scheme as before: the uniform keys at 2^27 give pw 14, 12288 partitions, the block histogram */
    hsp_tuning direct = scheme_only(HSP_SCHEME_DIRECT);
    T_CHECK(hsp_plan_make(&p, 1L << 27, 201326592L, 0, &direct, why, sizeof why) == 0);
    T_EQ_INT(p.scheme, HSP_SCHEME_DIRECT);
    T_EQ_INT(p.pw, 14);
    T_EQ_INT(p.parts, 12288);
    T_EQ_INT(p.aggregate, 1);
    T_EQ_INT(p.ipt, 16);
    /* the cap and the forced values */
    hsp_tuning t = {0, 15, 0, HSP_AGG_AUTO, HSP_SCHEME_DIRECT, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 1L << 27, 201326592L, 0, &t, why, sizeof why) == 0);
    T_EQ_INT(p.pw, 15);
    T_EQ_INT(p.parts, 6144);
    hsp_tuning f = {9, 0, 2, HSP_AGG_OFF, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 100000, 150000, 1, &f, why, sizeof why) == 0);
    T_CHECK(p.pw == 9 && p.ipt == 2 && !p.aggregate && p.parts == hsp_parts_for(150000, 9));
    hsp_tuning g = {0, 0, 16, HSP_AGG_OFF, HSP_SCHEME_DIRECT, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}; /* 16 keys a thread without the histogram: 8 */
    T_CHECK(hsp_plan_make(&p, 1L << 22, 3L << 21, 0, &g, why, sizeof why) == 0);
    T_CHECK(p.ipt == 8 && p.tiles == (1L << 22) / (HSP_SCATTER_THREADS * 8));
    /* ranked: a forced width, partition cap and ranking; the cap moves the automatic choice */
    hsp_tuning r = {12, 0, 8, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 0, 0, HSP_MATCH_ON, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 1L << 20, 3L << 19, 0, &r, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.pw == 12 && p.parts == 384 && p.ipt == 8 && p.match1 && plan_ok(&p, 1L << 20, 3L << 19, 0));
    hsp_tuning cap = {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 4096, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 1L << 26, 100663296L, 0, &cap, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.parts == 3072);
    cap.parts_max = 0;
    T_CHECK(hsp_plan_make(&p, 1L << 26, 100663296L, 0, &cap, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_TWO_LEVEL && p.pw1 == 17 && p.parts1 == 768 && p.rbits == 3);
    /* two-level with forced widths at a small n: coarse partitions far wider than a table */
    hsp_tuning two = {8, 0, 4, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 16, HSP_MATCH_OFF, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 1000, 1500, 0, &two, why, sizeof why) == 0);
    T_CHECK(p.pw == 8 && p.pw1 == 16 && p.parts1 == 1 && p.rbits == 8 && p.parts == 256 && !p.match2 && p.tiles2 == 1);
    T_CHECK(plan_ok(&p, 1000, 1500, 0));
    /* small n: the smallest tile; the block histogram only while a tile has about one key a partition */
    T_CHECK(hsp_plan_make(&p, 1, 1, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.ipt == 1 && p.tiles == 1 && p.parts == 1 && p.pw == HSP_PW_MIN && p.aggregate);
    hsp_tuning h = {8, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    T_CHECK(hsp_plan_make(&p, 4096, 1000000, 0, &h, why, sizeof why) == 0);
    T_CHECK(p.tile == HSP_SCATTER_THREADS && p.parts == 3907 && !p.aggregate);
    T_CHECK(hsp_plan_make(&p, 4096, 6144, 0, &h, why, sizeof why) == 0);
    T_CHECK(p.parts == 24 && p.aggregate);
    /* refusals: one reason each */
    const struct {
        long n, m;
        int keys;
        hsp_tuning t;
    } bad[] = {
        {0, 1, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {2147483648L, 2147483648L, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 9, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 4294967297L, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {HSP_PW_MIN - 1, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {HSP_PW_LIMIT + 1, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {0, 16, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {0, 0, 3, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {0, 0, 32, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 1, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},    /* ranked: indices only */
        {10, 10, 1, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* two-level too */
        {10, 10, 0, {0, 0, 2, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},    /* ranked: ipt >= 4 */
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 8193, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* parts_max past the limit */
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_RANKED, -1, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 4294967296L, 0, {8, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* 2^24 partitions */
        {10, 10, 0, {14, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 14, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* coarse not wider */
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, HSP_COARSE_PW_LIMIT + 1, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 4294967296L, 0, {8, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 9, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* 2^23 coarse */
        {10, 10, 0, {8, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 22, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}}, /* 2^14 fine a coarse */
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, (hsp_scheme)4, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO}},
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 0, HSP_MATCH_AUTO, 2, HSP_BITMAP_AUTO}}, /* fine pass: ipt2 >= 4 */
        {10, 10, 0, {0, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 0, HSP_MATCH_AUTO, 32, HSP_BITMAP_AUTO}},
    };
    for (int a = 0; a < (int)(sizeof bad / sizeof bad[0]); a++) {
        why[0] = '\0';
        if (!T_CHECK(hsp_plan_make(&p, bad[a].n, bad[a].m, bad[a].keys, &bad[a].t, why, sizeof why) == 1 && why[0]))
            fprintf(stderr, "  refusal %d not refused\n", a);
    }
}

/* splitmix-style generator for the index tests */
static unsigned long long next_rand(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* the bitmap place pass's helpers: the r-th set bit, the lane of an output */
static void test_bits(void)
{
    unsigned long long s = 777;
    int ok = 1;
    for (int rep = 0; rep < 3000; rep++) {
        unsigned w = (unsigned)next_rand(&s);
        if (rep % 3 == 1) w &= (unsigned)next_rand(&s); /* sparser */
        if (rep == 0) w = 0xFFFFFFFFu;
        if (rep == 1) w = 0x80000001u;
        int r = 0;
        for (int b = 0; b < 32; b++)
            if (w >> b & 1u) ok &= hsp_nth_bit(w, r++) == b; /* every set bit, in order */
        ok &= hsp_popc(w) == r;
        int incl[32], sum = 0;
        for (int l = 0; l < 32; l++) {
            sum += rep % 5 == 0 ? (l == 31) * 7 : (int)(next_rand(&s) % 4) * (int)(next_rand(&s) % 2);
            incl[l] = sum;
        }
        for (int p = 0; p < sum; p++) { /* the lane whose [exclusive, inclusive) count range holds p */
            int L = hsp_lane_of(incl, p);
            ok &= L >= 0 && L < 32 && incl[L] > p && (L == 0 || incl[L - 1] <= p);
        }
    }
    T_CHECK(ok);
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++) { /* the warps' words tile the bitmap */
        int words = hsp_bit_words(pw), chw = hsp_warp_words(pw), warps = hsp_place_threads(pw) >> 5;
        T_CHECK(words * 32 == 1 << pw && chw * warps == words && chw >= 1 && chw <= 32);
    }
}

/* two-level index logic: fine partitions, the fine pass's tile starts and grid, where a fine
 * partition starts */
static void test_two_level_index(void)
{
    /* hsp_fine_part: coarse q's slot s1 -> its fine partition, whose bucket range holds the bucket */
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++)
        for (int rbits = 1; rbits <= 8; rbits++) {
            int pw1 = pw + rbits, ok = 1;
            const unsigned bs[] = {0u, 1u, (1u << pw) - 1u, 1u << pw, (1u << pw1) - 1u, 1u << pw1, 123456789u, 4294967295u};
            for (int a = 0; a < 8; a++) {
                unsigned b = bs[a], q = hsp_part(b, pw1), s1 = hsp_slot(b, pw1), f = hsp_fine_part(q, rbits, s1, pw);
                ok &= f == hsp_part(b, pw) && hsp_slot(s1, pw) == hsp_slot(b, pw); /* = a direct split by pw */
                ok &= f >> rbits == q;
            }
            T_CHECK(ok);
        }
    T_EQ_INT(hsp_clamp(5u, 8u), 5);
    T_EQ_INT(hsp_clamp(9u, 8u), 8);
    T_EQ_INT(hsp_tiles_of(0u, 4096u), 0);
    T_EQ_INT(hsp_tiles_of(1u, 4096u), 1);
    T_EQ_INT(hsp_tiles_of(4096u, 4096u), 1);
    T_EQ_INT(hsp_tiles_of(4097u, 4096u), 2);
    /* tile starts of random counts (many zero, some exactly full tiles): every tile maps to the
     * partition a linear walk gives; the grid n / tile + parts covers them; fine bases match
     * a direct sum */
    unsigned long long s = 12345;
    for (int rep = 0; rep < 200; rep++) {
        long parts = 1 + (long)(next_rand(&s) % 300);
        unsigned tile = 1u << (2 + next_rand(&s) % 4), W = 1u << (3 + next_rand(&s) % 6);
        unsigned *cnt = (unsigned *)hsp_calloc((size_t)parts, sizeof(unsigned));
        int *tstart = (int *)hsp_calloc((size_t)parts + 1, sizeof(int)), *off = (int *)hsp_calloc((size_t)parts + 1, sizeof(int));
        long n = 0;
        for (long q = 0; q < parts; q++) {
            unsigned k = (unsigned)(next_rand(&s) % 5);
            cnt[q] = k == 0 ? 0u : k == 1 ? tile * (1u + (unsigned)(next_rand(&s) % 3)) : (unsigned)(next_rand(&s) % (W + 1));
            n += cnt[q] < W ? cnt[q] : W;
        }
        tstart[0] = off[0] = 0;
        for (long q = 0; q < parts; q++) {
            tstart[q + 1] = tstart[q] + (int)hsp_tiles_of(hsp_clamp(cnt[q], W), tile);
            off[q + 1] = off[q] + (int)hsp_clamp(cnt[q], W);
        }
        int ok = tstart[parts] <= n / (long)tile + parts; /* the fine pass's grid (hsp_plan_ranked) is enough */
        long q = 0, used = 0;
        for (long t = 0; t < tstart[parts]; t++) {
            while (used == (long)hsp_tiles_of(hsp_clamp(cnt[q], W), tile)) { q++; used = 0; }
            ok &= hsp_tile_part(tstart, parts, t) == q;
            used++;
        }
        ok &= hsp_tile_part(tstart, parts, tstart[parts]) == -1 && hsp_tile_part(tstart, parts, tstart[parts] + 7) == -1;
        /* fine bases: rbits 2, counts taken as the fine counts of parts / 4 coarse ones */
        long coarse = parts / 4;
        int *off1 = (int *)hsp_calloc((size_t)coarse + 1, sizeof(int));
        for (long c = 0; c < coarse; c++) off1[c + 1] = off1[c] + 1000;
        for (long f = 0; f < coarse * 4; f++) {
            long want = off1[f >> 2];
            for (long g = f & ~3L; g < f; g++) want += hsp_clamp(cnt[g], W);
            ok &= hsp_fine_base(off1, cnt, f, 2, W) == want;
        }
        T_CHECK(ok);
        free(cnt); free(tstart); free(off); free(off1);
    }
}

/* The serial partitioned sort of k with tuning t equals Listing 1 (indices and keys). */
static void check_cpu(const keys1d *k, const hsp_tuning *t, const char *what)
{
    long n = k->n;
    hsp_plan p;
    if (!psc_plan(&p, k, 1, t, what)) return;
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

/* The serial ranked or two-level sort of k with tuning t (tiles of pass 1 in both orders)
 * equals Listing 1; the run's counters add up: every key counted once in pass 1 (off1 ends at
 * n), once in the fine pass (the fine counts add up to n), and the fine pass's tiles fit its
 * grid. */
static void check_ranked1(const keys1d *k, const hsp_tuning *t, hsp_scheme expect, const char *what)
{
    long n = k->n;
    hsp_plan p;
    if (!psc_plan(&p, k, 0, t, what)) return;
    T_EQ_INT(p.scheme, expect);
    T_EQ_INT(p.bitmap, t->bitmap == HSP_BITMAP_ON);
    int *tab = (int *)gen_alloc(sizeof(int) * (size_t)k->m), *ref = (int *)gen_alloc(sizeof(int) * n),
        *got = (int *)gen_alloc(sizeof(int) * n);
    double *sref = (double *)gen_alloc(sizeof(double) * n), *sgot = (double *)gen_alloc(sizeof(double) * n);
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, tab, k->m, ref, sref), n);
    hsp_cpu_bufs b;
    hsp_cpu_bufs_alloc(&b, &p);
    int ok = 1;
    for (int reverse = 0; reverse < 2; reverse++) {
        memset(got, 0xAB, sizeof(int) * n);
        memset(sgot, 0xFF, sizeof(double) * n);
        long w = hsp_sort_ranked_cpu(k->x, &p, k->xmin, k->dmin, &b, reverse, got, sgot);
        ok &= T_CHECK(w == n);
        ok &= T_CHECK(b.off1[p.parts1] == n);
        ok &= T_CHECK(memcmp(got, ref, sizeof(int) * n) == 0);
        ok &= T_CHECK(memcmp(sgot, sref, sizeof(double) * n) == 0);
        if (p.rbits) {
            long sum = 0;
            for (long f = 0; f < p.parts; f++) sum += b.cnt2[f];
            ok &= T_CHECK(sum == n);
            ok &= T_CHECK(b.tstart[p.parts1] <= p.tiles2);
        }
    }
    if (!ok)
        fprintf(stderr, "  failed: %s (n %ld, m %ld, %s, pw %d, pw1 %d, parts %ld, parts1 %ld, ipt %d, bitmap %d)\n", what, n,
                k->m, HSP_SCHEME_NAME[p.scheme], p.pw, p.pw1, p.parts, p.parts1, p.ipt, p.bitmap);
    hsp_cpu_bufs_free(&b);
    free(tab); free(ref); free(got); free(sref); free(sgot);
}
/* the same with either place pass: the int table's scan and the bitmap */
static void check_ranked(const keys1d *k, const hsp_tuning *t, hsp_scheme expect, const char *what)
{
    hsp_tuning u = *t;
    u.bitmap = HSP_BITMAP_OFF;
    check_ranked1(k, &u, expect, what);
    u.bitmap = HSP_BITMAP_ON;
    check_ranked1(k, &u, expect, what);
}

/* the ranked and two-level schemes, serially */
static void test_ranked(void)
{
    keys1d k;
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
#ifdef TEST_SANITIZE
    const int nns = 5;
#else
    const int nns = 6;
#endif
    for (int a = 0; a < nns; a++) psc_uniform_clustered(ns[a], check_ranked); /* automatic widths */
    /* every fine width, every coarse width above it (1 .. 8 fine partitions a coarse one), every tile */
    keys1d_generate(&k, 30011, 2.0, 3.0, 5);
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++) {
        hsp_tuning r = psc_tuning(HSP_SCHEME_RANKED, pw, 0, 4 << (pw % 3), HSP_MATCH_AUTO);
        check_ranked(&k, &r, HSP_SCHEME_RANKED, "ranked, forced width");
        for (int pw1 = pw + 1; pw1 <= pw + 8 && pw1 <= HSP_COARSE_PW_LIMIT; pw1 += 1 + (pw & 1)) {
            hsp_tuning two = psc_tuning(HSP_SCHEME_TWO_LEVEL, pw, pw1, 4 << (pw1 % 3), HSP_MATCH_AUTO);
            two.ipt2 = 4 << ((pw + pw1) % 3);
            check_ranked(&k, &two, HSP_SCHEME_TWO_LEVEL, "two-level, forced widths");
        }
    }
    keys1d_free(&k);
    /* ranking by match; one ranked pass at its most partitions (8192 of 2^8 buckets: m = 2^21),
     * one bucket more is refused */
    long clo[2] = {0, (1L << 21) - 5000}, clen[2] = {50000, 5000};
    keys1d_ranges(&k, clo, clen, 2, 8);
    hsp_tuning mr = psc_tuning(HSP_SCHEME_RANKED, 8, 0, 16, HSP_MATCH_ON);
    check_ranked(&k, &mr, HSP_SCHEME_RANKED, "ranked, match, 8192 partitions");
    mr.match = HSP_MATCH_OFF;
    check_ranked(&k, &mr, HSP_SCHEME_RANKED, "ranked, 8192 partitions");
    {
        hsp_plan p;
        char why[128];
        T_CHECK(hsp_plan_make(&p, k.n, k.m + 1, 0, &mr, why, sizeof why) == 1);
    }
    keys1d_free(&k);
    /* empty partitions: dense runs far apart (coarse partitions with no key at all) */
    psc_empty_partitions(11111, check_ranked);
    /* full partitions (every bucket used) and one key more; one coarse partition of many
     * fine-pass tiles, exactly a multiple of the tile and one key past it */
    const int pws[] = {8, 12, 15};
    for (int a = 0; a < 3; a++) psc_full_partitions(pws[a], a, check_ranked);
    psc_many_tiles(check_ranked);
    /* the precondition: two keys in one bucket -> one of them is lost, the count shows it */
    {
        double x[4] = {0.0, 2.0, 2.5, 6.0};
        for (int sc = HSP_SCHEME_RANKED; sc <= HSP_SCHEME_TWO_LEVEL; sc++) {
            hsp_tuning t = psc_tuning((hsp_scheme)sc, 0, 0, 0, HSP_MATCH_AUTO);
            hsp_plan p;
            char why[128];
            int idx[4] = {-1, -1, -1, -1};
            T_CHECK(hsp_plan_make(&p, 4, 4, 0, &t, why, sizeof why) == 0);
            hsp_cpu_bufs b;
            hsp_cpu_bufs_alloc(&b, &p);
            T_EQ_INT(hsp_sort_ranked_cpu(x, &p, 0.0, 2.0, &b, 0, idx, NULL), 3);
            hsp_cpu_bufs_free(&b);
        }
    }
}

/* The partitioned sort on all cores (hashsort_omp.h) of k equals Listing 1, twice in a row
 * (its counters clear themselves, its occupancy bitmaps go back to empty); the recorded runs
 * of every partition add up to its keys. */
static void check_omp(const keys1d *k, int threads, int pw, long chunk, const char *what)
{
    long n = k->n;
    hsp_omp c;
    char why[256];
    if (!T_CHECK(hsp_omp_setup(&c, n, k->m, threads, pw, chunk, why, sizeof why) == 0)) {
        fprintf(stderr, "  %s: %s\n", what, why);
        return;
    }
    int *tab = (int *)gen_alloc(sizeof(int) * (size_t)k->m), *ref = (int *)gen_alloc(sizeof(int) * n),
        *got = (int *)gen_alloc(sizeof(int) * n);
    double *sref = (double *)gen_alloc(sizeof(double) * n), *sgot = (double *)gen_alloc(sizeof(double) * n);
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, tab, k->m, ref, sref), n);
    int ok = 1;
    for (int run = 0; run < 2; run++) {
        memset(got, 0xAB, sizeof(int) * n);
        memset(sgot, 0xFF, sizeof(double) * n);
        ok &= T_CHECK(hsp_sort_omp(&c, k->x, k->xmin, k->dmin, got, run ? NULL : sgot) == n);
        ok &= T_CHECK(c.off[c.parts] == n);
        ok &= T_CHECK(memcmp(got, ref, sizeof(int) * n) == 0);
        if (!run) ok &= T_CHECK(memcmp(sgot, sref, sizeof(double) * n) == 0);
    }
    long dirty = 0, badrun = 0;
    for (long q = 0; q < c.parts; q++) {
        dirty += c.cnt[q] != 0;
        long sum = 0;
        for (long a = 0; a < c.nchunks; a++) sum += (long)(c.runs[a * c.parts + q] >> 32);
        badrun += sum != c.off[q + 1] - c.off[q];
    }
    ok &= T_CHECK(badrun == 0);
    for (size_t w = 0; w < (size_t)c.threads * c.words; w++) dirty += c.occ[w] != 0;
    ok &= T_CHECK(dirty == 0);
    if (!ok) fprintf(stderr, "  failed: %s (n %ld, m %ld, threads %d, pw %d, parts %ld, chunk %ld)\n", what, n, k->m,
                     threads, c.pw, c.parts, c.chunk);
    hsp_omp_free(&c);
    free(tab); free(ref); free(got); free(sref); free(sgot);
}

static void test_omp(void)
{
    keys1d k;
    hsp_omp c;
    char why[256];
    /* the automatic width: about HSP_OMP_TARGET_PARTS partitions of 2^10 .. 2^16 buckets */
    T_CHECK(hsp_omp_setup(&c, 1L << 21, 3145988L, 4, 0, 0, why, sizeof why) == 0);
    T_CHECK(c.pw == 12 && c.parts == 769 && c.chunk == HSP_OMP_CHUNK && c.nchunks == 32);
    T_CHECK(c.stride % 16 == 0 && c.stride > (1u << c.pw)); /* regions a whole number of lines apart, not 2^k */
    hsp_omp_free(&c);
    /* the widest forced partitions take smaller chunks: an entry keeps the place in 32 - pw bits */
    T_CHECK(hsp_omp_setup(&c, 1L << 20, 1L << 21, 1, 20, 0, why, sizeof why) == 0);
    T_CHECK(c.chunk == 4096 && c.nchunks == 256);
    hsp_omp_free(&c);
    /* entries: slot and place round trip at every width, at their largest values */
    int eok = 1;
    for (int pw = HSP_OMP_PW_MIN; pw <= 24; pw++) {
        const unsigned smax = (1u << pw) - 1u, jmax = (unsigned)((1ull << (32 - pw)) - 1u);
        const unsigned ss[] = {0u, 1u, smax}, js[] = {0u, 1u, jmax};
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                unsigned e = hsp_omp_entry(ss[a], js[b], pw);
                eok &= hsp_omp_entry_slot(e, pw) == ss[a] && hsp_omp_entry_place(e, pw) == js[b];
            }
    }
    T_CHECK(eok);
    T_CHECK(hsp_omp_setup(&c, 1000, 1000, 4, 0, 0, why, sizeof why) == 0);
    T_CHECK(c.pw == HSP_OMP_PW_MIN && c.parts == 1);
    hsp_omp_free(&c);
    /* refusals */
    T_CHECK(hsp_omp_setup(&c, 0, 1, 1, 0, 0, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 9, 1, 0, 0, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 0, 0, 0, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 1, 7, 0, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 1, 25, 0, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 1, 0, -1, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 1, 20, 4097, why, sizeof why) == 1);  /* place past 12 bits */
    T_CHECK(hsp_omp_setup(&c, 2147483647L, 4294967296L, 1, 10, 1, why, sizeof why) == 1); /* run records */
    T_CHECK(strstr(why, "run records") != NULL); /* m = 2^32 buckets itself is in range (a 32-bit bucket index) */
    T_CHECK(hsp_omp_setup(&c, 2147483647L, 4294967297L, 1, 10, 1, why, sizeof why) == 1);
    T_CHECK(strstr(why, "<= 2^32") != NULL); /* one bucket more is not */
    /* each limit at its value and one past: threads 4096 / 4097, pw 24 / 25 (above), run records
     * 2^26 (1024 chunks of one key x 2^16 partitions of 2^10 buckets) / 2^26 + 2^16 (one chunk more) */
    T_CHECK(hsp_omp_setup(&c, 10, 10, 4096, 0, 16, why, sizeof why) == 0);
    T_CHECK(c.threads == 4096);
    hsp_omp_free(&c);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 4097, 0, 16, why, sizeof why) == 1);
    T_CHECK(hsp_omp_setup(&c, 10, 10, 1, 24, 0, why, sizeof why) == 0);
    T_CHECK(c.pw == 24 && c.parts == 1 && c.chunk == 256);
    hsp_omp_free(&c);
    T_CHECK(hsp_omp_setup(&c, 1024, 1L << 26, 1, 10, 1, why, sizeof why) == 0);
    T_CHECK(c.nchunks * c.parts == HSP_OMP_RUNS_MAX);
    hsp_omp_free(&c);
    T_CHECK(hsp_omp_setup(&c, 1025, 1L << 26, 1, 10, 1, why, sizeof why) == 1);
    T_CHECK(strstr(why, "run records") != NULL);
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
    for (int a = 0; a < 6; a++)
        for (int th = 1; th <= 4; th *= 2) {
            keys1d_generate(&k, ns[a], 2.0, 4.0, 17 + ns[a]);
            check_omp(&k, th, 0, 0, "uniform keys, on all cores");
            keys1d_free(&k);
            keys1d_clustered(&k, ns[a], 2.0, 1.2, 29 + ns[a]);
            check_omp(&k, th, 0, 0, "clustered keys, on all cores");
            keys1d_free(&k);
        }
    /* many chunks and partitions (small chunks: many reservations a partition, runs of one key
     * or none); wide partitions (pw 20: chunks of at most 4096) */
    keys1d_generate(&k, 300007, 2.0, 3.0, 5);
    const int pws[] = {8, 10, 13, 16, 20};
    const long chunks[] = {1000, 4096, 65536};
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 3; b++)
            if (chunks[b] <= 1L << (32 - pws[a])) check_omp(&k, 3, pws[a], chunks[b], "forced width and chunk");
    keys1d_free(&k);
    keys1d_generate(&k, 5003, 2.0, 3.0, 6);
    check_omp(&k, 3, 8, 7, "chunks of 7 keys");
    check_omp(&k, 4, 13, 7, "chunks of 7 keys, one partition");
    keys1d_free(&k);
    /* every chunk reserving on the same counter at once (a reservation that is not atomic loses
     * runs here, most often on a many-core host): 16 threads, chunks of 16 keys, one partition */
    keys1d_generate(&k, 40000, 2.0, 3.0, 12);
    for (int rep = 0; rep < 12; rep++) check_omp(&k, 16, 16, 16, "one counter, 16 threads");
    keys1d_free(&k);
    /* full partitions and one key more; empty partitions */
    keys1d_generate(&k, 4L << 10, 2.0, 2.0, 7);
    check_omp(&k, 4, 10, 100, "full partitions");
    keys1d_free(&k);
    keys1d_generate(&k, (3L << 10) + 1, 2.0, 2.0, 8);
    check_omp(&k, 4, 10, 100, "full partitions and one key");
    keys1d_free(&k);
    long lo[3] = {0, 5000, 270001}, len[3] = {100, 3000, 11111};
    keys1d_ranges(&k, lo, len, 3, 99);
    check_omp(&k, 4, 10, 1000, "empty partitions");
    keys1d_free(&k);
    /* the precondition: two keys in one bucket -> one of them lost, the count shows it */
    {
        double x[4] = {0.0, 2.0, 2.5, 6.0};
        int idx[4] = {-1, -1, -1, -1};
        T_CHECK(hsp_omp_setup(&c, 4, 4, 2, 0, 0, why, sizeof why) == 0);
        T_EQ_INT(hsp_sort_omp(&c, x, 0.0, 2.0, idx, NULL), 3);
        hsp_omp_free(&c);
    }
}

int main(void)
{
    test_index();
    test_plan();
    test_two_level_index();
    test_bits();
    test_ranked();
    test_omp();
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
        hsp_tuning t = {pw, 15, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
        check_cpu(&k, &t, "forced partition width");
    }
    keys1d_free(&k);
    /* clustered keys with heavy gaps: most partitions empty */
    keys1d_clustered(&k, 5000, 2.0, 0.9, 3);
    hsp_tuning t8 = {8, 0, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    check_cpu(&k, &t8, "clustered keys, alpha 0.9 (empty partitions)");
    keys1d_free(&k);
    /* partitions of exactly the table size (every bucket used), and one key more */
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw += 7) {
        hsp_tuning t = {pw, 15, 0, HSP_AGG_AUTO, HSP_SCHEME_AUTO, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
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
