/* PCI devices through Linux's sysfs (/sys/bus/pci): finding a NIC by
 * address or ID, who drives it, whether its interface is up, (re)binding it
 * to a driver, its IOMMU group and its configuration space.
 *
 * Every path starts at pci_sysfs_root ("/sys" by default), so the unit
 * tests can run the same code on a tree they build. */
#ifndef NICSIM_PCI_SYSFS_H
#define NICSIM_PCI_SYSFS_H
#include <stddef.h>
#include <stdint.h>
#include "hw_error.h"

extern const char *pci_sysfs_root;

#define PCI_BDF_LEN 16   /* "0000:00:04.0" and its NUL, with room */

/* Resolve a device spec to its full address "DDDD:BB:DD.F":
 *   0000:00:04.0 or 00:04.0     a PCI address (the device must exist)
 *   8086:100f  or  8086:100f@1  the first (or N-th, from 0) device with that
 *                               vendor:device ID, in address order
 * 0, or -1 with e set (HW_BAD_INPUT for a malformed spec, HW_NOT_READY when
 * no such device exists; the message lists the network-class devices seen). */
int pci_resolve(const char *spec, char bdf[PCI_BDF_LEN], struct hw_error *e);
/* Whether spec is written as pci_resolve takes it (hex digits only: no
 * sign, no 0x; device 00..1f, function 0..7; N decimal), without looking
 * at any device: 1 or 0. */
int pci_spec_valid(const char *spec);

/* Vendor and device ID; -1 with e set when unreadable. */
int pci_read_id(const char *bdf, uint16_t *vendor, uint16_t *device, struct hw_error *e);

/* The driver bound to the device: 1 and its name, or 0 when none. */
int pci_driver(const char *bdf, char *name, size_t n);

/* 1 when a network interface of the device is administratively up (IFF_UP
 * in /sys/class/net/IF/flags), its name in ifname; 0 otherwise. */
int pci_net_up(const char *bdf, char *ifname, size_t n);

/* Unbind from the current driver (nothing to do when none). */
int pci_unbind(const char *bdf, struct hw_error *e);

/* Bind to the named driver through driver_override and drivers_probe (the
 * driver's module must be loaded: its /sys/bus/pci/drivers entry must exist). */
int pci_bind(const char *bdf, const char *driver, struct hw_error *e);

/* The device's IOMMU group number, or -1 when it has none. */
int pci_iommu_group(const char *bdf);

/* The devices of IOMMU group `group`, other than `except`, that keep vfio
 * from using it: bound to a driver other than vfio-pci, pci-stub or
 * pcieport (the kernel's rule for a viable group).  Written to out as
 * "0000:01:02.0 (e1000), ..."; returns how many. */
int pci_group_blockers(int group, const char *except, char *out, size_t n);

/* Configuration space through sysfs' config file (root may write). */
int pci_config_read16(const char *bdf, unsigned off, uint16_t *v, struct hw_error *e);
int pci_config_write16(const char *bdf, unsigned off, uint16_t v, struct hw_error *e);

#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY 0x0002
#define PCI_COMMAND_MASTER 0x0004
#define PCI_COMMAND_INTX_DISABLE 0x0400
#define PCI_STATUS 0x06
/* status bits a DMA gone wrong leaves (write 1 to clear) */
#define PCI_STATUS_SIG_TARGET_ABORT 0x0800
#define PCI_STATUS_REC_TARGET_ABORT 0x1000
#define PCI_STATUS_REC_MASTER_ABORT 0x2000
#define PCI_STATUS_DETECTED_PARITY  0x8000
#define PCI_STATUS_DMA_ERRORS (PCI_STATUS_SIG_TARGET_ABORT | PCI_STATUS_REC_TARGET_ABORT | \
                               PCI_STATUS_REC_MASTER_ABORT | PCI_STATUS_DETECTED_PARITY)

#endif
