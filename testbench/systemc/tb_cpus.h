/* The CPU half of the SystemC testbench, in C: the scenario's CPU with its
 * cost and cache models, host memory, and the driver core with its app
 * (any app with one instance: pktgen, the sink, the router on one card),
 * exactly as the C harness builds them (system_build_cpus),
 * every device access going to tb_bus, which the SystemC side implements
 * with TLM transactions and waits. */
#ifndef NICSIM_TB_CPUS_H
#define NICSIM_TB_CPUS_H
#include <stddef.h>
#include <stdint.h>
#include "../../models/kernel/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

struct scenario;
struct link_gen;

typedef struct tb_bus {
    void *ctx;
    /* bring the NIC up to t: the CPU is about to look at memory it writes */
    void (*sync)(void *ctx, ps_t t);
    uint32_t (*mmio_read)(void *ctx, int func, uint32_t off, ps_t t, ps_t *t_done);
    void (*mmio_write)(void *ctx, int func, uint32_t off, uint32_t val, ps_t t);
    /* from `from`, wait until the line of a function in func_mask is up
     * (returns when, *func = that function) or until deadline (*func = -1) */
    ps_t (*irq_wait)(void *ctx, unsigned func_mask, ps_t from, ps_t deadline, int *func);
    /* port's link partner starts sending (gen.start_us after up) */
    void (*partner_go)(void *ctx, int port, ps_t up);
    /* the CPU has run on to t without touching the NIC */
    void (*turn)(void *ctx, ps_t t);
} tb_bus;

typedef struct tb_cpus tb_cpus;

/* One CPU running system.app pktgen (one port) or sink; NULL with a message. */
tb_cpus *tb_cpus_new(const struct scenario *sc, const tb_bus *bus, char *err, size_t errlen);
void tb_cpus_free(tb_cpus *tb);
/* Run the CPU's app to its end in the caller's thread: 0, or -1 with the
 * reason the app could not start. */
int tb_cpus_run(tb_cpus *tb, char *err, size_t errlen);
/* The CPU's clock; system.max_sim_us. */
ps_t tb_cpus_time(const tb_cpus *tb);
ps_t tb_cpus_limit(const tb_cpus *tb);
int tb_cpus_ports(const tb_cpus *tb);
/* The pcap port p's frames go to ("" for none). */
const char *tb_cpus_pcap_path(const tb_cpus *tb, int p);
/* Port p's link partner generator (NULL: nobody sends to it), and what its
 * sender reports: a frame arriving at t_end, then the end of its frames. */
struct link_gen *tb_cpus_partner(const tb_cpus *tb, int p);
void tb_cpus_partner_sent(tb_cpus *tb, int p, ps_t t_end);
void tb_cpus_partner_done(tb_cpus *tb, int p);
/* The NIC's DMA into host memory, coherent with the CPU's caches. */
int tb_cpus_dma_read(tb_cpus *tb, uint64_t addr, void *dst, uint32_t n);
int tb_cpus_dma_write(tb_cpus *tb, uint64_t addr, const void *src, uint32_t n);
/* Take the app and the driver's queues down, as the C harness does after
 * its run, with the CPU's clock moved on to t (MMIO included: call it while
 * the simulation runs). */
void tb_cpus_drivers_down(tb_cpus *tb, ps_t t);
/* After the run: read the statistics registers from t on; did the app do
 * all it was asked (why not, in why)? */
void tb_cpus_read_counters(tb_cpus *tb, ps_t t);
int tb_cpus_complete(tb_cpus *tb, int stopped_early, char *why, size_t n);

/* What the SystemC side measured, for the report. */
typedef struct tb_result {
    ps_t sim_time_ps;           /* the end of the run, as the C harness's */
    double wall_seconds;
    uint64_t wire_frames[4];    /* per port */
    uint64_t late;              /* the module's late observations */
    double quantum_ns;
    int stopped_early;
} tb_result;
/* Print the per-port counters (the C harness's Iface and Kernel Interface
 * tables) and, with json_path, write them as JSON; 0, or -1 with a message. */
int tb_cpus_report(const tb_cpus *tb, const tb_result *r, const char *json_path, char *err, size_t errlen);
/* Simulated packets: frames sent on the wires, or for a sink the frames it took. */
uint64_t tb_cpus_packets(const tb_cpus *tb, const tb_result *r);

#ifdef __cplusplus
}
#endif
#endif
