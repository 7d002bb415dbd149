/* The l3fwd experiment as a system (sim/app_l3fwd.c). */
#ifndef NICSIM_APP_L3FWD_H
#define NICSIM_APP_L3FWD_H
#include <stddef.h>
#include "../system/system.h"

/* 1 if port p is one of the forwarder's (port 0 of each of the first
 * l3fwd.ports cards). */
int app_l3fwd_port(const scenario *sc, int p);
int app_l3fwd_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen);
void app_l3fwd_free(nicsim_system *sys);

/* What the forwarder did over the run, all ports summed. */
typedef struct app_l3fwd_totals {
    uint64_t rx, tx, tx_bursts, rx_bursts, rx_empty;
    uint64_t drops;             /* bad, no route, ring full */
    uint64_t lookups, entry_reads, groups;
} app_l3fwd_totals;
/* 0, or -1 when the system runs no l3fwd. */
int app_l3fwd_totals_of(const nicsim_system *sys, app_l3fwd_totals *t);

#endif
