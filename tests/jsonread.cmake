# The one JSON reader (jsonread/, cvjsonread): what it refuses for every
# caller, with the place, and the places and number text it gives them.
collviz_test(test_jsonread SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_jsonread.c LIBS cvjsonread
             TIMEOUT 60)
