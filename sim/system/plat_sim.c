/* The simulator backend of driver/plat.h: every call advances the calling
 * CPU's clock by its modelled cost, and every observation of device state
 * first brings the devices up to that CPU's time (sim/system/timing.c). */
#include "../../driver/plat.h"
#include "system.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static ps_t ns_ps(double ns)
{
    return (ps_t)llround(ns * 1000.0);
}

/* An uncached access is performed in program order: the loads and stores
 * before it are done first. */
static void uncached_order(struct plat_dev *d)
{
    cpu_drain_loads(d->cpu);
    cpu_drain_stores(d->cpu);
}

uint32_t plat_read32(struct plat_dev *d, uint32_t reg)
{
    uncached_order(d);
    ps_t done;
    ps_t t0 = d->cpu->t;
    uint32_t v = system_mmio_read(d->sys, d->sc, d->card, d->func, reg, t0, &done);
    cpu_charge(d->cpu, CPU_CAT_MMIO_READ, done > t0 ? done - t0 : 0);
    return v;
}

void plat_write32(struct plat_dev *d, uint32_t reg, uint32_t val)
{
    uncached_order(d);
    system_mmio_write(d->sys, d->card, d->func, reg, val, d->cpu->t);
    cpu_charge(d->cpu, CPU_CAT_MMIO_WRITE, ns_ps(d->cpu->prof.mmio_write_ns));
}

void *plat_dma_alloc(struct plat_dev *d, size_t size, size_t align, uint64_t *bus_addr)
{
    if (align < 8)
        align = 8;
    return host_mem_alloc(d->sys->mem, size, align, bus_addr);
}

/* An access of n bytes at p through the cache model: the core pays an L1
 * hit's time at once, and a miss as its memory-level parallelism allows
 * (models/cpu_model.h).  Memory outside the simulated host memory (an
 * app's private packet template) is not modelled and costs nothing. */
static void mem_access(struct plat_dev *d, const void *p, size_t n, int write)
{
    uint64_t bus = host_mem_bus_addr(d->sys->mem, p);
    if (!bus)
        return;
    ps_t ready = cache_access_ready(d->sys->caches, d->sc->id, bus, n, write, d->cpu->t);
    ps_t hit = cache_l1_ps(d->sys->caches, d->sc->id);
    if (write)
        cpu_store(d->cpu, ready, hit);
    else
        cpu_load(d->cpu, ready, hit);
}

uint64_t plat_mem_read64(struct plat_dev *d, const void *p)
{
    /* the device may have written this line: see it as of this CPU's time */
    system_sync(d->sys, d->sc, d->cpu->t);
    uint64_t v;
    memcpy(&v, p, sizeof v);
    mem_access(d, p, sizeof v, 0);
    return v;
}

/* CPU stores take effect in host memory at once, although the CPU's clock
 * may be ahead of the devices: a device only reads memory that a later MMIO
 * write (a tail) hands to it, and that write is timestamped after the store. */
void plat_mem_write64(struct plat_dev *d, void *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
    mem_access(d, p, sizeof v, 1);
}

static ps_t copy_cost(const struct plat_dev *d, size_t n)
{
    return cpu_cycles_ps(d->cpu, d->cpu->prof.copy_cycles_per_line * (double)((n + 63) / 64));
}

void plat_mem_copy_to(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
    mem_access(d, dst, n, 1);
    cpu_charge(d->cpu, CPU_CAT_MEM, copy_cost(d, n));
}

void plat_mem_copy_from(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    system_sync(d->sys, d->sc, d->cpu->t);
    memcpy(dst, src, n);
    mem_access(d, src, n, 0);
    cpu_charge(d->cpu, CPU_CAT_MEM, copy_cost(d, n));
}

void plat_mem_touch(struct plat_dev *d, const void *p, size_t n, int write)
{
    mem_access(d, p, n, write);
}

void plat_mem_wait(struct plat_dev *d, const void *p)
{
    uint64_t bus = host_mem_bus_addr(d->sys->mem, p);
    int level;
    ps_t ready;
    if (bus && cache_lookup(d->sys->caches, d->sc->id, bus, &level, &ready) != CACHE_INVALID && level == 1)
        cpu_wait_until(d->cpu, ready);
}

/* The fences wait for the accesses they order (sfence: the stores; lfence:
 * the loads), then cost their own cycles. */
void plat_wmb(struct plat_dev *d)
{
    cpu_drain_stores(d->cpu);
    cpu_charge(d->cpu, CPU_CAT_BARRIER, cpu_cycles_ps(d->cpu, d->cpu->prof.wmb_cycles));
}

void plat_rmb(struct plat_dev *d)
{
    cpu_drain_loads(d->cpu);
    cpu_charge(d->cpu, CPU_CAT_BARRIER, cpu_cycles_ps(d->cpu, d->cpu->prof.rmb_cycles));
}

void plat_mb(struct plat_dev *d)
{
    cpu_drain_loads(d->cpu);
    cpu_drain_stores(d->cpu);
    cpu_charge(d->cpu, CPU_CAT_BARRIER, cpu_cycles_ps(d->cpu, d->cpu->prof.mb_cycles));
}

void plat_prefetch(struct plat_dev *d, const void *p)
{
    uint64_t bus = host_mem_bus_addr(d->sys->mem, p);
    if (bus)
        cache_prefetch(d->sys->caches, d->sc->id, bus, d->cpu->t);
    cpu_charge(d->cpu, CPU_CAT_MEM, cpu_cycles_ps(d->cpu, d->cpu->prof.prefetch_cycles));
}

plat_cost plat_cost_id(struct plat_dev *d, const char *name)
{
    int i = cpu_named_index(d->cpu, name);
    if (i < 0)
        fprintf(stderr, "nicsim: cpu%d: the profile has no cost named '%s'; it costs nothing\n",
                d->cpu->id, name);
    return i;
}

void plat_charge(struct plat_dev *d, plat_cost c)
{
    cpu_charge_named(d->cpu, c);
}

void plat_count_packets(struct plat_dev *d, uint64_t n)
{
    d->cpu->packets += n;
}

int plat_irq_wait_any(struct plat_dev *const *d, int n, uint64_t timeout_ns)
{
    if (n < 1)
        return -1;
    cpu *c = d[0]->cpu;
    ps_t t0 = c->t;
    int which;
    ps_t t = system_irq_wait_any(d[0]->sys, d[0]->sc, d, n, t0, t0 + timeout_ns * PS_PER_NS, &which);
    cpu_charge(c, CPU_CAT_IDLE, t - t0);
    if (which >= 0) {
        c->irqs++;
        /* entry now; the exit is paid when the handler is done, which for the
         * apps' loops is right after the work it triggers: charge both here */
        cpu_charge(c, CPU_CAT_IRQ, ns_ps(c->prof.irq_entry_ns + c->prof.irq_exit_ns));
    }
    return which;
}

void plat_irq_msg(struct plat_dev *d)
{
    /* assertions before this call were levels, seen or not: not pending */
    d->irq_msg = 1;
    d->irq_taken = d->card ? d->card->nic.st.irq_asserts[d->func] : 0;
}

int plat_irq_wait(struct plat_dev *d, uint64_t timeout_ns)
{
    return plat_irq_wait_any(&d, 1, timeout_ns) == 0;
}

void plat_delay_ns(struct plat_dev *d, uint64_t ns)
{
    cpu_charge(d->cpu, CPU_CAT_IDLE, ns * PS_PER_NS);
}

uint64_t plat_now_ns(struct plat_dev *d)
{
    return d->cpu->t / PS_PER_NS;
}

int plat_stop_requested(struct plat_dev *d)
{
    return d->cpu->t >= d->sys->max_sim;
}

/* The driver's log lines go to stderr unless a command that runs many
 * scenarios as one table turned them off (system_driver_log). */
static int driver_log_on = 1;

void system_driver_log(int on)
{
    driver_log_on = on;
}

void plat_log(struct plat_dev *d, const char *fmt, ...)
{
    if (!driver_log_on)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nicsim: cpu%d: ", d->cpu->id);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
