/* Serving the card to QEMU's proxy (qemu_serve.h). */
#include "qemu_serve.h"
#include "guest_mem.h"
#include "mpqemu.h"
#include "pci_config.h"
#include "../engine/nic_engine.h"
#include "../system/system.h"
#include "../system/link_partner.h"
#include "../scenario/personality.h"
#include "../../models/link_gen.h"
#include "../../models/link_sink.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* BAR0: the register window of both parts (82546: 128 KB, docs/nic-facts.md
 * A1; the 82599's CSR space fits in it too). */
#define BAR0_SIZE (128u * 1024u)
/* The device runs ahead of its next access in slices of this much
 * simulated time, looking for QEMU's requests between slices. */
#define RUN_SLICE_PS 1000000ull

typedef struct server {
    nic_engine *e;
    guest_mem mem;
    int nf;
    int sock[QEMU_MAX_FUNCS];
    pci_config cfg[QEMU_MAX_FUNCS];
    link_sink *cap[QEMU_MAX_FUNCS];
    int cable;
    /* qemu.partner: per port, the generator (NULL: none), its next frame
     * (when have), and the capture of what it sent */
    link_gen *gen[QEMU_MAX_FUNCS];
    link_gen_cfg gen_cfg[QEMU_MAX_FUNCS];
    link_gen_frame gf[QEMU_MAX_FUNCS];
    int have[QEMU_MAX_FUNCS];
    link_sink *gen_cap[QEMU_MAX_FUNCS];
    int adv;                    /* the 82599's registers (else the 82546's) */
    int start_by_guest;         /* qemu.partner_start = guest */
    FILE *trace;                /* qemu.trace: every BAR access, or NULL */
    ps_t byte_ps;
    qemu_result *r;
} server;

/* ---- the device's side: DMA, frames, interrupts ---- */

static int bus_master(const server *s)
{
    for (int f = 0; f < s->nf; f++)
        if (pci_config_bus_master(&s->cfg[f]))
            return 1;
    return 0;
}

/* The RTL has one host interface for both functions, so bus mastering is
 * enforced per card: DMA needs it on in at least one function. */
static int dma_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    server *s = ctx;
    (void)t;
    if (!bus_master(s)) {
        s->r->dma_no_master++;
        return -1;
    }
    if (guest_mem_read(&s->mem, addr, dst, n) != 0) {
        s->r->master_aborts++;
        return -1;
    }
    s->r->dma_reads++;
    s->r->dma_read_bytes += n;
    return 0;
}

static int dma_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    server *s = ctx;
    (void)t;
    if (!bus_master(s)) {
        s->r->dma_no_master++;
        return -1;
    }
    if (guest_mem_write(&s->mem, addr, src, n) != 0) {
        s->r->master_aborts++;
        return -1;
    }
    s->r->dma_writes++;
    s->r->dma_write_bytes += n;
    return 0;
}

static void frame_out(void *ctx, int port, ps_t t, const uint8_t *data, uint32_t len)
{
    server *s = ctx;
    s->r->tx_frames[port]++;
    if (s->cap[port])
        link_sink_frame(s->cap[port], t, data, len);
    if (!s->cable || s->nf < 2)
        return;
    /* into the other port with its FCS, once its last bit has crossed:
     * preamble and SFD, the frame, the FCS */
    uint8_t buf[16384 + 4];
    if (len > sizeof buf - 4)
        return;
    memcpy(buf, data, len);
    uint32_t fcs = link_gen_crc32(data, len);
    for (int i = 0; i < 4; i++)
        buf[len + (uint32_t)i] = (uint8_t)(fcs >> 8 * i);
    ps_t end = t + (ps_t)(8 + len + 4) * s->byte_ps;
    nic_engine_rx_frame(s->e, port ^ 1, end, buf, len + 4);
    s->r->cabled[port]++;
}

/* ---- the link partner (qemu.partner) ---- */

/* A write that enables receive on a port: RXCTRL.RXEN on the 82599,
 * RCTL.EN on the 82546. */
static int rx_enable_write(const server *s, uint32_t off, uint32_t v)
{
    return s->adv ? off == IXGBE_RXCTRL && (v & IXGBE_RXCTRL_RXEN) : off == E1000_RCTL && (v & E1000_RCTL_EN);
}

/* Port f's partner starts now: its first frame gen.start_us later.  Again
 * before its first frame has arrived, it starts over. */
static void partner_start(server *s, int f)
{
    qemu_partner *p = &s->r->partner[f];
    if (!s->gen[f] || p->frames)
        return;
    char e[200];
    link_gen *g = link_gen_new(&s->gen_cfg[f], e, sizeof e);
    if (!g)     /* the same configuration built once already in open_partners */
        return;
    link_gen_free(s->gen[f]);
    s->gen[f] = g;
    p->started = 1;
    link_gen_delay(g, nic_engine_now(s->e));
    s->have[f] = link_gen_next(g, &s->gf[f]);
}

/* The guest wrote off on function f.  With qemu.partner_start = rx_enable
 * a write enabling receive starts the port's partner; a driver may enable
 * receive more than once while it brings the port up, and every such
 * write before the first frame starts the wait again. */
static void partner_watch(server *s, int f, uint32_t off, uint32_t v)
{
    if (!s->start_by_guest && rx_enable_write(s, off, v))
        partner_start(s, f);
}

/* The time of the partners' next frame, PS_NEVER when none is due. */
static ps_t partner_next(const server *s)
{
    ps_t t = PS_NEVER;
    for (int p = 0; p < s->nf; p++)
        if (s->have[p] && s->gf[p].t_end < t)
            t = s->gf[p].t_end;
    return t;
}

/* Hand the device every partner frame that has arrived by `until`. */
static void partner_feed(server *s, ps_t until)
{
    for (int p = 0; p < s->nf; p++)
        while (s->have[p] && s->gf[p].t_end <= until) {
            link_gen_frame *g = &s->gf[p];
            nic_engine_rx_frame(s->e, p, g->t_end, g->data, g->len);
            if (s->gen_cap[p])
                link_sink_frame(s->gen_cap[p], g->t_start, g->data, g->len - 4);
            s->r->partner[p].frames++;
            s->r->partner[p].bytes += g->len;
            s->have[p] = link_gen_next(s->gen[p], g);
        }
}

static int open_partners(server *s, const scenario *sc, char *err, size_t errlen)
{
    const char *which = scenario_str(sc, "qemu", "partner");
    s->start_by_guest = s->r->partner_start_guest = !strcmp(scenario_str(sc, "qemu", "partner_start"), "guest");
    if (!strcmp(which, "none"))
        return 0;
    const char *pat = scenario_str(sc, "qemu", "partner_pcap");
    for (int p = 0; p < QEMU_MAX_FUNCS; p++) {
        if (strcmp(which, "both") && atoi(which) != p)
            continue;
        if (p >= s->nf) {
            snprintf(err, errlen, "qemu.partner = %s: the card serves %d port%s", which, s->nf, s->nf == 1 ? "" : "s");
            return -1;
        }
        link_gen_cfg *cfg = &s->gen_cfg[p];
        link_partner_cfg_of(sc, p, cfg);
        char e[300], path[1024];
        if (!(s->gen[p] = link_gen_new(cfg, e, sizeof e))) {
            snprintf(err, errlen, "qemu.partner (eth%d): %s", p, e);
            return -1;
        }
        s->r->partner[p].present = 1;
        if (*pat && (system_capture_port(pat, p, !strcmp(which, "both") ? 2 : 1, path, sizeof path, err, errlen) != 0 ||
                     !(s->gen_cap[p] = link_sink_new(path, err, errlen))))
            return -1;
    }
    return 0;
}

static void irq_changed(void *ctx, int port, int level, ps_t t)
{
    server *s = ctx;
    (void)port, (void)level, (void)t;
    s->r->irq_changes++;
}

/* ---- QEMU's side: one request of function f ---- */

/* 1 request served, 0 QEMU closed the socket, -1 with err. */
static int serve_one(server *s, int f, char *err, size_t errlen)
{
    mpqemu_msg m;
    int rc = mpqemu_recv(s->sock[f], &m, err, errlen);
    if (rc <= 0)
        return rc;
    qemu_fn_stats *st = &s->r->fn[f];
    switch (m.cmd) {
    case MPQEMU_SYNC_SYSMEM:
        s->r->sysmem_syncs++;
        return guest_mem_sync(&s->mem, &m, err, errlen) ? -1 : 1;
    case MPQEMU_SET_IRQFD:
        /* without KVM the proxy never connects these (qemu-proxy-notes.md) */
        mpqemu_close_fds(&m);
        return 1;
    case MPQEMU_PCI_CFGREAD:
        st->cfg_reads++;
        return mpqemu_ret(s->sock[f], pci_config_read(&s->cfg[f], m.data.cfg.addr, m.data.cfg.len), 1, err, errlen)
                   ? -1 : 1;
    case MPQEMU_PCI_CFGWRITE:
        st->cfg_writes++;
        /* the start button of qemu.partner_start = guest: a write to the
         * device-specific config byte QEMU_PARTNER_START_CFG */
        if (s->start_by_guest && m.data.cfg.addr == QEMU_PARTNER_START_CFG)
            for (int p = 0; p < s->nf; p++)
                partner_start(s, p);
        pci_config_write(&s->cfg[f], m.data.cfg.addr, m.data.cfg.val, m.data.cfg.len);
        return mpqemu_ret(s->sock[f], 0, 1, err, errlen) ? -1 : 1;
    case MPQEMU_BAR_READ:
    case MPQEMU_BAR_WRITE: {
        int write = m.cmd == MPQEMU_BAR_WRITE;
        uint64_t val = 0;
        uint32_t base = pci_config_bar0(&s->cfg[f]);
        uint64_t off = m.data.bar.addr - base;
        write ? st->bar_writes++ : st->bar_reads++;
        if (!m.data.bar.memory || !pci_config_memory_on(&s->cfg[f]) || m.data.bar.addr < base ||
            off >= BAR0_SIZE) {
            st->bar_off++;
            val = write ? 0 : ~0ull;
        } else {
            /* the register interface is 32 bits wide: an 8-byte access is
             * two, a narrower one a part of one (a write of part of a
             * register writes the rest as read) */
            uint32_t sz = m.data.bar.size, a = (uint32_t)off & ~3u, sh = 8 * ((uint32_t)off & 3u);
            ps_t done;
            for (uint32_t k = 0; k < (sz == 8 ? 2u : 1u); k++) {
                ps_t now = nic_engine_now(s->e);
                if (sz >= 4 && write) {
                    nic_engine_mmio_write(s->e, f, a + 4 * k, (uint32_t)(m.data.bar.val >> 32 * k), now);
                    partner_watch(s, f, a + 4 * k, (uint32_t)(m.data.bar.val >> 32 * k));
                } else if (sz >= 4) {
                    val |= (uint64_t)nic_engine_mmio_read(s->e, f, a + 4 * k, now, &done) << 32 * k;
                } else {
                    uint32_t mask = (sz == 1 ? 0xffu : 0xffffu) << sh;
                    uint32_t cur = nic_engine_mmio_read(s->e, f, a, now, &done);
                    if (write) {
                        uint32_t v = (cur & ~mask) | ((uint32_t)m.data.bar.val << sh & mask);
                        nic_engine_mmio_write(s->e, f, a, v, nic_engine_now(s->e));
                        partner_watch(s, f, a, v);
                    } else
                        val = (cur & mask) >> sh;
                }
            }
        }
        if (s->trace)
            fprintf(s->trace, "nicsim qemu: %12.3f us  fn%d %s %#07llx %s %#llx\n",
                    (double)nic_engine_now(s->e) / 1e6, f, write ? "write" : "read ", (unsigned long long)off,
                    write ? "<-" : "->", (unsigned long long)(write ? m.data.bar.val : val));
        return mpqemu_ret(s->sock[f], val, 1, err, errlen) ? -1 : 1;
    }
    case MPQEMU_DEVICE_RESET:
        return mpqemu_ret(s->sock[f], 0, 0, err, errlen) ? -1 : 1;
    default:
        mpqemu_close_fds(&m);
        snprintf(err, errlen, "QEMU's proxy sent command %d, which this remote does not know", m.cmd);
        return -1;
    }
}

/* ---- setup ---- */

static int open_captures(server *s, const scenario *sc, char *err, size_t errlen)
{
    const char *pat = scenario_str(sc, "capture", "pcap");
    for (int p = 0; p < s->nf && *pat; p++) {
        char path[1024];
        /* every port may transmit: the guest's driver decides */
        if (system_capture_port(pat, p, s->nf, path, sizeof path, err, errlen) != 0 ||
            !(s->cap[p] = link_sink_new(path, err, errlen)))
            return -1;
    }
    return 0;
}

/* The IDs each personality shows: the 82546EB copper dual port (8086:1010)
 * and the 82599 KX4 backplane part (8086:10f7), which needs no SFP+ module
 * identification the RTL does not model. */
static uint16_t device_id_of(const server *s)
{
    return s->adv ? 0x10f7 : 0x1010;
}

static pid_t start_qemu(server *s, char *const *qemu_argv, int peer[], unsigned slot, FILE *log, char *err,
                        size_t errlen)
{
    int argc = 0;
    while (qemu_argv[argc])
        argc++;
    char **argv = calloc((size_t)argc + 2 * QEMU_MAX_FUNCS + 1, sizeof *argv);
    char dev[QEMU_MAX_FUNCS][96];
    if (!argv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < argc; i++)
        argv[i] = qemu_argv[i];
    for (int f = 0; f < s->nf; f++) {
        snprintf(dev[f], sizeof dev[f], "x-pci-proxy-dev,id=nicsim%d,fd=%d,addr=%#x.%d%s", f, peer[f], slot, f,
                 s->nf > 1 && f == 0 ? ",multifunction=on" : "");
        argv[argc++] = "-device";
        argv[argc++] = dev[f];
    }
    if (log) {
        fprintf(log, "nicsim qemu: starting");
        for (int i = 0; i < argc; i++)
            fprintf(log, " %s", argv[i]);
        fprintf(log, "\n");
        fflush(log);
    }
    int fail[2];
    if (pipe2(fail, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        free(argv);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fail[0]);
        execvp(argv[0], argv);
        int e = errno;
        if (write(fail[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(fail[1]);
    free(argv);
    if (pid < 0) {
        close(fail[0]);
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    int e = 0;
    ssize_t n = read(fail[0], &e, sizeof e);
    close(fail[0]);
    if (n == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "cannot start QEMU '%s': %s", qemu_argv[0], strerror(e));
        return -1;
    }
    return pid;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int qemu_serve(const scenario *sc, char *const *qemu_argv, FILE *log, qemu_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    server s = { .r = r, .cable = scenario_bool(sc, "qemu", "cable"), .trace = scenario_bool(sc, "qemu", "trace") ? log : NULL };
    s.byte_ps = (ps_t)(8000.0 / scenario_double(sc, "link", "gbps") + 0.5);
    nic_engine_io io = { .ctx = &s, .dma_read = dma_read, .dma_write = dma_write, .frame_out = frame_out,
                         .irq = irq_changed };
    int rc = -1, peer[QEMU_MAX_FUNCS];
    pid_t pid = -1;
    for (int f = 0; f < QEMU_MAX_FUNCS; f++)
        s.sock[f] = peer[f] = -1;
    if (!(s.e = nic_engine_new(sc, &io, err, errlen)))
        return -1;
    s.nf = r->nfuncs = nic_engine_ports(s.e) < QEMU_MAX_FUNCS ? nic_engine_ports(s.e) : QEMU_MAX_FUNCS;
    s.adv = nic_personality_of(sc)->rtl == NIC_RTL_82599;
    if (open_captures(&s, sc, err, errlen) || open_partners(&s, sc, err, errlen))
        goto out;
    for (int f = 0; f < s.nf; f++) {
        r->fn[f].device_id = device_id_of(&s);
        /* one device, its ports functions 0 and 1 of one slot, as on the
         * card: the header's multi-function bit tells a driver to read its
         * function number from STATUS (the 82546's second port flips the
         * EEPROM's MAC address by it) */
        pci_config_init(&s.cfg[f], 0x8086, r->fn[f].device_id, 0x020000, 0x01, 0x8086, r->fn[f].device_id,
                        BAR0_SIZE, s.nf > 1);
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
            snprintf(err, errlen, "socketpair: %s", strerror(errno));
            goto out;
        }
        s.sock[f] = sv[0];
        peer[f] = sv[1];
        fcntl(s.sock[f], F_SETFD, FD_CLOEXEC);
    }
    double t0 = wall_now();
    if ((pid = start_qemu(&s, qemu_argv, peer, (unsigned)scenario_uint(sc, "qemu", "slot"), log, err, errlen)) < 0)
        goto out;
    for (int f = 0; f < s.nf; f++) {
        close(peer[f]);
        peer[f] = -1;
    }
    int open = s.nf;
    while (open > 0) {
        struct pollfd pf[QEMU_MAX_FUNCS];
        int idx[QEMU_MAX_FUNCS], n = 0;
        for (int f = 0; f < s.nf; f++)
            if (s.sock[f] >= 0) {
                pf[n] = (struct pollfd){ .fd = s.sock[f], .events = POLLIN };
                idx[n++] = f;
            }
        ps_t next = nic_engine_next(s.e);
        if (partner_next(&s) < next)
            next = partner_next(&s);   /* a partner's next frame is the next event */
        int ready = poll(pf, (nfds_t)n, next == PS_NEVER ? -1 : 0);
        if (ready < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll: %s", strerror(errno));
            goto out;
        }
        if (ready <= 0) {
            /* nothing asked: the device goes on with what it has to do */
            if (next != PS_NEVER) {
                partner_feed(&s, next + RUN_SLICE_PS);
                nic_engine_run(s.e, next + RUN_SLICE_PS, NULL, NULL);
            }
            continue;
        }
        for (int i = 0; i < n; i++) {
            if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int f = idx[i], got = serve_one(&s, f, err, errlen);
            if (got < 0)
                goto out;
            if (got == 0) {
                close(s.sock[f]);
                s.sock[f] = -1;
                open--;
            }
        }
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    pid = -1;
    r->qemu_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->wall_s = wall_now() - t0;
    r->sim_s = (double)nic_engine_now(s.e) / 1e12;
    r->late = nic_engine_late(s.e);
    r->unmodelled_total = nic_engine_unmodelled_total(s.e);
    while (r->n_unmodelled < QEMU_MAX_UNMODELLED &&
           nic_engine_unmodelled(s.e, r->n_unmodelled, &r->unmodelled[r->n_unmodelled]) == 0)
        r->n_unmodelled++;
    rc = 0;
    for (int p = 0; p < s.nf; p++)
        if (s.cap[p]) {
            if (link_sink_close(s.cap[p], err, errlen) != 0)
                rc = -1;
            s.cap[p] = NULL;
        }
    for (int p = 0; p < s.nf; p++)
        if (s.gen_cap[p]) {
            if (link_sink_close(s.gen_cap[p], err, errlen) != 0)
                rc = -1;
            s.gen_cap[p] = NULL;
        }
out:
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
    for (int f = 0; f < QEMU_MAX_FUNCS; f++) {
        if (s.sock[f] >= 0)
            close(s.sock[f]);
        if (peer[f] >= 0)
            close(peer[f]);
        if (s.cap[f])
            link_sink_abort(s.cap[f]);
    }
    for (int p = 0; p < QEMU_MAX_FUNCS; p++) {
        if (s.gen_cap[p])
            link_sink_abort(s.gen_cap[p]);
        link_gen_free(s.gen[p]);
    }
    guest_mem_free(&s.mem);
    nic_engine_free(s.e);
    return rc;
}
