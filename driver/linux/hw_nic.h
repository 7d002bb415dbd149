/* One physical NIC function for the driver core, from Linux user space: the
 * struct plat_dev of the Linux backend (driver/linux/plat_linux.c).
 *
 * hw_nic_open finds the device, refuses one a kernel driver uses with an
 * interface up (unless forced), binds it to vfio-pci when it has an IOMMU
 * group and to uio_pci_generic otherwise, maps BAR0 and hugepage DMA memory
 * (IOVA or physical addresses), enables bus mastering and sets up the INTx
 * interrupt (or pure polling).  hw_nic_close masks and acknowledges the
 * NIC's interrupts, resets it and turns bus mastering off before the DMA
 * memory is returned, so the NIC can neither write into memory that has
 * gone back to the kernel nor hold a shared interrupt line asserted. */
#ifndef NICSIM_HW_NIC_H
#define NICSIM_HW_NIC_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "dma_hugepage.h"
#include "hw_error.h"
#include "pci_sysfs.h"
#include "uio_nic.h"
#include "vfio_nic.h"
#include "../port/nic_port.h"

enum hw_mode { HW_MODE_AUTO, HW_MODE_VFIO, HW_MODE_UIO };

struct hw_nic_opts {
    const char *spec;           /* PCI address or vendor:device[@N] (pci_resolve) */
    const struct nic_port_core *core;  /* the driver core the scenario runs on it */
    enum hw_mode mode;
    int poll;                   /* 1 = no interrupts: plat_irq_wait returns at once */
    int force;                  /* take the NIC even if its kernel interface is up */
    size_t dma_bytes;           /* hugepage memory for rings and buffers */
    int test_dma_fault;         /* vfio only: hand the driver device addresses 1 GiB
                                   above the mapped memory, so that every DMA is
                                   refused by the IOMMU (tests the DMA-fault report) */
    const volatile sig_atomic_t *stop;  /* set by a signal: plat_stop_requested (may be NULL) */
};

/* The IOVA at which vfio mode maps the DMA memory: below 4 GiB and clear of
 * the x86 interrupt window at 0xFEE00000 for any region under 3.7 GiB. */
#define HW_IOVA_BASE 0x10000000ull

struct plat_dev {
    char bdf[PCI_BDF_LEN];
    char ifname[8];             /* the scenario's port name, e.g. "eth0" */
    const struct nic_port_core *core;
    uint16_t vendor, device;
    enum hw_mode mode;          /* VFIO or UIO once open */
    int poll;
    char prev_driver[64];       /* the kernel driver it had, "" if none */
    volatile uint8_t *bar0;
    size_t bar0_len;
    struct dma_region dma;
    struct vfio_nic vfio;
    struct uio_nic uio;
    int irq_fd;                 /* what plat_irq_wait waits on; -1 when polling */
    int irq_masked;             /* the kernel masked INTx when it fired: unmask
                                   before the next wait */
    unsigned poll_next;         /* plat_irq_wait_any's turn when polling */
    uint64_t packets;           /* plat_count_packets */
    uint64_t irqs, irq_timeouts;
    int kmsg_fd;                /* the kernel log from open on: IOMMU fault reports */
    const volatile sig_atomic_t *stop;  /* hw_nic_opts.stop */
};

int hw_nic_open(struct plat_dev *d, const char *ifname, const struct hw_nic_opts *o, struct hw_error *e);
/* A DMA the platform refused since open: the IOMMU's fault report for this
 * device in the kernel log (DMAR / AMD-Vi), or the PCI status register's
 * abort/parity bits.  1 with a description in why, 0 when none. */
int hw_nic_dma_fault(struct plat_dev *d, char *why, size_t n);
void hw_nic_close(struct plat_dev *d);
const char *hw_mode_name(enum hw_mode m);

#endif
