# assets/ (fonts, palettes, icon) and the search for lessons/ and assets/.
if(NOT COLLVIZ_GUI)
  return() # a build without the window has no fonts to find
endif()
collviz_test(test_assets SOURCES test_assets.c LIBS cvrender cvcli cvcore TIMEOUT 120)
