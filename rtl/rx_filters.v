// The receive filters of one function in front of mac_rx: the destination
// address filter (rx_addr_filter: RAL/RAH, MTA) and the VLAN filter
// (rx_vlan_filter: VFTA), behind one register interface.  e1000_func and
// ixgbe_func differ only in the parameters and in where MO, MFE and the
// VLAN controls come from.
module rx_filters #(
    parameter NRAR = 16,                     // rx_addr_filter's parameters
    parameter LNRAR = 4,
    parameter [16:0] RAR_BASE = 17'h05400,
    parameter ASEL = 1,
    parameter [16:0] VFTA_BASE = 17'h05600   // rx_vlan_filter's
) (
    input  wire        clk,
    input  wire        rst,                  // function reset
    input  wire [47:0] mac_addr,             // receive address entry 0 after reset
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output wire [31:0] mmio_rdata,           // the cycle after a read of their registers; 0 otherwise
    output wire        mmio_known,           // the address is one of their registers (combinational)
    input  wire [1:0]  mo,                   // multicast offset (RCTL.MO / MCSTCTRL.MO)
    input  wire        mfe,                  // multicast table enabled
    input  wire        vfe,
    input  wire        cfien,
    input  wire        cfi,
    input  wire [15:0] vet,
    input  wire        probe,                // a frame's first beat
    input  wire [47:0] da,                   // its destination address, byte 0 in 7:0
    input  wire [31:0] tag,                  // its bytes 12..15, byte 12 in 7:0
    output wire        da_match,
    output wire        vlan_ok
);
    wire [31:0] filt_rdata, vlan_rdata;
    wire        filt_known, vlan_known;
    assign mmio_rdata = filt_rdata | vlan_rdata;
    assign mmio_known = filt_known || vlan_known;

    rx_addr_filter #(.NRAR(NRAR), .LNRAR(LNRAR), .RAR_BASE(RAR_BASE), .ASEL(ASEL)) filt (
        .clk(clk), .rst(rst), .mac_addr(mac_addr),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rdata(filt_rdata), .mmio_known(filt_known), .mo(mo), .mfe(mfe),
        .probe(probe), .da(da), .da_match(da_match));
    rx_vlan_filter #(.VFTA_BASE(VFTA_BASE)) vlan (
        .clk(clk), .rst(rst),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rdata(vlan_rdata), .mmio_known(vlan_known), .vfe(vfe), .cfien(cfien), .cfi(cfi),
        .vet(vet), .probe(probe), .tag(tag), .vlan_ok(vlan_ok));
endmodule
