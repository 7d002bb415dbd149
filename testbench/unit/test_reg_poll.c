/* Unit tests of the register wait both driver cores use (reg_poll.h) over
 * the fake platform: the back-off from 1 us to 1 ms, the bound, the last
 * value and time waited, and the platform's stop request (a signal on
 * hardware, system.max_sim_us in the simulator) ending a bring-up wait but
 * not a teardown's. */
#include <CUnit/CUnit.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/ring/reg_poll.h"

#define REG 0x0008u
#define BIT 0x2u

static struct plat_dev *d;

/* The bit shows from the read with this index on (counted from 1). */
static unsigned set_from_read, reads;

static uint32_t bit_late(struct plat_dev *dev, uint32_t reg, uint32_t val, void *arg)
{
    (void)dev, (void)arg;
    if (reg != REG)
        return val;
    return ++reads >= set_from_read ? val | BIT : val & ~BIT;
}

static void setup(unsigned from_read)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    reads = 0;
    set_from_read = from_read;
    d->read_hook = bit_late;
}

/* Met on the fourth read: waits 1 + 2 + 4 + 8 us before the reads. */
static void test_met_with_backoff(void)
{
    setup(4);
    uint32_t last = 0;
    uint64_t waited = 0;
    CU_ASSERT_EQUAL(reg_poll(d, REG, BIT, BIT, 1000000000ull, &last, &waited), 1);
    CU_ASSERT_EQUAL(reads, 4);
    CU_ASSERT_EQUAL(waited, 15000u);
    CU_ASSERT_EQUAL(d->now_ns, 15000u);
    CU_ASSERT(last & BIT);
    fake_destroy(d);
}

/* Never met: gives up exactly at the bound, with the steps capped at 1 ms
 * (2 s in about two thousand reads, not millions). */
static void test_bound(void)
{
    setup(0xffffffffu);
    uint64_t waited = 0;
    CU_ASSERT_EQUAL(reg_poll(d, REG, BIT, BIT, 2000000000ull, NULL, &waited), 0);
    CU_ASSERT_EQUAL(waited, 2000000000ull);
    CU_ASSERT_EQUAL(d->now_ns, 2000000000ull);
    CU_ASSERT(reads > 1900 && reads < 2100);
    fake_destroy(d);
}

/* A stop request ends the wait at the first read after it, long before
 * the bound; the time waited says how long it really was. */
static void test_stop_ends_wait(void)
{
    setup(0xffffffffu);
    d->stop_at_ns = 5000000;
    uint64_t waited = 0;
    CU_ASSERT_EQUAL(reg_poll(d, REG, BIT, BIT, 10000000000ull, NULL, &waited), 0);
    CU_ASSERT(waited >= 5000000u && waited <= 6000000u);
    CU_ASSERT_EQUAL(d->now_ns, waited);
    fake_destroy(d);
}

/* The condition met on the read that sees the stop still counts. */
static void test_stop_after_met(void)
{
    setup(3);
    d->stop_at_ns = 1;
    CU_ASSERT_EQUAL(reg_poll(d, REG, BIT, BIT, 10000000ull, NULL, NULL), 0);
    CU_ASSERT_EQUAL(reads, 1);
    fake_destroy(d);
    setup(1);
    d->stop_at_ns = 1;
    CU_ASSERT_EQUAL(reg_poll(d, REG, BIT, BIT, 10000000ull, NULL, NULL), 1);
    fake_destroy(d);
}

/* A teardown's wait ignores the stop: the queue must be off before its
 * memory goes back. */
static void test_to_end_ignores_stop(void)
{
    setup(50);
    d->stop_at_ns = 1;
    uint64_t waited = 0;
    CU_ASSERT_EQUAL(reg_poll_to_end(d, REG, BIT, BIT, 1000000000ull, NULL, &waited), 1);
    CU_ASSERT_EQUAL(reads, 50);
    CU_ASSERT(waited > 5000000u);
    fake_destroy(d);
    setup(0xffffffffu);
    d->stop_at_ns = 1;
    CU_ASSERT_EQUAL(reg_poll_to_end(d, REG, BIT, BIT, 20000000ull, NULL, &waited), 0);
    CU_ASSERT_EQUAL(waited, 20000000u);
    fake_destroy(d);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("RegPoll", NULL, NULL);
    CU_add_test(s, "MetWithBackoff", test_met_with_backoff);
    CU_add_test(s, "GivesUpAtBound", test_bound);
    CU_add_test(s, "StopEndsWait", test_stop_ends_wait);
    CU_add_test(s, "StopAfterMet", test_stop_after_met);
    CU_add_test(s, "TeardownIgnoresStop", test_to_end_ignores_stop);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
