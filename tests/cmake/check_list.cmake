# check_list.cmake: run after a test executable is built (cmake -P, from
# collviz_test_cases in tests/CMakeLists.txt), as gtest_discover_tests
# does: asks the executable for its cases (EXE ARGS --list) and writes
# their names to OUT, one a line, which ctest reads to give each case a
# test of its own. The file is rewritten only when the list changed; a
# test that cannot list its cases fails the build, saying why.
#   cmake -D EXE=path -D "ARGS=a;b" -D OUT=file -P check_list.cmake
if(NOT EXE OR NOT OUT)
  message(FATAL_ERROR "check_list.cmake: EXE and OUT are required")
endif()
execute_process(COMMAND ${EXE} ${ARGS} --list
                RESULT_VARIABLE rc OUTPUT_VARIABLE names ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} ${ARGS} --list exited ${rc}: ${names}${err}")
endif()
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL names)
  file(WRITE ${OUT} "${names}")
endif()
