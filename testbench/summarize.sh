#!/usr/bin/env bash
# The end of `make test`: one JUnit report of everything it ran, and one
# closing line "total: N passed, N failed" (exit 1 if anything failed).
#   testbench/summarize.sh OUT.xml LABEL=REPORT.xml ...
# Each report's suites go into OUT.xml with their names (and test class
# names) prefixed by LABEL and a dot, so that the normal and the sanitizer
# builds' suites stay apart.
set -u
out=$1
shift
tests=0; failures=0; errors=0
body=$(mktemp)
trap 'rm -f "$body"' EXIT
for arg in "$@"; do
    label=${arg%%=*}; x=${arg#*=}
    head=$(grep -o '<testsuites [^>]*' "$x")
    t=$(echo "$head" | grep -o ' tests="[0-9]*"' | grep -o '[0-9]*')
    f=$(echo "$head" | grep -o 'failures="[0-9]*"' | grep -o '[0-9]*')
    e=$(echo "$head" | grep -o 'errors="[0-9]*"' | grep -o '[0-9]*')
    tests=$((tests + ${t:-0})); failures=$((failures + ${f:-0})); errors=$((errors + ${e:-0}))
    sed -n '/<testsuites /,/<\/testsuites>/p' "$x" | sed '1d;$d' |
        sed -e "s/<testsuite name=\"/<testsuite name=\"$label./" -e "s/classname=\"/classname=\"$label./" >> "$body"
done
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"$tests\" failures=\"$failures\" errors=\"$errors\" name=\"nicsim\">"
    cat "$body"
    echo '</testsuites>'
} > "$out.tmp" && mv "$out.tmp" "$out"
echo "JUnit report of everything: $out"
echo "total: $((tests - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
