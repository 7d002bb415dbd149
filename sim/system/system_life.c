/* A system's life: built from a scenario (its two halves, the CPUs and the
 * devices), run to the end, its results read, taken down and freed; see
 * system.h.  The loop itself is timing.c, the cards card.c, the CPUs
 * cpu.c. */
#include "system_parts.h"
#include "link_partner.h"
#include "../scenario/nicsim_scenario.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HOST_MEM_BASE 0x10000000ull

/* ---------------- building ---------------- */

/* The halves of a system: the CPUs with host memory and the app, and the
 * devices (cards, wires). */
enum { BUILD_CPUS = 1, BUILD_DEVICES = 2 };

/* capture.pcap for port p: the pattern with {port} replaced by p (required
 * when more than one port transmits).  {point} is a sweep's (nicsim sweep
 * replaces it before a point runs): left in, every run would write a file
 * of that literal name. */
int system_capture_path(const scenario *sc, const app *a, int p, int nports, char *out, size_t n, char *err,
                        size_t errlen)
{
    const char *pattern = scenario_str(sc, "capture", "pcap");
    out[0] = 0;
    if (!pattern[0] || !a->transmits(sc, p, nports))
        return 0;
    int ntx = 0;
    for (int q = 0; q < nports; q++)
        ntx += a->transmits(sc, q, nports);
    return system_capture_port(pattern, p, ntx, out, n, err, errlen);
}

int system_capture_port(const char *pattern, int p, int ntx, char *out, size_t n, char *err, size_t errlen)
{
    if (strstr(pattern, "{point}")) {
        snprintf(err, errlen, "capture.pcap: '%s': {point} stands for a sweep's point number (nicsim sweep only)",
                 pattern);
        return -1;
    }
    const char *mark = strstr(pattern, "{port}");
    if (!mark) {
        if (ntx > 1) {
            snprintf(err, errlen, "capture.pcap: '%s' has no {port} but %d ports transmit", pattern, ntx);
            return -1;
        }
        snprintf(out, n, "%s", pattern);
        return 0;
    }
    snprintf(out, n, "%.*s%d%s", (int)(mark - pattern), pattern, p, mark + strlen("{port}"));
    return 0;
}

/* The scenario's personality and app, and whether the app can run here. */
static int identify(nicsim_system *sys, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    sys->pers = nic_personality_of(sc);
    sys->app = app_of(sc);
    if (!sys->pers || !sys->app) {
        snprintf(err, errlen, "nic.model '%s' or system.app '%s' is unknown", scenario_str(sc, "nic", "model"),
                 scenario_str(sc, "system", "app"));
        return -1;
    }
    return app_check(sys->app, sc, sys->pers->port, sys->nports, err, errlen);
}

/* The ports: which the app drives and counts, their wires, their captures
 * (frames the app sends, with the CPUs), their link partners (with the
 * CPUs; a devices-only system's partners live with its owner). */
static int ports_build(nicsim_system *sys, int parts, const sim_device_io *io, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    const app *a = sys->app;
    double gbps = scenario_double(sc, "link", "gbps");
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        sp->index = p;
        sp->card = &sys->card[p / 2];
        sp->func = p % 2;
        sp->driven = a->instance_of(sc, p, sys->nports) >= 0;
        int tx = a->transmits(sc, p, sys->nports);
        sp->tx_counted = a->tx_rate && tx;
        if (!(parts & BUILD_CPUS)) {
            link_wire_init(&sp->wire, gbps, io->out, io->out_ctx[p]);
            continue;
        }
        if (system_capture_path(sc, a, p, sys->nports, sp->pcap_path, sizeof sp->pcap_path, err, errlen))
            return -1;
        if (sp->pcap_path[0] && (parts & BUILD_DEVICES) && !(sp->sink = link_sink_new(sp->pcap_path, err, errlen)))
            return -1;
        link_wire_init(&sp->wire, gbps, sp->sink ? link_wire_to_sink : NULL, sp->sink);
        if (!a->partner)
            continue;
        link_gen_cfg cfg;
        link_partner_cfg(sys, sp, &cfg);
        if (!a->partner(sc, p, sys->nports, &cfg))
            continue;
        if (link_partner_create_cfg(sp, &cfg, err, errlen))
            return -1;
        system_warn_rate(sys, p, &cfg);
    }
    return 0;
}

/* An interrupt line of a devices-only system's card changed. */
static void card_irq_changed(void *ctx, int f, int level, ps_t t)
{
    sim_card *card = ctx;
    card->sys->io.irq(card->sys->io.irq_ctx, 2 * card->index + f, level, t);
}

static int cards_build(nicsim_system *sys, int parts, const sim_device_io *io, char *err, size_t errlen)
{
    if (io)
        sys->io = *io;
    for (int i = 0; i < sys->ncards; i++) {
        if (!(parts & BUILD_DEVICES))
            card_identity(sys, i);
        else if (card_build(sys, i, parts & BUILD_CPUS ? card_snooped_memory(sys) : io->mem, err, errlen) != 0)
            return -1;
        if (io && io->irq) {
            sys->card[i].nic.irq_changed = card_irq_changed;
            sys->card[i].nic.irq_ctx = &sys->card[i];
        }
    }
    return 0;
}

static int build_parts(nicsim_system *sys, const scenario *sc, int parts, const sim_device_io *io,
                       const sim_ext_devices *ext, char *err, size_t errlen)
{
    memset(sys, 0, sizeof *sys);
    sys->sc = sc;
    sys->ext = ext;
    sched_init(&sys->s);
    sys->max_sim = scenario_uint(sc, "system", "max_sim_us") * PS_PER_US;
    sys->ncards = (int)scenario_uint(sc, "system", "cards");
    sys->nports = 2 * sys->ncards;
    if (identify(sys, err, errlen) != 0)
        return -1;
    if ((parts & BUILD_CPUS) && !(sys->mem = host_mem_new(HOST_MEM_BASE))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (ports_build(sys, parts, io, err, errlen) != 0 || cards_build(sys, parts, io, err, errlen) != 0)
        return -1;
    if (!(parts & BUILD_CPUS))
        return 0;
    if (cpus_build(sys, err, errlen) != 0)
        return -1;
    system_warn_cpus(sys);
    return 0;
}

/* A rule of the app or the system refused the scenario: the message says
 * where each key it names got its value, whoever built the system (run,
 * a sweep's point, bench, validate, l3fwd, the SystemC module). */
static int build(nicsim_system *sys, const scenario *sc, int parts, const sim_device_io *io,
                 const sim_ext_devices *ext, char *err, size_t errlen)
{
    if (build_parts(sys, sc, parts, io, ext, err, errlen) == 0)
        return 0;
    nicsim_scenario_locate(sc, err, errlen);
    return -1;
}

int system_build(nicsim_system *sys, const scenario *sc, char *err, size_t errlen)
{
    return build(sys, sc, BUILD_CPUS | BUILD_DEVICES, NULL, NULL, err, errlen);
}

int system_build_cpus(nicsim_system *sys, const scenario *sc, const sim_ext_devices *ext, char *err,
                      size_t errlen)
{
    return build(sys, sc, BUILD_CPUS, NULL, ext, err, errlen);
}

int system_build_devices(nicsim_system *sys, const scenario *sc, const sim_device_io *io, char *err,
                         size_t errlen)
{
    return build(sys, sc, BUILD_DEVICES, io, NULL, err, errlen);
}

/* ---------------- running ---------------- */

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* On a terminal, a long run shows how far it has got (stderr only: never
 * part of a result). */
struct progress {
    double w0, last;
    int shown;
};

static void progress(const nicsim_system *sys, void *arg)
{
    struct progress *pr = arg;
    double now = wall_now();
    if (now - pr->last < 1.0 || !isatty(STDERR_FILENO))
        return;
    uint64_t sent = 0;
    for (int p = 0; p < sys->nports; p++)
        sent += sys->port[p].wire.frames;
    fprintf(stderr, "\rnicsim: %.3f ms simulated, %llu frames sent, %.0f s wall ", (double)sys->s.now / 1e9,
            (unsigned long long)sent, now - pr->w0);
    pr->last = now;
    pr->shown = 1;
}

/* Let the NIC and the wire finish what they hold once the apps are done:
 * run until nothing is left to happen (bounded by max_sim_us).  Returns
 * when the last app finished or the last frame left, the later. */
static ps_t drain_devices(nicsim_system *sys)
{
    ps_t end = sys->s.now;
    for (int i = 0; i < sys->ncpus; i++)
        if (sys->cpu[i].c.t > end)
            end = sys->cpu[i].c.t;
    system_run_until(sys, end, NULL, NULL);
    ps_t limit = sys->max_sim > end ? sys->max_sim : end;
    for (;;) {
        ps_t m = system_devices_next(sys);
        if (m == PS_NEVER || m > limit)
            break;
        system_run_until(sys, m, NULL, NULL);
    }
    if (system_devices_next(sys) != PS_NEVER)
        sys->stopped_early = 1;
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].wire.last_end > end)
            end = sys->port[p].wire.last_end;
    return end;
}

int system_run(nicsim_system *sys, char *err, size_t errlen)
{
    struct progress pr = { wall_now(), wall_now(), 0 };
    system_schedule_cpus(sys, progress, &pr);
    if (system_app_error(sys, err, errlen) != 0)
        return -1;
    ps_t end = drain_devices(sys);
    sys->end_time = end;
    sys->wall_seconds = wall_now() - pr.w0;
    if (pr.shown)
        fputc('\n', stderr);
    system_read_counters(sys, end);
    system_warn_unused_keys(sys);
    return 0;
}

int system_app_error(const nicsim_system *sys, char *err, size_t errlen)
{
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].err[0]) {
            snprintf(err, errlen, "%s", sys->port[p].err);
            return -1;
        }
    return 0;
}

/* ---------------- results ---------------- */

/* The counters are read from the main context, one after another from
 * *t on: each read's completion is the next one's issue time. */
struct stat_reader {
    nicsim_system *sys;
    sim_port *sp;
    ps_t t;
};

static uint32_t read_stat(void *ctx, uint32_t reg)
{
    struct stat_reader *r = ctx;
    return system_mmio_read(r->sys, NULL, r->sp->card, r->sp->func, reg, r->t, &r->t);
}

void system_read_counters(nicsim_system *sys, ps_t t)
{
    for (int p = 0; p < sys->nports; p++) {
        struct stat_reader r = { sys, &sys->port[p], t };
        nic_port_read_counters(sys->pers->port, read_stat, &r, &sys->port[p].cnt);
        t = r.t;
    }
    for (int k = 0; k < sys->ncpus; k++) {
        const sim_cpu *c = &sys->cpu[k];
        for (int i = 0; i < c->nports; i++)
            sys->app->port_stats(c->app_state, i, &c->ports[i]->app);
    }
}

int system_complete(const nicsim_system *sys, char *why, size_t n)
{
    why[0] = 0;
    const char *cut = sys->stopped_early ? " before system.max_sim_us" : "";
    for (int k = 0; k < sys->ncpus && sys->app->complete; k++) {
        const sim_cpu *c = &sys->cpu[k];
        int index[SYS_MAX_PORTS];
        for (int i = 0; i < c->nports; i++)
            index[i] = c->ports[i]->index;
        if (!sys->app->complete(c->app_state, index, c->nports, cut, why, n))
            return 0;
    }
    /* what a generator handed the NIC must have left on the wire: a NIC
     * that reports its descriptors done without sending (a packet buffer
     * with no room for TX) did not do what was asked.  (With the devices
     * elsewhere the wire is not ours to count.) */
    for (int p = 0; p < sys->nports && !sys->ext; p++) {
        const sim_port *sp = &sys->port[p];
        if (sp->app.generator && sp->app.sent > sp->wire.frames) {
            snprintf(why, n, "eth%d: %llu packets handed to the NIC, %llu of them on the wire%s", p,
                     (unsigned long long)sp->app.sent, (unsigned long long)sp->wire.frames, cut);
            return 0;
        }
    }
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].gen && !sys->port[p].gen_done) {
            snprintf(why, n, "eth%d: the link partner had not sent all its frames", p);
            return 0;
        }
    if (sys->stopped_early) {
        snprintf(why, n, "stopped at system.max_sim_us before the apps finished");
        return 0;
    }
    return 1;
}

/* ---------------- the captures ---------------- */

int system_captures_finish(nicsim_system *sys, char *err, size_t errlen)
{
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].sink && link_sink_finish(sys->port[p].sink, err, errlen) != 0)
            return -1;
    return 0;
}

void system_captures_discard(nicsim_system *sys)
{
    for (int p = 0; p < sys->nports; p++) {
        link_sink_abort(sys->port[p].sink);
        sys->port[p].sink = NULL;
    }
}

/* ---------------- taking down ---------------- */

void system_drivers_down(nicsim_system *sys)
{
    if (sys->drivers_down)
        return;
    sys->drivers_down = 1;
    cpus_down(sys);
}

int system_free(nicsim_system *sys, char *err, size_t errlen)
{
    int rc = 0;
    for (int i = 0; i < sys->ncpus; i++)
        if (sys->cpu[i].co_up) {
            coroutine_free(&sys->cpu[i].co);
            sys->cpu[i].co_up = 0;
        }
    system_drivers_down(sys);
    cpus_free(sys);
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (sp->gen)
            link_gen_free(sp->gen);
        sp->gen = NULL;
        if (sp->sink) {
            char e[600];
            if (link_sink_close(sp->sink, e, sizeof e) != 0 && rc == 0) {
                snprintf(err, errlen, "%s", e);
                rc = -1;
            }
            sp->sink = NULL;
        }
    }
    for (int i = 0; i < sys->ncards; i++)
        card_free(&sys->card[i]);
    host_mem_free(sys->mem);
    if (sys->caches)
        cache_hier_free(sys->caches);
    sched_free(&sys->s);
    return rc;
}
