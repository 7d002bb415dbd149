// Intel 82546 (dual-port e1000, PCI-X) transmit path: two functions behind
// one bus interface.  The simulator's PCI-X model owns all bus timing; this
// top level offers it:
//   - an MMIO port: one access per cycle; a read answers on mmio_rvalid one
//     cycle later;
//   - a DMA request port (always accepted by the simulator; requests are
//     granted round robin between the functions, and a write request is
//     followed by its data beats on dma_wvalid/dma_wdata, with no other
//     write granted until dma_wlast);
//   - a read completion stream: 64-bit beats per tag, packed from the first
//     requested byte, never back-pressured (the functions reserve space
//     before they request);
//   - per port a MAC stream to the link model, with tx_ready from the link;
//   - per function an interrupt line;
//   - `idle`: nothing changes until an input changes or `next_timer` ticks
//     of 256 ns have passed, so the simulator may stop clocking the design.
module nic82546 (
    input  wire         clk,
    input  wire         rst_n,
    // straps reported in STATUS
    input  wire [1:0]   link_up,
    input  wire         pcix_mode,
    input  wire [1:0]   pcix_speed,
    input  wire         bus64,
    input  wire         pci66,
    input  wire [15:0]  tick_256ns,     // 256 ns ticks elapsed since the previous edge
    // MMIO
    input  wire         mmio_valid,
    input  wire         mmio_write,
    input  wire         mmio_func,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [16:0]  mmio_addr,      // byte offset in BAR0; registers are dwords
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0]  mmio_wdata,
    output reg          mmio_rvalid,
    output reg  [31:0]  mmio_rdata,
    // DMA requests
    output reg          dma_req_valid,
    output reg          dma_req_write,
    output reg          dma_req_func,
    output reg  [4:0]   dma_req_tag,
    output reg  [63:0]  dma_req_addr,
    output reg  [15:0]  dma_req_len,
    output reg          dma_wvalid,
    output reg  [63:0]  dma_wdata,
    // read completions
    input  wire         dma_cvalid,
    input  wire         dma_cfunc,
    input  wire [4:0]   dma_ctag,
    input  wire [63:0]  dma_cdata,
    // MAC streams, port p in bits [p]
    input  wire [1:0]   mac_tx_ready,
    output wire [1:0]   mac_tx_valid,
    output wire [127:0] mac_tx_data,
    output wire [7:0]   mac_tx_nbytes,
    output wire [1:0]   mac_tx_last,
    output wire [1:0]   mac_tx_fcs,
    output wire [21:0]  mac_tx_ipg,
    output wire [1:0]   irq,
    output wire [15:0]  next_timer,
    output wire         idle
);
    wire rst = !rst_n;

    wire [1:0]  req_valid, req_write, req_ready, wvalid, wlast, m_rvalid, busy;
    wire [4:0]  req_tag [0:1];
    wire [63:0] req_addr [0:1];
    wire [15:0] req_len [0:1];
    wire [63:0] wdata [0:1];
    wire [31:0] m_rdata [0:1];
    wire [15:0] ntimer [0:1];

    genvar f;
    generate for (f = 0; f < 2; f = f + 1) begin : g_func
        e1000_func #(.FUNC(f[1:0])) fn (
            .clk(clk), .rst(rst), .link_up(link_up[f]), .pcix_mode(pcix_mode), .pcix_speed(pcix_speed),
            .bus64(bus64), .pci66(pci66), .tick(tick_256ns),
            .mmio_valid(mmio_valid && mmio_func == f[0]), .mmio_write(mmio_write),
            .mmio_addr(mmio_addr[16:2]), .mmio_wdata(mmio_wdata),
            .mmio_rvalid(m_rvalid[f]), .mmio_rdata(m_rdata[f]),
            .req_valid(req_valid[f]), .req_write(req_write[f]), .req_tag(req_tag[f]),
            .req_addr(req_addr[f]), .req_len(req_len[f]), .req_ready(req_ready[f]),
            .wvalid(wvalid[f]), .wdata(wdata[f]), .wlast(wlast[f]),
            .cpl_valid(dma_cvalid && dma_cfunc == f[0]), .cpl_tag(dma_ctag), .cpl_data(dma_cdata),
            .tx_ready(mac_tx_ready[f]), .tx_valid(mac_tx_valid[f]), .tx_data(mac_tx_data[64*f +: 64]),
            .tx_nbytes(mac_tx_nbytes[4*f +: 4]), .tx_last(mac_tx_last[f]), .tx_fcs(mac_tx_fcs[f]),
            .tx_ipg(mac_tx_ipg[11*f +: 11]), .irq(irq[f]), .next_timer(ntimer[f]), .busy(busy[f]));
    end endgenerate

    // ---- DMA arbitration: round robin; one write's data at a time ----
    reg       rr;                 // function with priority this cycle
    reg       wlock;              // a write's data beats are being forwarded
    reg       wlock_f;
    wire      ok0 = req_valid[0] && !(req_write[0] && wlock);
    wire      ok1 = req_valid[1] && !(req_write[1] && wlock);
    wire      pick1 = ok1 && (!ok0 || rr);
    wire      grant = ok0 || ok1;
    assign req_ready = {grant && pick1, grant && !pick1};

    always @(posedge clk) begin
        dma_req_valid <= 1'b0;
        dma_wvalid    <= 1'b0;
        mmio_rvalid   <= m_rvalid[0] || m_rvalid[1];
        mmio_rdata    <= m_rvalid[1] ? m_rdata[1] : m_rdata[0];
        if (rst) begin
            rr <= 0; wlock <= 0; wlock_f <= 0;
            dma_req_write <= 0; dma_req_func <= 0; dma_req_tag <= 0; dma_req_addr <= 0;
            dma_req_len <= 0; dma_wdata <= 0; mmio_rdata <= 0; mmio_rvalid <= 0;
        end else begin
            if (grant) begin
                dma_req_valid <= 1'b1;
                dma_req_write <= req_write[pick1];
                dma_req_func  <= pick1;
                dma_req_tag   <= req_tag[pick1];
                dma_req_addr  <= req_addr[pick1];
                dma_req_len   <= req_len[pick1];
                rr <= !pick1;
                if (req_write[pick1]) begin
                    wlock <= 1'b1;
                    wlock_f <= pick1;
                end
            end
            if (wlock && wvalid[wlock_f]) begin
                dma_wvalid <= 1'b1;
                dma_wdata  <= wdata[wlock_f];
                if (wlast[wlock_f]) wlock <= 1'b0;
            end
        end
    end

    assign next_timer = (ntimer[0] < ntimer[1]) ? ntimer[0] : ntimer[1];
    assign idle = !(busy[0] || busy[1] || wlock || m_rvalid != 2'b00);
endmodule
