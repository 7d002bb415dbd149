/* The sink app (sim/apps/app_sink.c): its entry of the app table. */
#ifndef NICSIM_APP_SINK_H
#define NICSIM_APP_SINK_H
#include "app.h"

extern const app app_sink;

#endif
