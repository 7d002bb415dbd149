/* Module-level tests of rtl/nic82599.v, the 82599 personality (two ixgbe
 * functions behind the nic82546 interface), through the C ABI of
 * testbench/rtl_module/nic82599_shim.h.
 *
 * The environment the device sees is modelled here, as the simulator's
 * adapter and bus model would present it: host memory, a DMA port that takes
 * every request, answers reads LAT cycles later in order, one 32-byte beat a
 * cycle packed from the first requested byte, and collects write beats into
 * memory; per port a link that is always ready and records the frames the
 * MAC sends, and a MAC receive stream that delivers queued frames as beats
 * on consecutive cycles (FCS included).  A 256 ns tick comes every
 * tick_period cycles.  In gated mode (GatedClockIdentical) a function is
 * clocked only while it reports work, an input for it is in the input flops,
 * or its next timer is due, as the adapter does.
 *
 * Register offsets and descriptor layouts come from the driver's
 * driver/ixgbe/ixgbe_regs.h (nic-facts B), the contract the RTL serves. */
#include "gtest_cunit.h"
#include "nic82599_shim.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_BYTES   (2u << 20)
#define PORT_BASE(p) ((uint64_t)(p) << 20)          /* each port's 1 MB of host memory */
#define TX_RING(p)  (PORT_BASE(p) + 0x00000u)
#define RX_RING(p)  (PORT_BASE(p) + 0x10000u)
#define HWB(p)      (PORT_BASE(p) + 0x20000u)
#define TX_BUF(p, i) (PORT_BASE(p) + 0x40000u + 0x800u * (uint64_t)(i))   /* i < 128 */
#define RX_BUF(p, i) (PORT_BASE(p) + 0x80000u + 0x800u * (uint64_t)(i))   /* i < 256 */
#define LAT         20u
#define MAXF        512u
#define NO_TIMER    0x3FFFFu

/* the model's delays (ixgbe_regs defaults), in 256 ns ticks */
#define ARD_TICKS   40u
#define DMA_TICKS   40u
#define LINK_TICKS  391u

/* Registers only an independent driver (DPDK's ixgbe PMD, issue 20) uses:
 * offsets and bits from DPDK's ixgbe_type.h, not the driver's header */
#define EERD            0x10014u
#define EERD_START      1u
#define EERD_DONE       2u
#define EERD_ADDR_SHIFT 2
#define EEC_SIZE(v)     (((v) >> 11) & 0xFu)      /* words: 1 << (SIZE + 6) */
#define SWSM            0x10140u
#define SWSM_SMBI       1u
#define SWSM_SWESMBI    2u
#define FWSM            0x10148u
#define SW_FW_SYNC      0x10160u
#define ANLP1           0x042B0u
#define ANLP1_AN_STATE  (0xFu << 16)
#define MSCA            0x0425Cu
#define MSCA_COMMAND    (1u << 30)
#define MSRWD           0x04260u
#define SECRXCTRL       0x08D00u
#define SECRXSTAT       0x08D04u
#define AUTOC_KX4       (1u << 7)                 /* 10G_PMA_PMD = 01 */
#define AUTOC_LMS_10G_NO_AN (1u << 13)            /* LMS = 001 */

static const uint64_t MAC0 = 0x564433221100ull;     /* 00:11:22:33:44:56 */
static const uint64_t MAC1 = 0xAB8967452302ull;     /* 02:23:45:67:89:ab */

typedef struct frame {
    uint32_t len;
    uint8_t  fcs;
    uint16_t ipg;
    uint64_t cycle;
    uint8_t  data[2048];
} frame;

typedef struct rxf {
    uint64_t at;
    uint32_t len;
    int      crc_ok;
    uint8_t  data[2048];
} rxf;

typedef struct rdreq {
    uint64_t due, addr;
    uint8_t  func, tag;
    uint32_t len, off;
} rdreq;

typedef struct wlog {
    uint64_t cycle, addr;
    uint32_t len;
    uint8_t  func;
} wlog;

static struct env {
    n99_model *m;
    n99_in in;
    n99_out out, pk;
    uint8_t *mem;
    uint64_t cycle, ticks;
    unsigned tick_period;
    uint32_t tick_extra;
    /* gating */
    int gated;
    uint8_t fn_active, prev_en;
    uint64_t fn_ticks[2], fn_wake[2], fn_edges[2];
    /* reads in flight, answered in order */
    rdreq rq[1024];
    unsigned rq_head, rq_n;
    /* the write being collected */
    int wr_open;
    uint8_t wr_func;
    uint64_t wr_addr;
    uint32_t wr_len, wr_got;
    uint8_t wr_buf[4096];
    wlog *wl;
    unsigned nwl;
    unsigned reads, faults, stray;
    /* frames sent, per port */
    frame *tx[2];
    unsigned ntx[2];
    frame cur[2];
    /* frames to receive, per port */
    rxf *rx[2];
    unsigned rx_n[2], rx_head[2];
    uint32_t rx_off[2];
    uint8_t mac_ready;
    /* interrupt line */
    unsigned irq_rises[2], irq_falls[2];
    uint64_t irq_tick[2][256], irq_cycle[2][256];
    uint8_t irq_prev;
} e;

/* ---- the environment ------------------------------------------------------ */

static void env_up_straps(uint8_t link_up, int gated)
{
    memset(&e, 0, sizeof e);
    e.mem = calloc(1, MEM_BYTES);
    e.wl = calloc(65536, sizeof *e.wl);
    for (int p = 0; p < 2; p++) {
        e.tx[p] = calloc(MAXF, sizeof(frame));
        e.rx[p] = calloc(MAXF, sizeof(rxf));
        CU_ASSERT_PTR_NOT_NULL_FATAL(e.tx[p]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e.rx[p]);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.mem);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.wl);
    n99_straps s = { .link_up = link_up, .mac = { MAC0, MAC1 } };
    e.m = n99_new(&s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
    e.tick_period = 8;
    e.mac_ready = 3;
    e.gated = gated;
    e.fn_active = 3;
    e.fn_wake[0] = e.fn_wake[1] = UINT64_MAX;
    /* power-on reset: a few edges with everything clocked, no ticks */
    e.in.rst_n = 0;
    e.in.func_en = 3;
    for (int k = 0; k < 4; k++)
        n99_cycle(e.m, &e.in, &e.out);
    e.in.rst_n = 1;
    e.prev_en = 3;
}

static void env_up(void)
{
    env_up_straps(3, 0);
}

static void env_down(void)
{
    n99_free(e.m);
    free(e.mem);
    free(e.wl);
    for (int p = 0; p < 2; p++) {
        free(e.tx[p]);
        free(e.rx[p]);
    }
    e.m = NULL;
}

static void mem_w64(uint64_t a, uint64_t v) { memcpy(e.mem + a, &v, 8); }
static uint64_t mem_r64(uint64_t a) { uint64_t v; memcpy(&v, e.mem + a, 8); return v; }
static uint32_t mem_r32(uint64_t a) { uint32_t v; memcpy(&v, e.mem + a, 4); return v; }

/* The next completion beat, from the oldest read that is due. */
static void cpl_beat(void)
{
    e.in.cvalid = 0;
    if (!e.rq_n)
        return;
    rdreq *r = &e.rq[e.rq_head % 1024];
    if (r->due > e.cycle)
        return;
    uint32_t n = r->len - r->off < N99_BEAT ? r->len - r->off : N99_BEAT;
    memset(e.in.cdata, 0, N99_BEAT);
    if (r->addr + r->off + n <= MEM_BYTES)
        memcpy(e.in.cdata, e.mem + r->addr + r->off, n);
    else
        e.faults++;
    e.in.cvalid = 1;
    e.in.cfunc = r->func;
    e.in.ctag = r->tag;
    r->off += n;
    if (r->off >= r->len) {
        e.rq_head++;
        e.rq_n--;
    }
}

/* The next beat of each port's received frame, when one is due. */
static void rx_beats(void)
{
    e.in.mac_rx_valid = e.in.mac_rx_last = e.in.mac_rx_crc_ok = 0;
    for (int p = 0; p < 2; p++) {
        if (e.rx_head[p] == e.rx_n[p])
            continue;
        rxf *f = &e.rx[p][e.rx_head[p]];
        if (e.rx_off[p] == 0 && f->at > e.cycle)
            continue;
        uint32_t n = f->len - e.rx_off[p] < N99_BEAT ? f->len - e.rx_off[p] : N99_BEAT;
        memset(e.in.mac_rx_data[p], 0, N99_BEAT);
        memcpy(e.in.mac_rx_data[p], f->data + e.rx_off[p], n);
        e.in.mac_rx_nbytes[p] = (uint8_t)n;
        e.in.mac_rx_valid |= (uint8_t)(1u << p);
        e.rx_off[p] += n;
        if (e.rx_off[p] == f->len) {
            e.in.mac_rx_last |= (uint8_t)(1u << p);
            if (f->crc_ok)
                e.in.mac_rx_crc_ok |= (uint8_t)(1u << p);
            e.rx_head[p]++;
            e.rx_off[p] = 0;
        }
    }
}

/* What the edge did: requests taken, write beats, MAC beats, the line. */
static void take_outputs(uint8_t fresh)
{
    const n99_out *o = &e.out;
    if (o->req_valid) {
        if (o->req_write) {
            if (e.wr_open || o->req_len > sizeof e.wr_buf) {
                e.stray++;
            } else {
                e.wr_open = 1;
                e.wr_func = o->req_func;
                e.wr_addr = o->req_addr;
                e.wr_len = o->req_len;
                e.wr_got = 0;
                if (e.nwl < 65536)
                    e.wl[e.nwl++] = (wlog){ e.cycle, o->req_addr, o->req_len, o->req_func };
            }
        } else if (e.rq_n < 1024) {
            e.rq[(e.rq_head + e.rq_n) % 1024] =
                (rdreq){ e.cycle + LAT, o->req_addr, o->req_func, o->req_tag, o->req_len, 0 };
            e.rq_n++;
            e.reads++;
        } else {
            e.stray++;
        }
    }
    if (o->wvalid) {
        if (!e.wr_open || e.wr_got >= e.wr_len) {
            e.stray++;
        } else {
            uint32_t n = e.wr_len - e.wr_got < N99_BEAT ? e.wr_len - e.wr_got : N99_BEAT;
            memcpy(e.wr_buf + e.wr_got, o->wdata, n);
            e.wr_got += n;
            if (e.wr_got == e.wr_len) {
                if (e.wr_addr + e.wr_len <= MEM_BYTES)
                    memcpy(e.mem + e.wr_addr, e.wr_buf, e.wr_len);
                else
                    e.faults++;
                e.wr_open = 0;
            }
        }
    }
    for (int p = 0; p < 2; p++) {
        /* a gated function's registered outputs are stale: take them only
         * when it was clocked at the edge that produced them */
        if (!(fresh >> p & 1) || !o->tx_valid[p])
            continue;
        frame *f = &e.cur[p];
        if (f->len + o->tx_nbytes[p] <= sizeof f->data)
            memcpy(f->data + f->len, o->tx_data[p], o->tx_nbytes[p]);
        f->len += o->tx_nbytes[p];
        if (o->tx_last[p]) {
            f->fcs = o->tx_fcs[p];
            f->ipg = o->tx_ipg[p];
            f->cycle = e.cycle;
            if (e.ntx[p] < MAXF)
                e.tx[p][e.ntx[p]++] = *f;
            memset(f, 0, sizeof *f);
        }
    }
    for (int p = 0; p < 2; p++) {
        int now = o->irq >> p & 1, before = e.irq_prev >> p & 1;
        if (now && !before) {
            if (e.irq_rises[p] < 256) {
                e.irq_tick[p][e.irq_rises[p]] = e.ticks;
                e.irq_cycle[p][e.irq_rises[p]] = e.cycle;
            }
            e.irq_rises[p]++;
        }
        if (!now && before)
            e.irq_falls[p]++;
    }
    e.irq_prev = o->irq;
}

static void step(void)
{
    cpl_beat();
    rx_beats();
    e.in.mac_tx_ready = e.mac_ready;
    uint64_t tk = e.tick_extra;
    if (e.tick_period && e.cycle % e.tick_period == e.tick_period - 1)
        tk++;
    e.tick_extra = 0;
    e.ticks += tk;
    if (!e.gated) {
        e.in.func_en = 3;
        e.in.func_tick[0] = e.in.func_tick[1] = (uint32_t)(tk > NO_TIMER ? NO_TIMER : tk);
    } else {
        e.in.func_en = 0;
        for (int f = 0; f < 2; f++) {
            if (e.ticks >= e.fn_wake[f]) {
                e.fn_active |= (uint8_t)(1u << f);
                e.fn_wake[f] = UINT64_MAX;
            }
            e.in.func_tick[f] = 0;
            if (!(e.fn_active >> f & 1))
                continue;
            e.in.func_en |= (uint8_t)(1u << f);
            uint64_t dt = e.ticks - e.fn_ticks[f];
            e.in.func_tick[f] = (uint32_t)(dt > NO_TIMER ? NO_TIMER : dt);
            e.fn_ticks[f] = e.ticks;
        }
    }
    for (int f = 0; f < 2; f++)
        if (e.in.func_en >> f & 1)
            e.fn_edges[f]++;
    n99_cycle(e.m, &e.in, &e.out);
    take_outputs(e.prev_en);
    e.prev_en = e.in.func_en;
    if (e.gated) {
        /* inputs that entered the input flops at this edge: their function
         * is clocked at the next one; a clocked function that reports no
         * work sleeps until its next timer */
        n99_peek(e.m, &e.pk);
        uint8_t hold = e.in.mac_rx_valid;
        if (e.in.mmio_valid)
            hold |= (uint8_t)(1u << (e.in.mmio_func & 1));
        if (e.in.cvalid)
            hold |= (uint8_t)(1u << (e.in.cfunc & 1));
        for (int f = 0; f < 2; f++) {
            if (hold >> f & 1) {
                e.fn_active |= (uint8_t)(1u << f);
            } else if ((e.in.func_en >> f & 1) && (e.pk.func_idle >> f & 1)) {
                e.fn_active &= (uint8_t)~(1u << f);
                if (e.pk.next_timer[f] != NO_TIMER)
                    e.fn_wake[f] = e.fn_ticks[f] + e.pk.next_timer[f];
            }
        }
    }
    e.in.mmio_valid = 0;
    e.cycle++;
}

static void run(unsigned n)
{
    while (n--)
        step();
}

/* Run until `ticks` more 256 ns ticks have passed. */
static void run_ticks(uint64_t ticks)
{
    uint64_t end = e.ticks + ticks;
    while (e.ticks < end)
        step();
}

static int rx_pending(void)
{
    return e.rx_head[0] != e.rx_n[0] || e.rx_head[1] != e.rx_n[1];
}

/* Run until the device and the environment are quiet (4 cycles in a row);
 * the cycles it took, or -1 if it never was. */
static long run_idle(long max)
{
    long n = 0;
    int quiet = 0;
    while (n < max) {
        step();
        n++;
        if (e.out.idle && e.out.func_idle == 3 && !e.rq_n && !e.wr_open && !rx_pending() &&
            !e.in.mac_rx_valid) {
            if (++quiet >= 4)
                return n;
        } else {
            quiet = 0;
        }
    }
    return -1;
}

static void wr32(int f, uint32_t off, uint32_t v)
{
    e.in.mmio_valid = 1;
    e.in.mmio_write = 1;
    e.in.mmio_func = (uint8_t)f;
    e.in.mmio_addr = off;
    e.in.mmio_wdata = v;
    step();
}

static uint32_t rd32(int f, uint32_t off)
{
    e.in.mmio_valid = 1;
    e.in.mmio_write = 0;
    e.in.mmio_func = (uint8_t)f;
    e.in.mmio_addr = off;
    step();
    for (int i = 0; i < 16; i++) {
        step();
        if (e.out.mmio_rvalid)
            return e.out.mmio_rdata;
    }
    CU_FAIL("MMIO read never answered");
    return 0xDEADBEEF;
}

static void rmw(int f, uint32_t off, uint32_t clear, uint32_t set)
{
    wr32(f, off, (rd32(f, off) & ~clear) | set);
}

/* Poll a register until (v & mask) == want, reading every `gap` cycles; 1
 * when it got there within max_ticks. */
static int poll(int f, uint32_t off, uint32_t mask, uint32_t want, uint64_t max_ticks, uint32_t *last)
{
    uint64_t end = e.ticks + max_ticks;
    for (;;) {
        uint32_t v = rd32(f, off);
        if (last)
            *last = v;
        if ((v & mask) == want)
            return 1;
        if (e.ticks > end)
            return 0;
        run(4);
    }
}

/* ---- driver side ------------------------------------------------------------ */

/* The ixy bring-up of nic-facts B1a (steps 1-10 and 14); 0 on success. */
static int bring_up(int f)
{
    wr32(f, IXGBE_EIMC, IXGBE_EIMC_ALL);
    (void)rd32(f, IXGBE_EICR);
    rmw(f, IXGBE_CTRL, 0, IXGBE_CTRL_RST_MASK);
    if (!poll(f, IXGBE_CTRL, IXGBE_CTRL_RST_MASK, 0, 100, NULL))
        return 1;
    wr32(f, IXGBE_EIMC, IXGBE_EIMC_ALL);
    if (!poll(f, IXGBE_EEC, IXGBE_EEC_ARD, IXGBE_EEC_ARD, 4 * ARD_TICKS, NULL))
        return 2;
    if (!poll(f, IXGBE_RDRXCTL, IXGBE_RDRXCTL_DMAIDONE, IXGBE_RDRXCTL_DMAIDONE, 4 * DMA_TICKS, NULL))
        return 3;
    rmw(f, IXGBE_AUTOC, IXGBE_AUTOC_LMS_MASK | IXGBE_AUTOC_10G_PMA_PMD_MASK,
        IXGBE_AUTOC_LMS_10G_SERIAL | IXGBE_AUTOC_10G_XAUI | IXGBE_AUTOC_AN_RESTART);
    /* statistics read once to clear them */
    static const uint32_t stats[] = { IXGBE_CRCERRS, IXGBE_GPRC, IXGBE_GPTC, IXGBE_GORCL, IXGBE_GORCH,
                                      IXGBE_GOTCL, IXGBE_GOTCH, IXGBE_TPR, IXGBE_TPT, IXGBE_TORL,
                                      IXGBE_TORH, IXGBE_MPC(0), IXGBE_RNBC(0) };
    for (unsigned i = 0; i < sizeof stats / sizeof stats[0]; i++)
        (void)rd32(f, stats[i]);
    /* RX (B1a step 9) */
    rmw(f, IXGBE_RXCTRL, IXGBE_RXCTRL_RXEN, 0);
    for (uint32_t i = 0; i < 8; i++)
        wr32(f, IXGBE_RXPBSIZE(i), i ? 0 : 128u << IXGBE_PBSIZE_KB_SHIFT);
    rmw(f, IXGBE_HLREG0, 0, IXGBE_HLREG0_RXCRCSTRP);
    rmw(f, IXGBE_RDRXCTL, 0, IXGBE_RDRXCTL_CRCSTRIP);
    rmw(f, IXGBE_FCTRL, 0, IXGBE_FCTRL_BAM);
    rmw(f, IXGBE_CTRL_EXT, 0, IXGBE_CTRL_EXT_NS_DIS);
    rmw(f, IXGBE_RXCTRL, 0, IXGBE_RXCTRL_RXEN);
    /* TX (B1a step 10) */
    rmw(f, IXGBE_HLREG0, 0, IXGBE_HLREG0_TXCRCEN | IXGBE_HLREG0_TXPADEN);
    for (uint32_t i = 0; i < 8; i++)
        wr32(f, IXGBE_TXPBSIZE(i), i ? 0 : 40u << IXGBE_PBSIZE_KB_SHIFT);
    wr32(f, IXGBE_DTXMXSZRQ, IXGBE_DTXMXSZRQ_IXY);
    rmw(f, IXGBE_RTTDCS, IXGBE_RTTDCS_ARBDIS, 0);
    rmw(f, IXGBE_DMATXCTL, 0, IXGBE_DMATXCTL_TE);
    /* link (B1a step 14) */
    if (!poll(f, IXGBE_LINKS, IXGBE_LINKS_UP, IXGBE_LINKS_UP, 4 * LINK_TICKS, NULL))
        return 4;
    return 0;
}

/* TX queue 0 of function f (B1a step 12): ring of n descriptors. */
static int tx_setup(int f, unsigned n, int hwb, uint32_t pth, uint32_t hth, uint32_t wth)
{
    memset(e.mem + TX_RING(f), 0, n * 16u);
    wr32(f, IXGBE_TDBAL(0), (uint32_t)TX_RING(f));
    wr32(f, IXGBE_TDBAH(0), 0);
    wr32(f, IXGBE_TDLEN(0), n * 16u);
    wr32(f, IXGBE_TDH(0), 0);
    wr32(f, IXGBE_TDT(0), 0);
    wr32(f, IXGBE_TDWBAH(0), 0);
    wr32(f, IXGBE_TDWBAL(0), hwb ? (uint32_t)HWB(f) | IXGBE_TDWBAL_HEAD_WB_ENABLE : 0);
    wr32(f, IXGBE_TXDCTL(0), pth | hth << 8 | wth << 16 | IXGBE_TXDCTL_ENABLE);
    return poll(f, IXGBE_TXDCTL(0), IXGBE_TXDCTL_ENABLE, IXGBE_TXDCTL_ENABLE, 100, NULL);
}

/* RX queue 0 of function f (B1a steps 9 and 11): ring of n descriptors with
 * 2 KB buffers, RDT = n - 1 unless post is 0 (then RDT = RDH = 0). */
static int rx_setup(int f, unsigned n, int drop_en, uint32_t wthresh, int post)
{
    wr32(f, IXGBE_SRRCTL(0), (2048u >> IXGBE_SRRCTL_BSIZEPKT_SHIFT) | IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF |
                                 (drop_en ? IXGBE_SRRCTL_DROP_EN : 0));
    rmw(f, IXGBE_DCA_RXCTRL(0), IXGBE_DCA_RXCTRL_RSVD12, 0);
    memset(e.mem + RX_RING(f), 0xFF, n * 16u);
    wr32(f, IXGBE_RDBAL(0), (uint32_t)RX_RING(f));
    wr32(f, IXGBE_RDBAH(0), 0);
    wr32(f, IXGBE_RDLEN(0), n * 16u);
    wr32(f, IXGBE_RDH(0), 0);
    wr32(f, IXGBE_RDT(0), 0);
    for (unsigned i = 0; i < n; i++) {
        mem_w64(RX_RING(f) + 16u * i, RX_BUF(f, i));
        mem_w64(RX_RING(f) + 16u * i + 8, 0);
        memset(e.mem + RX_BUF(f, i), 0xEE, 2048);
    }
    wr32(f, IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE | wthresh << 16);
    if (!poll(f, IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE, IXGBE_RXDCTL_ENABLE, 100, NULL))
        return 0;
    if (post)
        wr32(f, IXGBE_RDT(0), n - 1);
    return 1;
}

/* A packet's bytes: DA (port p's own address), SA, ethertype, then a
 * pattern of (port, index). */
static void pkt_bytes(uint8_t *d, uint32_t len, int p, unsigned i)
{
    const uint64_t da = p ? MAC1 : MAC0;
    memset(d, 0, len);
    for (int k = 0; k < 6; k++)
        d[k] = (uint8_t)(da >> (8 * k));
    d[6] = 0x02;
    d[7] = (uint8_t)p;
    d[8] = (uint8_t)i;
    d[12] = 0x08;
    for (uint32_t k = 14; k < len; k++)
        d[k] = (uint8_t)(k * 7u + i * 13u + (unsigned)p * 101u);
}

/* TX descriptor i: a whole packet of len bytes from TX_BUF(f, i % 128). */
static void tx_desc(int f, unsigned ring, unsigned i, uint32_t len, int rs)
{
    uint64_t buf = TX_BUF(f, i % 128);
    pkt_bytes(e.mem + buf, len, f, i);
    uint64_t cmd = IXGBE_TXD_CMD_EOP | IXGBE_TXD_CMD_IFCS | IXGBE_TXD_CMD_DEXT | (rs ? IXGBE_TXD_CMD_RS : 0);
    uint64_t qw1 = len | IXGBE_ADVTXD_DTYP_DATA | IXGBE_ADVTXD_DCMD(cmd) |
                   ((uint64_t)len << IXGBE_ADVTXD_PAYLEN_SHIFT);
    mem_w64(TX_RING(f) + 16u * (i % ring), buf);
    mem_w64(TX_RING(f) + 16u * (i % ring) + 8, qw1);
}

/* A received frame for port p at cycle `at`: len bytes including the FCS
 * (the last 4 bytes, a recognisable pattern). */
static void rx_frame(int p, uint64_t at, uint32_t len, unsigned i, int crc_ok)
{
    CU_ASSERT_FATAL(e.rx_n[p] < MAXF);
    rxf *f = &e.rx[p][e.rx_n[p]++];
    f->at = at;
    f->len = len;
    f->crc_ok = crc_ok;
    pkt_bytes(f->data, len, p, 1000 + i);
    for (int k = 0; k < 4; k++)
        f->data[len - 4 + k] = (uint8_t)(0xF0 + k);
}

/* EITR register value as Linux writes it for us microseconds: us x 4 (the
 * field 11:3 counts 2.048 us; Linux calls it 2 us) */
static uint32_t eitr_us(uint32_t us) { return (us * 4u) & IXGBE_EITR_ITR_INT_MASK; }

static uint64_t rx_wb(int f, unsigned i) { return mem_r64(RX_RING(f) + 16u * i + 8); }

/* ---- tests -------------------------------------------------------------------- */

/* The register side of the ixy bring-up: CTRL.RST self-clears, EEC.ARD and
 * RDRXCTL.DMAIDONE come after their delay (not before), the MAC address is
 * in RAL(0)/RAH(0), LINKS comes up with 10 Gb/s after its delay while the
 * strap is up (with EICR.LSC), and never while it is down. */
static void test_bring_up(void)
{
    env_up_straps(1, 0);                    /* port 1 has no link partner */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_CTRL), 0);
    uint32_t st0 = rd32(0, IXGBE_STATUS), st1 = rd32(1, IXGBE_STATUS);
    CU_ASSERT_EQUAL((st0 & IXGBE_STATUS_LAN_ID_MASK) >> IXGBE_STATUS_LAN_ID_SHIFT, 0);
    CU_ASSERT_EQUAL((st1 & IXGBE_STATUS_LAN_ID_MASK) >> IXGBE_STATUS_LAN_ID_SHIFT, 1);
    CU_ASSERT(st0 & IXGBE_STATUS_GIO);
    CU_ASSERT(rd32(0, IXGBE_EEC) & IXGBE_EEC_PRES);

    /* CTRL.RST | LNK_RST: read back set at once, clear within a few cycles */
    wr32(0, IXGBE_CTRL, IXGBE_CTRL_RST_MASK);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_CTRL) & IXGBE_CTRL_RST_MASK, IXGBE_CTRL_RST_MASK);
    uint64_t c0 = e.cycle;
    CU_ASSERT_FATAL(poll(0, IXGBE_CTRL, IXGBE_CTRL_RST_MASK, 0, 100, NULL));
    CU_ASSERT(e.cycle - c0 < 40);
    uint64_t t0 = e.ticks;

    /* ARD and DMAIDONE: clear now, set after their delay */
    uint32_t eec = rd32(0, IXGBE_EEC);
    CU_ASSERT(eec & IXGBE_EEC_PRES);
    CU_ASSERT_FALSE(eec & IXGBE_EEC_ARD);
    CU_ASSERT_FALSE(rd32(0, IXGBE_RDRXCTL) & IXGBE_RDRXCTL_DMAIDONE);
    CU_ASSERT_FALSE(rd32(0, IXGBE_LINKS) & IXGBE_LINKS_UP);
    while (!(rd32(0, IXGBE_EEC) & IXGBE_EEC_ARD) && e.ticks < t0 + 200)
        ;
    CU_ASSERT(e.ticks - t0 >= ARD_TICKS - 1 && e.ticks - t0 <= ARD_TICKS + 2);
    CU_ASSERT(rd32(0, IXGBE_RDRXCTL) & IXGBE_RDRXCTL_DMAIDONE);

    /* the MAC address as the EEPROM loads it, AV set */
    uint32_t ral = rd32(0, IXGBE_RAL(0)), rah = rd32(0, IXGBE_RAH(0));
    CU_ASSERT_EQUAL(ral, 0x33221100u);
    CU_ASSERT_EQUAL(rah, 0x80000000u | 0x5644u);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RAL(0)), 0x67452302u);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RAH(0)), 0x8000AB89u);

    /* link: AN restart, then up with 10 Gb/s after the link delay */
    wr32(0, IXGBE_EIMC, IXGBE_EIMC_ALL);
    (void)rd32(0, IXGBE_EICR);
    rmw(0, IXGBE_AUTOC, IXGBE_AUTOC_LMS_MASK, IXGBE_AUTOC_LMS_10G_SERIAL | IXGBE_AUTOC_AN_RESTART);
    uint64_t t1 = e.ticks;
    /* AN_RESTART is a strobe; the rest of the reset value (KX4) stays */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_AUTOC), IXGBE_AUTOC_LMS_10G_SERIAL | AUTOC_KX4);
    run_ticks(LINK_TICKS - 20);
    CU_ASSERT_FALSE(rd32(0, IXGBE_LINKS) & IXGBE_LINKS_UP);
    CU_ASSERT_FALSE(rd32(0, IXGBE_EICR) & IXGBE_EICR_LSC);
    uint32_t links = 0;
    CU_ASSERT_FATAL(poll(0, IXGBE_LINKS, IXGBE_LINKS_UP, IXGBE_LINKS_UP, 100, &links));
    CU_ASSERT(e.ticks - t1 >= LINK_TICKS - 1 && e.ticks - t1 <= LINK_TICKS + 3);
    CU_ASSERT_EQUAL(links & IXGBE_LINKS_SPEED_MASK, IXGBE_LINKS_SPEED_10G);
    CU_ASSERT(rd32(0, IXGBE_EICR) & IXGBE_EICR_LSC);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0);                            /* read cleared it */

    /* port 1: no link partner, no link */
    run_ticks(2 * LINK_TICKS);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_LINKS), 0);
    CU_ASSERT(rd32(0, IXGBE_LINKS) & IXGBE_LINKS_UP);
    /* the whole ixy sequence on port 0; on port 1 it stops at the link */
    CU_ASSERT_EQUAL(bring_up(0), 0);
    CU_ASSERT_EQUAL(bring_up(1), 4);
    env_down();
}

/* The card's EEPROM through EERD, as DPDK's base code reads and checks it
 * (ixgbe_init_eeprom_params_generic, ixgbe_calc_eeprom_checksum_generic):
 * EEC.SIZE gives 256 words, both functions read the same image, its
 * checksum holds, and the LAN Core modules hold the MAC-address straps. */
static void test_eeprom_image(void)
{
    env_up();
    uint32_t eec = rd32(0, IXGBE_EEC);
    CU_ASSERT(eec & IXGBE_EEC_PRES);
    unsigned words = 1u << (EEC_SIZE(eec) + 6);
    CU_ASSERT_EQUAL_FATAL(words, 256);
    uint16_t w[2][256];
    for (int f = 0; f < 2; f++)
        for (unsigned a = 0; a < words; a++) {
            wr32(f, EERD, a << EERD_ADDR_SHIFT | EERD_START);
            uint32_t v = rd32(f, EERD);
            CU_ASSERT_EQUAL(v & EERD_DONE, EERD_DONE);
            CU_ASSERT_EQUAL((v >> EERD_ADDR_SHIFT) & 0x3FFFu, a);
            w[f][a] = (uint16_t)(v >> 16);
        }
    CU_ASSERT(memcmp(w[0], w[1], sizeof w[0]) == 0);
    /* the checksum: words 0x00..0x3E, then each present section pointed to
     * by words 0x03..0x0E but 0x04 and 0x05 (PHY, option ROM) */
    uint16_t sum = 0;
    for (unsigned a = 0; a < 0x3F; a++)
        sum = (uint16_t)(sum + w[0][a]);
    for (unsigned i = 0x03; i < 0x0F; i++) {
        uint16_t ptr = w[0][i], len;
        if (i == 0x04 || i == 0x05 || ptr == 0 || ptr == 0xFFFF || ptr >= words)
            continue;
        len = w[0][ptr];
        if (len == 0 || len == 0xFFFF || ptr + len >= words)
            continue;
        for (unsigned j = ptr + 1u; j <= ptr + (unsigned)len; j++)
            sum = (uint16_t)(sum + w[0][j]);
    }
    CU_ASSERT_EQUAL((uint16_t)(0xBABA - sum), w[0][0x3F]);
    /* LAN Core 0 / 1 modules (pointers 0x09 / 0x0A): length 3, the address */
    const uint64_t mac[2] = { MAC0, MAC1 };
    for (int p = 0; p < 2; p++) {
        uint16_t ptr = w[0][0x09 + p];
        CU_ASSERT_FATAL(ptr > 0x3F && ptr + 3u < words);
        CU_ASSERT_EQUAL(w[0][ptr], 3);
        for (int k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(w[0][ptr + 1 + k], (uint16_t)(mac[p] >> (16 * k)));
    }
    /* no firmware module, no SAN MAC blocks */
    CU_ASSERT_EQUAL(w[0][0x0F], 0xFFFF);
    CU_ASSERT_EQUAL(w[0][0x27], 0xFFFF);
    CU_ASSERT_EQUAL(w[0][0x28], 0xFFFF);
    env_down();
}

/* SWSM and SW_FW_SYNC are one copy for the device: a semaphore one
 * function's driver took is taken for the other's.  SMBI is set by the read
 * that returns 0; SWESMBI and the software bits of SW_FW_SYNC stick; the
 * firmware bits read 0. */
static void test_shared_semaphores(void)
{
    env_up();
    CU_ASSERT_EQUAL(rd32(0, SWSM), 0);                   /* function 0 owns SMBI now */
    CU_ASSERT_EQUAL(rd32(1, SWSM) & SWSM_SMBI, SWSM_SMBI);
    CU_ASSERT_EQUAL(rd32(0, SWSM) & SWSM_SMBI, SWSM_SMBI);
    wr32(0, SWSM, SWSM_SMBI | SWSM_SWESMBI);
    CU_ASSERT_EQUAL(rd32(1, SWSM), SWSM_SMBI | SWSM_SWESMBI);
    wr32(0, SWSM, 0);                                    /* released */
    CU_ASSERT_EQUAL(rd32(1, SWSM), 0);                   /* function 1 takes it */
    CU_ASSERT_EQUAL(rd32(0, SWSM), SWSM_SMBI);
    wr32(1, SWSM, 0);
    wr32(0, SW_FW_SYNC, 0xFFFFFFFFu);
    CU_ASSERT_EQUAL(rd32(1, SW_FW_SYNC), 0x41Fu);        /* EEP, PHY0/1, MAC_CSR, FLASH, SW_MNG */
    wr32(1, SW_FW_SYNC, 0x2u);
    CU_ASSERT_EQUAL(rd32(0, SW_FW_SYNC), 0x2u);
    /* a function reset is not a device reset: the semaphores stay */
    wr32(0, IXGBE_CTRL, IXGBE_CTRL_RST_MASK);
    run_ticks(4);
    CU_ASSERT_EQUAL(rd32(0, SW_FW_SYNC), 0x2u);
    CU_ASSERT_EQUAL(rd32(0, FWSM), 0);                   /* no firmware */
    env_down();
}

/* What a backplane (KX4) port without a PHY shows a driver: AUTOC's reset
 * value, an autonegotiation state machine out of reset, an MDIO bus where
 * commands complete and nothing answers, and no security engine. */
static void test_backplane_registers(void)
{
    env_up();
    CU_ASSERT_EQUAL(rd32(0, IXGBE_AUTOC), AUTOC_LMS_10G_NO_AN | AUTOC_KX4);
    CU_ASSERT(rd32(0, ANLP1) & ANLP1_AN_STATE);
    wr32(0, MSCA, MSCA_COMMAND | 0x0C000002u);           /* read, PHY 0, register 2 */
    CU_ASSERT_EQUAL(rd32(0, MSCA) & MSCA_COMMAND, 0);
    CU_ASSERT_EQUAL(rd32(0, MSRWD) >> 16, 0xFFFFu);
    CU_ASSERT_EQUAL(rd32(0, SECRXCTRL), 1u);             /* SECRX_DIS: no engine */
    wr32(0, SECRXCTRL, 0);
    CU_ASSERT_EQUAL(rd32(0, SECRXCTRL), 1u);
    wr32(0, SECRXCTRL, 2u);                              /* RX_DIS */
    CU_ASSERT_EQUAL(rd32(0, SECRXCTRL), 3u);
    CU_ASSERT_EQUAL(rd32(0, SECRXSTAT) & 1u, 1u);        /* SECRX_RDY */
    /* CTRL.RST brings AUTOC back to its default */
    wr32(0, IXGBE_AUTOC, IXGBE_AUTOC_LMS_10G_SERIAL);
    wr32(0, IXGBE_CTRL, IXGBE_CTRL_RST_MASK);
    run_ticks(4);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_AUTOC), AUTOC_LMS_10G_NO_AN | AUTOC_KX4);
    env_down();
}

/* Queue registers: queue 0 takes ENABLE, queue 3 (no engine) keeps it 0
 * while its other bits read back; reset values and packet-buffer sizes. */
static void test_queue_registers(void)
{
    env_up();
    CU_ASSERT_EQUAL(rd32(0, IXGBE_SRRCTL(0)), 0x402u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_DCA_RXCTRL(0)) & IXGBE_DCA_RXCTRL_RSVD12, IXGBE_DCA_RXCTRL_RSVD12);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_DCA_RXCTRL(5)) & IXGBE_DCA_RXCTRL_RSVD12, IXGBE_DCA_RXCTRL_RSVD12);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXPBSIZE(0)), 128u << 10);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXPBSIZE(1)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TXPBSIZE(0)), 40u << 10);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TXDCTL(0)), 0);

    const uint32_t txd = 36u | 8u << 8 | 4u << 16 | IXGBE_TXDCTL_ENABLE;
    wr32(0, IXGBE_TXDCTL(0), txd);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TXDCTL(0)), txd);
    wr32(0, IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXDCTL(0)), IXGBE_RXDCTL_ENABLE);
    /* queue 3 has no engine: ENABLE stays 0, polled as a driver would */
    wr32(0, IXGBE_TXDCTL(3), txd);
    wr32(0, IXGBE_RXDCTL(3), IXGBE_RXDCTL_ENABLE | IXGBE_RXDCTL_VME);
    uint32_t v = 0;
    CU_ASSERT_FALSE(poll(0, IXGBE_TXDCTL(3), IXGBE_TXDCTL_ENABLE, IXGBE_TXDCTL_ENABLE, 50, &v));
    CU_ASSERT_EQUAL(v, txd & ~IXGBE_TXDCTL_ENABLE);
    CU_ASSERT_FALSE(poll(0, IXGBE_RXDCTL(3), IXGBE_RXDCTL_ENABLE, IXGBE_RXDCTL_ENABLE, 50, &v));
    CU_ASSERT_EQUAL(v, IXGBE_RXDCTL_VME);
    /* on the other function too */
    wr32(1, IXGBE_TXDCTL(7), IXGBE_TXDCTL_ENABLE);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_TXDCTL(7)), 0);
    wr32(1, IXGBE_TXDCTL(0), IXGBE_TXDCTL_ENABLE);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_TXDCTL(0)), IXGBE_TXDCTL_ENABLE);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TXDCTL(0)), txd);           /* the functions are apart */

    /* the other registers of queue 3 read back (ring bases 128-byte aligned) */
    wr32(0, IXGBE_RDBAL(3), 0x12345688u);
    wr32(0, IXGBE_RDBAH(3), 0x9u);
    wr32(0, IXGBE_RDLEN(3), 4096);
    wr32(0, IXGBE_RDT(3), 77);
    wr32(0, IXGBE_TDBAL(3), 0xABCDEF80u);
    wr32(0, IXGBE_TDLEN(3), 1024);
    wr32(0, IXGBE_TDT(3), 5);
    wr32(0, IXGBE_TDWBAL(3), 0x1001u);
    wr32(0, IXGBE_SRRCTL(3), 4u | IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF | IXGBE_SRRCTL_DROP_EN);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDBAL(3)), 0x12345680u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDBAH(3)), 0x9u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDLEN(3)), 4096);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDT(3)), 77);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDBAL(3)), 0xABCDEF80u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDLEN(3)), 1024);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDT(3)), 5);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDWBAL(3)), 0x1001u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_SRRCTL(3)), 4u | IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF | IXGBE_SRRCTL_DROP_EN);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDBAL(0)), 0);                /* queue 0 untouched */
    /* SWFLSH is a strobe: reads 0 */
    wr32(0, IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE | IXGBE_RXDCTL_SWFLSH);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXDCTL(0)), IXGBE_RXDCTL_ENABLE);
    /* packet-buffer sizes, HLREG0, FCTRL */
    wr32(0, IXGBE_RXPBSIZE(0), 512u << 10);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXPBSIZE(0)), 512u << 10);
    wr32(0, IXGBE_HLREG0, IXGBE_HLREG0_JUMBOEN | IXGBE_HLREG0_RXCRCSTRP);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_HLREG0), IXGBE_HLREG0_JUMBOEN | IXGBE_HLREG0_RXCRCSTRP);
    wr32(0, IXGBE_FCTRL, IXGBE_FCTRL_BAM | IXGBE_FCTRL_UPE | IXGBE_FCTRL_MPE);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_FCTRL), IXGBE_FCTRL_BAM | IXGBE_FCTRL_UPE | IXGBE_FCTRL_MPE);
    /* CTRL.RST restores the reset values */
    wr32(0, IXGBE_CTRL, IXGBE_CTRL_RST);
    CU_ASSERT_FATAL(poll(0, IXGBE_CTRL, IXGBE_CTRL_RST, 0, 100, NULL));
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TXDCTL(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDBAL(3)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXPBSIZE(0)), 128u << 10);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_TXDCTL(0)), IXGBE_TXDCTL_ENABLE);   /* function 1 kept its state */
    env_down();
}

/* Eight 60-byte packets (64 on the wire) from advanced descriptors: the
 * frames leave port 0 with their bytes, FCS and the 12-byte gap; DD only on
 * the RS descriptors; TDH; the counters (clear on read); EICR bit 0. */
static void test_transmit(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(tx_setup(0, 64, 0, 0, 0, 0));
    wr32(0, IXGBE_EIMS, 1);
    for (unsigned i = 0; i < 8; i++)
        tx_desc(0, 64, i, 60, i == 3 || i == 7);
    wr32(0, IXGBE_TDT(0), 8);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL_FATAL(e.ntx[0], 8);
    CU_ASSERT_EQUAL(e.ntx[1], 0);
    uint8_t want[2048];
    for (unsigned i = 0; i < 8; i++) {
        frame *f = &e.tx[0][i];
        pkt_bytes(want, 60, 0, i);
        CU_ASSERT_EQUAL(f->len, 60);
        CU_ASSERT(memcmp(f->data, want, 60) == 0);
        CU_ASSERT_EQUAL(f->fcs, 1);
        CU_ASSERT_EQUAL(f->ipg, 12);
        int dd = (mem_r64(TX_RING(0) + 16u * i + 8) & IXGBE_ADVTXD_STAT_DD) != 0;
        CU_ASSERT_EQUAL(dd, i == 3 || i == 7);
    }
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDH(0)), 8);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPTC), 8);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPTC), 0);                  /* cleared by the read */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GOTCL), 8 * 64);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GOTCH), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TPT), 8);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QPTC(0)), 8);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QPTC(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBTC_L(0)), 8 * 64);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBTC_H(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBTC_L(0)), 0);          /* cleared with the high half */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QPTC(1)), 0);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_GPTC), 0);
    CU_ASSERT(e.irq_rises[0] >= 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR) & 1u, 1u);
    CU_ASSERT_EQUAL(e.irq_rises[1], 0);
    CU_ASSERT_EQUAL(e.faults + e.stray, 0);
    /* more, to the ring end (64) and across it, with the tail moved in steps */
    for (unsigned i = 8; i < 64; i++)
        tx_desc(0, 64, i, 60 + i, 1);
    wr32(0, IXGBE_TDT(0), 40);
    run(300);
    wr32(0, IXGBE_TDT(0), 0);
    CU_ASSERT(run_idle(50000) > 0);
    for (unsigned i = 64; i < 100; i++)
        tx_desc(0, 64, i, 60 + i, 1);
    wr32(0, IXGBE_TDT(0), 100 % 64);
    CU_ASSERT(run_idle(50000) > 0);
    CU_ASSERT_EQUAL_FATAL(e.ntx[0], 100);
    for (unsigned i = 8; i < 100; i++) {
        pkt_bytes(want, 60 + i, 0, i);
        CU_ASSERT_EQUAL(e.tx[0][i].len, 60 + i);
        CU_ASSERT(memcmp(e.tx[0][i].data, want, 60 + i) == 0);
    }
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDH(0)), 100 % 64);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPTC), 92);
    env_down();
}

/* Head write-back (TDWBAL.HEAD_WB_ENABLE): the head index lands at TDWBA,
 * no descriptor gets DD.  And WTHRESH 4 (ixy's 36/8/4): whole descriptors
 * written back four at a time. */
static void test_transmit_write_back(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(tx_setup(0, 64, 1, 0, 0, 0));
    memset(e.mem + HWB(0), 0xAB, 4);
    for (unsigned i = 0; i < 5; i++)
        tx_desc(0, 64, i, 60, 1);
    wr32(0, IXGBE_TDT(0), 5);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(e.ntx[0], 5);
    CU_ASSERT_EQUAL(mem_r32(HWB(0)), 5);
    for (unsigned i = 0; i < 5; i++)
        CU_ASSERT((mem_r64(TX_RING(0) + 16u * i + 8) & IXGBE_ADVTXD_STAT_DD) == 0);

    /* the queue again, with ixy's thresholds and no head write-back */
    wr32(0, IXGBE_TXDCTL(0), 0);
    CU_ASSERT_FATAL(poll(0, IXGBE_TXDCTL(0), IXGBE_TXDCTL_ENABLE, 0, 50, NULL));
    CU_ASSERT_FATAL(tx_setup(0, 64, 0, 36, 8, 4));
    unsigned nw0 = e.nwl;
    for (unsigned i = 0; i < 8; i++)
        tx_desc(0, 64, i, 60, 1);
    wr32(0, IXGBE_TDT(0), 8);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(e.ntx[0], 13);
    unsigned wbs = 0;
    for (unsigned k = nw0; k < e.nwl; k++)
        if (e.wl[k].addr < TX_RING(0) + 64 * 16) {          /* TX_RING(0) is 0 */
            CU_ASSERT_EQUAL(e.wl[k].len, 64);
            wbs++;
        }
    CU_ASSERT_EQUAL(wbs, 2);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT((mem_r64(TX_RING(0) + 16u * i + 8) & IXGBE_ADVTXD_STAT_DD) != 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TDH(0)), 8);
    env_down();
}

/* HLREG0.TXPADEN pads a 42-byte packet to 60 (+ FCS); without it the frame
 * goes out as it is.  Without HLREG0.TXCRCEN no FCS is appended. */
static void test_transmit_padding(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(tx_setup(0, 64, 0, 0, 0, 0));
    tx_desc(0, 64, 0, 42, 1);
    wr32(0, IXGBE_TDT(0), 1);
    CU_ASSERT(run_idle(20000) > 0);
    rmw(0, IXGBE_HLREG0, IXGBE_HLREG0_TXPADEN, 0);
    tx_desc(0, 64, 1, 42, 1);
    wr32(0, IXGBE_TDT(0), 2);
    CU_ASSERT(run_idle(20000) > 0);
    rmw(0, IXGBE_HLREG0, IXGBE_HLREG0_TXCRCEN, 0);
    tx_desc(0, 64, 2, 100, 1);
    wr32(0, IXGBE_TDT(0), 3);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL_FATAL(e.ntx[0], 3);
    uint8_t want[64];
    pkt_bytes(want, 42, 0, 0);
    CU_ASSERT_EQUAL(e.tx[0][0].len, 60);
    CU_ASSERT(memcmp(e.tx[0][0].data, want, 42) == 0);
    for (int k = 42; k < 60; k++)
        CU_ASSERT_EQUAL(e.tx[0][0].data[k], 0);
    CU_ASSERT_EQUAL(e.tx[0][0].fcs, 1);
    CU_ASSERT_EQUAL(e.tx[0][1].len, 42);
    CU_ASSERT_EQUAL(e.tx[0][1].fcs, 1);
    CU_ASSERT_EQUAL(e.tx[0][2].len, 100);
    CU_ASSERT_EQUAL(e.tx[0][2].fcs, 0);
    /* octets as on the wire: 64, 46, 100 */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GOTCL), 64 + 46 + 100);
    env_down();
}

/* Frames into advanced one-buffer descriptors: the write-back format (DD,
 * EOP, PKT_LEN), the buffer's bytes with the CRC stripped and, with
 * stripping off, kept; a CRC error counted and not delivered; counters. */
static void test_receive(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(rx_setup(0, 32, 0, 0, 1));
    wr32(0, IXGBE_EIMS, 1);
    for (unsigned i = 0; i < 5; i++)
        rx_frame(0, e.cycle + 10 + 40 * i, 64 + 100 * i, i, 1);
    rx_frame(0, e.cycle + 400, 200, 5, 0);               /* bad CRC */
    CU_ASSERT(run_idle(20000) > 0);
    for (unsigned i = 0; i < 5; i++) {
        uint64_t wb = rx_wb(0, i);
        uint32_t len = 60 + 100 * i;
        CU_ASSERT_EQUAL(wb & 0xFFFFF, IXGBE_RXDADV_STAT_DD | IXGBE_RXDADV_STAT_EOP);
        CU_ASSERT_EQUAL((wb >> 20) & 0xFFF, 0);
        CU_ASSERT_EQUAL((wb >> IXGBE_RXDADV_LEN_SHIFT) & 0xFFFF, len);
        CU_ASSERT_EQUAL(wb >> IXGBE_RXDADV_VLAN_SHIFT, 0);
        CU_ASSERT(memcmp(e.mem + RX_BUF(0, i), e.rx[0][i].data, len) == 0);
        CU_ASSERT_EQUAL(e.mem[RX_BUF(0, i) + len], 0xEE);   /* no FCS in the buffer */
    }
    CU_ASSERT_EQUAL(rx_wb(0, 5), 0);                      /* the bad frame went nowhere */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDH(0)), 5);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 5);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QPRC(0)), 5);
    /* QBRC: the bytes posted, the FCS stripped (DPDK takes it so); GORC
     * counts the frames through their FCS */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBRC_L(0)), 5 * 60 + 1000);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBRC_H(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_QBRC_L(0)), 0);          /* cleared with the high half */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GORCL), 5 * 64 + 1000);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GORCH), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TPR), 6);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_CRCERRS), 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_MPC(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RNBC(0)), 0);
    CU_ASSERT(e.irq_rises[0] >= 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR) & 1u, 1u);

    /* CRC stripping off (RDRXCTL.CRCSTRIP clear): the FCS is in the buffer and the length */
    rmw(0, IXGBE_RDRXCTL, IXGBE_RDRXCTL_CRCSTRIP, 0);
    rx_frame(0, e.cycle + 10, 64, 6, 1);
    CU_ASSERT(run_idle(20000) > 0);
    uint64_t wb = rx_wb(0, 5);
    CU_ASSERT_EQUAL(wb & 3, 3);
    CU_ASSERT_EQUAL((wb >> IXGBE_RXDADV_LEN_SHIFT) & 0xFFFF, 64);
    CU_ASSERT(memcmp(e.mem + RX_BUF(0, 5), e.rx[0][6].data, 64) == 0);
    CU_ASSERT_EQUAL(e.faults + e.stray, 0);
    /* a frame for port 0 never reached port 1's memory */
    CU_ASSERT_EQUAL(rd32(1, IXGBE_TPR), 0);
    env_down();
}

/* The receive addresses and the multicast table (issue 20): 128 entries at
 * 0xA200 + 8n, the first 16 also at 0x5400 + 8n; a unicast frame passes
 * for an entry with AV, or with FCTRL.UPE; a group address for its MTA bit
 * only with MCSTCTRL.MFE. */
static void rx_frame_to(int p, uint64_t at, unsigned i, const uint8_t *da)
{
    rx_frame(p, at, 64, i, 1);
    memcpy(e.rx[p][e.rx_n[p] - 1].data, da, 6);
}

static void test_receive_addresses(void)
{
    static const uint8_t other[6] = { 0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0x01 };
    static const uint8_t mcast[6] = { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x01 };   /* MO 00: MTA(0) bit 16 */
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAL_ALL(0)), (uint32_t)MAC0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAH_ALL(0)), IXGBE_RAH_AV | (uint32_t)(MAC0 >> 32));
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RAH(0)), IXGBE_RAH_AV | (uint32_t)(MAC1 >> 32));
    wr32(0, IXGBE_RAL_ALL(127), 0x11223344u);
    wr32(0, IXGBE_RAH_ALL(127), 0xFFFFFFFFu);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAL_ALL(127)), 0x11223344u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAH_ALL(127)), 0x8000FFFFu);      /* reserved 30:16 read 0 */
    wr32(0, IXGBE_RAL(3), 0xCAFEF00Du);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAL_ALL(3)), 0xCAFEF00Du);        /* one entry, two places */
    wr32(0, IXGBE_MCSTCTRL, 0xFFu);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_MCSTCTRL), 7u);
    wr32(0, IXGBE_MCSTCTRL, 0);
    for (uint32_t i = 0; i < 128; i++)
        wr32(0, IXGBE_MTA(i), i ? 0 : 1u << 16);
    CU_ASSERT_FATAL(rx_setup(0, 32, 0, 0, 1));
    (void)rd32(0, IXGBE_GPRC);
    (void)rd32(0, IXGBE_TPR);
    /* MFE off: only the station's own address */
    rx_frame_to(0, e.cycle + 10, 0, other);
    rx_frame_to(0, e.cycle + 50, 1, mcast);
    rx_frame(0, e.cycle + 90, 64, 2, 1);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TPR), 3);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 1);
    /* entry 100 holds the other address; MFE on */
    wr32(0, IXGBE_RAL_ALL(100), 0xCCBBAA02u);
    wr32(0, IXGBE_RAH_ALL(100), IXGBE_RAH_AV | 0x01DDu);
    wr32(0, IXGBE_MCSTCTRL, IXGBE_MCSTCTRL_MFE);
    rx_frame_to(0, e.cycle + 10, 3, other);
    rx_frame_to(0, e.cycle + 50, 4, mcast);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 2);
    /* AV off: filtered; UPE: passes */
    wr32(0, IXGBE_RAH_ALL(100), 0x01DDu);
    rx_frame_to(0, e.cycle + 10, 5, other);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 0);
    rmw(0, IXGBE_FCTRL, 0, IXGBE_FCTRL_UPE);
    rx_frame_to(0, e.cycle + 10, 6, other);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 1);
    /* the frames that passed are in the ring, in order */
    static const unsigned passed[] = { 2, 3, 4, 6 };
    for (unsigned k = 0; k < 4; k++) {
        uint64_t wb = rx_wb(0, k);
        CU_ASSERT_EQUAL(wb & IXGBE_RXDADV_STAT_DD, IXGBE_RXDADV_STAT_DD);
        CU_ASSERT_EQUAL(e.mem[RX_BUF(0, k) + 8], (uint8_t)(1000 + passed[k]));
    }
    env_down();
}

/* The VLAN filter (issue 20): VLNCTRL resets to VET 0x8100 with the filter
 * off; with VFE a tagged frame passes only for its VFTA bit. */
static void test_vlan_filter(void)
{
    static const uint8_t tag_ok[4] = { 0x81, 0x00, 0x00, 0x64 };    /* VLAN 100 */
    static const uint8_t tag_no[4] = { 0x81, 0x00, 0x00, 0x65 };    /* VLAN 101 */
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_VLNCTRL), 0x8100u);
    for (uint32_t i = 0; i < 128; i++)
        wr32(0, IXGBE_VFTA(i), i == (100 >> 5) ? 1u << (100 & 31) : 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_VFTA(100 >> 5)), 1u << (100 & 31));
    wr32(0, IXGBE_VLNCTRL, IXGBE_VLNCTRL_VFE | 0x8100u);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_VLNCTRL), IXGBE_VLNCTRL_VFE | 0x8100u);
    CU_ASSERT_FATAL(rx_setup(0, 32, 0, 0, 1));
    (void)rd32(0, IXGBE_GPRC);
    rx_frame(0, e.cycle + 10, 64, 0, 1);
    memcpy(e.rx[0][e.rx_n[0] - 1].data + 12, tag_ok, 4);
    rx_frame(0, e.cycle + 50, 64, 1, 1);
    memcpy(e.rx[0][e.rx_n[0] - 1].data + 12, tag_no, 4);
    rx_frame(0, e.cycle + 90, 64, 2, 1);                  /* untagged */
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 2);
    CU_ASSERT_EQUAL(e.mem[RX_BUF(0, 0) + 8], (uint8_t)1000);
    CU_ASSERT_EQUAL(e.mem[RX_BUF(0, 1) + 8], (uint8_t)1002);
    env_down();
}

/* The bus's write queue full (dma_wfull): no write request is granted
 * from the edge after it is raised until it drops, while reads go on; the
 * frames wait in the packet buffer and land intact once it drops. */
static void test_write_full_holds_writes(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(rx_setup(0, 32, 0, 0, 1));
    unsigned writes_before = e.nwl, reads_before = e.reads;
    e.in.dma_wfull = 1;
    step();                             /* the flop takes it at this edge */
    unsigned held_from = e.nwl;
    for (unsigned i = 0; i < 4; i++)
        rx_frame(0, e.cycle + 10 + 40 * i, 64 + 100 * i, i, 1);
    run(3000);
    CU_ASSERT_EQUAL(e.nwl, held_from);  /* not one write while full */
    CU_ASSERT(held_from - writes_before <= 1);
    CU_ASSERT_EQUAL(rx_wb(0, 0), 0);
    e.in.dma_wfull = 0;
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT(e.nwl > held_from);
    CU_ASSERT(e.reads >= reads_before);
    for (unsigned i = 0; i < 4; i++) {
        uint32_t len = 60 + 100 * i;
        CU_ASSERT_EQUAL(rx_wb(0, i) & 3, IXGBE_RXDADV_STAT_DD | IXGBE_RXDADV_STAT_EOP);
        CU_ASSERT(memcmp(e.mem + RX_BUF(0, i), e.rx[0][i].data, len) == 0);
    }
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 4);
    CU_ASSERT_EQUAL(e.faults + e.stray, 0);
    env_down();
}

/* No free descriptor (RDT == RDH): with SRRCTL.DROP_EN the frames are
 * dropped and counted in RNBC (not MPC), so nothing old arrives once RDT
 * moves; without it they wait in the packet buffer and arrive in order. */
static void test_receive_drop_en(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_EQUAL_FATAL(bring_up(1), 0);
    CU_ASSERT_FATAL(rx_setup(0, 32, 1, 0, 0));
    CU_ASSERT_FATAL(rx_setup(1, 32, 0, 0, 0));
    for (unsigned i = 0; i < 3; i++) {
        rx_frame(0, e.cycle + 10 + 30 * i, 64, i, 1);
        rx_frame(1, e.cycle + 10 + 30 * i, 64, i, 1);
    }
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RNBC(0)), 3);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_MPC(0)), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_GPRC), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_TPR), 3);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RNBC(0)), 3);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_MPC(0)), 0);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_GPRC), 3);
    /* descriptors given: port 0 has nothing to deliver, port 1 its three */
    wr32(0, IXGBE_RDT(0), 31);
    wr32(1, IXGBE_RDT(0), 31);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rx_wb(0, 0), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RDH(0)), 0);
    for (unsigned i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(rx_wb(1, i) & 3, 3);
        CU_ASSERT(memcmp(e.mem + RX_BUF(1, i), e.rx[1][i].data, 60) == 0);
    }
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RDH(0)), 3);
    /* with descriptors, DROP_EN drops nothing */
    rx_frame(0, e.cycle + 10, 64, 7, 1);
    CU_ASSERT(run_idle(20000) > 0);
    CU_ASSERT_EQUAL(rx_wb(0, 0) & 3, 3);
    CU_ASSERT(memcmp(e.mem + RX_BUF(0, 0), e.rx[0][3].data, 60) == 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RNBC(0)), 0);
    env_down();
}

/* EICR read-to-clear and write-1-to-clear, EICS, EIMS/EIMC, EIAC, EIAM. */
static void test_interrupt_registers(void)
{
    env_up();
    wr32(0, IXGBE_EIMC, IXGBE_EIMC_ALL);
    wr32(0, IXGBE_EICS, 0x5);
    run(5);
    CU_ASSERT_EQUAL(e.irq_rises[0], 0);                   /* masked */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0x5);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0);              /* the read cleared them */
    wr32(0, IXGBE_EICS, 0x100005);
    wr32(0, IXGBE_EICR, 0x1);                             /* write 1 to clear */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0x100004);
    /* mask set and clear */
    wr32(0, IXGBE_EIMS, 0x3);
    wr32(0, IXGBE_EIMS, 0x100000);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIMS), 0x100003);
    wr32(0, IXGBE_EIMC, 0x2);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIMS), 0x100001);
    /* a masked-in cause raises the line; reading EICR drops it */
    wr32(0, IXGBE_EICS, 0x1);
    run(4);
    CU_ASSERT_EQUAL(e.irq_rises[0], 1);
    CU_ASSERT_EQUAL(e.out.irq & 1, 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0x1);
    run(2);
    CU_ASSERT_EQUAL(e.out.irq & 1, 0);
    /* a cause outside the mask does not */
    wr32(0, IXGBE_EICS, 0x2);
    run(4);
    CU_ASSERT_EQUAL(e.irq_rises[0], 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0x2);
    /* EIAC: the cause clears itself when the line is asserted (one pulse) */
    wr32(0, IXGBE_EIAC, 0x1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIAC), 0x1);
    wr32(0, IXGBE_EICS, 0x1);
    run(6);
    CU_ASSERT_EQUAL(e.irq_rises[0], 2);
    CU_ASSERT_EQUAL(e.irq_falls[0], 2);
    CU_ASSERT_EQUAL(e.out.irq & 1, 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0);
    /* ... but not a cause outside EIAC (LSC here) */
    wr32(0, IXGBE_EICS, IXGBE_EICR_LSC | 0x1);
    run(6);
    CU_ASSERT_EQUAL(e.irq_rises[0], 3);
    CU_ASSERT_EQUAL(e.out.irq & 1, 1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), IXGBE_EICR_LSC);
    /* EIAM (here through EIAM_EX(0), where Linux writes it): the assertion
     * also clears the mask bit, so a cause arriving later stays pending
     * without a new pulse until EIMS is written again */
    wr32(0, IXGBE_EIAM_EX(0), 0x1);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIAM), 0x1);
    wr32(0, IXGBE_EIMC, IXGBE_EICR_LSC);
    wr32(0, IXGBE_EICS, 0x1);
    run(6);
    CU_ASSERT_EQUAL(e.irq_rises[0], 4);
    CU_ASSERT_EQUAL(e.out.irq & 1, 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIMS), 0);              /* auto-masked */
    wr32(0, IXGBE_EICS, 0x1);
    run(6);
    CU_ASSERT_EQUAL(e.irq_rises[0], 4);                   /* held: masked */
    wr32(0, IXGBE_EIMS, 0x1);                             /* the poll's re-enable */
    run(6);
    CU_ASSERT_EQUAL(e.irq_rises[0], 5);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EIMS), 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR), 0);              /* auto-cleared too */
    /* function 1 saw none of it */
    CU_ASSERT_EQUAL(e.irq_rises[1], 0);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_EIMS), 0);
    env_down();
}

/* Rise-to-rise spacing of the line with causes always pending (EICS right
 * after each acknowledging EICR read), in ticks. */
static void irq_spacing(uint32_t eitr, unsigned n, uint64_t *min, uint64_t *max)
{
    wr32(0, IXGBE_EITR(0), eitr);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EITR(0)), eitr & IXGBE_EITR_ITR_INT_MASK);
    wr32(0, IXGBE_EIMS, 1);
    unsigned r0 = e.irq_rises[0];
    wr32(0, IXGBE_EICS, 1);
    while (e.irq_rises[0] < r0 + n && e.cycle < 2000000) {
        step();
        if (e.out.irq & 1) {
            (void)rd32(0, IXGBE_EICR);
            wr32(0, IXGBE_EICS, 1);
        }
    }
    CU_ASSERT_EQUAL_FATAL(e.irq_rises[0], r0 + n);
    *min = UINT64_MAX;
    *max = 0;
    for (unsigned k = r0 + 1; k < r0 + n; k++) {
        uint64_t d = e.irq_tick[0][k] - e.irq_tick[0][k - 1];
        if (d < *min) *min = d;
        if (d > *max) *max = d;
    }
    wr32(0, IXGBE_EIMC, IXGBE_EIMC_ALL);
    (void)rd32(0, IXGBE_EICR);
}

/* EITR(0) throttles the line: interval field 11:3 in 2.048 us units
 * (docs/pktgen-napi.md), 8 ticks of 256 ns each, so Linux's "10 us" (0x28,
 * field 5) = 40 ticks and "50 us" (0xC8) = 200 ticks between assertions;
 * 0 = none. */
static void test_eitr_spacing(void)
{
    env_up();
    uint64_t mn, mx;
    irq_spacing(0, 8, &mn, &mx);
    CU_ASSERT(mx <= 2);                                   /* a few cycles: no throttle */
    irq_spacing(eitr_us(10), 8, &mn, &mx);       /* 0x28 */
    CU_ASSERT(mn >= 40 && mx <= 41);
    irq_spacing(eitr_us(50), 6, &mn, &mx);       /* 0xC8 */
    CU_ASSERT(mn >= 200 && mx <= 201);
    irq_spacing(0x7D0, 3, &mn, &mx);                      /* field 250: 512 us */
    CU_ASSERT(mn >= 2000 && mx <= 2001);
    env_down();
}

/* RX write-back batching (RXDCTL.WTHRESH 4): a lone frame's descriptor is
 * written back when the EITR interval expires (not before), or at once on
 * RXDCTL.SWFLSH; with WTHRESH frames done, without waiting. */
static void test_rx_wthresh_flush(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_FATAL(rx_setup(0, 32, 0, 4, 1));
    wr32(0, IXGBE_EITR(0), eitr_us(20));         /* field 10: 80 ticks */
    rx_frame(0, e.cycle + 5, 64, 0, 1);
    run(20);
    uint64_t t0 = e.ticks;
    run_ticks(60);
    CU_ASSERT_EQUAL(rx_wb(0, 0), 0);                      /* data in, not written back */
    CU_ASSERT(memcmp(e.mem + RX_BUF(0, 0), e.rx[0][0].data, 60) == 0);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR) & 1u, 0);          /* (LSC of the bring-up may be there) */
    run_ticks(30);
    CU_ASSERT_EQUAL(rx_wb(0, 0) & 3, 3);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_EICR) & 1u, 1u);
    CU_ASSERT(e.ticks - t0 >= 80);
    /* no EITR: only SWFLSH (or WTHRESH) writes it back */
    wr32(0, IXGBE_EITR(0), 0);
    rx_frame(0, e.cycle + 5, 64, 1, 1);
    CU_ASSERT(run_idle(20000) > 0);
    run_ticks(1000);
    CU_ASSERT_EQUAL(rx_wb(0, 1), 0);
    CU_ASSERT(memcmp(e.mem + RX_BUF(0, 1), e.rx[0][1].data, 60) == 0);
    wr32(0, IXGBE_RXDCTL(0), IXGBE_RXDCTL_ENABLE | 4u << 16 | IXGBE_RXDCTL_SWFLSH);
    run(50);
    CU_ASSERT_EQUAL(rx_wb(0, 1) & 3, 3);
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RXDCTL(0)), IXGBE_RXDCTL_ENABLE | 4u << 16);
    /* four frames: one write of four whole descriptors, no flush needed */
    unsigned nw0 = e.nwl;
    for (unsigned i = 0; i < 4; i++)
        rx_frame(0, e.cycle + 5 + 10 * i, 64, 2 + i, 1);
    CU_ASSERT(run_idle(20000) > 0);
    unsigned wbs = 0;
    for (unsigned k = nw0; k < e.nwl; k++)
        if (e.wl[k].addr >= RX_RING(0) && e.wl[k].addr < RX_RING(0) + 32 * 16) {
            CU_ASSERT_EQUAL(e.wl[k].addr, RX_RING(0) + 2 * 16);
            CU_ASSERT_EQUAL(e.wl[k].len, 64);
            wbs++;
        }
    CU_ASSERT_EQUAL(wbs, 1);
    for (unsigned i = 2; i < 6; i++)
        CU_ASSERT_EQUAL(rx_wb(0, i) & 3, 3);
    env_down();
}

/* CTRL.RST in the middle of TX and RX traffic, at several points: the
 * device goes quiet (every granted write delivers its beats, no stray
 * beat), and works again after a new bring-up. */
static void test_reset_mid_traffic(void)
{
    static const unsigned at[] = { 5, 37, 90, 211, 400, 777, 1500 };
    for (unsigned k = 0; k < sizeof at / sizeof at[0]; k++) {
        env_up();
        CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
        CU_ASSERT_FATAL(tx_setup(0, 128, 0, 32, 1, (k & 1) ? 4 : 0));
        CU_ASSERT_FATAL(rx_setup(0, 64, 0, (k & 2) ? 4 : 0, 1));
        for (unsigned i = 0; i < 100; i++)
            tx_desc(0, 128, i, 60 + 13 * i, 1);
        for (unsigned i = 0; i < 30; i++)
            rx_frame(0, e.cycle + 20 * i, 64 + 37 * i, i, 1);
        wr32(0, IXGBE_TDT(0), 100);
        run(at[k]);
        wr32(0, IXGBE_CTRL, IXGBE_CTRL_RST);
        CU_ASSERT(run_idle(50000) > 0);
        CU_ASSERT_EQUAL(e.stray, 0);
        CU_ASSERT_EQUAL(e.wr_open, 0);
        CU_ASSERT(e.ntx[0] < 100);
        /* up again */
        unsigned sent = e.ntx[0];
        CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
        CU_ASSERT_FATAL(tx_setup(0, 64, 0, 0, 0, 0));
        CU_ASSERT_FATAL(rx_setup(0, 16, 0, 0, 1));
        for (unsigned i = 0; i < 4; i++)
            tx_desc(0, 64, i, 60, 1);
        wr32(0, IXGBE_TDT(0), 4);
        rx_frame(0, e.cycle + 10, 64, 99, 1);
        CU_ASSERT(run_idle(50000) > 0);
        CU_ASSERT_EQUAL(e.ntx[0], sent + 4);
        CU_ASSERT_EQUAL(rx_wb(0, 0) & 3, 3);
        CU_ASSERT(memcmp(e.mem + RX_BUF(0, 0), e.rx[0][e.rx_n[0] - 1].data, 60) == 0);
        CU_ASSERT_EQUAL(e.stray + e.faults, 0);
        env_down();
    }
}

/* Both ports at once: each sends its own packets and receives its own
 * frames into its own ring, with its own MAC address and counters. */
static void test_both_ports(void)
{
    env_up();
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_EQUAL_FATAL(bring_up(1), 0);
    for (int p = 0; p < 2; p++) {
        CU_ASSERT_FATAL(tx_setup(p, 64, p, 32, 1, 0));
        CU_ASSERT_FATAL(rx_setup(p, 64, 1, 0, 1));
        for (unsigned i = 0; i < 24; i++)
            tx_desc(p, 64, i, 60 + 20 * i + p, 1);
        for (unsigned i = 0; i < 24; i++)
            rx_frame(p, e.cycle + 50 + 25 * i, 64 + 30 * i + p, i, 1);
    }
    wr32(0, IXGBE_TDT(0), 24);
    wr32(1, IXGBE_TDT(0), 24);
    CU_ASSERT(run_idle(100000) > 0);
    uint8_t want[2048];
    for (int p = 0; p < 2; p++) {
        CU_ASSERT_EQUAL_FATAL(e.ntx[p], 24);
        for (unsigned i = 0; i < 24; i++) {
            uint32_t len = 60 + 20 * i + (unsigned)p;
            pkt_bytes(want, len, p, i);
            CU_ASSERT_EQUAL(e.tx[p][i].len, len);
            CU_ASSERT(memcmp(e.tx[p][i].data, want, len) == 0);
            uint32_t rlen = 60 + 30 * i + (unsigned)p;
            uint64_t wb = rx_wb(p, i);
            CU_ASSERT_EQUAL(wb & 3, 3);
            CU_ASSERT_EQUAL((wb >> IXGBE_RXDADV_LEN_SHIFT) & 0xFFFF, rlen);
            CU_ASSERT(memcmp(e.mem + RX_BUF(p, i), e.rx[p][i].data, rlen) == 0);
        }
        CU_ASSERT_EQUAL(rd32(p, IXGBE_GPTC), 24);
        CU_ASSERT_EQUAL(rd32(p, IXGBE_GPRC), 24);
        CU_ASSERT_EQUAL(rd32(p, IXGBE_QPRC(0)), 24);
        CU_ASSERT_EQUAL(rd32(p, IXGBE_TDH(0)), 24);
        CU_ASSERT_EQUAL(rd32(p, IXGBE_RDH(0)), 24);
    }
    CU_ASSERT_EQUAL(mem_r32(HWB(1)), 24);                /* port 1 with head write-back */
    CU_ASSERT_EQUAL(rd32(0, IXGBE_RAL(0)), (uint32_t)MAC0);
    CU_ASSERT_EQUAL(rd32(1, IXGBE_RAL(0)), (uint32_t)MAC1);
    CU_ASSERT_EQUAL(e.stray + e.faults, 0);
    env_down();
}

/* The same mixed run with every function clocked every cycle and with the
 * clocks gated as the adapter gates them: the same DMA writes at the same
 * cycles, the same memory, frames and interrupts.  A check that every
 * block's busy and next_timer are exact (the bring-up's delays, EITR
 * throttling and flushes, DROP_EN, CTRL.RST included). */
typedef struct run_result {
    uint8_t *mem;
    unsigned nwl, ntx[2], rises[2];
    wlog *wl;
    frame *tx[2];
    uint64_t rise_cycle[2][256];
    uint64_t edges[2], cycles;
    uint32_t eicr[512];             /* what the handler read, in order */
    unsigned neicr;
} run_result;

static void mixed_run(int gated, run_result *r)
{
    env_up_straps(3, gated);
    CU_ASSERT_EQUAL_FATAL(bring_up(0), 0);
    CU_ASSERT_EQUAL_FATAL(bring_up(1), 0);
    for (int p = 0; p < 2; p++) {
        CU_ASSERT_FATAL(tx_setup(p, 64, p, 16, 1, p ? 0 : 4));
        CU_ASSERT_FATAL(rx_setup(p, 32, p, p ? 0 : 4, 1));
        wr32(p, IXGBE_EITR(0), eitr_us(p ? 6 : 20));
        wr32(p, IXGBE_EIAC, p ? 1u : 0u);
        wr32(p, IXGBE_EIMS, p ? 1u | IXGBE_EICR_LSC : 1u);
        for (unsigned i = 0; i < 40; i++)
            tx_desc(p, 64, i, 60 + 17 * i, (i % 3) == 2);
        for (unsigned i = 0; i < 40; i++)
            rx_frame(p, e.cycle + 100 + 90 * i + 7 * (unsigned)p, 64 + 23 * i, i, i != 9);
    }
    wr32(0, IXGBE_TDT(0), 20);
    wr32(1, IXGBE_TDT(0), 39);
    /* an interrupt handler of sorts: acknowledge when the line is up; the
     * link of port 1 is restarted on the way (LSC down, then up) */
    for (unsigned k = 0; k < 6000; k++) {
        step();
        if (k == 700)
            wr32(1, IXGBE_AUTOC, IXGBE_AUTOC_LMS_10G_SERIAL | IXGBE_AUTOC_AN_RESTART);
        for (int p = 0; p < 2; p++)
            if (e.out.irq >> p & 1) {
                uint32_t v = rd32(p, IXGBE_EICR);
                if (r->neicr < 512)
                    r->eicr[r->neicr++] = v | (uint32_t)p << 31;
            }
    }
    wr32(0, IXGBE_TDT(0), 39);
    wr32(1, IXGBE_RDT(0), 8);
    run_ticks(400);
    wr32(1, IXGBE_CTRL, IXGBE_CTRL_RST);
    CU_ASSERT(run_idle(100000) > 0);
    CU_ASSERT_EQUAL(e.stray + e.faults, 0);
    r->mem = e.mem;
    e.mem = NULL;
    r->wl = e.wl;
    e.wl = NULL;
    r->nwl = e.nwl;
    for (int p = 0; p < 2; p++) {
        r->tx[p] = e.tx[p];
        e.tx[p] = NULL;
        r->ntx[p] = e.ntx[p];
        r->rises[p] = e.irq_rises[p];
        memcpy(r->rise_cycle[p], e.irq_cycle[p], sizeof r->rise_cycle[p]);
        r->edges[p] = e.fn_edges[p];
    }
    r->cycles = e.cycle;
    env_down();
}

static void test_gated_clock_identical(void)
{
    run_result *a = calloc(2, sizeof *a), *b = a + 1;
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    mixed_run(0, a);
    mixed_run(1, b);
    CU_ASSERT_EQUAL(a->cycles, b->cycles);
    CU_ASSERT_EQUAL(a->nwl, b->nwl);
    unsigned n = a->nwl < b->nwl ? a->nwl : b->nwl, diff = 0;
    for (unsigned k = 0; k < n; k++)
        if (a->wl[k].cycle != b->wl[k].cycle || a->wl[k].addr != b->wl[k].addr || a->wl[k].len != b->wl[k].len)
            diff++;
    CU_ASSERT_EQUAL(diff, 0);
    CU_ASSERT(a->mem && b->mem && memcmp(a->mem, b->mem, MEM_BYTES) == 0);
    CU_ASSERT_EQUAL(a->neicr, b->neicr);
    CU_ASSERT(memcmp(a->eicr, b->eicr, sizeof a->eicr) == 0);
    unsigned lsc = 0;
    for (unsigned k = 0; k < a->neicr; k++)
        lsc += (a->eicr[k] & IXGBE_EICR_LSC) != 0;
    CU_ASSERT(lsc >= 2);                                  /* down and up again, each seen */
    for (int p = 0; p < 2; p++) {
        CU_ASSERT_EQUAL(a->ntx[p], b->ntx[p]);
        CU_ASSERT(a->ntx[p] >= 39);
        for (unsigned i = 0; i < a->ntx[p] && i < b->ntx[p]; i++) {
            CU_ASSERT_EQUAL(a->tx[p][i].cycle, b->tx[p][i].cycle);
            CU_ASSERT_EQUAL(a->tx[p][i].len, b->tx[p][i].len);
            CU_ASSERT(memcmp(a->tx[p][i].data, b->tx[p][i].data, a->tx[p][i].len) == 0);
        }
        CU_ASSERT_EQUAL(a->rises[p], b->rises[p]);
        CU_ASSERT(a->rises[p] > 0);
        CU_ASSERT(memcmp(a->rise_cycle[p], b->rise_cycle[p], sizeof a->rise_cycle[p]) == 0);
        /* gating saved edges */
        CU_ASSERT(b->edges[p] < a->edges[p] / 2);
    }
    for (int k = 0; k < 2; k++) {
        free(a[k].mem);
        free(a[k].wl);
        free(a[k].tx[0]);
        free(a[k].tx[1]);
    }
    free(a);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Nic82599", NULL, NULL);
    CU_add_test(s, "BringUp", test_bring_up);
    CU_add_test(s, "EepromImage", test_eeprom_image);
    CU_add_test(s, "SharedSemaphores", test_shared_semaphores);
    CU_add_test(s, "BackplaneRegisters", test_backplane_registers);
    CU_add_test(s, "QueueRegisters", test_queue_registers);
    CU_add_test(s, "Transmit", test_transmit);
    CU_add_test(s, "TransmitWriteBack", test_transmit_write_back);
    CU_add_test(s, "TransmitPadding", test_transmit_padding);
    CU_add_test(s, "Receive", test_receive);
    CU_add_test(s, "ReceiveAddressesAndMulticastTable", test_receive_addresses);
    CU_add_test(s, "VlanFilter", test_vlan_filter);
    CU_add_test(s, "ReceiveDropEn", test_receive_drop_en);
    CU_add_test(s, "WriteFullHoldsWrites", test_write_full_holds_writes);
    CU_add_test(s, "InterruptRegisters", test_interrupt_registers);
    CU_add_test(s, "EitrSpacing", test_eitr_spacing);
    CU_add_test(s, "RxWthreshFlush", test_rx_wthresh_flush);
    CU_add_test(s, "ResetMidTraffic", test_reset_mid_traffic);
    CU_add_test(s, "BothPorts", test_both_ports);
    CU_add_test(s, "GatedClockIdentical", test_gated_clock_identical);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
