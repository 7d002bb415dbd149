/* The driver-core options a scenario sets ([driver], [nic], [router]): one
 * place for every app that brings a port up. */
#ifndef NICSIM_DRIVER_OPTIONS_H
#define NICSIM_DRIVER_OPTIONS_H
#include "scenario.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/e1000/e1000_rx.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_tx.h"
#include "../../driver/ixgbe/ixgbe_rx.h"
#include "../../driver/apps/pktgen.h"
#include "../../driver/apps/router.h"
#include "../../driver/apps/sink.h"

void driver_options_dev(const scenario *sc, struct e1000_dev_opts *o);
void driver_options_tx(const scenario *sc, struct e1000_tx_opts *o);
void driver_options_rx(const scenario *sc, struct e1000_rx_opts *o);
/* The 82599's: the same [driver] keys, for the ixgbe core (its bring-up keeps
 * its defaults: ixy's packet-buffer sizes, CRC strip, 10 G serial link). */
void driver_options_ixgbe(const scenario *sc, struct ixgbe_dev_opts *d, struct ixgbe_tx_opts *t);
/* the RX queue: driver.rx_ring, copybreak and the three prefetch points */
void driver_options_ixgbe_rx(const scenario *sc, struct ixgbe_rx_opts *o);
/* pktgen on port `port` ([pktgen], driver.tx_clean): its MAC addresses
 * are 02:00:00:00:00:(2p+1) -> 02:00:00:00:00:(2p+2). */
void driver_options_pktgen(const scenario *sc, int port, struct pktgen_opts *po);
/* 1 when pktgen.ports ("0".."3", "both" = 0 and 1, "all") includes port p. */
int driver_options_pktgen_port(const scenario *sc, int p);
/* The sink's NAPI weight and header read ([sink]). */
void driver_options_sink(const scenario *sc, struct sink_opts *o);
/* The router's NAPI weight, TX reclaim and route cache ([router], driver.tx_clean). */
void driver_options_router(const scenario *sc, struct router_opts *o);
/* Router port `port`'s addresses: frames leave it from 02:00:00:00:00:(0x20 + port)
 * to the next hop 02:00:00:00:00:(0x30 + port). */
void driver_options_router_macs(int port, struct router_port *rp);

#endif
