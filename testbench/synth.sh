#!/bin/sh
# make synth: Yosys over rtl/ for each top level given.  Fails (exit 1) on
# a latch, a combinational loop or anything Yosys cannot elaborate; prints
# a resource summary per top (word-level cells, flip-flop bits, memories and
# their bits) and keeps Yosys's log in OUT/<top>.log.
#   testbench/synth.sh OUTDIR TOP[:PARAM=VALUE] ...
set -eu
out=$1
shift
mkdir -p "$out"
srcs=$(echo rtl/*.v)
rc=0
for spec in "$@"; do
    top=${spec%%:*}
    chparam=""
    name=$top
    if [ "$spec" != "$top" ]; then
        p=${spec#*:}
        chparam="chparam -set ${p%%=*} ${p#*=} $top;"
        name="${top}_${p%%=*}${p#*=}"
    fi
    log="$out/$name.log"
    if ! yosys -q -l "$log" -p "
        read_verilog -sv -Irtl $srcs;
        $chparam
        hierarchy -check -top $top;
        proc; flatten; opt -fast; memory -nomap; opt -fast;
        check -assert;
        select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr t:\$_DLATCH*;
        tee -o $out/$name.cells stat;
        tee -q -o $out/$name.mems dump t:\$mem_v2;
        techmap t:\$dff t:\$dffe t:\$sdff t:\$sdffe t:\$sdffce t:\$adff t:\$adffe t:\$dffsr;
        tee -o $out/$name.ffs stat" >/dev/null 2>&1; then
        echo "synth $name: FAILED (latch, combinational loop or elaboration error): see $log" >&2
        grep -E "ERROR|Latch inferred|logic loop" "$log" | head -20 >&2
        rc=1
        continue
    fi
    cells=$(awk '/Number of cells:/{print $4; exit}' "$out/$name.cells")
    ffs=$(awk '/\$_.*DFF/{n+=$2} END{print n+0}' "$out/$name.ffs")
    mems=$(awk '/cell .mem_v2/{m++; w=0; s=0} /parameter .WIDTH /{w=$3; if (s) b+=w*s} /parameter .SIZE /{s=$3; if (w) b+=w*s} END{printf "%d memories, %d bits", m, b}' "$out/$name.mems")
    echo "synth $name: no latches, no combinational loops; $cells word-level cells, $ffs flip-flop bits, $mems"
done
exit $rc
