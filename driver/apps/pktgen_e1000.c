/* pktgen's binding to the e1000 core: struct pktgen_txops over one
 * struct e1000_txq.  Each function is a plain forward, so pktgen makes
 * exactly the calls it made when it called the core directly. */
#include "pktgen.h"
#include "../e1000/e1000_dev.h"
#include "../e1000/e1000_tx.h"

/* xmit's result reaches pktgen unchanged: the codes must mean the same.
 * (The casts: they are constants of different enums.) */
_Static_assert((int)E1000_ERR_BUSY == (int)PKTGEN_ERR_BUSY, "e1000 BUSY differs from pktgen's");
_Static_assert((int)E1000_ERR_PARAM == (int)PKTGEN_ERR_PARAM, "e1000 PARAM differs from pktgen's");
_Static_assert((int)E1000_ERR_NOMEM == (int)PKTGEN_ERR_NOMEM, "e1000 NOMEM differs from pktgen's");

static int e_xmit(void *q, uint64_t bus, uint32_t len, void *cookie, int more)
{
    return e1000_xmit(q, bus, len, cookie, more);
}

static unsigned e_clean(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return e1000_tx_clean(q, done, arg);
}

static void e_flush(void *q)
{
    e1000_tx_flush(q);
}

static unsigned e_free_descs(const void *q)
{
    return e1000_tx_free_descs(q);
}

/* The cause read only: pktgen's TX reclaim is its own decision (clean or
 * NAPI poll), so the cause bits are not needed. */
static void e_irq_handle(void *q)
{
    e1000_irq_handle(((struct e1000_txq *)q)->dev);
}

static uint64_t e_tdt_writes(const void *q)
{
    return ((const struct e1000_txq *)q)->stats.tdt_writes;
}

void pktgen_bind_e1000(struct pktgen_txops *ops, struct e1000_txq *q)
{
    *ops = (struct pktgen_txops){
        .q = q,
        .xmit = e_xmit,
        .clean = e_clean,
        .flush = e_flush,
        .free_descs = e_free_descs,
        .irq_handle = e_irq_handle,
        .tdt_writes = e_tdt_writes,
        .clean_thresh = q ? q->opts.clean_thresh : 0,
        .ring_size = q ? q->count : 0,
        .max_frame_len = q ? q->opts.max_frame_len : 0,
    };
}
