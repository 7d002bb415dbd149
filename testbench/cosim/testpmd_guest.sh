#!/bin/sh
# /dpdk/run.sh in the DPDK guest (testbench/cosim/dpdk_guest.sh), busybox
# sh: bind the NIC functions to uio_pci_generic, start testpmd
# (/dpdk/cmdline) with its stdin a FIFO and, once its prompt appears, run
# /dpdk/script, one command a line:
#   send TEXT      type TEXT to testpmd
#   sleep S        wait S seconds
# then wait (at most 30 s) for testpmd to end.  Everything testpmd prints
# goes to the console; the host reads the DPDK-* lines.  Exit status:
# testpmd's, or 125 when no prompt appeared within 150 s.
cd /dpdk
for id in "8086 10f7" "8086 1010"; do echo "$id" > /sys/bus/pci/drivers/uio_pci_generic/new_id; done
sleep 1
for d in /sys/bus/pci/devices/*; do
    [ "$(cat "$d/vendor")" = 0x8086 ] &&
        echo "DPDK-FUNCTION: ${d##*/} $(cat "$d/device") driver $(readlink "$d/driver" 2>/dev/null | sed 's,.*/,,')"
done
cmd=$(cat /dpdk/cmdline)
echo "DPDK-CMDLINE: $cmd"
mkfifo /tmp/in
exec 3<>/tmp/in
$cmd < /tmp/in > /tmp/out 2>&1 &
pmd=$!
tail -f /tmp/out &
tailp=$!
i=0
while kill -0 $pmd 2>/dev/null && ! grep -q 'testpmd> ' /tmp/out && [ $i -lt 1500 ]; do
    sleep 0.1; i=$((i + 1))
done
if ! grep -q 'testpmd> ' /tmp/out; then
    echo "DPDK-NO-PROMPT: after $((i / 10)) s"
    kill -9 $pmd 2>/dev/null
    kill $tailp 2>/dev/null
    exit 125
fi
echo "DPDK-PROMPT: after $((i / 10)) s"
while read -r verb rest; do
    case $verb in
        send) echo "DPDK-SEND: $rest" > /dev/console; echo "$rest" >&3 ;;
        sleep) sleep "$rest" ;;
    esac
done < /dpdk/script
i=0
while kill -0 $pmd 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pmd 2>/dev/null && sleep 2
kill -9 $pmd 2>/dev/null
wait $pmd
rc=$?
sleep 0.5
kill $tailp 2>/dev/null
echo "DPDK-TESTPMD-EXIT: $rc"
exit $rc
