/* The fake platform for driver-core unit tests; see plat_fake.h. */
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BYTES (160u << 20)   /* room for two LPM tables (driver/apps/lpm.h) */

struct plat_dev *fake_create(void)
{
    struct plat_dev *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->arena_size = ARENA_BYTES;
    /* calloc of a large block maps zero pages lazily: cheap per test.  The
     * arena starts 64 KB aligned so host and bus alignment agree. */
    d->arena_raw = calloc(1, ARENA_BYTES + 65536);
    if (!d->arena_raw) {
        free(d);
        return NULL;
    }
    d->arena = (uint8_t *)(((uintptr_t)d->arena_raw + 65535) & ~(uintptr_t)65535);
    d->rst_reads_set = 0;
    d->irq_latency_ns = 1000;
    d->verbose = getenv("FAKE_VERBOSE") != NULL;
    return d;
}

struct plat_dev *fake_create_sibling(struct plat_dev *owner)
{
    struct plat_dev *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    while (owner->arena_owner)
        owner = owner->arena_owner;
    d->arena_owner = owner;
    d->arena = owner->arena;
    d->arena_size = owner->arena_size;
    d->irq_latency_ns = owner->irq_latency_ns;
    d->verbose = owner->verbose;
    return d;
}

void fake_destroy(struct plat_dev *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nframes; i++)
        free(d->frames[i].data);
    free(d->frames);
    free(d->cur_alloc);
    free(d->log);
    free(d->arena_raw);
    free(d);
}

void fake_reg_set(struct plat_dev *d, uint32_t reg, uint32_t val)
{
    d->regs[(reg % FAKE_REGS_BYTES) / 4] = val;
}

uint32_t fake_reg_get(const struct plat_dev *d, uint32_t reg)
{
    return d->regs[(reg % FAKE_REGS_BYTES) / 4];
}

static void log_add(struct plat_dev *d, enum fake_kind kind, uint32_t reg, uint32_t val,
                    const void *addr, uint64_t val64)
{
    if (d->log_n == d->log_cap) {
        size_t cap = d->log_cap ? d->log_cap * 2 : 1024;
        struct fake_access *n = realloc(d->log, cap * sizeof *n);
        if (!n)
            abort();
        d->log = n;
        d->log_cap = cap;
    }
    d->log[d->log_n] = (struct fake_access){ .order = d->log_n, .kind = kind, .reg = reg,
                                             .val = val, .addr = (uintptr_t)addr,
                                             .val64 = val64 };
    d->log_n++;
}

void fake_log_clear(struct plat_dev *d)
{
    d->log_n = 0;
}

size_t fake_count(const struct plat_dev *d, enum fake_kind kind, uint32_t reg)
{
    size_t n = 0;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == kind && (d->log[i].reg == reg || (kind != FAKE_W32 && kind != FAKE_R32)))
            n++;
    return n;
}

long fake_find(const struct plat_dev *d, enum fake_kind kind, uint32_t reg, size_t n)
{
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == kind &&
            (d->log[i].reg == reg || (kind != FAKE_W32 && kind != FAKE_R32)) && n-- == 0)
            return (long)i;
    return -1;
}

/* The 82599 personality's register semantics (end of this file). */
static uint32_t ix_read32(struct plat_dev *d, uint32_t reg);
static void ix_write32(struct plat_dev *d, uint32_t reg, uint32_t val);

/* ---- MMIO ---- */
uint32_t plat_read32(struct plat_dev *d, uint32_t reg)
{
    if (d->ix.on)
        return ix_read32(d, reg);
    uint32_t *r = &d->regs[(reg % FAKE_REGS_BYTES) / 4];
    uint32_t v = *r;
    if (reg == E1000_ICR) {
        *r = 0;                                   /* read clears */
    } else if (reg == E1000_CTRL && (v & E1000_CTRL_RST)) {
        if (d->rst_reads_set >= 0 && d->rst_reads_seen++ >= d->rst_reads_set) {
            *r &= ~E1000_CTRL_RST;                /* reset done */
            v = *r;
        }
    } else if (reg == E1000_TDH) {
        v = d->nic_tdh;
    } else if (reg == E1000_RDH) {
        v = d->nic_rdh;
    }
    if (d->read_hook)
        v = d->read_hook(d, reg, v, d->read_hook_arg);
    log_add(d, FAKE_R32, reg, v, NULL, v);
    return v;
}

void plat_write32(struct plat_dev *d, uint32_t reg, uint32_t val)
{
    if (d->ix.on) {
        ix_write32(d, reg, val);
        return;
    }
    log_add(d, FAKE_W32, reg, val, NULL, val);
    uint32_t *r = &d->regs[(reg % FAKE_REGS_BYTES) / 4];
    switch (reg) {
    case E1000_IMS: *r |= val; break;
    case E1000_IMC: d->regs[E1000_IMS / 4] &= ~val; *r = val; break;
    case E1000_ICS: d->regs[E1000_ICR / 4] |= val; break;
    case E1000_ICR: *r &= ~val; break;
    case E1000_CTRL:
        *r = val;
        if (val & E1000_CTRL_RST)
            d->rst_reads_seen = 0;
        break;
    case E1000_TDH: *r = val; d->nic_tdh = val; break;
    case E1000_RDH: *r = val; d->nic_rdh = val; break;
    case E1000_TDT:
        *r = val;
        if (d->nic_mode == FAKE_NIC_ON_TDT)
            fake_nic_tx_run(d, ~0u);
        break;
    default: *r = val; break;
    }
}

/* ---- DMA memory ---- */
void *fake_bus_to_host(struct plat_dev *d, uint64_t bus, size_t len)
{
    if (bus < FAKE_BUS_BASE || bus - FAKE_BUS_BASE > d->arena_size ||
        len > d->arena_size - (bus - FAKE_BUS_BASE)) {
        d->bad_accesses++;
        return NULL;
    }
    return d->arena + (bus - FAKE_BUS_BASE);
}

void fake_arena_seek(struct plat_dev *d, size_t off)
{
    if (d->arena_owner) {
        fake_arena_seek(d->arena_owner, off);
        return;
    }
    if (off > d->arena_used && off <= d->arena_size)
        d->arena_used = off;
}

void *plat_dma_alloc(struct plat_dev *d, size_t size, size_t align, uint64_t *bus_addr)
{
    if (d->arena_owner)
        return plat_dma_alloc(d->arena_owner, size, align, bus_addr);
    if (align == 0)
        align = 1;
    size_t off = (d->arena_used + align - 1) / align * align;
    if (off > d->arena_size || size > d->arena_size - off)
        return NULL;
    d->arena_used = off + size;
    memset(d->arena + off, 0, size);
    *bus_addr = FAKE_BUS_BASE + off;
    return d->arena + off;
}

static int in_arena(struct plat_dev *d, const void *p, size_t n)
{
    const uint8_t *b = p;
    if (b < d->arena || b + n > d->arena + d->arena_size) {
        d->bad_accesses++;
        return 0;
    }
    return 1;
}

uint64_t plat_mem_read64(struct plat_dev *d, const void *p)
{
    uint64_t v = 0;
    if (in_arena(d, p, 8))
        memcpy(&v, p, 8);
    d->mem_reads++;
    log_add(d, FAKE_MEMR, 0, (uint32_t)v, p, v);
    return v;
}

void plat_mem_write64(struct plat_dev *d, void *p, uint64_t v)
{
    if (in_arena(d, p, 8))
        memcpy(p, &v, 8);
    d->mem_writes++;
    log_add(d, FAKE_MEMW, 0, (uint32_t)v, p, v);
}

void plat_mem_copy_to(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    if (in_arena(d, dst, n))
        memcpy(dst, src, n);
    d->copy_to_bytes += n;
    log_add(d, FAKE_COPY_TO, 0, (uint32_t)n, dst, n);
}

void plat_mem_copy_from(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    if (in_arena(d, src, n))
        memcpy(dst, src, n);
    d->copy_from_bytes += n;
    log_add(d, FAKE_COPY_FROM, 0, (uint32_t)n, src, n);
}

/* ---- ordering ---- */
void plat_wmb(struct plat_dev *d) { d->wmbs++; log_add(d, FAKE_WMB, 0, 0, NULL, 0); }
void plat_rmb(struct plat_dev *d) { d->rmbs++; log_add(d, FAKE_RMB, 0, 0, NULL, 0); }
void plat_mb(struct plat_dev *d) { d->mbs++; log_add(d, FAKE_MB, 0, 0, NULL, 0); }
void plat_prefetch(struct plat_dev *d, const void *p)
{
    d->prefetches++;
    log_add(d, FAKE_PREFETCH, 0, 0, p, 0);
}

/* ---- named costs ---- */
static int cost_find(const struct plat_dev *d, const char *name)
{
    for (int i = 0; i < d->ncost; i++)
        if (strcmp(d->cost[i].name, name) == 0)
            return i;
    return -1;
}

plat_cost plat_cost_id(struct plat_dev *d, const char *name)
{
    int i = cost_find(d, name);
    if (i >= 0)
        return i;
    if (d->ncost == FAKE_MAX_COSTS)
        return -1;
    i = d->ncost++;
    snprintf(d->cost[i].name, sizeof d->cost[i].name, "%s", name);
    return i;
}

void plat_charge(struct plat_dev *d, plat_cost c)
{
    if (c < 0 || c >= d->ncost)
        return;
    d->cost[c].count++;
    d->now_ns += d->cost[c].ns;
}

void fake_cost_set(struct plat_dev *d, const char *name, uint64_t ns)
{
    int i = plat_cost_id(d, name);
    if (i >= 0)
        d->cost[i].ns = ns;
}

uint64_t fake_cost_count(const struct plat_dev *d, const char *name)
{
    int i = cost_find(d, name);
    return i < 0 ? 0 : d->cost[i].count;
}

void plat_count_packets(struct plat_dev *d, uint64_t n)
{
    d->packets_counted += n;
}

void plat_mem_touch(struct plat_dev *d, const void *p, size_t n, int write)
{
    in_arena(d, p, n);
    d->touches++;
    d->touch_bytes += n;
    log_add(d, FAKE_TOUCH, write != 0, (uint32_t)n, p, n);
}

void plat_mem_wait(struct plat_dev *d, const void *p)
{
    in_arena(d, p, 1);
    d->mem_waits++;
    log_add(d, FAKE_WAIT, 0, 0, p, 0);
}

/* ---- interrupts and time ---- */
/* What happens on a device while a CPU waits for it: the hook, and the TX
 * engine in FAKE_NIC_ON_IRQ_WAIT mode. */
static void wait_side_effects(struct plat_dev *d)
{
    d->irq_waits++;
    if (d->irq_wait_hook)
        d->irq_wait_hook(d, d->irq_wait_hook_arg);
    if (d->ix.on) {
        /* the 82599 personality: every queue's TX engine */
        if (d->nic_mode == FAKE_NIC_ON_IRQ_WAIT)
            for (unsigned n = 0; n < FAKE_IX_QUEUES; n++)
                fake_ix_tx_run(d, n, ~0u);
        return;
    }
    if (d->nic_mode == FAKE_NIC_ON_IRQ_WAIT)
        fake_nic_tx_run(d, ~0u);
}

static int irq_pending(const struct plat_dev *d)
{
    if (d->ix.on)
        return (d->regs[IXGBE_EICR / 4] & d->regs[IXGBE_EIMS / 4]) != 0;
    return (d->regs[E1000_ICR / 4] & d->regs[E1000_IMS / 4]) != 0;
}

void plat_irq_msg(struct plat_dev *d)
{
    d->irq_msg = 1;
}

/* An interrupt taken by message on the 82599 fake: the causes in EIAC
 * clear and the mask bits in EIAM (or EIAM_EX(0)) drop, as the hardware
 * does when it signals (rtl/ixgbe_intr.v). */
static void msg_taken(struct plat_dev *d)
{
    if (!d->irq_msg || !d->ix.on)
        return;
    d->regs[IXGBE_EICR / 4] &= ~d->regs[IXGBE_EIAC / 4];
    d->regs[IXGBE_EIMS / 4] &= ~(d->regs[IXGBE_EIAM / 4] | d->regs[IXGBE_EIAM_EX(0) / 4]);
}

static int wait_result(struct plat_dev *d, int pending, uint64_t timeout_ns)
{
    if (pending) {
        d->now_ns += d->irq_latency_ns < timeout_ns ? d->irq_latency_ns : timeout_ns;
        return 1;
    }
    d->now_ns += timeout_ns;
    return 0;
}

int plat_irq_wait(struct plat_dev *d, uint64_t timeout_ns)
{
    wait_side_effects(d);
    int pending = irq_pending(d);
    if (pending)
        msg_taken(d);
    return wait_result(d, pending, timeout_ns);
}

int plat_irq_wait_any(struct plat_dev *const *d, int n, uint64_t timeout_ns)
{
    /* fake devices are independent: every one gets its wait side effects,
     * then the first one with a pending cause wins; time passes once, on
     * the first device's clock */
    if (n < 1)
        return -1;
    for (int i = 0; i < n; i++)
        wait_side_effects(d[i]);
    for (int i = 0; i < n; i++)
        if (irq_pending(d[i])) {
            msg_taken(d[i]);
            return wait_result(d[0], 1, timeout_ns) ? i : -1;
        }
    wait_result(d[0], 0, timeout_ns);
    return -1;
}

void plat_delay_ns(struct plat_dev *d, uint64_t ns)
{
    d->delays++;
    d->now_ns += ns;
}

uint64_t plat_now_ns(struct plat_dev *d)
{
    return d->now_ns;
}

int plat_stop_requested(struct plat_dev *d)
{
    return d->stop_at_ns && d->now_ns >= d->stop_at_ns;
}

void plat_log(struct plat_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->last_log, sizeof d->last_log, fmt, ap);
    va_end(ap);
    d->log_msgs++;
    if (d->verbose)
        fprintf(stderr, "plat_log: %s\n", d->last_log);
}

/* ---- the fake NIC's TX engine ---- */
void fake_set_dd(struct plat_dev *d, void *desc)
{
    (void)d;
    uint64_t qw1;
    memcpy(&qw1, (uint8_t *)desc + 8, 8);
    qw1 |= E1000_TXD_QW1_DD;
    memcpy((uint8_t *)desc + 8, &qw1, 8);
}

static void frame_append(struct plat_dev *d, const uint8_t *src, uint32_t n)
{
    uint8_t *b = realloc(d->cur_alloc, d->cur_len + n);
    if (!b)
        abort();
    d->cur_alloc = d->cur = b;
    memcpy(b + d->cur_len, src, n);
    d->cur_len += n;
}

static void frame_finish(struct plat_dev *d, uint8_t cmd)
{
    if (d->nframes == d->frames_cap) {
        size_t cap = d->frames_cap ? d->frames_cap * 2 : 64;
        struct fake_frame *f = realloc(d->frames, cap * sizeof *f);
        if (!f)
            abort();
        d->frames = f;
        d->frames_cap = cap;
    }
    d->frames[d->nframes++] = (struct fake_frame){ .data = d->cur_alloc, .len = d->cur_len,
                                                   .bus_first = d->cur_bus_first,
                                                   .ndesc = d->cur_ndesc, .cmd_last = cmd };
    d->cur_alloc = d->cur = NULL;
    d->cur_len = 0;
    d->cur_ndesc = 0;
}

unsigned fake_nic_tx_run(struct plat_dev *d, unsigned max)
{
    if (!(fake_reg_get(d, E1000_TCTL) & E1000_TCTL_EN))
        return 0;
    uint64_t base = (uint64_t)fake_reg_get(d, E1000_TDBAH) << 32 | fake_reg_get(d, E1000_TDBAL);
    uint32_t count = fake_reg_get(d, E1000_TDLEN) / 16;
    uint32_t tdt = fake_reg_get(d, E1000_TDT);
    if (count == 0)
        return 0;
    uint8_t *ring = fake_bus_to_host(d, base, (size_t)count * 16);
    if (!ring)
        return 0;
    unsigned n = 0, wb = 0;
    while (d->nic_tdh != tdt && n < max) {
        uint8_t *desc = ring + (size_t)d->nic_tdh * 16;
        uint64_t addr, qw1;
        memcpy(&addr, desc, 8);
        memcpy(&qw1, desc + 8, 8);
        uint32_t len = (uint32_t)(qw1 & E1000_TXD_LEN_MASK);
        uint8_t cmd = (uint8_t)(qw1 >> E1000_TXD_CMD_SHIFT);
        const uint8_t *buf = fake_bus_to_host(d, addr, len);
        if (!buf || (cmd & E1000_TXD_CMD_DEXT) || !(cmd & E1000_TXD_CMD_IFCS))
            d->nic_errors++;
        if (d->cur_ndesc == 0)
            d->cur_bus_first = addr;
        d->cur_ndesc++;
        if (buf)
            frame_append(d, buf, len);
        if (cmd & E1000_TXD_CMD_EOP)
            frame_finish(d, cmd);
        if (cmd & E1000_TXD_CMD_RS) {
            qw1 |= E1000_TXD_QW1_DD;
            memcpy(desc + 8, &qw1, 8);
            wb++;
        }
        d->nic_tdh = (d->nic_tdh + 1) % count;
        n++;
    }
    d->nic_descs += n;
    fake_reg_set(d, E1000_TDH, d->nic_tdh);
    if (wb)
        d->regs[E1000_ICR / 4] |= E1000_ICR_TXDW;
    if (n && d->nic_tdh == tdt)
        d->regs[E1000_ICR / 4] |= E1000_ICR_TXQE;
    return n;
}

/* ---- the fake NIC's RX engine ---- */
static uint8_t *rx_ring(struct plat_dev *d, uint32_t *count)
{
    uint64_t base = (uint64_t)fake_reg_get(d, E1000_RDBAH) << 32 | fake_reg_get(d, E1000_RDBAL);
    *count = fake_reg_get(d, E1000_RDLEN) / 16;
    if (*count == 0)
        return NULL;
    return fake_bus_to_host(d, base, (size_t)*count * 16);
}

uint32_t fake_nic_rx_avail(const struct plat_dev *d)
{
    uint32_t count = fake_reg_get(d, E1000_RDLEN) / 16;
    if (count == 0)
        return 0;
    return (fake_reg_get(d, E1000_RDT) + count - d->nic_rdh) % count;
}

static uint32_t rx_bsize(uint32_t rctl)
{
    static const uint32_t sz[4] = { 2048, 1024, 512, 256 };
    uint32_t b = sz[(rctl & E1000_RCTL_BSIZE_MASK) >> 16];
    if ((rctl & E1000_RCTL_BSEX) && b != 2048)
        b *= 16;
    return b;
}

static void rx_writeback(struct plat_dev *d, uint8_t *desc, uint32_t len, uint8_t status,
                         uint8_t errors)
{
    uint64_t qw1 = (uint64_t)len | (uint64_t)(status | E1000_RXD_STAT_DD) << E1000_RXD_STATUS_SHIFT |
                   (uint64_t)errors << E1000_RXD_ERRORS_SHIFT;
    memcpy(desc + 8, &qw1, 8);
    d->rx_descs++;
}

unsigned fake_nic_rx(struct plat_dev *d, const void *frame, uint32_t len, uint8_t errors)
{
    uint32_t rctl = fake_reg_get(d, E1000_RCTL), count;
    uint8_t *ring = rx_ring(d, &count);
    if (!(rctl & E1000_RCTL_EN) || !ring)
        return 0;
    uint32_t bsize = rx_bsize(rctl);
    uint32_t total = len + ((rctl & E1000_RCTL_SECRC) ? 0 : 4);
    uint32_t ndesc = (total + bsize - 1) / bsize;
    if (ndesc == 0 || fake_nic_rx_avail(d) < ndesc) {
        d->rx_missed++;
        return 0;
    }
    uint8_t *buf = malloc(total);
    if (!buf)
        abort();
    memcpy(buf, frame, len);
    memset(buf + len, 0xFC, total - len);       /* stand-in FCS */
    uint32_t off = 0;
    for (uint32_t k = 0; k < ndesc; k++) {
        uint8_t *desc = ring + (size_t)d->nic_rdh * 16;
        uint64_t addr;
        memcpy(&addr, desc, 8);
        uint32_t chunk = total - off < bsize ? total - off : bsize;
        uint8_t *dst = fake_bus_to_host(d, addr, chunk);
        if (dst)
            memcpy(dst, buf + off, chunk);
        else
            d->nic_errors++;
        int last = k == ndesc - 1;
        rx_writeback(d, desc, chunk, last ? E1000_RXD_STAT_EOP : 0, last ? errors : 0);
        off += chunk;
        d->nic_rdh = (d->nic_rdh + 1) % count;
    }
    free(buf);
    fake_reg_set(d, E1000_RDH, d->nic_rdh);
    d->rx_frames++;
    d->regs[E1000_ICR / 4] |= E1000_ICR_RXT0;
    return ndesc;
}

unsigned fake_nic_rx_desc(struct plat_dev *d, uint16_t len, uint8_t status, uint8_t errors)
{
    uint32_t count;
    uint8_t *ring = rx_ring(d, &count);
    if (!ring || fake_nic_rx_avail(d) < 1) {
        d->rx_missed++;
        return 0;
    }
    rx_writeback(d, ring + (size_t)d->nic_rdh * 16, len, status, errors);
    d->nic_rdh = (d->nic_rdh + 1) % count;
    fake_reg_set(d, E1000_RDH, d->nic_rdh);
    d->regs[E1000_ICR / 4] |= E1000_ICR_RXT0;
    return 1;
}

/* ---- the 82599 fake ------------------------------------------------------ */
void fake_ix_enable(struct plat_dev *d)
{
    d->ix = (struct fake_ix){
        .on = 1,
        .rst_reads = 1,
        .ard_reads = 0,
        .dmaidone_reads = 0,
        .link_reads = 2,
        .link_speed = IXGBE_LINKS_SPEED_10G,
        .qen_reads = 1,
    };
}

static uint32_t *ix_reg(struct plat_dev *d, uint32_t reg)
{
    return &d->regs[(reg % FAKE_REGS_BYTES) / 4];
}

/* Queue n of the TX (0x6000) or RX (0x1000) bank and the offset inside its
 * 0x40-byte block; -1 outside the bank or beyond the queues with engines. */
static int ix_queue(uint32_t reg, uint32_t base, uint32_t *off)
{
    if (reg < base || reg >= base + 0x40u * FAKE_IX_QUEUES)
        return -1;
    *off = (reg - base) % 0x40u;
    return (int)((reg - base) / 0x40u);
}

static int ix_after_reset(const struct fake_ix *x)
{
    return x->resets > 0 && !x->in_reset;
}

/* A status bit that appears after the reset, after `reads` reads. */
static uint32_t ix_appear(struct plat_dev *d, uint32_t reg, uint32_t bits, int reads, int *seen)
{
    uint32_t *r = ix_reg(d, reg);
    if (ix_after_reset(&d->ix) && (*r & bits) != bits && reads >= 0 && (*seen)++ >= reads)
        *r |= bits;
    return *r;
}

static int ix_is_stat(uint32_t reg)
{
    return (reg >= 0x3FA0u && reg < 0x3FE0u) || (reg >= 0x4000u && reg < 0x4100u);
}

static uint32_t ix_read32(struct plat_dev *d, uint32_t reg)
{
    struct fake_ix *x = &d->ix;
    uint32_t *r = ix_reg(d, reg);
    uint32_t v = *r, off = 0;
    int qn;
    if (reg == IXGBE_CTRL) {
        if ((v & IXGBE_CTRL_RST_MASK) && x->rst_reads >= 0 && x->rst_seen++ >= x->rst_reads) {
            *r &= ~IXGBE_CTRL_RST_MASK;           /* reset done */
            v = *r;
            x->in_reset = 0;
        }
    } else if (reg == IXGBE_EEC) {
        v = ix_appear(d, reg, IXGBE_EEC_ARD, x->ard_reads, &x->ard_seen);
    } else if (reg == IXGBE_RDRXCTL) {
        v = ix_appear(d, reg, IXGBE_RDRXCTL_DMAIDONE, x->dmaidone_reads, &x->dma_seen);
    } else if (reg == IXGBE_LINKS) {
        if (ix_after_reset(x) && !(v & IXGBE_LINKS_UP) && x->link_reads >= 0 &&
            x->link_seen++ >= x->link_reads)
            *r = (v & ~IXGBE_LINKS_SPEED_MASK) | IXGBE_LINKS_UP | x->link_speed;
        v = *r;
    } else if (reg == IXGBE_EICR || ix_is_stat(reg)) {
        *r = 0;                                   /* read clears */
    } else if ((qn = ix_queue(reg, IXGBE_TDBAL(0), &off)) >= 0) {
        if (off == IXGBE_TDH(0) - IXGBE_TDBAL(0))
            v = x->tdh[qn];
        else if (off == IXGBE_TXDCTL(0) - IXGBE_TDBAL(0) && (v & IXGBE_TXDCTL_ENABLE) &&
                 (x->qen_reads < 0 || x->txq_seen[qn]++ < x->qen_reads))
            v &= ~IXGBE_TXDCTL_ENABLE;            /* not enabled yet */
    } else if ((qn = ix_queue(reg, IXGBE_RDBAL(0), &off)) >= 0) {
        if (off == IXGBE_RDH(0) - IXGBE_RDBAL(0))
            v = x->rdh[qn];
        else if (off == IXGBE_RXDCTL(0) - IXGBE_RDBAL(0) && (v & IXGBE_RXDCTL_ENABLE) &&
                 (x->qen_reads < 0 || x->rxq_seen[qn]++ < x->qen_reads))
            v &= ~IXGBE_RXDCTL_ENABLE;
    }
    if (d->read_hook)
        v = d->read_hook(d, reg, v, d->read_hook_arg);
    log_add(d, FAKE_R32, reg, v, NULL, v);
    return v;
}

static void ix_reset_request(struct plat_dev *d)
{
    struct fake_ix *x = &d->ix;
    x->in_reset = 1;
    x->resets++;
    x->rst_seen = x->ard_seen = x->dma_seen = x->link_seen = 0;
    *ix_reg(d, IXGBE_EEC) &= ~IXGBE_EEC_ARD;
    *ix_reg(d, IXGBE_RDRXCTL) &= ~IXGBE_RDRXCTL_DMAIDONE;
    *ix_reg(d, IXGBE_LINKS) &= ~IXGBE_LINKS_UP;
    *ix_reg(d, IXGBE_EIMS) = 0;
    for (unsigned n = 0; n < FAKE_IX_QUEUES; n++) {
        *ix_reg(d, IXGBE_TXDCTL(n)) &= ~IXGBE_TXDCTL_ENABLE;
        *ix_reg(d, IXGBE_RXDCTL(n)) &= ~IXGBE_RXDCTL_ENABLE;
        x->tdh[n] = x->rdh[n] = 0;
        *ix_reg(d, IXGBE_TDH(n)) = 0;
        *ix_reg(d, IXGBE_RDH(n)) = 0;
    }
}

static void ix_write32(struct plat_dev *d, uint32_t reg, uint32_t val)
{
    struct fake_ix *x = &d->ix;
    log_add(d, FAKE_W32, reg, val, NULL, val);
    uint32_t *r = ix_reg(d, reg), off = 0, old = *r;
    int qn;
    if (reg == IXGBE_EIMS) {
        *r |= val;
    } else if (reg == IXGBE_EIMC) {
        *ix_reg(d, IXGBE_EIMS) &= ~val;
        *r = val;
    } else if (reg == IXGBE_EICS) {
        *ix_reg(d, IXGBE_EICR) |= val;
    } else if (reg == IXGBE_EICR) {
        *r &= ~val;
    } else if (reg == IXGBE_CTRL) {
        *r = val;
        if (val & IXGBE_CTRL_RST_MASK)
            ix_reset_request(d);
    } else if ((qn = ix_queue(reg, IXGBE_TDBAL(0), &off)) >= 0) {
        *r = val;
        if (off == IXGBE_TDH(0) - IXGBE_TDBAL(0))
            x->tdh[qn] = val;
        else if (off == IXGBE_TDT(0) - IXGBE_TDBAL(0) && d->nic_mode == FAKE_NIC_ON_TDT)
            fake_ix_tx_run(d, (unsigned)qn, ~0u);
        else if (off == IXGBE_TXDCTL(0) - IXGBE_TDBAL(0) && (val & ~old & IXGBE_TXDCTL_ENABLE))
            x->txq_seen[qn] = 0;
    } else if ((qn = ix_queue(reg, IXGBE_RDBAL(0), &off)) >= 0) {
        *r = val;
        if (off == IXGBE_RDH(0) - IXGBE_RDBAL(0))
            x->rdh[qn] = val;
        else if (off == IXGBE_RXDCTL(0) - IXGBE_RDBAL(0) && (val & ~old & IXGBE_RXDCTL_ENABLE))
            x->rxq_seen[qn] = 0;
    } else {
        *r = val;
    }
}

void fake_ix_tx_done(struct plat_dev *d, void *desc)
{
    (void)d;
    uint64_t qw0 = 0, qw1 = IXGBE_ADVTXD_STAT_DD;
    memcpy(desc, &qw0, 8);
    memcpy((uint8_t *)desc + 8, &qw1, 8);
}

void fake_ix_write_head(struct plat_dev *d, unsigned n, uint32_t head)
{
    uint64_t bus = (uint64_t)fake_reg_get(d, IXGBE_TDWBAH(n)) << 32 |
                   (fake_reg_get(d, IXGBE_TDWBAL(n)) & ~3u);
    uint8_t *p = fake_bus_to_host(d, bus, 4);
    if (!p) {
        d->nic_errors++;
        return;
    }
    memcpy(p, &head, 4);
    d->ix.head_wbs++;
}

unsigned fake_ix_tx_run(struct plat_dev *d, unsigned n, unsigned max)
{
    struct fake_ix *x = &d->ix;
    if (n >= FAKE_IX_QUEUES || !(fake_reg_get(d, IXGBE_DMATXCTL) & IXGBE_DMATXCTL_TE) ||
        !(fake_reg_get(d, IXGBE_TXDCTL(n)) & IXGBE_TXDCTL_ENABLE))
        return 0;
    uint64_t base = (uint64_t)fake_reg_get(d, IXGBE_TDBAH(n)) << 32 | fake_reg_get(d, IXGBE_TDBAL(n));
    uint32_t count = fake_reg_get(d, IXGBE_TDLEN(n)) / 16;
    uint32_t tdt = fake_reg_get(d, IXGBE_TDT(n));
    int head_wb = (fake_reg_get(d, IXGBE_TDWBAL(n)) & IXGBE_TDWBAL_HEAD_WB_ENABLE) != 0;
    if (count == 0)
        return 0;
    uint8_t *ring = fake_bus_to_host(d, base, (size_t)count * 16);
    if (!ring)
        return 0;
    unsigned k = 0, wb = 0;
    while (x->tdh[n] != tdt && k < max) {
        uint8_t *desc = ring + (size_t)x->tdh[n] * 16;
        uint64_t addr, qw1;
        memcpy(&addr, desc, 8);
        memcpy(&qw1, desc + 8, 8);
        uint32_t len = (uint32_t)(qw1 & IXGBE_ADVTXD_DTALEN_MASK);
        uint8_t cmd = (uint8_t)(qw1 >> IXGBE_ADVTXD_DCMD_SHIFT);
        const uint8_t *buf = fake_bus_to_host(d, addr, len);
        if (!buf || len == 0 || (qw1 & IXGBE_ADVTXD_DTYP_MASK) != IXGBE_ADVTXD_DTYP_DATA ||
            !(cmd & IXGBE_TXD_CMD_DEXT) || !(cmd & IXGBE_TXD_CMD_IFCS))
            d->nic_errors++;
        if (d->cur_ndesc == 0) {
            d->cur_bus_first = addr;
            x->frame_paylen = (uint32_t)(qw1 >> IXGBE_ADVTXD_PAYLEN_SHIFT);
        }
        d->cur_ndesc++;
        if (buf)
            frame_append(d, buf, len);
        if (cmd & IXGBE_TXD_CMD_EOP) {
            if (x->frame_paylen != d->cur_len)
                d->nic_errors++;
            frame_finish(d, cmd);
        }
        x->tdh[n] = (x->tdh[n] + 1) % count;
        if (cmd & IXGBE_TXD_CMD_RS) {
            if (head_wb) {
                fake_ix_write_head(d, n, x->tdh[n]);
            } else {
                fake_ix_tx_done(d, desc);
                x->tx_wb++;
            }
            wb++;
        }
        k++;
    }
    d->nic_descs += k;
    fake_reg_set(d, IXGBE_TDH(n), x->tdh[n]);
    if (wb)
        *ix_reg(d, IXGBE_EICR) |= 1u << n;
    return k;
}

static uint8_t *ix_rx_ring(struct plat_dev *d, unsigned n, uint32_t *count)
{
    uint64_t base = (uint64_t)fake_reg_get(d, IXGBE_RDBAH(n)) << 32 | fake_reg_get(d, IXGBE_RDBAL(n));
    *count = fake_reg_get(d, IXGBE_RDLEN(n)) / 16;
    if (*count == 0)
        return NULL;
    return fake_bus_to_host(d, base, (size_t)*count * 16);
}

uint32_t fake_ix_rx_avail(const struct plat_dev *d, unsigned n)
{
    uint32_t count = fake_reg_get(d, IXGBE_RDLEN(n)) / 16;
    if (count == 0 || n >= FAKE_IX_QUEUES)
        return 0;
    return (fake_reg_get(d, IXGBE_RDT(n)) + count - d->ix.rdh[n]) % count;
}

/* Fetch the read format of descriptor desc: its packet buffer address.  A
 * header address other than 0 means a stale write-back the driver did not
 * clear before posting. */
static uint64_t ix_rx_fetch(struct plat_dev *d, const uint8_t *desc)
{
    uint64_t addr, hdr;
    memcpy(&addr, desc, 8);
    memcpy(&hdr, desc + 8, 8);
    if (hdr != 0) {
        d->ix.stale_rx++;
        d->nic_errors++;
    }
    return addr;
}

static void ix_rx_writeback(struct plat_dev *d, uint8_t *desc, uint32_t len, uint32_t staterr)
{
    uint64_t qw0 = IXGBE_RXDADV_PKTTYPE_IPV4 | (uint64_t)FAKE_IX_RSS << 32;
    uint64_t qw1 = (uint64_t)(staterr | IXGBE_RXDADV_STAT_DD) |
                   (uint64_t)(len & 0xFFFFu) << IXGBE_RXDADV_LEN_SHIFT;
    memcpy(desc, &qw0, 8);
    memcpy(desc + 8, &qw1, 8);
    d->rx_descs++;
}

static int ix_rx_enabled(const struct plat_dev *d, unsigned n)
{
    return n < FAKE_IX_QUEUES && (fake_reg_get(d, IXGBE_RXCTRL) & IXGBE_RXCTRL_RXEN) &&
           (fake_reg_get(d, IXGBE_RXDCTL(n)) & IXGBE_RXDCTL_ENABLE);
}

unsigned fake_ix_rx(struct plat_dev *d, unsigned n, const void *frame, uint32_t len,
                    uint32_t errs)
{
    uint32_t count;
    if (!ix_rx_enabled(d, n))
        return 0;
    uint8_t *ring = ix_rx_ring(d, n, &count);
    uint32_t bsize = (fake_reg_get(d, IXGBE_SRRCTL(n)) & IXGBE_SRRCTL_BSIZEPKT_MASK) * 1024u;
    if (!ring || bsize == 0) {
        d->nic_errors++;
        return 0;
    }
    int strip = (fake_reg_get(d, IXGBE_HLREG0) & IXGBE_HLREG0_RXCRCSTRP) != 0;
    uint32_t total = len + (strip ? 0 : 4);
    uint32_t ndesc = (total + bsize - 1) / bsize;
    if (ndesc == 0 || fake_ix_rx_avail(d, n) < ndesc) {
        d->rx_missed++;
        return 0;
    }
    uint8_t *buf = malloc(total);
    if (!buf)
        abort();
    memcpy(buf, frame, len);
    memset(buf + len, 0xFC, total - len);       /* stand-in FCS */
    uint32_t off = 0;
    for (uint32_t k = 0; k < ndesc; k++) {
        uint8_t *desc = ring + (size_t)d->ix.rdh[n] * 16;
        uint64_t addr = ix_rx_fetch(d, desc);
        uint32_t chunk = total - off < bsize ? total - off : bsize;
        uint8_t *dst = fake_bus_to_host(d, addr, chunk);
        if (dst)
            memcpy(dst, buf + off, chunk);
        else
            d->nic_errors++;
        int last = k == ndesc - 1;
        ix_rx_writeback(d, desc, chunk, last ? IXGBE_RXDADV_STAT_EOP | errs : 0);
        off += chunk;
        d->ix.rdh[n] = (d->ix.rdh[n] + 1) % count;
    }
    free(buf);
    fake_reg_set(d, IXGBE_RDH(n), d->ix.rdh[n]);
    d->rx_frames++;
    *ix_reg(d, IXGBE_EICR) |= 1u << n;
    return ndesc;
}

unsigned fake_ix_rx_desc(struct plat_dev *d, unsigned n, uint16_t len, uint32_t staterr)
{
    uint32_t count;
    uint8_t *ring = ix_rx_enabled(d, n) ? ix_rx_ring(d, n, &count) : NULL;
    if (!ring || fake_ix_rx_avail(d, n) < 1) {
        d->rx_missed++;
        return 0;
    }
    uint8_t *desc = ring + (size_t)d->ix.rdh[n] * 16;
    (void)ix_rx_fetch(d, desc);
    ix_rx_writeback(d, desc, len, staterr);
    d->ix.rdh[n] = (d->ix.rdh[n] + 1) % count;
    fake_reg_set(d, IXGBE_RDH(n), d->ix.rdh[n]);
    *ix_reg(d, IXGBE_EICR) |= 1u << n;
    return 1;
}
