#!/usr/bin/env bash
# The bounded fuzz run of `make test`: FUZZER (testbench/fuzz/fuzz_rtl.c built
# by `make fuzz`) runs RUNS inputs with libFuzzer's seed 1, starting from a
# fresh copy of the committed seed corpus, so the run does the same work on
# any machine (a count, not a time: tests must pass on a slow machine).  A
# crash, sanitizer report or hang (an input running over 20 s) fails it; the
# input that did it is kept in WORK and the replay command printed.  Writes
# a JUnit report (suite Fuzz, test BoundedFromSeeds) for testbench/summarize.sh.
#   testbench/fuzz/bounded.sh FUZZER SEEDS WORK RUNS OUT.xml
set -u
if [ $# -ne 5 ]; then
    echo "usage: $0 FUZZER SEEDS_DIR WORK_DIR RUNS OUT.xml" >&2
    exit 2
fi
fuzzer=$(realpath "$1"); seeds=$2; work=$3; runs=$4; out=$5
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/"
nseeds=$(ls "$work/corpus" | wc -l)
echo "fuzz (bounded): $runs inputs from $nseeds seeds (log: $work/log)"
start=$(date +%s)
(cd "$work" && "$fuzzer" -runs="$runs" -seed=1 -max_len=2048 -len_control=0 -timeout=20 \
    -print_final_stats=1 corpus) > "$work/log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1)
cov=$(echo "$done_line" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
ft=$(echo "$done_line" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | grep -o '[0-9]*$')
if [ "$rc" -eq 0 ]; then
    msg="$execs inputs in $secs s, coverage $cov edges / $ft features, no crash or hang"
    failure=""
    echo "fuzz (bounded): $msg"
else
    artifact=$(grep -o "Test unit written to [^ ]*" "$work/log" | tail -1 | sed 's/Test unit written to //')
    msg="the fuzzer stopped (exit $rc) after $secs s; input: $work/$artifact; replay: (cd $work && $fuzzer $artifact)"
    failure="<failure message=\"fuzzer exit $rc\">$(tail -40 "$work/log" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')</failure>"
    echo "fuzz (bounded): FAILED: $msg" >&2
    tail -40 "$work/log" >&2
fi
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"1\" failures=\"$([ "$rc" -eq 0 ] && echo 0 || echo 1)\" errors=\"0\" name=\"fuzz\">"
    echo "<testsuite name=\"Fuzz\" tests=\"1\" failures=\"$([ "$rc" -eq 0 ] && echo 0 || echo 1)\" errors=\"0\" time=\"$secs\">"
    echo "<testcase name=\"BoundedFromSeeds\" classname=\"Fuzz\" time=\"$secs\">$failure<system-out>$(echo "$msg" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g')</system-out></testcase>"
    echo '</testsuite>'
    echo '</testsuites>'
} > "$out.tmp" && mv "$out.tmp" "$out"
exit "$rc"
