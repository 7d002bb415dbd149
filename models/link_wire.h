/* The transmit side of one Ethernet link, at the bit time: the MAC hands over
 * whole frames; the wire sends preamble+SFD (8 bytes), the frame, the FCS when
 * the MAC appends one, then the gap the MAC asked for, each byte at
 * 8 bits / rate.  The link holds one frame waiting for the wire (a PHY
 * staging slot) and tells the MAC it is ready only while that slot is free,
 * which is how backpressure reaches the packet buffer.  Frame spacing is therefore exact to the
 * picosecond whatever the RTL's clock. */
#ifndef NICSIM_LINK_WIRE_H
#define NICSIM_LINK_WIRE_H
#include <stdint.h>
#include "kernel/sched.h"
#include "link_sink.h"

enum { LINK_PREAMBLE_BYTES = 8 };

/* Where a frame goes once its preamble starts on the wire at t: a capture
 * (link_sink_frame, via link_wire_to_sink) or the SystemC module's link port. */
typedef void (*link_wire_out)(void *ctx, ps_t t, const uint8_t *data, uint32_t len);

typedef struct link_wire {
    ps_t byte_ps;           /* one byte time: 8000 ps at 1 Gb/s */
    ps_t wire_free;         /* when the next preamble may start */
    ps_t slot_free_at;      /* the staged frame starts (leaves the slot) then */
    link_wire_out out;      /* NULL: count only */
    void *out_ctx;
    uint64_t frames, frame_bytes, wire_bytes;
    ps_t first_start, last_start, last_end;
} link_wire;

/* gbps: line rate; out may be NULL (count only). */
void link_wire_init(link_wire *w, double gbps, link_wire_out out, void *out_ctx);
/* The out function that captures into a link_sink (out_ctx: the sink). */
void link_wire_to_sink(void *sink, ps_t t, const uint8_t *data, uint32_t len);
/* 1 if the MAC may hand over a frame at time t. */
int link_wire_ready(const link_wire *w, ps_t t);
/* A frame (without the FCS the MAC appends when fcs = 1) handed over at t.
 * Returns the time its staging slot frees (== its preamble start). */
ps_t link_wire_frame(link_wire *w, ps_t t, const uint8_t *data, uint32_t len, int fcs,
                     uint32_t ipg_bytes);
/* Frames per second over the wire time they occupied (first preamble to the
 * end of the last frame's gap); 0 with no frame. */
double link_wire_pps(const link_wire *w);
/* That wire time in ps (first preamble to the end of the last gap); 0 with no frame. */
ps_t link_wire_span_ps(const link_wire *w);
/* The share of that time the wire carried bits (preamble, frame, FCS, gap). */
double link_wire_busy(const link_wire *w);
/* Wire bytes per frame for a frame of `frame` bytes incl. FCS: + preamble + 12-byte gap. */
static inline uint32_t link_wire_bytes_std(uint32_t frame) { return frame + 20; }
/* Frames per second a line of gbps carries back to back, for frames of
 * `frame` bytes incl. FCS (the wire speed). */
static inline double link_wire_line_pps(double gbps, uint32_t frame)
{
    return gbps * 1e9 / ((double)link_wire_bytes_std(frame) * 8.0);
}

#endif
