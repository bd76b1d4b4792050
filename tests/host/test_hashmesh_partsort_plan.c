/* Host test of hashmesh/hashsort_part.h's automatic plan at its boundaries: the keys a scatter
 * thread holds (the largest power of 2 that still gives HSP_MIN_TILES tiles: exactly that many
 * tiles keeps it, a tile fewer halves it), the automatic partition width (at most the target
 * number of partitions unless the width cap stops it, more than half of it unless the smallest
 * width does, for m at and around every power of 2 times the target), and the automatic scheme
 * at the partition cap (ranked while the partitions are at most parts_max: exactly parts_max
 * partitions is still ranked, one fewer allowed is two-level; the largest cap taken, one more
 * refused). */
#include "../../common/testlib.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/hashsort_part.h"

/* keys a thread: the largest power of 2 <= HSP_IPT_MAX (and >= lo) with >= HSP_MIN_TILES tiles */
static void test_auto_ipt(void)
{
    for (int ipt = 1; ipt <= HSP_IPT_MAX; ipt *= 2) {
        long tile = (long)HSP_SCATTER_THREADS * ipt, full = tile * HSP_MIN_TILES; /* HSP_MIN_TILES whole tiles */
        T_EQ_INT(hsp_auto_ipt(full, 1), ipt);
        T_EQ_INT(hsp_auto_ipt(full - tile + 1, 1), ipt); /* still HSP_MIN_TILES tiles, the last of one key */
        if (ipt > 1) T_EQ_INT(hsp_auto_ipt(full - tile, 1), ipt / 2); /* one key fewer: too few tiles */
    }
    T_EQ_INT(hsp_auto_ipt((long)HSP_SCATTER_THREADS * HSP_IPT_MAX * HSP_MIN_TILES, 1), HSP_IPT_MAX);
    T_EQ_INT(hsp_auto_ipt(1, 1), 1);
    T_EQ_INT(hsp_auto_ipt(1, HSP_RANK_IPT_MIN), HSP_RANK_IPT_MIN); /* never below lo */
    /* the direct plan at exactly HSP_MIN_TILES tiles of 16 keys (with the block histogram): 16 keys a thread */
    hsp_plan p;
    char why[256];
    long n = (long)HSP_SCATTER_THREADS * HSP_IPT_MAX * HSP_MIN_TILES;
    T_CHECK(hsp_plan_make(&p, n, n + n / 2, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_DIRECT && p.aggregate);
    T_EQ_INT(p.ipt, HSP_IPT_MAX);
    T_CHECK(p.tiles == HSP_MIN_TILES);
    long less = n - (long)HSP_SCATTER_THREADS * HSP_IPT_MAX; /* one tile of 16 keys fewer: 8 keys a thread */
    T_CHECK(hsp_plan_make(&p, less, less + less / 2, 0, NULL, why, sizeof why) == 0);
    T_EQ_INT(p.ipt, HSP_IPT_MAX / 2);
    T_CHECK(p.tiles == 2 * (HSP_MIN_TILES - 1));
}

/* the automatic width: at most `target` partitions unless pw == hi, more than target / 2 unless pw == lo */
static void test_auto_pw(void)
{
    int bad = 0;
    for (int e = 0; e <= 22; e++)
        for (long dm = -2; dm <= 2; dm++) {
            long m = ((long)HSP_TARGET_PARTS << e) + dm;
            if (m < 1) continue;
            int pw = hsp_auto_pw(m, HSP_TARGET_PARTS, HSP_PW_MIN, HSP_PW_LIMIT);
            long parts = hsp_parts_for(m, pw);
            if (pw < HSP_PW_MIN || pw > HSP_PW_LIMIT) bad++;
            if (parts > HSP_TARGET_PARTS && pw != HSP_PW_LIMIT) bad++;
            if (parts <= HSP_TARGET_PARTS / 2 && pw != HSP_PW_MIN) bad++;
            if (bad == 1) fprintf(stderr, "  auto pw: m %ld -> pw %d, %ld partitions\n", m, pw, parts), bad++;
        }
    T_EQ_INT(bad, 0);
    /* one bucket past 2^18 = 1024 partitions of 2^8: 2^9 buckets a partition, 513 of them */
    T_EQ_INT(hsp_auto_pw((1L << 18) + 1, HSP_TARGET_PARTS, HSP_PW_MIN, HSP_PW_LIMIT), 9);
    T_EQ_INT(hsp_auto_pw(1L << 18, HSP_TARGET_PARTS, HSP_PW_MIN, HSP_PW_LIMIT), 8);
    hsp_plan p;
    char why[256];
    T_CHECK(hsp_plan_make(&p, 100000, (1L << 18) + 1, 0, NULL, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_DIRECT && p.pw == 9 && p.parts == 513);
    /* the two-level coarse width: about HSP_COARSE_TARGET coarse partitions */
    hsp_tuning two;
    memset(&two, 0, sizeof two);
    two.scheme = HSP_SCHEME_TWO_LEVEL;
    long m = ((long)HSP_COARSE_TARGET << 17) + 1; /* one bucket past 1024 partitions of 2^17 */
    T_CHECK(hsp_plan_make(&p, 1L << 22, m, 0, &two, why, sizeof why) == 0);
    T_CHECK(p.pw1 == 18 && p.parts1 == 513 && p.rbits == 18 - HSP_FINE_PW);
}

/* the automatic scheme: ranked while hsp_parts_for(m, pw) <= parts_max, else two-level */
static void test_parts_cap(void)
{
    hsp_plan p;
    char why[256];
    hsp_tuning t;
    memset(&t, 0, sizeof t);
    const long n = 1L << 22, m = 3L << 21; /* pw 13: 768 partitions */
    T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.pw == 13 && p.parts == 768);
    t.parts_max = 768; /* exactly the partitions: still ranked */
    T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.parts == 768 && p.rbits == 0);
    t.parts_max = 767; /* one fewer: two-level */
    T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_TWO_LEVEL && p.rbits > 0);
    t.parts_max = HSP_RANK_BINS_LIMIT; /* the largest cap taken, one more refused */
    T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 0);
    t.parts_max = HSP_RANK_BINS_LIMIT + 1;
    T_CHECK(hsp_plan_make(&p, n, m, 0, &t, why, sizeof why) == 1 && strstr(why, "parts_max"));
    /* the default cap HSP_RANK_PARTS_MAX: exactly 2048 partitions of 2^15 ranked, one bucket more two-level */
    memset(&t, 0, sizeof t);
    T_CHECK(hsp_plan_make(&p, 1L << 25, (long)HSP_RANK_PARTS_MAX << 15, 0, &t, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_RANKED && p.pw == 15 && p.parts == HSP_RANK_PARTS_MAX);
    T_CHECK(hsp_plan_make(&p, 1L << 25, ((long)HSP_RANK_PARTS_MAX << 15) + 1, 0, &t, why, sizeof why) == 0);
    T_CHECK(p.scheme == HSP_SCHEME_TWO_LEVEL);
}

int main(void)
{
    test_auto_ipt();
    test_auto_pw();
    test_parts_cap();
    return T_DONE();
}
