// The 82546's copper PHY of one port (an M88E1011 class PHY, which the
// controller reaches over MDIO through MDIC; PHY address 1), as much as a
// driver's bring-up reads (issue 20: DPDK's em PMD identifies it and stops
// with "PHY Initialization Error" otherwise).  A model beside the RTL, as
// the PHY is its own block: it answers at once (e1000_regs completes an MDIC
// command at the edge of its write).
//
// The link is the port's link strap: up means autonegotiation completed at
// 1000 Mb/s full duplex with a partner advertising everything; the model
// has no negotiation to run, so restarting it changes nothing.  Registers
// (IEEE 802.3 clause 22, and Marvell's specific ones as Linux's and DPDK's
// e1000 headers name them):
//   0  control: read/write, reset 0x1140 (AN enabled, full duplex, 1000);
//      RESET (15) and RESTART_AN (9) clear themselves; RESET brings every
//      register back to its reset value
//   1  status: 0x7949 (10/100 abilities, extended status, preamble
//      suppression, AN ability, extended capability), with link (2) and
//      AN complete (5) while the link is up
//   2, 3  identifier 0x0141 / 0x0C20 (DPDK's M88E1011_I_PHY_ID 0x01410C20)
//   5  link partner ability 0x41E1 while up (10/100, acknowledge), 6 its
//      expansion 0x0001 while up
//   10 1000BASE-T status 0x3C00 while up (receivers OK, partner 1000 full
//      and half duplex)
//   15 extended status 0x3000 (1000BASE-T full and half duplex)
//   17 PHY specific status 0xAC00 while up (1000 Mb/s, full duplex,
//      resolved, link)
//   19 interrupt status, 21 receive errors: 0
//   every other register reads back what was written (reset 0; 4, the
//   advertisement, 0x01E1; 9, 1000BASE-T control, 0x0300)
module e1000_phy (
    input  wire        clk,
    input  wire        rst,
    input  wire        link_up,
    input  wire        wr,               // an MDIC write command to this PHY
    input  wire        rd,               // an MDIC read command to this PHY
    input  wire [4:0]  reg_addr,
    input  wire [15:0] wdata,
    output reg  [15:0] rdata             // with rd, register reg_addr (combinational); 0 otherwise
);
    reg [15:0] r [0:31];

    function [15:0] reset_value(input [4:0] a);
        case (a)
            5'd0:    reset_value = 16'h1140;
            5'd4:    reset_value = 16'h01E1;
            5'd9:    reset_value = 16'h0300;
            default: reset_value = 16'h0000;
        endcase
    endfunction

    // decoded only with a read: Verilator evaluates this at every edge
    // otherwise, as the address bits are MMIO write data
    always @(*) begin
        rdata = 16'h0000;
        if (rd) case (reg_addr)
            5'd1:    rdata = 16'h7949 | (link_up ? 16'h0024 : 16'h0000);
            5'd2:    rdata = 16'h0141;
            5'd3:    rdata = 16'h0C20;
            5'd5:    rdata = link_up ? 16'h41E1 : 16'h0000;
            5'd6:    rdata = link_up ? 16'h0001 : 16'h0000;
            5'd10:   rdata = link_up ? 16'h3C00 : 16'h0000;
            5'd15:   rdata = 16'h3000;
            5'd17:   rdata = link_up ? 16'hAC00 : 16'h0000;
            5'd19, 5'd21: rdata = 16'h0000;
            default: rdata = r[reg_addr];
        endcase
    end

    integer i;
    always @(posedge clk) begin
        if (rst || (wr && reg_addr == 5'd0 && wdata[15])) begin
            for (i = 0; i < 32; i = i + 1)
                r[i] <= reset_value(i[4:0]);
        end else if (wr) begin
            // RESTART_AN clears itself
            r[reg_addr] <= (reg_addr == 5'd0) ? (wdata & ~16'h0200) : wdata;
        end
    end
endmodule
