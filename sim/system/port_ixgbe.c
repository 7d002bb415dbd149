#include "port_ixgbe.h"
#include <stdio.h>

int port_ixgbe_dev_up(sim_port *sp)
{
    int rc = ixgbe_dev_init(&sp->ixdev, &sp->pd, &sp->ixdopt);
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: ixgbe bring-up failed (%d%s)", sp->index, rc,
                 ixgbe_dev_init_why(rc));
        return -1;
    }
    return 0;
}

int port_ixgbe_rxq_up(sim_port *sp)
{
    int rc = ixgbe_rxq_setup(&sp->ixrxq, &sp->ixdev, 0, &sp->ixropt, NULL);
    sp->ixrxq_up = rc == 0;
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: RX ring setup failed (%d%s)", sp->index, rc,
                 rc == IXGBE_ERR_PARAM ? ": driver.rx_ring must be a power of 2, 64..4096" : "");
        return -1;
    }
    return 0;
}

int port_ixgbe_txq_up(sim_port *sp)
{
    int rc = ixgbe_txq_setup(&sp->ixtxq, &sp->ixdev, 0, &sp->ixtopt);
    sp->ixtxq_up = rc == 0;
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: TX ring setup failed (%d%s)", sp->index, rc,
                 rc == IXGBE_ERR_PARAM ? ": driver.tx_ring must be a power of 2, 64..4096" : "");
        return -1;
    }
    return 0;
}

int port_ixgbe_irq_up(sim_port *sp)
{
    if (ixgbe_set_eitr(&sp->ixdev, 0, sp->eitr_us) != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: driver.eitr_us %u out of range", sp->index, sp->eitr_us);
        return -1;
    }
    ixgbe_irq_enable(&sp->ixdev, 1u << 0);
    return 0;
}
