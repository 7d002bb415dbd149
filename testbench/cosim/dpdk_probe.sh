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
# It builds a guest initramfs like cosim.sh (busybox, uio +
# uio_pci_generic, 2 MiB hugepages) holding dpdk-testpmd with every shared
# library ldd names (each at its own path, with the dynamic loader) and the
# mempool plugin from DPDK's plugin directory, binds the two 8086:10f7
# functions to uio_pci_generic and runs testpmd on them (IOVA as physical
# addresses, no interrupts, interactive with commands fed through a FIFO
# once the prompt appears), under
#   nicsim qemu testbench/scenarios/cosim-82599-pktgen.ini qemu.cable=true
# with cosim.sh's QEMU arguments except: 1 GiB of RAM (hugepages), 2 vCPUs
# (testpmd wants a forwarding lcore besides the main one) and -cpu max
# (DPDK's x86 build needs SSE4.2, which TCG's default qemu64 lacks).
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
testpmd=$(command -v dpdk-testpmd) || { echo "dpdk_probe: no dpdk-testpmd (apt-get install dpdk-dev)" >&2; exit 2; }
plugdir=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
[ -d "$plugdir" ] || plugdir=$(dirname "$(ldd "$testpmd" | awk '/librte_bus_pci/ {print $3}')")
for f in "$cache/vmlinux" "$cache/modules/uio.ko" "$cache/modules/uio_pci_generic.ko" "$build/nicsim"; do
    [ -e "$f" ] || { echo "dpdk_probe: missing $f (testbench/hil/fetch.sh, make)" >&2; exit 2; }
done
timeout_s=${PROBE_TIMEOUT:-170}
trace=${PROBE_TRACE:-1}
mkdir -p "$out"
# A private copy of nicsim: BUILD_DIR may be rebuilt while the probe runs.
cp "$build/nicsim" "$out/nicsim.bin"

# --- the guest's root --------------------------------------------------
root=$out/rootfs
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp,var/run,lib/modules,probe}
cp /bin/busybox "$root/bin/busybox"
cp "$cache"/modules/uio.ko "$cache"/modules/uio_pci_generic.ko "$root/lib/modules/"
copy() { # copy a host file to the same path in the guest, following links
    mkdir -p "$root$(dirname "$1")"
    cp -L "$1" "$root$1"
}
copy "$testpmd"
# Every library the binary needs, at the path the loader resolved it to,
# and the loader itself (the "/lib64/ld-linux-x86-64.so.2 (0x...)" line).
ldd "$testpmd" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u > "$out/libs.txt"
# The PMDs testpmd does not link but needs: the ring mempool handler (the
# default mbuf pool ops).  bus_pci and net_ixgbe are linked already.
plugins="$plugdir/librte_mempool_ring.so.23"
for p in $plugins; do
    echo "$p"
    ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
done | sort -u >> "$out/libs.txt"
sort -u -o "$out/libs.txt" "$out/libs.txt"
# glibc dlopens libgcc_s for pthread_cancel (testpmd's exit path aborts
# without it); ldd does not name it.
gcc_s=$(ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/ {f = $NF} END {print f}')
[ -n "$gcc_s" ] && echo "$gcc_s" >> "$out/libs.txt"
while read -r lib; do copy "$lib"; done < "$out/libs.txt"
echo "dpdk_probe: $(wc -l < "$out/libs.txt") libraries, $(du -sh "$root" | cut -f1) in the guest's root"

dplugs=""
for p in $plugins; do dplugs="$dplugs -d $p"; done
# The testpmd command line.  EAL: two lcores (main + one forwarding),
# IOVA = PA (no vIOMMU; the proxy DMAs to guest-physical addresses), the
# two functions only, the plugins above, debug logs of the ixgbe PMD
# (init + base code), no telemetry socket.  Application: interactive,
# no link-state / removal interrupts (none reach a TCG guest), io forward,
# small rings and pool.
eal="-l 0-1 -n 1 --iova-mode=pa -a 0000:00:02.0 -a 0000:00:03.0$dplugs --no-telemetry --log-level=pmd.net.ixgbe.*:debug --log-level=lib.eal:${PROBE_EAL_LOG:-info}"
app="-i --no-lsc-interrupt --no-rmv-interrupt --forward-mode=io --nb-cores=1 --rxd=512 --txd=512 --total-num-mbufs=4096 ${TESTPMD_EXTRA:-}"
echo "/usr/bin/dpdk-testpmd $eal -- $app" > "$root/probe/cmdline"

cat > "$root/probe/run.sh" <<'RUN'
#!/bin/sh
# /probe/run.sh in the guest: bind the 82599 functions to uio_pci_generic,
# run testpmd with its stdin a FIFO; once the prompt appears, feed it a few
# commands; print everything on the console.
cd /probe
echo "PROBE: lspci:"; for d in /sys/bus/pci/devices/*; do echo "  ${d##*/} $(cat $d/vendor):$(cat $d/device) $(cat $d/class)"; done
echo "8086 10f7" > /sys/bus/pci/drivers/uio_pci_generic/new_id
sleep 1
for d in 0000:00:02.0 0000:00:03.0; do
    echo "PROBE: $d driver $(readlink /sys/bus/pci/devices/$d/driver 2>/dev/null | sed 's,.*/,,') uio $(ls /sys/bus/pci/devices/$d/uio 2>/dev/null)"
done
grep -i huge /proc/meminfo
cmd=$(cat /probe/cmdline)
echo "PROBE: $cmd"
mkfifo /tmp/in
exec 3<>/tmp/in
$cmd < /tmp/in > /tmp/out 2>&1 &
pmd=$!
tail -f /tmp/out &
tailp=$!
send() { echo "PROBE-SEND: $1" > /dev/console; echo "$1" >&3; }
i=0
while kill -0 $pmd 2>/dev/null && ! grep -q 'testpmd> ' /tmp/out && [ $i -lt 1500 ]; do
    sleep 0.1; i=$((i + 1))
done
if kill -0 $pmd 2>/dev/null && grep -q 'testpmd> ' /tmp/out; then
    echo "PROBE: prompt after $((i / 10)) s"
    send "show port info all"; sleep 3
    send "show port summary all"; sleep 1
    send "start tx_first"; sleep 10
    send "show port stats all"; sleep 3
    send "stop"; sleep 3
    send "quit"
fi
i=0
while kill -0 $pmd 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pmd 2>/dev/null && sleep 2
kill -9 $pmd 2>/dev/null
wait $pmd; rc=$?
sleep 0.5
kill $tailp 2>/dev/null
echo "PROBE-TESTPMD-EXIT: $rc"
exit $rc
RUN

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
# PID 1 of the DPDK probe guest: mounts, uio, 2 MiB hugepages, then
# /probe/run.sh; its status leaves through isa-debug-exit.
/bin/busybox --install -s 2>/dev/null
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
finish() {
    echo "PROBE-EXIT: $1"
    printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
    poweroff -f
}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev || finish 126
mkdir -p /dev/hugepages /dev/shm
mount -t hugetlbfs hugetlbfs /dev/hugepages || finish 126
mount -t tmpfs tmpfs /dev/shm
insmod /lib/modules/uio.ko && insmod /lib/modules/uio_pci_generic.ko || finish 126
echo 128 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
sh /probe/run.sh
finish $?
INIT
chmod +x "$root/init" "$root/probe/run.sh"
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) > "$out/initramfs.cpio"
echo "dpdk_probe: initramfs $(du -h "$out/initramfs.cpio" | cut -f1)"

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
    --json "$out/qemu.json" -- \
    qemu-system-x86_64 -accel tcg -M pc,memory-backend=mem -bios /usr/share/qemu/qboot.rom -cpu max \
    -object memory-backend-memfd,id=mem,size=1G,share=on -m 1G -smp 2 \
    -nodefaults -display none -serial stdio -no-reboot \
    -kernel "$cache/vmlinux" -initrd "$out/initramfs.cpio" -append "console=ttyS0 panic=-1 loglevel=4" \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 < /dev/null > >(stamp > "$log") 2> "$out/trace.log" &
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
echo "dpdk_probe: nicsim qemu exit $qrc after $secs s; testpmd: $(grep -a -o 'PROBE-TESTPMD-EXIT: [0-9]*' "$log" || echo 'no exit status')"
echo "dpdk_probe: unmodelled register accesses: $(jq -r '.unmodelled.total' "$out/qemu.json" 2>/dev/null || echo '?') (list in $out/unmodelled.txt)"
echo "dpdk_probe: log $log"
