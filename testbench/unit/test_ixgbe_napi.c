/* Unit tests of driver/ixgbe/ixgbe_napi.c over the 82599 fake of
 * plat_fake.h: the vector's set-up (EITR from rx-usecs, EIAC, EIAM_EX,
 * EIMS, WTHRESH), the queue stop after mapping below 21 free descriptors
 * and the tail write it forces under xmit_more, the entry check's
 * NETDEV_TX_BUSY, the wake at exactly 42 free, the 256-packet clean budget
 * that keeps NAPI scheduled, the re-enable by EIMS, the dynamic ITR's EITR
 * writes (and none in a fixed mode), and an interrupt taken as a message
 * (auto-cleared, auto-masked until the poll re-enables it). */
#include <CUnit/CUnit.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_tx.h"
#include "../../driver/ixgbe/ixgbe_napi.h"

#define BUF_BUS 0x2000000000ull   /* any address: the fake NIC checks the arena only when run */

static struct plat_dev *d;
static struct ixgbe_dev dev;
static struct ixgbe_txq q;
static struct ixgbe_napi n;
static unsigned done_n;

static void done_cb(void *arg, void *cookie)
{
    (void)arg;
    (void)cookie;
    done_n++;
}

/* A device, TX queue 0 (tx options t, NULL = defaults; WTHRESH from the
 * vector's rule) and the vector with rx-usecs usecs.  Returns ixgbe_napi_init's
 * result. */
static int bring_up(uint32_t usecs, const struct ixgbe_tx_opts *t)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_ix_enable(d);
    done_n = 0;
    struct ixgbe_dev_opts dopts;
    ixgbe_dev_default_opts(&dopts);
    dopts.reset_settle_ns = 0;
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, &dopts), 0);
    struct ixgbe_napi_opts no;
    ixgbe_napi_default_opts(&no);
    no.rx_usecs = usecs;
    struct ixgbe_tx_opts to;
    if (t)
        to = *t;
    else
        ixgbe_tx_default_opts(&to);
    if (ixgbe_napi_wthresh(&no, &to.wthresh) != 0)
        return IXGBE_ERR_PARAM;
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&q, &dev, 0, &to), 0);
    fake_log_clear(d);
    return ixgbe_napi_init(&n, &dev, &q, &no);
}

static void take_down(void)
{
    ixgbe_txq_teardown(&q, NULL, NULL);
    fake_destroy(d);
    d = NULL;
}

/* 60-byte packets until the queue stops (or limit); returns those sent. */
static unsigned fill(int more, unsigned limit)
{
    unsigned k = 0;
    while (k < limit && ixgbe_napi_xmit(&n, BUF_BUS, 60, (void *)(uintptr_t)(k + 1), more) == 0)
        k++;
    return k;
}

static void test_setup_registers(void)
{
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EITR(0)), 200u | IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIAC), IXGBE_EICR_RTX_QUEUE_MASK);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIAM_EX(0)), 0xFFFFFFFFu);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS) & 1u, 1u);
    CU_ASSERT(d->irq_msg);
    CU_ASSERT_EQUAL((q.txdctl >> IXGBE_TXDCTL_WTHRESH_SHIFT) & 0x7F, 8);   /* 200 >= 40 */
    CU_ASSERT_EQUAL(n.itr, 200);
    take_down();
    CU_ASSERT_EQUAL(bring_up(0, NULL), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EITR(0)), IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL((q.txdctl >> IXGBE_TXDCTL_WTHRESH_SHIFT) & 0x7F, 1);   /* no moderation */
    take_down();
    CU_ASSERT_EQUAL(bring_up(31, NULL), 0);                               /* odd: as 30 */
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EITR(0)), 120u | IXGBE_EITR_CNT_WDIS);
    take_down();
    CU_ASSERT_EQUAL(bring_up(1023, NULL), IXGBE_ERR_PARAM);
    fake_destroy(d);
    /* a queue the poll cannot clean (RS every 4th packet) is refused */
    struct ixgbe_tx_opts t;
    ixgbe_tx_default_opts(&t);
    t.rs_every = 4;
    CU_ASSERT_EQUAL(bring_up(1, &t), IXGBE_ERR_PARAM);
    take_down();
}

static void test_stop_after_mapping(void)
{
    /* 512 ring: 511 usable; the packet that leaves 20 < 21 free stops it */
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    CU_ASSERT_EQUAL(fill(0, 1000), 491);
    CU_ASSERT(ixgbe_napi_stopped(&n));
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 20);
    CU_ASSERT_EQUAL(n.stats.stops, 1);
    CU_ASSERT_EQUAL(n.stats.busy, 0);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 491);                 /* no xmit_more: every packet */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MB, 0), 1);            /* the stop's smp_mb */
    CU_ASSERT_EQUAL(ixgbe_napi_xmit(&n, BUF_BUS, 60, NULL, 0), IXGBE_ERR_BUSY);
    CU_ASSERT_EQUAL(n.stats.stops, 1);                        /* already stopped */
    take_down();
    /* with xmit_more on every packet the tail is written once: by the
     * packet that stopped the queue */
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    CU_ASSERT_EQUAL(fill(1, 1000), 491);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 1);
    CU_ASSERT_EQUAL(q.tail, q.next_to_use);
    take_down();
}

static void test_entry_busy(void)
{
    /* 64-byte descriptors: a 1514-byte frame takes 24, so it needs 27 free */
    struct ixgbe_tx_opts t;
    ixgbe_tx_default_opts(&t);
    t.max_desc_bytes = 64;
    CU_ASSERT_EQUAL(bring_up(1, &t), 0);
    CU_ASSERT_EQUAL(fill(0, 486), 486);                       /* 25 free, running */
    CU_ASSERT(!ixgbe_napi_stopped(&n));
    unsigned descs = (unsigned)q.stats.descs;
    CU_ASSERT_EQUAL(ixgbe_napi_xmit(&n, BUF_BUS, 1514, NULL, 0), IXGBE_ERR_BUSY);
    CU_ASSERT(ixgbe_napi_stopped(&n));
    CU_ASSERT_EQUAL(n.stats.busy, 1);
    CU_ASSERT_EQUAL(n.stats.stops, 1);
    CU_ASSERT_EQUAL(q.stats.descs, descs);                    /* nothing written */
    take_down();
}

static void test_wake_threshold(void)
{
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    CU_ASSERT_EQUAL(fill(0, 1000), 491);
    /* 21 done: 41 free, still stopped */
    CU_ASSERT_EQUAL(fake_ix_tx_run(d, 0, 21), 21);
    ixgbe_napi_irq(&n);
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 41);
    CU_ASSERT(ixgbe_napi_stopped(&n));
    /* one more: 42, woken */
    CU_ASSERT_EQUAL(fake_ix_tx_run(d, 0, 1), 1);
    ixgbe_napi_irq(&n);
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 0);
    CU_ASSERT(!ixgbe_napi_stopped(&n));
    CU_ASSERT_EQUAL(n.stats.wakes, 1);
    CU_ASSERT_EQUAL(done_n, 22);
    /* a poll that is not scheduled does nothing */
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(n.stats.polls, 2);
    take_down();
}

static void test_clean_budget_and_reenable(void)
{
    CU_ASSERT_EQUAL(bring_up(50, NULL), 0);                   /* fixed: no ITR updates */
    CU_ASSERT_EQUAL(fill(0, 1000), 491);
    fake_ix_tx_run(d, 0, ~0u);
    fake_log_clear(d);
    ixgbe_napi_irq(&n);
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 1);   /* 256: stays scheduled */
    CU_ASSERT_EQUAL(done_n, 256);
    CU_ASSERT(!ixgbe_napi_stopped(&n));                       /* woken already: 276 free */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_EIMS), 0);
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 0);   /* 235: complete */
    CU_ASSERT_EQUAL(done_n, 491);
    CU_ASSERT_EQUAL(n.stats.full_polls, 1);
    CU_ASSERT_EQUAL(n.stats.completes, 1);
    CU_ASSERT_EQUAL(n.stats.max_run, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_EIMS), 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_EITR(0)), 0);
    CU_ASSERT_EQUAL(n.stats.eitr_writes, 0);
    take_down();
}

/* Bulk TX in the dynamic mode: the first completion moves lowest -> low
 * (target 200 = the ITR: no write), the next low -> bulk and 200 -> 212. */
static void test_dynamic_itr(void)
{
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    for (int round = 0; round < 2; round++) {
        CU_ASSERT_EQUAL(fill(0, 1000), 491);
        fake_ix_tx_run(d, 0, ~0u);
        ixgbe_napi_irq(&n);
        while (ixgbe_napi_poll(&n, done_cb, NULL))
            ;
    }
    CU_ASSERT_EQUAL(n.tx.range, IXGBE_ITR_BULK_LATENCY);
    CU_ASSERT_EQUAL(n.itr, 212);
    CU_ASSERT_EQUAL(n.stats.eitr_writes, 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EITR(0)), 208u | IXGBE_EITR_CNT_WDIS);
    CU_ASSERT_EQUAL(n.stats.itr_min, 200);
    CU_ASSERT_EQUAL(n.stats.itr_max, 212);
    take_down();
}

/* The interrupt as a message: taking it clears the cause (EIAC) and masks
 * the vector (EIAM); no second interrupt until the poll's EIMS. */
static void test_message_interrupt(void)
{
    CU_ASSERT_EQUAL(bring_up(1, NULL), 0);
    CU_ASSERT_EQUAL(fill(0, 10), 10);
    fake_ix_tx_run(d, 0, ~0u);                                /* sets EICR bit 0 */
    CU_ASSERT_EQUAL(plat_irq_wait(d, 0), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EICR) & 1u, 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS) & 1u, 0);
    ixgbe_napi_irq(&n);
    CU_ASSERT_EQUAL(fill(0, 1), 1);
    fake_ix_tx_run(d, 0, ~0u);                                /* a cause while masked */
    CU_ASSERT_EQUAL(plat_irq_wait(d, 0), 0);
    CU_ASSERT_EQUAL(ixgbe_napi_poll(&n, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS) & 1u, 1u);
    CU_ASSERT_EQUAL(plat_irq_wait(d, 0), 1);                  /* the held cause, now */
    take_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("IxgbeNapi", NULL, NULL);
    CU_add_test(s, "SetupRegisters", test_setup_registers);
    CU_add_test(s, "StopAfterMapping", test_stop_after_mapping);
    CU_add_test(s, "EntryBusy", test_entry_busy);
    CU_add_test(s, "WakeThreshold", test_wake_threshold);
    CU_add_test(s, "CleanBudgetAndReenable", test_clean_budget_and_reenable);
    CU_add_test(s, "DynamicItr", test_dynamic_itr);
    CU_add_test(s, "MessageInterrupt", test_message_interrupt);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
