/* Unit tests of the pktgen app over the e1000 TX queue and the fake
 * platform: frame bytes, clone mode, named costs, burst tail writes, count
 * and duration termination, full-ring waits and the final drain. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/apps/pktgen.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define MAX_STEPS 1000000u

static struct plat_dev *d;
static struct e1000_dev dev;
static struct e1000_txq q;
static struct pktgen pg;

static int start(const struct pktgen_opts *po, uint32_t ring, enum fake_nic_mode mode)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    d->nic_mode = mode;
    if (e1000_dev_init(&dev, d, NULL) != 0)
        return -100;
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.ring_size = ring;
    if (e1000_txq_setup(&q, &dev, &o) != 0)
        return -101;
    fake_log_clear(d);
    return pktgen_init(&pg, d, &q, po);
}

/* Step until done; returns the number of steps (MAX_STEPS = did not end). */
static unsigned run(void)
{
    unsigned steps = 0;
    while (steps < MAX_STEPS && pktgen_step(&pg))
        steps++;
    return steps;
}

static void stop(void)
{
    pktgen_fini(&pg);
    if (q.slot)
        e1000_txq_teardown(&q, NULL, NULL);
    fake_destroy(d);
    d = NULL;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) << 16 | rd16(p + 2); }

/* One's-complement sum over the IPv4 header: 0xFFFF when the checksum is right. */
static uint16_t ip_sum(const uint8_t *h)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < 20; i += 2)
        s += rd16(h + i);
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

static void check_frame(const struct fake_frame *f, const struct pktgen_opts *o, uint32_t seq)
{
    uint32_t len = o->size - 4;
    CU_ASSERT_EQUAL_FATAL(f->len, len);
    const uint8_t *p = f->data;
    CU_ASSERT(memcmp(p, o->dst_mac, 6) == 0);
    CU_ASSERT(memcmp(p + 6, o->src_mac, 6) == 0);
    CU_ASSERT_EQUAL(rd16(p + 12), 0x0800);
    const uint8_t *ip = p + 14;
    CU_ASSERT_EQUAL(ip[0], 0x45);
    CU_ASSERT_EQUAL(rd16(ip + 2), len - 14);
    CU_ASSERT_EQUAL(ip[8], 32);
    CU_ASSERT_EQUAL(ip[9], 17);
    CU_ASSERT_EQUAL(rd32(ip + 12), o->src_ip);
    CU_ASSERT_EQUAL(rd32(ip + 16), o->dst_ip);
    CU_ASSERT_NOT_EQUAL(rd16(ip + 10), 0);
    CU_ASSERT_EQUAL(ip_sum(ip), 0xFFFF);
    const uint8_t *udp = ip + 20;
    CU_ASSERT_EQUAL(rd16(udp), o->src_port);
    CU_ASSERT_EQUAL(rd16(udp + 2), o->dst_port);
    CU_ASSERT_EQUAL(rd16(udp + 4), len - 34);
    CU_ASSERT_EQUAL(rd16(udp + 6), 0);
    CU_ASSERT_EQUAL(rd32(udp + 8), seq);
    for (uint32_t i = 46; i < len; i++)
        if (p[i] != 0) {
            CU_FAIL("payload after the sequence number is not zero");
            break;
        }
}

static void test_frame_bytes(void)
{
    static const uint32_t sizes[] = { 64, 65, 128, 1518 };
    for (unsigned s = 0; s < 4; s++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 5;
        o.size = sizes[s];
        o.src_ip = 0xC0A80101u;     /* 192.168.1.1 */
        o.dst_ip = 0xC0A80202u;
        o.src_port = 1234;
        o.dst_port = 5678;
        CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
        CU_ASSERT(run() < MAX_STEPS);
        CU_ASSERT_EQUAL_FATAL(d->nframes, 5);
        for (unsigned k = 0; k < 5; k++) {
            check_frame(&d->frames[k], &o, k);
            CU_ASSERT_EQUAL(d->frames[k].ndesc, 1);
            CU_ASSERT(d->frames[k].cmd_last & E1000_TXD_CMD_IFCS);
        }
        CU_ASSERT_EQUAL(d->nic_errors, 0);
        stop();
    }
    /* a known header: 10.0.0.1 -> 10.0.0.2, 46 bytes, TTL 32, UDP */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 1;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    run();
    CU_ASSERT_EQUAL_FATAL(d->nframes, 1);
    CU_ASSERT_EQUAL(rd16(d->frames[0].data + 24), 0x86BD);
    stop();
}

static void test_clone_identical(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 20;
    o.burst = 4;
    o.clone = 1;
    o.size = 100;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL_FATAL(d->nframes, 20);
    for (unsigned k = 0; k < 20; k++) {
        check_frame(&d->frames[k], &o, 0);
        CU_ASSERT(memcmp(d->frames[k].data, d->frames[0].data, 96) == 0);
        CU_ASSERT_EQUAL(d->frames[k].bus_first, d->frames[0].bus_first);
    }
    CU_ASSERT_EQUAL(d->copy_to_bytes, 96);           /* built once */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "pktgen_pkt"), 20);
    CU_ASSERT_EQUAL(d->packets_counted, 20);
    CU_ASSERT_EQUAL(pg.stats.sent, 20);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 20);
    stop();
}

static void test_pool_costs(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 50;
    o.burst = 5;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(fake_cost_count(d, "pktgen_pkt"), 50);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 50);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 50);
    CU_ASSERT_EQUAL(d->packets_counted, 50);
    CU_ASSERT_EQUAL(d->copy_to_bytes, 50 * 60);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 50);
    stop();
}

static void test_burst_tdt_writes(void)
{
    static const unsigned bursts[] = { 1, 2, 7, 8, 32, 100 };
    for (unsigned i = 0; i < sizeof bursts / sizeof bursts[0]; i++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 100;
        o.burst = bursts[i];
        CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
        CU_ASSERT(run() < MAX_STEPS);
        unsigned want = (100 + bursts[i] - 1) / bursts[i];
        CU_ASSERT_EQUAL(pg.stats.tdt_writes, want);
        CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), want);
        CU_ASSERT_EQUAL(pg.stats.sent, 100);
        CU_ASSERT_EQUAL(d->nframes, 100);
        stop();
    }
}

static void test_count_termination(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 1000;
    CU_ASSERT_EQUAL_FATAL(start(&o, 48, FAKE_NIC_ON_IRQ_WAIT), 0);
    unsigned steps = run();
    CU_ASSERT(steps < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 1000);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 1000);
    CU_ASSERT(pg.stats.ring_full > 0);
    CU_ASSERT(pg.stats.irqs > 0);
    CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 0);
    CU_ASSERT_EQUAL(e1000_tx_in_use(&q), 0);
    CU_ASSERT_EQUAL_FATAL(d->nframes, 1000);
    for (unsigned k = 0; k < 1000; k++)      /* no buffer reused while in flight */
        CU_ASSERT_EQUAL(rd32(d->frames[k].data + 42), k);
    CU_ASSERT_EQUAL(pktgen_step(&pg), 0);    /* stays done */
    CU_ASSERT_EQUAL(pg.stats.sent, 1000);
    stop();
}

static void test_burst_with_ring_full(void)
{
    static const unsigned bursts[] = { 3, 16, 64 };
    for (unsigned i = 0; i < 3; i++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 500;
        o.burst = bursts[i];
        CU_ASSERT_EQUAL_FATAL(start(&o, 64, FAKE_NIC_ON_IRQ_WAIT), 0);
        CU_ASSERT(run() < MAX_STEPS);
        CU_ASSERT_EQUAL(pg.stats.sent, 500);
        CU_ASSERT_EQUAL(pg.stats.reclaimed, 500);
        CU_ASSERT_EQUAL_FATAL(d->nframes, 500);
        for (unsigned k = 0; k < 500; k++)
            CU_ASSERT_EQUAL(rd32(d->frames[k].data + 42), k);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 500);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 500);
        CU_ASSERT_EQUAL(d->nic_errors, 0);
        stop();
    }
}

static void test_duration_termination(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 0;
    o.duration_ns = 100000;
    d = NULL;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    fake_cost_set(d, "pktgen_pkt", 1000);
    uint64_t t0 = d->now_ns;
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 100);     /* one packet per microsecond */
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 100);
    CU_ASSERT(d->now_ns - t0 >= 100000);
    stop();

    /* with bursts the check is per burst: the last burst completes */
    o.burst = 8;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    fake_cost_set(d, "pktgen_pkt", 1000);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 104);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 13);
    stop();

    /* count and duration: whichever comes first */
    o.burst = 1;
    o.count = 30;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_TDT), 0);
    fake_cost_set(d, "pktgen_pkt", 1000);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 30);
    stop();
}

static void test_drain_timeout(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 10;
    o.burst = 4;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_MANUAL), 0);   /* the NIC never sends */
    unsigned steps = run();
    CU_ASSERT(steps < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 10);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 0);
    CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 1);
    CU_ASSERT(d->log_msgs >= 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d->last_log, "not reclaimed"));
    CU_ASSERT(d->now_ns >= o.drain_timeout_ns);
    CU_ASSERT(pg.stats.irq_timeouts > 0);
    /* every packet was handed to the NIC */
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), 10);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 3);
    stop();
}

static void test_small_pool(void)
{
    /* a pool smaller than the ring: waits on the pool like on the ring */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 200;
    o.burst = 8;
    o.pool_size = 10;
    CU_ASSERT_EQUAL_FATAL(start(&o, 256, FAKE_NIC_ON_IRQ_WAIT), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 200);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 200);
    CU_ASSERT_EQUAL_FATAL(d->nframes, 200);
    for (unsigned k = 0; k < 200; k++)
        CU_ASSERT_EQUAL(rd32(d->frames[k].data + 42), k);
    stop();
}

static void test_params(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.size = 63;
    CU_ASSERT_EQUAL(start(&o, 256, FAKE_NIC_ON_TDT), E1000_ERR_PARAM);
    stop();
    o.size = 1519;
    CU_ASSERT_EQUAL(start(&o, 256, FAKE_NIC_ON_TDT), E1000_ERR_PARAM);
    stop();
    o.size = 64;
    o.burst = 0;
    CU_ASSERT_EQUAL(start(&o, 256, FAKE_NIC_ON_TDT), E1000_ERR_PARAM);
    stop();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Pktgen", NULL, NULL);
    CU_add_test(s, "FrameBytes", test_frame_bytes);
    CU_add_test(s, "CloneIdentical", test_clone_identical);
    CU_add_test(s, "PoolCosts", test_pool_costs);
    CU_add_test(s, "BurstTdtWrites", test_burst_tdt_writes);
    CU_add_test(s, "CountTermination", test_count_termination);
    CU_add_test(s, "BurstWithRingFull", test_burst_with_ring_full);
    CU_add_test(s, "DurationTermination", test_duration_termination);
    CU_add_test(s, "DrainTimeout", test_drain_timeout);
    CU_add_test(s, "SmallPool", test_small_pool);
    CU_add_test(s, "Params", test_params);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
