/* System tests of `make layers` (testbench/tools/layers.sh): on the
 * repository it passes; on small trees of its own it reports, with exit
 * status 1, an include of a higher layer, an include of a sibling folder on
 * the same layer, an import circle and a file in no layer -- and passes
 * again once the offence is gone.  Run from the repository root. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../unit/gtest_cunit.h"

#define LAYERS "testbench/tools/layers.sh"

static char tree[PATH_MAX];

/* A tree with the layers 0 lo, 1 mid and 1 side (siblings), 2 hi, where
 * hi/c.c includes mid/b.h, which includes lo/a.h: clean. */
static void make_tree(void)
{
    snprintf(tree, sizeof tree, "/tmp/nicsim_layers_XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(tree) != NULL);
    const char *dirs[] = { "docs", "lo", "mid", "side", "hi" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char d[PATH_MAX + 16];
        snprintf(d, sizeof d, "%s/%s", tree, dirs[i]);
        CU_ASSERT_FATAL(mkdir(d, 0755) == 0);
    }
}

static void put(const char *name, const char *text)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", tree, name);
    FILE *f = fopen(p, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs(text, f);
    fclose(f);
}

static void drop(const char *name)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", tree, name);
    CU_ASSERT(unlink(p) == 0);
}

static void remove_tree(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
    CU_ASSERT(system(cmd) == 0);
}

/* Run the check on root; its exit status, its output in out. */
static int layers(const char *root, char *out, size_t n)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, LAYERS " '%s' 2>&1", root);
    FILE *p = popen(cmd, "r");
    CU_ASSERT_FATAL(p != NULL);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(int status, const char *says)
{
    char out[8192];
    int st = layers(tree, out, sizeof out);
    if (st != status || (says && !strstr(out, says)))
        fprintf(stderr, "layers: exit %d (expected %d), output:\n%s\n", st, status, out);
    CU_ASSERT_EQUAL(st, status);
    if (says)
        CU_ASSERT(strstr(out, says) != NULL);
}

static void test_repository_passes(void)
{
    char out[8192];
    int st = layers(".", out, sizeof out);
    if (st != 0)
        fprintf(stderr, "%s", out);
    CU_ASSERT_EQUAL(st, 0);
    CU_ASSERT(strstr(out, "no upward include, no import circle") != NULL);
}

static void test_offences_reported(void)
{
    make_tree();
    put("docs/architecture.md", "# t\n\n```layers\n0 lo\n1 mid\n1 side\n2 hi\n```\n");
    put("lo/a.h", "int a(void);\n");
    put("mid/b.h", "#include \"../lo/a.h\"\n");
    put("side/s.h", "int s(void);\n");
    put("hi/c.c", "#include \"../mid/b.h\"\n#include \"../side/s.h\"\n");
    expect(0, "no upward include, no import circle");

    put("lo/up.c", "#include \"../hi/c.c\"\n");                 /* upward */
    expect(1, "lo/up.c (layer 0, lo) includes hi/c.c (layer 2, hi)");
    drop("lo/up.c");

    put("mid/x.c", "#include \"../side/s.h\"\n");               /* a sibling */
    expect(1, "mid/x.c (layer 1, mid) includes side/s.h (layer 1, side)");
    drop("mid/x.c");

    put("mid/p.h", "#include \"q.h\"\n");                       /* a circle */
    put("mid/q.c", "#include \"p.h\"\n");
    put("mid/q.h", "int q(void);\n");
    expect(1, "import circle: mid/");
    drop("mid/q.c");
    expect(0, NULL);

    put("stray.c", "int x;\n");                                 /* no layer */
    expect(1, "stray.c is in no folder of the layers table");
    drop("stray.c");
    expect(0, NULL);
    remove_tree();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Layers", NULL, NULL);
    CU_add_test(s, "RepositoryPasses", test_repository_passes);
    CU_add_test(s, "OffencesReported", test_offences_reported);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
