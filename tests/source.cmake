# Rules over the sources themselves: one fatal allocator, one clock, no weak
# symbols (tests/test_source_rules.sh).
add_test(NAME test_source_rules
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_source_rules.sh ${PROJECT_SOURCE_DIR})
