// Transmit descriptor engine of one queue, shared by the personalities:
// FMT 0 = the 8254x legacy descriptor (82546: 64-entry cache, TIDV/TADV,
// GRAN), FMT 1 = the 82599 advanced data descriptor (40-entry cache,
// thresholds in descriptors, head write-back).  The two formats put EOP,
// IFCS and RS at the same bits (QW1 bits 24, 25, 27) and DD at QW1 bit 32;
// only the legacy one has IDE (bit 31, TSE in the advanced one), and only the
// advanced one has DTYP (QW1 23:20: 0011 data, 0010 context: a context
// descriptor carries no data and is passed over like a zero-length one).
//
// An on-chip descriptor cache of CACHE entries holds, in ring order:
//   [rel .. done)   processed descriptors waiting for write-back (n_wb)
//   [done .. proc)  descriptors whose data reads are issued (n_iss)
//   [proc .. fill)  fetched descriptors not yet processed (n_rdy)
//   [fill .. fetch) descriptors being fetched (n_inf)
// Fetch (SDM 3.2.4, nic-facts A4): when nothing is left on chip, any
// descriptors the tail makes available are fetched at once; otherwise a
// prefetch starts when the on-chip count is below PTHRESH, at least HTHRESH
// descriptors wait in host memory and no other DMA is pending.  The engine
// never fetches past the tail or across the ring end (the next fetch starts
// at index 0).  Write-back (SDM 3.4): WTHRESH = 0 writes the status dword of
// each RS descriptor as soon as it is processed; WTHRESH > 0 ("bursting")
// accumulates descriptors from an RS descriptor onward and writes them back
// whole once WTHRESH are done, or when TIDV/TADV expire (TIDV starts at the
// arming RS descriptor and restarts with each IDE descriptor added).  TXDW is raised at
// write-back, or when TIDV/TADV expire for descriptors with IDE.
// TXDCTL.GRAN = 0 counts PTHRESH, HTHRESH and WTHRESH in 64-byte cache lines
// of 4 descriptors (WTHRESH capped at the cache); the 82599 has no GRAN
// (always descriptors: tie gran to 1).
// Head write-back (82599 TDWBAL.HEAD_WB_ENABLE, hwb_en): instead of writing
// descriptors back, the engine writes the head index (a 4-byte little-endian
// dword) to hwb_addr at every point where it would have written descriptors
// back; the descriptors stay as software wrote them.
// swflsh (82599 TXDCTL.SWFLSH) writes back a batch that WTHRESH has not yet
// filled, as a TIDV/TADV expiry does on the 8254x.
// TDH (SDM: written only before the transmitter is enabled) is taken only
// while TCTL.EN is 0 and the engine is idle: nothing fetched or being
// fetched, no data read or write-back outstanding, and nothing in the packet
// buffer (buf_idle).  Otherwise the write is ignored: restarting the
// descriptor cache under fragments the packet buffer still tracks would
// desynchronise the two.
//
// A granted write-back delivers all of its data even across CTRL.RST (the
// bus transaction has started, and the top level's write lock waits for its
// last beat); its completion then counts for nothing.
//
// DMA priority on the port: write-back, fetch into an empty cache, prefetch,
// packet data.  The bus model queues requests, so the data engine could issue
// every cycle and a prefetch behind it would wait until the cache ran dry;
// a prefetch whose threshold condition holds therefore takes the next request
// slot and the data engine resumes one cycle later.  Decisions are
// combinational; the request is registered.
// Beats are 32 bytes: two descriptors per fetch or write-back beat.
module tx_queue #(
    parameter AW = 16,
    parameter FMT = 0,                   // 0 legacy (8254x), 1 advanced (82599)
    parameter [6:0] CACHE = 7'd64,       // on-chip descriptors: 64 (82546), 40 (82599)
    // 82599 model: the whole on-chip buffer must be empty (every descriptor
    // transmitted and written back) for a fetch without prefetch, and two
    // descriptor fetches may be outstanding (docs/rtl.md, "82599 TX
    // descriptor residency").  0 on the 82546.
    parameter FETCH2 = 0
) (
    input  wire          clk,
    input  wire          prst,           // power-on reset (the write-back stream)
    input  wire          rst,            // function reset (power-on or CTRL.RST)
    // registers
    input  wire          en,             // TCTL.EN
    input  wire [63:0]   tdba,
    input  wire [15:0]   ring_size,      // descriptors (TDLEN / 16, multiple of 8); 0 = no ring
    input  wire [15:0]   tdt,
    input  wire          tdh_wr,
    input  wire [15:0]   tdh_val,
    input  wire [6:0]    pthresh,
    input  wire [6:0]    hthresh,
    input  wire [6:0]    wthresh,
    input  wire          gran,
    input  wire          hwb_en,         // head write-back instead of descriptor write-back
    input  wire [63:0]   hwb_addr,
    input  wire          swflsh,         // a strobe: write back what a batch holds now
                                         // (82599 TXDCTL.SWFLSH; tie 0 on the 82546)
    input  wire [15:0]   tidv,
    input  wire [15:0]   tadv,
    input  wire [17:0]   tick,           // 256 ns ticks elapsed since the previous edge (saturating)
    output wire [15:0]   tdh,
    // packet buffer
    input  wire [AW:0]   size_bytes,
    input  wire [AW:0]   free_bytes,
    input  wire          tag_free,
    input  wire          buf_idle,       // no fragment in the tag table, no frame queued
    input  wire [3:0]    next_tag,
    output wire          issue_valid,
    output wire          issue_dma,
    output wire [15:0]   issue_len,
    output wire          issue_eop,
    output wire          issue_ifcs,
    output wire          issue_drop,
    input  wire          frag_done,
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
    output reg  [255:0]  wdata,
    output reg           wlast,
    // interrupt causes and scheduling hints
    output reg           txdw_set,
    output reg           txqe_set,
    output wire [17:0]   next_timer,     // ticks to the earliest running timer; 18'h3FFFF none
    output wire          busy
);
    localparam [4:0] DESC_TAG = 5'h10;

    reg [127:0] cache [0:63];
    reg [15:0]  rel_idx, fetch_idx;
    reg [5:0]   rel_slot;
    reg [6:0]   n_wb, n_iss, n_rdy, n_inf;
    reg         f_busy;           // a descriptor fetch is outstanding
    reg [6:0]   f_left;           // descriptors still to arrive
    reg         f2_valid;         // FETCH2: a second fetch queued behind it
    reg [6:0]   f2_n;             //   of this many descriptors
    reg [15:0]  pkt_bytes;        // bytes of the current packet issued so far
    reg         in_pkt;           // a packet's descriptors are issued up to one without EOP
    reg         pkt_drop;         // the current packet does not fit the buffer
    reg         armed, armed_ide, flush;
    reg         tidv_run, tadv_run;
    reg [17:0]  tidv_cnt, tadv_cnt;
    reg         ws_active;        // streaming write-back data
    reg [6:0]   ws_left;          // descriptors left to stream
    reg [5:0]   ws_slot;
    reg [6:0]   ws_n;             // descriptors in the write being streamed
    reg         ws_status_only;
    reg         ws_hwb;           // the write is the head write-back dword
    reg         ws_orph;          // CTRL.RST came while it streamed: its end counts for nothing
    reg         was_empty;

    // ---------------- ring arithmetic ----------------
    `include "ring_add.vh"

    wire [6:0]  occ      = n_wb + n_iss + n_rdy + n_inf;
    wire [6:0]  space    = CACHE - occ;
    wire        tdt_ok   = en && ring_size != 0 && tdt < ring_size && fetch_idx < ring_size;
    wire [15:0] avail    = !tdt_ok ? 16'd0 :
                           (tdt >= fetch_idx) ? tdt - fetch_idx : tdt + ring_size - fetch_idx;
    wire [15:0] to_end   = ring_size - fetch_idx;
    wire [15:0] n_a      = (avail < to_end) ? avail : to_end;
    wire [15:0] n_fetch  = (n_a < {9'd0, space}) ? n_a : {9'd0, space};
    wire [8:0]  pth      = gran ? {2'b0, pthresh} : {pthresh, 2'b0};   // GRAN=0: 4 descriptors per 64-byte line
    wire [8:0]  hth      = gran ? {2'b0, hthresh} : {hthresh, 2'b0};
    // WTHRESH likewise, capped at the cache size (a batch never exceeds the cache)
    wire [8:0]  wth_raw  = gran ? {2'b0, wthresh} : {wthresh, 2'b00};
    wire [6:0]  wth      = (wth_raw >= {2'b0, CACHE}) ? CACHE : wth_raw[6:0];
    wire [6:0]  onchip   = n_rdy + n_inf;
    wire [15:0] done_idx = ring_add(rel_idx, {9'd0, n_wb});

    // Port availability depends on the DMA grant (req_ready), which couples
    // both functions and the shared interface.  The decisions below are
    // therefore split into candidates that depend only on this function's
    // registers (evaluated by the simulator only at this function's edges)
    // and a final AND with port_free; `busy` uses the candidates (when the
    // port is not free, req_valid or ws_active makes it busy anyway).
    wire        port_free = !(req_valid && !req_ready) && !ws_active;
    // the write-back stream: beats flow once its request has been taken
    wire        ws_flow   = ws_active && !(req_valid && !req_ready);
    wire        ws_end    = ws_flow && ws_left <= 7'd2;
    wire        own_end   = ws_end && !ws_orph;

    // ---------------- descriptor at the process pointer ----------------
    wire [5:0]   proc_slot = rel_slot + n_wb[5:0] + n_iss[5:0];
    wire [63:0]  pd_addr   = cache[proc_slot][63:0];
    // advanced: a context descriptor (DTYP 0010) carries no data and ends no
    // packet; it goes through as a zero-length fragment
    wire         pd_ctx    = FMT == 1 && cache[proc_slot][87:84] == 4'b0010;
    wire [15:0]  pd_len    = pd_ctx ? 16'd0 : cache[proc_slot][79:64];
    wire         pd_eop    = !pd_ctx && cache[proc_slot][88];  // CMD.EOP (DCMD.EOP)
    wire         pd_ifcs   = cache[proc_slot][89];     // CMD.IFCS (DCMD.IFCS)
    wire [16:0]  pkt_total = {1'b0, pkt_bytes} + {1'b0, pd_len};
    // a packet is dropped when it does not fit the TX share of the packet
    // memory or its length does not fit the 16-bit frame length (64 KiB - 1)
    wire         pd_drop   = pkt_drop || ({{(AW-16){1'b0}}, pkt_total} > size_bytes) || pkt_total[16];
    wire         pd_nodma  = pd_drop || pd_len == 16'd0;
    wire         issue_ok  = en && n_rdy != 0 && tag_free &&
                             (pd_nodma || free_bytes >= {{(AW-15){1'b0}}, pd_len});
    wire         issue_can = issue_ok && (pd_nodma || port_free);

    // ---------------- descriptor at the release pointer ----------------
    wire         rd_rs     = cache[rel_slot][91];      // CMD.RS (DCMD.RS)
    wire         rd_ide    = FMT == 0 && cache[rel_slot][95];  // CMD.IDE (legacy only)
    wire         bursting  = wthresh != 7'd0;
    wire [15:0]  wb_to_end = ring_size - rel_idx;
    // a ring shrunk under the engine (TDLEN rewritten, to 0 among others,
    // while descriptors wait for their write-back) has no end to stop at:
    // the batch is written whole, as rx_queue does; without this a ring of
    // 0 made a write-back request of 0 bytes (found by make fuzz-bounded)
    wire [6:0]   wb_n      = (rel_idx >= ring_size || {9'd0, n_wb} <= wb_to_end) ? n_wb : wb_to_end[6:0];
    // release a descriptor that needs no write-back
    wire         wb_release = n_wb != 0 && !ws_active && !rd_rs && !armed;
    // non-burst: status write of one RS descriptor
    wire         wb_status_c = n_wb != 0 && !bursting && rd_rs;
    wire         wb_status   = wb_status_c && port_free;
    // burst: arm on an RS descriptor, write when WTHRESH are done or on a
    // flush (an RS descriptor that already completes the batch is written at once)
    wire         wb_full     = n_wb >= wth;
    wire         wb_burst_c  = bursting && n_wb != 0 && (armed ? (wb_full || flush) : (rd_rs && wb_full));
    wire         wb_burst    = wb_burst_c && port_free;
    wire         wb_arm_c    = n_wb != 0 && bursting && rd_rs && !armed && !ws_active;
    wire         wb_arm      = wb_arm_c && !wb_burst;
    wire         batch_ide  = armed ? armed_ide : (rd_ide && tidv != 16'd0);
    // the descriptor whose data completes (frag_done) and its CMD.IDE: each
    // IDE descriptor added to an armed batch reloads TIDV (nic-facts A2: "each
    // descriptor with IDE reloads the TIDV countdown"), so the batch's flush
    // comes TIDV after its last descriptor, not after its first
    wire [5:0]   done_slot  = rel_slot + n_wb[5:0];
    wire         done_ide   = FMT == 0 && cache[done_slot][95];

    wire timer_expire = (tidv_run && tidv_cnt <= tick) || (tadv_run && tadv_cnt <= tick);

    // ---------------- DMA decisions (one per cycle, by priority) ----------------
    wire do_wb      = wb_status || wb_burst;
    // FETCH2 (the 82599): a prefetch may be issued while one fetch is in
    // flight, so two are outstanding; completions arrive in request order
    wire fetch_c    = en && (!f_busy || (FETCH2 != 0 && !f2_valid)) && n_fetch != 0;
    // (FETCH2: an empty cache, or nothing left to process while a packet
    // waits for its next descriptor: the packet's own descriptors, held until
    // it is sent, must not keep out the fetch that completes it)
    // FETCH2: in_pkt is the exception to "cache empty": a packet whose EOP
    // descriptor is not yet fetched keeps its own descriptors in the cache
    // until it is sent, so without it a packet split across two fetches (as
    // at the ring end) would never go out (the differential checker found it).
    wire fetch0_c   = fetch_c && (FETCH2 != 0 ? (occ == 0 || (in_pkt && onchip == 0)) : onchip == 0);
    wire pref_c     = fetch_c && pth != 0 && {2'b0, onchip} < pth && avail >= {7'd0, hth};
    wire do_fetch0  = !do_wb && fetch0_c && port_free;
    wire do_pref    = !do_wb && !do_fetch0 && pref_c && port_free;
    wire do_fetch   = do_fetch0 || do_pref;
    wire do_issue   = !do_wb && !do_fetch && issue_can;

    assign issue_valid = do_issue;
    assign issue_dma   = !pd_nodma;
    assign issue_len   = pd_len;
    assign issue_eop   = pd_eop;
    assign issue_ifcs  = pd_ifcs;
    assign issue_drop  = pd_drop;
    assign tdh         = done_idx;

    wire [17:0] tidv_m = tidv_run ? tidv_cnt : 18'h3FFFF;
    wire [17:0] tadv_m = tadv_run ? tadv_cnt : 18'h3FFFF;
    wire [17:0] tmin   = (tidv_m < tadv_m) ? tidv_m : tadv_m;
    assign next_timer  = tmin;         // TIDV/TADV x 4 <= 262140 < 18'h3FFFF

    wire q_empty = done_idx == tdt && occ == 0;
    assign busy = (swflsh && armed) || wb_status_c || wb_burst_c || fetch0_c || pref_c || issue_ok || wb_release ||
                  (wb_arm_c && !wb_burst_c) || ws_active ||
                  req_valid || wvalid || txdw_set || txqe_set || timer_expire || (q_empty && !was_empty);
    // (ws_active covers a stream that outlives CTRL.RST)
    // (registered outputs that another block consumes at the next edge count as work)

    wire [63:0] desc_base = tdba + {44'd0, rel_idx, 4'd0};
    wire [5:0]  fill_slot = rel_slot + occ[5:0] - n_inf[5:0];
    wire [6:0]  f_got     = (dcpl_valid && f_busy) ? ((f_left >= 7'd2) ? 7'd2 : f_left) : 7'd0;
    // a descriptor as written back: DD (bit 32 of the second quadword) set
    function [127:0] with_dd(input [127:0] d);
        with_dd = d | {31'd0, 1'b1, 96'd0};
    endfunction

    // block-start copies (see the sequential block)
    reg [6:0]   f_left_c, n_wb_c;
    reg [17:0]  tadv_cnt_c, tidv_cnt_c;
    reg         tadv_run_c, tidv_run_c, f_busy_c, flush_c, armed_c, f2_valid_c;
    reg [15:0]  rel_idx_c, fetch_idx_c;
    reg [5:0]   rel_slot_c;

    // The block reads the registers below through copies taken at its start
    // (blocking temporaries: the values before the edge, as the registers'
    // own values would be).  Reading a register inside a block that assigns
    // it in several places makes Verilator keep a shadow copy of it, copied
    // at every edge; the copies avoid that.  Behaviour is unchanged.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        f_left_c = f_left; tadv_cnt_c = tadv_cnt; tidv_cnt_c = tidv_cnt; tadv_run_c = tadv_run;
        tidv_run_c = tidv_run; rel_idx_c = rel_idx; f_busy_c = f_busy; flush_c = flush; armed_c = armed;
        f2_valid_c = f2_valid;
        fetch_idx_c = fetch_idx; rel_slot_c = rel_slot; n_wb_c = n_wb;
        txdw_set <= 1'b0;
        txqe_set <= 1'b0;
        wvalid   <= 1'b0;
        wlast    <= 1'b0;
        if (req_valid && req_ready) req_valid <= 1'b0;

        // ---- the write-back stream: survives CTRL.RST once granted ----
        if (prst) begin
            ws_active <= 0; ws_left <= 0; ws_slot <= 0; ws_n <= 0; ws_status_only <= 0; ws_orph <= 0;
            ws_hwb <= 0;
            wdata <= 0;
        end else if (ws_flow) begin
            wvalid <= 1'b1;
            // head write-back: the head once these descriptors are released;
            // the status-only write is the descriptor's last dword (STA in its low byte)
            if (ws_hwb)
                wdata <= {240'd0, ring_add(rel_idx_c, {9'd0, ws_n})};
            else if (ws_status_only)
                wdata <= {224'd0, cache[ws_slot][127:97], 1'b1};
            else
                wdata <= {with_dd(cache[ws_slot + 6'd1]), with_dd(cache[ws_slot])};
            ws_slot <= ws_slot + 6'd2;
            ws_left <= (ws_left > 7'd2) ? ws_left - 7'd2 : 7'd0;
            if (rst) ws_orph <= 1'b1;
            if (ws_end) begin
                wlast <= 1'b1;
                ws_active <= 1'b0;
            end
        end else if (rst) begin
            ws_active <= 1'b0;          // not granted: dropped with the request
        end

        if (rst) begin
            rel_idx <= 16'd0;
            fetch_idx <= 16'd0;
            rel_slot <= 0;
            n_wb <= 0; n_iss <= 0; n_rdy <= 0; n_inf <= 0;
            f_busy <= 0; f_left <= 0; f2_valid <= 0; f2_n <= 0;
            pkt_bytes <= 0; pkt_drop <= 0; in_pkt <= 0;
            armed <= 0; armed_ide <= 0; flush <= 0;
            tidv_run <= 0; tadv_run <= 0; tidv_cnt <= 0; tadv_cnt <= 0;
            req_valid <= 0; req_write <= 0; req_tag <= 0; req_addr <= 0; req_len <= 0;
            was_empty <= 1'b1;
        end else begin
            was_empty <= q_empty;
            if (q_empty && !was_empty) txqe_set <= 1'b1;

            // ---- TDH write: taken only with the transmitter disabled and
            // nothing in flight; the queue then restarts at that index (every
            // counter is already 0; timers and a partial packet's accounting,
            // shared with the packet buffer, carry on).  Nested so that the
            // idle test costs nothing on the cycles without a TDH write. ----
            if (tdh_wr) begin
                if (!en && occ == 0 && !f_busy_c && !ws_active && !req_valid && !wvalid && buf_idle) begin
                    rel_idx <= tdh_val;
                    fetch_idx <= tdh_val;
                end
            end

            // ---- timers (256 ns ticks; TIDV/TADV count 1.024 us = 4 ticks) ----
            if (tidv_run_c) tidv_cnt <= (tidv_cnt_c > tick) ? tidv_cnt_c - tick : 18'd0;
            if (tadv_run_c) tadv_cnt <= (tadv_cnt_c > tick) ? tadv_cnt_c - tick : 18'd0;
            if (timer_expire) begin
                tidv_run <= 1'b0;
                tadv_run <= 1'b0;
                txdw_set <= 1'b1;
                if (armed_c) flush <= 1'b1;
            end
            // software flush: the batch an RS descriptor armed goes out now
            if (swflsh && armed_c) flush <= 1'b1;

            // ---- descriptor fetch completions: two descriptors per beat ----
            if (dcpl_valid && f_busy_c) begin
                cache[fill_slot] <= dcpl_data[127:0];
                if (f_left_c >= 7'd2)
                    cache[fill_slot + 6'd1] <= dcpl_data[255:128];
                f_left <= f_left_c - f_got;
                if (f_left <= 7'd2) begin
                    // the current fetch ends: the queued one becomes current
                    f_busy <= f2_valid_c;
                    f_left <= f2_n;
                    f2_valid <= 1'b0;
                end
            end

            // ---- write-back ----
            if (wb_release) begin
                rel_idx <= ring_add(rel_idx_c, 16'd1);
                rel_slot <= rel_slot_c + 6'd1;
            end
            if (wb_arm) begin
                armed <= 1'b1;
                armed_ide <= rd_ide && tidv != 0;
            end
            if ((((wb_status || wb_arm || (wb_burst && !armed_c)) && rd_ide) ||
                 (frag_done && bursting && armed_c && done_ide)) && tidv != 16'd0) begin
                tidv_run <= 1'b1;
                tidv_cnt <= {tidv, 2'b00};
                if (!tadv_run_c && tadv != 16'd0) begin
                    tadv_run <= 1'b1;
                    tadv_cnt <= {tadv, 2'b00};
                end
            end
            if (wb_status) begin
                req_valid <= 1'b1; req_write <= 1'b1; req_tag <= 5'd0;
                req_addr <= hwb_en ? hwb_addr : desc_base + 64'd12; req_len <= 16'd4;
                ws_active <= 1'b1; ws_left <= 7'd1; ws_slot <= rel_slot_c;
                ws_n <= 7'd1; ws_status_only <= 1'b1; ws_orph <= 1'b0; ws_hwb <= hwb_en;
                if (!(rd_ide && tidv != 16'd0)) txdw_set <= 1'b1;
            end
            if (wb_burst) begin
                req_valid <= 1'b1; req_write <= 1'b1; req_tag <= 5'd0;
                req_addr <= hwb_en ? hwb_addr : desc_base;
                req_len <= hwb_en ? 16'd4 : {5'd0, wb_n, 4'd0};
                ws_active <= 1'b1; ws_left <= hwb_en ? 7'd1 : wb_n; ws_slot <= rel_slot_c;
                ws_n <= wb_n; ws_status_only <= 1'b0; ws_orph <= 1'b0; ws_hwb <= hwb_en;
                if (!batch_ide) txdw_set <= 1'b1;
                // (a batch written straight from an RS descriptor was never armed)
            end
            // the last beat of a write-back leaves: release what was written back
            if (own_end) begin
                rel_idx <= ring_add(rel_idx_c, {9'd0, ws_n});
                rel_slot <= rel_slot_c + ws_n[5:0];
                if (!ws_status_only) begin
                    armed <= ({1'b0, ws_n} < {1'b0, n_wb_c}) ? armed_c : 1'b0;
                    flush <= ({1'b0, ws_n} < {1'b0, n_wb_c}) ? flush_c : 1'b0;
                end
            end

            // ---- fetch ----
            if (do_fetch) begin
                req_valid <= 1'b1; req_write <= 1'b0; req_tag <= DESC_TAG;
                req_addr <= tdba + {44'd0, fetch_idx_c, 4'd0};
                req_len <= {n_fetch[11:0], 4'd0};
                if (!f_busy_c || (dcpl_valid && f_left_c <= 7'd2 && !f2_valid_c)) begin
                    // nothing outstanding after this edge: this one is current
                    f_busy <= 1'b1;
                    f_left <= n_fetch[6:0];
                end else begin
                    f2_valid <= 1'b1;
                    f2_n <= n_fetch[6:0];
                end
                fetch_idx <= ring_add(fetch_idx_c, n_fetch);
            end

            // ---- issue packet data ----
            if (do_issue) begin
                if (!pd_nodma) begin
                    req_valid <= 1'b1; req_write <= 1'b0; req_tag <= {1'b0, next_tag};
                    req_addr <= pd_addr; req_len <= pd_len;
                end
                pkt_bytes <= pd_eop ? 16'd0 : pkt_total[15:0];
                in_pkt    <= !pd_eop;
                pkt_drop  <= pd_eop ? 1'b0 : pd_drop;
            end

            // ---- counters ----
            n_inf <= n_inf + (do_fetch ? n_fetch[6:0] : 7'd0) - f_got;
            n_rdy <= n_rdy + f_got - (do_issue ? 7'd1 : 7'd0);
            n_iss <= n_iss + (do_issue ? 7'd1 : 7'd0) - (frag_done ? 7'd1 : 7'd0);
            n_wb  <= n_wb_c + (frag_done ? 7'd1 : 7'd0) - (wb_release ? 7'd1 : 7'd0)
                          - (own_end ? ws_n : 7'd0);
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
