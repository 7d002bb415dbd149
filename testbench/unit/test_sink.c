/* Unit tests of the sink app (driver/apps/sink.c) over the fake platform
 * and a fake RX table: NAPI rounds while the budget is used up, the header
 * read, buffers freed, interrupt handling and timeouts, named costs, and
 * refused tables.  (The driver cores' RX polls have their own tests; the
 * bindings run end to end in the system test CliRun.SinkReceives.) */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/apps/sink.h"

/* A queue of `waiting` frames of `len` bytes in fake DMA memory. */
static struct fake_q {
    unsigned waiting, polls, irq_handled;
    unsigned frees, budgets[64];
    uint32_t len;
    uint8_t *frame;
    void *last_cookie;
} fq;

static unsigned f_poll(void *q, unsigned budget, nic_rx_got_fn got, void *arg)
{
    struct fake_q *f = q;
    if (f->polls < 64)
        f->budgets[f->polls] = budget;
    f->polls++;
    unsigned n = f->waiting < budget ? f->waiting : budget;
    for (unsigned i = 0; i < n; i++)
        got(arg, f->frame, f->len, (void *)(uintptr_t)(i + 1));
    f->waiting -= n;
    return n;
}

static void f_free(struct plat_dev *pd, void *cookie)
{
    (void)pd;
    fq.frees++;
    fq.last_cookie = cookie;
}

static void f_irq(void *q)
{
    ((struct fake_q *)q)->irq_handled++;
}

static struct plat_dev *d;
static struct sink s;

static void up(unsigned waiting, uint32_t budget, int touch)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    memset(&fq, 0, sizeof fq);
    fq.waiting = waiting;
    fq.len = 60;
    uint64_t bus;
    fq.frame = plat_dma_alloc(d, 2048, 64, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fq.frame);
    struct nic_rxq_ops rx = { .q = &fq, .poll = f_poll, .pkt_free = f_free, .irq_handle = f_irq };
    struct sink_opts o;
    sink_default_opts(&o);
    o.budget = budget;
    o.touch = (uint8_t)touch;
    CU_ASSERT_EQUAL_FATAL(sink_init(&s, d, &rx, &o), 0);
}

static void down(void)
{
    fake_destroy(d);
    d = NULL;
}

/* 150 frames with a budget of 64: rounds of 64, 64, 22 in one step (the
 * third used less than its budget, so NAPI completes); every frame counted,
 * its bytes summed and its buffer freed; one "napi_poll" per round. */
static void test_rounds_until_budget_not_used(void)
{
    up(150, 64, 1);
    fake_cost_set(d, "napi_poll", 100);
    CU_ASSERT_EQUAL(sink_step(&s), 150);
    CU_ASSERT_EQUAL(fq.polls, 3);
    CU_ASSERT_EQUAL(fq.budgets[0], 64);
    CU_ASSERT_EQUAL(s.stats.packets, 150);
    CU_ASSERT_EQUAL(s.stats.bytes, 150u * 60u);
    CU_ASSERT_EQUAL(s.stats.polls, 3);
    CU_ASSERT_EQUAL(fq.frees, 150);
    CU_ASSERT_EQUAL(fake_cost_count(d, "napi_poll"), 3);
    /* exactly 128: a full round is followed by one more */
    fq.waiting = 128;
    fq.polls = 0;
    CU_ASSERT_EQUAL(sink_step(&s), 128);
    CU_ASSERT_EQUAL(fq.polls, 3);
    down();
}

/* touch reads each frame's header (64 bytes, or the frame if shorter);
 * without it nothing of the frame is read */
static void test_touch(void)
{
    up(10, 64, 1);
    uint64_t before = d->touches;
    sink_step(&s);
    CU_ASSERT_EQUAL(d->touches - before, 10);
    down();
    up(10, 64, 0);
    before = d->touches;
    sink_step(&s);
    CU_ASSERT_EQUAL(d->touches - before, 0);
    down();
}

/* an interrupt pending (cause and mask set) is taken and handed to the
 * driver's handler; none pending: the wait times out and the sink polls
 * anyway */
static void test_irq_and_timeout(void)
{
    up(5, 64, 0);
    fake_reg_set(d, E1000_ICR, E1000_ICR_RXT0);
    fake_reg_set(d, E1000_IMS, E1000_ICR_RXT0);
    sink_step(&s);
    CU_ASSERT_EQUAL(s.stats.irqs, 1);
    CU_ASSERT_EQUAL(fq.irq_handled, 1);
    fake_reg_set(d, E1000_ICR, 0);
    fq.waiting = 3;
    uint64_t t0 = d->now_ns;
    CU_ASSERT_EQUAL(sink_step(&s), 3);
    CU_ASSERT_EQUAL(s.stats.irq_timeouts, 1);
    CU_ASSERT_EQUAL(fq.irq_handled, 1);
    CU_ASSERT(d->now_ns - t0 >= s.opts.irq_wait_ns);
    down();
}

static void test_refused(void)
{
    d = fake_create();
    struct nic_rxq_ops rx = { .q = &fq, .poll = f_poll, .pkt_free = f_free, .irq_handle = f_irq };
    struct sink_opts o;
    sink_default_opts(&o);
    CU_ASSERT_EQUAL(sink_init(&s, d, &rx, &o), 0);
    struct nic_rxq_ops bad = rx;
    bad.poll = NULL;
    CU_ASSERT_EQUAL(sink_init(&s, d, &bad, &o), -1);
    bad = rx;
    bad.q = NULL;
    CU_ASSERT_EQUAL(sink_init(&s, d, &bad, &o), -1);
    o.budget = 0;
    CU_ASSERT_EQUAL(sink_init(&s, d, &rx, &o), -1);
    CU_ASSERT_EQUAL(sink_init(&s, NULL, &rx, NULL), -1);
    fake_destroy(d);
}

static void register_suites(void)
{
    CU_pSuite su = CU_add_suite("Sink", NULL, NULL);
    CU_add_test(su, "RoundsUntilBudgetNotUsed", test_rounds_until_budget_not_used);
    CU_add_test(su, "Touch", test_touch);
    CU_add_test(su, "IrqAndTimeout", test_irq_and_timeout);
    CU_add_test(su, "Refused", test_refused);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
