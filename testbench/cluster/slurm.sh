#!/usr/bin/env bash
# testbench/cluster/slurm.sh BUILD: a sweep on a one-node Slurm cluster
# started here, as a user with a real cluster would run it.
#
# munged, slurmctld and slurmd run as this script's children, on loopback
# ports, with their configuration, key, sockets and state in a temporary
# folder; lib.sh stops them on every exit path and checks that nothing of
# this run is left.  The node has this machine's cores.
#
# The sweep's emitted job array (--emit-slurm with --slurm-partition and
# --slurm-time; the one partition is not a default one, so a script
# without its partition line would be refused) is submitted held, from /
# (not the checkout: the script must not depend on where sbatch ran), and
# its tasks are released so that
#   - task 6 is RUNNING when scancel kills it, as a point lost with its
#     node (for that moment the scenario path is a FIFO nobody writes, so
#     the point blocks opening it);
#   - task 3 runs while the scenario file holds a bad value
#     (pktgen.burst = eight), as when it is edited under a running array;
#   - the others run as usual.
# `nicsim merge` must name both points, exit 1 and print the
# `sbatch --array=3,6 ...` line; that line, run as printed once the file is
# right again, must complete the grid: the merged CSV equal to
# `nicsim sweep -j 1`'s byte for byte.  Last, a node without the checkout:
# the task fails with exit status 127 and its Slurm log names the binary
# and the host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:?usage: slurm.sh BUILD}
# shellcheck source=testbench/cluster/lib.sh
. "$here/lib.sh"
cl_init slurm "$build"
nicsim=$(cd "$build" && pwd)/nicsim
[ -x "$nicsim" ] || cl_fail "$nicsim: not built (make all)"
[ "$(id -u)" = 0 ] || cl_fail "slurmd must run as root to start jobs; run the cluster tests as root"
cl_need munged munge unmunge slurmctld slurmd sbatch squeue scancel scontrol sinfo

# ---- munge: the cluster's authentication, a key of this run's own ----------
mkdir -m 700 "$CL_STATE/munge-key"
mkdir -m 755 "$CL_STATE/munge"
key=$CL_STATE/munge-key/munge.key
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 600 "$key"
sock=$CL_STATE/munge/munge.sock
cl_start munged "$CL_STATE/munge/munged-stderr.log" munged --foreground --key-file="$key" --socket="$sock" \
    --pid-file="$CL_STATE/munge/munged.pid" --log-file="$CL_STATE/munge/munged.log" \
    --seed-file="$CL_STATE/munge/munged.seed"
munge_ok() { munge -n -S "$sock" | unmunge -S "$sock"; }
cl_wait 60 "munged answers on $sock" munge_ok

# ---- slurmctld and slurmd ------------------------------------------------------
node="nicsim-node"
host=$(uname -n)
host=${host%%.*}
ctld_port='' slurmd_port=''
cl_free_port ctld_port
cl_free_port slurmd_port
slurm=$CL_STATE/slurm
mkdir -p "$slurm/state" "$slurm/spool/$node" "$slurm/log"
export SLURM_CONF=$slurm/slurm.conf
# No cgroups, accounting or MPI: a single node that only runs batch
# scripts.  sched_interval=1 and batch_sched_delay=0 start the next tasks
# within a second of a release or completion (the defaults wait up to
# 60 s).  MinJobAge keeps finished tasks visible to scontrol for the whole
# test; KillWait is how long a cancelled task has before SIGKILL.
cat > "$SLURM_CONF" <<EOF
ClusterName=nicsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool/%n
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/log/slurmctld.log
SlurmdLogFile=$slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_interval=1
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
EnforcePartLimits=ALL
MessageTimeout=30
MinJobAge=3600
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=nicsim Nodes=$node MaxTime=10 State=UP
EOF
cl_start slurmctld "$slurm/log/slurmctld-stderr.log" slurmctld -D -i -f "$SLURM_CONF"
ctld_pid=${CL_PIDS[-1]}
ctld_up() { scontrol ping | grep -q 'is UP'; }
cl_wait 90 "slurmctld answers on 127.0.0.1:$ctld_port (scontrol ping)" ctld_up
cl_start slurmd "$slurm/log/slurmd-stderr.log" slurmd -D -N "$node" -f "$SLURM_CONF"
node_idle() { [ "$(sinfo -h -n "$node" -o %T)" = idle ]; }
cl_wait 90 "node $node registered and idle (sinfo)" node_idle
cl_say "cluster up: $(nproc) CPUs, slurmctld on port $ctld_port, slurmd on $slurmd_port"

# What is left of the jobs is cancelled before the daemons stop, while
# slurmctld is there to do it (after a signal it may be gone already: then
# lib.sh stops the orphaned slurmstepd and its job by their tag).
submitted=""
cancel_jobs() {
    [ -n "$submitted" ] && [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null || return 0
    # a signal to the whole process group (timeout, ^C) stops slurmctld too:
    # no use waiting on it then
    case $(timeout 3 scontrol ping 2>/dev/null || true) in *"is UP"*) ;; *) return 0 ;; esac
    # shellcheck disable=SC2086
    timeout 10 scancel $submitted 2>/dev/null
    local end=$(($(date +%s) + 10))
    while [ "$(date +%s)" -lt "$end" ]; do
        [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
        sleep 0.3
    done
}
CL_BEFORE_STOP=cancel_jobs
submit() {  # submit VAR ARGS...: sbatch ARGS from /, tagged; the job id into VAR
    local var=$1 out
    shift
    out=$(cd / && NICSIM_CLUSTER="$CL_TAG" sbatch --parsable "$@") || cl_fail "sbatch $*: refused (exit $?)"
    submitted+=" ${out%%;*}"
    printf -v "$var" '%s' "${out%%;*}"
}
drained() {  # no task of job $1 pending or running (squeue itself must answer)
    local out
    out=$(squeue -h -j "$1" -o %i) || return 1
    [ -z "$out" ]
}
running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }
task_state() {  # JOB TASK: "STATE EXIT:SIGNAL" as scontrol reports it
    scontrol -o show job "$1_$2" | tr ' ' '\n' | awk -F= '$1 == "JobState" { s = $2 } $1 == "ExitCode" { e = $2 }
                                                         END { print s, e }'
}

# ---- the sweep --------------------------------------------------------------------
work=$CL_OUT/work   # kept with the logs: the results, Slurm logs, merge outputs
mkdir "$work"
scn=$work/e1000-pktgen.ini
cp "$top/testbench/scenarios/e1000-pktgen.ini" "$scn"
grid=(pktgen.size=64..512:64 pktgen.count=1000)
res=$work/results
cd "$top"
"$nicsim" sweep "$scn" "${grid[@]}" -j 1 --csv "$work/ref.csv" > "$work/ref.log" 2>&1 ||
    cl_fail "nicsim sweep ${grid[*]} -j 1 failed: $(tail -3 "$work/ref.log")"
"$nicsim" sweep "$scn" "${grid[@]}" --emit-slurm "$res" --slurm-partition nicsim --slurm-time 5 ||
    cl_fail "nicsim sweep --emit-slurm $res failed"
for line in '#SBATCH --array=1-8' '#SBATCH --partition=nicsim' '#SBATCH --time=5'; do
    grep -qxF "$line" "$res/sweep.sbatch" || cl_fail "$res/sweep.sbatch: no line '$line'"
done

submit J --hold "$res/sweep.sbatch"
cl_say "job array $J submitted held from /: $(squeue -h -j "$J" -o '%i %P %l %T %r')"

# Task 6: running, then cancelled.
mv "$scn" "$scn.good"
mkfifo "$scn"
scontrol release "${J}_6"
cl_wait 120 "array task ${J}_6 RUNNING after its release" running "${J}_6"
scancel "${J}_6"
cl_wait 120 "array task ${J}_6 gone after scancel" drained "${J}_6"
rm "$scn"
mv "$scn.good" "$scn"
cl_say "task 6 cancelled while running: $(task_state "$J" 6)"

# Task 3: a bad value in the scenario file while it runs.
burst_line=$(grep -n '^burst = 8$' "$scn" | cut -d: -f1)
[ -n "$burst_line" ] || cl_fail "$scn: no 'burst = 8' line to spoil"
cp "$scn" "$scn.good"
sed 's/^burst = 8$/burst = eight/' "$scn.good" > "$scn.bad"
mv "$scn.bad" "$scn"
scontrol release "${J}_3"
cl_wait 120 "array task ${J}_3 done after its release" drained "${J}_3"
mv "$scn.good" "$scn"
cl_say "task 3 ran on a bad value: $(task_state "$J" 3)"

# The other six.  scontrol complains about the tasks already finished, so
# its status says nothing: that none is left held is checked instead.
scontrol release "$J" > /dev/null 2>&1 || true
held=$(squeue -h -j "$J" -t PD -o '%i %r' | grep -i held || true)
[ -z "$held" ] || cl_fail "tasks still held after scontrol release $J: $held"
cl_wait 180 "job array $J finished (squeue -j $J empty)" drained "$J"
for t in 1 2 3 4 5 6 7 8; do
    st=$(task_state "$J" "$t")
    case $t:$st in
        3:"FAILED 2:0" | 6:CANCELLED* | [^36]:"COMPLETED 0:0") ;;
        *) cl_fail "array task ${J}_$t: $st (expected COMPLETED 0:0, task 3 FAILED 2:0, task 6 CANCELLED)" ;;
    esac
done
[ -e "$res/slurm-${J}_1.out" ] ||
    cl_fail "$res/slurm-${J}_1.out: the task's output is not in the results folder"
grep -q CANCELLED "$res/slurm-${J}_6.out" || cl_fail "$res/slurm-${J}_6.out: no CANCELLED line"
cl_say "tasks: 3 FAILED (exit 2), 6 CANCELLED, the other six COMPLETED; their logs in $res"

# ---- merge names both, exits 1, and says how to run them again ---------------
rc=0
"$nicsim" merge "$res" --csv "$work/merged-1.csv" > "$work/merge-1.out" 2> "$work/merge-1.err" || rc=$?
echo "--- nicsim merge $res (exit $rc), stderr:"
cat "$work/merge-1.err"
echo "---"
[ "$rc" = 1 ] || cl_fail "nicsim merge $res: exit status $rc, expected 1 (two points without a good result)"
expect_err() {
    grep -qF -- "$1" "$work/merge-1.err" || cl_fail "nicsim merge $res: stderr lacks '$1' (above)"
}
expect_err "nicsim: point 3 failed (exit status 2): $scn:$burst_line: pktgen.burst: expected an integer"
expect_err "command: nicsim run $scn pktgen.size=192 pktgen.count=1000"
expect_err "nicsim: point 6 failed: no result in the results folder (the job did not run, was cancelled"
expect_err "its Slurm log: $res/slurm-${J}_6.out"
expect_err "command: nicsim run $scn pktgen.size=384 pktgen.count=1000"
expect_err "nicsim: 2 of 8 points failed or incomplete"
expect_err "  sbatch --array=3,6 $res/sweep.sbatch"
nfailed=$(grep -c ',failed$' "$work/merged-1.csv" || true)
[ "$nfailed" = 2 ] || cl_fail "$work/merged-1.csv: $nfailed rows marked failed, expected 2"

# ---- the line merge printed, run as printed, completes the grid -------------------
line=$(grep -E '^  sbatch --array=' "$work/merge-1.err" | sed 's/^  //')
out=$(cd / && export NICSIM_CLUSTER="$CL_TAG" && eval "$line") || cl_fail "'$line' (from /): refused"
J2=$(echo "$out" | grep -o '[0-9]*$')
[ -n "$J2" ] || cl_fail "'$line' said '$out', not 'Submitted batch job N'"
submitted+=" $J2"
cl_say "resubmitted: $line -> job $J2"
cl_wait 180 "resubmitted job array $J2 finished" drained "$J2"
"$nicsim" merge "$res" --csv "$work/merged.csv" > "$work/merge-2.out" 2> "$work/merge-2.err" ||
    cl_fail "nicsim merge $res after the resubmission: exit $? ($(cat "$work/merge-2.err"))"
cmp -s "$work/ref.csv" "$work/merged.csv" ||
    cl_fail "merged CSV differs from sweep -j 1's: $(diff "$work/ref.csv" "$work/merged.csv" | head -10)"
cl_say "after the resubmission: merge exit 0, merged CSV = sweep -j 1's byte for byte ($(wc -l < "$work/merged.csv") lines)"
cat "$work/merge-2.out"

# ---- a node without the checkout ----------------------------------------------------
# The sweep emitted by a binary that then disappears: what a node without
# the checkout sees.
alt=$CL_STATE/elsewhere/build
mkdir -p "$alt"
cp "$nicsim" "$alt/nicsim"
"$alt/nicsim" sweep "$scn" pktgen.size=64,128 pktgen.count=1000 --emit-slurm "$work/res-nocheckout" \
    --slurm-partition nicsim --slurm-time 5 2> /dev/null || cl_fail "emitting from $alt/nicsim failed"
rm -rf "$CL_STATE/elsewhere"
submit J3 --array=1 "$work/res-nocheckout/sweep.sbatch"
cl_wait 120 "job $J3 (no checkout) finished" drained "$J3"
st=$(task_state "$J3" 1)
[ "$st" = "FAILED 127:0" ] || cl_fail "job ${J3}_1 without the checkout: $st, expected FAILED 127:0"
msg="nicsim: $alt/nicsim not found on host $(uname -n): the checkout must be at the same path on every host (or on a shared filesystem)"
grep -qxF "$msg" "$work/res-nocheckout/slurm-${J3}_1.out" ||
    cl_fail "$work/res-nocheckout/slurm-${J3}_1.out: lacks '$msg': $(cat "$work/res-nocheckout/slurm-${J3}_1.out")"
cl_say "a node without the checkout: ${J3}_1 $st, its log: $(cat "$work/res-nocheckout/slurm-${J3}_1.out")"
