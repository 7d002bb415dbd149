#!/usr/bin/env bash
# testbench/cluster/skipped.sh OUT.xml REASON: the JUnit report of a
# `make cluster` that could not run here, each test skipped saying why.
set -euo pipefail
out=$1 reason=$2
reason=$(printf '%s' "$reason" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g')
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<testsuites tests="2" failures="0" errors="0" name="cluster">'
    echo '<testsuite name="Cluster" tests="2" failures="0" errors="0" skipped="2">'
    for name in SlurmJobArray ParallelSsh; do
        echo "<testcase name=\"$name\" classname=\"Cluster\" time=\"0\"><skipped message=\"$reason\"/></testcase>"
    done
    echo '</testsuite>'
    echo '</testsuites>'
} > "$out.tmp" && mv "$out.tmp" "$out"
