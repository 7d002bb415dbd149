#!/bin/sh
# The sweeps behind docs/predictions.md (issue 18's held-back experiments),
# each as a `nicsim sweep` (or `nicsim l3fwd`) command whose table and CSV
# land in OUT (default build/predictions), with each command's wall time;
# then the tables of docs/predictions.md in OUT/tables.md.
# Usage: testbench/tools/predictions.sh [OUT]   (after `make all`)
# Exit status: 0 when every sweep completed, 1 when one failed (its
# stderr is in OUT/NAME.err), 2 for bad usage.
set -u
case "${1:-}" in -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [OUT]" >&2; exit 2; }
OUT=${1:-build/predictions}
N=build/nicsim
S=testbench/scenarios
[ -x "$N" ] || { echo "$0: $N not built (make all)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
status=0
total0=$(date +%s.%N)

# run NAME COMMAND...: the command's stdout to OUT/NAME.txt, stderr to
# OUT/NAME.err, and a line with its wall time
run() {
    name=$1; shift
    t0=$(date +%s.%N)
    if "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"; then r=ok; else r="FAILED (exit $?)"; status=1; fi
    t1=$(date +%s.%N)
    printf '%-16s %6.1f s  %s\n' "$name" "$(awk "BEGIN{print $t1 - $t0}")" "$r"
}

run l3fwd        $N l3fwd $S/l3fwd.ini --json "$OUT/l3fwd.json"
run fwd-batch    $N sweep $S/ixy-fwd.ini fwd.batch=1,2,4,8,16,32,64,128,256 cpu.mhz=1600,3300 --csv "$OUT/fwd-batch.csv" --json "$OUT/fwd-batch.json"
run fwd-mhz-2    $N sweep $S/ixy-fwd.ini cpu.mhz=1600..3300:100 fwd.batch=32 fwd.cards=2 system.cards=2 --csv "$OUT/fwd-mhz-2.csv" --json "$OUT/fwd-mhz-2.json"
run fwd-mhz-1    $N sweep $S/ixy-fwd.ini cpu.mhz=1600..3300:100 fwd.batch=32 fwd.cards=1 system.cards=1 --csv "$OUT/fwd-mhz-1.csv" --json "$OUT/fwd-mhz-1.json"
run napi-usecs   $N sweep $S/ixgbe-pktgen-napi.ini driver.rx_usecs=1,10,20,30,40,50 driver.tx_ring=512 --csv "$OUT/napi-usecs.csv" --json "$OUT/napi-usecs.json"
run napi-ring    $N sweep $S/ixgbe-pktgen-napi.ini driver.tx_ring=512,768,1024 driver.rx_usecs=1 --csv "$OUT/napi-ring.csv" --json "$OUT/napi-ring.json"

if [ $status = 0 ]; then
    python3 testbench/tools/predictions-tables.py "$OUT" >"$OUT/tables.md.tmp" && mv "$OUT/tables.md.tmp" "$OUT/tables.md" ||
        { echo "$0: tables: see above" >&2; status=1; }
fi
printf '%-16s %6.1f s\n' total "$(awk "BEGIN{print $(date +%s.%N) - $total0}")"
exit $status
