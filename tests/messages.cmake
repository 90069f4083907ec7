# Messages that misled (test_messages_cli.sh): COLLVIZ_MEMORY_LIMIT too
# large, and show's rank count, a row too large to model, rows holding NUL
# bytes and absurd times, each one line naming the file and line and what
# is allowed (show's cases in the build with the window).
add_test(NAME test_messages_cli
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_messages_cli.sh $<TARGET_FILE:collviz>)
set_tests_properties(test_messages_cli PROPERTIES TIMEOUT 120)
