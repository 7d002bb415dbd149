// Intel 82599 (dual-port 10 GbE, ixgbe) transmit and receive paths: two
// functions (the two ports) behind one bus interface, with the interface
// contract of nic82546 so that the simulator's adapter drives either top:
// the same MMIO port, DMA request/write/completion ports, MAC streams with
// 32-byte beats, per-function irq, func_idle, idle, func_tick /
// func_next_timer and gated func_clk (see the header of rtl/nic82546.v for
// the contract itself).  Only the straps differ: the 82599 reports no PCI-X
// bus in STATUS; each port has a link strap (LINKS.LINK_UP comes up a
// modelled delay after reset while it is up) and a MAC-address strap that
// RAL(0)/RAH(0) load at every reset, as the EEPROM auto-read would
// (nic-facts B1, B1a step 4).  mac_addr holds port p's address in
// [48p +: 48], its first byte (first on the wire) in the low 8 bits.
//
// The PCIe bus of the real part (nic-facts D) is timed by the simulator's
// bus model like PCI-X is for the 82546; the RTL sees only requests and
// beats.  Each function is an ixgbe_func (queue 0's engines, registers,
// MACs, interrupts, statistics); the bus interface is nic82546's, the same
// module (host_if): the input flops of the bus and of the MAC receive
// streams, and the round-robin DMA arbiter between the functions (one
// write's data at a time).
module nic82599 #(
    // functions built: 2 (both ports), or 1 when the simulator drives only
    // port 0 of the card: port 1 then answers register reads with 0, ignores
    // writes and never asks for DMA, and its logic costs nothing per cycle
    parameter NFUNC = 2
) (
    input  wire         clk,
    input  wire [1:0]   func_clk,
    input  wire         rst_n,
    // straps: per port, the link partner is there, and the MAC address the
    // EEPROM would load into RAL(0)/RAH(0)
    input  wire [1:0]   link_up,
    input  wire [95:0]  mac_addr,
    input  wire [35:0]  func_tick,      // per function (18 bits each): 256 ns ticks since its previous edge, saturating at 18'h3FFFF
    // MMIO
    input  wire         mmio_valid,
    input  wire         mmio_write,
    input  wire         mmio_func,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [16:0]  mmio_addr,      // byte offset in BAR0; registers are dwords
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0]  mmio_wdata,
    output wire         mmio_rvalid,
    output wire [31:0]  mmio_rdata,
    // an MMIO access to an address that names no register the model
    // implements (its function, direction and dword address), one cycle
    // high at the edge after the access reached the function: the
    // simulator counts and names them (issue 20: a write that was ignored
    // must not hide behind "it worked")
    output wire         mmio_unmodelled,
    output wire         mmio_unmodelled_func,
    output wire         mmio_unmodelled_write,
    output wire [16:2]  mmio_unmodelled_addr,
    // DMA requests
    output wire         dma_req_valid,
    output wire         dma_req_write,
    output wire         dma_req_func,
    output wire [4:0]   dma_req_tag,
    output wire [63:0]  dma_req_addr,
    output wire [15:0]  dma_req_len,
    output wire         dma_wvalid,
    output wire [255:0] dma_wdata,
    // the bus's write queue is full: no write request is granted at the
    // next edge (registered, like the other bus inputs)
    input  wire         dma_wfull,
    // read completions
    input  wire         dma_cvalid,
    input  wire         dma_cfunc,
    input  wire [4:0]   dma_ctag,
    input  wire [255:0] dma_cdata,
    // MAC streams, port p in bits [p]; ready: the link can take a frame
    input  wire [1:0]   mac_tx_ready,
    output wire [1:0]   mac_tx_valid,
    output wire [511:0] mac_tx_data,
    output wire [11:0]  mac_tx_nbytes,
    output wire [1:0]   mac_tx_last,
    output wire [1:0]   mac_tx_fcs,
    output wire [21:0]  mac_tx_ipg,
    input  wire [1:0]   mac_rx_valid,
    input  wire [511:0] mac_rx_data,    // 32 bytes per port, byte 0 in bits 7:0
    input  wire [11:0]  mac_rx_nbytes,  // 6 bits per port: bytes in the beat, 1..32
    input  wire [1:0]   mac_rx_last,
    input  wire [1:0]   mac_rx_crc_ok,  // with last: the frame's FCS is right
    output wire [1:0]   irq,
    output wire [35:0]  func_next_timer, // per function (18 bits each): ticks to its next timer, 18'h3FFFF none
    output wire [1:0]   func_idle,
    output wire         idle             // the shared interface has nothing in flight
);
    wire rst = !rst_n;

    // ---- the bus interface: input flops, DMA arbiter, read answers (host_if) ----
    wire         mmio_valid_q, mmio_write_q, mmio_func_q;
    wire [16:2]  mmio_addr_q;
    wire [31:0]  mmio_wdata_q;
    wire         cvalid_q, cfunc_q;
    wire [4:0]   ctag_q;
    wire [255:0] cdata_q;
    wire [1:0]   rxv_q, rxl_q, rxc_q;
    wire [11:0]  rxn_q;
    wire [511:0] rxd_q;
    wire [1:0]   req_valid, req_write, req_ready, wvalid, wlast, m_rvalid, busy;
    wire [9:0]   req_tag;
    wire [127:0] req_addr;
    wire [31:0]  req_len;
    wire [511:0] wdata;
    wire [63:0]  m_rdata;
    wire [1:0]   m_known;               // the function decodes the address (e1000_regs / ixgbe_regs)

    host_if #(.NFUNC(NFUNC)) hif (
        .clk(clk), .rst_n(rst_n),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_func(mmio_func), .mmio_addr(mmio_addr[16:2]),
        .mmio_wdata(mmio_wdata), .dma_wfull(dma_wfull), .dma_cvalid(dma_cvalid), .dma_cfunc(dma_cfunc), .dma_ctag(dma_ctag),
        .dma_cdata(dma_cdata), .mac_rx_valid(mac_rx_valid), .mac_rx_data(mac_rx_data),
        .mac_rx_nbytes(mac_rx_nbytes), .mac_rx_last(mac_rx_last), .mac_rx_crc_ok(mac_rx_crc_ok),
        .mmio_valid_q(mmio_valid_q), .mmio_write_q(mmio_write_q), .mmio_func_q(mmio_func_q),
        .mmio_addr_q(mmio_addr_q), .mmio_wdata_q(mmio_wdata_q), .cvalid_q(cvalid_q), .cfunc_q(cfunc_q),
        .ctag_q(ctag_q), .cdata_q(cdata_q), .rxv_q(rxv_q), .rxd_q(rxd_q), .rxn_q(rxn_q), .rxl_q(rxl_q),
        .rxc_q(rxc_q),
        .f_req_valid(req_valid), .f_req_write(req_write), .f_req_tag(req_tag), .f_req_addr(req_addr),
        .f_req_len(req_len), .f_req_ready(req_ready), .f_wvalid(wvalid), .f_wdata(wdata), .f_wlast(wlast),
        .f_rvalid(m_rvalid), .f_rdata(m_rdata), .f_known(m_known),
        .mmio_unmodelled(mmio_unmodelled), .mmio_unmodelled_func(mmio_unmodelled_func),
        .mmio_unmodelled_write(mmio_unmodelled_write), .mmio_unmodelled_addr(mmio_unmodelled_addr),
        .dma_req_valid(dma_req_valid), .dma_req_write(dma_req_write), .dma_req_func(dma_req_func),
        .dma_req_tag(dma_req_tag), .dma_req_addr(dma_req_addr), .dma_req_len(dma_req_len),
        .dma_wvalid(dma_wvalid), .dma_wdata(dma_wdata), .mmio_rvalid(mmio_rvalid), .mmio_rdata(mmio_rdata),
        .idle(idle));

    // ---- beside the functions: the card's EEPROM and the semaphores the
    // two functions' drivers share ----
    wire [15:0] ee_addr;                // function f's EERD word in [8f +: 8]
    wire [1:0]  ee_rd;                  // function f reads EERD
    wire [31:0] ee_data;
    wire [1:0]  swsm;
    wire [10:0] sw_fw_sync;
    ixgbe_eeprom eeprom (.mac_addr(mac_addr), .addr0(ee_addr[7:0]), .addr1(ee_addr[15:8]),
                         .rd0(ee_rd[0]), .rd1(ee_rd[1]), .data0(ee_data[15:0]), .data1(ee_data[31:16]));
    ixgbe_sync sync (.clk(clk), .rst(rst), .mmio_valid(mmio_valid_q), .mmio_write(mmio_write_q),
                     .mmio_addr(mmio_addr_q), .mmio_wdata(mmio_wdata_q[10:0]), .swsm(swsm), .sw_fw_sync(sw_fw_sync));

    genvar f;
    generate for (f = 0; f < NFUNC; f = f + 1) begin : g_func
        ixgbe_func #(.FUNC(f[1:0])) fn (
            .clk(func_clk[f]), .rst(rst), .link_up(link_up[f]), .mac_addr(mac_addr[48*f +: 48]),
            .tick(func_tick[18*f +: 18]),
            .ee_addr(ee_addr[8*f +: 8]), .ee_rd(ee_rd[f]), .ee_data(ee_data[16*f +: 16]), .dev_swsm(swsm), .dev_sw_fw_sync(sw_fw_sync),
            .mmio_valid(mmio_valid_q && mmio_func_q == f[0]), .mmio_write(mmio_write_q),
            .mmio_addr(mmio_addr_q), .mmio_wdata(mmio_wdata_q),
            .mmio_rvalid(m_rvalid[f]), .mmio_rdata(m_rdata[32*f +: 32]), .mmio_known(m_known[f]),
            .req_valid(req_valid[f]), .req_write(req_write[f]), .req_tag(req_tag[5*f +: 5]),
            .req_addr(req_addr[64*f +: 64]), .req_len(req_len[16*f +: 16]), .req_ready(req_ready[f]),
            .wvalid(wvalid[f]), .wdata(wdata[256*f +: 256]), .wlast(wlast[f]),
            .cpl_valid(cvalid_q && cfunc_q == f[0]), .cpl_tag(ctag_q), .cpl_data(cdata_q),
            .tx_ready(mac_tx_ready[f]), .tx_valid(mac_tx_valid[f]), .tx_data(mac_tx_data[256*f +: 256]),
            .tx_nbytes(mac_tx_nbytes[6*f +: 6]), .tx_last(mac_tx_last[f]), .tx_fcs(mac_tx_fcs[f]),
            .tx_ipg(mac_tx_ipg[11*f +: 11]),
            .rx_valid(rxv_q[f]), .rx_data(rxd_q[256*f +: 256]), .rx_nbytes(rxn_q[6*f +: 6]),
            .rx_last(rxl_q[f]), .rx_crc_ok(rxc_q[f]), .irq(irq[f]), .next_timer(func_next_timer[18*f +: 18]), .busy(busy[f]));
    end endgenerate
    // a port that is not built (absent_port.vh)
    generate for (f = NFUNC; f < 2; f = f + 1) begin : g_absent
        `include "absent_port.vh"
        assign ee_addr[8*f +: 8] = 8'd0;
        assign ee_rd[f] = 1'b0;
        // the port's straps and streams go nowhere
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, func_clk[f], link_up[f], mac_addr[48*f +: 48], func_tick[18*f +: 18],
                        mac_tx_ready[f], rxv_q[f], rxd_q[256*f +: 256], rxn_q[6*f +: 6], rxl_q[f], rxc_q[f],
                        req_ready[f], ee_data[16*f +: 16]};
        /* verilator lint_on UNUSEDSIGNAL */
    end endgenerate

    assign func_idle = ~busy;
endmodule
