#include "l3fwd.h"
#include <string.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define HDR4_BYTES 34u          /* Ethernet + an IPv4 header without options */
#define HDR6_BYTES 54u          /* Ethernet + the IPv6 header */

void l3fwd_default_opts(struct l3fwd_opts *o)
{
    *o = (struct l3fwd_opts){
        .path = L3FWD_SCALAR,
        .burst = L3FWD_MAX_BURST,
        .prefetch_ahead = 3,
        .tx_buf = L3FWD_MAX_BURST,
        .tx_direct = L3FWD_MAX_BURST / 2,
        .drain_ns = 100000,
    };
}

int l3fwd_init(struct l3fwd *f, const struct l3fwd_port *ports, int nports, const struct lpm *lpm4,
               const struct lpm *lpm6, const struct l3fwd_opts *o)
{
    struct l3fwd_opts def;
    if (!o) {
        l3fwd_default_opts(&def);
        o = &def;
    }
    if (!f || !ports || nports < 1 || nports > L3FWD_MAX_PORTS || o->burst < 1 ||
        o->burst > L3FWD_MAX_BURST || o->tx_buf < 1 || o->tx_buf > L3FWD_MAX_BURST || o->tx_direct < 1 ||
        (lpm4 && lpm4->key_bytes != 4) || (lpm6 && lpm6->key_bytes != 16))
        return -1;
    memset(f, 0, sizeof *f);
    for (int p = 0; p < nports; p++) {
        if (!ports[p].pd || !ports[p].rxq || !ports[p].txq)
            return -1;
        f->port[p] = ports[p];
    }
    f->nports = nports;
    f->lpm4 = lpm4;
    f->lpm6 = lpm6;
    f->opts = *o;
    struct plat_dev *pd = ports[0].pd;
    f->c_loop = plat_cost_id(pd, "l3fwd_loop");
    f->c_pkt = plat_cost_id(pd, "l3fwd_pkt");
    f->c_rx_burst = plat_cost_id(pd, "l3fwd_rx_burst");
    f->c_tx_burst = plat_cost_id(pd, "l3fwd_tx_burst");
    f->c_group = plat_cost_id(pd, "l3fwd_group");
    return 0;
}

/* A received frame on its way through: the header as read, the output port
 * (-1: dropped). */
struct pkt {
    struct ixgbe_rx_pkt rx;
    uint8_t hdr[HDR6_BYTES];
    int v4, v6;
    int out;
};

struct burst {
    struct pkt p[L3FWD_MAX_BURST];
    unsigned n;
};

static void collect(void *arg, struct ixgbe_rx_pkt *pkt)
{
    struct burst *b = arg;
    if (b->n < L3FWD_MAX_BURST)
        b->p[b->n++].rx = *pkt;
}

static void free_buf(void *pd, void *cookie)
{
    ixgbe_rx_pkt_free(pd, cookie);
}

/* ---- TX: the PMD's burst and the per-port buffers ---------------------- */

/* rte_eth_tx_burst of n frames on port out: reclaim first when short of
 * descriptors, queue, one tail write; what does not fit is freed. */
static unsigned tx_burst(struct l3fwd *f, int out, const struct ixgbe_rx_pkt *pk, unsigned n)
{
    struct l3fwd_port *op = &f->port[out];
    struct l3fwd_port_stats *st = &f->stats[out];
    plat_charge(op->pd, f->c_tx_burst);
    st->tx_bursts++;
    if (ixgbe_tx_free_descs(op->txq) < op->txq->opts.clean_thresh)
        ixgbe_tx_clean(op->txq, free_buf, op->pd);
    unsigned sent = 0;
    int flush = 0;
    for (unsigned i = 0; i < n; i++) {
        int more = i + 1 < n;
        if (ixgbe_xmit(op->txq, pk[i].bus, pk[i].len, pk[i].cookie, more) != 0) {
            st->drop_ring_full++;
            ixgbe_rx_pkt_free(op->pd, pk[i].cookie);
            flush = 1;
            continue;
        }
        flush = more;
        sent++;
    }
    if (flush)
        ixgbe_tx_flush(op->txq);   /* the burst's last frame was one that did not fit */
    st->tx += sent;
    return sent;
}

static void buffer_send(struct l3fwd *f, int out)
{
    struct l3fwd_txbuf *tb = &f->txbuf[out];
    tx_burst(f, out, tb->pkt, tb->len);
    tb->len = 0;
}

/* Append frames to port out's buffer, sending it each time it fills
 * (send_single_packet, and send_packetsx4's buffered case). */
static void buffer_append(struct l3fwd *f, int out, const struct pkt *p, unsigned n)
{
    struct l3fwd_txbuf *tb = &f->txbuf[out];
    for (unsigned i = 0; i < n; i++) {
        tb->pkt[tb->len++] = p[i].rx;
        if (tb->len == f->opts.tx_buf)
            buffer_send(f, out);
    }
}

/* Every 100 us (TSC), the buffers that hold anything go out. */
static unsigned drain(struct l3fwd *f)
{
    uint64_t now = plat_now_ns(f->port[0].pd);
    if (!f->started) {
        f->started = 1;
        f->last_drain_ns = now;
    }
    if (now - f->last_drain_ns <= f->opts.drain_ns)
        return 0;
    f->last_drain_ns = now;
    f->drains++;
    unsigned n = 0;
    for (int p = 0; p < f->nports; p++)
        if (f->txbuf[p].len) {
            n += f->txbuf[p].len;
            f->stats[p].tx_drained++;
            buffer_send(f, p);
        }
    return n;
}

/* ---- a frame's processing ------------------------------------------------ */

/* The frame goes no further: its buffer is freed. */
static void drop(struct l3fwd *f, int in, struct pkt *p, uint64_t *counter)
{
    (*counter)++;
    ixgbe_rx_pkt_free(f->port[in].pd, p->rx.cookie);
    p->rx.cookie = NULL;
    p->out = -1;
}

/* Read the header (the first data line: Ethernet + IPv4, or + IPv6). */
static void read_header(struct l3fwd *f, int in, struct pkt *p)
{
    struct plat_dev *pd = f->port[in].pd;
    unsigned n = p->rx.len < HDR6_BYTES ? p->rx.len : HDR6_BYTES;
    memset(p->hdr, 0, sizeof p->hdr);
    plat_mem_copy_from(pd, p->hdr, p->rx.data, n);
    unsigned type = (unsigned)p->hdr[12] << 8 | p->hdr[13];
    p->v4 = type == ETHERTYPE_IPV4 && p->rx.len >= HDR4_BYTES;
    p->v6 = type == ETHERTYPE_IPV6 && p->rx.len >= HDR6_BYTES;
}

/* is_valid_ipv4_pkt: version, IHL, total length against the frame (the
 * header checksum is the NIC's). */
static int ipv4_valid(const struct pkt *p)
{
    const uint8_t *ip = p->hdr + 14;
    unsigned ihl = ip[0] & 0xf, total = (unsigned)ip[2] << 8 | ip[3];
    return (ip[0] >> 4) == 4 && ihl >= 5 && total >= ihl * 4 && total <= p->rx.len - 14;
}

static const uint8_t *key_of(const struct pkt *p)
{
    return p->hdr + 14 + (p->v6 ? 24 : 16);
}

/* The output port of a lookup result, or -1. */
static int out_port(const struct l3fwd *f, uint32_t hop)
{
    return hop != LPM_MISS && hop < (uint32_t)f->nports ? (int)hop : -1;
}

/* One frame's lookup (get_dst_port / the scalar path's): its table is
 * indexed by the address just loaded from the packet, so the first table
 * read waits for the header line. */
static int lookup_one(struct l3fwd *f, int in, struct pkt *p)
{
    const struct lpm *t = p->v4 ? f->lpm4 : p->v6 ? f->lpm6 : NULL;
    if (!t)
        return -1;
    plat_mem_wait(f->port[in].pd, p->rx.data);
    return out_port(f, lpm_lookup(t, key_of(p), &f->lpm_stats));
}

/* Destination and source MACs of the output port; IPv4: TTL down by one and
 * the checksum incremented (RFC 1812's update, not a recompute).  Written
 * back as the first two qwords, plus the TTL/checksum qword for IPv4. */
static void rewrite(struct l3fwd *f, struct pkt *p)
{
    struct plat_dev *pd = f->port[p->out].pd;
    uint8_t *h = p->hdr;
    memcpy(h, f->port[p->out].peer_mac, 6);
    memcpy(h + 6, f->port[p->out].mac, 6);
    unsigned words = 2;
    if (p->v4) {
        h[14 + 8]--;
        uint32_t sum = ((uint32_t)h[24] << 8 | h[25]) + 0x0100u;   /* the TTL is the high byte */
        sum = (sum & 0xffffu) + (sum >> 16);
        h[24] = (uint8_t)(sum >> 8);
        h[25] = (uint8_t)sum;
        words = 4;
    }
    uint8_t *data = p->rx.data;
    for (unsigned w = 0; w < words; w++) {
        uint64_t q;
        memcpy(&q, h + 8 * w, 8);
        plat_mem_write64(pd, data + 8 * w, q);
    }
}

/* ---- scalar: DPDK 1.6 ---------------------------------------------------- */

static void forward_scalar(struct l3fwd *f, int in, struct burst *b)
{
    struct l3fwd_port_stats *st = &f->stats[in];
    struct plat_dev *pd = f->port[in].pd;
    for (unsigned i = 0; i < f->opts.prefetch_ahead && i < b->n; i++)
        plat_prefetch(pd, b->p[i].rx.data);
    for (unsigned i = 0; i < b->n; i++) {
        struct pkt *p = &b->p[i];
        if (i + f->opts.prefetch_ahead < b->n)
            plat_prefetch(pd, b->p[i + f->opts.prefetch_ahead].rx.data);
        plat_charge(pd, f->c_pkt);
        read_header(f, in, p);
        if ((!p->v4 && !p->v6) || (p->v4 && !ipv4_valid(p))) {
            drop(f, in, p, &st->drop_bad);
            continue;
        }
        p->out = lookup_one(f, in, p);
        if (p->out < 0) {
            drop(f, in, p, &st->drop_no_route);
            continue;
        }
        rewrite(f, p);
        buffer_append(f, p->out, p, 1);
    }
}

/* ---- multi: DPDK 1.7.0 --------------------------------------------------- */

/* One group of 4: addresses, lookups (x4 when all are IPv4), rewrites. */
static void group_of_4(struct l3fwd *f, int in, struct pkt *p)
{
    struct plat_dev *pd = f->port[in].pd;
    plat_charge(pd, f->c_group);
    f->groups++;
    int all_v4 = 1;
    for (unsigned k = 0; k < L3FWD_GROUP; k++) {
        read_header(f, in, &p[k]);
        all_v4 &= p[k].v4;
    }
    if (all_v4 && f->lpm4) {
        const uint8_t *keys[L3FWD_GROUP];
        uint32_t hops[L3FWD_GROUP];
        for (unsigned k = 0; k < L3FWD_GROUP; k++) {
            keys[k] = key_of(&p[k]);
            plat_mem_wait(pd, p[k].rx.data);
        }
        lpm_lookup_x4(f->lpm4, keys, hops, &f->lpm_stats);
        f->lookups_x4 += L3FWD_GROUP;
        for (unsigned k = 0; k < L3FWD_GROUP; k++)
            p[k].out = out_port(f, hops[k]);
    } else {
        for (unsigned k = 0; k < L3FWD_GROUP; k++)
            p[k].out = lookup_one(f, in, &p[k]);
    }
}

/* The rest of a frame in the multi path (process_packet after its lookup):
 * rewrite, or drop. */
static void finish(struct l3fwd *f, int in, struct pkt *p)
{
    struct l3fwd_port_stats *st = &f->stats[in];
    plat_charge(f->port[in].pd, f->c_pkt);
    if ((!p->v4 && !p->v6) || (p->v4 && !ipv4_valid(p)))
        drop(f, in, p, &st->drop_bad);
    else if (p->out < 0)
        drop(f, in, p, &st->drop_no_route);
    else
        rewrite(f, p);
}

/* send_packetsx4: a run straight out when long enough and its port's
 * buffer is empty, else through the buffer. */
static void send_run(struct l3fwd *f, int out, struct pkt *p, unsigned n)
{
    if (n >= f->opts.tx_direct && f->txbuf[out].len == 0) {
        struct ixgbe_rx_pkt pk[L3FWD_MAX_BURST];
        for (unsigned i = 0; i < n; i++)
            pk[i] = p[i].rx;
        f->stats[out].tx_direct++;
        tx_burst(f, out, pk, n);
        return;
    }
    buffer_append(f, out, p, n);
}

static void forward_multi(struct l3fwd *f, int in, struct burst *b)
{
    unsigned whole = b->n - b->n % L3FWD_GROUP;
    for (unsigned g = 0; g < whole; g += L3FWD_GROUP) {
        group_of_4(f, in, &b->p[g]);
        for (unsigned k = 0; k < L3FWD_GROUP; k++)
            finish(f, in, &b->p[g + k]);
    }
    for (unsigned i = whole; i < b->n; i++) {
        read_header(f, in, &b->p[i]);
        b->p[i].out = lookup_one(f, in, &b->p[i]);
        finish(f, in, &b->p[i]);
    }
    /* runs of consecutive frames for one port; dropped frames (-1) are
     * already freed */
    for (unsigned j = 0, k; j < b->n; j = k) {
        int out = b->p[j].out;
        for (k = j + 1; k < b->n && b->p[k].out == out; k++)
            ;
        if (out >= 0)
            send_run(f, out, &b->p[j], k - j);
    }
}

/* ---- the main loop ------------------------------------------------------- */

unsigned l3fwd_step(struct l3fwd *f)
{
    plat_charge(f->port[0].pd, f->c_loop);
    f->iterations++;
    unsigned work = drain(f);
    for (int in = 0; in < f->nports; in++) {
        struct l3fwd_port *ip = &f->port[in];
        struct l3fwd_port_stats *st = &f->stats[in];
        struct burst b;
        b.n = 0;
        plat_charge(ip->pd, f->c_rx_burst);
        st->rx_bursts++;
        ixgbe_rx_poll(ip->rxq, f->opts.burst, collect, &b);
        st->rx += b.n;
        if (!b.n) {
            st->rx_empty++;
            continue;
        }
        if (f->opts.path == L3FWD_MULTI)
            forward_multi(f, in, &b);
        else
            forward_scalar(f, in, &b);
        plat_count_packets(ip->pd, b.n);
        work += b.n;
    }
    return work;
}

unsigned l3fwd_buffered(const struct l3fwd *f)
{
    unsigned n = 0;
    for (int p = 0; p < f->nports; p++)
        n += f->txbuf[p].len;
    return n;
}
