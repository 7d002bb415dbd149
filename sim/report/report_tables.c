/* The tables both reports print; see report_tables.h. */
#include "report_tables.h"

const char *report_ifname(int p)
{
    static const char *const names[] = { "eth0", "eth1", "eth2", "eth3", "eth4", "eth5", "eth6", "eth7" };
    return names[p & 7];
}

void report_rates_header(FILE *f)
{
    fprintf(f, "\n%-6s %12s %10s %10s %12s %10s\n", "Iface", "TX-packets", "TX-kpps", "TX-Mbit/s",
            "RX-packets", "RX-kpps");
}

void report_rates_row(FILE *f, int port, uint64_t tx_packets, double tx_pps, double tx_mbps,
                      uint64_t rx_packets, double rx_pps)
{
    fprintf(f, "%-6s %12llu %10.3f %10.2f %12llu %10.3f\n", report_ifname(port), (unsigned long long)tx_packets,
            tx_pps / 1e3, tx_mbps, (unsigned long long)rx_packets, rx_pps / 1e3);
}

void report_kernel_iface_header(FILE *f)
{
    fprintf(f, "\nKernel Interface table\n");
    fprintf(f, "Iface   MTU Met    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg\n");
}

void report_kernel_iface_row(FILE *f, int port, uint64_t rx_ok, uint64_t rx_err, uint64_t rx_drp,
                             uint64_t tx_ok)
{
    fprintf(f, "%-6s %4d %3d %8llu %6llu %6llu %6d %8llu %6d %6d %6d %s\n", report_ifname(port), 1500, 0,
            (unsigned long long)rx_ok, (unsigned long long)rx_err, (unsigned long long)rx_drp, 0,
            (unsigned long long)tx_ok, 0, 0, 0, "BRU");
}
