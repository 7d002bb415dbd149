/* The router system (sim/app_router.c). */
#ifndef NICSIM_APP_ROUTER_H
#define NICSIM_APP_ROUTER_H
#include "../system/system.h"

/* CPUs, ports, RX/TX options and link-partner generators of a router run. */
int app_router_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen);
void app_router_free(nicsim_system *sys);

#endif
