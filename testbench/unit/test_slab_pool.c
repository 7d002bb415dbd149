/* Unit tests of models/slab_pool.c: records come back zeroed, the last one
 * given back is the first taken again, and the pool grows past a slab. */
#include "gtest_cunit.h"
#include "../../models/slab_pool.h"
#include <stdint.h>
#include <string.h>

typedef struct rec { uint64_t a, b; void *p; uint8_t pad[13]; } rec;

static void test_zeroed_and_lifo(void)
{
    slab_pool p;
    slab_pool_init(&p, sizeof(rec), 4, "test");
    rec *r = slab_pool_get(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    memset(r, 0xAB, sizeof *r);
    slab_pool_put(&p, r);
    rec *again = slab_pool_get(&p);
    CU_ASSERT_PTR_EQUAL(again, r);                  /* last in, first out */
    static const rec zero;
    CU_ASSERT(memcmp(again, &zero, sizeof zero) == 0);
    CU_ASSERT_EQUAL(p.nslabs, 1);
    slab_pool_fini(&p);
    CU_ASSERT_EQUAL(p.nslabs, 0);
}

static void test_grows_past_a_slab(void)
{
    slab_pool p;
    slab_pool_init(&p, sizeof(rec), 4, "test");
    rec *r[10];
    for (int i = 0; i < 10; i++) {
        r[i] = slab_pool_get(&p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r[i]);
        r[i]->a = (uint64_t)i;
        CU_ASSERT((uintptr_t)r[i] % _Alignof(max_align_t) == 0);
        for (int k = 0; k < i; k++)
            CU_ASSERT_PTR_NOT_EQUAL(r[k], r[i]);    /* distinct while held */
    }
    CU_ASSERT_EQUAL(p.nslabs, 3);                   /* 4 + 4 + 2 */
    for (int i = 0; i < 10; i++)
        CU_ASSERT_EQUAL(r[i]->a, (uint64_t)i);      /* no record overlaps another */
    for (int i = 0; i < 10; i++)
        slab_pool_put(&p, r[i]);
    for (int i = 0; i < 12; i++)                    /* 10 reused, 2 from the third slab */
        CU_ASSERT_PTR_NOT_NULL(slab_pool_get(&p));
    CU_ASSERT_EQUAL(p.nslabs, 3);
    slab_pool_fini(&p);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("SlabPool", NULL, NULL);
    CU_add_test(s, "ZeroedAndLifo", test_zeroed_and_lifo);
    CU_add_test(s, "GrowsPastASlab", test_grows_past_a_slab);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
