// Queue 0's statistics of one 82599 function (nic-facts B1: QPRC(n) 0x1030,
// QBRC_L/H(n) 0x1034/0x1038, QPTC(n) 0x6030, 0x40 apart; QBTC_L/H(n)
// 0x8700/0x8704 + 8n, as DPDK's and Linux's ixgbe_type.h have them for the
// 82599 (nic-facts' 0x6034 is the 82598's QBTC; DPDK's PMD found it)).
// The general counters (GPRC, GPTC, ...) are the shared blocks
// e1000_rx_stats and e1000_tx_stats; these are the per-queue ones, kept
// for queue 0 only (the only queue with engines; the other queues' counters
// read 0).  Every counter is cleared when it is read; QBRC, 64 bits, when
// its high half is read, so a low-then-high read sees one value; QBTC the
// same way.  QBTC's octets count the frame from the destination
// address through the FCS (as GORC/GOTC do); QBRC's are rx_len, which
// ixgbe_func gives without the FCS when the receive path strips it.
module ixgbe_qstats (
    input  wire        clk,
    input  wire        rst,
    input  wire        rx_ev,           // a good frame stored for queue 0
    input  wire [15:0] rx_len,          // bytes posted to the queue (ixgbe_func)
    input  wire        tx_ev,           // a frame of queue 0 left the MAC
    input  wire [15:0] tx_len,
    input  wire        rd_any,          // a register of this function is read
    input  wire        rd,              // a queue counter is read
    input  wire [2:0]  rd_idx,          // 0 QPRC, 1 QBRC_L, 2 QBRC_H, 3 QPTC, 4 QBTC_L, 5 QBTC_H
    output reg  [31:0] rd_data          // the answer, OR'ed with the register file's
);
    reg [31:0] qprc, qptc;
    reg [63:0] qbrc, qbtc;

    function [31:0] value(input [2:0] idx);
        case (idx)
            3'd0:    value = qprc;
            3'd1:    value = qbrc[31:0];
            3'd2:    value = qbrc[63:32];
            3'd3:    value = qptc;
            3'd4:    value = qbtc[31:0];
            3'd5:    value = qbtc[63:32];
            default: value = 32'd0;
        endcase
    endfunction

    // a counter after this cycle: 0 in reset; cleared by a read of it (an
    // event in the same cycle is kept), else advanced by the event
    function [31:0] cnt(input [31:0] c, input [31:0] inc, input [2:0] idx);
        cnt = (rst || (rd && rd_idx == idx) ? 32'd0 : c) + (rst ? 32'd0 : inc);
    endfunction

    // one assignment per counter (no shadow copies in the simulation)
    always @(posedge clk) begin
        if (rd_any) rd_data <= rd ? value(rd_idx) : 32'd0;
        else if (rst) rd_data <= 32'd0;
        if (rst || rx_ev || tx_ev || rd) begin
            qprc <= cnt(qprc, {31'd0, rx_ev}, 3'd0);
            qptc <= cnt(qptc, {31'd0, tx_ev}, 3'd3);
            qbtc <= (rst || (rd && rd_idx == 3'd5) ? 64'd0 : qbtc) + ((tx_ev && !rst) ? {48'd0, tx_len} : 64'd0);
            qbrc <= (rst || (rd && rd_idx == 3'd2) ? 64'd0 : qbrc) + ((rx_ev && !rst) ? {48'd0, rx_len} : 64'd0);
        end
    end
endmodule
