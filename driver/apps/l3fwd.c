#include "l3fwd.h"
#include <string.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define HDR4_BYTES 34u          /* Ethernet + an IPv4 header without options */
#define HDR6_BYTES 54u          /* Ethernet + the IPv6 header */

void l3fwd_default_opts(struct l3fwd_opts *o)
{
    o->path = L3FWD_SCALAR;
    o->burst = 32;
    o->group = 8;
    o->prefetch_ahead = 3;
    o->tx_free_thresh = 32;
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
        o->burst > L3FWD_MAX_BURST || (o->path == L3FWD_MULTI && o->group != 4 && o->group != 8) ||
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
    f->c_pkt = plat_cost_id(pd, "l3fwd_pkt");
    f->c_rx_burst = plat_cost_id(pd, "l3fwd_rx_burst");
    f->c_tx_burst = plat_cost_id(pd, "l3fwd_tx_burst");
    f->c_group = plat_cost_id(pd, "l3fwd_group");
    return 0;
}

/* A received frame on its way through: the header as read, the key, the
 * output port (-1: dropped). */
struct pkt {
    struct ixgbe_rx_pkt rx;
    uint8_t hdr[HDR6_BYTES];
    int v6;
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

/* The frame goes no further: its buffer is freed (cookie NULL marks it). */
static void drop(struct l3fwd *f, int in, struct pkt *p, uint64_t *counter)
{
    (*counter)++;
    ixgbe_rx_pkt_free(f->port[in].pd, p->rx.cookie);
    p->rx.cookie = NULL;
    p->out = -1;
}

/* Read and check the header; 0 with p->v6 set, or -1 (dropped). */
static int parse(struct l3fwd *f, int in, struct pkt *p)
{
    struct plat_dev *pd = f->port[in].pd;
    uint32_t len = p->rx.len;
    if (len < HDR4_BYTES)
        return -1;
    plat_mem_copy_from(pd, p->hdr, p->rx.data, HDR4_BYTES);
    unsigned type = (unsigned)p->hdr[12] << 8 | p->hdr[13];
    const uint8_t *ip = p->hdr + 14;
    if (type == ETHERTYPE_IPV4) {
        unsigned ihl = ip[0] & 0xf, total = (unsigned)ip[2] << 8 | ip[3];
        p->v6 = 0;
        return (ip[0] >> 4) == 4 && ihl >= 5 && total >= ihl * 4 && total <= len - 14 && ip[8] >= 2 ? 0 : -1;
    }
    if (type == ETHERTYPE_IPV6 && len >= HDR6_BYTES) {
        plat_mem_copy_from(pd, p->hdr + HDR4_BYTES, (const uint8_t *)p->rx.data + HDR4_BYTES,
                           HDR6_BYTES - HDR4_BYTES);
        p->v6 = 1;
        return (ip[0] >> 4) == 6 && ip[7] >= 2 ? 0 : -1;
    }
    return -1;
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

/* TTL or hop limit down by one (the IPv4 checksum updated incrementally),
 * the Ethernet addresses of the output port; written back a qword at a time. */
static void rewrite(struct l3fwd *f, struct pkt *p)
{
    struct plat_dev *pd = f->port[p->out].pd;
    uint8_t *h = p->hdr;
    memcpy(h, f->port[p->out].peer_mac, 6);
    memcpy(h + 6, f->port[p->out].mac, 6);
    if (p->v6) {
        h[14 + 7]--;
    } else {
        h[14 + 8]--;
        uint32_t sum = ((uint32_t)h[24] << 8 | h[25]) + 0x0100u;   /* the TTL is the high byte */
        sum = (sum & 0xffffu) + (sum >> 16);
        h[24] = (uint8_t)(sum >> 8);
        h[25] = (uint8_t)sum;
    }
    uint8_t *data = p->rx.data;
    unsigned words = p->v6 ? 3 : 4;
    for (unsigned w = 0; w < words; w++) {
        uint64_t q;
        memcpy(&q, h + 8 * w, 8);
        plat_mem_write64(pd, data + 8 * w, q);
    }
}

/* Send pkts [from, to) (all for port out) as one tx burst: the tail is
 * written after the last. */
static unsigned tx_burst(struct l3fwd *f, struct pkt *p, unsigned from, unsigned to, int out)
{
    struct l3fwd_port *op = &f->port[out];
    struct l3fwd_port_stats *st = &f->stats[out];
    plat_charge(op->pd, f->c_tx_burst);
    st->tx_bursts++;
    unsigned sent = 0;
    int flush = 0;
    for (unsigned i = from; i < to; i++) {
        if (ixgbe_tx_free_descs(op->txq) < f->opts.tx_free_thresh)
            ixgbe_tx_clean(op->txq, free_buf, op->pd);
        int more = i + 1 < to;
        if (ixgbe_xmit(op->txq, p[i].rx.bus, p[i].rx.len, p[i].rx.cookie, more) != 0) {
            st->drop_ring_full++;
            ixgbe_rx_pkt_free(op->pd, p[i].rx.cookie);
            flush = 1;
            continue;
        }
        flush = more;
        sent++;
    }
    if (flush)
        ixgbe_tx_flush(op->txq);   /* the burst's last packet was the one dropped */
    st->tx += sent;
    return sent;
}

static void prefetch_data(struct l3fwd *f, int in, struct burst *b, unsigned i)
{
    if (i < b->n)
        plat_prefetch(f->port[in].pd, b->p[i].rx.data);
}

static unsigned forward_scalar(struct l3fwd *f, int in, struct burst *b)
{
    struct l3fwd_port_stats *st = &f->stats[in];
    unsigned sent = 0;
    for (unsigned i = 0; i < b->n; i++) {
        struct pkt *p = &b->p[i];
        prefetch_data(f, in, b, i + f->opts.prefetch_ahead);
        plat_charge(f->port[in].pd, f->c_pkt);
        if (parse(f, in, p) != 0) {
            drop(f, in, p, &st->drop_bad);
            continue;
        }
        const struct lpm *t = p->v6 ? f->lpm6 : f->lpm4;
        p->out = t ? out_port(f, lpm_lookup(t, key_of(p), &f->lpm_stats)) : -1;
        if (p->out < 0) {
            drop(f, in, p, &st->drop_no_route);
            continue;
        }
        rewrite(f, p);
        sent += tx_burst(f, b->p, i, i + 1, p->out);
    }
    return sent;
}

/* Lookups of the group [from, to): each family's keys in one bulk lookup. */
static void lookup_group(struct l3fwd *f, struct burst *b, unsigned from, unsigned to)
{
    for (int v6 = 0; v6 < 2; v6++) {
        const struct lpm *t = v6 ? f->lpm6 : f->lpm4;
        const uint8_t *keys[8];
        unsigned idx[8], n = 0;
        uint32_t hops[8];
        for (unsigned i = from; i < to; i++)
            if (b->p[i].out >= 0 && b->p[i].v6 == v6) {
                keys[n] = key_of(&b->p[i]);
                idx[n++] = i;
            }
        if (!n)
            continue;
        if (t)
            lpm_lookup_bulk(t, keys, n, hops, &f->lpm_stats);
        for (unsigned k = 0; k < n; k++)
            b->p[idx[k]].out = t ? out_port(f, hops[k]) : -1;
    }
}

static unsigned forward_multi(struct l3fwd *f, int in, struct burst *b)
{
    struct l3fwd_port_stats *st = &f->stats[in];
    struct plat_dev *pd = f->port[in].pd;
    unsigned sent = 0, run = 0;          /* the run of same-port packets starts at run */
    int run_port = -1;
    for (unsigned g = 0; g < b->n; g += f->opts.group) {
        unsigned end = g + f->opts.group < b->n ? g + f->opts.group : b->n;
        plat_charge(pd, f->c_group);
        f->groups++;
        for (unsigned i = g; i < end; i++) {
            prefetch_data(f, in, b, i + f->opts.prefetch_ahead);
            plat_charge(pd, f->c_pkt);
            b->p[i].out = parse(f, in, &b->p[i]) == 0 ? 0 : -1;
            if (b->p[i].out < 0)
                drop(f, in, &b->p[i], &st->drop_bad);
        }
        lookup_group(f, b, g, end);
        for (unsigned i = g; i < end; i++) {
            struct pkt *p = &b->p[i];
            if (p->out >= 0)
                rewrite(f, p);
            else if (p->rx.cookie)
                drop(f, in, p, &st->drop_no_route);
        }
        /* runs of consecutive packets for one port, across groups */
        for (unsigned i = g; i < end; i++) {
            int out = b->p[i].out;
            if (out == run_port)
                continue;
            if (run_port >= 0)
                sent += tx_burst(f, b->p, run, i, run_port);
            run = i;
            run_port = out;
        }
    }
    if (run_port >= 0)
        sent += tx_burst(f, b->p, run, b->n, run_port);
    return sent;
}

unsigned l3fwd_step(struct l3fwd *f)
{
    int in = (int)(f->next_port++ % (unsigned)f->nports);
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
        return 0;
    }
    for (unsigned i = 0; i < f->opts.prefetch_ahead && i < b.n; i++)
        prefetch_data(f, in, &b, i);
    unsigned sent = f->opts.path == L3FWD_MULTI ? forward_multi(f, in, &b) : forward_scalar(f, in, &b);
    plat_count_packets(ip->pd, sent);
    return sent;
}
