// One port (PCI function) of the 82546: register file, transmit and receive
// descriptor engines, packet buffers, MACs, interrupts and statistics.  The
// internal datapath moves 32 bytes per cycle (completions, DMA write data,
// MAC beats): a design choice for simulation speed; bus timing lives in the
// bus model.
//
// The port has one DMA request port; the TX and RX queues share it through a
// round-robin arbiter (queue_dma_arb).  A granted write's data beats follow
// it, and no other write is granted until its last beat (the rule of the top
// level's arbiter between the functions, host_if).  Read completions go by tag: 0..15 TX
// packet data, 5'h10 TX descriptors, 5'h11 RX descriptors.
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
    input  wire [47:0] mac_addr,       // the card's EEPROM address (port 0's), first byte lowest
    input  wire [17:0] tick,           // 256 ns ticks since the previous edge (saturating)
    // MMIO
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output wire        mmio_rvalid,
    output wire [31:0] mmio_rdata,
    output wire        mmio_known,       // the MMIO address names an implemented register (e1000_regs)
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
    // MAC from the link (through the top's input flops)
    input  wire        rx_valid,
    input  wire [255:0] rx_data,
    input  wire [5:0]  rx_nbytes,
    input  wire        rx_last,
    input  wire        rx_crc_ok,
    output wire        irq,
    output wire [17:0] next_timer,     // ticks to the earliest running timer; 18'h3FFFF none
    output wire        busy
);
    localparam AW = 16;
    localparam RW = 11;                // RX packet buffer: 2048 rows of 32 bytes
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
    wire        rx_en, rx_sbp, rx_upe, rx_mpe, rx_lpe, rx_bam, rx_secrc, rdh_wr, rx_gran, rx_fpd, rx_cfg_wr;
    wire [1:0]  rx_mo;
    wire        rx_vfe, rx_cfien, rx_cfi;
    wire [15:0] rx_vet;
    wire [1:0]  rx_rdmts;
    wire [15:0] rx_buf_bytes, rx_ring_size, rdt, rdh, rdtr, radv;
    wire [63:0] rdba;
    wire [5:0]  rx_pthresh, rx_hthresh, rx_wthresh;
    wire [RW:0] rx_rows;
    wire        rx_room, rx_wr_en, rx_commit, rx_abort, rx_commit_ce, rx_nodesc, rxo_set, mr_busy;
    wire [15:0] rx_commit_len;
    wire        ev, ev_good, ev_bc, ev_mc, ev_crcerr, ev_ruc, ev_rfc, ev_roc, ev_rjc, ev_mpc, ev_rnbc;
    wire [15:0] ev_len;
    wire        rq_req_valid, rq_req_write, rq_req_ready, rq_wvalid, rq_wlast;
    wire [4:0]  rq_req_tag;
    wire [63:0] rq_req_addr;
    wire [15:0] rq_req_len;
    wire [255:0] rq_wdata;
    wire        rxt0_set, rxdmt0_set, rq_busy;
    wire [17:0] rq_timer;
    wire [31:0] tx_stat_data, rx_stat_data, regs_rdata;
    wire        tx_stat_known, rx_stat_known;
    wire [31:0] filt_rdata;
    wire        regs_known, filt_known, rx_first, da_match, vlan_ok;
    assign mmio_rdata = regs_rdata | rx_stat_data | filt_rdata;
    assign mmio_known = regs_known || filt_known;

    // the port's EEPROM and PHY, beside the register file (issue 20: what
    // an independent driver reads at bring-up)
    wire        ee_wr, ee_cs, ee_sk, ee_di, ee_do, phy_wr, phy_rd;
    wire [4:0]  phy_reg;
    wire [15:0] phy_wdata, phy_rdata;
    e1000_eeprom eeprom (.clk(clk), .rst(rst), .mac_addr(mac_addr), .wr(ee_wr), .cs(ee_cs), .sk(ee_sk),
                         .di(ee_di), .dout(ee_do));
    e1000_phy phy (.clk(clk), .rst(rst), .link_up(link_up), .wr(phy_wr), .rd(phy_rd), .reg_addr(phy_reg), .wdata(phy_wdata),
                   .rdata(phy_rdata));

    e1000_regs #(.FUNC(FUNC)) regs (
        .clk(clk), .rst(rst), .func_rst(frst),
        .link_up(link_up), .pcix_mode(pcix_mode), .pcix_speed(pcix_speed), .bus64(bus64), .pci66(pci66),
        .ee_wr(ee_wr), .ee_cs(ee_cs), .ee_sk(ee_sk), .ee_di(ee_di), .ee_do(ee_do), .phy_wr(phy_wr), .phy_rd(phy_rd),
        .phy_reg(phy_reg), .phy_wdata(phy_wdata), .phy_rdata(phy_rdata),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rvalid(mmio_rvalid), .mmio_rdata(regs_rdata),
        .tx_en(tx_en), .tx_psp(tx_psp), .ipgt(ipgt), .tdba(tdba), .ring_size(ring_size), .tdt(tdt),
        .tdh_wr(tdh_wr), .tdh_val(tdh_val), .tdh(tdh), .pthresh(pthresh), .hthresh(hthresh),
        .wthresh(wthresh), .gran(gran), .tidv(tidv), .tadv(tadv), .tx_buf_bytes(tx_buf_bytes),
        .rx_en(rx_en), .rx_sbp(rx_sbp), .rx_upe(rx_upe), .rx_mpe(rx_mpe), .rx_lpe(rx_lpe), .rx_bam(rx_bam),
        .rx_mo(rx_mo), .rx_vfe(rx_vfe), .rx_cfien(rx_cfien), .rx_cfi(rx_cfi), .rx_vet(rx_vet), .rx_secrc(rx_secrc), .rx_rdmts(rx_rdmts), .rx_buf_bytes(rx_buf_bytes), .rdba(rdba),
        .rx_ring_size(rx_ring_size), .rdt(rdt), .rdh_wr(rdh_wr), .rdh(rdh),
        .rx_pthresh(rx_pthresh), .rx_hthresh(rx_hthresh), .rx_wthresh(rx_wthresh), .rx_gran(rx_gran),
        .rdtr(rdtr), .radv(radv), .rx_fpd(rx_fpd), .rx_rows(rx_rows), .rx_cfg_wr(rx_cfg_wr),
        .icr_read(icr_read), .icr_wr(icr_wr), .ics_wr(ics_wr), .ims_wr(ims_wr), .imc_wr(imc_wr),
        .itr_wr(itr_wr), .icr(icr), .ims(ims), .itr(itr),
        .stat_rd(stat_rd), .stat_idx(stat_idx), .stat_data(stat_data),
        .stat_known(tx_stat_known || rx_stat_known), .mmio_known(regs_known));

    wire [AW:0] free_bytes;
    wire        tag_free, buf_idle, issue_valid, issue_dma, issue_eop, issue_ifcs, issue_drop, frag_done;
    wire [3:0]  next_tag;
    wire [15:0] issue_len;
    wire        txdw_set, txqe_set, q_busy, b_busy, m_busy, i_busy;
    wire [17:0] q_timer, i_timer;
    wire        tq_req_valid, tq_req_write, tq_req_ready, tq_wvalid, tq_wlast;
    wire [4:0]  tq_req_tag;
    wire [63:0] tq_req_addr;
    wire [15:0] tq_req_len;
    wire [255:0] tq_wdata;

    // the shared queue engine with the 8254x legacy descriptor and its
    // 64-entry cache; no head write-back on the 82546
    tx_queue #(.AW(AW), .FMT(0), .CACHE(7'd64)) txq (
        .clk(clk), .prst(rst), .rst(frst), .en(tx_en), .tdba(tdba), .ring_size(ring_size), .tdt(tdt),
        .tdh_wr(tdh_wr), .tdh_val(tdh_val), .pthresh({1'b0, pthresh}), .hthresh({1'b0, hthresh}),
        .wthresh({1'b0, wthresh}), .gran(gran), .hwb_en(1'b0), .hwb_addr(64'd0), .swflsh(1'b0),
        .tidv(tidv), .tadv(tadv), .tick(tick), .tdh(tdh),
        .size_bytes(tx_buf_bytes), .free_bytes(free_bytes), .tag_free(tag_free), .buf_idle(buf_idle),
        .next_tag(next_tag), .issue_valid(issue_valid), .issue_dma(issue_dma), .issue_len(issue_len), .issue_eop(issue_eop),
        .issue_ifcs(issue_ifcs), .issue_drop(issue_drop), .frag_done(frag_done),
        .dcpl_valid(cpl_valid && cpl_tag == 5'h10), .dcpl_data(cpl_data),
        .req_valid(tq_req_valid), .req_write(tq_req_write), .req_tag(tq_req_tag), .req_addr(tq_req_addr),
        .req_len(tq_req_len), .req_ready(tq_req_ready), .wvalid(tq_wvalid), .wdata(tq_wdata), .wlast(tq_wlast),
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
        .clk(clk), .rst(frst), .cause_set({24'd0, rxt0_set, rxo_set, 1'b0, rxdmt0_set, 2'b00, txqe_set, txdw_set}),
        .icr_read(icr_read), .icr_wr(icr_wr), .ics_wr(ics_wr), .ims_wr(ims_wr), .imc_wr(imc_wr),
        .wdata(mmio_wdata), .itr_wr(itr_wr), .tick(tick),
        .icr(icr), .ims(ims), .itr(itr), .irq(irq), .next_timer(i_timer), .busy(i_busy));

    e1000_tx_stats stats (
        .clk(clk), .rst(frst), .sent(stat_sent), .len(stat_len),
        .rd(stat_rd), .rd_idx(stat_idx), .rd_data(tx_stat_data), .rd_known(tx_stat_known));

    // ---------------- receive path ----------------
    // mac_rx classifies received frames and writes the kept ones into the
    // packet buffer, which sits in rx_queue with the descriptor engine;
    // e1000_rx_stats counts.

    // the receive filters: entry 0 of the receive addresses is the EEPROM's
    // address, LAN B's with the last byte's low bit inverted (the 82546's one
    // EEPROM address for both ports); the multicast table is always enabled;
    // the VLAN filter takes RCTL.VFE/CFIEN/CFI with VET
    rx_filters #(.NRAR(16), .LNRAR(4), .RAR_BASE(17'h05400), .ASEL(1), .VFTA_BASE(17'h05600)) filters (
        .clk(clk), .rst(frst), .mac_addr(mac_addr ^ {7'd0, FUNC[0], 40'd0}),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rdata(filt_rdata), .mmio_known(filt_known), .mo(rx_mo), .mfe(1'b1), .vfe(rx_vfe),
        .cfien(rx_cfien), .cfi(rx_cfi), .vet(rx_vet), .probe(rx_first), .da(rx_data[47:0]),
        .tag(rx_data[127:96]), .da_match(da_match), .vlan_ok(vlan_ok));

    mac_rx #(.LB(5)) macr (
        .clk(clk), .prst(rst), .rst(frst), .en(rx_en), .sbp(rx_sbp), .upe(rx_upe), .mpe(rx_mpe), .bam(rx_bam),
        .lpe(rx_lpe), .rx_valid(rx_valid), .rx_da(rx_data[47:0]), .rx_first(rx_first), .da_match(da_match), .vlan_ok(vlan_ok),
        .rx_nbytes(rx_nbytes), .rx_last(rx_last), .rx_crc_ok(rx_crc_ok),
        .nodesc(rx_nodesc), .room(rx_room), .wr_en(rx_wr_en), .commit(rx_commit), .abort(rx_abort),
        .commit_len(rx_commit_len), .commit_ce(rx_commit_ce),
        .ev(ev), .ev_len(ev_len), .ev_good(ev_good), .ev_bc(ev_bc), .ev_mc(ev_mc), .ev_crcerr(ev_crcerr),
        .ev_ruc(ev_ruc), .ev_rfc(ev_rfc), .ev_roc(ev_roc), .ev_rjc(ev_rjc), .ev_mpc(ev_mpc), .ev_rnbc(ev_rnbc),
        .rxo_set(rxo_set), .busy(mr_busy));

    // the shared queue engine with the 8254x legacy descriptor and its
    // 64-entry cache
    rx_queue #(.RW(RW), .FMT(0), .CACHE(7'd64)) rxq (
        .clk(clk), .prst(rst), .rst(frst), .en(rx_en), .secrc(rx_secrc), .buf_bytes(rx_buf_bytes),
        .rdmts(rx_rdmts), .rdba(rdba), .ring_size(rx_ring_size), .rdt(rdt), .rdh_wr(rdh_wr),
        .rdh_val(mmio_wdata[15:0]), .pthresh({1'b0, rx_pthresh}), .hthresh({1'b0, rx_hthresh}),
        .wthresh({1'b0, rx_wthresh}),
        .gran(rx_gran), .rdtr(rdtr), .radv(radv), .fpd(rx_fpd), .tick(tick), .wake(rx_cfg_wr || rx_commit),
        .rdh(rdh), .nodesc(rx_nodesc),
        .size_rows(rx_rows), .wr_en(rx_wr_en), .wr_data(rx_data), .commit(rx_commit), .frame_abort(rx_abort),
        .commit_len(rx_commit_len), .commit_ce(rx_commit_ce), .room(rx_room),
        .dcpl_valid(cpl_valid && cpl_tag == 5'h11), .dcpl_data(cpl_data),
        .req_valid(rq_req_valid), .req_write(rq_req_write), .req_tag(rq_req_tag), .req_addr(rq_req_addr),
        .req_len(rq_req_len), .req_ready(rq_req_ready), .wvalid(rq_wvalid), .wdata(rq_wdata), .wlast(rq_wlast),
        .rxt0_set(rxt0_set), .rxdmt0_set(rxdmt0_set), .next_timer(rq_timer), .busy(rq_busy));

    assign stat_data = tx_stat_data;   // RX counters answer on their own (rx_stat_data, OR'ed below)

    e1000_rx_stats rstats (
        .clk(clk), .rst(frst), .ev(ev), .len(ev_len), .good(ev_good), .bc(ev_bc), .mc(ev_mc),
        .crcerr(ev_crcerr), .ruc(ev_ruc), .rfc(ev_rfc), .roc(ev_roc), .rjc(ev_rjc), .mpc(ev_mpc),
        .rnbc(ev_rnbc), .rd_any(mmio_valid && !mmio_write), .rd(stat_rd), .rd_idx(stat_idx),
        .rd_data(rx_stat_data), .rd_known(rx_stat_known));

    // ---------------- DMA arbitration between the TX and RX queues ----------------
    // Round robin; a granted write locks out other writes until its last
    // beat (queue_dma_arb, shared with ixgbe_func).
    queue_dma_arb qarb (
        .clk(clk), .rst(rst),
        .tq_req_valid(tq_req_valid), .tq_req_write(tq_req_write), .tq_req_tag(tq_req_tag),
        .tq_req_addr(tq_req_addr), .tq_req_len(tq_req_len), .tq_req_ready(tq_req_ready),
        .tq_wvalid(tq_wvalid), .tq_wdata(tq_wdata), .tq_wlast(tq_wlast),
        .rq_req_valid(rq_req_valid), .rq_req_write(rq_req_write), .rq_req_tag(rq_req_tag),
        .rq_req_addr(rq_req_addr), .rq_req_len(rq_req_len), .rq_req_ready(rq_req_ready),
        .rq_wvalid(rq_wvalid), .rq_wdata(rq_wdata), .rq_wlast(rq_wlast),
        .req_valid(req_valid), .req_write(req_write), .req_tag(req_tag), .req_addr(req_addr),
        .req_len(req_len), .req_ready(req_ready), .wvalid(wvalid), .wdata(wdata), .wlast(wlast));

    wire [17:0] t_tr = (q_timer < rq_timer) ? q_timer : rq_timer;
    assign next_timer = (t_tr < i_timer) ? t_tr : i_timer;
    // a function in reset (CTRL.RST) counts down its reset and must be clocked
    // registered outputs that the shared interface or the link take at the
    // next edge (a read answer, a MAC beat) keep the function clocked
    assign busy = q_busy || b_busy || m_busy || i_busy || rq_busy || mr_busy ||
                  (frst && !rst) || mmio_rvalid || tx_valid;
endmodule
