/* pktgen: a packet generator over one transmit queue of either driver core
 * (e1000 or ixgbe), shaped like Linux's pktgen (count, burst with
 * xmit_more, clone_skb).
 *
 * Step-based so that a scheduler can interleave it with other CPUs' work:
 * each pktgen_step() sends one burst, or handles a full ring (clean, else
 * flush the tail and wait for an interrupt), or -- once count or duration is
 * reached -- drains: waits until every queued packet has been reclaimed.
 *
 * The queue is reached only through struct nic_txq_ops (driver/port), a
 * table of the functions both cores offer in the same shape (xmit with
 * `more`, clean with a done callback, flush, free descriptors, the
 * interrupt cause read).  So pktgen itself depends on no core; a port
 * fills the table for its queue (port_e1000_txq_ops, port_ixgbe_txq_ops).
 *
 * Frames: Ethernet + IPv4 (valid header checksum, TTL 32, ID 0) + UDP
 * (checksum 0) + a payload holding the packet's 32-bit big-endian sequence
 * number (0, 1, 2, ...) followed by zeros.  In clone mode one frame with
 * sequence 0 is built once and the same buffer is sent every time.
 *
 * A queue whose driver has a NAPI vector of its own (the table's
 * napi_poll and stopped set: Linux 3.18 ixgbe's combined poll) is driven
 * as Linux pktgen drives it: an interrupt, taken between two packets,
 * runs the vector's poll until it completes (the softirq preempts pktgen
 * on its CPU); only the poll reclaims; a burst ends early when the driver
 * stops the queue; while the queue is stopped pktgen retries without
 * sleeping, which is modelled as a wait for the interrupt whose time is
 * counted in stopped_ns.  reclaim_in_poll does not apply then.
 *
 * Named costs (plat_cost_id): "pktgen_pkt" per packet sent (pktgen's own host
 * work), and without clone "skb_alloc" / "skb_free" per buffer taken from /
 * returned to the pool. */
#ifndef NICSIM_PKTGEN_H
#define NICSIM_PKTGEN_H
#include <stdint.h>
#include "../plat.h"
#include "../port/nic_queue_ops.h"

/* Return codes.  The values are the ones the e1000 and ixgbe cores share
 * (E1000_ERR_* / IXGBE_ERR_*: BUSY is the queue table's NIC_TXQ_BUSY), so
 * callers that compare pktgen_init's result with E1000_ERR_PARAM keep
 * working. */
enum pktgen_err {
    PKTGEN_ERR_BUSY  = -1,      /* xmit: the ring lacks room, nothing was written */
    PKTGEN_ERR_PARAM = -2,      /* an option or argument is out of range */
    PKTGEN_ERR_NOMEM = -3,      /* plat_dma_alloc or calloc failed */
};

#define PKTGEN_MIN_SIZE 64u      /* Ethernet frame sizes, FCS included */
#define PKTGEN_MAX_SIZE 1518u
#define PKTGEN_BUF_STRIDE 2048u  /* one pool buffer per 2 KB, like an skb's data */

struct pktgen_opts {
    uint64_t count;             /* packets to send; 0 = unlimited; default 1000 */
    uint64_t duration_ns;       /* stop when plat_now_ns() passes the first step's time
                                   + duration_ns; 0 = unlimited (default) */
    uint32_t size;              /* frame size incl. the 4-byte FCS, 64..1518; default 64.
                                   The buffer holds size - 4 bytes; the MAC adds the FCS */
    uint32_t burst;             /* N >= 1: N-1 packets with more=1, then one with more=0 */
    uint8_t clone;              /* 1 = resend one buffer (clone_skb); 0 = pool buffer per packet */
    uint32_t pool_size;         /* buffers without clone; 0 = the ring size (never short) */
    uint8_t src_mac[6];         /* default 02:00:00:00:00:01 */
    uint8_t dst_mac[6];         /* default 02:00:00:00:00:02 */
    uint32_t src_ip;            /* host order; default 10.0.0.1 */
    uint32_t dst_ip;            /* host order; default 10.0.0.2 */
    uint16_t src_port;          /* default 9 (as Linux pktgen) */
    uint16_t dst_port;          /* default 9 */
    uint64_t irq_wait_ns;       /* wait for an interrupt when the ring is full; default 100 us */
    uint8_t reclaim_in_poll;    /* 1 = TX is reclaimed only by the interrupt's NAPI poll, as
                                   Linux's e1000_clean: after a TX interrupt, polls repeat
                                   while each one reclaims something (pktgen meanwhile
                                   sends nothing); 0 = pktgen reclaims itself when fewer
                                   than clean_thresh descriptors are free (default) */
    uint64_t drain_timeout_ns;  /* bound on the final wait for reclaim; default 1 s */
    uint8_t old_clock;          /* 1 = pktgen before the 2009 monotonic-clock / hrtimer patch
                                   (seed 003): a wall-clock read per packet, charged as the
                                   named cost "pktgen_gettimeofday"; 0 = patched (default) */
};

struct pktgen_stats {
    uint64_t sent;              /* packets queued */
    uint64_t reclaimed;         /* packets reclaimed by TX clean */
    uint64_t reclaim_rounds;    /* occasions that reclaimed any: a clean in the transmit
                                   path, a NAPI poll (however many rounds it repeats), a
                                   run of the driver's own poll; the ring's turnaround is
                                   the sending time over this */
    uint64_t irqs;              /* plat_irq_wait calls that saw the interrupt */
    uint64_t irq_timeouts;      /* plat_irq_wait calls that timed out */
    uint64_t tdt_writes;        /* tail writes on the queue since pktgen_init */
    uint64_t ring_full;         /* packets that found no room (ring or pool) */
    uint64_t drain_timeouts;    /* 1 if the final reclaim wait gave up */
    uint64_t stopped_waits;     /* times pktgen found the queue stopped by its driver (or,
                                   with a NAPI vector, full) and retried until woken */
    uint64_t stopped_ns;        /* time spent so, the interrupts' entry and polls included */
};

struct pktgen_buf {
    void *va;                   /* DMA memory */
    uint64_t bus;
    struct pktgen_buf *next;    /* free list */
};

enum pktgen_state { PKTGEN_RUN, PKTGEN_DRAIN, PKTGEN_DONE };

struct pktgen {
    struct plat_dev *pd;
    struct nic_txq_ops tx;            /* the queue (a copy of the caller's table) */
    struct pktgen_opts opts;
    uint32_t len;                      /* bytes handed to xmit: size - 4 */
    uint8_t frame[PKTGEN_MAX_SIZE - 4]; /* template; sequence patched per packet */
    struct pktgen_buf clone_buf;       /* clone mode */
    struct pktgen_buf *pool;           /* pool mode: pool_n buffers */
    uint32_t pool_n;
    struct pktgen_buf *free_list;
    struct pktgen_buf *held;           /* built but refused by a full ring */
    uint32_t seq;                      /* next sequence number */
    uint32_t burst_pos;                /* packets of the current burst sent */
    int started;
    uint64_t start_ns, drain_start_ns;
    enum pktgen_state state;
    uint64_t tdt_base;
    plat_cost c_pkt, c_clock, c_alloc, c_free, c_poll;
    struct pktgen_stats stats;
};

/* Linux-pktgen-like defaults (see the field comments). */
void pktgen_default_opts(struct pktgen_opts *o);

/* Check the options, resolve the named costs, allocate the buffers (DMA) and
 * build the frame template.  tx is a bound queue (a port's txq_ops; every
 * function set), copied into pg.  o may be NULL (defaults).
 * Returns 0, PKTGEN_ERR_PARAM or PKTGEN_ERR_NOMEM. */
int pktgen_init(struct pktgen *pg, struct plat_dev *d, const struct nic_txq_ops *tx,
                const struct pktgen_opts *o);

/* One step: a burst, a full-ring wait, or a drain wait.  Returns 1 while
 * there is more to do, 0 when every packet has been sent and reclaimed (or
 * the drain timed out, reported through plat_log). */
int pktgen_step(struct pktgen *pg);

/* Free the pool bookkeeping (the DMA buffers stay: plat.h has no free).
 * Call after the last step or after the queue's teardown. */
void pktgen_fini(struct pktgen *pg);

#endif
