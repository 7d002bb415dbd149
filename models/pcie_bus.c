/* PCIe link timing model (see pcie_bus.h for the rules).
 *
 * How it works:
 * - Each direction is a serializer that sends one thing at a time: a TLP, a
 *   DLLP or an SKP ordered set.  When it is free it picks, in this order, an
 *   SKP that has fallen due, an owed DLLP, a TLP.  Starting a thing schedules
 *   one event at its end, where the receiver acts on it and the serializer
 *   picks again.  Everything goes through sched_at, so runs are
 *   deterministic and ties follow scheduling order.
 * - Link time is kept in units of 1/128 ps ("sub"), in which one byte is a
 *   whole number for every generation and width (Gen3 x16: 8125 sub), so
 *   back-to-back TLPs follow each other exactly and a long stream does not
 *   drift; events fire on the first picosecond at or after an end.
 * - SKP ordered sets fall due every skp_interval byte times of wall-clock
 *   time, as the transmitter's timer sends them whether or not there is
 *   traffic; an SKP due while the link is idle is accounted lazily (it costs
 *   nothing unless it is still on the wire when something wants to go).
 *   With dllp_always, Acks and UpdateFCs are timers of the same kind.
 * - Ack and UpdateFC DLLPs are owed in proportion to the other direction's
 *   activity, counted in bytes: its TLPs, plus the DLLPs and SKPs it sent
 *   while a TLP was waiting (a receiver's Ack timer keeps running through
 *   those gaps of a TLP stream).  With a direction busy all the time this
 *   reproduces pcie-bench's 8/interval of the link per DLLP type exactly.
 * - At the end of a TLP the receiver acts before the DLLPs it owes are
 *   queued, so a tag freed by a completion lets the next MRd go ahead of
 *   them; the DLLPs follow it with no TLP waiting (not activity). */
#include "pcie_bus.h"
#include "slab_pool.h"
#include <stdio.h>
#include <stdlib.h>

#define SUB 128u              /* sub units per ps */
#define PAGE 4096u            /* no TLP crosses a 4 KiB boundary */
#define DLLP_BYTES 8u         /* 2 framing + 4 DLLP + 2 CRC (nic-facts D1) */
#define SKP_BYTES 4u          /* per pcie-bench, every generation (nic-facts D1) */
#define TLP_FRAMING 8u        /* start/end framing + 2 sequence + 4 LCRC */
#define TLP_HDR0 4u           /* the first header DW, common to every TLP */
#define ECRC_BYTES 4u
#define ADDR4G (1ull << 32)

typedef struct txn {
    struct txn *next;       /* queue link, arrival chain link or free list */
    pcie_kind kind;
    int func;
    uint32_t tag;           /* DMA tag; MMIO offset */
    uint32_t val;           /* MMIO data */
    uint64_t addr;
    uint32_t len;           /* data carried (MRd: bytes requested) */
    uint32_t wire;          /* bytes on the link */
    uint8_t last;           /* final piece of the caller's request */
    uint8_t last_of_mrd;    /* CplD: final completion of its MRd (frees the tag) */
    uint8_t counted;        /* MRd: already counted in tag_waits */
    uint64_t seq;           /* upstream issue order */
} txn;

typedef struct fifo {
    txn *head, *tail;
} fifo;

/* Something a direction sends every `period` sub units of wall-clock time. */
typedef struct link_timer {
    pcie_kind kind;
    uint32_t bytes;
    uint64_t period, due;
} link_timer;

enum { MAX_TIMERS = 3 };

typedef struct link_dir {
    struct pcie_bus *b;
    int d;                  /* PCIE_UP or PCIE_DOWN */
    int active;             /* something is on the wire until free_sub */
    uint64_t free_sub;      /* end of the last thing sent */
    link_timer timers[MAX_TIMERS]; /* the SKP; with dllp_always also Ack and UpdateFC */
    int ntimers;
    unsigned ack_owed, fc_owed; /* DLLPs waiting to be sent on this direction */
    uint64_t ack_acc, fc_acc;   /* this direction's activity not yet paid for
                                   by DLLPs on the other one, bytes */
    txn *cur;               /* the TLP on the wire; NULL for a DLLP or SKP */
    uint32_t cur_activity;  /* bytes of what is on the wire that count as activity */
} link_dir;

enum { SLAB_TXNS = 64 };

struct pcie_bus {
    sched *s;
    pcie_params p;
    host_bus_callbacks cb;
    uint64_t sub_per_byte;
    unsigned ack_iv, fc_iv;
    link_dir dir[PCIE_DIRS];
    /* upstream, per function: posted writes and completions in issue order,
     * and non-posted reads in issue order */
    fifo ord[PCIE_MAX_FUNCS], np[PCIE_MAX_FUNCS];
    unsigned tags_used[PCIE_MAX_FUNCS];
    int rr;                 /* function the next upstream pick looks at first */
    int nf;                 /* 1 + the highest function that queued a TLP: the
                               upstream scans stop there (the others are empty) */
    uint64_t seq;
    fifo down;              /* downstream TLPs in the order they became ready */
    fifo presented;         /* MMIO reads presented to the device, not yet answered */
    uint64_t open;          /* caller requests whose final callback is still due */
    slab_pool txns;             /* transaction records */
    pcie_stats st;
};

/* ---- parameters ---------------------------------------------------------- */

void pcie_params_default(pcie_params *p)
{
    /* The 82599 is a PCIe 2.0 x8 part (nic-facts D1, standard part data,
     * [unverified] in a stored datasheet). */
    p->gen = 2;
    p->lanes = 8;
    /* pcie-bench's defaults (nic-facts D1, PM pcie_bw.py): MPS 256, MRRS
     * 512, RCB 64, 64-bit addressing, no ECRC.  The 82599's own maximum MPS
     * is [unverified]; 256 is what server root complexes commonly grant. */
    p->mps = 256;
    p->mrrs = 512;
    p->rcb = 64;
    p->addr64 = 1;
    p->ecrc = 0;
    /* 5-bit tag field without extended tags: 32 outstanding reads. */
    p->tags = 32;
    /* The spec's Ack / UpdateFC tables as pcie-bench uses them (nic-facts D1). */
    p->ack_interval = 0;
    p->fc_interval = 0;
    p->skp_interval = 1538;
    /* DLLPs follow the traffic they acknowledge. */
    p->dllp_always = 0;
    /* nic-facts D3: a 64-byte DMA read takes 546 ns (median) on Xeon E5
     * servers, measured at the device over Gen3 x8; less the serialization
     * both ways and the measuring card's own DMA path, about 500 ns is the
     * root complex and memory [derived estimate]. */
    p->host_read_latency = 500 * PS_PER_NS;
    /* Estimate, CPU <-> root complex one way, as the PCI-X model's bridge. */
    p->mmio_host_latency = 150 * PS_PER_NS;
}

static int pow2_in(unsigned v, unsigned lo, unsigned hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int pcie_params_check(const pcie_params *p, char *err, size_t n)
{
    if (p->gen < 1 || p->gen > 3) {
        snprintf(err, n, "gen: expected 1, 2 or 3, got %u", p->gen);
        return -1;
    }
    if (!pow2_in(p->lanes, 1, 16)) {
        snprintf(err, n, "lanes: expected 1, 2, 4, 8 or 16, got %u", p->lanes);
        return -1;
    }
    if (!pow2_in(p->mps, 128, 4096)) {
        snprintf(err, n, "mps: expected 128, 256, 512, 1024, 2048 or 4096, got %u", p->mps);
        return -1;
    }
    if (!pow2_in(p->mrrs, 128, 4096)) {
        snprintf(err, n, "mrrs: expected 128, 256, 512, 1024, 2048 or 4096, got %u", p->mrrs);
        return -1;
    }
    if (!pow2_in(p->rcb, 64, 512)) {
        snprintf(err, n, "rcb: expected 64, 128, 256 or 512, got %u", p->rcb);
        return -1;
    }
    /* A completion may carry at most MPS bytes and breaks only on RCB
     * boundaries: with RCB above MPS no split satisfies both. */
    if (p->rcb > p->mps) {
        snprintf(err, n, "rcb: expected at most mps (%u), got %u", p->mps, p->rcb);
        return -1;
    }
    if (p->addr64 != 0 && p->addr64 != 1) {
        snprintf(err, n, "addr64: expected 0 or 1, got %d", p->addr64);
        return -1;
    }
    if (p->ecrc != 0 && p->ecrc != 1) {
        snprintf(err, n, "ecrc: expected 0 or 1, got %d", p->ecrc);
        return -1;
    }
    if (p->tags < 1 || p->tags > 256) {
        snprintf(err, n, "tags: expected 1 to 256 (8-bit extended tags), got %u", p->tags);
        return -1;
    }
    /* Below 32 bytes the DLLPs could take half the link or more and a busy
     * link would owe DLLPs faster than it can send them. */
    if (p->ack_interval != 0 && p->ack_interval < 32) {
        snprintf(err, n, "ack_interval: expected 0 (the spec table) or at least 32, got %u",
                 p->ack_interval);
        return -1;
    }
    if (p->fc_interval != 0 && p->fc_interval < 32) {
        snprintf(err, n, "fc_interval: expected 0 (the spec table) or at least 32, got %u",
                 p->fc_interval);
        return -1;
    }
    if (p->skp_interval < 64) {
        snprintf(err, n, "skp_interval: expected at least 64, got %u", p->skp_interval);
        return -1;
    }
    if (p->dllp_always != 0 && p->dllp_always != 1) {
        snprintf(err, n, "dllp_always: expected 0 or 1, got %d", p->dllp_always);
        return -1;
    }
    return 0;
}

const char *pcie_kind_name(pcie_kind k)
{
    switch (k) {
    case PCIE_DMA_WRITE:     return "dma_write";
    case PCIE_DMA_READ_REQ:  return "dma_read_req";
    case PCIE_DMA_READ_CPL:  return "dma_read_cpl";
    case PCIE_MMIO_WRITE:    return "mmio_write";
    case PCIE_MMIO_READ:     return "mmio_read";
    case PCIE_MMIO_READ_CPL: return "mmio_read_cpl";
    case PCIE_ACK:           return "ack";
    case PCIE_FC:            return "update_fc";
    case PCIE_SKP:           return "skp";
    default:                 return "?";
    }
}

/* ---- link arithmetic ----------------------------------------------------- */

/* One byte per lane takes 10 bits at 2.5 GT/s = 4000 ps (Gen1), at 5 GT/s
 * 2000 ps (Gen2), and 130/128 x 8 bits at 8 GT/s = 1015.625 ps (Gen3). */
static uint64_t sub_per_byte(unsigned gen, unsigned lanes)
{
    static const uint64_t per_lane[4] = { 0, 4000 * SUB, 2000 * SUB, 130000 };
    return per_lane[gen] / lanes;
}

double pcie_byte_ps(const pcie_params *p)
{
    return (double)sub_per_byte(p->gen, p->lanes) / SUB;
}

double pcie_raw_gbps(const pcie_params *p)
{
    return 8000.0 / pcie_byte_ps(p);
}

unsigned pcie_spec_dllp_interval(unsigned gen, unsigned lanes, unsigned mps)
{
    /* PCIe Base Spec rev 5.0 tables 2-46..48 (UpdateFC) and 3-7..9 (Ack
     * latency limits) as pcie-bench's model/pcie.py transcribes them: the
     * two tables agree for x1..x16.  The spec counts symbol times; pcie-bench
     * (and so this model) counts bytes of the link (nic-facts D1). */
    static const unsigned short t[3][5][6] = {
        { { 237, 416, 559, 1071, 2095, 4143 }, { 128, 217, 289, 545, 1057, 2081 },
          { 73, 118, 154, 282, 538, 1050 },    { 67, 107, 86, 150, 278, 534 },
          { 48, 72, 86, 150, 278, 534 } },
        { { 288, 467, 610, 1122, 2146, 4194 }, { 179, 268, 340, 596, 1108, 2132 },
          { 124, 169, 205, 333, 589, 1101 },   { 118, 158, 137, 201, 329, 585 },
          { 99, 123, 137, 201, 329, 585 } },
        { { 333, 512, 655, 1167, 2191, 4239 }, { 224, 313, 385, 641, 1153, 2177 },
          { 169, 214, 250, 378, 634, 1146 },   { 163, 203, 182, 246, 374, 630 },
          { 144, 168, 182, 246, 374, 630 } },
    };
    if (gen < 1 || gen > 3 || !pow2_in(lanes, 1, 16) || !pow2_in(mps, 128, 4096))
        return 0;
    int li = 0, mi = 0;
    while ((1u << li) < lanes)
        li++;
    while ((128u << mi) < mps)
        mi++;
    return t[gen - 1][li][mi];
}

unsigned pcie_ack_interval(const pcie_params *p)
{
    return p->ack_interval ? p->ack_interval : pcie_spec_dllp_interval(p->gen, p->lanes, p->mps);
}

unsigned pcie_fc_interval(const pcie_params *p)
{
    return p->fc_interval ? p->fc_interval : pcie_spec_dllp_interval(p->gen, p->lanes, p->mps);
}

double pcie_tlp_gbps(const pcie_params *p)
{
    double lost = (double)DLLP_BYTES / pcie_ack_interval(p) + (double)DLLP_BYTES / pcie_fc_interval(p) +
                  (double)SKP_BYTES / p->skp_interval;
    return pcie_raw_gbps(p) * (1.0 - lost);
}

uint32_t pcie_tlp_wire_bytes(const pcie_params *p, pcie_kind k, uint64_t addr, uint32_t payload)
{
    uint32_t n = TLP_FRAMING + TLP_HDR0 + (p->ecrc ? ECRC_BYTES : 0);
    switch (k) {
    case PCIE_DMA_WRITE:
    case PCIE_DMA_READ_REQ:
        /* Requests below 4 GiB may use the 3DW header (32-bit address);
         * addr64 = 1 is a host that hands the device 64-bit addresses. */
        n += (p->addr64 || addr >= ADDR4G) ? 12 : 8;
        break;
    case PCIE_MMIO_WRITE:
    case PCIE_MMIO_READ:
        n += 8;             /* BAR0 lies below 4 GiB: 3DW header */
        break;
    case PCIE_DMA_READ_CPL:
    case PCIE_MMIO_READ_CPL:
        n += 8;             /* completer ID, status, byte count, requester ID, tag */
        break;
    default:
        return 0;
    }
    if (k != PCIE_DMA_READ_REQ && k != PCIE_MMIO_READ)
        n += payload;
    return n;
}

/* Bytes of the next piece of [addr, addr+len): at most max, not across 4 KiB. */
static uint32_t piece(uint64_t addr, uint32_t len, uint32_t max)
{
    uint32_t to_page = PAGE - (uint32_t)(addr % PAGE);
    uint32_t n = len < max ? len : max;
    return n < to_page ? n : to_page;
}

/* Bytes of the next completion of a read whose remaining part is
 * [addr, addr+len): at most MPS, ending on an RCB boundary unless it is the
 * last.  rcb <= mps, both powers of two, so the boundary is past addr. */
static uint32_t cpl_piece(const pcie_params *p, uint64_t addr, uint32_t len)
{
    uint64_t lim = (addr + p->mps) & ~(uint64_t)(p->rcb - 1);
    uint64_t n = lim - addr;
    return n < len ? (uint32_t)n : len;
}

/* ---- transaction pool ---------------------------------------------------- */

static txn *txn_new(pcie_bus *b)
{
    return slab_pool_get(&b->txns);
}

static void txn_free(pcie_bus *b, txn *t)
{
    slab_pool_put(&b->txns, t);
}

static void push(fifo *q, txn *t)
{
    t->next = NULL;
    if (q->tail)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
}

static txn *pop(fifo *q)
{
    txn *t = q->head;
    q->head = t->next;
    if (!q->head)
        q->tail = NULL;
    t->next = NULL;
    return t;
}

/* ---- life cycle ---------------------------------------------------------- */

pcie_bus *pcie_new(sched *s, const pcie_params *p, const host_bus_callbacks *cb)
{
    char err[160];
    if (!s || !p || pcie_params_check(p, err, sizeof err) != 0)
        return NULL;
    pcie_bus *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = s;
    b->p = *p;
    slab_pool_init(&b->txns, sizeof(txn), SLAB_TXNS, "nicsim: pcie_bus");
    if (cb)
        b->cb = *cb;
    b->sub_per_byte = sub_per_byte(p->gen, p->lanes);
    b->ack_iv = pcie_ack_interval(p);
    b->fc_iv = pcie_fc_interval(p);
    for (int d = 0; d < PCIE_DIRS; d++) {
        link_dir *L = &b->dir[d];
        L->b = b;
        L->d = d;
        L->timers[L->ntimers++] = (link_timer){ PCIE_SKP, SKP_BYTES, p->skp_interval * b->sub_per_byte, 0 };
        if (p->dllp_always) {
            L->timers[L->ntimers++] = (link_timer){ PCIE_ACK, DLLP_BYTES, b->ack_iv * b->sub_per_byte, 0 };
            L->timers[L->ntimers++] = (link_timer){ PCIE_FC, DLLP_BYTES, b->fc_iv * b->sub_per_byte, 0 };
        }
        /* each falls due first one period after time 0 */
        for (int i = 0; i < L->ntimers; i++)
            L->timers[i].due = L->timers[i].period;
    }
    return b;
}

void pcie_free(pcie_bus *b)
{
    if (!b)
        return;
    slab_pool_fini(&b->txns);
    free(b);
}

const pcie_stats *pcie_get_stats(const pcie_bus *b)
{
    return &b->st;
}

int pcie_busy(const pcie_bus *b)
{
    return b->open > 0;
}

/* ---- the serializers ----------------------------------------------------- */

static void kick(link_dir *L);

static uint64_t now_sub(const pcie_bus *b)
{
    return b->s->now * SUB;
}

static void account(pcie_bus *b, int d, pcie_kind k, uint32_t bytes, uint32_t payload, uint64_t n)
{
    pcie_stats *st = &b->st;
    st->count[d][k] += n;
    st->wire_bytes[d][k] += (uint64_t)bytes * n;
    st->payload[d][k] += (uint64_t)payload * n;
    st->busy[d][k] = st->wire_bytes[d][k] * b->sub_per_byte / SUB;
    st->dir_bytes[d] += (uint64_t)bytes * n;
    st->dir_busy[d] = st->dir_bytes[d] * b->sub_per_byte / SUB;
}

/* Is a TLP ready to go on L (and so delayed by whatever L sends first)? */
static int tlp_waiting(const link_dir *L)
{
    const pcie_bus *b = L->b;
    if (L->d == PCIE_DOWN)
        return b->down.head != NULL;
    for (int f = 0; f < b->nf; f++)
        if (b->ord[f].head || (b->np[f].head && b->tags_used[f] < b->p.tags))
            return 1;
    return 0;
}

/* An MRd at the head of its function's queue that finds every tag in use
 * will wait: count it once. */
static void note_tag_wait(pcie_bus *b, int f)
{
    txn *h = b->np[f].head;
    if (h && !h->counted && b->tags_used[f] >= b->p.tags) {
        h->counted = 1;
        b->st.tag_waits++;
    }
}

/* The next upstream TLP: functions in turn; within a function the older of
 * its two queue heads, except that an MRd without a tag is passed. */
static txn *take_up(pcie_bus *b)
{
    /* the functions from rr on, cyclically; those from nf on are empty, so
     * the order among the others is that of a scan of all PCIE_MAX_FUNCS */
    int start = b->rr < b->nf ? b->rr : 0;
    for (int i = 0; i < b->nf; i++) {
        int f = start + i < b->nf ? start + i : start + i - b->nf;
        txn *o = b->ord[f].head, *n = b->np[f].head;
        int n_ok = n && b->tags_used[f] < b->p.tags;
        txn *t = NULL;
        if (o && (!n_ok || o->seq < n->seq))
            t = pop(&b->ord[f]);
        else if (n_ok) {
            t = pop(&b->np[f]);
            b->tags_used[f]++;
            note_tag_wait(b, f);
        }
        if (t) {
            b->rr = (f + 1) % PCIE_MAX_FUNCS;
            return t;
        }
    }
    return NULL;
}

static void ev_end(void *ctx, uint64_t arg);

/* Put something of `bytes` on L from start_sub on. */
static void send(link_dir *L, pcie_kind k, txn *t, uint32_t bytes, uint32_t payload,
                 uint64_t start_sub, uint32_t activity)
{
    pcie_bus *b = L->b;
    L->active = 1;
    L->cur = t;
    L->cur_activity = activity;
    L->free_sub = start_sub + (uint64_t)bytes * b->sub_per_byte;
    account(b, L->d, k, bytes, payload, 1);
    sched_at(b->s, (L->free_sub + SUB - 1) / SUB, ev_end, L, 0);
}

/* Send what the timers have made due by now (SKPs; with dllp_always also
 * Acks and UpdateFCs), earliest first.  Those due while the link was idle
 * and over before now cost nothing and are only counted; one still on the
 * wire now occupies the link (returns 1). */
static int send_due_timers(link_dir *L)
{
    pcie_bus *b = L->b;
    uint64_t now = now_sub(b);
    uint64_t t = L->free_sub > now ? L->free_sub : now;
    for (;;) {
        link_timer *m = NULL;
        for (int i = 0; i < L->ntimers; i++)
            if (!m || L->timers[i].due < m->due)
                m = &L->timers[i];
        if (m->due > t)
            return 0;
        /* A long idle stretch: all but the last occurrence before t in one
         * step (each is over long before the next falls due). */
        if (m->due >= L->free_sub && t - m->due >= m->period) {
            uint64_t k = (t - m->due) / m->period;
            account(b, L->d, m->kind, m->bytes, 0, k);
            m->due += k * m->period;
            continue;
        }
        uint64_t start = m->due > L->free_sub ? m->due : L->free_sub;
        uint64_t len = (uint64_t)m->bytes * b->sub_per_byte;
        m->due += m->period;
        if (start + len > now) {
            /* On the wire now: it delays whatever waits (activity if a TLP does). */
            send(L, m->kind, NULL, m->bytes, 0, start, tlp_waiting(L) ? m->bytes : 0);
            return 1;
        }
        account(b, L->d, m->kind, m->bytes, 0, 1);
        L->free_sub = start + len;
    }
}

/* L is free: start the next thing, if any. */
static void kick(link_dir *L)
{
    pcie_bus *b = L->b;
    if (L->active || send_due_timers(L))
        return;
    uint64_t now = now_sub(b);
    /* Back to back when the link freed within this picosecond: the next thing
     * follows on the exact sub unit (events fire on whole picoseconds). */
    uint64_t start = L->free_sub + SUB > now ? L->free_sub : now;
    if (L->ack_owed || L->fc_owed) {
        pcie_kind k = L->ack_owed ? PCIE_ACK : PCIE_FC;
        if (k == PCIE_ACK)
            L->ack_owed--;
        else
            L->fc_owed--;
        send(L, k, NULL, DLLP_BYTES, 0, start, tlp_waiting(L) ? DLLP_BYTES : 0);
        return;
    }
    txn *t = L->d == PCIE_UP ? take_up(b) : (b->down.head ? pop(&b->down) : NULL);
    if (!t)
        return;
    uint32_t payload = (t->kind == PCIE_DMA_READ_REQ || t->kind == PCIE_MMIO_READ) ? 0 : t->len;
    send(L, t->kind, t, t->wire, payload, start, t->wire);
}

/* L's receiver got `activity` more bytes: owe DLLPs on the other direction. */
static void owe_dllps(link_dir *L, uint32_t activity)
{
    pcie_bus *b = L->b;
    link_dir *R = &b->dir[!L->d];
    if (b->p.dllp_always)
        return;             /* the timers send them */
    L->ack_acc += activity;
    L->fc_acc += activity;
    unsigned acks = (unsigned)(L->ack_acc / b->ack_iv), fcs = (unsigned)(L->fc_acc / b->fc_iv);
    L->ack_acc -= (uint64_t)acks * b->ack_iv;
    L->fc_acc -= (uint64_t)fcs * b->fc_iv;
    if (acks + fcs == 0)
        return;
    R->ack_owed += acks;
    R->fc_owed += fcs;
    kick(R);
}

static void at(pcie_bus *b, ps_t when, sched_fn fn, txn *t)
{
    sched_at(b->s, when, fn, b, (uint64_t)(uintptr_t)t);
}

static void ev_down_arrive(void *ctx, uint64_t arg);
static void ev_cpu_read_done(void *ctx, uint64_t arg);

/* The root complex answers an MRd: its CplDs, all ready after the latency. */
static void answer_read(pcie_bus *b, txn *r)
{
    txn *first = NULL, *prev = NULL;
    uint64_t addr = r->addr;
    uint32_t len = r->len;
    while (len > 0) {
        uint32_t n = cpl_piece(&b->p, addr, len);
        txn *c = txn_new(b);
        c->kind = PCIE_DMA_READ_CPL;
        c->func = r->func;
        c->tag = r->tag;
        c->addr = addr;
        c->len = n;
        c->wire = pcie_tlp_wire_bytes(&b->p, PCIE_DMA_READ_CPL, addr, n);
        addr += n;
        len -= n;
        c->last_of_mrd = len == 0;
        c->last = r->last && len == 0;
        if (prev)
            prev->next = c;
        else
            first = c;
        prev = c;
    }
    at(b, b->s->now + b->p.host_read_latency, ev_down_arrive, first);
}

/* The receiver at the far end of L has all of t. */
static void deliver(link_dir *L, txn *t)
{
    pcie_bus *b = L->b;
    ps_t now = b->s->now;
    int func = t->func;
    switch (t->kind) {
    case PCIE_DMA_WRITE: {
        uint32_t tag = t->tag;
        int last = t->last;
        txn_free(b, t);
        if (!last)
            return;
        b->open--;
        if (b->cb.write_done)
            b->cb.write_done(b->cb.dev, func, tag, now);
        return;
    }
    case PCIE_DMA_READ_REQ:
        answer_read(b, t);
        txn_free(b, t);
        return;
    case PCIE_MMIO_READ_CPL:
        at(b, now + b->p.mmio_host_latency, ev_cpu_read_done, t);
        return;
    case PCIE_DMA_READ_CPL: {
        uint32_t tag = t->tag, len = t->len;
        uint64_t addr = t->addr;
        int last = t->last;
        if (t->last_of_mrd) {
            b->tags_used[func]--;
            kick(&b->dir[PCIE_UP]);
        }
        txn_free(b, t);
        if (last)
            b->open--;
        if (b->cb.read_data)
            b->cb.read_data(b->cb.dev, func, tag, addr, len, last, now);
        return;
    }
    case PCIE_MMIO_WRITE: {
        uint32_t off = t->tag, val = t->val;
        txn_free(b, t);
        b->open--;
        if (b->cb.mmio_write)
            b->cb.mmio_write(b->cb.dev, func, off, val, now);
        return;
    }
    case PCIE_MMIO_READ:
        push(&b->presented, t);
        if (b->cb.mmio_read)
            b->cb.mmio_read(b->cb.dev, func, t->tag, now);
        return;
    default:
        abort();
    }
}

static void ev_end(void *ctx, uint64_t arg)
{
    (void)arg;
    link_dir *L = ctx;
    txn *t = L->cur;
    uint32_t activity = L->cur_activity;
    L->active = 0;
    L->cur = NULL;
    L->cur_activity = 0;
    if (t)
        deliver(L, t);
    if (activity)
        owe_dllps(L, activity);
    kick(L);
}

static void ev_up_arrive(void *ctx, uint64_t arg)
{
    pcie_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    while (t) {
        txn *n = t->next;
        t->seq = ++b->seq;
        if (t->func >= b->nf)
            b->nf = t->func + 1;
        if (t->kind == PCIE_DMA_READ_REQ) {
            push(&b->np[t->func], t);
            note_tag_wait(b, t->func);
        } else {
            push(&b->ord[t->func], t);
        }
        t = n;
    }
    kick(&b->dir[PCIE_UP]);
}

static void ev_down_arrive(void *ctx, uint64_t arg)
{
    pcie_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    while (t) {
        txn *n = t->next;
        push(&b->down, t);
        t = n;
    }
    kick(&b->dir[PCIE_DOWN]);
}

static void ev_cpu_read_done(void *ctx, uint64_t arg)
{
    pcie_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    int func = t->func;
    uint32_t val = t->val;
    txn_free(b, t);
    b->open--;
    if (b->cb.mmio_read_done)
        b->cb.mmio_read_done(b->cb.cpu, func, val, b->s->now);
}

/* ---- requests ------------------------------------------------------------ */

static ps_t not_before_now(const pcie_bus *b, ps_t t)
{
    return t < b->s->now ? b->s->now : t;
}

static int bad_func(int func)
{
    return func < 0 || func >= PCIE_MAX_FUNCS;
}

/* Cut [addr, addr+len) into TLPs of at most max bytes within 4 KiB pages,
 * all ready at the device at time t. */
static void issue_pieces(pcie_bus *b, pcie_kind kind, int func, uint32_t tag,
                         uint64_t addr, uint32_t len, uint32_t max, ps_t t)
{
    txn *first = NULL, *prev = NULL;
    while (len > 0) {
        uint32_t n = piece(addr, len, max);
        txn *x = txn_new(b);
        x->kind = kind;
        x->func = func;
        x->tag = tag;
        x->addr = addr;
        x->len = n;
        x->wire = pcie_tlp_wire_bytes(&b->p, kind, addr, n);
        addr += n;
        len -= n;
        x->last = len == 0;
        if (prev)
            prev->next = x;
        else
            first = x;
        prev = x;
    }
    b->open++;
    at(b, not_before_now(b, t), ev_up_arrive, first);
}

/* A zero-length DMA moves nothing and produces no callback. */
void pcie_dma_read(pcie_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    if (bad_func(func) || len == 0)
        return;
    issue_pieces(b, PCIE_DMA_READ_REQ, func, tag, addr, len, b->p.mrrs, t);
}

void pcie_dma_write(pcie_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    if (bad_func(func) || len == 0)
        return;
    issue_pieces(b, PCIE_DMA_WRITE, func, tag, addr, len, b->p.mps, t);
}

static void issue_mmio(pcie_bus *b, pcie_kind kind, int func, uint32_t off, uint32_t val, ps_t t_cpu)
{
    txn *x = txn_new(b);
    x->kind = kind;
    x->func = func;
    x->tag = off;
    x->val = val;
    x->addr = off;
    x->len = 4;
    x->last = 1;
    x->wire = pcie_tlp_wire_bytes(&b->p, kind, off, 4);
    b->open++;
    at(b, not_before_now(b, t_cpu) + b->p.mmio_host_latency, ev_down_arrive, x);
}

void pcie_mmio_write(pcie_bus *b, int func, uint32_t off, uint32_t val, ps_t t_cpu)
{
    if (bad_func(func))
        return;
    issue_mmio(b, PCIE_MMIO_WRITE, func, off, val, t_cpu);
}

void pcie_mmio_read(pcie_bus *b, int func, uint32_t off, ps_t t_cpu)
{
    if (bad_func(func))
        return;
    issue_mmio(b, PCIE_MMIO_READ, func, off, 0, t_cpu);
}

void pcie_mmio_read_reply(pcie_bus *b, uint32_t val, ps_t t)
{
    if (!b->presented.head)
        return;
    txn *x = pop(&b->presented);
    x->kind = PCIE_MMIO_READ_CPL;
    x->val = val;
    x->wire = pcie_tlp_wire_bytes(&b->p, PCIE_MMIO_READ_CPL, x->addr, 4);
    at(b, not_before_now(b, t), ev_up_arrive, x);
}

/* ---- the generic host_bus view ------------------------------------------- */

static void hb_dma_read(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    pcie_dma_read(impl, func, tag, addr, len, t);
}

static void hb_dma_write(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    pcie_dma_write(impl, func, tag, addr, len, t);
}

static void hb_mmio_read_reply(void *impl, uint32_t val, ps_t t)
{
    pcie_mmio_read_reply(impl, val, t);
}

static void hb_mmio_write(void *impl, int func, uint32_t off, uint32_t val, ps_t t)
{
    pcie_mmio_write(impl, func, off, val, t);
}

static void hb_mmio_read(void *impl, int func, uint32_t off, ps_t t)
{
    pcie_mmio_read(impl, func, off, t);
}

host_bus pcie_host_bus(pcie_bus *b)
{
    static const host_bus_ops ops = {
        hb_dma_read, hb_dma_write, hb_mmio_read_reply, hb_mmio_write, hb_mmio_read,
    };
    host_bus hb = { &ops, b };
    return hb;
}

/* ---- streams ------------------------------------------------------------- */

/* Where transfer 0 of a stream lies: above 4 GiB when the host hands out
 * 64-bit addresses, below otherwise, so the headers are the ones asked for. */
static uint64_t stream_base(const pcie_params *p)
{
    return p->addr64 ? 0x100000000ull : 0x10000000ull;
}

static uint64_t stream_stride(uint32_t size)
{
    return ((uint64_t)size + PAGE - 1) / PAGE * PAGE;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* MRds of one transfer of a stream (all transfers are cut alike). */
static uint32_t stream_mrds(const pcie_params *p, uint32_t size)
{
    uint32_t m = 0;
    for (uint64_t addr = stream_base(p), end = addr + size; addr < end; m++)
        addr += piece(addr, (uint32_t)(end - addr), p->mrrs);
    return m;
}

/* Transfers in one round of a read stream's tags: when the tags rather than
 * the link limit a stream, completions come in bursts of `tags` MRds per
 * round trip, so the measured window must hold whole rounds. */
static uint32_t stream_round(const pcie_params *p, int read, uint32_t size)
{
    if (!read)
        return 1;
    uint32_t m = stream_mrds(p, size);
    return p->tags / gcd(p->tags, m);
}

/* Enough transfers for about 1 MiB of payload (hundreds of SKP and DLLP
 * periods in the measured window), at least 64 and at most 16384, and at
 * least four rounds. */
static uint32_t stream_count(uint32_t size, uint32_t round)
{
    uint64_t n = ((1u << 20) + size - 1) / size;
    n = n < 64 ? 64 : n > 16384 ? 16384 : n;
    return n < 4u * round ? 4u * round : (uint32_t)n;
}

typedef struct stream {
    uint32_t n, ndone;
    ps_t *done;             /* when each transfer (tag) finished */
} stream;

static void stream_finished(stream *st, uint32_t tag, ps_t t)
{
    if (tag < st->n && !st->done[tag]) {
        st->done[tag] = t;
        st->ndone++;
    }
}

static void st_write_done(void *ctx, int func, uint32_t tag, ps_t t)
{
    (void)func;
    stream_finished(ctx, tag, t);
}

static void st_read_data(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len, int last,
                         ps_t t)
{
    (void)func, (void)addr, (void)len;
    if (last)
        stream_finished(ctx, tag, t);
}

int pcie_stream_measure(const pcie_params *p, int read, uint32_t size, double *gbps)
{
    char err[160];
    if (!p || !gbps || size == 0 || size > PCIE_STREAM_MAX_SIZE ||
        pcie_params_check(p, err, sizeof err) != 0)
        return -1;
    stream st = { 0 };
    uint32_t round = stream_round(p, read, size);
    st.n = stream_count(size, round);
    st.done = calloc(st.n, sizeof *st.done);
    if (!st.done)
        return -1;
    sched s;
    sched_init(&s);
    host_bus_callbacks cb = { .dev = &st, .read_data = st_read_data, .write_done = st_write_done };
    pcie_bus *b = pcie_new(&s, p, &cb);
    if (!b) {
        sched_free(&s);
        free(st.done);
        return -1;
    }
    uint64_t base = stream_base(p), stride = stream_stride(size);
    for (uint32_t i = 0; i < st.n; i++) {
        if (read)
            pcie_dma_read(b, 0, i, base + i * stride, size, 0);
        else
            pcie_dma_write(b, 0, i, base + i * stride, size, 0);
    }
    sched_run_until(&s, PS_NEVER);
    int rc = -1;
    /* from a quarter of the way in (the start-up transient is over) to the
     * end, in whole rounds */
    uint32_t k1 = st.n - 1, k0 = k1 - (k1 - st.n / 4) / round * round;
    if (st.ndone == st.n && st.done[k1] > st.done[k0]) {
        /* bits per ps x 1000 = Gb/s */
        *gbps = (double)(k1 - k0) * size * 8.0 * 1000.0 / (double)(st.done[k1] - st.done[k0]);
        rc = 0;
    }
    pcie_free(b);
    sched_free(&s);
    free(st.done);
    return rc;
}

/* The same stream from the rules, in transfers per byte time of the link:
 * - SKPs take skp of every direction's time.
 * - With dllp_always every direction sends DLLPs dllp of its time.
 *   Otherwise a direction sends them for the other one's activity, and a
 *   lone stream makes no activity on its quiet direction (writes: downstream
 *   carries DLLPs only; reads: a stream's MRds go one at a time, as tags
 *   free, each ahead of the DLLPs owed at that moment, so an MRd is activity
 *   of its own bytes only).
 * - Writes: upstream carries the MWrs.
 * - Reads: the smallest of the downstream bound (CplDs), the upstream bound
 *   (MRds) and the tag bound (each tag carries one MRd per round trip:
 *   latency + MRd + its CplDs, with the SKPs due meanwhile). */
double pcie_stream_formula(const pcie_params *p, int read, uint32_t size)
{
    char err[160];
    if (!p || size == 0 || size > PCIE_STREAM_MAX_SIZE || pcie_params_check(p, err, sizeof err) != 0)
        return 0;
    double skp = (double)SKP_BYTES / p->skp_interval;
    double dllp = (double)DLLP_BYTES / pcie_ack_interval(p) + (double)DLLP_BYTES / pcie_fc_interval(p);
    uint64_t a = stream_base(p);
    double x;
    if (!read) {
        double w = 0;
        for (uint64_t addr = a, end = a + size; addr < end;) {
            uint32_t n = piece(addr, (uint32_t)(end - addr), p->mps);
            w += pcie_tlp_wire_bytes(p, PCIE_DMA_WRITE, addr, n);
            addr += n;
        }
        x = (1.0 - skp - (p->dllp_always ? dllp : 0.0)) / w;
    } else {
        double up = 0, down = 0, rtt = 0;
        double lat = (double)p->host_read_latency / pcie_byte_ps(p);
        for (uint64_t addr = a, end = a + size; addr < end;) {
            uint32_t n = piece(addr, (uint32_t)(end - addr), p->mrrs);
            uint32_t mrd = pcie_tlp_wire_bytes(p, PCIE_DMA_READ_REQ, addr, 0);
            double cpl = 0;
            for (uint64_t c = addr; c < addr + n;) {
                uint32_t m = cpl_piece(p, c, (uint32_t)(addr + n - c));
                cpl += pcie_tlp_wire_bytes(p, PCIE_DMA_READ_CPL, c, m);
                c += m;
            }
            up += mrd;
            down += cpl;
            rtt += lat + (mrd + cpl) * (1.0 + skp);
            addr += n;
        }
        double x_down = p->dllp_always ? (1.0 - skp - dllp) / down : (1.0 - skp) / (down + dllp * up);
        /* Upstream the DLLPs pay for the CplDs (only reads smaller than an
         * MRd header are limited here). */
        double x_up = p->dllp_always ? (1.0 - skp - dllp) / up : (1.0 - skp) / (up + dllp * down);
        double x_tags = p->tags / rtt;
        x = x_down < x_up ? x_down : x_up;
        if (x_tags < x)
            x = x_tags;
    }
    return x * size * pcie_raw_gbps(p);
}
