#!/bin/sh
# test_source_rules.sh: the rules of docs/ARCHITECTURE.md that a reader of
# the code can check but a compiler cannot, checked over the program's
# sources (app/, render/, collectives/, cuda_backend/):
#  - one fatal allocator: only cv_base.c ends the program when memory runs
#    out (everything else calls cv_xmalloc and friends, or returns an error);
#  - one clock: only cv_base.c reads a clock (cv_now_seconds);
#  - no weak symbols: a missing part is a stub file, as cuda_stub.c is.
#
#   sh tests/test_source_rules.sh SOURCE_DIR
set -u
src=${1:?usage: test_source_rules.sh SOURCE_DIR}
cd "$src" || exit 2
files=$(find app render collectives cuda_backend \
          -name '*.c' -o -name '*.cu' -o -name '*.h' | sort)
fail=0

# "out of memory" with abort()/exit/_Exit within the next three lines.
oom=$(awk 'FNR == 1 { armed = 0 }
           /out of memory/ { armed = 4; at = FNR }
           armed > 0 && /(abort|_Exit|exit) *\(/ { print FILENAME ":" at; armed = 0 }
           armed > 0 { armed-- }' $files | grep -v '^collectives/cv_base\.c:')
if [ -n "$oom" ]; then
  echo "test_source_rules: a second fatal allocator (use cv_xmalloc, cv_xcalloc, cv_xrealloc, cv_xstrdup):"
  echo "$oom"
  fail=1
fi

clock=$(grep -n 'clock_gettime\|gettimeofday\|SDL_GetPerformanceCounter\|SDL_GetTicks' $files |
        grep -v '^collectives/cv_base\.c:')
if [ -n "$clock" ]; then
  echo "test_source_rules: a second clock (use cv_now_seconds):"
  echo "$clock"
  fail=1
fi

weak=$(grep -n 'pragma weak\|__attribute__ *(( *weak' $files)
if [ -n "$weak" ]; then
  echo "test_source_rules: a weak symbol (give the missing part a stub file instead):"
  echo "$weak"
  fail=1
fi

[ $fail = 0 ] && echo "test_source_rules: one allocator, one clock, no weak symbols ($(echo $files | wc -w) files)"
exit $fail
