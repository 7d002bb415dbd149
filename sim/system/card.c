/* A card of the system: its RTL (through the device adapter), its bus --
 * a PCI-X segment of its own or a PCIe link, as the personality says --
 * and its DMA into host memory. */
#include "system_parts.h"
#include "link_partner.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the cards' DMA: host memory, coherent with the CPUs' caches ---- */

/* A device read sees the CPUs' dirty lines (they are snooped); a device
 * write invalidates every CPU's copy of the lines it covers, so the next CPU
 * read of a descriptor or a packet misses: that is what makes them costly. */
int system_dma_read(nicsim_system *sys, uint64_t addr, void *dst, uint32_t n)
{
    cache_dma_read(sys->caches, addr, n);
    return host_mem_read(sys->mem, addr, dst, n);
}

int system_dma_write(nicsim_system *sys, uint64_t addr, const void *src, uint32_t n)
{
    cache_dma_write(sys->caches, addr, n);
    return host_mem_write(sys->mem, addr, src, n);
}

static int snooped_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    (void)t;
    return system_dma_read(ctx, addr, dst, n);
}

static int snooped_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    (void)t;
    return system_dma_write(ctx, addr, src, n);
}

nic_mem_port card_snooped_memory(nicsim_system *sys)
{
    return (nic_mem_port){ .ctx = sys, .read = snooped_read, .write = snooped_write };
}

/* ---- the bus ---- */

/* A CPU's MMIO read has its data (the bus's CPU-side callback). */
static void mmio_read_done(void *ctx, int func, uint32_t val, ps_t t)
{
    sim_card *card = ctx;
    card->rd_val[func] = val;
    card->rd_done[func] = t;
    card->rd_waiting[func] = 0;
}

static void pcix_params_from(const scenario *sc, int card, pcix_params *bp)
{
    pcix_params_default(bp);
    (void)scenario_str(sc, "bus", "type");     /* "pcix", the only kind [bus] describes: read, so used */
    const char *mhz = scenario_str(sc, "bus", "mhz");
    if (card == 1 && strcmp(scenario_str(sc, "bus", "card1_mhz"), "same") != 0)
        mhz = scenario_str(sc, "bus", "card1_mhz");
    bp->mhz = atof(mhz);
    bp->bus64 = scenario_bool(sc, "bus", "bus64");
    bp->mmrbc = (unsigned)atoi(scenario_str(sc, "bus", "mmrbc"));
    bp->max_outstanding_splits = (unsigned)atoi(scenario_str(sc, "bus", "max_splits"));
    bp->host_read_latency = (ps_t)llround(scenario_double(sc, "bus", "host_read_latency_ns") * 1000);
    bp->mmio_host_latency = (ps_t)llround(scenario_double(sc, "bus", "mmio_host_latency_ns") * 1000);
    bp->arb_clocks = (unsigned)scenario_uint(sc, "bus", "arb_clocks");
    bp->target_response_clocks = (unsigned)scenario_uint(sc, "bus", "target_response_clocks");
    bp->turnaround_clocks = (unsigned)scenario_uint(sc, "bus", "turnaround_clocks");
    bp->device_read_wait_clocks = (unsigned)scenario_uint(sc, "bus", "device_read_wait_clocks");
}

static void pcie_params_from(const scenario *sc, pcie_params *pp)
{
    pcie_params_default(pp);
    pp->gen = (unsigned)atoi(scenario_str(sc, "pcie", "gen"));
    pp->lanes = (unsigned)atoi(scenario_str(sc, "pcie", "lanes"));
    pp->mps = (unsigned)atoi(scenario_str(sc, "pcie", "mps"));
    pp->mrrs = (unsigned)atoi(scenario_str(sc, "pcie", "mrrs"));
    pp->rcb = (unsigned)atoi(scenario_str(sc, "pcie", "rcb"));
    pp->tags = (unsigned)scenario_uint(sc, "pcie", "tags");
    pp->host_read_latency = (ps_t)llround(scenario_double(sc, "pcie", "read_latency_ns") * 1000);
    pp->mmio_host_latency = (ps_t)llround(scenario_double(sc, "pcie", "mmio_latency_ns") * 1000);
}

/* The card's bus, reporting to its adapter and (read data at the CPU) to
 * the card. */
static int bus_build(nicsim_system *sys, sim_card *card, const pcix_params *bp, char *err, size_t errlen)
{
    host_bus_callbacks cb = {
        .dev = &card->nic,
        .read_data = nic_adapter_read_data,
        .write_done = nic_adapter_write_done,
        .mmio_write = nic_adapter_mmio_write,
        .mmio_read = nic_adapter_mmio_read,
        .cpu = card,
        .mmio_read_done = mmio_read_done,
    };
    switch (sys->pers->bus) {
    case NIC_BUS_PCIE:
        card->pcie = pcie_new(&sys->s, &card->pcie_p, &cb);
        if (!card->pcie) {
            snprintf(err, errlen, "bad PCIe parameters");
            return -1;
        }
        card->hbus = pcie_host_bus(card->pcie);
        break;
    case NIC_BUS_PCIX:
        card->bus = pcix_new(&sys->s, bp, &cb);
        if (!card->bus) {
            snprintf(err, errlen, "bad PCI-X parameters");
            return -1;
        }
        card->hbus = pcix_host_bus(card->bus);
        break;
    }
    card->nic.bus = card->hbus;
    return 0;
}

/* ---- the card ---- */

void card_identity(nicsim_system *sys, int i)
{
    sim_card *card = &sys->card[i];
    card->sys = sys;
    card->index = i;
}

/* The straps: the 82546's STATUS reports the bus the card sits on; the
 * EEPROM holds the ports' station addresses (link_partner_station_mac: the
 * addresses their link partners send to; the 82546's port 1 address is
 * port 0's with the last bit inverted, as its one EEPROM address gives it);
 * a card whose port 1 no app drives is built with port 0 only when its
 * personality has such an RTL build (nic.rtl_ports = auto). */
static nic_rtl_straps straps_of(const nicsim_system *sys, int i, const pcix_params *bp)
{
    const scenario *sc = sys->sc;
    int port1_idle = sys->app->instance_of(sc, 2 * i + 1, sys->nports) < 0;
    nic_rtl_straps st = {
        .model = (uint8_t)sys->pers->rtl,
        .link_up = scenario_bool(sc, "nic", "link_up") ? 3 : 0,
        .pcix_mode = 1,
        .pcix_speed = bp->mhz > 100.5 ? 2 : bp->mhz > 66.9 ? 1 : 0,
        .bus64 = (uint8_t)bp->bus64,
        .pci66 = 1,
        .ports = sys->pers->rtl_one_port && !strcmp(scenario_str(sc, "nic", "rtl_ports"), "auto") && port1_idle
                     ? 1 : 2,
    };
    link_partner_station_mac(2 * i, st.mac[0]);
    link_partner_station_mac(2 * i + 1, st.mac[1]);
    return st;
}

/* fault.kinds: "none", "all" or one kind; each card its own stream. */
static void faults_init(nicsim_system *sys, sim_card *card)
{
    const scenario *sc = sys->sc;
    const char *fk = scenario_str(sc, "fault", "kinds");
    unsigned kinds = !strcmp(fk, "all") ? (1u << NIC_FAULT_KINDS) - 1 : 0;
    for (int k = 0; k < NIC_FAULT_KINDS; k++)
        if (!strcmp(fk, nic_fault_names[k]))
            kinds = 1u << k;
    nic_faults_init(&card->nic.faults, kinds, (unsigned)scenario_uint(sc, "fault", "rate_pct"),
                    scenario_uint(sc, "fault", "seed") * 2654435761u + (uint64_t)card->index,
                    sys->pers->adv_descriptors);
}

int card_build(nicsim_system *sys, int i, nic_mem_port mem, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    sim_card *card = &sys->card[i];
    card_identity(sys, i);
    pcix_params bp;
    if (sys->pers->bus == NIC_BUS_PCIX)
        pcix_params_from(sc, i, &bp);
    else
        pcix_params_default(&bp);   /* [bus] is the PCI-X segment's: unused (the 82599 ignores these straps) */
    nic_rtl_straps straps = straps_of(sys, i, &bp);
    if (sys->pers->bus == NIC_BUS_PCIE) {
        pcie_params_from(sc, &card->pcie_p);
        char e[200];
        if (pcie_params_check(&card->pcie_p, e, sizeof e) != 0) {
            snprintf(err, errlen, "[pcie] %s", e);
            return -1;
        }
    }
    link_wire *wires[NIC_RTL_PORTS] = { &sys->port[2 * i].wire, &sys->port[2 * i + 1].wire };
    if (nic_adapter_init(&card->nic, &sys->s, mem, scenario_double(sc, "nic", "core_mhz"), &straps, wires)) {
        snprintf(err, errlen, "cannot create the RTL model");
        return -1;
    }
    card->nic_up = 1;
    faults_init(sys, card);
    return bus_build(sys, card, &bp, err, errlen);
}

void card_free(sim_card *card)
{
    if (card->nic_up)
        nic_adapter_fini(&card->nic);
    if (card->bus)
        pcix_free(card->bus);
    if (card->pcie)
        pcie_free(card->pcie);
    card->nic_up = 0;
    card->bus = NULL;
    card->pcie = NULL;
}

void system_bus_busy(const nicsim_system *sys, int i, ps_t busy[2])
{
    const sim_card *c = &sys->card[i];
    busy[0] = busy[1] = 0;
    if (c->pcie) {
        const pcie_stats *st = pcie_get_stats(c->pcie);
        busy[0] = st->dir_busy[PCIE_UP];
        busy[1] = st->dir_busy[PCIE_DOWN];
    } else if (c->bus) {
        const pcix_stats *st = pcix_get_stats(c->bus);
        for (int k = 0; k < PCIX_KINDS; k++)
            busy[0] += st->busy[k];
    }
}

void system_mark_traffic(nicsim_system *sys, ps_t t)
{
    sys->traffic_t = t;
    for (int i = 0; i < sys->ncards; i++)
        system_bus_busy(sys, i, sys->bus_busy_at_traffic[i]);
}
