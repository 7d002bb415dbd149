/* The NIC personalities a scenario can name (nic.model): one table entry
 * each, with everything the simulator and nicsim-hw need to know of it --
 * the bus it sits on, its RTL model, and its driver core (the port's
 * bring-up, queues, interrupts, counter registers and teardown: struct
 * nic_port_core) with the scenario keys that set that core's options.
 * Adding a personality is its RTL, its driver core with a port file
 * (driver/port/) and one line of personality.c. */
#ifndef NICSIM_PERSONALITY_H
#define NICSIM_PERSONALITY_H
#include "scenario.h"
#include "../device/nic_rtl.h"
#include "../../driver/port/nic_port.h"

/* The host bus a personality's card sits on. */
typedef enum nic_bus_kind {
    NIC_BUS_PCIX,               /* a PCI-X segment of its own ([bus] keys) */
    NIC_BUS_PCIE,               /* a PCIe link ([pcie] keys) */
} nic_bus_kind;

typedef struct nic_personality {
    const char *model;          /* its nic.model value: "82546" */
    const char *title;          /* as a report names the card: "82546 (PCI-X)" */
    nic_bus_kind bus;
    enum nic_rtl_model rtl;     /* the Verilated top (sim/device/nic_rtl.h) */
    int rtl_one_port;           /* a build with port 0 only exists (nic.rtl_ports = auto
                                   uses it when no app drives port 1) */
    int adv_descriptors;        /* RX write-backs in the advanced format (the faulty-
                                   device mode corrupts their fields) */
    const struct nic_port_core *port;
    /* the scenario's options for a port of this core (port->opts_size bytes) */
    void (*port_options)(const scenario *sc, void *opts);
} nic_personality;

/* The entry for nic.model = model; NULL when there is none. */
const nic_personality *nic_personality_find(const char *model);
/* The models whose driver core is core, as "82546" or "82546, 82574". */
void nic_personality_models_of(const struct nic_port_core *core, char *out, size_t n);
/* The entry of the scenario's nic.model (the schema admits only the table's
 * models, so never NULL for a loaded scenario). */
const nic_personality *nic_personality_of(const scenario *sc);

#endif
