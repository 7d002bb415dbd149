#!/usr/bin/env bash
# make hil: the driver core's Linux user-space backend (nicsim-hw) against a
# device model nobody on this project wrote, QEMU's e1000-82545em.
#
#   testbench/hil/hil.sh BUILD_DIR [uio] [vfio]      (default: both modes)
#
# For each mode a Linux guest (testbench/hil/guest.sh) runs the sink on NIC 1
# and pktgen on NIC 0, then pktgen, the router and a sink on NICs 2..5
# (testbench/hil/guest_run.sh).  It passes when QEMU's capture of NIC 0's
# transmissions holds exactly the frames the simulator writes for the same
# scenario (count, bytes, order) and both sinks counted them all.  Before the guests boot, the comparison is shown to fail on a
# capture with one byte changed (the negative control).
#
# HIL_FLIP=FRAME:BYTE changes that byte of the simulated capture on purpose
# (the run must then fail).  Writes BUILD_DIR/hil-results.xml (JUnit) and
# keeps everything else in BUILD_DIR/hil.  Exit 0 when every mode passed.
set -uo pipefail
build=${1:?usage: hil.sh BUILD_DIR [uio] [vfio]}
shift
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(uio vfio)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
hil=$build/hil
mkdir -p "$hil"
pktgen_ini=$top/testbench/scenarios/hil-e1000-pktgen.ini
sink_ini=$top/testbench/scenarios/hil-e1000-sink.ini
# shellcheck source=../tools/junit.sh
. "$top/testbench/tools/junit.sh"
record() { junit_record "$@"; }
write_junit() { junit_write "$build/hil-results.xml" Hil; }

# A failure before the guests run: one failed case in the report, exit 1.
give_up() { echo "hil: $1" >&2; record Setup 0 "$1" ""; write_junit; exit 1; }
rm -f "$build/hil-results.xml"

"$here/fetch.sh" "$hil/cache" || give_up "fetching QEMU, busybox and the kernel failed"

# The simulator's capture of the same scenario, and the negative control.
sim_pcap=$hil/sim.pcap
expected_capture hil "$build" "$pktgen_ini" "$sim_pcap" ||
    give_up "the simulator run failed (see $sim_pcap.txt)"
if [ -n "${HIL_FLIP:-}" ]; then
    # the simulated frame changed on purpose: every mode below must fail
    flip=(--flip "$HIL_FLIP")
    echo "hil: HIL_FLIP=$HIL_FLIP: comparing against the simulated capture with that byte changed"
else
    flip=()
fi

payload=$hil/payload
rm -rf "$payload"
mkdir -p "$payload"
cp "$build/nicsim-hw" "$pktgen_ini" "$sink_ini" "$top/testbench/scenarios/hil-e1000-router.ini" "$payload/"
cp "$here/guest_run.sh" "$payload/run.sh"

rc=0
for mode in "${modes[@]}"; do
    log=$hil/guest-$mode.log qpcap=$hil/qemu-$mode.pcap
    start=$(date +%s.%N)
    "$here/guest.sh" --mode "$mode" --cache "$hil/cache" --work "$hil/work-$mode" --payload "$payload" \
        --pcap "$qpcap" --log "$log" --timeout 120 > "$hil/guest-$mode.out" 2>&1
    grc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    sink=$(grep -a -o 'HIL-SINK-FRAMES: [0-9]*' "$log" | grep -o '[0-9]*$')
    routed=$(grep -a -o 'HIL-ROUTED-FRAMES: [0-9]*' "$log" | grep -o '[0-9]*$')
    cmp=$("$build/pcap-compare" "${flip[@]}" "$sim_pcap" "$qpcap" 2>&1)
    crc=$?
    fail=
    if [ $grc -ne 0 ]; then
        fail="the guest run failed (guest.sh exit $grc; log $log)"
    elif [ $crc -ne 0 ]; then
        fail="QEMU's capture differs from the simulator's: $(echo "$cmp" | head -1)"
    elif [ "${sink:-}" != "$frames" ]; then
        fail="the sink counted ${sink:-no} frames, pktgen sent $frames"
    elif [ "${routed:-}" != "$frames" ]; then
        fail="the sink behind the router counted ${routed:-no} frames, pktgen sent $frames"
    fi
    summary="mode $mode: guest exit $grc, ${secs} s; capture vs simulator: $(echo "$cmp" | head -1); sink: ${sink:-?} frames; through the router: ${routed:-?} frames"
    if ! junit_case hil "E1000_82545em_$mode" "$secs" "$fail" "$summary" "$cmp"; then
        echo "$cmp" >&2
        # the guest's own failure: what nicsim-hw and the checks said
        [ $grc -eq 0 ] || grep -a -E 'nicsim-hw: |HIL-|FAILED|sink on|pktgen on' "$log" | tail -30 >&2
        rc=1
    fi
done
write_junit
junit_failed && rc=1
exit $rc
