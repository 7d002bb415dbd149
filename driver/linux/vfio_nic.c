/* VFIO; see vfio_nic.h.  The calls follow the kernel's
 * Documentation/driver-api/vfio.rst example. */
#include "vfio_nic.h"
#include "pci_sysfs.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

void vfio_nic_init(struct vfio_nic *v)
{
    memset(v, 0, sizeof *v);
    v->container = v->group = v->device = v->irq_fd = -1;
}

int vfio_nic_open(struct vfio_nic *v, const char *bdf, int group_no, struct hw_error *e)
{
    vfio_nic_init(v);
    v->container = open("/dev/vfio/vfio", O_RDWR);
    if (v->container < 0)
        return hw_fail(e, HW_NOT_READY, "cannot open /dev/vfio/vfio: %s (modprobe vfio-pci)", strerror(errno));
    if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
        !ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU))
        return hw_fail(e, HW_NOT_READY, "VFIO: this kernel offers no type-1 IOMMU");
    char p[64];
    snprintf(p, sizeof p, "/dev/vfio/%d", group_no);
    v->group = open(p, O_RDWR);
    if (v->group < 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot open %s: %s%s", bdf, p, strerror(errno),
                       errno == EBUSY ? " (another process holds the group)" : "");
    struct vfio_group_status gs = { .argsz = sizeof gs };
    if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &gs) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: VFIO_GROUP_GET_STATUS: %s", bdf, strerror(errno));
    if (!(gs.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        char b[512];
        pci_group_blockers(group_no, bdf, b, sizeof b);
        return hw_fail(e, HW_NOT_READY, "%s: IOMMU group %d is not viable: every device in it must be bound "
                       "to vfio-pci or to no driver; bound elsewhere: %s", bdf, group_no, b[0] ? b : "(none listed)");
    }
    if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: VFIO_GROUP_SET_CONTAINER: %s", bdf, strerror(errno));
    if (ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: VFIO_SET_IOMMU: %s (without interrupt remapping the kernel "
                       "refuses unless vfio_iommu_type1 is loaded with allow_unsafe_interrupts=1)",
                       bdf, strerror(errno));
    v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, bdf);
    if (v->device < 0)
        return hw_fail(e, HW_NOT_READY, "%s: VFIO_GROUP_GET_DEVICE_FD: %s", bdf, strerror(errno));

    struct vfio_region_info bar = { .argsz = sizeof bar, .index = VFIO_PCI_BAR0_REGION_INDEX };
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &bar) != 0 || !(bar.flags & VFIO_REGION_INFO_FLAG_MMAP))
        return hw_fail(e, HW_NOT_READY, "%s: BAR0 cannot be mapped through VFIO", bdf);
    void *m = mmap(NULL, bar.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, (off_t)bar.offset);
    if (m == MAP_FAILED)
        return hw_fail(e, HW_NOT_READY, "%s: mmap of BAR0: %s", bdf, strerror(errno));
    v->bar0 = m;
    v->bar0_len = bar.size;
    struct vfio_region_info cfg = { .argsz = sizeof cfg, .index = VFIO_PCI_CONFIG_REGION_INDEX };
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: no configuration-space region: %s", bdf, strerror(errno));
    v->config_off = cfg.offset;
    return 0;
}

int vfio_nic_map_dma(struct vfio_nic *v, void *va, size_t size, uint64_t iova, struct hw_error *e)
{
    struct vfio_iommu_type1_dma_map m = {
        .argsz = sizeof m,
        .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
        .vaddr = (uint64_t)(uintptr_t)va,
        .iova = iova,
        .size = size,
    };
    if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &m) != 0)
        return hw_fail(e, HW_NOT_READY, "VFIO_IOMMU_MAP_DMA of %zu bytes at IOVA 0x%llx: %s", size,
                       (unsigned long long)iova, strerror(errno));
    return 0;
}

static int config_io(struct vfio_nic *v, unsigned off, uint16_t *val, int write, struct hw_error *e)
{
    ssize_t r = write ? pwrite(v->device, val, 2, (off_t)(v->config_off + off))
                      : pread(v->device, val, 2, (off_t)(v->config_off + off));
    if (r != 2)
        return hw_fail(e, HW_NOT_READY, "VFIO configuration space %s at 0x%x: %s", write ? "write" : "read", off,
                       r < 0 ? strerror(errno) : "short");
    return 0;
}

int vfio_nic_config_read16(struct vfio_nic *v, unsigned off, uint16_t *val, struct hw_error *e)
{
    return config_io(v, off, val, 0, e);
}

int vfio_nic_config_write16(struct vfio_nic *v, unsigned off, uint16_t val, struct hw_error *e)
{
    return config_io(v, off, &val, 1, e);
}

/* VFIO_DEVICE_SET_IRQS on INTx with an action and, for a trigger, the fd. */
static int set_intx(struct vfio_nic *v, uint32_t flags, int fd)
{
    char buf[sizeof(struct vfio_irq_set) + sizeof(int32_t)];
    struct vfio_irq_set *s = (struct vfio_irq_set *)buf;
    memset(buf, 0, sizeof buf);
    s->argsz = sizeof buf;
    s->flags = flags;
    s->index = VFIO_PCI_INTX_IRQ_INDEX;
    s->start = 0;
    s->count = 1;
    if (flags & VFIO_IRQ_SET_DATA_EVENTFD)
        memcpy(s->data, &fd, sizeof(int32_t));
    else
        s->argsz = sizeof *s;
    return ioctl(v->device, VFIO_DEVICE_SET_IRQS, s);
}

int vfio_nic_enable_intx(struct vfio_nic *v, struct hw_error *e)
{
    v->irq_fd = eventfd(0, EFD_CLOEXEC);
    if (v->irq_fd < 0)
        return hw_fail(e, HW_NOT_READY, "eventfd: %s", strerror(errno));
    if (set_intx(v, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER, v->irq_fd) != 0)
        return hw_fail(e, HW_NOT_READY, "VFIO: INTx to an eventfd: %s", strerror(errno));
    return 0;
}

int vfio_nic_unmask_intx(struct vfio_nic *v)
{
    return set_intx(v, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK, -1);
}

void vfio_nic_close(struct vfio_nic *v)
{
    if (v->bar0)
        munmap((void *)v->bar0, v->bar0_len);
    if (v->irq_fd >= 0)
        close(v->irq_fd);
    if (v->device >= 0)
        close(v->device);
    if (v->group >= 0)
        close(v->group);
    if (v->container >= 0)
        close(v->container);
    vfio_nic_init(v);
}
