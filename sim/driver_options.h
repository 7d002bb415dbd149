/* The driver-core options a scenario sets ([driver], [nic], [router]): one
 * place for every app that brings a port up. */
#ifndef NICSIM_DRIVER_OPTIONS_H
#define NICSIM_DRIVER_OPTIONS_H
#include "scenario.h"
#include "../driver/e1000/e1000_dev.h"
#include "../driver/e1000/e1000_tx.h"
#include "../driver/e1000/e1000_rx.h"

void driver_options_dev(const scenario *sc, struct e1000_dev_opts *o);
void driver_options_tx(const scenario *sc, struct e1000_tx_opts *o);
void driver_options_rx(const scenario *sc, struct e1000_rx_opts *o);

#endif
