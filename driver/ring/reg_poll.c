/* Waiting for a device register; see reg_poll.h. */
#include "reg_poll.h"

#define POLL_FIRST_NS 1000u
#define POLL_MAX_NS   1000000u

static int poll(struct plat_dev *pd, uint32_t reg, uint32_t mask, uint32_t want, uint64_t timeout_ns,
                uint32_t *last, uint64_t *waited_ns, int stoppable)
{
    uint64_t waited = 0, step = POLL_FIRST_NS;
    if (step > timeout_ns)
        step = timeout_ns;
    int met = 0;
    for (;;) {
        plat_delay_ns(pd, step);
        waited += step;
        uint32_t v = plat_read32(pd, reg);
        if (last)
            *last = v;
        if ((v & mask) == want) {
            met = 1;
            break;
        }
        if (waited >= timeout_ns || (stoppable && plat_stop_requested(pd)))
            break;
        step *= 2;
        if (step > POLL_MAX_NS)
            step = POLL_MAX_NS;
        if (step > timeout_ns - waited)
            step = timeout_ns - waited;
    }
    if (waited_ns)
        *waited_ns = waited;
    return met;
}

int reg_poll(struct plat_dev *pd, uint32_t reg, uint32_t mask, uint32_t want, uint64_t timeout_ns,
             uint32_t *last, uint64_t *waited_ns)
{
    return poll(pd, reg, mask, want, timeout_ns, last, waited_ns, 1);
}

int reg_poll_to_end(struct plat_dev *pd, uint32_t reg, uint32_t mask, uint32_t want, uint64_t timeout_ns,
                    uint32_t *last, uint64_t *waited_ns)
{
    return poll(pd, reg, mask, want, timeout_ns, last, waited_ns, 0);
}
