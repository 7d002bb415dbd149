/* The IPv4 router of the reference runs (seeds 000 and 002): frames
 * received on one port are forwarded to another (eth0 -> eth1 and
 * eth2 -> eth3), driven by the NAPI loop of one CPU (e1000_napi.h).  A CPU
 * runs one router over the ports it serves: one CPU per pair, or one CPU
 * for all pairs.
 *
 * Per received frame (the deliver callback of the RX poll), as a 2.6.14
 * kernel does it:
 *   1. "stack_rx" (named cost): netif_receive_skb + eth_type_trans + ip_rcv;
 *      the header is read: the first 34 bytes (more with IP options) with
 *      plat_mem_copy_from.  Not IPv4, a bad version/IHL/length or a bad
 *      header checksum: dropped (drop_header).
 *   2. TTL <= 1: dropped (drop_ttl; Linux would send ICMP time exceeded).
 *   3. Route: the route cache (route_cache.h) keyed by (daddr, saddr,
 *      input port); on a miss "fib_lookup" (named cost: ip_route_input_slow
 *      and fib_lookup) decides - destinations inside route_prefix/
 *      route_masklen go to the pair's output port, others are unreachable -
 *      and the result is cached (negative results too).  Unreachable or no
 *      pair: dropped (drop_no_route).
 *   4. "ip_forward" (named cost: ip_forward, ip_output, neighbour output,
 *      dev_queue_xmit and the qdisc): TTL decremented and the header checksum
 *      updated incrementally (as ip_decrease_ttl), the Ethernet addresses
 *      rewritten (the neighbour's cached header: next_hop_mac, then the
 *      output port's mac); bytes 0..31 of the frame are written back with
 *      plat_mem_write64.
 *   5. e1000_xmit on the output port with more = 0 (no xmit_more in 2.6.14:
 *      one TDT write per frame).  Ring full: dropped (drop_ring_full), as the
 *      qdisc would drop; the buffer is freed.
 * Buffers are freed ("skb_free") when a drop happens or when the output
 * port's TX clean (in the NAPI poll) reclaims them.  plat_count_packets
 * counts forwarded frames. */
#ifndef NICSIM_ROUTER_H
#define NICSIM_ROUTER_H
#include <stdint.h>
#include "../plat.h"
#include "../e1000/e1000_dev.h"
#include "../e1000/e1000_rx.h"
#include "../e1000/e1000_tx.h"
#include "../e1000/e1000_napi.h"
#include "route_cache.h"

#define ROUTER_MAX_PORTS  E1000_NAPI_MAX_PORTS
#define ROUTER_HDR_READ   34u      /* bytes of every frame the stack reads: Ethernet +
                                      an IPv4 header without options (more are read
                                      when the IHL says so) */

struct router_port {
    struct e1000_dev *dev;      /* brought up; dev->pd is this CPU's handle */
    struct e1000_rxq *rxq;      /* set up; required on the input port of a pair */
    struct e1000_txq *txq;      /* set up; required on the output port of a pair */
    uint8_t mac[6];             /* source address of frames sent on this port */
    uint8_t next_hop_mac[6];    /* destination address of frames sent on this port */
    uint32_t ifindex;           /* input-port word of route-cache keys; 0 = port index + 1.
                                   Routers sharing a cache need distinct values */
};

struct router_pair {
    unsigned rx, tx;            /* indices into the port array; each rx at most once */
};

struct router_opts {
    struct e1000_napi_opts napi;
    struct rt_cache_opts rt;    /* the router's own cache (unused with a shared one) */
    uint32_t route_prefix;      /* host order; default 0 */
    uint8_t route_masklen;      /* 0..32; destinations inside prefix/masklen are routed;
                                   default 0 (everything) */
};

struct router_port_stats {
    uint64_t rx;                /* frames the stack got on this port */
    uint64_t forwarded;         /* frames queued for TX on this port */
    uint64_t drop_header;       /* input: not IPv4, bad header or checksum */
    uint64_t drop_ttl;          /* input: TTL <= 1 */
    uint64_t drop_no_route;     /* input: unreachable destination or no pair */
    uint64_t drop_ring_full;    /* output: TX ring full */
    uint64_t drop_tx_error;     /* output: e1000_xmit refused the frame (length) */
    uint64_t rx_errors;         /* input: dropped by the driver (frame errors, length,
                                   multi-descriptor); filled in by router_port_stats() */
    uint64_t rt_hits;           /* input: route cache hits */
    uint64_t rt_misses;         /* input: route cache misses (fib_lookup) */
};

struct router;
struct router_ctx {             /* callback argument: one per port */
    struct router *r;
    unsigned port;
};

struct router {
    struct router_port port[ROUTER_MAX_PORTS];
    int nports;
    int out[ROUTER_MAX_PORTS];  /* input port -> output port, -1 = none */
    uint32_t ifindex[ROUTER_MAX_PORTS];
    struct router_ctx ctx[ROUTER_MAX_PORTS];
    struct router_opts opts;
    uint32_t route_mask;        /* from route_masklen */
    struct rt_cache own_rt;
    struct rt_cache *rt;        /* own_rt or a shared one */
    struct e1000_napi napi;
    plat_cost c_stack_rx, c_forward, c_fib;
    struct router_port_stats stats[ROUTER_MAX_PORTS];
};

void router_default_opts(struct router_opts *o);

/* A router over nports ports (1..ROUTER_MAX_PORTS) of the calling CPU,
 * forwarding along npairs pairs.  o may be NULL (defaults).  rt may be NULL
 * (the router allocates its own cache) or a cache shared with other
 * routers.  Returns 0, E1000_ERR_PARAM or E1000_ERR_NOMEM. */
int router_init(struct router *r, const struct router_port *ports, int nports,
                const struct router_pair *pairs, int npairs, const struct router_opts *o,
                struct rt_cache *rt);

/* One NAPI step (a wait or a poll round).  Returns the work done
 * (e1000_napi_step). */
unsigned router_step(struct router *r);

/* The statistics of port i, with rx_errors taken from its RX queue. */
void router_port_stats(const struct router *r, unsigned i, struct router_port_stats *s);

/* Free the router's own route cache bookkeeping.  Tear down the queues
 * after this (TX first: its teardown frees the buffers still queued). */
void router_fini(struct router *r);

/* Release a forwarded frame's buffer (the TX done callback). */
void router_tx_done(void *arg, void *cookie);

#endif
