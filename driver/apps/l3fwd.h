/* l3fwd: a poll-mode IPv4/IPv6 forwarder in the style of DPDK's l3fwd
 * sample, on the ixgbe core.  One CPU polls its ports round-robin, with no
 * interrupts: per port an rx burst of up to `burst` frames (ixgbe_rx_poll
 * with that budget: descriptors read, buffers refilled), then per frame the
 * header read, a longest-prefix-match lookup of the destination (IPv4 in a
 * DIR-24-8 table, IPv6 in its rte_lpm6-style table: lpm.h), TTL / hop limit
 * decremented (the IPv4 checksum updated), the Ethernet addresses rewritten,
 * and the frame sent on the output port with ixgbe_xmit; the tail register
 * is written when a tx burst ends (more = 0).  A route's next hop is the
 * output port's index.  Frames that are neither IPv4 nor IPv6, have a bad
 * IPv4 header, a TTL / hop limit below 2 or no route are dropped.
 *
 * Two paths, chosen per run:
 *   scalar  one packet at a time, as the sample before its multi-buffer
 *           work: each lookup reads its table entries one after another,
 *           and each packet is a tx burst of its own (a tail write per
 *           packet);
 *   multi   groups of `group` (4 or 8) packets: their headers read, their
 *           lookups issued together (lpm_lookup_bulk: every entry of a level
 *           prefetched before any is read), rewritten, and then consecutive
 *           packets for the same output port sent as one tx burst; a run
 *           ends where the destination changes (or with the rx burst).
 * Both prefetch the data of the packet `prefetch_ahead` places ahead, as
 * the sample does.  TX descriptors are reclaimed when fewer than
 * tx_free_thresh are free (freeing the buffers); a frame that finds its
 * output ring full is dropped.
 *
 * Named costs (plat_cost_id), each charged per occurrence:
 *   "l3fwd_pkt"      a packet's own instructions: parse, checks, rewrite
 *   "l3fwd_rx_burst" an rx burst call (whatever it returns)
 *   "l3fwd_tx_burst" a tx burst call (a run of packets to one port)
 *   "l3fwd_group"    multi: a group's vector work (gather, port compare)
 * Memory (headers, table entries, descriptors) and the tail writes are
 * charged by the platform as they happen. */
#ifndef NICSIM_L3FWD_H
#define NICSIM_L3FWD_H
#include <stdint.h>
#include "../plat.h"
#include "../ixgbe/ixgbe_rx.h"
#include "../ixgbe/ixgbe_tx.h"
#include "lpm.h"

#define L3FWD_MAX_PORTS 4
#define L3FWD_MAX_BURST 32

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
    unsigned burst;             /* rx burst, 1..L3FWD_MAX_BURST; default 32 */
    unsigned group;             /* multi: 4 or 8; default 8 */
    unsigned prefetch_ahead;    /* default 3 (the sample's PREFETCH_OFFSET) */
    unsigned tx_free_thresh;    /* default 32 */
};

struct l3fwd_port_stats {
    uint64_t rx;                /* frames the rx bursts returned */
    uint64_t rx_bursts;         /* rx burst calls, and those that returned nothing */
    uint64_t rx_empty;
    uint64_t tx;                /* frames queued for TX on this port */
    uint64_t tx_bursts;         /* tx burst calls (tail writes) on this port */
    uint64_t drop_bad;          /* input: not IP, bad header, TTL / hop limit < 2 */
    uint64_t drop_no_route;     /* input */
    uint64_t drop_ring_full;    /* output */
};

struct l3fwd {
    struct l3fwd_port port[L3FWD_MAX_PORTS];
    int nports;
    const struct lpm *lpm4, *lpm6;
    struct l3fwd_opts opts;
    struct l3fwd_port_stats stats[L3FWD_MAX_PORTS];
    struct lpm_stats lpm_stats; /* both tables */
    uint64_t groups;            /* multi: groups processed */
    unsigned next_port;         /* round-robin position */
    plat_cost c_pkt, c_rx_burst, c_tx_burst, c_group;
};

void l3fwd_default_opts(struct l3fwd_opts *o);
/* A forwarder over nports (1..L3FWD_MAX_PORTS) ports of one CPU with the
 * given routing tables (either may be NULL: that family is dropped as
 * having no route).  0, or -1 for bad arguments. */
int l3fwd_init(struct l3fwd *f, const struct l3fwd_port *ports, int nports, const struct lpm *lpm4,
               const struct lpm *lpm6, const struct l3fwd_opts *o);
/* One rx burst on the next port (round-robin) and the forwarding of what it
 * returned.  Returns the frames it forwarded (queued for TX). */
unsigned l3fwd_step(struct l3fwd *f);

#endif
