#!/bin/bash
# compare-outputs.sh: do the working tree's binaries write byte for byte what
# BASE_COMMIT's wrote, apart from the fields that report wall-clock time?
# The safety net of behaviour-preserving refactors (docs/testing.md,
# "Comparing outputs against a base commit").
#
# It relies only on what a refactor keeps: the binaries build/nicsim and
# build/nicsim-systemc that `make all` builds, their command lines, and the
# files under testbench/scenarios/ and testbench/reference/.  Each tree runs
# every case with its own binaries and its own scenario files, from its own
# root.
set -u
shopt -s nullglob

usage() {
    cat <<'EOF'
usage: testbench/tools/compare-outputs.sh BASE_COMMIT [--keep DIR] [--only CASE,...] [--no-cache]
       testbench/tools/compare-outputs.sh --list | --help

Builds BASE_COMMIT (`make all` in a detached git worktree of its own, kept as
a cache in build/compare/base-<full hash> so that the next run against the
same base reuses it) and the working tree (`make all`, incremental), runs the
same cases with each tree's binaries and scenario files, and compares every
output byte for byte: each case's stdout, exit status, and every pcap, JSON
and CSV file it wrote.  stderr (progress) is kept but not compared.  Only the
wall-clock fields are masked:
  text (stdout, CSV): the Y of "simulated X ms in Y s wall" and the R of
    nicsim-systemc's "simulated packets N (R per wall-clock second)";
  JSON (with jq): the keys wall_seconds, slowdown, sim_packets_per_s,
    sim_packets_per_s_min and sim_packets_per_s_max are dropped at any depth,
    and the file's text with those values blanked must be equal too (so a
    change of key order or formatting counts as a difference).

Prints one line per case ("same", or "DIFFER" with the first differing file,
followed for text by the first differing line of each side and for binary
files by the first differing byte offset), then a summary.

  --keep DIR      keep the outputs in DIR/base/CASE and DIR/work/CASE (DIR/base
                  and DIR/work are replaced); default: a temporary folder
                  ($TMPDIR or /tmp) removed at the end
  --only A,B,...  run these cases only (--list prints their names)
  --no-cache      build BASE in a temporary worktree removed at the end
  --list          print the case names and their commands, and exit

Exit status: 0 every case identical; 1 a case differs; 2 usage or build
error; 130/143 interrupted.  Environment: COMPARE_OUTPUTS_CACHE (default
build/compare) is where the base worktrees are cached; delete a
base-<hash> folder there to drop its build (stale registrations are pruned
by the next run).
EOF
}

# ---- the cases --------------------------------------------------------------
# Each case is a command run from the root of a tree; D is the folder (a path
# relative to that root, the same string in both trees) that its files go to.
CASES=(
    pktgen-82546 pktgen-82546-noprefetch-burst1 pktgen-82599 pktgen-82599-burst32-xmit
    router-82546 sink-82599 sink-82546
    fault-router-82546 fault-l3fwd-82599 fault-sink-82599 fault-sink-82546
    l3fwd validate-e1000 validate-ixgbe sweep systemc-82546 systemc-82599
)

# case_args NAME D: the case's command line into ARGS.  1 for an unknown name.
case_args() {
    local n=$1 d=$2 s=testbench/scenarios
    case $n in
    pktgen-82546)
        ARGS=(build/nicsim run "$s/e1000-pktgen.ini" "capture.pcap=$d/eth0.pcap" --json "$d/run.json") ;;
    pktgen-82546-noprefetch-burst1)
        ARGS=(build/nicsim run "$s/e1000-pktgen.ini" driver.tx_prefetch=false pktgen.burst=1
              "capture.pcap=$d/eth0.pcap" --json "$d/run.json") ;;
    pktgen-82599)
        ARGS=(build/nicsim run "$s/ixgbe-pktgen.ini" "capture.pcap=$d/eth0.pcap" --json "$d/run.json") ;;
    pktgen-82599-burst32-xmit)
        ARGS=(build/nicsim run "$s/ixgbe-pktgen.ini" pktgen.burst=32 driver.tx_clean=xmit
              "capture.pcap=$d/eth0.pcap" --json "$d/run.json") ;;
    router-82546)          # two cards: eth1 and eth3 transmit, hence {port}
        ARGS=(build/nicsim run "$s/e1000-router.ini" gen.count=20000 "capture.pcap=$d/eth{port}.pcap"
              --json "$d/run.json") ;;
    sink-82599)
        ARGS=(build/nicsim run "$s/ixgbe-sink.ini" --json "$d/run.json") ;;
    sink-82546)            # [gen] defaults: 100000 64-byte frames at 1173 kpps
        ARGS=(build/nicsim run "$s/e1000-pktgen.ini" system.app=sink nic.model=82546 --json "$d/run.json") ;;
    fault-router-82546)    # faulty-device mode on the 82546: the router's RX rings
        ARGS=(build/nicsim run "$s/e1000-router.ini" gen.count=20000 fault.kinds=all
              "capture.pcap=$d/eth{port}.pcap" --json "$d/run.json") ;;
    fault-l3fwd-82599)     # on the 82599: l3fwd (4 cards; eth0, 2, 4, 6 transmit)
        ARGS=(build/nicsim run "$s/l3fwd.ini" gen.count=20000 fault.kinds=all
              "capture.pcap=$d/eth{port}.pcap" --json "$d/run.json") ;;
    fault-sink-82599)      # docs/driver.md's faulty-device table, first row
        ARGS=(build/nicsim run "$s/ixgbe-sink.ini" gen.kpps=1000 gen.count=20000 fault.kinds=all fault.rate_pct=20
              --json "$d/run.json") ;;
    fault-sink-82546)      # and its 82546 row
        ARGS=(build/nicsim run "$s/ixgbe-sink.ini" nic.model=82546 link.gbps=1 gen.kpps=500 gen.count=20000
              driver.rx_ring=256 fault.kinds=all fault.rate_pct=20 --json "$d/run.json") ;;
    l3fwd)                 # the five patterns, both paths; 20000 frames per port instead of 100000
        ARGS=(build/nicsim l3fwd "$s/l3fwd.ini" gen.count=20000 --json "$d/l3fwd.json") ;;
    validate-e1000)
        ARGS=(build/nicsim validate e1000 --json "$d/validate.json") ;;
    validate-ixgbe)
        ARGS=(build/nicsim validate ixgbe --json "$d/validate.json") ;;
    sweep)                 # shellcheck disable=SC2054  # (the commas are the sweep's values)
        ARGS=(build/nicsim sweep "$s/e1000-pktgen.ini" pktgen.size=64,512,1518 pktgen.count=2000
              --csv "$d/sweep.csv" -j 2) ;;
    systemc-82546)
        ARGS=(build/nicsim-systemc "$s/e1000-pktgen.ini" "capture.pcap=$d/eth0.pcap" pktgen.count=5000
              --json "$d/run.json") ;;
    systemc-82599)
        ARGS=(build/nicsim-systemc "$s/ixgbe-pktgen.ini" "capture.pcap=$d/eth0.pcap" pktgen.count=5000
              --json "$d/run.json") ;;
    *) return 1 ;;
    esac
}

# ---- what is wall-clock -------------------------------------------------------
WALL_KEYS='["wall_seconds","slowdown","sim_packets_per_s","sim_packets_per_s_min","sim_packets_per_s_max"]'
WALL_KEYS_RE='wall_seconds|slowdown|sim_packets_per_s|sim_packets_per_s_min|sim_packets_per_s_max'

# Text: mask the number only, the rest of the line is compared.
mask_text() {
    sed -E -e 's/( ms in )[0-9]+(\.[0-9]+)?( s wall)/\1<wall>\3/' \
           -e 's/\([0-9]+(\.[0-9]+)?( per wall-clock second\))/(<wall>\2/' "$1"
}
# JSON, as jq reads it: the wall-clock keys dropped wherever they are, key
# order kept.
mask_json() {
    jq --argjson k "$WALL_KEYS" \
        'def w: if type == "object" then with_entries(select(.key | IN($k[]) | not) | .value |= w)
                elif type == "array" then map(w) else . end; w' "$1"
}
# JSON, as written: the same keys' values blanked, every other byte kept.
mask_json_text() {
    sed -E "s/(\"($WALL_KEYS_RE)\"[[:space:]]*:[[:space:]]*)(-?[0-9][-+0-9.eE]*|null)/\1<wall>/g" "$1"
}

# ---- arguments --------------------------------------------------------------
BASE='' KEEP='' ONLY='' NO_CACHE=0
die_usage() { echo "compare-outputs: $*" >&2; echo "(--help for the usage)" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0 ;;
    --list)
        for n in "${CASES[@]}"; do case_args "$n" D; printf '%-32s %s\n' "$n" "${ARGS[*]}"; done
        exit 0 ;;
    --keep) [ $# -ge 2 ] || die_usage "--keep needs a folder"; KEEP=$2; shift 2 ;;
    --keep=*) KEEP=${1#--keep=}; shift ;;
    --only) [ $# -ge 2 ] || die_usage "--only needs CASE,..."; ONLY=$2; shift 2 ;;
    --only=*) ONLY=${1#--only=}; shift ;;
    --no-cache) NO_CACHE=1; shift ;;
    -*) die_usage "unknown option '$1'" ;;
    *) [ -z "$BASE" ] || die_usage "one BASE_COMMIT only ('$BASE', then '$1')"; BASE=$1; shift ;;
    esac
done
[ -n "$BASE" ] || { usage >&2; exit 2; }
[ -z "$KEEP" ] || [ "$KEEP" != "${KEEP#/}" ] || KEEP=$PWD/$KEEP

SELECTED=()
if [ -n "$ONLY" ]; then
    IFS=, read -r -a want <<<"$ONLY"
    for n in "${want[@]}"; do
        [ -n "$n" ] || continue
        case_args "$n" D || die_usage "no case '$n' (cases: ${CASES[*]})"
        SELECTED+=("$n")
    done
    [ ${#SELECTED[@]} -gt 0 ] || die_usage "--only: no case named"
else
    SELECTED=("${CASES[@]}")
fi

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "compare-outputs: not inside a git work tree" >&2; exit 2; }
cd "$ROOT" || exit 2
HASH=$(git rev-parse --verify --quiet "$BASE^{commit}") || { echo "compare-outputs: '$BASE' is not a commit" >&2; exit 2; }
SHORT=$(git rev-parse --short "$HASH")

if ! command -v jq >/dev/null; then
    echo "compare-outputs: jq is missing; installing the Makefile's DEB_PKGS (make deps)" >&2
    make --no-print-directory deps >&2
    command -v jq >/dev/null || { echo "compare-outputs: jq is still missing" >&2; exit 2; }
fi

# ---- clean-up: on any exit, also when interrupted -----------------------------
PGIDS=()        # process groups of the builds and runners in flight
TMP='' BT='' LINKS=() BT_TEMP=0
# shellcheck disable=SC2317  # (called by the EXIT trap)
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    local p
    for p in "${PGIDS[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done
    for p in "${PGIDS[@]}"; do wait "$p" 2>/dev/null; done
    for p in "${LINKS[@]}"; do rm -f "$p"; done
    if [ "$BT_TEMP" = 1 ] && [ -n "$BT" ]; then
        git -C "$ROOT" worktree remove --force "$BT" 2>/dev/null || rm -rf "$BT"
        git -C "$ROOT" worktree prune
    fi
    [ -z "$TMP" ] || rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'echo "compare-outputs: interrupted" >&2; exit 130' INT
trap 'echo "compare-outputs: terminated" >&2; exit 143' TERM
trap 'exit 129' HUP

# Seconds since T0 (an $EPOCHREALTIME), with one decimal.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# Run "$@" as a process group of its own (so that clean-up can end it and all
# its children) and wait for it; its exit status.
run_group() {
    set -m
    "$@" &
    local pid=$!
    set +m
    PGIDS+=("$pid")
    wait "$pid"
    local rc=$?
    PGIDS=()    # (one at a time)
    return $rc
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/compare-outputs.XXXXXX") || exit 2
if [ -n "$KEEP" ]; then
    OUT=$KEEP
    mkdir -p "$OUT" || exit 2
    rm -rf "$OUT/base" "$OUT/work"
else
    OUT=$TMP/out
fi
mkdir -p "$OUT/base" "$OUT/work" "$TMP/cmp" || exit 2
T_START=$EPOCHREALTIME

# ---- the base tree: a detached worktree, cached ------------------------------
CACHE=${COMPARE_OUTPUTS_CACHE:-build/compare}
[ "$CACHE" != "${CACHE#/}" ] || CACHE=$ROOT/$CACHE
mkdir -p "$CACHE" || exit 2
CACHE=$(cd "$CACHE" && pwd -P)
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
    echo "compare-outputs: waiting for another compare-outputs.sh using $CACHE" >&2
    flock 9
fi
git worktree prune      # registrations whose folders are gone (a deleted cache)

registered() { git worktree list --porcelain | grep -qxF "worktree $1"; }
if [ "$NO_CACHE" = 1 ]; then
    BT=$TMP/base-$HASH BT_TEMP=1
    git worktree add --detach -q "$BT" "$HASH" || { echo "compare-outputs: cannot add a worktree for $HASH" >&2; exit 2; }
else
    BT=$CACHE/base-$HASH
    if [ -e "$BT" ] && ! { registered "$BT" && [ "$(git -C "$BT" rev-parse --show-toplevel 2>/dev/null)" = "$BT" ] &&
                           [ "$(git -C "$BT" rev-parse HEAD 2>/dev/null)" = "$HASH" ]; }; then
        echo "compare-outputs: $BT is not a worktree of $SHORT any more: recreating it" >&2
        rm -rf "$BT"
        git worktree prune
    fi
    if [ -e "$BT" ]; then
        # a cached build; bring back any file someone changed in it
        if [ -n "$(git -C "$BT" status --porcelain --untracked-files=no)" ]; then
            echo "compare-outputs: $BT had local changes: reset to $SHORT" >&2
            git -C "$BT" reset -q --hard "$HASH" || exit 2
        fi
    else
        git worktree add --detach -q "$BT" "$HASH" || { echo "compare-outputs: cannot add a worktree for $HASH" >&2; exit 2; }
    fi
fi

build() {   # build SIDE TREE
    local side=$1 tree=$2 log=$TMP/build-$1.log t0=$EPOCHREALTIME
    echo "compare-outputs: building $side ($tree): make all" >&2
    run_group make -C "$tree" -j"$(nproc)" all >"$log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] || [ ! -x "$tree/build/nicsim" ] || [ ! -x "$tree/build/nicsim-systemc" ]; then
        echo "compare-outputs: the $side build failed (make exit $rc); the end of its log:" >&2
        tail -n 30 "$log" >&2
        exit 2
    fi
    [ -z "$KEEP" ] || cp "$log" "$OUT/build-$side.log"
    echo "compare-outputs: $side built in $(since "$t0") s" >&2
}
build base "$BT"
build work "$ROOT"

# ---- running the cases ---------------------------------------------------------
# Both trees write through a link of the same name, build/compare-out-<pid>,
# which points to OUT/base or OUT/work: paths that end up in the outputs (the
# JSON reports name their pcaps) are the same string in both.
LINK=build/compare-out-$$
for side in base work; do
    tree=$ROOT; [ $side = base ] && tree=$BT
    ln -sfn "$OUT/$side" "$tree/$LINK" || exit 2
    LINKS+=("$tree/$LINK")
done

run_side() {    # run_side SIDE TREE: every selected case, one after the other
    local side=$1 tree=$2 n
    for n in "${SELECTED[@]}"; do
        local dir=$OUT/$side/$n t0=$EPOCHREALTIME rc
        mkdir -p "$dir"
        case_args "$n" "$LINK/$n"
        (cd "$tree" && exec "${ARGS[@]}") >"$dir/stdout" 2>"$dir/stderr" </dev/null
        rc=$?
        echo "$rc" >"$dir/status"
        since "$t0" >"$dir/seconds"; echo >>"$dir/seconds"
        echo "compare-outputs: [$side] $n: exit status $rc, $(cat "$dir/seconds") s" >&2
    done
}
echo "compare-outputs: running ${#SELECTED[@]} cases in both trees (the two trees side by side)" >&2
set -m
run_side base "$BT" & PID_BASE=$!
run_side work "$ROOT" & PID_WORK=$!
set +m
PGIDS+=("$PID_BASE" "$PID_WORK")
wait "$PID_BASE"; wait "$PID_WORK"
PGIDS=()

# ---- comparing -------------------------------------------------------------
# first_line_diff A B: the number of the first line that differs (or that one
# side lacks); nothing when the lines are equal.
first_line_diff() {
    awk 'NR == FNR { a[NR] = $0; n = NR; next }
         !(FNR in a) || a[FNR] != $0 { print FNR; found = 1; exit }
         END { if (!found && FNR < n) print FNR + 1 }' "$1" "$2"
}
show_line() {   # show_line FILE N
    local l
    l=$(sed -n "${2}{p;q}" "$1")
    if [ "$(wc -l <"$1")" -lt "$2" ] && [ -z "$l" ]; then echo "(end of file)"; else printf '%.200s\n' "$l"; fi
}
# DETAIL gets what differs in files A and B (masked copies), for a text file.
text_detail() {   # text_detail WHAT A B
    local n
    n=$(first_line_diff "$2" "$3")
    if [ -n "$n" ]; then
        DETAIL="$1, line $n"$'\n'"      base: $(show_line "$2" "$n")"$'\n'"      work: $(show_line "$3" "$n")"
    else
        DETAIL="$1, $(cmp "$2" "$3" 2>&1 | sed -E 's/^.*(differ: |EOF on )/\1/; s/ [^ ]*\/(base|work)\.[a-z]+/ \1/')"
    fi
}

# compare_file CASE FILE: 0 same; 1 differs, with DETAIL.
compare_file() {
    local n=$1 f=$2 a=$OUT/base/$1/$2 b=$OUT/work/$1/$2 ma=$TMP/cmp/base.txt mb=$TMP/cmp/work.txt
    if [ ! -e "$a" ]; then DETAIL="$f: only in work"; return 1; fi
    if [ ! -e "$b" ]; then DETAIL="$f: only in base"; return 1; fi
    case $f in
    *.pcap)
        cmp -s "$a" "$b" && return 0
        local off
        off=$(cmp "$a" "$b" 2>&1 | sed -nE 's/.*differ: (char|byte) ([0-9]+).*/byte \2/p
                                           s/.*EOF on .*after (char|byte) ([0-9]+).*/equal up to byte \2, where one side ends/p')
        DETAIL="$f, ${off:-?} (base $(stat -c %s "$a") bytes, work $(stat -c %s "$b") bytes)"
        return 1 ;;
    *.json)
        if mask_json "$a" >"$ma" 2>/dev/null && mask_json "$b" >"$mb" 2>/dev/null; then
            if ! cmp -s "$ma" "$mb"; then text_detail "$f (wall-clock keys dropped, as jq prints it)" "$ma" "$mb"; return 1; fi
        fi
        mask_json_text "$a" >"$ma"; mask_json_text "$b" >"$mb"
        cmp -s "$ma" "$mb" && return 0
        text_detail "$f (as written, wall-clock values blanked)" "$ma" "$mb"
        return 1 ;;
    *)
        mask_text "$a" >"$ma"; mask_text "$b" >"$mb"
        cmp -s "$ma" "$mb" && return 0
        text_detail "$f" "$ma" "$mb"
        return 1 ;;
    esac
}

ndiff=0
for n in "${SELECTED[@]}"; do
    # the files of either side: status and stdout first, stderr and the timing not compared
    files=$( { (cd "$OUT/base/$n" && find . -type f); (cd "$OUT/work/$n" && find . -type f); } |
             sed 's|^\./||' | grep -vxE 'stderr|seconds' | sort -u |
             awk '$0 == "status" { print 0, $0; next } $0 == "stdout" { print 1, $0; next } { print 2, $0 }' |
             sort -k1,1n -k2 | cut -d' ' -f2-)
    verdict=same DETAIL=
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        if ! compare_file "$n" "$f"; then verdict=DIFFER; break; fi
    done <<<"$files"
    times="($(cat "$OUT/base/$n/seconds") s / $(cat "$OUT/work/$n/seconds") s)"
    if [ $verdict = same ]; then
        printf '%-32s same    %s\n' "$n" "$times"
    else
        ndiff=$((ndiff + 1))
        printf '%-32s DIFFER  %s  %s\n' "$n" "${DETAIL%%$'\n'*}" "$times"
        [ "$DETAIL" = "${DETAIL#*$'\n'}" ] || printf '%s\n' "${DETAIL#*$'\n'}"
    fi
done

total=${#SELECTED[@]}
echo "compare-outputs: $(since "$T_START") s in all${KEEP:+; outputs in $KEEP/base and $KEEP/work}" >&2
if [ $ndiff -eq 0 ]; then
    echo "compare-outputs: $total cases identical against $BASE ($SHORT)"
    exit 0
fi
echo "compare-outputs: $ndiff of $total cases differ against $BASE ($SHORT)"
exit 1
