/* nicsim-hw's report: the simulator's report format (sim/report/report.c) for what
 * a physical NIC can tell: per-interface rates, the netstat -i style Kernel
 * Interface table from the NIC's statistics registers, interrupts, and
 * each app's own counters.  Rates are over wall-clock time: pktgen's over
 * its run, a receiver's from its first to its last receiving poll. */
#ifndef NICSIM_HW_REPORT_H
#define NICSIM_HW_REPORT_H
#include <stdio.h>
#include "hw_run.h"

void hw_report_text(FILE *f, const struct hw_run *r, const char *scenario_path);

#endif
