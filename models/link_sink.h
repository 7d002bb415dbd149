/* The link partner's receive side for one port: it counts the frames the NIC
 * transmits and, on request, captures them to a pcap whose timestamps are the
 * simulated time to the nanosecond (pcap magic a1b23c4d, DLT_EN10MB).
 *
 * The capture is an output file (out_file.h): into a temporary file beside
 * PATH, put in place only by a successful link_sink_close(), so a failed,
 * crashed or interrupted run never leaves a truncated pcap that looks like
 * a result, nor replaces an earlier one; a device or FIFO is written in
 * place. */
#ifndef NICSIM_LINK_SINK_H
#define NICSIM_LINK_SINK_H
#include <stddef.h>
#include <stdint.h>

/* Bytes of a frame kept in the pcap; longer frames are truncated there (the
 * original length is still recorded, and counted in link_sink_bytes). */
#define LINK_SINK_SNAPLEN 65535u

typedef struct link_sink link_sink;

/* pcap_path NULL: count only.  Returns NULL and writes "PATH: why" into
 * err when the file cannot be made. */
link_sink *link_sink_new(const char *pcap_path, char *err, size_t errlen);

/* One frame as it left the MAC (the caller decides whether the FCS is part of
 * data; pcaps of Ethernet usually leave it out), received at simulated time
 * t_ps picoseconds.  The pcap timestamp is t_ps / 1000 ns, truncated. */
void link_sink_frame(link_sink *s, uint64_t t_ps, const uint8_t *data, uint32_t len);

uint64_t link_sink_frames(const link_sink *s);
uint64_t link_sink_bytes(const link_sink *s); /* sum of len */

/* Write out what the capture holds and check that every write succeeded,
 * without putting it in place yet: 0, or -1 with "PATH: cannot write: why"
 * in err (the first failed write's reason; the temporary file is removed
 * then).  A count-only sink always succeeds. */
int link_sink_finish(link_sink *s, char *err, size_t errlen);
/* Finish the pcap and put it in place, then free the sink.  Returns 0, or
 * -1 with "PATH: why" in err when the pcap could not be completed; the
 * temporary file is removed then and PATH is left as it was. */
int link_sink_close(link_sink *s, char *err, size_t errlen);
/* Free the sink and delete its temporary file; PATH is left as it was. */
void link_sink_abort(link_sink *s);

#endif
