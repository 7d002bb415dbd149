/* One 82599 queue vector as Linux 3.18 ixgbe drives it with its combined
 * NAPI poll: the transmit path with the driver's queue stop
 * (ixgbe_xmit_frame_ring, ixgbe_tx_map, ixgbe_maybe_stop_tx), the MSI-X
 * vector's interrupt (ixgbe_msix_clean_rings), the poll it schedules
 * (ixgbe_poll: TX clean within tx_work_limit packets, queue wake,
 * napi_complete, dynamic ITR, EIMS re-enable) and the vector's set-up
 * (ixgbe_configure_msix, ixgbe_setup_gpie, ixgbe_irq_enable).  Every rule
 * and its source: docs/pktgen-napi.md.
 *
 *   - xmit: a packet of n descriptors needs n + 3 free (else the queue is
 *     stopped and the packet refused: NETDEV_TX_BUSY); after mapping, the
 *     queue is stopped when fewer than desc_needed (DESC_NEEDED, 21) stay
 *     free; the tail is written when the queue was just stopped or no more
 *     packets follow (3.18's "netif_xmit_stopped(txq) || !skb->xmit_more").
 *     A stop is netif_stop_subqueue, smp_mb and a re-check (a reprieve
 *     restarts the queue if room appeared).
 *   - the interrupt: EIAC clears the vector's cause and EIAM masks it when
 *     the NIC signals (rtl/ixgbe_intr.v), so the handler touches no
 *     register: it schedules the poll.
 *   - the poll: TX clean by DD of at most tx_work_limit (256) packets;
 *     when it cleaned any and at least wake_thresh (TX_WAKE_THRESHOLD, 42)
 *     are free: smp_mb, then the queue is woken if it was stopped.  A full
 *     budget keeps NAPI scheduled (ixgbe_poll returns budget).  Otherwise
 *     napi_complete, then in the dynamic mode ixgbe_set_itr (an EITR write
 *     when the ITR changes), then EIMS = the vector's bit (no flush).
 *   - the vector has no RX ring here (pktgen receives nothing): its RX
 *     clean and RX container are empty.
 *
 * Only plat.h and the ixgbe core are used: the same code drives a
 * physical 82599. */
#ifndef NICSIM_IXGBE_NAPI_H
#define NICSIM_IXGBE_NAPI_H
#include <stdint.h>
#include "../plat.h"
#include "ixgbe_dev.h"
#include "ixgbe_itr.h"
#include "ixgbe_tx.h"

/* ixgbe.h of 3.18: DESC_NEEDED = MAX_SKB_FRAGS (17 with 4 KB pages) * 1 + 4,
 * TX_WAKE_THRESHOLD = 2 * DESC_NEEDED, IXGBE_DEFAULT_TX_WORK = 256; the
 * entry check's "count + 3" (2 for the gap, 1 for a context descriptor). */
#define IXGBE_NAPI_DESC_NEEDED   21u
#define IXGBE_NAPI_WAKE_THRESH   42u
#define IXGBE_NAPI_TX_WORK       256u
#define IXGBE_NAPI_XMIT_SLACK    3u

struct ixgbe_napi_opts {
    uint32_t rx_usecs;          /* ethtool -C rx-usecs: 0 = off, 1 = dynamic (default),
                                   2..1022 = fixed (odd rounds down) */
    uint32_t tx_work_limit;     /* packets one poll cleans at most; default 256 */
    uint32_t desc_needed;       /* stop below this many free after mapping; default 21 */
    uint32_t wake_thresh;       /* wake at this many free; default 42 */
};

struct ixgbe_napi_stats {
    uint64_t irqs;              /* vector interrupts handled (the poll scheduled) */
    uint64_t polls;             /* ixgbe_poll calls */
    uint64_t full_polls;        /* of which cleaned tx_work_limit: NAPI stayed scheduled */
    uint64_t completes;         /* napi_complete and EIMS re-enable */
    uint64_t max_run;           /* most polls one interrupt's schedule took */
    uint64_t tx_cleaned;        /* packets reclaimed by the polls */
    uint64_t stops;             /* netif_stop_subqueue calls (after mapping or at entry) */
    uint64_t busy;              /* of which at entry: NETDEV_TX_BUSY, nothing sent */
    uint64_t restarts;          /* reprieves: room seen again after the stop's smp_mb */
    uint64_t wakes;             /* netif_wake_subqueue from the clean */
    uint64_t eitr_writes;       /* EITR writes by the dynamic ITR */
    uint32_t itr_first;         /* q_vector->itr at set-up */
    uint32_t itr_min, itr_max;  /* the ITR values reached */
};

struct ixgbe_napi {
    struct ixgbe_dev *dev;
    struct ixgbe_txq *txq;
    struct plat_dev *pd;
    struct ixgbe_napi_opts opts;
    uint32_t itr_setting;       /* adapter->rx_itr_setting */
    uint32_t itr;               /* q_vector->itr */
    struct ixgbe_itr_container tx, rx;
    uint8_t stopped;            /* the subqueue's driver XOFF bit */
    uint8_t scheduled;          /* NAPI_STATE_SCHED */
    uint64_t run;               /* polls since the interrupt that scheduled it */
    plat_cost c_poll;
    struct ixgbe_napi_stats stats;
};

/* Linux 3.18's values (see the field comments). */
void ixgbe_napi_default_opts(struct ixgbe_napi_opts *o);

/* TXDCTL.WTHRESH the TX ring must be set up with for these options (Linux
 * decides it from the vector's first ITR when it configures the ring).
 * Returns 0, or IXGBE_ERR_PARAM for options out of range. */
int ixgbe_napi_wthresh(const struct ixgbe_napi_opts *o, uint8_t *wthresh);

/* Take over TX queue txq (set up on dev, RS on every packet, DD reclaim,
 * WTHRESH from ixgbe_napi_wthresh) and program vector 0: EITR(0) (the
 * first ITR), EIAC and EIAM_EX(0) (auto-clear, auto-mask), GPIE, then
 * EIMS; the platform is told the interrupt is a message (plat_irq_msg).
 * o may be NULL (defaults).  Returns 0 or IXGBE_ERR_PARAM. */
int ixgbe_napi_init(struct ixgbe_napi *n, struct ixgbe_dev *dev, struct ixgbe_txq *txq,
                    const struct ixgbe_napi_opts *o);

/* ndo_start_xmit: 0, or IXGBE_ERR_BUSY (the queue is stopped, or the
 * entry check stopped it: nothing written), or IXGBE_ERR_PARAM. */
int ixgbe_napi_xmit(struct ixgbe_napi *n, uint64_t bus, uint32_t len, void *cookie, int more);

/* 1 while the queue is stopped (netif_xmit_frozen_or_drv_stopped). */
int ixgbe_napi_stopped(const struct ixgbe_napi *n);

/* The vector's interrupt, taken (plat_irq_wait saw it): schedule the poll. */
void ixgbe_napi_irq(struct ixgbe_napi *n);

/* One ixgbe_poll while scheduled, done(arg, cookie) per reclaimed packet.
 * Returns 1 while NAPI stays scheduled (poll again), 0 once complete (or
 * when it was not scheduled). */
int ixgbe_napi_poll(struct ixgbe_napi *n, void (*done)(void *arg, void *cookie), void *arg);

#endif
