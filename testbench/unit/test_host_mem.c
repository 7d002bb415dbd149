/* Unit tests of models/host_mem.c: the bump allocator of DMA regions and the
 * fault rules (an access outside every region fails and touches nothing). */
#include "gtest_cunit.h"
#include "../../models/host_mem.h"
#include <stdint.h>
#include <string.h>

#define BASE 0x10000000ull

static void test_first_region_at_base(void)
{
    host_mem *m = host_mem_new(BASE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    uint64_t bus = 0;
    void *p = host_mem_alloc(m, 100, 64, &bus);
    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_EQUAL(bus, BASE);
    CU_ASSERT_EQUAL(host_mem_bytes_allocated(m), 100);
    host_mem_free(m);
}

static void test_alignment(void)
{
    host_mem *m = host_mem_new(BASE);
    const size_t aligns[] = { 8, 16, 64, 128, 4096, 65536 };
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
        uint64_t bus = 0;
        /* An odd size first, so the next bump position is misaligned. */
        CU_ASSERT_PTR_NOT_NULL(host_mem_alloc(m, 13, 8, NULL));
        void *p = host_mem_alloc(m, 200, aligns[i], &bus);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(bus % aligns[i], 0);
        CU_ASSERT_EQUAL((uintptr_t)p % aligns[i], 0);
    }
    host_mem_free(m);
}

static void test_bad_arguments(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t bus = 7;
    CU_ASSERT_PTR_NULL(host_mem_alloc(m, 0, 64, &bus));     /* size 0 */
    CU_ASSERT_PTR_NULL(host_mem_alloc(m, 64, 4, &bus));     /* align < 8 */
    CU_ASSERT_PTR_NULL(host_mem_alloc(m, 64, 24, &bus));    /* not a power of two */
    CU_ASSERT_EQUAL(bus, 7);
    CU_ASSERT_EQUAL(host_mem_bytes_allocated(m), 0);
    host_mem_free(m);
}

static void test_zeroed(void)
{
    host_mem *m = host_mem_new(BASE);
    /* Dirty the heap first, so a recycled block would show garbage. */
    for (int round = 0; round < 4; round++) {
        uint64_t bus;
        unsigned char *p = host_mem_alloc(m, 8192, 4096, &bus);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        size_t nonzero = 0;
        for (size_t i = 0; i < 8192; i++)
            nonzero += p[i] != 0;
        CU_ASSERT_EQUAL(nonzero, 0);
        memset(p, 0xa5, 8192);
    }
    host_mem_free(m);
}

/* Regions are separated by at least 4 KiB so an overrun faults. */
static void test_gap_between_regions(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t a, b;
    host_mem_alloc(m, 1000, 8, &a);
    host_mem_alloc(m, 1000, 8, &b);
    CU_ASSERT(b >= a + 1000 + 4096);
    for (uint64_t x = a + 1000; x < b; x += 512)
        CU_ASSERT_PTR_NULL(host_mem_ptr(m, x, 1));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, b - 1, 1));
    host_mem_free(m);
}

static void test_lookup_region_edges(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t bus;
    unsigned char *p = host_mem_alloc(m, 256, 64, &bus);
    /* Whole region, first byte, last byte. */
    CU_ASSERT_PTR_EQUAL(host_mem_ptr(m, bus, 256), p);
    CU_ASSERT_PTR_EQUAL(host_mem_ptr(m, bus, 1), p);
    CU_ASSERT_PTR_EQUAL(host_mem_ptr(m, bus + 255, 1), p + 255);
    CU_ASSERT_PTR_EQUAL(host_mem_ptr(m, bus + 100, 156), p + 100);
    /* One byte before, one byte past the end, and one byte too long. */
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus - 1, 1));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus - 1, 2));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus + 256, 1));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus + 256, 0));   /* names no byte inside */
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus, 257));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus + 200, 57));
    /* Far away, and a length that would wrap the address space. */
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, 0, 1));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, UINT64_MAX, 1));
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus + 8, SIZE_MAX));
    host_mem_free(m);
}

static void test_read_write(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t bus;
    unsigned char *p = host_mem_alloc(m, 64, 64, &bus);
    const unsigned char src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    unsigned char dst[8] = { 0 };
    CU_ASSERT_EQUAL(host_mem_write(m, bus + 56, src, 8), 0);   /* last 8 bytes */
    CU_ASSERT_EQUAL(memcmp(p + 56, src, 8), 0);
    CU_ASSERT_EQUAL(host_mem_read(m, bus + 56, dst, 8), 0);
    CU_ASSERT_EQUAL(memcmp(dst, src, 8), 0);
    host_mem_free(m);
}

/* A partly outside access fails and copies nothing at all. */
static void test_faults_copy_nothing(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t bus;
    unsigned char *p = host_mem_alloc(m, 64, 64, &bus);
    const unsigned char src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    unsigned char dst[8];
    /* One byte past the end. */
    CU_ASSERT_EQUAL(host_mem_write(m, bus + 57, src, 8), -1);
    CU_ASSERT_EQUAL(host_mem_write(m, bus + 64, src, 1), -1);
    CU_ASSERT_EQUAL(host_mem_write(m, bus - 1, src, 8), -1);
    for (int i = 0; i < 64; i++)
        CU_ASSERT_EQUAL(p[i], 0);
    memset(p, 0x5a, 64);
    memset(dst, 0xee, sizeof dst);
    CU_ASSERT_EQUAL(host_mem_read(m, bus + 57, dst, 8), -1);
    CU_ASSERT_EQUAL(host_mem_read(m, bus + 64, dst, 1), -1);
    CU_ASSERT_EQUAL(host_mem_read(m, BASE - 4096, dst, 8), -1);
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(dst[i], 0xee);
    /* Zero bytes touch nothing, so they cannot fault. */
    CU_ASSERT_EQUAL(host_mem_read(m, 0, dst, 0), 0);
    host_mem_free(m);
}

/* Two adjacent regions: an access spanning the gap is a fault. */
static void test_span_across_regions_faults(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t a, b;
    host_mem_alloc(m, 64, 64, &a);
    host_mem_alloc(m, 64, 64, &b);
    CU_ASSERT_PTR_NULL(host_mem_ptr(m, a, (size_t)(b - a + 1)));
    unsigned char buf[16] = { 0 };
    CU_ASSERT_EQUAL(host_mem_read(m, a + 56, buf, 16), -1);
    host_mem_free(m);
}

static void test_bus_addr_of_pointer(void)
{
    host_mem *m = host_mem_new(BASE);
    uint64_t bus[3];
    unsigned char *p[3];
    p[0] = host_mem_alloc(m, 100, 8, &bus[0]);
    p[1] = host_mem_alloc(m, 5000, 4096, &bus[1]);
    p[2] = host_mem_alloc(m, 8, 8, &bus[2]);
    for (int i = 0; i < 3; i++) {
        size_t size = i == 0 ? 100 : i == 1 ? 5000 : 8;
        CU_ASSERT_EQUAL(host_mem_bus_addr(m, p[i]), bus[i]);
        CU_ASSERT_EQUAL(host_mem_bus_addr(m, p[i] + size - 1), bus[i] + size - 1);
        /* One past the end is not in the region (it may be in another heap
         * block, but never maps to the gap after this region). */
        CU_ASSERT_NOT_EQUAL(host_mem_bus_addr(m, p[i] + size), bus[i] + size);
    }
    CU_ASSERT_EQUAL(host_mem_bus_addr(m, p[1] + 4321), bus[1] + 4321);
    /* Not in any region: a stack object and NULL. */
    int local;
    CU_ASSERT_EQUAL(host_mem_bus_addr(m, &local), 0);
    CU_ASSERT_EQUAL(host_mem_bus_addr(m, NULL), 0);
    host_mem_free(m);
}

/* Many regions: every lookup goes through the binary searches. */
static void test_many_regions(void)
{
    enum { N = 300 };
    host_mem *m = host_mem_new(BASE);
    uint64_t bus[N];
    unsigned char *p[N];
    size_t total = 0;
    for (int i = 0; i < N; i++) {
        size_t size = 64 + (size_t)(i * 37) % 3000;
        p[i] = host_mem_alloc(m, size, 64, &bus[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p[i]);
        p[i][0] = (unsigned char)i;
        p[i][size - 1] = (unsigned char)(i ^ 0xff);
        total += size;
        if (i > 0)
            CU_ASSERT(bus[i] > bus[i - 1]);
    }
    CU_ASSERT_EQUAL(host_mem_bytes_allocated(m), total);
    for (int i = N - 1; i >= 0; i--) {
        size_t size = 64 + (size_t)(i * 37) % 3000;
        unsigned char first = 0, lastb = 0;
        CU_ASSERT_EQUAL(host_mem_read(m, bus[i], &first, 1), 0);
        CU_ASSERT_EQUAL(host_mem_read(m, bus[i] + size - 1, &lastb, 1), 0);
        CU_ASSERT_EQUAL(first, (unsigned char)i);
        CU_ASSERT_EQUAL(lastb, (unsigned char)(i ^ 0xff));
        CU_ASSERT_PTR_NULL(host_mem_ptr(m, bus[i] + size, 1));
        CU_ASSERT_EQUAL(host_mem_bus_addr(m, p[i] + size / 2), bus[i] + size / 2);
    }
    host_mem_free(m);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("HostMem", NULL, NULL);
    CU_add_test(s, "FirstRegionAtBase", test_first_region_at_base);
    CU_add_test(s, "Alignment", test_alignment);
    CU_add_test(s, "BadArguments", test_bad_arguments);
    CU_add_test(s, "Zeroed", test_zeroed);
    CU_add_test(s, "GapBetweenRegions", test_gap_between_regions);
    CU_add_test(s, "LookupRegionEdges", test_lookup_region_edges);
    CU_add_test(s, "ReadWrite", test_read_write);
    CU_add_test(s, "FaultsCopyNothing", test_faults_copy_nothing);
    CU_add_test(s, "SpanAcrossRegionsFaults", test_span_across_regions_faults);
    CU_add_test(s, "BusAddrOfPointer", test_bus_addr_of_pointer);
    CU_add_test(s, "ManyRegions", test_many_regions);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
