/* uio_pci_generic; see uio_nic.h. */
#include "uio_nic.h"
#include "pci_sysfs.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void uio_nic_init(struct uio_nic *u)
{
    memset(u, 0, sizeof *u);
    u->fd = u->config_fd = -1;
}

int uio_nic_open(struct uio_nic *u, const char *bdf, struct hw_error *e)
{
    uio_nic_init(u);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/bus/pci/devices/%s/uio", pci_sysfs_root, bdf);
    DIR *d = opendir(p);
    if (!d)
        return hw_fail(e, HW_NOT_READY, "%s: no uio device (is it bound to uio_pci_generic?)", bdf);
    char name[256] = "";
    struct dirent *de;
    while ((de = readdir(d)))
        if (!strncmp(de->d_name, "uio", 3))
            snprintf(name, sizeof name, "%s", de->d_name);
    closedir(d);
    if (!name[0])
        return hw_fail(e, HW_NOT_READY, "%s: no uio device under %s", bdf, p);
    snprintf(p, sizeof p, "/dev/%.200s", name);
    u->fd = open(p, O_RDWR | O_CLOEXEC);
    if (u->fd < 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot open %s: %s", bdf, p, strerror(errno));

    snprintf(p, sizeof p, "%s/bus/pci/devices/%s/config", pci_sysfs_root, bdf);
    u->config_fd = open(p, O_RDWR | O_CLOEXEC);
    if (u->config_fd < 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot open %s: %s", bdf, p, strerror(errno));

    snprintf(p, sizeof p, "%s/bus/pci/devices/%s/resource0", pci_sysfs_root, bdf);
    int fd = open(p, O_RDWR | O_SYNC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        return hw_fail(e, HW_NOT_READY, "%s: cannot open BAR0 (%s): %s", bdf, p, strerror(err));
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (m == MAP_FAILED)
        return hw_fail(e, HW_NOT_READY, "%s: mmap of BAR0: %s", bdf, strerror(err));
    u->bar0 = m;
    u->bar0_len = (size_t)st.st_size;
    return 0;
}

/* Clear INTx Disable (bit 10) with a 16-bit write of the whole command
 * register: QEMU re-evaluates the interrupt line only on a write that
 * covers byte 4, so the UIO HOWTO's one-byte write to byte 5 clears the bit
 * but leaves a pending interrupt undelivered (seen with QEMU 7.2's e1000:
 * one interrupt, then none). */
int uio_nic_unmask_intx(struct uio_nic *u)
{
    uint16_t cmd;
    if (pread(u->config_fd, &cmd, 2, PCI_COMMAND) != 2)
        return -1;
    cmd &= (uint16_t)~PCI_COMMAND_INTX_DISABLE;
    return pwrite(u->config_fd, &cmd, 2, PCI_COMMAND) == 2 ? 0 : -1;
}

void uio_nic_close(struct uio_nic *u)
{
    if (u->bar0)
        munmap((void *)u->bar0, u->bar0_len);
    if (u->fd >= 0)
        close(u->fd);
    if (u->config_fd >= 0)
        close(u->config_fd);
    uio_nic_init(u);
}
