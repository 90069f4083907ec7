# The NCCL log reader (app/ncclog/): logs printed from known topologies in
# every format NCCL has used (tests/ncclog/make_logs.py), bad logs and their
# one-line errors, and `collviz nccl-log` itself.
collviz_test(test_ncclog SOURCES test_ncclog.c LIBS cvncclog cvjson TIMEOUT 120)
collviz_test(test_ncclog_tuner SOURCES test_ncclog_tuner.c LIBS cvncclog cvjson TIMEOUT 60)
add_test(NAME test_ncclog_cli
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_ncclog_cli.sh $<TARGET_FILE:collviz>
                 ${CMAKE_CURRENT_SOURCE_DIR}/ncclog)
set_tests_properties(test_ncclog_cli PROPERTIES TIMEOUT 120)
# Input that never ends, on a pipe: bounded as a file is, and the bound
# on what is kept says what it counted (test_ncclog_bounds.sh; some 5 GB
# through a pipe, seconds each).
add_test(NAME test_ncclog_bounds
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_ncclog_bounds.sh $<TARGET_FILE:collviz>)
# The slow tier (label "slow": scripts/test.sh --slow, .ci/run): about
# 30 s of reading on two cores.
set_tests_properties(test_ncclog_bounds PROPERTIES TIMEOUT 900 LABELS slow COST 30)

# The reader's libFuzzer target (-DCOLLVIZ_FUZZ=ON, clang), seeded with the
# test logs; scripts/fuzz.sh runs it for a bounded time.
if(COLLVIZ_FUZZ)
  target_compile_options(cvncclog PRIVATE -fsanitize=fuzzer-no-link,address,undefined -g)
  add_executable(fuzz_ncclog ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_ncclog.c)
  target_link_libraries(fuzz_ncclog PRIVATE cvncclog)
  target_compile_options(fuzz_ncclog PRIVATE -fsanitize=fuzzer,address,undefined -g)
  target_link_options(fuzz_ncclog PRIVATE -fsanitize=fuzzer,address,undefined)
  collviz_warnings(fuzz_ncclog)
  add_test(NAME fuzz_ncclog_corpus
           COMMAND fuzz_ncclog -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/ncclog)
  set_tests_properties(fuzz_ncclog_corpus PROPERTIES TIMEOUT 300)
endif()

# The log in the real window under Xvfb, driven by xdotool (skipped where
# either is missing).
if(COLLVIZ_GUI)
  add_test(NAME test_ncclog_window
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_ncclog_window.sh $<TARGET_FILE:collviz>
                   ${CMAKE_CURRENT_SOURCE_DIR}/ncclog ${CMAKE_BINARY_DIR}/ncclog-window)
  set_tests_properties(test_ncclog_window PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                       RESOURCE_LOCK xvfb) # one Xvfb at a time (reliability.cmake)
endif()
