// Transmit statistics of one 82546 function (nic-facts A3).  Every counter
// is cleared when it is read; a 64-bit octet counter (GOTC, TOT) is cleared
// when its high half is read, so the usual low-then-high read sees one value.
// Octets count the frame from the destination address through the FCS.
module e1000_tx_stats (
    input  wire        clk,
    input  wire        rst,
    input  wire        sent,            // one frame left the MAC
    input  wire [15:0] len,             // its length including FCS
    input  wire        rd,              // a statistics register is read
    input  wire [7:0]  rd_idx,          // (offset - 0x4000) / 4
    output reg  [31:0] rd_data,
    output wire        rd_known         // rd_idx names a counter this block keeps
);
    reg [31:0] gptc, tpt;
    reg [63:0] gotc, tot;
    reg [31:0] ptc [0:5];               // 64, 65-127, 128-255, 256-511, 512-1023, 1024-1522

    wire [2:0] bucket = (len <= 16'd64)   ? 3'd0 :
                        (len <= 16'd127)  ? 3'd1 :
                        (len <= 16'd255)  ? 3'd2 :
                        (len <= 16'd511)  ? 3'd3 :
                        (len <= 16'd1023) ? 3'd4 :
                        (len <= 16'd1522) ? 3'd5 : 3'd7;

    // register indices: GPTC 0x4080, GOTCL/H 0x4090/94, TOTL/H 0x40C8/CC, TPT 0x40D4, PTC64.. 0x40D8..EC
    localparam [7:0] I_GPTC = 8'h20, I_GOTCL = 8'h24, I_GOTCH = 8'h25,
                     I_TOTL = 8'h32, I_TOTH = 8'h33, I_TPT = 8'h35, I_PTC = 8'h36;

    assign rd_known = rd_idx == I_GPTC || rd_idx == I_GOTCL || rd_idx == I_GOTCH || rd_idx == I_TOTL ||
                      rd_idx == I_TOTH || rd_idx == I_TPT || (rd_idx >= I_PTC && rd_idx <= I_PTC + 8'd5);

    // looked up only with a read (the register file takes it then), not at
    // every edge
    always @(*) begin
        rd_data = 32'd0;
        if (rd) case (rd_idx)
            I_GPTC:  rd_data = gptc;
            I_GOTCL: rd_data = gotc[31:0];
            I_GOTCH: rd_data = gotc[63:32];
            I_TOTL:  rd_data = tot[31:0];
            I_TOTH:  rd_data = tot[63:32];
            I_TPT:   rd_data = tpt;
            8'h36, 8'h37, 8'h38, 8'h39, 8'h3A, 8'h3B: rd_data = ptc[rd_idx[2:0] - 3'd6 + 3'd0];
            default: rd_data = 32'd0;
        endcase
    end

    integer i;
    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it,
    // copied at every edge; the copies avoid that.  Behaviour is unchanged.
    reg [31:0] gptc_c;
    reg [31:0] tpt_c;
    reg [63:0] gotc_c;
    reg [63:0] tot_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        gptc_c = gptc; tpt_c = tpt; gotc_c = gotc; tot_c = tot;
        if (rst) begin
            gptc <= 0; tpt <= 0; gotc <= 0; tot <= 0;
            for (i = 0; i < 6; i = i + 1) ptc[i] <= 0;
        end else begin
            if (sent) begin
                gptc <= gptc_c + 32'd1;
                tpt  <= tpt_c + 32'd1;
                gotc <= gotc_c + {48'd0, len};
                tot  <= tot_c + {48'd0, len};
                if (bucket != 3'd7) ptc[bucket] <= ptc[bucket] + 32'd1;
            end
            // clear on read (a frame counted in the same cycle is kept)
            if (rd) begin
                case (rd_idx)
                    I_GPTC: gptc <= {31'd0, sent};
                    I_TPT:  tpt  <= {31'd0, sent};
                    I_GOTCH: gotc <= sent ? {48'd0, len} : 64'd0;
                    I_TOTH:  tot  <= sent ? {48'd0, len} : 64'd0;
                    default:
                        if (rd_idx >= I_PTC && rd_idx < I_PTC + 8'd6)
                            ptc[rd_idx[2:0] - 3'd6] <= (sent && bucket == rd_idx[2:0] - 3'd6) ? 32'd1 : 32'd0;
                endcase
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
