/* A scenario's app (pktgen, sink or router) on physical NICs: the same
 * driver core and app code as in the simulator, brought up with the same
 * scenario keys (sim/driver_options.c), run in one thread that steps every
 * port's app in turn. */
#ifndef NICSIM_HW_RUN_H
#define NICSIM_HW_RUN_H
#include <signal.h>
#include <stdint.h>
#include "../scenario/scenario.h"
#include "../../driver/apps/pktgen.h"
#include "../../driver/apps/router.h"
#include "../../driver/apps/sink.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_rx.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_rx.h"
#include "../../driver/ixgbe/ixgbe_tx.h"
#include "../../driver/linux/hw_nic.h"

#define HW_MAX_PORTS 4

/* The NIC's statistics registers (clear on read), summed over the run. */
struct hw_counters {
    uint64_t gprc, gptc, gorc, gotc, crcerrs, ruc, roc, mpc;
};

struct hw_port {
    int used;                   /* the app runs on this port */
    int open;
    struct plat_dev pd;
    struct e1000_dev dev;
    struct e1000_txq txq;
    struct e1000_rxq rxq;
    struct ixgbe_dev ixdev;
    struct ixgbe_txq ixtxq;
    struct ixgbe_rxq ixrxq;
    int txq_up, rxq_up, ixtxq_up, ixrxq_up;
    struct pktgen pg;
    int pg_on;
    struct sink sk;
    int sink_on;
    struct hw_counters cnt;
    uint64_t rx_first_ns, rx_last_ns;  /* first and last poll that received */
};

struct hw_run {
    const scenario *sc;
    const char *app;            /* system.app */
    enum hw_family family;
    struct hw_nic_opts nic;     /* spec is set per port */
    const char *specs[HW_MAX_PORTS];
    int nspecs;
    double idle_timeout_s;      /* sink/router: stop when nothing came for this long at the start */
    struct hw_port port[HW_MAX_PORTS];
    struct router router;
    int router_on;
    uint64_t t_start_ns, t_end_ns;
    const volatile sig_atomic_t *stop;  /* set by SIGINT/SIGTERM */
    int stopped;                /* the run was interrupted */
};

/* Which ports the scenario's app uses; -1 with e set when --pci does not
 * name a device for each of them. */
int hw_run_plan(struct hw_run *r, struct hw_error *e);
/* Open the NICs, bring the driver and app up, run to the end, tear down and
 * close (the NIC reset, bus mastering off).  0, or -1 with e set; the
 * report data stay in r either way. */
int hw_run(struct hw_run *r, struct hw_error *e);

#endif
