// TX packet buffer of one 82546 port.
//
// Eight byte-lane RAMs make the buffer byte-addressable: a DMA completion beat
// (8 bytes, packed from the first requested byte) lands at any byte address in
// one cycle, and the MAC reads 8 bytes from any byte address in one cycle, so
// fragments of a multi-descriptor packet need no realignment state and
// completions of different tags may arrive in any order.
//
// Space: the queue engine reserves exactly `len` bytes when it issues the data
// read of a fragment (issue_*); the bytes are released when the MAC takes the
// frame (or skips a dropped one).  Fragments retire in issue order; when the
// last fragment of a packet (EOP) retires, the packet becomes a frame for the
// MAC.  Tags are allocated in issue order (tag = issue sequence mod NTAG), so
// the tag table doubles as the retire-order table.
module tx_pkt_buffer #(
    parameter DEPTH_WORDS = 8192,        // 64 KiB: the 82546's per-port packet memory
    parameter AW = 16,                   // byte address width (>= log2(DEPTH_WORDS*8))
    parameter NTAG = 16
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [AW:0]   size_bytes,      // TX share of the packet memory (from PBA)
    // issue side (queue engine)
    output wire [AW:0]   free_bytes,
    output wire          tag_free,        // a tag slot is free for the next issue
    output wire [3:0]    next_tag,
    input  wire          issue_valid,
    input  wire          issue_dma,       // 1: a DMA read of len bytes was issued with next_tag
    input  wire [15:0]   issue_len,
    input  wire          issue_eop,
    input  wire          issue_ifcs,
    input  wire          issue_drop,      // fragment of a packet that does not fit: no data
    // DMA completion beats for data tags
    input  wire          cpl_valid,
    input  wire [3:0]    cpl_tag,
    input  wire [63:0]   cpl_data,
    // retire pulses, in issue order (one per fragment)
    output reg           frag_done,
    // frame queue to the MAC
    output wire          frame_avail,
    output wire [15:0]   frame_len,
    output wire          frame_ifcs,
    output wire          frame_skip,      // a dropped packet: advance past its bytes
    input  wire          frame_pop,
    // MAC read port: 8 bytes from byte address rd_addr, valid one cycle later on rd_data
    input  wire [AW-1:0] rd_addr,
    output wire [63:0]   rd_data,
    output wire          busy
);
    localparam FQ = 512;                  // frames in flight: 64 KiB / 64 B ... bounded by tags in practice

    // ---------------- byte lanes ----------------
    reg [7:0] lane_mem [0:7][0:DEPTH_WORDS-1];
    reg [7:0] lane_q [0:7];
    reg [2:0] rd_rot;

    // ---------------- tag table ----------------
    reg [AW-1:0] tag_addr [0:NTAG-1];     // next byte address to write
    reg [15:0]   tag_left [0:NTAG-1];     // bytes still to arrive
    reg          tag_used [0:NTAG-1];
    reg          tag_eop  [0:NTAG-1];
    reg          tag_ifcs [0:NTAG-1];
    reg          tag_drop [0:NTAG-1];
    reg [3:0]    issue_ptr, retire_ptr;
    reg [4:0]    tags_used;

    reg [AW-1:0] wr_ptr;                  // byte address of the next issued fragment
    reg [AW:0]   used_bytes;
    reg [15:0]   pkt_len_acc;             // bytes of the packet retired so far
    reg          pkt_drop_acc;

    // ---------------- frame queue ----------------
    reg [17:0]   fq [0:FQ-1];             // {skip, ifcs, len}
    reg [8:0]    fq_wr, fq_rd;
    reg [9:0]    fq_cnt;

    assign free_bytes  = size_bytes - used_bytes;
    assign tag_free    = (tags_used != NTAG[4:0]) && (fq_cnt < FQ - NTAG);
    assign next_tag    = issue_ptr;
    assign frame_avail = fq_cnt != 0;
    assign frame_len   = fq[fq_rd][15:0];
    assign frame_ifcs  = fq[fq_rd][16];
    assign frame_skip  = fq[fq_rd][17];

    wire retire_go = tags_used != 0 && tag_left[retire_ptr] == 16'd0;
    assign busy = retire_go || frag_done;

    function [AW-1:0] wrap_add(input [AW-1:0] a, input [16:0] n, input [AW:0] size);
        reg [AW+1:0] s;
        begin
            s = {2'b0, a} + {{(AW-16){1'b0}}, n};
            if (size != 0 && s >= {1'b0, size}) s = s - {1'b0, size};
            wrap_add = s[AW-1:0];
        end
    endfunction

    // word (row) of the lane RAMs that holds byte address base + j
    function [AW-4:0] lane_row(input [AW-1:0] base, input [2:0] j, input [AW:0] size);
        /* verilator lint_off UNUSEDSIGNAL */
        reg [AW-1:0] a;      // the low three bits select the lane, not the row
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            a = wrap_add(base, {14'd0, j}, size);
            lane_row = a[AW-1:3];
        end
    endfunction

    // completion write: byte j of the beat goes to byte address tag_addr + j
    wire [AW-1:0] cw_base = tag_addr[cpl_tag];
    wire [15:0]   cw_left = tag_left[cpl_tag];
    wire [3:0]    cw_n    = (cw_left >= 16'd8) ? 4'd8 : cw_left[3:0];
    genvar gl;
    generate for (gl = 0; gl < 8; gl = gl + 1) begin : g_lane
        // lane gl receives beat byte j where (base + j) % 8 == gl
        wire [2:0]    j    = 3'(gl) - cw_base[2:0];
        wire [AW-4:0] a    = lane_row(cw_base, j, size_bytes);
        always @(posedge clk) begin
            if (cpl_valid && {1'b0, j} < cw_n)
                lane_mem[gl][a] <= cpl_data[8*j +: 8];
        end
        // read side
        wire [2:0]    rj   = 3'(gl) - rd_addr[2:0];
        wire [AW-4:0] ra   = lane_row(rd_addr, rj, size_bytes);
        always @(posedge clk) lane_q[gl] <= lane_mem[gl][ra];
    end endgenerate
    always @(posedge clk) rd_rot <= rd_addr[2:0];
    // beat byte j = lane (rot + j) % 8
    genvar gj;
    generate for (gj = 0; gj < 8; gj = gj + 1) begin : g_rd
        wire [2:0] l = rd_rot + 3'(gj);
        assign rd_data[8*gj +: 8] = lane_q[l];
    end endgenerate

    integer i;
    always @(posedge clk) begin
        frag_done <= 1'b0;
        if (rst) begin
            issue_ptr <= 0; retire_ptr <= 0; tags_used <= 0;
            wr_ptr <= 0; used_bytes <= 0; pkt_len_acc <= 0; pkt_drop_acc <= 0;
            fq_wr <= 0; fq_rd <= 0; fq_cnt <= 0;
            for (i = 0; i < NTAG; i = i + 1) begin
                tag_left[i] <= 0; tag_used[i] <= 0; tag_eop[i] <= 0;
                tag_ifcs[i] <= 0; tag_drop[i] <= 0; tag_addr[i] <= 0;
            end
        end else begin
            // completion beat bookkeeping
            if (cpl_valid && tag_used[cpl_tag] && cw_left != 0) begin
                tag_left[cpl_tag] <= cw_left - {12'd0, cw_n};
                tag_addr[cpl_tag] <= wrap_add(cw_base, 17'd8, size_bytes);
            end
            // issue
            if (issue_valid) begin
                tag_used[issue_ptr] <= 1'b1;
                tag_eop[issue_ptr]  <= issue_eop;
                tag_ifcs[issue_ptr] <= issue_ifcs;
                tag_drop[issue_ptr] <= issue_drop;
                tag_addr[issue_ptr] <= wr_ptr;
                tag_left[issue_ptr] <= (issue_dma && !issue_drop) ? issue_len : 16'd0;
                if (issue_dma && !issue_drop) begin
                    wr_ptr <= wrap_add(wr_ptr, {1'b0, issue_len}, size_bytes);
                end
                issue_ptr <= issue_ptr + 4'd1;
            end
            // retire in order
            if (retire_go) begin
                tag_used[retire_ptr] <= 1'b0;
                retire_ptr <= retire_ptr + 4'd1;
                frag_done <= 1'b1;
                if (tag_eop[retire_ptr]) begin
                    fq[fq_wr] <= {pkt_drop_acc | tag_drop[retire_ptr], tag_ifcs[retire_ptr],
                                  pkt_len_acc + tag_frag_len(retire_ptr)};
                    fq_wr <= fq_wr + 9'd1;
                    pkt_len_acc <= 0;
                    pkt_drop_acc <= 0;
                end else begin
                    pkt_len_acc <= pkt_len_acc + tag_frag_len(retire_ptr);
                    pkt_drop_acc <= pkt_drop_acc | tag_drop[retire_ptr];
                end
            end
            tags_used <= tags_used + {4'd0, issue_valid} - {4'd0, retire_go};
            fq_cnt <= fq_cnt + {9'd0, retire_go && tag_eop[retire_ptr]} - {9'd0, frame_pop};
            if (frame_pop) fq_rd <= fq_rd + 9'd1;
            // space: reserved at issue, released when the MAC takes the frame
            used_bytes <= used_bytes
                        + ((issue_valid && issue_dma && !issue_drop) ? {1'b0, issue_len} : {(AW+1){1'b0}})
                        - (frame_pop ? {1'b0, frame_len} : {(AW+1){1'b0}});
        end
    end

    // bytes a retired fragment contributed (0 for dropped/empty ones)
    reg [15:0] frag_len_tab [0:NTAG-1];
    always @(posedge clk) if (issue_valid)
        frag_len_tab[issue_ptr] <= (issue_dma && !issue_drop) ? issue_len : 16'd0;
    function [15:0] tag_frag_len(input [3:0] t);
        tag_frag_len = frag_len_tab[t];
    endfunction
endmodule
