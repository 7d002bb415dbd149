/* pcap-compare [--flip FRAME:BYTE] EXPECTED.pcap ACTUAL.pcap: do two
 * captures hold the same frames (count, bytes, order)?  Timestamps are not
 * compared: the simulator writes simulated time, QEMU its own clock.
 *
 * --flip inverts one byte of EXPECTED's frame FRAME (from 1) at offset BYTE
 * (from 0) before comparing: the negative control that shows a one-byte
 * change is caught.
 *
 * Prints "same: N frames, B bytes" (exit 0), or where they first differ --
 * frame number, length or byte offset with both values and the frame's
 * first bytes -- (exit 1); exit 2 when a file cannot be read. */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

static void hexdump(const char *label, const u_char *p, unsigned len)
{
    printf("  %-9s", label);
    for (unsigned i = 0; i < len && i < 48; i++)
        printf("%s%02x", i && i % 16 == 0 ? "\n           " : " ", p[i]);
    printf("%s\n", len > 48 ? " ..." : "");
}

int main(int argc, char **argv)
{
    unsigned long flip_frame = 0, flip_byte = 0;
    if (argc == 5 && !strcmp(argv[1], "--flip")) {
        char tail;
        if (sscanf(argv[2], "%lu:%lu%c", &flip_frame, &flip_byte, &tail) != 2 || flip_frame == 0) {
            fprintf(stderr, "pcap-compare: --flip: expected FRAME:BYTE (frame from 1), got '%s'\n", argv[2]);
            return 2;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: pcap-compare [--flip FRAME:BYTE] EXPECTED.pcap ACTUAL.pcap\n");
        return 2;
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *a = pcap_open_offline(argv[1], err);
    if (!a) {
        fprintf(stderr, "pcap-compare: %s\n", err);
        return 2;
    }
    pcap_t *b = pcap_open_offline(argv[2], err);
    if (!b) {
        fprintf(stderr, "pcap-compare: %s\n", err);
        pcap_close(a);
        return 2;
    }
    unsigned long n = 0, bytes = 0;
    int rc = 0;
    for (;;) {
        struct pcap_pkthdr *ha, *hb;
        const u_char *pa, *pb;
        int ra = pcap_next_ex(a, &ha, &pa), rb = pcap_next_ex(b, &hb, &pb);
        if (ra == -1 || rb == -1) {
            fprintf(stderr, "pcap-compare: %s: %s\n", ra == -1 ? argv[1] : argv[2], pcap_geterr(ra == -1 ? a : b));
            rc = 2;
            break;
        }
        if (ra != 1 || rb != 1) {
            if (ra == 1 || rb == 1) {
                unsigned long more = 1;
                pcap_t *longer = ra == 1 ? a : b;
                while (pcap_next_ex(longer, &ha, &pa) == 1)
                    more++;
                printf("DIFFER: %s has %lu frames, %s has %lu\n", argv[1], n + (ra == 1 ? more : 0), argv[2],
                       n + (rb == 1 ? more : 0));
                rc = 1;
            }
            break;
        }
        n++;
        u_char flipped[65536];
        if (n == flip_frame && flip_byte < ha->caplen && ha->caplen <= sizeof flipped) {
            memcpy(flipped, pa, ha->caplen);
            flipped[flip_byte] ^= 0xff;
            pa = flipped;
        }
        if (ha->caplen != hb->caplen || ha->len != hb->len) {
            /* the first byte that differs: within both, or where the
             * shorter one ends */
            unsigned i = 0, common = ha->caplen < hb->caplen ? ha->caplen : hb->caplen;
            while (i < common && pa[i] == pb[i])
                i++;
            printf("DIFFER: frame %lu, byte %u: %u bytes in %s, %u in %s\n", n, i, ha->len, argv[1], hb->len,
                   argv[2]);
            hexdump("expected", pa, ha->caplen);
            hexdump("actual", pb, hb->caplen);
            rc = 1;
            break;
        }
        if (memcmp(pa, pb, ha->caplen) != 0) {
            unsigned i = 0;
            while (pa[i] == pb[i])
                i++;
            printf("DIFFER: frame %lu, byte %u: 0x%02x in %s, 0x%02x in %s\n", n, i, pa[i], argv[1], pb[i],
                   argv[2]);
            hexdump("expected", pa, ha->caplen);
            hexdump("actual", pb, hb->caplen);
            rc = 1;
            break;
        }
        bytes += ha->caplen;
    }
    if (rc == 0)
        printf("same: %lu frames, %lu bytes\n", n, bytes);
    pcap_close(a);
    pcap_close(b);
    return rc;
}
