#!/bin/bash
# The figures the docs quote from a command, checked against the command.
#
# A quoted figure is marked in the text (README.md, docs/*.md) as
#     <!--f:ID-->1291.9<!--/f-->
# (an HTML comment: Markdown shows only the value), and docs/figures.conf
# says where it comes from:
#     cmd NAME COMMAND...                (run from the repository root; {json}
#                                         becomes a scratch file the command
#                                         writes its JSON to)
#     fig ID NAME FORMAT JQ-EXPRESSION   (the figure: the expression over NAME's
#                                         JSON, printed with FORMAT: a printf
#                                         format, or %,d for an integer with
#                                         thousands separators)
# Every command a marked figure needs is run once; each marked value must
# equal its figure as printed.  A change that moves a figure fails here until
# the text is updated (--update writes the new values into the text).
#
# usage: testbench/tools/docs-figures.sh [--update] [--list]
# exit: 0 every figure matches; 1 a figure differs, a command failed, or an
# ID is marked but not defined (or defined but marked nowhere); 2 usage.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
conf=docs/figures.conf
update=0 list=0
for a in "$@"; do
    case $a in
    --update) update=1 ;;
    --list) list=1 ;;
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "docs-figures: unknown argument '$a' (expected --update or --list)" >&2; exit 2 ;;
    esac
done
command -v jq >/dev/null || { echo "docs-figures: jq is missing (make deps installs it)" >&2; exit 2; }

declare -A cmd_of fig_cmd fig_fmt fig_expr cmd_json value_of
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    read -r kind rest <<<"$line"
    case $kind in
    cmd)
        read -r name command <<<"$rest"
        [ -n "${command:-}" ] || { echo "$conf:$lineno: expected 'cmd NAME COMMAND...'" >&2; exit 2; }
        cmd_of[$name]=$command ;;
    fig)
        read -r id name fmt expr <<<"$rest"
        [ -n "${expr:-}" ] || { echo "$conf:$lineno: expected 'fig ID NAME FORMAT JQ-EXPRESSION'" >&2; exit 2; }
        [ -n "${cmd_of[$name]:-}" ] || { echo "$conf:$lineno: $id: no 'cmd $name' above it" >&2; exit 2; }
        [ -z "${fig_cmd[$id]:-}" ] || { echo "$conf:$lineno: $id: defined twice" >&2; exit 2; }
        fig_cmd[$id]=$name fig_fmt[$id]=$fmt fig_expr[$id]=$expr ;;
    *) echo "$conf:$lineno: expected a line starting with 'cmd' or 'fig', got '$kind'" >&2; exit 2 ;;
    esac
done <"$conf"

files=(README.md docs/*.md)
# every marked figure: FILE<TAB>LINE<TAB>ID<TAB>VALUE
# (a mark inside `code`, as in docs/testing.md's example, is not one)
marks=$(grep -nH -o -E '(^|[^`])<!--f:[A-Za-z0-9_.-]*-->[^<]*<!--/f-->' "${files[@]}" |
        sed -E 's/^([^:]*):([0-9]*):[^<]?<!--f:([^>]*)-->(.*)<!--\/f-->$/\1\t\2\t\3\t\4/' || true)
if [ $list = 1 ]; then
    printf '%s\n' "$marks"
    exit 0
fi

status=0
declare -A used
while IFS=$'\t' read -r file ln id val; do
    [ -n "$id" ] || continue
    used[$id]=1
    [ -n "${fig_cmd[$id]:-}" ] || { echo "$file:$ln: figure $id is not defined in $conf" >&2; status=1; }
done <<<"$marks"
for id in "${!fig_cmd[@]}"; do
    [ -n "${used[$id]:-}" ] || { echo "$conf: figure $id is marked in no doc" >&2; status=1; }
done
[ $status = 0 ] || exit 1

scratch=$(mktemp -d "${TMPDIR:-/tmp}/docs_figures_XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# run each command a marked figure needs, once, two at a time (the
# commands are deterministic: their order does not matter)
needed=$(for id in "${!used[@]}"; do echo "${fig_cmd[$id]}"; done | sort -u)
declare -A pid_of
running=0
for name in $needed; do
    json=$scratch/$name.json
    command=${cmd_of[$name]//\{json\}/$json}
    echo "docs-figures: $command" >&2
    bash -c "$command" >"$scratch/$name.out" 2>"$scratch/$name.err" &
    pid_of[$name]=$!
    cmd_json[$name]=$json
    running=$((running + 1))
    if [ $running -ge 2 ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
for name in $needed; do
    if ! wait "${pid_of[$name]}"; then
        echo "docs-figures: '${cmd_of[$name]//\{json\}/-}' failed:" >&2
        tail -5 "$scratch/$name.err" >&2
        status=1
    fi
done
[ $status = 0 ] || exit 1

# each figure as the text should print it
for id in "${!used[@]}"; do
    name=${fig_cmd[$id]} fmt=${fig_fmt[$id]}
    raw=$(jq -r "${fig_expr[$id]}" "${cmd_json[$name]}") || { echo "$conf: $id: jq '${fig_expr[$id]}' failed" >&2; exit 1; }
    if [ "$fmt" = '%,d' ]; then
        value=$(LC_ALL=C printf '%.0f' "$raw" | sed -E ':a; s/^(-?[0-9]+)([0-9]{3})/\1,\2/; ta')
    else
        value=$(LC_ALL=C printf "$fmt" "$raw")
    fi
    value_of[$id]=$value
done

n=0 bad=0
while IFS=$'\t' read -r file ln id val; do
    [ -n "$id" ] || continue
    n=$((n + 1))
    want=${value_of[$id]}
    [ "$val" = "$want" ] && continue
    if [ $update = 1 ]; then
        echo "$file:$ln: $id: $val -> $want" >&2
        sed -i "${ln}s|<!--f:$id-->[^<]*<!--/f-->|<!--f:$id-->$want<!--/f-->|" "$file"
    else
        echo "$file:$ln: $id: the text says '$val', '${cmd_of[${fig_cmd[$id]}]//\{json\}/-}' gives '$want'" >&2
        bad=$((bad + 1))
    fi
done <<<"$marks"
ncmd=$(wc -w <<<"$needed")
if [ $bad != 0 ]; then
    echo "docs-figures: $bad of $n figures differ from their commands (testbench/tools/docs-figures.sh --update writes the commands' values into the text)" >&2
    exit 1
fi
echo "docs-figures: $n marked figures in README.md and docs/ match their $ncmd commands"
