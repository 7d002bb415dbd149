/* NAPI for one CPU serving a set of e1000 ports: interrupt, mask, poll
 * rounds with a per-port budget, unmask when the work is done.
 *
 * Step-based, like pktgen_step, so that a scheduler can interleave CPUs:
 * each e1000_napi_step() is either one wait or one poll round.
 *   - WAIT: plat_irq_wait_any over the ports' handles, bounded by wait_ns.
 *     On an interrupt from port p: read ICR (plat_read32: the whole bus
 *     round trip; 0 = not ours, keep waiting), write IMC = 0xFFFFFFFF on p
 *     (plus a STATUS read when flush is set: Linux's E1000_WRITE_FLUSH) and
 *     go to POLL.  On a timeout go to POLL anyway, so nothing is stranded
 *     behind a lost or throttled interrupt; interrupts stay enabled then.
 *   - POLL: one round charges the named cost "napi_poll" and, for every
 *     port in order, reclaims its TX queue (e1000_tx_clean, tx_done per
 *     packet) and then polls its RX queue with budget = weight (deliver per
 *     frame), as Linux's e1000_clean does.  The round decides (exit_rule):
 *       UNDER_BUDGET (default, NAPI): poll again while any port used its
 *         whole budget; otherwise write IMS = mask (plus a STATUS read with
 *         flush) on every port whose interrupts this loop masked, and WAIT;
 *       IDLE (Linux 2.6.1x e1000_clean, "if no Tx and not enough Rx work
 *         done, exit the polling mode" coded as !tx_cleaned && work_done == 0):
 *         poll again while any port received or reclaimed anything.
 *   Every port is polled in every round (a simplification of Linux's
 *   per-device poll list: at router load all of them are on it). */
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
    uint8_t tx_clean;           /* 1 = each round reclaims every port's TX ring (the
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
    uint64_t irqs;              /* waits that returned an interrupt */
    uint64_t not_ours;          /* of which ICR read 0 */
    uint64_t timeouts;          /* waits that timed out (a round follows) */
    uint64_t rounds;            /* poll rounds ("napi_poll" charges) */
    uint64_t full_rounds;       /* rounds after which polling went on */
    uint64_t rx_descs;          /* descriptors processed by the RX polls */
    uint64_t tx_reclaimed;      /* packets reclaimed by the TX cleans */
    uint64_t imc_writes;        /* interrupts masked */
    uint64_t ims_writes;        /* interrupts re-enabled */
    uint32_t icr_seen;          /* OR of every ICR value read */
};

enum e1000_napi_state { E1000_NAPI_WAIT, E1000_NAPI_POLL };

struct e1000_napi {
    struct e1000_napi_opts opts;
    struct e1000_napi_port port[E1000_NAPI_MAX_PORTS];
    struct plat_dev *pd[E1000_NAPI_MAX_PORTS];
    uint8_t masked[E1000_NAPI_MAX_PORTS];   /* IMC written by this loop, IMS not yet */
    int nports;
    enum e1000_napi_state state;
    plat_cost c_poll;
    struct e1000_napi_stats stats;
};

/* Linux-like defaults (see the field comments). */
void e1000_napi_default_opts(struct e1000_napi_opts *o);

/* 1..E1000_NAPI_MAX_PORTS ports served by the calling CPU (their devices
 * brought up, queues set up).  o may be NULL (defaults).  Starts in WAIT.
 * Returns 0 or E1000_ERR_PARAM. */
int e1000_napi_init(struct e1000_napi *n, const struct e1000_napi_port *ports, int nports,
                    const struct e1000_napi_opts *o);

/* One wait or one poll round.  Returns the work the step did: descriptors
 * processed + packets reclaimed in a round, 0 for a wait. */
unsigned e1000_napi_step(struct e1000_napi *n);

#endif
