/* What the files of sim/system share among themselves (not for other
 * layers): timing.c's loop, card.c's cards, cpu.c's CPUs. */
#ifndef NICSIM_SYSTEM_PARTS_H
#define NICSIM_SYSTEM_PARTS_H
#include "system.h"

/* ---- timing.c ---- */
/* Run events and RTL edges up to time t; stop early (returning 1) when
 * stop(ctx) becomes true after an edge or event. */
int system_run_until(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx);
/* Resume the CPUs, always the one that may act earliest, until every app
 * has finished; tick() is called before each resumption (progress). */
void system_schedule_cpus(nicsim_system *sys, void (*tick)(const nicsim_system *, void *), void *arg);

/* ---- card.c ---- */
/* Card i's identity: what a system whose devices live elsewhere knows of it. */
void card_identity(nicsim_system *sys, int i);
/* Card i: its bus and its RTL on the links of its two ports, its DMA to
 * mem.  0, or -1 with a message. */
int card_build(nicsim_system *sys, int i, nic_mem_port mem, char *err, size_t errlen);
void card_free(sim_card *card);
/* The last CPU's app is up at t: note the buses' busy times (the steady
 * part of the run starts). */
void system_mark_traffic(nicsim_system *sys, ps_t t);
/* The cards' DMA of a system with CPUs: host memory, snooped by the caches. */
nic_mem_port card_snooped_memory(nicsim_system *sys);

/* ---- cpu.c ---- */
/* The CPUs of the app's instances, their ports attached and their
 * coroutines ready (with ext: run by system_cpu_app instead).  0, or -1
 * with a message. */
int cpus_build(nicsim_system *sys, char *err, size_t errlen);
/* What system_drivers_down does of the CPUs: each instance down, then its
 * ports. */
void cpus_down(nicsim_system *sys);
void cpus_free(nicsim_system *sys);

#endif
