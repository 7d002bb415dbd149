#!/usr/bin/env bash
# make cluster: a sweep on a one-node Slurm cluster and over GNU parallel
# across ssh hosts, each with daemons started and stopped by the test
# itself (testbench/cluster/slurm.sh, parallel_ssh.sh; docs/sweep.md).
#
#   testbench/cluster/run.sh BUILD [slurm] [parallel_ssh]     (default: both)
#
# Each test's output goes to the terminal and to BUILD/cluster/NAME.log
# (its daemons' logs and its work files in BUILD/cluster/NAME/); a test
# still running after CLUSTER_TIMEOUT seconds (default 600) is stopped with
# SIGTERM, which its trap turns into stopping its daemons.  Writes
# BUILD/cluster-results.xml (JUnit, suite Cluster) and exits 0 when every
# test passed.
set -euo pipefail
build=${1:?usage: run.sh BUILD [slurm] [parallel_ssh]}
shift
here=$(cd "$(dirname "$0")" && pwd)
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(slurm parallel_ssh)
timeout_s=${CLUSTER_TIMEOUT:-600}
mkdir -p "$build/cluster"
out=$build/cluster-results.xml
rm -f "$out"

# shellcheck source=../tools/junit.sh
. "$here/../tools/junit.sh"
case_name() {
    case $1 in
        slurm) echo SlurmJobArray ;;
        parallel_ssh) echo ParallelSsh ;;
        *) echo "$1" ;;
    esac
}

failed=0
for t in "${tests[@]}"; do
    [ -x "$here/$t.sh" ] || { echo "cluster: no test $here/$t.sh" >&2; exit 2; }
    log=$build/cluster/$t.log
    echo "cluster: $t ..."
    start=$(date +%s.%N)
    # -k: a test whose cleanup itself hangs is killed 60 s later
    {
        rc=0
        timeout -k 60 "$timeout_s" "$here/$t.sh" "$build" 2>&1 || rc=$?
        echo "$rc" > "$build/cluster/$t.status"
    } | tee "$log"
    rc=$(cat "$build/cluster/$t.status")
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    fail=
    if [ "$rc" -ne 0 ]; then
        fail=$(grep '^FAIL: ' "$log" | head -1 || true)
        [ "$rc" -ne 124 ] || fail="still running after $timeout_s s (stopped). ${fail}"
        [ -n "$fail" ] || fail="exit status $rc (see $log)"
        failed=$((failed + 1))
    fi
    junit_record "$(case_name "$t")" "$secs" "$fail" "$(cat "$log")"
    if [ -z "$fail" ]; then
        echo "cluster: PASS $(case_name "$t") ($secs s)"
    else
        echo "cluster: FAIL $(case_name "$t") ($secs s): $fail" >&2
    fi
done

junit_write "$out" Cluster
echo "cluster: $(( ${#junit_cases[@]} - failed )) of ${#junit_cases[@]} passed; JUnit report $out"
[ "$failed" -eq 0 ]
