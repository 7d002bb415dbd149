/* The link partner that sends to a NIC port (sim/system/link_partner.c). */
#ifndef NICSIM_LINK_PARTNER_H
#define NICSIM_LINK_PARTNER_H
#include <stddef.h>
#include "system.h"

/* The generator of port sp from the [gen] keys (gen.eth2_kpps for eth2).
 * 0, or -1 with the message in err. */
int link_partner_create(nicsim_system *sys, sim_port *sp, char *err, size_t errlen);
/* The same in two steps, for an app that changes the generator's
 * configuration (its traffic pattern) before it is made. */
void link_partner_cfg(const nicsim_system *sys, const sim_port *sp, link_gen_cfg *cfg);
/* The [gen] configuration of the partner of port eth<index>, for a front
 * end without a system (nicsim qemu). */
void link_partner_cfg_of(const scenario *sc, int index, link_gen_cfg *cfg);
/* The station address of the simulation's port `index` (2 * card + port):
 * 02:00:00:00:00:(0x20 + index), what the card's EEPROM holds (card.c) and
 * what the port's link partner sends to. */
void link_partner_station_mac(int index, uint8_t mac[6]);
int link_partner_create_cfg(sim_port *sp, const link_gen_cfg *cfg, char *err, size_t errlen);
/* Start sending: the first frame gen.start_us after `up`, the time the CPU
 * serving the port had brought it up (an operator starts the traffic once
 * the receiver is up). */
void link_partner_go(sim_port *sp, ps_t up);
/* A frame of port sp's partner has fully arrived at t_end: the first and
 * last arrival times the apps' end and the report use. */
void link_partner_arrived(sim_port *sp, ps_t t_end);

#endif
