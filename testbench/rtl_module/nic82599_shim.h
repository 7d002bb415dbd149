/* C ABI of rtl/nic82599.v (the 82599 personality: two ixgbe functions
 * behind the nic82546 interface), Verilated alone for the module-level
 * tests (testbench/rtl_module/test_nic82599.c).  The C++ behind it
 * (nic82599_shim.cpp) only copies ports: one call is one rising edge of clk,
 * with func_clk[f] pulsing at the same edge for every bit f of func_en (3:
 * both functions clocked, as the tests mostly run them). */
#ifndef NICSIM_NIC82599_SHIM_H
#define NICSIM_NIC82599_SHIM_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { N99_PORTS = 2, N99_BEAT = 32 };

typedef struct n99_straps {
    uint8_t  link_up;               /* bit p: port p's link partner is there */
    uint64_t mac[N99_PORTS];        /* port p's address: byte 0 (first on the wire) in bits 7:0 */
} n99_straps;

typedef struct n99_in {
    uint8_t  rst_n;
    uint8_t  func_en;               /* bit f: function f is clocked at this edge */
    uint32_t func_tick[N99_PORTS];  /* 256 ns ticks since function f's previous edge (18 bits) */
    uint8_t  mmio_valid, mmio_write, mmio_func;
    uint32_t mmio_addr, mmio_wdata;
    uint8_t  dma_wfull;             /* the bus takes no further write (registered) */
    uint8_t  cvalid, cfunc, ctag;
    uint8_t  cdata[N99_BEAT];
    uint8_t  mac_tx_ready;          /* bit p */
    uint8_t  mac_rx_valid, mac_rx_last, mac_rx_crc_ok;   /* bit p */
    uint8_t  mac_rx_nbytes[N99_PORTS];
    uint8_t  mac_rx_data[N99_PORTS][N99_BEAT];
} n99_in;

typedef struct n99_out {
    uint8_t  mmio_rvalid;
    uint32_t mmio_rdata;
    uint8_t  req_valid, req_write, req_func, req_tag;
    uint64_t req_addr;
    uint16_t req_len;
    uint8_t  wvalid;
    uint8_t  wdata[N99_BEAT];
    uint8_t  tx_valid[N99_PORTS], tx_nbytes[N99_PORTS], tx_last[N99_PORTS], tx_fcs[N99_PORTS];
    uint16_t tx_ipg[N99_PORTS];
    uint8_t  tx_data[N99_PORTS][N99_BEAT];
    uint8_t  irq;                   /* bit f */
    uint32_t next_timer[N99_PORTS];
    uint8_t  func_idle;             /* bit f */
    uint8_t  idle;
} n99_out;

typedef struct n99_model n99_model;

n99_model *n99_new(const n99_straps *s);
void n99_free(n99_model *m);
/* Apply in and evaluate one rising edge; out is what the edge sampled (the
 * outputs settled with these inputs, before the edge): the registered
 * outputs of the previous edge, and the requests this edge takes. */
void n99_cycle(n99_model *m, const n99_in *in, n99_out *out);
/* The outputs now (after the last edge), without clocking: what a gating
 * simulator reads to decide whether to clock a function at the next edge. */
void n99_peek(n99_model *m, n99_out *out);

#ifdef __cplusplus
}
#endif
#endif
