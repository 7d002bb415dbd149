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
    output wire        tdh_wr,
    output wire [15:0] tdh_val,
    input  wire [15:0] tdh,
    output wire [5:0]  pthresh,
    output wire [5:0]  hthresh,
    output wire [5:0]  wthresh,
    output wire        gran,
    output reg  [15:0] tidv,
    output reg  [15:0] tadv,
    output wire [16:0] tx_buf_bytes,     // TX share of the 64 KiB packet memory
    // interrupt block
    output wire        icr_read,
    output wire        icr_wr,
    output wire        ics_wr,
    output wire        ims_wr,
    output wire        imc_wr,
    output wire        itr_wr,
    input  wire [31:0] icr,
    input  wire [31:0] ims,
    input  wire [15:0] itr,
    // statistics block
    output wire        stat_rd,
    output wire [7:0]  stat_idx,
    input  wire [31:0] stat_data
);
    localparam [16:0] CTRL = 17'h00000, STATUS = 17'h00008, EECD = 17'h00010, CTRL_EXT = 17'h00018,
                      ICR = 17'h000C0, ITR = 17'h000C4, ICS = 17'h000C8, IMS = 17'h000D0, IMC = 17'h000D8,
                      RCTL = 17'h00100, TCTL = 17'h00400, TIPG = 17'h00410, PBA = 17'h01000,
                      TDBAL = 17'h03800, TDBAH = 17'h03804, TDLEN = 17'h03808, TDH = 17'h03810,
                      TDT = 17'h03818, TIDV = 17'h03820, TXDCTL = 17'h03828, TADV = 17'h0382C;
    // CTRL.RST holds the function in reset for this many cycles, then clears itself
    localparam [4:0] RST_CYCLES = 5'd16;

    reg [31:0] ctrl, ctrl_ext, eecd, rctl, tctl, tipg, txdctl;
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
    assign tdh_wr    = wr && a == TDH;
    assign tdh_val   = mmio_wdata[15:0];
    wire [6:0] rx_kb = (pba[6:0] > 7'd64) ? 7'd64 : pba[6:0];
    wire [6:0] tx_kb = 7'd64 - rx_kb;
    assign tx_buf_bytes = {tx_kb, 10'd0};

    assign icr_read = rd && a == ICR;
    assign icr_wr   = wr && a == ICR;
    assign ics_wr   = wr && a == ICS;
    assign ims_wr   = wr && a == IMS;
    assign imc_wr   = wr && a == IMC;
    assign itr_wr   = wr && a == ITR;
    assign stat_rd  = rd && a[16:8] == 9'h040;
    assign stat_idx = a[9:2];

    wire [31:0] status = {16'd0, pcix_speed, pcix_mode, bus64, pci66, 3'd0, 2'b10 /* 1000 Mb/s */,
                          2'b00, FUNC, link_up, 1'b1 /* full duplex */};

    always @(posedge clk) begin
        mmio_rvalid <= rd;
        if (rst) begin
            rst_cnt <= 0;
        end else if (wr && a == CTRL && mmio_wdata[26]) begin
            rst_cnt <= RST_CYCLES;
        end else if (rst_cnt != 0) begin
            rst_cnt <= rst_cnt - 5'd1;
        end
        if (func_rst) begin
            ctrl <= 0; ctrl_ext <= 0; eecd <= 0; rctl <= 0; tctl <= 0;
            tipg <= 32'h00602008;        // IPGT 8, IPGR1 8, IPGR2 6 (8254x copper defaults)
            pba <= 16'h0030;             // RX 48 KiB, TX 16 KiB
            txdctl <= 0; tdlen <= 0; tdba <= 0; tdt <= 0; tidv <= 0; tadv <= 0;
        end else begin
            if (wr) begin
                case (a)
                    CTRL:     ctrl <= mmio_wdata & ~32'h04000000;
                    CTRL_EXT: ctrl_ext <= mmio_wdata;
                    EECD:     eecd <= mmio_wdata;
                    RCTL:     rctl <= mmio_wdata;
                    TCTL:     tctl <= mmio_wdata;
                    TIPG:     tipg <= mmio_wdata;
                    PBA:      pba <= mmio_wdata[15:0];
                    TDBAL:    tdba[31:0] <= {mmio_wdata[31:4], 4'd0};
                    TDBAH:    tdba[63:32] <= mmio_wdata;
                    TDLEN:    tdlen <= {mmio_wdata[19:7], 7'd0};
                    TDT:      tdt <= mmio_wdata[15:0];
                    TIDV:     tidv <= mmio_wdata[15:0];
                    TXDCTL:   txdctl <= mmio_wdata;
                    TADV:     tadv <= mmio_wdata[15:0];
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
                    CTRL:     mmio_rdata <= ctrl | (rst_cnt != 0 ? 32'h04000000 : 32'd0);
                    STATUS:   mmio_rdata <= status;
                    CTRL_EXT: mmio_rdata <= ctrl_ext;
                    EECD:     mmio_rdata <= eecd;
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
                    default:  mmio_rdata <= (a[16:8] == 9'h040) ? stat_data : 32'd0;
                endcase
            end
        end
    end
endmodule
