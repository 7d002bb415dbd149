/* libFuzzer target (issue 5, "fuzzing"): the register and descriptor
 * interface of both RTL personalities, illegal values included.
 *
 * The fuzz input is a program for a minimal host around the Verilated model
 * (sim/device/nic_rtl.h, no bus timing): which personality, then operations — MMIO
 * writes and reads of the queue, control and interrupt registers (or of any
 * offset), writes of descriptor-sized chunks into a 64 KiB host memory,
 * received frames of any length and FCS, resets of the function through
 * CTRL.RST, and runs of clock cycles.  The host answers every DMA read from
 * that memory, beat by beat, with all ones outside it (a master abort, as
 * the simulator's adapter does), and takes every DMA write.
 *
 * What must hold, whatever the input: no crash, no sanitizer report, no
 * hang (each input runs a bounded number of cycles), an MMIO read is
 * answered, and the DMA interface keeps its contract (a request has a
 * length, a write's beats come only after its request, completions go only
 * to tags the device asked for).  A violation abort()s: libFuzzer keeps the
 * input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../sim/device/nic_rtl.h"

#define MEM_BASE   0x100000ull
#define MEM_BYTES  65536u
#define MAX_OPS    400u
#define MAX_CYCLES 40000u
#define READ_WAIT  256u          /* cycles an MMIO read may take */
#define MAX_READS  32u           /* DMA reads in flight the host tracks */

static uint8_t mem[MEM_BYTES];

struct dma_read { uint8_t func, tag; uint64_t addr; uint32_t left; };
static struct dma_read reads[MAX_READS];
static unsigned nreads;

struct prog { const uint8_t *p; size_t n; };
static uint8_t take(struct prog *g)
{
    if (!g->n)
        return 0;
    g->n--;
    return *g->p++;
}
static uint32_t take32(struct prog *g)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | take(g);
    return v;
}

static void violation(const char *what)
{
    fprintf(stderr, "fuzz_rtl: %s\n", what);
    abort();
}

/* Registers worth hitting, per personality (byte offsets in BAR0). */
static const uint32_t regs_82546[] = {
    0x0000, 0x0008, 0x0018, 0x00C0, 0x00C4, 0x00C8, 0x00D0, 0x00D8, 0x0100, 0x0400, 0x0410,
    0x1000, 0x2800, 0x2804, 0x2808, 0x2810, 0x2818, 0x2820, 0x2828, 0x282C, 0x3800, 0x3804,
    0x3808, 0x3810, 0x3818, 0x3820, 0x3828, 0x382C, 0x4000, 0x4074, 0x40D4,
};
static const uint32_t regs_82599[] = {
    0x00000, 0x00008, 0x00018, 0x00800, 0x00808, 0x00810, 0x00820, 0x00880, 0x00888, 0x00898,
    0x01000, 0x01004, 0x01008, 0x01010, 0x01018, 0x01028, 0x02100, 0x02F00, 0x03000, 0x03C00,
    0x04240, 0x042A4, 0x042A0, 0x04294, 0x05080, 0x06000, 0x06004, 0x06008, 0x06010, 0x06018,
    0x06028, 0x06038, 0x0603C, 0x10010, 0x04A80, 0x04900, 0x0CC00, 0x04074, 0x03FA0,
};

static nic_rtl *n;
static nic_rtl_in in;
static nic_rtl_out out;
static int is_82599;
static unsigned cycles;
static int wr_left;              /* beats of the DMA write in progress, -1 none */

/* One clock edge with the host's side of every interface. */
static void edge(uint8_t tx_ready, uint32_t tick)
{
    in.func_en = 3;
    in.func_tick[0] = in.func_tick[1] = tick;
    in.mac_tx_ready = tx_ready;
    /* one completion beat per edge, for the oldest read */
    in.cpl_valid = 0;
    if (nreads) {
        struct dma_read *r = &reads[0];
        uint32_t k = r->left < NIC_RTL_BEAT ? r->left : NIC_RTL_BEAT;
        memset(in.cpl_data, 0xFF, NIC_RTL_BEAT);
        for (uint32_t i = 0; i < k; i++) {
            uint64_t a = r->addr + i;
            if (a >= MEM_BASE && a < MEM_BASE + MEM_BYTES)
                in.cpl_data[i] = mem[a - MEM_BASE];
        }
        in.cpl_valid = 1;
        in.cpl_func = r->func;
        in.cpl_tag = r->tag;
        r->addr += k;
        r->left -= k;
        if (r->left == 0) {
            memmove(reads, reads + 1, (nreads - 1) * sizeof reads[0]);
            nreads--;
        }
    }
    nic_rtl_cycle(n, &in, &out);
    cycles++;
    in.mmio_valid = 0;
    in.mac_rx_valid = in.mac_rx_last = in.mac_rx_crc_ok = 0;
    if (out.req_valid) {
        if (out.req_len == 0)
            violation("a DMA request of length 0");
        if (out.req_write) {
            if (wr_left >= 0)
                violation("a DMA write request while another write's data is due");
            wr_left = (int)((out.req_len + NIC_RTL_BEAT - 1) / NIC_RTL_BEAT);
        } else if (nreads < MAX_READS) {
            reads[nreads++] = (struct dma_read){ out.req_func, out.req_tag, out.req_addr, out.req_len };
        }
    }
    if (out.wvalid) {
        if (wr_left <= 0)
            violation("DMA write data without a write request");
        if (--wr_left == 0)
            wr_left = -1;
    }
}

static void run(unsigned k, uint8_t tx_ready, uint32_t tick)
{
    for (unsigned i = 0; i < k && cycles < MAX_CYCLES; i++)
        edge(tx_ready, tick);
}

static uint32_t pick_reg(struct prog *g)
{
    uint8_t sel = take(g);
    if (sel < 200) {
        if (is_82599)
            return regs_82599[sel % (sizeof regs_82599 / sizeof regs_82599[0])];
        return regs_82546[sel % (sizeof regs_82546 / sizeof regs_82546[0])];
    }
    return (take32(g) & 0x1FFFC);              /* any dword of BAR0 */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct prog g = { data, size };
    uint8_t hdr = take(&g);
    is_82599 = hdr & 1;
    nic_rtl_straps s = { .model = (uint8_t)(is_82599 ? NIC_RTL_82599 : NIC_RTL_82546),
                         .ports = (uint8_t)((hdr & 2) ? 1 : 2), .link_up = 3, .pcix_mode = 1,
                         .pcix_speed = 2, .bus64 = 1, .pci66 = 1,
                         .mac = { { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 } } };
    n = nic_rtl_new(&s);
    if (!n)
        violation("nic_rtl_new failed");
    memset(&in, 0, sizeof in);
    memset(mem, 0, sizeof mem);
    nreads = 0;
    cycles = 0;
    wr_left = -1;
    nic_rtl_reset(n, &out);
    for (unsigned op = 0; op < MAX_OPS && g.n && cycles < MAX_CYCLES; op++) {
        uint8_t kind = take(&g) % 6;
        uint8_t func = take(&g) & 1;
        switch (kind) {
        case 0: {                               /* MMIO write */
            in.mmio_valid = 1;
            in.mmio_write = 1;
            in.mmio_func = func;
            in.mmio_addr = pick_reg(&g);
            in.mmio_wdata = take32(&g);
            edge(3, 0);
            break;
        }
        case 1: {                               /* MMIO read: must be answered */
            in.mmio_valid = 1;
            in.mmio_write = 0;
            in.mmio_func = func;
            in.mmio_addr = pick_reg(&g);
            edge(3, 0);
            unsigned w = 0;
            while (!out.mmio_rvalid && w++ < READ_WAIT && cycles < MAX_CYCLES)
                edge(3, 0);
            if (!out.mmio_rvalid && cycles < MAX_CYCLES)
                violation("an MMIO read was not answered");
            break;
        }
        case 2: {                               /* a descriptor-sized chunk of host memory */
            uint32_t off = ((uint32_t)take(&g) << 8 | take(&g)) & (MEM_BYTES - 16);
            uint64_t qw0 = (uint64_t)take32(&g) << 32 | take32(&g);
            uint64_t qw1 = (uint64_t)take32(&g) << 32 | take32(&g);
            if (take(&g) & 1)                   /* usually a buffer inside host memory */
                qw0 = MEM_BASE + (qw0 % (MEM_BYTES - 2048));
            memcpy(mem + off, &qw0, 8);
            memcpy(mem + off + 8, &qw1, 8);
            break;
        }
        case 3: {                               /* a received frame, any length */
            uint32_t len = (uint32_t)take(&g) * 8 + (take(&g) & 7);
            int crc_ok = take(&g) & 1;
            for (uint32_t sent = 0; sent < len || len == 0; ) {
                uint32_t k = len - sent < NIC_RTL_BEAT ? len - sent : NIC_RTL_BEAT;
                if (len == 0)
                    k = 1;
                in.mac_rx_valid = (uint8_t)(1u << func);
                in.mac_rx_nbytes[func] = (uint8_t)k;
                memset(in.mac_rx_data[func], (int)(sent & 0xFF), NIC_RTL_BEAT);
                sent += k;
                if (sent >= len) {
                    in.mac_rx_last = (uint8_t)(1u << func);
                    in.mac_rx_crc_ok = (uint8_t)(crc_ok << func);
                }
                edge(3, 0);
                if (len == 0 || cycles >= MAX_CYCLES)
                    break;
            }
            break;
        }
        case 4:                                 /* time passes: cycles, ticks, the link busy or not */
            run(1 + take(&g) * 4u, take(&g) & 3, take(&g) & 7);
            break;
        default: {                              /* a reset in the middle of whatever runs */
            in.mmio_valid = 1;
            in.mmio_write = 1;
            in.mmio_func = func;
            in.mmio_addr = 0;
            in.mmio_wdata = 1u << 26;           /* CTRL.RST */
            edge(3, 0);
            break;
        }
        }
    }
    run(2000, 3, 1);                            /* let it settle */
    nic_rtl_free(n);
    return 0;
}
