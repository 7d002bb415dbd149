// One port (PCI function) of the 82599: register file, the descriptor
// engines of queue 0, packet buffers, MACs, interrupts and statistics.  The
// blocks are the ones the 82546 uses, with the 82599's parameters: the
// shared queue engines with advanced descriptors (FMT 1, nic-facts B2), a
// 40-entry TX descriptor cache (B3).  Like e1000_func, the datapath moves 32
// bytes a cycle; bus timing lives in the bus model, wire timing in the link
// model.
//
// Simplifications (see docs/rtl.md "82599 personality"):
//   - one queue pair: queue 0 has engines; the registers of queues 1..7
//     exist, their ENABLE bits stay 0 (ixgbe_regs);
//   - no RSS; the destination-address filter of rx_addr_filter and mac_rx
//     (128 receive addresses, the multicast table with MCSTCTRL.MFE,
//     FCTRL.UPE/MPE/BAM) and the VLAN filter of rx_vlan_filter (VFTA,
//     VLNCTRL); no pools (MPSAR, VLVF), no VLAN stripping;
//   - the RX packet buffer is at most 64 KiB (RW = 11, 2048 rows of 32
//     bytes) whatever RXPBSIZE(0) says above that: rx_queue's frame queue
//     holds 1024 frames, and a stored frame takes at least 2 rows, so 2048
//     rows is the most it can track (128 KB, what B1a programs, would let
//     2048 minimal frames in);
//   - the TX packet memory is 64 KiB (AW = 16): TXPBSIZE(0) above that
//     counts as 64 KiB (B1a programs 40 KB);
//   - RX and TX causes of queue 0 set EICR bit 0, LSC bit 20 (no IVAR);
//   - TX descriptor write-back with WTHRESH > 0 happens when WTHRESH
//     descriptors are done or TXDCTL.SWFLSH flushes the batch; there is no
//     flush of a partial TX batch on ITR expiry;
//   - maximum frame: 1522 bytes, 16384 with HLREG0.JUMBOEN (no MAXFRS).
//
// DMA: one request port; the TX and RX queues share it through a
// round-robin arbiter (one write's data at a time): queue_dma_arb, as in
// e1000_func.  Read
// completions go by tag: 0..15 TX packet data, 5'h10 TX descriptors, 5'h11
// RX descriptors.
module ixgbe_func #(
    parameter [1:0]  FUNC = 2'd0,
    parameter [17:0] ARD_TICKS = 18'd40,       // modelled delays: see ixgbe_regs
    parameter [17:0] DMAIDONE_TICKS = 18'd40,
    parameter [17:0] LINK_TICKS = 18'd391
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        link_up,
    input  wire [47:0] mac_addr,
    input  wire [17:0] tick,           // 256 ns ticks since the previous edge (saturating)
    // the card's EEPROM and device-wide semaphores (see ixgbe_regs)
    output wire [7:0]  ee_addr,
    output wire        ee_rd,
    input  wire [15:0] ee_data,
    input  wire [1:0]  dev_swsm,
    input  wire [10:0] dev_sw_fw_sync,
    // MMIO
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,
    input  wire [31:0] mmio_wdata,
    output wire        mmio_rvalid,
    output wire [31:0] mmio_rdata,
    output wire        mmio_known,       // the MMIO address names an implemented register (ixgbe_regs)
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
    localparam AW = 16;                // TX packet memory: 64 KiB
    localparam RW = 11;                // RX packet buffer: 2048 rows of 32 bytes (see above)
    // The MAC's gap: mac_tx reports IPGT + 4 byte times to the link model,
    // which sends that many idle bytes after each frame (models/link_wire.c);
    // 8 gives the 12-byte inter-frame gap of nic-facts E.
    localparam [9:0] IPGT = 10'd8;

    wire        frst;
    wire        tx_en, tx_pad, tx_crc, tdh_wr, hwb_en;
    wire [63:0] tdba, hwb_addr;
    wire [15:0] tx_ring_size, tdt, tdh;
    wire [6:0]  tx_pthresh, tx_hthresh, tx_wthresh;
    wire [16:0] tx_buf_bytes;
    wire        rx_en, rx_sbp, rx_upe, rx_mpe, rx_bam, rx_mfe, rx_lpe, rx_secrc, rx_drop_en, rdh_wr, rx_swflsh, rx_cfg_wr;
    wire [1:0]  rx_mo;
    wire        rx_vfe, rx_cfien, rx_cfi;
    wire [15:0] rx_vet;
    wire        tx_swflsh;
    wire [15:0] rx_buf_bytes, rx_ring_size, rdt, rdh;
    wire [63:0] rdba;
    wire [6:0]  rx_pthresh, rx_hthresh, rx_wthresh;
    wire [11:0] rx_rows;
    wire        lsc_set, eicr_rd, eicr_wr, eics_wr, eims_wr, eimc_wr, eiac_wr, eitr_wr;
    wire [31:0] eicr, eims, eiac, eiam;
    wire [11:3] eitr;
    wire        stat_rd, qstat_rd, r_busy;
    wire [7:0]  stat_idx;
    wire [2:0]  qstat_idx;
    wire [17:0] r_timer;
    wire [31:0] tx_stat_data, rx_stat_data, q_stat_data, regs_rdata;
    wire        tx_stat_known, rx_stat_known;
    wire [31:0] filt_rdata;
    wire        regs_known, filt_known, rx_first, da_match, vlan_ok;
    assign mmio_rdata = regs_rdata | rx_stat_data | q_stat_data | filt_rdata;
    assign mmio_known = regs_known || filt_known;

    ixgbe_regs #(.FUNC(FUNC), .NQE(4'd1), .ARD_TICKS(ARD_TICKS), .DMAIDONE_TICKS(DMAIDONE_TICKS),
                 .LINK_TICKS(LINK_TICKS)) regs (
        .clk(clk), .rst(rst), .func_rst(frst), .link_up(link_up), .tick(tick),
        .ee_addr(ee_addr), .ee_rd(ee_rd), .ee_data(ee_data), .dev_swsm(dev_swsm), .dev_sw_fw_sync(dev_sw_fw_sync),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rvalid(mmio_rvalid), .mmio_rdata(regs_rdata),
        .tx_en(tx_en), .tdba(tdba), .tx_ring_size(tx_ring_size), .tdt(tdt), .tdh_wr(tdh_wr), .tdh(tdh),
        .tx_pthresh(tx_pthresh), .tx_hthresh(tx_hthresh), .tx_wthresh(tx_wthresh),
        .hwb_en(hwb_en), .hwb_addr(hwb_addr), .tx_buf_bytes(tx_buf_bytes), .tx_pad(tx_pad), .tx_crc(tx_crc),
        .rx_en(rx_en), .rx_sbp(rx_sbp), .rx_upe(rx_upe), .rx_mpe(rx_mpe), .rx_bam(rx_bam), .rx_mo(rx_mo),
        .rx_mfe(rx_mfe), .rx_vfe(rx_vfe), .rx_cfien(rx_cfien), .rx_cfi(rx_cfi), .rx_vet(rx_vet), .rx_lpe(rx_lpe),
        .rx_secrc(rx_secrc), .rx_drop_en(rx_drop_en), .rx_buf_bytes(rx_buf_bytes), .rdba(rdba),
        .rx_ring_size(rx_ring_size), .rdt(rdt), .rdh_wr(rdh_wr), .rdh(rdh),
        .rx_pthresh(rx_pthresh), .rx_hthresh(rx_hthresh), .rx_wthresh(rx_wthresh),
        .rx_swflsh(rx_swflsh), .tx_swflsh(tx_swflsh), .rx_rows(rx_rows), .rx_cfg_wr(rx_cfg_wr),
        .lsc_set(lsc_set), .eicr_rd(eicr_rd), .eicr_wr(eicr_wr), .eics_wr(eics_wr), .eims_wr(eims_wr),
        .eimc_wr(eimc_wr), .eiac_wr(eiac_wr), .eitr_wr(eitr_wr),
        .eicr(eicr), .eims(eims), .eiac(eiac), .eitr(eitr), .eiam(eiam),
        .stat_rd(stat_rd), .stat_idx(stat_idx), .stat_data(tx_stat_data),
        .qstat_rd(qstat_rd), .qstat_idx(qstat_idx), .stat_known(tx_stat_known || rx_stat_known),
        .mmio_known(regs_known), .next_timer(r_timer), .busy(r_busy));

    // ---------------- transmit path ----------------
    wire [AW:0] free_bytes;
    wire        tag_free, buf_idle, issue_valid, issue_dma, issue_eop, issue_ifcs, issue_drop, frag_done;
    wire [3:0]  next_tag;
    wire [15:0] issue_len;
    wire        txdw_set, q_busy, b_busy, m_busy, i_busy;
    wire        i_fpd;             // EITR expiry: flush batched write-backs (ixgbe_intr)
    wire [17:0] q_timer, i_timer;
    wire        tq_req_valid, tq_req_write, tq_req_ready, tq_wvalid, tq_wlast;
    wire [4:0]  tq_req_tag;
    wire [63:0] tq_req_addr;
    wire [15:0] tq_req_len;
    wire [255:0] tq_wdata;
    // TXQE has no EICR bit in the model (only RTxQ and LSC are mapped)
    /* verilator lint_off UNUSEDSIGNAL */
    wire        txqe_set;
    /* verilator lint_on UNUSEDSIGNAL */

    // the shared queue engine with the advanced descriptor and the 82599's
    // 40-entry cache (B3); thresholds always count descriptors (no GRAN:
    // gran = 1); no TIDV/TADV on the 82599 (0: no TX timers); head
    // write-back from TDWBAL/TDWBAH (B1, B3)
    tx_queue #(.AW(AW), .FMT(1), .CACHE(7'd40), .FETCH2(1)) txq (
        .clk(clk), .prst(rst), .rst(frst), .en(tx_en), .tdba(tdba), .ring_size(tx_ring_size), .tdt(tdt),
        .tdh_wr(tdh_wr), .tdh_val(mmio_wdata[15:0]), .pthresh(tx_pthresh), .hthresh(tx_hthresh),
        .wthresh(tx_wthresh), .gran(1'b1), .hwb_en(hwb_en), .hwb_addr(hwb_addr), .swflsh(tx_swflsh || i_fpd),
        .tidv(16'd0), .tadv(16'd0), .tick(tick), .tdh(tdh),
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

    tx_pkt_buffer #(.BB(32), .LB(5), .AW(AW), .NTAG(16), .RELEASE_AT_TX(1)) pbuf (
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

    // The FCS is appended when the descriptor asks for it (DCMD.IFCS) and
    // HLREG0.TXCRCEN allows it (B1a step 10 sets TXCRCEN); short frames are
    // padded to 60 bytes (+ FCS) with HLREG0.TXPADEN.  The gating sits on the
    // frame's IFCS, so the statistics count what goes on the wire.
    mac_tx #(.BB(32), .LB(5), .AW(AW), .FAST_START(1)) mac (
        .clk(clk), .rst(frst), .psp(tx_pad), .ipgt(IPGT), .size_bytes(tx_buf_bytes),
        .frame_avail(frame_avail), .frame_len(frame_len), .frame_ifcs(frame_ifcs && tx_crc),
        .frame_skip(frame_skip), .frame_pop(frame_pop), .rd_en(rd_en), .rd_addr(rd_addr), .rd_data(rd_data),
        .tx_ready(tx_ready), .tx_valid(tx_valid), .tx_data(tx_data), .tx_nbytes(tx_nbytes),
        .tx_last(tx_last), .tx_fcs(tx_fcs), .tx_ipg(tx_ipg),
        .stat_sent(stat_sent), .stat_len(stat_len), .busy(m_busy));

    e1000_tx_stats stats (
        .clk(clk), .rst(frst), .sent(stat_sent), .len(stat_len),
        .rd(stat_rd), .rd_idx(stat_idx), .rd_data(tx_stat_data), .rd_known(tx_stat_known));

    // ---------------- receive path ----------------
    wire        rx_room, rx_wr_en, rx_commit, rx_abort, rx_commit_ce, rx_nodesc, mr_busy, rq_busy, rx_fpd;
    wire [15:0] rx_commit_len;
    wire        ev, ev_good, ev_bc, ev_mc, ev_crcerr, ev_ruc, ev_rfc, ev_roc, ev_rjc, ev_mpc, ev_rnbc;
    wire [15:0] ev_len;
    wire        rq_req_valid, rq_req_write, rq_req_ready, rq_wvalid, rq_wlast;
    wire [4:0]  rq_req_tag;
    wire [63:0] rq_req_addr;
    wire [15:0] rq_req_len;
    wire [255:0] rq_wdata;
    wire        rxt0_set;
    wire [17:0] rq_timer;
    // RXO and RXDMT0 have no EICR bit in the model (only RTxQ and LSC are mapped)
    /* verilator lint_off UNUSEDSIGNAL */
    wire        rxo_set, rxdmt0_set;
    /* verilator lint_on UNUSEDSIGNAL */

    // SRRCTL.DROP_EN (B1): a frame that arrives while the queue has no free
    // descriptor is dropped instead of waiting in the packet buffer.  The
    // decision is taken at the frame's first beat (mac_rx is told there is
    // no room for any of its beats) and kept for its other beats; it counts
    // in RNBC (mac_rx's rule for a kept frame without a descriptor) and not
    // in MPC, which counts frames the packet buffer had no room for.
    // (mac_rx's rx_first marks the first beat; room is read with a beat only)
    reg  rx_drop_f;
    wire rx_drop_now = rx_first ? (rx_drop_en && rx_nodesc) : rx_drop_f;
    always @(posedge clk) begin
        if (rst)
            rx_drop_f <= 1'b0;
        else if (rx_valid)
            rx_drop_f <= rx_drop_now;
    end

    // the receive filters: the 128 receive addresses (entry 0 the EEPROM's
    // address for this port), the multicast table enabled by MCSTCTRL.MFE,
    // and the VLAN filter with VLNCTRL
    rx_filters #(.NRAR(128), .LNRAR(7), .RAR_BASE(17'h0A200), .ASEL(0), .VFTA_BASE(17'h0A000)) filters (
        .clk(clk), .rst(frst), .mac_addr(mac_addr),
        .mmio_valid(mmio_valid), .mmio_write(mmio_write), .mmio_addr(mmio_addr), .mmio_wdata(mmio_wdata),
        .mmio_rdata(filt_rdata), .mmio_known(filt_known), .mo(rx_mo), .mfe(rx_mfe), .vfe(rx_vfe),
        .cfien(rx_cfien), .cfi(rx_cfi), .vet(rx_vet), .probe(rx_first), .da(rx_data[47:0]),
        .tag(rx_data[127:96]), .da_match(da_match), .vlan_ok(vlan_ok));

    mac_rx #(.LB(5)) macr (
        .clk(clk), .prst(rst), .rst(frst), .en(rx_en), .sbp(rx_sbp), .upe(rx_upe), .mpe(rx_mpe), .bam(rx_bam),
        .lpe(rx_lpe), .rx_valid(rx_valid), .rx_da(rx_data[47:0]), .rx_first(rx_first), .da_match(da_match), .vlan_ok(vlan_ok),
        .rx_nbytes(rx_nbytes), .rx_last(rx_last), .rx_crc_ok(rx_crc_ok),
        .nodesc(rx_nodesc), .room(rx_room && !rx_drop_now), .wr_en(rx_wr_en), .commit(rx_commit), .abort(rx_abort),
        .commit_len(rx_commit_len), .commit_ce(rx_commit_ce),
        .ev(ev), .ev_len(ev_len), .ev_good(ev_good), .ev_bc(ev_bc), .ev_mc(ev_mc), .ev_crcerr(ev_crcerr),
        .ev_ruc(ev_ruc), .ev_rfc(ev_rfc), .ev_roc(ev_roc), .ev_rjc(ev_rjc), .ev_mpc(ev_mpc), .ev_rnbc(ev_rnbc),
        .rxo_set(rxo_set), .busy(mr_busy));

    // the shared queue engine with the advanced one-buffer descriptor (B2)
    // and a 64-entry cache (no 82599 figure in nic-facts; the 82598 has 64
    // per queue, F4); no RDTR/RADV on the 82599: the flush strobe is
    // RXDCTL.SWFLSH or the EITR expiry (ixgbe_intr)
    rx_queue #(.RW(RW), .FMT(1), .CACHE(7'd64)) rxq (
        .clk(clk), .prst(rst), .rst(frst), .en(rx_en), .secrc(rx_secrc), .buf_bytes(rx_buf_bytes),
        .rdmts(2'b00), .rdba(rdba), .ring_size(rx_ring_size), .rdt(rdt), .rdh_wr(rdh_wr),
        .rdh_val(mmio_wdata[15:0]), .pthresh(rx_pthresh), .hthresh(rx_hthresh), .wthresh(rx_wthresh),
        .gran(1'b1), .rdtr(16'd0), .radv(16'd0), .fpd(rx_fpd), .tick(tick), .wake(rx_cfg_wr || rx_commit),
        .rdh(rdh), .nodesc(rx_nodesc),
        .size_rows(rx_rows), .wr_en(rx_wr_en), .wr_data(rx_data), .commit(rx_commit), .frame_abort(rx_abort),
        .commit_len(rx_commit_len), .commit_ce(rx_commit_ce), .room(rx_room),
        .dcpl_valid(cpl_valid && cpl_tag == 5'h11), .dcpl_data(cpl_data),
        .req_valid(rq_req_valid), .req_write(rq_req_write), .req_tag(rq_req_tag), .req_addr(rq_req_addr),
        .req_len(rq_req_len), .req_ready(rq_req_ready), .wvalid(rq_wvalid), .wdata(rq_wdata), .wlast(rq_wlast),
        .rxt0_set(rxt0_set), .rxdmt0_set(rxdmt0_set), .next_timer(rq_timer), .busy(rq_busy));

    // the general counters: the 8254x block, whose 0x4000 window the 82599
    // keeps (B1: CRCERRS, GPRC, BPRC, MPRC, GORC, RUC, RFC, ROC, RJC, TOR,
    // TPR at the same offsets); MPC(0) and RNBC(0) are routed from their
    // 82599 offsets by ixgbe_regs.  A frame dropped by DROP_EN is not an MPC.
    e1000_rx_stats rstats (
        .clk(clk), .rst(frst), .ev(ev), .len(ev_len), .good(ev_good), .bc(ev_bc), .mc(ev_mc),
        .crcerr(ev_crcerr), .ruc(ev_ruc), .rfc(ev_rfc), .roc(ev_roc), .rjc(ev_rjc), .mpc(ev_mpc && !rx_drop_f),
        .rnbc(ev_rnbc), .rd_any(mmio_valid && !mmio_write), .rd(stat_rd), .rd_idx(stat_idx),
        .rd_data(rx_stat_data), .rd_known(rx_stat_known));

    // QBRC counts the bytes posted to the queue: without the FCS when the
    // receive path strips it (DPDK's ixgbe_read_stats_registers subtracts 4
    // bytes a packet from QBRC only when HLREG0.RXCRCSTRP is off: the
    // 82599 counts after the strip)
    wire [15:0] qbrc_len = rx_secrc ? ev_len - 16'd4 : ev_len;
    ixgbe_qstats qstats (
        .clk(clk), .rst(frst), .rx_ev(ev && ev_good), .rx_len(qbrc_len), .tx_ev(stat_sent), .tx_len(stat_len),
        .rd_any(mmio_valid && !mmio_write), .rd(qstat_rd), .rd_idx(qstat_idx), .rd_data(q_stat_data));

    // ---------------- interrupts ----------------
    // fixed mapping (no IVAR): queue 0's RX (RXT0 of the engine: write-back
    // done) and TX (descriptor write-back) causes on EICR bit 0, LSC on bit 20
    ixgbe_intr intr (
        .clk(clk), .rst(frst), .cause_set({11'd0, lsc_set, 19'd0, rxt0_set || txdw_set}),
        .eicr_rd(eicr_rd), .eicr_wr(eicr_wr), .eics_wr(eics_wr), .eims_wr(eims_wr), .eimc_wr(eimc_wr),
        .eiac_wr(eiac_wr), .eitr_wr(eitr_wr), .eiam(eiam), .wdata(mmio_wdata), .tick(tick),
        .wb_batch(rx_wthresh != 7'd0 || tx_wthresh != 7'd0), .wb_event(rx_commit || frag_done),
        .wb_busy(rq_busy || q_busy),
        .eicr(eicr), .eims(eims), .eiac(eiac), .eitr(eitr), .irq(irq), .fpd(i_fpd),
        .next_timer(i_timer), .busy(i_busy));
    assign rx_fpd = rx_swflsh || i_fpd;

    // ---------------- DMA arbitration between the TX and RX queues ----------------
    // Round robin; a granted write locks out other writes until its last
    // beat (queue_dma_arb, shared with e1000_func).
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
    wire [17:0] t_ir = (i_timer < r_timer) ? i_timer : r_timer;
    assign next_timer = (t_tr < t_ir) ? t_tr : t_ir;
    // a function in reset (CTRL.RST) counts down its reset and must be
    // clocked; registered outputs that the shared interface or the link take
    // at the next edge (a read answer, a MAC beat) keep the function clocked
    assign busy = q_busy || b_busy || m_busy || i_busy || rq_busy || mr_busy || r_busy ||
                  (frst && !rst) || mmio_rvalid || tx_valid;
endmodule
