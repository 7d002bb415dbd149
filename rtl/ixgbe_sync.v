// The 82599's device-wide semaphores: the registers both functions' drivers
// (and the firmware, which this model has none of) use to share the EEPROM,
// the PHYs and the MAC's common registers.  One copy per device, not per
// function, which is why they live beside the two ixgbe_func instances: a
// driver on port 1 must see the semaphore a driver on port 0 took.
//
//   SWSM (0x10140)
//     SMBI (bit 0): "read to set": a read returns the bit and sets it, so of
//       two drivers reading it only the first sees 0 and owns it; software
//       releases it by writing 0.
//     SWESMBI (bit 1): the software/firmware EEPROM semaphore; software sets
//       it and reads it back to see whether it got it.  With no firmware
//       contending, a write of 1 always sticks.
//   SW_FW_SYNC (0x10160, DPDK's GSSR)
//     bits 4:0 and 10: software's resource bits (EEPROM, PHY0, PHY1, MAC
//     CSR, flash; SW_MNG), read/write; bits 9:5: firmware's for the same
//     resources, read-only 0 (no firmware ever holds one).
// DPDK's ixgbe_get_eeprom_semaphore and ixgbe_acquire_swfw_sync use exactly
// these (read SMBI until 0, set SWESMBI and read it back, then set the
// resource bit if neither owner holds it).
//
// The functions decode the offsets (ixgbe_regs) and answer reads from
// swsm / sw_fw_sync here: both act at the same edge, so a read returns the
// value before the edge and SMBI is set after it.  Clocked by the
// interface clock, which ticks at every edge a function does.
module ixgbe_sync (
    input  wire        clk,
    input  wire        rst,
    input  wire        mmio_valid,       // an access reaches a function (any)
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [10:0] mmio_wdata,       // the bits either register has
    output reg  [1:0]  swsm,
    output reg  [10:0] sw_fw_sync
);
    localparam [16:0] SWSM = 17'h10140, SW_FW_SYNC = 17'h10160;
    localparam [10:0] SW_BITS = 11'h41F;
    wire [16:0] a = {mmio_addr, 2'b00};

    always @(posedge clk) begin
        if (rst) begin
            swsm <= 2'b00;
            sw_fw_sync <= 11'd0;
        end else if (mmio_valid) begin
            // the address is compared only with an access (nested: as one
            // condition, Verilator evaluates it at every edge)
            if (a == SWSM) begin
                if (mmio_write) swsm <= mmio_wdata[1:0];
                else            swsm[0] <= 1'b1;
            end else if (mmio_write && a == SW_FW_SYNC) begin
                sw_fw_sync <= mmio_wdata[10:0] & SW_BITS;
            end
        end
    end
endmodule
