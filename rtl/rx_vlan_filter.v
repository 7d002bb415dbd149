// VLAN filter of one function's receive path: the VLAN filter table VFTA
// (128 x 32 bits, one bit per VLAN ID; 0x5600 on the 82546, 0xA000 on the
// 82599) and the decision for a tagged frame (8254x SDM: RCTL.VFE, CFIEN,
// CFI and VET; 82599: VLNCTRL.VFE, CFIEN, CFI and VET, the same rule).
//
// vlan_ok, for the beat on probe (a frame's first): the frame is not tagged
// (its type field, bytes 12-13 big-endian, is not VET), or the filter is off
// (VFE 0), or the VFTA bit of its VLAN ID (bytes 14-15, bits 11:0) is set
// and, with CFIEN, its CFI bit (12) equals the CFI asked for.  mac_rx takes
// a frame only when both the address filter and this one pass it.
//
// The VFTA is not reset (undefined in the datasheets; drivers clear it): a
// plain memory, zero at power-on in the simulation.
module rx_vlan_filter #(
    parameter [16:0] VFTA_BASE = 17'h05600
) (
    input  wire        clk,
    input  wire        rst,                  // function reset: ignores accesses
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output reg  [31:0] mmio_rdata,           // the cycle after a read (nothing samples it otherwise)
    output reg         mmio_known,           // with an access, the address is a VFTA register (combinational)
    input  wire        vfe,
    input  wire        cfien,
    input  wire        cfi,
    input  wire [15:0] vet,
    input  wire        probe,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0] tag,                  // bytes 12..15 of the frame, byte 12 in 7:0 (priority 23:21 unused)
    /* verilator lint_on UNUSEDSIGNAL */
    output reg         vlan_ok
);
    reg [31:0] vfta [0:127];

    wire        blk = mmio_addr[16:9] == VFTA_BASE[16:9];
    always @(*) begin
        mmio_known = 1'b0;
        if (mmio_valid) mmio_known = blk;    // decoded only with an access
    end

    // Work only with an access: mmio_rdata changes with a read only.  The
    // table is written with a blocking assignment: nothing reads it at the
    // edge of a write (a read is another access), and Verilator then keeps
    // no per-edge bookkeeping of a delayed array write.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (rst)
            mmio_rdata <= 32'd0;
        else if (mmio_valid) begin
            // nested: as one condition, Verilator decodes blk at every edge
            if (!mmio_write)
                mmio_rdata <= blk ? vfta[mmio_addr[8:2]] : 32'd0;
            else if (blk)
                vfta[mmio_addr[8:2]] = mmio_wdata;
        end
    end
    /* verilator lint_on BLKSEQ */

    // Evaluated only with a frame's first beat (probe).
    reg [12:0] tci;                          // CFI and VLAN ID of the tag
    /* verilator lint_off LATCH */
    always @(*) begin : decide
        vlan_ok = 1'b1;
`ifdef SYNTHESIS
        tci = 13'd0;                         // no latch in the netlist (see mac_rx)
`endif
        if (probe && vfe && {tag[7:0], tag[15:8]} == vet) begin
            tci = {tag[20:16], tag[31:24]};
            vlan_ok = vfta[tci[11:5]][tci[4:0]] && (!cfien || tci[12] == cfi);
        end
    end
    /* verilator lint_on LATCH */
endmodule
