/* sink: the receiving end of a measurement.  Frames arriving on one port
 * are taken by the driver's RX poll in NAPI rounds, counted (and their
 * header read, as a stack would), and their buffers freed.
 *
 * The queue is reached only through struct nic_rxq_ops (driver/port), a
 * table of the driver core's RX functions that a port fills for its queue
 * (port_e1000_rxq_ops, port_ixgbe_rxq_ops), so this file names no driver
 * core.  Named costs (plat_cost_id): "napi_poll"
 * per poll round; the driver charges its own ("skb_free" when a buffer is
 * freed, "skb_alloc" at refill, "skb_alloc_small" for a copybreak copy). */
#ifndef NICSIM_SINK_H
#define NICSIM_SINK_H
#include <stdint.h>
#include "../plat.h"
#include "../port/nic_queue_ops.h"

struct sink_opts {
    uint32_t budget;            /* NAPI weight: descriptors per poll round; default 64 */
    uint8_t touch;              /* 1 = read the first 64 bytes of each frame (the
                                   stack's header read; default); 0 = count only */
    uint64_t irq_wait_ns;       /* longest wait for an interrupt before polling anyway;
                                   default 100 us */
};

struct sink_stats {
    uint64_t packets, bytes;    /* frames received (bytes without FCS) */
    uint64_t polls;             /* poll rounds */
    uint64_t irqs;              /* waits that saw the interrupt */
    uint64_t irq_timeouts;      /* waits that timed out */
};

struct sink {
    struct plat_dev *pd;
    struct nic_rxq_ops rx;
    struct sink_opts opts;
    struct sink_stats stats;
    plat_cost c_poll;
};

void sink_default_opts(struct sink_opts *o);
/* 0, or -1 for a table missing a function or a zero budget. */
int sink_init(struct sink *s, struct plat_dev *pd, const struct nic_rxq_ops *rx, const struct sink_opts *o);
/* One NAPI cycle: wait for the interrupt (at most irq_wait_ns), then poll
 * rounds while each uses its whole budget.  Returns the frames received. */
unsigned sink_step(struct sink *s);

#endif
