/* Interrupt moderation of Linux ixgbe as of late 2014 (3.17/3.18): the
 * arithmetic alone, no register access, so it can be checked number by
 * number (docs/pktgen-napi.md cites each rule; host-facts A2-A4).
 *
 *   - ethtool -C ethX rx-usecs N (ixgbe_set_coalesce): 0 = no moderation,
 *     1 = the dynamic mode (the default), 2..1022 = a fixed interval,
 *     stored as N << 2; above 1022 it is refused.  The register keeps
 *     bits 11:3, so an odd N behaves as N - 1.
 *   - a vector's first ITR (ixgbe_alloc_q_vector): 200 (IXGBE_20K_ITR) in
 *     the dynamic mode for a vector with an RX ring, else the setting.
 *   - the value written to EITR (ixgbe_write_eitr, 82599): itr & 0xFF8 with
 *     CNT_WDIS.
 *   - TXDCTL.WTHRESH (ixgbe_configure_tx_ring with BQL): 1 when the
 *     vector's ITR is below IXGBE_100K_ITR (40, including 0), else 8;
 *     decided when the ring is configured.
 *   - the dynamic update (ixgbe_update_itr per ring container, then
 *     ixgbe_set_itr): bytes per microsecond of the *current* interval pick
 *     a latency range one step at a time; the ranges map to 40/200/500;
 *     a new target is approached by new = 10*t*o / (9*t + o). */
#ifndef NICSIM_IXGBE_ITR_H
#define NICSIM_IXGBE_ITR_H
#include <stdint.h>

/* ixgbe.h: microseconds shifted left by 2 ("to fit itr register with the
 * first 3 bits reserved 0") */
#define IXGBE_ITR_100K      40u
#define IXGBE_ITR_20K       200u
#define IXGBE_ITR_8K        500u
#define IXGBE_ITR_MAX_USECS 1022u     /* IXGBE_MAX_EITR >> 2 */
#define IXGBE_ITR_DYNAMIC   1u        /* rx_itr_setting of the dynamic mode */

/* TXDCTL.WTHRESH values of ixgbe_configure_tx_ring */
#define IXGBE_ITR_WTHRESH_LOW  1u     /* ITR below 100K (or 0) */
#define IXGBE_ITR_WTHRESH_HIGH 8u

enum ixgbe_itr_range {
    IXGBE_ITR_LOWEST_LATENCY = 0,
    IXGBE_ITR_LOW_LATENCY = 1,
    IXGBE_ITR_BULK_LATENCY = 2,
};

/* struct ixgbe_ring_container's moderation fields: the work since the last
 * update and the latency range (0 at allocation: the q_vector is zeroed). */
struct ixgbe_itr_container {
    uint32_t total_bytes;       /* unsigned int in Linux: it wraps the same way */
    uint32_t total_packets;
    uint8_t range;              /* enum ixgbe_itr_range */
};

/* rx-usecs -> rx_itr_setting: 0 and 1 as they are, N >= 2 as N << 2.
 * Returns -1 (and leaves *setting) for N > 1022, as ixgbe_set_coalesce
 * refuses it with -EINVAL. */
int ixgbe_itr_setting(uint32_t rx_usecs, uint32_t *setting);

/* The vector's first q_vector->itr for a setting. */
uint32_t ixgbe_itr_initial(uint32_t setting);

/* EITR(v) as ixgbe_write_eitr writes it on the 82599. */
uint32_t ixgbe_itr_eitr_reg(uint32_t itr);

/* TXDCTL.WTHRESH for a vector whose ITR is itr when the ring is set up. */
uint32_t ixgbe_itr_wthresh(uint32_t itr);

/* ixgbe_update_itr: with itr the vector's current ITR.  No packets, or an
 * ITR of 0: nothing changes (the counters keep accumulating).  Otherwise
 * the range moves at most one step and the counters are cleared. */
void ixgbe_itr_update(uint32_t itr, struct ixgbe_itr_container *c);

/* The ITR a range asks for: 40, 200, 500. */
uint32_t ixgbe_itr_target(uint8_t range);

/* The exponential smoothing of ixgbe_set_itr: 10*t*o / (9*t + o), integer. */
uint32_t ixgbe_itr_smooth(uint32_t target, uint32_t old);

/* ixgbe_set_itr over the vector's TX and RX containers: both updated, the
 * larger range's target, smoothed when it differs from itr.  Returns the
 * new ITR (== itr when nothing changes, and then EITR is not written). */
uint32_t ixgbe_itr_set(uint32_t itr, struct ixgbe_itr_container *tx,
                       struct ixgbe_itr_container *rx);

#endif
