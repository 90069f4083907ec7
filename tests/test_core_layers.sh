#!/bin/sh
# test_core_layers.sh: the files of collectives/ call each other in one
# direction only. Which file calls which is read off the built library
# itself (nm on libcvcore.a: every symbol a file uses that another of its
# files defines, functions and tables alike), so it cannot drift from the
# code. Two checks:
#  - no loop: no file reaches itself through the files it calls (tsort);
#  - the documented order: docs/ARCHITECTURE.md lists the files of
#    collectives/ lowest first, a line a layer, in the fenced block after
#    "The files of collectives/ in their order"; a file calls only files on
#    lines above its own, and every file is listed exactly once.
#
#   sh tests/test_core_layers.sh SOURCE_DIR LIBCVCORE
set -u
src=${1:?usage: test_core_layers.sh SOURCE_DIR LIBCVCORE}
lib=${2:?usage: test_core_layers.sh SOURCE_DIR LIBCVCORE}
command -v nm >/dev/null 2>&1 || { echo "test_core_layers: no nm here; skipped"; exit 77; }
[ -f "$lib" ] || { echo "test_core_layers: no library $lib"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

# "caller callee symbol", one line per symbol a file takes from another.
nm -A "$lib" 2>/dev/null | awk '
    { n = split($1, part, ":"); obj = part[n - 1]; sub(/\.c\.o$|\.o$/, "", obj) }
    NF == 3 && $2 ~ /^[TDBRCVW]$/ { def[$3] = obj }
    $(NF - 1) == "U" { use[obj, $NF] = 1 }
    END {
        for (k in use) {
            split(k, b, SUBSEP)
            if ((b[2] in def) && def[b[2]] != b[1])
                print b[1], def[b[2]], b[2]
        }
    }' | sort >"$tmp/calls"
nfiles=$(nm -A "$lib" 2>/dev/null | awk '{ n = split($1, p, ":"); print p[n - 1] }' | sort -u |
         wc -l)
if [ "$nfiles" -lt 2 ] || [ ! -s "$tmp/calls" ]; then
    echo "test_core_layers: found no calls between the files of $lib"
    exit 2
fi

# 1. No loop.
awk '{ print $1, $2 }' "$tmp/calls" | sort -u | tsort >/dev/null 2>"$tmp/loops"
if [ -s "$tmp/loops" ]; then
    echo "test_core_layers: files of collectives/ call each other in a loop:"
    sed 's/^tsort: //' "$tmp/loops"
    echo "what each file takes from another (caller callee symbol):"
    cat "$tmp/calls"
    fail=1
fi

# 2. The documented order.
awk 'found == 0 && /The files of collectives\/ in their order/ { found = 1; next }
     found == 1 && /^```/ { found = 2; next }
     found == 2 && /^```/ { exit }
     found == 2 {
         layer++
         for (i = 1; i <= NF; i++)
             if ($i ~ /^cv_[a-z0-9_]*\.c$/) { f = $i; sub(/\.c$/, "", f); print f, layer }
     }' "$src/docs/ARCHITECTURE.md" >"$tmp/order"
if [ ! -s "$tmp/order" ]; then
    echo "test_core_layers: docs/ARCHITECTURE.md has no list of the files of collectives/ in their"
    echo "order (a fenced block after \"The files of collectives/ in their order\")"
    exit 1
fi
dups=$(awk '{ print $1 }' "$tmp/order" | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "test_core_layers: listed twice in docs/ARCHITECTURE.md's order:" $dups
    fail=1
fi
(cd "$src/collectives" && ls cv_*.c) | sed 's/\.c$//' | sort >"$tmp/files"
awk '{ print $1 }' "$tmp/order" | sort -u >"$tmp/listed"
missing=$(comm -23 "$tmp/files" "$tmp/listed")
gone=$(comm -13 "$tmp/files" "$tmp/listed")
if [ -n "$missing" ]; then
    echo "test_core_layers: not in docs/ARCHITECTURE.md's order of collectives/:" $missing
    fail=1
fi
if [ -n "$gone" ]; then
    echo "test_core_layers: in docs/ARCHITECTURE.md's order but not in collectives/:" $gone
    fail=1
fi
upward=$(awk 'NR == FNR { layer[$1] = $2; next }
              ($1 in layer) && ($2 in layer) && layer[$2] >= layer[$1] {
                  print "  " $1 ".c (line " layer[$1] ") calls " $3 " of " $2 ".c (line " \
                        layer[$2] ")"
              }' "$tmp/order" "$tmp/calls")
if [ -n "$upward" ]; then
    echo "test_core_layers: calls that do not go down docs/ARCHITECTURE.md's order of collectives/:"
    echo "$upward"
    fail=1
fi

[ $fail = 0 ] && echo "test_core_layers: $(awk '{ print $1, $2 }' "$tmp/calls" | sort -u |
    wc -l) calls between $nfiles files, no loop, all down the documented order"
exit $fail
