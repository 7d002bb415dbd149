/* Longest-prefix match in DIR-24-8 form, as DPDK's rte_lpm (IPv4) and
 * rte_lpm6 (IPv6) lay it out: a first table indexed by the key's top 24
 * bits, then groups of 256 entries indexed by each further byte.  An IPv4
 * route up to /24 is found with one table access, a longer one with two; an
 * IPv6 /48 with four (the 24-bit table, then bytes 3, 4 and 5).
 *
 * An entry is 32 bits: bit 31 valid, bit 30 "extended" (the value is a group
 * number), bits 29..22 the depth of the route that wrote it, bits 21..0 the
 * next hop or the group.
 *
 * Both tables live in DMA-able (modelled) memory: the lookups are the data
 * plane and read them with plat_mem_read64, so the simulator charges them
 * through its cache model.  lpm_add is the control plane: it writes the
 * tables directly, uncharged, as route setup before traffic. */
#ifndef NICSIM_LPM_H
#define NICSIM_LPM_H
#include <stdint.h>
#include "../plat.h"

#define LPM_TBL24_ENTRIES (1u << 24)
#define LPM_GROUP_ENTRIES 256u
#define LPM_MAX_HOP       ((1u << 22) - 1)
#define LPM_MISS          UINT32_MAX   /* a lookup that found no route */

struct lpm {
    struct plat_dev *pd;
    unsigned key_bytes;        /* 4 (IPv4) or 16 (IPv6) */
    uint32_t *tbl24;           /* LPM_TBL24_ENTRIES, modelled memory */
    uint32_t *groups;          /* max_groups x LPM_GROUP_ENTRIES, modelled memory */
    uint32_t max_groups, used_groups;
    uint32_t routes;
};

struct lpm_stats {
    uint64_t lookups, misses;
    uint64_t entry_reads;      /* table entries read (one per level visited) */
};

/* Tables for keys of key_bytes (4 or 16) with room for max_groups groups
 * (1..LPM_MAX_HOP + 1); 0, or -1 (bad arguments, out of DMA memory). */
int lpm_init(struct lpm *l, struct plat_dev *pd, unsigned key_bytes, uint32_t max_groups);
/* Route key/depth (depth 1..8 x key_bytes; bits beyond it ignored) to
 * next_hop (<= LPM_MAX_HOP).  A longer prefix wins whatever the order of
 * the adds; re-adding a prefix replaces its next hop.  0, or -1 (bad
 * arguments, no group left: the tables are then as before the call only
 * when no group was needed). */
int lpm_add(struct lpm *l, const uint8_t *key, unsigned depth, uint32_t next_hop);

/* The next hop of key (big endian, key_bytes long), or LPM_MISS: one entry
 * read per level, each after the previous one (they depend on each other). */
uint32_t lpm_lookup(const struct lpm *l, const uint8_t *key, struct lpm_stats *st);
/* Four IPv4 keys at once, as DPDK's rte_lpm_lookupx4 (2014): the four
 * 24-bit-table entries read back to back (no prefetch; the core overlaps
 * their misses), then the second level only for the keys whose entry is
 * extended, each after its first entry has arrived.  An IPv4 table only
 * (key_bytes 4). */
void lpm_lookup_x4(const struct lpm *l, const uint8_t *const keys[4], uint32_t hops[4],
                   struct lpm_stats *st);

#endif
