/* What limited a run: the resource that set its rate, named with the
 * figures that show it, so a user can see why a number is what it is.
 *
 * The figures cover the run's steady part, not bring-up: a CPU's busy
 * share from when its app was up to its end, a bus direction's from when
 * the last app was up to the last frame on any wire or from any link
 * partner, a wire's over the time its frames occupied it.  The verdict,
 * first rule that holds (docs/reports.md, "What limited the run"):
 *   1. wire     a port's TX wire is at least 95 % busy;
 *   2. bus      a PCIe direction (or a PCI-X segment) is at least 95 % busy;
 *   3. cpu      input frames were lost (at least 0.5 % of those offered)
 *               and a CPU was at least 90 % busy: it could not keep up;
 *      nic      the same, but a polling receiver's polls returned less than
 *               a whole batch on average (under 90 %): the CPU found no
 *               backlog, so the frames were lost before they reached the
 *               RX ring (the card's packet buffers overflowed: its DMA);
 *   4. rx-ring  input frames were lost while no CPU was that busy: the
 *               NIC found no descriptor though the CPU had time (refill
 *               batching, write-back or interrupt latency);
 *   5. offered  link partners sent frames and (almost) all were received:
 *               the run took what it was offered;
 *   6. tx-ring  the app found its TX ring full: the NIC drains it more
 *               slowly than the wire could (descriptor fetch, bus latency);
 *   7. cpu      a CPU was at least 90 % busy;
 *   8. none     nothing saturated: the run waited (interrupts, timers). */
#ifndef NICSIM_RUN_LIMIT_H
#define NICSIM_RUN_LIMIT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "../system/system.h"
#include "not_reproduced.h"

typedef enum run_limit_kind {
    LIMIT_WIRE,
    LIMIT_BUS,
    LIMIT_CPU,
    LIMIT_RX_RING,
    LIMIT_NIC,
    LIMIT_OFFERED,
    LIMIT_TX_RING,
    LIMIT_NONE,
} run_limit_kind;

enum { RUN_LIMIT_EST = 4, RUN_LIMIT_ROWS = 4 };

typedef struct run_limit {
    run_limit_kind kind;
    /* a CPU limit: what the CPU profile was calibrated against
     * (cpu.calibration), and when "none" the named costs the limiting CPU
     * charged, with their cycles a packet over the traffic window, largest
     * first: the estimates its rate rests on */
    const char *calibration;
    int nest;
    char est_name[RUN_LIMIT_EST][32];
    double est_cycles[RUN_LIMIT_EST];
    char fitted[64];            /* the fitted [cpu] defaults it charged: "stack_rx, ip_forward" */
    /* the reference rows whose configuration this run is and which the
     * model does not reproduce (not_reproduced.h): any limit */
    int nrows;
    const not_reproduced_row *rows[RUN_LIMIT_ROWS];
    char what[64];              /* the resource: "eth0 TX wire", "PCIe of card 0 upstream", "CPU0" */
    /* the busiest CPU: busy share and its two largest categories */
    int cpu;
    double cpu_busy;
    int cpu_top[2];             /* cpu_cat; -1 when none */
    double cpu_top_share[2];    /* of the CPU's time */
    /* the busiest TX wire */
    int wire_port;              /* -1 when no port sent */
    double wire_busy;
    /* the busiest bus direction */
    int bus_card, bus_dir;      /* card -1: none; dir 0 = up (PCI-X: the segment), 1 = down */
    int bus_pcie;
    double bus_busy;
    /* input */
    uint64_t offered, lost;     /* frames link partners sent, and those not received */
    double poll_fill;           /* polling receivers: frames per poll that returned any, as
                                   a share of the batch (-1: no such receiver) */
    /* output */
    uint64_t tx_full;           /* transmit attempts that found a TX ring full */
    uint64_t tx_stopped;        /* times a sender found its queue stopped by the driver
                                   (Linux's netif_stop_queue: fewer free descriptors than
                                   a frame may need) and retried */
    double tx_stopped_share;    /* the most any port's queue was stopped, as a share of
                                   the traffic time */
    /* the generator port that found its ring full (or stopped) most: how
     * long its ring lasts on the wire against how often it was reclaimed
     * (a ring that lasts less than the reclaim interval runs dry) */
    int reclaim_port;           /* -1 when no generator found its ring full */
    uint32_t ring;              /* its descriptors */
    double ring_wire_us;        /* the ring's frames' time on the wire, at the run's frames */
    double reclaim_every_us;    /* sending time over the occasions that reclaimed any */
    uint64_t reclaim_rounds;
    /* the busiest TX port's descriptor fetches */
    double txd_fetch_ns, txd_every_ns;
} run_limit;

/* Work out what limited the run (after system_read_counters). */
void run_limit_of(const nicsim_system *sys, run_limit *l);
/* Its short name: wire, bus, cpu, rx-ring, offered, tx-ring, none. */
const char *run_limit_name(run_limit_kind k);
/* The text report's section: a verdict line, then the evidence. */
void run_limit_print(FILE *f, const run_limit *l);
/* The same as a JSON object (caller frees). */
cJSON *run_limit_json(const run_limit *l);

#endif
