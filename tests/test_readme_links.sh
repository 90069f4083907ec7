#!/bin/sh
# test_readme_links.sh: the README's list of link presets is the preset
# table's (collectives/cv_cost.c), in its order: the names `collviz list`
# prints under "links (cost model):" against the README's sentence
# "Link presets: a, b, ..." (which may run over several lines, up to the
# "(`collviz list`" that follows it). The table is the only list; this keeps
# the one copy a reader sees from drifting.
#
#   sh tests/test_readme_links.sh SOURCE_DIR COLLVIZ
set -u
src=${1:?usage: test_readme_links.sh SOURCE_DIR COLLVIZ}
collviz=${2:?usage: test_readme_links.sh SOURCE_DIR COLLVIZ}

table=$("$collviz" list | awk '/^links \(cost model\):/ { on = 1; next }
                              on && /^  / { printf "%s%s", n++ ? ", " : "", $1; next }
                              on { exit }')
if [ -z "$table" ]; then
    echo "test_readme_links: \`collviz list\` printed no link presets"
    exit 1
fi
readme=$(awk '/^Link presets: / { on = 1; sub(/^Link presets: /, "") }
              on { line = $0; cut = index(line, "(`collviz list`")
                   if (cut) { line = substr(line, 1, cut - 1); on = 0 }
                   text = text " " line; if (!on) exit }
              END { print text }' "$src/README.md" |
         tr -s ' ' | sed 's/^ //; s/ $//; s/\.$//')
if [ "$readme" != "$table" ]; then
    echo "test_readme_links: README.md's \"Link presets:\" do not match the table:"
    echo "  README: $readme"
    echo "  table:  $table"
    exit 1
fi
echo "test_readme_links: README lists the $(echo "$table" | tr ',' '\n' | wc -l) presets of the table"
