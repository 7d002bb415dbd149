/* fwd: an ixy-style forwarder between two 82599 ports on the ixgbe core
 * (ixy's ixy-fwd; its rules in docs/fwd.md, from ixy's code).  One CPU,
 * no interrupts; each step is ixy's main loop body, forward(0 -> 1) then
 * forward(1 -> 0), where forward(in -> out) is:
 *
 *   - an rx batch on `in`: up to `batch` descriptors, stopping at the first
 *     without DD, each received buffer replaced by a newly allocated one,
 *     and one RDT write after the loop if anything was received (the RX
 *     queue's driver options: driver.rx_tail = poll, copybreak 0);
 *   - only if frames arrived, a tx batch on `out`: reclaim first (the TX
 *     queue's clean: driver.tx_clean_batch = 32 reclaims whole batches of
 *     32 by the DD of each batch's last descriptor), then per frame one
 *     descriptor (the buffer's header read for its address and length, RS
 *     on every descriptor: driver.rs_every = 1) while the ring has room,
 *     and ONE TDT write after the loop, even when nothing fitted
 *     (ixgbe_xmit with IXGBE_XMIT_CALLER_TAIL, then ixgbe_tx_tail);
 *   - the frames that did not fit are freed (ixy drops rather than waits).
 *
 * No byte of packet data is touched.  Buffers come from each RX queue's
 * pool (a LIFO stack, ../ring/pktbuf.h: "skb_alloc" / "skb_free" stand for
 * ixy's pkt_buf_alloc / pkt_buf_free) and go back to the pool they came
 * from, whichever port frees them.
 *
 * Named costs (plat_cost_id), the instructions of ixy's code besides the
 * memory accesses the platform charges (docs/fwd.md counts them):
 *   "fwd_rx_batch"  a forward() call: the main loop's share, forward's own
 *                   and an rx_batch call that receives nothing
 *   "fwd_rx_pkt"    a received frame in the rx loop
 *   "fwd_tx_batch"  a forward() that received something: the RDT path,
 *                   the tx_batch call and a reclaim check that fails
 *   "fwd_tx_pkt"    a frame queued for TX, its later reclaim and its share
 *                   of the reclaim check that succeeds (1/32 of it) */
#ifndef NICSIM_FWD_H
#define NICSIM_FWD_H
#include <stdint.h>
#include "../plat.h"
#include "../ixgbe/ixgbe_rx.h"
#include "../ixgbe/ixgbe_tx.h"

#define FWD_PORTS 2
#define FWD_MAX_BATCH 256u

struct fwd_port {
    struct plat_dev *pd;        /* the CPU's handle on the port */
    struct ixgbe_rxq *rxq;      /* set up */
    struct ixgbe_txq *txq;      /* set up */
};

struct fwd_opts {
    unsigned batch;             /* frames per rx batch (ixy's BATCH_SIZE), 1..FWD_MAX_BATCH;
                                   default 32 */
};

/* What the forwarder did on one port (rx: received there; tx: sent there). */
struct fwd_port_stats {
    uint64_t rx_polls;          /* rx batch calls */
    uint64_t rx_empty;          /* of which received nothing */
    uint64_t rx;                /* frames received */
    uint64_t tx_calls;          /* tx batch calls (each one TDT write) */
    uint64_t tx;                /* frames queued for TX */
    uint64_t tx_full;           /* frames received here and freed: the other port's TX
                                   ring had no room */
};

/* A port's counters with its queues' own (the driver's, per queue). */
struct fwd_port_report {
    struct fwd_port_stats app;
    uint64_t rx_dd_reads;       /* RX write-back qwords read */
    uint64_t rdt_writes;        /* RX tail writes */
    uint64_t tx_dd_reads;       /* TX status qwords read by reclaim */
    uint64_t tdt_writes;        /* TX tail writes */
    uint64_t tx_reclaimed;      /* packets reclaimed by TX clean */
};

/* The named costs as the port's handle knows them (a platform may number
 * them per handle). */
struct fwd_costs {
    plat_cost rx_batch, rx_pkt, tx_batch, tx_pkt;
};

struct fwd {
    struct fwd_port port[FWD_PORTS];
    struct fwd_opts opts;
    struct fwd_port_stats stats[FWD_PORTS];
    struct fwd_costs c[FWD_PORTS];
};

void fwd_default_opts(struct fwd_opts *o);
/* A forwarder between ports[0] and ports[1] (o NULL: defaults).  0, or -1
 * for bad arguments (a port without queues, batch out of range). */
int fwd_init(struct fwd *f, const struct fwd_port ports[FWD_PORTS], const struct fwd_opts *o);
/* ixy's forward(in -> out): returns the frames queued on out. */
unsigned fwd_forward(struct fwd *f, int in, int out);
/* One pass of the main loop: forward(0 -> 1), forward(1 -> 0).  Returns
 * the frames received (nonzero: it did work). */
unsigned fwd_step(struct fwd *f);
/* Port p's counters and its queues' (while the queues are up). */
void fwd_report(const struct fwd *f, int p, struct fwd_port_report *r);

#endif
