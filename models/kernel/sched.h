/* Discrete-event scheduler: one global time in picoseconds.
 * Events at equal times run in the order they were scheduled (a sequence
 * number breaks ties), so every run of a scenario is identical. */
#ifndef NICSIM_SCHED_H
#define NICSIM_SCHED_H
#include <stdint.h>
#include <stddef.h>

typedef uint64_t ps_t;
#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull
#define PS_PER_S  1000000000000ull
#define PS_NEVER  UINT64_MAX

typedef void (*sched_fn)(void *ctx, uint64_t arg);

typedef struct sched_event {
    ps_t t;
    uint64_t seq;
    sched_fn fn;
    void *ctx;
    uint64_t arg;
} sched_event;

typedef struct sched {
    ps_t now;
    uint64_t next_seq;
    sched_event *heap;
    size_t len, cap;
    uint64_t events_run;
} sched;

void sched_init(sched *s);
void sched_free(sched *s);
/* Schedule fn(ctx, arg) at time t; t earlier than now is clamped to now. */
void sched_at(sched *s, ps_t t, sched_fn fn, void *ctx, uint64_t arg);
/* Time of the earliest pending event, PS_NEVER when there is none. */
ps_t sched_next_time(const sched *s);
/* Pop and run the earliest event if its time is <= limit; returns 1 if one ran. */
int sched_run_one(sched *s, ps_t limit);
/* Run every event with time <= t, then set now = t (if t > now). */
void sched_run_until(sched *s, ps_t t);

#endif
