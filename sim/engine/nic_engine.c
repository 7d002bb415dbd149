#include "nic_engine.h"
#include "../system/system.h"
#include "../scenario/nicsim_scenario.h"
#include "../../models/link_gen.h"
#include "../device/nic_reg_names.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A received frame between its b_transport and its arrival time. */
typedef struct rx_pending {
    struct rx_pending *next;
    ps_t t;
    uint32_t len;
    int crc_ok;
    uint8_t data[];
} rx_pending;

struct nic_engine {
    nicsim_system sys;
    nic_engine_io io;
    struct port_ref {
        nic_engine *e;
        int port;
    } ref[SYS_MAX_PORTS];
    rx_pending *rx_head[SYS_MAX_PORTS], *rx_tail[SYS_MAX_PORTS];
    uint64_t late_frames;
};

static int dma_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    nic_engine *e = ctx;
    return e->io.dma_read(e->io.ctx, addr, dst, n, t);
}

static int dma_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    nic_engine *e = ctx;
    return e->io.dma_write(e->io.ctx, addr, src, n, t);
}

static void frame_out(void *ctx, ps_t t, const uint8_t *data, uint32_t len)
{
    struct port_ref *r = ctx;
    r->e->io.frame_out(r->e->io.ctx, r->port, t, data, len);
}

static void irq_changed(void *ctx, int port, int level, ps_t t)
{
    nic_engine *e = ctx;
    e->io.irq(e->io.ctx, port, level, t);
}

struct scenario *nic_engine_load_scenario(const char *path, int n, char **overrides, char *err, size_t errlen)
{
    return nicsim_scenario_load(path, n, overrides, err, errlen);
}

void nic_engine_free_scenario(struct scenario *sc)
{
    scenario_free(sc);
}

nic_engine *nic_engine_new(const struct scenario *sc, const nic_engine_io *io, char *err, size_t errlen)
{
    if (scenario_uint(sc, "system", "cards") != 1) {
        snprintf(err, errlen, "system.cards: the SystemC module is one card, got %llu",
                 (unsigned long long)scenario_uint(sc, "system", "cards"));
        return NULL;
    }
    nic_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->io = *io;
    sim_device_io dio = {
        .mem = { .ctx = e, .read = dma_read, .write = dma_write },
        .out = frame_out,
        .irq = irq_changed,
        .irq_ctx = e,
    };
    for (int p = 0; p < SYS_MAX_PORTS; p++) {
        e->ref[p] = (struct port_ref){ e, p };
        dio.out_ctx[p] = &e->ref[p];
    }
    if (system_build_devices(&e->sys, sc, &dio, err, errlen) != 0) {
        nic_engine_free(e);
        return NULL;
    }
    return e;
}

void nic_engine_free(nic_engine *e)
{
    if (!e)
        return;
    for (int p = 0; p < SYS_MAX_PORTS; p++)
        while (e->rx_head[p]) {
            rx_pending *f = e->rx_head[p];
            e->rx_head[p] = f->next;
            free(f);
        }
    char err[256];
    system_free(&e->sys, err, sizeof err);
    free(e);
}

int nic_engine_ports(const nic_engine *e)
{
    return e->sys.nports;
}

void nic_engine_sync(nic_engine *e, ps_t t)
{
    system_sync(&e->sys, NULL, t);
}

struct stop_adapter {
    int (*stop)(void *);
    void *ctx;
};

static int stop_call(nicsim_system *sys, void *arg)
{
    (void)sys;
    const struct stop_adapter *a = arg;
    return a->stop(a->ctx);
}

int nic_engine_run(nic_engine *e, ps_t t, int (*stop)(void *ctx), void *ctx)
{
    struct stop_adapter a = { stop, ctx };
    return system_devices_run(&e->sys, t, stop ? stop_call : NULL, &a);
}

ps_t nic_engine_next(const nic_engine *e)
{
    return system_devices_next(&e->sys);
}

ps_t nic_engine_now(const nic_engine *e)
{
    return e->sys.s.now;
}

uint32_t nic_engine_mmio_read(nic_engine *e, int f, uint32_t off, ps_t t, ps_t *t_done)
{
    return system_mmio_read(&e->sys, NULL, &e->sys.card[0], f, off, t, t_done);
}

void nic_engine_mmio_write(nic_engine *e, int f, uint32_t off, uint32_t val, ps_t t)
{
    system_mmio_write(&e->sys, &e->sys.card[0], f, off, val, t);
}

/* The head frame of port `arg` has arrived: hand it to the MAC. */
static void rx_arrival(void *ctx, uint64_t arg)
{
    nic_engine *e = ctx;
    int p = (int)arg;
    rx_pending *f = e->rx_head[p];
    e->rx_head[p] = f->next;
    if (!f->next)
        e->rx_tail[p] = NULL;
    const sim_port *sp = &e->sys.port[p];
    nic_adapter_rx_frame(&sp->card->nic, sp->func, f->t, f->data, f->len, f->crc_ok);
    free(f);
}

int nic_engine_rx_frame(nic_engine *e, int port, ps_t t, const uint8_t *data, uint32_t len)
{
    int late = t < e->sys.s.now;
    if (late) {
        e->late_frames++;
        t = e->sys.s.now;
    }
    rx_pending *f = malloc(sizeof *f + len);
    if (!f) {
        fprintf(stderr, "nicsim: out of memory for a received frame\n");
        abort();
    }
    f->next = NULL;
    f->t = t;
    f->len = len;
    memcpy(f->data, data, len);
    /* the FCS is sent least significant byte first (models/link_gen.c) */
    uint32_t fcs = len >= 4 ? link_gen_crc32(data, len - 4) : 0;
    f->crc_ok = len >= 4 && data[len - 4] == (uint8_t)fcs && data[len - 3] == (uint8_t)(fcs >> 8) &&
                data[len - 2] == (uint8_t)(fcs >> 16) && data[len - 1] == (uint8_t)(fcs >> 24);
    if (e->rx_tail[port])
        e->rx_tail[port]->next = f;
    else
        e->rx_head[port] = f;
    e->rx_tail[port] = f;
    sched_at(&e->sys.s, t, rx_arrival, e, (uint64_t)port);
    return late ? -1 : 0;
}

uint64_t nic_engine_late(const nic_engine *e)
{
    return e->sys.late_observations + e->late_frames;
}

uint64_t nic_engine_wire_frames(const nic_engine *e, int port)
{
    return e->sys.port[port].wire.frames;
}

ps_t nic_engine_wire_end(const nic_engine *e, int port)
{
    return e->sys.port[port].wire.last_end;
}

uint64_t nic_engine_unmodelled_total(const nic_engine *e)
{
    return e->sys.card[0].nic.st.unmodelled;
}

int nic_engine_unmodelled(const nic_engine *e, int i, nic_engine_unmodelled_access *u)
{
    const nic_adapter *a = &e->sys.card[0].nic;
    if (i < 0 || i >= a->n_unmodelled)
        return -1;
    const nic_unmodelled *x = &a->unmodelled[i];
    *u = (nic_engine_unmodelled_access){ .func = x->func, .write = x->write, .off = x->off, .count = x->count };
    nic_reg_name(e->sys.pers->adv_descriptors, x->off, u->name, sizeof u->name);
    return 0;
}
