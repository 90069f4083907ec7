/*
 * cli_data.c: where the program's data is: lessons/ and assets/.
 *
 * One search for both, so a build tree, an unpacked copy and an installed
 * prefix all work without configuration: an environment variable the user
 * set, else the directory next to the executable (the build links the
 * source tree's lessons/ and assets/ there), else PREFIX/share/collviz for
 * an executable in PREFIX/bin. The executable is found through
 * /proc/self/exe, so a prefix still works after it is moved, and the
 * current directory never matters. And the other way: the hook through
 * which a host (the browser) hears of each file the program writes.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* From the install's bin/ to its share/collviz/ (set by CMake from
 * CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DATADIR). */
#ifndef COLLVIZ_DATA_FROM_BIN
#define COLLVIZ_DATA_FROM_BIN "../share/collviz"
#endif

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cli_data_dir(const char *name, const char *const *env, char *out, size_t outlen, char *why,
                  size_t whylen)
{
    for (const char *const *e = env; e && *e; e++) {
        const char *v = getenv(*e);
        if (!v || !*v)
            continue;
        /* Asked for by name: no quiet fallback to another copy. */
        if (!is_dir(v)) {
            snprintf(why, whylen, "%s=%s is not a directory", *e, v);
            return false;
        }
        snprintf(out, outlen, "%s", v);
        return true;
    }
    char exe[4096], cand[2][4096 + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash) {
        snprintf(why, whylen, "no %s directory found: /proc/self/exe cannot be read%s%s", name,
                 env && *env ? "; set " : "", env && *env ? *env : "");
        return false;
    }
    *slash = '\0';
    snprintf(cand[0], sizeof cand[0], "%s/%s", exe, name);
    snprintf(cand[1], sizeof cand[1], "%s/%s/%s", exe, COLLVIZ_DATA_FROM_BIN, name);
    for (int i = 0; i < 2; i++) {
        if (!is_dir(cand[i]))
            continue;
        /* bin/../share/collviz/lessons reads better as PREFIX/share/... */
        char *real = realpath(cand[i], NULL);
        snprintf(out, outlen, "%s", real ? real : cand[i]);
        free(real);
        return true;
    }
    snprintf(why, whylen, "no %s directory found, neither %s nor %s%s%s", name, cand[0], cand[1],
             env && *env ? "; set " : "", env && *env ? *env : "");
    return false;
}

void (*cli_file_written)(const char *path, cli_file_kind kind);

void cli_wrote_file(const char *path, cli_file_kind kind)
{
    if (cli_file_written)
        cli_file_written(path, kind);
}
