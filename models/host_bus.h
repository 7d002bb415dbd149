/* The host bus as the rest of the simulator sees it, whatever its kind
 * (PCI-X for the 82546 now, PCIe for the 82599 later): a device adapter
 * issues DMA and answers CPU reads through it, the CPU side posts MMIO writes
 * and issues MMIO reads.  A bus model fills in the operations; its callbacks
 * to the device and the CPU have the shape of pcix_ops (read data arrived,
 * write done, MMIO write/read presented, read data at the CPU). */
#ifndef NICSIM_HOST_BUS_H
#define NICSIM_HOST_BUS_H
#include <stdint.h>
#include "kernel/sched.h"

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
