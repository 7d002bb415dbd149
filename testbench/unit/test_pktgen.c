/* Unit tests of the pktgen app over the fake platform, on both driver
 * cores through their bindings (struct nic_txq_ops).  On the e1000 TX
 * queue: frame bytes, clone mode, named costs, burst tail writes, count and
 * duration termination, full-ring waits and the final drain.  On the ixgbe
 * TX queue (the fake's 82599 personality): the same, plus the clean
 * threshold, reclaim only in the NAPI poll, masked interrupts, head
 * write-back, a held buffer at the drain, and the bindings themselves. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_tx.h"
#include "../../driver/ixgbe/ixgbe_napi.h"
#include "../../driver/apps/pktgen.h"
#include "../../driver/port/port_e1000.h"
#include "../../driver/port/port_ixgbe.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define MAX_STEPS 1000000u

static struct plat_dev *d;
static struct e1000_dev dev;
static struct e1000_txq q;
static struct pktgen pg;
static struct nic_txq_ops tx;
/* the ixgbe side: device, queue, its index, and whether it is in use */
static struct ixgbe_dev xdev;
static struct ixgbe_txq xq;
static unsigned xn;
static int on_ixgbe;

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
    on_ixgbe = 0;
    port_e1000_txq_ops(&tx, &q);
    return pktgen_init(&pg, d, &tx, po);
}

/* The same on the fake 82599: queue n with options to (NULL = defaults),
 * its interrupt cause unmasked when irq_on (ixgbe_dev_init leaves every
 * cause masked), the NIC engine in mode from the first pktgen access on. */
static int start_ix(const struct pktgen_opts *po, const struct ixgbe_tx_opts *to, unsigned n,
                    enum fake_nic_mode mode, int irq_on)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_ix_enable(d);
    on_ixgbe = 1;
    xn = n;
    struct ixgbe_dev_opts dopts;
    ixgbe_dev_default_opts(&dopts);
    dopts.reset_settle_ns = 0;
    if (ixgbe_dev_init(&xdev, d, &dopts) != 0)
        return -100;
    if (ixgbe_txq_setup(&xq, &xdev, n, to) != 0)
        return -101;
    if (irq_on)
        ixgbe_irq_enable(&xdev, 1u << n);   /* the fake's engine raises EICR bit n */
    d->nic_mode = mode;
    fake_log_clear(d);
    port_ixgbe_txq_ops(&tx, &xq);
    return pktgen_init(&pg, d, &tx, po);
}

/* An ixgbe queue of ring descriptors with the other options at their defaults. */
static int start_ix_ring(const struct pktgen_opts *po, uint32_t ring, unsigned n,
                         enum fake_nic_mode mode, int irq_on)
{
    struct ixgbe_tx_opts to;
    ixgbe_tx_default_opts(&to);
    to.ring_size = ring;
    return start_ix(po, &to, n, mode, irq_on);
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
    if (xq.slot)
        ixgbe_txq_teardown(&xq, NULL, NULL);
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

/* ---- the bindings ------------------------------------------------------- */

static unsigned busy_xmit_calls;
static int busy_xmit(void *qq, uint64_t bus, uint32_t len, void *cookie, int more)
{
    (void)qq; (void)bus; (void)len; (void)cookie; (void)more;
    busy_xmit_calls++;
    return PKTGEN_ERR_BUSY;
}

static void test_bind(void)
{
    /* e1000: the table forwards to the queue and copies its numbers */
    struct e1000_tx_opts eo;
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    e1000_tx_default_opts(&eo);
    eo.ring_size = 64;
    eo.clean_thresh = 20;
    eo.max_frame_len = 1000;
    CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&q, &dev, &eo), 0);
    port_e1000_txq_ops(&tx, &q);
    CU_ASSERT_PTR_EQUAL(tx.q, &q);
    CU_ASSERT_EQUAL(tx.clean_thresh, 20);
    CU_ASSERT_EQUAL(tx.ring_size, 64);
    CU_ASSERT_EQUAL(tx.max_frame_len, 1000);
    CU_ASSERT_EQUAL(tx.free_descs(tx.q), e1000_tx_free_descs(&q));
    CU_ASSERT_EQUAL(tx.tdt_writes(tx.q), 0);
    uint64_t bus;
    CU_ASSERT_PTR_NOT_NULL_FATAL(plat_dma_alloc(d, 2048, 64, &bus));
    CU_ASSERT_EQUAL(tx.xmit(tx.q, bus, 60, (void *)1, 0), 0);
    CU_ASSERT_EQUAL(q.stats.packets, 1);
    CU_ASSERT_EQUAL(tx.tdt_writes(tx.q), 1);
    CU_ASSERT_EQUAL(tx.xmit(tx.q, bus, 1001, (void *)2, 0), E1000_ERR_PARAM);
    fake_log_clear(d);
    tx.irq_handle(tx.q);                        /* the ICR read, nothing else */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_ICR), 1);
    CU_ASSERT_EQUAL(d->log_n, 1);
    /* a size the queue does not take */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.size = 1005;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &tx, &o), PKTGEN_ERR_PARAM);
    o.size = 1004;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &tx, &o), 0);
    CU_ASSERT_EQUAL(pg.pool_n, 64);             /* the bound ring's size */
    pktgen_fini(&pg);
    stop();

    /* ixgbe, on queue 5 */
    struct ixgbe_tx_opts xo;
    ixgbe_tx_default_opts(&xo);
    xo.ring_size = 128;
    xo.clean_thresh = 40;
    xo.max_frame_len = 900;
    pktgen_default_opts(&o);
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, &xo, 5, FAKE_NIC_MANUAL, 1), 0);
    CU_ASSERT_PTR_EQUAL(tx.q, &xq);
    CU_ASSERT_EQUAL(tx.clean_thresh, 40);
    CU_ASSERT_EQUAL(tx.ring_size, 128);
    CU_ASSERT_EQUAL(tx.max_frame_len, 900);
    CU_ASSERT_EQUAL(pg.pool_n, 128);
    CU_ASSERT_EQUAL(tx.free_descs(tx.q), 127);
    CU_ASSERT_EQUAL(tx.xmit(tx.q, pg.pool[0].bus, 60, (void *)1, 1), 0);
    CU_ASSERT_EQUAL(tx.tdt_writes(tx.q), 0);    /* more = 1: the tail waits */
    tx.flush(tx.q);
    CU_ASSERT_EQUAL(tx.tdt_writes(tx.q), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(5)), 1);
    CU_ASSERT_EQUAL(fake_ix_tx_run(d, 5, ~0u), 1);
    CU_ASSERT_EQUAL(tx.clean(tx.q, NULL, NULL), 1);
    fake_log_clear(d);
    tx.irq_handle(tx.q);                        /* the EICR read, which clears it */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EICR), 1);
    CU_ASSERT_EQUAL(d->log_n, 1);
    CU_ASSERT_EQUAL(xdev.irqs, 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EICR), 0);
    pktgen_fini(&pg);
    o.size = 905;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &tx, &o), PKTGEN_ERR_PARAM);

    /* an incomplete table, or one bound before the queue's setup */
    o.size = 64;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, NULL, &o), PKTGEN_ERR_PARAM);
    CU_ASSERT_EQUAL(pktgen_step(&pg), 0);       /* a failed init is safe to step */
    struct nic_txq_ops bad = tx;
    bad.irq_handle = NULL;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &bad, &o), PKTGEN_ERR_PARAM);
    bad = tx;
    bad.q = NULL;
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &bad, &o), PKTGEN_ERR_PARAM);
    port_ixgbe_txq_ops(&bad, NULL);
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &bad, &o), PKTGEN_ERR_PARAM);
    struct ixgbe_txq unset;
    memset(&unset, 0, sizeof unset);
    port_ixgbe_txq_ops(&bad, &unset);
    CU_ASSERT_EQUAL(bad.ring_size, 0);
    CU_ASSERT_EQUAL(pktgen_init(&pg, d, &bad, &o), PKTGEN_ERR_PARAM);

    /* an xmit that is always busy: the table's result is what pktgen acts on */
    CU_ASSERT_EQUAL_FATAL(pktgen_init(&pg, d, &tx, &o), 0);
    bad = tx;
    bad.xmit = busy_xmit;
    pktgen_fini(&pg);
    CU_ASSERT_EQUAL_FATAL(pktgen_init(&pg, d, &bad, &o), 0);
    busy_xmit_calls = 0;
    CU_ASSERT_EQUAL(pktgen_step(&pg), 1);
    CU_ASSERT_EQUAL(busy_xmit_calls, 1);
    CU_ASSERT_EQUAL(pg.stats.sent, 0);
    CU_ASSERT_EQUAL(pg.stats.ring_full, 1);
    CU_ASSERT_PTR_NOT_NULL(pg.held);            /* kept for the next try */
    stop();
}

/* ---- pktgen on the ixgbe TX queue ---------------------------------------- */

static void test_ix_frame_bytes(void)
{
    static const uint32_t sizes[] = { 64, 65, 128, 1518 };
    for (unsigned s = 0; s < 4; s++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 5;
        o.size = sizes[s];
        o.src_ip = 0xC0A80101u;
        o.dst_ip = 0xC0A80202u;
        o.src_port = 1234;
        o.dst_port = 5678;
        CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_TDT, 1), 0);
        CU_ASSERT(run() < MAX_STEPS);
        CU_ASSERT_EQUAL_FATAL(d->nframes, 5);
        for (unsigned k = 0; k < 5; k++) {
            check_frame(&d->frames[k], &o, k);
            CU_ASSERT_EQUAL(d->frames[k].ndesc, 1);
            CU_ASSERT(d->frames[k].cmd_last & IXGBE_TXD_CMD_IFCS);
            CU_ASSERT_EQUAL(d->frames[k].bus_first, pg.pool[k].bus);
        }
        CU_ASSERT_EQUAL(d->nic_errors, 0);       /* DEXT, IFCS, PAYLEN as the 82599 wants */
        CU_ASSERT_EQUAL(pg.stats.reclaimed, 5);
        CU_ASSERT_EQUAL(d->packets_counted, 5);
        stop();
    }
}

static void test_ix_burst_tdt_writes(void)
{
    /* one tail write per burst, at its last packet, with the descriptors of
     * the whole burst; on queue 3, so the binding must name the queue */
    static const unsigned bursts[] = { 1, 2, 7, 8, 32, 100 };
    for (unsigned i = 0; i < sizeof bursts / sizeof bursts[0]; i++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 100;
        o.burst = bursts[i];
        CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 3, FAKE_NIC_ON_TDT, 1), 0);
        CU_ASSERT(run() < MAX_STEPS);
        unsigned want = (100 + bursts[i] - 1) / bursts[i];
        CU_ASSERT_EQUAL(pg.stats.tdt_writes, want);
        CU_ASSERT_EQUAL(xq.stats.tdt_writes, want);
        CU_ASSERT_EQUAL(xq.stats.tdt_forced, 0);
        CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(3)), want);
        CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 0);
        for (unsigned k = 0; k < want; k++) {
            long at = fake_find(d, FAKE_W32, IXGBE_TDT(3), k);
            CU_ASSERT_FATAL(at >= 0);
            unsigned tail = (k + 1) * bursts[i] < 100 ? (k + 1) * bursts[i] : 100;
            CU_ASSERT_EQUAL(d->log[at].val, tail);
        }
        CU_ASSERT_EQUAL(pg.stats.sent, 100);
        CU_ASSERT_EQUAL(pg.stats.reclaimed, 100);
        CU_ASSERT_EQUAL(d->nframes, 100);
        CU_ASSERT_EQUAL(d->nic_errors, 0);
        stop();
    }
}

static void test_ix_clean_threshold(void)
{
    /* without reclaim_in_poll pktgen cleans before a burst exactly when
     * fewer than the queue's clean_thresh descriptors are free */
    struct ixgbe_tx_opts to;
    ixgbe_tx_default_opts(&to);
    to.ring_size = 64;
    to.clean_thresh = 24;
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 200;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, &to, 1, FAKE_NIC_ON_TDT, 1), 0);
    unsigned cleans = 0;
    while (pg.stats.sent < o.count) {
        unsigned free_before = ixgbe_tx_free_descs(&xq);
        uint64_t dd_before = xq.stats.dd_reads, rec_before = pg.stats.reclaimed;
        CU_ASSERT_EQUAL_FATAL(pktgen_step(&pg), 1);
        if (free_before < 24) {
            cleans++;
            CU_ASSERT(xq.stats.dd_reads > dd_before);
            CU_ASSERT_EQUAL(pg.stats.reclaimed - rec_before, 63 - free_before);
        } else {
            CU_ASSERT_EQUAL(xq.stats.dd_reads, dd_before);
            CU_ASSERT_EQUAL(pg.stats.reclaimed, rec_before);
        }
    }
    /* 63 - 23 = 40 packets per clean; the one after the 200th is the drain's */
    CU_ASSERT_EQUAL(cleans, 200 / 40 - 1);
    CU_ASSERT_EQUAL(pg.stats.ring_full, 0);
    CU_ASSERT_EQUAL(pg.stats.irqs + pg.stats.irq_timeouts, 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 200);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&xq), 0);
    stop();
}

/* The sequence numbers the fake NIC saw are 0..n-1 in order: no buffer was
 * reused while in flight and no packet was lost or repeated. */
static void check_sequence(unsigned n)
{
    CU_ASSERT_EQUAL_FATAL(d->nframes, n);
    unsigned bad = 0;
    for (unsigned k = 0; k < n; k++)
        bad += rd32(d->frames[k].data + 42) != k;
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_ix_ring_full(void)
{
    /* a 64-descriptor ring and a NIC that sends only while the CPU waits:
     * every burst size meets the full ring, with and without more */
    static const unsigned bursts[] = { 1, 3, 16, 64 };
    for (unsigned i = 0; i < 4; i++) {
        struct pktgen_opts o;
        pktgen_default_opts(&o);
        o.count = 1000;
        o.burst = bursts[i];
        CU_ASSERT_EQUAL_FATAL(start_ix_ring(&o, 64, 2, FAKE_NIC_ON_IRQ_WAIT, 1), 0);
        CU_ASSERT(run() < MAX_STEPS);
        CU_ASSERT_EQUAL(pg.stats.sent, 1000);
        CU_ASSERT_EQUAL(pg.stats.reclaimed, 1000);
        CU_ASSERT(pg.stats.ring_full > 0);
        CU_ASSERT(pg.stats.irqs > 0);
        CU_ASSERT_EQUAL(pg.stats.irq_timeouts, 0);
        CU_ASSERT_EQUAL(xdev.irqs, pg.stats.irqs);
        CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EICR), pg.stats.irqs);
        CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 0);
        CU_ASSERT_EQUAL(pg.stats.tdt_writes, xq.stats.tdt_writes);
        CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), pg.stats.tdt_writes);
        CU_ASSERT_EQUAL(ixgbe_tx_in_use(&xq), 0);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 1000);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 1000);
        CU_ASSERT_EQUAL(fake_cost_count(d, "pktgen_pkt"), 1000);
        CU_ASSERT_EQUAL(d->nic_errors, 0);
        check_sequence(1000);
        if (bursts[i] == 64)    /* longer than the ring: the core writes the tail itself */
            CU_ASSERT(xq.stats.tdt_forced > 0);
        CU_ASSERT_EQUAL(pktgen_step(&pg), 0);    /* stays done */
        stop();
    }
}

static void test_ix_masked_irq(void)
{
    /* the queue's cause left masked: every wait times out, and pktgen,
     * cleaning itself, still gets everything through */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 300;
    o.burst = 8;
    CU_ASSERT_EQUAL_FATAL(start_ix_ring(&o, 64, 0, FAKE_NIC_ON_IRQ_WAIT, 0), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 300);
    CU_ASSERT_EQUAL(pg.stats.irqs, 0);
    CU_ASSERT(pg.stats.irq_timeouts > 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EICR), 0);
    CU_ASSERT(d->now_ns >= pg.stats.irq_timeouts * o.irq_wait_ns);
    check_sequence(300);
    stop();
}

/* A NIC that sends only at every 16th interrupt wait of queue 4: with
 * reclaim_in_poll pktgen looks for an interrupt between every two bursts,
 * and a NIC that sent at each look would never let the ring fill. */
static unsigned hook_waits;
static void send_now_and_then(struct plat_dev *p, void *arg)
{
    (void)arg;
    if (++hook_waits % 16 == 0)
        fake_ix_tx_run(p, 4, ~0u);
}

static void test_ix_reclaim_in_poll(void)
{
    /* reclaim_in_poll: every clean before the drain runs in the poll an
     * interrupt schedules, i.e. after an EICR read and before pktgen's next
     * tail write */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 500;
    o.burst = 8;
    o.reclaim_in_poll = 1;
    CU_ASSERT_EQUAL_FATAL(start_ix_ring(&o, 64, 4, FAKE_NIC_MANUAL, 1), 0);
    hook_waits = 0;
    d->irq_wait_hook = send_now_and_then;
    unsigned steps = 0;
    while (pg.stats.sent < o.count && steps++ < MAX_STEPS)
        CU_ASSERT_EQUAL_FATAL(pktgen_step(&pg), 1);
    CU_ASSERT(pg.stats.reclaimed > 0);
    unsigned outside = 0;
    int last_eicr = 0;              /* the latest of {EICR read, TDT write} was the read */
    for (size_t i = 0; i < d->log_n; i++) {
        const struct fake_access *a = &d->log[i];
        if (a->kind == FAKE_R32 && a->reg == IXGBE_EICR)
            last_eicr = 1;
        else if (a->kind == FAKE_W32 && a->reg == IXGBE_TDT(4))
            last_eicr = 0;
        else if (a->kind == FAKE_MEMR)
            outside += !last_eicr;
    }
    CU_ASSERT_EQUAL(outside, 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 500);
    CU_ASSERT(pg.stats.irqs > 0);
    CU_ASSERT_EQUAL(xdev.irqs, pg.stats.irqs);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EICR), pg.stats.irqs);
    /* a poll is at least one round per interrupt, one more per round
     * that reclaimed something */
    CU_ASSERT(fake_cost_count(d, "napi_poll") > pg.stats.irqs);
    CU_ASSERT(pg.stats.ring_full > 0);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&xq), 0);
    check_sequence(500);
    stop();
}

static void test_ix_head_write_back(void)
{
    /* the core's other reclaim method: the head index the NIC writes */
    struct ixgbe_tx_opts to;
    ixgbe_tx_default_opts(&to);
    to.ring_size = 64;
    to.head_wb = 1;
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 1000;
    o.burst = 4;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, &to, 6, FAKE_NIC_ON_IRQ_WAIT, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 1000);
    CU_ASSERT(xq.stats.head_reads > 0);
    CU_ASSERT_EQUAL(xq.stats.dd_reads, 0);
    CU_ASSERT(d->ix.head_wbs > 0);
    CU_ASSERT_EQUAL(d->ix.tx_wb, 0);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    check_sequence(1000);
    stop();
}

static void test_ix_clone(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 20;
    o.burst = 4;
    o.clone = 1;
    o.size = 100;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_TDT, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL_FATAL(d->nframes, 20);
    for (unsigned k = 0; k < 20; k++) {
        check_frame(&d->frames[k], &o, 0);
        CU_ASSERT_EQUAL(d->frames[k].bus_first, pg.clone_buf.bus);
    }
    CU_ASSERT_EQUAL(d->copy_to_bytes, 96);       /* built once */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "pktgen_pkt"), 20);
    CU_ASSERT_EQUAL(d->packets_counted, 20);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 5);
    CU_ASSERT_EQUAL(pg.stats.sent, 20);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 20);
    stop();

    /* clone and a full ring: the same buffer is simply offered again */
    o.count = 500;
    o.burst = 16;
    CU_ASSERT_EQUAL_FATAL(start_ix_ring(&o, 64, 0, FAKE_NIC_ON_IRQ_WAIT, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 500);
    CU_ASSERT(pg.stats.ring_full > 0);
    CU_ASSERT_EQUAL(d->nframes, 500);
    CU_ASSERT_EQUAL(d->copy_to_bytes, 96);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 0);
    stop();
}

static void test_ix_pool(void)
{
    /* a pool as large as the ring: one alloc and one free per packet */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 50;
    o.burst = 5;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_TDT, 1), 0);
    CU_ASSERT_EQUAL(pg.pool_n, 512);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(fake_cost_count(d, "pktgen_pkt"), 50);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 50);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 50);
    CU_ASSERT_EQUAL(d->packets_counted, 50);
    CU_ASSERT_EQUAL(d->copy_to_bytes, 50 * 60);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 50);
    stop();

    /* a pool smaller than the ring: pktgen waits on the pool as on the ring */
    o.count = 200;
    o.burst = 8;
    o.pool_size = 10;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_IRQ_WAIT, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 200);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 200);
    CU_ASSERT(pg.stats.ring_full > 0);
    CU_ASSERT(ixgbe_tx_in_use(&xq) == 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 200);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 200);
    check_sequence(200);
    stop();
}

static void test_ix_drain(void)
{
    /* everything is reclaimed in the drain: the NIC sends only while the
     * CPU waits, and the ring never gets below clean_thresh */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 10;
    o.burst = 4;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_IRQ_WAIT, 1), 0);
    CU_ASSERT_EQUAL(pktgen_step(&pg), 1);
    CU_ASSERT_EQUAL(pktgen_step(&pg), 1);
    CU_ASSERT_EQUAL(pktgen_step(&pg), 1);
    CU_ASSERT_EQUAL(pg.stats.sent, 10);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 0);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 3);     /* the count's end closes the last burst */
    CU_ASSERT_EQUAL(pktgen_step(&pg), 0);        /* drain: one wait, one interrupt */
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 10);
    CU_ASSERT_EQUAL(pg.stats.irqs, 1);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 3);     /* nothing left for the flush */
    CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 0);
    stop();

    /* a NIC that never sends: the drain gives up after drain_timeout_ns */
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_MANUAL, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 10);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 0);
    CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d->last_log, "not reclaimed"));
    CU_ASSERT(d->now_ns >= o.drain_timeout_ns);
    CU_ASSERT(pg.stats.irq_timeouts > 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 10);  /* every packet handed over */
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 3);
    stop();
}

static void test_ix_held_at_drain(void)
{
    /* the duration ends while a built packet waits for room: it goes back
     * to the pool unsent, and the drain does not wait for it */
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 0;
    o.duration_ns = 50000;
    o.burst = 64;
    o.drain_timeout_ns = 1000000;
    CU_ASSERT_EQUAL_FATAL(start_ix_ring(&o, 64, 0, FAKE_NIC_MANUAL, 1), 0);
    CU_ASSERT(run() < MAX_STEPS);
    /* 63 free; a packet needs its descriptor + 2 free, so 61 fit, and the
     * last of them writes the tail although more = 1 */
    CU_ASSERT_EQUAL(pg.stats.sent, 61);
    CU_ASSERT_EQUAL(xq.stats.tdt_forced, 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 61);
    CU_ASSERT(pg.stats.ring_full >= 1);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 62);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 1);  /* the held one */
    CU_ASSERT_PTR_NULL(pg.held);
    CU_ASSERT_EQUAL(pg.stats.drain_timeouts, 1);
    CU_ASSERT_EQUAL(d->packets_counted, 61);
    stop();
}

static void test_ix_duration(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 0;
    o.duration_ns = 100000;
    o.burst = 8;
    CU_ASSERT_EQUAL_FATAL(start_ix(&o, NULL, 0, FAKE_NIC_ON_TDT, 1), 0);
    fake_cost_set(d, "pktgen_pkt", 1000);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 104);         /* checked per burst */
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 104);
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, 13);
    stop();
}

/* The NIC catches up only while pktgen waits on a stopped queue (the wait
 * of the busy retry) or drains, so the driver's stop is reached every time. */
static struct ixgbe_napi xnapi;
static void complete_when_stopped(struct plat_dev *pd, void *arg)
{
    (void)arg;
    if (ixgbe_napi_stopped(&xnapi) || pg.state == PKTGEN_DRAIN)
        fake_ix_tx_run(pd, 0, ~0u);
}

/* A queue with the driver's own NAPI vector (ixgbe 3.18): pktgen never
 * cleans itself, a burst ends when the driver stops the queue (the
 * stopping packet writes the tail, the burst's other copies are dropped),
 * pktgen retries until the poll wakes the queue, every packet is reclaimed
 * by the polls, and an interrupt is taken only as a message. */
static void test_ix_driver_napi(void)
{
    struct pktgen_opts o;
    pktgen_default_opts(&o);
    o.count = 2000;
    o.burst = 4;
    o.clone = 1;
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_ix_enable(d);
    on_ixgbe = 1;
    xn = 0;
    struct ixgbe_dev_opts dopts;
    ixgbe_dev_default_opts(&dopts);
    dopts.reset_settle_ns = 0;
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&xdev, d, &dopts), 0);
    struct ixgbe_napi_opts no;
    ixgbe_napi_default_opts(&no);
    struct ixgbe_tx_opts to;
    ixgbe_tx_default_opts(&to);
    CU_ASSERT_EQUAL_FATAL(ixgbe_napi_wthresh(&no, &to.wthresh), 0);
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&xq, &xdev, 0, &to), 0);
    CU_ASSERT_EQUAL_FATAL(ixgbe_napi_init(&xnapi, &xdev, &xq, &no), 0);
    d->nic_mode = FAKE_NIC_MANUAL;
    d->irq_wait_hook = complete_when_stopped;
    fake_log_clear(d);
    port_ixgbe_napi_txq_ops(&tx, &xnapi);
    CU_ASSERT_EQUAL_FATAL(pktgen_init(&pg, d, &tx, &o), 0);
    CU_ASSERT(run() < MAX_STEPS);
    CU_ASSERT_EQUAL(pg.stats.sent, 2000);
    CU_ASSERT_EQUAL(pg.stats.reclaimed, 2000);
    CU_ASSERT_EQUAL(xnapi.stats.tx_cleaned, 2000);          /* only the polls reclaimed */
    CU_ASSERT_EQUAL(xq.stats.reclaimed, 2000);
    CU_ASSERT_EQUAL(d->nframes, 2000);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    /* 512 ring: stops after 491 packets in flight, in the 123rd burst */
    CU_ASSERT(xnapi.stats.stops >= 4);
    CU_ASSERT_EQUAL(xnapi.stats.wakes, xnapi.stats.stops);
    CU_ASSERT_EQUAL(xnapi.stats.busy, 0);
    /* the burst ends at the stop: pktgen never hands a stopped queue a
     * packet (here the interrupt is pending already when it looks again) */
    CU_ASSERT_EQUAL(pg.stats.ring_full, 0);
    CU_ASSERT_EQUAL(xnapi.stats.irqs, pg.stats.irqs);
    CU_ASSERT(xnapi.stats.full_polls > 0);                  /* 491 done: 256 + the rest */
    CU_ASSERT_EQUAL(xnapi.stats.completes, xnapi.stats.irqs);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EICR), 0); /* the handler reads nothing */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_EIMS), xnapi.stats.completes);
    /* tails: one per burst that ran to its end, one per stop; a stop
     * mid-burst drops the burst's rest, so more than 2000 / 4 writes */
    CU_ASSERT_EQUAL(pg.stats.tdt_writes, fake_count(d, FAKE_W32, IXGBE_TDT(0)));
    CU_ASSERT(pg.stats.tdt_writes > 500 && pg.stats.tdt_writes <= 500 + xnapi.stats.stops);
    CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), xnapi.stats.polls);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&xq), 0);
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
    CU_add_test(s, "Bind", test_bind);
    CU_add_test(s, "IxgbeFrameBytes", test_ix_frame_bytes);
    CU_add_test(s, "IxgbeBurstTdtWrites", test_ix_burst_tdt_writes);
    CU_add_test(s, "IxgbeCleanThreshold", test_ix_clean_threshold);
    CU_add_test(s, "IxgbeRingFull", test_ix_ring_full);
    CU_add_test(s, "IxgbeMaskedIrq", test_ix_masked_irq);
    CU_add_test(s, "IxgbeReclaimInPoll", test_ix_reclaim_in_poll);
    CU_add_test(s, "IxgbeHeadWriteBack", test_ix_head_write_back);
    CU_add_test(s, "IxgbeClone", test_ix_clone);
    CU_add_test(s, "IxgbePool", test_ix_pool);
    CU_add_test(s, "IxgbeDrain", test_ix_drain);
    CU_add_test(s, "IxgbeHeldAtDrain", test_ix_held_at_drain);
    CU_add_test(s, "IxgbeDuration", test_ix_duration);
    CU_add_test(s, "IxgbeDriverNapi", test_ix_driver_napi);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
