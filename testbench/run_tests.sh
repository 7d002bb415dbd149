#!/usr/bin/env bash
# Run every test binary given on the command line, each writing its JUnit
# XML next to the others, then merge them into one report and print one
# closing line "N passed, N failed" (tests, over all binaries).
# Usage: testbench/run_tests.sh RESULTS_DIR REPORT.xml BINARY...
# NICSIM_TEST_JOBS binaries run at once (default: the number of CPUs); each
# one's output is printed whole when it ends, so outputs do not interleave.
# The report does not depend on the order they end in.
set -u
results=$1; report=$2; shift 2
mkdir -p "$results"
rm -f "$results"/*.xml "$results"/*.log
jobs_max=${NICSIM_TEST_JOBS:-$(nproc)}
passed=0; failed=0; broken=()
declare -A name_of=()
# Count one finished binary: its output, then its report's figures.
finish() { # NAME STATUS
    local name=$1 rc=$2 p f
    echo "=== $name"
    cat "$results/$name.log"
    if [ ! -f "$results/$name.xml" ]; then
        echo "$name: exit status $rc and no XML report" >&2
        broken+=("$name"); failed=$((failed + 1)); return
    fi
    p=$(grep -o 'tests="[0-9]*"' "$results/$name.xml" | head -1 | grep -o '[0-9]*')
    f=$(grep -o 'failures="[0-9]*"' "$results/$name.xml" | head -1 | grep -o '[0-9]*')
    passed=$((passed + p - f)); failed=$((failed + f))
    [ "$rc" -eq 0 ] || broken+=("$name")
}
# Wait for any one running binary and count it.
reap() {
    local pid rc
    wait -n -p pid
    rc=$?
    finish "${name_of[$pid]}" "$rc"
    unset "name_of[$pid]"
}
for t in "$@"; do
    [ ${#name_of[@]} -lt "$jobs_max" ] || reap
    name=$(basename "$t")
    "$t" --gtest_output="xml:$results/$name.xml" > "$results/$name.log" 2>&1 &
    name_of[$!]=$name
done
while [ ${#name_of[@]} -gt 0 ]; do reap; done
# one JUnit document: every binary's <testsuite> elements under one <testsuites>
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"$((passed + failed))\" failures=\"$failed\" errors=\"0\" name=\"nicsim\">"
    for x in "$results"/*.xml; do
        [ -f "$x" ] && sed -n '/<testsuite /,/<\/testsuite>/p' "$x"
    done
    echo '</testsuites>'
} > "$report.tmp" && mv "$report.tmp" "$report"
echo "JUnit report: $report"
if [ ${#broken[@]} -gt 0 ]; then
    echo "failing test binaries: ${broken[*]}"
fi
echo "$passed passed, $failed failed"
[ ${#broken[@]} -eq 0 ] && [ "$failed" -eq 0 ]
