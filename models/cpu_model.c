#include "cpu_model.h"
#include <math.h>
#include <string.h>

const char *cpu_cat_name(cpu_cat c)
{
    static const char *const names[CPU_CATS] = {
        "work", "dma_mem", "mmio_write", "mmio_read", "barrier", "irq", "idle",
    };
    return (unsigned)c < CPU_CATS ? names[c] : "?";
}

void cpu_init(cpu *c, int id, const cpu_profile *p, ps_t t0)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    c->prof = *p;
    c->t = t0;
    c->window_ps = p->window_cycles > 0 ? cpu_cycles_ps(c, p->window_cycles) : 0;
}

ps_t cpu_cycles_ps(const cpu *c, double cycles)
{
    /* rounded, not truncated, so that small costs do not vanish */
    return (ps_t)llround(cycles * 1e6 / c->prof.mhz);
}

static void pop_oldest(cpu *c)
{
    c->inflight_head = (c->inflight_head + 1) % CPU_MAX_INFLIGHT;
    c->inflight_n--;
}

/* Time that moves the program on (the core executes instructions: work,
 * the issue of an access, a copy, interrupt entry and exit), as opposed to
 * time it only waits (an uncached access, a fence, idle, a dependent
 * load). */
static int progress(cpu_cat k)
{
    return k == CPU_CAT_WORK || k == CPU_CAT_MEM || k == CPU_CAT_IRQ;
}

/* d of progress from the program position c->pt: the core may run a load's
 * window past the position where it issued the load; it reaches the end of
 * that window at the real time the work got there (plus the waits before),
 * and waits there for the data if it is not there yet.  Loads whose window
 * the work does not reach stay in flight. */
static void run(cpu *c, cpu_cat k, ps_t d)
{
    ps_t t0 = c->t, pt0 = c->pt, pt1 = pt0 + d, wait = 0;
    while (c->inflight_n) {
        ps_t full = c->inflight_issue[c->inflight_head] + c->window_ps;
        if (full >= pt1)
            break;
        ps_t at = t0 + (full - pt0) + wait;
        ps_t ready = c->inflight_ready[c->inflight_head];
        if (ready > at)
            wait += ready - at;
        pop_oldest(c);
    }
    c->pt = pt1;
    c->t = t0 + d + wait;
    c->cat_ps[k] += d;
    c->cat_ps[CPU_CAT_MEM] += wait;
}

void cpu_charge(cpu *c, cpu_cat k, ps_t d)
{
    if (progress(k) && c->inflight_n) {
        run(c, k, d);
        return;
    }
    c->t += d;
    c->cat_ps[k] += d;
    if (progress(k))
        c->pt += d;
}

void cpu_wait_until(cpu *c, ps_t t)
{
    if (t > c->t) {
        c->cat_ps[CPU_CAT_MEM] += t - c->t;
        c->t = t;
    }
}

/* Drop the loads in flight whose data is there (the queue stays short). */
static void forget_done(cpu *c)
{
    while (c->inflight_n && c->inflight_ready[c->inflight_head] <= c->t)
        pop_oldest(c);
}

void cpu_load(cpu *c, ps_t ready, ps_t issue_ps)
{
    ps_t lat = ready > c->t ? ready - c->t : 0;
    if (!c->window_ps || lat <= issue_ps) {
        cpu_charge(c, CPU_CAT_MEM, lat);
        return;
    }
    cpu_charge(c, CPU_CAT_MEM, issue_ps);
    if (ready <= c->t)
        return;
    forget_done(c);
    if (c->inflight_n == CPU_MAX_INFLIGHT) {    /* never with a real core's fill buffers */
        cpu_wait_until(c, c->inflight_ready[c->inflight_head]);
        pop_oldest(c);
    }
    unsigned i = (c->inflight_head + c->inflight_n++) % CPU_MAX_INFLIGHT;
    c->inflight_issue[i] = c->pt;
    c->inflight_ready[i] = ready;
}

void cpu_store(cpu *c, ps_t ready, ps_t issue_ps)
{
    ps_t lat = ready > c->t ? ready - c->t : 0;
    if (!c->window_ps || c->prof.stores_wait || lat <= issue_ps) {
        cpu_charge(c, CPU_CAT_MEM, lat);
        return;
    }
    cpu_charge(c, CPU_CAT_MEM, issue_ps);
    if (ready > c->stores_done)
        c->stores_done = ready;
}

void cpu_drain_loads(cpu *c)
{
    ps_t last = 0;
    for (unsigned n = 0; n < c->inflight_n; n++) {
        ps_t r = c->inflight_ready[(c->inflight_head + n) % CPU_MAX_INFLIGHT];
        if (r > last)
            last = r;
    }
    cpu_wait_until(c, last);
    c->inflight_n = 0;
}

void cpu_drain_stores(cpu *c)
{
    cpu_wait_until(c, c->stores_done);
}

int cpu_named_index(const cpu *c, const char *name)
{
    for (int i = 0; i < c->prof.n_named; i++)
        if (strcmp(c->prof.named[i].name, name) == 0)
            return i;
    return -1;
}

void cpu_charge_named(cpu *c, int idx)
{
    if (idx < 0 || idx >= c->prof.n_named)
        return;
    ps_t d = cpu_cycles_ps(c, c->prof.named[idx].cycles);
    c->named_ps[idx] += d;
    cpu_charge(c, CPU_CAT_WORK, d);
}

ps_t cpu_busy_ps(const cpu *c)
{
    ps_t s = 0;
    for (int k = 0; k < CPU_CATS; k++)
        if (k != CPU_CAT_IDLE)
            s += c->cat_ps[k];
    return s;
}
