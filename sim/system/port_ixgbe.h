/* Bringing an 82599 port's driver up as the apps' CPUs do (ixgbe core),
 * each step with the message the run reports when it fails. */
#ifndef NICSIM_PORT_IXGBE_H
#define NICSIM_PORT_IXGBE_H
#include "system.h"

/* ixgbe_dev_init with the port's options; 0, or -1 with sp->err set. */
int port_ixgbe_dev_up(sim_port *sp);
/* RX queue 0 (own buffer pool) / TX queue 0 with the port's options; 0, or
 * -1 with sp->err set.  Marks what system_free must undo. */
int port_ixgbe_rxq_up(sim_port *sp);
int port_ixgbe_txq_up(sim_port *sp);
/* Queue 0's interrupt cause (EICR bit 0, rtl/ixgbe_intr.v's fixed mapping)
 * throttled by EITR(0) = driver.eitr_us, then unmasked: the interval before
 * the mask, so no interrupt comes unthrottled.  0, or -1 with sp->err set. */
int port_ixgbe_irq_up(sim_port *sp);

#endif
