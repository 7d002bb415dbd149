/* ixgbe device bring-up; see ixgbe_dev.h. */
#include "ixgbe_dev.h"
#include "../ring/reg_poll.h"

void ixgbe_dev_default_opts(struct ixgbe_dev_opts *o)
{
    *o = (struct ixgbe_dev_opts){
        .reset_timeout_ns = 10000000ull,
        .reset_settle_ns = 10000000ull,     /* ixy sleeps 10 ms after reset (B1a 2) */
        .eeprom_timeout_ns = 10000000ull,
        .dma_timeout_ns = 10000000ull,
        .link_timeout_ns = 10000000000ull,  /* ixy waits up to 10 s (B1a 14) */
        .rxpb_kb = 128,                     /* B1a step 9 */
        .txpb_kb = 40,                      /* B1a step 10 */
        .set_autoc = 1,
        .crc_strip = 1,
        .promisc = 0,
    };
}

/* Read-modify-write, as ixy's set_flags32 / clear_flags32: bits the driver
 * does not own keep whatever the EEPROM or the reset left there. */
static uint32_t rmw(struct plat_dev *pd, uint32_t reg, uint32_t clear, uint32_t set)
{
    uint32_t v = (plat_read32(pd, reg) & ~clear) | set;
    plat_write32(pd, reg, v);
    return v;
}

static int opts_valid(const struct ixgbe_dev_opts *o)
{
    return o->rxpb_kb <= IXGBE_PBSIZE_KB_MASK >> IXGBE_PBSIZE_KB_SHIFT &&
           o->txpb_kb <= IXGBE_PBSIZE_KB_MASK >> IXGBE_PBSIZE_KB_SHIFT &&
           o->set_autoc <= 1 && o->crc_strip <= 1 && o->promisc <= 1;
}

static uint32_t speed_of(uint32_t links)
{
    if (!(links & IXGBE_LINKS_UP))
        return 0;
    switch (links & IXGBE_LINKS_SPEED_MASK) {
    case IXGBE_LINKS_SPEED_10G:  return 10000;
    case IXGBE_LINKS_SPEED_1G:   return 1000;
    case IXGBE_LINKS_SPEED_100M: return 100;
    default:                     return 0;
    }
}

const char *ixgbe_dev_init_why(int rc)
{
    return rc == IXGBE_ERR_LINK ? ": no link" : rc == IXGBE_ERR_RESET ? ": CTRL.RST stuck" :
           rc == IXGBE_ERR_EEPROM ? ": EEC.ARD never set" :
           rc == IXGBE_ERR_DMA_INIT ? ": RDRXCTL.DMAIDONE never set" : "";
}

int ixgbe_dev_init(struct ixgbe_dev *dev, struct plat_dev *pd,
                   const struct ixgbe_dev_opts *o)
{
    struct ixgbe_dev_opts def;
    if (!o) {
        ixgbe_dev_default_opts(&def);
        o = &def;
    }
    if (!dev || !pd || !opts_valid(o))
        return IXGBE_ERR_PARAM;
    *dev = (struct ixgbe_dev){ .pd = pd, .opts = *o };
    uint32_t v = 0;

    /* 1. Mask everything and read EICR so no cause from before the reset
     *    survives (B1a step 1).  ixy also writes EIMS = 0 first; writing 0
     *    to a write-1-to-set register changes nothing, so that write is left
     *    out. */
    plat_write32(pd, IXGBE_EIMC, IXGBE_EIMC_ALL);
    (void)plat_read32(pd, IXGBE_EICR);

    /* 2. Device and link reset; both bits clear themselves when the reset
     *    is over (B1a step 2). */
    rmw(pd, IXGBE_CTRL, 0, IXGBE_CTRL_RST_MASK);
    uint64_t waited;
    if (!reg_poll(pd, IXGBE_CTRL, IXGBE_CTRL_RST_MASK, 0, o->reset_timeout_ns, &v, &waited)) {
        plat_log(pd, "ixgbe: CTRL reset bits still set after %llu ns (CTRL 0x%08x)", (unsigned long long)waited,
                 v);
        return IXGBE_ERR_RESET;
    }
    if (o->reset_settle_ns)
        plat_delay_ns(pd, o->reset_settle_ns);

    /* 3. The reset restored the interrupt registers: mask again (B1a 3). */
    plat_write32(pd, IXGBE_EIMC, IXGBE_EIMC_ALL);

    /* 4. The MAC address the EEPROM loaded into receive address 0 (B1a 4;
     *    RAL holds bytes 0-3, RAH 15:0 bytes 4-5, A1a). */
    uint32_t ral = plat_read32(pd, IXGBE_RAL(0)), rah = plat_read32(pd, IXGBE_RAH(0));
    for (int i = 0; i < 4; i++)
        dev->mac[i] = (uint8_t)(ral >> (8 * i));
    dev->mac[4] = (uint8_t)rah;
    dev->mac[5] = (uint8_t)(rah >> 8);

    /* 5. EEPROM auto-read done (B1a 5). */
    if (!reg_poll(pd, IXGBE_EEC, IXGBE_EEC_ARD, IXGBE_EEC_ARD, o->eeprom_timeout_ns, &v, &waited)) {
        plat_log(pd, "ixgbe: EEC.ARD not set after %llu ns (EEC 0x%08x)", (unsigned long long)waited, v);
        return IXGBE_ERR_EEPROM;
    }

    /* 6. DMA initialisation done (B1a 6). */
    if (!reg_poll(pd, IXGBE_RDRXCTL, IXGBE_RDRXCTL_DMAIDONE, IXGBE_RDRXCTL_DMAIDONE, o->dma_timeout_ns, &v,
                  &waited)) {
        plat_log(pd, "ixgbe: RDRXCTL.DMAIDONE not set after %llu ns (RDRXCTL 0x%08x)", (unsigned long long)waited,
                 v);
        return IXGBE_ERR_DMA_INIT;
    }

    /* 7. Link: 10G serial, XAUI, restart auto-negotiation; the link is
     *    waited for last, so it comes up while the rest is programmed
     *    (B1a 7: ixy does not wait here either). */
    if (o->set_autoc)
        rmw(pd, IXGBE_AUTOC, IXGBE_AUTOC_LMS_MASK | IXGBE_AUTOC_10G_PMA_PMD_MASK,
            IXGBE_AUTOC_LMS_10G_SERIAL | IXGBE_AUTOC_10G_XAUI | IXGBE_AUTOC_AN_RESTART);

    /* 8. Statistics: one read clears each counter (B1a 8); the software
     *    totals start at 0. */
    ixgbe_dev_update_stats(dev);
    dev->stats = (struct ixgbe_hw_stats){ 0 };

    /* 9. Receive path (B1a 9): receiver off while it is configured; all
     *    packet-buffer memory to buffer 0; CRC stripping set (or cleared)
     *    in both the MAC (HLREG0) and the DMA (RDRXCTL), as ixy sets both;
     *    broadcasts accepted; no-snoop off.  RXEN
     *    goes back on at the end: each queue stays disabled until its
     *    RXDCTL.ENABLE, so nothing is received before a ring exists. */
    rmw(pd, IXGBE_RXCTRL, IXGBE_RXCTRL_RXEN, 0);
    for (uint32_t i = 0; i < IXGBE_PB_COUNT; i++)
        plat_write32(pd, IXGBE_RXPBSIZE(i), i ? 0 : o->rxpb_kb << IXGBE_PBSIZE_KB_SHIFT);
    if (o->crc_strip) {
        rmw(pd, IXGBE_HLREG0, 0, IXGBE_HLREG0_RXCRCSTRP);
        rmw(pd, IXGBE_RDRXCTL, 0, IXGBE_RDRXCTL_CRCSTRIP);
    } else {
        rmw(pd, IXGBE_HLREG0, IXGBE_HLREG0_RXCRCSTRP, 0);
        rmw(pd, IXGBE_RDRXCTL, IXGBE_RDRXCTL_CRCSTRIP, 0);
    }
    rmw(pd, IXGBE_FCTRL, 0,
        IXGBE_FCTRL_BAM | (o->promisc ? IXGBE_FCTRL_UPE | IXGBE_FCTRL_MPE : 0));
    rmw(pd, IXGBE_CTRL_EXT, 0, IXGBE_CTRL_EXT_NS_DIS);
    rmw(pd, IXGBE_RXCTRL, 0, IXGBE_RXCTRL_RXEN);

    /* 10. Transmit path (B1a 10): the MAC appends the FCS and pads short
     *     frames; packet-buffer memory to buffer 0; DTXMXSZRQ as ixy; the
     *     descriptor arbiter on; then the DMA engine.  TE before any ring
     *     exists is safe: a queue fetches nothing until its TXDCTL.ENABLE. */
    rmw(pd, IXGBE_HLREG0, 0, IXGBE_HLREG0_TXCRCEN | IXGBE_HLREG0_TXPADEN);
    for (uint32_t i = 0; i < IXGBE_PB_COUNT; i++)
        plat_write32(pd, IXGBE_TXPBSIZE(i), i ? 0 : o->txpb_kb << IXGBE_PBSIZE_KB_SHIFT);
    plat_write32(pd, IXGBE_DTXMXSZRQ, IXGBE_DTXMXSZRQ_IXY);
    rmw(pd, IXGBE_RTTDCS, IXGBE_RTTDCS_ARBDIS, 0);
    rmw(pd, IXGBE_DMATXCTL, 0, IXGBE_DMATXCTL_TE);

    /* 11. Link up (B1a 14), bounded. */
    int up = reg_poll(pd, IXGBE_LINKS, IXGBE_LINKS_UP, IXGBE_LINKS_UP, o->link_timeout_ns, &dev->links, &waited);
    dev->speed_mbps = speed_of(dev->links);
    if (!up) {
        plat_log(pd, "ixgbe: link down after %llu ns (LINKS 0x%08x)", (unsigned long long)waited, dev->links);
        return IXGBE_ERR_LINK;
    }
    return 0;
}

void ixgbe_dev_update_stats(struct ixgbe_dev *dev)
{
    struct plat_dev *pd = dev->pd;
    struct ixgbe_hw_stats *s = &dev->stats;
    s->crcerrs += plat_read32(pd, IXGBE_CRCERRS);
    for (uint32_t i = 0; i < IXGBE_PB_COUNT; i++) {
        s->mpc += plat_read32(pd, IXGBE_MPC(i));
        s->rnbc += plat_read32(pd, IXGBE_RNBC(i));
    }
    s->gprc += plat_read32(pd, IXGBE_GPRC);
    s->bprc += plat_read32(pd, IXGBE_BPRC);
    s->mprc += plat_read32(pd, IXGBE_MPRC);
    s->gptc += plat_read32(pd, IXGBE_GPTC);
    /* the 82599 splits the octet counters into L and H halves (B1 notes) */
    uint64_t l = plat_read32(pd, IXGBE_GORCL);
    s->gorc += l | (uint64_t)plat_read32(pd, IXGBE_GORCH) << 32;
    l = plat_read32(pd, IXGBE_GOTCL);
    s->gotc += l | (uint64_t)plat_read32(pd, IXGBE_GOTCH) << 32;
    s->ruc += plat_read32(pd, IXGBE_RUC);
    s->rfc += plat_read32(pd, IXGBE_RFC);
    s->roc += plat_read32(pd, IXGBE_ROC);
    s->rjc += plat_read32(pd, IXGBE_RJC);
    l = plat_read32(pd, IXGBE_TORL);
    s->tor += l | (uint64_t)plat_read32(pd, IXGBE_TORH) << 32;
    s->tpr += plat_read32(pd, IXGBE_TPR);
    s->tpt += plat_read32(pd, IXGBE_TPT);
}

uint32_t ixgbe_irq_handle(struct ixgbe_dev *dev)
{
    uint32_t eicr = plat_read32(dev->pd, IXGBE_EICR);
    if (eicr)
        dev->irqs++;
    return eicr;
}

void ixgbe_irq_enable(struct ixgbe_dev *dev, uint32_t mask)
{
    plat_write32(dev->pd, IXGBE_EIMS, mask);
}

void ixgbe_irq_disable(struct ixgbe_dev *dev, uint32_t mask)
{
    plat_write32(dev->pd, IXGBE_EIMC, mask);
}

uint32_t ixgbe_eitr_value(uint32_t us)
{
    return (us * 4u) & IXGBE_EITR_ITR_INT_MASK;
}

int ixgbe_set_eitr(struct ixgbe_dev *dev, unsigned vector, uint32_t us)
{
    if (vector >= IXGBE_EITR_VECTORS || us > IXGBE_EITR_MAX_US)
        return IXGBE_ERR_PARAM;
    plat_write32(dev->pd, IXGBE_EITR(vector), ixgbe_eitr_value(us));
    return 0;
}

void *ixgbe_ring_alloc(struct plat_dev *pd, uint32_t descs, size_t *ring_bytes,
                       uint64_t *bus)
{
    size_t bytes = ((size_t)descs * IXGBE_DESC_BYTES + 4095u) & ~(size_t)4095u;
    *ring_bytes = bytes;
    return plat_dma_alloc(pd, bytes, 4096, bus);
}
