/* The pktgen app (sim/apps/app_pktgen.c): its entry of the app table. */
#ifndef NICSIM_APP_PKTGEN_H
#define NICSIM_APP_PKTGEN_H
#include "app.h"

extern const app app_pktgen;

#endif
