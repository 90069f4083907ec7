#!/bin/sh
# test_link_lists.sh: every list of the link presets a reader sees is the
# preset table's (collectives/cv_cost.c), in its order, taken as `collviz
# list` prints it under "links (cost model):":
#  - the README's sentence "Link presets: a, b, ..." (which may run over
#    several lines, up to the "(`collviz list`" that follows it), the one
#    copy written by hand;
#  - `collviz cost --help`'s "--link a|b|..." and `collviz show --help`'s
#    "a preset (a, b, ...)", which the program makes from the table (show
#    only where the build has the window).
#
#   sh tests/test_link_lists.sh SOURCE_DIR COLLVIZ
set -u
src=${1:?usage: test_link_lists.sh SOURCE_DIR COLLVIZ}
collviz=${2:?usage: test_link_lists.sh SOURCE_DIR COLLVIZ}
fail=0

table=$("$collviz" list | awk '/^links \(cost model\):/ { on = 1; next }
                              on && /^  / { printf "%s%s", n++ ? ", " : "", $1; next }
                              on { exit }')
if [ -z "$table" ]; then
    echo "test_link_lists: \`collviz list\` printed no link presets"
    exit 1
fi
readme=$(awk '/^Link presets: / { on = 1; sub(/^Link presets: /, "") }
              on { line = $0; cut = index(line, "(`collviz list`")
                   if (cut) { line = substr(line, 1, cut - 1); on = 0 }
                   text = text " " line; if (!on) exit }
              END { print text }' "$src/README.md" |
         tr -s ' ' | sed 's/^ //; s/ $//; s/\.$//')
if [ "$readme" != "$table" ]; then
    echo "test_link_lists: README.md's \"Link presets:\" do not match the table:"
    echo "  README: $readme"
    echo "  table:  $table"
    fail=1
fi
bar=$(echo "$table" | sed 's/, /|/g')
if ! "$collviz" cost --help | grep -qF -- "[--link $bar | --bw GBps]"; then
    echo "test_link_lists: \`collviz cost --help\` does not list the table's presets ($bar):"
    "$collviz" cost --help | grep -- --link
    fail=1
fi
show=$("$collviz" show --help 2>&1)
if echo "$show" | grep -q '^usage: collviz show'; then
    listed=$(echo "$show" | tr '\n' ' ' | tr -s ' ' | sed -n 's/.*a preset (\([^)]*\)).*/\1/p')
    if [ "$listed" != "$table" ]; then
        echo "test_link_lists: \`collviz show --help\` lists \"$listed\", the table \"$table\""
        fail=1
    fi
fi
[ $fail = 0 ] && echo "test_link_lists: the README and the help list the" \
    "$(echo "$table" | tr ',' '\n' | wc -l) presets of the table"
exit $fail
