/* The host bus as the rest of the simulator sees it, whatever its kind
 * (PCI-X for the 82546, PCIe for the 82599): a device adapter issues DMA
 * and answers CPU reads through it, the CPU side posts MMIO writes and
 * issues MMIO reads (struct host_bus: the bus model fills in the
 * operations), and the bus reports when each transfer takes effect (struct
 * host_bus_callbacks: one shape for every bus model). */
#ifndef NICSIM_HOST_BUS_H
#define NICSIM_HOST_BUS_H
#include <stdint.h>
#include "kernel/sched.h"

/* What a bus model reports to the device on it and to the CPU side, at the
 * picosecond each transfer takes effect (the bus moves no data itself: the
 * owner copies the bytes then).  A NULL function is not called. */
typedef struct host_bus_callbacks {
    void *dev;                  /* the device callbacks' ctx */
    /* A piece of a DMA read has arrived at the device: [addr, addr+len) of
     * request tag.  Pieces of one tag arrive in address order; last = 1 on
     * the final one. */
    void (*read_data)(void *dev, int func, uint32_t tag, uint64_t addr, uint32_t len, int last, ps_t t);
    /* A DMA write has taken effect in host memory. */
    void (*write_done)(void *dev, int func, uint32_t tag, ps_t t);
    /* A posted MMIO write reaches the device. */
    void (*mmio_write)(void *dev, int func, uint32_t off, uint32_t val, ps_t t);
    /* A CPU MMIO read is presented to the device; the owner answers with
     * the bus's mmio_read_reply (at once or after it clocked the device;
     * answers go in order). */
    void (*mmio_read)(void *dev, int func, uint32_t off, ps_t t);
    void *cpu;                  /* mmio_read_done's ctx */
    /* The read data has reached the CPU. */
    void (*mmio_read_done)(void *cpu, int func, uint32_t val, ps_t t);
} host_bus_callbacks;

typedef struct host_bus_ops {
    void (*dma_read)(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
    void (*dma_write)(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
    void (*mmio_read_reply)(void *impl, uint32_t val, ps_t t);
    void (*mmio_write)(void *impl, int func, uint32_t off, uint32_t val, ps_t t_cpu);
    void (*mmio_read)(void *impl, int func, uint32_t off, ps_t t_cpu);
} host_bus_ops;

typedef struct host_bus {
    const host_bus_ops *ops;
    void *impl;
} host_bus;

static inline void host_bus_dma_read(const host_bus *b, int func, uint32_t tag, uint64_t addr,
                                     uint32_t len, ps_t t)
{
    b->ops->dma_read(b->impl, func, tag, addr, len, t);
}
static inline void host_bus_dma_write(const host_bus *b, int func, uint32_t tag, uint64_t addr,
                                      uint32_t len, ps_t t)
{
    b->ops->dma_write(b->impl, func, tag, addr, len, t);
}
static inline void host_bus_mmio_read_reply(const host_bus *b, uint32_t val, ps_t t)
{
    b->ops->mmio_read_reply(b->impl, val, t);
}
static inline void host_bus_mmio_write(const host_bus *b, int func, uint32_t off, uint32_t val, ps_t t)
{
    b->ops->mmio_write(b->impl, func, off, val, t);
}
static inline void host_bus_mmio_read(const host_bus *b, int func, uint32_t off, ps_t t)
{
    b->ops->mmio_read(b->impl, func, off, t);
}

#endif
