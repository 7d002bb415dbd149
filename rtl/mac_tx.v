// Transmit MAC of one port: takes whole frames from the packet buffer and
// streams them to the link model as BB-byte beats.
//
// Wire timing is not done here: the link model keeps the picosecond timeline
// (preamble+SFD, frame, FCS, inter-packet gap at the bit time).  It holds one
// frame waiting for the wire and raises `tx_ready` while that slot is free;
// the MAC starts a frame only then.  The MAC reports the gap it
// wants (TIPG.IPGT + 4 byte times on copper: the 8254x MAC uses four clocks
// of the gap internally, SDM table 13-77) and whether it appends the FCS.
// Short frames are padded with zeros to 60 bytes (+FCS = 64) when TCTL.PSP is
// set.  Once a frame has started, all of its beats follow on consecutive
// cycles.
module mac_tx #(
    parameter BB = 32,
    parameter LB = 5,
    parameter AW = 16,
    // 1 (the 82599): the first beat of the frame at the head of the queue is
    // read ahead (at the edge that sends the previous frame's last beat, or
    // any edge while the MAC waits), a frame starts with its first beat in
    // the edge the link takes it, and the frame leaves the queue at that
    // edge (frame_pop is combinational): a 64-byte frame costs two edges, not
    // four.  0 (the 82546): the start edge reads the first beat, and the
    // queue is popped at the next edge.
    parameter FAST_START = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          psp,
    input  wire [9:0]    ipgt,
    input  wire [AW:0]   size_bytes,
    // frame queue
    input  wire          frame_avail,
    input  wire [15:0]   frame_len,
    input  wire          frame_ifcs,
    input  wire          frame_skip,
    output wire          frame_pop,
    // buffer read port (data one cycle after the address)
    output wire          rd_en,
    output reg  [AW-1:0] rd_addr,
    input  wire [8*BB-1:0] rd_data,
    // link
    input  wire          tx_ready,
    output reg           tx_valid,
    output reg  [8*BB-1:0] tx_data,
    output reg  [LB:0]   tx_nbytes,
    output reg           tx_last,
    output reg           tx_fcs,
    output reg  [10:0]   tx_ipg,
    // statistics: one pulse per frame sent, with its length on the wire (incl. FCS)
    output reg           stat_sent,
    output reg  [15:0]   stat_len,
    output wire          busy
);
    localparam [15:0] B16 = BB;
    reg        active;          // streaming a frame
    reg [15:0] data_left;       // frame bytes not yet addressed in the buffer
    reg [15:0] out_left;        // bytes still to send (data + pad)
    reg [15:0] data_left_beat;  // data bytes left when this beat was read; the rest is pad
    reg [15:0] cur_len;         // data bytes of the current frame (no pad, no FCS)
    reg        cur_ifcs;

    reg        pop_q;           // FAST_START 0: the frame started at the last edge leaves the queue
    reg        pre;             // FAST_START 1: rd_data holds the head frame's first beat
    wire start = !active && frame_avail && !pop_q && (frame_skip || frame_len == 16'd0 ||
                                                      (tx_ready && (FAST_START == 0 || pre)));
    assign frame_pop = FAST_START != 0 ? start : pop_q;
    wire head_data = frame_avail && !pop_q && !frame_skip && frame_len != 16'd0;
    wire fast  = FAST_START != 0 && start && head_data;   // starts with its first beat
    // the read port is free while the MAC waits, and at the edge that sends
    // a frame's last beat (rd_data is taken at that edge, and replaced)
    wire last_beat = active && out_left <= B16;
    wire pre_rd = FAST_START != 0 && head_data && !pre && !start && (!active || last_beat);
    assign busy = active || start || pop_q || stat_sent || pre_rd;
    // the buffer is read while a frame's data is being addressed (and, with
    // FAST_START, for the head frame's first beat ahead of its start)
    assign rd_en = (start && head_data && (FAST_START == 0 || data_left_1 != 16'd0)) ||
                   (active && data_left != 16'd0) || pre_rd;

    `include "wrap_add.vh"

    wire [15:0] padded = (psp && frame_len < 16'd60) ? 16'd60 : frame_len;
    // FAST_START: what is left after the first beat
    wire [15:0] data_left_1 = (frame_len > B16) ? frame_len - B16 : 16'd0;
    wire [LB:0] out_n  = (out_left >= B16) ? BB[LB:0] : out_left[LB:0];
    integer b;

    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it,
    // copied at every edge; the copies avoid that.  Behaviour is unchanged.
    reg  active_c;
    reg [15:0] data_left_c;
    reg [15:0] data_left_beat_c;
    reg [15:0] out_left_c;
    reg [AW-1:0] rd_addr_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        active_c = active; data_left_c = data_left; data_left_beat_c = data_left_beat; out_left_c = out_left; rd_addr_c = rd_addr;
        pop_q <= 1'b0;
        tx_valid  <= 1'b0;
        stat_sent <= 1'b0;
        if (rst) begin
            pre <= 1'b0; pop_q <= 1'b0;
            active <= 0; data_left <= 0; out_left <= 0;
            cur_len <= 0; cur_ifcs <= 0; rd_addr <= 0; data_left_beat <= 0;
            tx_data <= 0; tx_nbytes <= 0; tx_last <= 0; tx_fcs <= 0; tx_ipg <= 0;
            stat_len <= 0;
        end else if (fast) begin
            // the first beat now (rd_data holds it), the second addressed
            pre       <= 1'b0;
            tx_valid  <= 1'b1;
            for (b = 0; b < BB; b = b + 1)
                tx_data[8*b +: 8] <= (frame_len > b[15:0]) ? rd_data[8*b +: 8] : 8'd0;
            tx_nbytes <= (padded >= B16) ? BB[LB:0] : padded[LB:0];
            tx_last   <= padded <= B16;
            tx_fcs    <= frame_ifcs;
            tx_ipg    <= {1'b0, ipgt} + 11'd4;
            active    <= padded > B16;
            out_left  <= (padded > B16) ? padded - B16 : 16'd0;
            data_left_beat <= data_left_1;
            data_left <= (data_left_1 > B16) ? data_left_1 - B16 : 16'd0;
            cur_len   <= frame_len;
            cur_ifcs  <= frame_ifcs;
            // rd_addr_c addresses the second beat, read now if there is one
            if (data_left_1 != 0)
                rd_addr <= wrap_add(rd_addr_c, {1'b0, (data_left_1 > B16) ? B16 : data_left_1}, size_bytes);
            if (padded <= B16) begin
                stat_sent <= 1'b1;
                stat_len <= ((frame_len > 16'd60 || !psp) ? frame_len : 16'd60) + (frame_ifcs ? 16'd4 : 16'd0);
            end
        end else if (start) begin
            pop_q <= FAST_START == 0;
            if (frame_skip || frame_len == 16'd0) begin
                rd_addr <= wrap_add(rd_addr_c, {1'b0, frame_len}, size_bytes);
            end else begin
                // rd_addr_c already addresses the first beat
                active <= 1'b1;
                data_left_beat <= frame_len;
                data_left <= (frame_len > B16) ? frame_len - B16 : 16'd0;
                out_left <= padded;
                cur_len <= frame_len;
                cur_ifcs <= frame_ifcs;
                rd_addr <= wrap_add(rd_addr_c, {1'b0, (frame_len > B16) ? B16 : frame_len}, size_bytes);
            end
        end else if (active_c) begin
            // rd_data holds the beat addressed in the previous cycle
            tx_valid  <= 1'b1;
            // bytes past the frame's data are pad (zeros)
            for (b = 0; b < BB; b = b + 1)
                tx_data[8*b +: 8] <= (data_left_beat_c > b[15:0]) ? rd_data[8*b +: 8] : 8'd0;
            tx_nbytes <= out_n;
            tx_last   <= out_left <= B16;
            tx_fcs    <= cur_ifcs;
            tx_ipg    <= {1'b0, ipgt} + 11'd4;
            out_left  <= out_left_c - {{(15-LB){1'b0}}, out_n};
            data_left_beat <= (data_left_beat_c > B16) ? data_left_beat_c - B16 : 16'd0;
            if (data_left_c != 0) begin
                rd_addr   <= wrap_add(rd_addr_c, {1'b0, (data_left_c > B16) ? B16 : data_left_c}, size_bytes);
                data_left <= (data_left_c > B16) ? data_left_c - B16 : 16'd0;
            end
            if (out_left <= B16) begin
                active <= 1'b0;
                stat_sent <= 1'b1;
                stat_len <= ((cur_len > 16'd60 || !psp) ? cur_len : 16'd60) + (cur_ifcs ? 16'd4 : 16'd0);
            end
        end
        // FAST_START: the head frame's first beat is read now (rd_addr_c
        // addresses it: the previous frame's data is all addressed); address
        // the second
        if (!rst && pre_rd) begin
            pre     <= 1'b1;
            rd_addr <= wrap_add(rd_addr_c, {1'b0, (frame_len > B16) ? B16 : frame_len}, size_bytes);
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
