#include "driver_options.h"
#include <stdlib.h>
#include <string.h>

void driver_options_dev(const scenario *sc, struct e1000_dev_opts *o)
{
    e1000_dev_default_opts(o);
    o->itr = (uint32_t)scenario_uint(sc, "driver", "itr");
    o->pba = (uint32_t)scenario_uint(sc, "nic", "pba_rx_kb");
}

void driver_options_tx(const scenario *sc, struct e1000_tx_opts *o)
{
    e1000_tx_default_opts(o);
    o->ring_size = (uint32_t)scenario_uint(sc, "driver", "tx_ring");
    if (scenario_bool(sc, "driver", "tx_prefetch")) {
        o->pthresh = (uint8_t)scenario_uint(sc, "driver", "tx_pthresh");
        o->hthresh = (uint8_t)scenario_uint(sc, "driver", "tx_hthresh");
    }
    o->wthresh = (uint8_t)scenario_uint(sc, "driver", "tx_wthresh");
    o->gran = (uint8_t)scenario_bool(sc, "driver", "tx_gran");
    o->rs_every = (uint32_t)scenario_uint(sc, "driver", "rs_every");
    o->clean_thresh = (uint32_t)scenario_uint(sc, "driver", "tx_clean_thresh");
    o->tidv = (uint16_t)scenario_uint(sc, "driver", "tidv");
    o->tadv = (uint16_t)scenario_uint(sc, "driver", "tadv");
}

/* The RX poll's options, the same fields in both driver cores' structs
 * (e1000_rx_opts, ixgbe_rx_opts): ring, copybreak, prefetch points. */
#define RX_POLL_OPTIONS(sc, o)                                                                 \
    do {                                                                                       \
        (o)->ring_size = (uint32_t)scenario_uint((sc), "driver", "rx_ring");                    \
        (o)->copybreak = (uint32_t)scenario_uint((sc), "driver", "copybreak");                  \
        (o)->prefetch_next_desc = (uint8_t)scenario_bool((sc), "driver", "prefetch_next_desc"); \
        (o)->prefetch_cur_hdr = (uint8_t)scenario_bool((sc), "driver", "prefetch_cur_hdr");     \
        (o)->prefetch_next_hdr = (uint8_t)scenario_bool((sc), "driver", "prefetch_next_hdr");   \
        (o)->meta_alloc_touch = (uint32_t)scenario_uint((sc), "driver", "buf_alloc_touch");     \
        (o)->meta_free_touch = (uint32_t)scenario_uint((sc), "driver", "buf_free_touch");       \
    } while (0)

void driver_options_rx(const scenario *sc, struct e1000_rx_opts *o)
{
    e1000_rx_default_opts(o);
    RX_POLL_OPTIONS(sc, o);
    o->radv = (uint16_t)scenario_uint(sc, "driver", "radv");
    o->rdtr = (uint16_t)scenario_uint(sc, "driver", "rdtr");
}

void driver_options_ixgbe(const scenario *sc, struct ixgbe_dev_opts *d, struct ixgbe_tx_opts *t)
{
    ixgbe_dev_default_opts(d);
    ixgbe_tx_default_opts(t);
    t->ring_size = (uint32_t)scenario_uint(sc, "driver", "tx_ring");
    t->prefetch = (uint8_t)scenario_bool(sc, "driver", "tx_prefetch");
    t->pthresh = (uint8_t)scenario_uint(sc, "driver", "tx_pthresh");
    t->hthresh = (uint8_t)scenario_uint(sc, "driver", "tx_hthresh");
    t->wthresh = (uint8_t)scenario_uint(sc, "driver", "tx_wthresh");
    t->rs_every = (uint32_t)scenario_uint(sc, "driver", "rs_every");
    t->clean_thresh = (uint32_t)scenario_uint(sc, "driver", "tx_clean_thresh");
}

void driver_options_ixgbe_rx(const scenario *sc, struct ixgbe_rx_opts *o)
{
    ixgbe_rx_default_opts(o);
    RX_POLL_OPTIONS(sc, o);
}

void driver_options_pktgen(const scenario *sc, int port, struct pktgen_opts *po)
{
    pktgen_default_opts(po);
    po->count = scenario_uint(sc, "pktgen", "count");
    po->duration_ns = scenario_uint(sc, "pktgen", "duration_us") * 1000ull;
    po->size = (uint32_t)scenario_uint(sc, "pktgen", "size");
    po->burst = (uint32_t)scenario_uint(sc, "pktgen", "burst");
    po->clone = (uint8_t)scenario_bool(sc, "pktgen", "clone");
    po->old_clock = strcmp(scenario_str(sc, "pktgen", "clock"), "gettimeofday") == 0;
    po->reclaim_in_poll = strcmp(scenario_str(sc, "driver", "tx_clean"), "poll") == 0;
    po->src_mac[5] = (uint8_t)(1 + 2 * port);
    po->dst_mac[5] = (uint8_t)(2 + 2 * port);
}

int driver_options_pktgen_port(const scenario *sc, int p)
{
    const char *ports = scenario_str(sc, "pktgen", "ports");
    if (!strcmp(ports, "all"))
        return 1;
    if (!strcmp(ports, "both"))
        return p < 2;
    return p == atoi(ports);
}

void driver_options_sink(const scenario *sc, struct sink_opts *o)
{
    sink_default_opts(o);
    o->budget = (uint32_t)scenario_uint(sc, "sink", "napi_weight");
    o->touch = (uint8_t)scenario_bool(sc, "sink", "touch");
}

void driver_options_router_macs(int port, struct router_port *rp)
{
    rp->mac[5] = (uint8_t)(0x20 + port);
    rp->next_hop_mac[5] = (uint8_t)(0x30 + port);
}

void driver_options_router(const scenario *sc, struct router_opts *o)
{
    router_default_opts(o);
    o->napi.weight = (uint32_t)scenario_uint(sc, "router", "napi_weight");
    o->napi.tx_clean = strcmp(scenario_str(sc, "driver", "tx_clean"), "poll") == 0;
    o->rt.buckets = (uint32_t)scenario_uint(sc, "router", "rt_buckets");
    o->rt.max_entries = (uint32_t)scenario_uint(sc, "router", "rt_max_entries");
}
