/* A transmit and a receive queue as a core-independent app sees them
 * (pktgen, the sink): tables of the functions both driver cores offer in
 * the same shape.  A core fills them for one of its queues
 * (port_e1000_txq_ops, port_ixgbe_rxq_ops, ...: port_e1000.h,
 * port_ixgbe.h), so an app that uses them names no core.  The functions
 * get q as their first argument; their contracts are those of the cores'
 * e1000_tx.h / ixgbe_tx.h and e1000_rx.h / ixgbe_rx.h (the same for both). */
#ifndef NICSIM_NIC_QUEUE_OPS_H
#define NICSIM_NIC_QUEUE_OPS_H
#include <stdint.h>
#include "../plat.h"

/* xmit's "the ring lacks room, nothing was written": the value both cores
 * return (E1000_ERR_BUSY, IXGBE_ERR_BUSY; checked where they are bound). */
#define NIC_TXQ_BUSY (-1)

/* What a queue driven by a NAPI vector reports (struct nic_txq_ops's
 * napi_stats): its interrupts, polls, queue stops and interrupt moderation. */
struct nic_txq_napi_stats {
    uint64_t irqs;              /* vector interrupts handled */
    uint64_t polls;             /* NAPI polls */
    uint64_t full_polls;        /* of which used the whole TX clean budget (polled again) */
    uint64_t completes;         /* polls that completed and re-enabled the interrupt */
    uint64_t max_run;           /* most polls after one interrupt */
    uint64_t stops;             /* times the driver stopped the queue */
    uint64_t busy;              /* of which refused a packet (NETDEV_TX_BUSY) */
    uint64_t restarts;          /* stops undone at once (room after the barrier) */
    uint64_t wakes;             /* wakes by the poll's clean */
    uint64_t itr_writes;        /* interrupt-throttle register writes after set-up */
    uint32_t itr_first, itr_min, itr_max, itr_last;   /* the ITR, in Linux's units
                                                         (us x 4) */
    uint32_t wthresh;           /* the TX ring's write-back threshold */
};

struct nic_txq_ops {
    void *q;
    /* Queue one frame; more != 0: another follows at once, the tail write
     * may wait.  0, NIC_TXQ_BUSY, or another negative error. */
    int (*xmit)(void *q, uint64_t bus, uint32_t len, void *cookie, int more);
    /* Reclaim completed packets in order, done(arg, cookie) for each;
     * returns how many. */
    unsigned (*clean)(void *q, void (*done)(void *arg, void *cookie), void *arg);
    /* Write the tail if descriptors are queued beyond it. */
    void (*flush)(void *q);
    /* Descriptors free for xmit. */
    unsigned (*free_descs)(const void *q);
    /* The interrupt handler's cause read (it clears the cause), after
     * plat_irq_wait saw the interrupt.  The cause bits are not returned: the
     * app decides itself what to reclaim.  The cause register clears every
     * cause at once, so the app is the device's only interrupt handler. */
    void (*irq_handle)(void *q);
    /* Tail-register writes since the queue's setup. */
    uint64_t (*tdt_writes)(const void *q);
    /* A queue with a NAPI vector of its driver's own (NULL otherwise):
     *   stopped: 1 while the driver has stopped the queue (xmit refuses
     *     until a poll wakes it);
     *   napi_poll: one poll of the vector the interrupt scheduled (it
     *     reclaims, done(arg, cookie) per packet): 1 while it stays
     *     scheduled, 0 once it re-enabled the interrupt; irq_handle then
     *     only schedules it;
     *   napi_stats: its counters. */
    int (*stopped)(const void *q);
    int (*napi_poll)(void *q, void (*done)(void *arg, void *cookie), void *arg);
    void (*napi_stats)(const void *q, struct nic_txq_napi_stats *s);
    /* Read from the queue when it is bound (bind after the queue's setup): */
    uint32_t clean_thresh;      /* reclaim before a burst when fewer are free */
    uint32_t ring_size;         /* descriptors */
    uint32_t max_frame_len;     /* largest len xmit accepts (without FCS) */
};

/* One received frame as the driver hands it over. */
typedef void (*nic_rx_got_fn)(void *arg, void *data, uint32_t len, void *cookie);

struct nic_rxq_ops {
    void *q;
    /* at most budget descriptors: got() per good frame, then refill;
     * returns the descriptors processed (budget: there may be more) */
    unsigned (*poll)(void *q, unsigned budget, nic_rx_got_fn got, void *arg);
    /* the stack is done with the frame's buffer */
    void (*pkt_free)(struct plat_dev *pd, void *cookie);
    /* acknowledge the interrupt (the driver's handler; as irq_handle above) */
    void (*irq_handle)(void *q);
};

#endif
