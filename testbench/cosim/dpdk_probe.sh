#!/usr/bin/env bash
# DPDK probe (issue 20): how far DPDK's own ixgbe poll-mode driver gets
# against nicsim's 82599 RTL served to an unmodified QEMU by `nicsim qemu`,
# and which registers it touches that the RTL does not implement.  A probe,
# not a test: it passes or fails nothing, it records.
#
#   testbench/cosim/dpdk_probe.sh BUILD_DIR
#
# Needs Debian 12's DPDK 22.11 on the host (`dpdk-testpmd` is in the
# `dpdk-dev` package; the `dpdk` package itself holds only the scripts):
#   apt-get install --no-install-recommends dpdk dpdk-dev
# and the guest kernel and busybox of `make hil` in BUILD_DIR/hil/cache
# (testbench/hil/fetch.sh), plus BUILD_DIR/nicsim.  It does not build
# anything.
#
# The guest is testbench/cosim/dpdk_guest.sh's (the one of `make cosim`'s
# DPDK case): testpmd on the two 8086:10f7 functions, here with the ixgbe
# PMD's debug log, io forward after `start tx_first`, under
#   nicsim qemu testbench/scenarios/cosim-82599-pktgen.ini qemu.cable=true
# so the two ports bounce testpmd's first burst between them.
#
# Everything goes to BUILD_DIR/dpdk-probe: guest.log (the guest's console
# and nicsim qemu's report), trace.log (every BAR access when
# PROBE_TRACE=1, the default), qemu.json, unmodelled.txt (the JSON's list
# in order of first use).  Environment: PROBE_TIMEOUT (s, default 170),
# PROBE_TRACE (1/0), TESTPMD_EXTRA (more testpmd application arguments).
set -euo pipefail
build=${1:?usage: testbench/cosim/dpdk_probe.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$build/dpdk-probe
cache=$build/hil/cache
ini=$top/testbench/scenarios/cosim-82599-pktgen.ini
[ -e "$build/nicsim" ] || { echo "dpdk_probe: missing $build/nicsim (make)" >&2; exit 2; }
timeout_s=${PROBE_TIMEOUT:-170}
trace=${PROBE_TRACE:-1}
mkdir -p "$out"
# A private copy of nicsim: BUILD_DIR may be rebuilt while the probe runs.
cp "$build/nicsim" "$out/nicsim.bin"

# --- the guest ---------------------------------------------------------
# testpmd: interactive (the script below), no link-state / removal
# interrupts (none reach a TCG guest), io forward, small rings and pool;
# the ixgbe PMD's debug log (init and base code).
. "$here/dpdk_guest.sh"
script="sleep 1
send show port info all
sleep 3
send show port summary all
sleep 1
send start tx_first
sleep 10
send show port stats all
sleep 3
send stop
sleep 3
send quit"
DPDK_EAL_LOG=${PROBE_EAL_LOG:-info} DPDK_EAL_EXTRA="--log-level=pmd.net.ixgbe.*:debug" \
    dpdk_guest_initramfs "$out" "$cache" \
    "--no-lsc-interrupt --no-rmv-interrupt --forward-mode=io --nb-cores=1 --rxd=512 --txd=512 --total-num-mbufs=4096 ${TESTPMD_EXTRA:-}" \
    "$script" || exit 2
echo "dpdk_probe: $(wc -l < "$out/libs.txt") libraries, initramfs $(du -h "$out/initramfs.cpio" | cut -f1)"
dpdk_guest_qemu "$out" "$cache"

# --- the run -----------------------------------------------------------
log=$out/guest.log
# Each console line gets the host's wall-clock offset (s) in front, so the
# log shows what the ~20 us register round trips cost.  The time limit
# ends QEMU only (by its pid, a child of nicsim), so that nicsim still
# writes its report and JSON.
stamp() { python3 -u -c '
import sys, time
t0 = time.time()
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(b"[%7.2f] " % (time.time() - t0) + line)
    sys.stdout.buffer.flush()'; }
rm -f "$out/qemu.json"
start=$(date +%s.%N)
"$out/nicsim.bin" qemu "$ini" qemu.cable=true qemu.trace="$([ "$trace" = 1 ] && echo true || echo false)" \
    --json "$out/qemu.json" -- "${DPDK_QEMU[@]}" < /dev/null > >(stamp > "$log") 2> "$out/trace.log" &
nsim=$!
( sleep "$timeout_s"
  q=$(pgrep -P "$nsim" -x qemu-system-x86 || true)
  if [ -n "$q" ]; then echo "dpdk_probe: ${timeout_s} s: ending QEMU ($q)" >&2; kill -TERM "$q"; fi
  sleep 20; kill -0 "$nsim" 2>/dev/null && kill -KILL "$nsim" ) &
dog=$!
set +e
wait "$nsim"
qrc=$?
set -e
kill "$dog" 2>/dev/null || true
sleep 1
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# nicsim's report lines (not the per-access trace) belong with the console
grep -a -v '^nicsim qemu: .* us  fn' "$out/trace.log" >> "$log" || true
jq -r '.unmodelled.accesses[] | [.function, .access, .offset, .register, .count] | @tsv' "$out/qemu.json" 2>/dev/null |
    awk -F'\t' '{ printf "fn%s %-5s %#07x %-12s %s\n", $1, $2, $3, $4, $5 }' > "$out/unmodelled.txt" || true
echo "dpdk_probe: nicsim qemu exit $qrc after $secs s; testpmd: $(grep -a -o 'DPDK-TESTPMD-EXIT: [0-9]*' "$log" || echo 'no exit status')"
echo "dpdk_probe: unmodelled register accesses: $(jq -r '.unmodelled.total' "$out/qemu.json" 2>/dev/null || echo '?') (list in $out/unmodelled.txt)"
echo "dpdk_probe: log $log"
