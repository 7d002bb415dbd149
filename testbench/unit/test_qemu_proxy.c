/* Unit tests of the QEMU proxy remote's parts (sim/qemu): the config
 * space's write masks (what a guest's BAR sizing and command writes see),
 * the protocol's framing over a socketpair (header, payload, descriptors in
 * SCM_RIGHTS, the RET reply) and guest RAM regions from SYNC_SYSMEM
 * (DMA inside a region, a master abort outside). */
#include "gtest_cunit.h"
#include "../../sim/qemu/guest_mem.h"
#include "../../sim/qemu/mpqemu.h"
#include "../../sim/qemu/pci_config.h"
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static void test_config_masks(void)
{
    pci_config c;
    pci_config_init(&c, 0x8086, 0x10f7, 0x020000, 0x01, 0x8086, 0x10f7, 128 * 1024, 0);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x00, 4), 0x10f78086u);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x08, 4), 0x02000001u);     /* class, revision */
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x3d, 1), 1u);              /* INTA# */
    /* BAR sizing: all ones written, the size's mask read back; the type
     * bits (32-bit memory, not prefetchable) stay 0 */
    pci_config_write(&c, 0x10, 0xffffffffu, 4);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x10, 4), 0xfffe0000u);
    pci_config_write(&c, 0x10, 0xfebc1234u, 4);
    CU_ASSERT_EQUAL(pci_config_bar0(&c), 0xfebc0000u);
    /* no other BAR: reads 0 whatever is written */
    pci_config_write(&c, 0x14, 0xffffffffu, 4);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x14, 4), 0u);
    /* command: memory and bus master take; reserved bits do not */
    CU_ASSERT_FALSE(pci_config_memory_on(&c) || pci_config_bus_master(&c));
    pci_config_write(&c, 0x04, 0xffff, 2);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x04, 2), 0x0547u);
    CU_ASSERT_TRUE(pci_config_memory_on(&c) && pci_config_bus_master(&c));
    /* read-only IDs; past the space reads all ones */
    pci_config_write(&c, 0x00, 0, 4);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0x00, 2), 0x8086u);
    CU_ASSERT_EQUAL(pci_config_read(&c, 0xff, 2), 0xff00u | c.b[0xff]);
}

/* A message as QEMU's mpqemu_msg_send frames it: header and payload in
 * one write, descriptors with it. */
static void send_msg(int sock, int32_t cmd, const void *payload, uint64_t size, int fd)
{
    uint8_t buf[16 + 256] = { 0 };
    memcpy(buf, &cmd, 4);
    memcpy(buf + 8, &size, 8);
    memcpy(buf + 16, payload, size);
    struct iovec iov = { buf, 16 + size };
    union {
        char b[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctl;
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof ctl.b;
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    CU_ASSERT_EQUAL(sendmsg(sock, &mh, 0), (ssize_t)(16 + size));
}

static void test_framing(void)
{
    int sv[2];
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    char err[256];
    mpqemu_bar bar = { .addr = 0xfebc0008, .val = 0, .size = 4, .memory = 1 };
    send_msg(sv[1], MPQEMU_BAR_READ, &bar, sizeof bar, -1);
    mpqemu_msg m;
    CU_ASSERT_EQUAL_FATAL(mpqemu_recv(sv[0], &m, err, sizeof err), 1);
    CU_ASSERT_EQUAL(m.cmd, MPQEMU_BAR_READ);
    CU_ASSERT_EQUAL(m.size, 24u);
    CU_ASSERT_EQUAL(m.data.bar.addr, 0xfebc0008u);
    CU_ASSERT_EQUAL(m.data.bar.size, 4u);
    CU_ASSERT_EQUAL(m.nfds, 0);
    /* the reply: RET with the 8-byte value */
    CU_ASSERT_EQUAL(mpqemu_ret(sv[0], 0x80004, 1, err, sizeof err), 0);
    uint8_t r[24];
    CU_ASSERT_EQUAL(read(sv[1], r, sizeof r), 24);
    int32_t cmd;
    uint64_t size, val;
    memcpy(&cmd, r, 4);
    memcpy(&size, r + 8, 8);
    memcpy(&val, r + 16, 8);
    CU_ASSERT(cmd == MPQEMU_RET && size == 8 && val == 0x80004);
    /* a descriptor travels with the header */
    int p[2];
    CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
    mpqemu_cfg cfg = { .addr = 4, .val = 6, .len = 2 };
    send_msg(sv[1], MPQEMU_PCI_CFGWRITE, &cfg, sizeof cfg, p[0]);
    CU_ASSERT_EQUAL_FATAL(mpqemu_recv(sv[0], &m, err, sizeof err), 1);
    CU_ASSERT(m.cmd == MPQEMU_PCI_CFGWRITE && m.data.cfg.addr == 4 && m.data.cfg.val == 6 && m.nfds == 1);
    mpqemu_close_fds(&m);
    close(p[0]);
    close(p[1]);
    /* an oversized payload is refused, the end of the stream is 0 */
    send_msg(sv[1], MPQEMU_BAR_READ, &bar, 0, -1);
    uint64_t huge = 4096;
    uint8_t h[16] = { 0 };
    memcpy(h + 8, &huge, 8);
    CU_ASSERT_EQUAL_FATAL(mpqemu_recv(sv[0], &m, err, sizeof err), 1);
    CU_ASSERT_EQUAL(write(sv[1], h, 16), 16);
    CU_ASSERT_EQUAL(mpqemu_recv(sv[0], &m, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "4096-byte payload"));
    close(sv[1]);
    CU_ASSERT_EQUAL(mpqemu_recv(sv[0], &m, err, sizeof err), 0);
    close(sv[0]);
}

static void test_guest_regions(void)
{
    int fd = memfd_create("guest", 0);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL_FATAL(ftruncate(fd, 2 * 4096), 0);
    mpqemu_msg m = { .cmd = MPQEMU_SYNC_SYSMEM, .nfds = 1 };
    m.fds[0] = fd;                               /* closed by the sync */
    m.data.sysmem.gpa[0] = 0x100000;
    m.data.sysmem.size[0] = 4096;
    m.data.sysmem.offset[0] = 4096;              /* the fd's second page */
    guest_mem g = { 0 };
    char err[256];
    CU_ASSERT_EQUAL_FATAL(guest_mem_sync(&g, &m, err, sizeof err), 0);
    uint32_t v = 0xdeadbeef, back = 0;
    CU_ASSERT_EQUAL(guest_mem_write(&g, 0x100ffc, &v, 4), 0);       /* the region's last 4 bytes */
    CU_ASSERT_EQUAL(guest_mem_read(&g, 0x100ffc, &back, 4), 0);
    CU_ASSERT_EQUAL(back, v);
    CU_ASSERT_EQUAL(guest_mem_read(&g, 0x100ffe, &back, 4), -1);     /* crosses its end */
    CU_ASSERT_EQUAL(guest_mem_read(&g, 0xff000, &back, 4), -1);      /* below it */
    guest_mem_free(&g);
    CU_ASSERT_EQUAL(guest_mem_read(&g, 0x100000, &back, 4), -1);     /* gone */
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("QemuProxy", NULL, NULL);
    CU_add_test(s, "ConfigMasks", test_config_masks);
    CU_add_test(s, "Framing", test_framing);
    CU_add_test(s, "GuestRegions", test_guest_regions);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
