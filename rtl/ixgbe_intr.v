// Interrupt causes, mask, auto-clear, auto-mask and throttling of one 82599
// function (registers: nic-facts B1; EITR units: docs/pktgen-napi.md).
//
// EICR collects causes: a read returns them and clears them, a write of 1s
// clears bits, EICS sets bits (the driver's interrupt handler acknowledges
// by reading EICR, and the bring-up reads it to drop stale causes: B1a step
// 1).  EIMS (a write sets mask bits; a read returns the mask) and EIMC (a
// write clears mask bits) hold the mask.  EIAC selects causes that are
// cleared automatically when the interrupt is asserted ("auto-clear", B1):
// with every pending cause in EIAC the line is high for one cycle, like a
// message.  EIAM selects mask bits cleared automatically at the same
// moment ("auto-mask": Linux ixgbe sets GPIE.EIAME and EIAM_EX to all ones
// on the 82599 in MSI-X mode, so its vector handler need not write EIMC; the
// poll's EIMS write re-enables the vector).  GPIE is not decoded here: the
// auto-mask acts whenever EIAM has bits, which only a driver that wants it
// writes (the reset value is 0, so a driver that never writes EIAM sees no
// change).
//
// IVAR (which queue cause lands on which EICR bit) is not in nic-facts and
// is not modelled: the mapping is fixed by ixgbe_func: queue 0's RX and TX
// causes set EICR bit 0 (RTxQ[0]), a change of LINKS.LINK_UP sets LSC (bit 20).
//
// The line is level: asserted while (EICR & EIMS) != 0, but no sooner than
// the EITR(0) interval after the previous assertion, as e1000_intr's ITR
// does; interval 0 turns throttling off.  A read of EICR deasserts the line.
// EITR(0)'s interval field is bits 11:3 in units of 2.048 us (DPDK's
// ixgbe_ethdev.h: "EITR Interval is in 2048ns units for 1G and 10G link";
// ixgbe_type.h's IXGBE_MAX_INT_RATE 488281 = 1 / 2.048 us; ixy's table:
// 0x008 = 488,200/s, 0x028 = 97,600/s).  Linux writes us x 4, treating the
// unit as 2 us, so its intervals are 2.4 % longer than their names.
// 2.048 us is exactly 8 ticks of 256 ns; the counters run in 1/16 ticks
// (128 per unit), at most 511 x 128 = 65408 sixteenths.  Writing EITR does
// not restart a running interval (the 82599's CNT_WDIS behaviour, which
// Linux asks for on every write).
//
// Write-back flush (the 82598 rule of B3: with WTHRESH > 0, RX and TX
// descriptors are written back when WTHRESH are done "or on ITR expiry";
// the 82599 rule is not in nic-facts): while a queue batches write-backs
// (wb_batch: its WTHRESH != 0) and the interval is not 0, a write-back
// event (wb_event: a frame stored in the RX packet buffer, a TX descriptor
// done) starts a second counter of one EITR interval if it is not running.
// When it expires, `fpd` pulses (the queues' flush strobe), and it starts
// again if a queue still has work (wb_busy: a frame whose data is still
// moving is flushed at the next expiry).  It is a counter of its own
// so that the first interrupt after a quiet time is not delayed by it.
// With interval 0 nothing flushes a batch but WTHRESH itself (or the RX
// queue's own "no descriptor left" rule, or RXDCTL.SWFLSH).
module ixgbe_intr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] cause_set,     // hardware causes this cycle
    input  wire        eicr_rd,       // EICR is being read: clear what it returns
    input  wire        eicr_wr,       // write-1-to-clear
    input  wire        eics_wr,
    input  wire        eims_wr,
    input  wire        eimc_wr,
    input  wire        eiac_wr,
    input  wire        eitr_wr,       // EITR(0)
    input  wire [31:0] eiam,          // auto-mask bits (a register of ixgbe_regs)
    input  wire [31:0] wdata,
    input  wire [17:0] tick,          // 256 ns ticks since the previous edge (saturating)
    input  wire        wb_batch,      // a queue batches write-backs (WTHRESH != 0)
    input  wire        wb_event,      // a frame entered the RX packet buffer / a TX descriptor is done
    input  wire        wb_busy,       // a queue has work in progress
    output reg  [31:0] eicr,
    output reg  [31:0] eims,
    output reg  [31:0] eiac,
    output reg  [11:3] eitr,
    output reg         irq,
    output reg         fpd,           // RX write-back flush: the interval expired
    output wire [17:0] next_timer,    // ticks to the next expiry that matters; 18'h3FFFF none
    output wire        busy
);
    reg  [15:0] thr_cnt;              // 1/16 ticks until the next assertion is allowed
    reg         fl_run;
    reg  [15:0] fl_cnt;               // 1/16 ticks until the flush
    wire [15:0] iv16    = {7'd0, eitr} * 16'd128;
    wire [21:0] tick16  = {tick, 4'b0000};
    wire        pending = (eicr & eims) != 32'd0;
    wire [15:0] thr_now = ({6'd0, thr_cnt} > tick16) ? thr_cnt - tick16[15:0] : 16'd0;
    wire [15:0] fl_now  = ({6'd0, fl_cnt} > tick16) ? fl_cnt - tick16[15:0] : 16'd0;
    wire        fire    = pending && !irq && thr_now == 16'd0;
    wire        fl_exp  = fl_run && fl_now == 16'd0;
    wire        fl_go   = wb_batch && iv16 != 16'd0;

    // whole ticks, rounded up: the adapter wakes the function after them
    function [17:0] ticks_of(input [15:0] c);
        ticks_of = ({2'b00, c} + 18'd15) >> 4;
    endfunction
    wire [17:0] t_thr = (pending && !irq && thr_cnt != 0) ? ticks_of(thr_cnt) : 18'h3FFFF;
    wire [17:0] t_fl  = fl_run ? ticks_of(fl_cnt) : 18'h3FFFF;
    assign next_timer = (t_thr < t_fl) ? t_thr : t_fl;
    // (fpd is a registered pulse the queues take at the next edge)
    assign busy       = fire || (irq && !pending) || fpd;

    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would): reading a register inside a block that assigns it
    // in several places makes Verilator keep a shadow copy of it, copied at
    // every edge.  Behaviour is unchanged.
    reg [31:0] eicr_c, eims_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        eicr_c = eicr; eims_c = eims;
        if (rst) begin
            eicr <= 0; eims <= 0; eiac <= 0; eitr <= 0; irq <= 0; thr_cnt <= 0;
            fl_run <= 0; fl_cnt <= 0; fpd <= 0;
        end else begin
            // auto-clear takes the causes pending before this edge; causes
            // arriving with the assertion stay
            eicr <= (eicr_c & ~(eicr_rd ? eicr_c : 32'd0) & ~(eicr_wr ? wdata : 32'd0)
                            & ~(fire ? eiac : 32'd0))
                  | cause_set | (eics_wr ? wdata : 32'd0);
            // auto-mask with the assertion, after this edge's EIMS/EIMC write
            if (eims_wr) eims <= (eims_c | wdata) & ~(fire ? eiam : 32'd0);
            else if (eimc_wr) eims <= eims_c & ~wdata & ~(fire ? eiam : 32'd0);
            else if (fire) eims <= eims_c & ~eiam;
            if (eiac_wr) eiac <= wdata;
            if (eitr_wr) eitr <= wdata[11:3];
            thr_cnt <= fire ? iv16 : thr_now;
            if (eicr_rd) begin
                // reading EICR acknowledges the interrupt: causes that arrive
                // later assert the line again only when EITR allows
                irq <= 1'b0;
            end else if (fire) begin
                irq <= 1'b1;
            end else if (irq && !pending) begin
                irq <= 1'b0;
            end
            // the write-back flush counter
            fpd <= fl_exp;
            if (fl_run) begin
                fl_cnt <= fl_exp ? iv16 : fl_now;
                if (fl_exp) fl_run <= fl_go && (wb_busy || wb_event);
            end else if (fl_go && wb_event) begin
                fl_run <= 1'b1;
                fl_cnt <= iv16;
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
