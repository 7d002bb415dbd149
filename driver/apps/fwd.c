/* The ixy-style forwarder; see fwd.h. */
#include "fwd.h"
#include "../ring/pktbuf.h"
#include <string.h>

/* ixy's TX loop reads the buffer's address and size from its header (the
 * first bytes of struct pkt_buf): the pool's metadata line here. */
#define FWD_TX_HDR_READ 16u

void fwd_default_opts(struct fwd_opts *o)
{
    o->batch = 32;              /* ixy-fwd's BATCH_SIZE */
}

int fwd_init(struct fwd *f, const struct fwd_port ports[FWD_PORTS], const struct fwd_opts *o)
{
    struct fwd_opts def;
    if (!o) {
        fwd_default_opts(&def);
        o = &def;
    }
    if (!f || !ports || o->batch < 1 || o->batch > FWD_MAX_BATCH)
        return -1;
    for (int p = 0; p < FWD_PORTS; p++)
        if (!ports[p].pd || !ports[p].rxq || !ports[p].txq)
            return -1;
    memset(f, 0, sizeof *f);
    memcpy(f->port, ports, sizeof f->port);
    f->opts = *o;
    for (int p = 0; p < FWD_PORTS; p++) {
        struct plat_dev *pd = ports[p].pd;
        f->c[p] = (struct fwd_costs){
            .rx_batch = plat_cost_id(pd, "fwd_rx_batch"), .rx_pkt = plat_cost_id(pd, "fwd_rx_pkt"),
            .tx_batch = plat_cost_id(pd, "fwd_tx_batch"), .tx_pkt = plat_cost_id(pd, "fwd_tx_pkt"),
        };
    }
    return 0;
}

/* The rx batch as ixy's bufs[]: what each received descriptor held. */
struct batch {
    struct plat_dev *pd;
    plat_cost c_pkt;
    struct ixgbe_rx_pkt pkt[FWD_MAX_BATCH];
    unsigned n;
};

/* A frame of the rx loop (the ring engine has read its DD, written its
 * buffer's size into the header and re-posted the slot). */
static void collect(void *arg, struct ixgbe_rx_pkt *pkt)
{
    struct batch *b = arg;
    plat_charge(b->pd, b->c_pkt);
    if (b->n < FWD_MAX_BATCH)       /* the poll's budget is at most the batch */
        b->pkt[b->n++] = *pkt;
}

/* TX reclaim hands each sent buffer back to its pool (pkt_buf_free). */
static void free_sent(void *pd, void *cookie)
{
    ixgbe_rx_pkt_free(pd, cookie);
}

/* ixy's tx_batch of b on port out: clean, queue what fits, one TDT write.
 * Returns the frames queued. */
static unsigned tx_batch(struct fwd *f, int out, const struct batch *b)
{
    struct fwd_port *op = &f->port[out];
    plat_charge(op->pd, f->c[out].tx_batch);
    ixgbe_tx_clean(op->txq, free_sent, op->pd);
    unsigned sent = 0;
    for (; sent < b->n; sent++) {
        const struct ixgbe_rx_pkt *p = &b->pkt[sent];
        const struct pktbuf *buf = p->cookie;
        /* full: ixy's "the next index is the clean index", checked before
         * the buffer is looked at */
        if (!ixgbe_tx_room(op->txq, p->len))
            break;
        plat_charge(op->pd, f->c[out].tx_pkt);
        plat_mem_touch(op->pd, buf->meta, FWD_TX_HDR_READ, 0);
        /* a length the queue refuses (above its max_frame_len; the 82599
         * RX path hands over at most 2048 bytes) ends the batch as a full
         * ring does: it and the rest are freed */
        if (ixgbe_xmit(op->txq, p->bus, p->len, p->cookie, IXGBE_XMIT_CALLER_TAIL) != 0)
            break;
    }
    ixgbe_tx_tail(op->txq);
    f->stats[out].tx_calls++;
    f->stats[out].tx += sent;
    return sent;
}

unsigned fwd_forward(struct fwd *f, int in, int out)
{
    struct fwd_port *ip = &f->port[in];
    struct fwd_port_stats *st = &f->stats[in];
    struct batch b;
    b.pd = ip->pd;
    b.c_pkt = f->c[in].rx_pkt;
    b.n = 0;
    plat_charge(ip->pd, f->c[in].rx_batch);
    st->rx_polls++;
    ixgbe_rx_poll(ip->rxq, f->opts.batch, collect, &b);
    st->rx += b.n;
    if (!b.n) {
        st->rx_empty++;
        return 0;
    }
    unsigned sent = tx_batch(f, out, &b);
    /* what did not fit is dropped, not held: ixy frees it at once */
    for (unsigned i = sent; i < b.n; i++)
        ixgbe_rx_pkt_free(ip->pd, b.pkt[i].cookie);
    st->tx_full += b.n - sent;
    plat_count_packets(ip->pd, sent);
    return sent;
}

unsigned fwd_step(struct fwd *f)
{
    uint64_t before = f->stats[0].rx + f->stats[1].rx;
    fwd_forward(f, 0, 1);
    fwd_forward(f, 1, 0);
    return (unsigned)(f->stats[0].rx + f->stats[1].rx - before);
}

void fwd_report(const struct fwd *f, int p, struct fwd_port_report *r)
{
    const struct ixgbe_rxq *rq = f->port[p].rxq;
    const struct ixgbe_txq *tq = f->port[p].txq;
    *r = (struct fwd_port_report){
        .app = f->stats[p],
        .rx_dd_reads = rq->rx.stats.dd_reads,
        .rdt_writes = rq->rx.stats.rdt_writes,
        .tx_dd_reads = tq->stats.dd_reads,
        .tdt_writes = tq->stats.tdt_writes,
        .tx_reclaimed = tq->stats.reclaimed,
    };
}
