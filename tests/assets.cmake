# assets/ (fonts, palettes, icon) and the search for lessons/ and assets/.
if(NOT COLLVIZ_GUI)
  return() # a build without the window has no fonts to find
endif()
collviz_test(test_assets SOURCES test_assets.c LIBS cvrender cvcli cvcore TIMEOUT 120 SERIAL)
# A theme that exists only as a file (assets/themes/NAME.json in a scratch
# copy of assets/) is a theme: --theme, the T key, a frame, export.
collviz_test(test_theme_files SOURCES test_theme_files.c test_render_util.c LIBS cvgui TIMEOUT 120
             SERIAL)
add_dependencies(test_theme_files collviz)
