/* Slab free list of fixed-size records; see slab_pool.h. */
#include "slab_pool.h"
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void slab_pool_init(slab_pool *p, size_t size, size_t per_slab, const char *owner)
{
    size_t a = alignof(max_align_t);
    if (size < sizeof(void *))
        size = sizeof(void *);
    *p = (slab_pool){
        .size = (size + a - 1) / a * a,
        .per_slab = per_slab ? per_slab : 1,
        .owner = owner,
    };
}

static void die(const char *owner)
{
    perror(owner);
    abort();
}

void *slab_pool_get(slab_pool *p)
{
    if (!p->free_list) {
        if (p->nslabs == p->cap_slabs) {
            size_t cap = p->cap_slabs ? p->cap_slabs * 2 : 8;
            void **s = realloc(p->slabs, cap * sizeof *s);
            if (!s)
                die(p->owner);
            p->slabs = s;
            p->cap_slabs = cap;
        }
        unsigned char *slab = malloc(p->per_slab * p->size);
        if (!slab)
            die(p->owner);
        p->slabs[p->nslabs++] = slab;
        for (size_t i = 0; i < p->per_slab; i++)
            slab_pool_put(p, slab + i * p->size);
    }
    void *rec = p->free_list;
    memcpy(&p->free_list, rec, sizeof p->free_list);
    memset(rec, 0, p->size);
    return rec;
}

void slab_pool_put(slab_pool *p, void *rec)
{
    memcpy(rec, &p->free_list, sizeof p->free_list);
    p->free_list = rec;
}

void slab_pool_fini(slab_pool *p)
{
    for (size_t i = 0; i < p->nslabs; i++)
        free(p->slabs[i]);
    free(p->slabs);
    p->slabs = NULL;
    p->nslabs = p->cap_slabs = 0;
    p->free_list = NULL;
}
