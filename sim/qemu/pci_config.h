/* The PCI configuration space of one function as a conventional PCI
 * device presents it (PCI Local Bus Specification 3.0, 6.1-6.2): the
 * proxy forwards the guest's config accesses here and keeps its own copy
 * only to map BARs, so the write masks of a real device are ours to apply.
 *
 * One 32-bit non-prefetchable memory BAR (BAR0: the register window; the
 * proxy maps every BAR as 32-bit, ../shared/docs/qemu-proxy-notes.md), no
 * I/O BAR, no expansion ROM, no capability list (no MSI/MSI-X: the proxy
 * delivers none), interrupt pin INTA.  Writable: the command register's
 * I/O space, memory space, bus master, parity, SERR and INTx-disable bits;
 * the cache line size and latency timer; BAR0's address bits; the
 * interrupt line.  Everything else reads as set up and ignores writes. */
#ifndef NICSIM_PCI_CONFIG_H
#define NICSIM_PCI_CONFIG_H
#include <stdint.h>

enum { PCI_CONFIG_BYTES = 256 };

typedef struct pci_config {
    uint8_t b[PCI_CONFIG_BYTES];
    uint32_t bar0_size;         /* a power of two, at least 4 KiB */
} pci_config;

/* A function with these IDs and class code (24 bits: 0x020000 Ethernet),
 * BAR0 of bar0_size bytes; multi marks function 0 of a multi-function
 * device in the header type. */
void pci_config_init(pci_config *c, uint16_t vendor, uint16_t device, uint32_t class_code, uint8_t revision,
                     uint16_t subsys_vendor, uint16_t subsys, uint32_t bar0_size, int multi);
/* A read of len (1, 2 or 4) bytes at addr, little-endian; bytes past the
 * space read as 0xff. */
uint32_t pci_config_read(const pci_config *c, uint32_t addr, int len);
/* A write, through the masks. */
void pci_config_write(pci_config *c, uint32_t addr, uint32_t val, int len);
/* BAR0's guest-physical base, and whether the guest has enabled memory
 * decoding and bus mastering (command bits 1 and 2). */
uint32_t pci_config_bar0(const pci_config *c);
int pci_config_memory_on(const pci_config *c);
int pci_config_bus_master(const pci_config *c);

#endif
