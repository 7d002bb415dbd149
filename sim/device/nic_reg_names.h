/* Register names of BAR0 offsets, for reports that name what a driver
 * touched (the accesses the RTL does not implement, nic_adapter.h).  The
 * names and offsets are the datasheets' as Linux's e1000_hw.h and
 * ixgbe_type.h spell them (docs/nic-facts.md A1, A3 and B1 list most, with
 * sources); an offset the table does not know is named by its offset. */
#ifndef NICSIM_NIC_REG_NAMES_H
#define NICSIM_NIC_REG_NAMES_H
#include <stddef.h>
#include <stdint.h>

/* The name of offset off of an 82599 (adv) or an 8254x into buf ("RDBAL(3)",
 * "GPRC", or "0x0a200" when unknown); returns buf. */
const char *nic_reg_name(int adv, uint32_t off, char *buf, size_t n);

#endif
