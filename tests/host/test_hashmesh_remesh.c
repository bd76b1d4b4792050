/* Host tests of hashmesh/remesh.h, the MPI-free pieces of the distributed remesh: the radix
 * sort of (key, index) pairs (stable, any bit count), the lower bound, one round's pick, the
 * split-key search over P simulated ranks (each rank's sorted slice counted by lower bounds,
 * or its slice in input order counted by histogram -- hm_round_bin, 4096 counts a round, as
 * the GPU backend does --, counts summed as the MPI_Allreduce does) against the keys at
 * global sorted positions n q / P, the round bin against a linear scan, the owner runs
 * each rank sends, and the peer mask of every cell of generated AMR meshes against owners
 * found independently (every finest bucket painted with the rank owning its cell). */
#include "../../common/testlib.h"
#include "../../common/rng.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/remesh.h"

typedef struct { uint64_t key; int idx; } pair_t;
static int cmp_pair(const void *a, const void *b)
{
    const pair_t *x = (const pair_t *)a, *y = (const pair_t *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static uint64_t low_bits(uint64_t v, int bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }

#define HIST_PROBES 4096 /* the GPU backend's counts per round over unsorted keys (remesh_gpu.cuh) */

/* stable against qsort on (key, original position); keys < 2^bits, with repeats */
static void test_sort_pairs(long n, int bits, uint64_t seed)
{
    uint64_t s = seed, *key = (uint64_t *)malloc(sizeof(uint64_t) * 2 * (n + 1));
    int *idx = (int *)malloc(sizeof(int) * 2 * (n + 1));
    pair_t *ref = (pair_t *)malloc(sizeof(pair_t) * (n + 1));
    long distinct = n / 3 + 1;
    for (long t = 0; t < n; t++) {
        uint64_t v = rng_splitmix64(&s);
        key[t] = low_bits(t % 2 ? v : rng_splitmix64(&s) % (uint64_t)distinct * 0x9E3779B97F4A7C15ull, bits);
        idx[t] = (int)t;
        ref[t].key = key[t]; ref[t].idx = (int)t;
    }
    qsort(ref, (size_t)n, sizeof *ref, cmp_pair);
    hm_sort_pairs_host(key, idx, key + n + 1, idx + n + 1, n, bits);
    int ok = 1;
    for (long t = 0; t < n; t++) ok &= key[t] == ref[t].key && idx[t] == ref[t].idx;
    if (!T_CHECK(ok)) fprintf(stderr, "  sort_pairs n=%ld bits=%d\n", n, bits);
    free(key); free(idx); free(ref);
}

static void test_count_lt_pick(void)
{
    uint64_t k[] = {2, 2, 5, 9, 9, 9, 12};
    long n = 7;
    uint64_t xs[] = {0, 2, 3, 5, 6, 9, 10, 12, 13, UINT64_MAX};
    for (int i = 0; i < 10; i++) {
        long want = 0;
        for (long t = 0; t < n; t++) want += k[t] < xs[i];
        T_EQ_INT(hm_count_lt(k, n, xs[i]), want);
    }
    T_EQ_INT(hm_count_lt(k, 0, 5), 0);
    long long c[] = {0, 0, 3, 3, 7, 9};
    T_EQ_INT(hm_split_pick(c, 6, 0), 1); /* the last bin still starting at or below rank 0 */
    T_EQ_INT(hm_split_pick(c, 6, 2), 1);
    T_EQ_INT(hm_split_pick(c, 6, 3), 3);
    T_EQ_INT(hm_split_pick(c, 6, 6), 3);
    T_EQ_INT(hm_split_pick(c, 6, 7), 4);
    T_EQ_INT(hm_split_pick(c, 6, 100), 5);
    T_EQ_INT(hm_split_pick(c, 1, 0), 0);
    T_EQ_INT(hm_key_bits(1, 1), 2);
    T_EQ_INT(hm_key_bits(2, 1), 2);
    T_EQ_INT(hm_key_bits(3, 2), 4);
    T_EQ_INT(hm_key_bits(16384, 16384), 28); /* the 78.9 M-cell scaling mesh */
    T_EQ_INT(hm_key_bits(1L << 16, 1L << 15), 32);
    T_EQ_INT(hm_key_bits((1L << 16) + 1, 1), 34);
    for (int P = 1; P <= HM_RM_MAX_RANKS; P++) {
        int b = hm_split_bits(P, HM_RM_PROBES);
        T_CHECK(b >= 1 && ((long)P << b) <= HM_RM_PROBES && ((long)P << (b + 1)) > HM_RM_PROBES);
        b = hm_split_bits(P, HIST_PROBES);
        T_CHECK(b >= 1 && ((long)P << b) <= HIST_PROBES && ((long)P << (b + 1)) > HIST_PROBES);
    }
    /* at least 1 bit a round however few the counts (P 2^2 > probes: a bisection); 0 would
     * leave hm_split_search's loop without progress */
    T_EQ_INT(hm_split_bits(64, 64), 1);
    T_EQ_INT(hm_split_bits(3, 8), 1);
    T_EQ_INT(hm_split_bits(2, 8), 2);
}

/* P simulated ranks: slices of a shuffled key set, each sorted as the host backend sorts it,
 * or left in input order as the GPU backend leaves it at P > 1 (counted by histogram) */
typedef struct { int P; long n; uint64_t *key; long *lo; int sorted; } sim_t;
static void sim_count_hist(const sim_t *s, const uint64_t *base, int nb, int shift, int b, long long *all)
{
    int nj = 1 << b;
    for (int r = 0; r < s->P; r++) /* as k_rm_hist: each key into its round bin per target */
        for (long t = s->lo[r]; t < s->lo[r + 1]; t++)
            for (int q = 0; q < nb; q++) {
                int bin = hm_round_bin(s->key[t], base[q], shift, nj);
                if (bin < nj) all[((long)q << b) + bin]++;
            }
    for (int q = 0; q < nb; q++) /* inclusive prefix sums, per target */
        for (int j = 1; j < nj; j++) all[((long)q << b) + j] += all[((long)q << b) + j - 1];
}
static void sim_count_all(void *ctx, const uint64_t *base, int nb, int shift, int b, long long *all)
{
    sim_t *s = (sim_t *)ctx;
    long np = (long)nb << b;
    for (long p = 0; p < np; p++) all[p] = 0;
    if (!s->sorted) { sim_count_hist(s, base, nb, shift, b, all); return; }
    for (int r = 0; r < s->P; r++) /* each rank's counts of its sorted slice, summed; a merge */
        for (int q = 0; q < nb; q++) {
            const uint64_t *kr = s->key + s->lo[r];
            long m = s->lo[r + 1] - s->lo[r], t = 0;
            for (long j = 0; j < (1L << b); j++) { /* the bin edges of target q ascend with j */
                uint64_t x = base[q] + ((uint64_t)j << shift);
                while (t < m && kr[t] < x) t++;
                all[((long)q << b) + j] += t;
            }
        }
}

/* distinct keys < 2^bits (clustered: all in one narrow range high up), n of them */
static long make_keys(uint64_t *k, long n, int bits, int clustered, uint64_t seed)
{
    uint64_t s = seed;
    uint64_t top = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1, lo = 0, span = top;
    if (clustered && bits > 20) { span = (uint64_t)n * 4; lo = top - span - (top >> 3); }
    for (long t = 0; t < n; t++) k[t] = lo + rng_splitmix64(&s) % (span == UINT64_MAX ? span : span + 1);
    qsort(k, (size_t)n, sizeof *k, cmp_u64);
    long m = 0;
    for (long t = 0; t < n; t++) if (!m || k[t] != k[m - 1]) k[m++] = k[t];
    for (long t = m - 1; t > 0; t--) { /* shuffle: input order is not key order */
        long u = (long)(rng_splitmix64(&s) % (uint64_t)(t + 1));
        uint64_t x = k[t]; k[t] = k[u]; k[u] = x;
    }
    return m;
}

static void test_split_search_as(int P, long n, int bits, int clustered, uint64_t seed, int sorted)
{
    uint64_t *k = (uint64_t *)malloc(sizeof(uint64_t) * 2 * n), *sorted_all = k + n;
    n = make_keys(k, n, bits, clustered, seed);
    if (n < P) { free(k); return; }
    memcpy(sorted_all, k, sizeof(uint64_t) * n);
    qsort(sorted_all, (size_t)n, sizeof *sorted_all, cmp_u64);
    long *lo = (long *)malloc(sizeof(long) * (P + 1));
    uint64_t *k2 = (uint64_t *)malloc(sizeof(uint64_t) * n);
    int *idx = (int *)malloc(sizeof(int) * 2 * n);
    for (int r = 0; r <= P; r++) lo[r] = n * r / P;
    for (int r = 0; r < P && sorted; r++) {
        long m = lo[r + 1] - lo[r];
        for (long t = 0; t < m; t++) idx[t] = (int)t;
        hm_sort_pairs_host(k + lo[r], idx, k2, idx + n, m, bits);
    }
    sim_t sim = {P, n, k, lo, sorted};
    uint64_t split[HM_RM_MAX_RANKS + 1];
    long long *all = (long long *)malloc(sizeof(long long) * HM_RM_PROBES);
    hm_split_search(P, sorted ? HM_RM_PROBES : HIST_PROBES, n, bits, split, all, sim_count_all, &sim);
    int ok = 1;
    for (int q = 0; q < P; q++) ok &= split[q] == sorted_all[n * q / P];
    if (!T_CHECK(ok)) fprintf(stderr, "  split search P=%d n=%ld bits=%d clustered=%d sorted=%d\n", P, n, bits, clustered, sorted);
    if (!sorted) { /* the owner runs need sorted slices below */
        for (int r = 0; r < P; r++) qsort(k + lo[r], (size_t)(lo[r + 1] - lo[r]), sizeof *k, cmp_u64);
    }
    /* the owner runs: each rank's keys below split[q + 1] and from split[q]; owners get n / P */
    split[P] = UINT64_MAX;
    long got[HM_RM_MAX_RANKS] = {0};
    for (int r = 0; r < P; r++)
        for (int q = 0; q < P; q++) {
            const uint64_t *kr = k + lo[r];
            long m = lo[r + 1] - lo[r];
            long a = q ? hm_count_lt(kr, m, split[q]) : 0, b = q + 1 < P ? hm_count_lt(kr, m, split[q + 1]) : m;
            got[q] += b - a;
        }
    ok = 1;
    for (int q = 0; q < P; q++) ok &= got[q] == n * (q + 1) / P - n * q / P;
    T_CHECK(ok);
    free(k); free(lo); free(k2); free(idx); free(all);
}

/* both ways of counting: sorted slices (host backend, GPU at P = 1) and slices in input order
 * counted by histogram with fewer counts a round (GPU backend at P > 1) */
static void test_split_search(int P, long n, int bits, int clustered, uint64_t seed)
{
    test_split_search_as(P, n, bits, clustered, seed, 1);
    test_split_search_as(P, n, bits, clustered, seed, 0);
}

/* hm_round_bin: the bin of a key is the first j whose edge base + j 2^shift lies above it */
static void test_round_bin(void)
{
    uint64_t s = 4242;
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        int shift = (int)(rng_splitmix64(&s) % 40), b = (int)(rng_splitmix64(&s) % 12), nj = 1 << b;
        uint64_t base = rng_splitmix64(&s) >> (24 - (it % 4) * 8), k = base + (rng_splitmix64(&s) % ((uint64_t)(nj + 2) << shift)) - ((it % 3) ? 0 : ((uint64_t)1 << shift));
        int want = nj; /* smallest j with k < base + (j << shift), nj if none */
        for (int j = 0; j < nj; j++)
            if (k < base + ((uint64_t)j << shift)) { want = j; break; }
        bad += hm_round_bin(k, base, shift, nj) != want;
    }
    T_EQ_INT(bad, 0);
    T_EQ_INT(hm_round_bin(5, 6, 0, 1), 0); /* b = 0: only the keys below base count */
    T_EQ_INT(hm_round_bin(6, 6, 0, 1), 1);
    T_EQ_INT(hm_round_bin(6, 6, 0, 4), 1);
    T_EQ_INT(hm_round_bin(9, 6, 0, 4), 4);
}

/* Every cell's hm_touch_mask against the owners of its face neighbours' buckets, the owners
 * painted bucket by bucket from the cells' Morton ranks. */
static void test_touch_mask(int nx, int ny, int levmax, double frac, int P, uint64_t seed)
{
    amr_mesh m;
    amr_generate(&m, nx, ny, levmax, frac, seed);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    if (n < P) { amr_free(&m); return; }
    pair_t *kp = (pair_t *)malloc(sizeof(pair_t) * n);
    int pack_ok = 1;
    for (long c = 0; c < n; c++) {
        int s = levmax - m.lev[c];
        kp[c].key = hm_morton((long)m.i[c] << s, (long)m.j[c] << s);
        int lb = hm_level_bits(levmax), pi, pj, pl; /* the exchange's packed key: back to the cell exactly */
        uint64_t pk = hm_pack_cell(m.i[c], m.j[c], m.lev[c], levmax, lb);
        hm_unpack_cell(pk, levmax, lb, &pi, &pj, &pl);
        pack_ok &= pi == m.i[c] && pj == m.j[c] && pl == m.lev[c] && pk >> lb == kp[c].key && (int)(pk & ((1u << lb) - 1)) == m.lev[c];
        kp[c].idx = (int)c;
    }
    qsort(kp, (size_t)n, sizeof *kp, cmp_pair);
    int *owner = (int *)malloc(sizeof(int) * n), *paint = (int *)malloc(sizeof(int) * W * H);
    uint64_t split[HM_RM_MAX_RANKS + 1];
    for (int q = 0; q < P; q++) split[q] = kp[n * q / P].key;
    split[P] = UINT64_MAX;
    int keys_ok = 1;
    for (int q = 0; q < P; q++)
        for (long t = n * q / P; t < n * (q + 1) / P; t++) owner[kp[t].idx] = q;
    for (long c = 0; c < n; c++) {
        long r = 1L << (levmax - m.lev[c]);
        for (long y = m.j[c] * r; y < (m.j[c] + 1) * r; y++)
            for (long x = m.i[c] * r; x < (m.i[c] + 1) * r; x++) {
                paint[y * W + x] = owner[c];
                keys_ok &= hm_morton(x, y) < (1ull << hm_key_bits(W, H));
            }
    }
    T_CHECK(keys_ok);
    T_CHECK(pack_ok);
    int ok = 1, owner_ok = 1;
    for (long y = 0; y < H; y++) /* the splitters' owner of every bucket == its cell's rank */
        for (long x = 0; x < W; x++) owner_ok &= hm_owner(split, P, hm_morton(x, y)) == paint[y * W + x];
    for (long c = 0; c < n; c++) {
        long r = 1L << (levmax - m.lev[c]), x0 = m.i[c] * r, y0 = m.j[c] * r;
        uint64_t want = 0;
        for (long k = 0; k < r; k++) {
            long xs[4] = {x0 - 1, x0 + r, x0 + k, x0 + k}, ys[4] = {y0 + k, y0 + k, y0 - 1, y0 + r};
            for (int f = 0; f < 4; f++)
                if (xs[f] >= 0 && xs[f] < W && ys[f] >= 0 && ys[f] < H && paint[ys[f] * W + xs[f]] != owner[c])
                    want |= 1ull << paint[ys[f] * W + xs[f]];
        }
        int rec[4] = {m.i[c], m.j[c], m.lev[c], (int)c};
        ok &= hm_touch_mask(W, H, levmax, split, P, owner[c], rec) == want;
    }
    T_CHECK(owner_ok);
    if (!T_CHECK(ok)) fprintf(stderr, "  touch mask %dx%d levmax %d P=%d\n", nx, ny, levmax, P);
    free(kp); free(owner); free(paint);
    amr_free(&m);
}

int main(void)
{
    long sizes[] = {0, 1, 2, 7, 255, 256, 257, 1000, 65537};
    int bits[] = {2, 8, 13, 28, 33, 62, 64};
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 7; b++) test_sort_pairs(sizes[a], bits[b], 17 + 31 * a + b);
    test_count_lt_pick();
    int ps[] = {1, 2, 3, 4, 5, 7, 8, 16, 63, 64};
    long ns[] = {1, 2, 3, 65, 1000, 4099};
    int kb[] = {2, 4, 12, 16, 28, 33, 62};
    for (int a = 0; a < 10; a++)
        for (int b = 0; b < 6; b++)
            for (int c = 0; c < 7; c++) {
                /* many ranks: a round is P 2^b counts per rank, so fewer cases (every key width kept) */
                if (ps[a] > 8 && b % 2 == 0) continue;
                long n = ns[b] < ps[a] ? ps[a] : ns[b];
                if (kb[c] < 20 && n > (1L << kb[c])) n = 1L << kb[c];
                test_split_search(ps[a], n, kb[c], 0, 1000 + 97 * a + 7 * b + c);
                if (kb[c] > 20) test_split_search(ps[a], n, kb[c], 1, 5000 + 97 * a + 7 * b + c);
            }
    test_split_search(2, 200000, 28, 0, 99); /* several bins a round, two rounds (three by histogram) */
    test_round_bin();
    T_EQ_INT(hm_level_bits(0), 0);
    T_EQ_INT(hm_level_bits(1), 1);
    T_EQ_INT(hm_level_bits(2), 2);
    T_EQ_INT(hm_level_bits(3), 2);
    T_EQ_INT(hm_level_bits(4), 3);
    for (uint64_t s = 77, it = 0; it < 100000; it++) { /* hm_compact inverts hm_spread on 32-bit values */
        uint32_t v = (uint32_t)rng_splitmix64(&s);
        if (hm_compact(hm_spread(v)) != v || hm_compact(hm_spread(v) << 1 >> 1) != v) { T_CHECK(0); break; }
    }
    { int i, j, l; hm_unpack_cell(hm_pack_cell(65535, 65534, 5, 5, 3), 5, 3, &i, &j, &l); T_CHECK(i == 65535 && j == 65534 && l == 5); }
    struct { int nx, ny, levmax; double frac; } meshes[] = {
        {1, 1, 0, 0.0}, {7, 5, 0, 0.0}, {4, 4, 3, 0.5}, {8, 16, 2, 0.3}, {13, 6, 4, 0.4}, {2, 2, 6, 0.6}, {16, 16, 1, 0.9}};
    int mp[] = {1, 2, 3, 4, 5, 7, 16, 64};
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 8; b++)
            test_touch_mask(meshes[a].nx, meshes[a].ny, meshes[a].levmax, meshes[a].frac, mp[b], 300 + 11 * a + b);
    return T_DONE();
}
