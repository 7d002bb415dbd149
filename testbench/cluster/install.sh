#!/usr/bin/env bash
# testbench/cluster/install.sh PACKAGE...: the Debian packages of the
# cluster tests, installed when missing, without starting their services.
# testbench/cluster/install.sh --check PACKAGE...: exit 0 when each is
# installed or installable here, else 1, printing those that are neither.
#
# Installing munge, slurmctld, slurmd or openssh-server starts its system
# daemon through invoke-rc.d unless a policy says not to; the tests run
# their own on loopback ports and must leave nothing running.  So the
# install runs under Debian's policy-rc.d mechanism (exit 101: no start),
# the file written only for the install when there is none; a daemon of
# these packages that appears during the install anyway is stopped by its
# pid and reported.
set -euo pipefail
check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
missing=()
# (the outputs are read whole: `... | grep -q` under pipefail fails when
# grep's early exit gives the writer SIGPIPE)
for p in "$@"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ $check = 1 ]; then
    no_candidate() {
        local p
        for p in "${missing[@]}"; do
            case $(apt-cache policy "$p" 2>/dev/null || true) in
                *"Candidate: "[0-9]*) ;;
                *) echo "$p" ;;
            esac
        done
    }
    bad=$(no_candidate)
    # a fresh image has no package lists yet: fetch them once (as root) and ask again
    if [ -n "$bad" ] && [ "$(id -u)" = 0 ]; then
        apt-get update -qq > /dev/null 2>&1 || true
        bad=$(no_candidate)
    fi
    [ -n "$bad" ] || exit 0
    echo "$bad" | tr '\n' ' ' | sed 's/ $//'
    exit 1
fi

if [ "$(id -u)" != 0 ]; then
    echo "nicsim: missing Debian packages for the cluster tests; run as root:"
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
fi
daemons() {   # pids of the daemons these packages bring, running now
    local d
    for d in /proc/[0-9]*; do
        case $(cat "$d/comm" 2>/dev/null) in
            munged | slurmctld | slurmd | slurmstepd | sshd) echo "${d#/proc/}" ;;
        esac
    done
}
before=" $(daemons | tr '\n' ' ') "
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# written by nicsim testbench/cluster/install.sh for one apt-get install: no service starts\nexit 101\n' \
        > "$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
fi
echo "nicsim: installing ${missing[*]} (their services are not started)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
for p in $(daemons); do
    case $before in *" $p "*) continue ;; esac
    echo "nicsim: the install started $(cat "/proc/$p/comm" 2>/dev/null) (pid $p) despite $policy: stopping it" >&2
    kill -TERM "$p" 2>/dev/null || true
done
