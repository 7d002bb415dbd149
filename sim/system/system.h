/* The system builder and the simulation loop: one scenario becomes a
 * scheduler, host memory, the cards of its NIC personality (RTL + adapter +
 * bus model: sim/system/card.c), one link per port, and the CPUs that run
 * the scenario's app (sim/apps), each instance on its own CPU, through the
 * simulator platform (plat_sim.c).
 *
 * Ordering (docs/architecture.md, "The timing contract"): CPUs run driver
 * code natively, each as a coroutine with its own clock advanced by
 * modelled costs.  The devices are never ahead of the earliest CPU: a CPU
 * that must observe device state at time t (an MMIO read, a descriptor, an
 * interrupt) first lets every CPU whose clock is earlier run up to t, then
 * brings the devices up to t itself (sim/system/timing.c).  MMIO writes are
 * posted with the writer's time.  So the interleaving of CPUs and devices is
 * exact at the granularity of their accesses, with any number of CPUs. */
#ifndef NICSIM_SYSTEM_H
#define NICSIM_SYSTEM_H
#include <stdint.h>
#include "../../models/kernel/sched.h"
#include "../../models/kernel/coroutine.h"
#include "../../models/cpu_model.h"
#include "../../models/cache_model.h"
#include "../../models/host_mem.h"
#include "../../models/link_gen.h"
#include "../../models/link_wire.h"
#include "../../models/link_sink.h"
#include "../../models/pcix_bus.h"
#include "../../models/pcie_bus.h"
#include "../../driver/port/nic_port.h"
#include "../device/nic_adapter.h"
#include "../scenario/scenario.h"
#include "../scenario/personality.h"
#include "../apps/app.h"

enum { SYS_MAX_CARDS = 4, SYS_MAX_PORTS = 2 * SYS_MAX_CARDS, SYS_MAX_CPUS = APP_MAX_INSTANCES };
/* A run's warnings: at most SYS_MAX_WARNINGS of SYS_WARNING_LEN bytes (the
 * last one then says how many more there were). */
enum { SYS_MAX_WARNINGS = 24, SYS_WARNING_LEN = 400 };

struct nicsim_system;
struct sim_port;

/* A simulated CPU: its cost model and clock, the coroutine its app
 * instance runs in, and the ports the instance drives. */
/* A CPU's time by category and named cost and its packets, at an instant. */
typedef struct cpu_tally {
    ps_t t;
    ps_t cat_ps[CPU_CATS];
    ps_t named_ps[CPU_MAX_NAMED];
    uint64_t packets;
} cpu_tally;

typedef struct sim_cpu {
    int id;
    cpu c;
    coroutine co;
    int co_up;
    int alive;                  /* its app has not finished */
    /* while it waits for device state (an interrupt, a read's data): */
    int blocked;
    int (*cond)(struct nicsim_system *, void *);   /* what it waits for */
    void *cond_ctx;
    ps_t deadline;              /* it gives up waiting then */
    struct sim_port *ports[SYS_MAX_PORTS];
    int nports;
    void *app_state;            /* its instance of the system's app (app->state_size bytes) */
    ps_t drain;                 /* a receiving app runs on this long after its last input */
    ps_t last_work;             /* a receiving app: when a step last did work */
    /* its app is up (ports and app brought up, traffic started); its
     * tallies then and (a receiving app) after the last step that did
     * work: the report's per-packet figures and shares count the traffic
     * between them, not bring-up or drain */
    int up;
    cpu_tally at_up, at_last_work;
} sim_cpu;

/* One card: its RTL and adapter, and its bus (a PCI-X segment of its own or
 * a PCIe link, as its personality says). */
typedef struct sim_card {
    struct nicsim_system *sys;
    int index;
    nic_adapter nic;
    int nic_up;
    pcix_bus *bus;             /* NIC_BUS_PCIX: its segment (else NULL) */
    pcie_bus *pcie;            /* NIC_BUS_PCIE: its link (else NULL) */
    pcie_params pcie_p;
    host_bus hbus;             /* the same bus, as the adapter and the CPUs use it */
    /* CPU MMIO reads in flight, per function */
    int rd_waiting[NIC_RTL_PORTS];
    uint32_t rd_val[NIC_RTL_PORTS];
    ps_t rd_done[NIC_RTL_PORTS];
} sim_card;

/* A CPU's handle on one PCI function. */
struct plat_dev {
    struct nicsim_system *sys;
    sim_cpu *sc;                /* the CPU this handle belongs to */
    cpu *cpu;                   /* == &sc->c: its cost model */
    sim_card *card;
    int func;
    /* plat_irq_msg: the function signals by message; its assertions up to
     * irq_taken (the adapter's irq_asserts count) have been taken */
    uint8_t irq_msg;
    uint64_t irq_taken;
};

/* One Ethernet port: eth<index> is function index % 2 of card index / 2. */
typedef struct sim_port {
    int index;
    sim_card *card;
    int func;
    int driven;                 /* an app instance drives it */
    int tx_counted;             /* its frames make the run's transmit rate (app->tx_rate) */
    struct plat_dev pd;         /* the handle of the CPU that drives the port */
    struct nic_port np;         /* its driver side (the personality's core), once up */
    char err[320];              /* why the port or its app could not start */
    /* the link partner that sends to it (app->partner) */
    link_gen *gen;
    link_gen_frame gf;          /* the frame on its way */
    int gen_done;
    ps_t gen_first, gen_last;   /* when its first and last frames arrived */
    link_wire wire;
    link_sink *sink;
    char pcap_path[512];
    /* read after the run: the NIC's counters (as e1000_update_stats), the app's figures */
    struct nic_port_counters cnt;
    app_port_stats app;
} sim_port;

/* A system whose devices live elsewhere: the CPUs' device accesses go to
 * these functions instead of built-in cards (the SystemC testbench, where
 * the NIC is a TLM module: sim/systemc/).  Each takes the same arguments as
 * the system_* function it stands in for; card is the card's index. */
typedef struct sim_ext_devices {
    void *ctx;
    void (*sync)(void *ctx, sim_cpu *self, ps_t t);
    uint32_t (*mmio_read)(void *ctx, sim_cpu *self, int card, int func, uint32_t off, ps_t t_issue,
                          ps_t *t_done);
    void (*mmio_write)(void *ctx, int card, int func, uint32_t off, uint32_t val, ps_t t);
    ps_t (*irq_wait_any)(void *ctx, sim_cpu *self, struct plat_dev *const *d, int n, ps_t from,
                         ps_t deadline, int *which);
    /* the link partner of port sp starts sending (link_partner_go) */
    void (*partner_go)(void *ctx, struct sim_port *sp, ps_t up);
    /* the app of self has done steps_per_turn steps (where the built-in
     * harness hands control to its scheduler) */
    void (*turn)(void *ctx, sim_cpu *self);
} sim_ext_devices;

/* What the cards of a devices-only system (system_build_devices) are
 * connected to: their DMA, and per port what leaves the wire. */
typedef struct sim_device_io {
    nic_mem_port mem;
    link_wire_out out;
    void *out_ctx[SYS_MAX_PORTS];
    /* every change of port p's interrupt line (function p % 2 of card p / 2) */
    void (*irq)(void *ctx, int port, int level, ps_t t);
    void *irq_ctx;
} sim_device_io;

typedef struct nicsim_system {
    const scenario *sc;
    const nic_personality *pers; /* the cards' personality (nic.model) */
    const app *app;             /* what the CPUs run (system.app) */
    const sim_ext_devices *ext; /* devices elsewhere (system_build_cpus), else NULL */
    sim_device_io io;           /* what the devices connect to (system_build_devices) */
    sched s;
    host_mem *mem;
    sim_card card[SYS_MAX_CARDS];
    int ncards;
    sim_port port[SYS_MAX_PORTS];
    int nports;                /* 2 per card */
    sim_cpu cpu[SYS_MAX_CPUS];
    int ncpus;
    cache_hier *caches;        /* every CPU's L1D and L2 */
    ps_t max_sim;
    ps_t end_time;             /* when the last app finished */
    /* the run's steady part starts when the last CPU's app is up: then
     * each card's bus busy time so far (PCIe: per direction; PCI-X: [0]) */
    int cpus_up;
    ps_t traffic_t;
    ps_t bus_busy_at_traffic[SYS_MAX_CARDS][2];
    double wall_seconds;
    int stopped_early;         /* max_sim_us reached */
    int drivers_down;           /* system_drivers_down has run */
    uint64_t late_observations; /* a CPU looked at device state from its future
                                   (an ordering bug; 0 in a correct run) */
    const char *cpu_calibration;   /* cpu.calibration: "none" or what the profile was fitted to */
    /* what the scenario asks for that the run does not do as written: a key
     * it never reads, more CPUs than work, a rate above the line's (each
     * "WHERE: what"; system_warnings.c) */
    char warning[SYS_MAX_WARNINGS][SYS_WARNING_LEN];
    int nwarnings;
    uint8_t rate_warned;       /* bit 0: gen.kpps, bit 1: gen.eth2_kpps (once each) */
} nicsim_system;

/* Build everything the scenario describes; each CPU brings its ports and
 * its app instance up when the run starts.  Returns 0, or -1 with a
 * message in err (system_free then frees what was built). */
int system_build(nicsim_system *sys, const scenario *sc, char *err, size_t errlen);
/* The driver's log lines (plat_log: a TX hang, a link down, the e1000's
 * 64 KB ring realignment) on stderr (1, the default) or dropped (0) for
 * every system of the process from now on: validate's tables. */
void system_driver_log(int on);
/* The CPU half of system_build: host memory, caches, the app's CPUs and
 * their ports, every device access going to ext (cards get their identity
 * only, links no capture; the pcap paths are worked out).  Run each CPU's
 * app with system_cpu_app.  0, or -1 with a message. */
int system_build_cpus(nicsim_system *sys, const scenario *sc, const sim_ext_devices *ext, char *err,
                      size_t errlen);
/* The device half: the cards (RTL, adapter, bus model) and the ports'
 * wires, connected to io; no CPU, no host memory, no capture.  Advance it
 * with system_sync(sys, NULL, t) and system_devices_run. */
int system_build_devices(nicsim_system *sys, const scenario *sc, const sim_device_io *io, char *err,
                         size_t errlen);
/* Devices only: run events and RTL edges up to t, or until stop(sys, ctx)
 * holds after one (then returns 1); and when they next have something to do. */
int system_devices_run(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx);
ps_t system_devices_next(const nicsim_system *sys);
/* DMA into the host memory of a system with CPUs, coherent with their
 * caches (what a card of system_build does): 0, or -1 outside memory. */
int system_dma_read(nicsim_system *sys, uint64_t addr, void *dst, uint32_t n);
int system_dma_write(nicsim_system *sys, uint64_t addr, const void *src, uint32_t n);
/* Run CPU c's app in the caller's thread (system_build_cpus). */
void system_cpu_app(sim_cpu *c);
/* CPU k's tally now (its cost model's counters at its own time). */
void system_cpu_tally(const sim_cpu *c, cpu_tally *out);
/* A CPU's traffic window: from its app being up (a) to its last step with
 * work (a receiving app) or its end (b), the packets counted between, and
 * the drain after b (a receiver polling on without work). */
typedef struct cpu_window {
    cpu_tally a, b;
    uint64_t packets;
    ps_t drain;
} cpu_window;
void system_cpu_window(const nicsim_system *sys, const sim_cpu *c, cpu_window *w);
/* d picoseconds of the window as cycles per packet of it; the busy time
 * (every category but idle) between its ends. */
double cpu_window_cycles(const sim_cpu *c, const cpu_window *w, ps_t d);
ps_t cpu_window_busy(const cpu_window *w);
/* Run the apps to completion (or max_sim_us); then read the NIC counters
 * and add the warnings of the keys the run never read. */
int system_run(nicsim_system *sys, char *err, size_t errlen);
/* Add a warning (printf-style); past SYS_MAX_WARNINGS they are counted. */
void system_warn(nicsim_system *sys, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The build's warnings: more router CPUs than port pairs; port p's link
 * partner asked (cfg) for more than its line carries. */
void system_warn_cpus(nicsim_system *sys);
void system_warn_rate(nicsim_system *sys, int p, const link_gen_cfg *cfg);
/* The warnings of the keys the file or an override set and the run has
 * not read (scenario_next_unread), each with where it was set and why. */
void system_warn_unused_keys(nicsim_system *sys);
/* The first port's error from bringing up an app: 0, or -1 with it in err. */
int system_app_error(const nicsim_system *sys, char *err, size_t errlen);
/* Read the ports' statistics registers (as e1000_update_stats does) from t
 * on, and the app's figures of each port. */
void system_read_counters(nicsim_system *sys, ps_t t);
/* 1 if every app instance did all it was asked (pktgen: count sent and
 * reclaimed, or its duration run out), every link partner sent everything
 * and the run was not cut short; otherwise 0 and a line saying why in why. */
int system_complete(const nicsim_system *sys, char *why, size_t n);
/* Card i's bus busy time so far: PCIe per direction (up, down), PCI-X in
 * [0] ([1] = 0); zeros for a card whose devices live elsewhere. */
void system_bus_busy(const nicsim_system *sys, int i, ps_t busy[2]);
/* Take the apps and the ports' queues down (the drivers' MMIO included);
 * system_free does it when not done before. */
void system_drivers_down(nicsim_system *sys);
/* Write out the captures and check every write, before anything is put
 * in place (so that a caller can drop all of a run's outputs when one
 * fails): 0, or -1 with "PATH: cannot write: why" in err. */
int system_captures_finish(nicsim_system *sys, char *err, size_t errlen);
/* Drop the captures: their temporary files are removed and the pcaps at
 * their paths (an earlier run's) are left as they were. */
void system_captures_discard(nicsim_system *sys);
/* The pcap file port p's capture.pcap pattern names ({port} replaced), or
 * "" when p writes none: *out (n bytes).  0, or -1 with a message naming
 * capture.pcap when the pattern cannot be used (no {port} though several
 * ports transmit; a {point} outside a sweep). */
int system_capture_path(const scenario *sc, const app *a, int p, int nports, char *out, size_t n, char *err,
                        size_t errlen);
/* The pattern step of it, for a front end that knows how many ports
 * transmit: pattern with {port} replaced by p; refused (-1, err) with a
 * {point} in it or without {port} when ntx > 1 ports transmit. */
int system_capture_port(const char *pattern, int p, int ntx, char *out, size_t n, char *err, size_t errlen);
/* Put the captures in place (0 = every pcap completed) and free everything. */
int system_free(nicsim_system *sys, char *err, size_t errlen);

/* ---- used by the simulator platform, from inside CPU self's coroutine
 * (self NULL: from the main context once every CPU has finished) ---- */
/* Bring every device (and every earlier CPU) up to time t. */
void system_sync(nicsim_system *sys, sim_cpu *self, ps_t t);
/* A CPU MMIO read issued at t_issue; returns the value, *t_done = when the CPU has it. */
uint32_t system_mmio_read(nicsim_system *sys, sim_cpu *self, sim_card *card, int func, uint32_t off,
                          ps_t t_issue, ps_t *t_done);
void system_mmio_write(nicsim_system *sys, sim_card *card, int func, uint32_t off, uint32_t val, ps_t t);
/* Wait until the interrupt line of any of the n functions is asserted
 * (returns that time, never earlier than from; *which = the index of the
 * first such function) or until deadline (returns deadline; *which = -1). */
ps_t system_irq_wait_any(nicsim_system *sys, sim_cpu *self, struct plat_dev *const *d, int n, ps_t from,
                         ps_t deadline, int *which);

#endif
