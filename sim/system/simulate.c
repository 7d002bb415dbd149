/* One whole simulation from a scenario: the system with its app, run to
 * the end. */
#include "simulate.h"

/* Build and run one scenario; on success *sys holds the results (free with
 * system_free).  -2: the scenario cannot be built (a combination of settings
 * the simulator refuses: a usage error), -1: the run failed. */
int nicsim_simulate(nicsim_system *sys, const scenario *sc, char *err, size_t n)
{
    /* A run that fails leaves no capture: the temporary files go, and a
     * pcap an earlier run wrote at the same path stays as it was. */
    if (system_build(sys, sc, err, n) != 0) {
        char e2[256];
        system_captures_discard(sys);
        system_free(sys, e2, sizeof e2);
        return -2;
    }
    if (system_run(sys, err, n) != 0) {
        char e2[256];
        system_captures_discard(sys);
        system_free(sys, e2, sizeof e2);
        return -1;
    }
    return 0;
}
