// The 82599 card's EEPROM: the serial (SPI) part beside the controller that
// the two functions' EERD registers read (issue 20: an independent driver,
// DPDK's ixgbe PMD, validates its checksum before anything else and stops
// with "The EEPROM checksum is not valid" otherwise).  A model of an
// external chip, not of the controller: the image is what the card's
// manufacturing would program, built from the MAC-address straps, and the
// read ports answer at once (the controller's EERD completes at the edge of
// its write; see ixgbe_regs).
//
// The image, 256 words (EEC.SIZE = 2: 1 << (2 + 6) words, as DPDK's
// ixgbe_init_eeprom_params_generic derives it); word layout of the 8259x
// EEPROM map as DPDK's base code reads it (ixgbe_type.h names in brackets):
//   0x00 .. 0x02  control words: 0 (no option the model has)
//   0x03 .. 0x0F  section pointers: 0xFFFF (section absent) but
//   0x09 / 0x0A   LAN Core 0 / 1 module [IXGBE_CORE0_PTR / CORE1_PTR] at
//                 0x40 / 0x48: a length word (3), then the port's MAC
//                 address, first byte in the low half of the first word
//   0x0F          firmware module [IXGBE_FW_PTR]: 0xFFFF, there is no
//                 firmware (DPDK then reports the part as pre-production)
//   0x27 / 0x28   alternate SAN MAC block / SAN MAC pointers: 0xFFFF, none
//   other words up to 0x3E: 0 (no capability bits: DEVICE_CAPS 0x2C is 0)
//   0x3F          checksum [IXGBE_EEPROM_CHECKSUM]: 0xBABA minus the 16-bit
//                 sum of words 0x00 .. 0x3E and of the words of each
//                 present section (not its length word), the sum DPDK's
//                 ixgbe_calc_eeprom_checksum_generic forms
//   0x40 ..       the two modules; everything after them reads 0xFFFF
//                 (erased)
// An address beyond 255 wraps, as the part's unused address bits are
// ignored.
module ixgbe_eeprom (
    input  wire [95:0] mac_addr,     // port p's address in [48p +: 48], first byte lowest
    input  wire [7:0]  addr0,        // function 0's EERD address
    input  wire [7:0]  addr1,        // function 1's
    input  wire        rd0,          // function 0 reads EERD at this edge
    input  wire        rd1,
    output reg  [15:0] data0,        // with rd0, word addr0; 0 otherwise
    output reg  [15:0] data1
);
    localparam [7:0] CORE0 = 8'h40, CORE1 = 8'h48, CSUM = 8'h3F;
    localparam [15:0] MOD_LEN = 16'd3;

    // the pointer words and the words that are 0xFFFF among 0x00 .. 0x3E
    // sum to a constant: 11 absent pointers (0x03 .. 0x0F but 0x09 and
    // 0x0A) and the two absent blocks (0x27, 0x28) are 13 x 0xFFFF, plus the
    // two module pointers
    localparam [15:0] FIXED_SUM = 16'hFFF3 + {8'd0, CORE0} + {8'd0, CORE1};

    wire [15:0] m0w0 = mac_addr[15:0],  m0w1 = mac_addr[31:16], m0w2 = mac_addr[47:32];
    wire [15:0] m1w0 = mac_addr[63:48], m1w1 = mac_addr[79:64], m1w2 = mac_addr[95:80];

    function [15:0] word(input [7:0] a);
        if (a == CSUM)                                     word = 16'hBABA - (FIXED_SUM + m0w0 + m0w1 + m0w2 +
                                                                              m1w0 + m1w1 + m1w2);
        else if (a == 8'h09)                               word = {8'd0, CORE0};
        else if (a == 8'h0A)                               word = {8'd0, CORE1};
        else if ((a >= 8'h03 && a <= 8'h0F) || a == 8'h27 || a == 8'h28) word = 16'hFFFF;
        else if (a < CSUM)                                 word = 16'h0000;
        else if (a == CORE0 || a == CORE1)                 word = MOD_LEN;
        else if (a == CORE0 + 8'd1)                        word = m0w0;
        else if (a == CORE0 + 8'd2)                        word = m0w1;
        else if (a == CORE0 + 8'd3)                        word = m0w2;
        else if (a == CORE1 + 8'd1)                        word = m1w0;
        else if (a == CORE1 + 8'd2)                        word = m1w1;
        else if (a == CORE1 + 8'd3)                        word = m1w2;
        else                                               word = 16'hFFFF;
    endfunction

    // looked up only with a read: Verilator evaluates this at every edge
    // otherwise (and the checksum at every input change)
    always @(*) begin
        data0 = 16'h0000;
        data1 = 16'h0000;
        if (rd0) data0 = word(addr0);
        if (rd1) data1 = word(addr1);
    end
endmodule
