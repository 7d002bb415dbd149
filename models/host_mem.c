/* Host memory as the devices see it (see host_mem.h).
 *
 * Each region is its own zeroed, aligned heap block.  Bus addresses are handed
 * out by bumping upwards from base, so the region table is sorted by bus
 * address by construction and a lookup is a binary search.  Consecutive
 * regions are separated by an unmapped gap of at least HOST_MEM_GAP bytes so
 * that a DMA running off the end of a buffer lands in no region and is
 * reported as a fault instead of silently hitting the neighbour.
 *
 * Reverse lookups (host pointer -> bus address) use a second table sorted by
 * the blocks' integer addresses: the heap gives no ordering, and comparing
 * unrelated pointers directly is undefined in C. */
#include "host_mem.h"
#include <stdlib.h>
#include <string.h>

/* An overrun of up to a page past a region is caught as a fault. */
#define HOST_MEM_GAP 4096u

typedef struct hm_region {
    uint64_t bus;
    size_t size;
    unsigned char *host;
} hm_region;

struct host_mem {
    uint64_t next_bus;       /* lowest bus address the next region may take */
    hm_region *by_bus;       /* sorted by bus (allocation order) */
    size_t *by_host;         /* indices into by_bus, sorted by host address */
    size_t n, cap;
    size_t bytes;
    int exhausted;           /* bus-address space ran out; no more regions */
    size_t hint;             /* by_bus index of the last region host_mem_bus_addr
                                found: a CPU's accesses come in runs on one
                                buffer (regions are never removed, so an index
                                stays valid) */
};

host_mem *host_mem_new(uint64_t base)
{
    host_mem *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    /* 0 is host_mem_bus_addr()'s "not found", so no region may start there. */
    m->next_bus = base ? base : HOST_MEM_GAP;
    return m;
}

void host_mem_free(host_mem *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->by_bus[i].host);
    free(m->by_bus);
    free(m->by_host);
    free(m);
}

static int grow(host_mem *m)
{
    if (m->n < m->cap)
        return 0;
    size_t cap = m->cap ? m->cap * 2 : 16;
    hm_region *r = realloc(m->by_bus, cap * sizeof *r);
    if (!r)
        return -1;
    m->by_bus = r;
    size_t *h = realloc(m->by_host, cap * sizeof *h);
    if (!h)
        return -1;
    m->by_host = h;
    m->cap = cap;
    return 0;
}

void *host_mem_alloc(host_mem *m, size_t size, size_t align, uint64_t *bus_addr)
{
    if (!m || size == 0 || align < 8 || (align & (align - 1)) || m->exhausted)
        return NULL;
    /* Bus address: next free address rounded up to align, with overflow checks
     * so a huge request cannot wrap the bus-address space. */
    uint64_t a = (uint64_t)align;
    if (m->next_bus > UINT64_MAX - (a - 1))
        return NULL;
    uint64_t bus = (m->next_bus + a - 1) & ~(a - 1);
    if ((uint64_t)size > UINT64_MAX - bus)
        return NULL;
    uint64_t end = bus + size;
    if (grow(m))
        return NULL;
    /* The host block gets the same alignment as the bus address, so data
     * offsets within an aligned unit are identical on both sides. */
    void *p = NULL;
    size_t halign = align < sizeof(void *) ? sizeof(void *) : align;
    if (posix_memalign(&p, halign, size))
        return NULL;
    memset(p, 0, size);

    size_t idx = m->n++;
    m->by_bus[idx] = (hm_region){ bus, size, p };
    /* Insert into the host-address index (insertion keeps it sorted). */
    uintptr_t key = (uintptr_t)p;
    size_t i = idx;
    while (i > 0 && (uintptr_t)m->by_bus[m->by_host[i - 1]].host > key) {
        m->by_host[i] = m->by_host[i - 1];
        i--;
    }
    m->by_host[i] = idx;

    if (end > UINT64_MAX - HOST_MEM_GAP)
        m->exhausted = 1;
    else
        m->next_bus = end + HOST_MEM_GAP;
    m->bytes += size;
    if (bus_addr)
        *bus_addr = bus;
    return p;
}

/* Region containing bus address a, or NULL. */
static const hm_region *find_bus(const host_mem *m, uint64_t a)
{
    size_t lo = 0, hi = m->n;   /* first region with bus > a is at lo */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->by_bus[mid].bus <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const hm_region *r = &m->by_bus[lo - 1];
    return a - r->bus < r->size ? r : NULL;
}

void *host_mem_ptr(host_mem *m, uint64_t bus, size_t n)
{
    /* An empty range still has to name a byte inside a region. */
    if (!m)
        return NULL;
    const hm_region *r = find_bus(m, bus);
    if (!r)
        return NULL;
    uint64_t off = bus - r->bus;
    if ((uint64_t)n > r->size - off)
        return NULL;
    return r->host + off;
}

/* A zero-length access touches no byte, so it succeeds wherever it points. */
int host_mem_read(host_mem *m, uint64_t bus, void *dst, size_t n)
{
    if (n == 0)
        return 0;
    void *p = host_mem_ptr(m, bus, n);
    if (!p)
        return -1;
    memcpy(dst, p, n);
    return 0;
}

int host_mem_write(host_mem *m, uint64_t bus, const void *src, size_t n)
{
    if (n == 0)
        return 0;
    void *p = host_mem_ptr(m, bus, n);
    if (!p)
        return -1;
    memcpy(p, src, n);
    return 0;
}

uint64_t host_mem_bus_addr(host_mem *m, const void *p)
{
    if (!m || !p)
        return 0;
    uintptr_t key = (uintptr_t)p;
    if (m->hint < m->n) {
        const hm_region *h = &m->by_bus[m->hint];
        if (key >= (uintptr_t)h->host && key - (uintptr_t)h->host < h->size)
            return h->bus + (key - (uintptr_t)h->host);
    }
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)m->by_bus[m->by_host[mid]].host <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    const hm_region *r = &m->by_bus[m->by_host[lo - 1]];
    uintptr_t off = key - (uintptr_t)r->host;
    if (off >= r->size)
        return 0;
    m->hint = m->by_host[lo - 1];
    return r->bus + off;
}

size_t host_mem_bytes_allocated(const host_mem *m)
{
    return m ? m->bytes : 0;
}
