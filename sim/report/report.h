/* What a run prints and writes: the seeds' shapes (per-interface kpps and
 * Mbit/s, a `netstat -i` Kernel Interface table, interrupts), plus bus
 * utilization and where each CPU's cycles went per packet; and the same as
 * JSON with stable keys.  Wall-clock fields (wall_seconds, slowdown,
 * sim_packets_per_s) are the only ones that differ between two runs of one
 * scenario. */
#ifndef NICSIM_REPORT_H
#define NICSIM_REPORT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "../system/system.h"
#include "report_tables.h"

void report_print(FILE *f, const nicsim_system *sys, const char *scenario_path);
/* The run as JSON (caller frees). */
cJSON *report_json(const nicsim_system *sys, const char *scenario_path);
/* The JSON in the file at path (caller frees); NULL when it cannot be read
 * or is not JSON. */
cJSON *report_read_json(const char *path);
/* Write JSON to path atomically (PATH.tmp, then rename); 0 ok, -1 (message in err). */
int report_write_json(const char *path, const cJSON *j, char *err, size_t errlen);
/* A port's receive counters (rx_missed, rx_no_buffers, rx_errors) and its
 * transmit and app counters (gptc, gotc, tpt, pktgen_sent,
 * pktgen_reclaimed, sink_packets) into JSON object o. */
void report_rx_counters_json(cJSON *o, const sim_port *sp);
void report_tx_counters_json(cJSON *o, const sim_port *sp);
/* The ports whose rates report_tx_pps sums: pktgen's, or the l3fwd forwarder's. */
int report_tx_ports(const nicsim_system *sys);
/* Sum of the transmitting ports' TX packets per second. */
double report_tx_pps(const nicsim_system *sys);
uint64_t report_tx_packets(const nicsim_system *sys);
/* Sum of the transmitting ports' frame bits (incl. FCS) per second, in Mbit/s. */
double report_tx_mbps(const nicsim_system *sys);

#endif
