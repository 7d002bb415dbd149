/* One port's bring-up over any driver core; see nic_port.h. */
#include "nic_port.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nic_port_up(struct nic_port *p, const struct nic_port_core *core, struct plat_dev *pd, const void *opts,
                const struct nic_port_want *w)
{
    memset(p, 0, sizeof *p);
    p->core = core;
    p->pd = pd;
    p->state = calloc(1, core->state_size);
    void *def = opts ? NULL : calloc(1, core->opts_size);
    if (!p->state || (!opts && !def)) {
        free(def);
        snprintf(p->err, sizeof p->err, "out of memory");
        return NIC_PORT_ERR_NOMEM;
    }
    if (def) {
        core->default_opts(def);
        opts = def;
    }
    int rc = core->up(p, opts, w);
    free(def);
    return rc;
}

void nic_port_down(struct nic_port *p)
{
    if (!p->state)
        return;
    p->core->down(p);
    free(p->state);
    p->state = NULL;
}

void nic_port_read_counters(const struct nic_port_core *core, nic_reg_read_fn rd, void *ctx,
                            struct nic_port_counters *c)
{
    const struct nic_port_stat_regs *r = core->stat_regs;
    c->gptc = rd(ctx, r->gptc);
    c->tpt = rd(ctx, r->tpt);
    c->gotc = rd(ctx, r->gotcl);
    c->gotc |= (uint64_t)rd(ctx, r->gotch) << 32;
    c->gprc = rd(ctx, r->gprc);
    c->gorc = rd(ctx, r->gorcl);
    c->gorc |= (uint64_t)rd(ctx, r->gorch) << 32;
    c->mpc = rd(ctx, r->mpc);
    c->rnbc = rd(ctx, r->rnbc);
    c->crcerrs = rd(ctx, r->crcerrs);
    c->ruc = rd(ctx, r->ruc);
    c->roc = rd(ctx, r->roc);
}

struct ring_relay {
    nic_rx_got_fn got;
    void *arg;
};

static void ring_relay(void *arg, const struct rx_ring_pkt *pkt, uint64_t wb)
{
    const struct ring_relay *r = arg;
    (void)wb;
    r->got(r->arg, pkt->data, pkt->len, pkt->buf);
}

unsigned nic_port_rx_ring_poll(struct rx_ring *ring, unsigned budget, nic_rx_got_fn got, void *arg)
{
    struct ring_relay r = { got, arg };
    return rx_ring_poll(ring, budget, ring_relay, &r);
}

void nic_port_rx_drops_of(const struct rx_ring_stats *s, struct nic_port_rx_drops *d)
{
    *d = s ? (struct nic_port_rx_drops){ s->length_errors, s->errors, s->multi_desc } : (struct nic_port_rx_drops){ 0 };
}

int nic_port_core_drives(const struct nic_port_core *core, uint16_t vendor, uint16_t device)
{
    if (vendor != 0x8086)
        return 0;
    for (size_t i = 0; i < core->n_pci_ids; i++)
        if (core->pci_ids[i] == device)
            return 1;
    return 0;
}
