/* PCI devices through sysfs; see pci_sysfs.h. */
#include "pci_sysfs.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pci_sysfs_root = "/sys";

static void dev_path(char *out, size_t n, const char *bdf, const char *file)
{
    snprintf(out, n, "%s/bus/pci/devices/%s%s%s", pci_sysfs_root, bdf, file ? "/" : "", file ? file : "");
}

/* The first line of a small sysfs file, without its newline; -1 on error. */
static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *ok = fgets(buf, (int)n, f);
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

static int write_str(const char *path, const char *s, struct hw_error *e, const char *what)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot open %s: %s", what, path, strerror(errno));
    ssize_t w = write(fd, s, strlen(s));
    int err = errno;
    close(fd);
    if (w != (ssize_t)strlen(s))
        return hw_fail(e, HW_NOT_READY, "%s: writing '%s' to %s failed: %s", what, s, path,
                       w < 0 ? strerror(err) : "short write");
    return 0;
}

static int hex_attr(const char *bdf, const char *file, unsigned *v)
{
    char p[PATH_MAX], b[32];
    dev_path(p, sizeof p, bdf, file);
    if (read_line(p, b, sizeof b) != 0)
        return -1;
    char *end;
    unsigned long x = strtoul(b, &end, 16);
    if (end == b)
        return -1;
    *v = (unsigned)x;
    return 0;
}

int pci_read_id(const char *bdf, uint16_t *vendor, uint16_t *device, struct hw_error *e)
{
    unsigned v, d;
    if (hex_attr(bdf, "vendor", &v) != 0 || hex_attr(bdf, "device", &d) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot read its vendor/device ID from sysfs", bdf);
    *vendor = (uint16_t)v;
    *device = (uint16_t)d;
    return 0;
}

/* 1..max hex digits at *s (no sign, no 0x, no space: sscanf's %x would take
 * "-1" as 0xffffffff): 1 and *s past them, else 0. */
static int hex_digits(const char **s, int max, unsigned *out)
{
    int n = 0;
    *out = 0;
    for (; n < max && isxdigit((unsigned char)(*s)[n]); n++) {
        int c = tolower((unsigned char)(*s)[n]);
        *out = *out * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    *s += n;
    return n > 0;
}

int pci_spec_valid(const char *spec)
{
    const char *s = spec;
    unsigned a, b, c, d;
    /* vendor:device[@N] */
    if (hex_digits(&s, 4, &a) && *s == ':' && (s++, hex_digits(&s, 4, &b)) && (!*s || *s == '@')) {
        if (!*s)
            return 1;
        s++;
        int n = 0;
        while (n < 6 && isdigit((unsigned char)s[n]))
            n++;
        return n > 0 && !s[n];
    }
    /* [DDDD:]BB:DD.F */
    s = spec;
    int colons = 0;
    for (const char *q = spec; *q; q++)
        colons += *q == ':';
    if (colons == 2 && !(hex_digits(&s, 4, &a) && *s++ == ':'))
        return 0;
    return (colons == 1 || colons == 2) && hex_digits(&s, 2, &b) && *s++ == ':' && hex_digits(&s, 2, &c) &&
           c <= 0x1f && *s++ == '.' && hex_digits(&s, 1, &d) && d <= 7 && !*s;
}

/* "DDDD:BB:DD.F" or "BB:DD.F" (domain 0): 1 and the parts, else 0. */
static int parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *slot, unsigned *fn)
{
    char tail;
    if (sscanf(s, "%4x:%2x:%2x.%1x%c", dom, bus, slot, fn, &tail) == 4)
        return 1;
    *dom = 0;
    return sscanf(s, "%2x:%2x.%1x%c", bus, slot, fn, &tail) == 3;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every device address under /sys/bus/pci/devices, sorted; count in *n. */
static char **list_devices(int *n)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/bus/pci/devices", pci_sysfs_root);
    *n = 0;
    DIR *d = opendir(p);
    if (!d)
        return NULL;
    char **v = NULL;
    int cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[(*n)++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(v, (size_t)*n, sizeof *v, cmp_str);
    return v;
}

/* Append one entry to a ", "-separated list in out[n] that holds *used
 * characters; an entry that does not fit is cut and the list is then full. */
static void list_add(char *out, size_t n, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void list_add(char *out, size_t n, size_t *used, const char *fmt, ...)
{
    char entry[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(entry, sizeof entry, fmt, ap);
    va_end(ap);
    if (*used + 1 >= n)
        return;
    int w = snprintf(out + *used, n - *used, "%s%s", *used ? ", " : "", entry);
    *used = w < 0 || (size_t)w >= n - *used ? n - 1 : *used + (size_t)w;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* "0000:00:04.0 8086:100f, ..." of the network controllers (class 0x02),
 * for a message that tells the user what there is. */
static void net_devices(char *out, size_t n)
{
    int cnt;
    char **v = list_devices(&cnt);
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < cnt; i++) {
        unsigned cls;
        uint16_t ven, dev;
        struct hw_error e;
        if (hex_attr(v[i], "class", &cls) != 0 || (cls >> 16) != 0x02 || pci_read_id(v[i], &ven, &dev, &e))
            continue;
        list_add(out, n, &used, "%s %04x:%04x", v[i], ven, dev);
    }
    if (!used)
        snprintf(out, n, "none");
    free_list(v, cnt);
}

int pci_resolve(const char *spec, char bdf[PCI_BDF_LEN], struct hw_error *e)
{
    char seen[512];
    unsigned dom, bus, slot, fn;
    if (!pci_spec_valid(spec))
        return hw_fail(e, HW_BAD_INPUT, "'%s': expected a PCI address (0000:00:04.0) or "
                       "vendor:device[@N] (8086:100f, 8086:100f@1)", spec);
    if (parse_bdf(spec, &dom, &bus, &slot, &fn)) {
        snprintf(bdf, PCI_BDF_LEN, "%04x:%02x:%02x.%x", dom, bus, slot, fn);
        char p[PATH_MAX];
        dev_path(p, sizeof p, bdf, NULL);
        if (access(p, F_OK) != 0) {
            net_devices(seen, sizeof seen);
            return hw_fail(e, HW_NOT_READY, "%s: no such PCI device (network devices here: %s)", bdf, seen);
        }
        return 0;
    }
    unsigned ven, dev, nth = 0;
    char tail;
    int k = sscanf(spec, "%4x:%4x@%u%c", &ven, &dev, &nth, &tail);
    if (!(k == 3 || (sscanf(spec, "%4x:%4x%c", &ven, &dev, &tail) == 2 && !strchr(spec, '@'))))
        return hw_fail(e, HW_BAD_INPUT, "'%s': expected a PCI address (0000:00:04.0) or "
                       "vendor:device[@N] (8086:100f, 8086:100f@1)", spec);
    int cnt;
    char **v = list_devices(&cnt);
    unsigned found = 0;
    int ok = 0;
    for (int i = 0; i < cnt && !ok; i++) {
        uint16_t a, b;
        struct hw_error ignore;
        if (pci_read_id(v[i], &a, &b, &ignore) == 0 && a == ven && b == dev && found++ == nth) {
            snprintf(bdf, PCI_BDF_LEN, "%s", v[i]);
            ok = 1;
        }
    }
    free_list(v, cnt);
    if (!ok) {
        net_devices(seen, sizeof seen);
        return hw_fail(e, HW_NOT_READY, "%s: %s (network devices here: %s)", spec,
                       found ? "fewer devices with this ID than asked for" : "no device with this ID", seen);
    }
    return 0;
}

int pci_driver(const char *bdf, char *name, size_t n)
{
    char p[PATH_MAX], target[PATH_MAX];
    dev_path(p, sizeof p, bdf, "driver");
    ssize_t l = readlink(p, target, sizeof target - 1);
    if (l < 0)
        return 0;
    target[l] = 0;
    const char *base = strrchr(target, '/');
    snprintf(name, n, "%s", base ? base + 1 : target);
    return 1;
}

int pci_net_up(const char *bdf, char *ifname, size_t n)
{
    char p[PATH_MAX];
    dev_path(p, sizeof p, bdf, "net");
    DIR *d = opendir(p);
    if (!d)
        return 0;
    struct dirent *de;
    int up = 0;
    while (!up && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char fp[PATH_MAX + 300], b[32];
        snprintf(fp, sizeof fp, "%s/%s/flags", p, de->d_name);
        if (read_line(fp, b, sizeof b) == 0 && (strtoul(b, NULL, 16) & 0x1)) {
            snprintf(ifname, n, "%s", de->d_name);
            up = 1;
        }
    }
    closedir(d);
    return up;
}

int pci_unbind(const char *bdf, struct hw_error *e)
{
    char p[PATH_MAX], drv[64];
    if (!pci_driver(bdf, drv, sizeof drv))
        return 0;
    dev_path(p, sizeof p, bdf, "driver/unbind");
    return write_str(p, bdf, e, bdf);
}

int pci_bind(const char *bdf, const char *driver, struct hw_error *e)
{
    char p[PATH_MAX], cur[64];
    if (pci_driver(bdf, cur, sizeof cur) && !strcmp(cur, driver))
        return 0;
    snprintf(p, sizeof p, "%s/bus/pci/drivers/%s", pci_sysfs_root, driver);
    if (access(p, F_OK) != 0)
        return hw_fail(e, HW_NOT_READY, "%s: the kernel driver %s is not loaded (modprobe %s)", bdf, driver,
                       driver);
    if (pci_unbind(bdf, e) != 0)
        return -1;
    dev_path(p, sizeof p, bdf, "driver_override");
    if (write_str(p, driver, e, bdf) != 0)
        return -1;
    snprintf(p, sizeof p, "%s/bus/pci/drivers_probe", pci_sysfs_root);
    if (write_str(p, bdf, e, bdf) != 0)
        return -1;
    if (!pci_driver(bdf, cur, sizeof cur) || strcmp(cur, driver))
        return hw_fail(e, HW_NOT_READY, "%s: %s did not take the device (see dmesg)", bdf, driver);
    return 0;
}

int pci_iommu_group(const char *bdf)
{
    char p[PATH_MAX], target[PATH_MAX];
    dev_path(p, sizeof p, bdf, "iommu_group");
    ssize_t l = readlink(p, target, sizeof target - 1);
    if (l < 0)
        return -1;
    target[l] = 0;
    const char *base = strrchr(target, '/');
    return atoi(base ? base + 1 : target);
}

int pci_group_blockers(int group, const char *except, char *out, size_t n)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/kernel/iommu_groups/%d/devices", pci_sysfs_root, group);
    out[0] = 0;
    DIR *d = opendir(p);
    if (!d)
        return 0;
    size_t used = 0;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char drv[64];
        if (de->d_name[0] == '.' || (except && !strcmp(de->d_name, except)) ||
            !pci_driver(de->d_name, drv, sizeof drv) || !strcmp(drv, "vfio-pci") || !strcmp(drv, "pci-stub") ||
            !strcmp(drv, "pcieport"))
            continue;
        count++;
        list_add(out, n, &used, "%s (%s)", de->d_name, drv);
    }
    closedir(d);
    return count;
}

static int config_io(const char *bdf, unsigned off, uint16_t *v, int write, struct hw_error *e)
{
    char p[PATH_MAX];
    dev_path(p, sizeof p, bdf, "config");
    int fd = open(p, write ? O_RDWR : O_RDONLY);
    if (fd < 0)
        return hw_fail(e, HW_NOT_READY, "%s: cannot open its configuration space %s: %s", bdf, p,
                       strerror(errno));
    ssize_t r = write ? pwrite(fd, v, 2, off) : pread(fd, v, 2, off);
    int err = errno;
    close(fd);
    if (r != 2)
        return hw_fail(e, HW_NOT_READY, "%s: configuration space %s at 0x%x failed: %s", bdf,
                       write ? "write" : "read", off, r < 0 ? strerror(err) : "short");
    return 0;
}

int pci_config_read16(const char *bdf, unsigned off, uint16_t *v, struct hw_error *e)
{
    return config_io(bdf, off, v, 0, e);
}

int pci_config_write16(const char *bdf, unsigned off, uint16_t v, struct hw_error *e)
{
    return config_io(bdf, off, &v, 1, e);
}
