/* An ixgbe (82599) port: the ixgbe driver core behind struct
 * nic_port_core, and its queues as the core-independent queue tables. */
#ifndef NICSIM_PORT_IXGBE_H
#define NICSIM_PORT_IXGBE_H
#include "nic_port.h"
#include "../ixgbe/ixgbe_dev.h"
#include "../ixgbe/ixgbe_rx.h"
#include "../ixgbe/ixgbe_tx.h"
#include "../ixgbe/ixgbe_napi.h"

/* The options a scenario sets for an ixgbe port (driver_options). */
struct ixgbe_port_opts {
    struct ixgbe_dev_opts dev;
    struct ixgbe_rx_opts rx;
    struct ixgbe_tx_opts tx;
    unsigned eitr_us;           /* EITR(0): queue 0's interrupt throttle, microseconds */
    uint8_t napi;               /* 1 = queue 0 as Linux 3.18 ixgbe's queue vector with the
                                   combined NAPI poll (ixgbe_napi.h): the TX ring's WTHRESH
                                   and EITR(0) then come from napi_opts, not from tx.wthresh
                                   and eitr_us */
    struct ixgbe_napi_opts napi_opts;
};

/* The core's state of one port. */
struct ixgbe_port {
    struct ixgbe_dev dev;
    struct ixgbe_rxq rxq;
    struct ixgbe_txq txq;
    struct ixgbe_napi napi;     /* with opts.napi and an interrupt wanted */
    int rxq_up, txq_up, napi_up;
};

extern const struct nic_port_core port_ixgbe_core;

/* The port's ixgbe state; NULL when p is not brought up on the ixgbe core. */
struct ixgbe_port *port_ixgbe(struct nic_port *p);
/* The queue tables of one ixgbe queue (set up before).  The interrupt
 * read is ixgbe_irq_handle (EICR) of the queue's device.  ixgbe_dev_init
 * leaves every interrupt masked: an app that waits for interrupts needs
 * the port brought up with want.irq (queue 0's cause unmasked); masked,
 * every wait times out. */
void port_ixgbe_txq_ops(struct nic_txq_ops *ops, struct ixgbe_txq *q);
/* The same queue driven through its NAPI vector (ixgbe_napi.h): xmit with
 * the driver's queue stop, irq_handle schedules the poll, napi_poll is
 * ixgbe_poll, stopped and napi_stats are set. */
void port_ixgbe_napi_txq_ops(struct nic_txq_ops *ops, struct ixgbe_napi *n);
void port_ixgbe_rxq_ops(struct nic_rxq_ops *ops, struct ixgbe_rxq *q);

#endif
