/* e1000 device bring-up; see e1000_dev.h. */
#include "e1000_dev.h"
#include "../ring/reg_poll.h"
#include <stdio.h>

void e1000_dev_default_opts(struct e1000_dev_opts *o)
{
    o->itr = 195;                       /* 20000 interrupts/s, Linux's start */
    o->ims = E1000_IMS_ENABLE_MASK;
    o->tipg = E1000_TIPG_COPPER_DEFAULT;
    o->pba = 48;
    o->reset_timeout_ns = 10000000ull;  /* Linux just sleeps 5 ms after RST */
    o->link_timeout_ns = 2000000000ull;
}

int e1000_dev_init(struct e1000_dev *dev, struct plat_dev *pd,
                   const struct e1000_dev_opts *o)
{
    struct e1000_dev_opts def;
    if (!o) {
        e1000_dev_default_opts(&def);
        o = &def;
    }
    if (!dev || !pd || o->itr > E1000_ITR_INTERVAL_MASK)
        return E1000_ERR_PARAM;
    *dev = (struct e1000_dev){ .pd = pd, .opts = *o };

    /* Global reset, as Linux: read-modify-write so other CTRL bits survive
     * into the reset request; the bit clears itself when reset completes. */
    uint32_t ctrl = plat_read32(pd, E1000_CTRL);
    plat_write32(pd, E1000_CTRL, ctrl | E1000_CTRL_RST);
    uint64_t waited;
    if (!reg_poll(pd, E1000_CTRL, E1000_CTRL_RST, 0, o->reset_timeout_ns, &ctrl, &waited)) {
        plat_log(pd, "e1000: CTRL.RST still set after %llu ns", (unsigned long long)waited);
        return E1000_ERR_RESET;
    }

    /* Force the link up (copper, auto-negotiated speed); STATUS.LU follows
     * once the PHY (or the link model) has a link. */
    plat_write32(pd, E1000_CTRL, ctrl | E1000_CTRL_SLU);
    uint32_t status = 0;
    int link = reg_poll(pd, E1000_STATUS, E1000_STATUS_LU, E1000_STATUS_LU, o->link_timeout_ns, &status,
                        &waited);
    dev->status = status;
    dev->pcix = (status & E1000_STATUS_PCIX_MODE) != 0;
    dev->func = (status & E1000_STATUS_FUNC_MASK) >> E1000_STATUS_FUNC_SHIFT;
    if (!link)
        plat_log(pd, "e1000: link down after %llu ns (STATUS 0x%08x)", (unsigned long long)waited, status);

    /* Mask everything, then read ICR so no cause left over from before the
     * reset fires as soon as causes are enabled. */
    plat_write32(pd, E1000_IMC, 0xFFFFFFFFu);
    (void)plat_read32(pd, E1000_ICR);

    plat_write32(pd, E1000_ITR, o->itr);
    plat_write32(pd, E1000_IMS, o->ims);
    plat_write32(pd, E1000_TIPG, o->tipg);
    plat_write32(pd, E1000_PBA, o->pba);

    /* Transmitter configured but disabled: the TX queue sets EN after it has
     * programmed the ring, so the MAC never fetches from an unset base. */
    dev->tctl = E1000_TCTL_PSP | E1000_TCTL_RTLC |
                (E1000_COLLISION_THRESHOLD << E1000_TCTL_CT_SHIFT) |
                (E1000_COLLISION_DISTANCE << E1000_TCTL_COLD_SHIFT);
    plat_write32(pd, E1000_TCTL, dev->tctl);
    return link ? 0 : E1000_ERR_LINK;
}

const char *e1000_dev_init_why(int rc)
{
    return rc == E1000_ERR_LINK ? ": no link" : rc == E1000_ERR_RESET ? ": CTRL.RST stuck" : "";
}

uint32_t e1000_irq_handle(struct e1000_dev *dev)
{
    uint32_t icr = plat_read32(dev->pd, E1000_ICR);
    if (icr)
        dev->irqs++;
    return icr;
}

static int crosses_64k(uint64_t bus, size_t len)
{
    return (bus >> 16) != ((bus + len - 1) >> 16);
}

void *e1000_ring_alloc(struct plat_dev *pd, uint32_t descs, const char *what,
                       size_t *ring_bytes, uint64_t *bus)
{
    size_t bytes = ((size_t)descs * E1000_DESC_BYTES + 4095u) & ~(size_t)4095u;
    *ring_bytes = bytes;
    void *ring = plat_dma_alloc(pd, bytes, 4096, bus);
    if (ring && crosses_64k(*bus, bytes)) {
        /* As Linux: allocate again where it cannot cross.  The first block
         * is not returned (plat.h has no free); it is at most 64 KB. */
        plat_log(pd, "e1000: %s ring at 0x%llx crosses 64 KB; reallocating", what,
                 (unsigned long long)*bus);
        ring = plat_dma_alloc(pd, bytes, 65536, bus);
    }
    return ring;
}

const char *e1000_dev_bus_str(const struct e1000_dev *dev, char *buf, size_t n)
{
    uint32_t s = dev->status;
    const char *mhz;
    if (s & E1000_STATUS_PCIX_MODE) {
        switch (s & E1000_STATUS_PCIX_SPEED_MASK) {
        case E1000_STATUS_PCIX_SPEED_66:  mhz = "66MHz"; break;
        case E1000_STATUS_PCIX_SPEED_100: mhz = "100MHz"; break;
        case E1000_STATUS_PCIX_SPEED_133: mhz = "133MHz"; break;
        default: mhz = "?MHz"; break;
        }
    } else {
        mhz = (s & E1000_STATUS_PCI66) ? "66MHz" : "33MHz";
    }
    snprintf(buf, n, "%s:%s:%s", (s & E1000_STATUS_PCIX_MODE) ? "PCI-X" : "PCI", mhz,
             (s & E1000_STATUS_BUS64) ? "64-bit" : "32-bit");
    return buf;
}
