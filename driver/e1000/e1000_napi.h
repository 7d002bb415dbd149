/* NAPI for one CPU serving a set of e1000 ports, per device as in Linux
 * 2.6.x: each port is on the CPU's poll list only after its own interrupt,
 * is polled for its own work, and leaves the list (interrupts re-enabled on
 * that port only) by the exit rule applied to that work.
 *
 * Step-based, like pktgen_step, so that a scheduler can interleave CPUs:
 * each e1000_napi_step() is either one wait or one poll round.
 *   - No port polling (state WAIT): plat_irq_wait_any over every port's
 *     handle, bounded by wait_ns.  On an interrupt from port p, p's
 *     interrupt is taken as e1000_intr does: read ICR (plat_read32: the
 *     whole bus round trip; 0 = not ours, p stays off the list), write
 *     IMC = 0xFFFFFFFF on p (plus a STATUS read when flush is set: Linux's
 *     E1000_WRITE_FLUSH) and append p to the poll list (netif_rx_schedule):
 *     state POLL.  On a timeout, the next step is a sweep round: every port
 *     polled once, nobody masked and nobody put on the list, so nothing is
 *     stranded behind a lost or throttled interrupt.
 *   - Some port polling (state POLL): first the interrupts pending on ports
 *     NOT on the list are taken, each as above (plat_irq_wait_any over
 *     those ports' handles with timeout 0, at most once per port and step:
 *     a hardware interrupt that arrives while the softirq runs), so a port
 *     that joins goes to the end of the list.  Then one round: "napi_poll"
 *     charged once (net_rx_action's pass), then each listed port in list
 *     order, as e1000_clean: reclaim its own TX ring (e1000_tx_clean,
 *     tx_done per packet; only when tx_clean is set), poll its own RX ring
 *     with budget = weight (deliver per frame), then decide for that port
 *     alone (exit_rule):
 *       UNDER_BUDGET (default, NAPI: work_done < budget): it stays while its
 *         RX used its whole weight;
 *       IDLE (2.6.14 / e1000 6.x e1000_clean, "if no Tx and not enough Rx
 *         work done, exit the polling mode" coded as !tx_cleaned &&
 *         work_done == 0): it stays while it received or reclaimed anything.
 *     A port that leaves gets IMS = mask (plus a STATUS read with flush) on
 *     its own device (netif_rx_complete + e1000_irq_enable); the others
 *     keep their places.  state is WAIT again once the list is empty. */
#ifndef NICSIM_E1000_NAPI_H
#define NICSIM_E1000_NAPI_H
#include <stdint.h>
#include "../plat.h"
#include "e1000_dev.h"
#include "e1000_rx.h"
#include "e1000_tx.h"

#define E1000_NAPI_MAX_PORTS 8     /* plat_irq_wait_any's limit in the simulator */
#define E1000_NAPI_WEIGHT    64u   /* Linux netif_napi_add weight for e1000 */

enum e1000_napi_exit {
    E1000_NAPI_EXIT_UNDER_BUDGET = 0,
    E1000_NAPI_EXIT_IDLE = 1,
};

struct e1000_napi_opts {
    uint32_t weight;            /* RX budget per port and round, >= 1; default 64 */
    uint64_t wait_ns;           /* interrupt wait bound, > 0; default 1 ms */
    uint32_t ims;               /* mask written to IMS on re-enable; 0 = each device's
                                   dev->opts.ims (default) */
    uint8_t flush;              /* 1 = read STATUS after IMC and IMS writes; default 0 */
    uint8_t exit_rule;          /* enum e1000_napi_exit; default UNDER_BUDGET */
    uint8_t tx_clean;           /* 1 = a port's poll reclaims its own TX ring (the
                                   e1000 of 2004-2006); 0 = the caller reclaims in its
                                   transmit path; default 1 */
};

struct e1000_napi_port {
    struct e1000_dev *dev;      /* required: its pd is the handle waited on */
    struct e1000_rxq *rxq;      /* NULL = no RX on this port */
    struct e1000_txq *txq;      /* NULL = no TX reclaim on this port */
    void (*deliver)(void *arg, struct e1000_rx_pkt *pkt);   /* NULL = free each frame */
    void *deliver_arg;
    void (*tx_done)(void *arg, void *cookie);               /* may be NULL */
    void *tx_done_arg;
};

struct e1000_napi_stats {
    uint64_t irqs;              /* interrupts taken (blocking waits and between rounds) */
    uint64_t not_ours;          /* of which ICR read 0 */
    uint64_t timeouts;          /* waits that timed out (a sweep round follows) */
    uint64_t rounds;            /* poll rounds ("napi_poll" charges), sweeps included */
    uint64_t full_rounds;       /* rounds after which some port stayed on the list */
    uint64_t rx_descs;          /* descriptors processed by the RX polls */
    uint64_t tx_reclaimed;      /* packets reclaimed by the TX cleans */
    uint64_t imc_writes;        /* interrupts masked */
    uint64_t ims_writes;        /* interrupts re-enabled */
    uint32_t icr_seen;          /* OR of every ICR value read */
};

/* The same, per port. */
struct e1000_napi_port_stats {
    uint64_t irqs;              /* interrupts taken on this port */
    uint64_t not_ours;          /* of which ICR read 0 */
    uint64_t polls;             /* rounds that polled this port (sweeps included) */
    uint64_t stays;             /* polls after which it stayed on the list */
    uint64_t rx_descs;
    uint64_t tx_reclaimed;
    uint64_t ims_writes;        /* times it left the list */
};

enum e1000_napi_state { E1000_NAPI_WAIT, E1000_NAPI_POLL };

struct e1000_napi {
    struct e1000_napi_opts opts;
    struct e1000_napi_port port[E1000_NAPI_MAX_PORTS];
    struct plat_dev *pd[E1000_NAPI_MAX_PORTS];
    int nports;
    /* The poll list: port indexes in the order they joined; polling[i] is
     * 1 while port i is on it (masked by IMC, IMS not yet written). */
    uint8_t list[E1000_NAPI_MAX_PORTS];
    int nlist;
    uint8_t polling[E1000_NAPI_MAX_PORTS];
    uint8_t sweep;              /* a wait timed out: the next round polls every port */
    enum e1000_napi_state state;   /* WAIT: nothing to poll; POLL: a round is due */
    plat_cost c_poll;
    struct e1000_napi_stats stats;
    struct e1000_napi_port_stats port_stats[E1000_NAPI_MAX_PORTS];
};

/* Linux-like defaults (see the field comments). */
void e1000_napi_default_opts(struct e1000_napi_opts *o);

/* 1..E1000_NAPI_MAX_PORTS ports served by the calling CPU (their devices
 * brought up, queues set up).  o may be NULL (defaults).  Starts in WAIT
 * with an empty poll list.  Returns 0 or E1000_ERR_PARAM. */
int e1000_napi_init(struct e1000_napi *n, const struct e1000_napi_port *ports, int nports,
                    const struct e1000_napi_opts *o);

/* One wait or one poll round (with the interrupts taken before it).
 * Returns the work the step did: descriptors processed + packets reclaimed
 * in a round, 0 for a wait. */
unsigned e1000_napi_step(struct e1000_napi *n);

#endif
