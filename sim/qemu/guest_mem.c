/* The guest's RAM regions (guest_mem.h). */
#include "guest_mem.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void guest_mem_free(guest_mem *g)
{
    for (int i = 0; i < g->n; i++)
        munmap(g->r[i].map, g->r[i].size);
    g->n = 0;
}

int guest_mem_sync(guest_mem *g, mpqemu_msg *m, char *err, size_t errlen)
{
    guest_mem_free(g);
    int rc = 0;
    for (int i = 0; i < m->nfds; i++) {
        const mpqemu_sysmem *s = &m->data.sysmem;
        if (!s->size[i])
            continue;
        void *p = mmap(NULL, s->size[i], PROT_READ | PROT_WRITE, MAP_SHARED, m->fds[i], s->offset[i]);
        if (p == MAP_FAILED) {
            snprintf(err, errlen, "mapping guest RAM at %#llx (%llu bytes): %s", (unsigned long long)s->gpa[i],
                     (unsigned long long)s->size[i], strerror(errno));
            rc = -1;
            break;
        }
        g->r[g->n++] = (struct guest_region){ s->gpa[i], s->size[i], p };
    }
    mpqemu_close_fds(m);
    return rc;
}

/* The region holding all of [addr, addr + n), or NULL. */
static const struct guest_region *region_of(const guest_mem *g, uint64_t addr, uint32_t n)
{
    for (int i = 0; i < g->n; i++)
        if (addr >= g->r[i].gpa && addr - g->r[i].gpa <= g->r[i].size && n <= g->r[i].size - (addr - g->r[i].gpa))
            return &g->r[i];
    return NULL;
}

int guest_mem_read(const guest_mem *g, uint64_t addr, void *buf, uint32_t n)
{
    const struct guest_region *r = region_of(g, addr, n);
    if (!r)
        return -1;
    memcpy(buf, r->map + (addr - r->gpa), n);
    return 0;
}

int guest_mem_write(guest_mem *g, uint64_t addr, const void *buf, uint32_t n)
{
    const struct guest_region *r = region_of(g, addr, n);
    if (!r)
        return -1;
    memcpy(r->map + (addr - r->gpa), buf, n);
    return 0;
}
