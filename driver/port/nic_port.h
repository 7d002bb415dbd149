/* One NIC port as an app runs on it, whatever its driver core: the device
 * brought up, queue 0 for receiving and/or transmitting, and its interrupt,
 * in one sequence written once for every host (the simulator's CPUs,
 * nicsim-hw on a physical NIC).  A driver core plugs in with a struct
 * nic_port_core (port_e1000.c, port_ixgbe.c); a port holds that one
 * pointer and the core's own state, never both cores' structs.
 *
 * Bring-up order, as the drivers do it: device init (reset, link, the
 * interrupt mask the core's options give), RX queue 0, TX queue 0, then the
 * queue interrupt (throttle before unmask).  Only over driver/plat.h. */
#ifndef NICSIM_NIC_PORT_H
#define NICSIM_NIC_PORT_H
#include <stddef.h>
#include <stdint.h>
#include "../plat.h"
#include "nic_queue_ops.h"
#include "../ring/rx_ring.h"

/* What an app needs of a port. */
struct nic_port_want {
    uint8_t rx;                 /* set up RX queue 0 */
    uint8_t tx;                 /* set up TX queue 0 */
    uint8_t irq;                /* throttle and unmask queue 0's interrupt (a core
                                   whose device init already enables its causes
                                   needs no step here) */
    uint8_t no_tx_irq;          /* TX completions raise no interrupt: they are
                                   reclaimed in the transmit path */
    uint8_t promisc;            /* take every frame whatever its address (a
                                   physical NIC filters; the RTL does not) */
    uint64_t link_timeout_ns;   /* longest wait for the link; 0 = the core's default */
};

/* The statistics registers every port reads after a run (they clear on
 * read): good packets and octets sent and received, total packets sent,
 * missed packets and no-buffer events of packet buffer 0, and the receive
 * errors. */
struct nic_port_counters {
    uint64_t gptc, gotc, tpt;
    uint64_t gprc, gorc, mpc, rnbc, crcerrs, ruc, roc;
};

/* Frames the RX queue dropped, by reason. */
struct nic_port_rx_drops {
    uint64_t length_errors, frame_errors, multi_desc;
};

/* Why a bring-up failed (the port's err says it in words). */
enum nic_port_err {
    NIC_PORT_ERR_PARAM = -1,    /* an option out of range */
    NIC_PORT_ERR_DEV = -2,      /* the device init failed (reset, EEPROM, DMA init) */
    NIC_PORT_ERR_LINK = -3,     /* everything programmed, but no link */
    NIC_PORT_ERR_RX = -4,       /* RX queue setup */
    NIC_PORT_ERR_TX = -5,       /* TX queue setup */
    NIC_PORT_ERR_IRQ = -6,      /* interrupt setup */
    NIC_PORT_ERR_NOMEM = -7,
};

/* Where a core's device keeps those counters (the 82599 kept the 8254x's
 * offsets but for MPC and RNBC, which it has per packet buffer). */
struct nic_port_stat_regs {
    uint32_t gptc, tpt, gotcl, gotch, gprc, gorcl, gorch, mpc, rnbc, crcerrs, ruc, roc;
};

/* A register reader: the counters are read through it, so that a host can
 * read them outside an app's CPU (the simulator after the run). */
typedef uint32_t (*nic_reg_read_fn)(void *ctx, uint32_t reg);

struct nic_port;

struct nic_port_core {
    const char *name;           /* the driver core: "e1000", "ixgbe" */
    const char *parts;          /* the parts it drives, for messages: "8254x/82546" */
    const uint16_t *pci_ids;    /* Intel (8086) device IDs it drives */
    size_t n_pci_ids;
    size_t opts_size;           /* its options struct (struct e1000_port_opts, ...) */
    size_t state_size;          /* its per-port state (struct e1000_port, ...) */
    void (*default_opts)(void *opts);
    /* Bring-up on p->pd with p->core's options; 0, or an enum nic_port_err
     * with p->err set.  Whatever was set up is marked for down(). */
    int (*up)(struct nic_port *p, const void *opts, const struct nic_port_want *w);
    /* Take down the queues up() set up (the device stays as it is). */
    void (*down)(struct nic_port *p);
    /* The queue tables of queue 0 (valid after up() with rx / tx). */
    void (*txq_ops)(struct nic_port *p, struct nic_txq_ops *ops);
    void (*rxq_ops)(struct nic_port *p, struct nic_rxq_ops *ops);
    const struct nic_port_stat_regs *stat_regs;
    /* RX queue 0's drops (zeros without an RX queue). */
    void (*rx_drops)(const struct nic_port *p, struct nic_port_rx_drops *d);
    /* TX queue 0's tail writes as the run's JSON reports them (NULL: 0). */
    uint64_t (*tdt_writes)(const struct nic_port *p);
    /* Quiet the device before its memory goes away: interrupts masked and
     * the cause read (the line deasserted), then a device reset that stops
     * every DMA engine. */
    void (*quiesce)(struct plat_dev *pd);
};

struct nic_port {
    const struct nic_port_core *core;
    struct plat_dev *pd;
    void *state;                /* the core's per-port state (state_size bytes) */
    char err[200];              /* why up() failed */
};

/* Bring port p up with core on pd (the options are core->opts_size bytes
 * of the core's options struct; NULL = its defaults).  0, or an enum
 * nic_port_err with p->err set; either way nic_port_down undoes it. */
int nic_port_up(struct nic_port *p, const struct nic_port_core *core, struct plat_dev *pd, const void *opts,
                const struct nic_port_want *w);
/* Take the queues down and free the state (nothing when never up). */
void nic_port_down(struct nic_port *p);
/* Read the statistics registers through rd, in the order of struct
 * nic_port_stat_regs (low half of a 64-bit counter first). */
void nic_port_read_counters(const struct nic_port_core *core, nic_reg_read_fn rd, void *ctx,
                            struct nic_port_counters *c);
/* The poll of a core's RX ring (the engine both cores run) as the queue
 * table's: each good frame to got(arg, data, len, cookie). */
unsigned nic_port_rx_ring_poll(struct rx_ring *ring, unsigned budget, nic_rx_got_fn got, void *arg);
/* The drops of an RX ring's counters (NULL: no RX queue, all 0). */
void nic_port_rx_drops_of(const struct rx_ring_stats *s, struct nic_port_rx_drops *d);
/* 1 when vendor:device is a part the core drives. */
int nic_port_core_drives(const struct nic_port_core *core, uint16_t vendor, uint16_t device);

#endif
