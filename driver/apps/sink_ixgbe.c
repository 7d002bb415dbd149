/* sink's binding to the ixgbe core: struct sink_rxops over one struct
 * ixgbe_rxq.  The poll adapts the core's struct ixgbe_rx_pkt to sink's
 * (data, len, cookie). */
#include "sink.h"
#include "../ixgbe/ixgbe_dev.h"
#include "../ixgbe/ixgbe_rx.h"

struct relay {
    sink_got_fn got;
    void *arg;
};

static void deliver(void *arg, struct ixgbe_rx_pkt *pkt)
{
    struct relay *r = arg;
    r->got(r->arg, pkt->data, pkt->len, pkt->cookie);
}

static unsigned x_poll(void *q, unsigned budget, sink_got_fn got, void *arg)
{
    struct relay r = { got, arg };
    return ixgbe_rx_poll(q, budget, deliver, &r);
}

/* EICR is read (and so cleared) by the handler: the sink is the device's
 * only interrupt handler, as pktgen is on a transmitting port. */
static void x_irq_handle(void *q)
{
    ixgbe_irq_handle(((struct ixgbe_rxq *)q)->dev);
}

void sink_bind_ixgbe(struct sink_rxops *ops, struct ixgbe_rxq *q)
{
    *ops = (struct sink_rxops){ .q = q, .poll = x_poll, .pkt_free = ixgbe_rx_pkt_free,
                                .irq_handle = x_irq_handle };
}
