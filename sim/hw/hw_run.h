/* A scenario's app on physical NICs: the same app table (sim/apps), port
 * bring-up (driver/port) and driver cores as in the simulator, with the same
 * scenario keys, run in one thread that steps every instance of the app in
 * turn. */
#ifndef NICSIM_HW_RUN_H
#define NICSIM_HW_RUN_H
#include <signal.h>
#include <stdint.h>
#include "../scenario/scenario.h"
#include "../scenario/personality.h"
#include "../apps/app.h"
#include "../../driver/port/nic_port.h"
#include "../../driver/linux/hw_nic.h"

#define HW_MAX_PORTS 4

struct hw_port {
    int used;                   /* the app drives this port */
    int open;
    struct plat_dev pd;
    struct nic_port np;
    struct nic_port_counters cnt;      /* the statistics registers, summed over the run */
    app_port_stats app;         /* the app's figures at the end */
    uint64_t rx_first_ns, rx_last_ns;  /* first and last poll that received */
};

struct hw_run {
    const scenario *sc;
    const app *app;             /* system.app */
    const nic_personality *pers; /* nic.model */
    struct hw_nic_opts nic;     /* spec is set per port */
    const char *specs[HW_MAX_PORTS];
    int nspecs;
    double idle_timeout_s;      /* a receiver: stop when nothing came for this long at the start */
    struct hw_port port[HW_MAX_PORTS];
    void *inst[APP_MAX_INSTANCES];     /* the app's instances (their state) */
    int ninst;
    char *summary;              /* the app's own report section, written before teardown */
    uint64_t t_start_ns, t_end_ns;
    const volatile sig_atomic_t *stop;  /* set by SIGINT/SIGTERM */
    int stopped;                /* the run was interrupted */
};

/* Which ports the scenario's app uses; -1 with e set when the app cannot
 * run on the scenario's NIC or --pci does not name a device for each port. */
int hw_run_plan(struct hw_run *r, struct hw_error *e);
/* Open the NICs, bring the ports and the app up, run to the end, tear down
 * and close (the NIC reset, bus mastering off).  0, or -1 with e set; the
 * report data stay in r either way (hw_run_free frees them). */
int hw_run(struct hw_run *r, struct hw_error *e);
void hw_run_free(struct hw_run *r);

#endif
