/* tests/host/test_sparsegrid_fam.c -- the index logic of k_sparse_fam (sparsegrid/sparse_fam.h:
 * the lanes of a warp over the poles of a family), replayed on the host with the same HD
 * functions the kernel calls:
 *   - every lane's offsets equal the generic map sgs_offset() of the pole point they stand for
 *     (the family's head subspace found from off[0], the pole split as a + S c: an independent
 *     route), and lie in the grid;
 *   - independence of a pass (what makes any order of its tasks, and one barrier a pass, exact):
 *     no point is written by two lanes of a pass, no lane reads a point another lane writes;
 *   - coverage: in pass k every point with l_k >= 1 is written exactly once, no point with
 *     l_k = 0 is; the plan's update count equals the points with l_k >= 1 summed over k;
 *   - the task fields: lanes used nl in 1..32, a multiple of the lanes per family, the lanes of a
 *     task all of one pole level m (the kernel's switch is warp-uniform), R poles a lane with
 *     R = rmax >> (m - 1) halved while R lmin > P (at least 1), the warps' bounds covering each
 *     pass in order, the busiest warp's modelled cost between the mean and the total, each warp's
 *     tasks largest poles first and the balance a greedy one (a warp's load less its last task's
 *     cost at most the least loaded warp's load; the warps' loads summing to cost and cost_max);
 *     every check for rmax = 1..16 and lmin = 1..32 (poles per lane, lanes per family), 1..32 warps,
 *     small families grouped in storage order and bank-aware (pack);
 *   - a replay task by task (forward and in reverse task order within each pass) == the
 *     pole-wise CPU reference sgs_ref_f/d bitwise, d = 1..6, float and double, both directions,
 *     from level 1 to the largest level whose poles fit (m <= 5), and on full grids in subspace
 *     order; the refusals: poles longer than 5 levels, more than 65536 points;
 *   - the shared-memory model sgf_plan_wavefronts on the sweep's grids (d = 4..6, both element
 *     sizes): between one wavefront per warp access and one per lane, and fewer with the
 *     bank-aware grouping than in storage order. */
#include <math.h>
#include "../../sparsegrid/sparse_fam.h"
#include "../../common/testlib.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The head subspace (l_k = 0) of record r in pass k: the subspace at off[0] with l_k = 0. */
static int head_of(const sgs_grid *g, const sgf_plan *p, const sgf_rec *r, int k)
{
    for (int s = 0; s < g->nsub; s++)
        if ((long long)p->elem * g->off[s] == sgf_rec_o(r, 0) && g->lev[(long long)s * g->d + k] == 0) return s;
    return -1;
}

/* Offsets, independence, coverage and task fields of plan p; returns the failures. */
static long long check_plan(const sgs_grid *g, const sgf_plan *p)
{
    long long N = g->npts, bad_map = 0, bad_range = 0, dup = 0, read_written = 0, cover = 0, fields = 0, items = 0;
    long long unbalanced = 0;
    double cost_all = 0, cost_busiest = 0;
    int *wr = (int *)malloc(sizeof(int) * N);
    for (int k = 0; k < g->d; k++) {
        if (p->pass[k] > p->pass[k + 1]) fields++;
        /* the warps' bounds cover the pass in order */
        const int *wb = p->wb + k * (p->W + 1);
        if (wb[0] != p->pass[k] || wb[p->W] != p->pass[k + 1]) fields++;
        for (int w = 0; w < p->W; w++)
            if (wb[w] > wb[w + 1]) fields++;
        /* the balance (the model's cost per task, sgf_task_cost): each warp runs its tasks largest
         * poles first, and is a greedy one -- a warp's last task went to it when it had the least
         * load, so its load less that task's cost is at most every warp's final load; the busiest
         * warps' loads add up to cost_max, all tasks' to cost */
        double load[SGF_MAXW], lmin_w = 1e300, lmax_w = 0;
        int in_pass = wb[0] >= p->pass[k] && wb[p->W] <= p->pass[k + 1];
        for (int w = 0; w < p->W; w++) {
            load[w] = 0;
            for (int t = wb[w]; in_pass && t < wb[w + 1]; t++) {
                load[w] += sgf_task_cost(sgf_task_m(p->task[t]), sgf_task_r(p->task[t]));
                if (t > wb[w] && sgf_task_m(p->task[t]) > sgf_task_m(p->task[t - 1])) fields++;
            }
            if (load[w] < lmin_w) lmin_w = load[w];
            if (load[w] > lmax_w) lmax_w = load[w];
            cost_all += load[w];
        }
        for (int w = 0; w < p->W; w++)
            if (in_pass && wb[w] < wb[w + 1]) {
                sgf_task last = p->task[wb[w + 1] - 1];
                if (load[w] - sgf_task_cost(sgf_task_m(last), sgf_task_r(last)) > lmin_w + 1e-6) unbalanced++;
            }
        cost_busiest += lmax_w;
        for (long long i = 0; i < N; i++) wr[i] = -1;
        for (int pass = 0; pass < 2; pass++) /* 0: writes, 1: reads against them */
            for (int t = p->pass[k]; t < p->pass[k + 1]; t++) {
                sgf_task tk = p->task[t];
                int m = sgf_task_m(tk), nl = sgf_task_nl(tk), pbc = sgf_task_pbc(tk), R = sgf_task_r(tk);
                if (pass == 0 && (m < 1 || m > SGF_MMAX || nl < 1 || nl > SGF_LANES || nl % (1 << pbc) || tk.w)) fields++;
                for (int i = 0; i < nl && i < SGF_LANES; i++)
                for (int rr = 0; rr < R; rr++) {
                    int ri = sgf_lane_rec(tk, i), pole = sgf_lane_pole(tk, i) + (rr << pbc);
                    if (ri < 0 || ri >= p->nrec) { fields++; continue; }
                    const sgf_rec *r = p->rec + ri;
                    if (r->w[4] != r->w[4] / p->elem * p->elem || r->w[5] != ~(r->w[4] - 1u)) fields++;
                    if (pass == 0 && rr == 0) {
                        int s = head_of(g, p, r, k), pb = 0;
                        for (int j = 0; s >= 0 && j < g->d; j++)
                            if (j != k) pb += sgs_lbits(g->lev[(long long)s * g->d + j]);
                        int want = p->rmax >> (m - 1);
                        if (want < 1) want = 1;
                        while (want > 1 && want * p->lmin > (1 << pb)) want /= 2;
                        if (R != want) fields++;
                    }
                    long long a[SGF_PTS];
                    unsigned o[SGF_MMAX + 1], pE = (unsigned)(p->elem * pole);
                    for (int lev = 0; lev <= SGF_MMAX; lev++) o[lev] = sgf_rec_o(r, lev);
                    for (int X = 0; X <= (1 << m); X++) { /* the kernel's byte address, in elements */
                        unsigned b = sgf_point(o, pE, pE & r->w[5], r->w[4], m, X);
                        a[X] = b / (unsigned)p->elem;
                        if (b % (unsigned)p->elem || a[X] >= N) bad_range++;
                    }
                    if (bad_range) continue;
                    int lane_id = (t * SGF_LANES + i) * 16 + rr; /* one pole */
                    if (pass == 0) {
                        for (int X = 1; X < (1 << m); X++) {
                            if (wr[a[X]] >= 0) dup++;
                            wr[a[X]] = lane_id;
                            items++;
                        }
                        /* the generic map: pole = a0 + S c0 of the head subspace, position X along k */
                        int s = head_of(g, p, r, k);
                        if (s < 0) { bad_map++; continue; }
                        int sb = 0;
                        while (((unsigned)p->elem << sb) < r->w[4]) sb++;
                        int S = 1 << sb;
                        long long idx[SGS_MAXD];
                        sgs_point_index(g, s, (pole & (S - 1)) + (long long)S * 2 * (pole >> sb), idx);
                        for (int X = 0; X <= (1 << m); X++) {
                            idx[k] = (long long)X << (g->n - m);
                            if (sgs_offset(g, idx) != a[X]) bad_map++;
                        }
                    } else {
                        for (int X = 0; X <= (1 << m); X++)
                            if (wr[a[X]] >= 0 && wr[a[X]] != lane_id) read_written++;
                    }
                }
            }
        for (int s = 0; s < g->nsub; s++) {
            int lk = g->lev[(long long)s * g->d + k];
            for (long long i = g->off[s]; i < g->off[s + 1]; i++)
                if ((wr[i] >= 0) != (lk >= 1)) cover++;
        }
    }
    free(wr);
    T_EQ_INT(bad_range, 0);
    T_EQ_INT(bad_map, 0);
    T_EQ_INT(dup, 0);
    T_EQ_INT(read_written, 0);
    T_EQ_INT(cover, 0);
    T_EQ_INT(fields, 0);
    T_EQ_INT(items, p->items);
    T_CHECK(p->pass[0] == 0 && p->pass[g->d] == p->ntask);
    T_EQ_INT(unbalanced, 0);
    T_CHECK(fabs(cost_all - p->cost) < 1e-6 && fabs(cost_busiest - p->cost_max) < 1e-6);
    return bad_range + bad_map + dup + read_written + cover + fields + (items != p->items) + unbalanced;
}

/* The plan's tasks in reverse order within each pass (any order of a pass is exact; the warps
 * run their lists in parallel). */
static void reverse_passes(sgf_plan *p)
{
    for (int k = 0; k < p->d; k++)
        for (int a = p->pass[k], b = p->pass[k + 1] - 1; a < b; a++, b--) {
            sgf_task t = p->task[a];
            p->task[a] = p->task[b];
            p->task[b] = t;
        }
}

#define REPLAY_TEST(T, SUF)                                                                           \
    static void replay_##SUF(const sgs_grid *g, sgf_plan *p, uint64_t *seed)                         \
    {                                                                                                 \
        long long N = g->npts;                                                                        \
        T *u = (T *)malloc(sizeof(T) * N), *ref = (T *)malloc(sizeof(T) * N), *x = (T *)malloc(sizeof(T) * N); \
        for (long long i = 0; i < N; i++) u[i] = (T)((double)(rnd(seed) % 2000001) / 1e6 - 1.0);      \
        for (int inv = 0; inv < 2; inv++)                                                             \
            for (int rev = 0; rev < 2; rev++) {                                                       \
                memcpy(ref, u, sizeof(T) * N);                                                        \
                T_CHECK(sgs_ref_##SUF(ref, g, inv) == 0);                                             \
                memcpy(x, u, sizeof(T) * N);                                                          \
                if (rev) reverse_passes(p);                                                           \
                sgf_replay_##SUF(x, p, inv);                                                          \
                if (rev) reverse_passes(p);                                                           \
                T_CHECK(memcmp(x, ref, sizeof(T) * N) == 0);                                          \
            }                                                                                         \
        free(u); free(ref); free(x);                                                                  \
    }
REPLAY_TEST(float, f)
REPLAY_TEST(double, d)

int main(void)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    char err[200];
    /* the largest level whose poles fit 5 levels per d: d = 1, 2 level 5 (m = n + d - 1 - (d - 1) = n),
     * d = 3 level 5 (m = n), d = 4 level 5, d = 5 level 5 (too large above), d = 6 level 4 */
    static const int NMAX[SGS_MAXD + 1] = {0, 5, 5, 5, 5, 4, 4};
    for (int d = 1; d <= SGS_MAXD; d++)
        for (int n = 1; n <= NMAX[d]; n++) {
            sgs_grid g;
            if (sgs_init(&g, d, n, err, sizeof err)) { fprintf(stderr, "%s\n", err); T_CHECK(0); continue; }
            sgf_plan p;
            for (int rmax = 1; rmax <= 16; rmax *= 2)
                for (int elem = 4; elem <= 8; elem += 4) {
                    int W = 1 + (n * 7 + rmax + elem) % SGF_MAXW, lmin = 1 << ((n + d + rmax + elem / 4) % 6);
                    if (sgf_plan_build(&p, &g, rmax, lmin, elem, W, (n + rmax) % 2, err, sizeof err)) { fprintf(stderr, "d=%d n=%d: %s\n", d, n, err); T_CHECK(0); continue; }
                    if (!check_plan(&g, &p)) {
                        if (elem == 4) replay_f(&g, &p, &seed);
                        else replay_d(&g, &p, &seed);
                    }
                    sgf_plan_free(&p);
                }
            if (n == NMAX[d] && d <= 4) { /* one level more: poles of level 6 */
                sgs_grid h;
                T_CHECK(sgs_init(&h, d, n + 1, err, sizeof err) == 0);
                T_EQ_INT(sgf_plan_build(&p, &h, 4, 8, 4, 8, 1, err, sizeof err), -1);
                T_CHECK(strstr(err, "level 6") != NULL);
                sgs_free(&h);
            }
            sgs_free(&g);
        }
    /* full grids in subspace order, level 1 (and 0) in some dimensions */
    static const int FULL[][SGS_MAXD + 1] = {
        {2, 1, 5}, {2, 4, 1}, {3, 1, 3, 1}, {3, 0, 2, 3}, {4, 2, 1, 2, 1}, {4, 1, 1, 1, 1},
        {5, 1, 2, 1, 2, 1}, {6, 1, 1, 2, 1, 1, 2}, {6, 2, 1, 1, 1, 1, 0}, {1, 1}};
    for (size_t i = 0; i < sizeof FULL / sizeof FULL[0]; i++) {
        sgs_grid g;
        int d = FULL[i][0];
        if (sgs_init_full(&g, d, FULL[i] + 1, err, sizeof err)) { fprintf(stderr, "%s\n", err); T_CHECK(0); continue; }
        sgf_plan p;
        for (int rmax = 1; rmax <= 16; rmax *= 4)
            for (int elem = 4; elem <= 8; elem += 4) {
                if (sgf_plan_build(&p, &g, rmax, 1 << (int)((i + rmax) % 6), elem, 1 + (int)(i * 5 + rmax) % SGF_MAXW, (int)(i + elem / 4) % 2, err, sizeof err)) { fprintf(stderr, "full %zu: %s\n", i, err); T_CHECK(0); continue; }
                if (!check_plan(&g, &p)) {
                    if (elem == 4) replay_f(&g, &p, &seed);
                    else replay_d(&g, &p, &seed);
                }
                sgf_plan_free(&p);
            }
        sgs_free(&g);
    }
    /* more than 65536 points: refused (d = 6, level 5) */
    sgs_grid g;
    T_CHECK(sgs_init(&g, 6, 5, err, sizeof err) == 0);
    {
        sgf_plan p;
        T_CHECK(g.npts > SGF_MAXPTS && g.npts * 4 > 227 * 1024); /* and more than any block's shared memory */
        T_EQ_INT(sgf_plan_build(&p, &g, 4, 8, 4, 8, 1, err, sizeof err), -1);
        T_CHECK(strstr(err, "shared memory") != NULL);
        sgs_free(&g);
    }
    /* options out of range: poles per lane, element size, warps */
    T_CHECK(sgs_init(&g, 3, 2, err, sizeof err) == 0);
    {
        sgf_plan p;
        static const int BAD[4] = {0, 3, 32, -1};
        for (int i = 0; i < 4; i++) {
            T_EQ_INT(sgf_plan_build(&p, &g, BAD[i], 8, 4, 8, 1, err, sizeof err), -1);
            T_CHECK(strstr(err, "poles per lane") != NULL);
            static const int BADL[4] = {0, 3, 64, -2};
            T_EQ_INT(sgf_plan_build(&p, &g, 4, BADL[i], 4, 8, 1, err, sizeof err), -1);
            T_CHECK(strstr(err, "lanes per family") != NULL);
            T_EQ_INT(sgf_plan_build(&p, &g, 4, 8, BAD[i] + 2, 8, 1, err, sizeof err), -1);
            T_CHECK(strstr(err, "element size") != NULL);
        }
        static const int BADW[3] = {0, SGF_MAXW + 1, -3};
        for (int i = 0; i < 3; i++) {
            T_EQ_INT(sgf_plan_build(&p, &g, 4, 8, 8, BADW[i], 1, err, sizeof err), -1);
            T_CHECK(strstr(err, "warps per block") != NULL);
        }
        T_EQ_INT(sgf_plan_build(&p, &g, 16, 32, 8, SGF_MAXW, 1, err, sizeof err), 0);
        sgf_plan_free(&p);
        sgs_free(&g);
    }
    /* --fam-plans (sgf_cfg_parse): every field at both ends of its range, the separators, the count */
    {
        sgf_cfg c[SGF_CFG_MAX + 1];
        T_EQ_INT(sgf_cfg_parse("256:1:8:1:1", c, SGF_CFG_MAX, err, sizeof err), 1);
        T_CHECK(c[0].threads == 256 && c[0].nbuf == 1 && c[0].rmax == 8 && c[0].lmin == 1 && c[0].pack == 1);
        T_EQ_INT(sgf_cfg_parse("32:2:1:32:0,1024:1:16:1:1", c, SGF_CFG_MAX, err, sizeof err), 2);
        T_CHECK(c[0].threads == 32 && c[0].nbuf == 2 && c[0].rmax == 1 && c[0].lmin == 32 && c[0].pack == 0);
        T_CHECK(c[1].threads == 1024 && c[1].nbuf == 1 && c[1].rmax == 16 && c[1].lmin == 1 && c[1].pack == 1);
        char many[512] = "";
        for (int i = 0; i < SGF_CFG_MAX; i++) {
            char e[32];
            snprintf(e, sizeof e, "%s%d:1:4:8:%d", i ? "," : "", 64 * (i + 1), i % 2);
            strcat(many, e);
        }
        T_EQ_INT(sgf_cfg_parse(many, c, SGF_CFG_MAX, err, sizeof err), SGF_CFG_MAX);
        T_CHECK(c[SGF_CFG_MAX - 1].threads == 64 * SGF_CFG_MAX && c[SGF_CFG_MAX - 1].pack == (SGF_CFG_MAX - 1) % 2);
        strcat(many, ",128:1:4:8:0");
        T_EQ_INT(sgf_cfg_parse(many, c, SGF_CFG_MAX, err, sizeof err), -1);
        T_CHECK(strstr(err, "more than 8") != NULL);
        static const struct { const char *s, *why; } BAD[] = {
            {"0:1:4:8:0", "threads"}, {"1056:1:4:8:0", "threads"}, {"100:1:4:8:0", "multiple of 32"}, {"48:1:4:8:0", "multiple of 32"},
            {"256:0:4:8:0", "buffers"}, {"256:3:4:8:0", "buffers"}, {"256:1:0:8:0", "rmax"}, {"256:1:32:8:0", "rmax"},
            {"256:1:6:8:0", "power of two"}, {"256:1:4:0:0", "lmin"}, {"256:1:4:64:0", "lmin"}, {"256:1:4:12:0", "power of two"},
            {"256:1:4:8:2", "pack"}, {"256:1:4:8", "T:B:R:L:P"}, {"256:1:4:8:0:1", "',' or the end"},
            {"256:1:4:8:0,", "entry 2"}, {"", "T:B:R:L:P"}, {"-256:1:4:8:0", "T:B:R:L:P"}, {"256;1:4:8:0", "':'"},
            {"256:1:4:8:0x", "',' or the end"}, {"99999999999999999999:1:4:8:0", "threads"}, {"256:1:4:8:0,,", "entry 2"}};
        for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
            err[0] = 0;
            T_EQ_INT(sgf_cfg_parse(BAD[i].s, c, SGF_CFG_MAX, err, sizeof err), -1);
            if (!strstr(err, BAD[i].why)) { fprintf(stderr, "sgf_cfg_parse(\"%s\"): '%s' lacks '%s'\n", BAD[i].s, err, BAD[i].why); T_CHECK(0); }
        }
    }
    /* the bank rule of the model (sgf_wavefronts) on accesses whose wavefronts are known */
    {
        unsigned a[SGF_LANES];
        int on[SGF_LANES];
        for (int i = 0; i < SGF_LANES; i++) on[i] = 1;
        for (int i = 0; i < SGF_LANES; i++) a[i] = 4u * (unsigned)i; /* 32 consecutive floats */
        T_EQ_INT(sgf_wavefronts(a, on, 4), 1);
        for (int i = 0; i < SGF_LANES; i++) a[i] = 8u * (unsigned)i; /* stride 2: two words a bank */
        T_EQ_INT(sgf_wavefronts(a, on, 4), 2);
        for (int i = 0; i < SGF_LANES; i++) a[i] = 128u * (unsigned)i; /* one bank */
        T_EQ_INT(sgf_wavefronts(a, on, 4), 32);
        for (int i = 0; i < SGF_LANES; i++) a[i] = 64u; /* one word: a broadcast */
        T_EQ_INT(sgf_wavefronts(a, on, 4), 1);
        for (int i = 0; i < SGF_LANES; i++) a[i] = 8u * (unsigned)i; /* 32 consecutive doubles: one a half warp */
        T_EQ_INT(sgf_wavefronts(a, on, 8), 2);
        for (int i = 0; i < SGF_LANES; i++) a[i] = i < 16 ? 0u : 8u * (unsigned)(i - 16); /* a broadcast, then 16 banks */
        T_EQ_INT(sgf_wavefronts(a, on, 8), 2);
        for (int i = 0; i < SGF_LANES; i++) on[i] = i < 3, a[i] = 256u * (unsigned)i; /* three lanes, one bank */
        T_EQ_INT(sgf_wavefronts(a, on, 4), 3);
        T_EQ_INT(sgf_wavefronts(a, on, 8), 3);
    }
    /* one pole per pass, one lane: every access one wavefront (d = 1, level 5: 33 loads, 31 stores) */
    {
        sgs_grid h;
        T_CHECK(sgs_init(&h, 1, 5, err, sizeof err) == 0);
        {
            for (int elem = 4; elem <= 8; elem += 4) {
                sgf_plan p;
                double ld = 0, st = 0;
                if (sgf_plan_build(&p, &h, 1, 1, elem, 1, 1, err, sizeof err)) { T_CHECK(0); continue; }
                sgf_plan_wavefronts(&p, &ld, &st);
                T_CHECK(ld == 33 && st == 31);
                sgf_plan_free(&p);
            }
            sgs_free(&h);
        }
    }
    /* the shared-memory model (sgf_plan_wavefronts) on the sweep's grids: at least one wavefront per
     * warp access (two for 8-byte elements), at most one per lane; the bank-aware grouping fewer
     * than the storage order; printed for NOTES.md */
    static const int LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
    for (int d = 4; d <= 6; d++)
        for (int elem = 4; elem <= 8; elem += 4) {
            sgs_grid h;
            if (sgs_init(&h, d, LEVEL[d], err, sizeof err)) { T_CHECK(0); continue; }
            double wf[2][2];
            for (int pack = 0; pack < 2; pack++) {
                sgf_plan p;
                if (sgf_plan_build(&p, &h, 4, d == 6 && elem == 4 ? 1 : 8, elem, 8, pack, err, sizeof err)) { T_CHECK(0); continue; }
                sgf_plan_wavefronts(&p, &wf[pack][0], &wf[pack][1]);
                long long acc = 0, lanes = 0; /* the fewest wavefronts (one per half warp with a lane, 8-byte
                                                 elements; one per warp, 4-byte) and one per lane access */
                for (int t = 0; t < p.ntask; t++) {
                    int m = sgf_task_m(p.task[t]), R = sgf_task_r(p.task[t]), nl = sgf_task_nl(p.task[t]);
                    acc += (long long)R * (2 << m) * (elem == 8 && nl > 16 ? 2 : 1);
                    lanes += (long long)R * (2 << m) * nl;
                }
                double tot = wf[pack][0] + wf[pack][1];
                T_CHECK(tot >= (double)acc && tot <= (double)lanes);
                printf("  d=%d %s %s: %.3f wavefronts per point (loads %.3f, stores %.3f)\n", d, elem == 4 ? "float " : "double",
                       pack ? "packed" : "storage order", tot / h.npts, wf[pack][0] / h.npts, wf[pack][1] / h.npts);
                sgf_plan_free(&p);
            }
            T_CHECK(wf[1][0] + wf[1][1] < wf[0][0] + wf[0][1]); /* fewer: every sweep grid has small families */
            if (d == 6 && elem == 4) /* the grouping's worth where it matters most (NOTES.md: 0.904 -> 0.741) */
                T_CHECK((wf[1][0] + wf[1][1]) / h.npts < 0.75 && (wf[0][0] + wf[0][1]) / h.npts > 0.9);
            sgs_free(&h);
        }
    return T_DONE();
}
