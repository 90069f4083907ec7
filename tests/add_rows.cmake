# docs/ARCHITECTURE.md's "one file, one row" for a lesson and a key, done in
# a scratch copy (test_add_key_lesson.sh): a lesson file in a copy of
# lessons/ with the built program, a keymap row in a copy of the sources
# built with the window (a few minutes on two cores). The theme's file is
# test_theme_files', the algorithm's and the link preset's rows
# test_add_algorithm's.
if(COLLVIZ_GUI)
  # Two ctests: the lesson (seconds) and the key, whose scratch build is in
  # the slow tier (label "slow": scripts/test.sh --slow, .ci/run).
  foreach(part lesson key)
    add_test(NAME test_add_key_lesson/${part}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_add_key_lesson.sh ${PROJECT_SOURCE_DIR}
                     ${CMAKE_C_COMPILER} $<TARGET_FILE:collviz> ${part})
    set_tests_properties(test_add_key_lesson/${part} PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77
                         LABELS test_add_key_lesson)
  endforeach()
  set_tests_properties(test_add_key_lesson/key PROPERTIES LABELS "test_add_key_lesson;slow" COST 70)
endif()
