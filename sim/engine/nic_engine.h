/* The device half of a nicsim system behind a narrow C interface, for the
 * front ends whose CPUs live elsewhere (the SystemC module,
 * sim/systemc/nicsim_nic.h; a QEMU guest, sim/qemu/): one card of a scenario (the 82546 on its
 * PCI-X segment or the 82599 on its PCIe link: RTL, adapter, bus model) and
 * its ports' wires.  Everything it touches outside goes through nic_engine_io:
 * DMA, frames leaving the wires, interrupt line changes.
 *
 * Time is in picoseconds.  The engine runs only when told to (a CPU access,
 * nic_engine_run); like the C harness, it must never be asked to go back. */
#ifndef NICSIM_NIC_ENGINE_H
#define NICSIM_NIC_ENGINE_H
#include <stddef.h>
#include <stdint.h>
#include "../../models/kernel/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

struct scenario;
typedef struct nic_engine nic_engine;

typedef struct nic_engine_io {
    void *ctx;
    /* DMA at time t: 0, or -1 for a master abort */
    int (*dma_read)(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t);
    int (*dma_write)(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t);
    /* a frame (without FCS) whose preamble starts on port's wire at t */
    void (*frame_out)(void *ctx, int port, ps_t t, const uint8_t *data, uint32_t len);
    /* port's interrupt line became level at t */
    void (*irq)(void *ctx, int port, int level, ps_t t);
} nic_engine_io;

/* A scenario file with overrides ("section.key=value"), checked as the
 * nicsim commands check it; NULL with a "file:line: ..." message. */
struct scenario *nic_engine_load_scenario(const char *path, int n, char **overrides, char *err, size_t errlen);
void nic_engine_free_scenario(struct scenario *sc);

/* Card 0 of the scenario (system.cards must be 1); NULL with a message. */
nic_engine *nic_engine_new(const struct scenario *sc, const nic_engine_io *io, char *err, size_t errlen);
void nic_engine_free(nic_engine *e);
/* PCI functions (= Ethernet ports) of the card: 2. */
int nic_engine_ports(const nic_engine *e);

/* Bring the device up to time t (events and RTL edges up to t). */
void nic_engine_sync(nic_engine *e, ps_t t);
/* Run up to t, stopping early (returning 1) once stop(ctx) holds after an
 * event or an edge. */
int nic_engine_run(nic_engine *e, ps_t t, int (*stop)(void *ctx), void *ctx);
/* When the device next has something to do; PS_NEVER when idle. */
ps_t nic_engine_next(const nic_engine *e);
ps_t nic_engine_now(const nic_engine *e);

/* BAR0 accesses of function f at t; a read runs the device until the data
 * is back and returns it with *t_done. */
uint32_t nic_engine_mmio_read(nic_engine *e, int f, uint32_t off, ps_t t, ps_t *t_done);
void nic_engine_mmio_write(nic_engine *e, int f, uint32_t off, uint32_t val, ps_t t);
/* A frame (FCS included, checked here) that has fully arrived on port's
 * wire at t.  0, or -1 when t is already behind the device (it is then
 * delivered at the device's time and counted in nic_engine_late). */
int nic_engine_rx_frame(nic_engine *e, int port, ps_t t, const uint8_t *data, uint32_t len);

/* Observations from the past: device accesses and received frames that came
 * later than the device's time (0 in an exact run). */
uint64_t nic_engine_late(const nic_engine *e);
/* Register accesses the RTL implements nothing for (nic_adapter.h): the
 * total, and the i-th distinct one (function, direction, BAR0 offset, its
 * register name, count); nic_engine_unmodelled returns 0 when there is an
 * i-th, -1 past the last (past the adapter's table only the total counts). */
typedef struct nic_engine_unmodelled_access {
    int func, write;
    uint32_t off;
    char name[24];
    uint64_t count;
} nic_engine_unmodelled_access;
uint64_t nic_engine_unmodelled_total(const nic_engine *e);
int nic_engine_unmodelled(const nic_engine *e, int i, nic_engine_unmodelled_access *u);

/* Frames port's wire has sent, and when the last one's gap ends. */
uint64_t nic_engine_wire_frames(const nic_engine *e, int port);
ps_t nic_engine_wire_end(const nic_engine *e, int port);

#ifdef __cplusplus
}
#endif
#endif
