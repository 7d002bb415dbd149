/* nicsim's NIC as a PCI device of an unmodified QEMU: the device half of a
 * scenario (sim/engine/nic_engine.h: one card, its RTL, adapter and bus
 * model) served to `-device x-pci-proxy-dev,fd=N` (mpqemu.h), one proxy
 * device per PCI function.
 *
 * QEMU is started as a child with the caller's command line plus one
 * `-device x-pci-proxy-dev,id=nicsimF,fd=N,addr=SLOT.F` per function
 * (qemu.slot; a two-port card is one multi-function device, as on the
 * card); the guest's RAM
 * must be a shared memfd (`-object memory-backend-memfd,id=mem,size=...,
 * share=on -machine memory-backend=mem`) or every DMA is a master abort.
 *
 * Time: simulated time runs on its own while QEMU runs.  A guest access
 * happens at the device's current time (a read runs the device until its
 * data is back); between accesses the device runs through whatever it has
 * to do (DMA, frames on the wire, timers) as fast as it can, and waits for
 * the next access when it has nothing left.  The guest's clock and the
 * simulated one are therefore unrelated: the report gives both.
 *
 * Wires: each port's frames go to a capture when capture.pcap is set
 * ({port} replaced by the port number) and, with qemu.cable, into the
 * other port of the card (a cable: each frame arrives there with its FCS
 * when its last bit has crossed).  With qemu.partner, that port's link
 * partner sends the [gen] traffic (link_partner_cfg_of), its first frame
 * gen.start_us after the guest's driver enables receive on the port (a
 * write setting RXCTRL.RXEN on the 82599, RCTL.EN on the 82546; the last
 * such write before the first frame arrives), or with qemu.partner_start
 * = guest when the guest writes config byte QEMU_PARTNER_START_CFG: the
 * guest's clock is not the simulator's, so "once the receiver is up" is
 * the only start that means the same on every run; qemu.partner = both
 * gives each port one.  qemu.partner_pcap ({port} as capture.pcap's) keeps
 * what each sent (without FCS), for comparing with a forwarded capture. */
#ifndef NICSIM_QEMU_SERVE_H
#define NICSIM_QEMU_SERVE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../scenario/scenario.h"
#include "../engine/nic_engine.h"

enum { QEMU_MAX_FUNCS = 2, QEMU_MAX_UNMODELLED = 4096 };
/* qemu.partner_start = guest: a config-space write to this byte (in the
 * device-specific part, which the model leaves read-only 0) of either
 * function starts the partners, as an operator starts a traffic generator
 * once the receiver is up: `printf '\001' | dd of=/sys/bus/pci/devices/
 * D/config bs=1 seek=240 conv=notrunc` in the guest */
enum { QEMU_PARTNER_START_CFG = 0xF0 };

typedef struct qemu_fn_stats {
    uint64_t cfg_reads, cfg_writes, bar_reads, bar_writes;
    uint64_t bar_off;           /* BAR accesses while memory decoding was off */
    uint16_t device_id;
} qemu_fn_stats;

typedef struct qemu_partner {
    int present;                /* qemu.partner names this port */
    int started;                /* the guest enabled receive on it */
    uint64_t frames, bytes;     /* sent (bytes incl. FCS) */
} qemu_partner;

typedef struct qemu_result {
    int qemu_status;            /* QEMU's exit status (128 + signal when killed) */
    int nfuncs;
    qemu_fn_stats fn[QEMU_MAX_FUNCS];
    uint64_t dma_reads, dma_read_bytes, dma_writes, dma_write_bytes;
    uint64_t master_aborts;     /* DMA outside the guest's RAM */
    uint64_t dma_no_master;     /* DMA while no function had bus mastering on */
    uint64_t sysmem_syncs;      /* SYNC_SYSMEM messages (the guest's memory map) */
    uint64_t tx_frames[QEMU_MAX_FUNCS], cabled[QEMU_MAX_FUNCS];
    uint64_t irq_changes;       /* interrupt line changes: not delivered (no KVM: no irqfd) */
    qemu_partner partner[QEMU_MAX_FUNCS];
    int partner_start_guest;    /* qemu.partner_start = guest */
    uint64_t late;              /* nic_engine_late */
    double sim_s, wall_s;       /* simulated and wall-clock seconds */
    /* accesses to registers the RTL does not implement: the total and the
     * distinct ones in the order first seen */
    uint64_t unmodelled_total;
    int n_unmodelled;
    nic_engine_unmodelled_access unmodelled[QEMU_MAX_UNMODELLED];
} qemu_result;

/* Serve the scenario's card to QEMU started as qemu_argv (NULL-terminated;
 * argv[0] is looked up in PATH), until QEMU exits and closes its sockets.
 * log: one line per notable event (QEMU's start, the end), or NULL.
 * 0 with *r filled (whatever QEMU's status), or -1 with err (the scenario
 * is not one card, QEMU could not start, the protocol broke). */
int qemu_serve(const scenario *sc, char *const *qemu_argv, FILE *log, qemu_result *r, char *err, size_t errlen);

#endif
