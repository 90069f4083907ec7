# The one JSON reader (jsonread/, cvjsonread): what it refuses for every
# caller, with the place, and the places and number text it gives them.
collviz_test(test_jsonread SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_jsonread.c LIBS cvjsonread
             TIMEOUT 60)
# Every command that reads JSON refuses the same bad files the same way,
# through the program (tests/test_json_files.sh says which, and what each
# did before).
if(TARGET collviz)
  add_test(NAME test_json_files
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_json_files.sh $<TARGET_FILE:collviz>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/json-files ${COLLVIZ_GUI})
  set_tests_properties(test_json_files PROPERTIES TIMEOUT 300)
endif()
