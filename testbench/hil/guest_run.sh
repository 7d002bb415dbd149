#!/bin/sh
# The payload of `make hil` (/hil/run.sh in the guest, busybox sh): the sink
# on NIC 1, then pktgen on NIC 0, both nicsim-hw in mode $HIL_MODE; the
# router between NICs 3 and 4 fed by pktgen on NIC 2, with a sink on NIC 5;
# then nicsim-hw's refusals (no hugepages, device not found, wrong ID, device in
# use by the kernel's e1000 with its interface up, and in vfio mode a DMA
# fault and an IOMMU group that is not viable).  Exits 0 only when both
# runs and every refusal check passed.  The host compares NIC 0's capture
# with the simulator's and reads the sink's count from this output.  NIC 0
# transmits nothing but pktgen's frames: the refusal checks use NIC 1.
NIC0=0000:00:04.0
NIC1=0000:00:05.0
NIC2=0000:00:06.0
NIC3=0000:00:07.0
NIC4=0000:00:08.0
NIC5=0000:00:09.0
cd /hil

# wait_until_up N FILE... -- PID...: until the FILEs (the receivers' stderr)
# hold N "... up" lines, one of the PIDs has ended, or 20 s passed; then
# 1.5 s more: QEMU's e1000 holds received frames back for about a second
# after an RCTL write
wait_until_up() {
    n=$1
    shift
    files=
    while [ "$1" != -- ]; do files="$files $1"; shift; done
    shift
    i=0
    while [ "$(cat $files 2>/dev/null | grep -c ' up$')" -lt "$n" ] && [ $i -lt 200 ]; do
        for pid in "$@"; do kill -0 "$pid" 2>/dev/null || break 2; done
        sleep 0.1
        i=$((i + 1))
    done
    sleep 1.5
}
# frames_of FILE: the frame count of a sink's report
frames_of() {
    grep -o 'sink on eth0: [0-9]* frames' "$1" | grep -o '[0-9]* frames' | grep -o '[0-9]*'
}

./nicsim-hw hil-e1000-sink.ini --pci $NIC1 --mode "$HIL_MODE" --idle-timeout 30 > sink.out 2> sink.err &
sink=$!
wait_until_up 1 sink.err -- $sink
./nicsim-hw hil-e1000-pktgen.ini --pci $NIC0 --mode "$HIL_MODE"
prc=$?
wait $sink
src=$?
echo "--- sink (exit $src)"
cat sink.err sink.out
echo "HIL-PKTGEN-EXIT: $prc"
echo "HIL-SINK-EXIT: $src"
echo "HIL-SINK-FRAMES: $(frames_of sink.out)"

# The router: pktgen on NIC 2 -> NIC 3 (router in) -> router -> NIC 4
# (router out) -> NIC 5 (sink).  Three nicsim-hw at once; the router
# polls (--poll), the others wait for interrupts.
./nicsim-hw hil-e1000-sink.ini --pci $NIC5 --mode "$HIL_MODE" --idle-timeout 30 > sink2.out 2> sink2.err &
sink2=$!
./nicsim-hw hil-e1000-router.ini --pci $NIC3,$NIC4 --mode "$HIL_MODE" --poll --idle-timeout 30 > router.out 2> router.err &
router=$!
wait_until_up 3 sink2.err router.err -- $sink2 $router
./nicsim-hw hil-e1000-pktgen.ini --pci $NIC2 --mode "$HIL_MODE" > pktgen2.out
p2rc=$?
wait $router
rrc=$?
wait $sink2
s2rc=$?
echo "--- router (exit $rrc)"
cat router.err router.out
echo "--- sink behind the router (exit $s2rc)"
cat sink2.err sink2.out
echo "HIL-ROUTER-EXIT: $rrc (pktgen $p2rc, sink $s2rc)"
echo "HIL-ROUTED-FRAMES: $(frames_of sink2.out)"
[ $p2rc -eq 0 ] && [ $rrc -eq 0 ] && [ $s2rc -eq 0 ] || prc=1

# expect_refusal NAME STATUS TEXT CMD...: nicsim-hw must exit STATUS and say TEXT
bad=0
expect_refusal() {
    name=$1 want=$2 text=$3
    shift 3
    "$@" > refusal.out 2>&1
    got=$?
    if [ $got -eq "$want" ] && grep -q "$text" refusal.out; then
        echo "HIL-REFUSAL ok: $name: exit $got: $(grep nicsim-hw: refusal.out | tail -1)"
    else
        echo "HIL-REFUSAL FAILED: $name: exit $got (want $want, '$text'):"
        cat refusal.out
        bad=1
    fi
}
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
n=$(cat $hp)
echo 0 > $hp
expect_refusal no-hugepages 3 "hugepages" ./nicsim-hw hil-e1000-sink.ini --pci $NIC1 --mode "$HIL_MODE"
echo "$n" > $hp
expect_refusal not-found 3 "no such PCI device" ./nicsim-hw hil-e1000-sink.ini --pci 0000:7f:00.0
expect_refusal wrong-id 3 "is not an 8254x" ./nicsim-hw hil-e1000-sink.ini --pci 0000:00:00.0
expect_refusal bad-spec 2 "expected a PCI address" ./nicsim-hw hil-e1000-sink.ini --pci 8086:zz
if [ "$HIL_MODE" = vfio ]; then
    # DMA to addresses the IOMMU does not map: reported as a DMA fault
    expect_refusal dma-fault 1 "DMA fault: the IOMMU refused" \
        ./nicsim-hw hil-e1000-pktgen.ini --pci $NIC1 --mode vfio --test-dma-fault pktgen.count=16
fi
# NIC 1 to the kernel's e1000 driver, its interface up: nicsim-hw must refuse it
insmod /lib/modules/e1000.ko 2>/dev/null
echo e1000 > /sys/bus/pci/devices/$NIC1/driver_override
echo $NIC1 > /sys/bus/pci/devices/$NIC1/driver/unbind
echo $NIC1 > /sys/bus/pci/drivers_probe
ifname=$(ls /sys/bus/pci/devices/$NIC1/net 2>/dev/null)
if [ -n "$ifname" ] && ip link set "$ifname" up; then
    expect_refusal in-use 3 "in use: the kernel driver e1000 has interface $ifname up" \
        ./nicsim-hw hil-e1000-sink.ini --pci $NIC1 --mode "$HIL_MODE"
else
    echo "HIL-REFUSAL FAILED: in-use: the kernel's e1000 did not take $NIC1"
    bad=1
fi
# vfio: the two NICs behind the PCIe-to-PCI bridge share an IOMMU group;
# e1000 took both when it was loaded, so taking one leaves the group not
# viable (the other still on e1000)
if [ "$HIL_MODE" = vfio ]; then
    br=$(for d in /sys/bus/pci/devices/0000:0[1-9]:*; do
             [ "$(cat $d/device)" = 0x100f ] && echo ${d##*/}
         done | head -1)
    if [ -n "$br" ]; then
        expect_refusal group-not-viable 3 "IOMMU group [0-9]* is not viable" \
            ./nicsim-hw hil-e1000-sink.ini --pci "$br" --mode vfio
        # refused before it touched anything: the NIC is still on e1000
        drv=$(readlink /sys/bus/pci/devices/$br/driver)
        if [ "${drv##*/}" != e1000 ]; then
            echo "HIL-REFUSAL FAILED: group-not-viable: $br left on '${drv##*/}', not e1000"
            bad=1
        fi
    else
        echo "HIL-REFUSAL FAILED: group-not-viable: no NIC behind the bridge"
        bad=1
    fi
fi
# a NIC left asserting a shared interrupt line with no handler on it
if dmesg | grep -q "nobody cared"; then
    echo "HIL-REFUSAL FAILED: an interrupt line was left asserted:"
    dmesg | grep -B2 -A6 "nobody cared"
    bad=1
fi
[ $prc -eq 0 ] && [ $src -eq 0 ] && [ $bad -eq 0 ]
