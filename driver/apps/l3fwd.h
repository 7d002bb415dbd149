/* l3fwd: DPDK's l3fwd sample of 2014 as its code was written (facts:
 * ../shared/docs/dpdk-l3fwd-2014.md), on the ixgbe core run by the rules of
 * the 2014 ixgbe PMD (bulk-alloc RX, simple TX: scenario keys of
 * testbench/scenarios/l3fwd.ini).  One CPU, no interrupts.  Each main-loop
 * iteration reads the time stamp counter; once the drain interval has passed
 * since the last drain it sends every port's non-empty TX buffer; then it
 * takes one rx burst of up to `burst` frames from every port in turn and
 * forwards them.  A route's next hop is the output port's index.  Frames that
 * are neither IPv4 nor IPv6, have a bad IPv4 header or no route are dropped.
 *
 * Two paths, chosen per run:
 *   scalar  DPDK 1.6 (l3fwd_simple_forward): per frame, the data of the frame
 *           `prefetch_ahead` places on prefetched; the header read and
 *           checked; the lookup (rte_lpm_lookup, or rte_lpm6_lookup for what
 *           is not IPv4), whose first table read waits for the header's
 *           destination address; MACs rewritten (IPv4: TTL down, checksum
 *           incremented); the frame appended to the output port's TX buffer;
 *           a full buffer (tx_buf frames) is sent with one tx burst;
 *   multi   DPDK 1.7.0 (the multi-buffer LPM path): no software prefetch;
 *           the burst in groups of 4: the destination addresses of the four
 *           read, then ONE rte_lpm_lookupx4 when all four are IPv4, else
 *           four scalar lookups; then the four MAC rewrites (and RFC 1812
 *           updates of the IPv4 ones); the remaining burst % 4 frames one
 *           at a time.  Then consecutive frames for the same port form a
 *           run: a run of at least tx_direct frames goes out with its own
 *           tx burst when that port's buffer is empty, else it is appended
 *           to the buffer (sent whenever it reaches tx_buf).
 * A tx burst (rte_eth_tx_burst over the simple TX of the PMD) reclaims
 * descriptors first when fewer than the queue's clean_thresh are free,
 * queues the frames and writes the tail once; frames that find the ring
 * full are freed.
 *
 * Named costs (plat_cost_id), each charged per occurrence:
 *   "l3fwd_loop"     a main-loop iteration: the TSC read and the drain test
 *   "l3fwd_pkt"      a frame's own instructions: checks, rewrite, enqueue
 *   "l3fwd_rx_burst" an rx burst call (whatever it returns)
 *   "l3fwd_tx_burst" a tx burst call
 *   "l3fwd_group"    multi: a group of 4's vector work (gather, shuffle, flag)
 * Memory (headers, table entries, descriptors, buffers) and the tail writes
 * are charged by the platform as they happen. */
#ifndef NICSIM_L3FWD_H
#define NICSIM_L3FWD_H
#include <stdint.h>
#include "../plat.h"
#include "../ixgbe/ixgbe_rx.h"
#include "../ixgbe/ixgbe_tx.h"
#include "lpm.h"

#define L3FWD_MAX_PORTS 4
#define L3FWD_MAX_BURST 32      /* MAX_PKT_BURST */
#define L3FWD_GROUP     4       /* FWDSTEP */

enum l3fwd_path { L3FWD_SCALAR = 0, L3FWD_MULTI = 1 };

struct l3fwd_port {
    struct plat_dev *pd;        /* the CPU's handle on the port */
    struct ixgbe_rxq *rxq;      /* set up, copybreak off */
    struct ixgbe_txq *txq;      /* set up */
    uint8_t mac[6];             /* source address of frames sent on this port */
    uint8_t peer_mac[6];        /* destination address of frames sent on this port */
};

struct l3fwd_opts {
    enum l3fwd_path path;       /* default scalar */
    unsigned burst;             /* rx burst, 1..L3FWD_MAX_BURST; default 32 (MAX_PKT_BURST) */
    unsigned prefetch_ahead;    /* scalar: default 3 (PREFETCH_OFFSET) */
    unsigned tx_buf;            /* frames a port's TX buffer sends at, 1..L3FWD_MAX_BURST;
                                   default 32 (MAX_PKT_BURST) */
    unsigned tx_direct;         /* multi: a run at least this long goes out directly when
                                   its port's buffer is empty; default 16 (MAX_TX_BURST) */
    uint64_t drain_ns;          /* TX buffers sent when this long has passed since the
                                   last drain; default 100 us (BURST_TX_DRAIN_US) */
};

struct l3fwd_port_stats {
    uint64_t rx;                /* frames the rx bursts returned */
    uint64_t rx_bursts;         /* rx burst calls, and those that returned nothing */
    uint64_t rx_empty;
    uint64_t tx;                /* frames queued for TX on this port */
    uint64_t tx_bursts;         /* tx burst calls on this port */
    uint64_t tx_direct;         /* of which multi's runs sent directly */
    uint64_t tx_drained;        /* of which the drain's */
    uint64_t drop_bad;          /* input: not IP, bad IPv4 header */
    uint64_t drop_no_route;     /* input */
    uint64_t drop_ring_full;    /* output */
};

struct l3fwd_txbuf {
    struct ixgbe_rx_pkt pkt[L3FWD_MAX_BURST];
    unsigned len;
};

struct l3fwd {
    struct l3fwd_port port[L3FWD_MAX_PORTS];
    int nports;
    const struct lpm *lpm4, *lpm6;
    struct l3fwd_opts opts;
    struct l3fwd_port_stats stats[L3FWD_MAX_PORTS];
    struct l3fwd_txbuf txbuf[L3FWD_MAX_PORTS];
    struct lpm_stats lpm_stats; /* both tables */
    uint64_t lookups_x4;        /* multi: keys looked up four at a time (rte_lpm_lookupx4) */
    uint64_t groups;            /* multi: groups of 4 */
    uint64_t iterations;        /* main-loop iterations */
    uint64_t drains;            /* of which sent TX buffers by the drain interval */
    uint64_t last_drain_ns;
    int started;
    plat_cost c_loop, c_pkt, c_rx_burst, c_tx_burst, c_group;
};

void l3fwd_default_opts(struct l3fwd_opts *o);
/* A forwarder over nports (1..L3FWD_MAX_PORTS) ports of one CPU with the
 * given routing tables (either may be NULL: that family is dropped as
 * having no route; lpm4 must be an IPv4 table, lpm6 an IPv6 one).  0, or
 * -1 for bad arguments. */
int l3fwd_init(struct l3fwd *f, const struct l3fwd_port *ports, int nports, const struct lpm *lpm4,
               const struct lpm *lpm6, const struct l3fwd_opts *o);
/* One main-loop iteration.  Returns the frames it received. */
unsigned l3fwd_step(struct l3fwd *f);
/* Frames waiting in the TX buffers (sent by the next drain). */
unsigned l3fwd_buffered(const struct l3fwd *f);

#endif
