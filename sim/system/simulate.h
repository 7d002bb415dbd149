/* One whole simulation from a scenario (every front end that runs the
 * simulator: run, sweep points, bench, validate, l3fwd). */
#ifndef NICSIM_SIMULATE_H
#define NICSIM_SIMULATE_H
#include "system.h"

/* Build and run one scenario; on success *sys holds the results (free with
 * system_free).  -2: the scenario cannot be built (a combination of settings
 * the simulator refuses: a usage error), -1: the run failed (err says why;
 * nothing to free). */
int nicsim_simulate(nicsim_system *sys, const scenario *sc, char *err, size_t n);

#endif
