/* hashmesh/remesh_dist.h -- steps 1-2 of mesh_partition.h (Morton partition, ghost pattern)
 * distributed: each rank handles only its share of the cells, on its own processor, and the
 * result equals mesh_partition.h's host reference (every owned record, split key, pattern
 * entry and the window).  After the paper's open problem of an MPI layer (sec. 5); the
 * per-cell pieces are remesh.h's.
 *
 *   partition  1. Morton keys of the rank's input slice [r n / P, (r + 1) n / P) with their
 *                 local indices; the host backend sorts them here (w->sorted), the GPU
 *                 backend only at P = 1 -- elsewhere each cell is sorted once, by its owner;
 *              2. the P split keys (global ranks n q / P) by the prefix-histogram search of
 *                 remesh.h: per round each rank counts its keys below 2^b bin edges of
 *                 every target, one MPI_Allreduce sums them;
 *              3. each rank's keys fall into P runs by owner (counts below the split keys,
 *                 from the search's last round, whose bin edges are 1 key apart;
 *                 unsorted keys are grouped by owner); the runs' records (i, j, level,
 *                 global index) go to their owners (MPI_Alltoall of the counts, then the
 *                 backend's exchange);
 *              4. the owner sorts what it received by key (skipped when it is one sorted
 *                 run: sorted slices, all from one rank) -> its owned records in Morton order.
 *   pattern    5. per owned cell the mask of peers across its faces (hm_touch_mask), the
 *                 per-peer counts and the owned cells' bounding box; the send lists
 *                 (per peer, ascending local index, as hm_pattern has them); MPI_Alltoall
 *                 of the counts; the window = the box grown by one bucket.
 * A backend (hm_rm_ops) does the per-cell work: the host one here (MPI), the GPU one in
 * remesh_gpu.cuh (CUB, NCCL).  The driver below is the same for both. */
#ifndef HASHMESH_REMESH_DIST_H
#define HASHMESH_REMESH_DIST_H

#include "mesh_partition.h"
#include "remesh.h"

typedef struct hm_rm hm_rm;
typedef struct {
    const char *name;
    void (*upload)(hm_rm *w);    /* the rank's input slice onto its processor (not part of the remesh) */
    void (*keys_sort)(hm_rm *w); /* step 1 */
    /* step 2: cnt[(q << b) + j] = this rank's keys (sorted or not) < base[q] + (j << shift), q < nb, j < 2^b
     * (on the host when it returns) */
    void (*count_lt)(hm_rm *w, const uint64_t *base, int nb, int shift, int b, long long *cnt);
    void (*send)(hm_rm *w, const dist_pattern *x, int direct); /* step 3: to the owners (direct: into own, in order) */
    void (*sort_owned)(hm_rm *w);                            /* step 4 */
    /* step 5: masks, send lists (w->pat.send_idx on the host backend), count[q] per peer,
     * box = min x, min y, max x end, max y end of the owned cells (on the host when it returns) */
    void (*touch)(hm_rm *w, long long *count, uint64_t *box);
    void (*sync)(hm_rm *w);                            /* the backend's queued work done */
    void (*fetch)(hm_rm *w, int *rec, int *send_idx); /* results to the host, for the check */
    void (*release)(hm_rm *w);
} hm_rm_ops;

struct hm_rm {
    const dist_ctx *d;
    const amr_mesh *m;
    const hm_rm_ops *ops;
    void *impl;              /* the backend's buffers */
    long n, c0, ns, nown;    /* cells; the input slice [c0, c0 + ns); the share (nown == ns) */
    int sorted;              /* step 1 sorted the slice's keys (set by the backend's keys_sort) */
    long probes;             /* counts per round of the split search the backend takes (<= HM_RM_PROBES) */
    long W, H;               /* the domain in finest buckets */
    int end_bit;             /* keys < 2^end_bit */
    uint64_t *split;         /* P + 1: rank q owns the buckets with split[q] <= key < split[q + 1] */
    dist_pattern x;          /* step 3's exchange: the sorted slice's runs -> their owners */
    dist_pattern pat;        /* the ghost pattern (send_idx: host backend only) */
    hm_window win;           /* the local table */
    long long *cnt, *all;    /* the search's counts, HM_RM_PROBES each: this rank's, all ranks' */
    uint64_t *base;          /* P: the search's current bin of each target */
    uint64_t *last_base;     /* P: the bin edges of the search's last round (shift 0) ... */
    int last_b;              /* ... and its bits: cnt then holds this rank's keys below each edge */
};

static inline void hm_rm_init(hm_rm *w, const dist_ctx *d, const amr_mesh *m)
{
    memset(w, 0, sizeof *w);
    w->d = d; w->m = m;
    w->n = m->n;
    w->c0 = m->n * d->rank / d->size;
    w->ns = m->n * (d->rank + 1) / d->size - w->c0;
    w->nown = w->ns;
    w->W = amr_width(m); w->H = amr_height(m);
    w->end_bit = hm_key_bits(w->W, w->H);
    w->probes = HM_RM_PROBES;
    w->split = (uint64_t *)gen_alloc(sizeof(uint64_t) * (size_t)(d->size + 1));
    w->base = (uint64_t *)gen_alloc(sizeof(uint64_t) * 2 * (size_t)d->size);
    w->last_base = w->base + d->size;
    w->cnt = (long long *)gen_alloc(sizeof(long long) * 2 * HM_RM_PROBES);
    w->all = w->cnt + HM_RM_PROBES;
    dist_pattern_alloc(d, &w->x);
    dist_pattern_alloc(d, &w->pat);
}
static inline void hm_rm_free(hm_rm *w)
{
    if (w->ops) w->ops->release(w);
    w->pat.send_idx = NULL; /* the backend's buffer */
    dist_pattern_free(&w->x);
    dist_pattern_free(&w->pat);
    free(w->split); free(w->base); free(w->cnt);
    memset(w, 0, sizeof *w);
}
static inline void hm_rm_reset_counts(const dist_ctx *d, dist_pattern *p)
{
    memset(p->scount, 0, sizeof(int) * 4 * (size_t)d->size); /* scount, sdispl, rcount, rdispl */
}

/* Step 2: split[q] = the key of global rank n q / P, q < P; split[P] = UINT64_MAX.  Per
 * round this rank's counts (the backend's), summed over the ranks by one MPI_Allreduce. */
static inline void hm_rm_count_all(void *ctx, const uint64_t *base, int nb, int shift, int b, long long *all)
{
    hm_rm *w = (hm_rm *)ctx;
    w->ops->count_lt(w, base, nb, shift, b, w->cnt);
    if (shift == 0) { /* the last round: its counts give step 3's runs too */
        memcpy(w->last_base, base, sizeof(uint64_t) * (size_t)nb);
        w->last_b = b;
    }
    CHECK_MPI(MPI_Allreduce(w->cnt, all, nb << b, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
}
static inline void hm_rm_split(hm_rm *w)
{
    int P = w->d->size;
    hm_split_search(P, w->probes, w->n, w->end_bit, w->base, w->all, hm_rm_count_all, w);
    for (int q = 0; q < P; q++) w->split[q] = w->base[q];
    w->split[P] = UINT64_MAX;
}

/* Steps 1-4 (collective); the backend's work is done when it returns. */
static inline void hm_rm_partition(hm_rm *w)
{
    const dist_ctx *d = w->d;
    int P = d->size;
    w->ops->keys_sort(w);
    hm_rm_split(w);
    hm_rm_reset_counts(d, &w->x); /* step 3: the owner runs */
    long long below = 0, prev = 0;
    for (int q = 0; q < P; q++) { /* this rank's keys < split[q + 1]: the last round counted them, at
                                   * bin split - edge of target q + 1 (no round more) */
        long r = (long)(q + 1) << w->last_b;
        below = q + 1 < P ? w->cnt[r + (long)(w->split[q + 1] - w->last_base[q + 1])] : w->ns;
        w->x.scount[q] = (int)(below - prev);
        prev = below;
    }
    dist_pattern_finish(d, &w->x);
    dist_agree(d, w->x.nrecv != w->nown, "rank %d: the distributed partition gave it %ld cells, want %ld", d->rank,
               w->x.nrecv, w->nown);
    int runs = 0;
    for (int q = 0; q < P; q++) runs += w->x.rcount[q] > 0;
    int direct = runs <= 1 && w->sorted; /* one sorted run arrives in key order */
    w->ops->send(w, &w->x, direct);
    if (!direct) w->ops->sort_owned(w);
    w->ops->sync(w);
}

/* Step 5 (collective): the ghost pattern and the window. */
static inline void hm_rm_pattern(hm_rm *w)
{
    const dist_ctx *d = w->d;
    long long count[HM_RM_MAX_RANKS];
    uint64_t box[4];
    hm_rm_reset_counts(d, &w->pat);
    w->ops->touch(w, count, box);
    for (int q = 0; q < d->size; q++) w->pat.scount[q] = (int)count[q];
    dist_pattern_finish(d, &w->pat);
    long x0 = (long)box[0], y0 = (long)box[1], x1 = (long)box[2], y1 = (long)box[3];
    x0 = x0 > 0 ? x0 - 1 : 0; y0 = y0 > 0 ? y0 - 1 : 0; /* grown by one bucket, inside the domain (hm_pattern) */
    x1 = x1 < w->W ? x1 + 1 : w->W; y1 = y1 < w->H ? y1 + 1 : w->H;
    w->win = (hm_window){x0, y0, x1 - x0, y1 - y0};
}

/* The distributed result against the host reference p, pat (mesh_partition.h); on this rank:
 * 0 when equal, else a one-line reason in why. */
static inline int hm_rm_differs(hm_rm *w, const hm_part *p, const dist_pattern *pat, char *why, size_t whylen)
{
    int P = w->d->size;
    if (w->nown != p->nown) return snprintf(why, whylen, "owns %ld cells, the host partition %ld", w->nown, p->nown) > 0;
    if (memcmp(w->split, p->split, sizeof(uint64_t) * (size_t)(P + 1))) return snprintf(why, whylen, "split keys differ") > 0;
    if (w->win.x0 != p->win.x0 || w->win.y0 != p->win.y0 || w->win.w != p->win.w || w->win.h != p->win.h)
        return snprintf(why, whylen, "window differs") > 0;
    if (w->pat.nsend != pat->nsend || w->pat.nrecv != pat->nrecv ||
        memcmp(w->pat.scount, pat->scount, sizeof(int) * 4 * (size_t)P))
        return snprintf(why, whylen, "ghost pattern counts differ (send %ld, host %ld)", w->pat.nsend, pat->nsend) > 0;
    int *rec = (int *)gen_alloc(sizeof(int) * HM_REC * (size_t)w->nown);
    int *sidx = (int *)gen_alloc(sizeof(int) * (size_t)(pat->nsend ? pat->nsend : 1));
    w->ops->fetch(w, rec, sidx);
    int bad = 0;
    for (long k = 0; k < w->nown && !bad; k++)
        if (memcmp(rec + HM_REC * k, p->rec + HM_REC * k, sizeof(int) * HM_REC))
            bad = snprintf(why, whylen, "owned cell %ld is global cell %d, the host partition's %d", k, rec[HM_REC * k + 3],
                           p->rec[HM_REC * k + 3]) > 0;
    if (!bad && memcmp(sidx, pat->send_idx, sizeof(int) * (size_t)pat->nsend)) bad = snprintf(why, whylen, "ghost send lists differ") > 0;
    free(rec); free(sidx);
    return bad;
}

/* ---------------- the host backend: each rank's share on its host, MPI ---------------- */
typedef struct {
    uint64_t *key, *k2, *mask;
    int *idx, *i2, *send, *recv, *own, *sidx;
} hm_rm_host;

static inline void hm_rmh_upload(hm_rm *w) { (void)w; } /* the host reads the mesh in place */
static inline void hm_rmh_keys_sort(hm_rm *w)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    for (long t = 0; t < w->ns; t++) { h->key[t] = hm_cell_key(w->m, w->c0 + t); h->idx[t] = (int)t; }
    hm_sort_pairs_host(h->key, h->idx, h->k2, h->i2, w->ns, w->end_bit);
    w->sorted = 1;
}
static inline void hm_rmh_count_lt(hm_rm *w, const uint64_t *base, int nb, int shift, int b, long long *cnt)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    for (long p = 0; p < ((long)nb << b); p++)
        cnt[p] = hm_count_lt(h->key, w->ns, base[p >> b] + ((uint64_t)(p & ((1L << b) - 1)) << shift));
}
static inline void hm_rmh_send(hm_rm *w, const dist_pattern *x, int direct)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    const amr_mesh *m = w->m;
    for (long t = 0; t < w->ns; t++) {
        long c = w->c0 + h->idx[t];
        int *r = h->send + HM_REC * t;
        r[0] = m->i[c]; r[1] = m->j[c]; r[2] = m->lev[c]; r[3] = (int)c;
    }
    dist_exchange_host(w->d, x, HM_REC, h->send, direct ? h->own : h->recv);
}
static inline void hm_rmh_sort_owned(hm_rm *w)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    int levmax = w->m->levmax;
    for (long t = 0; t < w->nown; t++) {
        const int *r = h->recv + HM_REC * t;
        int s = levmax - r[2];
        h->key[t] = hm_morton((long)r[0] << s, (long)r[1] << s);
        h->idx[t] = (int)t;
    }
    hm_sort_pairs_host(h->key, h->idx, h->k2, h->i2, w->nown, w->end_bit);
    for (long t = 0; t < w->nown; t++) memcpy(h->own + HM_REC * t, h->recv + HM_REC * (long)h->idx[t], sizeof(int) * HM_REC);
}
static inline void hm_rmh_touch(hm_rm *w, long long *count, uint64_t *box)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    int P = w->d->size, me = w->d->rank, levmax = w->m->levmax;
    long long off[HM_RM_MAX_RANKS];
    for (int q = 0; q < P; q++) count[q] = 0;
    box[0] = box[1] = UINT64_MAX; box[2] = box[3] = 0;
    for (long k = 0; k < w->nown; k++) {
        const int *r = h->own + HM_REC * k;
        uint64_t mk = hm_touch_mask(w->W, w->H, levmax, w->split, P, me, r), s = 1ull << (levmax - r[2]);
        uint64_t x0 = (uint64_t)r[0] * s, y0 = (uint64_t)r[1] * s;
        h->mask[k] = mk;
        for (int q = 0; q < P; q++) count[q] += (mk >> q) & 1;
        if (x0 < box[0]) box[0] = x0;
        if (y0 < box[1]) box[1] = y0;
        if (x0 + s > box[2]) box[2] = x0 + s;
        if (y0 + s > box[3]) box[3] = y0 + s;
    }
    for (int q = 0, s = 0; q < P; q++) { off[q] = s; s += (int)count[q]; }
    for (long k = 0; k < w->nown; k++) /* per peer, ascending k */
        for (int q = 0; q < P; q++)
            if ((h->mask[k] >> q) & 1) h->sidx[off[q]++] = (int)k;
    w->pat.send_idx = h->sidx;
}
static inline void hm_rmh_sync(hm_rm *w) { (void)w; }
static inline void hm_rmh_fetch(hm_rm *w, int *rec, int *send_idx)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    memcpy(rec, h->own, sizeof(int) * HM_REC * (size_t)w->nown);
    memcpy(send_idx, h->sidx, sizeof(int) * (size_t)w->pat.nsend);
}
static inline void hm_rmh_release(hm_rm *w)
{
    hm_rm_host *h = (hm_rm_host *)w->impl;
    if (!h) return;
    free(h->key); free(h->idx); free(h->send); free(h->mask); free(h->sidx);
    free(h);
    w->impl = NULL;
}
static const hm_rm_ops HM_RM_HOST = {"host", hm_rmh_upload, hm_rmh_keys_sort, hm_rmh_count_lt, hm_rmh_send,
                                     hm_rmh_sort_owned, hm_rmh_touch, hm_rmh_sync, hm_rmh_fetch, hm_rmh_release};

/* The host backend's buffers (a share of ns cells, a send list of at most ns (P - 1) entries). */
static inline void hm_rm_host_init(hm_rm *w)
{
    hm_rm_host *h = (hm_rm_host *)calloc(1, sizeof *h);
    size_t n = (size_t)(w->ns ? w->ns : 1), peers = (size_t)(w->d->size > 1 ? w->d->size - 1 : 1);
    dist_agree(w->d, h ? 0 : 1, "rank %d: out of host memory", w->d->rank);
    h->key = (uint64_t *)gen_alloc(sizeof(uint64_t) * 2 * n);
    h->k2 = h->key + n;
    h->idx = (int *)gen_alloc(sizeof(int) * 2 * n);
    h->i2 = h->idx + n;
    h->send = (int *)gen_alloc(sizeof(int) * HM_REC * 3 * n);
    h->recv = h->send + HM_REC * n;
    h->own = h->recv + HM_REC * n;
    h->mask = (uint64_t *)gen_alloc(sizeof(uint64_t) * n);
    h->sidx = (int *)gen_alloc(sizeof(int) * n * peers);
    w->impl = h;
    w->ops = &HM_RM_HOST;
}

#endif
