/* The driver's per-descriptor bookkeeping, as memory the CPU caches.
 *
 * Linux keeps one entry per descriptor beside each ring (e1000's struct
 * e1000_buffer; ixgbe's struct ixgbe_tx_buffer and struct ixgbe_rx_buffer:
 * skb pointer, DMA address, length, ...) in ordinary memory, so touching
 * entry i costs what touching a ring line costs: a cache hit or a miss.
 * The cores keep such an array in modelled memory (plat_dma_alloc) and
 * touch entry i where Linux touches it; the simulator's cache model then
 * charges those lines.  Only the size of an entry differs between the
 * cores (the size of their Linux struct), so it is a parameter here. */
#ifndef NICSIM_BUFFER_INFO_H
#define NICSIM_BUFFER_INFO_H
#include <stdint.h>
#include "../plat.h"

/* descs entries of entry_bytes each, 64-byte aligned; NULL when out of memory. */
void *buffer_info_alloc(struct plat_dev *pd, uint32_t descs, uint32_t entry_bytes);

/* The CPU's access to entry i (write = 1 when the driver stores into it). */
void buffer_info_touch(struct plat_dev *pd, void *info, uint32_t entry_bytes, uint32_t i,
                       int write);

#endif
