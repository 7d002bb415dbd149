/* The link partner that sends to a NIC port: a generator ([gen] keys) whose
 * frames arrive at the port's MAC, scheduled frame by frame.  Used by the
 * apps that receive (router, sink). */
#include "link_partner.h"
#include <stdio.h>
#include <string.h>

/* The frame in sp->gf has fully arrived: hand it to the NIC and fetch the next. */
static void gen_arrival(void *ctx, uint64_t arg)
{
    sim_port *sp = ctx;
    (void)arg;
    nic_adapter_rx_frame(&sp->card->nic, sp->func, sp->gf.t_end, sp->gf.data, sp->gf.len, sp->gf.crc_ok);
    link_partner_arrived(sp, sp->gf.t_end);
    if (link_gen_next(sp->gen, &sp->gf))
        sched_at(&sp->card->sys->s, sp->gf.t_end, gen_arrival, sp, 0);
    else
        sp->gen_done = 1;
}

void link_partner_cfg(const nicsim_system *sys, const sim_port *sp, link_gen_cfg *out)
{
    link_partner_cfg_of(sys->sc, sp->index, out);
}

void link_partner_station_mac(int index, uint8_t mac[6])
{
    static const uint8_t base[6] = { 0x02, 0, 0, 0, 0, 0 };
    memcpy(mac, base, 6);
    mac[5] = (uint8_t)(0x20 + index);
}

void link_partner_cfg_of(const scenario *sc, int index, link_gen_cfg *out)
{
    link_gen_cfg cfg;
    link_gen_cfg_default(&cfg);
    cfg.gbps = scenario_double(sc, "link", "gbps");
    double kpps = scenario_double(sc, "gen", "kpps");
    if (index == 2 && scenario_double(sc, "gen", "eth2_kpps") > 0)
        kpps = scenario_double(sc, "gen", "eth2_kpps");
    cfg.rate_pps = (uint64_t)(kpps * 1000.0 + 0.5);
    cfg.size = (uint32_t)scenario_uint(sc, "gen", "size");
    cfg.size_max = (uint32_t)scenario_uint(sc, "gen", "size_max");
    cfg.flows = (uint32_t)scenario_uint(sc, "gen", "flows");
    cfg.pkts_per_flow = (uint32_t)scenario_uint(sc, "gen", "pkts_per_flow");
    cfg.count = scenario_uint(sc, "gen", "count");
    cfg.duration = scenario_uint(sc, "gen", "duration_us") * PS_PER_US;
    cfg.start = scenario_uint(sc, "gen", "start_us") * PS_PER_US;
    cfg.bad_fcs_every = scenario_uint(sc, "gen", "bad_fcs_every");
    cfg.src_mac[5] = (uint8_t)(0x10 + index);
    link_partner_station_mac(index, cfg.dst_mac);
    *out = cfg;
}

int link_partner_create_cfg(sim_port *sp, const link_gen_cfg *cfg, char *err, size_t errlen)
{
    char e[200];
    sp->gen = link_gen_new(cfg, e, sizeof e);
    if (!sp->gen) {
        snprintf(err, errlen, "gen (eth%d): %s", sp->index, e);
        return -1;
    }
    return 0;
}

int link_partner_create(nicsim_system *sys, sim_port *sp, char *err, size_t errlen)
{
    link_gen_cfg cfg;
    link_partner_cfg(sys, sp, &cfg);
    return link_partner_create_cfg(sp, &cfg, err, errlen);
}

void link_partner_arrived(sim_port *sp, ps_t t_end)
{
    if (!sp->gen_last)
        sp->gen_first = t_end;
    sp->gen_last = t_end;
}

void link_partner_go(sim_port *sp, ps_t up)
{
    const sim_ext_devices *ext = sp->card->sys->ext;
    if (ext) {
        ext->partner_go(ext->ctx, sp, up);     /* the partner lives with the devices */
        return;
    }
    link_gen_delay(sp->gen, up);
    if (link_gen_next(sp->gen, &sp->gf))
        sched_at(&sp->card->sys->s, sp->gf.t_end, gen_arrival, sp, 0);
    else
        sp->gen_done = 1;
}
