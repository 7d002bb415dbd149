# Sourced by testbench/cosim/cosim.sh: the DPDK case of `make cosim`
# (issue 20), DPDK's own ixgbe poll-mode driver against the 82599 RTL.
#
#   testpmd_case BUILD_DIR MODEL [NICSIM]
#
# MODEL: 82599 (DPDK's ixgbe PMD) or 82546 (its em PMD).  NICSIM: the
# nicsim binary serving the card (default BUILD_DIR/nicsim; make
# cosim-plant passes one built with a planted RTL defect).  Sets
# testpmd_fail to the failure (empty when the case passed).
#
# Case Testpmd_MODEL: a TCG guest runs Debian's dpdk-testpmd 22.11 (io
# forward, one queue per port, 4096-descriptor rings) on both functions
# `nicsim qemu` serves; each port's link partner sends
# testbench/scenarios/cosim-MODEL-testpmd.ini's frames (64..1518 bytes, 16
# flows) once testpmd has enabled receive on it.  It passes when
#   - port 1's capture equals, frame for frame and byte for byte, what
#     port 0's partner sent, and port 0's what port 1's partner sent
#     (build/pcap-compare names the first frame and byte that differ);
#   - testpmd's port statistics, which DPDK reads from the RTL's counters,
#     agree: on each port RX-packets = what its partner sent, TX-packets =
#     what the other partner sent, RX-bytes and TX-bytes = those frames'
#     bytes, without FCS on the 82599 (the ixgbe PMD takes it off: QBRC
#     counts after the strip, GOTC less 4 a frame), with it on the 82546
#     (the em PMD reports GORC and GOTC, which count through the FCS);
#   - testpmd and the guest exited 0.
# Register accesses the RTL does not implement are listed in the case's
# output (nicsim qemu's report), not failed on: DPDK programs much that the
# model does not have (docs/qemu.md).  dpdk-testpmd comes from Debian's
# dpdk-dev, installed here when missing (as root, without recommends); the
# case passes with a "skipped" message where it cannot be installed.
testpmd_case() {
    local build=$1 model=$2 nicsim=${3:-$1/nicsim} here top out name=Testpmd_$2 fcs cache ini log secs start qrc said tp cmp0 cmp1 fail summary n0 n1 b0 b1
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    top=$(cd "$here/../.." && pwd)
    # shellcheck source=dpdk_guest.sh
    . "$here/dpdk_guest.sh"
    out=$build/cosim/testpmd-$model
    cache=$build/hil/cache
    ini=$top/testbench/scenarios/cosim-$model-testpmd.ini
    fcs=$([ "$model" = 82546 ] && echo 0 || echo 4)   # bytes a frame the statistics leave out
    rm -rf "$out"
    mkdir -p "$out"
    if ! dpdk_guest_testpmd > /dev/null && [ "$(id -u)" = 0 ] &&
        apt-cache policy dpdk-dev 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        printf 'cosim: installing dpdk-dev (apt output: %s) ... ' "$out/apt.log"
        if DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends dpdk-dev > "$out/apt.log" 2>&1; then
            echo done
        else
            echo FAILED
        fi
    fi
    if ! dpdk_guest_testpmd > /dev/null; then
        echo "cosim: $name skipped: dpdk-testpmd is neither installed nor installable (Debian 12: dpdk-dev)"
        junit_record $name 0 "" "skipped: dpdk-testpmd is neither installed nor installable"
        return 0
    fi
    # testpmd: interactive (commands from the script), io forward, 4096
    # descriptors a ring (every frame fits while the guest catches up),
    # no link-state or removal interrupts (none reach a TCG guest)
    # the partners start once the ports are up (qemu.partner_start =
    # guest): a driver's port start resets its statistics, and frames
    # counted before that would be missing from them.  Before forwarding
    # starts, while no vCPU touches the card: QEMU 7.2's proxy deadlocks
    # when one vCPU writes a function's config space while another
    # accesses its BAR (seen once with the 82599: both vCPUs and the main
    # loop waiting on each other's locks).  The RX rings hold the frames
    # until testpmd forwards (--no-flush-rx).
    # (3,000 frames take testpmd well under a second of the guest's time
    # to forward; the sleeps give its output time to reach the console)
    local script="sleep 1
partners
sleep 1
send start
sleep 4
send show port stats all
sleep 2
send stop
sleep 2
send quit"
    if ! dpdk_guest_initramfs "$out" "$cache" \
        "--no-lsc-interrupt --no-rmv-interrupt --no-flush-rx --forward-mode=io --nb-cores=1 --rxd=4096 --txd=4096 --total-num-mbufs=20480" \
        "$script" > "$out/initramfs.log" 2>&1; then
        junit_record $name 0 "building the DPDK guest failed: $(tail -1 "$out/initramfs.log")" ""
        return 0
    fi
    dpdk_guest_qemu "$out" "$cache"
    log=$out/guest.log
    start=$(date +%s.%N)
    timeout -k 5 400 "$nicsim" qemu "$ini" capture.pcap="$out/port{port}.pcap" \
        qemu.partner_pcap="$out/partner{port}.pcap" --json "$out/qemu.json" -- "${DPDK_QEMU[@]}" \
        < /dev/null > "$log" 2>&1
    qrc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    said=$(grep -a -o 'DPDK-GUEST-EXIT: [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$')
    tp=$(grep -a -o 'DPDK-TESTPMD-EXIT: [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$')
    # what crossed: port 1 forwards what port 0's partner sent, and back
    cmp1=$("$build/pcap-compare" "$out/partner0.pcap" "$out/port1.pcap" 2>&1)
    local c1=$?
    cmp0=$("$build/pcap-compare" "$out/partner1.pcap" "$out/port0.pcap" 2>&1)
    local c0=$?
    n0=$(jq -r '.partners[] | select(.port == 0) | .frames' "$out/qemu.json" 2>/dev/null)
    n1=$(jq -r '.partners[] | select(.port == 1) | .frames' "$out/qemu.json" 2>/dev/null)
    # the partners' bytes as DPDK's statistics count them
    b0=$(jq -r ".partners[] | select(.port == 0) | .bytes - $fcs * .frames" "$out/qemu.json" 2>/dev/null)
    b1=$(jq -r ".partners[] | select(.port == 1) | .bytes - $fcs * .frames" "$out/qemu.json" 2>/dev/null)
    # testpmd's "show port stats all": per port, RX-packets, RX-bytes,
    # TX-packets, TX-bytes
    local stats want
    stats=$(awk '/NIC statistics for port/ { p = $(NF - 1); next }
                 /^ *#+ *$/ || /Forward statistics|Accumulated/ { p = "" }
                 /RX-packets:/ && p != "" { rx[p] = $2; rxb[p] = $NF }
                 /TX-packets:/ && p != "" { tx[p] = $2; txb[p] = $NF }
                 END { for (q = 0; q < 2; q++) printf "port%d rx %s/%s tx %s/%s; ", q, rx[q], rxb[q], tx[q], txb[q] }' \
            < <(tr -d '\r' < "$log"))
    want="port0 rx $n0/$b0 tx $n1/$b1; port1 rx $n1/$b1 tx $n0/$b0; "
    fail=
    if [ -z "$said" ] || [ "$qrc" -ne $(((said << 1 | 1) & 255)) ]; then
        fail="the guest reported no status (nicsim qemu exit $qrc; log $log)"
    elif [ "$said" -ne 0 ]; then
        fail="the guest's run failed (status $said, testpmd ${tp:-?}; log $log)"
    elif [ -z "$n0" ] || [ "$n0" = 0 ] || [ -z "$n1" ] || [ "$n1" = 0 ]; then
        fail="a partner sent nothing (${n0:-?} and ${n1:-?} frames; log $log)"
    elif [ $c1 -ne 0 ]; then
        fail="port 1 did not send what port 0's partner sent: $(echo "$cmp1" | head -1)"
    elif [ $c0 -ne 0 ]; then
        fail="port 0 did not send what port 1's partner sent: $(echo "$cmp0" | head -1)"
    elif [ "$stats" != "$want" ]; then
        fail="testpmd's port statistics are '$stats', the partners and captures say '$want'"
    fi
    summary="guest status ${said:-?}, testpmd ${tp:-?}, ${secs} s; partners sent ${n0:-?} + ${n1:-?} frames; port 1 vs partner 0: $(echo "$cmp1" | head -1); port 0 vs partner 1: $(echo "$cmp0" | head -1); testpmd's statistics: $stats"
    testpmd_fail=$fail
    junit_case cosim "$name" "$secs" "$fail" "$name: $summary" \
        "$(grep -a -A200 '^nicsim qemu: ' "$log" | head -200)" ||
        grep -a -E 'DPDK-|EAL: Error|ixgbe.*[Ff]ail|nicsim qemu' "$log" | tail -20 >&2
}
