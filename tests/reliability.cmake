# Reliability (issue: no crash, no silent kill, no hang, nothing lost):
# events between a rebuild and the next draw.
if(COLLVIZ_GUI)
  collviz_test(test_gui_rebuild SOURCES test_gui_rebuild.c test_render_util.c LIBS cvgui TIMEOUT 300)
endif()
# One flag parser for every subcommand: the same forms, the same messages.
collviz_test(test_cli_flags SOURCES test_cli_flags.c test_cli_util.c LIBS cvjson TIMEOUT 300 SERIAL)
add_dependencies(test_cli_flags collviz)
if(NOT COLLVIZ_GUI)
  target_compile_definitions(test_cli_flags PRIVATE COLLVIZ_TEST_NO_GUI=1)
endif()
# The command line under pressure: memory, long runs, FIFOs, full disks,
# escape sequences in files (test_reliability_cli.sh says which).
# (show and gui are in it: the build with the window.)
if(COLLVIZ_GUI)
  add_test(NAME test_reliability_cli
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_reliability_cli.sh $<TARGET_FILE:collviz>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/reliability-cli "${COLLVIZ_SANITIZE}")
  # COST: long, so ctest starts it first on a fresh build (no timings yet).
  set_tests_properties(test_reliability_cli PROPERTIES TIMEOUT 900 COST 90)
  # Reading a trace: memory bounded from its header, numbers quoted as
  # written, one line for a refusal, root, slices and transfers checked.
  add_test(NAME test_reliability_trace
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_reliability_trace.sh $<TARGET_FILE:collviz>
                   ${CMAKE_BINARY_DIR}/reliability-trace "${COLLVIZ_SANITIZE}")
  set_tests_properties(test_reliability_trace PROPERTIES TIMEOUT 600 COST 40)
endif()

# Every writer of a file the user names (trace, GIF, frames, show's PNG,
# the model cache) refuses a device, a FIFO, a directory or a link, and
# never opens a temporary name taken beforehand (test_reliability_writers.sh).
add_test(NAME test_reliability_writers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_reliability_writers.sh $<TARGET_FILE:collviz>
                 ${CMAKE_BINARY_DIR}/reliability-writers)
set_tests_properties(test_reliability_writers PROPERTIES TIMEOUT 300)

# A progress file its user cannot read is kept (as root: the drill as
# nobody, in a folder of its own under /tmp), also from a checkout in a
# mode-700 folder. Without the window too: the drill is in both builds.
add_test(NAME test_progress_noread
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_progress_noread.sh $<TARGET_FILE:collviz>
                 ${PROJECT_SOURCE_DIR}/lessons)
add_test(NAME test_progress_noread_private_clone
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_private_clone.sh $<TARGET_FILE:collviz>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(test_progress_noread test_progress_noread_private_clone
                     PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)

# libFuzzer targets for the other files collviz reads from a user's disk
# (-DCOLLVIZ_FUZZ=ON, clang): the progress file, and `show`'s reader of
# bench results (cvshow, instrumented, without the window).
# scripts/fuzz.sh runs every target for a bounded time; these tests replay
# the seeds once.
if(COLLVIZ_FUZZ)
  # The size parser (cost --bytes, bench -b/-e, COLLVIZ_MEMORY_LIMIT): the
  # engine instrumented for coverage, so the fuzzer sees its branches.
  target_compile_options(cvcore PRIVATE -fsanitize=fuzzer-no-link)
  add_executable(fuzz_size ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_size.c)
  target_link_libraries(fuzz_size PRIVATE cvcore)
  target_compile_options(fuzz_size PRIVATE -fsanitize=fuzzer,address,undefined -g)
  target_link_options(fuzz_size PRIVATE -fsanitize=fuzzer,address,undefined)
  collviz_warnings(fuzz_size)
  add_test(NAME fuzz_size_corpus COMMAND fuzz_size -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/size)
  set_tests_properties(fuzz_size_corpus PROPERTIES TIMEOUT 300)
  add_executable(fuzz_progress ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_progress.c)
  target_link_libraries(fuzz_progress PRIVATE cvlesson)
  # The reader's library is instrumented for coverage, as cvlesson is
  # for the lesson loader.
  target_compile_options(cvshow PRIVATE -fsanitize=fuzzer-no-link,address,undefined -g)
  add_executable(fuzz_show ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_show.c)
  target_link_libraries(fuzz_show PRIVATE cvshow)
  foreach(t fuzz_progress fuzz_show)
    target_compile_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined -g)
    target_link_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    collviz_warnings(${t})
  endforeach()
  add_test(NAME fuzz_progress_corpus
           COMMAND fuzz_progress -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/progress)
  add_test(NAME fuzz_show_corpus COMMAND fuzz_show -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/show)
  set_tests_properties(fuzz_progress_corpus fuzz_show_corpus PROPERTIES TIMEOUT 300)
endif()

# The real window under Xvfb driven at random (scripts/soak.sh: keys,
# clicks, drags, the wheel, resizes, bursts faster than frames; the stage,
# then the course): it must never die. Longer under the sanitizers, where
# a use-after-free or a leak ends the process with a report. Skipped where
# Xvfb or xdotool is missing.
if(COLLVIZ_GUI)
  if(COLLVIZ_SANITIZE)
    set(COLLVIZ_SOAK_SECONDS 90)
  else()
    set(COLLVIZ_SOAK_SECONDS 30)
  endif()
  add_test(NAME test_window_soak
           COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/soak.sh $<TARGET_FILE:collviz>
                   ${COLLVIZ_SOAK_SECONDS} ${CMAKE_BINARY_DIR}/window-soak)
  # One X server at a time: two started in the same instant by parallel
  # tests have left the other window test without its display. The tests
  # that start Xvfb share the lock "xvfb"; the others run beside them (this
  # one ran alone, RUN_SERIAL, 30 s with nothing else).
  set_tests_properties(test_window_soak PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
                       RESOURCE_LOCK xvfb LABELS slow COST 30)
  # The slow tier (label "slow", scripts/test.sh --slow, .ci/run): 30 s
  # here, 90 under the sanitizers; test_window_xvfb drives the window in the
  # README's test command.
endif()

# Memory bounded on every path (test_memory_bounded.sh says which): run
# --json streamed within twice its estimate, never an empty exit 0 under an
# address-space cap, an output not written is exit 2.
add_test(NAME test_memory_bounded
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_memory_bounded.sh $<TARGET_FILE:collviz>
                 ${CMAKE_BINARY_DIR}/memory-bounded "${COLLVIZ_SANITIZE}")
set_tests_properties(test_memory_bounded PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
