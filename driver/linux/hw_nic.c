/* Opening a physical NIC function for the driver core; see hw_nic.h. */
#include "hw_nic.h"
#include "../plat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *hw_mode_name(enum hw_mode m)
{
    return m == HW_MODE_VFIO ? "vfio" : m == HW_MODE_UIO ? "uio" : "auto";
}

static int config_read(struct plat_dev *d, unsigned off, uint16_t *v, struct hw_error *e)
{
    return d->mode == HW_MODE_VFIO ? vfio_nic_config_read16(&d->vfio, off, v, e)
                                   : pci_config_read16(d->bdf, off, v, e);
}

static int config_write(struct plat_dev *d, unsigned off, uint16_t v, struct hw_error *e)
{
    return d->mode == HW_MODE_VFIO ? vfio_nic_config_write16(&d->vfio, off, v, e)
                                   : pci_config_write16(d->bdf, off, v, e);
}

/* Who may take the device: nobody, a user-space driver's stub, or a kernel
 * driver whose interfaces are all down (or --force). */
static int check_not_in_use(struct plat_dev *d, const struct hw_nic_opts *o, struct hw_error *e)
{
    char drv[64], ifname[64];
    if (!pci_driver(d->bdf, drv, sizeof drv))
        return 0;
    if (!strcmp(drv, "vfio-pci") || !strcmp(drv, "uio_pci_generic"))
        return 0;
    snprintf(d->prev_driver, sizeof d->prev_driver, "%s", drv);
    if (pci_net_up(d->bdf, ifname, sizeof ifname) && !o->force)
        return hw_fail(e, HW_NOT_READY, "%s: in use: the kernel driver %s has interface %s up; take it down "
                       "first (ip link set %s down) or pass --force", d->bdf, drv, ifname, ifname);
    return 0;
}

static int open_vfio(struct plat_dev *d, int group, const struct hw_nic_opts *o, struct hw_error *e)
{
    if (pci_bind(d->bdf, "vfio-pci", e) != 0 || vfio_nic_open(&d->vfio, d->bdf, group, e) != 0)
        return -1;
    d->bar0 = d->vfio.bar0;
    d->bar0_len = d->vfio.bar0_len;
    if (vfio_nic_map_dma(&d->vfio, d->dma.va, d->dma.size, HW_IOVA_BASE, e) != 0)
        return -1;
    dma_region_use_iova(&d->dma, HW_IOVA_BASE + (o->test_dma_fault ? 1ull << 30 : 0));
    if (!o->poll) {
        if (vfio_nic_enable_intx(&d->vfio, e) != 0)
            return -1;
        d->irq_fd = d->vfio.irq_fd;
    }
    return 0;
}

static int open_uio(struct plat_dev *d, const struct hw_nic_opts *o, struct hw_error *e)
{
    if (pci_bind(d->bdf, "uio_pci_generic", e) != 0 || uio_nic_open(&d->uio, d->bdf, e) != 0)
        return -1;
    d->bar0 = d->uio.bar0;
    d->bar0_len = d->uio.bar0_len;
    if (dma_region_use_physical(&d->dma, e) != 0)
        return -1;
    if (!o->poll)
        d->irq_fd = d->uio.fd;
    return 0;
}

int hw_nic_open(struct plat_dev *d, const char *ifname, const struct hw_nic_opts *o, struct hw_error *e)
{
    memset(d, 0, sizeof *d);
    d->irq_fd = d->kmsg_fd = -1;
    vfio_nic_init(&d->vfio);
    uio_nic_init(&d->uio);
    d->poll = o->poll;
    d->core = o->core;
    d->stop = o->stop;
    snprintf(d->ifname, sizeof d->ifname, "%s", ifname);
    if (geteuid() != 0)
        return hw_fail(e, HW_NOT_READY, "nicsim-hw must run as root: it binds the NIC to vfio-pci or "
                       "uio_pci_generic, maps its registers and pins DMA memory");
    if (pci_resolve(o->spec, d->bdf, e) != 0 || pci_read_id(d->bdf, &d->vendor, &d->device, e) != 0)
        return -1;
    if (!nic_port_core_drives(o->core, d->vendor, d->device))
        return hw_fail(e, HW_NOT_READY, "%s: device %04x:%04x is not an %s (%s core); the scenario's nic.model "
                       "needs an Intel %s (8086:%04x, 8086:%04x, ...)", d->bdf, d->vendor, d->device, o->core->parts,
                       o->core->name, o->core->parts, o->core->pci_ids[0], o->core->pci_ids[1]);
    if (check_not_in_use(d, o, e) != 0)
        return -1;
    int group = pci_iommu_group(d->bdf);
    d->mode = o->mode;
    if (d->mode == HW_MODE_AUTO)
        d->mode = group >= 0 ? HW_MODE_VFIO : HW_MODE_UIO;
    if (o->test_dma_fault && d->mode != HW_MODE_VFIO)
        return hw_fail(e, HW_BAD_INPUT, "%s: --test-dma-fault needs vfio mode: without an IOMMU the NIC "
                       "would write to whatever physical memory the bad addresses name", d->bdf);
    if (d->mode == HW_MODE_VFIO && group < 0)
        return hw_fail(e, HW_NOT_READY, "%s: no IOMMU group, so no vfio: enable the IOMMU (intel_iommu=on or "
                       "amd_iommu=on on the kernel command line) or use --mode uio", d->bdf);
    if (d->mode == HW_MODE_VFIO) {
        /* refuse before the NIC leaves its driver, not after */
        char b[512];
        if (pci_group_blockers(group, d->bdf, b, sizeof b))
            return hw_fail(e, HW_NOT_READY, "%s: IOMMU group %d is not viable: every device in it must be bound "
                           "to vfio-pci or to no driver; bound elsewhere: %s", d->bdf, group, b);
    }
    if (dma_region_map(&d->dma, o->dma_bytes, e) != 0)
        return -1;
    if ((d->mode == HW_MODE_VFIO ? open_vfio(d, group, o, e) : open_uio(d, o, e)) != 0)
        return -1;

    /* the kernel log from here on, for the IOMMU's fault reports (only
     * records written after this point are read) */
    d->kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (d->kmsg_fd >= 0)
        lseek(d->kmsg_fd, 0, SEEK_END);

    /* memory decoding and bus mastering on (QEMU and real bridges drop the
     * NIC's DMA without the latter); the status register's error bits are
     * cleared (write 1) so hw_nic_dma_fault sees only this run's */
    uint16_t cmd;
    if (config_read(d, PCI_COMMAND, &cmd, e) != 0 ||
        config_write(d, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, e) != 0 ||
        config_write(d, PCI_STATUS, PCI_STATUS_DMA_ERRORS, e) != 0)
        return -1;
    return 0;
}

/* An IOMMU fault record of the kernel log that names the device: Intel's
 * "DMAR: [DMA Read ...] Request device [00:04.0] fault addr ..." or AMD's
 * "AMD-Vi: Event logged [IO_PAGE_FAULT device=00:04.0 ...]". */
static int kmsg_fault(struct plat_dev *d, char *why, size_t n)
{
    char short_bdf[16], rec[1024];
    snprintf(short_bdf, sizeof short_bdf, "%s", d->bdf + 5);   /* "00:04.0" */
    int found = 0;
    ssize_t r;
    while (d->kmsg_fd >= 0 && (r = read(d->kmsg_fd, rec, sizeof rec - 1)) != 0) {
        if (r < 0) {
            if (errno == EPIPE)      /* records overwritten meanwhile: go on */
                continue;
            break;                   /* EAGAIN: no more */
        }
        rec[r] = 0;
        char *msg = strchr(rec, ';');
        msg = msg ? msg + 1 : rec;
        msg[strcspn(msg, "\n")] = 0;
        if (!found && strstr(msg, short_bdf) && (strstr(msg, "DMAR") || strstr(msg, "AMD-Vi")) &&
            (strstr(msg, "fault") || strstr(msg, "FAULT"))) {
            snprintf(why, n, "the IOMMU refused the NIC's DMA: kernel log: %s", msg);
            found = 1;
        }
    }
    return found;
}

int hw_nic_dma_fault(struct plat_dev *d, char *why, size_t n)
{
    if (kmsg_fault(d, why, n))
        return 1;
    uint16_t st = 0;
    struct hw_error e;
    if (config_read(d, PCI_STATUS, &st, &e) != 0 || !(st & PCI_STATUS_DMA_ERRORS))
        return 0;
    snprintf(why, n, "PCI status 0x%04x (%s%s%s): a DMA was refused, e.g. an address outside the mapped memory",
             st, st & PCI_STATUS_REC_MASTER_ABORT ? "master abort " : "",
             st & (PCI_STATUS_REC_TARGET_ABORT | PCI_STATUS_SIG_TARGET_ABORT) ? "target abort " : "",
             st & PCI_STATUS_DETECTED_PARITY ? "parity error" : "");
    return 1;
}

void hw_nic_close(struct plat_dev *d)
{
    struct hw_error e;
    if (d->bar0) {
        /* Interrupts masked and the cause read (which deasserts the line)
         * before the reset: a line left asserted with nobody's handler on
         * it is an interrupt storm for whoever shares it (without this, the
         * make hil guest's vfio run saw "irq 20: nobody cared" after a NIC
         * on that line was closed).  Then the reset stops every DMA engine
         * before the memory goes back to the kernel. */
        d->core->quiesce(d);
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        uint16_t cmd;
        if (config_read(d, PCI_COMMAND, &cmd, &e) == 0)
            config_write(d, PCI_COMMAND, cmd & (uint16_t)~PCI_COMMAND_MASTER, &e);
    }
    if (d->mode == HW_MODE_VFIO)
        vfio_nic_close(&d->vfio);
    else
        uio_nic_close(&d->uio);
    dma_region_unmap(&d->dma);
    if (d->kmsg_fd >= 0)
        close(d->kmsg_fd);
    d->kmsg_fd = -1;
    d->bar0 = NULL;
}
