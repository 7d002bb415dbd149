/* Waiting for a device register, shared by the e1000 and ixgbe cores:
 * a reset bit that clears itself, a link that comes up, a queue enable
 * that the hardware acknowledges. */
#ifndef NICSIM_REG_POLL_H
#define NICSIM_REG_POLL_H
#include "../plat.h"

/* Poll reg until (value & mask) == want, waiting with plat_delay_ns before
 * every read: 1 us, doubling up to 1 ms, so a 10 s bound costs about ten
 * thousand reads, not millions.  It gives up when timeout_ns has passed or
 * the platform stops the run (plat_stop_requested: a signal on hardware,
 * system.max_sim_us in the simulator), whichever comes first.  The last
 * value read goes to *last and the time waited to *waited_ns (either may
 * be NULL).  1 = condition met, 0 = gave up. */
int reg_poll(struct plat_dev *pd, uint32_t reg, uint32_t mask, uint32_t want, uint64_t timeout_ns,
             uint32_t *last, uint64_t *waited_ns);

/* The same, but waiting the whole bound even when the run is being
 * stopped: taking a queue down must see it off before its ring memory is
 * given back, or the device could still write into it. */
int reg_poll_to_end(struct plat_dev *pd, uint32_t reg, uint32_t mask, uint32_t want, uint64_t timeout_ns,
                    uint32_t *last, uint64_t *waited_ns);

#endif
