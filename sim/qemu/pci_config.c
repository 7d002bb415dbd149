/* A conventional PCI function's config space (pci_config.h). */
#include "pci_config.h"
#include <string.h>

/* Command register bits a device of this kind implements (PCI 3.0,
 * 6.2.2): I/O space, memory space, bus master, parity error response,
 * SERR# enable, interrupt disable. */
#define CMD_WRITABLE 0x0547u

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void pci_config_init(pci_config *c, uint16_t vendor, uint16_t device, uint32_t class_code, uint8_t revision,
                     uint16_t subsys_vendor, uint16_t subsys, uint32_t bar0_size, int multi)
{
    memset(c, 0, sizeof *c);
    c->bar0_size = bar0_size;
    put16(c->b + 0x00, vendor);
    put16(c->b + 0x02, device);
    put16(c->b + 0x06, 0x0200);         /* status: medium DEVSEL timing, no capability list */
    c->b[0x08] = revision;
    c->b[0x09] = (uint8_t)class_code;
    c->b[0x0a] = (uint8_t)(class_code >> 8);
    c->b[0x0b] = (uint8_t)(class_code >> 16);
    c->b[0x0e] = multi ? 0x80 : 0x00;   /* header type 0 */
    put32(c->b + 0x10, 0);              /* BAR0: memory, 32-bit, not prefetchable */
    put16(c->b + 0x2c, subsys_vendor);
    put16(c->b + 0x2e, subsys);
    c->b[0x3d] = 1;                     /* interrupt pin INTA# */
}

uint32_t pci_config_read(const pci_config *c, uint32_t addr, int len)
{
    uint32_t v = 0;
    for (int i = len - 1; i >= 0; i--)
        v = v << 8 | (addr + (uint32_t)i < PCI_CONFIG_BYTES ? c->b[addr + (uint32_t)i] : 0xff);
    return v;
}

/* The mask of writable bits of the byte at addr. */
static uint8_t writable(const pci_config *c, uint32_t addr)
{
    switch (addr) {
    case 0x04:
        return (uint8_t)CMD_WRITABLE;
    case 0x05:
        return (uint8_t)(CMD_WRITABLE >> 8);
    case 0x0c: /* cache line size */
    case 0x0d: /* latency timer */
    case 0x3c: /* interrupt line */
        return 0xff;
    case 0x10:
    case 0x11:
    case 0x12:
    case 0x13: {
        uint32_t mask = ~(c->bar0_size - 1u);
        return (uint8_t)(mask >> 8 * (addr - 0x10));
    }
    default:
        return 0;
    }
}

void pci_config_write(pci_config *c, uint32_t addr, uint32_t val, int len)
{
    for (int i = 0; i < len; i++) {
        uint32_t a = addr + (uint32_t)i;
        if (a >= PCI_CONFIG_BYTES)
            break;
        uint8_t m = writable(c, a), v = (uint8_t)(val >> 8 * i);
        c->b[a] = (uint8_t)((c->b[a] & ~m) | (v & m));
    }
}

uint32_t pci_config_bar0(const pci_config *c)
{
    return get32(c->b + 0x10) & ~0xfu;
}

int pci_config_memory_on(const pci_config *c)
{
    return (c->b[0x04] & 0x02) != 0;
}

int pci_config_bus_master(const pci_config *c)
{
    return (c->b[0x04] & 0x04) != 0;
}
