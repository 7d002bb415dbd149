/* Host CPU cost model: a CPU has a local clock that the platform advances by
 * modelled costs, and an account of where its time went.
 *
 * Costs come from a profile (documented in docs/models.md, "CPU cost
 * profile"): clock, the CPU-side cost of a posted MMIO write, copies,
 * barriers, interrupt entry/exit, and named fixed costs for work the model
 * does not run instruction by instruction (pktgen's per-packet host work, skb
 * alloc/free, the stack).  Memory accesses are charged by the cache model
 * (models/cache_model.h). */
#ifndef NICSIM_CPU_MODEL_H
#define NICSIM_CPU_MODEL_H
#include <stdint.h>
#include "kernel/sched.h"

enum { CPU_MAX_NAMED = 24 };

typedef enum cpu_cat {
    CPU_CAT_WORK,        /* named costs: the app's and stack's own work */
    CPU_CAT_MEM,         /* stores to and reads of DMA memory */
    CPU_CAT_MMIO_WRITE,
    CPU_CAT_MMIO_READ,   /* stalled for the whole bus round trip */
    CPU_CAT_BARRIER,
    CPU_CAT_IRQ,         /* interrupt entry and exit */
    CPU_CAT_IDLE,        /* waiting for an interrupt or a timer */
    CPU_CATS
} cpu_cat;

const char *cpu_cat_name(cpu_cat c);

typedef struct cpu_named_cost {
    const char *name;
    double cycles;
} cpu_named_cost;

typedef struct cpu_profile {
    double mhz;
    double mmio_write_ns;     /* CPU stall to issue one uncached (posted) store */
    double copy_cycles_per_line; /* the instructions of copying 64 bytes (the cache
                                    model charges the memory accesses) */
    double wmb_cycles, rmb_cycles, mb_cycles, prefetch_cycles;
    double irq_entry_ns, irq_exit_ns;
    cpu_named_cost named[CPU_MAX_NAMED];
    int n_named;
    double window_cycles;     /* how far the core runs past a missed load (0: not at all) */
    int stores_wait;          /* 1: a store that misses waits for its line at once, as a
                                 load with no window (else it waits in the store buffer) */
} cpu_profile;

/* Loads the window keeps track of (more than any core's line fill buffers:
 * the cache limits how many are really fetched at once). */
enum { CPU_MAX_INFLIGHT = 64 };

typedef struct cpu {
    int id;
    cpu_profile prof;
    ps_t t;                          /* local time */
    ps_t cat_ps[CPU_CATS];
    ps_t named_ps[CPU_MAX_NAMED];
    uint64_t packets;                /* packets of work counted by the app */
    uint64_t irqs;
    ps_t pt;                         /* program position: the time of work done so far,
                                        without the waits (the window is counted in it) */
    /* loads in flight, oldest first: the program position each was issued
     * at, and when it has its data */
    ps_t inflight_issue[CPU_MAX_INFLIGHT], inflight_ready[CPU_MAX_INFLIGHT];
    unsigned inflight_head, inflight_n;
    ps_t stores_done;                /* when every store issued so far owns its line */
    ps_t window_ps;                  /* window_cycles in ps */
} cpu;

void cpu_init(cpu *c, int id, const cpu_profile *p, ps_t t0);
/* Picoseconds that n cycles take on this CPU. */
ps_t cpu_cycles_ps(const cpu *c, double cycles);
/* Advance the local clock by d and account it to category k.  Work, a
 * copy or interrupt handling (progress) that runs past the window of a
 * load still in flight waits for its data there (that wait is dma_mem);
 * waiting (idle, an uncached access, a fence) does not move the program on,
 * so loads complete meanwhile. */
void cpu_charge(cpu *c, cpu_cat k, ps_t d);
/* A load issued now whose data is there at ready: the first issue_ps of it
 * is the core's (charged at once: an L1 hit's load-to-use time); the rest
 * is in flight (window 0: waited for at once). */
void cpu_load(cpu *c, ps_t ready, ps_t issue_ps);
/* A store issued now whose line is owned at ready (window 0: waited for
 * at once, beyond issue_ps). */
void cpu_store(cpu *c, ps_t ready, ps_t issue_ps);
/* Wait (dma_mem) until t: the data a dependent access needs. */
void cpu_wait_until(cpu *c, ps_t t);
/* Wait until every load in flight has its data (a load fence, an
 * uncached access), and every store owns its line (a store fence). */
void cpu_drain_loads(cpu *c);
void cpu_drain_stores(cpu *c);
/* Index of a named cost, -1 if the profile has no such name. */
int cpu_named_index(const cpu *c, const char *name);
void cpu_charge_named(cpu *c, int idx);
/* Time the CPU was busy (everything but idle). */
ps_t cpu_busy_ps(const cpu *c);

#endif
