/* Where a card's DMA data goes: host memory in the C harness (with the
 * CPUs' caches snooped), a TLM initiator socket in the SystemC module
 * (sim/systemc/).  One call per bus transaction: a read piece as the bus
 * delivers it, a write as it completes, at that time t.  Both return 0, or
 * -1 for a master abort (the address is not memory). */
#ifndef NICSIM_NIC_MEM_PORT_H
#define NICSIM_NIC_MEM_PORT_H
#include <stdint.h>
#include "../../models/kernel/sched.h"
#include "../../models/host_mem.h"

typedef struct nic_mem_port {
    void *ctx;
    int (*read)(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t);
    int (*write)(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t);
} nic_mem_port;

/* The port that reads and writes host memory directly (ctx: the host_mem). */
nic_mem_port nic_mem_port_host(host_mem *mem);

#endif
