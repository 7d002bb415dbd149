/* The driver-core options a scenario sets ([driver], [nic]): one place for
 * every host that brings a port up (the simulator, nicsim-hw). */
#ifndef NICSIM_DRIVER_OPTIONS_H
#define NICSIM_DRIVER_OPTIONS_H
#include "scenario.h"
#include "../../driver/port/port_e1000.h"
#include "../../driver/port/port_ixgbe.h"

void driver_options_dev(const scenario *sc, struct e1000_dev_opts *o);
void driver_options_tx(const scenario *sc, struct e1000_tx_opts *o);
void driver_options_rx(const scenario *sc, struct e1000_rx_opts *o);
/* The 82599's: the same [driver] keys, for the ixgbe core (its bring-up keeps
 * its defaults: ixy's packet-buffer sizes, CRC strip, 10 G serial link). */
void driver_options_ixgbe(const scenario *sc, struct ixgbe_dev_opts *d, struct ixgbe_tx_opts *t);
/* the RX queue: driver.rx_ring, copybreak and the three prefetch points */
void driver_options_ixgbe_rx(const scenario *sc, struct ixgbe_rx_opts *o);
/* A whole port's options (device, RX and TX queue 0, interrupt throttle):
 * opts is a struct e1000_port_opts / struct ixgbe_port_opts. */
void driver_options_e1000_port(const scenario *sc, void *opts);
void driver_options_ixgbe_port(const scenario *sc, void *opts);

#endif
