/* The sink as a system (sim/app_sink.c). */
#ifndef NICSIM_APP_SINK_H
#define NICSIM_APP_SINK_H
#include <stddef.h>
#include "../system/system.h"

int app_sink_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen);
void app_sink_free(nicsim_system *sys);

#endif
