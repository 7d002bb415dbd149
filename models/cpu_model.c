#include "cpu_model.h"
#include <math.h>
#include <string.h>

const char *cpu_cat_name(cpu_cat c)
{
    static const char *const names[CPU_CATS] = {
        "work", "dma_mem", "mmio_write", "mmio_read", "barrier", "irq", "idle",
    };
    return (unsigned)c < CPU_CATS ? names[c] : "?";
}

void cpu_init(cpu *c, int id, const cpu_profile *p, ps_t t0)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    c->prof = *p;
    c->t = t0;
}

ps_t cpu_cycles_ps(const cpu *c, double cycles)
{
    /* rounded, not truncated, so that small costs do not vanish */
    return (ps_t)llround(cycles * 1e6 / c->prof.mhz);
}

void cpu_charge(cpu *c, cpu_cat k, ps_t d)
{
    c->t += d;
    c->cat_ps[k] += d;
}

int cpu_named_index(const cpu *c, const char *name)
{
    for (int i = 0; i < c->prof.n_named; i++)
        if (strcmp(c->prof.named[i].name, name) == 0)
            return i;
    return -1;
}

void cpu_charge_named(cpu *c, int idx)
{
    if (idx < 0 || idx >= c->prof.n_named)
        return;
    ps_t d = cpu_cycles_ps(c, c->prof.named[idx].cycles);
    c->named_ps[idx] += d;
    cpu_charge(c, CPU_CAT_WORK, d);
}

ps_t cpu_busy_ps(const cpu *c)
{
    ps_t s = 0;
    for (int k = 0; k < CPU_CATS; k++)
        if (k != CPU_CAT_IDLE)
            s += c->cat_ps[k];
    return s;
}
