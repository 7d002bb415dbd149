/* Host memory as the devices see it: DMA-able regions handed out by a bump
 * allocator in bus-address space.  An access outside every region is a fault
 * (the bus model reports a master abort); it never touches process memory. */
#ifndef NICSIM_HOST_MEM_H
#define NICSIM_HOST_MEM_H
#include <stdint.h>
#include <stddef.h>

typedef struct host_mem host_mem;

/* Regions are laid out from bus address base upwards (e.g. 0x10000000). */
host_mem *host_mem_new(uint64_t base);
void host_mem_free(host_mem *m);
/* Zeroed region of size bytes aligned to align (a power of two, >= 8);
 * returns the host pointer and the bus address; NULL when size is 0 or the
 * allocation fails. */
void *host_mem_alloc(host_mem *m, size_t size, size_t align, uint64_t *bus_addr);
/* Host pointer of [bus, bus+n) when it lies entirely inside one region, else NULL. */
void *host_mem_ptr(host_mem *m, uint64_t bus, size_t n);
/* 0 on success, -1 if any byte lies outside the regions (nothing is copied then). */
int host_mem_read(host_mem *m, uint64_t bus, void *dst, size_t n);
int host_mem_write(host_mem *m, uint64_t bus, const void *src, size_t n);
/* Bus address of a host pointer that lies inside a region; 0 if none. */
uint64_t host_mem_bus_addr(host_mem *m, const void *p);
size_t host_mem_bytes_allocated(const host_mem *m);

#endif
