#include "diff_ref.h"
#include <stdlib.h>
#include <string.h>

/* descriptor bits (nic-facts A2, B2): EOP, IFCS, RS at QW1 bits 24, 25, 27 */
#define TXD_EOP  0x01u       /* byte 11 */
#define TXD_IFCS 0x02u
#define TXD_RS   0x08u
#define MIN_FRAME 60u        /* without the FCS */

void dref_init(dref *m, const dref_cfg *c)
{
    memset(m, 0, sizeof *m);
    m->c = *c;
    dref_reset(m);
}

void dref_free(dref *m)
{
    free(m->out);
    m->out = NULL;
    m->nout = m->out_cap = 0;
}

void dref_reset(dref *m)
{
    m->tdh = m->tdt = 0;
    memset(m->tx_dd, DREF_DD_NO, sizeof m->tx_dd);
    m->hwb_val = 0xFFFFFFFFu;
    m->cur.len = 0;
    m->rx_en = 0;
    m->rdh = m->rdt = 0;
    for (unsigned i = 0; i < DREF_RING_MAX; i++)
        m->rxd[i].done = 0;
    m->nwait = 0;
    m->csum = 0;
    m->gptc = m->gprc = m->mpc = m->rnbc = m->crcerrs = 0;
}

/* ---- transmit ------------------------------------------------------------ */

void dref_tx_desc(dref *m, unsigned i, const uint8_t d[16], const uint8_t *buf, uint32_t len)
{
    memcpy(m->txd[i], d, 16);
    memcpy(m->txbuf[i], buf, len);
    m->tx_dd[i] = DREF_DD_NO;
}

static void emit(dref *m, int fcs)
{
    dref_frame *f = &m->cur;
    if (m->c.pad && f->len < MIN_FRAME) {
        memset(f->data + f->len, 0, MIN_FRAME - f->len);
        f->len = MIN_FRAME;
    }
    f->fcs = (uint8_t)fcs;
    if (m->nout == m->out_cap) {
        m->out_cap = m->out_cap ? 2 * m->out_cap : 16;
        m->out = realloc(m->out, m->out_cap * sizeof *m->out);
        if (!m->out)
            abort();
    }
    m->out[m->nout++] = *f;
    f->len = 0;
    m->gptc++;
}

void dref_tx_tail(dref *m, unsigned tdt)
{
    m->tdt = tdt;
    while (m->tdh != m->tdt) {
        unsigned i = m->tdh;
        const uint8_t *d = m->txd[i];
        uint32_t len = (uint32_t)d[8] | (uint32_t)d[9] << 8;
        uint8_t cmd = d[11];
        if (m->cur.len + len <= DREF_FRAME_MAX)
            memcpy(m->cur.data + m->cur.len, m->txbuf[i], len);
        m->cur.len += len;
        if (cmd & TXD_EOP)
            emit(m, (cmd & TXD_IFCS) != 0);
        if (m->c.hwb)
            m->tx_dd[i] = DREF_DD_NO;
        else if (cmd & TXD_RS)
            m->tx_dd[i] = DREF_DD_YES;
        else
            m->tx_dd[i] = m->c.tx_burst ? DREF_DD_ANY : DREF_DD_NO;
        m->tdh = (i + 1) % m->c.tx_n;
        if (m->c.hwb && (cmd & TXD_RS))
            m->hwb_val = m->tdh;
    }
}

void dref_tx_restart(dref *m)
{
    m->tdh = m->tdt = 0;
}

/* ---- receive -------------------------------------------------------------- */

void dref_rx_desc(dref *m, unsigned i, const uint8_t d[16])
{
    memcpy(m->rxd_sw[i], d, 16);
    m->rxd[i].done = 0;
}

unsigned dref_rx_free(const dref *m)
{
    return (m->rdt + m->c.rx_n - m->rdh) % m->c.rx_n;
}

/* RFC 1071: 16-bit words, byte 2k high, end-around carry */
static uint32_t sum16(uint32_t s, const uint8_t *p, uint32_t n, uint32_t at)
{
    for (uint32_t k = 0; k < n; k++)
        s += ((at + k) & 1) ? p[k] : (uint32_t)p[k] << 8;
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return s;
}

/* Put waiting frames into the free descriptors, in order. */
static void place(dref *m)
{
    while (m->nwait && dref_rx_free(m)) {
        dref_wait *w = &m->wait[0];
        unsigned i = m->rdh;
        dref_rxd *r = &m->rxd[i];
        uint32_t n = w->len - w->off < m->c.bsize ? w->len - w->off : m->c.bsize;
        int eop = w->off + n == w->len;
        memcpy(r->buf, w->data + w->off, n);
        r->buf_len = n;
        m->csum = sum16(m->csum, w->data + w->off, n, w->off);
        memset(r->wb, 0, sizeof r->wb);
        if (m->c.adv) {
            r->wb[8] = (uint8_t)(0x01 | (eop ? 0x02 : 0));            /* DD, EOP */
            r->wb[12] = (uint8_t)n;                                   /* PKT_LEN */
            r->wb[13] = (uint8_t)(n >> 8);
        } else {
            memcpy(r->wb, m->rxd_sw[i], 8);                           /* the buffer address stays */
            r->wb[8] = (uint8_t)n;
            r->wb[9] = (uint8_t)(n >> 8);
            if (eop) {
                r->wb[10] = (uint8_t)m->csum;
                r->wb[11] = (uint8_t)(m->csum >> 8);
            }
            r->wb[12] = (uint8_t)(0x01 | (eop ? 0x02 : 0) | 0x04);   /* DD, EOP, IXSM */
        }
        r->done = 1;
        w->off += n;
        m->rdh = (i + 1) % m->c.rx_n;
        if (eop) {
            m->csum = 0;
            memmove(&m->wait[0], &m->wait[1], (m->nwait - 1) * sizeof m->wait[0]);
            m->nwait--;
        }
    }
}

void dref_rx_tail(dref *m, unsigned rdt)
{
    m->rdt = rdt;
    place(m);
}

void dref_rx_enable(dref *m, int on)
{
    m->rx_en = on;
}

void dref_rx_restart(dref *m)
{
    m->rdh = m->rdt = 0;
}

void dref_rx_frame(dref *m, const uint8_t *data, uint32_t len, int crc_ok)
{
    if (!m->rx_en)
        return;                          /* ignored, counted nowhere */
    if (!crc_ok) {
        m->crcerrs++;                    /* dropped before the descriptor check: no RNBC */
        return;
    }
    if (dref_rx_free(m) == 0) {
        m->rnbc++;
        if (m->c.adv && m->c.drop_en)
            return;
    }
    if (m->nwait == DREF_WAIT_MAX)
        abort();                         /* the generator keeps this from happening */
    dref_wait *w = &m->wait[m->nwait++];
    w->len = m->c.secrc ? len - 4 : len;
    w->off = 0;
    memcpy(w->data, data, len);
    m->gprc++;
    place(m);
}
