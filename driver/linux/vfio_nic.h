/* A PCI function through VFIO (vfio-pci with a type-1 IOMMU container):
 * BAR0 mapped, configuration space, DMA memory mapped at an IOVA, and the
 * legacy INTx interrupt delivered to an eventfd. */
#ifndef NICSIM_VFIO_NIC_H
#define NICSIM_VFIO_NIC_H
#include <stddef.h>
#include <stdint.h>
#include "hw_error.h"

struct vfio_nic {
    int container, group, device;
    int irq_fd;                 /* eventfd of INTx, -1 before vfio_nic_enable_intx */
    volatile uint8_t *bar0;
    size_t bar0_len;
    uint64_t config_off;        /* the configuration-space region in the device fd */
};

/* The closed state (no descriptor open): what vfio_nic_close leaves, and
 * what a handle must hold before vfio_nic_open or vfio_nic_close. */
void vfio_nic_init(struct vfio_nic *v);
/* Open group group_no (the device must be bound to vfio-pci), check that it
 * is viable (every device of the group bound to vfio-pci or to no driver;
 * the message names those that are not), set up a type-1 container, get
 * the device and map its BAR0. */
int vfio_nic_open(struct vfio_nic *v, const char *bdf, int group_no, struct hw_error *e);
/* Map [va, va + size) for the device at iova. */
int vfio_nic_map_dma(struct vfio_nic *v, void *va, size_t size, uint64_t iova, struct hw_error *e);
int vfio_nic_config_read16(struct vfio_nic *v, unsigned off, uint16_t *val, struct hw_error *e);
int vfio_nic_config_write16(struct vfio_nic *v, unsigned off, uint16_t val, struct hw_error *e);
/* INTx to an eventfd (v->irq_fd).  VFIO masks INTx when it fires; unmask
 * before each wait. */
int vfio_nic_enable_intx(struct vfio_nic *v, struct hw_error *e);
int vfio_nic_unmask_intx(struct vfio_nic *v);
void vfio_nic_close(struct vfio_nic *v);

#endif
