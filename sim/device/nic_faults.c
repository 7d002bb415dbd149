#include "nic_faults.h"
#include "../../models/splitmix64.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include <string.h>

/* descriptor fields of the write-back formats (nic-facts A3, B2) */
#define LEGACY_LEN 8         /* bytes 8-9 */
#define LEGACY_STA 12        /* DD bit 0, EOP bit 1 */
#define ADV_STA 8            /* bytes 8-11: DD bit 0, EOP bit 1 */
#define ADV_LEN 12           /* bytes 12-13: PKT_LEN */

const char *const nic_fault_names[NIC_FAULT_KINDS] = { "bogus_len", "phantom_dd", "stale_status" };

void nic_faults_init(nic_faults *f, unsigned kinds, unsigned rate_pct, uint64_t seed, int adv)
{
    memset(f, 0, sizeof *f);
    f->kinds = kinds & ((1u << NIC_FAULT_KINDS) - 1);
    f->rate_pct = rate_pct > 100 ? 100 : rate_pct;
    f->rng = seed;
    f->adv = adv;
}

void nic_faults_mmio(nic_faults *f, int func, uint32_t off, uint32_t val)
{
    if (!f->kinds || func < 0 || func >= NIC_RTL_PORTS)
        return;
    if (off == (f->adv ? IXGBE_RDBAL(0) : E1000_RDBAL))
        f->rdbal[func] = val;
    else if (off == (f->adv ? IXGBE_RDBAH(0) : E1000_RDBAH))
        f->rdbah[func] = val;
    else if (off == (f->adv ? IXGBE_RDLEN(0) : E1000_RDLEN))
        f->rdlen[func] = val & 0xFFF80u;
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static uint32_t bogus_len(nic_faults *f)
{
    switch (splitmix64(&f->rng) % 6) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 2 + (uint32_t)(splitmix64(&f->rng) % 4);    /* shorter than the FCS */
    case 3: return 2049;                                     /* a 2 KB buffer + 1 */
    case 4: return 0xFFFF;
    default: return (uint32_t)(splitmix64(&f->rng) & 0xFFFF);
    }
}

/* Corrupt one descriptor's write-back image d (16 bytes, the parts of it the
 * write carries: [lo, hi)); returns the kind injected, or -1. */
static int corrupt(nic_faults *f, int func, uint8_t *d, uint32_t lo, uint32_t hi, uint64_t next_desc,
                   const nic_mem_port *mem, ps_t t)
{
    uint32_t sta = f->adv ? ADV_STA : LEGACY_STA, len = f->adv ? ADV_LEN : LEGACY_LEN;
    uint32_t need_lo = sta < len ? sta : len, need_hi = sta + 1 > len + 2 ? sta + 1 : len + 2;
    if (lo > need_lo || hi < need_hi || !(d[sta] & 1))
        return -1;                           /* not a write-back carrying DD and a length */
    int chosen = -1;
    if (splitmix64(&f->rng) % 100 < f->rate_pct) {
        unsigned n = 0, pick;
        for (int k = 0; k < NIC_FAULT_KINDS; k++)
            n += (f->kinds >> k) & 1;
        pick = (unsigned)(splitmix64(&f->rng) % n);
        for (int k = 0; k < NIC_FAULT_KINDS; k++)
            if ((f->kinds >> k & 1) && pick-- == 0)
                chosen = k;
    }
    if (chosen == NIC_FAULT_STALE_STATUS && !f->have_stale[func])
        chosen = -1;                         /* nothing to repeat yet */
    uint8_t real[16];
    memcpy(real, d, 16);
    switch (chosen) {
    case NIC_FAULT_BOGUS_LEN:
        put16(d + len, bogus_len(f));
        break;
    case NIC_FAULT_PHANTOM_DD: {
        uint8_t p[16];
        if (mem->read(mem->ctx, next_desc, p, 16, t) != 0)
            return -1;
        p[sta] |= 0x03;                      /* DD | EOP */
        put16(p + len, (uint32_t)(splitmix64(&f->rng) % 1600));
        mem->write(mem->ctx, next_desc, p, 16, t);
        break;
    }
    case NIC_FAULT_STALE_STATUS:
        memcpy(d + 8, f->stale[func] + 8, 8);
        if (f->adv)
            memcpy(d, f->stale[func], 8);
        break;
    default:
        break;
    }
    memcpy(f->stale[func], real, 16);
    f->have_stale[func] = 1;
    if (chosen >= 0)
        f->injected[chosen]++;
    return chosen;
}

void nic_faults_dma_write(nic_faults *f, int func, uint64_t addr, uint8_t *data, uint32_t len,
                          const nic_mem_port *mem, ps_t t)
{
    if (!f->kinds || func < 0 || func >= NIC_RTL_PORTS || !f->rdlen[func])
        return;
    uint64_t ring = (uint64_t)f->rdbah[func] << 32 | (f->rdbal[func] & ~0x7Fu);
    uint64_t end = ring + f->rdlen[func];
    if (addr + len <= ring || addr >= end)
        return;
    /* every descriptor the write touches, with the part of it the write carries */
    uint64_t first = addr < ring ? ring : addr;
    for (uint64_t desc = ring + (first - ring) / 16 * 16; desc < addr + len && desc < end; desc += 16) {
        uint8_t d[16] = { 0 };
        uint32_t lo = desc < addr ? (uint32_t)(addr - desc) : 0;
        uint32_t hi = desc + 16 > addr + len ? (uint32_t)(addr + len - desc) : 16;
        memcpy(d + lo, data + (desc + lo - addr), hi - lo);
        uint64_t next = desc + 16 < end ? desc + 16 : ring;
        if (corrupt(f, func, d, lo, hi, next, mem, t) >= 0)
            memcpy(data + (desc + lo - addr), d + lo, hi - lo);
    }
}
