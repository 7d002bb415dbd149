/* The system builder and the simulation loop: one scenario becomes a
 * scheduler, host memory, a PCI-X segment, the 82546 (RTL + adapter), one
 * link per port, and per transmitting port a CPU running the driver core and
 * pktgen through the simulator platform (driver/plat_sim.c).
 *
 * Ordering (ARCHITECTURE.md, "Time, ordering and determinism"): CPUs run
 * driver code natively and advance their own clocks by modelled costs; the
 * loop always steps the CPU whose clock is earliest, after bringing every
 * device up to that time, and a CPU that reads device-written state (an MMIO
 * read, a descriptor) first brings the devices up to its own time. */
#ifndef NICSIM_SYSTEM_H
#define NICSIM_SYSTEM_H
#include <stdint.h>
#include "sched.h"
#include "scenario.h"
#include "nic_adapter.h"
#include "../models/cpu_model.h"
#include "../models/host_mem.h"
#include "../models/link_wire.h"
#include "../models/link_sink.h"
#include "../models/pcix_bus.h"
#include "../driver/e1000/e1000_dev.h"
#include "../driver/e1000/e1000_tx.h"
#include "../driver/apps/pktgen.h"

struct plat_dev {
    struct nicsim_system *sys;
    cpu *cpu;
    int func;
};

typedef struct sim_port {
    int pktgen_on;
    struct plat_dev pd;
    cpu cpu;
    struct e1000_dev dev;
    struct e1000_txq txq;
    struct pktgen pg;
    int app_running;
    int txq_up, pg_up;          /* what system_free must undo */
    link_wire wire;
    link_sink *sink;
    char pcap_path[512];
    /* counters read from the NIC after the run (e1000_update_stats style) */
    uint64_t gptc, gotc, tpt;
    uint64_t irqs_handled;
} sim_port;

typedef struct nicsim_system {
    const scenario *sc;
    sched s;
    host_mem *mem;
    pcix_bus *bus;
    host_bus hbus;             /* the same bus, as the adapter and the CPUs use it */
    nic_adapter nic;
    sim_port port[NIC_RTL_PORTS];
    ps_t max_sim;
    /* a CPU MMIO read in flight */
    int rd_waiting;
    uint32_t rd_val;
    ps_t rd_done;
    ps_t end_time;             /* when the last app finished */
    double wall_seconds;
    int stopped_early;         /* max_sim_us reached */
} nicsim_system;

/* Build everything the scenario describes and bring the drivers up.
 * Returns 0, or -1 with a message in err. */
int system_build(nicsim_system *sys, const scenario *sc, char *err, size_t errlen);
/* Run the apps to completion (or max_sim_us); then read the NIC counters. */
int system_run(nicsim_system *sys, char *err, size_t errlen);
/* Close the captures (0 = every pcap completed) and free everything. */
int system_free(nicsim_system *sys, char *err, size_t errlen);

/* ---- used by the simulator platform ---- */
/* Bring every device up to time t. */
void system_sync(nicsim_system *sys, ps_t t);
/* A CPU MMIO read issued at t_issue; returns the value, *t_done = when the CPU has it. */
uint32_t system_mmio_read(nicsim_system *sys, int func, uint32_t off, ps_t t_issue, ps_t *t_done);
void system_mmio_write(nicsim_system *sys, int func, uint32_t off, uint32_t val, ps_t t);
/* Run until function func's interrupt line is asserted (returns that time,
 * never earlier than from) or until deadline (returns deadline). */
ps_t system_irq_wait(nicsim_system *sys, int func, ps_t from, ps_t deadline, int *seen);

#endif
