#!/usr/bin/env bash
# make cosim: nicsim's RTL as a PCI device of an unmodified QEMU (`nicsim
# qemu`, sim/qemu/), driven by a driver running in the guest.
#
#   testbench/cosim/cosim.sh BUILD_DIR
#
# Case Nicsim_hw_82599: a TCG guest (the kernel and busybox of `make hil`,
# testbench/hil/fetch.sh) runs nicsim-hw's pktgen on the 82599's port 0
# and its sink on port 1, both polling; `nicsim qemu` serves the two
# functions with a cable between the ports.  It passes when port 0's
# capture holds exactly the frames `nicsim run` writes for the same
# scenario (count, bytes, order), every one crossed the cable, the sink
# counted them all, both runs exited 0 and the driver touched no register
# the RTL does not implement.  Before the guest boots, the
# comparison is shown to fail on a capture with one byte changed (the
# negative control).
#
# Cases Testpmd_82599 and Testpmd_82546 (testpmd_case.sh): DPDK's testpmd
# with its own ixgbe and em PMDs forwards between the card's two ports,
# each fed by a link partner.
#
# Writes BUILD_DIR/cosim-results.xml (JUnit) and keeps everything else in
# BUILD_DIR/cosim.  Exit 0 when every case passed.
set -uo pipefail
build=${1:?usage: cosim.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cos=$build/cosim
mkdir -p "$cos"
pktgen_ini=$top/testbench/scenarios/cosim-82599-pktgen.ini
sink_ini=$top/testbench/scenarios/cosim-82599-sink.ini
# shellcheck source=../tools/junit.sh
. "$top/testbench/tools/junit.sh"
results=$build/cosim-results.xml
give_up() { echo "cosim: $1" >&2; junit_record Setup 0 "$1" ""; junit_write "$results" Cosim; exit 1; }
rm -f "$results"

cache=$build/hil/cache   # shared with make hil: one kernel download
"$top/testbench/hil/fetch.sh" "$cache" || give_up "fetching QEMU, busybox and the kernel failed"

# The simulator's capture of the same scenario, and the negative control.
sim_pcap=$cos/sim.pcap
expected_capture cosim "$build" "$pktgen_ini" "$sim_pcap" ||
    give_up "the simulator run failed (see $sim_pcap.txt)"

# The guest: busybox, uio_pci_generic, nicsim-hw and the payload.
# shellcheck source=dpdk_guest.sh
. "$here/dpdk_guest.sh"
root=$cos/rootfs
guest_root "$root" "$cache"
mkdir -p "$root/cosim"
cp "$build/nicsim-hw" "$pktgen_ini" "$sink_ini" "$root/cosim/"
cp "$here/guest_run.sh" "$root/cosim/run.sh"
guest_init "$root" COSIM-EXIT 64 /cosim/run.sh
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) > "$cos/initramfs.cpio" ||
    give_up "building the initramfs failed"

# nicsim qemu serves the card; QEMU's serial console and nicsim's report
# both go to the log.
log=$cos/guest.log qpcap=$cos/qemu_{port}.pcap
start=$(date +%s.%N)
timeout -k 5 300 "$build/nicsim" qemu "$pktgen_ini" qemu.cable=true capture.pcap="$qpcap" --json "$cos/qemu.json" -- \
    qemu-system-x86_64 -accel tcg -M pc,memory-backend=mem -bios /usr/share/qemu/qboot.rom \
    -object memory-backend-memfd,id=mem,size=512M,share=on -m 512 -smp 1 \
    -nodefaults -display none -serial stdio -no-reboot \
    -kernel "$cache/vmlinux" -initrd "$cos/initramfs.cpio" -append "console=ttyS0 panic=-1 loglevel=4" \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 < /dev/null > "$log" 2>&1
qrc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
said=$(grep -a -o 'COSIM-EXIT: [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$')
sink=$(grep -a -o 'COSIM-SINK-FRAMES: [0-9]*' "$log" | grep -o '[0-9]*$')
cabled=$(jq -r '.functions[0].cabled' "$cos/qemu.json" 2>/dev/null)
unmodelled=$(jq -r '.unmodelled.total' "$cos/qemu.json" 2>/dev/null)
cmp=$("$build/pcap-compare" "$sim_pcap" "$cos/qemu_0.pcap" 2>&1)
crc=$?
fail=
if [ -z "$said" ] || [ "$qrc" -ne $(((said << 1 | 1) & 255)) ]; then
    fail="the guest reported no status (nicsim qemu exit $qrc; log $log)"
elif [ "$said" -ne 0 ]; then
    fail="the guest's run failed (status $said; log $log)"
elif [ $crc -ne 0 ]; then
    fail="port 0's capture differs from the simulator's: $(echo "$cmp" | head -1)"
elif [ "${cabled:-}" != "$frames" ]; then
    fail="${cabled:-no} frames crossed the cable, pktgen sent $frames"
elif [ "${sink:-}" != "$frames" ]; then
    fail="the sink counted ${sink:-no} frames, pktgen sent $frames"
elif [ "${unmodelled:-}" != 0 ]; then
    # nicsim's own driver core touches only what the RTL implements
    fail="nicsim-hw made ${unmodelled:-?} accesses to registers the RTL does not implement (see $log)"
fi
summary="guest status ${said:-?}, ${secs} s; capture vs simulator: $(echo "$cmp" | head -1); cabled ${cabled:-?}; sink: ${sink:-?} frames; unmodelled register accesses: ${unmodelled:-?}"
rc=0
if ! junit_case cosim Nicsim_hw_82599 "$secs" "$fail" "$summary" "$cmp"; then
    grep -a -E 'nicsim-hw: |COSIM-|sink on|pktgen on|nicsim qemu' "$log" | tail -30 >&2
    rc=1
fi
# DPDK's own PMDs (testpmd_case.sh): ixgbe on the 82599, em on the 82546
. "$here/testpmd_case.sh"
testpmd_case "$build" 82599
testpmd_case "$build" 82546
junit_write "$results" Cosim
junit_failed && rc=1
exit $rc
