// Destination-address filter of one function's receive path: the receive
// address registers RAL/RAH(n), the multicast table array MTA, and the match
// of a frame's destination address against them (nic-facts A1: MTA 0x5200,
// 128 x 32 bits; RAL/RAH 0x5400 + 8n; RAH.AV bit 31; RCTL.MO 13:12.  B1: the
// 82599's 128 entries at 0xA200 + 8n, its first 16 also at 0x5400 + 8n, as
// DPDK's and Linux's IXGBE_RAL(n) place them).
//
// da_match, for the beat on probe (a frame's first): an entry whose RAH has
// AV (and, on the 82546, ASEL 17:16 = 00, "destination address") holds the
// address; or the address is a group address, the table is enabled (mfe:
// always on the 82546, MCSTCTRL.MFE on the 82599) and the MTA bit its hash
// picks is set.  The hash is 12 bits of the address's last two bytes, chosen
// by MO (00: bits 47:36, 01: 46:35, 10: 45:34, 11: 43:32, byte 0 of the
// address in bits 7:0; Linux's and DPDK's e1000_hash_mc_addr); bits 11:5
// pick the MTA register, 4:0 the bit.  The promiscuous bits (UPE, MPE) and
// the broadcast rule (BAM) are mac_rx's.
//
// Entry 0 loads the function's address at every reset, as the EEPROM
// auto-read does (nic-facts B1a step 4; the 82546 likewise); the other
// entries lose AV and ASEL.  Their addresses, and the MTA, are not reset
// (undefined in the datasheets; every driver writes them all): plain
// memories, zero at power-on in the simulation.
module rx_addr_filter #(
    parameter NRAR = 16,                     // receive address entries (16 or 128)
    parameter LNRAR = 4,                     // log2(NRAR)
    parameter [16:0] RAR_BASE = 17'h05400,   // RAL(0); RAH(n) 4 bytes on, entries 8 bytes apart
    parameter ASEL = 1                       // RAH 17:16 is ASEL (82546); 0: reserved, reads 0 (82599)
) (
    input  wire        clk,
    input  wire        rst,                  // function reset
    input  wire [47:0] mac_addr,             // entry 0 after reset
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output reg  [31:0] mmio_rdata,           // the cycle after a read of its registers; 0 otherwise
    output reg         mmio_known,           // with an access, the address is one of its registers (combinational)
    input  wire [1:0]  mo,
    input  wire        mfe,
    input  wire        probe,
    input  wire [47:0] da,
    output reg         da_match
);
    reg [47:0]     ra   [0:NRAR-1];          // the address: byte 0 in 7:0
    reg [2*NRAR-1:0] asel;                   // entry n's ASEL in 2n+1:2n
    reg [NRAR-1:0] av;
    reg [31:0]     mta  [0:127];

    wire [16:0] a = {mmio_addr, 2'b00};
    // the entry an address names: at RAR_BASE (all entries) or at 0x5400
    // (entries 0..15; for the 82546 the same place)
    wire [16:0] off      = a - RAR_BASE;
    wire        in_base  = off < NRAR * 8;
    wire        in_low   = a[16:7] == 10'h0A8;                 // 0x5400 .. 0x547F
    wire        rar      = in_base || in_low;
    wire        hi       = a[2];                               // RAH (else RAL)
    wire        mta_blk  = a[16:9] == 8'h29;                   // 0x5200 .. 0x53FF
    // decoded only with an access (host_if reads it with one), not at every edge
    always @(*) begin
        mmio_known = 1'b0;
        if (mmio_valid) mmio_known = rar || mta_blk;
    end

    // Work only with an access: the entry number is decoded then (two
    // blocking temporaries), registers change only with one, and mmio_rdata
    // only with a read (nothing samples it without mmio_rvalid, the cycle
    // after a read; a read of another register of this function clears
    // it), so an edge without MMIO costs one test.
    // The multicast table is written with a blocking assignment: nothing
    // reads it at the edge of a write (a read is another access; the search
    // reads it after the edge), and Verilator then keeps no per-edge
    // bookkeeping of a delayed array write.  The address entries keep
    // delayed writes: written by halves, Yosys would otherwise make
    // flip-flops of them (make synth: 4 min 53 s instead of about 2).
    /* verilator lint_off UNUSEDSIGNAL */
    reg [6:0]        e_any;                                     // 16 entries use 3:0
    /* verilator lint_on UNUSEDSIGNAL */
    reg [LNRAR-1:0]  e;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (rst) begin
            ra[0] <= mac_addr;
            asel <= {(2*NRAR){1'b0}};
            av <= {{(NRAR-1){1'b0}}, 1'b1};
            mmio_rdata <= 32'd0;
        end else if (mmio_valid) begin
            e_any = in_base ? off[9:3] : {3'd0, a[6:3]};
            e = e_any[LNRAR-1:0];
            if (!mmio_write)
                mmio_rdata <= rar ? (hi ? {av[e], 13'd0, asel[2*e +: 2], ra[e][47:32]} : ra[e][31:0])
                            : mta_blk ? mta[a[8:2]] : 32'd0;
            else if (rar && hi) begin
                ra[e][47:32] <= mmio_wdata[15:0];
                asel[2*e +: 2] <= ASEL ? mmio_wdata[17:16] : 2'd0;
                av[e] <= mmio_wdata[31];
            end else if (rar)
                ra[e][31:0] <= mmio_wdata;
            else if (mta_blk)
                mta[a[8:2]] = mmio_wdata;
        end
    end
    /* verilator lint_on BLKSEQ */

    // Evaluated only with a frame's first beat (probe): the search costs the
    // simulation nothing between frames.
    reg [11:0] h;
    /* verilator lint_off LATCH */
    always @(*) begin : search
        integer k;
        da_match = 1'b0;
`ifdef SYNTHESIS
        h = 12'd0;                           // no latch in the netlist (see mac_rx)
`endif
        if (probe) begin
            for (k = 0; k < NRAR; k = k + 1)
                if (av[k] && asel[2*k +: 2] == 2'd0 && ra[k] == da)
                    da_match = 1'b1;
            case (mo)
                2'd0:    h = da[47:36];
                2'd1:    h = da[46:35];
                2'd2:    h = da[45:34];
                default: h = da[43:32];
            endcase
            if (da[0] && mfe && mta[h[11:5]][h[4:0]])
                da_match = 1'b1;
        end
    end
    /* verilator lint_on LATCH */
endmodule
