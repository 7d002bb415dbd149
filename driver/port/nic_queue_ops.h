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
