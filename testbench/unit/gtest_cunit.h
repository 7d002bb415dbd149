/* A GoogleTest-compatible front end for CUnit test binaries.
 *
 * Every test binary's main() is:
 *     int main(int argc, char **argv) { return gtest_cunit_main(argc, argv, register_suites); }
 * where register_suites() adds CUnit suites and tests (CU_add_suite / CU_add_test).
 * A test is named "Suite.Test" as in GoogleTest.
 *
 * Flags (as GoogleTest spells them):
 *   --gtest_list_tests          list "Suite." lines and indented test names, run nothing
 *   --gtest_filter=POS[-NEG]    ':'-separated patterns with '*' and '?'
 *   --gtest_output=xml:FILE     JUnit XML as GoogleTest writes it (testsuites/testsuite/testcase/failure)
 *   --help                      usage
 * The run prints one line per test ("[ RUN      ]" / "[       OK ]" / "[  FAILED  ]")
 * and ends with CUnit's "Run Summary".  Exit status: 0 all ran tests passed,
 * 1 a test failed, 2 bad usage or a CUnit error. */
#ifndef NICSIM_GTEST_CUNIT_H
#define NICSIM_GTEST_CUNIT_H
#include <CUnit/CUnit.h>

int gtest_cunit_main(int argc, char **argv, void (*register_suites)(void));

/* 1 if the full test name "Suite.Test" passes a --gtest_filter value: it
 * matches one of the ':'-separated patterns before the first '-' (an empty
 * positive part means "*") and none of the patterns after it.  In a pattern
 * '*' matches any string and '?' any one character. */
int gtest_cunit_match(const char *filter, const char *name);

/* s escaped for an XML attribute value as GoogleTest does it: & < > " ' as
 * entities, tab/LF/CR as character references, other control characters
 * (not allowed in XML 1.0) dropped.  malloc'd; NULL when out of memory. */
char *gtest_cunit_xml_escape(const char *s);

#endif
