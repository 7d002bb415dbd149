#!/usr/bin/env bash
# testbench/hil/skipped.sh OUT.xml REASON: the JUnit report of a `make hil`
# that could not run here, one skipped test case saying why.
set -eu
out=$1 reason=$2
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<testsuites tests="1" failures="0" errors="0" name="hil">'
    echo '<testsuite name="Hil" tests="1" failures="0" errors="0" skipped="1">'
    echo "<testcase name=\"E1000_82545em\" classname=\"Hil\" time=\"0\"><skipped message=\"$reason\"/></testcase>"
    echo '</testsuite>'
    echo '</testsuites>'
} > "$out.tmp" && mv "$out.tmp" "$out"
