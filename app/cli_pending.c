/*
 * cli_pending.c: weak fallbacks for subcommands that live in other modules
 * (the window, export, lessons). A build that lacks one of those modules
 * still links and says plainly that the subcommand is not in this build;
 * the module's own definition replaces the fallback when it is linked. A
 * build configured with -DCOLLVIZ_GUI=OFF (a GPU server with no display)
 * leaves out everything that draws and relies on these.
 */
#include "app.h"

static int missing(const char *name)
{
#ifdef COLLVIZ_GUI
    fprintf(stderr, "collviz: '%s' is not part of this build\n", name);
#else
    fprintf(stderr, "collviz: '%s' needs the window, which this build leaves out "
                    "(configured with -DCOLLVIZ_GUI=OFF); run, bench, cost, list, lesson, "
                    "lessons and drill work without it\n", name);
#endif
    return APP_EXIT_USAGE;
}

#define FALLBACK(fn, name)                                                                 \
    __attribute__((weak)) int fn(int argc, char **argv)                                    \
    {                                                                                      \
        (void)argc;                                                                        \
        (void)argv;                                                                        \
        return missing(name);                                                              \
    }

FALLBACK(app_cmd_gui, "gui")
FALLBACK(app_cmd_export, "export")
FALLBACK(app_cmd_render, "render")
FALLBACK(app_cmd_lesson, "lesson")
FALLBACK(app_cmd_lessons, "lessons")
FALLBACK(app_cmd_drill, "drill")
FALLBACK(app_cmd_show, "show")
