/* ixgbe device bring-up: one 82599 port from reset to "link up, receive and
 * transmit paths enabled, every queue still disabled, interrupts masked".
 * Queues are set up afterwards (ixgbe_tx.h, ixgbe_rx.h), each enabled on
 * its own with TXDCTL/RXDCTL.ENABLE, as ixy's start_rx_queue /
 * start_tx_queue do (nic-facts B1a steps 11-12).
 *
 * The sequence is ixy's reset_and_init (nic-facts B1a), with every poll
 * bounded: a device that never finishes its reset, never loads its EEPROM,
 * never finishes DMA initialisation or never gets a link makes
 * ixgbe_dev_init return an error instead of hanging.
 *
 * Only driver/plat.h and the C library are used, so the same code runs in
 * the simulator and on a physical NIC from user space. */
#ifndef NICSIM_IXGBE_DEV_H
#define NICSIM_IXGBE_DEV_H
#include <stdint.h>
#include <stddef.h>
#include "../plat.h"
#include "ixgbe_regs.h"

/* Return codes shared by the ixgbe driver core (0 = success).  The first
 * five have the e1000 core's values, so callers can treat both alike. */
enum ixgbe_err {
    IXGBE_ERR_BUSY     = -1,  /* TX ring lacks room; nothing was written */
    IXGBE_ERR_PARAM    = -2,  /* an option or argument is out of range */
    IXGBE_ERR_NOMEM    = -3,  /* plat_dma_alloc or malloc failed */
    IXGBE_ERR_RESET    = -4,  /* CTRL.RST / LNK_RST did not clear in time */
    IXGBE_ERR_LINK     = -5,  /* LINKS.LINK_UP not seen in time (device is configured) */
    IXGBE_ERR_EEPROM   = -6,  /* EEC.ARD (EEPROM auto-read done) not seen in time */
    IXGBE_ERR_DMA_INIT = -7,  /* RDRXCTL.DMAIDONE not seen in time */
    IXGBE_ERR_QUEUE    = -8,  /* TXDCTL/RXDCTL.ENABLE did not read back set in time */
};

struct ixgbe_dev_opts {
    uint64_t reset_timeout_ns;   /* bound on the CTRL.RST|LNK_RST poll; default 10 ms */
    uint64_t reset_settle_ns;    /* wait after the reset bits clear; default 10 ms,
                                    ixy's sleep after reset (B1a step 2); 0 = none */
    uint64_t eeprom_timeout_ns;  /* bound on the EEC.ARD poll; default 10 ms */
    uint64_t dma_timeout_ns;     /* bound on the RDRXCTL.DMAIDONE poll; default 10 ms */
    uint64_t link_timeout_ns;    /* bound on the LINKS.LINK_UP poll; default 10 s,
                                    as ixy (B1a step 14) */
    uint32_t rxpb_kb;            /* RXPBSIZE(0) in KB (0..1023), the other 7 get 0;
                                    default 128, as ixy (B1a step 9) */
    uint32_t txpb_kb;            /* TXPBSIZE(0) in KB (0..1023), the other 7 get 0;
                                    default 40, as ixy (B1a step 10) */
    uint8_t set_autoc;           /* 1 = AUTOC.LMS 10G serial, 10G_PMA_PMD XAUI,
                                    AN_RESTART (B1a step 7); 0 = leave AUTOC as the
                                    EEPROM set it.  Default 1 */
    uint8_t crc_strip;           /* 1 = HLREG0.RXCRCSTRP and RDRXCTL.CRCSTRIP (the NIC
                                    strips the FCS: ixy, B1a step 9); 0 = both clear and
                                    the RX queue subtracts the 4 bytes.  Default 1 */
    uint8_t promisc;             /* 1 = FCTRL.UPE | MPE besides BAM; default 0 (ixy
                                    turns it on at the end, B1a step 14) */
};

/* Hardware counters accumulated by ixgbe_dev_update_stats (each read clears
 * the register, B1 counter notes). */
struct ixgbe_hw_stats {
    uint64_t crcerrs, mpc, rnbc;        /* mpc / rnbc: sums over the 8 packet buffers */
    uint64_t gprc, bprc, mprc, gptc;    /* good / broadcast / multicast RX, good TX */
    uint64_t gorc, gotc;                /* good octets RX/TX (L + H << 32) */
    uint64_t ruc, rfc, roc, rjc;        /* undersize, fragment, oversize, jabber */
    uint64_t tor, tpr, tpt;             /* total octets RX, total packets RX/TX */
};

struct ixgbe_dev {
    struct plat_dev *pd;
    struct ixgbe_dev_opts opts;
    uint8_t mac[6];             /* RAL(0)/RAH(0) after reset (loaded from the EEPROM) */
    uint32_t links;             /* LINKS as last read during bring-up */
    uint32_t speed_mbps;        /* from LINKS speed bits 29:28; 0 = unknown / no link */
    struct ixgbe_hw_stats stats;
    uint64_t irqs;              /* ixgbe_irq_handle calls that found a cause */
};

/* Defaults as documented at each field. */
void ixgbe_dev_default_opts(struct ixgbe_dev_opts *o);

/* The bring-up (docs/driver.md "ixgbe driver core" lists every step).
 * o may be NULL (defaults).  Returns 0, IXGBE_ERR_PARAM, IXGBE_ERR_RESET /
 * IXGBE_ERR_EEPROM / IXGBE_ERR_DMA_INIT (the device is left where the poll
 * gave up; nothing after it was written), or IXGBE_ERR_LINK (everything
 * programmed, but the link is down: the caller may wait for it itself). */
int ixgbe_dev_init(struct ixgbe_dev *dev, struct plat_dev *pd,
                   const struct ixgbe_dev_opts *o);
/* What a failed ixgbe_dev_init says, for a message: ": no link",
 * ": CTRL.RST stuck", ": EEC.ARD never set", ": RDRXCTL.DMAIDONE never set",
 * or "" for other codes. */
const char *ixgbe_dev_init_why(int rc);

/* Read every counter of struct ixgbe_hw_stats (the reads clear them) and
 * add the values into dev->stats. */
void ixgbe_dev_update_stats(struct ixgbe_dev *dev);

/* Interrupts.  ixgbe_irq_handle reads EICR (a read clears it, B1a step 1)
 * and returns the cause bits; 0 means the interrupt was not ours.
 * ixgbe_irq_enable / _disable write EIMS / EIMC with mask. */
uint32_t ixgbe_irq_handle(struct ixgbe_dev *dev);
void ixgbe_irq_enable(struct ixgbe_dev *dev, uint32_t mask);
void ixgbe_irq_disable(struct ixgbe_dev *dev, uint32_t mask);

/* EITR register value for an interval of us microseconds as Linux and ixy
 * write it: us * 4 (B3: 10 us -> 0x028), the interval field (bits 11:3)
 * taken as 2 us units; an odd us is rounded down to the 2 us step.  The
 * 82599 counts the field in 2.048 us (ixgbe_regs.h), so the interval lasts
 * 2.4 % longer than us. */
uint32_t ixgbe_eitr_value(uint32_t us);
/* Write EITR(vector) for us microseconds.  Returns 0, or IXGBE_ERR_PARAM
 * for vector >= 24 (the only bank nic-facts gives) or us > 1022. */
int ixgbe_set_eitr(struct ixgbe_dev *dev, unsigned vector, uint32_t us);

/* Descriptor ring memory: descs * 16 bytes rounded up to 4 KB, 4 KB
 * aligned (the 82599 has no 64 KB-boundary erratum; the e1000's does not
 * apply).  *ring_bytes gets the size.  NULL when out of memory. */
void *ixgbe_ring_alloc(struct plat_dev *pd, uint32_t descs, size_t *ring_bytes,
                       uint64_t *bus);

/* The entries of the driver's per-descriptor bookkeeping
 * (../ring/buffer_info.h): Linux ixgbe.h's struct ixgbe_tx_buffer
 * (next_to_watch, time_stamp, skb, bytecount, gso_segs, protocol, dma, len,
 * tx_flags) is 48 bytes on a 64-bit kernel, struct ixgbe_rx_buffer (skb,
 * dma, page, page_offset, pagecnt_bias) 32 (sizes from those field lists,
 * not from nic-facts). */
#define IXGBE_TX_BUFFER_INFO_BYTES 48u
#define IXGBE_RX_BUFFER_INFO_BYTES 32u
#define IXGBE_INFO_BYTES_MAX 256u   /* the most a queue's info_bytes option takes */

#endif
