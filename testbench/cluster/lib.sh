# shellcheck shell=bash
# What the cluster tests (testbench/cluster/*.sh) share: a state folder of
# their own, daemons started as this test's children and stopped on every
# exit path, waits with a deadline that fail saying what did not happen,
# and the check that nothing is left running.
#
# Every daemon is started with NICSIM_CLUSTER=<this run's tag> in its
# environment, and the jobs it runs get the same (sbatch passes the
# submitter's environment; sshd's SetEnv): what carries the tag when the
# test ends was started by this run and outlived its stop, whatever it
# forked or re-parented (slurmstepd, sshd's per-connection children).
# Another run at the same time has another tag.
#
# A test sources this, calls cl_init NAME BUILD, and may set CL_BEFORE_STOP
# to a function run before the daemons are stopped (the Slurm test cancels
# what is left of its jobs there) and CL_AFTER_STOP to one run after.

CL_TEST=
CL_STATE=            # /tmp/nicsim-cluster.XXXXXX: configs, keys, sockets, logs (removed at the end)
CL_OUT=              # BUILD/cluster/NAME: the logs, kept
CL_TAG=
CL_PIDS=()           # the daemons, in start order
CL_NAMES=()
CL_LOGS=()
CL_PORTS=" "
CL_BEFORE_STOP=
CL_AFTER_STOP=
CL_FG=               # the command cl_fg is waiting on
CL_STDOUT=1
CL_STDERR=2
CL_T0=$(date +%s.%N)

cl_say() { echo "$CL_TEST: $*"; }
# A failed expectation: what, where, what was expected.  The EXIT trap
# stops the daemons.
cl_fail() {
    echo "FAIL: $CL_TEST: $*" >&2
    exit 1
}
cl_elapsed() { awk -v a="$CL_T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

cl_init() {
    CL_TEST=$1
    CL_OUT=$2/cluster/$1
    rm -rf "$CL_OUT"
    mkdir -p "$CL_OUT"
    CL_OUT=$(cd "$CL_OUT" && pwd)
    # munged wants every folder above its socket searchable by all, and its
    # key in a folder of its own: the state folder is 755, the keys 700.
    CL_STATE=$(mktemp -d /tmp/nicsim-cluster.XXXXXX)
    chmod 755 "$CL_STATE"
    CL_TAG="$CL_TEST:$CL_STATE"
    # the test's own stdout and stderr, for the cleanup: a signal may come
    # while a redirected command runs (cl_fg ... > FILE)
    exec {CL_STDOUT}>&1 {CL_STDERR}>&2
    trap cl_cleanup EXIT
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
    cl_say "state in $CL_STATE, logs in $CL_OUT"
}

# cl_need CMD...: each on PATH (or an absolute path that exists).
cl_need() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null || cl_fail "$c is not installed (make cluster installs the cluster packages)"
    done
}

# cl_free_port VAR: a TCP port nothing listens on into VAR, below the
# ephemeral range (32768 up) so that no outgoing connection takes it
# between here and the bind.  (Not in $(...): it remembers what it gave.)
cl_free_port() {
    local used=" " sl addr st p
    # /proc/net/tcp*: "sl local_address rem_address st ...", port in hex; 0A = LISTEN
    while read -r sl addr _ st _; do
        [ "$sl" != sl: ] && [ "$st" = 0A ] && used+="$((16#${addr##*:})) "
    done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
    for _ in $(seq 200); do
        p=$((20000 + RANDOM % 12000))
        case "$used$CL_PORTS" in *" $p "*) continue ;; esac
        CL_PORTS+="$p "
        printf -v "$1" '%s' "$p"
        return 0
    done
    cl_fail "no free TCP port found in 20000..31999"
}

# cl_start NAME LOG CMD...: CMD in the background, tagged; it must stay in
# the foreground (no daemonizing), so that its pid is ours to stop.
cl_start() {
    local name=$1 log=$2
    shift 2
    env NICSIM_CLUSTER="$CL_TAG" "$@" > "$log" 2>&1 &
    CL_PIDS+=($!)
    CL_NAMES+=("$name")
    CL_LOGS+=("$log")
    cl_say "started $name (pid $!): $*"
}

# Each daemon still running, or fail with the log of the one that is not.
cl_alive() {
    local i
    for i in "${!CL_PIDS[@]}"; do
        [ "${CL_PIDS[$i]}" = 0 ] && continue
        if ! kill -0 "${CL_PIDS[$i]}" 2>/dev/null; then
            echo "--- the end of ${CL_LOGS[$i]}:" >&2
            tail -20 "${CL_LOGS[$i]}" >&2 || true
            cl_fail "${CL_NAMES[$i]} (pid ${CL_PIDS[$i]}) exited (its log: ${CL_LOGS[$i]})"
        fi
    done
}

# cl_wait SECONDS WHAT CMD...: until CMD succeeds, the daemons alive; a
# generous deadline on a slow machine, and a failure that says what was
# awaited.
cl_wait() {
    local secs=$1 what=$2 end
    shift 2
    end=$(($(date +%s) + secs))
    until "$@" >/dev/null 2>&1; do
        cl_alive
        [ "$(date +%s)" -lt "$end" ] || cl_fail "$what: still not the case after $secs s"
        sleep 0.3
    done
}

# cl_fg DIR CMD...: CMD in DIR, tagged, waited for so that a signal to
# this script is handled at once (bash holds a trap until a foreground
# command ends, not a `wait`), and CMD with what it started is stopped
# with the daemons.  Not in a subshell: the pid must be this shell's.
cl_fg() {
    local rc=0 dir=$1
    shift
    # <&0: an asynchronous command's stdin is /dev/null unless given
    env -C "$dir" NICSIM_CLUSTER="$CL_TAG" "$@" <&0 &
    CL_FG=$!
    wait "$CL_FG" || rc=$?
    CL_FG=
    return "$rc"
}

# The pids of processes carrying this run's tag (zombies have no
# environment left and do not count).
cl_tagged() {
    local e
    # one grep over every environment: a loop of greps takes seconds on a busy machine
    grep -lsxzF "NICSIM_CLUSTER=$CL_TAG" /proc/[0-9]*/environ 2>/dev/null | while read -r e; do
        e=${e#/proc/}
        echo "${e%/environ}"
    done
    return 0
}

cl_describe() {
    local p
    for p in "$@"; do
        printf '  pid %s: %.160s\n' "$p" "$(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)"
    done
}

# cl_stop PID NAME: TERM, up to 20 s, then KILL; reaped.
cl_stop() {
    local pid=$1 name=$2 i
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$CL_TEST: $name (pid $pid) still running 20 s after SIGTERM: SIGKILL" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

# The EXIT trap: on every way out, stop what this run started (last
# started first), then check that nothing tagged is left; keep the logs,
# remove the state (keys included).
cl_cleanup() {
    local rc=$? i left
    trap - EXIT HUP INT TERM
    set +e
    exec 1>&"$CL_STDOUT" 2>&"$CL_STDERR"
    # first what the test was waiting on, so that it starts nothing more
    [ -n "$CL_FG" ] && kill -TERM "$CL_FG" 2>/dev/null
    [ -n "$CL_BEFORE_STOP" ] && "$CL_BEFORE_STOP"
    for ((i = ${#CL_PIDS[@]} - 1; i >= 0; i--)); do
        cl_stop "${CL_PIDS[$i]}" "${CL_NAMES[$i]}"
    done
    # what the daemons ran may take a moment to end by itself (an sshd
    # session closing, a slurmstepd reporting)
    for i in $(seq 25); do
        left=$(cl_tagged)
        [ -z "$left" ] && break
        sleep 0.2
    done
    if [ -n "$left" ]; then
        # After a clean run nothing may be left: a failure of its own.  After
        # a failure or a signal (the daemons may have died first, leaving
        # slurmstepd and its job), stopping the rest is part of the cleanup.
        if [ "$rc" -eq 0 ]; then
            echo "FAIL: $CL_TEST: processes of this run still running after its daemons were stopped:" >&2
            rc=1
        else
            echo "$CL_TEST: stopping what the failed run left:" >&2
        fi
        # shellcheck disable=SC2086
        cl_describe $left >&2
        # a short grace: slurmstepd ignores SIGTERM
        # shellcheck disable=SC2086
        kill -TERM $left 2>/dev/null
        for i in $(seq 10); do
            left=$(cl_tagged)
            [ -z "$left" ] && break
            sleep 0.2
        done
        # shellcheck disable=SC2086
        [ -z "$left" ] || kill -KILL $left 2>/dev/null
        sleep 0.5
        left=$(cl_tagged)
        if [ -n "$left" ]; then
            echo "FAIL: $CL_TEST: still running after SIGKILL:" >&2
            # shellcheck disable=SC2086
            cl_describe $left >&2
            rc=1
        fi
    else
        echo "$CL_TEST: stopped ${CL_NAMES[*]:-nothing}; no process of this run left running"
    fi
    [ -n "$CL_AFTER_STOP" ] && "$CL_AFTER_STOP"
    [ -n "$CL_STATE" ] && [ -d "$CL_STATE" ] &&
        find "$CL_STATE" -name '*.log' -type f -exec cp {} "$CL_OUT/" \; 2>/dev/null
    [ -n "$CL_STATE" ] && rm -rf "$CL_STATE"
    if [ "$rc" -eq 0 ]; then
        echo "$CL_TEST: PASS ($(cl_elapsed) s)"
    else
        echo "$CL_TEST: FAILED, exit status $rc ($(cl_elapsed) s; logs in $CL_OUT)" >&2
    fi
    exit "$rc"
}
