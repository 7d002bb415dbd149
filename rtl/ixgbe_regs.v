// Register file of one 82599 function (offsets and bits: nic-facts B1; the
// bring-up they serve: B1a).  Holds the control registers, decodes MMIO and
// answers reads one cycle after the request.  The interrupt registers live
// in ixgbe_intr and the counters in the statistics blocks; this file only
// routes their reads and writes.
//
// Queues.  The queue registers exist for queues 0..7 (RX bank 0x1000 +
// 0x40n, SRRCTL 0x2100 + 4n, DCA_RXCTRL 0x2200 + 4n, TX bank 0x6000 +
// 0x40n), but descriptor engines exist only for queues 0 .. NQE-1 (ixgbe_func
// has them for queue 0: NQE = 1).  The ENABLE bit (25) of TXDCTL/RXDCTL of a
// queue without an engine stays 0 whatever is written, so a driver that
// enables such a queue and polls ENABLE (B1a steps 11-12) times out with an
// error instead of believing the queue runs and silently sending or
// receiving nothing.  Every other bit of those queues reads back as written.
//
// Modelled delays (parameters, in 256 ns ticks, counted from the end of a
// power-on or CTRL.RST reset; all far shorter than real hardware, whose
// EEPROM auto-read and link training take milliseconds, so that simulations
// of the bring-up are fast):
//   ARD_TICKS       EEC.ARD (bit 9) sets            (default 40 = 10.24 us)
//   DMAIDONE_TICKS  RDRXCTL.DMAIDONE (bit 3) sets   (default 40 = 10.24 us)
//   LINK_TICKS      LINKS.LINK_UP (bit 30) and speed 29:28 = 11 (10 Gb/s)
//                   set, while the link strap is up (default 391 = 100.1 us);
//                   restarted by CTRL.LNK_RST, AUTOC.AN_RESTART and the strap
//                   coming up; the link drops at once when the strap goes
//                   down.  Each change of LINK_UP raises EICR.LSC (bit 20).
// The straps are seen at the function's edges: the simulator keeps them
// static, so a change reaches the model at the next edge it clocks.
module ixgbe_regs #(
    parameter [1:0]  FUNC = 2'd0,
    parameter [3:0]  NQE = 4'd1,              // queues 0..NQE-1 have engines (ENABLE can be set)
    parameter [17:0] ARD_TICKS = 18'd40,
    parameter [17:0] DMAIDONE_TICKS = 18'd40,
    parameter [17:0] LINK_TICKS = 18'd391
) (
    input  wire        clk,
    input  wire        rst,              // power-on reset
    output wire        func_rst,         // CTRL.RST in progress (or power-on)
    // straps
    input  wire        link_up,          // the port's link partner is there
    input  wire [17:0] tick,             // 256 ns ticks since the previous edge (saturating)
    // the card's EEPROM (ixgbe_eeprom) and the device-wide semaphores
    // (ixgbe_sync), shared with the other function
    output wire [7:0]  ee_addr,          // the word EERD reads
    output reg         ee_rd,            // EERD is read at this edge: ee_data wanted
    input  wire [15:0] ee_data,
    input  wire [1:0]  dev_swsm,
    input  wire [10:0] dev_sw_fw_sync,
    // MMIO
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,        // dword address
    input  wire [31:0] mmio_wdata,
    output reg         mmio_rvalid,
    output reg  [31:0] mmio_rdata,
    // TX queue 0
    output wire        tx_en,            // TXDCTL(0).ENABLE && DMATXCTL.TE && !RTTDCS.ARBDIS
    output wire [63:0] tdba,
    output wire [15:0] tx_ring_size,     // descriptors (TDLEN / 16)
    output wire [15:0] tdt,
    output reg         tdh_wr,
    input  wire [15:0] tdh,
    output wire [6:0]  tx_pthresh,
    output wire [6:0]  tx_hthresh,
    output wire [6:0]  tx_wthresh,
    output wire        hwb_en,           // TDWBAL(0).HEAD_WB_ENABLE
    output wire [63:0] hwb_addr,
    output reg  [16:0] tx_buf_bytes,     // TXPBSIZE(0), at most the 64 KiB of TX packet memory
    output wire        tx_pad,           // HLREG0.TXPADEN
    output wire        tx_crc,           // HLREG0.TXCRCEN
    // RX queue 0
    output wire        rx_en,            // RXDCTL(0).ENABLE && RXCTRL.RXEN
    output wire        rx_sbp,
    output wire        rx_upe,
    output wire        rx_mpe,
    output wire        rx_bam,
    output wire [1:0]  rx_mo,            // MCSTCTRL.MO: the multicast table's hash bits
    output wire        rx_mfe,           // MCSTCTRL.MFE: the multicast table filters
    output wire        rx_vfe,           // VLNCTRL.VFE, CFIEN, CFI, VET: the VLAN filter (rx_vlan_filter)
    output wire        rx_cfien,
    output wire        rx_cfi,
    output wire [15:0] rx_vet,
    output wire        rx_lpe,           // HLREG0.JUMBOEN
    output wire        rx_secrc,         // HLREG0.RXCRCSTRP && RDRXCTL.CRCSTRIP
    output wire        rx_drop_en,       // SRRCTL(0).DROP_EN
    output reg  [15:0] rx_buf_bytes,     // SRRCTL(0).BSIZEPKT in bytes
    output wire [63:0] rdba,
    output wire [15:0] rx_ring_size,
    output wire [15:0] rdt,
    output reg         rdh_wr,
    input  wire [15:0] rdh,
    output wire [6:0]  rx_pthresh,
    output wire [6:0]  rx_hthresh,
    output wire [6:0]  rx_wthresh,
    output reg         rx_swflsh,        // RXDCTL(0) written with SWFLSH (bit 26): a strobe
    output reg         tx_swflsh,        // TXDCTL(0) written with SWFLSH (bit 26): a strobe
    output reg  [11:0] rx_rows,          // RXPBSIZE(0) in 32-byte rows, at most 64 KiB (see ixgbe_func)
    output reg         rx_cfg_wr,        // a register the RX path reads is written
    // interrupt block
    output reg         lsc_set,          // LINKS.LINK_UP changed
    output reg         eicr_rd,
    output reg         eicr_wr,
    output reg         eics_wr,
    output reg         eims_wr,
    output reg         eimc_wr,
    output reg         eiac_wr,
    output reg         eitr_wr,
    input  wire [31:0] eicr,
    input  wire [31:0] eims,
    input  wire [31:0] eiac,
    input  wire [11:3] eitr,
    output wire [31:0] eiam,             // auto-mask bits: EIAM, or EIAM_EX(0) (the same bits)
    // statistics blocks: general counters (indices of the 0x4000 window)
    // and queue 0's counters
    output reg         stat_rd,
    output reg  [7:0]  stat_idx,
    input  wire [31:0] stat_data,
    output reg         qstat_rd,
    output reg  [2:0]  qstat_idx,
    input  wire        stat_known,       // the statistics blocks keep the counter at stat_idx
    // the MMIO address names a register this model implements (address
    // only, combinational): the top reports accesses to the others
    output reg         mmio_known,
    output reg  [17:0] next_timer,       // ticks to the earliest modelled delay; 18'h3FFFF none
    output wire        busy
);
    // nic-facts B1
    localparam [16:0] CTRL = 17'h00000, STATUS = 17'h00008, CTRL_EXT = 17'h00018, EEC = 17'h10010,
                      EICR = 17'h00800, EICS = 17'h00808, EIAC = 17'h00810, EITR0 = 17'h00820,
                      EIMS = 17'h00880, EIMC = 17'h00888, EIAM = 17'h00890, GPIE = 17'h00898,
                      EIAM_EX0 = 17'h00AD0,   // Linux ixgbe_setup_gpie writes the 82599's auto-mask here
                      RDRXCTL = 17'h02F00, RXCTRL = 17'h03000, MPC0 = 17'h03FA0, RNBC0 = 17'h03FC0,
                      HLREG0 = 17'h04240, AUTOC = 17'h042A0, LINKS = 17'h042A4, RTTDCS = 17'h04900,
                      DMATXCTL = 17'h04A80, FCTRL = 17'h05080, VLNCTRL = 17'h05088, MCSTCTRL = 17'h05090,
                      DTXMXSZRQ = 17'h08100, EERD = 17'h10014, SWSM = 17'h10140, FWSM = 17'h10148,
                      FACTPS = 17'h10150, SW_FW_SYNC = 17'h10160, ANLP1 = 17'h042B0, MSCA = 17'h0425C,
                      MSRWD = 17'h04260, SECRXCTRL = 17'h08D00, SECRXSTAT = 17'h08D04,
                      QBTC_L0 = 17'h08700, QBTC_H0 = 17'h08704;
    // dword offsets inside a queue's 0x40-byte slot of the RX and TX banks (B1)
    localparam [3:0]  Q_BAL = 4'h0, Q_BAH = 4'h1, Q_LEN = 4'h2, Q_H = 4'h4, Q_T = 4'h6,
                      Q_DCTL = 4'hA, Q_PC = 4'hC, Q_BC_L = 4'hD, Q_BC_H = 4'hE,   // RX: QPRC, QBRC_L/H
                      Q_WBAL = 4'hE, Q_WBAH = 4'hF;                               // TX: TDWBAL/H
    // statistics window indices ((offset - 0x4000) / 4) of the two counters
    // the 82599 moved out of it (B1: MPC(n) 0x3FA0, RNBC(n) 0x3FC0); the
    // shared counter block keeps them at the 8254x places
    localparam [7:0]  I_MPC = 8'h04, I_RNBC = 8'h28;
    // CTRL.RST / LNK_RST hold their reset for this many cycles, then clear
    localparam [4:0]  RST_CYCLES = 5'd16;
    // modelled reset values (the real ones are not in nic-facts; the
    // bring-up of B1a writes every one of these before it relies on it):
    //   HLREG0: TXCRCEN | TXPADEN (FCS and padding on, CRC strip off)
    //   SRRCTL: BSIZEPKT 2 KB, BSIZEHDR 256 B
    //   DCA_RXCTRL: bit 12 set (B1: "resets to 1")
    //   RXPBSIZE(0) 128 KB, TXPBSIZE(0) 40 KB (what B1a steps 9-10 program), the others 0
    //   AUTOC: LMS (15:13) = 001, 10 Gb/s without autonegotiation, and
    //     10G_PMA_PMD (8:7) = 01, KX4: the card's EEPROM default for what the
    //     model is, a 10 Gb/s link that comes up after a delay, with no
    //     autonegotiation to model (DPDK takes it as its original AUTOC and
    //     restores it at every reset; LMS 0 would be 1 Gb/s)
    localparam [31:0] HLREG0_RST = 32'h00000401, SRRCTL_RST = 32'h00000402, DCA_RST = 32'h00001000,
                      AUTOC_RST = 32'h00002080;
    localparam [9:0]  RXPB0_RST = 10'd128, TXPB0_RST = 10'd40;

    reg [31:0] ctrl, ctrl_ext, rdrxctl, rxctrl, hlreg0, autoc, rttdcs, dmatxctl, fctrl;
    reg [31:0] dtxmxszrq, eiam_r, gpie;
    reg [2:0]  mcstctrl;                 // MO (1:0), MFE (2)
    reg [31:0] vlnctrl;                  // VET (15:0), CFI (28), CFIEN (29), VFE (30)
    reg [1:0]  secrxctrl;                // SECRXCTRL.RX_DIS (1) as written; SECRX_DIS (0) reads 1
    reg [31:0] msca;                     // MDIO command/address: MDI_COMMAND (30) self-clears
    reg [15:0] msrwd_w;                  // MSRWD's write data half
    reg [13:0] eerd_addr;                // EERD.ADDR (15:2): the word asked for
    reg        eerd_done;                // EERD.DONE (1)
    assign ee_addr = eerd_addr[7:0];     // the 256-word part ignores the rest
    assign eiam = eiam_r;
    reg [4:0]  rst_cnt, lnk_cnt;
    reg [17:0] ard_left, dma_left, link_left;
    reg        link_q;                   // LINKS.LINK_UP
    // queue registers, queues 0..7
    reg [31:7] q_rdbal [0:7];
    reg [31:0] q_rdbah [0:7];
    reg [19:7] q_rdlen [0:7];
    reg [15:0] q_rdh   [0:7];            // queues without an engine (queue 0's is the engine's)
    reg [15:0] q_rdt   [0:7];
    reg [31:0] q_rxdctl [0:7];
    reg [31:0] q_srrctl [0:7];
    reg [31:0] q_dca   [0:7];
    reg [31:7] q_tdbal [0:7];
    reg [31:0] q_tdbah [0:7];
    reg [19:7] q_tdlen [0:7];
    reg [15:0] q_tdh   [0:7];
    reg [15:0] q_tdt   [0:7];
    reg [31:0] q_txdctl [0:7];
    reg [31:0] q_tdwbal [0:7];
    reg [31:0] q_tdwbah [0:7];
    reg [19:10] rxpbsize [0:7];          // size field 19:10 in KB (B1)
    reg [19:10] txpbsize [0:7];

    wire wr = mmio_valid && mmio_write;
    wire rd = mmio_valid && !mmio_write;
    wire [16:0] a = {mmio_addr, 2'b00};
    // the per-queue banks: block, queue and register within the slot
    wire        rxq_blk  = a[16:9] == 8'h08;      // 0x1000 .. 0x11FF
    wire        txq_blk  = a[16:9] == 8'h30;      // 0x6000 .. 0x61FF
    wire [2:0]  qn       = a[8:6];
    wire [3:0]  qr       = a[5:2];
    wire        srr_blk  = a[16:5] == 12'h108;    // SRRCTL(0..7)     0x2100 ..
    wire        dca_blk  = a[16:5] == 12'h110;    // DCA_RXCTRL(0..7) 0x2200 ..
    wire        rxpb_blk = a[16:5] == 12'h1E0;    // RXPBSIZE(0..7)   0x3C00 ..
    wire        txpb_blk = a[16:5] == 12'h660;    // TXPBSIZE(0..7)   0xCC00 ..
    wire [2:0]  pn       = a[4:2];
    wire        stat_win = a[16:8] == 9'h040;     // 0x4000 .. 0x40FF
    // ENABLE (bit 25) is writable only on queues with an engine
    wire [31:0] en_mask  = ({1'b0, qn} < NQE) ? 32'hFFFFFFFF : ~32'h02000000;

    assign func_rst = rst || rst_cnt != 0;

    // ---- queue 0 to the engines ----
    wire [19:7] tdlen0  = q_tdlen[0];
    wire [19:7] rdlen0  = q_rdlen[0];
    assign tx_en        = q_txdctl[0][25] && dmatxctl[0] && !rttdcs[6];
    assign tdba         = {q_tdbah[0], q_tdbal[0], 7'd0};
    assign tx_ring_size = {tdlen0, 3'b000};        // TDLEN / 16 (LEN is bits 19:7, 128-byte units)
    assign tdt          = q_tdt[0];
    assign tx_pthresh   = q_txdctl[0][6:0];
    assign tx_hthresh   = q_txdctl[0][14:8];
    assign tx_wthresh   = q_txdctl[0][22:16];
    assign hwb_en       = q_tdwbal[0][0];
    assign hwb_addr     = {q_tdwbah[0], q_tdwbal[0][31:2], 2'b00};
    assign tx_pad       = hlreg0[10];
    assign tx_crc       = hlreg0[0];

    assign rx_en        = q_rxdctl[0][25] && rxctrl[0];
    assign rx_sbp       = fctrl[1];
    assign rx_upe       = fctrl[9];
    assign rx_mpe       = fctrl[8];
    assign rx_bam       = fctrl[10];
    assign rx_mo        = mcstctrl[1:0];
    assign rx_mfe       = mcstctrl[2];
    assign rx_vet       = vlnctrl[15:0];
    assign rx_cfi       = vlnctrl[28];
    assign rx_cfien     = vlnctrl[29];
    assign rx_vfe       = vlnctrl[30];
    assign rx_lpe       = hlreg0[2];
    // the MAC strips (HLREG0) and the DMA knows it did (RDRXCTL); B1a sets
    // both, and the model strips only when both say so
    assign rx_secrc     = hlreg0[1] && rdrxctl[1];
    assign rx_drop_en   = q_srrctl[0][28];
    assign rdba         = {q_rdbah[0], q_rdbal[0], 7'd0};
    assign rx_ring_size = {rdlen0, 3'b000};
    assign rdt          = q_rdt[0];
    // RXDCTL thresholds at the TXDCTL places (the 82598 layout of B3: Linux's
    // 0x080420 is PTHRESH 32, HTHRESH 4, WTHRESH 8)
    assign rx_pthresh   = q_rxdctl[0][6:0];
    assign rx_hthresh   = q_rxdctl[0][14:8];
    assign rx_wthresh   = q_rxdctl[0][22:16];

    // ---- statistics ----
    // The counters' indices: the 0x4000 window but for the two moved
    // counters (MPC, RNBC), and their new places; queue 0's QPRC, QBRC_L,
    // QBRC_H (RX bank), QPTC (TX bank), QBTC_L/H (0x8700/0x8704: the 82599's
    // places, DPDK's and Linux's ixgbe_type.h; 0x6034 was the 82598's 32-bit
    // QBTC).  Their read strobes (stat_rd, qstat_rd) are with the other
    // access strobes below.  Decoded only with an access (the counters are
    // read, and their mmio_known asked, with one), not at every edge.
    always @(*) begin
        stat_idx = 8'd0;
        qstat_idx = 3'd0;
        if (mmio_valid) begin
            stat_idx  = (a == MPC0) ? I_MPC : (a == RNBC0) ? I_RNBC : a[9:2];
            qstat_idx = (a == QBTC_L0) ? 3'd4 : (a == QBTC_H0) ? 3'd5 : txq_blk ? 3'd3 :
                        (qr == Q_PC) ? 3'd0 : (qr == Q_BC_L) ? 3'd1 : 3'd2;
        end
    end

    // ---- what is implemented: every register the two blocks above and
    // the case statements below decode ----
    wire rxq_known = qr == Q_BAL || qr == Q_BAH || qr == Q_LEN || qr == Q_H || qr == Q_T || qr == Q_DCTL ||
                     (qn == 3'd0 && (qr == Q_PC || qr == Q_BC_L || qr == Q_BC_H));
    wire txq_known = qr == Q_BAL || qr == Q_BAH || qr == Q_LEN || qr == Q_H || qr == Q_T || qr == Q_DCTL ||
                     qr == Q_WBAL || qr == Q_WBAH || (qn == 3'd0 && qr == Q_PC);
    // the per-queue counters of queues 1..15, which have no engines and so
    // count nothing: QPRC, QBRC_L/H (0x1030.. in the RX bank, 0x40 apart),
    // QPTC (0x6030.., TX bank), QBTC_L/H (0x8700 + 8n, 0x8704 + 8n)
    wire q_idle_counter = (a[16:10] == 7'h04 && a[9:6] != 4'd0 && (qr == Q_PC || qr == Q_BC_L || qr == Q_BC_H)) ||
                          (a[16:10] == 7'h18 && a[9:6] != 4'd0 && qr == Q_PC) ||
                          (a[16:7] == 10'h10E && a[6:3] != 4'd0);
    wire one_known = a == CTRL || a == STATUS || a == CTRL_EXT || a == EEC || a == EICR || a == EICS ||
                     a == EIAC || a == EITR0 || a == EIMS || a == EIMC || a == EIAM || a == EIAM_EX0 ||
                     a == GPIE || a == RDRXCTL || a == RXCTRL || a == HLREG0 || a == AUTOC || a == LINKS ||
                     a == RTTDCS || a == DMATXCTL || a == FCTRL || a == MCSTCTRL || a == VLNCTRL || a == DTXMXSZRQ ||
                     a == EERD || a == SWSM || a == FWSM || a == FACTPS || a == SW_FW_SYNC || a == ANLP1 ||
                     a == MSCA || a == MSRWD || a == SECRXCTRL || a == SECRXSTAT || a == QBTC_L0 || a == QBTC_H0;
    // MPC(1..7) and RNBC(1..7) count for packet buffers 1..7, which the
    // model does not have (RXPBSIZE(1..7) hold sizes nothing uses): they
    // read 0, as the counters of unused buffers do
    wire pb_counter = a[16:5] == 12'h1FD || a[16:5] == 12'h1FE;   // 0x3FA0 .. 0x3FDF
    // decoded only with an access (host_if reads it with one): Verilator
    // would otherwise evaluate every comparison at every edge
    always @(*) begin
        mmio_known = 1'b0;
        if (mmio_valid)
            mmio_known = (rxq_blk && rxq_known) || (txq_blk && txq_known) || srr_blk || dca_blk || rxpb_blk ||
                         txpb_blk || one_known || pb_counter || q_idle_counter ||
                         (stat_win && a[9:2] != I_MPC && a[9:2] != I_RNBC && stat_known);
    end

    // ---- modelled delays ----
    function [17:0] sub_tick(input [17:0] left);
        sub_tick = (left > tick) ? left - tick : 18'd0;
    endfunction
    reg         ctrl_wr, autoc_wr;
    wire        link_restart = (ctrl_wr && mmio_wdata[3]) || lnk_cnt != 0 || (autoc_wr && mmio_wdata[12]);
    reg  [17:0] link_left_n;             // blocking temporaries of the block below
    reg         link_now_n;
    // Settled timers (all 0, the steady state after bring-up) cost one test
    // per edge here and below: as assigns, Verilator evaluated the whole
    // computation at every edge, twice (the tick is an input).
    reg  [17:0] t_ard, t_dma, t_link, t_ed;
    always @(*) begin
        next_timer = 18'h3FFFF;
        t_ard = 18'h3FFFF; t_dma = 18'h3FFFF; t_link = 18'h3FFFF; t_ed = 18'h3FFFF;
        if (ard_left != 0 || dma_left != 0 || (link_up && link_left != 0)) begin
            t_ard  = (ard_left != 0) ? ard_left : 18'h3FFFF;
            t_dma  = (dma_left != 0) ? dma_left : 18'h3FFFF;
            t_link = (link_up && link_left != 0) ? link_left : 18'h3FFFF;
            t_ed   = (t_ard < t_dma) ? t_ard : t_dma;
            next_timer = (t_ed < t_link) ? t_ed : t_link;
        end
    end
    // LNK_RST counting down, and the registered LSC pulse the interrupt
    // block takes at the next edge (CTRL.RST itself: see ixgbe_func)
    assign busy = lnk_cnt != 0 || lsc_set;

    wire [31:0] status = {12'd0, !ctrl[2] /* GIO master enable: not GIO_DIS */, 15'd0, FUNC /* LAN_ID */, 2'b00};
    wire [31:0] links  = {1'b0, link_q, link_q ? 2'b11 : 2'b00, 28'd0};
    // EEC: SIZE (14:11) = 2, a 256-word EEPROM (ixgbe_eeprom); ARD; PRES
    wire [31:0] eec    = {17'd0, 4'd2, 1'b0, ard_left == 0, 1'b1, 8'd0};

    // KB of a packet-buffer size register, capped at the memory the model has
    function [6:0] kb_cap(input [9:0] kb);
        kb_cap = (kb > 10'd64) ? 7'd64 : kb[6:0];
    endfunction
    // SRRCTL.BSIZEPKT (1 KB units): 0 taken as 2 KB, above 16 KB as 16 KB
    // (the rx_queue engine takes buffers of 256 .. 16384 bytes)
    function [15:0] bsize(input [6:0] v);
        bsize = (v == 7'd0) ? 16'd2048 : (v > 7'd16) ? 16'd16384 : {1'b0, v[4:0], 10'd0};
    endfunction

    // The access strobes, decoded only with an access: as assigns their
    // comparisons were evaluated at every edge of the function's clock.
    always @(*) begin
        ee_rd = 1'b0;
        tdh_wr = 1'b0;
        rdh_wr = 1'b0;
        rx_swflsh = 1'b0;
        tx_swflsh = 1'b0;
        rx_cfg_wr = 1'b0;
        eicr_rd = 1'b0;
        eicr_wr = 1'b0;
        eics_wr = 1'b0;
        eims_wr = 1'b0;
        eimc_wr = 1'b0;
        eiac_wr = 1'b0;
        eitr_wr = 1'b0;
        stat_rd = 1'b0;
        qstat_rd = 1'b0;
        ctrl_wr = 1'b0;
        autoc_wr = 1'b0;
        if (mmio_valid) begin
            ee_rd = !mmio_write && a == EERD;
            tdh_wr = mmio_write && a == 17'h06010;      // TDH(0)
            rdh_wr = mmio_write && a == 17'h01010;      // RDH(0)
            rx_swflsh = mmio_write && a == 17'h01028 && mmio_wdata[26];
            tx_swflsh = mmio_write && a == 17'h06028 && mmio_wdata[26];
            rx_cfg_wr = mmio_write && ((rxq_blk && qn == 3'd0) || (srr_blk && pn == 3'd0) || (rxpb_blk && pn == 3'd0) ||
                                       a == RXCTRL || a == RDRXCTL || a == HLREG0 || a == FCTRL);
            eicr_rd = !mmio_write && a == EICR;
            eicr_wr = mmio_write && a == EICR;
            eics_wr = mmio_write && a == EICS;
            eims_wr = mmio_write && a == EIMS;
            eimc_wr = mmio_write && a == EIMC;
            eiac_wr = mmio_write && a == EIAC;
            eitr_wr = mmio_write && a == EITR0;
            stat_rd = !mmio_write && ((stat_win && a[9:2] != I_MPC && a[9:2] != I_RNBC) || a == MPC0 || a == RNBC0);
            qstat_rd = !mmio_write && ((qn == 3'd0 && ((rxq_blk && (qr == Q_PC || qr == Q_BC_L || qr == Q_BC_H)) ||
                                                       (txq_blk && qr == Q_PC))) || a == QBTC_L0 || a == QBTC_H0);
            ctrl_wr = mmio_write && a == CTRL;
            autoc_wr = mmio_write && a == AUTOC;
        end
    end

    integer i;
    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would): reading a register inside a block that assigns it
    // in several places makes Verilator keep a shadow copy of it, copied at
    // every edge.  Behaviour is unchanged.
    reg [4:0] rst_cnt_c, lnk_cnt_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        rst_cnt_c = rst_cnt; lnk_cnt_c = lnk_cnt;
        mmio_rvalid <= rd;
        if (rst) begin
            rst_cnt <= 0;
        end else if (ctrl_wr && mmio_wdata[26]) begin
            rst_cnt <= RST_CYCLES;
        end else if (rst_cnt_c != 0) begin
            rst_cnt <= rst_cnt_c - 5'd1;
        end
        if (func_rst) begin
            lnk_cnt <= 0;
            ard_left <= ARD_TICKS; dma_left <= DMAIDONE_TICKS; link_left <= LINK_TICKS;
            link_q <= 1'b0; lsc_set <= 1'b0;
        end else begin
            if (ctrl_wr && mmio_wdata[3]) lnk_cnt <= RST_CYCLES;
            else if (lnk_cnt_c != 0)      lnk_cnt <= lnk_cnt_c - 5'd1;
            // a settled timer stays settled (sub_tick(0) is 0)
            if (ard_left != 0) ard_left <= sub_tick(ard_left);
            if (dma_left != 0) dma_left <= sub_tick(dma_left);
            // the link settled (up, not restarting, no time left, LINKS up,
            // no LSC pulse) stays as it is
            if (!link_up || link_restart || link_left != 0 || !link_q || lsc_set) begin
                link_left_n = (!link_up || link_restart) ? LINK_TICKS : sub_tick(link_left);
                link_now_n  = link_up && link_left_n == 18'd0;
                link_left <= link_left_n;
                link_q <= link_now_n;
                lsc_set <= link_now_n != link_q;
            end
        end

        if (func_rst) begin
            ctrl <= 0; ctrl_ext <= 0; rdrxctl <= 0; rxctrl <= 0; hlreg0 <= HLREG0_RST; autoc <= AUTOC_RST;
            secrxctrl <= 2'b01; msca <= 0; msrwd_w <= 0;
            rttdcs <= 0; dmatxctl <= 0; fctrl <= 0; dtxmxszrq <= 0; eiam_r <= 0; gpie <= 0;
            eerd_addr <= 0; eerd_done <= 1'b0;
            mcstctrl <= 3'd0;
            vlnctrl <= 32'h00008100;     // VET: the 802.1Q type; the filter off
            rx_buf_bytes <= 16'd2048;
            rx_rows <= {kb_cap(RXPB0_RST), 5'd0};
            tx_buf_bytes <= {kb_cap(TXPB0_RST), 10'd0};
            for (i = 0; i < 8; i = i + 1) begin
                q_rdbal[i] <= 0; q_rdbah[i] <= 0; q_rdlen[i] <= 0; q_rdh[i] <= 0; q_rdt[i] <= 0;
                q_rxdctl[i] <= 0; q_srrctl[i] <= SRRCTL_RST; q_dca[i] <= DCA_RST;
                q_tdbal[i] <= 0; q_tdbah[i] <= 0; q_tdlen[i] <= 0; q_tdh[i] <= 0; q_tdt[i] <= 0;
                q_txdctl[i] <= 0; q_tdwbal[i] <= 0; q_tdwbah[i] <= 0;
                rxpbsize[i] <= (i == 0) ? RXPB0_RST : 10'd0;
                txpbsize[i] <= (i == 0) ? TXPB0_RST : 10'd0;
            end
        end else if (wr) begin
            if (rxq_blk) begin
                case (qr)
                    Q_BAL:  q_rdbal[qn] <= mmio_wdata[31:7];      // 128-byte aligned ring
                    Q_BAH:  q_rdbah[qn] <= mmio_wdata;
                    Q_LEN:  q_rdlen[qn] <= mmio_wdata[19:7];      // bits 6:0 ignored
                    Q_H:    q_rdh[qn] <= mmio_wdata[15:0];        // queue 0: the engine takes it (rdh_wr)
                    Q_T:    q_rdt[qn] <= mmio_wdata[15:0];
                    // SWFLSH (26) is a strobe and reads 0
                    Q_DCTL: q_rxdctl[qn] <= mmio_wdata & 32'h427F7F7F & en_mask;
                    default: ;
                endcase
            end else if (txq_blk) begin
                case (qr)
                    Q_BAL:  q_tdbal[qn] <= mmio_wdata[31:7];
                    Q_BAH:  q_tdbah[qn] <= mmio_wdata;
                    Q_LEN:  q_tdlen[qn] <= mmio_wdata[19:7];
                    Q_H:    q_tdh[qn] <= mmio_wdata[15:0];
                    Q_T:    q_tdt[qn] <= mmio_wdata[15:0];
                    Q_DCTL: q_txdctl[qn] <= mmio_wdata & 32'h027F7F7F & en_mask;
                    Q_WBAL: q_tdwbal[qn] <= mmio_wdata;
                    Q_WBAH: q_tdwbah[qn] <= mmio_wdata;
                    default: ;
                endcase
            end else if (srr_blk) begin
                q_srrctl[pn] <= mmio_wdata & 32'h1FC03F7F;       // BSIZEPKT, BSIZEHDR, RDMTS, DESCTYPE, DROP_EN
                if (pn == 3'd0) rx_buf_bytes <= bsize(mmio_wdata[6:0]);
            end else if (dca_blk) begin
                q_dca[pn] <= mmio_wdata;
            end else if (rxpb_blk) begin
                rxpbsize[pn] <= mmio_wdata[19:10];
                if (pn == 3'd0) rx_rows <= {kb_cap(mmio_wdata[19:10]), 5'd0};
            end else if (txpb_blk) begin
                txpbsize[pn] <= mmio_wdata[19:10];
                if (pn == 3'd0) tx_buf_bytes <= {kb_cap(mmio_wdata[19:10]), 10'd0};
            end else begin
                case (a)
                    CTRL:      ctrl <= mmio_wdata & ~32'h04000008;   // RST and LNK_RST self-clear
                    CTRL_EXT:  ctrl_ext <= mmio_wdata;
                    RDRXCTL:   rdrxctl <= mmio_wdata & ~32'h00000008; // DMAIDONE is status
                    RXCTRL:    rxctrl <= mmio_wdata;
                    HLREG0:    hlreg0 <= mmio_wdata;
                    AUTOC:     autoc <= mmio_wdata & ~32'h00001000;  // AN_RESTART is a strobe
                    RTTDCS:    rttdcs <= mmio_wdata;
                    DMATXCTL:  dmatxctl <= mmio_wdata;
                    FCTRL:     fctrl <= mmio_wdata;
                    MCSTCTRL:  mcstctrl <= mmio_wdata[2:0];
                    VLNCTRL:   vlnctrl <= mmio_wdata & 32'h7000FFFF;
                    DTXMXSZRQ: dtxmxszrq <= mmio_wdata;
                    EIAM, EIAM_EX0: eiam_r <= mmio_wdata;
                    GPIE:      gpie <= mmio_wdata;
                    // a read with START completes at this edge: the
                    // EEPROM model answers at once (ixgbe_eeprom)
                    EERD:      begin eerd_addr <= mmio_wdata[15:2]; eerd_done <= mmio_wdata[0]; end
                    // an MDIO command completes at once: there is no PHY on
                    // the bus (a backplane port), so nothing answers
                    MSCA:      msca <= mmio_wdata & ~32'h40000000;
                    MSRWD:     msrwd_w <= mmio_wdata[15:0];
                    SECRXCTRL: secrxctrl <= {mmio_wdata[1], 1'b1};
                    default: ;
                endcase
            end
        end

        // reads are answered even while CTRL.RST is in progress (RST reads back set)
        if (rst) begin
            mmio_rdata <= 0;
        end else if (rd) begin
            if (rxq_blk) begin
                case (qr)
                    Q_BAL:   mmio_rdata <= {q_rdbal[qn], 7'd0};
                    Q_BAH:   mmio_rdata <= q_rdbah[qn];
                    Q_LEN:   mmio_rdata <= {12'd0, q_rdlen[qn], 7'd0};
                    Q_H:     mmio_rdata <= {16'd0, (qn == 3'd0) ? rdh : q_rdh[qn]};
                    Q_T:     mmio_rdata <= {16'd0, q_rdt[qn]};
                    Q_DCTL:  mmio_rdata <= q_rxdctl[qn];
                    default: mmio_rdata <= 32'd0;                 // QPRC/QBRC: ixgbe_qstats answers
                endcase
            end else if (txq_blk) begin
                case (qr)
                    Q_BAL:   mmio_rdata <= {q_tdbal[qn], 7'd0};
                    Q_BAH:   mmio_rdata <= q_tdbah[qn];
                    Q_LEN:   mmio_rdata <= {12'd0, q_tdlen[qn], 7'd0};
                    Q_H:     mmio_rdata <= {16'd0, (qn == 3'd0) ? tdh : q_tdh[qn]};
                    Q_T:     mmio_rdata <= {16'd0, q_tdt[qn]};
                    Q_DCTL:  mmio_rdata <= q_txdctl[qn];
                    Q_WBAL:  mmio_rdata <= q_tdwbal[qn];
                    Q_WBAH:  mmio_rdata <= q_tdwbah[qn];
                    default: mmio_rdata <= 32'd0;                 // QPTC/QBTC: ixgbe_qstats answers
                endcase
            end else if (srr_blk) begin
                mmio_rdata <= q_srrctl[pn];
            end else if (dca_blk) begin
                mmio_rdata <= q_dca[pn];
            end else if (rxpb_blk) begin
                mmio_rdata <= {12'd0, rxpbsize[pn], 10'd0};
            end else if (txpb_blk) begin
                mmio_rdata <= {12'd0, txpbsize[pn], 10'd0};
            end else begin
                case (a)
                    CTRL:      mmio_rdata <= ctrl | (rst_cnt_c != 0 ? 32'h04000000 : 32'd0)
                                                  | (lnk_cnt_c != 0 ? 32'h00000008 : 32'd0);
                    STATUS:    mmio_rdata <= status;
                    CTRL_EXT:  mmio_rdata <= ctrl_ext;
                    EEC:       mmio_rdata <= eec;
                    EICR:      mmio_rdata <= eicr;
                    EIAC:      mmio_rdata <= eiac;
                    EITR0:     mmio_rdata <= {20'd0, eitr, 3'd0};
                    EIMS:      mmio_rdata <= eims;
                    EIAM, EIAM_EX0: mmio_rdata <= eiam_r;
                    GPIE:      mmio_rdata <= gpie;
                    RDRXCTL:   mmio_rdata <= rdrxctl | (dma_left == 0 ? 32'h00000008 : 32'd0);
                    RXCTRL:    mmio_rdata <= rxctrl;
                    HLREG0:    mmio_rdata <= hlreg0;
                    AUTOC:     mmio_rdata <= autoc;
                    LINKS:     mmio_rdata <= links;
                    RTTDCS:    mmio_rdata <= rttdcs;
                    DMATXCTL:  mmio_rdata <= dmatxctl;
                    FCTRL:     mmio_rdata <= fctrl;
                    MCSTCTRL:  mmio_rdata <= {29'd0, mcstctrl};
                    VLNCTRL:   mmio_rdata <= vlnctrl;
                    DTXMXSZRQ: mmio_rdata <= dtxmxszrq;
                    EERD:      mmio_rdata <= {ee_data, eerd_addr, eerd_done, 1'b0};
                    SWSM:      mmio_rdata <= {30'd0, dev_swsm};
                    SW_FW_SYNC: mmio_rdata <= {21'd0, dev_sw_fw_sync};
                    // no firmware (FWSM 0: no manageability mode); FACTPS 0:
                    // D0, no manageability clock gating
                    FWSM, FACTPS: mmio_rdata <= 32'd0;
                    // AN_STATE (19:16) non-zero: the autonegotiation state
                    // machine is out of reset (DPDK's reset_pipeline_82599
                    // waits for that); the model negotiates nothing, so no
                    // link-partner ability bits
                    ANLP1:     mmio_rdata <= 32'h00010000;
                    MSCA:      mmio_rdata <= msca;
                    // read data (31:16) of an MDIO bus with no PHY: the
                    // pulled-up line reads all ones
                    MSRWD:     mmio_rdata <= {16'hFFFF, msrwd_w};
                    // no security (IPsec) engine: SECRX_DIS reads 1, and the
                    // RX security path is always ready (SECRX_RDY)
                    SECRXCTRL: mmio_rdata <= {30'd0, secrxctrl};
                    SECRXSTAT: mmio_rdata <= 32'h00000001;
                    // the TX counters answer through here; the RX and
                    // queue counters register their own answers
                    default:   mmio_rdata <= stat_win ? stat_data : 32'd0;
                endcase
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
