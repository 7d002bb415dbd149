/* The fwd app (sim/apps/app_fwd.c): its entry of the app table, and what a
 * report reads of an instance. */
#ifndef NICSIM_APP_FWD_H
#define NICSIM_APP_FWD_H
#include "app.h"
#include "../../driver/apps/fwd.h"

extern const app app_fwd;

/* Port i (0, 1: the instance's ports in port order) of an instance of
 * app_fwd (its state): the forwarder's counters and its queues'.  After the
 * instance went down, what they were then. */
void app_fwd_report_of(const void *st, int i, struct fwd_port_report *r);

#endif
