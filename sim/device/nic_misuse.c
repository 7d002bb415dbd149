#include "nic_misuse.h"
#include <string.h>
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"

const char *const nic_misuse_names[NIC_MISUSE_KINDS] = { "ring_len", "tail_beyond", "head_enabled",
                                                         "bsize_enabled", "reset_busy" };

/* queue 0's registers (nic-facts A1, B1), from the drivers' register headers */
struct regmap {
    uint32_t ctrl, rst_bit;
    uint32_t tdlen, tdh, tdt, tx_ctl, tx_en;
    uint32_t rdlen, rdh, rdt, rx_ctl, rx_en;
};
static const struct regmap map_82546 = { E1000_CTRL, E1000_CTRL_RST, E1000_TDLEN, E1000_TDH, E1000_TDT,
                                         E1000_TCTL, E1000_TCTL_EN, E1000_RDLEN, E1000_RDH, E1000_RDT,
                                         E1000_RCTL, E1000_RCTL_EN };
static const struct regmap map_82599 = { IXGBE_CTRL, IXGBE_CTRL_RST, IXGBE_TDLEN(0), IXGBE_TDH(0), IXGBE_TDT(0),
                                         IXGBE_TXDCTL(0), IXGBE_TXDCTL_ENABLE, IXGBE_RDLEN(0), IXGBE_RDH(0),
                                         IXGBE_RDT(0), IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE };
#define RCTL_BSIZE_MASK (E1000_RCTL_SZ_256 | E1000_RCTL_BSEX)   /* BSIZE 17:16, BSEX */

void nic_misuse_init(nic_misuse *m, int adv)
{
    memset(m, 0, sizeof *m);
    m->adv = adv;
}

static void tail(nic_misuse *m, uint32_t len, uint32_t val)
{
    uint32_t ring = (len & 0xFFF80u) / 16;
    if (ring && val >= ring)
        m->count[NIC_MISUSE_TAIL_BEYOND]++;
}

void nic_misuse_mmio(nic_misuse *m, int func, uint32_t off, uint32_t val, int dma_busy)
{
    if (func < 0 || func >= NIC_RTL_PORTS)
        return;
    const struct regmap *r = m->adv ? &map_82599 : &map_82546;
    int f = func;
    if (off == r->ctrl) {
        if ((val & r->rst_bit) && dma_busy)
            m->count[NIC_MISUSE_RESET_BUSY]++;
        if (val & r->rst_bit) {            /* the registers return to their reset values */
            m->tdlen[f] = m->rdlen[f] = m->tx_ctl[f] = m->rx_ctl[f] = m->srrctl[f] = 0;
        }
    } else if (off == r->tdlen || off == r->rdlen) {
        if (val == 0 || (val & 0x7F))
            m->count[NIC_MISUSE_RING_LEN]++;
        if (off == r->tdlen)
            m->tdlen[f] = val;
        else
            m->rdlen[f] = val;
    } else if (off == r->tdt) {
        tail(m, m->tdlen[f], val);
    } else if (off == r->rdt) {
        tail(m, m->rdlen[f], val);
    } else if (off == r->tdh) {
        if (m->tx_ctl[f] & r->tx_en)
            m->count[NIC_MISUSE_HEAD_ENABLED]++;
    } else if (off == r->rdh) {
        if (m->rx_ctl[f] & r->rx_en)
            m->count[NIC_MISUSE_HEAD_ENABLED]++;
    } else if (off == r->tx_ctl) {
        m->tx_ctl[f] = val;
    } else if (off == r->rx_ctl) {
        if (!m->adv && (m->rx_ctl[f] & r->rx_en) && (val & r->rx_en) &&
            ((m->rx_ctl[f] ^ val) & RCTL_BSIZE_MASK))
            m->count[NIC_MISUSE_BSIZE_ENABLED]++;
        m->rx_ctl[f] = val;
    } else if (m->adv && off == IXGBE_SRRCTL(0)) {
        if ((m->rx_ctl[f] & r->rx_en) && ((m->srrctl[f] ^ val) & IXGBE_SRRCTL_BSIZEPKT_MASK))
            m->count[NIC_MISUSE_BSIZE_ENABLED]++;
        m->srrctl[f] = val;
    }
}
