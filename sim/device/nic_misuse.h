/* Driver programming errors the device sees (issue 5: "each fault becomes a
 * counted, reported event"): the adapter watches the driver's MMIO writes to
 * queue 0's registers and counts the writes the datasheet forbids or leaves
 * undefined.  The RTL's response to each is documented in docs/rtl.md
 * ("Behaviour where the datasheet is silent"); DMA outside host memory is
 * counted separately, as master aborts (nic_adapter_stats).
 *   ring_len        TDLEN/RDLEN of 0 or not a multiple of 128 bytes
 *   tail_beyond     TDT/RDT at or beyond the ring (as TDLEN/RDLEN last set it)
 *   head_enabled    TDH/RDH written while the queue is enabled
 *   bsize_enabled   the RX buffer size changed while the receiver is enabled
 *                   (82546 RCTL.BSIZE/BSEX, 82599 SRRCTL(0).BSIZEPKT)
 *   reset_busy      CTRL.RST while the device has DMA in flight */
#ifndef NICSIM_NIC_MISUSE_H
#define NICSIM_NIC_MISUSE_H
#include <stdint.h>
#include "nic_rtl.h"

enum nic_misuse_kind {
    NIC_MISUSE_RING_LEN, NIC_MISUSE_TAIL_BEYOND, NIC_MISUSE_HEAD_ENABLED, NIC_MISUSE_BSIZE_ENABLED,
    NIC_MISUSE_RESET_BUSY, NIC_MISUSE_KINDS
};

typedef struct nic_misuse {
    int adv;                                    /* 82599 register map */
    uint32_t tdlen[NIC_RTL_PORTS], rdlen[NIC_RTL_PORTS];
    uint32_t tx_ctl[NIC_RTL_PORTS], rx_ctl[NIC_RTL_PORTS];   /* TCTL/RCTL or TXDCTL/RXDCTL as written */
    uint32_t srrctl[NIC_RTL_PORTS];
    uint64_t count[NIC_MISUSE_KINDS];
} nic_misuse;

extern const char *const nic_misuse_names[NIC_MISUSE_KINDS];

void nic_misuse_init(nic_misuse *m, int adv);
/* A driver MMIO write to function func; dma_busy: the device has DMA in flight. */
void nic_misuse_mmio(nic_misuse *m, int func, uint32_t off, uint32_t val, int dma_busy);
#endif
