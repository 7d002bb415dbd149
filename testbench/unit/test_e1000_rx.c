/* Unit tests of the e1000 receive queue, the packet-buffer pool and the NAPI
 * loop over the fake platform (plat_fake.h): set-up sequence, descriptor
 * order, DD/EOP/errors, copybreak threshold and buffer reuse, RDT batching,
 * prefetch points, refill failures, wrap-around, and NAPI's mask / budget /
 * re-enable logic. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/ring/pktbuf.h"
#include "../../driver/e1000/e1000_rx.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/e1000/e1000_napi.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define RCTL_LINUX (E1000_RCTL_EN | E1000_RCTL_BAM)   /* RDMTS 1/2, BSIZE 2048: 0 */

static struct plat_dev *d;
static struct e1000_dev dev;
static struct e1000_rxq q;

/* ---- what deliver() saw ------------------------------------------------- */
#define MAX_SEEN 4096
struct seen {
    struct e1000_rx_pkt pkt;
    size_t log_pos;             /* d->log_n when deliver ran */
    uint8_t head[64];           /* first bytes of the frame, read directly */
};
static struct seen seen[MAX_SEEN];
static unsigned nseen;
static int hold;                /* 1 = keep the packets (free later) */

static void deliver_cb(void *arg, struct e1000_rx_pkt *pkt)
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
        e1000_rx_pkt_free(pd, pkt->cookie);
}

static void free_held(void)
{
    for (unsigned i = 0; i < nseen && i < MAX_SEEN; i++)
        e1000_rx_pkt_free(d, seen[i].pkt.cookie);
    nseen = 0;
}

static struct plat_dev *new_dev(void)
{
    struct plat_dev *p = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fake_reg_set(p, E1000_STATUS, STATUS_UP);
    return p;
}

static int bring_up(const struct e1000_rx_opts *o)
{
    d = new_dev();
    nseen = 0;
    hold = 0;
    if (e1000_dev_init(&dev, d, NULL) != 0)
        return -100;
    int rc = e1000_rxq_setup(&q, &dev, o, NULL);
    fake_log_clear(d);
    return rc;
}

static void take_down(void)
{
    if (q.rx.slot)
        e1000_rxq_teardown(&q);
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
    CU_ASSERT_FATAL(fake_nic_rx(d, make_frame(len, seed), len, 0) > 0);
}

static void *slot_data(unsigned i)
{
    return fake_bus_to_host(d, q.ring[i].buffer_addr, 1);
}

static size_t count_w32(uint32_t reg)
{
    return fake_count(d, FAKE_W32, reg);
}

/* ---- set-up ------------------------------------------------------------- */

static void test_setup_sequence(void)
{
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    fake_log_clear(d);
    CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&q, &dev, NULL, NULL), 0);
    struct { uint32_t reg, val; } want[] = {
        { E1000_RDTR, 0 }, { E1000_RADV, 8 },
        { E1000_RDBAL, (uint32_t)q.ring_bus }, { E1000_RDBAH, (uint32_t)(q.ring_bus >> 32) },
        { E1000_RDLEN, 256 * 16 }, { E1000_RDH, 0 }, { E1000_RDT, 0 },
        { E1000_RDT, 254 }, { E1000_RCTL, RCTL_LINUX },
    };
    size_t nw = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32)
            continue;
        CU_ASSERT_FATAL(nw < sizeof want / sizeof want[0]);
        CU_ASSERT_EQUAL(d->log[i].reg, want[nw].reg);
        CU_ASSERT_EQUAL(d->log[i].val, want[nw].val);
        if (nw == 7)                                 /* descriptors ordered before the tail */
            CU_ASSERT_EQUAL(d->log[i - 1].kind, FAKE_WMB);
        nw++;
    }
    CU_ASSERT_EQUAL(nw, sizeof want / sizeof want[0]);
    CU_ASSERT_EQUAL(RCTL_LINUX, 0x00008002u);
    CU_ASSERT_EQUAL(q.ring_bus >> 32, 1);
    CU_ASSERT_EQUAL(q.ring_bus % 4096, 0);
    /* 255 buffers posted: distinct, PKTBUF_HEADROOM into a 4 KB object
     * (so never crossing 64 KB) */
    for (unsigned i = 0; i < 256; i++) {
        CU_ASSERT_EQUAL(q.ring[i].wb, 0);
        if (i == 255) {
            CU_ASSERT_EQUAL(q.ring[i].buffer_addr, 0);
            continue;
        }
        uint64_t a = q.ring[i].buffer_addr;
        CU_ASSERT_EQUAL(a % 4096, PKTBUF_HEADROOM);
        CU_ASSERT_EQUAL(a, q.rx.slot[i]->bus);
        if (i)
            CU_ASSERT_NOT_EQUAL(a, q.ring[i - 1].buffer_addr);
    }
    CU_ASSERT_EQUAL(q.rx.posted, 255);
    CU_ASSERT_EQUAL(q.rx.next_to_use, 255);
    CU_ASSERT_EQUAL(e1000_rx_nic_owned(&q), 254);
    CU_ASSERT_EQUAL(fake_nic_rx_avail(d), 254);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 255);
    /* each allocation wrote its sk_buff, each posting its buffer_info entry */
    CU_ASSERT_EQUAL(d->touches, 255 + 255);
    CU_ASSERT_EQUAL(d->touch_bytes, 255 * (PKTBUF_ALLOC_TOUCH + E1000_BUFFER_INFO_BYTES));
    CU_ASSERT_EQUAL(q.rx.stats.rdt_writes, 1);
    CU_ASSERT_EQUAL(count_w32(E1000_RXDCTL), 0);    /* Linux leaves RXDCTL alone */
    CU_ASSERT_EQUAL(q.rx.fcs, 4);
    take_down();

    /* options: RXDCTL, SECRC, promiscuous, RDMTS, MAC, timers */
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.set_rxdctl = 1;
    o.pthresh = 32;
    o.hthresh = 4;
    o.wthresh = 1;
    o.secrc = 1;
    o.promisc = 1;
    o.rdmts = E1000_RCTL_RDMTS_EIGTH;
    o.rdtr = 3;
    o.radv = 100;
    o.set_mac = 1;
    memcpy(o.mac, "\x00\x1b\x21\x01\x02\x03", 6);
    o.ring_size = 64;
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&q, &dev, &o, NULL), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RXDCTL), 32u | 4u << 8 | 1u << 16 | 1u << 24);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RCTL),
                    RCTL_LINUX | E1000_RCTL_SECRC | E1000_RCTL_UPE | E1000_RCTL_MPE |
                    E1000_RCTL_RDMTS_EIGTH);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RDTR), 3);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RADV), 100);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RAL(0)), 0x01211b00u);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RAH(0)), 0x0302u | E1000_RAH_AV);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RDT), 62);
    CU_ASSERT_EQUAL(q.rx.fcs, 0);
    take_down();
}

static void test_params(void)
{
    struct e1000_rx_opts o;
    static const uint32_t bad_rings[] = { 0, 40, 52, 4104 };
    for (unsigned i = 0; i < 4; i++) {
        e1000_rx_default_opts(&o);
        o.ring_size = bad_rings[i];
        CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
        take_down();
    }
    e1000_rx_default_opts(&o);
    o.copybreak = 2049;
    CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
    take_down();
    e1000_rx_default_opts(&o);
    o.rdt_batch = 0;
    CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
    take_down();
    e1000_rx_default_opts(&o);
    o.rdt_batch = 255;
    CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
    take_down();
    e1000_rx_default_opts(&o);
    o.rdt_batch = 254;                              /* the largest that cannot stall */
    CU_ASSERT_EQUAL(bring_up(&o), 0);
    take_down();
    e1000_rx_default_opts(&o);
    o.rdmts = 3u << 8;
    CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
    take_down();
    e1000_rx_default_opts(&o);
    o.pthresh = 64;
    CU_ASSERT_EQUAL(bring_up(&o), E1000_ERR_PARAM);
    take_down();

    /* a shared pool must hold copybreak bytes */
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    struct pktbuf_pool pool;
    CU_ASSERT_EQUAL_FATAL(pktbuf_pool_init(&pool, d, 128, 0), 0);
    CU_ASSERT_EQUAL(e1000_rxq_setup(&q, &dev, NULL, &pool), E1000_ERR_PARAM);
    e1000_rx_default_opts(&o);
    o.copybreak = 128;
    CU_ASSERT_EQUAL(e1000_rxq_setup(&q, &dev, &o, &pool), 0);
    CU_ASSERT_PTR_EQUAL(q.rx.pool, &pool);
    CU_ASSERT_EQUAL(pool.in_use, 255);
    e1000_rxq_teardown(&q);
    CU_ASSERT_EQUAL(pool.in_use, 0);
    pktbuf_pool_fini(&pool);
    fake_destroy(d);

    /* no buffer at all: the queue cannot start */
    e1000_rx_default_opts(&o);
    o.pool_max = 0;
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    fake_arena_seek(d, d->arena_size - 8192);       /* room for the ring only */
    CU_ASSERT_EQUAL(e1000_rxq_setup(&q, &dev, &o, NULL), E1000_ERR_NOMEM);
    CU_ASSERT_PTR_NULL(q.rx.slot);
    fake_destroy(d);
}

/* ---- the buffer pool ---------------------------------------------------- */

static void test_buffer_pool(void)
{
    d = new_dev();
    struct pktbuf_pool p;
    CU_ASSERT_EQUAL(pktbuf_pool_init(&p, d, 4096, 0), -1);
    CU_ASSERT_EQUAL_FATAL(pktbuf_pool_init(&p, d, 100, 70), 0);
    CU_ASSERT_EQUAL(p.small_size, 128);
    struct pktbuf *a = pktbuf_alloc(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->size, 2048);
    CU_ASSERT_EQUAL(a->bus % 4096, PKTBUF_HEADROOM);  /* a kmalloc-4096 object */
    CU_ASSERT_EQUAL(p.nbufs, 64);                   /* one chunk */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), 1);
    CU_ASSERT_EQUAL(d->touch_bytes, PKTBUF_ALLOC_TOUCH);
    long t = fake_find(d, FAKE_TOUCH, 0, 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].addr, (uintptr_t)a->meta);
    CU_ASSERT_EQUAL(d->log[t].reg, 1);
    struct pktbuf *s = pktbuf_alloc_small(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(s->size, 128);
    CU_ASSERT_EQUAL(s->bus % 256, PKTBUF_HEADROOM);   /* 128 + 18 bytes: kmalloc-256 */
    CU_ASSERT_EQUAL(s->small, 1);
    CU_ASSERT_EQUAL(p.nbufs, 70);                   /* 6 more: the limit */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc_small"), 1);
    /* LIFO: what was freed last comes back first */
    struct pktbuf *b = pktbuf_alloc(&p);
    pktbuf_free(d, a);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 1);
    CU_ASSERT_PTR_EQUAL(pktbuf_alloc(&p), a);
    pktbuf_free(NULL, b);
    pktbuf_free(NULL, b);                        /* double free: logged, ignored */
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    CU_ASSERT_EQUAL(p.stats.frees, 1 + 1);
    /* the limit: 64 big + 6 small */
    unsigned got = 0;
    while (pktbuf_alloc(&p))
        got++;
    CU_ASSERT_EQUAL(got, 63);                       /* a is out: 64 - 1 */
    CU_ASSERT_EQUAL(p.stats.fails, 1);
    got = 0;
    while (pktbuf_alloc_small(&p))
        got++;
    CU_ASSERT_EQUAL(got, 5);
    CU_ASSERT_EQUAL(p.in_use, 70);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    pktbuf_pool_fini(&p);

    /* without small buffers */
    CU_ASSERT_EQUAL_FATAL(pktbuf_pool_init(&p, d, 0, 0), 0);
    CU_ASSERT_PTR_NULL(pktbuf_alloc_small(&p));
    pktbuf_pool_fini(&p);
    fake_destroy(d);
}

/* ---- poll: order, DD, lengths ------------------------------------------- */

static void test_deliver_in_order(void)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    static const uint32_t lens[] = { 60, 100, 1514, 200, 61 };
    void *bufs[5];
    uint64_t buses[5];
    for (unsigned k = 0; k < 5; k++) {
        bufs[k] = slot_data(k);
        buses[k] = q.ring[k].buffer_addr;
        inject(lens[k], k);
    }
    CU_ASSERT_EQUAL(d->rx_frames, 5);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL_FATAL(nseen, 5);
    for (unsigned k = 0; k < 5; k++) {
        CU_ASSERT_EQUAL(seen[k].pkt.len, lens[k]);
        CU_ASSERT_PTR_EQUAL(seen[k].pkt.data, bufs[k]);
        CU_ASSERT_EQUAL(seen[k].pkt.bus, buses[k]);
        CU_ASSERT_EQUAL(seen[k].pkt.copied, 0);
        CU_ASSERT_EQUAL(seen[k].pkt.status, E1000_RXD_STAT_DD | E1000_RXD_STAT_EOP);
        CU_ASSERT(memcmp(seen[k].head, make_frame(lens[k], k), 60) == 0);
        CU_ASSERT_EQUAL(q.ring[k].wb, 0);           /* status cleared after processing */
    }
    /* write-back qwords read in ring order, each DD followed by a read
     * barrier; the sixth read finds no DD and ends the poll */
    unsigned r = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_MEMR)
            continue;
        CU_ASSERT_EQUAL(d->log[i].addr, (uintptr_t)&q.ring[r].wb);
        if (r < 5) {
            CU_ASSERT((d->log[i].val64 & E1000_RXD_QW1_DD) != 0);
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
    CU_ASSERT_EQUAL(q.rx.stats.descs, 5);
    CU_ASSERT_EQUAL(q.rx.next_to_clean, 5);
    /* handed over: each slot was refilled with a new buffer at the top-up */
    CU_ASSERT_EQUAL(q.rx.stats.refills, 255 + 5);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 0);
    CU_ASSERT_EQUAL(q.rx.posted, 255);
    CU_ASSERT_EQUAL(d->copy_from_bytes, 0);         /* the driver read no packet bytes */
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    /* nothing more: one read, nothing delivered */
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(nseen, 5);
    take_down();
}

static void test_budget(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    for (unsigned k = 0; k < 10; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 4, deliver_cb, d), 4);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 4, deliver_cb, d), 4);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 4, deliver_cb, d), 2);
    CU_ASSERT_EQUAL(nseen, 10);
    CU_ASSERT_EQUAL(q.rx.stats.budget_used_up, 2);
    CU_ASSERT_EQUAL(q.rx.stats.polls, 3);
    CU_ASSERT_EQUAL(q.rx.stats.dd_reads, 4 + 4 + 3);   /* a full budget reads no extra qword */
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT(memcmp(seen[k].head, make_frame(60, k), 60) == 0);
    fake_log_clear(d);
    inject(60, 99);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 0, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);
    take_down();
}

/* ---- EOP, errors, FCS ---------------------------------------------------- */

static void test_multi_descriptor_dropped(void)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    uint64_t bus0 = q.ring[0].buffer_addr, bus1 = q.ring[1].buffer_addr;
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    /* a 3000-byte frame takes two 2048-byte buffers: dropped whole */
    CU_ASSERT_EQUAL(fake_nic_rx(d, make_frame(3000, 1), 3000, 0), 2);
    CU_ASSERT_EQUAL((uint32_t)q.ring[0].wb & 0xFFFF, 2048);
    CU_ASSERT_EQUAL((uint32_t)q.ring[1].wb & 0xFFFF, 3004 - 2048);
    inject(60, 2);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    CU_ASSERT(memcmp(seen[0].head, make_frame(60, 2), 60) == 0);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 1);
    CU_ASSERT_EQUAL(q.rx.stats.descs, 3);
    /* the top-up re-posts slots 255 (a new buffer), 0 and 1 (the dropped
     * frame's buffers, reused); slot 2 (handed over) waits */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc") - allocs, 1);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 2);
    CU_ASSERT_EQUAL(q.ring[0].buffer_addr, bus0);
    CU_ASSERT_PTR_NULL(q.rx.slot[2]);
    CU_ASSERT_PTR_NOT_NULL(q.rx.slot[0]);
    CU_ASSERT_EQUAL(q.rx.slot[0]->bus, bus0);
    CU_ASSERT_EQUAL(q.rx.slot[1]->bus, bus1);

    /* a frame cut between polls: its pieces are dropped across them */
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 2048, 0, 0), 1);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 2);
    CU_ASSERT_EQUAL(q.rx.discarding, 1);
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 1000, 0, 0), 1);
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 500, E1000_RXD_STAT_EOP, E1000_RXD_ERR_CE), 1);
    inject(70, 3);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL(q.rx.discarding, 0);
    CU_ASSERT_EQUAL(q.rx.stats.multi_desc, 2);       /* counted once per frame */
    CU_ASSERT_EQUAL(q.rx.stats.errors, 0);           /* errors of a discarded frame: not counted */
    CU_ASSERT_EQUAL_FATAL(nseen, 2);
    CU_ASSERT_EQUAL(seen[1].pkt.len, 70);
    take_down();
}

static void test_errors_dropped(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    static const uint8_t frame_errs[] = { E1000_RXD_ERR_CE, E1000_RXD_ERR_SE, E1000_RXD_ERR_SEQ,
                                          E1000_RXD_ERR_CXE, E1000_RXD_ERR_RXE };
    for (unsigned k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(fake_nic_rx(d, make_frame(300, k), 300, frame_errs[k]), 1);
    /* checksum errors are not frame errors: delivered, reported */
    CU_ASSERT_EQUAL(fake_nic_rx(d, make_frame(300, 9), 300, E1000_RXD_ERR_IPE), 1);
    CU_ASSERT_EQUAL(fake_nic_rx(d, make_frame(300, 10), 300, E1000_RXD_ERR_TCPE), 1);
    /* nothing left after the FCS */
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 4, E1000_RXD_STAT_EOP, 0), 1);
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 0, E1000_RXD_STAT_EOP, 0), 1);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 9);
    CU_ASSERT_EQUAL(q.rx.stats.errors, 5);
    CU_ASSERT_EQUAL(q.rx.stats.length_errors, 2);
    /* a length beyond the 2048-byte buffer is never believed (nor copied) */
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 2049, E1000_RXD_STAT_EOP, 0), 1);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.stats.length_errors, 3);
    CU_ASSERT_EQUAL(d->copy_from_bytes, 0);
    CU_ASSERT_EQUAL_FATAL(nseen, 2);
    CU_ASSERT_EQUAL(seen[0].pkt.errors, E1000_RXD_ERR_IPE);
    CU_ASSERT_EQUAL(seen[1].pkt.errors, E1000_RXD_ERR_TCPE);
    CU_ASSERT(memcmp(seen[0].head, make_frame(300, 9), 64) == 0);
    /* the first top-up re-posted 9 slots: 255 (empty since setup: a new
     * buffer), 0..4 (errors: their own buffers), 5 and 6 (delivered: new
     * buffers) and 7 (length error: its own); the second re-posted slot 8
     * with its own; slot 9 keeps its buffer for later */
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc") - allocs, 3);
    CU_ASSERT_EQUAL(q.rx.stats.reused, 6 + 1);
    CU_ASSERT_PTR_NOT_NULL(q.rx.slot[9]);
    take_down();
}

static void test_fcs_and_secrc(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    inject(60, 1);
    CU_ASSERT_EQUAL((uint32_t)q.ring[0].wb & 0xFFFF, 64);   /* the NIC counts the CRC */
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    take_down();

    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.secrc = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    inject(60, 1);
    CU_ASSERT_EQUAL((uint32_t)q.ring[0].wb & 0xFFFF, 60);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(seen[0].pkt.len, 60);
    CU_ASSERT_EQUAL(q.rx.stats.bytes, 60);
    take_down();
}

/* ---- copybreak ----------------------------------------------------------- */

/* One frame of len bytes through a queue with copybreak cb: 1 if it came
 * out copied.  Checks the buffers and costs either way.  Slot 0 is
 * re-posted only when next_to_use comes round to it: after setup the ring's
 * one empty slot is 255, so the first top-up fills 255 (a new buffer, as in
 * Linux) and a second descriptor (a dropped frame in slot 1) is needed
 * before slot 0 is re-posted - with its own buffer again if it was copied. */
static int copybreak_one(uint32_t cb, uint32_t len)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.copybreak = cb;
    if (bring_up(&o) != 0)
        return -1;
    hold = 1;
    uint64_t bus0 = q.ring[0].buffer_addr;
    void *buf0 = slot_data(0);
    struct pktbuf *b0 = q.rx.slot[0];
    uint64_t allocs = fake_cost_count(d, "skb_alloc");
    inject(len, len);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    const struct e1000_rx_pkt *p = &seen[0].pkt;
    CU_ASSERT_EQUAL(p->len, len);
    CU_ASSERT(memcmp(p->data, make_frame(len, len), len) == 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), allocs + 1);  /* slot 255 */
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
    CU_ASSERT_EQUAL(fake_nic_rx_desc(d, 64, E1000_RXD_STAT_EOP, E1000_RXD_ERR_CE), 1);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL(q.rx.next_to_use, 1);
    CU_ASSERT_EQUAL(q.rx.stats.reused, copied ? 1u : 0u);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_alloc"), allocs + (copied ? 1 : 2));
    CU_ASSERT_EQUAL(q.ring[0].buffer_addr == bus0, copied);
    /* the stack frees it */
    free_held();
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 1);
    CU_ASSERT_EQUAL(q.rx.pool->in_use, 256);       /* 255 posted + slot 1's kept buffer */
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
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.pool_max = 255;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    hold = 1;
    inject(60, 1);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(nseen, 1);
    CU_ASSERT_EQUAL(seen[0].pkt.copied, 0);
    CU_ASSERT_EQUAL(q.rx.stats.copy_fails, 1);
    CU_ASSERT_EQUAL(q.rx.stats.alloc_fails, 1);
    CU_ASSERT_EQUAL(q.rx.posted, 254);
    CU_ASSERT_PTR_NULL(q.rx.slot[0]);
    /* once the stack frees it, the next poll's top-up re-posts it */
    free_held();
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 0);
    CU_ASSERT_EQUAL(q.rx.posted, 255);
    CU_ASSERT_PTR_NOT_NULL(q.rx.slot[255]);
    take_down();
}

/* ---- refill and RDT ------------------------------------------------------ */

static void test_rdt_batching(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);      /* copybreak 256: 60-byte frames reuse */
    for (unsigned k = 0; k < 15; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 15);
    CU_ASSERT_EQUAL(count_w32(E1000_RDT), 0);       /* 15 re-posted: not yet */
    CU_ASSERT_EQUAL(q.rx.since_rdt, 15);
    CU_ASSERT_EQUAL(q.rx.posted, 255);
    inject(60, 15);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 1);
    CU_ASSERT_EQUAL_FATAL(count_w32(E1000_RDT), 1);
    long t = fake_find(d, FAKE_W32, E1000_RDT, 0);
    /* 255 + 16 re-posted: next_to_use 15, RDT = next_to_use - 1 */
    CU_ASSERT_EQUAL(q.rx.next_to_use, 15);
    CU_ASSERT_EQUAL(d->log[t].val, 14);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);
    CU_ASSERT_EQUAL(d->log[t - 2].kind, FAKE_MEMW);
    CU_ASSERT_EQUAL(d->log[t - 2].addr, (uintptr_t)&q.ring[14].buffer_addr);
    CU_ASSERT_EQUAL(e1000_rx_nic_owned(&q), 254 - 16 + 16);
    take_down();

    /* many frames in uneven polls: RDT once per 16 re-posted descriptors,
     * always next_to_use - 1, never anything else */
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.copybreak = 100;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    unsigned sent = 0, polls = 0;
    while (sent < 1000) {
        unsigned burst = 1 + (sent * 7) % 23;
        for (unsigned k = 0; k < burst && sent < 1000; k++, sent++)
            inject(sent % 3 ? 60 : 600, sent);
        unsigned budget = 1 + polls % 40;
        while (e1000_rx_poll(&q, budget, deliver_cb, d) == budget)
            ;
        polls++;
    }
    CU_ASSERT_EQUAL(nseen, 1000);
    CU_ASSERT_EQUAL(q.rx.stats.refills, 255 + 1000);
    CU_ASSERT_EQUAL(count_w32(E1000_RDT), 1000 / 16);
    CU_ASSERT_EQUAL(q.rx.since_rdt, 1000 % 16);
    unsigned k = 1;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32 || d->log[i].reg != E1000_RDT)
            continue;
        CU_ASSERT_EQUAL(d->log[i].val, (255 + 16 * k + 255) % 256);
        CU_ASSERT_EQUAL(d->log[i - 1].kind, FAKE_WMB);
        k++;
    }
    for (unsigned i = 0; i < 1000; i++)
        CU_ASSERT(memcmp(seen[i].head, make_frame(i % 3 ? 60 : 600, i), 60) == 0);
    take_down();

    /* rdt_batch 1: a tail write per re-posted descriptor */
    e1000_rx_default_opts(&o);
    o.rdt_batch = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned i = 0; i < 5; i++)
        inject(60, i);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 5);
    CU_ASSERT_EQUAL(count_w32(E1000_RDT), 5);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_RDT), 3);
    take_down();
}

/* ---- prefetch points ----------------------------------------------------- */

static void prefetch_case(int p1, int p2, int p5)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.prefetch_next_desc = (uint8_t)p1;
    o.prefetch_cur_hdr = (uint8_t)p2;
    o.prefetch_next_hdr = (uint8_t)p5;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    void *data[5];
    for (unsigned k = 0; k < 5; k++)
        data[k] = slot_data(k);
    for (unsigned k = 0; k < 3; k++)
        inject(k == 1 ? 1000 : 60, k);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 3);
    CU_ASSERT_EQUAL_FATAL(nseen, 3);
    unsigned per = (unsigned)(p1 + p2 + p5);
    CU_ASSERT_EQUAL(d->prefetches, 3 * per);
    CU_ASSERT_EQUAL(q.rx.stats.prefetches, 3 * per);
    for (unsigned k = 0; k < 3; k++) {
        /* after the DD read of descriptor k, before anything else of it */
        long r = -1;
        size_t n = 0;
        for (size_t i = 0; i < d->log_n; i++)
            if (d->log[i].kind == FAKE_MEMR && d->log[i].addr == (uintptr_t)&q.ring[k].wb)
                r = (long)i, n++;
        CU_ASSERT_FATAL(r >= 0 && n == 1);
        CU_ASSERT_EQUAL(d->log[r + 1].kind, FAKE_RMB);
        /* the driver reads the slot's buffer_info (its skb) first */
        CU_ASSERT_EQUAL(d->log[r + 2].kind, FAKE_TOUCH);
        CU_ASSERT_EQUAL(d->log[r + 2].addr, (uintptr_t)q.rx.info + k * E1000_BUFFER_INFO_BYTES);
        r++;
        uintptr_t want[3];
        unsigned nw = 0;
        if (p2)
            want[nw++] = (uintptr_t)data[k];                 /* #2 this header */
        if (p1)
            want[nw++] = (uintptr_t)&q.ring[k + 1];          /* #1 next descriptor */
        if (p5)
            want[nw++] = (uintptr_t)data[k + 1];             /* #5 next header */
        for (unsigned j = 0; j < nw; j++) {
            CU_ASSERT_EQUAL(d->log[r + 2 + j].kind, FAKE_PREFETCH);
            CU_ASSERT_EQUAL(d->log[r + 2 + j].addr, want[j]);
        }
        CU_ASSERT_NOT_EQUAL(d->log[r + 2 + nw].kind, FAKE_PREFETCH);
        CU_ASSERT((size_t)(r + 2 + nw) <= seen[k].log_pos); /* before the stack saw it */
    }
    take_down();
}

static void test_prefetch_points(void)
{
    prefetch_case(0, 0, 0);
    prefetch_case(1, 0, 0);
    prefetch_case(0, 1, 0);
    prefetch_case(0, 0, 1);
    prefetch_case(1, 1, 0);     /* "#12" of seed 000 */
    prefetch_case(1, 1, 1);     /* "#125" */
}

static void test_prefetch_next_header_only_when_posted(void)
{
    /* ring 48: 47 posted, 46 owned by the NIC.  Receive all 46 with the
     * pool empty (nothing can be re-posted): for the last one, the next
     * slot is the one withheld behind RDT - posted, so #5 prefetches its
     * buffer, a valid address (the fake counts any outside the arena) */
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.ring_size = 48;
    o.prefetch_next_hdr = 1;
    o.pool_max = 47;
    o.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    hold = 1;
    for (unsigned k = 0; k < 46; k++)
        inject(60, k);
    CU_ASSERT_EQUAL(fake_nic_rx_avail(d), 0);
    CU_ASSERT_EQUAL(e1000_rx_poll(&q, 64, deliver_cb, d), 46);
    CU_ASSERT_EQUAL(q.rx.posted, 1);                /* pool empty: nothing re-posted */
    CU_ASSERT_EQUAL(d->prefetches, 46);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    free_held();
    take_down();
}

/* ---- wrap-around ---------------------------------------------------------- */

static void test_wrap_around(void)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.ring_size = 48;
    o.copybreak = 128;
    o.prefetch_next_desc = o.prefetch_cur_hdr = o.prefetch_next_hdr = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    unsigned sent = 0, missed = 0;
    uint32_t rng = 12345;
    while (sent < 2000) {
        rng = rng * 1103515245u + 12345u;
        unsigned burst = 1 + (rng >> 16) % 60;
        for (unsigned k = 0; k < burst && sent < 2000; k++) {
            uint32_t len = 60 + (sent * 37u) % 1455;
            if (fake_nic_rx(d, make_frame(len, sent), len, 0))
                sent++;
            else
                missed++;
        }
        e1000_rx_poll(&q, 1 + (rng >> 8) % 64, deliver_cb, d);
    }
    while (e1000_rx_poll(&q, 64, deliver_cb, d))
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
    CU_ASSERT(q.rx.stats.descs > 10 * 48);
    CU_ASSERT_EQUAL(q.rx.pool->in_use, 47);         /* every delivered buffer came back */
    CU_ASSERT(q.rx.pool->nbufs <= 2 * 64 + 64);     /* recycled, not grown without end */
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    take_down();
}

static void test_teardown(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    e1000_rxq_teardown(&q);
    long t = fake_find(d, FAKE_W32, E1000_RCTL, 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].val & E1000_RCTL_EN, 0);
    CU_ASSERT_EQUAL(fake_cost_count(d, "skb_free"), 255);
    CU_ASSERT_PTR_NULL(q.rx.slot);
    e1000_rxq_teardown(&q);                         /* twice: harmless */
    fake_destroy(d);
}

/* ---- NAPI ----------------------------------------------------------------- */

static struct e1000_napi napi;

static int napi_up(const struct e1000_napi_opts *no, uint32_t ring)
{
    struct e1000_rx_opts o;
    e1000_rx_default_opts(&o);
    o.ring_size = ring;
    int rc = bring_up(&o);
    if (rc)
        return rc;
    struct e1000_napi_port p = { .dev = &dev, .rxq = &q, .deliver = deliver_cb, .deliver_arg = d };
    return e1000_napi_init(&napi, &p, 1, no);
}

static void test_napi_irq_poll_reenable(void)
{
    CU_ASSERT_EQUAL_FATAL(napi_up(NULL, 256), 0);
    for (unsigned k = 0; k < 10; k++)
        inject(60, k);
    CU_ASSERT(fake_reg_get(d, E1000_ICR) & E1000_ICR_RXT0);
    /* step 1: the interrupt: ICR read, everything masked */
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_POLL);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_ICR), 1);
    long imc = fake_find(d, FAKE_W32, E1000_IMC, 0);
    CU_ASSERT_FATAL(imc > fake_find(d, FAKE_R32, E1000_ICR, 0));
    CU_ASSERT_EQUAL(d->log[imc].val, 0xFFFFFFFFu);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_IMS), 0);
    CU_ASSERT_EQUAL(nseen, 0);
    CU_ASSERT_EQUAL(napi.stats.icr_seen, E1000_ICR_RXT0);
    /* step 2: a round under budget: everything delivered, then IMS */
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 10);
    CU_ASSERT_EQUAL(nseen, 10);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), 1);
    CU_ASSERT_EQUAL(count_w32(E1000_IMS), 1);
    long ims = fake_find(d, FAKE_W32, E1000_IMS, 0);
    CU_ASSERT_EQUAL(d->log[ims].val, E1000_IMS_ENABLE_MASK);
    for (size_t i = (size_t)ims; i < d->log_n; i++)    /* after the last descriptor read */
        CU_ASSERT_NOT_EQUAL(d->log[i].kind, FAKE_MEMR);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_STATUS), 0);   /* no flush by default */
    CU_ASSERT_EQUAL(napi.stats.irqs, 1);
    CU_ASSERT_EQUAL(napi.stats.imc_writes, 1);
    CU_ASSERT_EQUAL(napi.stats.ims_writes, 1);
    take_down();
}

static void test_napi_budget(void)
{
    static const unsigned frames[] = { 150, 128, 64, 63 };
    for (unsigned c = 0; c < 4; c++) {
        CU_ASSERT_EQUAL_FATAL(napi_up(NULL, 256), 0);
        unsigned n = frames[c];
        for (unsigned k = 0; k < n; k++)
            inject(60, k);
        e1000_napi_step(&napi);                     /* the interrupt */
        unsigned rounds = 0, got = 0;
        while (napi.state == E1000_NAPI_POLL && rounds < 10) {
            unsigned before = nseen;
            e1000_napi_step(&napi);
            rounds++;
            got = nseen - before;
            CU_ASSERT(got <= 64);
            /* IMS only after a round that stayed under budget */
            CU_ASSERT_EQUAL(count_w32(E1000_IMS), got < 64 ? 1u : 0u);
        }
        CU_ASSERT_EQUAL(nseen, n);
        CU_ASSERT_EQUAL(rounds, n / 64 + 1);        /* 150: 64 64 22; 128: 64 64 0 */
        CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), rounds);
        CU_ASSERT_EQUAL(napi.stats.full_rounds, rounds - 1);
        CU_ASSERT_EQUAL(count_w32(E1000_IMS), 1);
        take_down();
    }

    /* another weight */
    struct e1000_napi_opts no;
    e1000_napi_default_opts(&no);
    no.weight = 16;
    CU_ASSERT_EQUAL_FATAL(napi_up(&no, 256), 0);
    for (unsigned k = 0; k < 40; k++)
        inject(60, k);
    e1000_napi_step(&napi);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 16);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 16);
    CU_ASSERT_EQUAL(count_w32(E1000_IMS), 0);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 8);
    CU_ASSERT_EQUAL(count_w32(E1000_IMS), 1);
    take_down();
}

static void test_napi_timeout_polls_anyway(void)
{
    CU_ASSERT_EQUAL_FATAL(napi_up(NULL, 256), 0);
    /* frames whose interrupt is lost (masked): the wait times out, the
     * round finds them, and no IMS is written (nothing was masked by NAPI) */
    plat_write32(d, E1000_IMC, 0xFFFFFFFFu);
    fake_log_clear(d);
    for (unsigned k = 0; k < 3; k++)
        inject(60, k);
    uint64_t t0 = d->now_ns;
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    CU_ASSERT_EQUAL(d->now_ns - t0, 1000000);
    CU_ASSERT_EQUAL(napi.stats.timeouts, 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_ICR), 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_POLL);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 3);
    CU_ASSERT_EQUAL(nseen, 3);
    CU_ASSERT_EQUAL(count_w32(E1000_IMS), 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    take_down();
}

static uint32_t icr_zero_hook(struct plat_dev *pd, uint32_t reg, uint32_t val, void *arg)
{
    (void)pd;
    (void)arg;
    return reg == E1000_ICR ? 0 : val;
}

static void test_napi_not_ours(void)
{
    CU_ASSERT_EQUAL_FATAL(napi_up(NULL, 256), 0);
    fake_reg_set(d, E1000_ICR, E1000_ICR_RXT0);
    d->read_hook = icr_zero_hook;
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    CU_ASSERT_EQUAL(napi.stats.irqs, 1);
    CU_ASSERT_EQUAL(napi.stats.not_ours, 1);
    CU_ASSERT_EQUAL(count_w32(E1000_IMC), 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    take_down();
}

static void test_napi_flush(void)
{
    struct e1000_napi_opts no;
    e1000_napi_default_opts(&no);
    no.flush = 1;
    no.ims = E1000_IMS_RXT0;
    CU_ASSERT_EQUAL_FATAL(napi_up(&no, 256), 0);
    inject(60, 0);
    e1000_napi_step(&napi);
    e1000_napi_step(&napi);
    long imc = fake_find(d, FAKE_W32, E1000_IMC, 0), ims = fake_find(d, FAKE_W32, E1000_IMS, 0);
    CU_ASSERT_FATAL(imc >= 0 && ims > imc);
    CU_ASSERT_EQUAL(d->log[imc + 1].kind, FAKE_R32);
    CU_ASSERT_EQUAL(d->log[imc + 1].reg, E1000_STATUS);
    CU_ASSERT_EQUAL(d->log[ims + 1].kind, FAKE_R32);
    CU_ASSERT_EQUAL(d->log[ims + 1].reg, E1000_STATUS);
    CU_ASSERT_EQUAL(d->log[ims].val, E1000_IMS_RXT0);
    take_down();
}

/* ---- NAPI over two ports of one CPU -------------------------------------- */

/* A second port of the same host as d (a sibling: shared DMA arena). */
static struct plat_dev *d2;
static struct e1000_dev dev2;
static struct e1000_rxq q2;
static struct e1000_txq tq2;

static unsigned tx_done_n;
static void tx_done_cb(void *arg, void *cookie)
{
    (void)arg;
    (void)cookie;
    tx_done_n++;
}

/* bring_up() for port 0 (RX), then port 1 with an RX and/or a TX queue, and
 * one NAPI loop over both. */
static void napi2_up(const struct e1000_napi_opts *no, int rx1, int tx1)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    d2 = fake_create_sibling(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d2);
    fake_reg_set(d2, E1000_STATUS, STATUS_UP);
    memset(&q2, 0, sizeof q2);
    memset(&tq2, 0, sizeof tq2);
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev2, d2, NULL), 0);
    if (rx1)
        CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&q2, &dev2, NULL, NULL), 0);
    if (tx1)
        CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&tq2, &dev2, NULL), 0);
    fake_log_clear(d2);
    tx_done_n = 0;
    struct e1000_napi_port p[2] = {
        { .dev = &dev, .rxq = &q, .deliver = deliver_cb, .deliver_arg = d },
        { .dev = &dev2, .rxq = rx1 ? &q2 : NULL, .txq = tx1 ? &tq2 : NULL,
          .deliver = deliver_cb, .deliver_arg = d2, .tx_done = tx_done_cb },
    };
    CU_ASSERT_EQUAL_FATAL(e1000_napi_init(&napi, p, 2, no), 0);
}

static void napi2_down(void)
{
    e1000_txq_teardown(&tq2, NULL, NULL);
    if (q2.rx.slot)
        e1000_rxq_teardown(&q2);
    fake_destroy(d2);
    d2 = NULL;
    take_down();
}

static void inject2(uint32_t len, uint32_t seed)
{
    CU_ASSERT_FATAL(fake_nic_rx(d2, make_frame(len, seed), len, 0) > 0);
}

/* Whether what deliver() saw at position i is the frame (60, seed). */
static int seen_is(unsigned i, uint32_t seed)
{
    return i < nseen && seen[i].pkt.len == 60 && memcmp(seen[i].head, make_frame(60, seed), 60) == 0;
}

static void test_napi_two_ports(void)
{
    /* the port that interrupts is masked, listed, polled and unmasked; the
     * other one is neither polled nor touched */
    napi2_up(NULL, 1, 0);
    inject2(60, 7);
    e1000_napi_step(&napi);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_ICR), 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_R32, E1000_ICR), 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMC), 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMC), 1);
    CU_ASSERT_EQUAL(napi.polling[0], 0);
    CU_ASSERT_EQUAL(napi.polling[1], 1);
    CU_ASSERT_EQUAL(napi.nlist, 1);
    CU_ASSERT_EQUAL(napi.list[0], 1);
    CU_ASSERT_EQUAL(napi.port_stats[1].irqs, 1);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 1);
    CU_ASSERT_EQUAL(nseen, 1);
    CU_ASSERT(seen_is(0, 7));
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);     /* port 0 was not polled */
    CU_ASSERT_EQUAL(napi.port_stats[0].polls, 0);
    CU_ASSERT_EQUAL(napi.port_stats[1].polls, 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), 1);  /* charged on the first handle */
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    CU_ASSERT_EQUAL(napi.nlist, 0);

    /* a frame behind a masked interrupt: the wait times out and the sweep
     * polls both ports once, masking and listing neither */
    plat_write32(d, E1000_IMC, 0xFFFFFFFFu);
    fake_log_clear(d);
    fake_log_clear(d2);
    inject(60, 8);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    CU_ASSERT_EQUAL(napi.stats.timeouts, 1);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 1);
    CU_ASSERT(seen_is(1, 8));
    CU_ASSERT(fake_count(d, FAKE_MEMR, 0) > 0);
    CU_ASSERT(fake_count(d2, FAKE_MEMR, 0) > 0);
    CU_ASSERT_EQUAL(napi.port_stats[0].polls, 1);
    CU_ASSERT_EQUAL(napi.port_stats[1].polls, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMC) + fake_count(d2, FAKE_W32, E1000_IMC), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS) + fake_count(d2, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(napi.nlist, 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    napi2_down();
}

static void test_napi_exit_rules(void)
{
    /* a TX queue with reclaim work and no RX: UNDER_BUDGET leaves polling
     * after one round; IDLE polls again until a round finds nothing */
    for (int rule = 0; rule < 2; rule++) {
        CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
        d->nic_mode = FAKE_NIC_ON_TDT;
        struct e1000_txq tq;
        CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&tq, &dev, NULL), 0);
        struct e1000_napi_opts no;
        e1000_napi_default_opts(&no);
        no.exit_rule = (uint8_t)rule;
        struct e1000_napi_port p = { .dev = &dev, .rxq = &q, .txq = &tq, .deliver = deliver_cb,
                                     .deliver_arg = d, .tx_done = tx_done_cb };
        CU_ASSERT_EQUAL_FATAL(e1000_napi_init(&napi, &p, 1, &no), 0);
        tx_done_n = 0;
        for (unsigned k = 0; k < 5; k++)
            CU_ASSERT_EQUAL(e1000_xmit(&tq, 0x2000000000ull, 60, NULL, 0), 0);
        fake_log_clear(d);
        CU_ASSERT(fake_reg_get(d, E1000_ICR) & E1000_ICR_TXDW);
        e1000_napi_step(&napi);                     /* TXDW interrupt */
        CU_ASSERT_EQUAL(e1000_napi_step(&napi), 5);
        CU_ASSERT_EQUAL(tx_done_n, 5);
        if (rule == E1000_NAPI_EXIT_UNDER_BUDGET) {
            CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
            CU_ASSERT_EQUAL(count_w32(E1000_IMS), 1);
        } else {
            CU_ASSERT_EQUAL(napi.state, E1000_NAPI_POLL);
            CU_ASSERT_EQUAL(count_w32(E1000_IMS), 0);
            CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
            CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
            CU_ASSERT_EQUAL(count_w32(E1000_IMS), 1);
            CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), 2);
        }
        e1000_txq_teardown(&tq, NULL, NULL);
        take_down();
    }
}

static void test_napi_tx_port_waits_for_its_irq(void)
{
    /* port 1 only transmits; its packets are done (DD written back) but
     * its interrupt has not been raised yet (the delay timer runs): port
     * 0's rounds must not reclaim them; port 1's own interrupt does */
    napi2_up(NULL, 0, 1);
    for (unsigned k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&tq2, 0x2000000000ull, 60, NULL, 0), 0);
    CU_ASSERT_EQUAL(fake_nic_tx_run(d2, ~0u), 5);
    fake_reg_set(d2, E1000_ICR, 0);
    for (unsigned k = 0; k < 150; k++)
        inject(60, k);
    fake_log_clear(d);
    fake_log_clear(d2);
    e1000_napi_step(&napi);                         /* port 0's interrupt */
    unsigned rounds = 0;
    while (napi.state == E1000_NAPI_POLL && rounds < 10) {
        e1000_napi_step(&napi);
        rounds++;
    }
    CU_ASSERT_EQUAL(rounds, 3);                     /* 64 64 22 */
    CU_ASSERT_EQUAL(nseen, 150);
    CU_ASSERT_EQUAL(tx_done_n, 0);
    CU_ASSERT_EQUAL(tq2.stats.reclaimed, 0);
    CU_ASSERT_EQUAL(napi.port_stats[1].polls, 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_MEMR, 0), 0);  /* not a DD read */
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_R32, E1000_ICR), 0);
    CU_ASSERT_EQUAL(napi.polling[1], 0);

    /* the timer fires: port 1 is listed and polled alone */
    fake_reg_set(d2, E1000_ICR, E1000_ICR_TXDW);
    fake_log_clear(d);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_R32, E1000_ICR), 1);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMC), 1);
    CU_ASSERT_EQUAL(napi.polling[1], 1);
    CU_ASSERT_EQUAL(napi.list[0], 1);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 5);
    CU_ASSERT_EQUAL(tx_done_n, 5);
    CU_ASSERT_EQUAL(napi.stats.tx_reclaimed, 5);
    CU_ASSERT_EQUAL(napi.port_stats[1].tx_reclaimed, 5);
    CU_ASSERT_EQUAL(napi.port_stats[0].polls, 3);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);   /* port 0 left: not polled */
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    napi2_down();
}

static void test_napi_port_leaves_by_own_work(void)
{
    /* both ports listed: port 1 (10 frames) leaves after its first poll,
     * port 0 (150 frames) stays while it uses its whole weight */
    napi2_up(NULL, 1, 0);
    for (unsigned k = 0; k < 150; k++)
        inject(60, k);
    for (unsigned k = 0; k < 10; k++)
        inject2(60, 500 + k);
    fake_log_clear(d);
    fake_log_clear(d2);
    e1000_napi_step(&napi);                         /* port 0's interrupt */
    CU_ASSERT_EQUAL(napi.nlist, 1);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 74);    /* port 1's interrupt, then 64 + 10 */
    CU_ASSERT_EQUAL(napi.port_stats[1].irqs, 1);
    CU_ASSERT_EQUAL(napi.polling[0], 1);
    CU_ASSERT_EQUAL(napi.polling[1], 0);
    CU_ASSERT_EQUAL(napi.nlist, 1);
    CU_ASSERT_EQUAL(napi.list[0], 0);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_POLL);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT(seen_is(63, 63) && seen_is(64, 500) && seen_is(73, 509));
    fake_log_clear(d2);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 64);    /* port 0 alone */
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_MEMR, 0), 0);
    CU_ASSERT_EQUAL(napi.port_stats[1].polls, 1);
    CU_ASSERT_EQUAL(napi.port_stats[0].polls, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 22);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    CU_ASSERT_EQUAL(nseen, 160);
    CU_ASSERT_EQUAL(napi.stats.rounds, 3);
    CU_ASSERT_EQUAL(napi.stats.full_rounds, 2);
    CU_ASSERT_EQUAL(napi.port_stats[0].stays, 2);
    CU_ASSERT_EQUAL(napi.port_stats[1].stays, 0);
    napi2_down();
}

static void test_napi_irq_taken_between_rounds(void)
{
    /* port 1 polls; port 0's interrupt arrives meanwhile: it is taken
     * before the next round without waiting, and port 0 is polled after
     * port 1 (it joined the list later) */
    napi2_up(NULL, 1, 0);
    for (unsigned k = 0; k < 150; k++)
        inject2(60, k);
    e1000_napi_step(&napi);                         /* port 1's interrupt */
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 64);
    CU_ASSERT_EQUAL(napi.polling[0], 0);
    inject(60, 1000);
    CU_ASSERT(fake_reg_get(d, E1000_ICR) & fake_reg_get(d, E1000_IMS));
    fake_log_clear(d);
    uint64_t t0 = d->now_ns;
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 65);
    CU_ASSERT(d->now_ns - t0 < napi.opts.wait_ns);
    CU_ASSERT_EQUAL(napi.stats.timeouts, 0);
    CU_ASSERT_EQUAL(napi.stats.irqs, 2);
    CU_ASSERT_EQUAL(napi.port_stats[0].irqs, 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_ICR), 1);
    long icr = fake_find(d, FAKE_R32, E1000_ICR, 0), imc = fake_find(d, FAKE_W32, E1000_IMC, 0);
    long memr = fake_find(d, FAKE_MEMR, 0, 0);
    CU_ASSERT_FATAL(icr >= 0 && imc > icr && memr > imc);  /* masked before polled */
    CU_ASSERT_EQUAL(d->log[imc].val, 0xFFFFFFFFu);
    CU_ASSERT(seen_is(127, 127));                   /* port 1 first ... */
    CU_ASSERT(seen_is(128, 1000));                  /* ... then port 0 */
    CU_ASSERT_EQUAL(napi.port_stats[0].polls, 1);
    /* port 0 left by its own work, port 1 stays */
    CU_ASSERT_EQUAL(napi.polling[0], 0);
    CU_ASSERT_EQUAL(napi.polling[1], 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_POLL);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 22);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    CU_ASSERT_EQUAL(nseen, 151);
    CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), 3);
    napi2_down();
}

static void test_napi_ims_only_on_leaver(void)
{
    /* IDLE rule: port 0 keeps receiving, port 1 (TX) has nothing left to
     * reclaim after its first poll; IMS goes to port 1 alone, with its own
     * device's mask, while port 0 stays masked */
    struct e1000_napi_opts no;
    e1000_napi_default_opts(&no);
    no.exit_rule = E1000_NAPI_EXIT_IDLE;
    napi2_up(&no, 0, 1);
    dev2.opts.ims = E1000_IMS_TXDW;
    d2->nic_mode = FAKE_NIC_ON_TDT;
    for (unsigned k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&tq2, 0x2000000000ull, 60, NULL, 0), 0);
    for (unsigned k = 0; k < 5; k++)
        inject(60, k);
    fake_log_clear(d);
    fake_log_clear(d2);
    e1000_napi_step(&napi);                         /* port 0's interrupt */
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 10);    /* port 1's; 5 received, 5 reclaimed */
    CU_ASSERT_EQUAL(napi.nlist, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS) + fake_count(d2, FAKE_W32, E1000_IMS), 0);
    for (unsigned k = 0; k < 3; k++)
        inject(60, 10 + k);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 3);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMS), 1);
    long ims = fake_find(d2, FAKE_W32, E1000_IMS, 0);
    CU_ASSERT_FATAL(ims >= 0);
    CU_ASSERT_EQUAL(d2->log[ims].val, E1000_IMS_TXDW);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_IMS), 0);  /* port 0 still masked */
    CU_ASSERT_EQUAL(napi.polling[0], 1);
    CU_ASSERT_EQUAL(napi.polling[1], 0);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);     /* port 0 idle: it leaves */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 1);
    ims = fake_find(d, FAKE_W32, E1000_IMS, 0);
    CU_ASSERT_FATAL(ims >= 0);
    CU_ASSERT_EQUAL(d->log[ims].val, E1000_IMS_ENABLE_MASK);
    CU_ASSERT_EQUAL(fake_count(d2, FAKE_W32, E1000_IMS), 1);
    CU_ASSERT_EQUAL(napi.port_stats[0].ims_writes, 1);
    CU_ASSERT_EQUAL(napi.port_stats[1].ims_writes, 1);
    CU_ASSERT_EQUAL(napi.stats.ims_writes, 2);
    CU_ASSERT_EQUAL(napi.state, E1000_NAPI_WAIT);
    napi2_down();
}

static void test_napi_params(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    struct e1000_napi_port p = { .dev = &dev, .rxq = &q };
    struct e1000_napi_port many[E1000_NAPI_MAX_PORTS + 1];
    for (unsigned i = 0; i <= E1000_NAPI_MAX_PORTS; i++)
        many[i] = p;
    struct e1000_napi_opts no;
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &p, 0, NULL), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, many, E1000_NAPI_MAX_PORTS + 1, NULL), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, many, E1000_NAPI_MAX_PORTS, NULL), 0);
    e1000_napi_default_opts(&no);
    no.weight = 0;
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &p, 1, &no), E1000_ERR_PARAM);
    e1000_napi_default_opts(&no);
    no.wait_ns = 0;
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &p, 1, &no), E1000_ERR_PARAM);
    e1000_napi_default_opts(&no);
    no.exit_rule = 2;
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &p, 1, &no), E1000_ERR_PARAM);
    p.dev = NULL;
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &p, 1, NULL), E1000_ERR_PARAM);
    /* a port without queues is waited on and polled for nothing */
    struct e1000_napi_port bare = { .dev = &dev };
    CU_ASSERT_EQUAL(e1000_napi_init(&napi, &bare, 1, NULL), 0);
    e1000_napi_step(&napi);
    CU_ASSERT_EQUAL(e1000_napi_step(&napi), 0);
    take_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("E1000Rx", NULL, NULL);
    CU_add_test(s, "SetupSequence", test_setup_sequence);
    CU_add_test(s, "Params", test_params);
    CU_add_test(s, "BufferPool", test_buffer_pool);
    CU_add_test(s, "DeliverInOrder", test_deliver_in_order);
    CU_add_test(s, "Budget", test_budget);
    CU_add_test(s, "MultiDescriptorDropped", test_multi_descriptor_dropped);
    CU_add_test(s, "ErrorsDropped", test_errors_dropped);
    CU_add_test(s, "FcsAndSecrc", test_fcs_and_secrc);
    CU_add_test(s, "CopybreakThreshold", test_copybreak_threshold);
    CU_add_test(s, "CopybreakWithoutSmallBuffer", test_copybreak_without_small_buffer);
    CU_add_test(s, "RdtBatching", test_rdt_batching);
    CU_add_test(s, "PrefetchPoints", test_prefetch_points);
    CU_add_test(s, "PrefetchNextHeaderOnlyWhenPosted", test_prefetch_next_header_only_when_posted);
    CU_add_test(s, "WrapAround", test_wrap_around);
    CU_add_test(s, "Teardown", test_teardown);
    CU_add_test(s, "NapiIrqPollReenable", test_napi_irq_poll_reenable);
    CU_add_test(s, "NapiBudget", test_napi_budget);
    CU_add_test(s, "NapiTimeoutPollsAnyway", test_napi_timeout_polls_anyway);
    CU_add_test(s, "NapiNotOurs", test_napi_not_ours);
    CU_add_test(s, "NapiFlush", test_napi_flush);
    CU_add_test(s, "NapiTwoPorts", test_napi_two_ports);
    CU_add_test(s, "NapiExitRules", test_napi_exit_rules);
    CU_add_test(s, "NapiTxPortWaitsForItsIrq", test_napi_tx_port_waits_for_its_irq);
    CU_add_test(s, "NapiPortLeavesByOwnWork", test_napi_port_leaves_by_own_work);
    CU_add_test(s, "NapiIrqTakenBetweenRounds", test_napi_irq_taken_between_rounds);
    CU_add_test(s, "NapiImsOnlyOnLeaver", test_napi_ims_only_on_leaver);
    CU_add_test(s, "NapiParams", test_napi_params);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
