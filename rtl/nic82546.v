// Intel 82546 (dual-port e1000, PCI-X) transmit and receive paths: two
// functions behind one bus interface.  The simulator's PCI-X model owns all bus timing; this
// top level offers it:
//   - an MMIO port: one access per cycle; a read answers on mmio_rvalid one
//     cycle later;
//   - a DMA request port (always accepted by the simulator; requests are
//     granted round robin between the functions, and a write request is
//     followed by its data beats on dma_wvalid/dma_wdata, with no other
//     write granted until dma_wlast, nor while the bus says dma_wfull: its
//     queue of posted writes has no room);
//   - a read completion stream: 32-byte beats per tag, packed from the first
//     requested byte, never back-pressured (the functions reserve space
//     before they request);  write data likewise in 32-byte beats;
//   - per port a MAC stream to the link model, with tx_ready from the link;
//   - per port a MAC stream from the link model: a received frame's bytes,
//     FCS included, as 32-byte beats on consecutive cycles (every beat but
//     the last full), rx_crc_ok with the last beat; no backpressure (a frame
//     the RX packet buffer cannot hold is dropped and counted in MPC);
//   - per function an interrupt line;
//   - `idle`: nothing changes until an input changes or `next_timer` ticks
//     of 256 ns have passed, so the simulator may stop clocking the design.
//     Tick counts and timers are 18 bits per function: the longest timer,
//     TADV/TIDV = 65535 x 1.024 us, is 262140 ticks.  func_next_timer is
//     18'h3FFFF when no timer runs, and the simulator saturates func_tick at
//     18'h3FFFF (longer than any timer, so saturation loses nothing).
// Clocking: `clk` runs the shared bus interface; each function runs on its
// own gated copy of it (func_clk[f], an integrated clock-gating cell outside
// this module), enabled while the function reports work (func_idle[f] low)
// or has an input.  A gated function keeps its state, so an idle port costs
// no evaluation at all.  Each function counts its own 256 ns ticks.
// The bus interface (host_if, shared with nic82599) holds the input flops
// and the DMA arbiter between the functions.
// MMIO, completion and MAC receive inputs pass through one rank of input
// flops on `clk` (the bus interface's), so a function sees such an input one
// cycle after it arrives and must be clocked on that cycle.  The link-ready levels and the
// 256 ns tick counts go straight to the functions.
module nic82546 #(
    // functions built: 2 (both ports), or 1 when the simulator drives only
    // port 0 of the card: port 1 then answers register reads with 0, ignores
    // writes and never asks for DMA, and its logic costs nothing per cycle
    // (as nic82599's NFUNC)
    parameter NFUNC = 2
) (
    input  wire         clk,
    input  wire [1:0]   func_clk,
    input  wire         rst_n,
    // straps reported in STATUS
    input  wire [1:0]   link_up,
    input  wire         pcix_mode,
    input  wire [1:0]   pcix_speed,
    input  wire         bus64,
    input  wire         pci66,
    input  wire [47:0]  mac_addr,       // what the card's EEPROM holds: port 0's address, first byte lowest
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

    genvar f;
    generate for (f = 0; f < NFUNC; f = f + 1) begin : g_func
        e1000_func #(.FUNC(f[1:0])) fn (
            .clk(func_clk[f]), .rst(rst), .link_up(link_up[f]), .pcix_mode(pcix_mode), .pcix_speed(pcix_speed),
            .bus64(bus64), .pci66(pci66), .mac_addr(mac_addr), .tick(func_tick[18*f +: 18]),
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
        // the port's strap and streams go nowhere
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, func_clk[f], link_up[f], func_tick[18*f +: 18], mac_tx_ready[f], rxv_q[f],
                        rxd_q[256*f +: 256], rxn_q[6*f +: 6], rxl_q[f], rxc_q[f], req_ready[f]};
        /* verilator lint_on UNUSEDSIGNAL */
    end endgenerate

    assign func_idle = ~busy;
endmodule
