/* tests/host/test_sparsegrid_multi.c -- the index logic of k_sparse_multi (sparsegrid/
 * sparse_multi.h, sparse_multi.cuh: G sparse grids per block, U table entries in flight per
 * thread), replayed on the host with the same HD functions the kernel calls:
 *   - independence of a list (what makes the kernel's batching and this sequential replay
 *     exact): for every list (k, L) of every grid tested, no two items write the same x, and
 *     no item reads (xl, xr) a point that an item of the same list writes; every point with
 *     l_k = L is written once; all offsets lie in the grid;
 *   - the offset table (sgs_table_fill, also used by k_sparse's table variant) == sgs_find +
 *     sgs_item for every item;
 *   - the thread/step mapping (sgs_multi_t, the t0 loop): every item of a list is taken by
 *     exactly one (thread, step, j), for awkward counts and block sizes;
 *   - groups (sgs_multi_groups / sgs_multi_group): every grid of a batch in exactly one
 *     group, the last one partial when ngrids % G != 0;
 *   - a block emulated sequentially (blocks round robin over groups, threads one after
 *     another in each phase, the kernel's staging copies, lists and barriers) == the
 *     pole-wise CPU reference bitwise, d = 1..6 (up to the levels of the --exp=sparse sweep),
 *     float and double, both directions, in and out of place, several (G, U, B), ngrids not a
 *     multiple of G and below G; the output is poisoned (NaN) first, and the shared slots of
 *     the grids a partial group does not have must stay untouched;
 *   - sgs_multi_pick_g: the rule (largest G <= gmax fitting the block limit with >= 2 blocks
 *     per SM by shared memory) over many sizes, each limit at equality and one byte past it
 *     (one grid = optin: 1, one byte more: 0), and its values for the sweep's grids with the
 *     H100's shared memory limits (CUDA programming guide, compute capability 9.0: 228 KiB
 *     per SM, 227 KiB per block opt-in, 1 KiB reserved per block). */
#include <math.h>
#include "../../sparsegrid/sparse_multi.h"
#include "../../common/testlib.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct {
    unsigned *xl;
    unsigned short *xr;
    int *base;
} table;

static int table_make(const sgs_grid *g, table *t)
{
    long long total = sgs_table_size(g);
    t->xl = (unsigned *)malloc(sizeof(unsigned) * (total + 1));
    t->xr = (unsigned short *)malloc(sizeof(unsigned short) * (total + 1));
    t->base = (int *)malloc(sizeof(int) * (g->d * (g->n + 1) + 1));
    return sgs_table_fill(g, t->xl, t->xr, t->base) == total ? 0 : -1;
}
static void table_free(table *t) { free(t->xl); free(t->xr); free(t->base); }

/* The table == sgs_find + sgs_item, and every list (k, L) is independent. */
static void check_lists(const sgs_grid *g, const table *tb)
{
    long long N = g->npts, bad_table = 0, bad_range = 0, dup = 0, read_written = 0, wrong_level = 0, missing = 0;
    char *w = (char *)malloc(N);
    for (int k = 0; k < g->d; k++)
        for (int L = 1; L <= g->n; L++) {
            int kl = k * (g->n + 1) + L, count = g->list_count[kl], last = g->list_first[kl + 1] - 1;
            T_EQ_INT(tb->base[kl + 1] - tb->base[kl], count);
            memset(w, 0, N);
            for (int t = 0; t < count; t++) {
                int x, xl, xr, ex, exl, exr;
                sgs_tab_item(tb->xl, tb->xr, tb->base[kl] + t, &x, &xl, &xr);
                int si = sgs_find(g->seg_start, g->chunk, g->list_chunk[kl], last, t);
                sgs_item(g->seg + si, g->par, g->n, L, t, &ex, &exl, &exr);
                bad_table += x != ex || xl != exl || xr != exr;
                if (x < 0 || x >= N || xl < 0 || xl >= N || xr < 0 || xr >= N) { bad_range++; continue; }
                dup += w[x]++ != 0;
            }
            /* every point with l_k = L is written once, no other point */
            for (int s = 0; s < g->nsub; s++) {
                int on = g->lev[s * g->d + k] == L;
                for (long long r = g->off[s]; r < g->off[s + 1]; r++) {
                    missing += on && !w[r];
                    wrong_level += !on && w[r];
                }
            }
            for (int t = 0; t < count; t++) {
                int x, xl, xr;
                sgs_tab_item(tb->xl, tb->xr, tb->base[kl] + t, &x, &xl, &xr);
                if (xl < 0 || xl >= N || xr < 0 || xr >= N) continue;
                read_written += (w[xl] != 0) + (w[xr] != 0);
            }
        }
    free(w);
    T_EQ_INT(bad_table, 0);
    T_EQ_INT(bad_range, 0);
    T_EQ_INT(dup, 0);
    T_EQ_INT(read_written, 0);
    T_EQ_INT(wrong_level, 0);
    T_EQ_INT(missing, 0);
    if (bad_table || bad_range || dup || read_written || wrong_level || missing)
        printf("  lists d=%d n=%d: table %lld range %lld dup %lld read-written %lld level %lld missing %lld\n", g->d, g->n,
               bad_table, bad_range, dup, read_written, wrong_level, missing);
}

/* Every item t < count taken exactly once by the kernel's (tid, t0, j) walk. */
static void check_mapping(int count, int U, int B)
{
    int *hits = (int *)calloc(count + 1, sizeof(int)), bad = 0;
    for (int tid = 0; tid < B; tid++)
        for (int t0 = tid; t0 < count; t0 += U * B)
            for (int j = 0; j < U; j++) {
                int t = sgs_multi_t(t0, j, B);
                if (t < count) hits[t]++;
            }
    for (int t = 0; t < count; t++) bad += hits[t] != 1;
    free(hits);
    T_EQ_INT(bad, 0);
    if (bad) printf("  mapping count=%d U=%d B=%d: %d items not taken once\n", count, U, B, bad);
}

static void check_groups(long long ngrids, int G)
{
    long long ng = sgs_multi_groups(ngrids, G), next = 0, bad = 0;
    for (long long gr = 0; gr < ng; gr++) {
        long long first;
        int gc;
        sgs_multi_group(gr, G, ngrids, &first, &gc);
        bad += first != next || gc < 1 || gc > G || (gr + 1 < ng && gc != G);
        next = first + gc;
    }
    T_EQ_INT(next, ngrids);
    T_EQ_INT(bad, 0);
}

/* One launch emulated: nblocks blocks round robin over the groups; in each phase of a block
 * the threads run one after another (exact: the phases are separated by barriers, the staging
 * copies touch disjoint elements, and the items of a list are independent -- check_lists). */
#define EMULATE(T, SUF)                                                                                        \
    static long long emulate_##SUF(const T *in, T *out, long long ngrids, const sgs_grid *g, const table *tb, int G, \
                                   int U, int B, int nblocks, int inverse)                                      \
    {                                                                                                           \
        int N = (int)g->npts;                                                                                   \
        T *sh = (T *)malloc(sizeof(T) * (size_t)G * N);                                                         \
        long long ngroups = sgs_multi_groups(ngrids, G), touched = 0;                                           \
        for (int b = 0; b < nblocks; b++)                                                                       \
            for (long long gr = b; gr < ngroups; gr += nblocks) {                                               \
                long long first;                                                                                \
                int gc;                                                                                         \
                sgs_multi_group(gr, G, ngrids, &first, &gc);                                                    \
                int span = gc * N;                                                                              \
                const T *src = in + first * N;                                                                  \
                T *dst = out + first * N;                                                                       \
                memset(sh, 0xA5, sizeof(T) * (size_t)G * N); /* stale contents of the shared memory */          \
                for (int tid = 0; tid < B; tid++)                                                               \
                    for (int i = tid; i < span; i += B) sh[i] = src[i];                                         \
                for (int k = 0; k < g->d; k++)                                                                  \
                    for (int s = 1; s <= g->n; s++) {                                                           \
                        int L = inverse ? s : g->n + 1 - s;                                                     \
                        for (int tid = 0; tid < B; tid++)                                                       \
                            sgs_multi_list_##SUF(sh, N, gc, G, U, tb->xl, tb->xr, tb->base, g->list_count,      \
                                                 k * (g->n + 1) + L, tid, B, inverse);                          \
                    }                                                                                           \
                for (int tid = 0; tid < B; tid++)                                                               \
                    for (int i = tid; i < span; i += B) dst[i] = sh[i];                                         \
                const unsigned char *rest = (const unsigned char *)(sh + span); /* grids gc..G-1: untouched */ \
                for (size_t i = 0; i < sizeof(T) * (size_t)(G * N - span); i++) touched += rest[i] != 0xA5;    \
            }                                                                                                   \
        free(sh);                                                                                               \
        return touched;                                                                                         \
    }                                                                                                           \
    static void check_emulated_##SUF(const sgs_grid *g, const table *tb, long long ngrids, int G, int U, int B,  \
                                     int nblocks)                                                               \
    {                                                                                                           \
        long long N = g->npts, cnt = ngrids * N;                                                                \
        T *h = (T *)malloc(sizeof(T) * cnt), *want = (T *)malloc(sizeof(T) * cnt), *got = (T *)malloc(sizeof(T) * cnt); \
        uint64_t st = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(N * 131 + ngrids * 7 + G);                             \
        for (long long i = 0; i < cnt; i++) h[i] = (T)((double)(rnd(&st) >> 11) / 9007199254740992.0 * 2 - 1); \
        for (int inv = 0; inv < 2; inv++)                                                                       \
            for (int in_place = 0; in_place < 2; in_place++) {                                                  \
                memcpy(want, h, sizeof(T) * cnt);                                                               \
                for (long long t = 0; t < ngrids; t++) T_EQ_INT(sgs_ref_##SUF(want + t * N, g, inv), 0);       \
                if (in_place) memcpy(got, h, sizeof(T) * cnt);                                                  \
                else memset(got, 0xFF, sizeof(T) * cnt); /* poison: NaN */                                      \
                long long touched = emulate_##SUF(in_place ? got : h, got, ngrids, g, tb, G, U, B, nblocks, inv); \
                long long m = 0;                                                                                \
                for (long long i = 0; i < cnt; i++) m += memcmp(got + i, want + i, sizeof(T)) != 0;            \
                T_EQ_INT(m, 0);                                                                                 \
                T_EQ_INT(touched, 0);                                                                           \
                if (m || touched)                                                                               \
                    printf("  %s d=%d n=%d ngrids=%lld G=%d U=%d B=%d blocks=%d %s %s: %lld mismatches, %lld bytes " \
                           "beyond the group touched\n", #T, g->d, g->n, ngrids, G, U, B, nblocks,              \
                           inv ? "dehierarchization" : "hierarchization", in_place ? "in place" : "out of place", m, \
                           touched);                                                                            \
            }                                                                                                   \
        free(h); free(want); free(got);                                                                         \
    }
EMULATE(float, f)
EMULATE(double, d)

/* (G, U, B, ngrids, blocks): ngrids not a multiple of G, below G, equal; B awkward (1, 33, 96)
 * and the sweep's 128 / 256 / 512; blocks fewer than groups (round robin) and more. */
static const int CONF[][5] = {
    {1, 1, 64, 3, 2},  {1, 4, 128, 2, 5}, {2, 1, 33, 5, 2},  {2, 2, 256, 1, 1}, {2, 4, 512, 4, 1},
    {3, 1, 96, 7, 2},  {3, 2, 1, 4, 1},   {3, 4, 128, 2, 3}, {4, 1, 512, 9, 2}, {4, 2, 256, 6, 1},
    {4, 4, 128, 11, 3}, {4, 4, 1, 3, 1},
};

static void check_pick_g(void)
{
    /* the rule, over many grid sizes and a few limits */
    const long long lim[3][3] = {{232448, 233472, 1024}, {101376, 102400, 1024}, {49152, 65536, 0}};
    long long bad = 0;
    for (int l = 0; l < 3; l++)
        for (long long b = 4; b <= 300000; b += 4 * 97 + (b & 7)) {
            long long optin = lim[l][0], per_sm = lim[l][1], res = lim[l][2];
            int G = sgs_multi_pick_g(b, 4, optin, per_sm, res, 2);
            if (b > optin) { bad += G != 0; continue; }
            int ok2 = 2 * (G * b + res) <= per_sm;
            bad += G < 1 || G > 4 || G * b > optin || (!ok2 && G != 1);
            if (G < 4) bad += (G + 1) * b <= optin && 2 * ((G + 1) * b + res) <= per_sm; /* G + 1 would fit */
        }
    T_EQ_INT(bad, 0);
    /* each limit at equality and one byte past it (the sweep above never lands on one) */
    T_EQ_INT(sgs_multi_pick_g(232448, 4, 232448, 233472, 1024, 2), 1); /* one grid fills optin */
    T_EQ_INT(sgs_multi_pick_g(232449, 4, 232448, 233472, 1024, 2), 0);
    T_EQ_INT(sgs_multi_pick_g(1000, 4, 2000, 1 << 30, 0, 2), 2); /* two grids fill optin */
    T_EQ_INT(sgs_multi_pick_g(1001, 4, 2000, 1 << 30, 0, 2), 1);
    T_EQ_INT(sgs_multi_pick_g(1000, 4, 1 << 20, 2 * (3 * 1000 + 24), 24, 2), 3); /* 2 blocks of 3 fill per_sm */
    T_EQ_INT(sgs_multi_pick_g(1000, 4, 1 << 20, 2 * (3 * 1000 + 24) - 1, 24, 2), 2);
    /* the sweep's grids (exp_sparse.cuh SPARSE_LEVEL) with the H100's limits */
    static const int level[7] = {0, 12, 9, 7, 5, 4, 3};
    static const int want_f[7] = {0, 4, 4, 3, 3, 2, 2}, want_d[7] = {0, 3, 2, 1, 1, 1, 1};
    for (int d = 1; d <= 6; d++) {
        sgs_grid g;
        char err[200];
        T_EQ_INT(sgs_init(&g, d, level[d], err, sizeof err), 0);
        T_EQ_INT(sgs_multi_pick_g(4 * g.npts, 4, 232448, 233472, 1024, 2), want_f[d]);
        T_EQ_INT(sgs_multi_pick_g(8 * g.npts, 4, 232448, 233472, 1024, 2), want_d[d]);
        sgs_free(&g);
    }
}

int main(void)
{
    check_pick_g();
    for (int G = 1; G <= 4; G++)
        for (long long ng = 1; ng <= 13; ng++) check_groups(ng, G);
    int counts[] = {1, 2, 31, 32, 33, 432, 513, 768, 1505, 3753};
    int bs[] = {1, 33, 64, 128, 256, 512};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (size_t b = 0; b < sizeof bs / sizeof bs[0]; b++)
            for (int U = 1; U <= 4; U *= 2) check_mapping(counts[c], U, bs[b]);
    /* d = 1..6 up to the sweep's levels (exp_sparse.cuh SPARSE_LEVEL); make asan (TEST_SANITIZE)
     * stops lower: the index logic is the same at every level */
#ifdef TEST_SANITIZE
    static const int nmax[7] = {0, 8, 6, 5, 4, 3, 3};
#else
    static const int nmax[7] = {0, 12, 9, 7, 5, 4, 3};
#endif
    int nconf = (int)(sizeof CONF / sizeof CONF[0]), ci = 0;
    for (int d = 1; d <= 6; d++)
        for (int n = 1; n <= nmax[d]; n++) {
            sgs_grid g;
            char err[200];
            if (sgs_init(&g, d, n, err, sizeof err)) { T_CHECK(0); printf("sgs_init(%d, %d): %s\n", d, n, err); continue; }
            table tb;
            T_EQ_INT(table_make(&g, &tb), 0);
            check_lists(&g, &tb);
            /* three configurations per grid in float, three in double, rotating over CONF;
             * at the sweep's level every configuration in both precisions */
            int all = n == nmax[d], reps = all ? nconf : 3;
            for (int r = 0; r < reps; r++, ci++) {
                const int *c = CONF[all ? r : ci % nconf];
                check_emulated_f(&g, &tb, c[3], c[0], c[1], c[2], c[4]);
                const int *e = CONF[all ? r : (ci + 5) % nconf];
                check_emulated_d(&g, &tb, e[3], e[0], e[1], e[2], e[4]);
            }
            table_free(&tb);
            sgs_free(&g);
        }
    return T_DONE();
}
