#include "nic_mem_port.h"

static int host_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    (void)t;
    return host_mem_read(ctx, addr, dst, n);
}

static int host_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    (void)t;
    return host_mem_write(ctx, addr, src, n);
}

nic_mem_port nic_mem_port_host(host_mem *mem)
{
    return (nic_mem_port){ .ctx = mem, .read = host_read, .write = host_write };
}
