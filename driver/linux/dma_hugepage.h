/* DMA memory for a user-space driver: one region of 2 MiB hugepages, locked
 * and populated so it never moves, handed out by a bump allocator.  Each
 * hugepage is physically contiguous; an allocation never crosses one, so
 * every allocation is contiguous in the device's address space too.
 *
 * The device's address of a byte is either its physical address (uio: no
 * IOMMU, read from /proc/self/pagemap, root only) or its IOVA (vfio: the
 * region is mapped at iova_base in the IOMMU, one range). */
#ifndef NICSIM_DMA_HUGEPAGE_H
#define NICSIM_DMA_HUGEPAGE_H
#include <stddef.h>
#include <stdint.h>
#include "hw_error.h"

#define DMA_HUGEPAGE_SIZE (2u << 20)

struct dma_region {
    uint8_t *va;
    size_t size;           /* bytes, a multiple of DMA_HUGEPAGE_SIZE */
    size_t used;
    uint64_t *bus;         /* device address of each hugepage */
    unsigned pages;
};

/* Map size bytes (rounded up to hugepages).  Errors name the fix: no
 * hugepages reserved, not root. */
int dma_region_map(struct dma_region *r, size_t size, struct hw_error *e);
/* Device addresses = physical addresses (uio). */
int dma_region_use_physical(struct dma_region *r, struct hw_error *e);
/* Device addresses = iova_base + offset (vfio, after VFIO_IOMMU_MAP_DMA). */
void dma_region_use_iova(struct dma_region *r, uint64_t iova_base);
/* size bytes at align (a power of two), zeroed, never across a hugepage;
 * NULL when the region is full or size exceeds a hugepage. */
void *dma_region_alloc(struct dma_region *r, size_t size, size_t align, uint64_t *bus);
void dma_region_unmap(struct dma_region *r);

#endif
