# The one JSON reader (collectives/json/, cvjsonread): what it refuses for every
# caller, with the place, and the places and number text it gives them.
collviz_test(test_jsonread SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_jsonread.c LIBS cvjsonread
             TIMEOUT 60 SERIAL)
# Every command that reads JSON refuses the same bad files the same way,
# through the program (tests/test_json_files.sh says which, and what each
# did before).
if(TARGET collviz)
  add_test(NAME test_json_files
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_json_files.sh $<TARGET_FILE:collviz>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/json-files ${COLLVIZ_GUI})
  set_tests_properties(test_json_files PROPERTIES TIMEOUT 300)
endif()

# libFuzzer (-DCOLLVIZ_FUZZ=ON, clang): the reader itself and run --input's
# reader on top of it, both instrumented for coverage; scripts/fuzz.sh runs
# it for a bounded time, this test replays the seeds once.
if(COLLVIZ_FUZZ)
  target_compile_options(cvjsonread PRIVATE -fsanitize=fuzzer-no-link,address,undefined -g)
  target_compile_options(cvcli PRIVATE -fsanitize=fuzzer-no-link,address,undefined -g)
  add_executable(fuzz_jsonread ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_jsonread.c)
  target_link_libraries(fuzz_jsonread PRIVATE cvcli cvjsonread)
  target_compile_options(fuzz_jsonread PRIVATE -fsanitize=fuzzer,address,undefined -g)
  target_link_options(fuzz_jsonread PRIVATE -fsanitize=fuzzer,address,undefined)
  collviz_warnings(fuzz_jsonread)
  add_test(NAME fuzz_jsonread_corpus
           COMMAND fuzz_jsonread -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/jsonread)
  set_tests_properties(fuzz_jsonread_corpus PROPERTIES TIMEOUT 300)
endif()
