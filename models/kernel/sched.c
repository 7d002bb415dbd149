#include "sched.h"
#include <stdlib.h>
#include <stdio.h>

static int ev_before(const sched_event *a, const sched_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void sched_init(sched *s)
{
    s->now = 0;
    s->next_seq = 0;
    s->heap = NULL;
    s->len = s->cap = 0;
    s->events_run = 0;
}

void sched_free(sched *s)
{
    free(s->heap);
    s->heap = NULL;
    s->len = s->cap = 0;
}

void sched_at(sched *s, ps_t t, sched_fn fn, void *ctx, uint64_t arg)
{
    if (t < s->now)
        t = s->now;
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->heap = realloc(s->heap, s->cap * sizeof *s->heap);
        if (!s->heap) {
            perror("nicsim: scheduler");
            abort();
        }
    }
    sched_event e = { t, s->next_seq++, fn, ctx, arg };
    size_t i = s->len++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_before(&e, &s->heap[p]))
            break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
}

ps_t sched_next_time(const sched *s)
{
    return s->len ? s->heap[0].t : PS_NEVER;
}

static sched_event pop(sched *s)
{
    sched_event top = s->heap[0];
    sched_event last = s->heap[--s->len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->len)
            break;
        if (c + 1 < s->len && ev_before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!ev_before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->len)
        s->heap[i] = last;
    return top;
}

int sched_run_one(sched *s, ps_t limit)
{
    if (!s->len || s->heap[0].t > limit)
        return 0;
    sched_event e = pop(s);
    if (e.t > s->now)
        s->now = e.t;
    s->events_run++;
    e.fn(e.ctx, e.arg);
    return 1;
}

void sched_run_until(sched *s, ps_t t)
{
    while (sched_run_one(s, t))
        ;
    if (t > s->now && t != PS_NEVER)
        s->now = t;
}
