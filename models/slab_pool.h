/* A free list of fixed-size records carved from slabs that go back to the
 * C heap only when the pool is finished.  The bus models take and return a
 * transaction record per bus transaction, millions in a run; a slab keeps
 * that off malloc.  Records come back zeroed.  Out of memory aborts with the
 * owner's name: a simulation cannot go on without its bus records. */
#ifndef NICSIM_SLAB_POOL_H
#define NICSIM_SLAB_POOL_H
#include <stddef.h>

typedef struct slab_pool {
    size_t size;                /* bytes per record (aligned for any type) */
    size_t per_slab;            /* records per slab */
    const char *owner;          /* named in the message when memory runs out */
    void *free_list;            /* linked through each free record's first bytes */
    void **slabs;
    size_t nslabs, cap_slabs;
} slab_pool;

/* size: sizeof the record (at least a pointer); per_slab >= 1. */
void slab_pool_init(slab_pool *p, size_t size, size_t per_slab, const char *owner);
/* A zeroed record. */
void *slab_pool_get(slab_pool *p);
/* Give a record back (it is reused first: last in, first out). */
void slab_pool_put(slab_pool *p, void *rec);
/* Free every slab; the pool may be initialised again. */
void slab_pool_fini(slab_pool *p);

#endif
