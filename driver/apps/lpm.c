#include "lpm.h"
#include <string.h>

#define E_VALID (1u << 31)
#define E_EXT   (1u << 30)
#define E_DEPTH_SHIFT 22
#define E_VALUE_MASK ((1u << 22) - 1)

static uint32_t leaf(unsigned depth, uint32_t hop)
{
    return E_VALID | (uint32_t)depth << E_DEPTH_SHIFT | hop;
}

static unsigned depth_of(uint32_t e)
{
    return (e >> E_DEPTH_SHIFT) & 0xffu;
}

int lpm_init(struct lpm *l, struct plat_dev *pd, unsigned key_bytes, uint32_t max_groups)
{
    if (!l || (key_bytes != 4 && key_bytes != 16) || max_groups == 0 || max_groups > LPM_MAX_HOP + 1u)
        return -1;
    memset(l, 0, sizeof *l);
    l->pd = pd;
    l->key_bytes = key_bytes;
    l->max_groups = max_groups;
    uint64_t bus;
    l->tbl24 = plat_dma_alloc(pd, (size_t)LPM_TBL24_ENTRIES * 4, 64, &bus);
    l->groups = plat_dma_alloc(pd, (size_t)max_groups * LPM_GROUP_ENTRIES * 4, 64, &bus);
    return l->tbl24 && l->groups ? 0 : -1;
}

/* Bits [first, first + n) of key, n <= 24, big endian. */
static uint32_t key_bits(const uint8_t *key, unsigned first, unsigned n)
{
    uint32_t v = 0;
    for (unsigned b = first / 8; b < (first + n + 7) / 8; b++)
        v = v << 8 | key[b];
    unsigned have = ((first + n + 7) / 8 - first / 8) * 8;
    return (v >> (have - (first - first / 8 * 8) - n)) & ((1u << n) - 1);
}

/* A route of depth whose prefix covers the entry e: e gets it unless a
 * longer route already holds it; in a group every entry is considered. */
static void cover(struct lpm *l, uint32_t *e, unsigned depth, uint32_t hop)
{
    if (*e & E_EXT) {
        uint32_t *g = l->groups + (size_t)(*e & E_VALUE_MASK) * LPM_GROUP_ENTRIES;
        for (unsigned i = 0; i < LPM_GROUP_ENTRIES; i++)
            cover(l, &g[i], depth, hop);
    } else if (!(*e & E_VALID) || depth_of(*e) <= depth) {
        *e = leaf(depth, hop);
    }
}

/* The level whose entries are tbl, indexed by key bits [first, first + bits). */
static int add_at(struct lpm *l, uint32_t *tbl, unsigned first, unsigned bits, const uint8_t *key,
                  unsigned depth, uint32_t hop)
{
    uint32_t idx = key_bits(key, first, bits);
    unsigned end = first + bits;
    if (depth <= end) {
        uint32_t span = 1u << (end - depth);
        for (uint32_t k = idx & ~(span - 1); k < (idx & ~(span - 1)) + span; k++)
            cover(l, &tbl[k], depth, hop);
        return 0;
    }
    uint32_t *e = &tbl[idx];
    if (!(*e & E_EXT)) {
        if (l->used_groups == l->max_groups)
            return -1;
        uint32_t g = l->used_groups++;
        uint32_t *grp = l->groups + (size_t)g * LPM_GROUP_ENTRIES;
        for (unsigned i = 0; i < LPM_GROUP_ENTRIES; i++)
            grp[i] = *e;            /* what the shorter route said, for every longer key */
        *e = E_VALID | E_EXT | g;
    }
    return add_at(l, l->groups + (size_t)(*e & E_VALUE_MASK) * LPM_GROUP_ENTRIES, end, 8, key, depth, hop);
}

int lpm_add(struct lpm *l, const uint8_t *key, unsigned depth, uint32_t next_hop)
{
    if (!l || !key || depth < 1 || depth > 8 * l->key_bytes || next_hop > LPM_MAX_HOP)
        return -1;
    if (add_at(l, l->tbl24, 0, 24, key, depth, next_hop) != 0)
        return -1;
    l->routes++;
    return 0;
}

/* Entry i of a table, read as the data plane reads it. */
static uint32_t read_entry(const struct lpm *l, const uint32_t *tbl, uint32_t i)
{
    const uint32_t *p = tbl + (i & ~1u);
    uint64_t q = plat_mem_read64(l->pd, p);
    return (uint32_t)(i & 1 ? q >> 32 : q);
}

/* The next level's entry is found from an extended entry's value: its read
 * waits for the entry at tbl[i] (the level's chain is a pointer chase). */
static void wait_entry(const struct lpm *l, const uint32_t *tbl, uint32_t i)
{
    plat_mem_wait(l->pd, tbl + (i & ~1u));
}

uint32_t lpm_lookup(const struct lpm *l, const uint8_t *key, struct lpm_stats *st)
{
    const uint32_t *tbl = l->tbl24;
    uint32_t i = key_bits(key, 0, 24);
    uint32_t e = read_entry(l, tbl, i);
    st->lookups++;
    st->entry_reads++;
    for (unsigned b = 3; (e & E_EXT) && b < l->key_bytes; b++) {
        wait_entry(l, tbl, i);
        tbl = l->groups + (size_t)(e & E_VALUE_MASK) * LPM_GROUP_ENTRIES;
        i = key[b];
        e = read_entry(l, tbl, i);
        st->entry_reads++;
    }
    if (!(e & E_VALID) || (e & E_EXT)) {
        st->misses++;
        return LPM_MISS;
    }
    return e & E_VALUE_MASK;
}

void lpm_lookup_x4(const struct lpm *l, const uint8_t *const keys[4], uint32_t hops[4],
                   struct lpm_stats *st)
{
    uint32_t e[4], idx[4];
    /* The four tbl24 loads are issued one after the other, none waiting
     * for another (rte_lpm_lookupx4's scalar loads into one vector): an
     * out-of-order core overlaps their misses. */
    for (unsigned k = 0; k < 4; k++) {
        idx[k] = key_bits(keys[k], 0, 24);
        e[k] = read_entry(l, l->tbl24, idx[k]);
        st->entry_reads++;
    }
    for (unsigned k = 0; k < 4; k++) {
        if (e[k] & E_EXT) {
            /* a route longer than /24: the group's entry, found from this one */
            wait_entry(l, l->tbl24, idx[k]);
            e[k] = read_entry(l, l->groups + (size_t)(e[k] & E_VALUE_MASK) * LPM_GROUP_ENTRIES, keys[k][3]);
            st->entry_reads++;
        }
        st->lookups++;
        if (!(e[k] & E_VALID) || (e[k] & E_EXT)) {
            st->misses++;
            hops[k] = LPM_MISS;
        } else {
            hops[k] = e[k] & E_VALUE_MASK;
        }
    }
}
