/* sink over a bound RX queue (struct nic_rxq_ops); see sink.h.  Only plat.h
 * and the table's functions are used: no driver core is named here. */
#include "sink.h"
#include <stddef.h>

#define SINK_HEADER_BYTES 64u

void sink_default_opts(struct sink_opts *o)
{
    *o = (struct sink_opts){ .budget = 64, .touch = 1, .irq_wait_ns = 100000 };
}

int sink_init(struct sink *s, struct plat_dev *pd, const struct nic_rxq_ops *rx, const struct sink_opts *o)
{
    struct sink_opts def;
    if (!o) {
        sink_default_opts(&def);
        o = &def;
    }
    if (!s || !pd || !rx || !rx->q || !rx->poll || !rx->pkt_free || !rx->irq_handle || o->budget == 0)
        return -1;
    *s = (struct sink){ .pd = pd, .rx = *rx, .opts = *o };
    s->c_poll = plat_cost_id(pd, "napi_poll");
    return 0;
}

static void got(void *arg, void *data, uint32_t len, void *cookie)
{
    struct sink *s = arg;
    s->stats.packets++;
    s->stats.bytes += len;
    if (s->opts.touch)
        plat_mem_touch(s->pd, data, len < SINK_HEADER_BYTES ? len : SINK_HEADER_BYTES, 0);
    plat_count_packets(s->pd, 1);
    s->rx.pkt_free(s->pd, cookie);
}

unsigned sink_step(struct sink *s)
{
    if (plat_irq_wait(s->pd, s->opts.irq_wait_ns)) {
        s->stats.irqs++;
        s->rx.irq_handle(s->rx.q);
    } else {
        s->stats.irq_timeouts++;
    }
    uint64_t before = s->stats.packets;
    unsigned n;
    do {
        plat_charge(s->pd, s->c_poll);
        s->stats.polls++;
        n = s->rx.poll(s->rx.q, s->opts.budget, got, s);
    } while (n >= s->opts.budget);
    return (unsigned)(s->stats.packets - before);
}
