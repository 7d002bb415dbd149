/* splitmix64 (Steele, Lea, Flood 2014): a small, well-mixed PRNG for the
 * simulator's seeded choices (flow permutation, faulty-device mode) and the
 * tests' random streams; the same seed gives the same stream everywhere. */
#ifndef NICSIM_SPLITMIX64_H
#define NICSIM_SPLITMIX64_H
#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
#endif
