# check_list.cmake: run after a test executable is built (cmake -P, from
# collviz_test_cases in tests/CMakeLists.txt), as gtest_discover_tests
# does: asks the executable for its cases (EXE ARGS --list) and writes
# their names to OUT, one a line, which ctest reads to give each case a
# test of its own. Where SOURCES are given and none of them hands a table
# to the runner (CASES_MAIN, cases_args), the executable is not asked (it
# would run its checks) and OUT is "*": the test is one ctest. The file is
# rewritten only when the list changed; a test that cannot list its cases
# fails the build, saying why. Lists are given with '|' between items.
#   cmake -D EXE=path -D "ARGS=a|b" -D "SOURCES=x.c|y.c" -D OUT=file -P check_list.cmake
if(NOT EXE OR NOT OUT)
  message(FATAL_ERROR "check_list.cmake: EXE and OUT are required")
endif()
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" SOURCES "${SOURCES}")
set(table ON)
if(SOURCES)
  set(table OFF)
  foreach(src ${SOURCES})
    file(STRINGS ${src} uses REGEX "CASES_MAIN\\(|cases_args\\(")
    if(uses)
      set(table ON)
    endif()
  endforeach()
endif()
if(table)
  execute_process(COMMAND ${EXE} ${ARGS} --list
                  RESULT_VARIABLE rc OUTPUT_VARIABLE names ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE} ${ARGS} --list exited ${rc}: ${names}${err}")
  endif()
  if(names STREQUAL "")
    message(FATAL_ERROR "${EXE} ${ARGS} --list named no case")
  endif()
else()
  set(names "*\n")
endif()
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL names)
  file(WRITE ${OUT} "${names}")
endif()
