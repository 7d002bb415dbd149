/* The l3fwd app (sim/apps/app_l3fwd.c): its entry of the app table, and
 * what the l3fwd experiment's table reads of an instance. */
#ifndef NICSIM_APP_L3FWD_H
#define NICSIM_APP_L3FWD_H
#include "app.h"

extern const app app_l3fwd;

/* What the forwarder did over the run, all ports summed. */
typedef struct app_l3fwd_totals {
    uint64_t rx, tx, tx_bursts, rx_bursts, rx_empty;
    uint64_t tx_direct, tx_drained; /* tx bursts of multi's direct runs, of the drain */
    uint64_t tdt_writes, rdt_writes;    /* tail-register writes, TX and RX */
    uint64_t drops;             /* bad, no route, ring full */
    uint64_t lookups, lookups_x4, entry_reads, groups;
    uint64_t iterations, drains;
} app_l3fwd_totals;
/* The totals of an instance of app_l3fwd (its state). */
void app_l3fwd_totals_of(const void *st, app_l3fwd_totals *t);

#endif
