/* Unit tests of the router app and its route cache over four fake ports of
 * one host (plat_fake.h siblings sharing one DMA arena): forwarding eth0 ->
 * eth1 and eth2 -> eth3, TTL and incremental checksum, header drops, route
 * cache hits and misses with one and many flows, eviction, ring-full drops,
 * copybreak buffers on the wire, and buffer accounting. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_rx.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/apps/router.h"
#include "../../driver/apps/route_cache.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define NP 4

static struct plat_dev *pd[NP];
static struct e1000_dev dev[NP];
static struct e1000_rxq rxq[NP];
static struct e1000_txq txq[NP];
static struct router_port ports[NP];
static struct router r;
static const struct router_pair pairs[2] = { { 0, 1 }, { 2, 3 } };

struct setup {
    struct router_opts ro;
    struct e1000_rx_opts rxo;
    struct e1000_tx_opts txo;
    enum fake_nic_mode txmode;
};

static void default_setup(struct setup *s)
{
    router_default_opts(&s->ro);
    e1000_rx_default_opts(&s->rxo);
    e1000_tx_default_opts(&s->txo);
    s->txmode = FAKE_NIC_ON_TDT;
    s->ro.rt.buckets = 1024;
    s->ro.rt.max_entries = 4096;
}

/* Four ports with RX and TX queues; no router yet. */
static void ports_up(const struct setup *s)
{
    pd[0] = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(pd[0]);
    for (int i = 1; i < NP; i++) {
        pd[i] = fake_create_sibling(pd[0]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pd[i]);
    }
    for (int i = 0; i < NP; i++) {
        fake_reg_set(pd[i], E1000_STATUS, STATUS_UP);
        pd[i]->nic_mode = s->txmode;
        CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev[i], pd[i], NULL), 0);
        CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&rxq[i], &dev[i], &s->rxo, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&txq[i], &dev[i], &s->txo), 0);
        ports[i] = (struct router_port){
            .dev = &dev[i], .rxq = &rxq[i], .txq = &txq[i],
            .mac = { 0x02, 0, 0, 0, 0x01, (uint8_t)i },
            .next_hop_mac = { 0x02, 0, 0, 0, 0x02, (uint8_t)i },
        };
    }
}

static int start(const struct setup *s)
{
    ports_up(s);
    int rc = router_init(&r, ports, NP, pairs, 2, &s->ro, NULL);
    for (int i = 0; i < NP; i++)
        fake_log_clear(pd[i]);
    return rc;
}

static void ports_down(void)
{
    for (int i = 0; i < NP; i++) {
        if (txq[i].slot)
            e1000_txq_teardown(&txq[i], router_tx_done, &r.ctx[i]);
    }
    for (int i = 0; i < NP; i++)
        if (rxq[i].rx.slot)
            e1000_rxq_teardown(&rxq[i]);
    for (int i = NP - 1; i >= 0; i--) {
        fake_destroy(pd[i]);
        pd[i] = NULL;
    }
}

static void stop(void)
{
    router_fini(&r);
    ports_down();
}

/* Step until two poll rounds in a row found nothing. */
static void run(void)
{
    int idle = 0;
    for (int i = 0; i < 200000 && idle < 2; i++) {
        int was_poll = r.napi.state == E1000_NAPI_POLL;
        unsigned w = router_step(&r);
        if (w)
            idle = 0;
        else if (was_poll)
            idle++;
    }
    CU_ASSERT(idle >= 2);
}

/* ---- frames --------------------------------------------------------------- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, (uint16_t)(v >> 16)); wr16(p + 2, (uint16_t)v); }

static uint16_t sum16(const uint8_t *h, unsigned n)
{
    uint32_t s = 0;
    for (unsigned i = 0; i + 1 < n; i += 2)
        s += rd16(h + i);
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

struct flow {
    uint32_t saddr, daddr;
    uint8_t ttl;
    uint16_t id;
    uint8_t ihl;        /* 32-bit words; 0 = 5 */
};

static uint8_t fbuf[2048];

/* An Ethernet + IPv4 + UDP frame of len bytes (without FCS). */
static const uint8_t *build(const struct flow *f, uint32_t len, unsigned port)
{
    memset(fbuf, 0, sizeof fbuf);
    memcpy(fbuf, ports[port].mac, 6);
    memcpy(fbuf + 6, "\x02\x00\x00\x00\x09\x09", 6);
    wr16(fbuf + 12, 0x0800);
    uint8_t *ip = fbuf + 14;
    unsigned ihl = f->ihl ? f->ihl : 5;
    ip[0] = (uint8_t)(0x40 | ihl);
    wr16(ip + 2, (uint16_t)(len - 14));
    wr16(ip + 4, f->id);
    ip[8] = f->ttl;
    ip[9] = 17;
    wr32(ip + 12, f->saddr);
    wr32(ip + 16, f->daddr);
    for (unsigned i = 20; i < ihl * 4; i++)
        ip[i] = 1;                                  /* NOP options */
    wr16(ip + 10, (uint16_t)~sum16(ip, ihl * 4));
    for (uint32_t i = 14 + ihl * 4; i < len; i++)
        fbuf[i] = (uint8_t)(i + f->id);
    return fbuf;
}

static void inject(unsigned port, const struct flow *f, uint32_t len)
{
    CU_ASSERT_FATAL(fake_nic_rx(pd[port], build(f, len, port), len, 0) > 0);
}

static struct flow flow_n(unsigned n)
{
    return (struct flow){ .saddr = 0x0A000001u, .daddr = 0x0B000000u + n, .ttl = 64,
                          .id = (uint16_t)n };
}

/* The forwarded frame k on port p matches what was sent, TTL - 1 and MACs. */
static void check_forwarded(unsigned p, size_t k, const struct flow *f, uint32_t len,
                            unsigned in_port)
{
    CU_ASSERT_FATAL(k < pd[p]->nframes);
    const struct fake_frame *fr = &pd[p]->frames[k];
    CU_ASSERT_EQUAL_FATAL(fr->len, len);
    const uint8_t *want = build(f, len, in_port);
    CU_ASSERT(memcmp(fr->data, ports[p].next_hop_mac, 6) == 0);
    CU_ASSERT(memcmp(fr->data + 6, ports[p].mac, 6) == 0);
    const uint8_t *ip = fr->data + 14;
    unsigned ihl = (ip[0] & 15u) * 4u;
    CU_ASSERT_EQUAL(ip[8], f->ttl - 1);
    CU_ASSERT_EQUAL(sum16(ip, ihl), 0xFFFF);        /* checksum still right */
    CU_ASSERT(memcmp(fr->data + 12, want + 12, 22 - 12) == 0);
    CU_ASSERT_EQUAL(fr->data[23], want[23]);
    CU_ASSERT(memcmp(fr->data + 26, want + 26, len - 26) == 0);
}

/* Buffers a queue's slots hold (posted or kept for re-posting). */
static unsigned ring_bufs(const struct e1000_rxq *q)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < q->rx.count; i++)
        n += q->rx.slot[i] != NULL;
    return n;
}

static struct router_port_stats stats(unsigned p)
{
    struct router_port_stats s;
    router_port_stats(&r, p, &s);
    return s;
}

/* ---- forwarding ------------------------------------------------------------ */

static void test_forward_and_rewrite(void)
{
    struct setup s;
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    static const uint8_t ttls[] = { 64, 2, 255, 10, 100 };
    static const uint32_t lens[] = { 60, 100, 1514, 60, 300 };
    struct flow f[5];
    for (unsigned k = 0; k < 5; k++) {
        f[k] = flow_n(7);
        f[k].ttl = ttls[k];
        f[k].id = (uint16_t)(1000 + k);
        inject(0, &f[k], lens[k]);
    }
    run();
    CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 5);
    for (unsigned k = 0; k < 5; k++)
        check_forwarded(1, k, &f[k], lens[k], 0);
    CU_ASSERT_EQUAL(pd[0]->nframes + pd[2]->nframes + pd[3]->nframes, 0);
    struct router_port_stats s0 = stats(0), s1 = stats(1);
    CU_ASSERT_EQUAL(s0.rx, 5);
    CU_ASSERT_EQUAL(s1.forwarded, 5);
    CU_ASSERT_EQUAL(s0.rt_misses, 1);               /* one flow */
    CU_ASSERT_EQUAL(s0.rt_hits, 4);
    CU_ASSERT_EQUAL(s0.drop_header + s0.drop_ttl + s0.drop_no_route + s1.drop_ring_full, 0);
    CU_ASSERT_EQUAL(pd[0]->packets_counted, 5);
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "stack_rx"), 5);
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "ip_forward"), 5);
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "fib_lookup"), 1);
    /* the stack read the Ethernet and IP headers (34 bytes) of every frame;
     * the copybreak copy read the frames of at most 256 bytes whole, with
     * the two alignment bytes in front (60 + 2, 100 + 2, 60 + 2) */
    unsigned reads34 = 0, reads62 = 0, reads102 = 0;
    for (size_t i = 0; i < pd[0]->log_n; i++) {
        if (pd[0]->log[i].kind != FAKE_COPY_FROM)
            continue;
        reads34 += pd[0]->log[i].val == 34;
        reads62 += pd[0]->log[i].val == 62;
        reads102 += pd[0]->log[i].val == 102;
    }
    CU_ASSERT_EQUAL(reads34, 5);
    CU_ASSERT_EQUAL(reads62, 2);
    CU_ASSERT_EQUAL(reads102, 1);
    /* every buffer came back: reclaimed by eth1's TX clean ("skb_free" there) */
    CU_ASSERT_EQUAL(txq[1].stats.reclaimed, 5);
    CU_ASSERT_EQUAL(fake_cost_count(pd[1], "skb_free"), 5);
    CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, ring_bufs(&rxq[0]));
    /* interrupts back on */
    CU_ASSERT_EQUAL(fake_reg_get(pd[0], E1000_IMS), E1000_IMS_ENABLE_MASK);
    CU_ASSERT_EQUAL(r.napi.state, E1000_NAPI_WAIT);
    CU_ASSERT_EQUAL(pd[0]->bad_accesses, 0);
    CU_ASSERT_EQUAL(pd[1]->nic_errors, 0);
    stop();
}

static void test_two_pairs_one_cpu(void)
{
    struct setup s;
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    for (unsigned k = 0; k < 40; k++) {
        struct flow f = flow_n(k);
        inject(k % 2 ? 2 : 0, &f, 60 + k);
    }
    run();
    CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 20);
    CU_ASSERT_EQUAL_FATAL(pd[3]->nframes, 20);
    for (unsigned k = 0; k < 40; k++) {
        struct flow f = flow_n(k);
        check_forwarded(k % 2 ? 3 : 1, k / 2, &f, 60 + k, k % 2 ? 2 : 0);
    }
    CU_ASSERT_EQUAL(stats(1).forwarded, 20);
    CU_ASSERT_EQUAL(stats(3).forwarded, 20);
    CU_ASSERT_EQUAL(stats(0).rt_misses + stats(2).rt_misses, 40);
    stop();
}

static int find_id_for_check(struct flow *f, uint16_t want)
{
    for (uint32_t id = 0; id < 65536; id++) {
        f->id = (uint16_t)id;
        if (rd16(build(f, 60, 0) + 24) == want)
            return 1;
    }
    return 0;
}

static void test_checksum_incremental(void)
{
    struct setup s;
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    uint32_t rng = 99;
    struct flow fl[200];
    for (unsigned k = 0; k < 200; k++) {
        rng = rng * 1664525u + 1013904223u;
        fl[k] = (struct flow){ .saddr = rng, .daddr = rng * 7u + 3u,
                               .ttl = (uint8_t)(2 + (rng >> 24) % 254), .id = (uint16_t)(rng >> 8) };
        inject(0, &fl[k], 60);
    }
    run();
    CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 200);
    for (unsigned k = 0; k < 200; k++)
        check_forwarded(1, k, &fl[k], 60, 0);
    stop();

    /* the end-around carry: checksum 0xFEFF becomes 0x0000 and 0xFF00
     * becomes 0x0001, as ip_decrease_ttl computes them */
    static const uint16_t in[] = { 0xFEFF, 0xFF00, 0xFFFE, 0x0000 };
    static const uint16_t out[] = { 0x0000, 0x0001, 0x00FF, 0x0100 };
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    for (unsigned c = 0; c < 4; c++) {
        struct flow f = flow_n(c);
        f.ttl = 17;
        if (!find_id_for_check(&f, in[c]))
            continue;   /* a checksum of 0x0000 needs a sum of 0xFFFF: may not exist */
        inject(0, &f, 60);
        run();
        const struct fake_frame *fr = &pd[1]->frames[pd[1]->nframes - 1];
        CU_ASSERT_EQUAL(rd16(fr->data + 24), out[c]);
        CU_ASSERT_EQUAL(sum16(fr->data + 14, 20), 0xFFFF);
        CU_ASSERT_EQUAL(fr->data[22], 16);
    }
    CU_ASSERT(pd[1]->nframes >= 3);
    stop();
}

static void test_ip_options(void)
{
    struct setup s;
    default_setup(&s);
    s.rxo.copybreak = 0;
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    struct flow f = flow_n(1);
    f.ihl = 6;
    inject(0, &f, 80);
    run();
    CU_ASSERT_EQUAL(pd[0]->copy_from_bytes, 34 + 4);  /* 14 + 24: 4 bytes past the first read */
    f.ihl = 15;                                     /* 60-byte header: 74 > 34 */
    inject(0, &f, 120);
    run();
    CU_ASSERT_EQUAL(pd[0]->copy_from_bytes, 38 + 34 + 40);
    CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 2);
    struct flow f6 = f;
    f6.ihl = 6;
    check_forwarded(1, 0, &f6, 80, 0);
    check_forwarded(1, 1, &f, 120, 0);
    stop();
}

/* ---- drops ------------------------------------------------------------------ */

static void test_drops(void)
{
    struct setup s;
    default_setup(&s);
    s.ro.route_prefix = 0x0B000000u;                /* 11.0.0.0/8 is routed */
    s.ro.route_masklen = 8;
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    struct flow f = flow_n(1);

    f.ttl = 1;
    inject(0, &f, 60);
    f.ttl = 0;
    inject(0, &f, 60);
    f.ttl = 64;
    build(&f, 60, 0);
    fbuf[24] ^= 0x55;                               /* bad header checksum */
    CU_ASSERT(fake_nic_rx(pd[0], fbuf, 60, 0) > 0);
    build(&f, 60, 0);
    wr16(fbuf + 12, 0x0806);                        /* ARP */
    CU_ASSERT(fake_nic_rx(pd[0], fbuf, 60, 0) > 0);
    build(&f, 60, 0);
    fbuf[14] = 0x65;                                /* version 6 */
    CU_ASSERT(fake_nic_rx(pd[0], fbuf, 60, 0) > 0);
    build(&f, 60, 0);
    fbuf[14] = 0x44;                                /* IHL 4 */
    CU_ASSERT(fake_nic_rx(pd[0], fbuf, 60, 0) > 0);
    build(&f, 60, 0);
    wr16(fbuf + 16, 47);                            /* total length beyond the frame */
    wr16(fbuf + 24, 0);
    wr16(fbuf + 24, (uint16_t)~sum16(fbuf + 14, 20));
    CU_ASSERT(fake_nic_rx(pd[0], fbuf, 60, 0) > 0);
    CU_ASSERT(fake_nic_rx(pd[0], build(&f, 20, 0), 20, 0) > 0);   /* too short for IPv4 */
    struct flow far = f;
    far.daddr = 0xC0A80001u;                        /* 192.168.0.1: not routed */
    inject(0, &far, 60);
    inject(0, &far, 60);                            /* the negative entry is cached */
    CU_ASSERT(fake_nic_rx(pd[0], build(&f, 60, 0), 60, E1000_RXD_ERR_CE) > 0);
    inject(0, &f, 60);                              /* and one good frame */
    run();

    struct router_port_stats s0 = stats(0);
    CU_ASSERT_EQUAL(s0.rx, 11);                     /* the CRC error never reached the stack */
    CU_ASSERT_EQUAL(s0.drop_ttl, 2);
    CU_ASSERT_EQUAL(s0.drop_header, 6);
    CU_ASSERT_EQUAL(s0.drop_no_route, 2);
    CU_ASSERT_EQUAL(s0.rx_errors, 1);
    CU_ASSERT_EQUAL(s0.rt_misses, 2);
    CU_ASSERT_EQUAL(s0.rt_hits, 1);
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "fib_lookup"), 2);
    CU_ASSERT_EQUAL(stats(1).forwarded, 1);
    CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 1);
    check_forwarded(1, 0, &f, 60, 0);
    /* every dropped frame's buffer was freed at once */
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "skb_free"), 10);
    CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, ring_bufs(&rxq[0]));
    stop();
}

static void test_ring_full_drops(void)
{
    struct setup s;
    default_setup(&s);
    s.txo.ring_size = 48;
    s.txmode = FAKE_NIC_MANUAL;                     /* eth1 sends nothing until told */
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    for (unsigned k = 0; k < 100; k++) {
        struct flow f = flow_n(k % 3);
        inject(0, &f, 60);
    }
    run();
    /* 47 usable descriptors, each frame needs 1 + 2 free: 45 queued */
    CU_ASSERT_EQUAL(stats(1).forwarded, 45);
    CU_ASSERT_EQUAL(stats(1).drop_ring_full, 55);
    CU_ASSERT_EQUAL(stats(0).rx, 100);
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "skb_free"), 55);
    CU_ASSERT_EQUAL(pd[0]->packets_counted, 45);
    CU_ASSERT_EQUAL(fake_count(pd[1], FAKE_W32, E1000_TDT), 45);   /* more = 0: one per frame */
    /* the NIC catches up; the next rounds reclaim and free */
    fake_nic_tx_run(pd[1], ~0u);
    run();
    CU_ASSERT_EQUAL(pd[1]->nframes, 45);
    CU_ASSERT_EQUAL(fake_cost_count(pd[1], "skb_free"), 45);
    CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, ring_bufs(&rxq[0]));
    /* room again: forwarding resumes */
    struct flow f = flow_n(0);
    inject(0, &f, 60);
    run();
    CU_ASSERT_EQUAL(stats(1).forwarded, 46);
    stop();
}

/* ---- route cache ------------------------------------------------------------- */

static void test_route_cache_one_flow(void)
{
    struct setup s;
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    struct flow f = flow_n(5);
    for (unsigned k = 0; k < 100; k++)
        inject(0, &f, 60);
    run();
    CU_ASSERT_EQUAL(stats(0).rt_misses, 1);
    CU_ASSERT_EQUAL(stats(0).rt_hits, 99);
    CU_ASSERT_EQUAL(r.rt->stats.inserts, 1);
    CU_ASSERT_EQUAL(r.rt->stats.lookups, 100);
    CU_ASSERT_EQUAL(r.rt->stats.walked, 99);        /* the entry is first in its chain */
    CU_ASSERT_EQUAL(fake_cost_count(pd[0], "fib_lookup"), 1);
    CU_ASSERT_EQUAL(stats(1).forwarded, 100);
    stop();
}

/* Reads of route-cache memory in port 0's log. */
static unsigned cache_reads(void)
{
    unsigned n = 0;
    uintptr_t b0 = (uintptr_t)r.rt->bucket, b1 = b0 + (uintptr_t)r.rt->opts.buckets * 8;
    for (size_t i = 0; i < pd[0]->log_n; i++) {
        const struct fake_access *a = &pd[0]->log[i];
        if (a->kind != FAKE_MEMR)
            continue;
        int hit = a->addr >= b0 && a->addr < b1;
        for (uint32_t k = 0; k < r.rt->nblocks && !hit; k++) {
            uintptr_t e0 = (uintptr_t)r.rt->block[k];
            hit = a->addr >= e0 && a->addr < e0 + RT_CACHE_BLOCK * RT_CACHE_ENTRY_BYTES;
        }
        n += hit;
    }
    return n;
}

static void test_route_cache_many_flows(void)
{
    struct setup s;
    default_setup(&s);
    s.ro.rt.buckets = 256;
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    /* 500 flows, round-robin, three times: a miss the first time only */
    for (unsigned round = 0; round < 3; round++)
        for (unsigned n = 0; n < 500; n += 100) {
            for (unsigned k = n; k < n + 100; k++) {
                struct flow f = flow_n(k);
                inject(0, &f, 60);
            }
            run();
        }
    CU_ASSERT_EQUAL(stats(0).rt_misses, 500);
    CU_ASSERT_EQUAL(stats(0).rt_hits, 1000);
    CU_ASSERT_EQUAL(stats(1).forwarded, 1500);
    CU_ASSERT_EQUAL(r.rt->stats.evictions, 0);
    /* 500 entries over 256 buckets: chains are walked */
    CU_ASSERT(r.rt->stats.walked > r.rt->stats.hits);
    CU_ASSERT(cache_reads() > 3 * 1500);
    stop();

    /* "a flow is 10 packets": 32 flows of 10 back-to-back packets */
    default_setup(&s);
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    for (unsigned k = 0; k < 32; k++) {
        struct flow f = flow_n(k);
        for (unsigned j = 0; j < 10; j++)
            inject(0, &f, 60);
        if (k % 8 == 7)
            run();
    }
    CU_ASSERT_EQUAL(stats(0).rt_misses, 32);
    CU_ASSERT_EQUAL(stats(0).rt_hits, 288);
    stop();

    /* a cache smaller than the flows: oldest entries are reused, so a
     * round-robin over 500 flows with 100 entries misses every time */
    default_setup(&s);
    s.ro.rt.buckets = 64;
    s.ro.rt.max_entries = 100;
    CU_ASSERT_EQUAL_FATAL(start(&s), 0);
    for (unsigned round = 0; round < 2; round++)
        for (unsigned n = 0; n < 500; n += 100) {
            for (unsigned k = n; k < n + 100; k++) {
                struct flow f = flow_n(k);
                inject(0, &f, 60);
            }
            run();
        }
    CU_ASSERT_EQUAL(stats(0).rt_misses, 1000);
    CU_ASSERT_EQUAL(stats(0).rt_hits, 0);
    CU_ASSERT_EQUAL(r.rt->stats.evictions, 900);
    CU_ASSERT_EQUAL(r.rt->used, 100);
    CU_ASSERT_EQUAL(stats(1).forwarded, 1000);
    /* the newest 100 are still there */
    for (unsigned k = 400; k < 500; k++) {
        int out = -9;
        CU_ASSERT_EQUAL(rt_cache_lookup(r.rt, pd[0], 0x0B000000u + k, 0x0A000001u, 1, &out), 1);
        CU_ASSERT_EQUAL(out, 1);
    }
    stop();
}

static void test_route_cache_unit(void)
{
    struct plat_dev *d = fake_create();
    struct rt_cache c;
    struct rt_cache_opts o = { .buckets = 3, .max_entries = 10 };
    CU_ASSERT_EQUAL(rt_cache_init(&c, d, &o), -2);
    o.buckets = 0;
    CU_ASSERT_EQUAL(rt_cache_init(&c, d, &o), -2);
    o = (struct rt_cache_opts){ .buckets = 4, .max_entries = 0 };
    CU_ASSERT_EQUAL(rt_cache_init(&c, d, &o), -2);
    o = (struct rt_cache_opts){ .buckets = 1, .max_entries = 3 };   /* one chain */
    CU_ASSERT_EQUAL_FATAL(rt_cache_init(&c, d, &o), 0);
    int out = 0;
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 1, 2, 3, &out), 0);
    CU_ASSERT_EQUAL(rt_cache_insert(&c, d, 1, 2, 3, 7), 0);
    CU_ASSERT_EQUAL(rt_cache_insert(&c, d, 1, 2, 4, -1), 0);       /* other input port */
    CU_ASSERT_EQUAL(rt_cache_insert(&c, d, 5, 2, 3, 8), 0);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 1, 2, 3, &out), 1);
    CU_ASSERT_EQUAL(out, 7);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 1, 2, 4, &out), 1);
    CU_ASSERT_EQUAL(out, -1);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 5, 2, 3, &out), 1);
    CU_ASSERT_EQUAL(out, 8);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 1, 9, 3, &out), 0);
    /* full: the oldest (1,2,3) goes, from the tail of the chain */
    CU_ASSERT_EQUAL(rt_cache_insert(&c, d, 6, 6, 6, 2), 0);
    CU_ASSERT_EQUAL(c.stats.evictions, 1);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 1, 2, 3, &out), 0);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 6, 6, 6, &out), 1);
    CU_ASSERT_EQUAL(out, 2);
    CU_ASSERT_EQUAL(rt_cache_lookup(&c, d, 5, 2, 3, &out), 1);
    /* the entry was touched in full when it was made, through modelled memory */
    CU_ASSERT_EQUAL(d->touch_bytes, 4 * RT_CACHE_ENTRY_BYTES);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT(rt_cache_hash(&c, 1, 2, 3) == 0);
    rt_cache_fini(&c);
    fake_destroy(d);
}

static void test_two_routers_shared_cache(void)
{
    /* one CPU per pair: two routers, each over its own two ports, sharing
     * one route cache with distinct interface indices */
    struct setup s;
    default_setup(&s);
    ports_up(&s);
    struct rt_cache shared;
    CU_ASSERT_EQUAL_FATAL(rt_cache_init(&shared, pd[0], &s.ro.rt), 0);
    struct router ra, rb;
    struct router_port pa[2] = { ports[0], ports[1] }, pb[2] = { ports[2], ports[3] };
    pa[0].ifindex = 1;
    pa[1].ifindex = 2;
    pb[0].ifindex = 3;
    pb[1].ifindex = 4;
    const struct router_pair one = { 0, 1 };
    CU_ASSERT_EQUAL_FATAL(router_init(&ra, pa, 2, &one, 1, &s.ro, &shared), 0);
    CU_ASSERT_EQUAL_FATAL(router_init(&rb, pb, 2, &one, 1, &s.ro, &shared), 0);
    struct flow f = flow_n(3);
    for (unsigned k = 0; k < 10; k++) {
        inject(0, &f, 60);
        inject(2, &f, 60);
    }
    for (unsigned i = 0; i < 50; i++) {
        router_step(&ra);
        router_step(&rb);
    }
    CU_ASSERT_EQUAL(ra.stats[1].forwarded, 10);
    CU_ASSERT_EQUAL(rb.stats[1].forwarded, 10);
    CU_ASSERT_EQUAL(pd[1]->nframes, 10);
    CU_ASSERT_EQUAL(pd[3]->nframes, 10);
    CU_ASSERT_EQUAL(shared.stats.inserts, 2);       /* same flow, two input ports */
    CU_ASSERT_EQUAL(shared.stats.hits, 18);
    CU_ASSERT_EQUAL(ra.napi.nports, 2);
    router_fini(&ra);
    router_fini(&rb);
    CU_ASSERT_PTR_NOT_NULL(shared.block);           /* the shared one is the caller's */
    rt_cache_fini(&shared);
    /* free what eth1/eth3 still hold through their routers */
    e1000_txq_teardown(&txq[1], router_tx_done, &ra.ctx[1]);
    e1000_txq_teardown(&txq[3], router_tx_done, &rb.ctx[1]);
    ports_down();
}

/* ---- copybreak on the wire --------------------------------------------------- */

static void test_copybreak_buffers_on_the_wire(void)
{
    for (int cb = 0; cb < 2; cb++) {
        struct setup s;
        default_setup(&s);
        s.rxo.copybreak = cb ? 256 : 0;
        CU_ASSERT_EQUAL_FATAL(start(&s), 0);
        uint64_t ring_bus[4];
        for (unsigned k = 0; k < 4; k++)
            ring_bus[k] = rxq[0].ring[k].buffer_addr;
        for (unsigned k = 0; k < 4; k++) {
            struct flow f = flow_n(k);
            inject(0, &f, 60);
        }
        run();
        CU_ASSERT_EQUAL_FATAL(pd[1]->nframes, 4);
        for (unsigned k = 0; k < 4; k++) {
            /* without copybreak the NIC sends straight out of the RX buffer;
             * with it, out of the small copy */
            CU_ASSERT_EQUAL(pd[1]->frames[k].bus_first == ring_bus[k], !cb);
            struct flow f = flow_n(k);
            check_forwarded(1, k, &f, 60, 0);
        }
        CU_ASSERT_EQUAL(fake_cost_count(pd[0], "skb_alloc_small"), cb ? 4u : 0u);
        CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, ring_bufs(&rxq[0]));
        stop();
    }
}

static void test_params(void)
{
    struct setup s;
    default_setup(&s);
    ports_up(&s);
    struct router_pair bad_tx = { 0, 4 }, dup[2] = { { 0, 1 }, { 0, 3 } };
    CU_ASSERT_EQUAL(router_init(&r, ports, 0, pairs, 2, NULL, NULL), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(router_init(&r, ports, ROUTER_MAX_PORTS + 1, pairs, 2, NULL, NULL),
                    E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, &bad_tx, 1, NULL, NULL), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, dup, 2, NULL, NULL), E1000_ERR_PARAM);
    struct router_port p2[NP];
    memcpy(p2, ports, sizeof p2);
    p2[0].rxq = NULL;
    CU_ASSERT_EQUAL(router_init(&r, p2, NP, pairs, 2, NULL, NULL), E1000_ERR_PARAM);
    memcpy(p2, ports, sizeof p2);
    p2[1].txq = NULL;
    CU_ASSERT_EQUAL(router_init(&r, p2, NP, pairs, 2, NULL, NULL), E1000_ERR_PARAM);
    struct router_opts o;
    router_default_opts(&o);
    o.route_masklen = 33;
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, pairs, 2, &o, NULL), E1000_ERR_PARAM);
    router_default_opts(&o);
    o.rt.buckets = 1000;
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, pairs, 2, &o, NULL), E1000_ERR_PARAM);
    router_default_opts(&o);
    o.napi.weight = 0;
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, pairs, 2, &o, NULL), E1000_ERR_PARAM);
    /* defaults: Linux's NAPI weight, a 64k-bucket cache */
    CU_ASSERT_EQUAL(router_init(&r, ports, NP, pairs, 2, NULL, NULL), 0);
    CU_ASSERT_EQUAL(r.napi.opts.weight, 64);
    CU_ASSERT_EQUAL(r.rt->opts.buckets, 65536);
    CU_ASSERT_EQUAL(r.out[0], 1);
    CU_ASSERT_EQUAL(r.out[1], -1);
    CU_ASSERT_EQUAL(r.out[2], 3);
    router_fini(&r);
    ports_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Router", NULL, NULL);
    CU_add_test(s, "ForwardAndRewrite", test_forward_and_rewrite);
    CU_add_test(s, "TwoPairsOneCpu", test_two_pairs_one_cpu);
    CU_add_test(s, "ChecksumIncremental", test_checksum_incremental);
    CU_add_test(s, "IpOptions", test_ip_options);
    CU_add_test(s, "Drops", test_drops);
    CU_add_test(s, "RingFullDrops", test_ring_full_drops);
    CU_add_test(s, "RouteCacheOneFlow", test_route_cache_one_flow);
    CU_add_test(s, "RouteCacheManyFlows", test_route_cache_many_flows);
    CU_add_test(s, "RouteCacheUnit", test_route_cache_unit);
    CU_add_test(s, "TwoRoutersSharedCache", test_two_routers_shared_cache);
    CU_add_test(s, "CopybreakBuffersOnTheWire", test_copybreak_buffers_on_the_wire);
    CU_add_test(s, "Params", test_params);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
