/* pktgen over a bound TX queue (struct nic_txq_ops); see pktgen.h.  Only
 * plat.h and the table's functions are used: no driver core is named here. */
#include "pktgen.h"
#include <stdlib.h>
#include <string.h>

#define ETH_HLEN   14u
#define IP_HLEN    20u
#define UDP_HLEN   8u
#define SEQ_OFF    (ETH_HLEN + IP_HLEN + UDP_HLEN)   /* payload start */

void pktgen_default_opts(struct pktgen_opts *o)
{
    *o = (struct pktgen_opts){
        .count = 1000,                  /* Linux pktgen's default count */
        .duration_ns = 0,
        .size = 64,
        .burst = 1,
        .clone = 0,
        .pool_size = 0,
        .src_mac = { 0x02, 0, 0, 0, 0, 0x01 },
        .dst_mac = { 0x02, 0, 0, 0, 0, 0x02 },
        .src_ip = 0x0A000001u,
        .dst_ip = 0x0A000002u,
        .src_port = 9,
        .dst_port = 9,
        .irq_wait_ns = 100000,
        .drain_timeout_ns = 1000000000ull,
    };
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

/* RFC 1071 one's-complement sum over the IPv4 header. */
static uint16_t ip_csum(const uint8_t *h, unsigned n)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i + 1 < n; i += 2)
        sum += (uint32_t)h[i] << 8 | h[i + 1];
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    return (uint16_t)~sum;
}

static void build_template(struct pktgen *pg)
{
    const struct pktgen_opts *o = &pg->opts;
    uint8_t *f = pg->frame;
    memset(f, 0, sizeof pg->frame);
    memcpy(f, o->dst_mac, 6);
    memcpy(f + 6, o->src_mac, 6);
    put16(f + 12, 0x0800);
    uint8_t *ip = f + ETH_HLEN;
    uint16_t ip_len = (uint16_t)(pg->len - ETH_HLEN);
    ip[0] = 0x45;                       /* IPv4, 5-word header */
    put16(ip + 2, ip_len);
    ip[8] = 32;                         /* TTL, as Linux pktgen */
    ip[9] = 17;                         /* UDP */
    put32(ip + 12, o->src_ip);
    put32(ip + 16, o->dst_ip);
    put16(ip + 10, ip_csum(ip, IP_HLEN));
    uint8_t *udp = ip + IP_HLEN;
    put16(udp, o->src_port);
    put16(udp + 2, o->dst_port);
    put16(udp + 4, (uint16_t)(ip_len - IP_HLEN));
    /* UDP checksum 0 = none; payload: sequence then zeros */
}

/* Back to the pool (the clone buffer is never freed). */
static void buf_free(struct pktgen *pg, struct pktgen_buf *b)
{
    if (pg->opts.clone)
        return;
    b->next = pg->free_list;
    pg->free_list = b;
    plat_charge(pg->pd, pg->c_free);
}

static void tx_done(void *arg, void *cookie)
{
    struct pktgen *pg = arg;
    pg->stats.reclaimed++;
    buf_free(pg, cookie);
}

int pktgen_init(struct pktgen *pg, struct plat_dev *d, const struct nic_txq_ops *tx,
                const struct pktgen_opts *o)
{
    struct pktgen_opts def;
    if (!o) {
        pktgen_default_opts(&def);
        o = &def;
    }
    if (!pg)
        return PKTGEN_ERR_PARAM;
    *pg = (struct pktgen){ .state = PKTGEN_DONE };   /* safe to step or fini on failure */
    /* A table missing a function or bound before the queue's setup (ring
     * size 0) is refused here rather than crashing in the first step. */
    if (!d || !tx || !tx->q || !tx->xmit || !tx->clean || !tx->flush || !tx->free_descs ||
        !tx->irq_handle || !tx->tdt_writes || tx->ring_size == 0 ||
        (tx->napi_poll && !tx->stopped))
        return PKTGEN_ERR_PARAM;
    if (o->size < PKTGEN_MIN_SIZE || o->size > PKTGEN_MAX_SIZE ||
        o->size - 4 > tx->max_frame_len || o->burst < 1)
        return PKTGEN_ERR_PARAM;
    *pg = (struct pktgen){ .pd = d, .tx = *tx, .opts = *o, .len = o->size - 4,
                           .state = PKTGEN_RUN, .tdt_base = tx->tdt_writes(tx->q) };
    pg->c_pkt = plat_cost_id(d, "pktgen_pkt");
    pg->c_clock = o->old_clock ? plat_cost_id(d, "pktgen_gettimeofday") : -1;
    pg->c_poll = plat_cost_id(d, "napi_poll");
    pg->c_alloc = plat_cost_id(d, "skb_alloc");
    pg->c_free = plat_cost_id(d, "skb_free");
    build_template(pg);

    if (o->clone) {
        /* One buffer, built once: every packet is the same bytes at the
         * same bus address, as with clone_skb. */
        pg->clone_buf.va = plat_dma_alloc(d, PKTGEN_BUF_STRIDE, 64, &pg->clone_buf.bus);
        if (!pg->clone_buf.va) {
            pg->state = PKTGEN_DONE;
            return PKTGEN_ERR_NOMEM;
        }
        plat_mem_copy_to(d, pg->clone_buf.va, pg->frame, pg->len);
        return 0;
    }
    /* A pool as large as the ring can never run dry before the ring is full:
     * every packet in flight holds at least one descriptor. */
    pg->pool_n = o->pool_size ? o->pool_size : tx->ring_size;
    uint64_t bus;
    uint8_t *mem = plat_dma_alloc(d, (size_t)pg->pool_n * PKTGEN_BUF_STRIDE, 4096, &bus);
    pg->pool = calloc(pg->pool_n, sizeof *pg->pool);
    if (!mem || !pg->pool) {
        free(pg->pool);
        pg->pool = NULL;
        pg->state = PKTGEN_DONE;
        return PKTGEN_ERR_NOMEM;
    }
    /* Build the free list so the first buffers handed out are the lowest. */
    for (uint32_t i = pg->pool_n; i-- > 0;) {
        struct pktgen_buf *b = &pg->pool[i];
        b->va = mem + (size_t)i * PKTGEN_BUF_STRIDE;
        b->bus = bus + (uint64_t)i * PKTGEN_BUF_STRIDE;
        b->next = pg->free_list;
        pg->free_list = b;
    }
    return 0;
}

void pktgen_fini(struct pktgen *pg)
{
    free(pg->pool);
    pg->pool = NULL;
    pg->free_list = NULL;
    pg->held = NULL;
}

/* The buffer for the next packet: the clone, a held one, or a fresh one
 * from the pool (allocated and filled now, as pktgen builds an skb). */
static struct pktgen_buf *next_buf(struct pktgen *pg)
{
    if (pg->opts.clone)
        return &pg->clone_buf;
    if (pg->held) {
        struct pktgen_buf *b = pg->held;
        pg->held = NULL;
        return b;
    }
    struct pktgen_buf *b = pg->free_list;
    if (!b)
        return NULL;
    pg->free_list = b->next;
    plat_charge(pg->pd, pg->c_alloc);
    put32(pg->frame + SEQ_OFF, pg->seq);
    plat_mem_copy_to(pg->pd, b->va, pg->frame, pg->len);
    return b;
}

/* Every reclaim path goes through here so each packet reaches tx_done. */
static unsigned tx_clean(struct pktgen *pg)
{
    unsigned n = pg->tx.clean(pg->tx.q, tx_done, pg);
    pg->stats.reclaim_rounds += n > 0;
    return n;
}

/* The NAPI poll a TX interrupt schedules (Linux's e1000_clean): rounds
 * repeat while each one reclaims something; pktgen sends nothing meanwhile. */
static void napi_tx_poll(struct pktgen *pg)
{
    uint64_t before = pg->stats.reclaimed;
    do
        plat_charge(pg->pd, pg->c_poll);
    while (pg->tx.clean(pg->tx.q, tx_done, pg));
    pg->stats.reclaim_rounds += pg->stats.reclaimed > before;
}

/* A queue with a NAPI vector of its driver's own (ixgbe 3.18): the
 * interrupt's handler schedules the poll, and the softirq runs it on this
 * CPU, preempting pktgen, for as long as it stays scheduled. */
static int driver_napi(const struct pktgen *pg)
{
    return pg->tx.napi_poll != NULL;
}

static void driver_softirq(struct pktgen *pg)
{
    uint64_t before = pg->stats.reclaimed;
    pg->tx.irq_handle(pg->tx.q);
    while (pg->tx.napi_poll(pg->tx.q, tx_done, pg))
        ;
    pg->stats.reclaim_rounds += pg->stats.reclaimed > before;
}

/* Interrupt wait and reclaim; shared by the full-ring and drain paths. */
static void wait_and_clean(struct pktgen *pg)
{
    int irq = plat_irq_wait(pg->pd, pg->opts.irq_wait_ns);
    if (irq) {
        pg->stats.irqs++;
        if (driver_napi(pg)) {
            driver_softirq(pg);
            return;
        }
        pg->tx.irq_handle(pg->tx.q);
    } else {
        pg->stats.irq_timeouts++;
    }
    if (driver_napi(pg))
        return;
    if (!pg->opts.reclaim_in_poll)
        tx_clean(pg);
    else if (irq)
        napi_tx_poll(pg);
}

/* The driver has stopped the queue: pktgen 3.18 retries at once, again and
 * again (NETDEV_TX_BUSY, last_ok = 0, cpu_relax; no sleep), until the poll
 * an interrupt runs wakes the queue.  Modelled as a wait for the interrupt
 * whose time is recorded as retrying (stopped_ns). */
static void stopped_retry(struct pktgen *pg)
{
    uint64_t t0 = plat_now_ns(pg->pd);
    pg->stats.stopped_waits++;
    wait_and_clean(pg);
    pg->stats.stopped_ns += plat_now_ns(pg->pd) - t0;
}

/* With reclaim_in_poll an interrupt preempts the sender whenever it comes,
 * not only when the ring is full: taken between two packets. */
static void take_pending_irq(struct pktgen *pg)
{
    if (!plat_irq_wait(pg->pd, 0))
        return;
    pg->stats.irqs++;
    if (driver_napi(pg)) {
        driver_softirq(pg);
        return;
    }
    pg->tx.irq_handle(pg->tx.q);
    napi_tx_poll(pg);
}

static void ring_full(struct pktgen *pg)
{
    pg->stats.ring_full++;
    if (driver_napi(pg)) {
        stopped_retry(pg);          /* only the poll reclaims */
        return;
    }
    if (!pg->opts.reclaim_in_poll && tx_clean(pg))
        return;
    /* Nothing done yet: make sure the NIC has everything, then sleep until
     * it reports progress (or the wait times out and the next step polls). */
    pg->tx.flush(pg->tx.q);
    wait_and_clean(pg);
}

static int finished(struct pktgen *pg, uint64_t now)
{
    if (pg->opts.count && pg->stats.sent >= pg->opts.count)
        return 1;
    return pg->opts.duration_ns && now - pg->start_ns >= pg->opts.duration_ns;
}

static void begin_drain(struct pktgen *pg, uint64_t now)
{
    if (pg->held) {             /* built but never sent: back to the pool */
        buf_free(pg, pg->held);
        pg->held = NULL;
    }
    pg->tx.flush(pg->tx.q);
    pg->state = PKTGEN_DRAIN;
    pg->drain_start_ns = now;
}

static void send_burst(struct pktgen *pg)
{
    const struct pktgen_opts *o = &pg->opts;
    while (pg->burst_pos < o->burst) {
        if (o->count && pg->stats.sent >= o->count)
            break;
        int last_of_count = o->count && pg->stats.sent + 1 == o->count;
        int more = pg->burst_pos + 1 < o->burst && !last_of_count;
        struct pktgen_buf *b = next_buf(pg);
        if (!b) {
            ring_full(pg);      /* pool empty: only reclaim can help */
            return;
        }
        int rc = pg->tx.xmit(pg->tx.q, b->bus, pg->len, b, more);
        if (rc == NIC_TXQ_BUSY) {
            if (!o->clone)
                pg->held = b;
            ring_full(pg);      /* the burst resumes at burst_pos next step */
            return;
        }
        if (rc != 0) {          /* cannot happen with checked options */
            plat_log(pg->pd, "pktgen: xmit error %d", rc);
            pg->state = PKTGEN_DONE;
            return;
        }
        plat_charge(pg->pd, pg->c_pkt);
        if (o->old_clock)
            plat_charge(pg->pd, pg->c_clock);
        plat_count_packets(pg->pd, 1);
        pg->stats.sent++;
        pg->seq++;
        pg->burst_pos++;
        /* 3.18's burst loop goes on only while the queue runs; the copies
         * left are dropped and the next call starts a new burst */
        if (pg->tx.stopped && pg->tx.stopped(pg->tx.q))
            break;
    }
    pg->burst_pos = 0;
}

static int drain_step(struct pktgen *pg)
{
    if (!driver_napi(pg))           /* else only the poll reclaims */
        tx_clean(pg);
    if (pg->stats.reclaimed < pg->stats.sent) {
        uint64_t now = plat_now_ns(pg->pd);
        if (now - pg->drain_start_ns < pg->opts.drain_timeout_ns) {
            wait_and_clean(pg);
            if (pg->stats.reclaimed < pg->stats.sent)
                return 1;
        } else {
            plat_log(pg->pd, "pktgen: %llu of %llu packets not reclaimed after %llu ns",
                     (unsigned long long)(pg->stats.sent - pg->stats.reclaimed),
                     (unsigned long long)pg->stats.sent,
                     (unsigned long long)pg->opts.drain_timeout_ns);
            pg->stats.drain_timeouts = 1;
        }
    }
    pg->state = PKTGEN_DONE;
    return 0;
}

int pktgen_step(struct pktgen *pg)
{
    int more = 1;
    if (pg->state == PKTGEN_RUN) {
        uint64_t now = plat_now_ns(pg->pd);
        if (!pg->started) {
            pg->started = 1;
            pg->start_ns = now;
        }
        if (finished(pg, now)) {
            begin_drain(pg, now);
        } else {
            if (pg->opts.reclaim_in_poll || driver_napi(pg))
                take_pending_irq(pg);
            else if (pg->tx.free_descs(pg->tx.q) < pg->tx.clean_thresh)
                tx_clean(pg);
            if (pg->tx.stopped && pg->tx.stopped(pg->tx.q))
                stopped_retry(pg);
            else
                send_burst(pg);
        }
    }
    if (pg->state == PKTGEN_DRAIN)
        more = drain_step(pg);
    else if (pg->state == PKTGEN_DONE)
        more = 0;
    if (pg->tx.q)               /* NULL after a failed init */
        pg->stats.tdt_writes = pg->tx.tdt_writes(pg->tx.q) - pg->tdt_base;
    return more;
}
