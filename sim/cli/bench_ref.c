/* The bench's reference workload: a fixed, deterministic, single-threaded
 * loop with the simulator's mix of work, timed in the same process right
 * before each benchmark run.  A row's rate divided by the reference's says
 * how fast the simulator is *for this machine at this moment*, so figures
 * measured on different machines, or on one machine under different load,
 * can be compared (docs/testing.md, "Benchmarks").
 *
 * Why not the simulator on a tiny scenario: that would speed up and slow
 * down with the simulator itself and hide exactly what the bench is for.
 * This code is frozen: changing it (or its iteration count) changes every
 * normalised figure, so a change must bump BENCH_REF_VERSION, which the
 * bench prints and writes to its JSON. */
#include "bench_ref.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../models/splitmix64.h"

enum {
    REF_ITERS = 100000,         /* 228 M instructions: about 0.1 s on an idle 2020s x86 core */
    REF_HEAP = 256,             /* pending events, as a busy run's scheduler holds */
    REF_REGS = 96,              /* 64-bit "flops" updated per cycle */
    REF_RING = 1 << 16,         /* bytes of a frame ring (beat copies) */
    REF_TABLE = 1 << 17,        /* 64-bit words of a lookup table: 1 MiB, past L2 */
};

typedef struct ref_ev {
    uint64_t t, seq;
} ref_ev;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int ev_before(const ref_ev *a, const ref_ev *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Replace the heap's earliest event by e (a pop and a push in one sift). */
static void heap_replace_top(ref_ev *h, int n, ref_ev e)
{
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_before(&h[c + 1], &h[c]))
            c++;
        if (!ev_before(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

/* One "clock cycle" of bit-level logic over the registers: loads, shifts,
 * masks and data-dependent branches, as a Verilated model's eval() is. */
static void logic_cycle(uint64_t *r, uint64_t in)
{
    for (int i = 0; i < REF_REGS; i += 4) {
        uint64_t a = r[i], b = r[i + 1], c = r[i + 2], d = r[i + 3];
        uint64_t en = (a ^ in) >> (i & 31);
        if (en & 1) {
            a = (a + (b & 0xFFFF)) ^ (c << 3);
            b = b >> 1 | (a & 1) << 63;
        } else if (en & 2) {
            c = (c & ~0xFFull) | ((d + 1) & 0xFF);
        }
        d = d ^ (a & c) ^ (b | (in >> 7));
        r[i] = a;
        r[i + 1] = b;
        r[i + 2] = c;
        r[i + 3] = d;
    }
}

int bench_ref_run(bench_ref_result *res)
{
    ref_ev *heap = malloc(REF_HEAP * sizeof *heap);
    uint64_t *table = calloc(REF_TABLE, sizeof *table);
    uint8_t *ring = calloc(REF_RING, 1);
    if (!heap || !table || !ring) {
        free(heap);
        free(table);
        free(ring);
        return -1;
    }
    uint64_t rng = 0x6e696373696d3231ull, seq = 0;
    uint64_t regs[REF_REGS];
    for (int i = 0; i < REF_REGS; i++)
        regs[i] = splitmix64(&rng);
    /* a valid heap to start with: times in increasing order */
    for (int i = 0; i < REF_HEAP; i++)
        heap[i] = (ref_ev){ (uint64_t)i * 8000, seq++ };
    uint8_t beat[32] = { 0 };
    uint32_t at = 0;
    uint64_t sum = 0;
    double t0 = now_s();
    for (int it = 0; it < REF_ITERS; it++) {
        /* the scheduler: the earliest event runs and schedules a later one */
        ref_ev top = heap[0];
        uint64_t x = splitmix64(&rng);
        heap_replace_top(heap, REF_HEAP, (ref_ev){ top.t + 1000 + (x & 0xFFFFF), seq++ });
        /* the RTL: a few cycles of logic */
        for (int c = 0; c < 3; c++)
            logic_cycle(regs, x + (uint64_t)c);
        /* the bus and the link: a 32-byte beat copied into a frame ring */
        memcpy(beat, &regs[(x >> 20) % (REF_REGS - 4)], sizeof beat);
        memcpy(ring + at, beat, sizeof beat);
        at = (at + 32) % REF_RING;
        /* the cache model: a lookup and an update at a scattered address */
        uint64_t *w = &table[(x >> 32) % REF_TABLE];
        if (*w & 1)
            sum += *w >> 1;
        *w = *w + (top.t | 1);
    }
    double t1 = now_s();
    for (int i = 0; i < REF_REGS; i++)
        sum ^= regs[i];
    for (int i = 0; i < REF_RING; i += 4096)
        sum += ring[i];
    res->seconds = t1 - t0;
    res->checksum = sum ^ heap[0].t;
    free(heap);
    free(table);
    free(ring);
    return 0;
}
