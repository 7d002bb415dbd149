#include "link_wire.h"
#include <math.h>

void link_wire_to_sink(void *sink, ps_t t, const uint8_t *data, uint32_t len)
{
    link_sink_frame(sink, t, data, len);
}

void link_wire_init(link_wire *w, double gbps, link_wire_out out, void *out_ctx)
{
    w->byte_ps = (ps_t)llround(8000.0 / gbps);
    w->wire_free = 0;
    w->slot_free_at = 0;
    w->out = out;
    w->out_ctx = out_ctx;
    w->frames = w->frame_bytes = w->wire_bytes = 0;
    w->first_start = w->last_start = w->last_end = 0;
}

int link_wire_ready(const link_wire *w, ps_t t)
{
    return t >= w->slot_free_at;
}

ps_t link_wire_frame(link_wire *w, ps_t t, const uint8_t *data, uint32_t len, int fcs,
                     uint32_t ipg_bytes)
{
    ps_t start = t > w->wire_free ? t : w->wire_free;
    uint32_t frame = len + (fcs ? 4u : 0u);
    uint32_t wire = LINK_PREAMBLE_BYTES + frame + ipg_bytes;
    w->wire_free = start + (ps_t)wire * w->byte_ps;
    w->slot_free_at = start;
    if (w->frames == 0)
        w->first_start = start;
    w->last_start = start;
    w->last_end = w->wire_free;
    w->frames++;
    w->frame_bytes += frame;
    w->wire_bytes += wire;
    /* the capture is stamped when the frame's preamble starts on the wire */
    if (w->out)
        w->out(w->out_ctx, start, data, len);
    return start;
}

ps_t link_wire_span_ps(const link_wire *w)
{
    return w->frames && w->last_end > w->first_start ? w->last_end - w->first_start : 0;
}

double link_wire_pps(const link_wire *w)
{
    ps_t span = link_wire_span_ps(w);
    return span ? (double)w->frames * 1e12 / (double)span : 0.0;
}

double link_wire_busy(const link_wire *w)
{
    ps_t span = link_wire_span_ps(w);
    return span ? (double)w->wire_bytes * (double)w->byte_ps / (double)span : 0.0;
}
