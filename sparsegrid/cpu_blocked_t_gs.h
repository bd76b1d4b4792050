/* sparsegrid/cpu_blocked_t_gs.h -- the vector gather/scatter of cpu_blocked_t (cpu_blocked_t.h), one
 * instance per element type and instruction set: cpu_blocked_t.h defines the parameters below and
 * includes this file once for each (no include guard, on purpose), which #undefs them at the end.
 *
 *   SGBT_T, SGBT_SUF  element type, and its cpu_blocked.h suffix (f, d)
 *   SGBT_ISA          name tag of the instance (port, avx2, avx512)
 *   SGBT_TARGET       the function attribute of the instance (target("avx2"), ..., or empty)
 *   SGBT_W            values per vector (1 for the portable instance: the transposes are identities)
 *   SGBT_VEC          the vector type
 *   SGBT_LOADU(p), SGBT_LOADA(p), SGBT_STOREU(p, x), SGBT_STOREA(p, x), SGBT_ZERO()
 *   SGBT_STREAM(p, x)   non-temporal store of a whole vector at an address aligned to W values
 *   SGBT_TRANSPOSE(r)   r[0..W-1] (W rows of W values) transposed in place
 *   SGBT_COMBINE(p, c, a)  the W values ending a values into c: p[W-a..W-1] then c[0..W-a-1] (0 < a < W) */

#define SGBT_CAT_(a, b, c, d) a##b##_##c##_##d
#define SGBT_CAT(a, b, c, d) SGBT_CAT_(a, b, c, d)
#define SGBT_FN(name) SGBT_CAT(sgbt_, name, SGBT_SUF, SGBT_ISA)
#define SGBT_C2_(a, b) a##b
#define SGBT_C2(a, b) SGBT_C2_(a, b) /* cpu_blocked.h's function of this element type */

/* Gather nv grids of N points (src, one after another) into buf[i V + v]; lanes nv..V-1 zero.  V is
 * a multiple of W and buf 64-byte aligned (V W values per tile, the columns stored aligned): for
 * every W points and every W grids, W rows loaded whole, transposed, W columns stored whole. */
SGBT_TARGET static inline __attribute__((always_inline)) void SGBT_FN(gather)(SGBT_T *buf, const SGBT_T *src,
                                                                            long long N, int V, int nv)
{
    long long NB = N / SGBT_W * SGBT_W;
    for (long long i0 = 0; i0 < NB; i0 += SGBT_W)
        for (int gb = 0; gb < V; gb += SGBT_W) {
            SGBT_VEC r[SGBT_W];
            for (int w = 0; w < SGBT_W; w++) r[w] = gb + w < nv ? SGBT_LOADU(src + (gb + w) * N + i0) : SGBT_ZERO();
            SGBT_TRANSPOSE(r);
            for (int p = 0; p < SGBT_W; p++) SGBT_STOREA(buf + (i0 + p) * V + gb, r[p]);
        }
    for (long long i = NB; i < N; i++) /* the last N mod W points, one value at a time */
        for (int v = 0; v < V; v++) buf[i * V + v] = v < nv ? src[v * N + i] : (SGBT_T)0;
}

/* Scatter lanes 0..nv-1 of buf back into nv grids at dst: W columns loaded whole, transposed, W rows
 * stored whole.  nt: non-temporal stores, which need an address aligned to W values; grid v's row
 * starts a_v values past such an address, so each vector stored is the last a_v values of the
 * previous row vector and the first W - a_v of this one (SGBT_COMBINE), ending a_v values early;
 * the first W - a_v values and the last N - (NB - a_v) go one at a time (sgb_stream). */
SGBT_TARGET static inline __attribute__((always_inline)) void SGBT_FN(scatter)(SGBT_T *dst, const SGBT_T *buf,
                                                                             long long N, int V, int nv, int nt)
{
    long long NB = N / SGBT_W * SGBT_W;
    (void)V;
    for (int gb = 0; gb < nv; gb += SGBT_W) {
        SGBT_VEC prev[SGBT_W];
        int al[SGBT_W];
        for (int w = 0; w < SGBT_W; w++) {
            prev[w] = SGBT_ZERO();
            al[w] = nt ? (int)(((uintptr_t)(dst + (long long)(gb + w) * N) / sizeof(SGBT_T)) % SGBT_W) : 0;
        }
        for (long long i0 = 0; i0 < NB; i0 += SGBT_W) {
            SGBT_VEC r[SGBT_W];
            for (int p = 0; p < SGBT_W; p++) r[p] = SGBT_LOADA(buf + (i0 + p) * V + gb);
            SGBT_TRANSPOSE(r);
            for (int w = 0; w < SGBT_W; w++) {
                if (gb + w >= nv) break;
                SGBT_T *t = dst + (gb + w) * N + i0;
                if (!nt) SGBT_STOREU(t, r[w]);
                else if (!al[w]) SGBT_STREAM(t, r[w]);
                else {
                    if (i0) SGBT_STREAM(t - al[w], SGBT_COMBINE(prev[w], r[w], al[w]));
                    prev[w] = r[w];
                }
            }
        }
    }
    for (int v = 0; v < nv; v++) { /* what the vectors left: head and tail of each grid */
        SGBT_T *t = dst + v * N;
        const SGBT_T *b = buf + v;
        if (!nt) {
            for (long long i = NB; i < N; i++) t[i] = b[i * V];
            continue;
        }
        int a = (int)(((uintptr_t)t / sizeof(SGBT_T)) % SGBT_W);
        long long from = NB;
        if (a && NB) {
            for (long long i = 0; i < SGBT_W - a; i++) SGBT_C2(sgb_stream_, SGBT_SUF)(t + i, b[i * V]);
            from = NB - a;
        } else if (a) from = 0;
        for (long long i = from; i < N; i++) SGBT_C2(sgb_stream_, SGBT_SUF)(t + i, b[i * V]);
    }
}

/* One block: gather, every pass (cpu_blocked.h's, unchanged), scatter.  The default lanes take the
 * vector gather/scatter; any other lane count, cpu_blocked's element-wise ones. */
SGBT_TARGET static void SGBT_FN(block)(SGBT_T *buf, const SGBT_T *src, SGBT_T *dst, long long N, const void *sg,
                                       int kind, int inverse, int V, int nv, int nt)
{
    enum { VL = SGB_LINE_BYTES / sizeof(SGBT_T) };
    if (V == VL && VL % SGBT_W == 0) {
        SGBT_FN(gather)(buf, src, N, VL, nv);
        if (kind) SGBT_C2(sgb_full_block_, SGBT_SUF)(buf, (const sg_geom *)sg, VL, inverse);
        else SGBT_C2(sgb_sparse_block_, SGBT_SUF)(buf, (const sgs_grid *)sg, VL, inverse);
        SGBT_FN(scatter)(dst, buf, N, VL, nv, nt);
    } else SGBT_C2(sgb_block_v_, SGBT_SUF)(buf, src, dst, N, sg, kind, inverse, V, nv, nt);
}

#undef SGBT_FN
#undef SGBT_C2
#undef SGBT_C2_
#undef SGBT_CAT
#undef SGBT_CAT_
#undef SGBT_T
#undef SGBT_SUF
#undef SGBT_ISA
#undef SGBT_TARGET
#undef SGBT_W
#undef SGBT_VEC
#undef SGBT_LOADU
#undef SGBT_LOADA
#undef SGBT_STOREU
#undef SGBT_STOREA
#undef SGBT_ZERO
#undef SGBT_STREAM
#undef SGBT_TRANSPOSE
#undef SGBT_COMBINE
