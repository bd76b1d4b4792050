/* volume.c -- the m-simplex volume analysis of [REC] (Navarro, Bustos, Hitschfeld,
 * arXiv:1610.07394, eq. 2-4 and 16-29, sec. III.D), host only (no GPU).
 *
 * Every volume is computed twice, by exact enumeration (volume.h: the stacking of eq. 3, the
 * recursion trees of eq. 17, 21, 25) and by the paper's closed form; a disagreement is a
 * failure (exit 1, no data file).  Volumes in blocks.  Output (<out>/):
 *   simplex3d_volume_bb.dat      n = 2..nmax: V(Delta^3_n), bounding box n^3, ratio -> 6 (eq. 4)
 *   simplex3d_volume_m3.dat      n = 2^k: the beta = 3 set (eq. 17-19, extra -> 1/5), the
 *                                alternative set (eq. 21-22, = V(Delta^3_{n-1})), its container
 *                                (eq. 24, extra -> 2/16), and the parallel volumes of our
 *                                recursive-log and recursive-o1 grids (map.h, rho = 1)
 *   simplex3d_volume_m.dat       m = 2..8, n = 2^k, r = 1/2, beta = 2: V(S^m_n) (eq. 25-27) vs
 *                                V(Delta^m_{n-1}); limit m!/(2^m - 2) - 1 (eq. 28-29)
 *   simplex3d_volume_search.dat  m = 3..6, r = 1/s, s = 2..6, beta = 2..s^m - 1: limit extra
 *                                m!/(s^m - beta) - 1 and n0, the first n = s^k from which
 *                                V(S^m_n) >= V(Delta^m_{n-1}) holds (checked to n <= 2^21) */
#include <stdio.h>
#include <string.h>
#include "../common/args.h"
#include "../common/datfile.h"
#include "volume.h"
#include "map.h"

#define GPU_NONE "none (host computation)"
#define SEARCH_NMAX (1ull << 21) /* n^6 < 2^127 */
#define VOLUME_NMAX 32768      /* m = 8: n^m = 2^120 < 2^128 (vol_t); 2^16 would wrap n^8 to 0 */

static double d(vol_t v) { return (double)v; }

static int check(vol_t a, vol_t b, const char *what, unsigned m, uint64_t n)
{
    if (a == b) return 0;
    fprintf(stderr, "FAILED: %s: enumeration %.17g != closed form %.17g (m=%u, n=%llu)\n", what, d(a), d(b), m,
            (unsigned long long)n);
    return 1;
}

/* Options (of the common ones only --quick and --out: nothing here is timed or random); the largest n. */
static uint64_t volume_parse(int argc, char **argv, common_opts *c)
{
    long long nmax = 0; /* 0: 4096, --quick 1024 */
    arg_opt opts[] = { /* of the common options only these two: nothing here is timed or random */
        {"quick", ARG_FLAG, &c->quick, "small sweep (make QUICK=1): --nmax at most 1024", 0, 0, NULL},
        {"out", ARG_STR, &c->out, "directory for .dat files", 0, 0, NULL},
        {"nmax", ARG_LONG, &nmax, "largest n in blocks, 4 .. 2^15: n^8 must fit in 128 bits (0: 4096, --quick 1024)", 4, VOLUME_NMAX, ARG_POW2},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "volume [options]",
               "Parallel-space volumes of the recursive maps for m-simplices (no GPU): closed forms vs enumeration.");
    common_opts_finish(c);
    if (c->quick && nmax > 1024) DIE_USAGE("--nmax=%lld: --quick allows at most 1024", nmax);
    if (!nmax) nmax = c->quick ? 1024 : 4096;
    return (uint64_t)nmax;
}

/* 1. V(Delta^3_n) and the bounding box, every n -> simplex3d_volume_bb.dat; 1 on a mismatch */
static int volume_bb(datfile *f, int argc, char **argv, const common_opts *c, uint64_t nmax)
{
    int bad = 0;
    dat_meta mb = dat_meta_of("simplex3d/volume", "[REC] eq. (2)-(4), (16): V(Delta^3_n) and the bounding box", argc, argv, GPU_NONE, c);
    datfile_open(f, c->out, "simplex3d_volume_bb.dat", &mb);
    datfile_meta(f, "enumeration", "eq. (3): stacked triangles; closed form eq. (2)/(16)");
    datfile_columns(f, "n tet_enum tet_closed bb bb_ratio bb_extra");
    for (uint64_t n = 2; n <= nmax; n++) {
        vol_t e = vol_simplex_enum(3, n), cf = vol_simplex_closed(3, n);
        bad |= check(e, cf, "V(Delta^3_n)", 3, n);
        datfile_row(f, "%llu %.0f %.0f %.0f %.9f %.9f", (unsigned long long)n, d(e), d(cf), d(vol_pow(n, 3)),
                    d(vol_pow(n, 3)) / d(cf), d(vol_pow(n, 3)) / d(cf) - 1);
    }
    return bad;
}

/* 2. m = 3: the recursive sets -> simplex3d_volume_m3.dat; 1 on a mismatch */
static int volume_m3(datfile *f, int argc, char **argv, const common_opts *c, uint64_t nmax)
{
    int bad = 0;
    dat_meta m3 = dat_meta_of("simplex3d/volume", "[REC] eq. (17)-(24): recursive sets for m = 3", argc, argv, GPU_NONE, c);
    datfile_open(f, c->out, "simplex3d_volume_m3.dat", &m3);
    datfile_meta(f, "extra", "rec3 and ours vs V(Delta^3_n); alt and container vs V(Delta^3_{n-1}) as in eq. (22), (24)");
    datfile_columns(f, "n tet tet_nm1 bb_extra rec3_enum rec3_closed rec3_cubes rec3_extra rlog_ours rlog_launches "
                       "rlog_ours_extra alt_enum alt_closed alt_extra container_paper container_extra ro1_ours ro1_ours_extra");
    for (uint64_t n = 2; n <= nmax; n *= 2) {
        vol_t tet = vol_simplex_closed(3, n), tet1 = vol_simplex_closed(3, n - 1);
        uint64_t cubes = 0;
        vol_t r3 = vol_rec3_enum(n, &cubes), r3c = vol_rec3_closed(n);
        bad |= check(r3, r3c, "beta=3 set, eq. (18)", 3, n);
        vol_t alt = vol_set_enum(3, n, 2, 2), altc = vol_alt_closed(n);
        bad |= check(alt, altc, "alternative set, eq. (22)", 3, n);
        bad |= check(altc, tet1, "eq. (22) = V(Delta^3_{n-1})", 3, n);
        s3_params p;
        s3_plan(S3_RECURSIVE_LOG, (uint32_t)n, 1, &p);
        uint64_t rlog = s3_threads_launched(S3_RECURSIVE_LOG, &p), nl = s3_num_launches(S3_RECURSIVE_LOG, p.nb);
        /* ours = the paper's set plus the 3^k side-1 leaves it leaves out */
        bad |= check((vol_t)rlog, r3 + vol_pow(3, vol_log(n, 2)), "recursive-log grid = eq. (18) + 3^k", 3, n);
        s3_plan(S3_RECURSIVE_O1, (uint32_t)n, 1, &p);
        uint64_t ro1 = s3_threads_launched(S3_RECURSIVE_O1, &p);
        double cp = vol_container_paper(n);
        datfile_row(f, "%llu %.0f %.0f %.9f %.0f %.0f %llu %.9f %llu %llu %.9f %.0f %.0f %.9f %.2f %.9f %llu %.9f",
                    (unsigned long long)n, d(tet), d(tet1), d(vol_pow(n, 3)) / d(tet) - 1, d(r3), d(r3c),
                    (unsigned long long)cubes, d(r3) / d(tet) - 1, (unsigned long long)rlog, (unsigned long long)nl,
                    (double)rlog / d(tet) - 1, d(alt), d(altc), d(alt) / d(tet1) - 1, cp, cp / d(tet1) - 1,
                    (unsigned long long)ro1, (double)ro1 / d(tet) - 1);
    }
    return bad;
}

/* 3. general m, r = 1/2, beta = 2 -> simplex3d_volume_m.dat; 1 on a mismatch */
static int volume_m(datfile *f, int argc, char **argv, const common_opts *c, uint64_t nmax)
{
    int bad = 0;
    dat_meta mm = dat_meta_of("simplex3d/volume", "[REC] eq. (25)-(29): r = 1/2, beta = 2 for m = 2..8", argc, argv, GPU_NONE, c);
    datfile_open(f, c->out, "simplex3d_volume_m.dat", &mm);
    datfile_meta(f, "extra", "V(S^m_n) / V(Delta^m_{n-1}) - 1; limit m!/(2^m - 2) - 1 (eq. 29); bb_extra = n^m / V(Delta^m_n) - 1 -> m! - 1 (eq. 4)");
    datfile_columns(f, "m n delta_nm1_enum delta_nm1_closed sm_enum sm_closed covers extra extra_limit bb_extra");
    for (unsigned m = 2; m <= 8; m++)
        for (uint64_t n = 2; n <= nmax; n *= 2) {
            vol_t de = vol_simplex_enum(m, n - 1), dc = vol_simplex_closed(m, n - 1);
            bad |= check(de, dc, "V(Delta^m_{n-1})", m, n);
            vol_t se = vol_set_enum(m, n, 2, 2), sc = vol_set_closed(m, n, 2, 2);
            bad |= check(se, sc, "V(S^m_n), eq. (27)", m, n);
            double lim = d(vol_factorial(m)) / d(vol_pow(2, m) - 2) - 1;
            datfile_row(f, "%u %llu %.17g %.17g %.17g %.17g %d %.9f %.9f %.9f", m, (unsigned long long)n, d(de), d(dc),
                        d(se), d(sc), se >= dc, d(se) / d(dc) - 1, lim,
                        d(vol_pow(n, m)) / d(vol_simplex_closed(m, n)) - 1);
        }
    return bad;
}

/* 4. sec. III.D: search over (r = 1/s, beta) -> simplex3d_volume_search.dat (nothing to check: 0) */
static int volume_search(datfile *f, int argc, char **argv, const common_opts *c)
{
    dat_meta ms = dat_meta_of("simplex3d/volume", "[REC] sec. III.D: (r, beta) minimising extra volume for n >= n0", argc, argv, GPU_NONE, c);
    datfile_open(f, c->out, "simplex3d_volume_search.dat", &ms);
    datfile_meta(f, "search", "s = 1/r in 2..6, beta in 2..s^m - 1 with s^m - beta <= m! (else the set is asymptotically "
                         "smaller than the simplex); n0 = first n = s^k with V(S^m_n) >= V(Delta^m_{n-1}) for every "
                         "s^k from there up to 2^21; best = smallest limit extra, then smallest n0, per m");
    datfile_columns(f, "m s beta limit_extra n0 extra_at_nmax nmax best");
    for (unsigned m = 3; m <= 6; m++) {
        double best_lim = 1e300;
        uint64_t best_n0 = 0;
        unsigned best_s = 0, best_b = 0;
        /* two passes: find the best, then print every candidate with the flag */
        for (int pass = 0; pass < 2; pass++)
            for (unsigned s = 2; s <= 6; s++) {
                vol_t sm = vol_pow(s, m);
                for (unsigned beta = 2; beta < sm; beta++) {
                    if (sm - beta > vol_factorial(m)) continue;
                    double lim = d(vol_factorial(m)) / d(sm - beta) - 1;
                    uint64_t n0 = 0, last = 0;
                    double ex = 0;
                    for (uint64_t n = s; n <= SEARCH_NMAX; n *= s) {
                        vol_t v = vol_set_closed(m, n, s, beta), dl = vol_simplex_closed(m, n - 1);
                        if (v >= dl) {
                            if (!n0) n0 = n;
                        } else {
                            n0 = 0;
                        }
                        last = n;
                        ex = d(v) / d(dl) - 1;
                    }
                    if (!n0) continue; /* does not cover by 2^21 */
                    int better = lim < best_lim - 1e-12 || (lim < best_lim + 1e-12 && n0 < best_n0);
                    if (pass == 0 && better) best_lim = lim, best_n0 = n0, best_s = s, best_b = beta;
                    /* print only the useful candidates: within 2x of the m = 3-style baseline */
                    if (pass == 1 && (lim <= 1.0 || (s == best_s && beta == best_b) || (s == 2 && beta == 2)))
                        datfile_row(f, "%u %u %u %.9f %llu %.9f %llu %d", m, s, beta, lim, (unsigned long long)n0, ex,
                                    (unsigned long long)last, s == best_s && beta == best_b);
                }
            }
        fprintf(stderr, "m=%u: best r = 1/%u, beta = %u: extra -> %.4f, covers from n0 = %llu\n", m, best_s, best_b,
                best_lim, (unsigned long long)best_n0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    uint64_t nmax = volume_parse(argc, argv, &c);
    datfile f[4];
    int bad = volume_bb(&f[0], argc, argv, &c, nmax);
    bad |= volume_m3(&f[1], argc, argv, &c, nmax);
    bad |= volume_m(&f[2], argc, argv, &c, nmax);
    bad |= volume_search(&f[3], argc, argv, &c);
    if (bad) {
        for (int k = 0; k < 4; k++) datfile_discard(&f[k]);
        return 1;
    }
    for (int k = 0; k < 4; k++) datfile_commit(&f[k]);
    return 0;
}
