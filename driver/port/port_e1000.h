/* An e1000 (8254x/82546) port: the e1000 driver core behind struct
 * nic_port_core, and its queues as the core-independent queue tables. */
#ifndef NICSIM_PORT_E1000_H
#define NICSIM_PORT_E1000_H
#include "nic_port.h"
#include "../e1000/e1000_dev.h"
#include "../e1000/e1000_rx.h"
#include "../e1000/e1000_tx.h"

/* The options a scenario sets for an e1000 port (driver_options). */
struct e1000_port_opts {
    struct e1000_dev_opts dev;
    struct e1000_rx_opts rx;
    struct e1000_tx_opts tx;
};

/* The core's state of one port. */
struct e1000_port {
    struct e1000_dev dev;
    struct e1000_rxq rxq;
    struct e1000_txq txq;
    int rxq_up, txq_up;
};

extern const struct nic_port_core port_e1000_core;

/* The port's e1000 state; NULL when p is not brought up on the e1000 core. */
struct e1000_port *port_e1000(struct nic_port *p);
/* The queue tables of one e1000 queue (set up before: the table reads its
 * size and thresholds).  The interrupt read is e1000_irq_handle (ICR) of
 * the queue's device. */
void port_e1000_txq_ops(struct nic_txq_ops *ops, struct e1000_txq *q);
void port_e1000_rxq_ops(struct nic_rxq_ops *ops, struct e1000_rxq *q);

#endif
