/* Unit tests of the ixgbe (82599) RX queue over the 82599 fake of
 * plat_fake.h: set-up order (SRRCTL, ring, buffers, ENABLE read-back, RDT
 * = N - 1) and its timeout, the advanced write-back (DD, EOP, RXE and the
 * errors passed on, PKT_LEN with and without CRC stripping), copybreak
 * threshold and buffer reuse, RDT batching, the prefetch points' addresses
 * and order, the re-post of both qwords after a write-back, wrap-around
 * and teardown; and one frame forwarded from an ixgbe RX queue to an
 * ixgbe TX queue of a sibling port. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_rx.h"
#include "../../driver/ixgbe/ixgbe_tx.h"

static struct plat_dev *d;
static struct ixgbe_dev dev;
static struct ixgbe_rxq q;
static unsigned qn;             /* the queue under test */

/* ---- what deliver() saw ------------------------------------------------- */
#define MAX_SEEN 4096
struct seen {
    struct ixgbe_rx_pkt pkt;
    size_t log_pos;             /* d->log_n when deliver ran */
    uint8_t head[64];           /* first bytes of the frame, read directly */
};
static struct seen seen[MAX_SEEN];
static unsigned nseen;
static int hold;                /* 1 = keep the packets (free later) */

static void deliver_cb(void *arg, struct ixgbe_rx_pkt *pkt)
{
    struct plat_dev *pd = arg;
    if (nseen < MAX_SEEN) {
        struct seen *s = &seen[nseen];
        s->pkt = *pkt;
        s->log_pos = pd->log_n;
        memcpy(s->head, pkt->data, pkt->len < 64 ? pkt->len : 64);
    }
    nseen++;
    if (!hold)
        ixgbe_rx_pkt_free(pd, pkt->cookie);
}

static void free_held(void)
{
    for (unsigned i = 0; i < nseen && i < MAX_SEEN; i++)
        ixgbe_rx_pkt_free(d, seen[i].pkt.cookie);
    nseen = 0;
}

static struct plat_dev *new_dev(void)
{
    struct plat_dev *p = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fake_ix_enable(p);
    return p;
}

static int dev_up(int crc_strip)
{
    struct ixgbe_dev_opts o;
    ixgbe_dev_default_opts(&o);
    o.reset_settle_ns = 0;
    o.crc_strip = (uint8_t)crc_strip;
    return ixgbe_dev_init(&dev, d, &o);
}

static int bring_up_q(const struct ixgbe_rx_opts *o, unsigned n, int crc_strip)
{
    d = new_dev();
    nseen = 0;
    hold = 0;
    qn = n;
    if (dev_up(crc_strip) != 0)
        return -100;
    int rc = ixgbe_rxq_setup(&q, &dev, n, o, NULL);
    fake_log_clear(d);
    return rc;
}

static int bring_up(const struct ixgbe_rx_opts *o)
{
    return bring_up_q(o, 0, 1);
}

static void take_down(void)
{
    if (q.rx.slot)
        ixgbe_rxq_teardown(&q);
    fake_destroy(d);
    d = NULL;
}

/* A frame whose bytes depend on (len, seed). */
static uint8_t frame_buf[4096];
static const uint8_t *make_frame(uint32_t len, uint32_t seed)
{
    for (uint32_t i = 0; i < len; i++)
        frame_buf[i] = (uint8_t)(i * 31u + seed * 7u + (i >> 8));
    return frame_buf;
}

static void inject(uint32_t len, uint32_t seed)
{
    CU_ASSERT_FATAL(fake_ix_rx(d, qn, make_frame(len, seed), len, 0) > 0);
}

static size_t count_w32(uint32_t reg)
{
    return fake_count(d, FAKE_W32, reg);
}

/* ---- set-up ------------------------------------------------------------- */

static void setup_on(unsigned n)
{
    d = new_dev();
    qn = n;
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    fake_reg_set(d, IXGBE_DCA_RXCTRL(n), IXGBE_DCA_RXCTRL_RSVD12 | 0x20u);   /* reset value + */
    fake_log_clear(d);
    d->ix.qen_reads = 2;
    CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&q, &dev, n, NULL, NULL), 0);
    /* SRRCTL: BSIZEPKT 2 (KB) | DESCTYPE 001 (advanced one-buffer) | DROP_EN */
    const uint32_t srrctl = 2u | 1u << 25 | 1u << 28;
    struct { uint32_t reg, val; } want[] = {
        { 0x2100u + 4u * n, srrctl },
        { 0x2200u + 4u * n, 0x20u },                            /* bit 12 cleared */
        { 0x1000u + 0x40u * n, (uint32_t)q.ring_bus },          /* RDBAL */
        { 0x1004u + 0x40u * n, (uint32_t)(q.ring_bus >> 32) },  /* RDBAH */
        { 0x1008u + 0x40u * n, 512 * 16 },                      /* RDLEN */
        { 0x1010u + 0x40u * n, 0 }, { 0x1018u + 0x40u * n, 0 }, /* RDH, RDT */
        { 0x1028u + 0x40u * n, 1u << 25 },                      /* RXDCTL.ENABLE */
        { 0x1018u + 0x40u * n, 511 },                           /* RDT = N - 1 */
    };
    size_t nw = 0;
    long w_en = -1, w_rdt = -1;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32)
            continue;
        CU_ASSERT_FATAL(nw < sizeof want / sizeof want[0]);
        CU_ASSERT_EQUAL(d->log[i].reg, want[nw].reg);
        CU_ASSERT_EQUAL(d->log[i].val, want[nw].val);
        if (nw == 7)
            w_en = (long)i;
        if (nw == 8)
            w_rdt = (long)i;
        nw++;
    }
    CU_ASSERT_EQUAL(nw, sizeof want / sizeof want[0]);
    CU_ASSERT_FATAL(w_en > 0 && w_rdt > w_en);
    /* DCA_RXCTRL was read-modify-written */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_DCA_RXCTRL(n)), 1);
    /* the descriptors are written before the enable; ENABLE is polled (2
     * reads without, one with) before the tail; the tail after a barrier */
    for (size_t i = (size_t)w_en; i < d->log_n; i++)
        CU_ASSERT_NOT_EQUAL(d->log[i].kind, FAKE_MEMW);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_RXDCTL(n)), 3);
    long last_poll = -1;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == FAKE_R32 && d->log[i].reg == IXGBE_RXDCTL(n))
            last_poll = (long)i;
    CU_ASSERT(last_poll > w_en && last_poll < w_rdt);
    CU_ASSERT_EQUAL(d->log[last_poll].val, IXGBE_RXDCTL_ENABLE);
    CU_ASSERT_EQUAL(d->log[w_rdt - 1].kind, FAKE_WMB);
    CU_ASSERT_EQUAL(q.ring_bus >> 32, 1);
    CU_ASSERT_EQUAL(q.ring_bus % 4096, 0);
    /* 511 buffers posted in the read format: QW0 the buffer (even, 18 into
     * a 4 KB object), QW1 the header address 0; the last slot empty */
    for (unsigned i = 0; i < 512; i++) {
        CU_ASSERT_EQUAL(q.ring[i].hdr_addr, 0);
        if (i == 511) {
            CU_ASSERT_EQUAL(q.ring[i].pkt_addr, 0);
            CU_ASSERT_PTR_NULL(q.rx.slot[i]);
            continue;
        }
        uint64_t a = q.ring[i].pkt_addr;
        CU_ASSERT_EQUAL(a % 4096, PKTBUF_HEADROOM);
        CU_ASSERT_EQUAL(a & 1, 0);
        CU_ASSERT_EQUAL(a, q.rx.slot[i]->bus);
        if (i)
            CU_ASSERT_NOT_EQUAL(a, q.ring[i - 1].pkt_addr);
    }
    CU_ASSERT_EQUAL(d->mem_writes, 2 * 511);
    CU_ASSERT_EQUAL(q.rx.posted, 511);
    CU_ASSERT_EQUAL(q.rx.next_to_use, 511);
    CU_ASSERT_EQUAL(q.rx.rdt, 511);
    CU_ASSERT_EQUAL(ixgbe_rx_nic_owned(&q), 511);
    CU_ASSERT_EQUAL(fake_ix_rx_avail(d, n), 511);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 511);
    /* each allocation wrote its sk_buff, each posting its rx_buffer entry */
    CU_ASSERT_EQUAL(d->touches, 511 + 511);
    CU_ASSERT_EQUAL(d->touch_bytes, 511 * (PKTBUF_ALLOC_TOUCH + IXGBE_RX_BUFFER_INFO_BYTES));
    CU_ASSERT_EQUAL(q.rx.stats.rdt_writes, 1);
    CU_ASSERT_EQUAL(q.rx.fcs, 0);                   /* the NIC strips the CRC */
    take_down();
}

static void test_setup_sequence(void)
{
    setup_on(0);
    setup_on(5);

    /* DROP_EN off, smaller ring */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    CU_ASSERT_EQUAL(o.ring_size, 512);
    CU_ASSERT_EQUAL(o.copybreak, 256);
    CU_ASSERT_EQUAL(o.rdt_batch, 16);
    CU_ASSERT_EQUAL(o.drop_en, 1);
    CU_ASSERT(!o.prefetch_next_desc && !o.prefetch_cur_hdr && !o.prefetch_next_hdr);
    o.drop_en = 0;
    o.ring_size = 64;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_SRRCTL(0)), 0x02000002u);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDLEN(0)), 64 * 16);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDT(0)), 63);
    take_down();
}

static void test_enable_timeout(void)
{
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    d->ix.qen_reads = -1;
    fake_log_clear(d);
    uint64_t t0 = d->now_ns;
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, NULL, NULL), IXGBE_ERR_QUEUE);
    CU_ASSERT(d->now_ns - t0 >= 10000000ull && d->now_ns - t0 <= 10000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_RXDCTL(0)) < 64);
    long w = fake_find(d, FAKE_W32, IXGBE_RXDCTL(0), 1);
    CU_ASSERT_FATAL(w >= 0);
    CU_ASSERT_EQUAL(d->log[w].val, 0);              /* the request withdrawn */
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 1);    /* only the RDT = 0 of the set-up */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 511);   /* buffers returned */
    CU_ASSERT_PTR_NULL(q.rx.slot);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

static void test_params(void)
{
    struct ixgbe_rx_opts o;
    static const uint32_t bad_rings[] = { 0, 32, 100, 768, 8192 };
    for (unsigned i = 0; i < sizeof bad_rings / sizeof bad_rings[0]; i++) {
        ixgbe_rx_default_opts(&o);
        o.ring_size = bad_rings[i];
        CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
        CU_ASSERT_EQUAL(d->log_n, 0);
        take_down();
    }
    ixgbe_rx_default_opts(&o);
    o.copybreak = 2049;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_rx_default_opts(&o);
    o.rdt_batch = 0;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_rx_default_opts(&o);
    o.rdt_batch = 512;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_rx_default_opts(&o);
    o.rdt_batch = 511;                              /* the largest that cannot stall */
    CU_ASSERT_EQUAL(bring_up(&o), 0);
    take_down();
    ixgbe_rx_default_opts(&o);
    o.prefetch_next_hdr = 2;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    CU_ASSERT_EQUAL(bring_up_q(NULL, 16, 1), IXGBE_ERR_PARAM);   /* beyond SRRCTL's 16 */
    take_down();
    CU_ASSERT_EQUAL(bring_up_q(NULL, 15, 1), 0);
    take_down();

    /* a shared pool must hold copybreak bytes */
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    struct pktbuf_pool pool;
    CU_ASSERT_EQUAL_FATAL(pktbuf_pool_init(&pool, d, 128, 0), 0);
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, NULL, &pool), IXGBE_ERR_PARAM);
    ixgbe_rx_default_opts(&o);
    o.copybreak = 128;
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, &o, &pool), 0);
    CU_ASSERT_PTR_EQUAL(q.rx.pool, &pool);
    CU_ASSERT_EQUAL(pool.in_use, 511);
    ixgbe_rxq_teardown(&q);
    CU_ASSERT_EQUAL(pool.in_use, 0);
    pktbuf_pool_fini(&pool);
    fake_destroy(d);

    /* no buffer at all: the queue cannot start */
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    fake_arena_seek(d, d->arena_size - 16384);      /* room for the ring only */
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, NULL, NULL), IXGBE_ERR_NOMEM);
    CU_ASSERT_PTR_NULL(q.rx.slot);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RXDCTL(0)), 0);
    fake_destroy(d);
}

/* ---- poll: order, DD, lengths ------------------------------------------- */

static void test_deliver_in_order(void)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    static const uint32_t lens[] = { 60, 100, 1514, 200, 61 };
    void *bufs[5];
    uint64_t buses[5];
    for (unsigned k = 0; k < 5; k++) {
        bufs[k] = q.rx.slot[k]->data;
        buses[k] = q.ring[k].pkt_addr;
        inject(lens[k], k);
        /* the write-back replaced the buffer address (RSS, packet type) */
        CU_ASSERT_EQUAL(q.ring[k].pkt_addr, IXGBE_RXDADV_PKTTYPE_IPV4 | (uint64_t)FAKE_IX_RSS << 32);
        CU_ASSERT_EQUAL(q.ring[k].hdr_addr, 0x3ull | (uint64_t)lens[k] << 32);   /* DD|EOP, PKT_LEN */
    }
    CU_ASSERT_EQUAL(d->rx_frames, 5);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL_FATAL(nseen, 5);
    for (unsigned k = 0; k < 5; k++) {
        CU_ASSERT_EQUAL(seen[k].pkt.len, lens[k]);
        CU_ASSERT_PTR_EQUAL(seen[k].pkt.data, bufs[k]);   /* from the driver's own record */
        CU_ASSERT_EQUAL(seen[k].pkt.bus, buses[k]);
        CU_ASSERT_EQUAL(seen[k].pkt.copied, 0);
        CU_ASSERT_EQUAL(seen[k].pkt.status, IXGBE_RXDADV_STAT_DD | IXGBE_RXDADV_STAT_EOP);
        CU_ASSERT_EQUAL(seen[k].pkt.errors, 0);
        CU_ASSERT(memcmp(seen[k].head, make_frame(lens[k], k), 60) == 0);
    }
    /* the upper qwords read in ring order, each DD followed by a read
     * barrier; the sixth read finds no DD and ends the poll; nothing else
     * of the descriptors was read */
    unsigned r = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_MEMR)
            continue;
        CU_ASSERT_EQUAL(d->log[i].addr, (uintptr_t)&q.ring[r].hdr_addr);
        if (r < 5) {
            CU_ASSERT((d->log[i].val64 & IXGBE_RXDADV_QW1_DD) != 0);
            CU_ASSERT_EQUAL(d->log[i + 1].kind, FAKE_RMB);
        } else {
            CU_ASSERT_EQUAL(d->log[i].val64, 0);
        }
        r++;
    }
    CU_ASSERT_EQUAL(r, 6);
    CU_ASSERT_EQUAL(q.rx.stats.dd_reads, 6);
    CU_ASSERT_EQUAL(q.rx.stats.packets, 5);
    CU_ASSERT_EQUAL(q.rx.stats.bytes, 60 + 100 + 1514 + 200 + 61);
    CU_ASSERT_EQUAL(q.rx.next_to_clean, 5);
    /* handed over: the top-up posted new buffers into 511 and 0..3 (5 slots),
     * both qwords each; 5 re-posted < 16: no tail write yet */
    CU_ASSERT_EQUAL(q.rx.stats.refills, 511 + 5);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 0);
    CU_ASSERT_EQUAL(q.rx.next_to_use, 4);
    CU_ASSERT_EQUAL(q.rx.posted, 511);
    CU_ASSERT_EQUAL(q.rx.since_rdt, 5);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 0);
    for (unsigned i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(q.ring[i].pkt_addr, q.rx.slot[i]->bus);
        CU_ASSERT_NOT_EQUAL(q.ring[i].pkt_addr, buses[i]);
        CU_ASSERT_EQUAL(q.ring[i].hdr_addr, 0);
    }
    CU_ASSERT_EQUAL(q.ring[511].pkt_addr, q.rx.slot[511]->bus);
    CU_ASSERT_EQUAL(d->copy_from_bytes, 0);         /* the driver read no packet bytes */
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(nseen, 5);
    take_down();
}

static void test_budget(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    for (unsigned k = 0; k < 10; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 4, deliver_cb, d), 4);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 4, deliver_cb, d), 4);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 4, deliver_cb, d), 2);
    CU_ASSERT_EQUAL(nseen, 10);
    CU_ASSERT_EQUAL(q.rx.stats.budget_used_up, 2);
    CU_ASSERT_EQUAL(q.rx.stats.polls, 3);
    CU_ASSERT_EQUAL(q.rx.stats.dd_reads, 4 + 4 + 3);   /* a full budget reads no extra qword */
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT(memcmp(seen[k].head, make_frame(60, k), 60) == 0);
    fake_log_clear(d);
    inject(60, 99);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 0, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);
    take_down();
}

/* ---- EOP, errors, FCS ----------------------------------------------------- */

static void test_multi_descriptor_dropped(void)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    uint64_t bus0 = q.ring[0].pkt_addr, bus1 = q.ring[1].pkt_addr;
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    /* a 3000-byte frame takes two 2 KB buffers: dropped whole */
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(3000, 1), 3000, 0), 2);
    CU_ASSERT_EQUAL(q.ring[0].hdr_addr, 0x1ull | 2048ull << 32);          /* DD, no EOP */
    CU_ASSERT_EQUAL(q.ring[1].hdr_addr, 0x3ull | (3000ull - 2048) << 32); /* DD | EOP */
    inject(60, 2);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    CU_ASSERT(memcmp(seen[0].head, make_frame(60, 2), 60) == 0);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 1);
    CU_ASSERT_EQUAL(q.rx.stats.descs, 3);
    /* the top-up re-posts 511 (new), 0 and 1 (the dropped frame's buffers,
     * with their addresses written again) */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc") - allocs, 1);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 2);
    CU_ASSERT_EQUAL(q.ring[0].pkt_addr, bus0);
    CU_ASSERT_EQUAL(q.ring[1].pkt_addr, bus1);
    CU_ASSERT_EQUAL(q.ring[0].hdr_addr, 0);
    CU_ASSERT_PTR_NULL(q.rx.slot[2]);

    /* a frame cut between polls: its pieces are dropped across them */
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 2048, 0), 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 2);
    CU_ASSERT_EQUAL(q.rx.discarding, 1);
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 1000, 0), 1);
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 500, IXGBE_RXDADV_STAT_EOP | IXGBE_RXDADV_ERR_RXE), 1);
    inject(70, 3);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL(q.rx.discarding, 0);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 2);       /* counted once per frame */
    CU_ASSERT_EQUAL(q.rx.stats.errors, 0);           /* errors of a discarded frame: not counted */
    CU_ASSERT_EQUAL_FATAL(nseen, 2);
    CU_ASSERT_EQUAL(seen[1].pkt.len, 70);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    take_down();
}

static void test_errors(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);       /* copybreak 256 */
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    /* RXE is the 82599's frame error: dropped */
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(300, 1), 300, IXGBE_RXDADV_ERR_RXE), 1);
    /* checksum errors and CE (not a frame error on the 82599, B2) are not:
     * delivered, reported */
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(200, 2), 200, IXGBE_RXDADV_ERR_IPE), 1);
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(200, 3), 200, IXGBE_RXDADV_ERR_TCPE), 1);
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(200, 4), 200, IXGBE_RXDADV_ERR_CE), 1);
    /* nothing in the frame */
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 0, IXGBE_RXDADV_STAT_EOP), 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL(q.rx.stats.errors, 1);
    CU_ASSERT_EQUAL(q.rx.stats.length_errors, 1);
    /* a length beyond the 2 KB buffer is never believed (nor copied) */
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 2049, IXGBE_RXDADV_STAT_EOP), 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.stats.length_errors, 2);
    CU_ASSERT_EQUAL(q.rx.stats.packets, 3);
    CU_ASSERT_EQUAL_FATAL(nseen, 3);
    CU_ASSERT_EQUAL(seen[0].pkt.errors, IXGBE_RXDADV_ERR_IPE);
    CU_ASSERT_EQUAL(seen[1].pkt.errors, IXGBE_RXDADV_ERR_TCPE);
    CU_ASSERT_EQUAL(seen[2].pkt.errors, IXGBE_RXDADV_ERR_CE);
    for (unsigned k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(seen[k].pkt.copied, 1);
        CU_ASSERT(memcmp(seen[k].head, make_frame(200, k + 2), 64) == 0);
    }
    /* only the delivered frames were copied; every slot kept its buffer
     * (drops, copies): the first top-up re-posted 511 (new) and 0..3, the
     * second slot 4 */
    CU_ASSERT_EQUAL(d->copy_from_bytes, 3 * (200 + PKTBUF_NET_IP_ALIGN));
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc") - allocs, 1);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 5);
    take_down();

    /* status bits and the VLAN field are passed on as written back */
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(100, 5), 100, 0), 1);
    q.ring[0].hdr_addr |= (uint64_t)(IXGBE_RXDADV_STAT_VP | IXGBE_RXDADV_STAT_IPCS) |
                          (uint64_t)0x1234 << IXGBE_RXDADV_VLAN_SHIFT;
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.status, IXGBE_RXDADV_STAT_DD | IXGBE_RXDADV_STAT_EOP |
                                        IXGBE_RXDADV_STAT_VP | IXGBE_RXDADV_STAT_IPCS);
    CU_ASSERT_EQUAL(seen[0].pkt.vlan, 0x1234);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 100);
    take_down();
}

static void test_fcs_not_stripped(void)
{
    /* crc_strip 0: the NIC leaves the FCS in the buffer and PKT_LEN */
    CU_ASSERT_EQUAL_FATAL(bring_up_q(NULL, 0, 0), 0);
    CU_ASSERT_EQUAL(q.rx.fcs, 4);
    inject(60, 1);
    CU_ASSERT_EQUAL(q.ring[0].hdr_addr >> 32, 64);
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 4, IXGBE_RXDADV_STAT_EOP), 1);  /* FCS only */
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 2);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    CU_ASSERT_EQUAL(q.rx.stats.bytes, 60);
    CU_ASSERT_EQUAL(q.rx.stats.length_errors, 1);
    take_down();

    /* stripped (the default): PKT_LEN is the frame */
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    inject(60, 1);
    CU_ASSERT_EQUAL(q.ring[0].hdr_addr >> 32, 60);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    take_down();
}

/* ---- copybreak ----------------------------------------------------------- */

/* One frame of len bytes through a queue with copybreak cb: 1 if it came
 * out copied.  After setup the empty slot is 511, so the first top-up fills
 * 511 (a new buffer) and a second descriptor (a dropped frame in slot 1)
 * is needed before slot 0 is re-posted - with its own buffer again if it
 * was copied. */
static int copybreak_one(uint32_t cb, uint32_t len)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = cb;
    if (bring_up(&o) != 0)
        return -1;
    hold = 1;
    uint64_t bus0 = q.ring[0].pkt_addr;
    struct pktbuf *b0 = q.rx.slot[0];
    void *buf0 = b0->data;
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    inject(len, len);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    const struct ixgbe_rx_pkt *p = &seen[0].pkt;
    CU_ASSERT_EQUAL(p->len, len);
    CU_ASSERT(memcmp(p->data, make_frame(len, len), len) == 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), allocs + 1);  /* slot 511 */
    CU_ASSERT_EQUAL(q.rx.next_to_use, 0);
    int copied = p->copied;
    if (copied) {
        struct pktbuf *b = p->cookie;
        CU_ASSERT_EQUAL(b->small, 1);
        CU_ASSERT_PTR_NOT_EQUAL(p->data, buf0);
        CU_ASSERT_EQUAL(p->bus, b->bus);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc_small"), 1);
        /* the frame and the NET_IP_ALIGN bytes before it, from the DMA
         * buffer into the new one */
        CU_ASSERT_EQUAL(d->copy_from_bytes, len + PKTBUF_NET_IP_ALIGN);
        CU_ASSERT_EQUAL(d->copy_to_bytes, len + PKTBUF_NET_IP_ALIGN);
        long f = fake_find(d, FAKE_COPY_FROM, 0, 0), t = fake_find(d, FAKE_COPY_TO, 0, 0);
        CU_ASSERT_FATAL(f >= 0 && t > f);
        CU_ASSERT_EQUAL(d->log[f].addr, (uintptr_t)buf0 - PKTBUF_NET_IP_ALIGN);
        CU_ASSERT_EQUAL(d->log[t].addr, (uintptr_t)p->data - PKTBUF_NET_IP_ALIGN);
        CU_ASSERT_PTR_EQUAL(q.rx.slot[0], b0);      /* the DMA buffer stayed in the ring */
        CU_ASSERT_EQUAL(q.rx.stats.copybreak, 1);
    } else {
        CU_ASSERT_PTR_EQUAL(p->data, buf0);
        CU_ASSERT_EQUAL(p->bus, bus0);
        CU_ASSERT_PTR_EQUAL(p->cookie, b0);
        CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc_small"), 0);
        CU_ASSERT_EQUAL(d->copy_from_bytes, 0);
        CU_ASSERT_PTR_NULL(q.rx.slot[0]);           /* handed over: the slot is empty */
    }
    /* a dropped frame in slot 1 lets the top-up come round to slot 0 */
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 64, IXGBE_RXDADV_STAT_EOP | IXGBE_RXDADV_ERR_RXE), 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.next_to_use, 1);
    CU_ASSERT_EQUAL(q.rx.stats.reused, copied ? 1u : 0u);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), allocs + (copied ? 1 : 2));
    CU_ASSERT_EQUAL(q.ring[0].pkt_addr == bus0, copied);
    free_held();
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 1);
    CU_ASSERT_EQUAL(q.rx.pool->in_use, 512);       /* 511 posted + slot 1's kept buffer */
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    take_down();
    return copied;
}

static void test_copybreak_threshold(void)
{
    CU_ASSERT_EQUAL(copybreak_one(256, 256), 1);    /* exactly copybreak: copied */
    CU_ASSERT_EQUAL(copybreak_one(256, 257), 0);    /* one more: handed over */
    CU_ASSERT_EQUAL(copybreak_one(256, 60), 1);
    CU_ASSERT_EQUAL(copybreak_one(256, 1514), 0);
    CU_ASSERT_EQUAL(copybreak_one(60, 60), 1);
    CU_ASSERT_EQUAL(copybreak_one(60, 61), 0);
    CU_ASSERT_EQUAL(copybreak_one(0, 60), 0);       /* off */
    CU_ASSERT_EQUAL(copybreak_one(2048, 1514), 1);
}

static void test_copybreak_without_small_buffer(void)
{
    /* every buffer the pool may make is in the ring: the copy falls back to
     * handing the DMA buffer over, and that slot cannot be refilled */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.pool_max = 511;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    hold = 1;
    inject(60, 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.copied, 0);
    CU_ASSERT_EQUAL(q.rx.stats.copy_fails, 1);
    CU_ASSERT_EQUAL(q.rx.stats.alloc_fails, 1);
    CU_ASSERT_EQUAL(q.rx.posted, 510);
    CU_ASSERT_PTR_NULL(q.rx.slot[0]);
    free_held();                                    /* the next top-up re-posts it */
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(q.rx.posted, 511);
    CU_ASSERT_PTR_NOT_NULL(q.rx.slot[511]);
    take_down();
}

/* ---- refill and RDT ------------------------------------------------------ */

static void test_rdt_batching(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);      /* copybreak 256: 60-byte frames reuse */
    for (unsigned k = 0; k < 15; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 15);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 0);    /* 15 re-posted: not yet */
    CU_ASSERT_EQUAL(q.rx.since_rdt, 15);
    CU_ASSERT_EQUAL(q.rx.posted, 511);
    CU_ASSERT_EQUAL(ixgbe_rx_nic_owned(&q), 511 - 15);
    inject(60, 15);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(count_w32(IXGBE_RDT(0)), 1);
    long t = fake_find(d, FAKE_W32, IXGBE_RDT(0), 0);
    /* 16 re-posted (511, 0..14): RDT = next_to_use = 15 */
    CU_ASSERT_EQUAL(q.rx.next_to_use, 15);
    CU_ASSERT_EQUAL(d->log[t].val, 15);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);
    CU_ASSERT_EQUAL(d->log[t - 2].kind, FAKE_MEMW);
    CU_ASSERT_EQUAL(d->log[t - 2].addr, (uintptr_t)&q.ring[14].hdr_addr);
    CU_ASSERT_EQUAL(d->log[t - 3].addr, (uintptr_t)&q.ring[14].pkt_addr);
    CU_ASSERT_EQUAL(ixgbe_rx_nic_owned(&q), 511);
    CU_ASSERT_EQUAL(fake_ix_rx_avail(d, 0), 511);
    take_down();

    /* many frames in uneven polls: RDT once per 16 re-posted descriptors,
     * always next_to_use */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 100;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    unsigned sent = 0, polls = 0;
    while (sent < 1000) {
        unsigned burst = 1 + (sent * 7) % 23;
        for (unsigned k = 0; k < burst && sent < 1000; k++, sent++)
            inject(sent % 3 ? 60 : 600, sent);
        unsigned budget = 1 + polls % 40;
        while (ixgbe_rx_poll(&q, budget, deliver_cb, d) == budget)
            ;
        polls++;
    }
    CU_ASSERT_EQUAL(nseen, 1000);
    CU_ASSERT_EQUAL(q.rx.stats.refills, 511 + 1000);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 1000 / 16);
    CU_ASSERT_EQUAL(q.rx.since_rdt, 1000 % 16);
    unsigned k = 1;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32 || d->log[i].reg != IXGBE_RDT(0))
            continue;
        CU_ASSERT_EQUAL(d->log[i].val, (511 + 16 * k) % 512);
        CU_ASSERT_EQUAL(d->log[i - 1].kind, FAKE_WMB);
        k++;
    }
    for (unsigned i = 0; i < 1000; i++)
        CU_ASSERT(memcmp(seen[i].head, make_frame(i % 3 ? 60 : 600, i), 60) == 0);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    take_down();

    /* rdt_batch 1: a tail write per re-posted descriptor */
    ixgbe_rx_default_opts(&o);
    o.rdt_batch = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned i = 0; i < 5; i++)
        inject(60, i);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 5);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDT(0)), 4);
    take_down();
}

/* ixy's rx_batch: each descriptor re-posted as it is taken, RDT once at the
 * end of a poll that took any, no read barrier after DD. */
static void test_tail_per_poll(void)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 0;
    o.tail_per_poll = 1;
    o.skip_rmb = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    unsigned rmbs = d->rmbs;
    for (unsigned k = 0; k < 5; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDT(0)), 4);      /* next_to_use: 511, 0..3 re-posted */
    CU_ASSERT_EQUAL(q.rx.posted, 511);
    CU_ASSERT_EQUAL(d->rmbs, rmbs);
    /* each re-post right after its descriptor: slot 0's new buffer is
     * written before descriptor 1's status is read */
    long w = fake_find(d, FAKE_MEMW, 0, 0), r1 = -1;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == FAKE_MEMR && d->log[i].addr == (uintptr_t)&q.ring[1].hdr_addr && r1 < 0)
            r1 = (long)i;
    CU_ASSERT(w >= 0 && r1 > w);
    /* an empty poll writes nothing */
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(count_w32(IXGBE_RDT(0)), 1);
    take_down();
}

/* ---- prefetch points ----------------------------------------------------- */

static void prefetch_case(int p1, int p2, int p5)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.prefetch_next_desc = (uint8_t)p1;
    o.prefetch_cur_hdr = (uint8_t)p2;
    o.prefetch_next_hdr = (uint8_t)p5;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    void *data[5];
    for (unsigned k = 0; k < 5; k++)
        data[k] = q.rx.slot[k]->data;
    for (unsigned k = 0; k < 3; k++)
        inject(k == 1 ? 1000 : 60, k);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL_FATAL(nseen, 3);
    unsigned per = (unsigned)(p1 + p2 + p5);
    CU_ASSERT_EQUAL(d->prefetches, 3 * per);
    CU_ASSERT_EQUAL(q.rx.stats.prefetches, 3 * per);
    for (unsigned k = 0; k < 3; k++) {
        /* after the DD read of descriptor k and its barrier, and the read of
         * its rx_buffer entry, before anything else of it */
        long r = -1;
        size_t n = 0;
        for (size_t i = 0; i < d->log_n; i++)
            if (d->log[i].kind == FAKE_MEMR && d->log[i].addr == (uintptr_t)&q.ring[k].hdr_addr)
                r = (long)i, n++;
        CU_ASSERT_FATAL(r >= 0 && n == 1);
        CU_ASSERT_EQUAL(d->log[r + 1].kind, FAKE_RMB);
        CU_ASSERT_EQUAL(d->log[r + 2].kind, FAKE_TOUCH);
        CU_ASSERT_EQUAL(d->log[r + 2].addr, (uintptr_t)q.rx.info + k * IXGBE_RX_BUFFER_INFO_BYTES);
        uintptr_t want[3];
        unsigned nw = 0;
        if (p2)
            want[nw++] = (uintptr_t)data[k];                 /* #2 this header */
        if (p1)
            want[nw++] = (uintptr_t)&q.ring[k + 1];          /* #1 next descriptor */
        if (p5)
            want[nw++] = (uintptr_t)data[k + 1];             /* #5 next header */
        for (unsigned j = 0; j < nw; j++) {
            CU_ASSERT_EQUAL(d->log[r + 3 + j].kind, FAKE_PREFETCH);
            CU_ASSERT_EQUAL(d->log[r + 3 + j].addr, want[j]);
        }
        CU_ASSERT_NOT_EQUAL(d->log[r + 3 + nw].kind, FAKE_PREFETCH);
        CU_ASSERT((size_t)(r + 3 + nw) <= seen[k].log_pos); /* before the stack saw it */
    }
    take_down();
}

static void test_prefetch_points(void)
{
    prefetch_case(0, 0, 0);
    prefetch_case(1, 0, 0);
    prefetch_case(0, 1, 0);
    prefetch_case(0, 0, 1);
    prefetch_case(1, 1, 0);     /* "#12" */
    prefetch_case(1, 1, 1);     /* "#125" */
}

static void test_prefetch_next_header_only_when_posted(void)
{
    /* ring 64: 63 posted, all 63 owned by the NIC (RDT = next_to_use).
     * Receive all of them with the pool empty: for the last, nothing is
     * posted after it, so #5 has nothing to prefetch (62, not 63) */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.ring_size = 64;
    o.prefetch_next_hdr = 1;
    o.pool_max = 63;
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    hold = 1;
    for (unsigned k = 0; k < 63; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(fake_ix_rx_avail(d, 0), 0);
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(60, 99), 60, 0), 0);   /* no room: missed */
    CU_ASSERT_EQUAL(d->rx_missed, 1);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 63);
    CU_ASSERT_EQUAL(q.rx.posted, 0);                /* pool empty: nothing re-posted */
    CU_ASSERT_EQUAL(d->prefetches, 62);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    free_held();
    take_down();
}

/* ---- re-post, wrap-around, teardown --------------------------------------- */

static void test_repost_writes_both_qwords(void)
{
    /* a dropped frame keeps its buffer: the re-post must still write the
     * address (the write-back replaced it) and clear QW1 (DD) */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.rdt_batch = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    uint64_t bus0 = q.ring[0].pkt_addr;
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(100, 1), 100, IXGBE_RXDADV_ERR_RXE), 1);
    CU_ASSERT_NOT_EQUAL(q.ring[0].pkt_addr, bus0);
    CU_ASSERT_EQUAL(fake_ix_rx_desc(d, 0, 64, IXGBE_RXDADV_STAT_EOP | IXGBE_RXDADV_ERR_RXE), 1);
    fake_log_clear(d);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 2);
    /* top-up: 511 (new buffer), then 0 (its own buffer again) */
    CU_ASSERT_EQUAL(q.rx.next_to_use, 1);
    CU_ASSERT_EQUAL(q.ring[0].pkt_addr, bus0);
    CU_ASSERT_EQUAL(q.ring[0].hdr_addr, 0);
    long w0 = -1, w1 = -1;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_MEMW)
            continue;
        if (d->log[i].addr == (uintptr_t)&q.ring[0].pkt_addr)
            w0 = (long)i;
        if (d->log[i].addr == (uintptr_t)&q.ring[0].hdr_addr)
            w1 = (long)i;
    }
    CU_ASSERT(w0 >= 0 && w1 == w0 + 1);
    /* and the slot is given to the NIC (RDT = 1 after it) */
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDT(0)), 1);
    CU_ASSERT_EQUAL(d->log[w1 + 1].kind, FAKE_WMB);
    take_down();
}

static void test_wrap_around(void)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.ring_size = 64;
    o.copybreak = 128;
    o.prefetch_next_desc = o.prefetch_cur_hdr = o.prefetch_next_hdr = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up_q(&o, 3, 1), 0);
    unsigned sent = 0, missed = 0;
    uint32_t rng = 12345;
    while (sent < 2000) {
        rng = rng * 1103515245u + 12345u;
        unsigned burst = 1 + (rng >> 16) % 80;
        for (unsigned k = 0; k < burst && sent < 2000; k++) {
            uint32_t len = 60 + (sent * 37u) % 1455;
            if (fake_ix_rx(d, 3, make_frame(len, sent), len, 0))
                sent++;
            else
                missed++;
        }
        ixgbe_rx_poll(&q, 1 + (rng >> 8) % 64, deliver_cb, d);
    }
    while (ixgbe_rx_poll(&q, 64, deliver_cb, d))
        ;
    CU_ASSERT(missed > 0);                          /* the NIC did run out sometimes */
    CU_ASSERT_EQUAL(d->rx_missed, missed);
    CU_ASSERT_EQUAL_FATAL(nseen, 2000);
    for (unsigned i = 0; i < 2000; i++) {
        uint32_t len = 60 + (i * 37u) % 1455;
        CU_ASSERT_EQUAL(seen[i].pkt.len, len);
        CU_ASSERT_EQUAL(seen[i].pkt.copied, len <= 128);
        CU_ASSERT(memcmp(seen[i].head, make_frame(len, i), len < 64 ? len : 64) == 0);
    }
    CU_ASSERT(q.rx.stats.descs > 10 * 64);
    CU_ASSERT_EQUAL(q.rx.pool->in_use, 63);         /* every delivered buffer came back */
    CU_ASSERT(q.rx.pool->nbufs <= 3 * 64);          /* recycled, not grown without end */
    CU_ASSERT_EQUAL(d->ix.stale_rx, 0);             /* no descriptor posted with a DD left */
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    /* queue 0 was never touched */
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDT(0)), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RXDCTL(0)), 0);
    take_down();
}

static void test_teardown(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    ixgbe_rxq_teardown(&q);
    long t = fake_find(d, FAKE_W32, IXGBE_RXDCTL(0), 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].val & IXGBE_RXDCTL_ENABLE, 0);
    CU_ASSERT(fake_find(d, FAKE_R32, IXGBE_RXDCTL(0), 0) > t);   /* disable read back */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 511);
    CU_ASSERT_PTR_NULL(q.rx.slot);
    CU_ASSERT_EQUAL(fake_ix_rx(d, 0, make_frame(60, 1), 60, 0), 0);   /* queue off */
    ixgbe_rxq_teardown(&q);                         /* twice: harmless */
    fake_destroy(d);
}

/* ---- the two queues together ------------------------------------------------ */

static struct plat_dev *d_out;
static struct ixgbe_txq txq;
static unsigned fwd_done;

static void forward_cb(void *arg, struct ixgbe_rx_pkt *pkt)
{
    (void)arg;
    CU_ASSERT_EQUAL(ixgbe_xmit(&txq, pkt->bus, pkt->len, pkt->cookie, 0), 0);
}

static void fwd_free(void *arg, void *cookie)
{
    ixgbe_rx_pkt_free(arg, cookie);
    fwd_done++;
}

static void test_forward_rx_to_tx(void)
{
    /* port A receives, port B (same host memory) sends the same buffers */
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    d_out = fake_create_sibling(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d_out);
    fake_ix_enable(d_out);
    struct ixgbe_dev dev_out;
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev_out, d_out, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&txq, &dev_out, 0, NULL), 0);
    d_out->nic_mode = FAKE_NIC_ON_TDT;
    fwd_done = 0;
    for (unsigned k = 0; k < 40; k++)
        inject(60 + k * 30, k);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, forward_cb, NULL), 40);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&txq, fwd_free, d_out), 40);
    CU_ASSERT_EQUAL(fwd_done, 40);
    CU_ASSERT_EQUAL_FATAL(d_out->nframes, 40);
    for (unsigned k = 0; k < 40; k++) {
        CU_ASSERT_EQUAL(d_out->frames[k].len, 60 + k * 30);
        CU_ASSERT(memcmp(d_out->frames[k].data, make_frame(60 + k * 30, k), 60 + k * 30) == 0);
    }
    CU_ASSERT_EQUAL(d_out->nic_errors, 0);
    CU_ASSERT_EQUAL(q.rx.pool->in_use, 511);        /* every forwarded buffer came back */
    ixgbe_txq_teardown(&txq, NULL, NULL);
    fake_destroy(d_out);
    take_down();
}

/* Touches of the buffer metadata in the log, by length: how many of n bytes. */
static size_t touches_of(size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < d->log_n; i++)
        k += d->log[i].kind == FAKE_TOUCH && d->log[i].val == n;
    return k;
}

/* The pool's metadata touches: an skb's by default (256 bytes written per
 * allocation, 192 per free), an mbuf's when the options say so. */
static void test_buffer_metadata_touches(void)
{
    for (int mbuf = 0; mbuf < 2; mbuf++) {
        struct ixgbe_rx_opts o;
        ixgbe_rx_default_opts(&o);
        o.copybreak = 0;
        if (mbuf) {
            o.meta_alloc_touch = 64;
            o.meta_free_touch = 128;
        }
        d = new_dev();
        CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
        CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&q, &dev, 0, &o, NULL), 0);
        CU_ASSERT_EQUAL(touches_of(mbuf ? 64 : 256), 511);     /* every posted buffer allocated */
        CU_ASSERT_EQUAL(touches_of(mbuf ? 256 : 64), 0);
        nseen = 0;
        hold = 0;
        fake_log_clear(d);
        inject(60, 1);
        CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);   /* frees the frame's buffer */
        CU_ASSERT_EQUAL(touches_of(mbuf ? 128 : 192), 1);
        take_down();
    }
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.meta_free_touch = PKTBUF_META_BYTES + 1;
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, &o, NULL), IXGBE_ERR_PARAM);
    fake_destroy(d);
}

/* ixy's buffer layout: 2048-byte entries back to back, the data 64 bytes
 * into each (64-byte aligned, 1984 bytes), the metadata the 64-byte header
 * in front of it; its touches default to that header and may not exceed
 * it; frames still arrive whole.  And ixy's bookkeeping: a pointer per
 * descriptor (info_bytes 8). */
static void test_ixy_buffer_layout(void)
{
    struct ixgbe_rx_opts o;
    ixgbe_rx_default_opts(&o);
    o.copybreak = 0;
    o.buf_layout = PKTBUF_LAYOUT_IXY;
    o.info_bytes = 8;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    uint64_t lo = ~0ull;
    for (unsigned i = 0; i < 511; i++) {
        const struct pktbuf *b = q.rx.slot[i];
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_EQUAL((b->bus - FAKE_BUS_BASE) % PKTBUF_IXY_ENTRY, PKTBUF_IXY_HEADER);
        CU_ASSERT_EQUAL(b->bus % 64, 0);
        CU_ASSERT_PTR_EQUAL(b->meta, (const uint8_t *)b->data - PKTBUF_IXY_HEADER);
        CU_ASSERT_EQUAL(b->size, PKTBUF_IXY_ENTRY - PKTBUF_IXY_HEADER);
        CU_ASSERT_EQUAL(q.ring[i].pkt_addr, b->bus);
        lo = b->bus < lo ? b->bus : lo;
    }
    /* a chunk's entries are contiguous: 64 of them in 128 KiB */
    unsigned in_chunk = 0;
    for (unsigned i = 0; i < 511; i++)
        in_chunk += q.rx.slot[i]->bus - lo < 64u * PKTBUF_IXY_ENTRY;
    CU_ASSERT_EQUAL(in_chunk, 64);
    CU_ASSERT_EQUAL(q.rx.pool->alloc_touch, PKTBUF_IXY_HEADER);
    CU_ASSERT_EQUAL(q.rx.pool->free_touch, PKTBUF_IXY_HEADER);
    hold = 1;
    inject(1514, 7);
    CU_ASSERT_EQUAL(ixgbe_rx_poll(&q, 64, deliver_cb, d), 1);
    /* the bookkeeping entry of descriptor 0 (8 bytes: info_bytes) was read */
    long t = fake_find(d, FAKE_TOUCH, 0, 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].addr, (uintptr_t)q.rx.info);
    CU_ASSERT_EQUAL(d->log[t].val, 8);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 1514);
    CU_ASSERT(memcmp(seen[0].pkt.data, make_frame(1514, 7), 1514) == 0);
    free_held();
    take_down();
    o.meta_alloc_touch = 128;           /* beyond the header: refused */
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(dev_up(1), 0);
    CU_ASSERT_EQUAL(ixgbe_rxq_setup(&q, &dev, 0, &o, NULL), IXGBE_ERR_PARAM);
    fake_destroy(d);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("IxgbeRx", NULL, NULL);
    CU_add_test(s, "SetupSequence", test_setup_sequence);
    CU_add_test(s, "EnableTimeout", test_enable_timeout);
    CU_add_test(s, "Params", test_params);
    CU_add_test(s, "DeliverInOrder", test_deliver_in_order);
    CU_add_test(s, "Budget", test_budget);
    CU_add_test(s, "MultiDescriptorDropped", test_multi_descriptor_dropped);
    CU_add_test(s, "Errors", test_errors);
    CU_add_test(s, "FcsNotStripped", test_fcs_not_stripped);
    CU_add_test(s, "CopybreakThreshold", test_copybreak_threshold);
    CU_add_test(s, "CopybreakWithoutSmallBuffer", test_copybreak_without_small_buffer);
    CU_add_test(s, "RdtBatching", test_rdt_batching);
    CU_add_test(s, "TailPerPoll", test_tail_per_poll);
    CU_add_test(s, "PrefetchPoints", test_prefetch_points);
    CU_add_test(s, "PrefetchNextHeaderOnlyWhenPosted", test_prefetch_next_header_only_when_posted);
    CU_add_test(s, "RepostWritesBothQwords", test_repost_writes_both_qwords);
    CU_add_test(s, "WrapAround", test_wrap_around);
    CU_add_test(s, "Teardown", test_teardown);
    CU_add_test(s, "ForwardRxToTx", test_forward_rx_to_tx);
    CU_add_test(s, "BufferMetadataTouches", test_buffer_metadata_touches);
    CU_add_test(s, "IxyBufferLayout", test_ixy_buffer_layout);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
