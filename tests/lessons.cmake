# Lessons: loader and validator, quiz checking, progress, the shipped
# course, the commands, and (with -DCOLLVIZ_FUZZ=ON and clang) the loader's
# libFuzzer target.
#
# The tests link cvlesson (app/lesson/); `lesson`, `lessons` and `drill`
# are also run as the program itself.

collviz_test(test_lesson_load SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_load.c LIBS cvlesson
             TIMEOUT 300)
collviz_test(test_lesson_bad SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_bad.c LIBS cvlesson
             TIMEOUT 120)
# Every time a lesson's text states is a figure checked against the cost
# model, a number quiz's model answer, or a link's latency.
collviz_test(test_lesson_figures SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_figures.c
             LIBS cvlesson TIMEOUT 120)
collviz_test(test_lesson_quiz SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_quiz.c LIBS cvlesson
             TIMEOUT 120)
# The diagram label limits the validator enforces are the renderer's field
# sizes: checked at compile time against render.h wherever the renderer is
# built.
if(TARGET cvrender)
  get_target_property(COLLVIZ_RENDER_TYPE cvrender TYPE)
  if(NOT COLLVIZ_RENDER_TYPE STREQUAL "INTERFACE_LIBRARY")
    collviz_test(test_lesson_labels SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_labels.c
                 LIBS cvlesson cvrender TIMEOUT 60)
  endif()
endif()
collviz_test(test_progress SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_progress.c LIBS cvlesson
             TIMEOUT 300)

# The commands, through the program (tests/test_lesson_cli.sh): the shipped
# course validates, bad files make --check exit 2 with file:line:column
# messages, deep links check their id and beat, the text player and the
# drill run without a terminal, progress lands under XDG_DATA_HOME.
if(TARGET collviz)
  add_test(NAME test_lesson_cli
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_cli.sh $<TARGET_FILE:collviz>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/lesson-cli)
  set_tests_properties(test_lesson_cli PROPERTIES TIMEOUT 300)
  # The lessons' model answers remembered in a file (COLLVIZ_MODEL_CACHE, as
  # the browser's page reads them) give every lesson the same text.
  add_test(NAME test_model_cache
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_model_cache.sh $<TARGET_FILE:collviz>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/model-cache)
  set_tests_properties(test_model_cache PROPERTIES TIMEOUT 900 COST 25)
endif()

if(COLLVIZ_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "COLLVIZ_FUZZ=ON needs clang for libFuzzer: configure with CC=clang")
  endif()
  # The course library is instrumented for coverage so the fuzzer sees
  # which branches of the loader an input reaches.
  target_compile_options(cvlesson PRIVATE -fsanitize=fuzzer-no-link,address,undefined -g)
  add_executable(fuzz_lesson ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_lesson.c)
  target_link_libraries(fuzz_lesson PRIVATE cvlesson)
  target_compile_options(fuzz_lesson PRIVATE -fsanitize=fuzzer,address,undefined -g)
  target_link_options(fuzz_lesson PRIVATE -fsanitize=fuzzer,address,undefined)
  collviz_warnings(fuzz_lesson)
  # Replays the seed corpus once: proves the target builds and runs.
  add_test(NAME fuzz_lesson_corpus
           COMMAND fuzz_lesson -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)
  set_tests_properties(fuzz_lesson_corpus PROPERTIES TIMEOUT 300)
endif()
# A number quiz's unit in the learner's language (unit_zh, "us" as "µs").
collviz_test(test_lesson_units SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_units.c LIBS cvlesson)
