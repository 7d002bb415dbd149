/* The netstat-like tables that both the simulator's report (sim/report/report.c)
 * and nicsim-hw's (sim/hw/hw_report.c) print, written once so that
 * the two stay in one format: per-interface rates, and the `netstat -i`
 * style Kernel Interface table. */
#ifndef NICSIM_REPORT_TABLES_H
#define NICSIM_REPORT_TABLES_H
#include <stdint.h>
#include <stdio.h>

/* Interface name of port p ("eth0", "eth1"). */
const char *report_ifname(int p);

/* Iface, TX-packets, TX-kpps, TX-Mbit/s, RX-packets, RX-kpps. */
void report_rates_header(FILE *f);
void report_rates_row(FILE *f, int port, uint64_t tx_packets, double tx_pps, double tx_mbps,
                      uint64_t rx_packets, double rx_pps);

/* `netstat -i`: RX-OK, RX-ERR, RX-DRP from the NIC's counters, TX-OK; the
 * columns no NIC counter feeds print 0. */
void report_kernel_iface_header(FILE *f);
void report_kernel_iface_row(FILE *f, int port, uint64_t rx_ok, uint64_t rx_err, uint64_t rx_drp,
                             uint64_t tx_ok);

#endif
