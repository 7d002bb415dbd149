// DMA arbitration between a function's TX and RX queues (e1000_func,
// ixgbe_func): round robin; a granted write locks out other writes until its
// last beat.  Requests are the queues' registers, selected here without a
// second register stage; the function's one request port is granted by the
// top level's arbiter (host_if: req_ready).  At most one queue streams write
// data at a time (the lock), so the data mux needs no owner.  The lock is
// cleared only by the power-on reset (rst): a write granted before a
// CTRL.RST still delivers its data (both queues finish a granted write's
// beats across CTRL.RST).
module queue_dma_arb (
    input  wire         clk,
    input  wire         rst,
    // TX queue
    input  wire         tq_req_valid,
    input  wire         tq_req_write,
    input  wire [4:0]   tq_req_tag,
    input  wire [63:0]  tq_req_addr,
    input  wire [15:0]  tq_req_len,
    output wire         tq_req_ready,
    input  wire         tq_wvalid,
    input  wire [255:0] tq_wdata,
    input  wire         tq_wlast,
    // RX queue
    input  wire         rq_req_valid,
    input  wire         rq_req_write,
    input  wire [4:0]   rq_req_tag,
    input  wire [63:0]  rq_req_addr,
    input  wire [15:0]  rq_req_len,
    output wire         rq_req_ready,
    input  wire         rq_wvalid,
    input  wire [255:0] rq_wdata,
    input  wire         rq_wlast,
    // the function's request port
    output wire         req_valid,
    output wire         req_write,
    output wire [4:0]   req_tag,
    output wire [63:0]  req_addr,
    output wire [15:0]  req_len,
    input  wire         req_ready,
    output wire         wvalid,
    output wire [255:0] wdata,
    output wire         wlast
);
    reg  arb_rr;                       // 1: RX has priority
    reg  arb_wlock;
    wire tq_ok   = tq_req_valid && !(tq_req_write && arb_wlock);
    wire rq_ok   = rq_req_valid && !(rq_req_write && arb_wlock);
    wire pick_rx = rq_ok && (!tq_ok || arb_rr);
    assign req_valid    = tq_ok || rq_ok;
    assign req_write    = pick_rx ? rq_req_write : tq_req_write;
    assign req_tag      = pick_rx ? rq_req_tag   : tq_req_tag;
    assign req_addr     = pick_rx ? rq_req_addr  : tq_req_addr;
    assign req_len      = pick_rx ? rq_req_len   : tq_req_len;
    assign tq_req_ready = req_ready && !pick_rx;
    assign rq_req_ready = req_ready && pick_rx;
    // at most one queue streams write data at a time
    assign wvalid = tq_wvalid || rq_wvalid;
    assign wdata  = rq_wvalid ? rq_wdata : tq_wdata;
    assign wlast  = rq_wvalid ? rq_wlast : tq_wlast;

    always @(posedge clk) begin
        if (rst) begin
            arb_rr <= 1'b0;
            arb_wlock <= 1'b0;
        end else begin
            if (req_valid && req_ready) begin
                arb_rr <= !pick_rx;
                if (req_write) arb_wlock <= 1'b1;
            end
            if (wvalid && wlast) arb_wlock <= 1'b0;
        end
    end
endmodule
