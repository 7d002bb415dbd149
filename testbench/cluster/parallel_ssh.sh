#!/usr/bin/env bash
# testbench/cluster/parallel_ssh.sh BUILD: a sweep's emitted jobs run by
# GNU parallel on other hosts over ssh, as a user with a few machines
# would.
#
# The "hosts" are two names for this machine (nicsim-host-a and -b in an
# ssh_config of this run), reached through an sshd started here as this
# script's child on a loopback port, with a host key and a user key made
# for this run and removed with it; the results folder is shared by path,
# as a network filesystem would share it.  Checks:
#   - `parallel --sshloginfile` runs every job over ssh (parallel's job log
#     names the ssh login of each, both hosts are used, sshd logged the
#     logins) and `nicsim merge` gives `sweep -j 1`'s CSV byte for byte;
#   - a host without the checkout: every job fails with exit status 127 and
#     says which binary is missing on which host; merge names the points
#     and prints the `sed -n ... | parallel` line that reruns them, which
#     completes the grid once the binary is back;
#   - a host without the results folder: the job fails with exit status 2
#     and says which folder is missing on which host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:?usage: parallel_ssh.sh BUILD}
# shellcheck source=testbench/cluster/lib.sh
. "$here/lib.sh"
cl_init parallel_ssh "$build"
nicsim=$(cd "$build" && pwd)/nicsim
[ -x "$nicsim" ] || cl_fail "$nicsim: not built (make all)"
# sshd needs its privilege-separation folder /run/sshd and, to log a user
# in, root
[ "$(id -u)" = 0 ] || cl_fail "sshd must run as root to log a user in; run the cluster tests as root"
cl_need /usr/sbin/sshd ssh ssh-keygen parallel

# ---- sshd on a loopback port, keys of this run ---------------------------------
keys=$CL_STATE/ssh
mkdir -m 700 "$keys"
ssh-keygen -q -t ed25519 -N '' -C "nicsim cluster test host key" -f "$keys/host_key"
ssh-keygen -q -t ed25519 -N '' -C "nicsim cluster test user key" -f "$keys/user_key"
cp "$keys/user_key.pub" "$keys/authorized_keys"
port=
cl_free_port port
user=$(id -un)
made_privsep=
# /run/sshd, if this run made it, once its sshd has stopped and no other
# sshd (another run's, or the system's) is running that may need it.
remove_privsep() {
    [ -n "$made_privsep" ] || return 0
    local d st
    for d in /proc/[0-9]*; do
        [ "$(cat "$d/comm" 2>/dev/null)" = sshd ] || continue
        st=$(sed 's/^.*) //' "$d/stat" 2>/dev/null) || continue
        [ "${st%% *}" = Z ] || return 0
    done
    rmdir /run/sshd 2>/dev/null
    return 0
}
CL_AFTER_STOP=remove_privsep
# sshd's privilege separation folder, made by its init script on a system
# that runs it; removed again at the end if this run made it.
if [ ! -d /run/sshd ]; then
    mkdir -m 755 /run/sshd
    made_privsep=1
fi
# Keys only, this run's user only, nothing forwarded; SetEnv tags the
# sessions so that a job outliving the test is found (lib.sh).
# MaxStartups: parallel opens its connections at once.
cat > "$keys/sshd_config" <<EOF
ListenAddress 127.0.0.1:$port
HostKey $keys/host_key
PidFile $keys/sshd.pid
AuthorizedKeysFile $keys/authorized_keys
AllowUsers $user
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AllowAgentForwarding no
AllowTcpForwarding no
X11Forwarding no
PrintMotd no
MaxStartups 30:30:60
SetEnv NICSIM_CLUSTER=$CL_TAG
EOF
cl_start sshd "$keys/sshd.log" /usr/sbin/sshd -D -e -f "$keys/sshd_config"
# The host key is known beforehand: no "accept new key" step.
echo "nicsim-test-sshd $(cat "$keys/host_key.pub")" > "$keys/known_hosts"
cat > "$keys/ssh_config" <<EOF
Host nicsim-host-a nicsim-host-b
  HostName 127.0.0.1
  Port $port
  User $user
  IdentityFile $keys/user_key
  IdentitiesOnly yes
  HostKeyAlias nicsim-test-sshd
  UserKnownHostsFile $keys/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 30
EOF
ssh_ok() { ssh -F "$keys/ssh_config" nicsim-host-a true; }
cl_wait 60 "ssh to nicsim-host-a (127.0.0.1:$port) with the test key" ssh_ok
# One job at a time on each "host": two hosts of one core each.
logins=$CL_STATE/sshloginfile
printf '1/ssh -F %s nicsim-host-a\n1/ssh -F %s nicsim-host-b\n' "$keys/ssh_config" "$keys/ssh_config" > "$logins"
cl_say "sshd up on 127.0.0.1:$port; hosts nicsim-host-a and nicsim-host-b ($logins)"


work=$CL_OUT/work   # kept with the logs: the results, job logs, merge outputs
mkdir -p "$work"
scn=$work/e1000-pktgen.ini
cp "$top/testbench/scenarios/e1000-pktgen.ini" "$scn"
grid=(pktgen.size=64..512:64 pktgen.count=1000)
cd "$top"
"$nicsim" sweep "$scn" "${grid[@]}" -j 1 --csv "$work/ref.csv" > "$work/ref.log" 2>&1 ||
    cl_fail "nicsim sweep ${grid[*]} -j 1 failed: $(tail -3 "$work/ref.log")"

# run_jobs NAME JOBSFILE: parallel over ssh from /, its exit status in
# $prc, output in $work/NAME.out, job log in $work/NAME.joblog.
# (run.sh's timeout bounds the whole test.)
run_jobs() {
    prc=0
    cl_fg / parallel --sshloginfile "$logins" --joblog "$work/$1.joblog" < "$2" > "$work/$1.out" 2>&1 || prc=$?
}
joblog_field() {  # joblog_field LOG COLUMN: that column of every job, one a line
    awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { print $n }' "$1"
}

# ---- every job over ssh, merged -----------------------------------------------------
"$nicsim" sweep "$scn" "${grid[@]}" --emit-jobs "$work/sweep.jobs" --results "$work/results" 2> /dev/null ||
    cl_fail "nicsim sweep --emit-jobs failed"
run_jobs sweep "$work/sweep.jobs"
[ "$prc" = 0 ] || cl_fail "parallel --sshloginfile: exit $prc ($(tail -5 "$work/sweep.out"))"
njobs=$(joblog_field "$work/sweep.joblog" Exitval | grep -c '^0$' || true)
[ "$njobs" = 8 ] || cl_fail "$work/sweep.joblog: $njobs jobs with exit 0, expected 8"
for h in nicsim-host-a nicsim-host-b; do
    n=$(joblog_field "$work/sweep.joblog" Host | grep -c "^ssh -F .* $h\$" || true)
    [ "$n" -ge 1 ] || cl_fail "$work/sweep.joblog: no job ran on $h over ssh"
    cl_say "$n jobs ran on $h"
done
logins_seen=$(grep -c "Accepted publickey for $user" "$keys/sshd.log" || true)
[ "$logins_seen" -ge 8 ] || cl_fail "$keys/sshd.log: $logins_seen ssh logins, expected at least one per job (8)"
"$nicsim" merge "$work/results" --csv "$work/merged.csv" > "$work/merge.out" 2> "$work/merge.err" ||
    cl_fail "nicsim merge $work/results: exit $? ($(cat "$work/merge.err"))"
cmp -s "$work/ref.csv" "$work/merged.csv" ||
    cl_fail "merged CSV differs from sweep -j 1's: $(diff "$work/ref.csv" "$work/merged.csv" | head -10)"
cl_say "8 jobs over ssh ($logins_seen logins), merged CSV = sweep -j 1's byte for byte"

# ---- a host without the checkout ----------------------------------------------------
# Emitted by a binary that then disappears: what a host without the
# checkout sees.
alt=$CL_STATE/elsewhere/build
mkdir -p "$alt"
cp "$nicsim" "$alt/nicsim"
"$alt/nicsim" sweep "$scn" pktgen.size=64,128 pktgen.count=1000 --emit-jobs "$work/nocheckout.jobs" \
    --results "$work/nocheckout" 2> /dev/null || cl_fail "emitting from $alt/nicsim failed"
rm -rf "$CL_STATE/elsewhere"
run_jobs nocheckout "$work/nocheckout.jobs"
cat "$work/nocheckout.out"
[ "$prc" = 2 ] || cl_fail "parallel, a host without the checkout: exit $prc, expected 2 (both jobs failed)"
codes=$(joblog_field "$work/nocheckout.joblog" Exitval | sort -u | tr '\n' ' ')
[ "$codes" = "127 " ] || cl_fail "$work/nocheckout.joblog: exit statuses $codes, expected 127 for both"
msg="nicsim: $alt/nicsim not found on host $(uname -n): the checkout must be at the same path on every host (or on a shared filesystem)"
n=$(grep -cxF "$msg" "$work/nocheckout.out" || true)
[ "$n" = 2 ] || cl_fail "parallel's output has '$msg' $n times, expected 2"
rc=0
"$nicsim" merge "$work/nocheckout" > /dev/null 2> "$work/nocheckout-merge.err" || rc=$?
cat "$work/nocheckout-merge.err"
[ "$rc" = 1 ] || cl_fail "nicsim merge $work/nocheckout: exit $rc, expected 1"
rerun="sed -n '1,2p' $work/nocheckout.jobs | parallel -j N"
grep -qF "  $rerun" "$work/nocheckout-merge.err" || cl_fail "nicsim merge: no '$rerun' line"
# The binary back where the jobs expect it: the line merge printed, with
# the ssh logins in place of -j N, completes the grid.
mkdir -p "$alt"
cp "$nicsim" "$alt/nicsim"
pick=$(grep -E "^  sed -n " "$work/nocheckout-merge.err" | sed -e 's/^  //' -e 's/ | parallel .*//')
(cd / && eval "$pick") > "$work/rerun.jobs" || cl_fail "'$pick' (printed by merge) failed"
run_jobs rerun "$work/rerun.jobs"
[ "$prc" = 0 ] || cl_fail "the rerun of points 1,2 over ssh: exit $prc ($(tail -5 "$work/rerun.out"))"
"$nicsim" merge "$work/nocheckout" > /dev/null 2>&1 || cl_fail "nicsim merge $work/nocheckout after the rerun: exit $?"
rm -rf "$CL_STATE/elsewhere"
cl_say "a host without the checkout: both jobs exit 127 naming the binary and the host; the rerun line completes them"

# ---- a host without the results folder -------------------------------------------
"$nicsim" sweep "$scn" pktgen.size=64 pktgen.count=1000 --emit-jobs "$work/noresults.jobs" \
    --results "$CL_STATE/noresults" 2> /dev/null || cl_fail "nicsim sweep --emit-jobs failed"
mv "$CL_STATE/noresults" "$CL_STATE/noresults.elsewhere"
run_jobs noresults "$work/noresults.jobs"
cat "$work/noresults.out"
[ "$prc" = 1 ] || cl_fail "parallel, a host without the results folder: exit $prc, expected 1"
codes=$(joblog_field "$work/noresults.joblog" Exitval | tr '\n' ' ')
[ "$codes" = "2 " ] || cl_fail "$work/noresults.joblog: exit status $codes, expected 2"
msg="nicsim: results folder $CL_STATE/noresults not found on host $(uname -n): the points write their results there"
grep -qF "$msg" "$work/noresults.out" || cl_fail "parallel's output lacks '$msg'"
cl_say "a host without the results folder: exit 2, naming the folder and the host"
