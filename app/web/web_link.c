/*
 * web_link.c: the page's address as a command line, and the stage as
 * `collviz export`'s, both read from the spec-field table (cli.h, "Spec
 * fields"), so each field reaches the page's link and its GIF export as it
 * reaches the command line and the window.
 *
 * `?op=allreduce&algo=tree&proto=ll128` is `collviz gui --op allreduce
 * --algo tree --proto ll128`: every row with a URL key is `--FLAG VALUE`,
 * a row whose value is a file (nccl-log, trace) names a file the page
 * stored under /persist/dropped. `lesson=ID&step=N`, `show=NAME` and
 * `drill` are the page's own. Nothing here needs the browser, so
 * test_fields runs it natively (web_main.c calls it with the page's
 * query).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gui_cmds.h"
#include "web.h"

void web_args_add(web_args *a, const char *s)
{
    size_t n = strlen(s) + 1;
    if (a->argc >= WEB_MAX_ARGS || a->used + n > sizeof a->store)
        return;
    memcpy(a->store + a->used, s, n);
    a->argv[a->argc++] = a->store + a->used;
    a->used += n;
    a->argv[a->argc] = NULL;
}

static void add2(web_args *a, const char *flag, const char *value)
{
    web_args_add(a, flag);
    web_args_add(a, value);
}

/* A dropped file's name as the page stored it: a plain name, nothing that
 * climbs out of the folder. */
static bool plain_name(const char *s)
{
    if (!*s || strlen(s) > 200 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return false;
    for (; *s; s++)
        if (*s == '/' || *s == '\\')
            return false;
    return true;
}

/* A dropped file's path in the page's folder, or false with why. */
static bool dropped(const char *key, const char *name, char *path, size_t len, char *why,
                    size_t whylen)
{
    if (!plain_name(name)) {
        snprintf(why, whylen, "the link's %s=%s is not a file name", key, name);
        return false;
    }
    snprintf(path, len, "%s/%s", WEB_DROPPED_DIR, name);
    return true;
}

static bool drill_key(const char *k) { return strcmp(k, "time") == 0 || strcmp(k, "count") == 0; }

/* `?drill[&time=S][&count=N][&lang=zh]`: `collviz drill`'s flags, checked
 * as it checks them, for the page's drill panel (web_drill.c). */
static bool drill_args(char **keys, char **vals, int n, web_args *a, char *why, size_t whylen)
{
    web_args_add(a, "drill");
    for (int i = 0; i < n; i++) {
        if (strcmp(keys[i], "drill") == 0)
            continue;
        if (!drill_key(keys[i]) && strcmp(keys[i], "lang") != 0) {
            snprintf(why, whylen, "the drill's link takes time, count and lang, not '%s'", keys[i]);
            return false;
        }
        char *end = NULL;
        long v = strtol(vals[i], &end, 10);
        bool number = end && end != vals[i] && *end == '\0';
        if (strcmp(keys[i], "time") == 0 && (!number || v < 0 || v > 86400)) {
            snprintf(why, whylen, "the link's time=%s is not seconds from 0 (no clock) to 86400",
                     vals[i]);
            return false;
        }
        if (strcmp(keys[i], "count") == 0 && (!number || v < 1 || v > 100000)) {
            snprintf(why, whylen, "the link's count=%s is not a number of questions from 1",
                     vals[i]);
            return false;
        }
        if (strcmp(keys[i], "lang") == 0 && strcmp(vals[i], "en") && strcmp(vals[i], "zh")) {
            snprintf(why, whylen, "the link's lang=%s is not one of en, zh", vals[i]);
            return false;
        }
        char flag[32];
        snprintf(flag, sizeof flag, "--%s", keys[i]);
        add2(a, flag, vals[i]);
    }
    return true;
}

static bool page_key(const char *k)
{
    return strcmp(k, "lesson") == 0 || strcmp(k, "step") == 0 || strcmp(k, "show") == 0;
}

bool web_link_to_args(char *lines, web_args *a, char *why, size_t whylen)
{
    char *lesson_id = NULL, *step = NULL, *show = NULL;
    bool drill = false;
    char *keys[32], *vals[32];
    int n = 0;
    for (char *line = strtok(lines, "\n"); line && n < 32; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        keys[n] = line;
        vals[n++] = tab + 1;
    }
    for (int i = 0; i < n; i++)
        drill = drill || strcmp(keys[i], "drill") == 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(keys[i], "lesson") == 0)
            lesson_id = vals[i];
        else if (strcmp(keys[i], "step") == 0)
            step = vals[i];
        else if (strcmp(keys[i], "show") == 0)
            show = vals[i];
        else if (drill)
            continue; /* drill_args checks its own */
        else if (!cli_field_by_key(keys[i])) {
            char list[512];
            cli_field_keys(list, sizeof list);
            snprintf(why, whylen,
                     "the link's parameter '%s' is not one collviz knows; allowed: lesson, step, "
                     "%s; or drill, with time, count and lang",
                     keys[i], list);
            return false;
        }
    }
    web_args_add(a, "collviz");
    if (drill)
        return drill_args(keys, vals, n, a, why, whylen);
    char path[300];
    if (show) { /* a bench result's chart: the theme and the link price it */
        if (!dropped("show", show, path, sizeof path, why, whylen))
            return false;
        add2(a, "show", path);
        for (int i = 0; i < n; i++) {
            const cli_field *f = page_key(keys[i]) ? NULL : cli_field_by_key(keys[i]);
            if (f && (f->id == CLI_FIELD_THEME || f->id == CLI_FIELD_LINK))
                add2(a, f->flag, vals[i]);
        }
        return true;
    }
    if (lesson_id) { /* a lesson sets its own stage: the link adds the view */
        web_args_add(a, "lesson");
        web_args_add(a, lesson_id);
        if (step)
            add2(a, "--step", step);
        for (int i = 0; i < n; i++) {
            const cli_field *f = page_key(keys[i]) ? NULL : cli_field_by_key(keys[i]);
            if (f && !(f->what & CLI_FIELD_STAGE))
                add2(a, f->flag, vals[i]);
        }
        return true;
    }
    if (step) {
        snprintf(why, whylen, "the link's step=%s needs a lesson=ID beside it", step);
        return false;
    }
    /* The stage: every field as the command line takes it. Beside a trace,
     * a field that sets up the run is refused by the window, as on the
     * desktop. */
    web_args_add(a, "gui");
    for (int i = 0; i < n; i++) {
        const cli_field *f = page_key(keys[i]) ? NULL : cli_field_by_key(keys[i]);
        if (!f)
            continue;
        if (f->what & CLI_FIELD_FILE) {
            if (!dropped(f->key, vals[i], path, sizeof path, why, whylen))
                return false;
            add2(a, f->flag, path);
        } else {
            add2(a, f->flag, vals[i]);
        }
    }
    return true;
}

void web_export_args(const struct gui *g, const char *gif, web_args *a)
{
    web_args_add(a, "export");
    for (int i = 0; i < CLI_NFIELDS; i++) {
        char value[4200];
        if (cli_fields[i].key && gui_field_text(g, cli_fields[i].id, value, sizeof value))
            add2(a, cli_fields[i].flag, value);
    }
    add2(a, "--size", "960x600");
    add2(a, "--gif", gif);
}
