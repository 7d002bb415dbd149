#!/usr/bin/env bash
# One closing line over several JUnit reports: "total: N passed, N failed".
set -u
tests=0; failures=0
for x in "$@"; do
    t=$(grep -o '<testsuites [^>]*' "$x" | grep -o 'tests="[0-9]*"' | grep -o '[0-9]*')
    f=$(grep -o '<testsuites [^>]*' "$x" | grep -o 'failures="[0-9]*"' | grep -o '[0-9]*')
    tests=$((tests + ${t:-0})); failures=$((failures + ${f:-0}))
done
echo "total: $((tests - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
