# Reliability (issue: no crash, no silent kill, no hang, nothing lost):
# events between a rebuild and the next draw.
if(COLLVIZ_GUI)
  collviz_test(test_gui_rebuild SOURCES test_gui_rebuild.c test_render_util.c LIBS cvgui TIMEOUT 300)
endif()
