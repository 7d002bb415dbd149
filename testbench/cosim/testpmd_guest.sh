#!/bin/sh
# /dpdk/run.sh in the DPDK guest (testbench/cosim/dpdk_guest.sh), busybox
# sh: bind the NIC functions to uio_pci_generic, start testpmd
# (/dpdk/cmdline) with its stdin a FIFO and, once its prompt appears, run
# /dpdk/script, one command a line:
#   send TEXT      type TEXT to testpmd
#   sleep S        wait S seconds
#   partners       start nicsim qemu's link partners (qemu.partner_start =
#                  guest: a write to config byte 0xF0 of the card)
# then wait (at most 30 s) for testpmd to end and print what it printed.
# The host reads that and the DPDK-* lines.  Exit status:
# testpmd's, or 125 when no prompt appeared within 150 s.
cd /dpdk
for id in "8086 10f7" "8086 1010"; do echo "$id" > /sys/bus/pci/drivers/uio_pci_generic/new_id; done
sleep 1
card=
for d in /sys/bus/pci/devices/*; do
    case $(cat "$d/device") in 0x10f7|0x1010) [ -z "$card" ] && card=$d ;; esac
    [ "$(cat "$d/vendor")" = 0x8086 ] &&
        echo "DPDK-FUNCTION: ${d##*/} $(cat "$d/device") driver $(readlink "$d/driver" 2>/dev/null | sed 's,.*/,,')"
done
cmd=$(cat /dpdk/cmdline)
echo "DPDK-CMDLINE: $cmd"
mkfifo /tmp/in
exec 3<>/tmp/in
$cmd < /tmp/in > /tmp/out 2>&1 &
pmd=$!
i=0
while kill -0 $pmd 2>/dev/null && ! grep -q 'testpmd> ' /tmp/out && [ $i -lt 1500 ]; do
    sleep 0.1; i=$((i + 1))
done
if ! grep -q 'testpmd> ' /tmp/out; then
    echo "DPDK-NO-PROMPT: after $((i / 10)) s"
    kill -9 $pmd 2>/dev/null
    cat /tmp/out
    exit 125
fi
echo "DPDK-PROMPT: after $((i / 10)) s"
while read -r verb rest; do
    case $verb in
        send) echo "DPDK-SEND: $rest" > /dev/console; echo "$rest" >&3 ;;
        sleep) sleep "$rest" ;;
        partners)
            echo "DPDK-PARTNERS: start" > /dev/console
            printf '\001' | dd of="$card/config" bs=1 seek=240 conv=notrunc 2>/dev/null ;;
    esac
done < /dpdk/script
i=0
while kill -0 $pmd 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pmd 2>/dev/null && sleep 2
kill -9 $pmd 2>/dev/null
wait $pmd
rc=$?
# testpmd's whole output, once it has ended (a `tail -f` beside it lost
# the end of it)
cat /tmp/out
echo "DPDK-TESTPMD-EXIT: $rc"
exit $rc
