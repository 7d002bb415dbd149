/* e1000 device bring-up: one 8254x PCI function (one port of an 82546) from
 * reset to "link up, interrupts programmed, transmitter configured but not
 * yet enabled".  The TX queue (e1000_tx.h) sets TCTL.EN once its ring is in
 * place, as the Linux driver does.
 *
 * Only driver/plat.h and the C library are used, so the same code runs in the
 * simulator and on a physical NIC from user space. */
#ifndef NICSIM_E1000_DEV_H
#define NICSIM_E1000_DEV_H
#include <stdint.h>
#include <stddef.h>
#include "../plat.h"
#include "e1000_regs.h"

/* Return codes shared by the e1000 driver core (0 = success). */
enum e1000_err {
    E1000_ERR_BUSY  = -1,   /* TX ring lacks room; nothing was written */
    E1000_ERR_PARAM = -2,   /* an option or argument is out of range */
    E1000_ERR_NOMEM = -3,   /* plat_dma_alloc or malloc failed */
    E1000_ERR_RESET = -4,   /* CTRL.RST did not clear in time */
    E1000_ERR_LINK  = -5,   /* STATUS.LU not seen in time (device is configured) */
};

struct e1000_dev_opts {
    uint32_t itr;               /* ITR interval in 256 ns units, 0..0xFFFF; 0 = no
                                   throttling.  Default 195 = 10^9 / (20000 * 256),
                                   the 20000 interrupts/s Linux starts with */
    uint32_t ims;               /* causes to enable; default E1000_IMS_ENABLE_MASK (0x9D) */
    uint32_t pba;               /* PBA: RX KiB of the packet memory (TX gets the rest);
                                   default 48, what Linux's e1000_reset writes on 82546 */
    uint32_t tipg;              /* default E1000_TIPG_COPPER_DEFAULT (0x00602008) */
    uint64_t reset_timeout_ns;  /* bound on the CTRL.RST poll; default 10 ms */
    uint64_t link_timeout_ns;   /* bound on the STATUS.LU poll; default 2 s */
};

struct e1000_dev {
    struct plat_dev *pd;
    struct e1000_dev_opts opts;
    uint32_t status;    /* STATUS as last read during bring-up */
    int pcix;           /* STATUS.PCIX_MODE: enables the erratum-10 TX split */
    unsigned func;      /* STATUS function ID (port 0 or 1 of an 82546) */
    uint32_t tctl;      /* TCTL as programmed, without EN */
    uint64_t irqs;      /* e1000_irq_handle calls that found a cause */
};

/* Linux-like defaults (see the field comments). */
void e1000_dev_default_opts(struct e1000_dev_opts *o);

/* Reset, link up, interrupts masked then programmed (ITR, IMS), TIPG, and
 * TCTL = PSP | RTLC | CT=15 | COLD=63 without EN.  o may be NULL (defaults).
 * Returns 0, E1000_ERR_PARAM, E1000_ERR_RESET (device left in reset), or
 * E1000_ERR_LINK (everything programmed, but the link is down). */
int e1000_dev_init(struct e1000_dev *dev, struct plat_dev *pd,
                   const struct e1000_dev_opts *o);

/* What a failed e1000_dev_init says, for a message: ": CTRL.RST stuck",
 * ": no link", or "" for other codes. */
const char *e1000_dev_init_why(int rc);

/* Interrupt handler top half: read ICR (the read clears it) and return the
 * cause bits (E1000_ICR_*); 0 means the interrupt was not ours. */
uint32_t e1000_irq_handle(struct e1000_dev *dev);

/* Descriptor ring memory as Linux allocates it: bytes rounded up to 4 KB
 * (*ring_bytes), 4 KB aligned, and allocated again at 64 KB alignment when
 * it crosses a 64 KB boundary (82545/82546 errata 23, Linux's
 * e1000_check_64k_bound; logged with what, e.g. "TX").  The first block is
 * not returned: plat.h has no free.  NULL when out of memory. */
void *e1000_ring_alloc(struct plat_dev *pd, uint32_t descs, const char *what,
                       size_t *ring_bytes, uint64_t *bus);

/* An entry of the driver's per-descriptor bookkeeping (../ring/buffer_info.h):
 * Linux's struct e1000_buffer (skb pointer, DMA address, time stamp, length,
 * next_to_watch) is 32 bytes on a 64-bit kernel, so a 4096-entry TX ring's
 * array is 128 KB. */
#define E1000_BUFFER_INFO_BYTES 32u

/* The bus as STATUS reports it, in the Linux log's words, e.g.
 * "PCI-X:133MHz:64-bit".  Returns buf. */
const char *e1000_dev_bus_str(const struct e1000_dev *dev, char *buf, size_t n);

#endif
