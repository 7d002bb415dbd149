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
        (o)->rdt_batch = (uint32_t)scenario_uint((sc), "driver", "rx_free_thresh");            \
        (o)->tail_per_poll = !strcmp(scenario_str((sc), "driver", "rx_tail"), "poll");        \
        (o)->skip_rmb = !scenario_bool((sc), "driver", "dd_rmb");                                  \
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
    if (t->prefetch) {          /* else TXDCTL gets 0/0, as on the 8254x */
        t->pthresh = (uint8_t)scenario_uint(sc, "driver", "tx_pthresh");
        t->hthresh = (uint8_t)scenario_uint(sc, "driver", "tx_hthresh");
    }
    t->wthresh = (uint8_t)scenario_uint(sc, "driver", "tx_wthresh");
    t->rs_every = (uint32_t)scenario_uint(sc, "driver", "rs_every");
    t->clean_thresh = (uint32_t)scenario_uint(sc, "driver", "tx_clean_thresh");
    t->rs_by_index = !strcmp(scenario_str(sc, "driver", "tx_rs"), "index");
    t->clean_batch = (uint32_t)scenario_uint(sc, "driver", "tx_clean_batch");
    t->skip_rmb = !scenario_bool(sc, "driver", "dd_rmb");
    t->info_bytes = (uint32_t)scenario_uint(sc, "driver", "ring_info_bytes");
}

void driver_options_ixgbe_rx(const scenario *sc, struct ixgbe_rx_opts *o)
{
    ixgbe_rx_default_opts(o);
    RX_POLL_OPTIONS(sc, o);
    o->pthresh = (uint8_t)scenario_uint(sc, "driver", "rx_pthresh");
    o->hthresh = (uint8_t)scenario_uint(sc, "driver", "rx_hthresh");
    o->wthresh = (uint8_t)scenario_uint(sc, "driver", "rx_wthresh");
    o->buf_layout = !strcmp(scenario_str(sc, "driver", "buf_layout"), "ixy") ? PKTBUF_LAYOUT_IXY : PKTBUF_LAYOUT_SKB;
    o->info_bytes = (uint32_t)scenario_uint(sc, "driver", "ring_info_bytes");
}

void driver_options_e1000_port(const scenario *sc, void *opts)
{
    struct e1000_port_opts *o = opts;
    driver_options_dev(sc, &o->dev);
    driver_options_rx(sc, &o->rx);
    driver_options_tx(sc, &o->tx);
}

void driver_options_ixgbe_port(const scenario *sc, void *opts)
{
    struct ixgbe_port_opts *o = opts;
    driver_options_ixgbe(sc, &o->dev, &o->tx);
    driver_options_ixgbe_rx(sc, &o->rx);
    o->eitr_us = (unsigned)scenario_uint(sc, "driver", "eitr_us");
    o->napi = !strcmp(scenario_str(sc, "driver", "tx_clean"), "napi");
    ixgbe_napi_default_opts(&o->napi_opts);
    o->napi_opts.rx_usecs = (uint32_t)scenario_uint(sc, "driver", "rx_usecs");
}
