/* A PCI function through uio_pci_generic: BAR0 mapped from sysfs'
 * resource0, configuration space through sysfs, INTx through /dev/uioN (a
 * read returns the interrupt count).  The kernel masks INTx (the command
 * register's INTx Disable bit) each time it fires, and uio_pci_generic has
 * no irqcontrol: the driver unmasks by clearing the bit itself
 * (Documentation/driver-api/uio-howto.rst). */
#ifndef NICSIM_UIO_NIC_H
#define NICSIM_UIO_NIC_H
#include <stddef.h>
#include <stdint.h>
#include "hw_error.h"

struct uio_nic {
    int fd;                     /* /dev/uioN */
    int config_fd;              /* sysfs config, kept open for the unmask */
    volatile uint8_t *bar0;
    size_t bar0_len;
};

/* The closed state (no descriptor open): what uio_nic_close leaves, and
 * what a handle must hold before uio_nic_open or uio_nic_close. */
void uio_nic_init(struct uio_nic *u);
/* The device must be bound to uio_pci_generic. */
int uio_nic_open(struct uio_nic *u, const char *bdf, struct hw_error *e);
int uio_nic_unmask_intx(struct uio_nic *u);
void uio_nic_close(struct uio_nic *u);

#endif
