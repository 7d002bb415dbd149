// The 82546 card's EEPROM: a Microwire serial part of 256 16-bit words
// (93C66 class; EECD.SIZE reads 1) that a driver bit-bangs through EECD:
// chip select CS, clock SK and data in DI out of the controller, data out
// DO back into EECD.DO (nic-facts A1: the Linux e1000 and DPDK's em PMD read
// it this way, not through EERD).  A model of an external chip beside the
// RTL (issue 20: DPDK's em PMD validates its checksum first).
//
// Protocol, as DPDK's e1000_read_nvm_microwire drives it: with CS high, at
// each rising SK the part takes DI: a start bit 1, the opcode (2 bits; 10 =
// READ), the address (8 bits); after the last address bit DO is 0 (the
// dummy bit), then each rising SK puts the next data bit on DO, bit 15
// first.  CS low ends a command.  Other opcodes (write, erase, enable) are
// taken and ignored: the part stays as programmed.
//
// The image (8254x EEPROM map): words 0..2 the MAC address of port 0 (first
// byte in the low half of word 0; DPDK and Linux flip the last bit for port
// 1, as the 82546's second function does), 0x03..0x3E 0 (no option the
// model has: word 0x0F's pause bits 0 mean no flow control, word 0x04's ID
// LED setting 0 the default LEDs), 0x3F the checksum (the 16-bit sum of
// words 0x00..0x3F is 0xBABA), 0x40..0xFF erased (0xFFFF).
//
// Each function has its own copy of the part (the real card shares one
// between the functions behind EECD.REQ/GNT); EECD grants every request at
// once (e1000_regs).
module e1000_eeprom (
    input  wire        clk,
    input  wire        rst,
    input  wire [47:0] mac_addr,     // port 0's address, first byte lowest
    // EECD is written this edge, with these CS, SK and DI: the part sees
    // the pins change with the write, so a read of EECD at the next edge
    // already shows the DO they caused
    input  wire        wr,
    input  wire        cs,
    input  wire        sk,
    input  wire        di,
    output reg         dout
);
    localparam [1:0] IDLE = 2'd0, CMD = 2'd1, DATA = 2'd2, DONE = 2'd3;
    localparam [7:0] CSUM = 8'h3F;

    wire [15:0] w0 = mac_addr[15:0], w1 = mac_addr[31:16], w2 = mac_addr[47:32];
    wire [15:0] csum = 16'hBABA - (w0 + w1 + w2);

    function [15:0] word(input [7:0] a);
        case (a)
            8'h00:   word = w0;
            8'h01:   word = w1;
            8'h02:   word = w2;
            CSUM:    word = csum;
            default: word = (a < CSUM) ? 16'h0000 : 16'hFFFF;
        endcase
    endfunction

    reg [1:0]  state;
    reg        sk_q;
    reg [3:0]  n;                    // CMD: bits taken; DATA: bits left to put out
    reg [8:0]  cmd;                  // the command's bits so far (opcode, address)
    reg [15:0] data;

    wire rise = sk && !sk_q;

    always @(posedge clk) begin
        if (wr) sk_q <= sk;
        if (rst) sk_q <= 1'b0;
        if (rst || (wr && !cs)) begin
            state <= IDLE;
            n <= 4'd0;
            cmd <= 9'd0;
            dout <= 1'b0;
        end else if (wr && rise) begin
            case (state)
                IDLE: if (di) begin state <= CMD; n <= 4'd0; end          // the start bit
                CMD: begin
                    cmd <= {cmd[7:0], di};
                    n <= n + 4'd1;
                    if (n == 4'd9) begin
                        // the last address bit: READ puts the dummy 0 on DO
                        if (cmd[8:7] == 2'b10) begin
                            state <= DATA;
                            data <= word({cmd[6:0], di});
                            n <= 4'd15;
                            dout <= 1'b0;
                        end else begin
                            state <= DONE;
                        end
                    end
                end
                DATA: begin
                    dout <= data[n];
                    if (n == 4'd0) state <= DONE;
                    else n <= n - 4'd1;
                end
                default: dout <= 1'b0;
            endcase
        end
    end
endmodule
