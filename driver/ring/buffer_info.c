/* Per-descriptor bookkeeping in modelled memory; see buffer_info.h. */
#include "buffer_info.h"

void *buffer_info_alloc(struct plat_dev *pd, uint32_t descs, uint32_t entry_bytes)
{
    uint64_t bus;               /* the NIC never sees it: only the CPU's caches do */
    return plat_dma_alloc(pd, (size_t)descs * entry_bytes, 64, &bus);
}

void buffer_info_touch(struct plat_dev *pd, void *info, uint32_t entry_bytes, uint32_t i,
                       int write)
{
    plat_mem_touch(pd, (uint8_t *)info + (size_t)i * entry_bytes, entry_bytes, write);
}
