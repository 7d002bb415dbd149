// TX packet buffer of one 82546 port.
//
// The buffer is byte-addressable: a DMA completion beat (BB bytes, packed
// from the first requested byte) lands at any byte address in one cycle, and
// the MAC reads BB bytes from any byte address in one cycle, so fragments of
// a multi-descriptor packet need no realignment state and completions of
// different tags may arrive in any order.
//
// Space: the queue engine reserves exactly `len` bytes when it issues the data
// read of a fragment (issue_*); the bytes are released when the MAC takes the
// frame (or skips a dropped one).  Fragments retire in issue order; when the
// last fragment of a packet (EOP) retires, the packet becomes a frame for the
// MAC.  Tags are allocated in issue order (tag = issue sequence mod NTAG), so
// the tag table doubles as the retire-order table.
module tx_pkt_buffer #(
    parameter BB = 32,                   // bytes per beat (a power of two)
    parameter LB = 5,                    // log2(BB)
    parameter AW = 16,                   // byte address width: 64 KiB of packet memory
    parameter NTAG = 16,
    // 0: a fragment's descriptor is done (frag_done) when its data has
    //    arrived (the 82546).  1: when the MAC takes its frame for
    //    transmission (the 82599 model: a TX descriptor keeps its slot in the
    //    on-chip cache until its packet leaves the packet buffer; see
    //    docs/rtl.md, "82599 TX descriptor residency").
    parameter RELEASE_AT_TX = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [AW:0]   size_bytes,      // TX share of the packet memory (from PBA), multiple of BB
    // issue side (queue engine)
    output wire [AW:0]   free_bytes,
    output wire          tag_free,        // a tag slot is free for the next issue
    output wire          idle,            // no fragment in the tag table, no frame queued
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
    input  wire [8*BB-1:0] cpl_data,
    // retire pulses, in issue order (one per fragment, in the cycle it retires)
    output wire          frag_done,
    // frame queue to the MAC
    output wire          frame_avail,
    output wire [15:0]   frame_len,
    output wire          frame_ifcs,
    output wire          frame_skip,      // a dropped packet: advance past its bytes
    input  wire          frame_pop,
    // MAC read port: BB bytes from byte address rd_addr, valid one cycle later on rd_data
    input  wire          rd_en,
    input  wire [AW-1:0] rd_addr,
    output wire [8*BB-1:0] rd_data,
    output wire          busy
);
    localparam RW = AW - LB;              // row address width
    localparam ROWS = 1 << RW;
    localparam FQ = 512;                  // frames queued for the MAC

    // ---------------- byte lanes ----------------
    reg [8*BB-1:0] mem [0:ROWS-1];

    // ---------------- tag table ----------------
    reg [AW-1:0] tag_addr [0:NTAG-1];     // next byte address to write
    reg [15:0]   tag_left [0:NTAG-1];     // bytes still to arrive
    reg [15:0]   frag_len_tab [0:NTAG-1]; // bytes the fragment adds to its packet
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
    reg [24:0]   fq [0:FQ-1];             // {fragments, skip, ifcs, len}
    reg [6:0]    pkt_frags_acc;           // fragments of the packet retired so far
    reg [7:0]    rel_pending;             // RELEASE_AT_TX: fragments of taken frames not yet reported
    reg [8:0]    fq_wr, fq_rd;
    reg [9:0]    fq_cnt;

    assign free_bytes  = size_bytes - used_bytes;
    assign tag_free    = (tags_used != NTAG[4:0]) && (fq_cnt < FQ - NTAG);
    assign next_tag    = issue_ptr;
    assign idle        = tags_used == 0 && fq_cnt == 0 && rel_pending == 0;
    assign frame_avail = fq_cnt != 0;
    assign frame_len   = fq[fq_rd][15:0];
    assign frame_ifcs  = fq[fq_rd][16];
    assign frame_skip  = fq[fq_rd][17];

    wire retire_go = tags_used != 0 && tag_left[retire_ptr] == 16'd0;
    assign frag_done = RELEASE_AT_TX ? rel_pending != 0 : retire_go;
    assign busy = retire_go || rel_pending != 0;

    wire [RW:0] size_rows = size_bytes[AW:LB];

    `include "wrap_add.vh"

    // the row after r, wrapping at the end of the TX share
    function [RW-1:0] next_row(input [RW-1:0] r, input [RW:0] rows);
        next_row = ({1'b0, r} + 1'b1 >= rows) ? {RW{1'b0}} : r + 1'b1;
    endfunction

    // The memory is ROWS rows of BB bytes.  A beat written at byte address a
    // covers the tail of row a/BB from lane a%BB and the head of the next row
    // (wrapping at the end of the TX share); a read of BB bytes at address a
    // takes the same two rows and rotates.  Writes merge the beat into the
    // two rows under a byte mask (read-modify-write).  Both ports work only
    // when enabled, and the arithmetic sits inside the enabled branches, so an
    // idle cycle costs nothing to simulate.
    reg [AW-1:0]   cw_base;
    reg [15:0]     cw_left;
    reg [LB:0]     cw_n;
    reg [RW-1:0]   row0, row1;
    reg [2*8*BB-1:0] pair, dmask, dshift;
    reg [8*BB-1:0] rd_q;
    assign rd_data = rd_q;
    // cw_*, row0/1, pair, dmask and dshift are temporaries of this block
    // (blocking assignments: combinational logic in front of the RAM ports)
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (cpl_valid) begin
            cw_base = tag_addr[cpl_tag];
            cw_left = tag_left[cpl_tag];
            cw_n    = (cw_left >= BB) ? BB[LB:0] : cw_left[LB:0];
            row0    = cw_base[AW-1:LB];
            row1    = next_row(row0, size_rows);
            // the two rows side by side; the beat shifted to its byte offset
            pair    = {mem[row1], mem[row0]};
            dmask   = ({{(8*BB){1'b0}}, {(8*BB){1'b1}}} >> (8 * (BB - cw_n))) << (8 * cw_base[LB-1:0]);
            dshift  = {{(8*BB){1'b0}}, cpl_data} << (8 * cw_base[LB-1:0]);
            pair    = (pair & ~dmask) | (dshift & dmask);
            mem[row0] <= pair[8*BB-1:0];
            if (cw_base[LB-1:0] != 0)
                mem[row1] <= pair[2*8*BB-1:8*BB];
            if (!rst && cw_left != 0) begin
                tag_left[cpl_tag] <= cw_left - {{(15-LB){1'b0}}, cw_n};
                tag_addr[cpl_tag] <= wrap_add(cw_base, 17'(BB), size_bytes);
            end
        end
        if (rd_en) begin
            row0 = rd_addr[AW-1:LB];
            row1 = next_row(row0, size_rows);
            pair = {mem[row1], mem[row0]} >> (8 * rd_addr[LB-1:0]);
            rd_q <= pair[8*BB-1:0];
        end
    end
    /* verilator lint_on BLKSEQ */

    integer i;
    // Block-start copies of registers the block below reads (blocking
    // temporaries holding the values before the edge, as the registers
    // themselves would).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it,
    // copied at every edge; the copies avoid that.  Behaviour is unchanged.
    reg [9:0] fq_cnt_c;
    reg [8:0] fq_rd_c;
    reg [8:0] fq_wr_c;
    reg [3:0] issue_ptr_c;
    reg  pkt_drop_acc_c;
    reg [15:0] pkt_len_acc_c;
    reg [3:0] retire_ptr_c;
    reg [4:0] tags_used_c;
    reg [6:0] pkt_frags_acc_c;
    reg [AW-1:0] wr_ptr_c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        fq_cnt_c = fq_cnt; fq_rd_c = fq_rd; fq_wr_c = fq_wr; issue_ptr_c = issue_ptr; pkt_drop_acc_c = pkt_drop_acc; pkt_len_acc_c = pkt_len_acc; retire_ptr_c = retire_ptr; tags_used_c = tags_used; wr_ptr_c = wr_ptr;
        pkt_frags_acc_c = pkt_frags_acc;
        if (rst) begin
            issue_ptr <= 0; retire_ptr <= 0; tags_used <= 0;
            wr_ptr <= 0; used_bytes <= 0; pkt_len_acc <= 0; pkt_drop_acc <= 0;
            fq_wr <= 0; fq_rd <= 0; fq_cnt <= 0;
            pkt_frags_acc <= 0; rel_pending <= 0;
            for (i = 0; i < NTAG; i = i + 1) begin
                tag_left[i] <= 0; tag_eop[i] <= 0; tag_ifcs[i] <= 0; tag_drop[i] <= 0;
                tag_addr[i] <= 0; frag_len_tab[i] <= 0;
            end
        end else begin
            // issue
            if (issue_valid) begin
                tag_eop[issue_ptr_c]  <= issue_eop;
                tag_ifcs[issue_ptr_c] <= issue_ifcs;
                tag_drop[issue_ptr_c] <= issue_drop;
                tag_addr[issue_ptr_c] <= wr_ptr_c;
                tag_left[issue_ptr_c] <= (issue_dma && !issue_drop) ? issue_len : 16'd0;
                frag_len_tab[issue_ptr_c] <= (issue_dma && !issue_drop) ? issue_len : 16'd0;
                if (issue_dma && !issue_drop)
                    wr_ptr <= wrap_add(wr_ptr_c, {1'b0, issue_len}, size_bytes);
                issue_ptr <= issue_ptr_c + 4'd1;
            end
            // retire in order
            if (retire_go) begin
                retire_ptr <= retire_ptr_c + 4'd1;
                if (tag_eop[retire_ptr_c]) begin
                    fq[fq_wr_c] <= {pkt_frags_acc_c + 7'd1, pkt_drop_acc_c | tag_drop[retire_ptr_c],
                                  tag_ifcs[retire_ptr_c], pkt_len_acc_c + frag_len_tab[retire_ptr_c]};
                    fq_wr <= fq_wr_c + 9'd1;
                    pkt_len_acc <= 0;
                    pkt_drop_acc <= 0;
                    pkt_frags_acc <= 0;
                end else begin
                    pkt_len_acc <= pkt_len_acc_c + frag_len_tab[retire_ptr_c];
                    pkt_drop_acc <= pkt_drop_acc_c | tag_drop[retire_ptr_c];
                    pkt_frags_acc <= pkt_frags_acc_c + 7'd1;
                end
            end
            // RELEASE_AT_TX: the taken frame's fragments are reported one per cycle
            if (RELEASE_AT_TX != 0)
                rel_pending <= rel_pending - {7'd0, rel_pending != 0}
                             + (frame_pop ? {1'b0, fq[fq_rd_c][24:18]} : 8'd0);
            tags_used <= tags_used_c + {4'd0, issue_valid} - {4'd0, retire_go};
            fq_cnt <= fq_cnt_c + {9'd0, retire_go && tag_eop[retire_ptr_c]} - {9'd0, frame_pop};
            if (frame_pop) fq_rd <= fq_rd_c + 9'd1;
            // space: reserved at issue, released when the MAC takes the frame
            used_bytes <= used_bytes
                        + ((issue_valid && issue_dma && !issue_drop) ? {1'b0, issue_len} : {(AW+1){1'b0}})
                        - (frame_pop ? {1'b0, frame_len} : {(AW+1){1'b0}});
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
