#!/usr/bin/env bash
# make layers: the #include graph of the C/C++ sources against the layers of
# docs/architecture.md.  Fails (exit 1) and prints each offence when
#   - a file includes a file of a folder on the same or a higher layer (a
#     folder may include itself and the folders of lower layers only),
#   - files import each other in a circle (a module is a file name without
#     its extension: foo.c and foo.h are one module),
#   - a source file lies in no folder of the table.
# The table is the ```layers block of docs/architecture.md: one line per
# folder, "LEVEL FOLDER", lower levels first; a file belongs to the longest
# folder that holds it.  Includes that name no file of the repository
# (system headers, Verilator's generated headers) are not part of the graph.
# Usage: testbench/tools/layers.sh [REPO_ROOT]   (exit 0 clean, 1 offences, 2 usage)
set -euo pipefail
root=${1:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}
cd "$root" || exit 2
doc=docs/architecture.md
if [ ! -f "$doc" ]; then
    echo "layers: $doc not found (run from the repository)" >&2
    exit 2
fi
table=$(awk '/^```layers[[:space:]]*$/ { on = 1; next } on && /^```/ { exit } on' "$doc")
if [ -z "$table" ]; then
    echo "layers: $doc has no \`\`\`layers block" >&2
    exit 2
fi
# every C/C++ source, tracked or new (but not ignored: build outputs stay
# out); outside a git work tree, every one but those under build/
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' '*.cpp' '*.hpp' '*.cc' | sort -u)
else
    files=$(find . -path ./build -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \
            -o -name '*.cc' \) -print | sed 's|^\./||' | sort)
fi
# "FILE<TAB>INCLUDED" for every #include "..." line (one grep for all files)
includes=$(printf '%s\n' $files | xargs -r grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' 2>/dev/null |
           sed 's/^\([^:]*\):[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1\t\2/')

awk -v table="$table" -v files="$files" -v includes="$includes" '
function normalize(p,    n, parts, out, i, k) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".") continue
        if (parts[i] == "..") { if (k > 0) k--; else return ""; continue }
        out[++k] = parts[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}
function dirname(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "" }
function module(p) { sub(/\.(c|h|cpp|hpp|cc)$/, "", p); return p }
# the table folder a file belongs to ("" when none)
function folder_of(f,    best, d) {
    best = ""
    for (d in level)
        if ((d == "." || index(f, d "/") == 1) && length(d) > length(best)) best = d
    return best
}
function dfs(m,    i, t, k, cyc) {
    state[m] = 1; stack[++depth] = m
    for (i = 1; i <= nout[m]; i++) {
        t = out[m, i]
        if (state[t] == 1) {          # a circle: from t to the top of the stack
            cyc = ""
            for (k = depth; k >= 1; k--) { cyc = stack[k] (cyc == "" ? "" : " -> ") cyc; if (stack[k] == t) break }
            key = cyc
            if (!(key in seen_cycle)) {
                seen_cycle[key] = 1
                printf "layers: import circle: %s -> %s\n", cyc, t
                bad++
            }
        } else if (state[t] == 0) {
            dfs(t)
        }
    }
    depth--; state[m] = 2
}
BEGIN {
    n = split(table, rows, "\n")
    for (i = 1; i <= n; i++) {
        line = rows[i]; sub(/#.*/, "", line)
        if (split(line, w, " ") < 2) continue
        if (w[1] !~ /^[0-9]+$/) { printf "layers: bad line in the layers table: %s\n", rows[i]; exit 2 }
        level[w[2]] = w[1] + 0
    }
    nf = split(files, fl, "\n")
    for (i = 1; i <= nf; i++) {
        if (fl[i] == "") continue
        isfile[fl[i]] = 1
        fo[fl[i]] = folder_of(fl[i])
        if (fo[fl[i]] == "") { printf "layers: %s is in no folder of the layers table (docs/architecture.md)\n", fl[i]; bad++ }
    }
    ni = split(includes, inc, "\n")
    for (i = 1; i <= ni; i++) {
        if (split(inc[i], p, "\t") != 2) continue
        src = p[1]; d = dirname(src)
        tgt = normalize((d == "" ? "" : d "/") p[2])
        if (!(tgt in isfile)) continue
        a = fo[src]; b = fo[tgt]
        if (a != "" && b != "" && a != b && level[b] >= level[a]) {
            printf "layers: %s (layer %d, %s) includes %s (layer %d, %s): only its own folder and lower layers\n",
                   src, level[a], a, tgt, level[b], b
            bad++
        }
        ms = module(src); mt = module(tgt)
        if (ms != mt && !((ms, mt) in edge)) {
            edge[ms, mt] = 1
            out[ms, ++nout[ms]] = mt
            mods[ms] = 1; mods[mt] = 1
        }
    }
    depth = 0
    for (m in mods) if (state[m] == 0) dfs(m)
    if (bad) { printf "layers: %d offence(s)\n", bad; exit 1 }
    nl = 0; for (d in level) nl++
    printf "layers: %d files in %d folders, %d modules: no upward include, no import circle\n", nf, nl, length(mods)
}'
