/* Unit tests of driver/apps/lpm.c (DIR-24-8 longest-prefix match, IPv4 and
 * IPv6) on the fake platform: longest prefix wins in any order of adds,
 * misses, group exhaustion, the levels a lookup reads (1 for an IPv4 /24, 2
 * for a /32, 4 for an IPv6 /48), and the bulk lookup's equal results with
 * its prefetches issued before its reads. */
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/apps/lpm.h"
#include <CUnit/CUnit.h>
#include <string.h>

static void v4(uint8_t k[4], unsigned a, unsigned b, unsigned c, unsigned d)
{
    k[0] = (uint8_t)a;
    k[1] = (uint8_t)b;
    k[2] = (uint8_t)c;
    k[3] = (uint8_t)d;
}

static void test_ipv4_longest_prefix(void)
{
    struct plat_dev *pd = fake_create();
    struct lpm l;
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l, pd, 4, 16), 0);
    uint8_t k[4];
    struct lpm_stats st = { 0 };
    /* added out of order: /32 first, then /16, /24, /8 */
    v4(k, 10, 1, 2, 3);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 4), 0);
    v4(k, 10, 1, 0, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 16, 1), 0);
    v4(k, 10, 1, 2, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 24, 2), 0);
    v4(k, 10, 0, 0, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 8, 3), 0);
    v4(k, 10, 1, 2, 3);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 4);
    CU_ASSERT_EQUAL(st.entry_reads, 2);
    v4(k, 10, 1, 2, 4);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 2);      /* the /24, through the /32's group */
    v4(k, 10, 1, 3, 4);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 1);
    CU_ASSERT_EQUAL(st.entry_reads, 5);               /* a /16 hit: one read */
    v4(k, 10, 200, 3, 4);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 3);
    v4(k, 11, 1, 2, 3);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), LPM_MISS);
    CU_ASSERT_EQUAL(st.misses, 1);
    CU_ASSERT_EQUAL(st.lookups, 5);
    /* re-adding a prefix replaces its hop; a shorter one never overrides */
    v4(k, 10, 1, 2, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 24, 7), 0);
    v4(k, 10, 0, 0, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 8, 9), 0);
    v4(k, 10, 1, 2, 77);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 7);
    v4(k, 10, 1, 2, 3);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 4);
    fake_destroy(pd);
}

static void test_groups_run_out(void)
{
    struct plat_dev *pd = fake_create();
    struct lpm l;
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l, pd, 4, 2), 0);
    uint8_t k[4];
    v4(k, 1, 0, 0, 1);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 1), 0);
    v4(k, 1, 0, 1, 1);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 2), 0);
    v4(k, 1, 0, 2, 1);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 3), -1);        /* a third group */
    v4(k, 1, 0, 1, 9);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 5), 0);         /* the second group again */
    CU_ASSERT_EQUAL(lpm_add(&l, k, 33, 5), -1);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 0, 5), -1);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 8, LPM_MAX_HOP + 1), -1);
    CU_ASSERT_EQUAL(lpm_init(&l, pd, 8, 2), -1);
    fake_destroy(pd);
}

static void v6(uint8_t k[16], unsigned b4, unsigned b5, unsigned last)
{
    static const uint8_t base[16] = { 0x20, 0x01, 0x0d, 0xb8 };
    memcpy(k, base, 16);
    k[4] = (uint8_t)b4;
    k[5] = (uint8_t)b5;
    k[15] = (uint8_t)last;
}

static void test_ipv6_48(void)
{
    struct plat_dev *pd = fake_create();
    struct lpm l;
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l, pd, 16, 64), 0);
    uint8_t k[16];
    for (unsigned p = 0; p < 8; p++) {
        v6(k, 0, p, 0);
        CU_ASSERT_EQUAL(lpm_add(&l, k, 48, p), 0);
    }
    v6(k, 0, 0, 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k, 32, 100), 0);        /* 2001:db8::/32 */
    struct lpm_stats st = { 0 };
    v6(k, 0, 5, 1);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 5);
    CU_ASSERT_EQUAL(st.entry_reads, 4);                  /* tbl24, bytes 3, 4 and 5 */
    v6(k, 0, 9, 1);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 100);
    v6(k, 1, 0, 1);
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), 100);
    k[0] = 0x30;
    CU_ASSERT_EQUAL(lpm_lookup(&l, k, &st), LPM_MISS);
    fake_destroy(pd);
}

/* The x4 lookup gives the scalar results; its four first-level reads come
 * back to back with no prefetch and no wait between them, and a second
 * level is read only after a wait on its key's first entry. */
static void test_x4_same_results_reads_first(void)
{
    struct plat_dev *pd = fake_create();
    struct lpm l;
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l, pd, 4, 16), 0);
    uint8_t k24[4] = { 198, 18, 1, 0 }, k32[4] = { 198, 18, 2, 7 };
    CU_ASSERT_EQUAL(lpm_add(&l, k24, 24, 1), 0);
    CU_ASSERT_EQUAL(lpm_add(&l, k32, 32, 2), 0);
    uint8_t keys[4][4] = { { 198, 18, 1, 5 }, { 198, 18, 2, 7 }, { 198, 18, 2, 8 }, { 10, 0, 0, 1 } };
    const uint8_t *kp[4] = { keys[0], keys[1], keys[2], keys[3] };
    uint32_t hops[4];
    struct lpm_stats sx = { 0 }, ss = { 0 };
    fake_log_clear(pd);
    lpm_lookup_x4(&l, kp, hops, &sx);
    CU_ASSERT_EQUAL(fake_count(pd, FAKE_PREFETCH, 0), 0);
    /* reads 0..3 are the first level, before any wait */
    long w = fake_find(pd, FAKE_WAIT, 0, 0), r3 = fake_find(pd, FAKE_MEMR, 0, 3);
    CU_ASSERT(r3 >= 0 && w > r3);
    /* keys 1 and 2 share an extended entry: two waits, two second-level reads */
    CU_ASSERT_EQUAL(fake_count(pd, FAKE_WAIT, 0), 2);
    CU_ASSERT_EQUAL(fake_count(pd, FAKE_MEMR, 0), 6);
    for (unsigned i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(hops[i], lpm_lookup(&l, keys[i], &ss));
    CU_ASSERT_EQUAL(hops[0], 1);
    CU_ASSERT_EQUAL(hops[1], 2);
    CU_ASSERT_EQUAL(hops[2], LPM_MISS);
    CU_ASSERT_EQUAL(hops[3], LPM_MISS);
    CU_ASSERT_EQUAL(sx.entry_reads, ss.entry_reads);
    CU_ASSERT_EQUAL(sx.misses, 2);
    fake_destroy(pd);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Lpm", NULL, NULL);
    CU_add_test(s, "Ipv4LongestPrefix", test_ipv4_longest_prefix);
    CU_add_test(s, "GroupsRunOut", test_groups_run_out);
    CU_add_test(s, "Ipv6Slash48", test_ipv6_48);
    CU_add_test(s, "X4SameResultsReadsFirst", test_x4_same_results_reads_first);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
