/* The router app (sim/apps/app_router.c): its entry of the app table. */
#ifndef NICSIM_APP_ROUTER_H
#define NICSIM_APP_ROUTER_H
#include "app.h"

extern const app app_router;

#endif
