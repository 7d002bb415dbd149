// Receive statistics of one 82546 function (nic-facts A3; SDM 13.7).  Every
// counter is cleared when it is read; a 64-bit octet counter (GORC, TOR) is
// cleared when its high half is read, so the usual low-then-high read sees
// one value.  Octets count the frame from the destination address through
// the FCS, whether or not SECRC strips the FCS before the DMA.  The events
// come from mac_rx, one per frame (its header says which frame counts where).
module e1000_rx_stats (
    input  wire        clk,
    input  wire        rst,
    input  wire        ev,
    input  wire [15:0] len,
    input  wire        good,
    input  wire        bc,
    input  wire        mc,
    input  wire        crcerr,
    input  wire        ruc,
    input  wire        rfc,
    input  wire        roc,
    input  wire        rjc,
    input  wire        mpc,
    input  wire        rnbc,
    input  wire        rd_any,          // a register of this function is read
    input  wire        rd,              // a statistics register is read
    input  wire [7:0]  rd_idx,          // (offset - 0x4000) / 4
    output reg  [31:0] rd_data,         // the answer, with the register file's (0 unless an RX counter was read)
    output wire        rd_known         // rd_idx names a counter this block keeps
);
    // register indices
    localparam [7:0] I_CRCERRS = 8'h00, I_MPC = 8'h04, I_GPRC = 8'h1D, I_BPRC = 8'h1E,
                     I_MPRC = 8'h1F, I_GORCL = 8'h22, I_GORCH = 8'h23, I_RNBC = 8'h28, I_RUC = 8'h29,
                     I_RFC = 8'h2A, I_ROC = 8'h2B, I_RJC = 8'h2C, I_TORL = 8'h30, I_TORH = 8'h31,
                     I_TPR = 8'h34;

    reg [31:0] crcerrs, mpc_c, gprc, bprc, mprc, rnbc_c, ruc_c, rfc_c, roc_c, rjc_c, tpr;
    reg [63:0] gorc, tor;
    reg [31:0] prc0, prc1, prc2, prc3, prc4, prc5;   // 64, 65-127, 128-255, 256-511, 512-1023, 1024-1522

    // PRC bucket of a good frame (at least 64 bytes; with LPE, frames above
    // 1522 count in no bucket)
    function [2:0] bucket(input [15:0] l);
        bucket = (l <= 16'd64)   ? 3'd0 :
                 (l <= 16'd127)  ? 3'd1 :
                 (l <= 16'd255)  ? 3'd2 :
                 (l <= 16'd511)  ? 3'd3 :
                 (l <= 16'd1023) ? 3'd4 :
                 (l <= 16'd1522) ? 3'd5 : 3'd7;
    endfunction
    wire       g         = ev && good;

    // The answer is registered here, in the cycle the register file
    // registers its own, and OR'ed with it: the register file does not read
    // the counters (a cheaper schedule for the simulator).
    assign rd_known = rd_idx == I_CRCERRS || rd_idx == I_MPC || rd_idx == I_GPRC || rd_idx == I_BPRC ||
                      rd_idx == I_MPRC || rd_idx == I_GORCL || rd_idx == I_GORCH || rd_idx == I_RNBC ||
                      rd_idx == I_RUC || rd_idx == I_RFC || rd_idx == I_ROC || rd_idx == I_RJC ||
                      rd_idx == I_TORL || rd_idx == I_TORH || rd_idx == I_TPR ||
                      (rd_idx >= 8'h17 && rd_idx <= 8'h1C);

    function [31:0] value(input [7:0] idx);
        case (idx)
            I_CRCERRS: value = crcerrs;
            I_MPC:     value = mpc_c;
            I_GPRC:    value = gprc;
            I_BPRC:    value = bprc;
            I_MPRC:    value = mprc;
            I_GORCL:   value = gorc[31:0];
            I_GORCH:   value = gorc[63:32];
            I_RNBC:    value = rnbc_c;
            I_RUC:     value = ruc_c;
            I_RFC:     value = rfc_c;
            I_ROC:     value = roc_c;
            I_RJC:     value = rjc_c;
            I_TORL:    value = tor[31:0];
            I_TORH:    value = tor[63:32];
            I_TPR:     value = tpr;
            8'h17:     value = prc0;
            8'h18:     value = prc1;
            8'h19:     value = prc2;
            8'h1A:     value = prc3;
            8'h1B:     value = prc4;
            8'h1C:     value = prc5;
            default:   value = 32'd0;
        endcase
    endfunction

    // a counter after this cycle: 0 in reset; cleared by a read of it (an
    // event in the same cycle is kept), else incremented by the event
    function [31:0] cnt(input [31:0] c, input inc, input [7:0] idx);
        cnt = (rst || (rd && rd_idx == idx) ? 32'd0 : c) + {31'd0, inc && !rst};
    endfunction
    function [63:0] oct(input [63:0] c, input inc, input [7:0] idx_high);
        oct = (rst || (rd && rd_idx == idx_high) ? 64'd0 : c) + ((inc && !rst) ? {48'd0, len} : 64'd0);
    endfunction

    // One block: the answer first, then one assignment per counter (see
    // rx_queue: no shadow copies of the counters in the simulation)
    always @(posedge clk) begin
        if (rd_any) rd_data <= rd ? value(rd_idx) : 32'd0;
        else if (rst) rd_data <= 32'd0;
        if (rst || ev || rd) begin
            crcerrs <= cnt(crcerrs, ev && crcerr, I_CRCERRS);
            mpc_c   <= cnt(mpc_c,   ev && mpc,    I_MPC);
            gprc    <= cnt(gprc,    g,            I_GPRC);
            bprc    <= cnt(bprc,    g && bc,      I_BPRC);
            mprc    <= cnt(mprc,    g && mc,      I_MPRC);
            rnbc_c  <= cnt(rnbc_c,  ev && rnbc,   I_RNBC);
            ruc_c   <= cnt(ruc_c,   ev && ruc,    I_RUC);
            rfc_c   <= cnt(rfc_c,   ev && rfc,    I_RFC);
            roc_c   <= cnt(roc_c,   ev && roc,    I_ROC);
            rjc_c   <= cnt(rjc_c,   ev && rjc,    I_RJC);
            tpr     <= cnt(tpr,     ev,           I_TPR);
            gorc    <= oct(gorc,    g,            I_GORCH);
            tor     <= oct(tor,     ev,           I_TORH);
            prc0    <= cnt(prc0,    g && bucket(len) == 3'd0, 8'h17);
            prc1    <= cnt(prc1,    g && bucket(len) == 3'd1, 8'h18);
            prc2    <= cnt(prc2,    g && bucket(len) == 3'd2, 8'h19);
            prc3    <= cnt(prc3,    g && bucket(len) == 3'd3, 8'h1A);
            prc4    <= cnt(prc4,    g && bucket(len) == 3'd4, 8'h1B);
            prc5    <= cnt(prc5,    g && bucket(len) == 3'd5, 8'h1C);
        end
    end
endmodule
