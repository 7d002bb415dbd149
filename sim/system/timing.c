/* The timing contract (docs/architecture.md): who advances simulated time,
 * and how a CPU observes the devices -- never ahead of it, never behind.
 * The devices (events and RTL edges) advance only on behalf of a CPU that
 * must observe them at its own time, and never past the moment another CPU
 * must act; the CPUs are resumed earliest first. */
#include "system_parts.h"
#include <stdio.h>
#include <stdlib.h>

int system_run_until(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx)
{
    sched *s = &sys->s;
    for (;;) {
        if (stop && stop(sys, ctx))
            return 1;
        ps_t te = sched_next_time(s);
        /* the card whose next edge is earliest (the first on a tie) */
        ps_t tc = PS_NEVER;
        nic_adapter *edge = NULL;
        for (int i = 0; i < sys->ncards; i++) {
            ps_t e = nic_adapter_next_edge(&sys->card[i].nic);
            if (e < tc) {
                tc = e;
                edge = &sys->card[i].nic;
            }
        }
        if (te <= tc) {
            if (te > t)
                break;
            sched_run_one(s, t);
        } else {
            if (tc > t)
                break;
            nic_adapter_edge(edge);
        }
    }
    if (t != PS_NEVER && t > s->now)
        s->now = t;
    return stop && stop(sys, ctx);
}

/* When the devices next have something to do (an event or an edge). */
static ps_t next_activity(const nicsim_system *sys)
{
    ps_t m = sched_next_time(&sys->s);
    for (int i = 0; i < sys->ncards; i++) {
        ps_t e = nic_adapter_next_edge(&sys->card[i].nic);
        if (e < m)
            m = e;
    }
    return m;
}

int system_devices_run(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx)
{
    return system_run_until(sys, t, stop, ctx);
}

ps_t system_devices_next(const nicsim_system *sys)
{
    return next_activity(sys);
}

/* Can CPU c act at the current device time?  A running CPU always; a
 * waiting one once what it waits for has happened or its deadline passed. */
static int cpu_ready(nicsim_system *sys, sim_cpu *c)
{
    return !c->blocked || c->cond(sys, c->cond_ctx) || sys->s.now >= c->deadline;
}

/* How far the devices may go for self before another CPU must act: the
 * clock of every other running CPU and the deadline of every waiting one. */
static ps_t others_bound(const nicsim_system *sys, const sim_cpu *self)
{
    ps_t m = PS_NEVER;
    for (int i = 0; i < sys->ncpus; i++) {
        const sim_cpu *c = &sys->cpu[i];
        if (c == self || !c->alive)
            continue;
        ps_t b = c->blocked ? c->deadline : c->c.t;
        if (b < m)
            m = b;
    }
    return m;
}

struct advance_ctx {
    sim_cpu *self;
    int (*stop)(nicsim_system *, void *);
    void *ctx;
};

/* Stop advancing the devices when self's condition holds or a waiting CPU
 * becomes ready. */
static int advance_stop(nicsim_system *sys, void *arg)
{
    struct advance_ctx *a = arg;
    if (a->stop && a->stop(sys, a->ctx))
        return 1;
    for (int i = 0; i < sys->ncpus; i++) {
        sim_cpu *c = &sys->cpu[i];
        if (c != a->self && c->alive && c->blocked && c->cond(sys, c->cond_ctx))
            return 1;
    }
    return 0;
}

/* Run the devices for CPU self up to time t, or (stop given) until stop()
 * holds, never past the moment another CPU must act: then self hands
 * control to the scheduler and carries on when resumed.  Returns 1 if
 * stop() held, 0 at time t. */
static int advance_for(nicsim_system *sys, sim_cpu *self, ps_t t,
                       int (*stop)(nicsim_system *, void *), void *ctx)
{
    struct advance_ctx a = { self, stop, ctx };
    if (self && stop) {
        self->blocked = 1;
        self->cond = stop;
        self->cond_ctx = ctx;
        self->deadline = t;
    }
    for (;;) {
        ps_t other = others_bound(sys, self);
        ps_t bound = other < t ? other : t;
        if (bound >= sys->s.now)
            system_run_until(sys, bound, advance_stop, &a);
        if (stop && stop(sys, ctx))
            break;
        if (sys->s.now >= t && bound >= t)
            break;
        /* another CPU must act first (self is NULL only after the run, when
         * no CPU is left, so this is never reached without one) */
        coroutine_yield(&self->co);
    }
    if (self)
        self->blocked = 0;
    return stop && stop(sys, ctx);
}

void system_sync(nicsim_system *sys, sim_cpu *self, ps_t t)
{
    if (sys->ext) {
        sys->ext->sync(sys->ext->ctx, self, t);
        return;
    }
    /* the devices must never be ahead of a CPU that looks at them */
    if (sys->s.now > t)
        sys->late_observations++;
    if (t > sys->s.now || next_activity(sys) <= t || others_bound(sys, self) < t)
        advance_for(sys, self, t, NULL, NULL);
}

void system_schedule_cpus(nicsim_system *sys, void (*tick)(const nicsim_system *, void *), void *arg)
{
    /* Resume the running CPU with the earliest clock, or a waiting one whose
     * wait is over; when every CPU waits, the first one advances the devices
     * (for all of them). */
    for (;;) {
        sim_cpu *next = NULL, *waiting = NULL;
        for (int i = 0; i < sys->ncpus; i++) {
            sim_cpu *c = &sys->cpu[i];
            if (!c->alive)
                continue;
            if (cpu_ready(sys, c)) {
                ps_t tc = c->blocked ? sys->s.now : c->c.t;
                ps_t tn = next ? (next->blocked ? sys->s.now : next->c.t) : PS_NEVER;
                if (!next || tc < tn)
                    next = c;
            } else if (!waiting) {
                waiting = c;
            }
        }
        if (!next)
            next = waiting;
        if (!next)
            break;
        tick(sys, arg);
        coroutine_resume(&next->co);
    }
}

/* ---- what a CPU observes: MMIO reads, interrupt lines ---- */

struct read_wait {
    sim_card *card;
    int func;
};

static int read_done(nicsim_system *sys, void *ctx)
{
    (void)sys;
    const struct read_wait *w = ctx;
    return !w->card->rd_waiting[w->func];
}

uint32_t system_mmio_read(nicsim_system *sys, sim_cpu *self, sim_card *card, int func, uint32_t off,
                          ps_t t_issue, ps_t *t_done)
{
    if (sys->ext)
        return sys->ext->mmio_read(sys->ext->ctx, self, card->index, func, off, t_issue, t_done);
    struct read_wait w = { card, func };
    system_sync(sys, self, t_issue);
    card->rd_waiting[func] = 1;
    host_bus_mmio_read(&card->hbus, func, off, t_issue);
    if (!advance_for(sys, self, PS_NEVER, read_done, &w)) {
        fprintf(stderr, "nicsim: MMIO read of 0x%05x on card %d function %d never completed\n", off,
                card->index, func);
        abort();
    }
    *t_done = card->rd_done[func];
    return card->rd_val[func];
}

void system_mmio_write(nicsim_system *sys, sim_card *card, int func, uint32_t off, uint32_t val, ps_t t)
{
    if (sys->ext)
        sys->ext->mmio_write(sys->ext->ctx, card->index, func, off, val, t);
    else
        host_bus_mmio_write(&card->hbus, func, off, val, t);
}

struct irq_set {
    struct plat_dev *const *d;
    int n;
};

/* A handle's interrupt as its CPU sees it: the line, or (plat_irq_msg) an
 * assertion since the CPU last took one, which the line may have dropped
 * again (an auto-cleared cause signals with a one-cycle pulse: a message). */
static int irq_seen(const struct plat_dev *d)
{
    const nic_adapter *a = &d->card->nic;
    return nic_adapter_irq(a, d->func) || (d->irq_msg && a->st.irq_asserts[d->func] != d->irq_taken);
}

static int irq_any(nicsim_system *sys, void *ctx)
{
    (void)sys;
    const struct irq_set *set = ctx;
    for (int i = 0; i < set->n; i++)
        if (irq_seen(set->d[i]))
            return 1;
    return 0;
}

ps_t system_irq_wait_any(nicsim_system *sys, sim_cpu *self, struct plat_dev *const *d, int n, ps_t from,
                         ps_t deadline, int *which)
{
    if (sys->ext)
        return sys->ext->irq_wait_any(sys->ext->ctx, self, d, n, from, deadline, which);
    struct irq_set set = { d, n };
    system_sync(sys, self, from);
    int seen = irq_any(sys, &set) || advance_for(sys, self, deadline, irq_any, &set);
    *which = -1;
    for (int i = 0; seen && i < n; i++)
        if (irq_seen(d[i])) {
            *which = i;
            /* taken: every message so far is one interrupt (the local APIC
             * holds one pending bit per vector) */
            d[i]->irq_taken = d[i]->card->nic.st.irq_asserts[d[i]->func];
            break;
        }
    return !seen ? deadline : sys->s.now > from ? sys->s.now : from;
}
