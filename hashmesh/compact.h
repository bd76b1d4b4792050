/* compact.h -- a compact hash for AMR meshes, for when the paper's perfect table does not fit
 * (Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data": the perfect 2D
 * table has (nx 2^levmax) x (ny 2^levmax) buckets, O(4^levmax) of them, whatever the cell
 * count; the paper mentions compact hashing as the remedy without measuring it).
 *
 * Open addressing keyed by the cell itself, not by the finest-level buckets it covers:
 *   key   = (level, i, j) of the cell at its own level, packed in 64 bits (ch_pack)
 *   slot  = fmix64(key) & (cap - 1): MurmurHash3's 64-bit finaliser, then linear probing
 *   cap   = the power of two >= n / load (load factor <= CH_MAX_LOAD): memory 12 cap bytes,
 *           O(n), independent of levmax.
 * One write per cell (no multiple writes of Listing 2).  A face neighbour -- the cell that
 * holds the finest-level cell (x, y) just across the face, the same rule as Listing 2 -- is
 * found by probing the ancestors of (x, y): level l holds it as (x >> (levmax - l), y >> ...);
 * the querying cell's own level is tried first, then +-1, +-2, ... (one or two probes on a
 * 2:1-balanced mesh, at most levmax + 1 on any valid mesh).
 * Remap: a new cell's region is covered by the old cells found the same way; where the old
 * mesh is finer, the region is split into its four children (an explicit stack).
 *
 * The functions are HD: the GPU kernels (kernels.cuh) probe the same way; the CPU insert is
 * serial, the GPU insert uses atomicCAS on the key. */
#ifndef HASHMESH_COMPACT_H
#define HASHMESH_COMPACT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../common/hd.h"
#include "hash.h"
#include "gen.h"

#define CH_EMPTY 0xFFFFFFFFFFFFFFFFull /* an empty slot's key */
#define CH_COORD_BITS 29               /* i and j at the cell's level: < 2^29 (levmax + log2 side <= 29) */
#define CH_MAX_LOAD 0.5                /* default load factor: expected probes ~1.5 hit, ~2.5 miss */
#define CH_REMAP_STACK 128             /* remap descent: <= 3 levmax + 4 regions pending */

typedef struct {
    uint64_t *key; /* cap slots, CH_EMPTY = free */
    int *val;      /* the cell index of key[s] */
    long cap;      /* a power of two */
} chash;

static inline HD uint64_t ch_pack(int lev, long i, long j)
{
    return ((uint64_t)lev << (2 * CH_COORD_BITS)) | ((uint64_t)j << CH_COORD_BITS) | (uint64_t)i;
}
/* MurmurHash3 fmix64: every key bit affects every slot bit (neighbouring cells spread) */
static inline HD uint64_t ch_mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}
/* slots for n keys at load factor <= load: the power of two >= n / load (at least 16) */
static inline long ch_capacity(long n, double load)
{
    long cap = 16;
    while ((double)cap * load < (double)n) cap <<= 1;
    return cap;
}
static inline size_t ch_bytes(long cap) { return (size_t)cap * (sizeof(uint64_t) + sizeof(int)); }

/* look-up: the value stored under key, or -1 */
static inline HD int ch_find(const uint64_t *keys, const int *vals, long cap, uint64_t key)
{
    long s = (long)(ch_mix(key) & (uint64_t)(cap - 1));
    for (long probe = 0; probe < cap; probe++) {
        uint64_t k = keys[s];
        if (k == key) return vals[s];
        if (k == CH_EMPTY) return -1;
        s = (s + 1) & (cap - 1);
    }
    return -1;
}

/* The cell holding finest-level cell (x, y), probing levels from `start` outwards; -1 if none. */
static inline HD int ch_locate(const uint64_t *keys, const int *vals, long cap, int levmax, long x, long y, int start)
{
    for (int d = 0; d <= levmax; d++) {
        int l = start - d;
        if (l >= 0 && l <= levmax) {
            int c = ch_find(keys, vals, cap, ch_pack(l, x >> (levmax - l), y >> (levmax - l)));
            if (c >= 0) return c;
        }
        l = start + d;
        if (d > 0 && l <= levmax) {
            int c = ch_find(keys, vals, cap, ch_pack(l, x >> (levmax - l), y >> (levmax - l)));
            if (c >= 0) return c;
        }
    }
    return -1;
}

/* Listing 2's four face reads with the compact table: the finest cell just across each face
 * at the cell's lower-left end, clamped at the domain edge (= the cell itself there). */
static inline HD void ch_neigh2d_read(const uint64_t *keys, const int *vals, long cap, long W, long H, int i, int j,
                                      int lev, int levmax, int self, int *nb)
{
    long r = 1L << (levmax - lev), x0 = (long)i * r, y0 = (long)j * r;
    long qx[4] = {x0 - 1, x0 + r, x0, x0}, qy[4] = {y0, y0, y0 - 1, y0 + r};
    for (int f = 0; f < 4; f++)
        nb[f] = (qx[f] < 0 || qx[f] >= W || qy[f] < 0 || qy[f] >= H)
                    ? self
                    : ch_locate(keys, vals, cap, levmax, qx[f], qy[f], lev);
}

/* Remap read side for one new cell (level nl, at (ni, nj)): the integral over its region of
 * the old mesh's linear reconstruction (the same quantity as remap2d_gather in hash.h, summed
 * per old cell overlap instead of per finest bucket).  Returns 0, or 1 if a region found no
 * old cell (the meshes do not cover the same domain) or the stack overflowed. */
static inline HD int ch_remap2d_gather(const uint64_t *keys, const int *vals, long cap, int levmax, const int *oi,
                                       const int *oj, const int *ol, const double *mean, const double *gx,
                                       const double *gy, int ni, int nj, int nl, double *out)
{
    long sx[CH_REMAP_STACK], sy[CH_REMAP_STACK];
    int sl[CH_REMAP_STACK];
    int sp = 0;
    double s = 0;
    sx[sp] = ni; sy[sp] = nj; sl[sp] = nl; sp++;
    while (sp > 0) {
        sp--;
        long x = sx[sp], y = sy[sp];
        int l = sl[sp], a = -1;
        for (int lo = l; lo >= 0 && a < 0; lo--) /* an old cell at this level or coarser holds the region */
            a = ch_find(keys, vals, cap, ch_pack(lo, x >> (l - lo), y >> (l - lo)));
        if (a >= 0) {
            double rr = (double)(1L << (levmax - l)), ra = (double)(1L << (levmax - ol[a]));
            s += rr * rr * remap_bucket(mean[a], gx[a], gy[a], (x + 0.5) * rr, (y + 0.5) * rr, (oi[a] + 0.5) * ra,
                                        (oj[a] + 0.5) * ra);
            continue;
        }
        if (l >= levmax || sp + 4 > CH_REMAP_STACK) return 1;
        for (int q = 0; q < 4; q++) { /* the old mesh is finer here: the four children */
            sx[sp] = 2 * x + (q & 1);
            sy[sp] = 2 * y + (q >> 1);
            sl[sp] = l + 1;
            sp++;
        }
    }
    *out = s;
    return 0;
}

/* ================= CPU (serial) ================= */
/* caller-owned: keys/vals of cap slots.  Returns 0, or 1 when two cells share a key (the
 * mesh has a duplicate cell) or a coordinate does not fit CH_COORD_BITS. */
static inline int ch_build_cpu(uint64_t *keys, int *vals, long cap, const int *ci, const int *cj, const int *lev, long n)
{
    memset(keys, 0xFF, sizeof(uint64_t) * (size_t)cap);
    for (long c = 0; c < n; c++) {
        if (ci[c] < 0 || cj[c] < 0 || ci[c] >= (1L << CH_COORD_BITS) || cj[c] >= (1L << CH_COORD_BITS)) return 1;
        uint64_t k = ch_pack(lev[c], ci[c], cj[c]);
        long s = (long)(ch_mix(k) & (uint64_t)(cap - 1));
        while (keys[s] != CH_EMPTY) {
            if (keys[s] == k) return 1;
            s = (s + 1) & (cap - 1);
        }
        keys[s] = k;
        vals[s] = (int)c;
    }
    return 0;
}
/* 2D neighbours with the compact hash (build + reads): nb[4 c + f] as hash_neigh2d_cpu.
 * Returns 0, or 1 on a bad mesh (duplicate cell, or a face finds no cell). */
static inline int ch_neigh2d_cpu(uint64_t *keys, int *vals, long cap, const int *ci, const int *cj, const int *lev,
                                 long n, int levmax, long W, long H, int *nb)
{
    if (ch_build_cpu(keys, vals, cap, ci, cj, lev, n)) return 1;
    int bad = 0;
    for (long c = 0; c < n; c++) {
        ch_neigh2d_read(keys, vals, cap, W, H, ci[c], cj[c], lev[c], levmax, (int)c, &nb[4 * c]);
        bad |= (nb[4 * c] | nb[4 * c + 1] | nb[4 * c + 2] | nb[4 * c + 3]) < 0;
    }
    return bad;
}
/* 2D remap with the compact hash over the old mesh; out[b] as hash_remap2d_cpu. */
static inline int ch_remap2d_cpu(uint64_t *keys, int *vals, long cap, const int *oi, const int *oj, const int *ol,
                                 long na, const double *mean, const double *gx, const double *gy, const int *ni,
                                 const int *nj, const int *nl, long nb, int levmax, double *out)
{
    if (ch_build_cpu(keys, vals, cap, oi, oj, ol, na)) return 1;
    int bad = 0;
    for (long b = 0; b < nb; b++)
        bad |= ch_remap2d_gather(keys, vals, cap, levmax, oi, oj, ol, mean, gx, gy, ni[b], nj[b], nl[b], &out[b]);
    return bad;
}

/* Validation of a mesh too fine for a perfect table (amr_validate in gen.h allocates one):
 * cells inside the domain, no duplicate (build), no cell inside another (no ancestor of a
 * cell is a cell), total area = the domain's (so no hole either: quadtree cells either nest
 * or are disjoint); 2:1 balance (check_balance = 1) checked at both ends of every face.
 * keys/vals: cap slots.
 * Returns 0, or 1 with a reason. */
static inline int amr_validate_compact(const amr_mesh *m, int check_balance, uint64_t *keys, int *vals, long cap,
                                       char *why, size_t wsz)
{
    long W = amr_width(m), H = amr_height(m);
    if (m->n < 1) { snprintf(why, wsz, "empty mesh"); return 1; }
    for (long c = 0; c < m->n; c++) {
        int l = m->lev[c];
        if (l < 0 || l > m->levmax || m->i[c] < 0 || m->j[c] < 0 || (long)m->i[c] >= ((long)m->nx << l) ||
            (long)m->j[c] >= ((long)m->ny << l)) {
            snprintf(why, wsz, "cell %ld outside the domain", c);
            return 1;
        }
    }
    if (ch_build_cpu(keys, vals, cap, m->i, m->j, m->lev, m->n)) { snprintf(why, wsz, "duplicate cell"); return 1; }
    uint64_t area = 0;
    for (long c = 0; c < m->n; c++) {
        int l = m->lev[c];
        for (int a = 0; a < l; a++)
            if (ch_find(keys, vals, cap, ch_pack(a, m->i[c] >> (l - a), m->j[c] >> (l - a))) >= 0) {
                snprintf(why, wsz, "cell %ld lies inside a coarser cell (level %d)", c, a);
                return 1;
            }
        area += 1ull << (2 * (m->levmax - l));
        long r = 1L << (m->levmax - l), x0 = (long)m->i[c] * r, y0 = (long)m->j[c] * r;
        long qx[8] = {x0 - 1, x0 - 1, x0 + r, x0 + r, x0, x0 + r - 1, x0, x0 + r - 1};
        long qy[8] = {y0, y0 + r - 1, y0, y0 + r - 1, y0 - 1, y0 - 1, y0 + r, y0 + r};
        for (int f = 0; f < 8; f++) {
            if (qx[f] < 0 || qx[f] >= W || qy[f] < 0 || qy[f] >= H) continue;
            int nb = ch_locate(keys, vals, cap, m->levmax, qx[f], qy[f], l);
            if (nb < 0 || (check_balance && abs(m->lev[nb] - l) > 1)) {
                snprintf(why, wsz, nb < 0 ? "hole next to cell %ld" : "2:1 balance violated at cell %ld", c);
                return 1;
            }
        }
    }
    if (area != (uint64_t)W * (uint64_t)H) { snprintf(why, wsz, "cells do not cover the domain (hole)"); return 1; }
    return 0;
}

#endif
