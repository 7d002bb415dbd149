/* Unit tests of driver/ixgbe/ixgbe_itr.c, Linux 3.18 ixgbe's interrupt
 * moderation arithmetic: the rx-usecs mapping (0, 1, N << 2, odd values
 * rounded down by the register, the 1022 limit), the first ITR and the
 * WTHRESH rule, the latency-range transitions of ixgbe_update_itr at their
 * byte-rate boundaries, and the smoothing new = 10*t*o / (9*t + o) along
 * the trajectories docs/pktgen-napi.md quotes. */
#include "gtest_cunit.h"
#include "../../driver/ixgbe/ixgbe_itr.h"
#include "../../driver/ixgbe/ixgbe_regs.h"

static uint32_t setting_of(uint32_t usecs)
{
    uint32_t s = 0xDEAD;
    CU_ASSERT_EQUAL(ixgbe_itr_setting(usecs, &s), 0);
    return s;
}

static void test_rx_usecs_mapping(void)
{
    CU_ASSERT_EQUAL(setting_of(0), 0);
    CU_ASSERT_EQUAL(setting_of(1), IXGBE_ITR_DYNAMIC);
    CU_ASSERT_EQUAL(setting_of(2), 8);
    CU_ASSERT_EQUAL(setting_of(30), 120);
    CU_ASSERT_EQUAL(setting_of(1022), 4088);
    uint32_t s = 77;
    CU_ASSERT_EQUAL(ixgbe_itr_setting(1023, &s), -1);   /* -EINVAL, nothing stored */
    CU_ASSERT_EQUAL(s, 77);
    /* the register: interval bits 11:3 and CNT_WDIS; an odd value acts as
     * the even one below it (3 -> 2, 31 -> 30) */
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(3))),
                    ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(2))));
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(31))), 120u | IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(30))), 120u | IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(1022))), 0xFF8u | IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(0), IXGBE_EITR_CNT_WDIS);
    /* first ITR: the dynamic mode starts at 20K, a fixed setting as it is */
    CU_ASSERT_EQUAL(ixgbe_itr_initial(setting_of(1)), IXGBE_ITR_20K);
    CU_ASSERT_EQUAL(ixgbe_itr_initial(setting_of(0)), 0);
    CU_ASSERT_EQUAL(ixgbe_itr_initial(setting_of(50)), 200);
    CU_ASSERT_EQUAL(ixgbe_itr_eitr_reg(ixgbe_itr_initial(setting_of(1))), 200u | IXGBE_EITR_CNT_WDIS);
}

static void test_wthresh_rule(void)
{
    CU_ASSERT_EQUAL(ixgbe_itr_wthresh(0), 1);                          /* rx-usecs 0 */
    CU_ASSERT_EQUAL(ixgbe_itr_wthresh(ixgbe_itr_initial(setting_of(9))), 1);   /* 36 < 40 */
    CU_ASSERT_EQUAL(ixgbe_itr_wthresh(ixgbe_itr_initial(setting_of(10))), 8);  /* 40 */
    CU_ASSERT_EQUAL(ixgbe_itr_wthresh(ixgbe_itr_initial(setting_of(1))), 8);   /* dynamic: 200 */
    CU_ASSERT_EQUAL(ixgbe_itr_wthresh(ixgbe_itr_initial(setting_of(1022))), 8);
}

/* One update at ITR 200 (50 us) from range r with b bytes in p packets. */
static uint8_t after(uint8_t r, uint32_t b, uint32_t p)
{
    struct ixgbe_itr_container c = { .total_bytes = b, .total_packets = p, .range = r };
    ixgbe_itr_update(200, &c);
    return c.range;
}

static void test_update_ranges(void)
{
    /* bytes per us of the 50 us interval: > 10 leaves lowest, > 20 low ->
     * bulk, <= 10 low -> lowest, <= 20 bulk -> low; integer division */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOWEST_LATENCY, 549, 9), IXGBE_ITR_LOWEST_LATENCY);   /* 10 */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOWEST_LATENCY, 550, 9), IXGBE_ITR_LOW_LATENCY);      /* 11 */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOWEST_LATENCY, 100000, 9), IXGBE_ITR_LOW_LATENCY);   /* one step */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOW_LATENCY, 1049, 9), IXGBE_ITR_LOW_LATENCY);        /* 20 */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOW_LATENCY, 1050, 9), IXGBE_ITR_BULK_LATENCY);       /* 21 */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOW_LATENCY, 549, 9), IXGBE_ITR_LOWEST_LATENCY);      /* 10 */
    CU_ASSERT_EQUAL(after(IXGBE_ITR_LOW_LATENCY, 550, 9), IXGBE_ITR_LOW_LATENCY);
    CU_ASSERT_EQUAL(after(IXGBE_ITR_BULK_LATENCY, 1049, 9), IXGBE_ITR_LOW_LATENCY);
    CU_ASSERT_EQUAL(after(IXGBE_ITR_BULK_LATENCY, 1050, 9), IXGBE_ITR_BULK_LATENCY);
    CU_ASSERT_EQUAL(after(IXGBE_ITR_BULK_LATENCY, 0, 9), IXGBE_ITR_LOW_LATENCY);          /* one step */
    /* the counters clear on an update, and only then */
    struct ixgbe_itr_container c = { .total_bytes = 5000, .total_packets = 80, .range = 0 };
    ixgbe_itr_update(200, &c);
    CU_ASSERT_EQUAL(c.total_bytes, 0);
    CU_ASSERT_EQUAL(c.total_packets, 0);
    c = (struct ixgbe_itr_container){ .total_bytes = 5000, .total_packets = 0, .range = 2 };
    ixgbe_itr_update(200, &c);                     /* no packets: nothing happens */
    CU_ASSERT_EQUAL(c.total_bytes, 5000);
    CU_ASSERT_EQUAL(c.range, 2);
    c = (struct ixgbe_itr_container){ .total_bytes = 5000, .total_packets = 80, .range = 0 };
    ixgbe_itr_update(3, &c);                       /* ITR >> 2 == 0: nothing happens */
    CU_ASSERT_EQUAL(c.total_packets, 80);
    CU_ASSERT_EQUAL(c.range, 0);
    /* the rate is per us of the interval, not of time measured: the same
     * bytes are "slow" at a long interval (500: 125 us) */
    c = (struct ixgbe_itr_container){ .total_bytes = 2600, .total_packets = 40, .range = 1 };
    ixgbe_itr_update(500, &c);                     /* 20 B/us */
    CU_ASSERT_EQUAL(c.range, IXGBE_ITR_LOW_LATENCY);
}

static void test_smoothing(void)
{
    static const uint32_t up[] = { 200, 212, 224, 237, 250, 263, 276, 288, 300 };
    static const uint32_t down[] = { 200, 142, 113, 95, 83, 74 };
    static const uint32_t from8k[] = { 500, 232, 156, 120, 100 };
    for (unsigned i = 1; i < sizeof up / sizeof up[0]; i++)
        CU_ASSERT_EQUAL(ixgbe_itr_smooth(IXGBE_ITR_8K, up[i - 1]), up[i]);
    for (unsigned i = 1; i < sizeof down / sizeof down[0]; i++)
        CU_ASSERT_EQUAL(ixgbe_itr_smooth(IXGBE_ITR_100K, down[i - 1]), down[i]);
    for (unsigned i = 1; i < sizeof from8k / sizeof from8k[0]; i++)
        CU_ASSERT_EQUAL(ixgbe_itr_smooth(IXGBE_ITR_100K, from8k[i - 1]), from8k[i]);
    /* 20K -> 100K reaches 40 in 20 steps; 20K -> 8K is at 483 after 40 */
    uint32_t itr = 200;
    unsigned n = 0;
    while (itr != IXGBE_ITR_100K && n < 100) {
        itr = ixgbe_itr_smooth(IXGBE_ITR_100K, itr);
        n++;
    }
    CU_ASSERT_EQUAL(n, 20);
    itr = 200;
    for (n = 0; n < 40; n++)
        itr = ixgbe_itr_smooth(IXGBE_ITR_8K, itr);
    CU_ASSERT_EQUAL(itr, 483);
    CU_ASSERT_EQUAL(ixgbe_itr_target(IXGBE_ITR_LOWEST_LATENCY), 40);
    CU_ASSERT_EQUAL(ixgbe_itr_target(IXGBE_ITR_LOW_LATENCY), 200);
    CU_ASSERT_EQUAL(ixgbe_itr_target(IXGBE_ITR_BULK_LATENCY), 500);
}

static void test_set_itr(void)
{
    /* TX bulk, RX empty (its range stays lowest): the larger range wins */
    struct ixgbe_itr_container tx = { .total_bytes = 60u * 490, .total_packets = 490, .range = 2 };
    struct ixgbe_itr_container rx = { 0 };
    CU_ASSERT_EQUAL(ixgbe_itr_set(200, &tx, &rx), 212);
    CU_ASSERT_EQUAL(rx.range, 0);
    /* at the target already: unchanged (no EITR write follows) */
    tx = (struct ixgbe_itr_container){ .total_bytes = 60u * 490, .total_packets = 490, .range = 2 };
    CU_ASSERT_EQUAL(ixgbe_itr_set(500, &tx, &rx), 500);
    /* a lone packet per interval: low, then lowest, then down toward 40 */
    tx = (struct ixgbe_itr_container){ .total_bytes = 60, .total_packets = 1, .range = 2 };
    CU_ASSERT_EQUAL(ixgbe_itr_set(200, &tx, &rx), 200);   /* bulk -> low: target 200 = itr */
    tx.total_bytes = 60;
    tx.total_packets = 1;
    CU_ASSERT_EQUAL(ixgbe_itr_set(200, &tx, &rx), 142);   /* low -> lowest */
    CU_ASSERT_EQUAL(tx.range, IXGBE_ITR_LOWEST_LATENCY);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("IxgbeItr", NULL, NULL);
    CU_add_test(s, "RxUsecsMapping", test_rx_usecs_mapping);
    CU_add_test(s, "WthreshRule", test_wthresh_rule);
    CU_add_test(s, "UpdateRanges", test_update_ranges);
    CU_add_test(s, "Smoothing", test_smoothing);
    CU_add_test(s, "SetItr", test_set_itr);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
