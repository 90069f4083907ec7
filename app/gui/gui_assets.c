/*
 * gui_assets.c: what the window takes from assets/: its fonts, the theme
 * palettes and its icon.
 *
 * The assets are found once per process (cli_data_dir: $COLLVIZ_ASSETS_DIR,
 * beside the program, or PREFIX/share/collviz/assets), and the palettes
 * are read then too, so every window, export and chart of the process draws
 * the same. Without assets the program still runs, on the fonts fontconfig
 * finds and the palettes compiled in, after one line saying so; a bad
 * theme file is named as FILE:LINE:COLUMN, and its theme stays built in
 * (or, a theme of the files alone, is not offered).
 */
#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "gui.h"

static struct {
    bool looked, found, bad_env;
    char dir[4096], why[1024];
} assets;

/* The assets' directory, or NULL; false (err set) when $COLLVIZ_ASSETS_DIR
 * names something that is not a directory. */
static bool assets_dir(const char **dir, char *err, size_t errlen)
{
    if (!assets.looked) {
        static const char *const env[] = {"COLLVIZ_ASSETS_DIR", NULL};
        assets.looked = true;
        assets.found = cli_data_dir("assets", env, assets.dir, sizeof assets.dir, assets.why,
                                    sizeof assets.why);
        const char *v = getenv("COLLVIZ_ASSETS_DIR");
        assets.bad_env = !assets.found && v && *v;
        char perr[1024];
        if (!assets.found && !assets.bad_env)
            fprintf(stderr,
                    "collviz: %s: drawing with the system's fonts and the built-in "
                    "palettes\n",
                    assets.why);
        else if (assets.found && rd_themes_load(assets.dir, perr, sizeof perr) != CV_OK)
            fprintf(stderr, "collviz: %s; that file is not used\n", perr);
    }
    if (assets.bad_env) {
        snprintf(err, errlen, "%s", assets.why);
        return false;
    }
    *dir = assets.found ? assets.dir : NULL;
    return true;
}

int gui_fonts(rd_font_paths *fonts, char *err, size_t errlen)
{
    const char *dir = NULL;
    if (!assets_dir(&dir, err, errlen))
        return CV_EINVAL;
    return rd_fonts_find(dir, fonts, err, errlen);
}

void gui_load_themes(void)
{
    const char *dir = NULL;
    char err[1024];
    assets_dir(&dir, err, sizeof err); /* a bad $COLLVIZ_ASSETS_DIR: said when fonts are sought */
}

void gui_set_icon(SDL_Window *win)
{
    const char *dir = NULL;
    char err[1024], path[4200];
    if (!win || !assets_dir(&dir, err, sizeof err) || !dir)
        return;
    snprintf(path, sizeof path, "%s/icon/collviz-256.png", dir);
    SDL_Surface *icon = IMG_Load(path);
    if (!icon) {
        fprintf(stderr, "collviz: the window has no icon: %s\n", IMG_GetError());
        return;
    }
    SDL_SetWindowIcon(win, icon);
    SDL_FreeSurface(icon);
}
