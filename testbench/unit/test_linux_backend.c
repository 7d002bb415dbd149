/* Unit tests of the Linux user-space backend's parts that need no NIC
 * (driver/linux): the sysfs queries over a sysfs tree the test builds
 * (pci_sysfs_root), the device-ID check, and the hugepage region's
 * allocator over ordinary memory.  The NIC itself is exercised by
 * `make hil` against QEMU's e1000. */
#include "gtest_cunit.h"
#include "../../driver/linux/dma_hugepage.h"
#include "../../driver/linux/hw_nic.h"
#include "../../driver/port/port_e1000.h"
#include "../../driver/port/port_ixgbe.h"
#include "../../driver/linux/pci_sysfs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* Build the tree in the suite's setup (no assertions there: CUnit has no
 * test running yet); a failure fails the suite. */
static int put(const char *rel, const char *text)
{
    char p[512], cmd[600];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", p);
    if (system(cmd) != 0)
        return -1;
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int link_to(const char *rel, const char *target)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    return symlink(target, p);
}

/* Four devices: two 82545EM (one driven by the kernel's e1000 with eth3
 * up, one free in IOMMU group 7), a virtio NIC, and an audio function in
 * group 7 on its kernel driver. */
static int make_tree(void)
{
    snprintf(root, sizeof root, "/tmp/nicsim-sysfs-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    const char *d4 = "bus/pci/devices/0000:00:04.0/", *d5 = "bus/pci/devices/0000:00:05.0/",
               *d3 = "bus/pci/devices/0000:00:03.0/";
    char p[256];
    int rc = 0;
#define AT(d, f) (snprintf(p, sizeof p, "%s%s", d, f), p)
    rc |= put(AT(d3, "vendor"), "0x1af4\n");
    rc |= put(AT(d3, "device"), "0x1041\n");
    rc |= put(AT(d3, "class"), "0x020000\n");
    rc |= put(AT(d4, "vendor"), "0x8086\n");
    rc |= put(AT(d4, "device"), "0x100f\n");
    rc |= put(AT(d4, "class"), "0x020000\n");
    rc |= put(AT(d4, "net/eth3/flags"), "0x1003\n");
    rc |= put(AT(d5, "vendor"), "0x8086\n");
    rc |= put(AT(d5, "device"), "0x100f\n");
    rc |= put(AT(d5, "class"), "0x020000\n");
    rc |= put(AT(d5, "net/eth4/flags"), "0x1002\n");
    rc |= put("bus/pci/drivers/e1000/placeholder", "");
    rc |= put("kernel/iommu_groups/7/placeholder", "");
    rc |= link_to(AT(d4, "driver"), "../../../bus/pci/drivers/e1000");
    rc |= link_to(AT(d5, "iommu_group"), "../../../kernel/iommu_groups/7");
    /* an audio function in NIC 05.0's IOMMU group, on its kernel driver */
    rc |= put("bus/pci/devices/0000:00:06.0/vendor", "0x8086\n");
    rc |= put("bus/pci/devices/0000:00:06.0/device", "0x293e\n");
    rc |= put("bus/pci/devices/0000:00:06.0/class", "0x040300\n");
    rc |= put("bus/pci/drivers/snd_hda_intel/placeholder", "");
    rc |= link_to("bus/pci/devices/0000:00:06.0/driver", "../../../bus/pci/drivers/snd_hda_intel");
    rc |= put("kernel/iommu_groups/7/devices/0000:00:05.0/placeholder", "");
    rc |= put("kernel/iommu_groups/7/devices/0000:00:06.0/placeholder", "");
#undef AT
    pci_sysfs_root = root;
    return rc ? -1 : 0;
}

static int remove_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    pci_sysfs_root = "/sys";
    return system(cmd) == 0 ? 0 : -1;
}

static void test_resolve(void)
{
    char bdf[PCI_BDF_LEN];
    struct hw_error e = { 0 };
    CU_ASSERT_EQUAL(pci_resolve("0000:00:04.0", bdf, &e), 0);
    CU_ASSERT_STRING_EQUAL(bdf, "0000:00:04.0");
    CU_ASSERT_EQUAL(pci_resolve("00:05.0", bdf, &e), 0);           /* domain 0 implied */
    CU_ASSERT_STRING_EQUAL(bdf, "0000:00:05.0");
    CU_ASSERT_EQUAL(pci_resolve("8086:100f", bdf, &e), 0);         /* first in address order */
    CU_ASSERT_STRING_EQUAL(bdf, "0000:00:04.0");
    CU_ASSERT_EQUAL(pci_resolve("8086:100f@1", bdf, &e), 0);
    CU_ASSERT_STRING_EQUAL(bdf, "0000:00:05.0");
}

static void test_resolve_errors(void)
{
    char bdf[PCI_BDF_LEN];
    struct hw_error e = { 0 };
    CU_ASSERT_EQUAL(pci_resolve("0000:00:09.0", bdf, &e), -1);
    CU_ASSERT_EQUAL(e.status, HW_NOT_READY);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no such PCI device"));
    /* the message lists what there is */
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "0000:00:03.0 1af4:1041, 0000:00:04.0 8086:100f"));
    CU_ASSERT_EQUAL(pci_resolve("8086:100f@2", bdf, &e), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "fewer devices with this ID"));
    CU_ASSERT_EQUAL(pci_resolve("8086:10fb", bdf, &e), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no device with this ID"));
    const char *bad[] = { "8086:zz", "eth0", "8086:100f@", "8086:100f@x", "" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CU_ASSERT_EQUAL(pci_resolve(bad[i], bdf, &e), -1);
        CU_ASSERT_EQUAL(e.status, HW_BAD_INPUT);
    }
}

static void test_driver_and_interfaces(void)
{
    char name[64];
    CU_ASSERT_EQUAL(pci_driver("0000:00:04.0", name, sizeof name), 1);
    CU_ASSERT_STRING_EQUAL(name, "e1000");
    CU_ASSERT_EQUAL(pci_driver("0000:00:05.0", name, sizeof name), 0);
    CU_ASSERT_EQUAL(pci_net_up("0000:00:04.0", name, sizeof name), 1);  /* flags 0x1003: IFF_UP */
    CU_ASSERT_STRING_EQUAL(name, "eth3");
    CU_ASSERT_EQUAL(pci_net_up("0000:00:05.0", name, sizeof name), 0);  /* 0x1002: down */
    CU_ASSERT_EQUAL(pci_iommu_group("0000:00:05.0"), 7);
    CU_ASSERT_EQUAL(pci_iommu_group("0000:00:04.0"), -1);
    uint16_t v, d;
    struct hw_error e;
    CU_ASSERT_EQUAL(pci_read_id("0000:00:03.0", &v, &d, &e), 0);
    CU_ASSERT_EQUAL(v, 0x1af4);
    CU_ASSERT_EQUAL(d, 0x1041);
}

/* vfio needs every other device of the group on vfio-pci or no driver. */
static void test_group_blockers(void)
{
    char b[256];
    CU_ASSERT_EQUAL(pci_group_blockers(7, "0000:00:05.0", b, sizeof b), 1);
    CU_ASSERT_STRING_EQUAL(b, "0000:00:06.0 (snd_hda_intel)");
    CU_ASSERT_EQUAL(pci_group_blockers(7, "0000:00:06.0", b, sizeof b), 0);   /* 05.0 has no driver */
    CU_ASSERT_EQUAL(pci_group_blockers(9, NULL, b, sizeof b), 0);             /* no such group */
}

/* Binding needs the driver loaded: a missing one is named with the fix. */
static void test_bind_needs_the_driver(void)
{
    struct hw_error e = { 0 };
    CU_ASSERT_EQUAL(pci_bind("0000:00:05.0", "vfio-pci", &e), -1);
    CU_ASSERT_EQUAL(e.status, HW_NOT_READY);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "modprobe vfio-pci"));
}

static void test_device_ids(void)
{
    CU_ASSERT(nic_port_core_drives(&port_e1000_core, 0x8086, 0x100f));   /* 82545EM copper (QEMU) */
    CU_ASSERT(nic_port_core_drives(&port_e1000_core, 0x8086, 0x1010));   /* 82546EB copper */
    CU_ASSERT(nic_port_core_drives(&port_ixgbe_core, 0x8086, 0x10fb));   /* 82599 SFP+ */
    CU_ASSERT(!nic_port_core_drives(&port_e1000_core, 0x8086, 0x10fb));
    CU_ASSERT(!nic_port_core_drives(&port_ixgbe_core, 0x8086, 0x100f));
    CU_ASSERT(!nic_port_core_drives(&port_e1000_core, 0x1af4, 0x100f));  /* not Intel */
}

/* The allocator over two "hugepages" of ordinary memory whose device
 * addresses are far apart, as physical pages are. */
static void test_dma_allocator(void)
{
    struct dma_region r = { 0 };
    r.size = 2 * DMA_HUGEPAGE_SIZE;
    r.pages = 2;
    r.va = aligned_alloc(DMA_HUGEPAGE_SIZE, r.size);
    uint64_t bus_pages[2] = { 0x40000000ull, 0x7fe00000ull };
    r.bus = bus_pages;
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.va);
    memset(r.va, 0xAA, r.size);
    uint64_t bus;
    uint8_t *a = dma_region_alloc(&r, 100, 64, &bus);
    CU_ASSERT_PTR_EQUAL(a, r.va);
    CU_ASSERT_EQUAL(bus, 0x40000000ull);
    CU_ASSERT_EQUAL(a[99], 0);                                   /* zeroed */
    uint8_t *b = dma_region_alloc(&r, 4096, 4096, &bus);
    CU_ASSERT_PTR_EQUAL(b, r.va + 4096);                         /* aligned */
    CU_ASSERT_EQUAL(bus, 0x40001000ull);
    /* does not fit in the rest of the first page: starts the second */
    uint8_t *c = dma_region_alloc(&r, DMA_HUGEPAGE_SIZE - 4096, 64, &bus);
    CU_ASSERT_PTR_EQUAL(c, r.va + DMA_HUGEPAGE_SIZE);
    CU_ASSERT_EQUAL(bus, 0x7fe00000ull);
    uint8_t *d = dma_region_alloc(&r, 4096, 8, &bus);
    CU_ASSERT_PTR_EQUAL(d, r.va + 2 * DMA_HUGEPAGE_SIZE - 4096);
    CU_ASSERT_EQUAL(bus, 0x7fe00000ull + DMA_HUGEPAGE_SIZE - 4096);
    CU_ASSERT_PTR_NULL(dma_region_alloc(&r, 8, 8, &bus));        /* full */
    CU_ASSERT_PTR_NULL(dma_region_alloc(&r, DMA_HUGEPAGE_SIZE + 1, 8, &bus));
    free(r.va);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("LinuxSysfs", make_tree, remove_tree);
    CU_add_test(s, "Resolve", test_resolve);
    CU_add_test(s, "ResolveErrors", test_resolve_errors);
    CU_add_test(s, "DriverAndInterfaces", test_driver_and_interfaces);
    CU_add_test(s, "GroupBlockers", test_group_blockers);
    CU_add_test(s, "BindNeedsTheDriver", test_bind_needs_the_driver);
    s = CU_add_suite("LinuxBackend", NULL, NULL);
    CU_add_test(s, "DeviceIds", test_device_ids);
    CU_add_test(s, "DmaAllocator", test_dma_allocator);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
