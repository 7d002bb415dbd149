/* Link partner receive side: counters plus an optional nanosecond pcap.
 *
 * The pcap is written here rather than with libpcap's pcap_dump: that
 * reports no write error at all (and pcap_dump_close ignores fclose's), and
 * it wants a stream of its own to close, where the capture is an out_file.
 * The format is libpcap's, byte for byte: the file header with the
 * nanosecond magic, then per frame a 16-byte record header (seconds,
 * nanoseconds, captured and original length) and the captured bytes, all
 * in the writer's byte order. */
#include "link_sink.h"
#include "out_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCAP_MAGIC_NSEC 0xa1b23c4du
#define PCAP_LINKTYPE_ETHERNET 1u

struct link_sink {
    uint64_t frames;
    uint64_t bytes;
    out_file *out;              /* NULL: count only */
};

link_sink *link_sink_new(const char *pcap_path, char *err, size_t errlen)
{
    link_sink *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "link sink: out of memory");
        return NULL;
    }
    if (!pcap_path)
        return s;
    if (!(s->out = out_file_open(pcap_path, err, errlen))) {
        free(s);
        return NULL;
    }
    const struct {
        uint32_t magic;
        uint16_t major, minor;
        int32_t thiszone;
        uint32_t sigfigs, snaplen, linktype;
    } hdr = { PCAP_MAGIC_NSEC, 2, 4, 0, 0, LINK_SINK_SNAPLEN, PCAP_LINKTYPE_ETHERNET };
    _Static_assert(sizeof hdr == 24, "the pcap file header is 24 bytes");
    if (fwrite(&hdr, sizeof hdr, 1, out_file_stream(s->out)) != 1)
        out_file_note(s->out);
    return s;
}

void link_sink_frame(link_sink *s, uint64_t t_ps, const uint8_t *data, uint32_t len)
{
    s->frames++;
    s->bytes += len;
    if (!s->out || out_file_failed(s->out))
        return;         /* a failed capture: the run reports it at the end */
    uint64_t ns = t_ps / 1000u;
    uint32_t caplen = len < LINK_SINK_SNAPLEN ? len : LINK_SINK_SNAPLEN;
    const uint32_t rec[4] = { (uint32_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u), caplen, len };
    FILE *f = out_file_stream(s->out);
    if (fwrite(rec, sizeof rec, 1, f) != 1 || (caplen && fwrite(data, caplen, 1, f) != 1))
        out_file_note(s->out);
}

uint64_t link_sink_frames(const link_sink *s)
{
    return s->frames;
}

uint64_t link_sink_bytes(const link_sink *s)
{
    return s->bytes;
}

int link_sink_finish(link_sink *s, char *err, size_t errlen)
{
    return s && s->out ? out_file_finish(s->out, err, errlen) : 0;
}

int link_sink_close(link_sink *s, char *err, size_t errlen)
{
    if (!s)
        return 0;
    int rc = s->out ? out_file_commit(s->out, err, errlen) : 0;
    free(s);
    return rc;
}

void link_sink_abort(link_sink *s)
{
    if (!s)
        return;
    out_file_abort(s->out);
    free(s);
}
