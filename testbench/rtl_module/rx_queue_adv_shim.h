/* C ABI of rtl/rx_queue.v built alone as the 82599 instance (FMT 1,
 * advanced one-buffer write-back, a 32-entry cache), for the module-level
 * tests of testbench/rtl_module/test_rx_queue_adv.c.  The C++ behind it
 * (rx_queue_adv_shim.cpp) only copies ports: one call is one rising edge and
 * reports what the edge sampled. */
#ifndef NICSIM_RX_QUEUE_ADV_SHIM_H
#define NICSIM_RX_QUEUE_ADV_SHIM_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rxq_in {
    uint8_t  prst, rst, en, secrc, rdmts, rdh_wr, gran, fpd, wake;
    uint8_t  wr_en, commit, frame_abort, commit_ce, dcpl_valid, req_ready;
    uint8_t  pthresh, hthresh, wthresh;
    uint16_t buf_bytes, ring_size, rdt, rdh_val, rdtr, radv, commit_len, size_rows;
    uint32_t tick;
    uint64_t rdba;
    uint8_t  wr_data[32];
    uint8_t  dcpl_data[32];
} rxq_in;

typedef struct rxq_out {
    uint8_t  nodesc, room, req_valid, req_write, req_tag, wvalid, wlast;
    uint8_t  rxt0_set, rxdmt0_set, busy;
    uint16_t rdh, req_len;
    uint32_t next_timer;
    uint64_t req_addr;
    uint8_t  wdata[32];
} rxq_out;

typedef struct rxq_model rxq_model;

rxq_model *rxq_new(void);
void rxq_free(rxq_model *m);
/* Apply in and evaluate one rising edge; out is what the edge sampled. */
void rxq_cycle(rxq_model *m, const rxq_in *in, rxq_out *out);

#ifdef __cplusplus
}
#endif
#endif
