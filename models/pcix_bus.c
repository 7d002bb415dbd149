/* PCI-X bus timing model (see pcix_bus.h for the transaction shapes).
 *
 * How it works:
 * - Three masters (host bridge, function 0, function 1) each own a FIFO of
 *   transactions that are ready to ask for the bus.  Whenever the bus is free
 *   a round-robin arbiter picks the next master whose head can go.
 * - A transaction's whole timeline is known when it is granted (except an
 *   MMIO read's wait states, known when the device replies), so granting it
 *   schedules one event for its effect (callback) and one for the moment the
 *   bus is free again.  Everything goes through sched_at, so runs are
 *   deterministic and ties follow scheduling order.
 * - Arbitration clocks are charged only when the request was raised while
 *   the bus was idle: a request raised while another transaction is on the
 *   bus is granted during it (hidden arbitration).  "Raised" is the time the
 *   transaction became the ready head of its master, so the rule depends on
 *   times, not on the order of events at one instant.
 * - DMA reads are cut into sequences (MMRBC, 4 KiB).  A sequence holds one of
 *   the function's split slots from its request until its completion's data
 *   has arrived; a function whose FIFO head cannot get a slot is skipped by
 *   the arbiter (strict FIFO per function: later writes wait behind it, as
 *   they would behind a single in-order DMA engine).
 * - Split completions always take a single address clock: their address
 *   phase carries the requester ID, tag and low address bits (nic-facts C),
 *   not a 64-bit memory address, so there is no dual address cycle. */
#include "pcix_bus.h"
#include "slab_pool.h"
#include <stdio.h>
#include <stdlib.h>

enum { M_HOST, M_F0, M_F1, M_COUNT };

/* PCI-X never moves more than 4 KiB in one sequence nor crosses a 4 KiB page. */
#define PCIX_PAGE 4096u

typedef struct txn {
    struct txn *next;       /* FIFO link, arrival chain link or free list */
    pcix_kind kind;
    int func;
    uint32_t tag;           /* DMA tag; MMIO offset */
    uint32_t val;           /* MMIO data */
    uint64_t addr;
    uint32_t len;
    int last;               /* final piece of the caller's request */
    int counted;            /* already counted in queued_for_splits */
    int blocked;            /* skipped by the arbiter for lack of a split slot */
    ps_t ready;             /* when it raised its request for the bus */
    ps_t start;             /* first clock of its address phase */
    ps_t arb;               /* arbitration time charged to it */
} txn;

typedef struct fifo {
    txn *head, *tail;
} fifo;

enum { SLAB_TXNS = 64 };

struct pcix_bus {
    sched *s;
    pcix_params p;
    host_bus_callbacks cb;
    ps_t clk;
    fifo q[M_COUNT];
    int rr;                 /* master the next arbitration looks at first */
    int active;             /* granted: arbitration, phases, wait states, turnaround */
    ps_t free_at;           /* end of the last bus activity */
    unsigned splits[PCIX_MAX_FUNCS]; /* sequences between request and completion */
    txn *reading;           /* MMIO read presented, awaiting the device's reply */
    uint64_t open;          /* caller requests whose final callback is still due */
    slab_pool txns;             /* transaction records */
    pcix_stats st;
};

/* ---- parameters ---------------------------------------------------------- */

void pcix_params_default(pcix_params *p)
{
    /* The bus the Linux e1000 reports for an 82546 in a server slot,
     * "(PCI-X:133MHz:64-bit)" (nic-facts C); 133 stands for 133.33 MHz. */
    p->mhz = 133;
    /* The 82546 is a 64-bit PCI-X device (STATUS.BUS64, nic-facts C). */
    p->bus64 = 1;
    /* Estimate: REQ# seen on one edge, GNT# driven on the next, FRAME# the
     * edge after GNT# is seen; not from a stored source. */
    p->arb_clocks = 2;
    /* PCI-X decode speed B (A = 1 ... C = 3 clocks after the attribute
     * phase); which speed the 82546 uses was not found [estimate]. */
    p->target_response_clocks = 2;
    /* One idle clock whenever bus ownership changes (PCI/PCI-X rule). */
    p->turnaround_clocks = 1;
    /* The Linux e1000 caps MMRBC at 2048 on the 82546 (nic-facts C, L-hwc). */
    p->mmrbc = 2048;
    /* The 82546's designed maximum outstanding splits (PCI-X status) was not
     * found in the stored sources; 4 is an estimate. */
    p->max_outstanding_splits = 4;
    /* Estimate for an Opteron-era PCI-X bridge (memory read through the
     * northbridge/HyperTransport); nic-facts C: typical latency not found.
     * A fit parameter against the reference tables. */
    p->host_read_latency = 600 * PS_PER_NS;
    /* Estimate: CPU store/load to the PCI-X bridge, one way. */
    p->mmio_host_latency = 150 * PS_PER_NS;
    /* Estimate of the 82546's register read response as a target. */
    p->device_read_wait_clocks = 6;
}

const char *pcix_kind_name(pcix_kind k)
{
    switch (k) {
    case PCIX_DMA_READ_REQ: return "dma_read_req";
    case PCIX_DMA_READ_CPL: return "dma_read_cpl";
    case PCIX_DMA_WRITE:    return "dma_write";
    case PCIX_MMIO_WRITE:   return "mmio_write";
    case PCIX_MMIO_READ:    return "mmio_read";
    default:                return "?";
    }
}

/* "133" and "66" are the nominal names of 133.33 and 66.67 MHz. */
static double nominal_mhz(double mhz)
{
    if (mhz > 132.0 && mhz < 134.0)
        return 400.0 / 3.0;
    if (mhz > 65.0 && mhz < 67.5)
        return 200.0 / 3.0;
    return mhz;
}

/* ---- transaction pool ---------------------------------------------------- */

static txn *txn_new(pcix_bus *b)
{
    return slab_pool_get(&b->txns);
}

static void txn_free(pcix_bus *b, txn *t)
{
    slab_pool_put(&b->txns, t);
}

/* ---- life cycle ---------------------------------------------------------- */

pcix_bus *pcix_new(sched *s, const pcix_params *p, const host_bus_callbacks *cb)
{
    if (!s || !p || !(p->mhz > 0) || p->mmrbc == 0 || p->mmrbc > PCIX_PAGE ||
        p->max_outstanding_splits == 0)
        return NULL;
    pcix_bus *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = s;
    b->p = *p;
    slab_pool_init(&b->txns, sizeof(txn), SLAB_TXNS, "nicsim: pcix_bus");
    if (cb)
        b->cb = *cb;
    b->clk = (ps_t)(1e6 / nominal_mhz(p->mhz) + 0.5);
    if (b->clk == 0)
        b->clk = 1;
    b->rr = M_HOST;
    b->free_at = 0;
    return b;
}

/* The scheduler must hold no more events of this bus when it is freed. */
void pcix_free(pcix_bus *b)
{
    if (!b)
        return;
    slab_pool_fini(&b->txns);
    free(b);
}

ps_t pcix_clock_ps(const pcix_bus *b)
{
    return b->clk;
}

double pcix_mhz(const pcix_bus *b)
{
    return b->p.mhz;
}

const pcix_stats *pcix_get_stats(const pcix_bus *b)
{
    return &b->st;
}

int pcix_busy(const pcix_bus *b)
{
    return b->open > 0 || b->active || b->q[M_HOST].head || b->q[M_F0].head ||
           b->q[M_F1].head;
}

/* ---- timing helpers ------------------------------------------------------ */

static ps_t clocks(const pcix_bus *b, uint64_t n)
{
    return (ps_t)n * b->clk;
}

static ps_t edge_at_or_after(const pcix_bus *b, ps_t t)
{
    return (t + b->clk - 1) / b->clk * b->clk;
}

static uint64_t data_phases(const pcix_bus *b, uint64_t addr, uint32_t len)
{
    uint64_t lane = b->p.bus64 ? 8 : 4;
    return (addr % lane + len + lane - 1) / lane;
}

/* Address + attribute + target response, in clocks. */
static uint64_t header_clocks(const pcix_bus *b, const txn *t)
{
    int dac = t->addr >= (1ull << 32) &&
              (t->kind == PCIX_DMA_READ_REQ || t->kind == PCIX_DMA_WRITE);
    return (dac ? 2u : 1u) + 1u + b->p.target_response_clocks;
}

static int master_of(const txn *t)
{
    switch (t->kind) {
    case PCIX_DMA_READ_REQ:
    case PCIX_DMA_WRITE:
        return M_F0 + t->func;
    default:
        return M_HOST;
    }
}

/* ---- arbitration and transactions --------------------------------------- */

static void try_start(pcix_bus *b);

static void ev_arrive(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    while (t) {
        txn *n = t->next;
        fifo *q = &b->q[master_of(t)];
        t->next = NULL;
        if (q->tail)
            q->tail->next = t;
        else
            q->head = t;
        q->tail = t;
        t = n;
    }
    try_start(b);
}

static void ev_bus_free(void *ctx, uint64_t arg)
{
    (void)arg;
    pcix_bus *b = ctx;
    b->active = 0;
    b->free_at = b->s->now;
    try_start(b);
}

static void ev_write_done(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    int func = t->func, last = t->last;
    uint32_t tag = t->tag;
    txn_free(b, t);
    if (!last)
        return;
    b->open--;
    if (b->cb.write_done)
        b->cb.write_done(b->cb.dev, func, tag, b->s->now);
}

static void ev_read_data(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    int func = t->func, last = t->last;
    uint32_t tag = t->tag, len = t->len;
    uint64_t addr = t->addr;
    txn_free(b, t);
    /* The split slot is free again; a sequence that waited for it raises its
     * request now (so its arbitration is hidden if the bus is still busy). */
    b->splits[func]--;
    txn *h = b->q[M_F0 + func].head;
    if (h && h->blocked) {
        h->blocked = 0;
        if (h->ready < b->s->now)
            h->ready = b->s->now;
    }
    if (last)
        b->open--;
    if (b->cb.read_data)
        b->cb.read_data(b->cb.dev, func, tag, addr, len, last, b->s->now);
    try_start(b);
}

static void ev_mmio_write(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    int func = t->func;
    uint32_t off = t->tag, val = t->val;
    txn_free(b, t);
    b->open--;
    if (b->cb.mmio_write)
        b->cb.mmio_write(b->cb.dev, func, off, val, b->s->now);
}

static void ev_mmio_present(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    b->reading = t;
    if (b->cb.mmio_read)
        b->cb.mmio_read(b->cb.dev, t->func, t->tag, b->s->now);
}

static void ev_mmio_read_done(void *ctx, uint64_t arg)
{
    pcix_bus *b = ctx;
    txn *t = (txn *)(uintptr_t)arg;
    int func = t->func;
    uint32_t val = t->val;
    txn_free(b, t);
    b->open--;
    if (b->cb.mmio_read_done)
        b->cb.mmio_read_done(b->cb.cpu, func, val, b->s->now);
}

static void at(pcix_bus *b, ps_t when, sched_fn fn, txn *t)
{
    sched_at(b->s, when, fn, b, (uint64_t)(uintptr_t)t);
}

/* Grant the bus to t now; lay out its phases. */
static void grant(pcix_bus *b, txn *t)
{
    const pcix_params *p = &b->p;
    ps_t now = b->s->now;
    /* Idle bus when the request was raised: arbitration is exposed. */
    t->arb = t->ready >= b->free_at ? clocks(b, p->arb_clocks) : 0;
    t->start = edge_at_or_after(b, now) + t->arb;
    b->active = 1;

    pcix_kind kind = t->kind;
    uint64_t hdr = header_clocks(b, t);
    ps_t turn = clocks(b, p->turnaround_clocks);
    ps_t end = 0;
    b->st.count[kind]++;

    switch (kind) {
    case PCIX_DMA_WRITE: {
        ps_t data_end = t->start + clocks(b, hdr + data_phases(b, t->addr, t->len));
        end = data_end + turn;
        b->st.bytes[kind] += t->len;
        at(b, data_end, ev_write_done, t);
        break;
    }
    case PCIX_DMA_READ_REQ: {
        /* The bridge answers with a split response (one phase) and owns the
         * sequence from then on; the same record becomes its completion. */
        ps_t resp_end = t->start + clocks(b, hdr + 1);
        end = resp_end + turn;
        b->splits[t->func]++;
        t->kind = PCIX_DMA_READ_CPL;
        t->ready = resp_end + p->host_read_latency;
        t->counted = t->blocked = 0;
        at(b, t->ready, ev_arrive, t);
        break;
    }
    case PCIX_DMA_READ_CPL: {
        ps_t data_end = t->start + clocks(b, hdr + data_phases(b, t->addr, t->len));
        end = data_end + turn;
        b->st.bytes[kind] += t->len;
        at(b, data_end, ev_read_data, t);
        break;
    }
    case PCIX_MMIO_WRITE: {
        ps_t data_end = t->start + clocks(b, hdr + 1);
        end = data_end + turn;
        b->st.bytes[kind] += 4;
        at(b, data_end, ev_mmio_write, t);
        break;
    }
    case PCIX_MMIO_READ:
        /* The bus stays granted in wait states until the device replies;
         * busy time and the bus-free event come from pcix_mmio_read_reply. */
        b->st.bytes[kind] += 4;
        at(b, t->start + clocks(b, hdr), ev_mmio_present, t);
        return;
    default:
        abort();
    }
    b->st.busy[kind] += end - t->start + t->arb;
    sched_at(b->s, end, ev_bus_free, b, 0);
}

static void try_start(pcix_bus *b)
{
    if (b->active)
        return;
    for (int i = 0; i < M_COUNT; i++) {
        int m = (b->rr + i) % M_COUNT;
        txn *h = b->q[m].head;
        if (!h)
            continue;
        if (h->kind == PCIX_DMA_READ_REQ &&
            b->splits[h->func] >= b->p.max_outstanding_splits) {
            if (!h->counted) {
                h->counted = 1;
                b->st.queued_for_splits++;
            }
            h->blocked = 1;
            continue;
        }
        b->q[m].head = h->next;
        if (!h->next)
            b->q[m].tail = NULL;
        h->next = NULL;
        b->rr = (m + 1) % M_COUNT;
        grant(b, h);
        return;
    }
}

/* ---- requests ------------------------------------------------------------ */

static ps_t not_before_now(const pcix_bus *b, ps_t t)
{
    return t < b->s->now ? b->s->now : t;
}

static int bad_func(int func)
{
    return func < 0 || func >= PCIX_MAX_FUNCS;
}

/* Cut [addr, addr+len) into pieces of at most max bytes that do not cross a
 * 4 KiB boundary, all arriving at the function at time t. */
static void issue_pieces(pcix_bus *b, pcix_kind kind, int func, uint32_t tag,
                         uint64_t addr, uint32_t len, uint32_t max, ps_t t)
{
    txn *first = NULL, *prev = NULL;
    t = not_before_now(b, t);
    while (len > 0) {
        uint32_t to_page = PCIX_PAGE - (uint32_t)(addr % PCIX_PAGE);
        uint32_t n = len < max ? len : max;
        if (n > to_page)
            n = to_page;
        txn *x = txn_new(b);
        x->kind = kind;
        x->func = func;
        x->tag = tag;
        x->addr = addr;
        x->len = n;
        x->ready = t;
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
    at(b, t, ev_arrive, first);
}

/* A zero-length DMA moves nothing and produces no callback. */
void pcix_dma_read(pcix_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    if (bad_func(func) || len == 0)
        return;
    issue_pieces(b, PCIX_DMA_READ_REQ, func, tag, addr, len, b->p.mmrbc, t);
}

void pcix_dma_write(pcix_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    if (bad_func(func) || len == 0)
        return;
    issue_pieces(b, PCIX_DMA_WRITE, func, tag, addr, len, PCIX_PAGE, t);
}

static void issue_mmio(pcix_bus *b, pcix_kind kind, int func, uint32_t off,
                       uint32_t val, ps_t t_cpu)
{
    txn *x = txn_new(b);
    x->kind = kind;
    x->func = func;
    x->tag = off;
    x->val = val;
    x->addr = off;          /* BAR0 lies below 4 GiB: single address cycle */
    x->len = 4;
    x->last = 1;
    x->ready = not_before_now(b, t_cpu) + b->p.mmio_host_latency;
    b->open++;
    at(b, x->ready, ev_arrive, x);
}

void pcix_mmio_write(pcix_bus *b, int func, uint32_t off, uint32_t val, ps_t t_cpu)
{
    if (bad_func(func))
        return;
    issue_mmio(b, PCIX_MMIO_WRITE, func, off, val, t_cpu);
}

void pcix_mmio_read(pcix_bus *b, int func, uint32_t off, ps_t t_cpu)
{
    if (bad_func(func))
        return;
    issue_mmio(b, PCIX_MMIO_READ, func, off, 0, t_cpu);
}

/* A reply with no read presented is ignored.  The data phase starts at the
 * first clock edge at which both the device has answered and its initial
 * wait states have passed. */
void pcix_mmio_read_reply(pcix_bus *b, uint32_t val, ps_t t)
{
    txn *x = b->reading;
    if (!x)
        return;
    b->reading = NULL;
    ps_t presented = x->start + clocks(b, header_clocks(b, x));
    ps_t ready = presented + clocks(b, b->p.device_read_wait_clocks);
    t = not_before_now(b, t);
    if (t > ready)
        ready = t;
    ps_t data_end = edge_at_or_after(b, ready) + b->clk;
    ps_t end = data_end + clocks(b, b->p.turnaround_clocks);
    x->val = val;
    b->st.busy[PCIX_MMIO_READ] += end - x->start + x->arb;
    at(b, data_end + b->p.mmio_host_latency, ev_mmio_read_done, x);
    sched_at(b->s, end, ev_bus_free, b, 0);
}

/* ---- the generic host_bus view ---- */

static void hb_dma_read(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    pcix_dma_read(impl, func, tag, addr, len, t);
}

static void hb_dma_write(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    pcix_dma_write(impl, func, tag, addr, len, t);
}

static void hb_mmio_read_reply(void *impl, uint32_t val, ps_t t)
{
    pcix_mmio_read_reply(impl, val, t);
}

static void hb_mmio_write(void *impl, int func, uint32_t off, uint32_t val, ps_t t)
{
    pcix_mmio_write(impl, func, off, val, t);
}

static void hb_mmio_read(void *impl, int func, uint32_t off, ps_t t)
{
    pcix_mmio_read(impl, func, off, t);
}

host_bus pcix_host_bus(pcix_bus *b)
{
    static const host_bus_ops ops = {
        hb_dma_read, hb_dma_write, hb_mmio_read_reply, hb_mmio_write, hb_mmio_read,
    };
    host_bus hb = { &ops, b };
    return hb;
}
