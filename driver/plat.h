/* The platform interface: everything the driver core and the apps may use of
 * the machine they run on.  The driver core includes this header and nothing
 * of the simulator.  Two backends implement it: sim/system/plat_sim.c (the
 * simulator: every call is charged to the CPU cost model and keeps CPU and
 * device time in order) and driver/linux/plat_linux.c (a physical NIC from
 * Linux user space: volatile loads/stores, real barriers,
 * __builtin_prefetch, CLOCK_MONOTONIC time, interrupts through uio/vfio).
 *
 * Shared memory (descriptor rings, packet buffers) is touched only through
 * the plat_mem_* accessors: in the simulator a read of device-written memory
 * first brings every device up to the CPU's local time, so the CPU sees
 * exactly what a real CPU would see at that instant. */
#ifndef NICSIM_PLAT_H
#define NICSIM_PLAT_H
#include <stdint.h>
#include <stddef.h>

/* One PCI function (BAR0 + DMA) as seen by one CPU. */
struct plat_dev;

/* ---- MMIO (BAR0, 32-bit registers) ---- */
/* Non-posted: the CPU waits for the whole bus round trip. */
uint32_t plat_read32(struct plat_dev *d, uint32_t reg);
/* Posted: the CPU pays the issue cost; the write reaches the device later. */
void plat_write32(struct plat_dev *d, uint32_t reg, uint32_t val);

/* ---- DMA-able memory ---- */
/* Zeroed memory that the device can reach at *bus_addr; NULL when out of memory. */
void *plat_dma_alloc(struct plat_dev *d, size_t size, size_t align, uint64_t *bus_addr);

/* ---- shared-memory accessors ---- */
uint64_t plat_mem_read64(struct plat_dev *d, const void *p);
void plat_mem_write64(struct plat_dev *d, void *p, uint64_t v);
/* Copy n bytes into DMA memory (packet contents written by the CPU). */
void plat_mem_copy_to(struct plat_dev *d, void *dst, const void *src, size_t n);
/* Copy n bytes out of DMA memory (packet contents read by the CPU). */
void plat_mem_copy_from(struct plat_dev *d, void *dst, const void *src, size_t n);
/* The CPU touches n bytes at p (reads them, or writes them when write != 0)
 * without the driver needing their values: buffer bookkeeping such as an
 * skb's fields.  Charged like real accesses (cache model in the simulator). */
void plat_mem_touch(struct plat_dev *d, const void *p, size_t n, int write);

/* The code is about to use the value it loaded from p to form an address
 * (a pointer chase, a table's second level): an out-of-order core cannot
 * issue that access before p's data has arrived.  Loads are otherwise
 * taken as independent of each other (the core overlaps their misses). */
void plat_mem_wait(struct plat_dev *d, const void *p);

/* ---- ordering and caches ---- */
void plat_wmb(struct plat_dev *d);   /* stores to DMA memory before a later MMIO write */
void plat_rmb(struct plat_dev *d);   /* a DD read before the reads of what it guards */
void plat_mb(struct plat_dev *d);
void plat_prefetch(struct plat_dev *d, const void *p);

/* ---- named costs: work the model charges (buffer alloc, pktgen per-packet work) ----
 * plat_cost_id() resolves a name once; an unknown name is reported by the
 * backend and costs nothing. */
typedef int plat_cost;
plat_cost plat_cost_id(struct plat_dev *d, const char *name);
void plat_charge(struct plat_dev *d, plat_cost c);

/* Count one packet of work for the per-packet cost report. */
void plat_count_packets(struct plat_dev *d, uint64_t n);

/* ---- interrupts and time ---- */
/* Wait until the function's interrupt line is asserted or timeout_ns has
 * passed; 1 = interrupt (entry cost charged), 0 = timeout. */
int plat_irq_wait(struct plat_dev *d, uint64_t timeout_ns);
/* The same for several functions served by one CPU (all handles of that
 * CPU): the index of a device whose line is asserted, or -1 on timeout. */
int plat_irq_wait_any(struct plat_dev *const *d, int n, uint64_t timeout_ns);
/* The function signals its interrupt by message (MSI-X with the cause
 * auto-cleared and the vector auto-masked on assertion, EIAC/EIAM): every
 * assertion stays pending for the CPU until plat_irq_wait* takes it, even
 * after the device's line has dropped again; messages that arrive before
 * the CPU takes one are one interrupt, as the local APIC's pending bit.
 * Without it an interrupt is a level the CPU sees only while it lasts.  A
 * backend whose interrupts are latched anyway (eventfds) does nothing. */
void plat_irq_msg(struct plat_dev *d);
/* Wait without doing anything (a delay loop, a poll interval). */
void plat_delay_ns(struct plat_dev *d, uint64_t ns);
/* The CPU's current time in nanoseconds. */
uint64_t plat_now_ns(struct plat_dev *d);
/* 1 once the run is being stopped (a signal on hardware; in the simulator
 * the CPU has passed system.max_sim_us): a driver gives up a long wait
 * such as the one for the link instead of waiting out its bound. */
int plat_stop_requested(struct plat_dev *d);

/* Report a driver-level event (e.g. "tx hang") to the backend's log. */
void plat_log(struct plat_dev *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
