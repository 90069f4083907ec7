# Plans along a ring and trees given from outside (cv_topology), as an NCCL
# log gives them: valid, whole provenance, right values, only given edges.
collviz_test(test_topology SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_topology.c LIBS cvcore
             TIMEOUT 600)
