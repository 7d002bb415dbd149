/* sink: the receiving end of a measurement.  Frames arriving on one port
 * are taken by the driver's RX poll in NAPI rounds, counted (and their
 * header read, as a stack would), and their buffers freed.
 *
 * The queue is reached only through struct sink_rxops, a table of the
 * driver core's RX functions bound by sink_bind_e1000 / sink_bind_ixgbe, so
 * this file names no driver core.  Named costs (plat_cost_id): "napi_poll"
 * per poll round; the driver charges its own ("skb_free" when a buffer is
 * freed, "skb_alloc" at refill, "skb_alloc_small" for a copybreak copy). */
#ifndef NICSIM_SINK_H
#define NICSIM_SINK_H
#include <stdint.h>
#include "../plat.h"

/* One received frame as the driver hands it over. */
typedef void (*sink_got_fn)(void *arg, void *data, uint32_t len, void *cookie);

struct sink_rxops {
    void *q;                          /* the bound RX queue */
    /* at most budget descriptors: got() per good frame, then refill;
     * returns the descriptors processed (budget: there may be more) */
    unsigned (*poll)(void *q, unsigned budget, sink_got_fn got, void *arg);
    /* the stack is done with the frame's buffer */
    void (*pkt_free)(struct plat_dev *pd, void *cookie);
    /* acknowledge the interrupt (the driver's handler) */
    void (*irq_handle)(void *q);
};

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
    struct sink_rxops rx;
    struct sink_opts opts;
    struct sink_stats stats;
    plat_cost c_poll;
};

void sink_default_opts(struct sink_opts *o);
/* 0, or -1 for a table missing a function or a zero budget. */
int sink_init(struct sink *s, struct plat_dev *pd, const struct sink_rxops *rx, const struct sink_opts *o);
/* One NAPI cycle: wait for the interrupt (at most irq_wait_ns), then poll
 * rounds while each uses its whole budget.  Returns the frames received. */
unsigned sink_step(struct sink *s);

struct e1000_rxq;
struct ixgbe_rxq;
void sink_bind_e1000(struct sink_rxops *ops, struct e1000_rxq *q);
void sink_bind_ixgbe(struct sink_rxops *ops, struct ixgbe_rxq *q);

#endif
