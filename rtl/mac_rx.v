// Receive MAC of one port: takes frames from the link model and stores the
// ones it keeps in the RX packet buffer.
//
// The link model checks the FCS (rx_crc_ok, valid with rx_last) and delivers
// a frame's bytes, FCS included, as 32-byte beats on consecutive cycles once
// the whole frame has arrived; every beat but the last is full.  There is no
// backpressure: a beat that does not fit the buffer makes the frame a missed
// packet (MPC, RXO) and the rest of it is not stored.
//
// Decisions, in this order (SDM 13.7 statistics definitions):
//   RCTL.EN = 0 when the first beat arrives: the frame is ignored, counted
//     nowhere (every receive counter "only increments if receives are enabled");
//   every other frame counts in TPR/TOR;
//   address filter: broadcast ff:ff:ff:ff:ff:ff passes with BAM or MPE,
//     other group addresses with MPE or da_match (a receive address entry
//     or the multicast table: rx_addr_filter), unicast with UPE or
//     da_match; and the VLAN filter (vlan_ok: rx_vlan_filter); a filtered
//     frame counts nowhere else;
//   shorter than 64 bytes: RUC (CRC good) or RFC (CRC bad), dropped;
//   longer than 1522 bytes (16384 with LPE): ROC or RJC, dropped;
//   CRC bad: CRCERRS, dropped unless SBP (stored, CE set in its descriptor);
//   kept frames: RNBC when the ring has no free descriptor (the frame is
//     still stored if it fits), MPC + RXO when it does not fit the buffer;
//   stored and CRC good: GPRC, GORC, PRC64..PRC1522, BPRC/MPRC.
// The counters themselves live in e1000_rx_stats; this block hands it one
// registered event per frame.
//
// Frame boundaries are tracked under the power-on reset only: a CTRL.RST in
// the middle of a frame (rst) discards the rest of that frame instead of
// taking its remaining beats for a new one.
module mac_rx #(
    parameter LB = 5                     // log2 of the beat's bytes (32)
) (
    input  wire          clk,
    input  wire          prst,           // power-on reset
    input  wire          rst,            // function reset (power-on or CTRL.RST)
    input  wire          en,             // RCTL.EN
    input  wire          sbp,
    input  wire          upe,
    input  wire          mpe,
    input  wire          bam,
    input  wire          lpe,
    // link
    input  wire          rx_valid,
    input  wire [47:0]   rx_da,          // the first beat's destination address
    output wire          rx_first,       // the beat on rx_valid is a frame's first: da_match wanted
    input  wire          da_match,       // rx_da is one of the function's addresses (with rx_first)
    input  wire          vlan_ok,        // the VLAN filter passes the frame (with rx_first)
    input  wire [LB:0]   rx_nbytes,
    input  wire          rx_last,
    input  wire          rx_crc_ok,
    // descriptor engine: the ring has no free descriptor
    input  wire          nodesc,
    // packet buffer
    input  wire          room,
    output wire          wr_en,
    output wire          commit,
    output wire          abort,
    output wire [15:0]   commit_len,
    output wire          commit_ce,
    // statistics: one event per frame (registered)
    output reg           ev,             // TPR, TOR
    output reg  [15:0]   ev_len,         // bytes from DA through FCS (saturated)
    output reg           ev_good,        // GPRC, GORC, PRCnnn
    output reg           ev_bc,          // with ev_good: BPRC
    output reg           ev_mc,          // with ev_good: MPRC
    output reg           ev_crcerr,
    output reg           ev_ruc,
    output reg           ev_rfc,
    output reg           ev_roc,
    output reg           ev_rjc,
    output reg           ev_mpc,
    output reg           ev_rnbc,
    output reg           rxo_set,        // ICR.RXO
    output wire          busy
);
    reg        in_frame;                 // beats of a frame have been seen, not its last
    reg        f_skip;                   // the frame is ignored (receiver off, CTRL.RST)
    reg        f_pass;                   // passed the address filter
    reg        f_over;                   // a beat did not fit: missed
    reg        f_bc, f_mc;
    reg [16:0] f_bytes;

    // Decisions about the beat on rx_valid, evaluated only with a beat.  They
    // do not depend on the reset pin (Verilator would evaluate them at every
    // eval): during a reset the packet buffer ignores wr_en/commit/abort and
    // the sequential block below counts nothing.  What the sequential block
    // and the buffer use are outputs of the block; the other temporaries are
    // block-local, written before they are read (no storage; Verilator's
    // LATCH check does not see that, and defaults would cost an evaluation
    // at every edge without a beat).
    reg         skip, is_bc, is_mc, pass, too_long, too_short, over_now, store;
    reg [16:0]  bytes_now;
    reg         wr_en_c, commit_c, abort_c;
    /* verilator lint_off LATCH */
    always @(*) begin : beat
        reg first, da_bc, over_prev, want;
        wr_en_c = 0; commit_c = 0; abort_c = 0;
`ifdef SYNTHESIS
        // for the netlist: defaults, so that no latch holds a temporary
        // between beats (nothing reads them without a beat; the simulator
        // skips these assignments: see above)
        first = 0; da_bc = 0; over_prev = 0; want = 0;
        skip = 0; is_bc = 0; is_mc = 0; pass = 0; too_long = 0; too_short = 0; over_now = 0; store = 0;
        bytes_now = 0;
`endif
        if (rx_valid) begin
            first     = !in_frame;
            bytes_now = (first ? 17'd0 : f_bytes) + {{(16-LB){1'b0}}, rx_nbytes};
            skip      = first ? !en : f_skip;
            da_bc     = &rx_da;
            is_bc     = first ? da_bc : f_bc;
            is_mc     = first ? (rx_da[0] && !da_bc) : f_mc;
            pass      = first ? vlan_ok && (!rx_da[0] ? (upe || da_match) : da_bc ? (bam || mpe) : (mpe || da_match))
                              : f_pass;
            too_long  = bytes_now > (lpe ? 17'd16384 : 17'd1522);
            too_short = bytes_now < 17'd64;
            over_prev = !first && f_over;
            want      = !skip && pass && !too_long && !over_prev;
            over_now  = over_prev || (want && !room);
            store     = pass && !too_short && !too_long && (rx_crc_ok || sbp);
            wr_en_c   = want && room;
            commit_c  = rx_last && !skip && store && !over_now;
            abort_c   = rx_last && !commit_c;
        end
    end
    /* verilator lint_on LATCH */

    assign rx_first   = rx_valid && !in_frame;
    assign wr_en      = wr_en_c;
    assign commit     = commit_c;
    assign abort      = abort_c;
    assign commit_len = bytes_now[15:0];
    assign commit_ce  = !rx_crc_ok;
    assign busy       = ev || rxo_set;

    always @(posedge clk) begin
        if (ev) ev <= 1'b0;
        if (rxo_set) rxo_set <= 1'b0;
        if (prst) begin
            in_frame <= 0; f_skip <= 0; f_pass <= 0; f_over <= 0; f_bc <= 0; f_mc <= 0; f_bytes <= 0;
            ev_len <= 0; ev_good <= 0; ev_bc <= 0; ev_mc <= 0; ev_crcerr <= 0; ev_ruc <= 0; ev_rfc <= 0;
            ev_roc <= 0; ev_rjc <= 0; ev_mpc <= 0; ev_rnbc <= 0;
        end else if (rx_valid) begin
            in_frame <= !rx_last;
            f_skip   <= skip || rst;             // a CTRL.RST discards the rest of the frame
            f_pass   <= pass;
            f_over   <= over_now;
            f_bc     <= is_bc;
            f_mc     <= is_mc;
            f_bytes  <= bytes_now;
            if (rx_last && !skip && !rst) begin
                ev        <= 1'b1;
                ev_len    <= bytes_now[16] ? 16'hFFFF : bytes_now[15:0];
                ev_good   <= store && !over_now && rx_crc_ok;
                ev_bc     <= is_bc;
                ev_mc     <= is_mc;
                ev_crcerr <= pass && !too_short && !too_long && !rx_crc_ok;
                ev_ruc    <= pass && too_short && rx_crc_ok;
                ev_rfc    <= pass && too_short && !rx_crc_ok;
                ev_roc    <= pass && too_long && rx_crc_ok;
                ev_rjc    <= pass && too_long && !rx_crc_ok;
                ev_mpc    <= store && over_now;
                ev_rnbc   <= store && nodesc;
                rxo_set   <= store && over_now;
            end
        end
    end
endmodule
