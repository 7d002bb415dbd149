/* pktgen's binding to the ixgbe core: struct pktgen_txops over one
 * struct ixgbe_txq.  Each function is a plain forward: the ixgbe TX queue
 * has the e1000's shape (ixgbe_tx.h), so pktgen drives it exactly as it
 * drives an e1000 queue. */
#include "pktgen.h"
#include "../ixgbe/ixgbe_dev.h"
#include "../ixgbe/ixgbe_tx.h"

/* xmit's result reaches pktgen unchanged: the codes must mean the same.
 * (The casts: they are constants of different enums.) */
_Static_assert((int)IXGBE_ERR_BUSY == (int)PKTGEN_ERR_BUSY, "ixgbe BUSY differs from pktgen's");
_Static_assert((int)IXGBE_ERR_PARAM == (int)PKTGEN_ERR_PARAM, "ixgbe PARAM differs from pktgen's");
_Static_assert((int)IXGBE_ERR_NOMEM == (int)PKTGEN_ERR_NOMEM, "ixgbe NOMEM differs from pktgen's");

static int x_xmit(void *q, uint64_t bus, uint32_t len, void *cookie, int more)
{
    return ixgbe_xmit(q, bus, len, cookie, more);
}

static unsigned x_clean(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return ixgbe_tx_clean(q, done, arg);
}

static void x_flush(void *q)
{
    ixgbe_tx_flush(q);
}

static unsigned x_free_descs(const void *q)
{
    return ixgbe_tx_free_descs(q);
}

/* The cause read only: pktgen's TX reclaim is its own decision (clean or
 * NAPI poll), so the cause bits are not needed.  EICR clears on read, all
 * causes at once, so this assumes pktgen is the device's only interrupt
 * handler, as it is on the e1000 ports. */
static void x_irq_handle(void *q)
{
    ixgbe_irq_handle(((struct ixgbe_txq *)q)->dev);
}

static uint64_t x_tdt_writes(const void *q)
{
    return ((const struct ixgbe_txq *)q)->stats.tdt_writes;
}

void pktgen_bind_ixgbe(struct pktgen_txops *ops, struct ixgbe_txq *q)
{
    *ops = (struct pktgen_txops){
        .q = q,
        .xmit = x_xmit,
        .clean = x_clean,
        .flush = x_flush,
        .free_descs = x_free_descs,
        .irq_handle = x_irq_handle,
        .tdt_writes = x_tdt_writes,
        .clean_thresh = q ? q->opts.clean_thresh : 0,
        .ring_size = q ? q->count : 0,
        .max_frame_len = q ? q->opts.max_frame_len : 0,
    };
}
