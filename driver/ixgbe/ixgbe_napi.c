/* Linux 3.18 ixgbe's queue vector with the combined NAPI poll; see
 * ixgbe_napi.h. */
#include "ixgbe_napi.h"

/* The one queue vector: vector 0, EICR bit 0 (rtl/ixgbe_intr.v's fixed
 * mapping of queue 0). */
#define VECTOR_BIT 1u

void ixgbe_napi_default_opts(struct ixgbe_napi_opts *o)
{
    *o = (struct ixgbe_napi_opts){
        .rx_usecs = IXGBE_ITR_DYNAMIC,
        .tx_work_limit = IXGBE_NAPI_TX_WORK,
        .desc_needed = IXGBE_NAPI_DESC_NEEDED,
        .wake_thresh = IXGBE_NAPI_WAKE_THRESH,
    };
}

int ixgbe_napi_wthresh(const struct ixgbe_napi_opts *o, uint8_t *wthresh)
{
    uint32_t setting;
    if (!o || ixgbe_itr_setting(o->rx_usecs, &setting) != 0 || o->tx_work_limit < 1 ||
        o->desc_needed < IXGBE_NAPI_XMIT_SLACK + 1 || o->wake_thresh < o->desc_needed)
        return IXGBE_ERR_PARAM;
    *wthresh = (uint8_t)ixgbe_itr_wthresh(ixgbe_itr_initial(setting));
    return 0;
}

static void track_itr(struct ixgbe_napi *n)
{
    if (n->itr < n->stats.itr_min)
        n->stats.itr_min = n->itr;
    if (n->itr > n->stats.itr_max)
        n->stats.itr_max = n->itr;
}

int ixgbe_napi_init(struct ixgbe_napi *n, struct ixgbe_dev *dev, struct ixgbe_txq *txq,
                    const struct ixgbe_napi_opts *o)
{
    struct ixgbe_napi_opts def;
    if (!o) {
        ixgbe_napi_default_opts(&def);
        o = &def;
    }
    uint8_t wth;
    if (!n || !dev || !txq || !txq->slot || ixgbe_napi_wthresh(o, &wth) != 0)
        return IXGBE_ERR_PARAM;
    /* the clean is ixgbe_clean_tx_irq's: DD of every packet's EOP */
    const struct ixgbe_tx_opts *t = &txq->opts;
    if (t->head_wb || t->clean_batch || t->rs_by_index || t->rs_every != 1 ||
        o->wake_thresh >= txq->count)
        return IXGBE_ERR_PARAM;
    *n = (struct ixgbe_napi){ .dev = dev, .txq = txq, .pd = dev->pd, .opts = *o };
    (void)ixgbe_itr_setting(o->rx_usecs, &n->itr_setting);
    n->itr = ixgbe_itr_initial(n->itr_setting);
    n->stats.itr_first = n->stats.itr_min = n->stats.itr_max = n->itr;
    n->c_poll = plat_cost_id(n->pd, "napi_poll");

    /* ixgbe_configure_msix: the vector's EITR, then EIAC = the queue
     * causes (auto-clear); ixgbe_setup_gpie: GPIE (MSI-X mode, PBA support,
     * EIAME) and EIAM_EX(0) = all ones (auto-mask); ixgbe_irq_enable: EIMS.
     * IVAR is not modelled (queue 0 is wired to bit 0). */
    plat_write32(n->pd, IXGBE_EITR(0), ixgbe_itr_eitr_reg(n->itr));
    plat_write32(n->pd, IXGBE_EIAC, IXGBE_EICR_RTX_QUEUE_MASK);
    plat_write32(n->pd, IXGBE_GPIE,
                 IXGBE_GPIE_MSIX_MODE | IXGBE_GPIE_PBA_SUPPORT | IXGBE_GPIE_EIAME);
    plat_write32(n->pd, IXGBE_EIAM_EX(0), 0xFFFFFFFFu);
    plat_irq_msg(n->pd);
    plat_write32(n->pd, IXGBE_EIMS, VECTOR_BIT);
    return 0;
}

int ixgbe_napi_stopped(const struct ixgbe_napi *n)
{
    return n->stopped;
}

/* ixgbe_maybe_stop_tx: 0 when size descriptors are free (or appeared after
 * the stop's barrier: the reprieve), -1 with the queue stopped. */
static int maybe_stop(struct ixgbe_napi *n, unsigned size)
{
    if (ixgbe_tx_free_descs(n->txq) >= size)
        return 0;
    n->stopped = 1;
    n->stats.stops++;
    /* "Memory barrier before checking head and tail": a clean on another
     * CPU may have freed room meanwhile (never on this one CPU) */
    plat_mb(n->pd);
    if (ixgbe_tx_free_descs(n->txq) < size)
        return -1;
    n->stopped = 0;
    n->stats.restarts++;
    return 0;
}

int ixgbe_napi_xmit(struct ixgbe_napi *n, uint64_t bus, uint32_t len, void *cookie, int more)
{
    if (n->stopped)
        return IXGBE_ERR_BUSY;      /* the stack does not call a stopped queue */
    if (len == 0 || len > n->txq->opts.max_frame_len)
        return IXGBE_ERR_PARAM;
    unsigned count = ixgbe_tx_descs_for(n->txq, len);
    if (maybe_stop(n, count + IXGBE_NAPI_XMIT_SLACK) != 0) {
        n->stats.busy++;
        return IXGBE_ERR_BUSY;
    }
    /* The stop decision of tx_map comes before its tail decision, so a
     * packet that stops the queue always writes the tail.  The core writes
     * the descriptors and then the tail; the stop's barrier follows (Linux
     * has it just before the tail write: the same work in another order). */
    int stop = ixgbe_tx_free_descs(n->txq) - count < n->opts.desc_needed;
    int rc = ixgbe_xmit(n->txq, bus, len, cookie, more && !stop);
    if (rc != 0)
        return rc;                  /* cannot be BUSY: count + 3 were free */
    if (stop)
        (void)maybe_stop(n, n->opts.desc_needed);
    return 0;
}

void ixgbe_napi_irq(struct ixgbe_napi *n)
{
    /* ixgbe_msix_clean_rings: EIAC/EIAM already cleared and masked the
     * vector; napi_schedule */
    n->stats.irqs++;
    n->scheduled = 1;
    n->run = 0;
}

int ixgbe_napi_poll(struct ixgbe_napi *n, void (*done)(void *arg, void *cookie), void *arg)
{
    if (!n->scheduled)
        return 0;
    plat_charge(n->pd, n->c_poll);
    n->stats.polls++;
    if (++n->run > n->stats.max_run)
        n->stats.max_run = n->run;

    /* ixgbe_clean_tx_irq */
    uint64_t bytes = 0;
    int got = ixgbe_tx_clean_budget(n->txq, n->opts.tx_work_limit, done, arg, &bytes);
    unsigned cleaned = got > 0 ? (unsigned)got : 0;
    n->tx.total_bytes += (uint32_t)bytes;
    n->tx.total_packets += cleaned;
    n->stats.tx_cleaned += cleaned;
    if (cleaned && ixgbe_tx_free_descs(n->txq) >= n->opts.wake_thresh) {
        /* "Make sure that anybody stopping the queue after this sees the
         * new next_to_clean" */
        plat_mb(n->pd);
        if (n->stopped) {
            n->stopped = 0;
            n->stats.wakes++;
        }
    }
    if (cleaned >= n->opts.tx_work_limit) {
        n->stats.full_polls++;
        return 1;                   /* the budget is spent: poll again */
    }

    /* napi_complete; ixgbe_set_itr in the dynamic mode; re-enable */
    n->scheduled = 0;
    n->stats.completes++;
    if (n->itr_setting & 1) {
        uint32_t itr = ixgbe_itr_set(n->itr, &n->tx, &n->rx);
        if (itr != n->itr) {
            n->itr = itr;
            track_itr(n);
            plat_write32(n->pd, IXGBE_EITR(0), ixgbe_itr_eitr_reg(itr));
            n->stats.eitr_writes++;
        }
    }
    plat_write32(n->pd, IXGBE_EIMS, VECTOR_BIT);
    return 0;
}
