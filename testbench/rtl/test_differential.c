/* Differential checker (issue 5): random, legal driver action sequences run
 * against the RTL (through the cycle harness) and against the reference
 * model of testbench/diff/diff_ref.h; at every check point every observable
 * must match: frames on the wire, every TX and RX descriptor in host memory,
 * the RX buffers, the head write-back dword, TDH/RDH and the counters.
 *
 * A sequence is a function of its personality and seed: the generator picks
 * each action from the seed's random stream and the model's state (so every
 * action is legal: no descriptor reused before the device is done with it,
 * no buffer returned that the driver has not cleaned, at most ring size - 1
 * descriptors given to the device).  Actions: TX packets of 1..4
 * descriptors with random RS and IFCS, one TDT write per batch (xmit_more);
 * received frames of 64..1518 bytes, one in ten with a bad FCS; RX buffers returned late and in random
 * amounts; queue disable, restart at index 0 and enable; CTRL.RST and a new
 * bring-up; check points (quiescence, write-backs flushed, compare).  Each
 * sequence draws its own ring sizes, buffer size, FCS strip, padding, TX
 * PTHRESH/HTHRESH/WTHRESH and RX thresholds, head write-back and DROP_EN.
 *
 * `make test` runs NICSIM_DIFF_SEQS sequences per personality (default
 * 10,000).  A failure prints the one-line command that replays it:
 *   make diff-replay SEQ=82599:SEED
 * which runs that sequence alone, printing every action, and writes the FST
 * waveform of the failing action's window (build/diff-82599-SEED.fst);
 * build/tests/rtl_differential --replay 82599:SEED replays it without one. */
#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../unit/gtest_cunit.h"
#include "rtl_harness.h"
#include "../diff/diff_ref.h"
#include "../../models/splitmix64.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"

#define IDLE_MAX 400000L      /* cycles to quiescence before a sequence counts as hung */
#define ACTIONS 28            /* actions per sequence, the last a check */
#define TX_BUF 2048u          /* bytes of each TX descriptor's buffer */
#define WAIT_BYTES 12000u     /* received bytes the generator lets wait for descriptors */

static const uint8_t STATION[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* ---- random stream ---------------------------------------------------------- */

static unsigned pick(uint64_t *s, unsigned n)   /* 0 .. n-1 */
{
    return (unsigned)(splitmix64(s) % n);
}

/* ---- what the sequences did, in all (printed by the suite) ----------------- */

static struct tally {
    unsigned long tx_frames, tx_descs, rx_frames, rx_bad_fcs, rx_nodesc, rx_returns, checks, tx_restarts, rx_restarts,
        resets, multi_desc_rx, hwb, burst;
} tally;

/* ---- one sequence ---------------------------------------------------------- */

typedef struct seq {
    int adv;                  /* 82599 */
    uint64_t rng;
    int verbose;
    rtl_harness *h;
    dref *m;
    uint8_t *txr, *rxr, *txb, *rxb, *hwbp;
    uint64_t txr_bus, rxr_bus, txb_bus, rxb_bus, hwb_bus;
    uint32_t pth, hth, wth, rx_pth, rx_hth, rx_wth;
    unsigned tx_used;         /* descriptors given to the device since the last check */
    unsigned rx_clean;        /* next RX descriptor the driver cleans */
    unsigned rx_give;         /* cleaned descriptors not yet returned */
    unsigned frames_seen;     /* TX frames already compared */
    char fail[512];
    int action;
    uint64_t action_cycle;    /* the cycle the current action started at */
    uint64_t fail_cycle;      /* where it went wrong: a breach's own cycle, else the detection's */
    int fail_action;
    uint64_t fail_action_cycle;
} seq;

/* What a run of one sequence is asked for, and what it found. */
typedef struct run_opts {
    int adv;
    uint64_t seed;
    int verbose;
    const char *fst;          /* write a waveform of cycles [from, to) here */
    uint64_t from, to;
} run_opts;

typedef struct run_result {
    char why[512];            /* empty: passed */
    int action;
    uint64_t action_cycle, fail_cycle;
} run_result;

static void say(seq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(seq *q, const char *fmt, ...)
{
    if (!q->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("  [%2d] cycle %8llu  ", q->action, (unsigned long long)q->h->cycle);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static int failf(seq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(seq *q, const char *fmt, ...)
{
    if (q->fail[0])
        return 1;
    va_list ap;
    va_start(ap, fmt);
    q->fail_cycle = q->h->error[0] ? q->h->error_cycle : q->h->cycle;
    q->fail_action = q->action;
    q->fail_action_cycle = q->action_cycle;
    int k = snprintf(q->fail, sizeof q->fail, "action %d, cycle %llu: ", q->action,
                     (unsigned long long)q->h->cycle);
    vsnprintf(q->fail + k, sizeof q->fail - (size_t)k, fmt, ap);
    va_end(ap);
    return 1;
}

static void wr(seq *q, uint32_t off, uint32_t v) { rh_write(q->h, 0, off, v); }
static uint32_t rd(seq *q, uint32_t off) { return rh_read32(q->h, 0, off); }

static int idle(seq *q)
{
    long n = rh_run_idle(q->h, IDLE_MAX);
    if (q->h->error[0])
        return failf(q, "interface contract broken at %s", q->h->error);
    if (n < 0)
        return failf(q, "the device never became idle (%ld cycles)", IDLE_MAX);
    return 0;
}

/* registers of the two personalities */
static uint32_t r_tdt(const seq *q) { return q->adv ? IXGBE_TDT(0) : E1000_TDT; }
static uint32_t r_tdh(const seq *q) { return q->adv ? IXGBE_TDH(0) : E1000_TDH; }
static uint32_t r_rdt(const seq *q) { return q->adv ? IXGBE_RDT(0) : E1000_RDT; }
static uint32_t r_rdh(const seq *q) { return q->adv ? IXGBE_RDH(0) : E1000_RDH; }

static uint32_t txdctl(const seq *q)
{
    if (q->adv)
        return q->pth | q->hth << 8 | q->wth << 16 | IXGBE_TXDCTL_ENABLE;
    return q->pth | q->hth << 8 | q->wth << 16 | 1u << 24;          /* GRAN: descriptors */
}

static uint32_t rxdctl(const seq *q)
{
    if (q->adv)
        return q->rx_pth | q->rx_hth << 8 | q->rx_wth << 16 | IXGBE_RXDCTL_ENABLE;
    return q->rx_pth | q->rx_hth << 8 | q->rx_wth << 16 | 1u << 24;
}

static uint32_t rctl(const seq *q, int en)
{
    uint32_t b;
    switch (q->m->c.bsize) {
    case 256: b = E1000_RCTL_SZ_256; break;
    case 512: b = E1000_RCTL_SZ_512; break;
    case 1024: b = E1000_RCTL_SZ_1024; break;
    default: b = E1000_RCTL_SZ_2048; break;
    }
    return (en ? E1000_RCTL_EN : 0) | E1000_RCTL_BAM | b | (q->m->c.secrc ? E1000_RCTL_SECRC : 0);
}

/* An RX descriptor in the read format: the buffer address, the rest 0. */
static void rx_desc_init(seq *q, unsigned i)
{
    uint8_t d[16] = { 0 };
    uint64_t a = q->rxb_bus + (uint64_t)i * q->m->c.bsize;
    memcpy(d, &a, 8);
    memcpy(q->rxr + 16u * i, d, 16);
    memset(q->rxb + (size_t)i * q->m->c.bsize, 0xEE, q->m->c.bsize);
    dref_rx_desc(q->m, i, d);
}

static void rings_init(seq *q)
{
    dref_cfg *c = &q->m->c;
    memset(q->txr, 0, 16u * c->tx_n);
    uint8_t zero[16] = { 0 };
    for (unsigned i = 0; i < c->tx_n; i++)
        dref_tx_desc(q->m, i, zero, zero, 0);
    for (unsigned i = 0; i < c->rx_n; i++)
        rx_desc_init(q, i);
    memset(q->hwbp, 0xFF, 4);
    q->tx_used = 0;
    q->rx_clean = 0;
    q->rx_give = c->rx_n - 1;
}

/* The 82599 after power-on or CTRL.RST (nic-facts B1a), queue 0 only. */
static int bring_up_82599(seq *q)
{
    dref_cfg *c = &q->m->c;
    wr(q, IXGBE_EIMC, 0x7FFFFFFF);
    for (int i = 0; i < 20 && !(rd(q, IXGBE_EEC) & IXGBE_EEC_ARD); i++)
        rh_advance_ticks(q->h, 20);
    for (int i = 0; i < 20 && !(rd(q, IXGBE_RDRXCTL) & IXGBE_RDRXCTL_DMAIDONE); i++)
        rh_advance_ticks(q->h, 20);
    wr(q, IXGBE_RXPBSIZE(0), 128u << IXGBE_PBSIZE_KB_SHIFT);
    uint32_t hl = IXGBE_HLREG0_TXCRCEN | (c->pad ? IXGBE_HLREG0_TXPADEN : 0) |
                  (c->secrc ? IXGBE_HLREG0_RXCRCSTRP : 0);
    wr(q, IXGBE_HLREG0, hl);
    wr(q, IXGBE_RDRXCTL, c->secrc ? IXGBE_RDRXCTL_CRCSTRIP : 0);
    wr(q, IXGBE_FCTRL, IXGBE_FCTRL_BAM);
    wr(q, IXGBE_TXPBSIZE(0), 40u << IXGBE_PBSIZE_KB_SHIFT);
    wr(q, IXGBE_DMATXCTL, IXGBE_DMATXCTL_TE);
    wr(q, IXGBE_AUTOC, IXGBE_AUTOC_LMS_10G_SERIAL | IXGBE_AUTOC_AN_RESTART);
    for (int i = 0; i < 40 && !(rd(q, IXGBE_LINKS) & IXGBE_LINKS_UP); i++)
        rh_advance_ticks(q->h, 20);
    if (!(rd(q, IXGBE_LINKS) & IXGBE_LINKS_UP))
        return failf(q, "82599 link never came up");
    /* TX queue 0 */
    wr(q, IXGBE_TDBAL(0), (uint32_t)q->txr_bus);
    wr(q, IXGBE_TDBAH(0), (uint32_t)(q->txr_bus >> 32));
    wr(q, IXGBE_TDLEN(0), c->tx_n * 16u);
    wr(q, IXGBE_TDH(0), 0);
    wr(q, IXGBE_TDT(0), 0);
    wr(q, IXGBE_TDWBAH(0), (uint32_t)(q->hwb_bus >> 32));
    wr(q, IXGBE_TDWBAL(0), c->hwb ? (uint32_t)q->hwb_bus | IXGBE_TDWBAL_HEAD_WB_ENABLE : 0);
    wr(q, IXGBE_TXDCTL(0), txdctl(q));
    /* RX queue 0 */
    wr(q, IXGBE_SRRCTL(0), (c->bsize >> IXGBE_SRRCTL_BSIZEPKT_SHIFT) | IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF |
                               (c->drop_en ? IXGBE_SRRCTL_DROP_EN : 0));
    wr(q, IXGBE_RDBAL(0), (uint32_t)q->rxr_bus);
    wr(q, IXGBE_RDBAH(0), (uint32_t)(q->rxr_bus >> 32));
    wr(q, IXGBE_RDLEN(0), c->rx_n * 16u);
    wr(q, IXGBE_RDH(0), 0);
    wr(q, IXGBE_RDT(0), 0);
    wr(q, IXGBE_RXDCTL(0), rxdctl(q));
    wr(q, IXGBE_RXCTRL, IXGBE_RXCTRL_RXEN);
    if (!(rd(q, IXGBE_TXDCTL(0)) & IXGBE_TXDCTL_ENABLE) || !(rd(q, IXGBE_RXDCTL(0)) & IXGBE_RXDCTL_ENABLE))
        return failf(q, "queue 0 ENABLE did not stick");
    /* the counters start from 0 */
    (void)rd(q, IXGBE_GPTC);
    (void)rd(q, IXGBE_GPRC);
    (void)rd(q, IXGBE_MPC(0));
    (void)rd(q, IXGBE_RNBC(0));
    (void)rd(q, IXGBE_CRCERRS);
    return 0;
}

static int bring_up_82546(seq *q)
{
    dref_cfg *c = &q->m->c;
    wr(q, E1000_TDBAL, (uint32_t)q->txr_bus);
    wr(q, E1000_TDBAH, (uint32_t)(q->txr_bus >> 32));
    wr(q, E1000_TDLEN, c->tx_n * 16u);
    wr(q, E1000_TDH, 0);
    wr(q, E1000_TDT, 0);
    wr(q, E1000_TXDCTL, txdctl(q));
    /* TIDV 1 (1.024 us): the flush of a burst of write-backs at a check */
    wr(q, E1000_TIDV, 1);
    wr(q, E1000_TCTL, E1000_TCTL_EN | (c->pad ? E1000_TCTL_PSP : 0));
    wr(q, E1000_RDBAL, (uint32_t)q->rxr_bus);
    wr(q, E1000_RDBAH, (uint32_t)(q->rxr_bus >> 32));
    wr(q, E1000_RDLEN, c->rx_n * 16u);
    wr(q, E1000_RDH, 0);
    wr(q, E1000_RDT, 0);
    wr(q, E1000_RDTR, 0);
    wr(q, E1000_RXDCTL, rxdctl(q));
    wr(q, E1000_RCTL, rctl(q, 1));
    (void)rd(q, E1000_GPTC);
    (void)rd(q, E1000_GPRC);
    (void)rd(q, E1000_MPC);
    (void)rd(q, E1000_RNBC);
    (void)rd(q, E1000_CRCERRS);
    return 0;
}

static int bring_up(seq *q)
{
    rings_init(q);
    int rc = q->adv ? bring_up_82599(q) : bring_up_82546(q);
    dref_rx_enable(q->m, 1);
    return rc;
}

/* ---- actions ------------------------------------------------------------- */

/* k packets of 1..4 descriptors each, then one TDT write. */
static void act_tx(seq *q)
{
    dref_cfg *c = &q->m->c;
    unsigned room = c->tx_n - 1 - q->tx_used;
    unsigned k = 1 + pick(&q->rng, 8), sent = 0, descs = 0;
    unsigned t = q->m->tdt;
    for (unsigned p = 0; p < k; p++) {
        unsigned nd = 1 + pick(&q->rng, 4);
        if (nd > room)
            break;
        /* a frame of 14..1514 bytes (no FCS), short ones now and then */
        uint32_t len = pick(&q->rng, 8) == 0 ? 14 + pick(&q->rng, 46) : 60 + pick(&q->rng, 1455);
        if (len < nd)
            nd = len;
        int ifcs = pick(&q->rng, 8) != 0;
        uint32_t cut[5] = { 0 };
        cut[nd] = len;
        for (unsigned d = 1; d < nd; d++)     /* nondecreasing cut points, each piece >= 1 byte */
            cut[d] = cut[d - 1] + 1 + pick(&q->rng, (len - cut[d - 1]) - (nd - d));
        for (unsigned d = 0; d < nd; d++) {
            uint32_t n = cut[d + 1] - cut[d];
            uint8_t *buf = q->txb + (size_t)t * TX_BUF;
            for (uint32_t i = 0; i < n; i++)
                buf[i] = (uint8_t)splitmix64(&q->rng);
            if (d == 0 && len >= 12)
                memcpy(buf, STATION, n < 6 ? n : 6);
            uint64_t a = q->txb_bus + (uint64_t)t * TX_BUF;
            int eop = d == nd - 1, rs = pick(&q->rng, 3) == 0 || (eop && pick(&q->rng, 2) == 0);
            uint8_t cmd = (uint8_t)((eop ? 0x01 : 0) | (ifcs ? 0x02 : 0) | (rs ? 0x08 : 0));
            uint8_t desc[16] = { 0 };
            memcpy(desc, &a, 8);
            desc[8] = (uint8_t)n;
            desc[9] = (uint8_t)(n >> 8);
            if (q->adv) {
                uint64_t qw1 = n | IXGBE_ADVTXD_DTYP_DATA | IXGBE_ADVTXD_DCMD(cmd | IXGBE_TXD_CMD_DEXT) |
                               ((uint64_t)len << IXGBE_ADVTXD_PAYLEN_SHIFT);
                memcpy(desc + 8, &qw1, 8);
            } else {
                /* IDE with bursting: TIDV's expiry flushes the batch (SDM 3.4) */
                desc[11] = (uint8_t)(cmd | (q->wth ? 0x80 : 0));
            }
            memcpy(q->txr + 16u * t, desc, 16);
            dref_tx_desc(q->m, t, desc, buf, n);
            t = (t + 1) % c->tx_n;
        }
        room -= nd;
        q->tx_used += nd;
        tally.tx_frames++;
        tally.tx_descs += nd;
        descs += nd;
        sent++;
    }
    if (!sent)
        return;
    say(q, "TX %u packets in %u descriptors, TDT %u", sent, descs, t);
    wr(q, r_tdt(q), t);
    dref_tx_tail(q->m, t);
}

/* n frames from the wire, each to the station or broadcast, each settled. */
static void act_rx(seq *q)
{
    unsigned k = 1 + pick(&q->rng, 3);
    for (unsigned f = 0; f < k && !q->fail[0]; f++) {
        uint32_t waiting = 0;
        for (unsigned i = 0; i < q->m->nwait; i++)
            waiting += q->m->wait[i].len - q->m->wait[i].off;
        if (q->m->nwait >= 8 || waiting + 1518 > WAIT_BYTES)
            return;
        uint32_t len = 64 + pick(&q->rng, 1455);
        uint8_t data[1518];
        for (uint32_t i = 0; i < len; i++)
            data[i] = (uint8_t)splitmix64(&q->rng);
        if (pick(&q->rng, 4) == 0)
            memset(data, 0xFF, 6);
        else
            memcpy(data, STATION, 6);
        /* the device settles first: whether a descriptor is free when the
         * frame arrives must not depend on how far it got with the last
         * tail write */
        if (idle(q))
            return;
        say(q, "RX frame of %u bytes (%u free descriptors)", len, dref_rx_free(q->m));
        int crc_ok = pick(&q->rng, 10) != 0;   /* one in ten with a bad FCS */
        tally.rx_frames++;
        tally.rx_bad_fcs += !crc_ok;
        tally.rx_nodesc += crc_ok && dref_rx_free(q->m) == 0;
        tally.multi_desc_rx += crc_ok && len - (q->m->c.secrc ? 4 : 0) > q->m->c.bsize;
        rh_rx_frame(q->h, 0, data, len, crc_ok);
        dref_rx_frame(q->m, data, len, crc_ok);
        idle(q);
    }
}

/* Return some cleaned buffers (late: any amount of what was cleaned). */
static void act_rx_return(seq *q)
{
    if (!q->rx_give)
        return;
    unsigned k = 1 + pick(&q->rng, q->rx_give);
    unsigned t = q->m->rdt;
    for (unsigned i = 0; i < k; i++) {
        rx_desc_init(q, t);
        t = (t + 1) % q->m->c.rx_n;
    }
    q->rx_give -= k;
    tally.rx_returns++;
    say(q, "RX return %u buffers, RDT %u", k, t);
    wr(q, r_rdt(q), t);
    dref_rx_tail(q->m, t);
}

/* Quiescence, write-backs flushed: compare every observable. */
static void act_check(seq *q)
{
    dref *m = q->m;
    dref_cfg *c = &m->c;
    say(q, "check");
    tally.checks++;
    if (idle(q))
        return;
    /* flush until a round writes nothing more: a flushed batch can let the
     * device fetch and finish more descriptors, which batch again */
    for (int round = 0; round < 64; round++) {
        size_t writes = q->h->nwlog;
        if (q->adv) {
            wr(q, IXGBE_TXDCTL(0), txdctl(q) | IXGBE_TXDCTL_SWFLSH);
            wr(q, IXGBE_RXDCTL(0), rxdctl(q) | IXGBE_RXDCTL_SWFLSH);
        } else {
            wr(q, E1000_RDTR, E1000_RDTR_FPD);
        }
        rh_advance_ticks(q->h, 64);      /* TIDV (82546 bursts) expires */
        if (idle(q))
            return;
        if (q->h->nwlog == writes)
            break;
    }
    /* frames on the wire */
    rtl_harness *h = q->h;
    if (h->nframes[0] != m->nout)
        failf(q, "%zu frames on the wire, the model expects %zu", h->nframes[0], m->nout);
    for (size_t i = q->frames_seen; i < h->nframes[0] && i < m->nout && !q->fail[0]; i++) {
        const rh_frame *f = &h->frames[0][i];
        const dref_frame *e = &m->out[i];
        if (f->len != e->len || f->fcs != e->fcs || memcmp(f->data, e->data, e->len))
            failf(q, "frame %zu: %u bytes fcs %u, the model expects %u bytes fcs %u%s", i, f->len, f->fcs,
                  e->len, e->fcs, f->len == e->len ? " (the bytes differ)" : "");
    }
    q->frames_seen = (unsigned)m->nout;
    /* TX descriptors */
    for (unsigned i = 0; i < c->tx_n && !q->fail[0]; i++) {
        const uint8_t *d = q->txr + 16u * i, *s = m->txd[i];
        int dd = d[12] & 1;
        if (m->tx_dd[i] == DREF_DD_YES && !dd)
            failf(q, "TX descriptor %u (RS) has no DD", i);
        else if (m->tx_dd[i] == DREF_DD_NO && memcmp(d, s, 16))
            failf(q, "TX descriptor %u was written (DD %d), the model expects it as software left it", i, dd);
        else if (dd && !c->adv && (memcmp(d, s, 12) || d[12] != (s[12] | 1) || memcmp(d + 13, s + 13, 3)))
            failf(q, "TX descriptor %u: written back with more than DD changed", i);
    }
    if (c->hwb && !q->fail[0]) {
        uint32_t v;
        memcpy(&v, q->hwbp, 4);
        if (v != m->hwb_val)
            failf(q, "head write-back dword %u, the model expects %u", v, m->hwb_val);
    }
    /* RX descriptors and buffers */
    for (unsigned i = 0; i < c->rx_n && !q->fail[0]; i++) {
        const uint8_t *d = q->rxr + 16u * i;
        const dref_rxd *r = &m->rxd[i];
        if (!r->done) {
            if (memcmp(d, m->rxd_sw[i], 16))
                failf(q, "RX descriptor %u was written, the model expects it as software left it", i);
            continue;
        }
        if (memcmp(d, r->wb, 16)) {
            char got[40], want[40];
            for (int k = 0; k < 16; k++) {
                snprintf(got + 2 * k, 3, "%02x", d[k]);
                snprintf(want + 2 * k, 3, "%02x", r->wb[k]);
            }
            failf(q, "RX descriptor %u write-back %s, the model expects %s", i, got, want);
        } else if (memcmp(q->rxb + (size_t)i * c->bsize, r->buf, r->buf_len)) {
            failf(q, "RX buffer %u: its %u bytes differ from the frame's", i, r->buf_len);
        }
    }
    /* heads and counters */
    uint32_t tdh = rd(q, r_tdh(q)), rdh = rd(q, r_rdh(q));
    if (!q->fail[0] && tdh != m->tdh)
        failf(q, "TDH %u, the model expects %u", tdh, m->tdh);
    if (!q->fail[0] && rdh != m->rdh)
        failf(q, "RDH %u, the model expects %u", rdh, m->rdh);
    uint32_t gptc = rd(q, q->adv ? IXGBE_GPTC : E1000_GPTC), gprc = rd(q, q->adv ? IXGBE_GPRC : E1000_GPRC);
    uint32_t mpc = rd(q, q->adv ? IXGBE_MPC(0) : E1000_MPC), rnbc = rd(q, q->adv ? IXGBE_RNBC(0) : E1000_RNBC);
    uint32_t crc = rd(q, q->adv ? IXGBE_CRCERRS : E1000_CRCERRS);
    if (!q->fail[0] && (gptc != m->gptc || gprc != m->gprc || mpc != m->mpc || rnbc != m->rnbc || crc != m->crcerrs))
        failf(q, "counters GPTC %u GPRC %u MPC %u RNBC %u CRCERRS %u, the model expects %llu %llu %llu %llu %llu",
              gptc, gprc, mpc, rnbc, crc, (unsigned long long)m->gptc, (unsigned long long)m->gprc,
              (unsigned long long)m->mpc, (unsigned long long)m->rnbc, (unsigned long long)m->crcerrs);
    m->gptc = m->gprc = m->mpc = m->rnbc = m->crcerrs = 0;
    /* the driver cleans what is done: those buffers may be returned */
    while (q->rx_clean != m->rdh) {
        q->rx_clean = (q->rx_clean + 1) % c->rx_n;
        q->rx_give++;
    }
    q->tx_used = 0;
}

/* Disable the TX queue, restart it at index 0, enable it (after a check). */
static void act_tx_restart(seq *q)
{
    act_check(q);
    if (q->fail[0])
        return;
    say(q, "TX queue restart at 0");
    tally.tx_restarts++;
    if (q->adv)
        wr(q, IXGBE_TXDCTL(0), txdctl(q) & ~IXGBE_TXDCTL_ENABLE);
    else
        wr(q, E1000_TCTL, q->m->c.pad ? E1000_TCTL_PSP : 0);
    idle(q);
    memset(q->txr, 0, 16u * q->m->c.tx_n);
    uint8_t zero[16] = { 0 };
    for (unsigned i = 0; i < q->m->c.tx_n; i++)
        dref_tx_desc(q->m, i, zero, zero, 0);
    wr(q, r_tdh(q), 0);
    wr(q, r_tdt(q), 0);
    if (q->adv)
        wr(q, IXGBE_TXDCTL(0), txdctl(q));
    else
        wr(q, E1000_TCTL, E1000_TCTL_EN | (q->m->c.pad ? E1000_TCTL_PSP : 0));
    dref_tx_restart(q->m);
}

/* Disable the receiver, restart the RX ring at 0, enable.  Legal only while
 * the device owns no descriptor (RDT == RDH: none can be on chip, where a
 * disabled receiver keeps them; RDH is written only with nothing on chip)
 * and no frame waits. */
static void act_rx_restart(seq *q)
{
    act_check(q);
    if (q->fail[0] || q->m->nwait || dref_rx_free(q->m))
        return;
    say(q, "RX queue restart at 0");
    tally.rx_restarts++;
    if (q->adv)
        wr(q, IXGBE_RXDCTL(0), rxdctl(q) & ~IXGBE_RXDCTL_ENABLE);
    else
        wr(q, E1000_RCTL, rctl(q, 0));
    idle(q);
    for (unsigned i = 0; i < q->m->c.rx_n; i++)
        rx_desc_init(q, i);
    wr(q, r_rdh(q), 0);
    wr(q, r_rdt(q), 0);
    if (q->adv)
        wr(q, IXGBE_RXDCTL(0), rxdctl(q));
    else
        wr(q, E1000_RCTL, rctl(q, 1));
    dref_rx_restart(q->m);
    q->rx_clean = 0;
    q->rx_give = q->m->c.rx_n - 1;
}

/* CTRL.RST at quiescence, then the bring-up again. */
static void act_reset(seq *q)
{
    act_check(q);
    if (q->fail[0])
        return;
    say(q, "CTRL.RST and bring-up");
    tally.resets++;
    wr(q, q->adv ? IXGBE_CTRL : E1000_CTRL, q->adv ? IXGBE_CTRL_RST_MASK : E1000_CTRL_RST);
    rh_steps(q->h, 64);
    rh_advance_ticks(q->h, 64);
    idle(q);
    dref_reset(q->m);
    q->frames_seen = (unsigned)q->m->nout;
    if (!q->fail[0])
        bring_up(q);
}

/* ---- a whole sequence ---------------------------------------------------- */

static const unsigned RING_SIZES[] = { 8, 16, 24, 32, 64, 128, 256 };

static int run_seq(const run_opts *o, run_result *res)
{
    int adv = o->adv, verbose = o->verbose;
    uint64_t seed = o->seed;
    seq q;
    memset(&q, 0, sizeof q);
    memset(res, 0, sizeof *res);
    q.adv = adv;
    q.rng = seed * 2 + (uint64_t)adv;
    q.verbose = verbose;
    nic_rtl_straps st = { .model = (uint8_t)(adv ? NIC_RTL_82599 : NIC_RTL_82546), .ports = 1, .link_up = 3,
                          .pcix_mode = 1, .pcix_speed = 2, .bus64 = 1, .pci66 = 1,
                          .mac = { { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 } } };
    q.h = rh_new_straps(&st);
    q.h->split_pages = 1;
    q.h->soft = 1;
    if (o->fst && nic_rtl_trace_fst(q.h->n, o->fst, o->from, o->to) != 0) {
        fprintf(stderr, "rtl_differential: cannot write a waveform to %s (this binary has no FST tracing: "
                        "make diff-replay builds one that has)\n", o->fst);
        rh_free(q.h);
        return -1;
    }
    q.h->read_latency = 4 + pick(&q.rng, 60);
    q.m = calloc(1, sizeof *q.m);
    if (!q.m)
        abort();
    dref_cfg c = { .adv = adv };
    c.tx_n = RING_SIZES[pick(&q.rng, 7)];
    c.rx_n = RING_SIZES[pick(&q.rng, 7)];
    c.bsize = adv ? 1024u << pick(&q.rng, 2) : 256u << pick(&q.rng, 4);
    c.secrc = pick(&q.rng, 2);
    c.pad = pick(&q.rng, 4) != 0;
    c.hwb = adv && pick(&q.rng, 4) == 0;
    c.drop_en = adv && pick(&q.rng, 2);
    /* thresholds: PTHRESH + WTHRESH within the 82599's 40-entry cache */
    q.pth = pick(&q.rng, 33);
    q.hth = pick(&q.rng, 9);
    q.wth = c.hwb || pick(&q.rng, 2) ? 0 : 1 + pick(&q.rng, 8);
    q.rx_pth = pick(&q.rng, 33);
    q.rx_hth = pick(&q.rng, 9);
    q.rx_wth = pick(&q.rng, 2) ? 0 : 1 + pick(&q.rng, 8);
    c.tx_burst = q.wth != 0;
    dref_init(q.m, &c);
    q.txr = host_mem_alloc(q.h->mem, 16u * c.tx_n, 128, &q.txr_bus);
    q.rxr = host_mem_alloc(q.h->mem, 16u * c.rx_n, 128, &q.rxr_bus);
    q.txb = host_mem_alloc(q.h->mem, (size_t)TX_BUF * c.tx_n, 64, &q.txb_bus);
    q.rxb = host_mem_alloc(q.h->mem, (size_t)c.bsize * c.rx_n, 64, &q.rxb_bus);
    q.hwbp = host_mem_alloc(q.h->mem, 64, 64, &q.hwb_bus);
    if (!q.txr || !q.rxr || !q.txb || !q.rxb || !q.hwbp)
        abort();
    if (verbose)
        printf("%s seed %llu: TX ring %u, RX ring %u, BSIZE %u, SECRC %d, pad %d, head write-back %d, DROP_EN %d,\n"
               "  TX PTHRESH %u HTHRESH %u WTHRESH %u, RX PTHRESH %u HTHRESH %u WTHRESH %u, read latency %u\n",
               adv ? "82599" : "82546", (unsigned long long)seed, c.tx_n, c.rx_n, c.bsize, c.secrc, c.pad, c.hwb,
               c.drop_en, q.pth, q.hth, q.wth, q.rx_pth, q.rx_hth, q.rx_wth, q.h->read_latency);
    tally.hwb += c.hwb;
    tally.burst += c.tx_burst;
    bring_up(&q);
    for (q.action = 0; q.action < ACTIONS && !q.fail[0]; q.action++) {
        q.action_cycle = q.h->cycle;
        unsigned a = q.action == ACTIONS - 1 ? 99 : pick(&q.rng, 100);
        if (a < 35)
            act_tx(&q);
        else if (a < 60)
            act_rx(&q);
        else if (a < 78)
            act_rx_return(&q);
        else if (a < 82)
            act_tx_restart(&q);
        else if (a < 85)
            act_rx_restart(&q);
        else if (a < 87)
            act_reset(&q);
        else
            act_check(&q);
        if (q.h->error[0])
            failf(&q, "interface contract broken at %s", q.h->error);
    }
    int ok = !q.fail[0];
    if (!ok) {
        snprintf(res->why, sizeof res->why, "%s", q.fail);
        res->action = q.fail_action;
        res->action_cycle = q.fail_action_cycle;
        res->fail_cycle = q.fail_cycle;
    }
    if (!ok && verbose) {
        printf("TX ring (index: command byte, DD the model wants (0 no, 1 yes, 2 either), DD in memory):\n");
        for (unsigned i = 0; i < c.tx_n; i++)
            printf("  %3u: %02x %u %u%s", i, q.txr[16u * i + 11], q.m->tx_dd[i], q.txr[16u * i + 12] & 1u,
                   i % 6 == 5 || i == c.tx_n - 1 ? "\n" : "");
        printf("DMA writes into the TX ring (request cycle: first descriptor, bytes):\n");
        for (size_t i = 0; i < q.h->nwlog; i++) {
            const rh_wr *w = &q.h->wlog[i];
            if (w->addr >= q.txr_bus && w->addr < q.txr_bus + 16u * c.tx_n)
                printf("  %llu: %llu, %u\n", (unsigned long long)w->cycle,
                       (unsigned long long)(w->addr - q.txr_bus) / 16, w->len);
        }
    }
    dref_free(q.m);
    free(q.m);
    rh_free(q.h);
    return ok;
}

static const char *name_of(int adv)
{
    return adv ? "82599" : "82546";
}

/* ---- the suites ---------------------------------------------------------- */

static unsigned long seqs_per_personality(void)
{
    const char *e = getenv("NICSIM_DIFF_SEQS");
    unsigned long n = e ? strtoul(e, NULL, 10) : 10000;
    return n ? n : 10000;
}

static void run_many(int adv)
{
    unsigned long n = seqs_per_personality(), bad = 0, ran = 0;
    run_result r;
    memset(&tally, 0, sizeof tally);
    /* three failures are enough to go on with (a broken design can make
     * every sequence wait out its hang limit) */
    for (unsigned long s = 1; s <= n && bad < 3; s++) {
        ran++;
        run_opts o = { .adv = adv, .seed = s };
        if (run_seq(&o, &r))
            continue;
        bad++;
        fprintf(stderr, "differential: %s seed %lu: %s\n  replay with a waveform: make diff-replay SEQ=%s:%lu\n",
                name_of(adv), s, r.why, name_of(adv), s);
    }
    printf("differential: %s: %lu of %lu sequences run, %lu failed%s\n", name_of(adv), ran, n, bad,
           bad >= 3 ? " (stopped at the third failure)" : "");
    printf("  they sent %lu frames in %lu TX descriptors, received %lu frames (%lu with a bad FCS, %lu over more\n"
           "  than one buffer, %lu finding no free descriptor), returned RX buffers %lu times, checked %lu times, restarted\n"
           "  TX %lu and RX %lu times, reset %lu times; %lu with TX write-back bursts, %lu with head write-back\n",
           tally.tx_frames, tally.tx_descs, tally.rx_frames, tally.rx_bad_fcs, tally.multi_desc_rx, tally.rx_nodesc, tally.rx_returns,
           tally.checks, tally.tx_restarts, tally.rx_restarts, tally.resets, tally.burst, tally.hwb);
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_82546(void) { run_many(0); }
static void test_82599(void) { run_many(1); }

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Differential", NULL, NULL);
    CU_add_test(s, "RandomSequences82546", test_82546);
    CU_add_test(s, "RandomSequences82599", test_82599);
}

/* The failing action's window: from a little before it started to a little
 * after the failure, at most WINDOW_MAX cycles (a hang waits IDLE_MAX). */
#define WINDOW_BEFORE 200u
#define WINDOW_MAX 50000u

static int replay(const char *spec, const char *fst)
{
    int adv;
    if (!strncmp(spec, "82599:", 6))
        adv = 1;
    else if (!strncmp(spec, "82546:", 6))
        adv = 0;
    else {
        fprintf(stderr, "rtl_differential: --replay: expected 82546:SEED or 82599:SEED, got '%s'\n", spec);
        return 2;
    }
    char *end;
    unsigned long long seed = strtoull(spec + 6, &end, 10);
    if (*end || !spec[6]) {
        fprintf(stderr, "rtl_differential: --replay: expected a decimal seed, got '%s'\n", spec + 6);
        return 2;
    }
    run_opts o = { .adv = adv, .seed = seed, .verbose = 1 };
    run_result r;
    if (run_seq(&o, &r)) {
        printf("sequence passed%s\n", fst ? " (no failure: no waveform written)" : "");
        return 0;
    }
    printf("FAILED: %s\n", r.why);
    if (!fst)
        return 1;
    /* the same sequence again (it is deterministic), traced over the window */
    o.verbose = 0;
    o.fst = fst;
    o.from = r.action_cycle > WINDOW_BEFORE ? r.action_cycle - WINDOW_BEFORE : 0;
    o.to = r.fail_cycle + 16 < o.from + WINDOW_MAX ? r.fail_cycle + 16 : o.from + WINDOW_MAX;
    run_result again;
    int rc = run_seq(&o, &again);
    if (rc < 0)
        return 2;
    if (rc || strcmp(again.why, r.why)) {
        fprintf(stderr, "rtl_differential: the traced replay did not fail the same way: %s\n",
                rc ? "it passed" : again.why);
        return 1;
    }
    printf("waveform of cycles %llu..%llu (action %d started at cycle %llu; time unit: half a cycle): %s\n"
           "(a waveform viewer: gtkwave, Debian package gtkwave)\n",
           (unsigned long long)o.from, (unsigned long long)o.to - 1, r.action,
           (unsigned long long)r.action_cycle, fst);
    return 1;
}

int main(int argc, char **argv)
{
    const char *spec = NULL, *fst = NULL;
    for (int i = 1; i < argc; i++) {
        int has = i + 1 < argc;
        if (!strcmp(argv[i], "--replay") || !strcmp(argv[i], "--fst")) {
            if (!has) {
                fprintf(stderr, "rtl_differential: %s needs a value (--replay 82546:SEED|82599:SEED, --fst FILE)\n",
                        argv[i]);
                return 2;
            }
            if (!strcmp(argv[i], "--replay"))
                spec = argv[++i];
            else
                fst = argv[++i];
        }
    }
    if (fst && !spec) {
        fprintf(stderr, "rtl_differential: --fst goes with --replay 82546:SEED|82599:SEED\n");
        return 2;
    }
    if (spec)
        return replay(spec, fst);
    return gtest_cunit_main(argc, argv, register_suites);
}
