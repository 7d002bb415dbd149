/* The Linux user-space backend of driver/plat.h: a physical NIC opened by
 * hw_nic_open.  MMIO is a volatile access to the mapped BAR0, shared memory
 * is plain memory (volatile where the device writes it), the barriers are
 * the CPU's fence instructions, time is CLOCK_MONOTONIC (the TSC through the
 * vDSO on x86), and an interrupt wait is a ppoll on the uio or vfio file
 * descriptor.  Named costs and touches cost what the real code costs:
 * nothing extra. */
#include "../plat.h"
#include "hw_nic.h"
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint32_t plat_read32(struct plat_dev *d, uint32_t reg)
{
    return *(volatile uint32_t *)(d->bar0 + reg);
}

void plat_write32(struct plat_dev *d, uint32_t reg, uint32_t val)
{
    *(volatile uint32_t *)(d->bar0 + reg) = val;
}

void *plat_dma_alloc(struct plat_dev *d, size_t size, size_t align, uint64_t *bus_addr)
{
    return dma_region_alloc(&d->dma, size, align, bus_addr);
}

uint64_t plat_mem_read64(struct plat_dev *d, const void *p)
{
    (void)d;
    return *(const volatile uint64_t *)p;
}

void plat_mem_write64(struct plat_dev *d, void *p, uint64_t v)
{
    (void)d;
    *(volatile uint64_t *)p = v;
}

void plat_mem_copy_to(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    (void)d;
    memcpy(dst, src, n);
}

void plat_mem_copy_from(struct plat_dev *d, void *dst, const void *src, size_t n)
{
    (void)d;
    memcpy(dst, src, n);
}

void plat_mem_touch(struct plat_dev *d, const void *p, size_t n, int write)
{
    (void)d, (void)p, (void)n, (void)write;
}

/* The real core waits by itself. */
void plat_mem_wait(struct plat_dev *d, const void *p)
{
    (void)d, (void)p;
}

/* x86: the fence instruction Linux's wmb/rmb/mb compile to; elsewhere the
 * compiler's full barrier. */
#if defined(__x86_64__) || defined(__i386__)
#define CPU_FENCE(insn) __asm__ volatile(insn ::: "memory")
#else
#define CPU_FENCE(insn) __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

void plat_wmb(struct plat_dev *d)
{
    (void)d;
    CPU_FENCE("sfence");
}

void plat_rmb(struct plat_dev *d)
{
    (void)d;
    CPU_FENCE("lfence");
}

void plat_mb(struct plat_dev *d)
{
    (void)d;
    CPU_FENCE("mfence");
}

void plat_prefetch(struct plat_dev *d, const void *p)
{
    (void)d;
    __builtin_prefetch(p, 0, 3);
}

plat_cost plat_cost_id(struct plat_dev *d, const char *name)
{
    (void)d, (void)name;
    return 0;
}

void plat_charge(struct plat_dev *d, plat_cost c)
{
    (void)d, (void)c;
}

void plat_count_packets(struct plat_dev *d, uint64_t n)
{
    d->packets += n;
}

uint64_t plat_now_ns(struct plat_dev *d)
{
    (void)d;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int plat_stop_requested(struct plat_dev *d)
{
    return d->stop && *d->stop;
}

/* Sleep when the wait is long enough for the scheduler, spin otherwise. */
void plat_delay_ns(struct plat_dev *d, uint64_t ns)
{
    if (ns >= 50000) {
        struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        return;
    }
    uint64_t end = plat_now_ns(d) + ns;
    while (plat_now_ns(d) < end)
        ;
}

/* Let the interrupt fire again: uio and vfio mask INTx each time it fires.
 * Unmasked only after it fired, so a wait costs no extra system call. */
static void irq_rearm(struct plat_dev *d)
{
    if (!d->irq_masked)
        return;
    int rc = d->mode == HW_MODE_VFIO ? vfio_nic_unmask_intx(&d->vfio) : uio_nic_unmask_intx(&d->uio);
    if (rc != 0)
        plat_log(d, "unmasking the interrupt failed: %s", strerror(errno));
    d->irq_masked = 0;
}

/* Consume the interrupt event (uio: a 4-byte count; eventfd: 8 bytes). */
static void irq_consume(struct plat_dev *d)
{
    uint64_t n;
    if (read(d->irq_fd, &n, d->mode == HW_MODE_VFIO ? 8 : 4) < 0 && errno != EAGAIN)
        plat_log(d, "reading the interrupt event failed: %s", strerror(errno));
    d->irq_masked = 1;
}

int plat_irq_wait_any(struct plat_dev *const *d, int n, uint64_t timeout_ns)
{
    if (n < 1)
        return -1;
    if (d[0]->poll) {
        /* pure polling: every wait "sees" an interrupt at once, in turn, and
         * the driver's handler finds out whether there is work */
        int i = (int)(d[0]->poll_next++ % (unsigned)n);
        d[i]->irqs++;
        return i;
    }
    struct pollfd pf[16];
    if (n > 16)
        n = 16;
    for (int i = 0; i < n; i++) {
        irq_rearm(d[i]);
        pf[i] = (struct pollfd){ .fd = d[i]->irq_fd, .events = POLLIN };
    }
    struct timespec ts = { (time_t)(timeout_ns / 1000000000ull), (long)(timeout_ns % 1000000000ull) };
    int r;
    while ((r = ppoll(pf, (nfds_t)n, &ts, NULL)) < 0 && errno == EINTR)
        ;
    if (r <= 0) {
        d[0]->irq_timeouts++;
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (pf[i].revents & POLLIN) {
            irq_consume(d[i]);
            d[i]->irqs++;
            return i;
        }
    return -1;
}

void plat_irq_msg(struct plat_dev *d)
{
    /* uio and vfio deliver interrupts through a counter or an eventfd: an
     * interrupt that fired while nobody waited is already kept */
    (void)d;
}

int plat_irq_wait(struct plat_dev *d, uint64_t timeout_ns)
{
    return plat_irq_wait_any(&d, 1, timeout_ns) == 0;
}

void plat_log(struct plat_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nicsim-hw: %s (%s): ", d->ifname, d->bdf);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
