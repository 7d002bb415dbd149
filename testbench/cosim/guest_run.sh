#!/bin/sh
# The payload of `make cosim` (/cosim/run.sh in the guest, busybox sh): the
# two 82599 functions nicsim qemu serves (8086:10f7, in slot order), the
# sink on the second, then pktgen on the first, both nicsim-hw polling (no
# interrupts reach a TCG guest through the proxy).  Prints the lines the
# host reads (COSIM-...), exits 0 only when both runs did.
cd /cosim
./nicsim-hw cosim-82599-sink.ini --pci 8086:10f7@1 --mode uio --poll --idle-timeout 120 > sink.out 2> sink.err &
sink=$!
# until the sink says it is up (or has ended), at most 60 s
i=0
while ! grep -q ' up$' sink.err 2>/dev/null && kill -0 $sink 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
./nicsim-hw cosim-82599-pktgen.ini --pci 8086:10f7@0 --mode uio --poll > pktgen.out 2> pktgen.err
prc=$?
wait $sink
src=$?
cat pktgen.err pktgen.out sink.err sink.out
echo "COSIM-PKTGEN-EXIT: $prc"
echo "COSIM-SINK-EXIT: $src"
echo "COSIM-SINK-FRAMES: $(grep -o 'sink on eth0: [0-9]* frames' sink.out | grep -o '[0-9]* frames' | grep -o '[0-9]*')"
[ $prc = 0 ] && [ $src = 0 ]
