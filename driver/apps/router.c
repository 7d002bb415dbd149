/* The IPv4 router app; see router.h. */
#include "router.h"
#include <string.h>

#define ETH_HLEN      14u
#define ETH_P_IP      0x0800u
#define IP_MIN_HLEN   20u
#define HDR_MAX       (ETH_HLEN + 60u)    /* Ethernet + the longest IPv4 header */
#define REWRITE_BYTES 32u                 /* MACs .. checksum: qwords 0..3 */

void router_default_opts(struct router_opts *o)
{
    *o = (struct router_opts){ .route_prefix = 0, .route_masklen = 0 };
    e1000_napi_default_opts(&o->napi);
    rt_cache_default_opts(&o->rt);
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) << 16 | get16(p + 2); }

/* RFC 1071 sum over n bytes (n even): 0xFFFF when a header checksum is right. */
static uint16_t ones_sum(const uint8_t *h, unsigned n)
{
    uint32_t s = 0;
    for (unsigned i = 0; i + 1 < n; i += 2)
        s += get16(h + i);
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

static void drop(struct router *r, unsigned port, struct e1000_rx_pkt *pkt, uint64_t *counter)
{
    (*counter)++;
    e1000_rx_pkt_free(r->port[port].dev->pd, pkt->cookie);
}

/* The slow path: ip_route_input_slow's decision. */
static int fib(const struct router *r, uint32_t daddr, unsigned iif)
{
    if ((daddr & r->route_mask) != (r->opts.route_prefix & r->route_mask))
        return -1;
    return r->out[iif];
}

static void router_rx(void *arg, struct e1000_rx_pkt *pkt)
{
    struct router_ctx *cx = arg;
    struct router *r = cx->r;
    unsigned p = cx->port;
    struct plat_dev *pd = r->port[p].dev->pd;
    struct router_port_stats *st = &r->stats[p];
    st->rx++;

    /* netif_receive_skb, eth_type_trans, ip_rcv: the header is read */
    plat_charge(pd, r->c_stack_rx);
    uint8_t h[HDR_MAX];
    uint32_t have = pkt->len < ROUTER_HDR_READ ? pkt->len : ROUTER_HDR_READ;
    plat_mem_copy_from(pd, h, pkt->data, have);
    if (have < ETH_HLEN + IP_MIN_HLEN || get16(h + 12) != ETH_P_IP) {
        drop(r, p, pkt, &st->drop_header);
        return;
    }
    uint8_t *ip = h + ETH_HLEN;
    uint32_t ihl = (ip[0] & 0x0Fu) * 4u;
    if ((ip[0] >> 4) != 4 || ihl < IP_MIN_HLEN || ETH_HLEN + ihl > pkt->len) {
        drop(r, p, pkt, &st->drop_header);
        return;
    }
    if (ETH_HLEN + ihl > have) {               /* IP options beyond the first read */
        plat_mem_copy_from(pd, h + have, (const uint8_t *)pkt->data + have,
                           ETH_HLEN + ihl - have);
        have = ETH_HLEN + ihl;
    }
    uint32_t tot_len = get16(ip + 2);
    if (ones_sum(ip, ihl) != 0xFFFF || tot_len < ihl || tot_len > pkt->len - ETH_HLEN) {
        drop(r, p, pkt, &st->drop_header);
        return;
    }
    if (ip[8] <= 1) {
        drop(r, p, pkt, &st->drop_ttl);
        return;
    }

    /* ip_route_input: the cache, else the slow path and an insert */
    uint32_t daddr = get32(ip + 16), saddr = get32(ip + 12);
    int out;
    if (rt_cache_lookup(r->rt, pd, daddr, saddr, r->ifindex[p], &out)) {
        st->rt_hits++;
    } else {
        st->rt_misses++;
        plat_charge(pd, r->c_fib);
        out = fib(r, daddr, p);
        rt_cache_insert(r->rt, pd, daddr, saddr, r->ifindex[p], out);
    }
    if (out < 0 || out >= r->nports || !r->port[out].txq) {
        drop(r, p, pkt, &st->drop_no_route);
        return;
    }

    /* ip_forward .. dev_queue_xmit: TTL, checksum, link-layer header */
    plat_charge(pd, r->c_forward);
    uint32_t check = get16(ip + 10) + 0x0100u;  /* TTL - 1 raises the sum by 0x0100 */
    check += check >= 0xFFFF;
    ip[8]--;
    ip[10] = (uint8_t)(check >> 8);
    ip[11] = (uint8_t)check;
    memcpy(h, r->port[out].next_hop_mac, 6);
    memcpy(h + 6, r->port[out].mac, 6);
    for (unsigned off = 0; off < REWRITE_BYTES; off += 8) {
        uint64_t v;
        memcpy(&v, h + off, 8);
        plat_mem_write64(pd, (uint8_t *)pkt->data + off, v);
    }

    struct router_port_stats *ost = &r->stats[out];
    struct e1000_txq *oq = r->port[out].txq;
    if (!r->opts.napi.tx_clean && e1000_tx_free_descs(oq) < oq->opts.clean_thresh)
        e1000_tx_clean(oq, router_tx_done, &r->ctx[out]);
    int rc = e1000_xmit(oq, pkt->bus, pkt->len, pkt->cookie, 0);
    if (rc == E1000_ERR_BUSY) {
        drop(r, p, pkt, &ost->drop_ring_full);
        return;
    }
    if (rc != 0) {
        drop(r, p, pkt, &ost->drop_tx_error);
        return;
    }
    ost->forwarded++;
    plat_count_packets(pd, 1);
}

void router_tx_done(void *arg, void *cookie)
{
    struct router_ctx *cx = arg;
    e1000_rx_pkt_free(cx->r->port[cx->port].dev->pd, cookie);
}

int router_init(struct router *r, const struct router_port *ports, int nports,
                const struct router_pair *pairs, int npairs, const struct router_opts *o,
                struct rt_cache *rt)
{
    struct router_opts def;
    if (!o) {
        router_default_opts(&def);
        o = &def;
    }
    if (!r || !ports || nports < 1 || nports > ROUTER_MAX_PORTS || !pairs || npairs < 0 ||
        o->route_masklen > 32)
        return E1000_ERR_PARAM;
    memset(r, 0, sizeof *r);
    r->nports = nports;
    r->opts = *o;
    r->route_mask = o->route_masklen ? ~0u << (32 - o->route_masklen) : 0;
    for (int i = 0; i < nports; i++) {
        if (!ports[i].dev || !ports[i].dev->pd)
            return E1000_ERR_PARAM;
        r->port[i] = ports[i];
        r->out[i] = -1;
        r->ifindex[i] = ports[i].ifindex ? ports[i].ifindex : (uint32_t)i + 1;
        r->ctx[i] = (struct router_ctx){ .r = r, .port = (unsigned)i };
    }
    for (int k = 0; k < npairs; k++) {
        unsigned rx = pairs[k].rx, tx = pairs[k].tx;
        if (rx >= (unsigned)nports || tx >= (unsigned)nports || r->out[rx] >= 0 ||
            !ports[rx].rxq || !ports[tx].txq)
            return E1000_ERR_PARAM;
        r->out[rx] = (int)tx;
    }

    struct plat_dev *pd = ports[0].dev->pd;
    r->c_stack_rx = plat_cost_id(pd, "stack_rx");
    r->c_forward = plat_cost_id(pd, "ip_forward");
    r->c_fib = plat_cost_id(pd, "fib_lookup");

    struct e1000_napi_port np[ROUTER_MAX_PORTS];
    for (int i = 0; i < nports; i++)
        np[i] = (struct e1000_napi_port){
            .dev = ports[i].dev, .rxq = ports[i].rxq, .txq = ports[i].txq,
            .deliver = router_rx, .deliver_arg = &r->ctx[i],
            .tx_done = router_tx_done, .tx_done_arg = &r->ctx[i],
        };
    int rc = e1000_napi_init(&r->napi, np, nports, &o->napi);
    if (rc != 0)
        return rc;

    if (rt) {
        r->rt = rt;
    } else {
        rc = rt_cache_init(&r->own_rt, pd, &o->rt);
        if (rc != 0)
            return rc == -3 ? E1000_ERR_NOMEM : E1000_ERR_PARAM;
        r->rt = &r->own_rt;
    }
    return 0;
}

unsigned router_step(struct router *r)
{
    return e1000_napi_step(&r->napi);
}

void router_port_stats(const struct router *r, unsigned i, struct router_port_stats *s)
{
    *s = r->stats[i];
    const struct e1000_rxq *q = r->port[i].rxq;
    s->rx_errors = q ? q->rx.stats.errors + q->rx.stats.length_errors + q->rx.stats.multi_desc : 0;
}

void router_fini(struct router *r)
{
    if (r->rt == &r->own_rt)
        rt_cache_fini(&r->own_rt);
    r->rt = NULL;
}
