/* Link partner receive side: counters plus an optional nanosecond pcap. */
#include "link_sink.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct link_sink {
    uint64_t frames;
    uint64_t bytes;
    pcap_t *pcap; /* a "dead" handle: only carries link type and precision */
    pcap_dumper_t *dump;
    char *path;
    char *tmp_path;
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
    size_t l = strlen(pcap_path);
    s->path = strdup(pcap_path);
    s->tmp_path = malloc(l + sizeof ".tmp");
    s->pcap = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, (int)LINK_SINK_SNAPLEN,
                                                   PCAP_TSTAMP_PRECISION_NANO);
    if (!s->path || !s->tmp_path || !s->pcap) {
        snprintf(err, errlen, "%s: cannot create: out of memory", pcap_path);
        link_sink_abort(s);
        return NULL;
    }
    memcpy(s->tmp_path, pcap_path, l);
    memcpy(s->tmp_path + l, ".tmp", sizeof ".tmp");
    errno = 0;
    s->dump = pcap_dump_open(s->pcap, s->tmp_path);
    if (!s->dump) {
        /* pcap's own message repeats the path, so prefer fopen's errno. */
        int e = errno;
        snprintf(err, errlen, "%s: cannot create: %s", s->tmp_path,
                 e ? strerror(e) : pcap_geterr(s->pcap));
        link_sink_abort(s);
        return NULL;
    }
    return s;
}

void link_sink_frame(link_sink *s, uint64_t t_ps, const uint8_t *data, uint32_t len)
{
    s->frames++;
    s->bytes += len;
    if (!s->dump)
        return;
    uint64_t ns = t_ps / 1000u;
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)(ns / 1000000000u);
    /* With a nanosecond-precision handle, libpcap writes tv_usec as the
     * nanoseconds field of the record. */
    h.ts.tv_usec = (suseconds_t)(ns % 1000000000u);
    h.caplen = len < LINK_SINK_SNAPLEN ? len : LINK_SINK_SNAPLEN;
    h.len = len;
    pcap_dump((u_char *)s->dump, &h, data);
}

uint64_t link_sink_frames(const link_sink *s)
{
    return s->frames;
}

uint64_t link_sink_bytes(const link_sink *s)
{
    return s->bytes;
}

static void sink_free(link_sink *s)
{
    if (s->pcap)
        pcap_close(s->pcap);
    free(s->path);
    free(s->tmp_path);
    free(s);
}

int link_sink_close(link_sink *s)
{
    if (!s)
        return 0;
    int rc = 0, saved = 0;
    if (s->dump) {
        /* pcap_dump() reports nothing and pcap_dump_close() ignores fclose's
         * result, so write errors are collected here, before the rename. */
        FILE *f = pcap_dump_file(s->dump);
        errno = 0;
        if (pcap_dump_flush(s->dump) != 0 || ferror(f)) {
            rc = -1;
            saved = errno ? errno : EIO;
        }
        pcap_dump_close(s->dump);
        s->dump = NULL;
        if (rc == 0 && rename(s->tmp_path, s->path) != 0) {
            rc = -1;
            saved = errno;
        }
        if (rc != 0)
            remove(s->tmp_path);
    }
    sink_free(s);
    if (rc)
        errno = saved;
    return rc;
}

void link_sink_abort(link_sink *s)
{
    if (!s)
        return;
    if (s->dump) {
        pcap_dump_close(s->dump);
        remove(s->tmp_path);
    }
    sink_free(s);
}
