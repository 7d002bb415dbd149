// Register file of one 82546 function (offsets and bits: nic-facts A1/A1a).
// Holds the control registers, decodes MMIO and answers reads one cycle
// after the request.  Interrupt and statistics registers live in their own
// blocks; this file only routes their reads and writes.
module e1000_regs #(
    parameter [1:0] FUNC = 2'd0
) (
    input  wire        clk,
    input  wire        rst,              // power-on reset
    output wire        func_rst,         // CTRL.RST in progress (or power-on)
    // straps that STATUS reports
    input  wire        link_up,
    input  wire        pcix_mode,
    input  wire [1:0]  pcix_speed,
    input  wire        bus64,
    input  wire        pci66,
    // the port's EEPROM (e1000_eeprom) behind EECD and PHY (e1000_phy)
    // behind MDIC: the pins and commands as written, and their answers
    output reg         ee_wr,            // EECD written: CS, SK, DI below
    output wire        ee_cs,
    output wire        ee_sk,
    output wire        ee_di,
    input  wire        ee_do,
    output wire        phy_wr,           // an MDIC write command to the PHY (address 1)
    output wire        phy_rd,           // an MDIC read command to the PHY
    output wire [4:0]  phy_reg,
    output wire [15:0] phy_wdata,
    input  wire [15:0] phy_rdata,        // register phy_reg, combinational
    // MMIO
    input  wire        mmio_valid,
    input  wire        mmio_write,
    input  wire [16:2] mmio_addr,     // dword address
    input  wire [31:0] mmio_wdata,
    output reg         mmio_rvalid,
    output reg  [31:0] mmio_rdata,
    // TX configuration
    output wire        tx_en,
    output wire        tx_psp,
    output wire [9:0]  ipgt,
    output reg  [63:0] tdba,
    output wire [15:0] ring_size,
    output reg  [15:0] tdt,
    output reg         tdh_wr,
    output wire [15:0] tdh_val,
    input  wire [15:0] tdh,
    output wire [5:0]  pthresh,
    output wire [5:0]  hthresh,
    output wire [5:0]  wthresh,
    output wire        gran,
    output reg  [15:0] tidv,
    output reg  [15:0] tadv,
    output reg  [16:0] tx_buf_bytes,     // TX share of the 64 KiB packet memory
    // RX configuration
    output wire        rx_en,
    output wire        rx_sbp,
    output wire        rx_upe,
    output wire        rx_mpe,
    output wire        rx_lpe,
    output wire        rx_bam,
    output wire        rx_secrc,
    output wire [1:0]  rx_mo,            // RCTL.MO: the multicast table's hash bits
    output wire        rx_vfe,           // RCTL.VFE, CFIEN, CFI: the VLAN filter (rx_vlan_filter)
    output wire        rx_cfien,
    output wire        rx_cfi,
    output wire [15:0] rx_vet,           // VET: the VLAN type
    output wire [1:0]  rx_rdmts,
    output reg  [15:0] rx_buf_bytes,     // BSIZE/BSEX
    output reg  [63:0] rdba,
    output wire [15:0] rx_ring_size,
    output reg  [15:0] rdt,
    output reg         rdh_wr,
    input  wire [15:0] rdh,
    output wire [5:0]  rx_pthresh,
    output wire [5:0]  rx_hthresh,
    output wire [5:0]  rx_wthresh,
    output wire        rx_gran,
    output reg  [15:0] rdtr,
    output reg  [15:0] radv,
    output reg         rx_fpd,           // RDTR written with FPD (bit 31) set
    output reg  [11:0] rx_rows,          // RX share of the 64 KiB packet memory in 32-byte rows
    output reg         rx_cfg_wr,        // a receive register (or PBA) is written
    // interrupt block
    output reg         icr_read,
    output reg         icr_wr,
    output reg         ics_wr,
    output reg         ims_wr,
    output reg         imc_wr,
    output reg         itr_wr,
    input  wire [31:0] icr,
    input  wire [31:0] ims,
    input  wire [15:0] itr,
    // statistics block
    output reg         stat_rd,
    output wire [7:0]  stat_idx,
    input  wire [31:0] stat_data,
    input  wire        stat_known,       // the statistics blocks keep the counter at stat_idx
    // the MMIO address names a register this model implements (address
    // only, combinational): the top reports accesses to the others
    output reg         mmio_known
);
    localparam [16:0] CTRL = 17'h00000, STATUS = 17'h00008, EECD = 17'h00010, CTRL_EXT = 17'h00018, MDIC = 17'h00020,
                      VET = 17'h00038,
                      ICR = 17'h000C0, ITR = 17'h000C4, ICS = 17'h000C8, IMS = 17'h000D0, IMC = 17'h000D8,
                      RCTL = 17'h00100, TCTL = 17'h00400, TIPG = 17'h00410, PBA = 17'h01000,
                      RDBAL = 17'h02800, RDBAH = 17'h02804, RDLEN = 17'h02808, RDH = 17'h02810,
                      RDT = 17'h02818, RDTR = 17'h02820, RXDCTL = 17'h02828, RADV = 17'h0282C,
                      TDBAL = 17'h03800, TDBAH = 17'h03804, TDLEN = 17'h03808, TDH = 17'h03810,
                      TDT = 17'h03818, TIDV = 17'h03820, TXDCTL = 17'h03828, TADV = 17'h0382C;
    // CTRL.RST holds the function in reset for this many cycles, then clears itself
    localparam [4:0] RST_CYCLES = 5'd16;

    reg [31:0] ctrl, ctrl_ext, eecd, rctl, tctl, tipg, txdctl, rxdctl, mdic;
    reg [15:0] vet;
    reg [19:0] rdlen;
    reg [15:0] pba;                    // RX allocation in KiB; TX gets the rest of 64 KiB
    reg [19:0] tdlen;
    reg [4:0]  rst_cnt;

    wire wr = mmio_valid && mmio_write;
    wire rd = mmio_valid && !mmio_write;
    wire [16:0] a = {mmio_addr, 2'b00};

    assign func_rst  = rst || rst_cnt != 0;
    assign tx_en     = tctl[1];
    assign tx_psp    = tctl[3];
    assign ipgt      = tipg[9:0];
    assign ring_size = tdlen[19:4];      // LEN is bits 19:7 (128-byte units); bits 6:0 are ignored
    assign pthresh   = txdctl[5:0];
    assign hthresh   = txdctl[13:8];
    assign wthresh   = txdctl[21:16];
    assign gran      = txdctl[24];
    assign tdh_val   = mmio_wdata[15:0];
    // PBA.RXA above 64 KiB means all of it; the shares are registered when
    // PBA is written (not recomputed at every edge)
    function [6:0] rx_kb_of(input [15:0] v);
        rx_kb_of = (v[15:7] != 0 || v[6:0] > 7'd64) ? 7'd64 : v[6:0];
    endfunction
    wire [6:0] tx_kb = 7'd64 - rx_rows[11:5];

    assign rx_en     = rctl[1];
    assign rx_sbp    = rctl[2];
    assign rx_upe    = rctl[3];
    assign rx_mpe    = rctl[4];
    assign rx_mo     = rctl[13:12];
    assign rx_vfe    = rctl[18];
    assign rx_cfien  = rctl[19];
    assign rx_cfi    = rctl[20];
    assign rx_vet    = vet;
    assign rx_lpe    = rctl[5];
    assign rx_rdmts  = rctl[9:8];
    assign rx_bam    = rctl[15];
    assign rx_secrc  = rctl[26];
    assign rx_ring_size = rdlen[19:4];   // LEN is bits 19:7; bits 6:0 are ignored
    assign rx_pthresh = rxdctl[5:0];
    assign rx_hthresh = rxdctl[13:8];
    assign rx_wthresh = rxdctl[21:16];
    assign rx_gran   = rxdctl[24];
    // BSIZE with BSEX: 00 2048 (reserved with BSEX = 1: taken as 2048), 01 1024/16384,
    // 10 512/8192, 11 256/4096 (decoded when RCTL is written)
    function [15:0] bsize(input [2:0] sel);
        case (sel)
            3'b001:  bsize = 16'd1024;
            3'b010:  bsize = 16'd512;
            3'b011:  bsize = 16'd256;
            3'b101:  bsize = 16'd16384;
            3'b110:  bsize = 16'd8192;
            3'b111:  bsize = 16'd4096;
            default: bsize = 16'd2048;
        endcase
    endfunction

    // EECD's pins to the EEPROM; an MDIC command (OP 01 write, 10 read;
    // nic-facts A1) to PHY address 1, the only PHY on the port's MDIO
    assign ee_cs     = mmio_wdata[1];
    assign ee_sk     = mmio_wdata[0];
    assign ee_di     = mmio_wdata[2];
    reg    mdic_wr;
    wire   mdic_phy  = mmio_wdata[25:21] == 5'd1;
    assign phy_wr    = mdic_wr && mdic_phy && mmio_wdata[27:26] == 2'b01;
    assign phy_rd    = mdic_wr && mdic_phy && mmio_wdata[27:26] == 2'b10;
    assign phy_reg   = mmio_wdata[20:16];
    assign phy_wdata = mmio_wdata[15:0];
    // decoded only with an access (host_if reads it with one): Verilator
    // would otherwise evaluate every comparison at every edge
    always @(*) begin
        mmio_known = 1'b0;
        if (mmio_valid)
            mmio_known = a == CTRL || a == STATUS || a == EECD || a == CTRL_EXT || a == MDIC || a == VET || a == ICR || a == ITR ||
                         a == ICS || a == IMS || a == IMC || a == RCTL || a == TCTL || a == TIPG || a == PBA ||
                         a == RDBAL || a == RDBAH || a == RDLEN || a == RDH || a == RDT || a == RDTR ||
                         a == RXDCTL || a == RADV || a == TDBAL || a == TDBAH || a == TDLEN || a == TDH ||
                         a == TDT || a == TIDV || a == TXDCTL || a == TADV || (a[16:8] == 9'h040 && stat_known);
    end
    assign stat_idx = a[9:2];

    wire [31:0] status = {16'd0, pcix_speed, pcix_mode, bus64, pci66, 3'd0, 2'b10 /* 1000 Mb/s */,
                          2'b00, FUNC, link_up, 1'b1 /* full duplex */};

    // The access strobes, decoded only with an access: as assigns their
    // comparisons were evaluated at every edge of the function's clock.
    always @(*) begin
        tdh_wr = 1'b0;
        rdh_wr = 1'b0;
        rx_fpd = 1'b0;
        rx_cfg_wr = 1'b0;
        icr_read = 1'b0;
        icr_wr = 1'b0;
        ics_wr = 1'b0;
        ims_wr = 1'b0;
        imc_wr = 1'b0;
        itr_wr = 1'b0;
        ee_wr = 1'b0;
        mdic_wr = 1'b0;
        stat_rd = 1'b0;
        if (mmio_valid) begin
            tdh_wr = mmio_write && a == TDH;
            rdh_wr = mmio_write && a == RDH;
            rx_fpd = mmio_write && a == RDTR && mmio_wdata[31];
            rx_cfg_wr = mmio_write && (a == RCTL || a == PBA || a[16:6] == 11'h0A0);   // RDBAL .. RADV: 0x2800-0x283F
            icr_read = !mmio_write && a == ICR;
            icr_wr = mmio_write && a == ICR;
            ics_wr = mmio_write && a == ICS;
            ims_wr = mmio_write && a == IMS;
            imc_wr = mmio_write && a == IMC;
            itr_wr = mmio_write && a == ITR;
            ee_wr = mmio_write && a == EECD;
            mdic_wr = mmio_write && a == MDIC;
            stat_rd = !mmio_write && a[16:8] == 9'h040;
        end
    end

    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it,
    // copied at every edge; the copies avoid that.  Behaviour is unchanged.
    reg [4:0] rst_cnt_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        rst_cnt_c = rst_cnt;
        mmio_rvalid <= rd;
        if (rst) begin
            rst_cnt <= 0;
        end else if (wr && a == CTRL && mmio_wdata[26]) begin
            rst_cnt <= RST_CYCLES;
        end else if (rst_cnt_c != 0) begin
            rst_cnt <= rst_cnt_c - 5'd1;
        end
        if (func_rst) begin
            ctrl <= 0; ctrl_ext <= 0; eecd <= 0; rctl <= 0; tctl <= 0; mdic <= 32'h10000000;
            vet <= 16'h8100;             // the 802.1Q type
            tipg <= 32'h00602008;        // IPGT 8, IPGR1 8, IPGR2 6 (8254x copper defaults)
            pba <= 16'h0030;             // RX 48 KiB, TX 16 KiB
            rx_rows <= {7'd48, 5'd0};
            tx_buf_bytes <= {7'd16, 10'd0};
            txdctl <= 0; tdlen <= 0; tdba <= 0; tdt <= 0; tidv <= 0; tadv <= 0;
            rxdctl <= 0; rdlen <= 0; rdba <= 0; rdt <= 0; rdtr <= 0; radv <= 0; rx_buf_bytes <= 16'd2048;
        end else begin
            if (wr) begin
                case (a)
                    CTRL:     ctrl <= mmio_wdata & ~32'h04000000;
                    CTRL_EXT: ctrl_ext <= mmio_wdata;
                    VET:      vet <= mmio_wdata[15:0];
                    EECD:     eecd <= mmio_wdata;
                    // the command completes at once: READY (28) with the
                    // read's data, or ERROR (30) for a PHY address nobody
                    // answers (the data lines float high)
                    MDIC:     mdic <= {1'b0, !mdic_phy, 1'b0, 1'b1, mmio_wdata[27:16],
                                       !mdic_phy ? 16'hFFFF :
                                       phy_rd ? phy_rdata : mmio_wdata[15:0]};
                    RCTL: begin
                        rctl <= mmio_wdata;
                        rx_buf_bytes <= bsize({mmio_wdata[25], mmio_wdata[17:16]});
                    end
                    TCTL:     tctl <= mmio_wdata;
                    TIPG:     tipg <= mmio_wdata;
                    PBA: begin
                        pba <= mmio_wdata[15:0];
                        rx_rows <= {rx_kb_of(mmio_wdata[15:0]), 5'd0};
                        tx_buf_bytes <= {7'd64 - rx_kb_of(mmio_wdata[15:0]), 10'd0};
                    end
                    TDBAL:    tdba[31:0] <= {mmio_wdata[31:4], 4'd0};
                    TDBAH:    tdba[63:32] <= mmio_wdata;
                    TDLEN:    tdlen <= {mmio_wdata[19:7], 7'd0};
                    TDT:      tdt <= mmio_wdata[15:0];
                    TIDV:     tidv <= mmio_wdata[15:0];
                    TXDCTL:   txdctl <= mmio_wdata;
                    TADV:     tadv <= mmio_wdata[15:0];
                    RDBAL:    rdba[31:0] <= {mmio_wdata[31:4], 4'd0};
                    RDBAH:    rdba[63:32] <= mmio_wdata;
                    RDLEN:    rdlen <= {mmio_wdata[19:7], 7'd0};
                    RDT:      rdt <= mmio_wdata[15:0];
                    RDTR:     rdtr <= mmio_wdata[15:0];
                    RXDCTL:   rxdctl <= mmio_wdata & 32'h013F3F3F;
                    RADV:     radv <= mmio_wdata[15:0];
                    default: ;
                endcase
            end
        end
        // reads are answered even while CTRL.RST is in progress (RST reads back set)
        if (rst) begin
            mmio_rdata <= 0;
        end else begin
            if (rd) begin
                case (a)
                    CTRL:     mmio_rdata <= ctrl | (rst_cnt_c != 0 ? 32'h04000000 : 32'd0);
                    STATUS:   mmio_rdata <= status;
                    CTRL_EXT: mmio_rdata <= ctrl_ext;
                    VET:      mmio_rdata <= {16'd0, vet};
                    // SIZE (9): a 256-word part; PRES (8); GNT (7) follows
                    // REQ (6) at once (no other owner: each function has
                    // its own copy of the part); DO (3) from the EEPROM
                    EECD:     mmio_rdata <= (eecd & ~32'h00000388) | {22'd0, 2'b11, eecd[6], 3'd0, ee_do, 3'd0};
                    MDIC:     mmio_rdata <= mdic;
                    ICR:      mmio_rdata <= icr;
                    ITR:      mmio_rdata <= {16'd0, itr};
                    IMS:      mmio_rdata <= ims;
                    RCTL:     mmio_rdata <= rctl;
                    TCTL:     mmio_rdata <= tctl;
                    TIPG:     mmio_rdata <= tipg;
                    PBA:      mmio_rdata <= {9'd0, tx_kb, pba};
                    TDBAL:    mmio_rdata <= tdba[31:0];
                    TDBAH:    mmio_rdata <= tdba[63:32];
                    TDLEN:    mmio_rdata <= {12'd0, tdlen};
                    TDH:      mmio_rdata <= {16'd0, tdh};
                    TDT:      mmio_rdata <= {16'd0, tdt};
                    TIDV:     mmio_rdata <= {16'd0, tidv};
                    TXDCTL:   mmio_rdata <= txdctl;
                    TADV:     mmio_rdata <= {16'd0, tadv};
                    RDBAL:    mmio_rdata <= rdba[31:0];
                    RDBAH:    mmio_rdata <= rdba[63:32];
                    RDLEN:    mmio_rdata <= {12'd0, rdlen};
                    RDH:      mmio_rdata <= {16'd0, rdh};
                    RDT:      mmio_rdata <= {16'd0, rdt};
                    RDTR:     mmio_rdata <= {16'd0, rdtr};      // FPD reads 0
                    RXDCTL:   mmio_rdata <= rxdctl;
                    RADV:     mmio_rdata <= {16'd0, radv};
                    default:  mmio_rdata <= (a[16:8] == 9'h040) ? stat_data : 32'd0;
                endcase
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
