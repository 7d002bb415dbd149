/* Link sink: counters, and a pcap read back with nanosecond precision. */
#include "gtest_cunit.h"
#include "../../models/link_sink.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static char path[128];
static char err[256];

static int suite_init(void)
{
    snprintf(dir, sizeof dir, "/tmp/nicsim_link_sink_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/out.pcap", dir);
    return 0;
}

static int suite_cleanup(void)
{
    unlink(path);
    return rmdir(dir) ? 1 : 0;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* Whether the capture's temporary file (out.pcap.XXXXXX.tmp, out_file.h)
 * is in the folder. */
static int tmp_exists(void)
{
    DIR *d = opendir(dir);
    int found = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        found |= !strncmp(e->d_name, "out.pcap.", 9) && strlen(e->d_name) > 13 &&
                 !strcmp(e->d_name + strlen(e->d_name) - 4, ".tmp");
    if (d)
        closedir(d);
    return found;
}

/* A frame whose bytes identify it: byte i = seed + i. */
static void fill(uint8_t *buf, uint32_t len, uint8_t seed)
{
    for (uint32_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(seed + i);
}

static void test_counts_only(void)
{
    link_sink *s = link_sink_new(NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint8_t f[1514];
    fill(f, sizeof f, 0);
    link_sink_frame(s, 0, f, 60);
    link_sink_frame(s, 1000, f, 1514);
    link_sink_frame(s, 2000, f, 64);
    CU_ASSERT_EQUAL(link_sink_frames(s), 3);
    CU_ASSERT_EQUAL(link_sink_bytes(s), 60 + 1514 + 64);
    CU_ASSERT_EQUAL(link_sink_close(s, err, sizeof err), 0);
}

static const struct {
    uint64_t t_ps;
    uint32_t len;
    long sec, nsec; /* the pcap timestamp t_ps / 1000 ns */
} frames[] = {
    {0, 60, 0, 0},
    {999, 64, 0, 0},                                 /* below 1 ns truncates */
    {1999, 64, 0, 1},
    {1234567890, 128, 0, 1234567},                   /* 1.234567890 ms */
    {999999999999, 1514, 0, 999999999},              /* just below 1 s */
    {1000000000000, 60, 1, 0},                       /* exactly 1 s */
    {2500000000123000ull, 9000, 2500, 123},          /* 2500 s + 123 ns */
    {4000000000000000000ull, 61, 4000000, 0},        /* 46 days */
};
#define NFRAMES (sizeof frames / sizeof frames[0])

static void test_pcap_round_trip(void)
{
    static uint8_t buf[9000];
    unlink(path);
    link_sink *s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint64_t bytes = 0;
    for (size_t i = 0; i < NFRAMES; i++) {
        fill(buf, frames[i].len, (uint8_t)i);
        link_sink_frame(s, frames[i].t_ps, buf, frames[i].len);
        bytes += frames[i].len;
    }
    /* Until close, the result exists only under the temporary name. */
    CU_ASSERT(tmp_exists());
    CU_ASSERT(!exists(path));
    CU_ASSERT_EQUAL(link_sink_frames(s), NFRAMES);
    CU_ASSERT_EQUAL(link_sink_bytes(s), bytes);
    CU_ASSERT_EQUAL(link_sink_close(s, err, sizeof err), 0);
    CU_ASSERT(exists(path));
    CU_ASSERT(!tmp_exists());

    /* The nanosecond pcap magic, in the writer's byte order. */
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    uint32_t magic = 0;
    CU_ASSERT_EQUAL(fread(&magic, sizeof magic, 1, f), 1);
    fclose(f);
    CU_ASSERT_EQUAL(magic, 0xa1b23c4du);

    char perr[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, perr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(pcap_datalink(p), DLT_EN10MB);
    CU_ASSERT_EQUAL(pcap_get_tstamp_precision(p), PCAP_TSTAMP_PRECISION_NANO);
    struct pcap_pkthdr *h;
    const u_char *data;
    size_t i = 0;
    while (pcap_next_ex(p, &h, &data) == 1) {
        CU_ASSERT_FATAL(i < NFRAMES);
        CU_ASSERT_EQUAL(h->ts.tv_sec, frames[i].sec);
        CU_ASSERT_EQUAL(h->ts.tv_usec, frames[i].nsec); /* nanoseconds here */
        CU_ASSERT_EQUAL(h->len, frames[i].len);
        CU_ASSERT_EQUAL(h->caplen, frames[i].len);
        fill(buf, frames[i].len, (uint8_t)i);
        CU_ASSERT_EQUAL(memcmp(data, buf, frames[i].len), 0);
        i++;
    }
    CU_ASSERT_EQUAL(i, NFRAMES);
    pcap_close(p);
}

static void test_snaplen_truncates_capture_not_counts(void)
{
    uint32_t big = LINK_SINK_SNAPLEN + 100;
    uint8_t *buf = malloc(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    fill(buf, big, 7);
    link_sink *s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    link_sink_frame(s, 5000, buf, big);
    CU_ASSERT_EQUAL(link_sink_bytes(s), big);
    CU_ASSERT_EQUAL(link_sink_close(s, err, sizeof err), 0);

    char perr[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, perr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    struct pcap_pkthdr *h;
    const u_char *data;
    CU_ASSERT_EQUAL_FATAL(pcap_next_ex(p, &h, &data), 1);
    CU_ASSERT_EQUAL(h->len, big);
    CU_ASSERT_EQUAL(h->caplen, LINK_SINK_SNAPLEN);
    CU_ASSERT_EQUAL(h->ts.tv_usec, 5);
    CU_ASSERT_EQUAL(memcmp(data, buf, LINK_SINK_SNAPLEN), 0);
    pcap_close(p);
    free(buf);
}

static void test_abort_leaves_nothing(void)
{
    unlink(path);
    uint8_t f[60] = {0};
    link_sink *s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    link_sink_frame(s, 1000, f, sizeof f);
    CU_ASSERT(tmp_exists());
    link_sink_abort(s);
    CU_ASSERT(!exists(path));
    CU_ASSERT(!tmp_exists());
}

/* An aborted run keeps the previous result; a completed one replaces it. */
static void test_existing_file_replaced_only_on_close(void)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("old", f);
    fclose(f);
    uint8_t fr[60] = {0};

    link_sink *s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    link_sink_frame(s, 0, fr, sizeof fr);
    link_sink_abort(s);
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 3);

    s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    link_sink_frame(s, 0, fr, sizeof fr);
    CU_ASSERT_EQUAL(link_sink_close(s, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 24 + 16 + 60); /* file header + record header + frame */
}

static void test_cannot_create(void)
{
    char bad[200], want[400];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.pcap", dir);
    snprintf(want, sizeof want, "%s: cannot write: folder %s/no/such/dir does not exist", bad, dir);
    err[0] = '\0';
    CU_ASSERT_PTR_NULL(link_sink_new(bad, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_empty_capture_is_valid(void)
{
    link_sink *s = link_sink_new(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(link_sink_close(s, err, sizeof err), 0);
    char perr[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, perr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    struct pcap_pkthdr *h;
    const u_char *data;
    CU_ASSERT_EQUAL(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK); /* EOF, no records */
    pcap_close(p);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("LinkSink", suite_init, suite_cleanup);
    CU_add_test(s, "CountsOnly", test_counts_only);
    CU_add_test(s, "PcapRoundTrip", test_pcap_round_trip);
    CU_add_test(s, "SnaplenTruncatesCaptureNotCounts", test_snaplen_truncates_capture_not_counts);
    CU_add_test(s, "AbortLeavesNothing", test_abort_leaves_nothing);
    CU_add_test(s, "ExistingFileReplacedOnlyOnClose", test_existing_file_replaced_only_on_close);
    CU_add_test(s, "CannotCreate", test_cannot_create);
    CU_add_test(s, "EmptyCaptureIsValid", test_empty_capture_is_valid);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
