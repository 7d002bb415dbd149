/* sink's binding to the e1000 core: struct sink_rxops over one struct
 * e1000_rxq.  The poll adapts the core's struct e1000_rx_pkt to sink's
 * (data, len, cookie). */
#include "sink.h"
#include "../e1000/e1000_dev.h"
#include "../e1000/e1000_rx.h"

struct relay {
    sink_got_fn got;
    void *arg;
};

static void deliver(void *arg, struct e1000_rx_pkt *pkt)
{
    struct relay *r = arg;
    r->got(r->arg, pkt->data, pkt->len, pkt->cookie);
}

static unsigned e_poll(void *q, unsigned budget, sink_got_fn got, void *arg)
{
    struct relay r = { got, arg };
    return e1000_rx_poll(q, budget, deliver, &r);
}

/* ICR is read (and so cleared) by the handler: the sink is the device's
 * only interrupt handler. */
static void e_irq_handle(void *q)
{
    e1000_irq_handle(((struct e1000_rxq *)q)->dev);
}

void sink_bind_e1000(struct sink_rxops *ops, struct e1000_rxq *q)
{
    *ops = (struct sink_rxops){ .q = q, .poll = e_poll, .pkt_free = e1000_rx_pkt_free,
                                .irq_handle = e_irq_handle };
}
