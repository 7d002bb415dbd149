// Interrupt causes, mask and throttling of one 82546 function.
//
// ICR collects causes (a read returns and clears them; a write of 1s clears
// bits; ICS sets them).  IMS/IMC set and clear the mask.  The interrupt line
// is level: asserted while (ICR & IMS) != 0, but (SDM 13.4.18) no sooner than
// ITR x 256 ns after the previous assertion; ITR = 0 turns throttling off.
// A read of ICR deasserts the line.
module e1000_intr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] cause_set,     // hardware causes this cycle
    input  wire        icr_read,      // ICR is being read: clear what it returns
    input  wire        icr_wr,        // write-1-to-clear
    input  wire        ics_wr,
    input  wire        ims_wr,
    input  wire        imc_wr,
    input  wire [31:0] wdata,
    input  wire        itr_wr,
    input  wire [17:0] tick,          // 256 ns ticks since the previous edge (saturating)
    output reg  [31:0] icr,
    output reg  [31:0] ims,
    output reg  [15:0] itr,
    output reg         irq,
    output wire [17:0] next_timer,    // ticks until an interrupt held back by ITR may fire; 18'h3FFFF none
    output wire        busy
);
    reg  [15:0] itr_cnt;              // ticks until the next assertion is allowed
    wire        pending = (icr & ims) != 32'd0;
    wire [15:0] cnt_now = ({2'b0, itr_cnt} > tick) ? itr_cnt - tick[15:0] : 16'd0;
    wire        fire    = pending && !irq && cnt_now == 16'd0;

    assign busy       = fire || (irq && !pending);
    assign next_timer = (pending && !irq && itr_cnt != 0) ? {2'b0, itr_cnt} : 18'h3FFFF;

    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it,
    // copied at every edge; the copies avoid that.  Behaviour is unchanged.
    reg [31:0] icr_c;
    reg [31:0] ims_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        icr_c = icr; ims_c = ims;
        if (rst) begin
            icr <= 0; ims <= 0; itr <= 0; irq <= 0; itr_cnt <= 0;
        end else begin
            icr <= (icr_c & ~(icr_read ? icr_c : 32'd0) & ~(icr_wr ? wdata : 32'd0))
                 | cause_set | (ics_wr ? wdata : 32'd0);
            if (ims_wr) ims <= ims_c | wdata;
            else if (imc_wr) ims <= ims_c & ~wdata;
            if (itr_wr) itr <= wdata[15:0];
            itr_cnt <= cnt_now;
            if (icr_read) begin
                // reading ICR acknowledges the interrupt: causes that arrive
                // later assert the line again only when ITR allows
                irq <= 1'b0;
            end else if (fire) begin
                irq <= 1'b1;
                itr_cnt <= itr;
            end else if (irq && !pending) begin
                irq <= 1'b0;
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
