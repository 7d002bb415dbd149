// The shared bus interface of both tops (nic82546, nic82599): the input
// flops of the MMIO port, the read completions and the MAC receive streams,
// and the round-robin DMA arbiter between the functions (one write's data
// at a time), the read-answer mux and `idle`.  The pins and their contract
// are those of nic82546 (see its header); this module is on `clk`, the
// functions on their gated copies of it.
//
// The bus has two function slots (mmio_func, dma_req_func and dma_cfunc are
// one bit; port p's streams in bit p or bits [W*p +: W]).  NFUNC is the
// number of functions built: with 1 (nic82599's one-port variant), port 1
// has no receive input flops (its rxv_q bit stays 0), and slot 1 is the
// top's stub, which answers register reads and never requests DMA, so the
// arbiter serves it like any function.
module host_if #(
    parameter NFUNC = 2
) (
    input  wire         clk,
    input  wire         rst_n,
    // bus and link side: the top's input pins
    input  wire         mmio_valid,
    input  wire         mmio_write,
    input  wire         mmio_func,
    input  wire [16:2]  mmio_addr,
    input  wire [31:0]  mmio_wdata,
    input  wire         dma_wfull,       // the bus takes no further write now
    input  wire         dma_cvalid,
    input  wire         dma_cfunc,
    input  wire [4:0]   dma_ctag,
    input  wire [255:0] dma_cdata,
    input  wire [1:0]   mac_rx_valid,
    input  wire [511:0] mac_rx_data,
    input  wire [11:0]  mac_rx_nbytes,
    input  wire [1:0]   mac_rx_last,
    input  wire [1:0]   mac_rx_crc_ok,
    // the same after the input flops, to the functions (the top
    // demultiplexes MMIO and completions by function)
    output reg          mmio_valid_q,
    output reg          mmio_write_q,
    output reg          mmio_func_q,
    output reg  [16:2]  mmio_addr_q,
    output reg  [31:0]  mmio_wdata_q,
    output reg          cvalid_q,
    output reg          cfunc_q,
    output reg  [4:0]   ctag_q,
    output reg  [255:0] cdata_q,
    output reg  [1:0]   rxv_q,
    output reg  [511:0] rxd_q,
    output reg  [11:0]  rxn_q,
    output reg  [1:0]   rxl_q,
    output reg  [1:0]   rxc_q,
    // function side, slot f in bit f / bits [W*f +: W]: the functions'
    // registered requests, write data and read answers
    input  wire [1:0]   f_req_valid,
    input  wire [1:0]   f_req_write,
    input  wire [9:0]   f_req_tag,
    input  wire [127:0] f_req_addr,
    input  wire [31:0]  f_req_len,
    output wire [1:0]   f_req_ready,
    input  wire [1:0]   f_wvalid,
    input  wire [511:0] f_wdata,
    input  wire [1:0]   f_wlast,
    input  wire [1:0]   f_rvalid,
    input  wire [63:0]  f_rdata,
    input  wire [1:0]   f_known,         // function f decodes mmio_addr_q (e1000_regs / ixgbe_regs)
    // bus side: the top's output pins
    output wire         dma_req_valid,
    output wire         dma_req_write,
    output wire         dma_req_func,
    output wire [4:0]   dma_req_tag,
    output wire [63:0]  dma_req_addr,
    output wire [15:0]  dma_req_len,
    output wire         dma_wvalid,
    output wire [255:0] dma_wdata,
    output wire         mmio_rvalid,
    output wire [31:0]  mmio_rdata,
    // an MMIO access no register of its function answers to, one cycle
    // high at the edge after it reached the function (the tops' pins of the
    // same names: the simulator counts and names them)
    output reg          mmio_unmodelled,
    output reg          mmio_unmodelled_func,
    output reg          mmio_unmodelled_write,
    output reg  [16:2]  mmio_unmodelled_addr,
    output wire         idle             // no write's data in flight
);
    wire rst = !rst_n;

    always @(posedge clk) begin
        // (the functions decode f_known only with an access)
        mmio_unmodelled       <= 1'b0;
        if (mmio_valid_q) mmio_unmodelled <= !rst && !f_known[mmio_func_q];
        mmio_unmodelled_func  <= mmio_func_q;
        mmio_unmodelled_write <= mmio_write_q;
        mmio_unmodelled_addr  <= mmio_addr_q;
    end

    // ---- input flops ----
    reg wfull_q;
    always @(posedge clk) begin
        wfull_q      <= rst_n && dma_wfull;
        mmio_valid_q <= rst_n && mmio_valid;
        mmio_write_q <= mmio_write;
        mmio_func_q  <= mmio_func;
        mmio_addr_q  <= mmio_addr;
        mmio_wdata_q <= mmio_wdata;
        cvalid_q     <= rst_n && dma_cvalid;
        cfunc_q      <= dma_cfunc;
        ctag_q       <= dma_ctag;
        // the beat's data only with a beat (a 256-bit copy per cycle otherwise)
        if (dma_cvalid) cdata_q <= dma_cdata;
    end
    always @(posedge clk) begin
        rxv_q <= rst_n ? ((NFUNC > 1) ? mac_rx_valid : {1'b0, mac_rx_valid[0]}) : 2'b00;
        // the other fields only with a beat: an idle link costs no copy
        if (mac_rx_valid[0]) begin
            rxd_q[255:0] <= mac_rx_data[255:0];
            rxn_q[5:0]   <= mac_rx_nbytes[5:0];
            rxl_q[0]     <= mac_rx_last[0];
            rxc_q[0]     <= mac_rx_crc_ok[0];
        end
        if (NFUNC > 1 && mac_rx_valid[1]) begin
            rxd_q[511:256] <= mac_rx_data[511:256];
            rxn_q[11:6]    <= mac_rx_nbytes[11:6];
            rxl_q[1]       <= mac_rx_last[1];
            rxc_q[1]       <= mac_rx_crc_ok[1];
        end
    end

    // ---- DMA arbitration: round robin; one write's data at a time ----
    // The functions register their requests, data and read answers; this
    // level only selects among them (no second register stage), so an output
    // is valid right after the edge at which a function produced it.  The
    // simulator takes every request it is offered, but a write only while
    // the bus has room for it (dma_wfull low at the previous edge): a write
    // request then waits, as one does behind the other function's data.
    wire [4:0]   req_tag [0:1];
    wire [63:0]  req_addr [0:1];
    wire [15:0]  req_len [0:1];
    wire [255:0] wdata [0:1];
    assign req_tag[0]  = f_req_tag[4:0];     assign req_tag[1]  = f_req_tag[9:5];
    assign req_addr[0] = f_req_addr[63:0];   assign req_addr[1] = f_req_addr[127:64];
    assign req_len[0]  = f_req_len[15:0];    assign req_len[1]  = f_req_len[31:16];
    assign wdata[0]    = f_wdata[255:0];     assign wdata[1]    = f_wdata[511:256];

    reg       rr;                 // function with priority this cycle
    reg       wlock;              // a write's data beats are being forwarded
    reg       wlock_f;
    wire      wblock = wlock || wfull_q;
    wire      ok0 = f_req_valid[0] && !(f_req_write[0] && wblock);
    wire      ok1 = f_req_valid[1] && !(f_req_write[1] && wblock);
    wire      pick1 = ok1 && (!ok0 || rr);
    wire      grant = ok0 || ok1;
    assign f_req_ready = {grant && pick1, grant && !pick1};

    assign dma_req_valid = grant;
    assign dma_req_write = f_req_write[pick1];
    assign dma_req_func  = pick1;
    assign dma_req_tag   = req_tag[pick1];
    assign dma_req_addr  = req_addr[pick1];
    assign dma_req_len   = req_len[pick1];
    assign dma_wvalid    = wlock && f_wvalid[wlock_f];
    assign dma_wdata     = wdata[wlock_f];
    assign mmio_rvalid   = f_rvalid[0] || f_rvalid[1];
    assign mmio_rdata    = f_rvalid[1] ? f_rdata[63:32] : f_rdata[31:0];

    always @(posedge clk) begin
        if (rst) begin
            rr <= 0; wlock <= 0; wlock_f <= 0;
        end else begin
            if (grant) begin
                rr <= !pick1;
                if (f_req_write[pick1]) begin
                    wlock <= 1'b1;
                    wlock_f <= pick1;
                end
            end
            if (dma_wvalid && f_wlast[wlock_f])
                wlock <= 1'b0;
        end
    end

    assign idle = !wlock;
endmodule
