/* Faulty-device mode (issue 5, for the driver's sake): the adapter corrupts
 * the RTL's RX descriptor write-backs on their way to host memory, as a
 * broken or hostile device would, so that the driver core's RX clean loop
 * can be run against them in a whole simulation (scenario keys [fault]).
 *
 * Kinds (each write-back picked with probability rate_pct %, then one kind
 * of those enabled, from a seeded stream: runs stay deterministic):
 *   bogus_len     the written-back length is replaced: 0, 1, 2..5 (shorter
 *                 than the FCS), the buffer size + 1, 0xFFFF or a random value;
 *   phantom_dd    besides the real write-back, DD (and EOP, a random length)
 *                 appears in the next descriptor of the ring, one the device
 *                 has not written and may never have fetched;
 *   stale_status  the write-back is replaced by an earlier one of the same
 *                 ring (its length and status repeated).
 * The ring is learned from the driver's MMIO writes of queue 0's
 * RDBAL/RDBAH/RDLEN (82546 0x2800.., 82599 0x1000..); the descriptor format
 * (legacy or advanced) follows the model. */
#ifndef NICSIM_NIC_FAULTS_H
#define NICSIM_NIC_FAULTS_H
#include <stdint.h>
#include "nic_rtl.h"
#include "nic_mem_port.h"

enum nic_fault_kind { NIC_FAULT_BOGUS_LEN, NIC_FAULT_PHANTOM_DD, NIC_FAULT_STALE_STATUS, NIC_FAULT_KINDS };
/* the kinds' names, as the [fault] kinds key and the JSON report spell them */
extern const char *const nic_fault_names[NIC_FAULT_KINDS];

typedef struct nic_faults {
    unsigned kinds;             /* bit k: kind k enabled; 0 = off */
    unsigned rate_pct;
    uint64_t rng;
    int adv;                    /* 82599 advanced descriptors */
    uint32_t rdbal[NIC_RTL_PORTS], rdbah[NIC_RTL_PORTS], rdlen[NIC_RTL_PORTS];
    uint8_t stale[NIC_RTL_PORTS][16];   /* the last real write-back seen */
    uint8_t have_stale[NIC_RTL_PORTS];
    uint64_t injected[NIC_FAULT_KINDS];
} nic_faults;

/* kinds: a mask of 1 << enum nic_fault_kind. */
void nic_faults_init(nic_faults *f, unsigned kinds, unsigned rate_pct, uint64_t seed, int adv);
/* An MMIO write the driver made (the ring registers are noted). */
void nic_faults_mmio(nic_faults *f, int func, uint32_t off, uint32_t val);
/* A DMA write of function func about to reach host memory: RX descriptor
 * write-backs in data[0..len) may be corrupted in place; a phantom DD is
 * written to mem directly. */
void nic_faults_dma_write(nic_faults *f, int func, uint64_t addr, uint8_t *data, uint32_t len,
                          const nic_mem_port *mem, ps_t t);
#endif
