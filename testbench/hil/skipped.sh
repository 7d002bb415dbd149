#!/usr/bin/env bash
# testbench/hil/skipped.sh OUT.xml REASON [SUITE]: the JUnit report of a
# `make hil` (SUITE Hil, the default) or `make cosim` (Cosim) that could not
# run here, one skipped test case saying why.
set -eu
out=$1 reason=$2 suite=${3:-Hil}
case $suite in Hil) case_name=E1000_82545em ;; *) case_name=Nicsim_hw_82599 ;; esac
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"1\" failures=\"0\" errors=\"0\" name=\"${suite,,}\">"
    echo "<testsuite name=\"$suite\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">"
    echo "<testcase name=\"$case_name\" classname=\"$suite\" time=\"0\"><skipped message=\"$reason\"/></testcase>"
    echo '</testsuite>'
    echo '</testsuites>'
} > "$out.tmp" && mv "$out.tmp" "$out"
