/* The l3fwd experiment as a system: l3fwd.ports 82599s (port 0 of cards
 * 0..N-1: eth0, eth2, eth4, eth6), each flooded by its link partner with
 * the traffic pattern of l3fwd.pattern, and one CPU polling them all with
 * the forwarder of driver/apps/l3fwd.h (no interrupts), routing by the
 * destination: 198.18.<k>.0/24 and 2001:db8:<k>::/48 go to port k. */
#include "app_l3fwd.h"
#include "../scenario/driver_options.h"
#include "../system/link_partner.h"
#include "../system/port_ixgbe.h"
#include "../../driver/apps/l3fwd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct l3fwd_app {
    struct l3fwd fwd;
    struct lpm lpm4, lpm6;
    int lpm_up;
};

/* Route table groups: IPv4 /24s need none, each IPv6 /48 three. */
#define L3FWD_LPM4_GROUPS 16u
#define L3FWD_LPM6_GROUPS 64u

int app_l3fwd_port(const scenario *sc, int p)
{
    return p % 2 == 0 && (uint64_t)p / 2 < scenario_uint(sc, "l3fwd", "ports");
}

static int bring_up_port(sim_port *sp)
{
    return port_ixgbe_dev_up(sp) != 0 || port_ixgbe_rxq_up(sp) != 0 || port_ixgbe_txq_up(sp) != 0 ? -1 : 0;
}

/* The routes: port k's IPv4 /24 and IPv6 /48. */
static int add_routes(struct l3fwd_app *a, int nports)
{
    for (int k = 0; k < nports; k++) {
        uint8_t k4[4] = { 198, 18, (uint8_t)k, 0 };
        uint8_t k6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, (uint8_t)k };
        if (lpm_add(&a->lpm4, k4, 24, (uint32_t)k) != 0 || lpm_add(&a->lpm6, k6, 48, (uint32_t)k) != 0)
            return -1;
    }
    return 0;
}

static int l3fwd_bring_up(sim_cpu *c)
{
    const scenario *sc = c->ports[0]->pd.sys->sc;
    struct l3fwd_app *a = c->l3fwd;
    struct l3fwd_port ports[L3FWD_MAX_PORTS];
    for (int i = 0; i < c->nports; i++) {
        sim_port *sp = c->ports[i];
        if (bring_up_port(sp) != 0)
            return -1;
        ports[i] = (struct l3fwd_port){ .pd = &sp->pd, .rxq = &sp->ixrxq, .txq = &sp->ixtxq,
                                        .mac = { 2, 0, 0, 0, (uint8_t)(sp->index / 2), 0 },
                                        .peer_mac = { 2, 0, 0, 0, 0xff, (uint8_t)sp->index } };
    }
    sim_port *p0 = c->ports[0];
    if (lpm_init(&a->lpm4, &p0->pd, 4, L3FWD_LPM4_GROUPS) != 0 ||
        lpm_init(&a->lpm6, &p0->pd, 16, L3FWD_LPM6_GROUPS) != 0 || add_routes(a, c->nports) != 0) {
        snprintf(p0->err, sizeof p0->err, "l3fwd: cannot build the route tables (out of DMA memory)");
        return -1;
    }
    struct l3fwd_opts o;
    l3fwd_default_opts(&o);
    o.path = strcmp(scenario_str(sc, "l3fwd", "path"), "multi") == 0 ? L3FWD_MULTI : L3FWD_SCALAR;
    o.group = (unsigned)scenario_uint(sc, "l3fwd", "group");
    o.burst = (unsigned)scenario_uint(sc, "l3fwd", "burst");
    o.prefetch_ahead = (unsigned)scenario_uint(sc, "l3fwd", "prefetch_ahead");
    o.tx_free_thresh = (unsigned)scenario_uint(sc, "l3fwd", "tx_free_thresh");
    if (l3fwd_init(&a->fwd, ports, c->nports, &a->lpm4, &a->lpm6, &o) != 0) {
        snprintf(p0->err, sizeof p0->err, "l3fwd: bad options (l3fwd.group must be 4 or 8)");
        return -1;
    }
    for (int i = 0; i < c->nports; i++)
        link_partner_go(c->ports[i], c->c.t);
    return 0;
}

/* Done once every link partner has sent everything and the CPU has polled
 * l3fwd.drain_us without a frame since the later of the last arrival and
 * its last work. */
static int l3fwd_cpu_step(sim_cpu *c)
{
    if (system_cpu_drained(c))
        return 0;
    if (l3fwd_step(&c->l3fwd->fwd))
        c->last_work = c->c.t;
    return 1;
}

static void l3fwd_cpu(void *arg)
{
    sim_cpu *c = arg;
    system_cpu_run(c, c->ports[0]->pd.sys, l3fwd_bring_up, l3fwd_cpu_step, 64);
}

/* What input port i's link partner sends (its rate, size and count come
 * from [gen]): the pattern's destinations, 198.18.<k>.1 or 2001:db8:<k>::1
 * for output port k. */
static void pattern_cfg(const char *pat, int i, int nports, link_gen_cfg *cfg)
{
    int pair = (i ^ 1) < nports ? i ^ 1 : i;    /* 0<->1, 2<->3; a lone port to itself */
    cfg->dst_prefix = 16;
    cfg->flow_stride = 256;
    cfg->ip_version = 4;
    if (!strncmp(pat, "ipv4-4streamsx", 14)) {
        cfg->dst_ip_base = 0xc6120001u;         /* 198.18.0.1 */
        cfg->flows = (uint32_t)nports;
        cfg->pkts_per_flow = (uint32_t)atoi(pat + 14);
        return;
    }
    cfg->dst_ip_base = 0xc6120001u | (uint32_t)pair << 8;
    cfg->dst_ip6_base[5] = (uint8_t)pair;
    cfg->flows = 1;
    cfg->pkts_per_flow = 1;
    cfg->ip_version = !strcmp(pat, "ipv6-cont-burst") ? 6 : !strcmp(pat, "ipv4-ipv6-cont-burst") ? 46 : 4;
}

int app_l3fwd_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    int nports = (int)scenario_uint(sc, "l3fwd", "ports");
    if (strcmp(scenario_str(sc, "nic", "model"), "82599") != 0) {
        snprintf(err, errlen, "nic.model: l3fwd runs on the ixgbe core: expected 82599, got '%s'",
                 scenario_str(sc, "nic", "model"));
        return -1;
    }
    if (nports > sys->ncards) {
        snprintf(err, errlen, "system.cards: l3fwd.ports = %d needs %d cards (one port of each), got %d", nports,
                 nports, sys->ncards);
        return -1;
    }
    sim_cpu *c = system_cpu_new(sys, prof);
    c->drain = scenario_uint(sc, "l3fwd", "drain_us") * PS_PER_US;
    c->l3fwd = calloc(1, sizeof *c->l3fwd);
    if (!c->l3fwd) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const char *pat = scenario_str(sc, "l3fwd", "pattern");
    for (int i = 0; i < nports; i++) {
        sim_port *sp = &sys->port[2 * i];
        sp->l3fwd_on = 1;
        system_port_attach(c, sp);
        driver_options_ixgbe(sc, &sp->ixdopt, &sp->ixtopt);
        driver_options_ixgbe_rx(sc, &sp->ixropt);
        link_gen_cfg cfg;
        link_partner_cfg(sys, sp, &cfg);
        pattern_cfg(pat, i, nports, &cfg);
        if (link_partner_create_cfg(sp, &cfg, err, errlen) != 0)
            return -1;
    }
    return system_cpu_start(c, l3fwd_cpu, err, errlen);
}

void app_l3fwd_free(nicsim_system *sys)
{
    for (int i = 0; i < sys->ncpus; i++) {
        free(sys->cpu[i].l3fwd);
        sys->cpu[i].l3fwd = NULL;
    }
}

int app_l3fwd_totals_of(const nicsim_system *sys, app_l3fwd_totals *t)
{
    memset(t, 0, sizeof *t);
    if (sys->ncpus < 1 || !sys->cpu[0].l3fwd)
        return -1;
    const struct l3fwd *f = &sys->cpu[0].l3fwd->fwd;
    for (int p = 0; p < f->nports; p++) {
        const struct l3fwd_port_stats *st = &f->stats[p];
        t->rx += st->rx;
        t->tx += st->tx;
        t->tx_bursts += st->tx_bursts;
        t->rx_bursts += st->rx_bursts;
        t->rx_empty += st->rx_empty;
        t->drops += st->drop_bad + st->drop_no_route + st->drop_ring_full;
    }
    t->lookups = f->lpm_stats.lookups;
    t->entry_reads = f->lpm_stats.entry_reads;
    t->groups = f->groups;
    return 0;
}
