/* C ABI of the Verilated NIC models: the 82546 (rtl/nic82546.v) and the
 * 82599 (rtl/nic82599.v), which offer the same interface.  The only C++ in
 * the simulator sits behind this header (sim/device/nic_rtl.cpp).  One call is one
 * clock cycle: the inputs are applied, the rising edge is evaluated and the
 * outputs after the edge are returned.  Port meanings: see the comment at the
 * top of rtl/nic82546.v. */
#ifndef NICSIM_NIC_RTL_H
#define NICSIM_NIC_RTL_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { NIC_RTL_PORTS = 2, NIC_RTL_BEAT = 32 /* bytes per data beat */ };
/* Per-function tick inputs and timer outputs are 18 bits: the longest timer
 * (TIDV/TADV = 65535 x 1.024 us) is 262140 ticks of 256 ns.  A tick count is
 * saturated at NIC_RTL_TICK_MAX (longer than any timer, so nothing is lost);
 * NIC_RTL_NO_TIMER as next_timer means no timer runs. */
#define NIC_RTL_TICK_MAX 0x3FFFFu
#define NIC_RTL_NO_TIMER 0x3FFFFu

enum nic_rtl_model { NIC_RTL_82546 = 0, NIC_RTL_82599 = 1 };

typedef struct nic_rtl_straps {
    uint8_t model;           /* enum nic_rtl_model */
    uint8_t ports;           /* 1 = port 0 only (port 1 answers reads with 0 and
                                never transmits, and costs no simulation time), else 2 */
    uint8_t link_up;         /* bit p: port p has link */
    uint8_t mac[NIC_RTL_PORTS][6]; /* 82599: what the EEPROM loads into RAL(0)/RAH(0) */
    /* 82546: what STATUS reports about the PCI-X bus */
    uint8_t pcix_mode;       /* STATUS.PCIX_MODE */
    uint8_t pcix_speed;      /* STATUS.PCIX_SPEED: 0 = 50-66, 1 = 66-100, 2 = 100-133 MHz */
    uint8_t bus64;
    uint8_t pci66;
} nic_rtl_straps;

typedef struct nic_rtl_in {
    uint8_t  func_en;        /* bit f: clock function f this cycle (its clock gate) */
    uint32_t func_tick[NIC_RTL_PORTS]; /* 256 ns ticks since function f's previous edge,
                                          at most NIC_RTL_TICK_MAX (larger values saturate) */
    uint8_t  mmio_valid, mmio_write, mmio_func;
    uint32_t mmio_addr, mmio_wdata;
    uint8_t  dma_wfull;      /* the bus takes no further DMA write now: none is granted
                                at the next edge (the pin is registered) */
    uint8_t  cpl_valid, cpl_func, cpl_tag;
    uint8_t  cpl_data[NIC_RTL_BEAT];   /* bytes in address order from the tag's next byte */
    uint8_t  mac_tx_ready;   /* bit p: the link of port p can take a frame now */
    /* MAC receive, port p: one beat of a received frame (its bytes include
     * the 4-byte FCS).  A frame's beats come on consecutive cycles, every one
     * but the last full (NIC_RTL_BEAT bytes); crc_ok is read with the last. */
    uint8_t  mac_rx_valid;   /* bit p */
    uint8_t  mac_rx_last;    /* bit p: the frame's last beat */
    uint8_t  mac_rx_crc_ok;  /* bit p: with last, the frame's FCS is right */
    uint8_t  mac_rx_nbytes[NIC_RTL_PORTS];            /* 1..NIC_RTL_BEAT */
    uint8_t  mac_rx_data[NIC_RTL_PORTS][NIC_RTL_BEAT];
} nic_rtl_in;

typedef struct nic_rtl_out {
    uint8_t  mmio_rvalid;
    uint32_t mmio_rdata;     /* updated only with mmio_rvalid (stale otherwise) */
    uint8_t  req_valid;
    /* the request's fields: updated only with req_valid (stale otherwise) */
    uint8_t  req_write, req_func, req_tag;
    uint64_t req_addr;
    uint16_t req_len;
    uint8_t  wvalid;
    uint8_t  wdata[NIC_RTL_BEAT];
    /* port p's MAC beat; nbytes, last, fcs, ipg and data are updated only
     * with valid (stale otherwise) */
    uint8_t  tx_valid[NIC_RTL_PORTS], tx_nbytes[NIC_RTL_PORTS], tx_last[NIC_RTL_PORTS];
    uint8_t  tx_fcs[NIC_RTL_PORTS];
    uint16_t tx_ipg[NIC_RTL_PORTS];
    uint8_t  tx_data[NIC_RTL_PORTS][NIC_RTL_BEAT];
    uint8_t  irq;            /* bit f */
    uint32_t next_timer[NIC_RTL_PORTS]; /* function f: 256 ns ticks to its next timer;
                                           NIC_RTL_NO_TIMER none */
    uint8_t  func_idle;      /* bit f: function f has no work until an input arrives */
    /* an MMIO access to an address no implemented register answers to (one
     * cycle, the edge after the access reached its function) */
    uint8_t  unmodelled, unmodelled_func, unmodelled_write;
    uint32_t unmodelled_off; /* its byte offset in BAR0 */
    uint8_t  idle;           /* the shared bus interface has nothing in flight */
} nic_rtl_out;

typedef struct nic_rtl nic_rtl;

nic_rtl *nic_rtl_new(const nic_rtl_straps *straps);
void nic_rtl_free(nic_rtl *n);
/* Hold reset for a few cycles (power-on). */
void nic_rtl_reset(nic_rtl *n, nic_rtl_out *out);
void nic_rtl_cycle(nic_rtl *n, const nic_rtl_in *in, nic_rtl_out *out);
uint64_t nic_rtl_cycles(const nic_rtl *n);
/* Write an FST waveform of every signal to path for the cycles [from, to)
 * (the posedge and the low half of each; time in half cycles).  Only a
 * build with NICSIM_TRACE and models Verilated with --trace-fst can
 * (`make diff-replay`); elsewhere it returns -1 and writes nothing. */
int nic_rtl_trace_fst(nic_rtl *n, const char *path, uint64_t from, uint64_t to);

#ifdef __cplusplus
}
#endif
#endif
