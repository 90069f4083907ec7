/*
 * cv_file.c: the one way collviz writes a file, so that no writer can
 * destroy what is not its own.
 *
 * Every file the program writes (a trace, a PNG or GIF, the progress file,
 * the model cache) is written under a fresh temporary name beside its
 * place, created exclusively (O_EXCL, so a link or file already there under
 * that name is never opened), flushed to disk and renamed over the place
 * only when whole: a full disk, a failed frame or a killed process leaves
 * the earlier file as it was. Before anything is written the place itself
 * is looked at without following a link: a directory, device, FIFO or
 * socket is refused, and so is a symbolic link, which would otherwise be
 * replaced by a regular file (or, opened plainly, write over whatever it
 * points at), unless the caller asks to write through it (the progress
 * file, whose link a user made on purpose), and then its final target is
 * checked and replaced instead. The temporary keeps the mode of the file it
 * replaces, or takes the user's umask for a new one.
 *
 * Messages name no path: callers say "cannot write PATH: " and add the
 * reason, escaping the path as everything from outside is escaped.
 */
#define _POSIX_C_SOURCE 200809L /* fdopen, fsync, lstat, realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cv_internal.h"

struct cv_wfile {
    FILE *f;
    char path[PATH_MAX + 1]; /* the place, a link's target when written through one */
    char tmp[PATH_MAX + 32]; /* the temporary beside it */
};

/* Why a place that exists cannot be written, or NULL if it can. */
static const char *not_regular(const struct stat *st)
{
    if (S_ISREG(st->st_mode))
        return NULL;
    if (S_ISDIR(st->st_mode))
        return "it is a directory; give a file name";
    if (S_ISLNK(st->st_mode))
        return "it is a symbolic link, which would be replaced; give the file's own path";
    if (S_ISFIFO(st->st_mode))
        return "it is a FIFO (named pipe), not a regular file";
    if (S_ISSOCK(st->st_mode))
        return "it is a socket, not a regular file";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "it is a device, not a regular file";
    return "it is not a regular file";
}

/* The folder PATH is in: "." for a bare name, "/" for one at the root. */
static void folder_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else
        slash[slash == dir ? 1 : 0] = '\0';
}

/* Whether a new file can be made where PATH says: its folder exists and
 * takes files. */
static int folder_ok(const char *path, char *err, size_t errlen)
{
    char dir[PATH_MAX + 1];
    folder_of(path, dir, sizeof dir);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "the folder it would go in does not exist");
        return CV_EINVAL;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "its folder is not writable (%s)", strerror(errno));
        return CV_EINVAL;
    }
    return CV_OK;
}

/* Where PATH's file really goes (its link's final target with
 * CV_WFILE_THROUGH_LINK), and the mode of the file there (-1: none yet). */
static int resolve(const char *path, unsigned flags, char *out, size_t outlen, int *mode,
                   char *err, size_t errlen)
{
    struct stat st;
    *mode = -1;
    if (!path || !*path) {
        snprintf(err, errlen, "no file name given");
        return CV_EINVAL;
    }
    if (strlen(path) >= outlen) {
        snprintf(err, errlen, "the name is longer than %zu bytes", outlen - 1);
        return CV_EINVAL;
    }
    snprintf(out, outlen, "%s", path);
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return folder_ok(path, err, errlen); /* a new file */
        snprintf(err, errlen, "%s", strerror(errno));
        return CV_EINVAL;
    }
    if (S_ISLNK(st.st_mode) && (flags & CV_WFILE_THROUGH_LINK)) {
        char real[PATH_MAX];
        if (!realpath(path, real)) {
            snprintf(err, errlen, "it is a symbolic link to %s",
                     errno == ENOENT ? "nothing (a dangling link); remove it or give another name"
                                     : strerror(errno));
            return CV_EINVAL;
        }
        if (strlen(real) >= outlen || stat(real, &st) != 0) {
            snprintf(err, errlen, "its link's target cannot be reached");
            return CV_EINVAL;
        }
        snprintf(out, outlen, "%s", real);
    }
    const char *why = not_regular(&st);
    if (why) {
        snprintf(err, errlen, "%s", why);
        return CV_EINVAL;
    }
    *mode = (int)(st.st_mode & 07777);
    return CV_OK;
}

int cv_wfile_check(const char *path, unsigned flags, char *err, size_t errlen)
{
    char real[PATH_MAX + 1];
    int mode;
    return resolve(path, flags, real, sizeof real, &mode, err, errlen);
}

cv_wfile *cv_wfile_create(const char *path, unsigned flags, char *err, size_t errlen)
{
    cv_wfile *w = cv_xcalloc(1, sizeof *w);
    int mode;
    if (resolve(path, flags, w->path, sizeof w->path, &mode, err, errlen) != CV_OK) {
        free(w);
        return NULL;
    }
    /* "<name>.tmp-<pid>-XXXXXX": unique, made with O_EXCL by mkstemp, and
     * its pid tells a later process whether its writer is still alive. */
    snprintf(w->tmp, sizeof w->tmp, "%s.tmp-%ld-XXXXXX", w->path, (long)getpid());
    int fd = mkstemp(w->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        free(w);
        return NULL;
    }
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        /* The owner reads and writes what it made whatever the mask says:
         * the browser's file system reports a mask of 0777, and a file of
         * mode 0 there could not be read back. */
        mode = (int)((0666 & ~mask) | 0600);
    }
    (void)fchmod(fd, (mode_t)mode); /* mkstemp's 0600 otherwise; a failure only keeps it private */
    w->f = fdopen(fd, "wb");
    if (!w->f) {
        snprintf(err, errlen, "%s", strerror(errno));
        close(fd);
        unlink(w->tmp);
        free(w);
        return NULL;
    }
    return w;
}

FILE *cv_wfile_stream(cv_wfile *w) { return w ? w->f : NULL; }

int cv_wfile_destroy(cv_wfile *w, bool keep, char *err, size_t errlen)
{
    if (!w)
        return CV_OK;
    int rc = CV_OK;
    if (keep) {
        errno = 0;
        if (fflush(w->f) != 0 || ferror(w->f) || fsync(fileno(w->f)) != 0) {
            snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
            rc = CV_EINVAL;
        }
    }
    if (fclose(w->f) != 0 && keep && rc == CV_OK) {
        snprintf(err, errlen, "%s", strerror(errno));
        rc = CV_EINVAL;
    }
    if (keep && rc == CV_OK) {
        /* The place may have changed while the file was written (a
         * directory or link put there): rename would replace a link or
         * fail on a directory with a confusing message. */
        struct stat st;
        const char *why = lstat(w->path, &st) == 0 ? not_regular(&st) : NULL;
        if (why) {
            snprintf(err, errlen, "%s", why);
            rc = CV_EINVAL;
        } else if (rename(w->tmp, w->path) != 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            rc = CV_EINVAL;
        }
    }
    if (!keep || rc != CV_OK)
        unlink(w->tmp); /* a torn file is worse than none */
    if (keep && rc == CV_OK) {
        /* Make the rename itself durable; failing here loses nothing
         * already written, so it is not reported. */
        char dir[PATH_MAX + 1];
        folder_of(w->path, dir, sizeof dir);
        int dfd = open(dir, O_RDONLY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    free(w);
    return rc;
}

int cv_file_set_aside(const char *path, const char *tag, char *aside, size_t asidelen, char *err,
                      size_t errlen)
{
    /* "<path>.<tag>", then "-1", "-2", ...: never over an earlier copy.
     * link() fails with EEXIST where rename() would replace, so two
     * processes setting aside at once cannot take the same name. */
    for (long i = 0; i < 100000; i++) {
        int n = i ? snprintf(aside, asidelen, "%s.%s-%ld", path, tag, i)
                  : snprintf(aside, asidelen, "%s.%s", path, tag);
        if (n < 0 || (size_t)n >= asidelen) {
            snprintf(err, errlen, "the name is too long");
            return CV_EINVAL;
        }
        if (link(path, aside) == 0) {
            if (unlink(path) != 0) {
                snprintf(err, errlen, "%s", strerror(errno));
                unlink(aside);
                return CV_EINVAL;
            }
            return CV_OK;
        }
        if (errno == EEXIST)
            continue;
        /* No hard links here (some file systems, the browser's): look
         * first, then rename. */
        if (errno == EPERM || errno == ENOSYS || errno == EXDEV || errno == EOPNOTSUPP ||
            errno == EMLINK) {
            struct stat st;
            if (lstat(aside, &st) == 0)
                continue;
            if (rename(path, aside) == 0)
                return CV_OK;
        }
        snprintf(err, errlen, "%s", strerror(errno));
        return CV_EINVAL;
    }
    snprintf(err, errlen, "100000 copies are already set aside");
    return CV_EINVAL;
}
