/* An app a scenario runs (system.app): one table entry per app
 * (app_table.c), each in a file of its own, written once for every host --
 * the simulator's CPUs (sim/system) and nicsim-hw on physical NICs
 * (sim/hw).  An entry says which ports the app drives and how they group
 * into instances (one CPU each), what it needs of each port, where link
 * partners send to it, and how an instance comes up over its ports, steps,
 * ends and goes down.  The host brings each port up (nic_port_up, with
 * app->want) before the instance's up(), and takes the ports down after
 * its down().  Adding an app is a file and a line of app_table.c (plus its
 * driver-level code in driver/apps/). */
#ifndef NICSIM_APP_H
#define NICSIM_APP_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../scenario/scenario.h"
#include "../../driver/port/nic_port.h"
#include "../../models/link_gen.h"

/* Instances a host runs at most (the simulator: one CPU each). */
enum { APP_MAX_INSTANCES = 4 };

/* Why an instance could not come up. */
enum app_err {
    APP_ERR_PARAM = -1,         /* an option out of range */
    APP_ERR_NOMEM = -2,         /* out of (DMA) memory */
};

/* A port as an instance gets it, brought up as the app asked. */
typedef struct app_port {
    int index;                  /* eth<index> */
    struct plat_dev *pd;        /* the instance's handle on it */
    struct nic_port *np;        /* its driver side */
} app_port;

/* What a report shows of an app on one of its ports. */
typedef struct app_port_stats {
    int generator;              /* it sends frames the app makes (pktgen) */
    uint64_t sent, reclaimed;   /* a generator's packets queued, and reclaimed once sent */
    uint64_t reclaim_rounds;    /* a generator's occasions that reclaimed any */
    uint32_t tx_ring;           /* a generator's TX ring size (descriptors) */
    uint64_t hung;              /* packets it gave up waiting for: the NIC never reported
                                   them sent (no DD write-back) */
    uint64_t received;          /* frames the app took in on the port */
    uint64_t consumed;          /* of those, the ones it kept (a sink; a forwarder's leave again) */
    uint64_t irqs;              /* interrupts its handler took for the port */
    uint64_t tx_full;           /* transmit attempts that found its TX ring full (the app
                                   waited, retried or dropped the frame) */
    /* A polling receiver (l3fwd, fwd): its RX polls that returned frames and
     * the most one poll may return.  A CPU that cannot keep up finds a
     * backlog, so every such poll returns a whole batch; polls that return
     * less while input is lost mean the frames never reached the ring. */
    uint64_t rx_polls_nonempty;
    unsigned rx_batch;
    /* A generator's queue driven by its driver's NAPI vector (Linux 3.18
     * ixgbe): napi is 1 and the fields below are set */
    int napi;
    struct nic_txq_napi_stats napi_stats;
    uint64_t tdt_writes;        /* its queue's tail writes */
    uint64_t stopped_waits;     /* times it found the queue stopped and retried */
    uint64_t stopped_ns;        /* time spent retrying */
} app_port_stats;

typedef struct app {
    const char *name;           /* its system.app value */
    const char *section;        /* its scenario section (drain_us of a receiver) */
    const struct nic_port_core *core;   /* the driver core it is written for; NULL: any */
    int receiver;               /* runs until its input is drained: every link partner
                                   done and [section] drain_us spent after the later of
                                   the last arrival and its last work; else until step()
                                   returns 0 */
    int tx_rate;                /* the frames it sends make the run's transmit rate */
    const char *frames;         /* the section whose size key sets its frames' size: its
                                   own for frames it makes, "gen" for a link partner's */
    unsigned steps_per_turn;    /* the simulator's scheduler gets control back after
                                   this many steps (progress; never a result) */

    /* The instance that drives port p (0, 1, ... in port order), -1 when
     * the app does not use p; nports: the ports there are. */
    int (*instance_of)(const scenario *sc, int p, int nports);
    /* Refusals that need the scenario as a whole: 0, or -1 with a message
     * naming the key.  NULL: none. */
    int (*check)(const scenario *sc, int nports, char *err, size_t n);
    /* What it needs of port p (a port it drives). */
    void (*want)(const scenario *sc, int p, struct nic_port_want *w);
    /* 1 when frames leave port p (its capture is written). */
    int (*transmits)(const scenario *sc, int p, int nports);
    /* 1 when a link partner sends to port p (simulator only); cfg holds
     * the [gen] traffic, which the app may shape.  NULL: no partners. */
    int (*partner)(const scenario *sc, int p, int nports, link_gen_cfg *cfg);

    size_t state_size;          /* an instance's state (zeroed before up) */
    /* Come up over ports[0..n) (brought up already): 0, or an enum
     * app_err with a message. */
    int (*up)(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen);
    /* One step; nonzero: it did work (a receiver) / it goes on (otherwise). */
    int (*step)(void *st);
    /* Take down what up() made (before the ports go down).  Safe after a
     * failed or missing up(). */
    void (*down)(void *st);
    /* Port i of the instance. */
    void (*port_stats)(const void *st, int i, app_port_stats *s);
    /* 1 when the instance did all it was asked; else 0 and a line saying
     * why (cut is appended to a shortfall: " before system.max_sim_us").
     * port_index[0..n): its ports' eth numbers.  NULL: always. */
    int (*complete)(const void *st, const int *port_index, int n, const char *cut, char *why, size_t len);
    /* Its section of nicsim-hw's report (run_s: the run's wall time). */
    void (*summary)(FILE *f, const void *st, const int *port_index, int n, double run_s);
} app;

/* The table's entry for system.app = name; NULL when there is none. */
const app *app_find(const char *name);
/* The scenario's app (the schema admits only the table's names). */
const app *app_of(const scenario *sc);
/* Whether app a can run here: its core, its own checks.  0, or -1 with a
 * message. */
int app_check(const app *a, const scenario *sc, const struct nic_port_core *core, int nports, char *err,
              size_t n);
/* Instances of a over nports ports (the largest instance_of + 1). */
int app_instances(const app *a, const scenario *sc, int nports);

#endif
