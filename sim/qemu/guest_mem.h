/* The guest's RAM as QEMU hands it to a proxy remote: SYNC_SYSMEM names up
 * to eight regions, each a guest-physical range backed by a memfd at an
 * offset.  It arrives many times while the guest boots (the memory map
 * changes), each time replacing the last.  DMA goes straight into the
 * mappings: guest-physical addresses, no IOMMU in between. */
#ifndef NICSIM_GUEST_MEM_H
#define NICSIM_GUEST_MEM_H
#include <stddef.h>
#include <stdint.h>
#include "mpqemu.h"

typedef struct guest_mem {
    int n;
    struct guest_region {
        uint64_t gpa, size;
        uint8_t *map;
    } r[MPQEMU_MAX_FDS];
} guest_mem;

/* Replace the regions with a SYNC_SYSMEM message's (its descriptors are
 * closed once mapped).  0, or -1 with err (a region that cannot be
 * mapped); the old regions are gone either way. */
int guest_mem_sync(guest_mem *g, mpqemu_msg *m, char *err, size_t errlen);
/* Copy between guest-physical [addr, addr + n) and buf.  0, or -1 when any
 * byte lies outside every region (a master abort). */
int guest_mem_read(const guest_mem *g, uint64_t addr, void *buf, uint32_t n);
int guest_mem_write(guest_mem *g, uint64_t addr, const void *buf, uint32_t n);
void guest_mem_free(guest_mem *g);

#endif
