/* test_simplex3d_contract.c -- what simplex3d's host helpers promise, against oracles written
 * here from the promise, not from the code:
 *
 *  - triplet.h at_particles: "a jittered cubic lattice (spacing 1, jitter +-0.25)": for
 *    N = k^3 every site of the k x k x k lattice holds exactly one particle, each coordinate
 *    within 0.25 of its site (and the jitter reaches past 0.2 somewhere), so no pair is
 *    closer than 0.5; for N between cubes, the smallest lattice that holds N and the sites in
 *    the order x fastest, then y, then z;
 *  - emulate.h s3_emulate_coarse: an element is reported as part of a 16-byte store exactly
 *    when all four elements of its aligned chunk are written (counted here per chunk), in
 *    partial boundary blocks too;
 *  - emulate.h s3_launch_at: launch li of recursive-log has the side and the origin
 *    (a0, b0, c0) of entry li of the launch list, in that order; single-launch maps keep
 *    the plan's grid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"
#include "../../simplex3d/triplet.h"

static void test_lattice(void)
{
    static const uint32_t Ns[] = {1, 8, 27, 64, 125, 2, 9, 26, 28, 100};
    for (size_t t = 0; t < sizeof Ns / sizeof *Ns; t++) {
        const uint32_t N = Ns[t];
        uint32_t k = 1;
        while (k * k * k < N) k++; /* the smallest lattice that holds N */
        double *pos = (double *)malloc(sizeof(double) * 3 * N);
        at_particles(pos, N, 777 + t);
        unsigned char *hit = (unsigned char *)calloc((size_t)k * k * k, 1);
        long bad = 0, order = 0;
        double most = 0;
        for (uint32_t p = 0; p < N; p++) {
            long site[3];
            for (int d = 0; d < 3; d++) {
                site[d] = lround(pos[3 * p + d]);
                double j = fabs(pos[3 * p + d] - (double)site[d]);
                if (j > 0.25 || site[d] < 0 || site[d] >= (long)k) bad++;
                most = j > most ? j : most;
            }
            if (bad) continue;
            hit[(site[2] * k + site[1]) * k + site[0]]++;
            /* particle p sits at site p: x fastest, then y, then z */
            order += site[0] != (long)(p % k) || site[1] != (long)(p / k % k) || site[2] != (long)(p / (k * k));
        }
        T_EQ_INT(bad, 0);
        T_EQ_INT(order, 0);
        long twice = 0, filled = 0;
        for (uint32_t s = 0; s < k * k * k; s++) twice += hit[s] > 1, filled += hit[s] == 1;
        T_EQ_INT(twice, 0);
        T_EQ_INT(filled, N);
        if (N >= 27) T_CHECK(most > 0.2); /* the jitter is there */
        double dmin = 1e30;
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = i + 1; j < N; j++) {
                double dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1], dz = pos[3 * i + 2] - pos[3 * j + 2];
                double d = sqrt(dx * dx + dy * dy + dz * dz);
                dmin = d < dmin ? d : dmin;
            }
        if (N > 1) T_CHECK(dmin >= 0.5);
        free(hit);
        free(pos);
    }
}

typedef struct {
    unsigned char *cnt, *vec;
    uint64_t size;
    long long outside;
} vec_ctx;

static void visit_vec(void *c, uint64_t e, int vector)
{
    vec_ctx *v = (vec_ctx *)c;
    if (e >= v->size) {
        v->outside++;
        return;
    }
    v->cnt[e]++;
    v->vec[e] = (unsigned char)(vector ? 1 : 0);
}

static void test_vector_flag(void)
{
    static const int maps[] = {S3_BB, S3_LAMBDA_EXACT, S3_RECURSIVE_LOG, S3_RECURSIVE_O1B};
    static const uint32_t ns[] = {5, 13, 17, 30, 33};
    static const uint32_t rhos[] = {2, 4, 8};
    long long partial_vectors = 0;
    for (size_t mi = 0; mi < 4; mi++)
        for (size_t ni = 0; ni < 5; ni++)
            for (size_t ri = 0; ri < 3; ri++) {
                const uint32_t n = ns[ni], rho = rhos[ri];
                s3_params p;
                if (s3_plan(maps[mi], n, rho, &p)) continue;
                const uint32_t lr = p.lrho, ltpm = 3 * lr - 2 < 5 ? 3 * lr - 2 : 5;
                vec_ctx c;
                c.size = ((uint64_t)p.nb * p.nb * p.nb) << (3 * lr);
                c.cnt = (unsigned char *)calloc(c.size, 1);
                c.vec = (unsigned char *)calloc(c.size, 1);
                c.outside = 0;
                long long w = s3_emulate_coarse(maps[mi], n, rho, 1, ltpm, visit_vec, &c);
                T_CHECK(w > 0);
                T_EQ_INT(c.outside, 0);
                long long bad = 0;
                for (uint64_t ch = 0; ch < c.size / 4; ch++) {
                    int whole = 1, any = 0;
                    for (int k = 0; k < 4; k++) whole &= c.cnt[4 * ch + k] == 1, any |= c.cnt[4 * ch + k] != 0;
                    if (!any) continue;
                    for (int k = 0; k < 4; k++)
                        if (c.cnt[4 * ch + k]) bad += c.vec[4 * ch + k] != whole;
                    /* a whole chunk of a block that is not full: the boundary's vector stores */
                    uint64_t blk = (4 * ch) >> (3 * lr);
                    uint32_t bx, by, bz;
                    s3_lambda_exact_ijk(blk, &bx, &by, &bz);
                    partial_vectors += whole && !s3_block_full(bx, by, bz, rho, n);
                }
                if (bad) fprintf(stderr, "map %d n %u rho %u: %lld elements with the wrong vector flag\n", maps[mi], n, rho, bad);
                T_EQ_INT(bad, 0);
                free(c.cnt);
                free(c.vec);
            }
    T_CHECK(partial_vectors > 0); /* the case the flag is about was seen */
}

static void test_launch_at(void)
{
    for (uint32_t n = 1; n <= 40; n += 3) {
        s3_params p;
        T_CHECK(s3_plan(S3_RECURSIVE_LOG, n, 2, &p) == 0);
        uint64_t nl;
        uint32_t *l = s3_launch_list(S3_RECURSIVE_LOG, &p, &nl);
        T_CHECK(l != NULL);
        long bad = 0, asym = 0;
        for (uint64_t li = 0; li < nl; li++) {
            s3_params q = s3_launch_at(S3_RECURSIVE_LOG, &p, l, li);
            bad += q.gx != l[4 * li] || q.gy != l[4 * li] || q.gz != l[4 * li];
            bad += q.a0 != l[4 * li + 1] || q.b0 != l[4 * li + 2] || q.c0 != l[4 * li + 3];
            asym += l[4 * li + 2] != l[4 * li + 3];
        }
        T_EQ_INT(bad, 0);
        if (p.nb >= 2) T_CHECK(asym > 0); /* b0 and c0 told apart */
        free(l);
        if (s3_plan(S3_BB, n, 2, &p) == 0) {
            l = s3_launch_list(S3_BB, &p, &nl);
            T_EQ_INT(nl, 1);
            s3_params q = s3_launch_at(S3_BB, &p, l, 0);
            T_CHECK(q.gx == p.gx && q.gy == p.gy && q.gz == p.gz);
            free(l);
        }
    }
}

int main(void)
{
    test_lattice();
    test_vector_flag();
    test_launch_at();
    return T_DONE();
}
