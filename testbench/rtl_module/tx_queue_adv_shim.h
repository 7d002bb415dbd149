/* C ABI of rtl/tx_queue.v built alone as the 82599 instance (FMT 1, a
 * 40-entry cache), for the module-level tests of the advanced descriptor
 * path (testbench/rtl_module/test_tx_queue_adv.c).  The C++ behind it
 * (tx_queue_adv_shim.cpp) only copies ports: one call is one rising edge. */
#ifndef NICSIM_TX_QUEUE_ADV_SHIM_H
#define NICSIM_TX_QUEUE_ADV_SHIM_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct txq_in {
    uint8_t  prst, rst, en, tdh_wr, gran, hwb_en, tag_free, buf_idle, next_tag;
    uint8_t  frag_done, dcpl_valid, req_ready, swflsh;
    uint8_t  pthresh, hthresh, wthresh;
    uint16_t ring_size, tdt, tdh_val, tidv, tadv;
    uint32_t tick, size_bytes, free_bytes;
    uint64_t tdba, hwb_addr;
    uint8_t  dcpl_data[32];
} txq_in;

typedef struct txq_out {
    uint8_t  issue_valid, issue_dma, issue_eop, issue_ifcs, issue_drop;
    uint8_t  req_valid, req_write, req_tag, wvalid, wlast, txdw_set, txqe_set, busy;
    uint16_t tdh, issue_len, req_len;
    uint32_t next_timer;
    uint64_t req_addr;
    uint8_t  wdata[32];
} txq_out;

typedef struct txq_model txq_model;

txq_model *txq_new(void);
void txq_free(txq_model *m);
/* Apply in and evaluate one rising edge; out is what the edge sampled (the
 * outputs settled with these inputs): the events of this cycle. */
void txq_cycle(txq_model *m, const txq_in *in, txq_out *out);

#ifdef __cplusplus
}
#endif
#endif
