/* Linux ixgbe's interrupt moderation arithmetic; see ixgbe_itr.h. */
#include "ixgbe_itr.h"
#include "ixgbe_regs.h"

int ixgbe_itr_setting(uint32_t rx_usecs, uint32_t *setting)
{
    /* ixgbe_set_coalesce: "if (ec->rx_coalesce_usecs > (IXGBE_MAX_EITR >> 2))
     * return -EINVAL", then values above 1 are shifted by 2 */
    if (rx_usecs > IXGBE_ITR_MAX_USECS)
        return -1;
    *setting = rx_usecs > 1 ? rx_usecs << 2 : rx_usecs;
    return 0;
}

uint32_t ixgbe_itr_initial(uint32_t setting)
{
    /* ixgbe_alloc_q_vector, a vector with an RX ring (the TxRx vectors
     * Linux pairs by default): dynamic mode starts at 20K */
    return setting == IXGBE_ITR_DYNAMIC ? IXGBE_ITR_20K : setting;
}

uint32_t ixgbe_itr_eitr_reg(uint32_t itr)
{
    /* The 82599 branch: CNT_WDIS so that the write neither restarts the
     * interval nor fires an interrupt at once. */
    return (itr & IXGBE_EITR_ITR_INT_MASK) | IXGBE_EITR_CNT_WDIS;
}

uint32_t ixgbe_itr_wthresh(uint32_t itr)
{
    /* With BQL: "if (!q_vector || (q_vector->itr < IXGBE_100K_ITR))
     * txdctl |= (1 << 16); else txdctl |= (8 << 16);" */
    return itr < IXGBE_ITR_100K ? IXGBE_ITR_WTHRESH_LOW : IXGBE_ITR_WTHRESH_HIGH;
}

void ixgbe_itr_update(uint32_t itr, struct ixgbe_itr_container *c)
{
    if (c->total_packets == 0)
        return;
    /* "what was last interrupt timeslice?": the interval, not time measured */
    uint32_t timepassed_us = itr >> 2;
    if (timepassed_us == 0)
        return;
    uint32_t bytes_perint = c->total_bytes / timepassed_us;   /* bytes per us */
    uint8_t r = c->range;
    switch (r) {
    case IXGBE_ITR_LOWEST_LATENCY:
        if (bytes_perint > 10)
            r = IXGBE_ITR_LOW_LATENCY;
        break;
    case IXGBE_ITR_LOW_LATENCY:
        if (bytes_perint > 20)
            r = IXGBE_ITR_BULK_LATENCY;
        else if (bytes_perint <= 10)
            r = IXGBE_ITR_LOWEST_LATENCY;
        break;
    case IXGBE_ITR_BULK_LATENCY:
        if (bytes_perint <= 20)
            r = IXGBE_ITR_LOW_LATENCY;
        break;
    default:
        break;
    }
    c->total_bytes = 0;
    c->total_packets = 0;
    c->range = r;
}

uint32_t ixgbe_itr_target(uint8_t range)
{
    switch (range) {
    case IXGBE_ITR_LOWEST_LATENCY:
        return IXGBE_ITR_100K;
    case IXGBE_ITR_LOW_LATENCY:
        return IXGBE_ITR_20K;
    default:
        return IXGBE_ITR_8K;
    }
}

uint32_t ixgbe_itr_smooth(uint32_t target, uint32_t old)
{
    /* Both at most 0xFF8 << 0 in practice (500 is the largest target, and
     * a fixed setting never gets here), so 10 * t * o fits in 32 bits as in
     * Linux's u32 arithmetic; computed in 64 bits anyway. */
    uint64_t den = 9ull * target + old;
    return den ? (uint32_t)(10ull * target * old / den) : 0;
}

uint32_t ixgbe_itr_set(uint32_t itr, struct ixgbe_itr_container *tx,
                       struct ixgbe_itr_container *rx)
{
    ixgbe_itr_update(itr, tx);
    ixgbe_itr_update(itr, rx);
    uint8_t cur = tx->range > rx->range ? tx->range : rx->range;
    uint32_t target = ixgbe_itr_target(cur);
    return target == itr ? itr : ixgbe_itr_smooth(target, itr);
}
