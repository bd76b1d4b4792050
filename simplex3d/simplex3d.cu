/* simplex3d.cu -- GPU thread maps for the discrete orthogonal tetrahedron (see README.md).
 *
 * Modes:
 *   --layout --map=M --n=N --rho=R   (no GPU) prints `x y z launch block thread` for every
 *        working thread of exactly the launch grid(s) of map M: each cell of D_N once.
 *   --kernel=K [--n=N]               (GPU) for n in the sweep (or just N): for every map,
 *        correctness run (exactly-once coverage with atomic counters and the written values
 *        for dummy/write; the Axilrod-Teller energy against a double CPU reference for
 *        triplet), then timing (bench.h); one row per (n, map) into
 *        <out>/simplex3d_speedup_<K>.dat with I = T_bb / T_map.
 *        K = write-coarse, dummy-coarse, triplet-coarse (ours): the kernel with 2^lc map
 *        blocks per CUDA block and 2^ltpm threads per map block (k_coarse; write: 16-byte
 *        stores), for a sweep of configurations (--mblocks, --tpm pick one); strict checks of
 *        the whole buffer (write, dummy), the CPU energy (triplet).
 *        --nlist=a,b,... measures the given sizes (any n, e.g. nb = 2^k + 1) instead of the
 *        power-of-two sweep; the file name then ends in _nlist.
 * Domain, maps and their equations: map.h.  Kernels: kernels.cuh. */
#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "map.h"
#include "emulate.h"
#include "kernels.cuh"

#define NSTREAMS_MAX 128
/* triplet: largest n (N = n + 2 particles); the double CPU reference checks N^3/6 triplets,
 * 64x the sweep's largest (n = 2048), i.e. minutes on 16 cores instead of hours at n = 65536 */
#define S3_TRIPLET_NMAX 8192
#define S3_GUARD_BYTES ((size_t)1 << 16) /* write-coarse check: untouched zone past the blocks */

typedef struct {
    int map, work, eval;
    s3_params p;
    s3_args a;
    const uint32_t *launches; /* recursive-log: (side, a0, b0, c0) per launch */
    uint64_t nl;
    cudaStream_t *streams;
    int nstreams;
    cudaEvent_t fork, *join;
    int coarse;               /* *-coarse: k_coarse with 2^lc map blocks per CUDA block, */
    uint32_t lc, ltpm;        /* 2^ltpm threads per map block */
} run_ctx;

/* One launch of the map over grid p (*-coarse: the coarse grid of ceil(gx / 2^lc) x gy x gz
 * CUDA blocks of 2^(lc + ltpm) threads; otherwise gx x gy x gz blocks of rho^3 threads). */
static void launch_ctx(const run_ctx *c, const s3_params &p, cudaStream_t s)
{
    if (c->coarse) s3_launch_coarse(c->map, c->work, s, p, c->a, c->lc, c->ltpm);
    else s3_launch_map(c->map, c->eval, c->work, dim3(p.gx, p.gy, p.gz), s, p, c->a);
}

/* One run of the map: one launch, or (recursive-log) one launch per sub-cube spread over the
 * streams, forked from and joined back into s (so bench.h's events on s bracket them all). */
static void run_once(void *vc, cudaStream_t s)
{
    run_ctx *c = (run_ctx *)vc;
    if (c->map != S3_RECURSIVE_LOG) {
        launch_ctx(c, c->p, s);
        return;
    }
    CHECK_CUDA(cudaEventRecord(c->fork, s));
    for (int i = 0; i < c->nstreams; i++) CHECK_CUDA(cudaStreamWaitEvent(c->streams[i], c->fork, 0));
    s3_params q = c->p;
    for (uint64_t li = 0; li < c->nl; li++) {
        const uint32_t *l = c->launches + 4 * li;
        q.gx = q.gy = q.gz = l[0];
        q.a0 = l[1], q.b0 = l[2], q.c0 = l[3];
        launch_ctx(c, q, c->streams[li % c->nstreams]);
    }
    for (int i = 0; i < c->nstreams; i++) {
        CHECK_CUDA(cudaEventRecord(c->join[i], c->streams[i]));
        CHECK_CUDA(cudaStreamWaitEvent(s, c->join[i], 0));
    }
}

/* Runs `work` once with the bb map (the checks) and returns the mismatch count. */
static unsigned long long run_check(run_ctx *c, int work, cudaStream_t s, unsigned long long *d_wrong)
{
    run_ctx k = *c;
    s3_plan(S3_BB, c->p.n, c->p.rho, &k.p);
    k.map = S3_BB, k.work = work, k.eval = S3_EVAL_THREAD, k.coarse = 0;
    k.a.wrong = d_wrong;
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof wrong, s));
    run_once(&k, s);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    return wrong;
}

/* write-coarse, dummy-coarse: the strict check of the whole buffer (k_check_elems); returns the mismatches. */
static unsigned long long run_check_elems(const run_ctx *c, int what, uint64_t guard_end, cudaStream_t s,
                                          unsigned long long *d_wrong)
{
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof wrong, s));
    k_check_elems<<<GRID_STRIDE_BLOCKS(16), 256, 0, s>>>(c->p, c->a.out, what, guard_end, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    return wrong;
}

static void print_layout(int map, uint32_t n, uint32_t rho, int argc, char **argv)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p))
        DIE_USAGE("--map=%s cannot take n=%u rho=%u (grid past the CUDA limits)", s3_map_name(map), n, rho);
    if (map == S3_LAMBDA_CUBIC && p.tet_blocks > S3_LAMBDA_CUBIC_FIRST_FAIL_HOST)
        fprintf(stderr, "warning: lambda-cubic is wrong from block index %llu on: this layout misplaces blocks\n",
                (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    char cmd[1024];
    args_cmdline(argc, argv, cmd, sizeof cmd);
    printf("# program: simplex3d --layout\n# cmdline: %s\n# gpu: none (host emulation of the launch grid)\n", cmd);
    printf("# map: %s  n: %u  rho: %u  blocks per side: %u  launches: %llu  threads launched: %llu  cells: %llu\n",
           s3_map_name(map), n, rho, p.nb, (unsigned long long)s3_num_launches(map, p.nb),
           (unsigned long long)s3_threads_launched(map, &p), (unsigned long long)tet_number(n));
    printf("# domain: ordered form 0 <= x <= y <= z < n; block = linear block index within the launch\n");
    printf("x y z launch block thread\n");
    s3_emulate(map, n, rho, [](void *, uint32_t x, uint32_t y, uint32_t z, uint64_t l, uint64_t b, uint32_t t) {
        printf("%u %u %u %llu %llu %u\n", x, y, z, (unsigned long long)l, (unsigned long long)b, t);
    }, NULL);
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    const char *kernel = "write", *mapname = "all", *evalname = "block";
    long long n_one = 0, nmin = 0, nmax = 0;
    const char *nlist = "";
    int rho = 8, layout = 0, nstreams = 32, mblocks = 0, tpm = 0;
    arg_opt opts[] = {
        COMMON_ARGS(c),
        {"kernel", ARG_CHOICE, &kernel, "test kernel (*-coarse: ours, several map blocks per CUDA block; write-coarse: 16-byte stores)", 0, 0,
         "dummy write triplet write-coarse dummy-coarse triplet-coarse"},
        {"map", ARG_CHOICE, &mapname, "thread map (all: every map, bb first)", 0, 0, "all " S3_MAP_CHOICES},
        {"n", ARG_LONG, &n_one, "cells per side (triplet: n + 2 particles); 0: the sweep", 0, 65536, NULL},
        {"nmin", ARG_LONG, &nmin, "sweep: smallest n, powers of two (0: 256 write/dummy, 128 triplet; quick: half)", 0, 65536, ARG_POW2},
        {"nmax", ARG_LONG, &nmax, "sweep: largest n (0: 4096 write/dummy, 2048 triplet; quick: 512/256)", 0, 65536, NULL},
        {"nlist", ARG_STR, &nlist, "comma-separated sizes n (any n <= 65536, at most 32) instead of the sweep; file name ends in _nlist", 0, 0, NULL},
        {"rho", ARG_INT, &rho, "threads per block side: 1, 2, 4 or 8 (rho^3 threads)", 1, 8, ARG_POW2},
        {"eval", ARG_CHOICE, &evalname, "where the map is evaluated: once per block (thread 0, shared memory) or in every thread", 0, 0, "block thread"},
        {"streams", ARG_INT, &nstreams, "recursive-log: streams its launches are spread over", 1, NSTREAMS_MAX, NULL},
        {"mblocks", ARG_INT, &mblocks, "*-coarse: map blocks per CUDA block, a power of two (0: the sweep of configurations)", 0, 1024, ARG_POW2},
        {"tpm", ARG_INT, &tpm, "*-coarse: threads per map block, a power of two <= rho^3/4 (0: the sweep)", 0, 128, ARG_POW2},
        {"layout", ARG_FLAG, &layout, "no GPU: print x y z launch block thread of --map for --n, --rho", 0, 0, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "simplex3d [options]",
               "Thread maps for tetrahedral domains: bb, lambda-cubic (as published), lambda-exact (ours),\n"
               "recursive-log (one launch per sub-cube), recursive-o1 (eq. 23, one launch).\n"
               "recursive-o1-below (ours: any n from below, one launch).\n"
               "Times the dummy, write, triplet kernel or their coarsened forms (ours: several map blocks per\n"
               "CUDA block; write-coarse: 16-byte stores; bb coarsened the same way) over n and writes\n"
               "I = T_bb / T_map.");
    common_opts_finish(&c);
    if (rho != 1 && rho != 2 && rho != 4 && rho != 8) DIE_USAGE("--rho=%d: use 1, 2, 4 or 8", rho);
    int map_only = strcmp(mapname, "all") ? s3_map_of(mapname) : -1;

    if (layout) {
        if (map_only < 0) DIE_USAGE("--layout needs one --map (not all)");
        if (n_one < 1) DIE_USAGE("--layout needs --n >= 1");
        if (n_one > 512) DIE_USAGE("--layout: n=%lld prints too much; use n <= 512", n_one);
        print_layout(map_only, (uint32_t)n_one, (uint32_t)rho, argc, argv);
        return 0;
    }

    int eval = !strcmp(evalname, "block") ? S3_EVAL_BLOCK : S3_EVAL_THREAD;
    const int coarse = strstr(kernel, "-coarse") != NULL;
    const int work = !strncmp(kernel, "dummy", 5) ? S3_DUMMY : !strncmp(kernel, "write", 5) ? S3_WRITE : S3_TRIPLET;
    /* coarse configurations (log2 map blocks per CUDA block, log2 threads per map block) */
    uint32_t cfg[8][2], ncfg = 1;
    cfg[0][0] = cfg[0][1] = 0;
    if (coarse) {
        if (rho < 2) DIE_USAGE("--kernel=%s needs rho >= 2 (16-byte chunks of rho^3 elements)", kernel);
        if (eval != S3_EVAL_BLOCK) DIE_USAGE("--kernel=%s always evaluates the map per thread: leave --eval out", kernel);
        if ((mblocks && !s3_is_pow2((uint64_t)mblocks)) || (tpm && !s3_is_pow2((uint64_t)tpm)))
            DIE_USAGE("--mblocks=%d --tpm=%d: powers of two expected", mblocks, tpm);
        const uint32_t lr = 31u - s3_clz32((uint32_t)rho), lnch = 3 * lr - 2;
        if (mblocks || tpm) {
            cfg[0][0] = mblocks ? 31u - s3_clz32((uint32_t)mblocks) : 0;
            cfg[0][1] = tpm ? 31u - s3_clz32((uint32_t)tpm) : lnch;
        } else { /* the sweep: (1, rho^3/4), (1, 32), (2, 32), (4, 32), (16, 32), tpm clipped to rho^3/4 */
            const uint32_t l32 = lnch < 5 ? lnch : 5, sw[5][2] = {{0, lnch}, {0, l32}, {1, l32}, {2, l32}, {4, l32}};
            ncfg = 0;
            for (int i = 0; i < 5; i++) {
                int dup = 0;
                for (uint32_t j = 0; j < ncfg; j++) dup |= cfg[j][0] == sw[i][0] && cfg[j][1] == sw[i][1];
                if (!dup) cfg[ncfg][0] = sw[i][0], cfg[ncfg][1] = sw[i][1], ncfg++;
            }
        }
        for (uint32_t i = 0; i < ncfg; i++)
            if (s3_coarse_check(lr, cfg[i][0], cfg[i][1]))
                DIE_USAGE("%s: %u map blocks per CUDA block x %u threads per map block is not valid for rho=%d "
                          "(threads per map block <= rho^3/4, at most 1024 threads per CUDA block)",
                          kernel, 1u << cfg[i][0], 1u << cfg[i][1], rho);
    }
    /* the sizes */
    long long sizes[32];
    int nsizes = 0;
    if (n_one && *nlist) DIE_USAGE("--n and --nlist: give one of them");
    if (n_one) {
        sizes[nsizes++] = n_one;
    } else if (*nlist) { /* any sizes, e.g. nb = 2^k + 1 (the non-power-of-two measurements) */
        for (const char *q = nlist; *q;) {
            char *end;
            long long v = strtoll(q, &end, 10);
            if (end == q || v < 1 || v > 65536 || (*end && (*end != ',' || !end[1])) || nsizes == 32)
                DIE_USAGE("--nlist=%s: up to 32 comma-separated sizes 1..65536 expected", nlist);
            sizes[nsizes++] = v;
            q = *end ? end + 1 : end;
        }
    } else {
        long long lo = nmin ? nmin : (work == S3_TRIPLET ? 128 : 256), hi = nmax ? nmax : (work == S3_TRIPLET ? 2048 : 4096);
        if (c.quick) {
            if (!nmin) lo /= 2;
            if (!nmax) hi = work == S3_TRIPLET ? 256 : 512;
        }
        if (lo > hi) DIE_USAGE("--nmin=%lld > --nmax=%lld", lo, hi);
        for (long long v = lo; v <= hi && nsizes < 32; v *= 2) sizes[nsizes++] = v;
    }
    for (int i = 0; i < nsizes; i++) {
        s3_params p;
        if (s3_plan(S3_BB, (uint32_t)sizes[i], rho, &p)) DIE_USAGE("n=%lld too large for the CUDA grid", sizes[i]);
        if (work == S3_TRIPLET && sizes[i] > S3_TRIPLET_NMAX)
            DIE_USAGE("triplet: n=%lld: the O(N^3) CPU reference takes too long; use n <= %d", sizes[i], S3_TRIPLET_NMAX);
    }

    device_require(c.device, 7, 5);
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    cudaStream_t streams[NSTREAMS_MAX];
    cudaEvent_t join[NSTREAMS_MAX], fork;
    for (int i = 0; i < nstreams; i++) {
        CHECK_CUDA(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
        CHECK_CUDA(cudaEventCreateWithFlags(&join[i], cudaEventDisableTiming));
    }
    CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));

    /* device memory: the blocked cell buffer (dummy/write) for the largest size that fits */
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    uint32_t *d_out = NULL;
    size_t out_bytes = 0;
    if (work != S3_TRIPLET) {
        int keep = 0;
        for (int i = 0; i < nsizes; i++) {
            s3_params p;
            s3_plan(S3_BB, (uint32_t)sizes[i], rho, &p);
            size_t bytes = (size_t)p.tet_blocks * rho * rho * rho * 4;
            if (bytes + ((size_t)1 << 30) > free_b) {
                if (n_one)
                    DIE_USAGE("n=%lld: the cell buffer needs %.2f GiB (+1 GiB spare), only %.2f GiB free", sizes[i],
                              bytes / 1073741824.0, free_b / 1073741824.0);
                fprintf(stderr, "n=%lld: the cell buffer (%.1f GiB) does not fit in %.1f GiB: size skipped\n",
                        sizes[i], bytes / 1073741824.0, free_b / 1073741824.0);
                continue;
            }
            sizes[keep++] = sizes[i];
            if (bytes > out_bytes) out_bytes = bytes;
        }
        nsizes = keep;
        if (!nsizes) DIE_USAGE("no size of the sweep fits in device memory");
        d_out = (uint32_t *)device_alloc_or_usage(out_bytes + S3_GUARD_BYTES, "the cell buffer");
    }
    unsigned long long *d_wrong;
    double *d_energy = NULL, *d_pos = NULL;
    CHECK_CUDA(cudaMalloc(&d_wrong, sizeof *d_wrong));
    CHECK_CUDA(cudaMalloc(&d_energy, sizeof *d_energy));

    /* lambda-cubic's exact range on this GPU */
    uint64_t wscan = 0;
    for (int i = 0; i < nsizes; i++) {
        s3_params p;
        s3_plan(S3_BB, (uint32_t)sizes[i], rho, &p);
        if (p.tet_blocks > wscan) wscan = p.tet_blocks;
    }
    unsigned long long cubic_first = ~0ull;
    CHECK_CUDA(cudaMemcpy(d_wrong, &cubic_first, sizeof cubic_first, cudaMemcpyHostToDevice));
    k_cubic_first_fail<<<1024, 256>>>(wscan, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&cubic_first, d_wrong, sizeof cubic_first, cudaMemcpyDeviceToHost));
    if (cubic_first != ~0ull)
        fprintf(stderr, "lambda-cubic: first wrong block index on this GPU: %llu (host fp32: %llu)\n",
                cubic_first, (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);

    char fname[128], fig[256];
    char rhos[16] = "";
    if (rho != 8) snprintf(rhos, sizeof rhos, "_rho%d", rho);
    snprintf(fname, sizeof fname, "simplex3d_speedup_%s%s%s%s.dat", kernel, eval == S3_EVAL_THREAD ? "_perthread" : "", rhos,
             *nlist ? "_nlist" : "");
    if (coarse)
        snprintf(fig, sizeof fig, "ours (not in the papers): %s kernel coarsened, the maps of [NL] sec. 6 and [REC] sec. III.B-C",
                 kernel);
    if (!coarse)
        snprintf(fig, sizeof fig, "I = T_bb / T_map, %s kernel: [NL] arXiv:1609.01490 sec. 6 eq. 18-19; [REC] arXiv:1610.07394 sec. III.B-C",
                 kernel);
    dat_meta m = dat_meta_of("simplex3d", fig, argc, argv, gpu, &c);
    datfile d;
    datfile_open(&d, c.out, fname, &m);
    datfile_meta(&d, "domain", "ordered form 0 <= x <= y <= z < n, Tet(n) = n(n+1)(n+2)/6 cells; blocks of rho^3 threads");
    if (coarse)
        datfile_meta(&d, "coarse", "%s: mblocks map blocks (rho^3 cells each, same launch grids as the per-cell kernels) per CUDA "
                     "block along the grid's x axis, tpm threads per map block, each thread evaluates the map (write: stores "
                     "16-byte chunks; dummy: the same chunk loop without stores; triplet: strided cells, warp sums); bb coarsened "
                     "the same way; speedup_x = T_bb / T_map at the same n and configuration", kernel);
    else datfile_meta(&d, "eval", "%s", eval == S3_EVAL_BLOCK ? "map evaluated once per block (thread 0, broadcast through shared memory)"
                                                         : "map evaluated by every thread (as in [NL]'s 2D kernels)");
    datfile_meta(&d, "timed", "kernel time of one run of the map (all launches of recursive-log, on %d streams)", nstreams);
    if (cubic_first != ~0ull)
        datfile_meta(&d, "lambda_cubic_first_wrong", "block index %llu on this GPU (host fp32: %llu)", cubic_first,
                     (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    else
        datfile_meta(&d, "lambda_cubic_first_wrong", "none below %llu on this GPU", (unsigned long long)wscan);

    double ceiling = 0;
    if (work == S3_WRITE) { /* the write ceiling of this GPU, over the same buffer */
        size_t n16 = out_bytes / 16;
        struct fill_ctx { uint4 *a; size_t n16; };
        fill_ctx fc = {(uint4 *)d_out, n16};
        bench_stats st = bench_gpu([](void *v, cudaStream_t st) {
            fill_ctx *f = (fill_ctx *)v;
            k_fill16<<<GRID_STRIDE_BLOCKS(8), 256, 0, st>>>(f->a, f->n16);
        }, &fc, s, c.warmup, c.reps, 0);
        ceiling = n16 * 16.0 / (st.median * 1e-3) / 1e9;
        datfile_meta(&d, "write_ceiling", "%.0f GB/s (16-byte stores over %.2f GiB on this GPU)", ceiling, out_bytes / 1073741824.0);
        fprintf(stderr, "write ceiling: %.0f GB/s\n", ceiling);
    }
    datfile_columns(&d, coarse ? "kernel n rho nb map launches threads_launched cells space_eff space_bound_x "
                                 "median_ms min_ms max_ms batch speedup_x gbs pct_ceiling us_per_launch mblocks tpm cuda_blocks"
                               : "kernel n rho nb map launches threads_launched cells space_eff space_bound_x "
                                 "median_ms min_ms max_ms batch speedup_x gbs pct_ceiling us_per_launch");

    double *h_pos = NULL;
    int failed = 0;
    for (int si = 0; si < nsizes && !failed; si++) {
        uint32_t n = (uint32_t)sizes[si];
        double e_ref = 0, e_abs = 0;
        if (work == S3_TRIPLET) {
            uint32_t N = n + 2;
            h_pos = (double *)realloc(h_pos, sizeof(double) * 3 * N);
            at_particles(h_pos, N, (uint64_t)c.seed);
            if (d_pos) CHECK_CUDA(cudaFree(d_pos));
            CHECK_CUDA(cudaMalloc(&d_pos, sizeof(double) * 3 * N));
            CHECK_CUDA(cudaMemcpy(d_pos, h_pos, sizeof(double) * 3 * N, cudaMemcpyHostToDevice));
            double t0 = bench_now_ms();
            e_ref = at_energy_direct(h_pos, N, &e_abs);
            fprintf(stderr, "triplet N=%u: CPU reference E = %.12g (%.1f s, %d threads)\n", N, e_ref,
                    (bench_now_ms() - t0) / 1e3, omp_get_max_threads());
        }
        for (uint32_t ci = 0; ci < ncfg && !failed; ci++) {
        double t_bb = 0;
        uint64_t threads_bb = 0;
        for (int map = 0; map < S3_NMAPS; map++) {
            if (map_only >= 0 && map != map_only && map != S3_BB) continue;
            run_ctx rc;
            memset(&rc, 0, sizeof rc);
            rc.map = map;
            rc.eval = eval;
            rc.coarse = coarse, rc.lc = cfg[ci][0], rc.ltpm = cfg[ci][1];
            rc.streams = streams, rc.nstreams = nstreams, rc.fork = fork, rc.join = join;
            if (s3_plan(map, n, rho, &rc.p)) {
                fprintf(stderr, "n=%u %s: skipped (grid past the CUDA limits)\n", n, s3_map_name(map));
                continue;
            }
            if (map == S3_RECURSIVE_O1B && map_only != map && s3_is_pow2(rc.p.nb)) continue; /* = recursive-o1 there */
            if (map == S3_LAMBDA_CUBIC && cubic_first != ~0ull && rc.p.tet_blocks > cubic_first) {
                fprintf(stderr, "n=%u lambda-cubic: skipped (block indices past %llu, where the float formula is wrong)\n",
                        n, cubic_first);
                datfile_meta(&d, "skipped", "lambda-cubic at n=%u: its grid holds block indices past its exact range", n);
                continue;
            }
            uint32_t *launches = NULL;
            if (map == S3_RECURSIVE_LOG) {
                launches = s3_launch_list(map, &rc.p, &rc.nl);
                rc.launches = launches;
            }
            rc.a.out = d_out;
            rc.a.magic = ~0ull;
            rc.a.pos = d_pos;
            rc.a.npart = n + 2;
            rc.a.energy = d_energy;
            uint64_t cells = tet_number(n);
            size_t bytes = (size_t)rc.p.tet_blocks * rho * rho * rho * 4;
            /* correctness run(s) */
            if (coarse && work != S3_TRIPLET) { /* exactly once (counts), then the values into a poisoned buffer */
                const size_t span = bytes + S3_GUARD_BYTES;
                const uint64_t guard_end = span / 4;
                CHECK_CUDA(cudaMemsetAsync(d_out, 0, span, s));
                rc.work = S3_COUNT;
                run_once(&rc, s);
                CHECK_LAUNCH();
                unsigned long long wrong = run_check_elems(&rc, 0, guard_end, s, d_wrong);
                if (wrong) {
                    fprintf(stderr, "FAILED: n=%u %s %s %ux%u: %llu elements not counted exactly once / touched outside D_n\n",
                            n, s3_map_name(map), kernel, 1u << rc.lc, 1u << rc.ltpm, wrong);
                    failed = 1;
                } else {
                    CHECK_CUDA(cudaMemsetAsync(d_out, 0xFF, span, s)); /* poison */
                    rc.work = S3_WRITE;
                    run_once(&rc, s);
                    CHECK_LAUNCH();
                    wrong = run_check_elems(&rc, 1, guard_end, s, d_wrong);
                    if (wrong) {
                        fprintf(stderr, "FAILED: n=%u %s %s %ux%u: %llu elements hold a wrong value\n", n,
                                s3_map_name(map), kernel, 1u << rc.lc, 1u << rc.ltpm, wrong);
                        failed = 1;
                    }
                }
            } else if (work != S3_TRIPLET) {
                CHECK_CUDA(cudaMemsetAsync(d_out, 0, bytes, s));
                rc.work = S3_COUNT;
                run_once(&rc, s);
                CHECK_LAUNCH();
                unsigned long long wrong = run_check(&rc, S3_CHECK_COUNT, s, d_wrong);
                if (wrong) {
                    fprintf(stderr, "FAILED: n=%u %s: %llu cells not covered exactly once\n", n, s3_map_name(map), wrong);
                    failed = 1;
                }
                if (work == S3_WRITE && !failed) {
                    CHECK_CUDA(cudaMemsetAsync(d_out, 0xFF, bytes, s)); /* poison */
                    rc.work = S3_WRITE;
                    run_once(&rc, s);
                    CHECK_LAUNCH();
                    wrong = run_check(&rc, S3_CHECK_WRITE, s, d_wrong);
                    if (wrong) {
                        fprintf(stderr, "FAILED: n=%u %s: %llu cells hold a wrong value\n", n, s3_map_name(map), wrong);
                        failed = 1;
                    }
                }
            } else {
                CHECK_CUDA(cudaMemsetAsync(d_energy, 0, sizeof(double), s));
                rc.work = S3_TRIPLET;
                run_once(&rc, s);
                CHECK_LAUNCH();
                double e = 0;
                CHECK_CUDA(cudaMemcpyAsync(&e, d_energy, sizeof e, cudaMemcpyDeviceToHost, s));
                CHECK_CUDA(cudaStreamSynchronize(s));
                if (!(fabs(e - e_ref) <= 1e-10 * e_abs)) {
                    fprintf(stderr, "FAILED: n=%u %s: energy %.15g, CPU reference %.15g (sum |E| %.6g)\n", n,
                            s3_map_name(map), e, e_ref, e_abs);
                    failed = 1;
                }
            }
            if (failed) {
                free(launches);
                break;
            }
            rc.work = work;
            bench_stats st = bench_gpu(run_once, &rc, s, c.warmup, c.reps, c.batch);
            const uint64_t cblocks = coarse ? s3_coarse_blocks(map, &rc.p, rc.lc) : 0;
            uint64_t threads = coarse ? cblocks << (rc.lc + rc.ltpm) : s3_threads_launched(map, &rc.p);
            if (map == S3_BB) t_bb = st.median, threads_bb = threads;
            double gbs = work == S3_WRITE ? cells * 4.0 / (st.median * 1e-3) / 1e9 : NAN;
            char label[64];
            if (coarse) snprintf(label, sizeof label, "%s n=%u %ux%u", s3_map_name(map), n, 1u << rc.lc, 1u << rc.ltpm);
            else snprintf(label, sizeof label, "%s n=%u", s3_map_name(map), n);
            if (bench_warn_spread(label, st))
                datfile_meta(&d, "warning", "spread %.0f%% for %s", 100 * bench_spread(st), label);
            double I = t_bb > 0 ? t_bb / st.median : NAN;
            char extra[96] = "";
            if (coarse)
                snprintf(extra, sizeof extra, " %u %u %llu", 1u << rc.lc, 1u << rc.ltpm, (unsigned long long)cblocks);
            datfile_row(&d, "%s %u %d %u %s %llu %llu %llu %.6f %.4f %.6f %.6f %.6f %d %.4f %.2f %.2f %.3f%s", kernel, n,
                        rho, rc.p.nb, s3_map_name(map), (unsigned long long)rc.nl + (map != S3_RECURSIVE_LOG),
                        (unsigned long long)threads, (unsigned long long)cells, (double)cells / threads,
                        threads_bb ? (double)threads_bb / threads : NAN, st.median, st.min, st.max, st.batch, I, gbs,
                        work == S3_WRITE ? 100 * gbs / ceiling : NAN,
                        1e3 * st.median / (double)(rc.nl + (map != S3_RECURSIVE_LOG)), extra);
            if (coarse)
                fprintf(stderr, "%-8s n=%5u %-14s %2ux%-3u %10.4f ms  I=%6.3f  %6.0f GB/s (%.0f%%)\n", kernel, n, s3_map_name(map),
                        1u << rc.lc, 1u << rc.ltpm, st.median, I, gbs, 100 * gbs / ceiling);
            else
                fprintf(stderr, "%-8s n=%5u %-14s %10.4f ms  I=%6.3f\n", kernel, n, s3_map_name(map), st.median, I);
            free(launches);
        }
        }
    }
    if (failed) {
        datfile_discard(&d);
        return 1;
    }
    datfile_commit(&d);
    free(h_pos);
    return 0;
}
