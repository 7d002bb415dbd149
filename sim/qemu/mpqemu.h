/* QEMU's multi-process PCI proxy protocol, the remote's side: what
 * `-device x-pci-proxy-dev,fd=N` (Debian's QEMU 7.2) sends over its UNIX
 * stream socket and what it expects back (QEMU's include/hw/remote/
 * mpqemu-link.h and hw/remote/mpqemu-link.c; ../shared/docs/
 * qemu-proxy-notes.md).
 *
 * A message is a 16-byte header (int32 command, 4 bytes of padding, uint64
 * payload size; x86-64 layout) and the payload; file descriptors travel as
 * SCM_RIGHTS with the header.  The proxy sends one request and reads
 * exactly one reply (RET with an 8-byte value) for config and BAR accesses
 * and DEVICE_RESET (RET with no payload); SYNC_SYSMEM and SET_IRQFD get no
 * reply.  There are no sequence numbers: the remote never speaks first. */
#ifndef NICSIM_MPQEMU_H
#define NICSIM_MPQEMU_H
#include <stddef.h>
#include <stdint.h>

enum mpqemu_cmd {
    MPQEMU_SYNC_SYSMEM = 0,
    MPQEMU_RET = 1,
    MPQEMU_PCI_CFGWRITE = 2,
    MPQEMU_PCI_CFGREAD = 3,
    MPQEMU_BAR_WRITE = 4,
    MPQEMU_BAR_READ = 5,
    MPQEMU_SET_IRQFD = 6,
    MPQEMU_DEVICE_RESET = 7,
};

enum { MPQEMU_MAX_FDS = 8, MPQEMU_MAX_PAYLOAD = 256 };

/* PCI_CFGREAD / PCI_CFGWRITE */
typedef struct mpqemu_cfg {
    uint32_t addr, val;
    int32_t len;
} mpqemu_cfg;

/* BAR_READ / BAR_WRITE: addr is guest-physical (BAR base + offset) */
typedef struct mpqemu_bar {
    uint64_t addr, val;
    uint32_t size;
    uint8_t memory; /* 1: a memory BAR, 0: an I/O BAR */
    uint8_t pad[3];
} mpqemu_bar;

/* SYNC_SYSMEM: region i is gpa[i]..gpa[i]+size[i], at offset[i] of fd i */
typedef struct mpqemu_sysmem {
    uint64_t gpa[MPQEMU_MAX_FDS];
    uint64_t size[MPQEMU_MAX_FDS];
    int64_t offset[MPQEMU_MAX_FDS];
} mpqemu_sysmem;

typedef struct mpqemu_msg {
    int32_t cmd;
    uint64_t size;                   /* payload bytes */
    union {
        uint8_t bytes[MPQEMU_MAX_PAYLOAD];
        mpqemu_cfg cfg;
        mpqemu_bar bar;
        mpqemu_sysmem sysmem;
        uint64_t u64;
    } data;
    int fds[MPQEMU_MAX_FDS];
    int nfds;
} mpqemu_msg;

/* Read one message from sock (blocking).  1 with *m filled, 0 at the end
 * of the stream (QEMU closed it), -1 with a message in err (a short or
 * oversized message, a read error). */
int mpqemu_recv(int sock, mpqemu_msg *m, char *err, size_t errlen);
/* The reply to a config or BAR access: RET with the 8-byte value (0 for a
 * write), or with no payload when with_value is 0 (DEVICE_RESET).  0, or -1
 * with err. */
int mpqemu_ret(int sock, uint64_t value, int with_value, char *err, size_t errlen);
/* Close the descriptors a message brought. */
void mpqemu_close_fds(mpqemu_msg *m);

#endif
