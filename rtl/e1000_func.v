// One port (PCI function) of the 82546: register file, transmit descriptor
// engine, packet buffer, MAC, interrupts and statistics.  The internal
// datapath moves 32 bytes per cycle (completions, write-back data, MAC beats):
// a design choice for simulation speed; bus timing lives in the bus model.
module e1000_func #(
    parameter [1:0] FUNC = 2'd0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        link_up,
    input  wire        pcix_mode,
    input  wire [1:0]  pcix_speed,
    input  wire        bus64,
    input  wire        pci66,
    input  wire [17:0] tick,           // 256 ns ticks since the previous edge (saturating)
    // MMIO
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output wire        mmio_rvalid,
    output wire [31:0] mmio_rdata,
    // DMA
    output wire        req_valid,
    output wire        req_write,
    output wire [4:0]  req_tag,
    output wire [63:0] req_addr,
    output wire [15:0] req_len,
    input  wire        req_ready,
    output wire        wvalid,
    output wire [255:0] wdata,
    output wire        wlast,
    input  wire        cpl_valid,
    input  wire [4:0]  cpl_tag,
    input  wire [255:0] cpl_data,
    // MAC to the link
    input  wire        tx_ready,
    output wire        tx_valid,
    output wire [255:0] tx_data,
    output wire [5:0]  tx_nbytes,
    output wire        tx_last,
    output wire        tx_fcs,
    output wire [10:0] tx_ipg,
    output wire        irq,
    output wire [17:0] next_timer,     // ticks to the earliest running timer; 18'h3FFFF none
    output wire        busy
);
    localparam AW = 16;
    wire        frst;
    wire        tx_en, tx_psp, tdh_wr, gran;
    wire [9:0]  ipgt;
    wire [63:0] tdba;
    wire [15:0] ring_size, tdt, tdh_val, tdh, tidv, tadv, itr;
    wire [5:0]  pthresh, hthresh, wthresh;
    wire [16:0] tx_buf_bytes;
    wire        icr_read, icr_wr, ics_wr, ims_wr, imc_wr, itr_wr, stat_rd;
    wire [31:0] icr, ims, stat_data;
    wire [7:0]  stat_idx;

    e1000_regs #(.FUNC(FUNC)) regs (
        .clk(clk), .rst(rst), .func_rst(frst),
        .link_up(link_up), .pcix_mode(pcix_mode), .pcix_speed(pcix_speed), .bus64(bus64), .pci66(pci66),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rvalid(mmio_rvalid), .mmio_rdata(mmio_rdata),
        .tx_en(tx_en), .tx_psp(tx_psp), .ipgt(ipgt), .tdba(tdba), .ring_size(ring_size), .tdt(tdt),
        .tdh_wr(tdh_wr), .tdh_val(tdh_val), .tdh(tdh), .pthresh(pthresh), .hthresh(hthresh),
        .wthresh(wthresh), .gran(gran), .tidv(tidv), .tadv(tadv), .tx_buf_bytes(tx_buf_bytes),
        .icr_read(icr_read), .icr_wr(icr_wr), .ics_wr(ics_wr), .ims_wr(ims_wr), .imc_wr(imc_wr),
        .itr_wr(itr_wr), .icr(icr), .ims(ims), .itr(itr),
        .stat_rd(stat_rd), .stat_idx(stat_idx), .stat_data(stat_data));

    wire [AW:0] free_bytes;
    wire        tag_free, buf_idle, issue_valid, issue_dma, issue_eop, issue_ifcs, issue_drop, frag_done;
    wire [3:0]  next_tag;
    wire [15:0] issue_len;
    wire        txdw_set, txqe_set, q_busy, b_busy, m_busy, i_busy;
    wire [17:0] q_timer, i_timer;

    e1000_tx_queue #(.AW(AW)) txq (
        .clk(clk), .rst(frst), .en(tx_en), .tdba(tdba), .ring_size(ring_size), .tdt(tdt),
        .tdh_wr(tdh_wr), .tdh_val(tdh_val), .pthresh(pthresh), .hthresh(hthresh), .wthresh(wthresh),
        .gran(gran), .tidv(tidv), .tadv(tadv), .tick(tick), .tdh(tdh),
        .size_bytes(tx_buf_bytes), .free_bytes(free_bytes), .tag_free(tag_free), .buf_idle(buf_idle),
        .next_tag(next_tag), .issue_valid(issue_valid), .issue_dma(issue_dma), .issue_len(issue_len), .issue_eop(issue_eop),
        .issue_ifcs(issue_ifcs), .issue_drop(issue_drop), .frag_done(frag_done),
        .dcpl_valid(cpl_valid && cpl_tag[4]), .dcpl_data(cpl_data),
        .req_valid(req_valid), .req_write(req_write), .req_tag(req_tag), .req_addr(req_addr),
        .req_len(req_len), .req_ready(req_ready), .wvalid(wvalid), .wdata(wdata), .wlast(wlast),
        .txdw_set(txdw_set), .txqe_set(txqe_set), .next_timer(q_timer), .busy(q_busy));

    wire        frame_avail, frame_ifcs, frame_skip, frame_pop;
    wire [15:0] frame_len;
    wire [AW-1:0] rd_addr;
    wire        rd_en;
    wire [255:0] rd_data;

    tx_pkt_buffer #(.BB(32), .LB(5), .AW(AW), .NTAG(16)) pbuf (
        .clk(clk), .rst(frst), .size_bytes(tx_buf_bytes), .free_bytes(free_bytes),
        .tag_free(tag_free), .idle(buf_idle), .next_tag(next_tag),
        .issue_valid(issue_valid), .issue_dma(issue_dma), .issue_len(issue_len), .issue_eop(issue_eop),
        .issue_ifcs(issue_ifcs), .issue_drop(issue_drop),
        .cpl_valid(cpl_valid && !cpl_tag[4]), .cpl_tag(cpl_tag[3:0]), .cpl_data(cpl_data),
        .frag_done(frag_done), .frame_avail(frame_avail), .frame_len(frame_len),
        .frame_ifcs(frame_ifcs), .frame_skip(frame_skip), .frame_pop(frame_pop),
        .rd_en(rd_en), .rd_addr(rd_addr), .rd_data(rd_data), .busy(b_busy));

    wire        stat_sent;
    wire [15:0] stat_len;

    mac_tx #(.BB(32), .LB(5), .AW(AW)) mac (
        .clk(clk), .rst(frst), .psp(tx_psp), .ipgt(ipgt), .size_bytes(tx_buf_bytes),
        .frame_avail(frame_avail), .frame_len(frame_len), .frame_ifcs(frame_ifcs),
        .frame_skip(frame_skip), .frame_pop(frame_pop), .rd_en(rd_en), .rd_addr(rd_addr), .rd_data(rd_data),
        .tx_ready(tx_ready), .tx_valid(tx_valid), .tx_data(tx_data), .tx_nbytes(tx_nbytes),
        .tx_last(tx_last), .tx_fcs(tx_fcs), .tx_ipg(tx_ipg),
        .stat_sent(stat_sent), .stat_len(stat_len), .busy(m_busy));

    e1000_intr intr (
        .clk(clk), .rst(frst), .cause_set({30'd0, txqe_set, txdw_set}),
        .icr_read(icr_read), .icr_wr(icr_wr), .ics_wr(ics_wr), .ims_wr(ims_wr), .imc_wr(imc_wr),
        .wdata(mmio_wdata), .itr_wr(itr_wr), .tick(tick),
        .icr(icr), .ims(ims), .itr(itr), .irq(irq), .next_timer(i_timer), .busy(i_busy));

    e1000_tx_stats stats (
        .clk(clk), .rst(frst), .sent(stat_sent), .len(stat_len),
        .rd(stat_rd), .rd_idx(stat_idx), .rd_data(stat_data));

    assign next_timer = (q_timer < i_timer) ? q_timer : i_timer;
    // a function in reset (CTRL.RST) counts down its reset and must be clocked
    // registered outputs that the shared interface or the link take at the
    // next edge (a read answer, a MAC beat) keep the function clocked
    assign busy = q_busy || b_busy || m_busy || i_busy || (frst && !rst) || mmio_rvalid || tx_valid;
endmodule
