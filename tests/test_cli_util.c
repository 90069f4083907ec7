/*
 * test_cli_util.c: runs the built collviz for the command-line tests
 * (test_cli_util.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "test_cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

char tc_out[TC_OUT_MAX];

int tc_run(const char *home, const char *args)
{
    char cmd[4096];
    if (home)
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && HOME='%s' timeout 120 ./collviz %s 2>&1 </dev/null",
                 COLLVIZ_BINARY_DIR, home, args);
    else
        snprintf(cmd, sizeof cmd, "cd '%s' && timeout 120 ./collviz %s 2>&1 </dev/null",
                 COLLVIZ_BINARY_DIR, args);
    tc_out[0] = 0;
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(tc_out, 1, sizeof tc_out - 1, p);
    tc_out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int tc_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}
