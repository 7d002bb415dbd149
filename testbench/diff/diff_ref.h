/* The reference model of the differential checker (issue 5): what one
 * queue pair of an 82546 (legacy descriptors) or an 82599 (advanced
 * descriptors) must have done, written from the datasheet rules of
 * docs/nic-facts.md (A4, B2, B3) and the SDM statistics
 * definitions, with no timing and no knowledge of the RTL.
 *
 * It is driven with the same legal driver actions as the RTL and is asked
 * what must be observable once the device is quiescent and its batched
 * write-backs are flushed (the checker's check points):
 *   - the frames on the wire, in order, with their bytes and FCS flag;
 *   - every TX descriptor: DD required (RS descriptors), forbidden (no RS
 *     and no write-back bursting, or head write-back on) or allowed (no RS
 *     with WTHRESH > 0: "some descriptors without RS are also written back",
 *     SDM 13.4.43); the other bytes as software wrote them (legacy) or with
 *     DD the only bit that counts (advanced: the rest is reserved, B2);
 *   - the head write-back dword (82599 TDWBAL.HEAD_WB_ENABLE, WTHRESH 0):
 *     the index after the last RS descriptor processed;
 *   - every RX descriptor: as software wrote it, or its write-back (legacy:
 *     length, packet checksum in the EOP descriptor, DD|EOP|IXSM; advanced:
 *     DD|EOP, PKT_LEN, the rest 0) and its buffer's bytes;
 *   - TDH, RDH and the counters GPTC, GPRC, MPC, RNBC, CRCERRS (read to clear).
 * Receive rules (SDM 13.7; B1 SRRCTL.DROP_EN): a frame with a bad FCS counts
 * in CRCERRS and is dropped before anything else; a frame arriving while the
 * ring has no free descriptor counts in RNBC; it is kept in the packet
 * buffer (and counts in GPRC) unless the 82599's DROP_EN drops it.  Each
 * descriptor takes up to BSIZE bytes of the frame (without the FCS when
 * SECRC strips it), the last one EOP. */
#ifndef NICSIM_DIFF_REF_H
#define NICSIM_DIFF_REF_H
#include <stdint.h>
#include <stddef.h>

#define DREF_RING_MAX  256u
#define DREF_FRAME_MAX 2048u
#define DREF_WAIT_MAX  64u

typedef struct dref_cfg {
    int adv;                 /* 1: 82599 advanced descriptors, 0: 82546 legacy */
    unsigned tx_n, rx_n;     /* ring sizes, descriptors */
    unsigned bsize;          /* RX buffer bytes */
    int secrc;               /* RX strips the FCS */
    int pad;                 /* TX pads short frames to 60 bytes (TCTL.PSP / HLREG0.TXPADEN) */
    int hwb;                 /* TX head write-back instead of descriptor write-back */
    int tx_burst;            /* TX WTHRESH > 0 */
    int drop_en;             /* 82599 SRRCTL.DROP_EN */
} dref_cfg;

enum dref_dd { DREF_DD_NO = 0, DREF_DD_YES, DREF_DD_ANY };

typedef struct dref_frame {
    uint32_t len;
    uint8_t fcs;
    uint8_t data[DREF_FRAME_MAX];
} dref_frame;

typedef struct dref_rxd {
    int done;                /* written back: wb[] and buf[0..buf_len) hold what must be there */
    uint8_t wb[16];
    uint32_t buf_len;
    uint8_t buf[DREF_FRAME_MAX];
} dref_rxd;

typedef struct dref_wait {   /* a frame in the RX packet buffer, not yet all in descriptors */
    uint32_t len, off;       /* stored bytes, bytes already placed */
    uint8_t data[DREF_FRAME_MAX];
} dref_wait;

typedef struct dref {
    dref_cfg c;
    /* TX */
    unsigned tdh, tdt;
    uint8_t txd[DREF_RING_MAX][16];          /* as software wrote them */
    uint8_t txbuf[DREF_RING_MAX][DREF_FRAME_MAX];
    uint8_t tx_dd[DREF_RING_MAX];            /* enum dref_dd */
    uint32_t hwb_val;                        /* expected head write-back dword */
    dref_frame cur;                          /* the frame being gathered */
    dref_frame *out;                         /* frames expected on the wire, in order */
    size_t nout, out_cap;
    /* RX */
    int rx_en;
    unsigned rdh, rdt;
    uint8_t rxd_sw[DREF_RING_MAX][16];       /* as software wrote them */
    dref_rxd rxd[DREF_RING_MAX];
    dref_wait wait[DREF_WAIT_MAX];
    unsigned nwait;
    uint32_t csum;                           /* running RFC 1071 sum of the frame being placed */
    /* counters since their last read */
    uint64_t gptc, gprc, mpc, rnbc, crcerrs;
} dref;

void dref_init(dref *m, const dref_cfg *c);
void dref_free(dref *m);
/* Power-on or CTRL.RST: rings, waiting frames and counters gone. */
void dref_reset(dref *m);

/* TX: software writes descriptor i (16 bytes) whose buffer holds buf[0..len). */
void dref_tx_desc(dref *m, unsigned i, const uint8_t d[16], const uint8_t *buf, uint32_t len);
/* TX: a TDT write; every descriptor up to it is processed. */
void dref_tx_tail(dref *m, unsigned tdt);
/* TX: the queue restarts at index 0 (disabled, TDH = TDT = 0, enabled). */
void dref_tx_restart(dref *m);

/* RX: software writes descriptor i (the read format). */
void dref_rx_desc(dref *m, unsigned i, const uint8_t d[16]);
void dref_rx_tail(dref *m, unsigned rdt);
void dref_rx_enable(dref *m, int on);
/* RX: restart at index 0 (only with no frame waiting). */
void dref_rx_restart(dref *m);
/* RX: a frame of len bytes (FCS included) from the wire; crc_ok 0: its FCS
 * is wrong (counted in CRCERRS and dropped: no SBP, SDM 13.7). */
void dref_rx_frame(dref *m, const uint8_t *data, uint32_t len, int crc_ok);

/* Free descriptors the hardware owns (RX) and frames waiting in the buffer. */
unsigned dref_rx_free(const dref *m);
#endif
