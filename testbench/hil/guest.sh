#!/usr/bin/env bash
# guest.sh -- boot a small Linux guest under QEMU (TCG, no KVM) with six
# e1000-82545em NICs on three QEMU hubs, run PAYLOAD_DIR/run.sh inside it, capture
# what NIC 0 transmits to a pcap file, and return run.sh's exit status.
#
# usage: guest.sh --mode uio|vfio --cache CACHE_DIR --work WORK_DIR
#                 --payload PAYLOAD_DIR --pcap OUT.pcap [--timeout SECONDS] [--log FILE]
#
# CACHE_DIR is prepared by fetch.sh. WORK_DIR receives the initramfs (rebuilt on
# every run, < 1 s). PAYLOAD_DIR is copied to /hil in the guest; /hil/run.sh runs
# there with HIL_MODE=uio|vfio, 128 2-MiB hugepages reserved, hugetlbfs at
# /dev/hugepages and the mode's modules loaded (uio: uio, uio_pci_generic;
# vfio: vfio chain, with an emulated Intel IOMMU with interrupt remapping).
#
# Guest PCI addresses (fixed, same in both modes), vendor:device 8086:100f:
#   NIC 0  0000:00:04.0  MAC 52:54:00:00:00:10   hub 0  <- its transmissions go to OUT.pcap
#   NIC 1  0000:00:05.0  MAC 52:54:00:00:00:11   hub 0
#   NIC 2  0000:00:06.0  MAC 52:54:00:00:00:12   hub 1
#   NIC 3  0000:00:07.0  MAC 52:54:00:00:00:13   hub 1
#   NIC 4  0000:00:08.0  MAC 52:54:00:00:00:14   hub 2
#   NIC 5  0000:00:09.0  MAC 52:54:00:00:00:15   hub 2
# NICs on one QEMU hub receive what the others on it transmit (0 -> 1 for
# pktgen and the sink; 2 -> 3 -> router -> 4 -> 5 for the router).  vfio
# mode adds two NICs behind a PCIe-to-PCI bridge (one IOMMU group) on hub 3,
# for the "IOMMU group not viable" check.
#
# Exit status:
#   0..125  run.sh's exit status (a status above 125 is reported as 125)
#   124     QEMU timed out (also what a payload exiting 124 looks like: the
#           message printed at the end tells the two apart)
#   126     infrastructure failure: QEMU failed to start or crashed, the guest
#           panicked, or /init failed before run.sh (see the log)
#   2       bad usage / missing files
set -euo pipefail

die() { echo "guest.sh: error: $*" >&2; exit "${2:-2}"; }
usage() { die "usage: guest.sh --mode uio|vfio --cache DIR --work DIR --payload DIR --pcap FILE [--timeout S] [--log FILE]"; }

mode= cache= work= payload= pcap= timeout_s=120 log=
while (($#)); do
    [[ $# -ge 2 ]] || usage
    case $1 in
        --mode) mode=$2 ;;  --cache) cache=$2 ;;  --work) work=$2 ;;
        --payload) payload=$2 ;;  --pcap) pcap=$2 ;;  --timeout) timeout_s=$2 ;;
        --log) log=$2 ;;  *) usage ;;
    esac
    shift 2
done
[[ $mode == uio || $mode == vfio ]] || usage
[[ -n $cache && -n $work && -n $payload && -n $pcap ]] || usage
[[ $timeout_s =~ ^[0-9]+$ ]] || die "--timeout wants whole seconds"
[[ -f $cache/ready ]] || die "$cache is not ready: run testbench/hil/fetch.sh $cache"
[[ -f $payload/run.sh ]] || die "$payload/run.sh missing"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run fetch.sh"
mkdir -p "$work" "$(dirname "$pcap")"
log=${log:-$work/guest-$mode.log}
mkdir -p "$(dirname "$log")"

NIC0=0000:00:04.0 NIC1=0000:00:05.0

# --- initramfs ---------------------------------------------------------------------
root=$work/rootfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,lib/modules,hil}
cp /bin/busybox "$root/bin/busybox"        # busybox-static: no libraries needed
cp "$cache"/modules/*.ko "$root/lib/modules/"
cp -a "$payload"/. "$root/hil/"
cat > "$root/init" <<'INIT'
#!/bin/busybox sh
# PID 1 of the HIL guest, written by testbench/hil/guest.sh. HIL_MODE comes from
# the kernel command line (unknown name=value arguments become init's environment).
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

# Hand a status to the host through isa-debug-exit (port 0xf4): QEMU then exits
# with (status << 1) | 1. The "HIL-EXIT:" line lets the host tell "guest said 0"
# from QEMU's own exit code 1 on errors.
finish() {
    echo "HIL-EXIT: $1"
    printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
    echo "HIL-ERROR: write to port 0xf4 did not end QEMU"; poweroff -f
}
fail() { echo "HIL-ERROR: $*"; dmesg | tail -n 20; finish 126; }
load() { insmod "/lib/modules/$1.ko" ${2:-} || fail "insmod $1 failed"; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev || fail "cannot mount devtmpfs"  # DEVTMPFS_MOUNT is off
mkdir -p /dev/hugepages
mount -t hugetlbfs hugetlbfs /dev/hugepages || fail "cannot mount hugetlbfs"

case $HIL_MODE in
uio)  load uio; load uio_pci_generic ;;
vfio) load vfio
      # Without interrupt remapping, VFIO_SET_IOMMU refuses the container unless
      # vfio_iommu_type1 allows unsafe interrupts. QEMU's intel-iommu,intremap=on
      # provides remapping, so this fallback should not trigger.
      if dmesg | grep -q "Enabled IRQ remapping"; then
          echo "hil-init: IRQ remapping on, vfio_iommu_type1 without allow_unsafe_interrupts"
          load vfio_iommu_type1
      else
          echo "hil-init: no IRQ remapping, vfio_iommu_type1 allow_unsafe_interrupts=1"
          load vfio_iommu_type1 allow_unsafe_interrupts=1
      fi
      load vfio_virqfd; load irqbypass; load vfio-pci-core; load vfio-pci ;;
*)    fail "HIL_MODE='$HIL_MODE' is neither uio nor vfio" ;;
esac

hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
echo 128 > $hp   # 256 MiB: three nicsim-hw at once, 32 MiB per NIC
[ "$(cat $hp)" -gt 0 ] || fail "no 2 MiB hugepages could be reserved"

echo "hil-init: mode $HIL_MODE, $(cat $hp) hugepages, running /hil/run.sh"
cd /hil
HIL_MODE=$HIL_MODE sh /hil/run.sh
rc=$?
[ $rc -le 125 ] || { echo "hil-init: run.sh exited $rc, reporting 125"; rc=125; }
finish $rc
INIT
chmod +x "$root/init"
# Uncompressed newc (3.5 MB): gzip -1 halves it but boots no faster (measured,
# both ~2.5 s), so skip it. The host has no cpio package; busybox's applet writes newc.
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) > "$work/initramfs.cpio" ||
    die "building the initramfs failed" 126

# --- QEMU ----------------------------------------------------------------------------
append="console=ttyS0 panic=-1 loglevel=4 HIL_MODE=$mode"   # panic=-1 + -no-reboot: a panic ends QEMU
if [[ $mode == uio ]]; then
    machine=(-M pc -bios /usr/share/qemu/qboot.rom)        # qboot: fastest firmware
else
    # vfio needs an IOMMU (CONFIG_VFIO_NOIOMMU is off); q35 hangs with qboot.
    machine=(-M q35 -device intel-iommu,intremap=on)
    append+=" intel_iommu=on"
    # Two more NICs behind a PCIe-to-PCI bridge share one IOMMU group (the
    # bridge's): with one of them on a kernel driver, the group is not
    # viable for vfio, which nicsim-hw must say (guest_run.sh).  Their
    # hub (3) is nobody else's.
    machine+=(-device pcie-pci-bridge,id=pb,addr=0a.0
              -netdev hubport,id=b0,hubid=3 -netdev hubport,id=b1,hubid=3
              -device e1000-82545em,netdev=b0,bus=pb,addr=01.0,romfile=
              -device e1000-82545em,netdev=b1,bus=pb,addr=02.0,romfile=)
fi
# QEMU warns "hub 0 is not connected to host network": intended, the hub only
# joins the two NICs.
# filter-dump queue=rx: a netfilter's "rx" queue holds the packets the netdev
# (hubport n0) receives, i.e. what NIC 0 transmits; "tx" would be what the hub
# delivers to NIC 0 (NIC 1's frames), "all" both. Checked with the kernel e1000
# driver sending from both NICs: rx held exactly NIC 0's frames, tx NIC 1's.
qemu=(qemu-system-x86_64 -accel tcg "${machine[@]}" -m 512 -smp 1
      -nodefaults -display none -serial stdio -no-reboot
      -kernel "$cache/vmlinux" -initrd "$work/initramfs.cpio" -append "$append"
      -device isa-debug-exit,iobase=0xf4,iosize=0x04
      -netdev hubport,id=n0,hubid=0 -netdev hubport,id=n1,hubid=0
      -device e1000-82545em,netdev=n0,mac=52:54:00:00:00:10,romfile=,addr=04.0
      -device e1000-82545em,netdev=n1,mac=52:54:00:00:00:11,romfile=,addr=05.0
      -netdev hubport,id=n2,hubid=1 -netdev hubport,id=n3,hubid=1
      -netdev hubport,id=n4,hubid=2 -netdev hubport,id=n5,hubid=2
      -device e1000-82545em,netdev=n2,mac=52:54:00:00:00:12,romfile=,addr=06.0
      -device e1000-82545em,netdev=n3,mac=52:54:00:00:00:13,romfile=,addr=07.0
      -device e1000-82545em,netdev=n4,mac=52:54:00:00:00:14,romfile=,addr=08.0
      -device e1000-82545em,netdev=n5,mac=52:54:00:00:00:15,romfile=,addr=09.0
      -object filter-dump,id=f0,netdev=n0,queue=rx,file="${pcap//,/,,}")   # QEMU option syntax: "," doubles

echo "guest.sh: mode $mode, kernel $(cat "$cache/ready"), NIC 0 $NIC0, NIC 1 $NIC1, timeout ${timeout_s}s"
echo "guest.sh: ${qemu[*]}" > "$log"
rm -f "$pcap"
start=$(date +%s.%N)
set +e
timeout -k 5 "$timeout_s" "${qemu[@]}" < /dev/null 2>&1 | tee -a "$log"
qrc=${PIPESTATUS[0]}
set -e
secs=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')

# Trust the status only if the guest printed it AND QEMU's code matches it.
said=$(grep -a -o 'HIL-EXIT: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2 || true)
if [[ -n $said ]] && (( qrc == (((said << 1) | 1) & 255) )); then
    echo "guest.sh: payload exited $said after ${secs}s (boot+run), log $log, pcap $pcap"
    exit "$said"
elif (( qrc == 124 || qrc == 137 )); then
    echo "guest.sh: TIMEOUT after ${secs}s (limit ${timeout_s}s), log $log" >&2
    exit 124
fi
echo "guest.sh: QEMU ended with $qrc after ${secs}s but the guest reported no status" \
     "(QEMU error, kernel panic or init failure); see $log" >&2
exit 126
