/* Hugepage DMA memory; see dma_hugepage.h. */
#include "dma_hugepage.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NR_HUGEPAGES "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"

int dma_region_map(struct dma_region *r, size_t size, struct hw_error *e)
{
    memset(r, 0, sizeof *r);
    size = (size + DMA_HUGEPAGE_SIZE - 1) & ~(size_t)(DMA_HUGEPAGE_SIZE - 1);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_LOCKED | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
        int err = errno;
        return hw_fail(e, HW_NOT_READY,
                       "cannot map %zu MiB of 2 MiB hugepages for DMA memory (%s): reserve them first, "
                       "e.g. echo %zu > " NR_HUGEPAGES, size >> 20, strerror(err), size / DMA_HUGEPAGE_SIZE + 8);
    }
    r->va = p;
    r->size = size;
    r->pages = (unsigned)(size / DMA_HUGEPAGE_SIZE);
    r->bus = calloc(r->pages, sizeof *r->bus);
    if (!r->bus) {
        dma_region_unmap(r);
        return hw_fail(e, HW_NOT_READY, "out of memory");
    }
    return 0;
}

int dma_region_use_physical(struct dma_region *r, struct hw_error *e)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0)
        return hw_fail(e, HW_NOT_READY, "cannot open /proc/self/pagemap: %s", strerror(errno));
    long pg = sysconf(_SC_PAGESIZE);
    for (unsigned i = 0; i < r->pages; i++) {
        uintptr_t va = (uintptr_t)(r->va + (size_t)i * DMA_HUGEPAGE_SIZE);
        uint64_t ent;
        if (pread(fd, &ent, sizeof ent, (off_t)(va / (uintptr_t)pg * sizeof ent)) != sizeof ent) {
            close(fd);
            return hw_fail(e, HW_NOT_READY, "reading /proc/self/pagemap failed: %s", strerror(errno));
        }
        uint64_t pfn = ent & ((1ull << 55) - 1);
        if (!(ent >> 63) || pfn == 0) {
            close(fd);
            return hw_fail(e, HW_NOT_READY, "no physical address for the DMA memory: /proc/self/pagemap "
                           "shows page frames to root only (CAP_SYS_ADMIN)");
        }
        r->bus[i] = pfn * (uint64_t)pg;
    }
    close(fd);
    return 0;
}

void dma_region_use_iova(struct dma_region *r, uint64_t iova_base)
{
    for (unsigned i = 0; i < r->pages; i++)
        r->bus[i] = iova_base + (uint64_t)i * DMA_HUGEPAGE_SIZE;
}

void *dma_region_alloc(struct dma_region *r, size_t size, size_t align, uint64_t *bus)
{
    if (align < 8)
        align = 8;
    if (size == 0 || size > DMA_HUGEPAGE_SIZE || (align & (align - 1)))
        return NULL;
    size_t off = (r->used + align - 1) & ~(align - 1);
    /* an allocation that would cross into the next hugepage starts there */
    if (off / DMA_HUGEPAGE_SIZE != (off + size - 1) / DMA_HUGEPAGE_SIZE)
        off = (off / DMA_HUGEPAGE_SIZE + 1) * DMA_HUGEPAGE_SIZE;
    if (off + size > r->size)
        return NULL;
    r->used = off + size;
    size_t page = off / DMA_HUGEPAGE_SIZE;
    *bus = r->bus[page] + (off % DMA_HUGEPAGE_SIZE);
    memset(r->va + off, 0, size);
    return r->va + off;
}

void dma_region_unmap(struct dma_region *r)
{
    if (r->va)
        munmap(r->va, r->size);
    free(r->bus);
    memset(r, 0, sizeof *r);
}
