// Receive descriptor engine of one queue, shared by the personalities:
// FMT 0 = the 8254x legacy descriptor (82546), FMT 1 = the 82599 advanced
// one-buffer descriptor.  Both read formats start with the packet buffer
// address (the advanced header address in bytes 8..15 is not used: one
// buffer).  They differ in the write-back (below) and in the cache size
// (CACHE: 64 on the 82546, SDM 3.2.4).
//
// An on-chip descriptor cache holds, in ring order:
//   [rel .. +n_wb)      descriptors filled with data, waiting for write-back
//   [.. +d_act)         the descriptor being filled
//   [.. +n_rdy)         fetched descriptors not yet used
//   [.. +n_inf)         descriptors being fetched
// Hardware owns [RDH, RDT): RDT == RDH means no free descriptor, and the
// engine never fetches at or past RDT.  Fetch: when no unused descriptor is
// on chip, whatever RDT makes available is fetched at once; otherwise a
// prefetch starts when the unused on-chip count is below PTHRESH and at least
// HTHRESH wait in host memory (GRAN = 0 counts both in 4-descriptor lines).
// A fetch stops at the ring end (the next one starts at index 0).
//
// The RX packet buffer lives here too: a FIFO of whole frames in rows of 32
// bytes (the datapath width), PBA.RXA KiB of the 64 KiB (32 x RXA rows).
// The MAC writes a frame one beat per row from a row boundary (every beat of
// a frame but its last is full: no byte masks, no realignment), first at a
// tentative write pointer; at the frame's last beat it commits the frame
// (the tail moves past its rows and {CE, length} enters the frame queue) or
// abandons it (the write pointer falls back), so a dropped frame costs
// nothing.  `room` tells the MAC whether one more row fits.  The engine reads
// the head frame a row per data beat and frees its ceil(length / 32) rows
// when its last descriptor is done (also the rows holding only the FCS when
// SECRC strips it).  A stored frame is at least 64 bytes (2 rows), so the
// 1024-entry frame queue never fills before the rows do.  (The buffer shares
// the engine's always block: a separate block would read the engine's state
// and the engine the buffer's, which makes Verilator keep shadow copies of
// both, copied at every edge of the function.)
//
// Frames come whole from the packet buffer.  Each descriptor takes up to
// BSIZE bytes of the frame (the FCS included unless SECRC), written to its
// buffer in DMA writes of at most 2048 bytes (CHUNK); the last descriptor of
// a frame gets EOP.  A descriptor is done when its last data beat has left;
// its write-back quadword is then kept in the cache until written back:
//   legacy (bytes 8..15): length, packet checksum, status DD|IXSM[|EOP],
//     errors CE on the EOP descriptor of a frame stored under SBP;
//   advanced (nic-facts B2): status/error dword DD (bit 0), EOP (bit 1),
//     RXE (bit 29) for a frame stored with a CRC error, then PKT_LEN and a
//     zero VLAN tag; bytes 0..7 (packet type, RSS) are written as 0: the
//     model parses no headers.
// Written back (the 82599, FMT 1, has no RDTR/RADV: tie them to 0; its
// flush strobe fpd comes from the interrupt throttle):
//   WTHRESH = 0: each done descriptor at once, one write: bytes 8..15 (legacy),
//     the whole 16 bytes (advanced: nothing of its read format survives);
//   WTHRESH > 0: whole descriptors, two per beat, once WTHRESH are done, or
//     when a flush is owed (RDTR/RADV expiry, RDTR.FPD, a frame completed with
//     RDTR = 0), or when a waiting frame has no descriptor left and none can
//     be fetched (software cannot return descriptors it has not seen).
// Receive timer (SDM 3.2.7.1, 13.4.30-31): when a frame's EOP descriptor is
// done, RDTR = 0 asks for RXT0 at once; otherwise the packet timer restarts
// at RDTR and the absolute timer starts at RADV if not running (RADV = 0
// disables it); either expiring, or an RDTR write with FPD, stops both and
// asks for RXT0.  RXT0 is raised only once every descriptor done at the
// time of the request has been written back.
// RXDMT0: when taking a descriptor leaves exactly RDLEN/2, /4, /8 (RDMTS 0,
// 1, 2; /16 for the reserved 3) free descriptors.
//
// The packet checksum is the 16-bit one's-complement sum (RFC 1071, byte 2k
// high) of the bytes DMA'd for the frame from its first byte (RXCSUM.PCSS =
// 0), in the EOP descriptor; 0 in the others.
//
// DMA priority on the port: write-back, fetch into an empty cache, prefetch,
// packet data (as on the TX side).  The request is registered; a write's
// beats follow once it is granted.  A granted write delivers all of its data
// even across CTRL.RST (the bus transaction has started): its beats then
// count for nothing.  RDH writes are taken only with RCTL.EN = 0 and nothing
// on chip or in flight.
module rx_queue #(
    parameter RW = 11,                  // packet buffer row address width
    parameter FMT = 0,                  // 0 legacy (8254x), 1 advanced (82599)
    parameter [6:0] CACHE = 7'd64       // on-chip descriptors
) (
    input  wire          clk,
    input  wire          prst,          // power-on reset (the write stream)
    input  wire          rst,           // function reset (power-on or CTRL.RST)
    // registers
    input  wire          en,            // RCTL.EN
    input  wire          secrc,
    input  wire [15:0]   buf_bytes,     // BSIZE/BSEX: 256 .. 16384
    input  wire [1:0]    rdmts,
    input  wire [63:0]   rdba,
    input  wire [15:0]   ring_size,     // descriptors (RDLEN / 16, multiple of 8); 0 = no ring
    input  wire [15:0]   rdt,
    input  wire          rdh_wr,
    input  wire [15:0]   rdh_val,
    input  wire [6:0]    pthresh,
    input  wire [6:0]    hthresh,
    input  wire [6:0]    wthresh,
    input  wire          gran,
    input  wire [15:0]   rdtr,
    input  wire [15:0]   radv,
    input  wire          fpd,           // RDTR written with FPD set
    input  wire [17:0]   tick,          // 256 ns ticks since the previous edge (saturating)
    input  wire          wake,          // an RX register was written or a frame stored: evaluate
    output wire [15:0]   rdh,
    output wire          nodesc,        // no free descriptor: none unused on chip, none to fetch
    // packet buffer: its size, and the MAC's side
    input  wire [RW:0]   size_rows,     // RX share of the memory in rows (PBA)
    input  wire          wr_en,         // store this beat as the frame's next row
    input  wire [255:0]  wr_data,
    input  wire          commit,        // the frame is complete and kept (with this cycle's beat)
    input  wire          frame_abort,   // the frame is dropped: forget its rows
    input  wire [15:0]   commit_len,    // its length as received, FCS included
    input  wire          commit_ce,     // stored with a CRC error (SBP)
    output wire          room,          // one more row of the current frame fits
    // descriptor fetch completions (tag DESC_TAG)
    input  wire          dcpl_valid,
    input  wire [255:0]  dcpl_data,
    // DMA request port
    output reg           req_valid,
    output reg           req_write,
    output reg  [4:0]    req_tag,
    output reg  [63:0]   req_addr,
    output reg  [15:0]   req_len,
    input  wire          req_ready,
    output reg           wvalid,
    output wire [255:0]  wdata,
    output reg           wlast,
    // interrupt causes and scheduling hints
    output reg           rxt0_set,
    output reg           rxdmt0_set,
    output wire [17:0]   next_timer,    // ticks to the earliest running timer; 18'h3FFFF none
    output wire          busy
);
    localparam [4:0]  DESC_TAG = 5'h11;
    localparam [15:0] CHUNK = 16'd2048;     // largest DMA write (the adapter's write buffer)

    // ---------------- state ----------------
    reg [127:0] cache [0:63];               // {write-back quadword, buffer address}
    reg [15:0]  rel_idx, fetch_idx;
    reg [5:0]   rel_slot;
    reg [6:0]   n_wb, n_rdy, n_inf;
    reg         d_act;                      // a descriptor is being filled
    reg         f_busy;                     // a descriptor fetch is outstanding
    reg [6:0]   f_left;                     // descriptors still to arrive
    // the frame being transferred
    reg         fr_act, fr_ce;
    reg [15:0]  fr_rem;                     // bytes not yet given to a descriptor
    reg [RW-1:0] fr_row;                    // buffer row of the next byte to request
    reg [31:0]  csum;
    // the descriptor being filled
    reg [5:0]   d_slot;
    reg [63:0]  d_addr;                     // host address of its next chunk
    reg [15:0]  d_iss;                      // its bytes not yet requested
    reg [15:0]  d_len;
`ifdef NICSIM_PLANT_RX_WB_LEN
    // the planted defect of `make cosim-plant` (testbench/cosim/plant.sh):
    // the advanced write-back's length 4 bytes too long.  Never defined in
    // a normal build; it shows that the DPDK case catches such a defect.
    wire [15:0] wb_len = d_len + 16'd4;
`else
    wire [15:0] wb_len = d_len;
`endif
    reg         d_eop;
    // the write stream (power-on reset only)
    reg         s_act;                      // a write is requested or streaming
    reg         s_go;                       // its request has been granted
    reg         s_wb;                       // write-back (else packet data)
    reg         s_status;                   // one descriptor's write-back (8 bytes legacy, 16 advanced)
    reg         s_orph;                     // CTRL.RST came while it streamed: its beats count for nothing
    reg [15:0]  s_left;                     // data: bytes left; write-back: descriptors left
    reg [5:0]   s_slot;
    reg [6:0]   s_n;                        // descriptors in the write-back
    reg [RW-1:0] s_row;
    reg         w_data;                     // the beat on wvalid is data of the descriptor being filled
    reg [5:0]   w_nb;                       // its bytes
    reg [255:0] wb_q;                       // write-back beat
    // receive timer
    reg         rdtr_run, radv_run;
    reg [17:0]  rdtr_cnt, radv_cnt;
    reg         rxt0_wait;                  // RXT0 asked for, waiting for write-backs
    reg [6:0]   owed;                       // descriptors to write back first
    // the packet buffer
    localparam FQ = 1024, QW = 10;          // frames queued (>= rows / 2)
    reg [255:0]  mem [0:(1 << RW) - 1];
    reg [16:0]   fq [0:FQ-1];               // {ce, length}
    reg [RW-1:0] head, tail, wr_ptr;
    reg [RW:0]   used;                      // rows of committed frames
    reg [RW:0]   in_rows;                   // rows of the frame being written
    reg [QW-1:0] fq_wr, fq_rd;
    reg [QW:0]   fq_cnt;
    reg [16:0]   head_q;                    // {ce, length} of the head frame (valid while fq_cnt != 0)
    reg [255:0]  rd_data;                   // the row of the data beat on wvalid
    wire         frame_avail = fq_cnt != 0;
    wire [15:0]  frame_len   = head_q[15:0];
    // What other blocks see is registered, computed from the next state at
    // this block's edges, the only edges at which it changes (see the end
    // of the sequential block).
    reg          nodesc_q;                  // no free descriptor
    reg [15:0]   rdh_q;                     // RDH
    reg          room_q;                    // one more row of the frame being received fits
    reg [17:0]   next_timer_q;
    assign nodesc     = nodesc_q;
    assign rdh        = rdh_q;
    assign room       = room_q;
    assign next_timer = next_timer_q;
    assign wdata      = w_data ? rd_data : wb_q;

    // ---------------- arithmetic ----------------
    `include "ring_add.vh"

    function [RW-1:0] row_add(input [RW-1:0] r, input [RW:0] n);
        reg [RW+1:0] s;
        begin
            s = {2'b0, r} + {1'b0, n};
            if (s >= {1'b0, size_rows}) s = s - {1'b0, size_rows};
            row_add = s[RW-1:0];
        end
    endfunction

    // rows a frame of len bytes occupies (RW >= 11: up to 2048 rows)
    function [RW:0] rows_of(input [15:0] len);
        rows_of = {{(RW-10){1'b0}}, len[15:5]} + {{RW{1'b0}}, |len[4:0]};
    endfunction

    // descriptors fetchable from host memory: from the fetch index up to RDT
    function [15:0] avail_of(input [15:0] t, input [15:0] f, input [15:0] n);
        avail_of = (n == 0 || t >= n || f >= n) ? 16'd0 : (t >= f) ? t - f : t + n - f;
    endfunction
    // the next fetch: what is available, up to the ring end and the free cache slots
    function [15:0] nfetch_of(input [15:0] av, input [15:0] f, input [15:0] n, input [6:0] o);
        reg [15:0] to_end, na, sp;
        begin
            to_end = n - f;
            na = (av < to_end) ? av : to_end;
            sp = {9'd0, CACHE - o};
            nfetch_of = (na < sp) ? na : sp;
        end
    endfunction
    // cache occupancy: unused descriptors on chip, and all of them
    function [6:0] onchip_of(input [6:0] rdy, input [6:0] inf);
        onchip_of = rdy + inf;
    endfunction
    function [6:0] occ_of(input [6:0] wb, input act, input [6:0] rdy, input [6:0] inf);
        occ_of = wb + {6'd0, act} + rdy + inf;
    endfunction

    // one's-complement sum of the first n bytes of a beat, as 16 big-endian words
    function [19:0] sum16(input [255:0] d, input [5:0] n);
        reg [255:0] m;
        reg [19:0]  s;
        integer     k;
        begin
            m = d & ~({256{1'b1}} << {n, 3'b000});
            s = 20'd0;
            for (k = 0; k < 16; k = k + 1)
                s = s + {4'd0, m[16*k +: 8], m[16*k+8 +: 8]};
            sum16 = s;
        end
    endfunction

    function [15:0] fold(input [31:0] s);
        reg [16:0] a;
        begin
            a = {1'b0, s[15:0]} + {1'b0, s[31:16]};
            fold = a[15:0] + {15'd0, a[16]};     // a[16] set means a[15:0] <= 16'hFFFE: no carry
        end
    endfunction

    // ---------------- activity ----------------
    // The decision logic below is evaluated only while `awake`: an idle
    // receive path costs the simulation (almost) nothing.  awake is set by
    // every input event that can give the queue work (a receive register
    // written, a frame stored in the packet buffer, a descriptor completion,
    // an RDH or FPD write, the end of a function reset) and kept while the
    // queue is busy or a timer runs; it drops at the first edge at which
    // neither holds.  State changes only at such edges or with an input
    // event, so `busy` stays exact.
    // For the same reason the decision logic reads only this function's own
    // registers: nothing from the shared interface (input flops, the DMA
    // grant) or the top-level inputs (tick, reset), which Verilator would
    // evaluate at every edge of every clock.  Input events are taken by the
    // sequential block; a request is granted when it leaves the request
    // register (req_ready is sampled at the edge), and a write's beats start
    // the cycle after its grant.
    reg         awake;
    reg         ev_q;                       // an input event came at the last edge: one more
                                            // edge recomputes the registered outputs from its effects
    wire        ev_in = wake || dcpl_valid || rdh_wr || fpd;

    // Decisions (while awake; all 0 otherwise).  Only the flags are
    // outputs of the block; its temporaries are block-local, written before
    // they are read, so they hold nothing between evaluations: no storage
    // (Verilator's LATCH check does not see that; assigning them defaults
    // would cost an evaluation on every idle edge).
    reg         s_flow, s_end, own_end, do_take, d_done, pkt_done, wb_status, wb_burst;
    reg         do_fetch, do_data, rxt0_fire, busy_c;
    /* verilator lint_off LATCH */
    always @(*) begin : decide
        reg [15:0] avail, n_fetch;
        reg [6:0]  wth;
        reg [8:0]  pth, hth, wth_raw;
        reg        port_free, port_wr, has_frame, starved, fetch_ok, do_fetch0, do_wb;
        reg [6:0]  onchip;
        s_flow = 0; s_end = 0; own_end = 0; do_take = 0; d_done = 0; pkt_done = 0;
        wb_status = 0; wb_burst = 0; do_fetch = 0; do_data = 0; rxt0_fire = 0; busy_c = 0;
`ifdef SYNTHESIS
        // for the netlist: defaults, so that no latch holds a temporary
        // while asleep (the simulator skips them: see above)
        avail = 0; n_fetch = 0; wth = 0; pth = 0; hth = 0; wth_raw = 0;
        port_free = 0; port_wr = 0; has_frame = 0; starved = 0; fetch_ok = 0; do_fetch0 = 0; do_wb = 0;
        onchip = 0;
`endif
        if (awake) begin
            avail     = avail_of(rdt, fetch_idx, ring_size);
            onchip    = onchip_of(n_rdy, n_inf);
            n_fetch   = nfetch_of(avail, fetch_idx, ring_size, occ_of(n_wb, d_act, n_rdy, n_inf));
            pth       = gran ? {2'b0, pthresh} : {pthresh, 2'b0};  // GRAN=0: 4 descriptors per 64-byte line
            hth       = gran ? {2'b0, hthresh} : {hthresh, 2'b0};
            wth_raw   = gran ? {2'b0, wthresh} : {wthresh, 2'b00};
            wth       = (wth_raw >= {2'b0, CACHE}) ? CACHE : wth_raw[6:0];
            port_free = !req_valid;                                // the request register is empty
            port_wr   = port_free && !s_act;                       // ... and no write is streaming

            // write stream: beats flow once the request has been granted
            s_flow    = s_act && s_go;
            s_end     = s_flow && (s_wb ? s_left <= 16'd2 : s_left <= 16'd32);
            own_end   = s_end && s_wb && !s_orph;                  // a write-back's last beat leaves

            // frames and descriptors
            has_frame = fr_act || frame_avail;
            do_take   = en && !d_act && n_rdy != 0 && has_frame;
            // the descriptor's last data beat is on wvalid: it is done at this edge
            d_done    = wvalid && w_data && wlast && d_act && d_iss == 16'd0;
            pkt_done  = d_done && d_eop;

            // write-back
            starved   = en && has_frame && !d_act && onchip == 0 && avail == 16'd0;
            wb_status = wthresh == 7'd0 && n_wb != 0 && port_wr;
            wb_burst  = wthresh != 7'd0 && n_wb != 0 && port_wr && (n_wb >= wth || owed != 0 || starved);
            do_wb     = wb_status || wb_burst;

            // fetch and data requests
            fetch_ok  = en && !f_busy && n_fetch != 0 && port_free;
            do_fetch0 = !do_wb && fetch_ok && onchip == 0;
            do_fetch  = do_fetch0 || (!do_wb && fetch_ok && pth != 0 &&
                                      {2'b0, onchip} < pth && avail >= {7'd0, hth});
            do_data   = !do_wb && !do_fetch && d_act && d_iss != 16'd0 && port_wr;

            rxt0_fire = rxt0_wait && owed == 7'd0;

            // (registered outputs that another block consumes at the next edge count as work)
            busy_c = do_wb || do_fetch || do_data || do_take || s_flow || req_valid || wvalid ||
                     rxt0_set || rxdmt0_set || rxt0_fire;
        end
    end
    /* verilator lint_on LATCH */
    // (A running timer keeps the queue awake; its expiry needs no `busy`:
    // the simulator wakes the function at next_timer, and the tick count of
    // that edge makes it expire.  So busy does not depend on `tick`.)
    assign busy      = busy_c || ev_q;

    // The sequential block is written in next-state form: every register's
    // next value is computed into a blocking temporary (x_n) from the
    // current state, and each register gets exactly one non-blocking
    // assignment at the end.  (Reading a register inside a block that
    // assigns it in several places makes Verilator keep a shadow copy of
    // it, copied in and out at every edge, also while the block is idle.)
    // next values of the registers
    reg [15:0]   rel_idx_n, fetch_idx_n, fr_rem_n, d_iss_n, d_len_n, s_left_n, rdh_n, req_len_n;
    reg [5:0]    rel_slot_n, d_slot_n, s_slot_n, w_nb_n;
    reg [6:0]    n_wb_n, n_rdy_n, n_inf_n, f_left_n, s_n_n, owed_n;
    reg          d_act_n, f_busy_n, fr_act_n, fr_ce_n, d_eop_n, s_act_n, s_go_n, s_wb_n, s_status_n, s_orph_n;
    reg          w_data_n, wvalid_n, wlast_n, rdtr_run_n, radv_run_n, rxt0_wait_n, rxt0_set_n, rxdmt0_set_n;
    reg          req_valid_n, req_write_n, awake_n, nodesc_n, ev_n;
    reg [RW-1:0] fr_row_n, s_row_n, head_n, tail_n, wr_ptr_n;
    reg [RW:0]   used_n, in_rows_n;
    reg [QW-1:0] fq_wr_n, fq_rd_n;
    reg [QW:0]   fq_cnt_n;
    reg [16:0]   head_q_n;
    reg [31:0]   csum_n;
    reg [63:0]   d_addr_n, req_addr_n;
    reg [17:0]   rdtr_cnt_n, radv_cnt_n;
    reg [4:0]    req_tag_n;
    // values of this edge
    reg          pop_n, flush_ev, granted, wb_load, rd_row_en, timer_expire;
    reg [6:0]    f_got, wb_n;
    reg [19:0]   beat_sum;
    reg [15:0]   take_rem, take_n, avail_s, n_fetch_s, chunk, wb_to_end;
    reg [5:0]    proc_slot;

    /* verilator lint_off BLKSEQ */
    always @(posedge clk) if (rst || awake || ev_in || wr_en || frame_abort) begin
        // ---- current state ----
        rel_idx_n = rel_idx; fetch_idx_n = fetch_idx; rel_slot_n = rel_slot;
        n_wb_n = n_wb; n_rdy_n = n_rdy; n_inf_n = n_inf; d_act_n = d_act;
        f_busy_n = f_busy; f_left_n = f_left;
        fr_act_n = fr_act; fr_ce_n = fr_ce; fr_rem_n = fr_rem; fr_row_n = fr_row; csum_n = csum;
        d_slot_n = d_slot; d_addr_n = d_addr; d_iss_n = d_iss; d_len_n = d_len; d_eop_n = d_eop;
        s_act_n = s_act; s_go_n = s_go; s_wb_n = s_wb; s_status_n = s_status; s_orph_n = s_orph;
        s_left_n = s_left; s_slot_n = s_slot; s_n_n = s_n; s_row_n = s_row;
        w_data_n = w_data; w_nb_n = w_nb; wlast_n = wlast;
        rdtr_run_n = rdtr_run; radv_run_n = radv_run; rdtr_cnt_n = rdtr_cnt; radv_cnt_n = radv_cnt;
        rxt0_wait_n = rxt0_wait; owed_n = owed;
        req_valid_n = req_valid; req_write_n = req_write; req_tag_n = req_tag; req_addr_n = req_addr;
        req_len_n = req_len;
        nodesc_n = nodesc_q; rdh_n = rdh_q; awake_n = awake; ev_n = ev_q;
        head_n = head; tail_n = tail; wr_ptr_n = wr_ptr; used_n = used; in_rows_n = in_rows;
        fq_wr_n = fq_wr; fq_rd_n = fq_rd; fq_cnt_n = fq_cnt; head_q_n = head_q;
        // pulses last one cycle
        rxt0_set_n = 1'b0; rxdmt0_set_n = 1'b0; wvalid_n = 1'b0; pop_n = 1'b0; wb_load = 1'b0;
        rd_row_en = 1'b0;
        granted = req_valid && req_ready;
        timer_expire = (rdtr_run && rdtr_cnt <= tick) || (radv_run && radv_cnt <= tick);
        if (granted) req_valid_n = 1'b0;
        beat_sum = 20'd0;

        // ---- the write stream: survives CTRL.RST once granted ----
        if (prst) begin
            s_act_n = 0; s_go_n = 0; s_wb_n = 0; s_status_n = 0; s_orph_n = 0;
            s_left_n = 0; s_slot_n = 0; s_n_n = 0; s_row_n = 0;
            wlast_n = 0; w_data_n = 0; w_nb_n = 0;
        end else begin
            if (granted && req_write && s_act) begin
                s_go_n = 1'b1;                  // beats from the next cycle
                if (rst) s_orph_n = 1'b1;
            end
            if (s_flow) begin
                wvalid_n = 1'b1;
                wlast_n  = s_end;
                w_data_n = !s_wb && !s_orph && !rst;
                if (rst) s_orph_n = 1'b1;
                if (s_end) begin
                    s_act_n = 1'b0;
                    s_go_n  = 1'b0;
                end
                if (s_wb) begin
                    wb_load  = 1'b1;            // wb_q from the cache (below)
                    s_slot_n = s_slot + 6'd2;
                    s_left_n = s_end ? 16'd0 : s_left - 16'd2;
                end else begin
                    rd_row_en = 1'b1;           // rd_data from the buffer (below)
                    w_nb_n   = (s_left >= 16'd32) ? 6'd32 : s_left[5:0];
                    s_row_n  = row_add(s_row, {{RW{1'b0}}, 1'b1});
                    s_left_n = s_end ? 16'd0 : s_left - 16'd32;
                end
            end else if (rst && s_act && !s_go && !granted) begin
                s_act_n = 1'b0;                 // not granted: dropped with the request
            end
        end

        if (rst) begin
            rel_idx_n = 16'd0; fetch_idx_n = 16'd0; rel_slot_n = 0;
            n_wb_n = 0; n_rdy_n = 0; n_inf_n = 0; d_act_n = 0;
            f_busy_n = 0; f_left_n = 0;
            fr_act_n = 0; fr_ce_n = 0; fr_rem_n = 0; fr_row_n = 0; csum_n = 0;
            d_slot_n = 0; d_addr_n = 0; d_iss_n = 0; d_len_n = 0; d_eop_n = 0;
            rdtr_run_n = 0; radv_run_n = 0; rdtr_cnt_n = 0; radv_cnt_n = 0;
            rxt0_wait_n = 0; owed_n = 0;
            req_valid_n = 0; req_write_n = 0; req_tag_n = 0; req_addr_n = 0; req_len_n = 0;
            nodesc_n = 1'b1; rdh_n = 16'd0; ev_n = 1'b0;
            head_n = 0; tail_n = 0; wr_ptr_n = 0; used_n = 0; in_rows_n = 0;
            fq_wr_n = 0; fq_rd_n = 0; fq_cnt_n = 0; head_q_n = 0;
            awake_n = 1'b1;                     // evaluate once after the reset
        end else begin
            awake_n  = ev_in || busy_c || rdtr_run || radv_run;
            // the numbers behind the decisions (computed only here, when used)
            avail_s   = avail_of(rdt, fetch_idx, ring_size);
            n_fetch_s = nfetch_of(avail_s, fetch_idx, ring_size, occ_of(n_wb, d_act, n_rdy, n_inf));
            take_rem  = fr_act ? fr_rem : frame_len - (secrc ? 16'd4 : 16'd0);
            take_n    = (take_rem < buf_bytes) ? take_rem : buf_bytes;
            proc_slot = rel_slot + n_wb[5:0];
            chunk     = (d_iss < CHUNK) ? d_iss : CHUNK;
            wb_to_end = ring_size - rel_idx;
            wb_n      = (rel_idx >= ring_size || {9'd0, n_wb} <= wb_to_end) ? n_wb : wb_to_end[6:0];
            ev_n     = ev_in;
            f_got    = (dcpl_valid && f_busy) ? ((f_left >= 7'd2) ? 7'd2 : f_left) : 7'd0;
            // a frame done asks for its write-back at once with RDTR = 0
            // (legacy); the 82599 has no RDTR: at once with WTHRESH = 0,
            // else when WTHRESH are done or the top's flush strobe (fpd:
            // EITR expiry) comes, as the 82598's write-back rule
            flush_ev = timer_expire || fpd ||
                       (pkt_done && (FMT == 0 ? rdtr == 16'd0 : wthresh == 7'd0));

            // ---- RDH write: only with the receiver off and nothing on chip or in flight ----
            if (rdh_wr && !en && occ_of(n_wb, d_act, n_rdy, n_inf) == 0 && !f_busy && !s_act && !req_valid && !wvalid && !fr_act) begin
                rel_idx_n   = rdh_val;
                fetch_idx_n = rdh_val;
            end

            // ---- descriptor fetch completions: two descriptors per beat ----
            if (dcpl_valid && f_busy) begin
                f_left_n = f_left - f_got;
                if (f_left <= 7'd2) f_busy_n = 1'b0;
            end

            // ---- take the next descriptor for the frame ----
            if (do_take) begin
                d_act_n  = 1'b1;
                d_slot_n = proc_slot;
                d_addr_n = cache[proc_slot][63:0];
                d_iss_n  = take_n;
                d_len_n  = take_n;
                d_eop_n  = take_rem == take_n;
                fr_rem_n = take_rem - take_n;
                fr_act_n = 1'b1;
                if (!fr_act) begin
                    fr_ce_n  = head_q[16];
                    fr_row_n = head;
                    csum_n   = 32'd0;
                end
                // RXDMT0: the free count (unused on chip + fetchable) falls to the threshold
                if ({9'd0, onchip_of(n_rdy, n_inf)} + avail_s == (ring_size >> ({1'b0, rdmts} + 3'd1)) + 16'd1)
                    rxdmt0_set_n = 1'b1;
            end

            // ---- data beats: checksum; a descriptor is done after its last beat ----
            if (wvalid && w_data) begin
                beat_sum = sum16(rd_data, w_nb);
                csum_n = csum + {12'd0, beat_sum};
                if (d_done) begin
                    d_act_n = 1'b0;
                    if (d_eop) begin
                        fr_act_n = 1'b0;
                        pop_n    = 1'b1;        // the frame leaves the buffer (below)
                    end
                end
            end

            // ---- a write-back finished: release its descriptors ----
            if (own_end) begin
                rel_idx_n  = ring_add(rel_idx, {9'd0, s_n});
                rel_slot_n = rel_slot + s_n[5:0];
            end

            // ---- receive timer and RXT0 ----
            if (rdtr_run) rdtr_cnt_n = (rdtr_cnt > tick) ? rdtr_cnt - tick : 18'd0;
            if (radv_run) radv_cnt_n = (radv_cnt > tick) ? radv_cnt - tick : 18'd0;
            if (flush_ev) begin
                rdtr_run_n = 1'b0;
                radv_run_n = 1'b0;
            end else if (pkt_done && rdtr != 16'd0) begin
                // (RDTR = 0 flushes at once in the legacy format; the 82599
                // has no RDTR: no packet timer)
                rdtr_run_n = 1'b1;
                rdtr_cnt_n = {rdtr, 2'b00};
                if (!radv_run && radv != 16'd0) begin
                    radv_run_n = 1'b1;
                    radv_cnt_n = {radv, 2'b00};
                end
            end
            if (rxt0_fire) begin
                rxt0_set_n  = 1'b1;
                rxt0_wait_n = 1'b0;
            end
            n_wb_n = n_wb + {6'd0, d_done} - (own_end ? s_n : 7'd0);
            if (flush_ev) begin
                rxt0_wait_n = 1'b1;
                owed_n = n_wb_n;
            end else if (own_end) begin
                owed_n = (owed > s_n) ? owed - s_n : 7'd0;
            end

            // ---- requests (one per cycle, by priority) ----
            if (wb_status) begin
                req_valid_n = 1'b1; req_write_n = 1'b1; req_tag_n = 5'd0;
                // legacy: the second quadword; advanced: the whole descriptor
                // (its write-back format has no field software wrote, B2)
                req_addr_n = rdba + {44'd0, rel_idx, 4'd0} + (FMT == 0 ? 64'd8 : 64'd0);
                req_len_n = FMT == 0 ? 16'd8 : 16'd16;
                s_act_n = 1'b1; s_go_n = 1'b0; s_wb_n = 1'b1; s_status_n = 1'b1; s_orph_n = 1'b0;
                s_left_n = 16'd1; s_slot_n = rel_slot; s_n_n = 7'd1;
            end
            if (wb_burst) begin
                req_valid_n = 1'b1; req_write_n = 1'b1; req_tag_n = 5'd0;
                req_addr_n = rdba + {44'd0, rel_idx, 4'd0}; req_len_n = {5'd0, wb_n, 4'd0};
                s_act_n = 1'b1; s_go_n = 1'b0; s_wb_n = 1'b1; s_status_n = 1'b0; s_orph_n = 1'b0;
                s_left_n = {9'd0, wb_n}; s_slot_n = rel_slot; s_n_n = wb_n;
            end
            if (do_fetch) begin
                req_valid_n = 1'b1; req_write_n = 1'b0; req_tag_n = DESC_TAG;
                req_addr_n = rdba + {44'd0, fetch_idx, 4'd0};
                req_len_n = {n_fetch_s[11:0], 4'd0};
                f_busy_n = 1'b1;
                f_left_n = n_fetch_s[6:0];
                fetch_idx_n = ring_add(fetch_idx, n_fetch_s);
            end
            if (do_data) begin
                req_valid_n = 1'b1; req_write_n = 1'b1; req_tag_n = 5'd0;
                req_addr_n = d_addr; req_len_n = chunk;
                s_act_n = 1'b1; s_go_n = 1'b0; s_wb_n = 1'b0; s_status_n = 1'b0; s_orph_n = 1'b0;
                s_left_n = chunk; s_row_n = fr_row;
                fr_row_n = row_add(fr_row, {{(RW-10){1'b0}}, chunk[15:5]});
                d_addr_n = d_addr + {48'd0, chunk};
                d_iss_n = d_iss - chunk;
            end

            // ---- the packet buffer: the MAC's beats and commits, the engine's pops ----
            if (wr_en)
                wr_ptr_n = row_add(wr_ptr, {{RW{1'b0}}, 1'b1});
            if (commit) begin
                tail_n    = wr_ptr_n;
                in_rows_n = 0;
                used_n    = used + in_rows + {{RW{1'b0}}, wr_en};
                fq_wr_n   = fq_wr + 1'b1;
            end else if (frame_abort) begin
                wr_ptr_n  = tail;
                in_rows_n = 0;
            end else if (wr_en) begin
                in_rows_n = in_rows + 1'b1;
            end
            if (pop_n) begin
                head_n  = row_add(head, rows_of(frame_len));
                used_n  = used_n - rows_of(frame_len);
                fq_rd_n = fq_rd + 1'b1;
            end
            fq_cnt_n = fq_cnt + {{QW{1'b0}}, commit} - {{QW{1'b0}}, pop_n};
            // the head entry after this edge: the one committed now if it lands at
            // the head (read before the queue is written, below)
            head_q_n = (commit && fq_rd_n == fq_wr) ? {commit_ce, commit_len} : fq[fq_rd_n];

            // ---- counters, and what they say to the outside ----
            n_inf_n = n_inf + (do_fetch ? n_fetch_s[6:0] : 7'd0) - f_got;
            n_rdy_n = n_rdy + f_got - (do_take ? 7'd1 : 7'd0);
            rdh_n   = ring_add(rel_idx_n, {9'd0, n_wb_n});
            // (RDT and RDLEN writes wake the queue: this is recomputed at the next edge)
            nodesc_n = n_rdy_n == 0 && n_inf_n == 0 &&
                       (ring_size == 0 || rdt >= ring_size || fetch_idx_n >= ring_size || rdt == fetch_idx_n);
        end

        // the write-back beat: the status-only write is the descriptor's second
        // quadword (legacy) or the whole descriptor (advanced)
        if (wb_load)
            wb_q <= s_status ? (FMT == 0 ? {192'd0, cache[s_slot][127:64]} : {128'd0, cache[s_slot]})
                             : {cache[s_slot + 6'd1], cache[s_slot]};
        // the row of the data beat
        if (rd_row_en)
            rd_data <= mem[s_row];
        // ---- the arrays: written last, in place (blocking: every read of
        // them in this block comes before, and no other block reads them;
        // the entries written never are the ones read at the same edge: a
        // frame's rows are read only once it is committed, the cache slots
        // filled are free ones) ----
        if (!rst && wr_en)
            mem[wr_ptr] = wr_data;
        if (!rst && commit)
            fq[fq_wr] = {commit_ce, commit_len};
        if (!rst && dcpl_valid && f_busy) begin
            cache[rel_slot + n_wb[5:0] + {5'd0, d_act} + n_rdy[5:0]] = dcpl_data[127:0];
            if (f_left >= 7'd2)
                cache[rel_slot + n_wb[5:0] + {5'd0, d_act} + n_rdy[5:0] + 6'd1] = dcpl_data[255:128];
        end
        if (!rst && wvalid && w_data && d_done) begin
            if (FMT == 0)
                cache[d_slot][127:64] = {16'd0, (d_eop && fr_ce) ? 8'h01 : 8'h00, d_eop ? 8'h07 : 8'h05,
                                         d_eop ? fold(csum_n) : 16'd0, d_len};
            else
                cache[d_slot] = {16'd0, wb_len, 2'b00, d_eop && fr_ce, 27'd0, d_eop, 1'b1, 64'd0};
        end

        // ---- one assignment per register ----
        rel_idx <= rel_idx_n; fetch_idx <= fetch_idx_n; rel_slot <= rel_slot_n;
        n_wb <= n_wb_n; n_rdy <= n_rdy_n; n_inf <= n_inf_n; d_act <= d_act_n;
        f_busy <= f_busy_n; f_left <= f_left_n;
        fr_act <= fr_act_n; fr_ce <= fr_ce_n; fr_rem <= fr_rem_n; fr_row <= fr_row_n; csum <= csum_n;
        d_slot <= d_slot_n; d_addr <= d_addr_n; d_iss <= d_iss_n; d_len <= d_len_n; d_eop <= d_eop_n;
        s_act <= s_act_n; s_go <= s_go_n; s_wb <= s_wb_n; s_status <= s_status_n; s_orph <= s_orph_n;
        s_left <= s_left_n; s_slot <= s_slot_n; s_n <= s_n_n; s_row <= s_row_n;
        w_data <= w_data_n; w_nb <= w_nb_n; wvalid <= wvalid_n; wlast <= wlast_n;
        rdtr_run <= rdtr_run_n; radv_run <= radv_run_n; rdtr_cnt <= rdtr_cnt_n; radv_cnt <= radv_cnt_n;
        rxt0_wait <= rxt0_wait_n; owed <= owed_n; rxt0_set <= rxt0_set_n; rxdmt0_set <= rxdmt0_set_n;
        req_valid <= req_valid_n; req_write <= req_write_n; req_tag <= req_tag_n; req_addr <= req_addr_n;
        req_len <= req_len_n;
        nodesc_q <= nodesc_n; rdh_q <= rdh_n; awake <= awake_n; ev_q <= ev_n;
        room_q <= {1'b0, used_n} + {1'b0, in_rows_n} < {1'b0, size_rows};
        next_timer_q <= (rdtr_run_n && (!radv_run_n || rdtr_cnt_n < radv_cnt_n)) ? rdtr_cnt_n :
                        radv_run_n ? radv_cnt_n : 18'h3FFFF;           // x 4 <= 262140 < 18'h3FFFF
        head <= head_n; tail <= tail_n; wr_ptr <= wr_ptr_n; used <= used_n; in_rows <= in_rows_n;
        fq_wr <= fq_wr_n; fq_rd <= fq_rd_n; fq_cnt <= fq_cnt_n; head_q <= head_q_n;
    end
    /* verilator lint_on BLKSEQ */
endmodule
