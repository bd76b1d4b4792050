/* test_simplex3d_coarse.c -- the write-coarse kernel's index logic (simplex3d/map.h:
 * s3_coarse_block, s3_chunk_mask, s3_block_full; emulated by s3_emulate_coarse in
 * simplex3d/emulate.h exactly as k_coarse runs it).
 *
 * For every map, n = 1..40, rho = 2, 4, 8 and several
 * configurations (map blocks per CUDA block x threads per map block, including CUDA blocks
 * that overhang the grid's x side): every element of the blocked layout whose cell lies in
 * D_n is written exactly once, no other element (padding of boundary blocks, or past the
 * Tet(nb) blocks) is written, and every 16-byte store starts on a 4-element boundary.
 * Also: s3_coarse_blocks equals the CUDA blocks the emulation walks, and invalid
 * configurations are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"

typedef struct {
    unsigned char *cnt;
    uint64_t elems;
    long long outside;
} el_ctx;

static void visit(void *c, uint64_t e, int vector)
{
    el_ctx *ec = (el_ctx *)c;
    if (e >= ec->elems) ec->outside++;
    else if (ec->cnt[e] < 255) ec->cnt[e]++;
    (void)vector; /* whole, aligned chunks: check_vectors */
}

/* elements written wrongly (not once inside, or at all outside), -1 if not applicable */
static long long check(int map, uint32_t n, uint32_t rho, uint32_t lc, uint32_t ltpm, unsigned char *cnt)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p)) return -1;
    if (s3_coarse_check(p.lrho, lc, ltpm)) return -1;
    const uint64_t r3 = (uint64_t)rho * rho * rho, elems = p.tet_blocks * r3;
    el_ctx c = {cnt, elems, 0};
    memset(cnt, 0, elems);
    long long w = s3_emulate_coarse(map, n, rho, lc, ltpm, visit, &c);
    if (w < 0) return -1;
    long long bad = c.outside;
    uint64_t inside = 0;
    for (uint64_t blk = 0; blk < p.tet_blocks; blk++) {
        uint32_t bx, by, bz;
        s3_lambda_exact_ijk(blk, &bx, &by, &bz);
        for (uint32_t t = 0; t < r3; t++) {
            uint32_t x, y, z;
            s3_elem_cell(bx, by, bz, p.lrho, t, &x, &y, &z);
            int in = s3_cell_inside(x, y, z, n);
            inside += in;
            bad += cnt[blk * r3 + t] != (unsigned char)in;
        }
    }
    if (inside != tet_number(n) || (uint64_t)w != inside) bad++;
    return bad;
}

/* vector stores: whole chunks (mask 0xF) only, each chunk 4-aligned (the base is a multiple
 * of rho^3 >= 8): checked on the chunk level */
static long long check_vectors(uint32_t n, uint32_t rho)
{
    s3_params p;
    s3_plan(S3_BB, n, rho, &p);
    long long bad = 0;
    for (uint32_t bz = 0; bz < p.nb; bz++)
        for (uint32_t by = 0; by <= bz; by++)
            for (uint32_t bx = 0; bx <= by; bx++) {
                uint64_t base = s3_packed(bx, by, bz) << (3 * p.lrho);
                bad += (base & 3) != 0;
                if (s3_block_full(bx, by, bz, rho, n))
                    for (uint32_t ch = 0; ch < (rho * rho * rho) / 4; ch++)
                        bad += s3_chunk_mask(bx, by, bz, p.lrho, n, ch) != 0xFu;
            }
    return bad;
}

int main(void)
{
    unsigned char *cnt = (unsigned char *)malloc((size_t)tet_number(64) * 512);
    const uint32_t rhos[] = {2, 4, 8};
    /* (log2 map blocks per CUDA block, log2 threads per map block) */
    const uint32_t cfgs[][2] = {{0, 0}, {0, 1}, {0, 5}, {0, 7}, {1, 3}, {2, 5}, {3, 2}, {4, 5}, {5, 5}, {7, 3}};
    long long total_bad = 0, cases = 0;
    for (int map = 0; map < S3_NMAPS; map++)
        for (int ri = 0; ri < 3; ri++)
            for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++)
                for (uint32_t n = 1; n <= 40; n++) {
                    uint32_t rho = rhos[ri];
                    if (map == S3_LAMBDA_CUBIC && n > 200) continue;
                    long long b = check(map, n, rho, cfgs[ci][0], cfgs[ci][1], cnt);
                    if (b < 0) continue;
                    cases++;
                    if (b) {
                        fprintf(stderr, "%s n=%u rho=%u cfg %ux%u: %lld elements wrong\n", s3_map_name(map), n, rho,
                                1u << cfgs[ci][0], 1u << cfgs[ci][1], b);
                        total_bad += b;
                    }
                }
    printf("write-coarse emulation: %lld (map, n, rho, configuration) cases, %lld wrong elements\n", cases, total_bad);
    T_EQ_INT(total_bad, 0);
    T_CHECK(cases > 1000);
    /* the experiment's sizes and configurations, block level, at rho = 8: n = 64, 100, 96 */
    const uint32_t big[] = {64, 100, 96};
    for (int map = 0; map < S3_NMAPS; map++)
        for (int i = 0; i < 3; i++)
            for (uint32_t ci = 0; ci < 4; ci++) {
                const uint32_t sw[4][2] = {{0, 7}, {0, 5}, {2, 5}, {4, 5}};
                long long b = check(map, big[i], 8, sw[ci][0], sw[ci][1], cnt);
                if (b < 0) continue;
                if (b) fprintf(stderr, "%s n=%u rho=8 cfg %ux%u: %lld wrong\n", s3_map_name(map), big[i], 1u << sw[ci][0],
                               1u << sw[ci][1], b);
                T_EQ_INT(b, 0);
            }
    for (uint32_t n = 1; n <= 70; n += 3)
        for (int ri = 0; ri < 3; ri++) T_EQ_INT(check_vectors(n, rhos[ri]), 0);
    /* s3_coarse_blocks: the CUDA blocks of the coarse grid(s) */
    for (int map = 0; map < S3_NMAPS; map++)
        for (uint32_t n0 = 8; n0 <= 1024; n0 *= 2)
            for (uint32_t lc = 0; lc <= 6; lc++) {
                const uint32_t n = n0 + (lc & 1) * 8; /* nb = 2^k and 2^k + 1 */
                s3_params p;
                if (s3_plan(map, n, 8, &p)) continue;
                uint64_t nl, want = 0;
                uint32_t *l = s3_launch_list(map, &p, &nl);
                for (uint64_t i = 0; i < nl; i++) {
                    uint64_t gx = map == S3_RECURSIVE_LOG ? l[4 * i] : p.gx, gy = map == S3_RECURSIVE_LOG ? l[4 * i] : p.gy,
                             gz = map == S3_RECURSIVE_LOG ? l[4 * i] : p.gz;
                    want += ((gx + (1u << lc) - 1) >> lc) * gy * gz;
                }
                free(l);
                T_EQ_INT(s3_coarse_blocks(map, &p, lc), want);
            }
    /* invalid configurations */
    T_CHECK(s3_coarse_check(0, 0, 0) != 0); /* rho = 1 */
    T_CHECK(s3_coarse_check(1, 0, 2) != 0); /* rho = 2: 2 chunks, 4 threads */
    T_CHECK(s3_coarse_check(3, 0, 8) != 0); /* rho = 8: 128 chunks, 256 threads */
    T_CHECK(s3_coarse_check(3, 4, 7) != 0); /* 2048 threads */
    T_CHECK(s3_coarse_check(3, 3, 7) == 0);
    T_CHECK(s3_coarse_check(1, 0, 1) == 0);
    free(cnt);
    return T_DONE();
}
