/*
 * ncclog_read.c: the log's bytes to lines, with bounds, and each line to
 * ncclog_line.c.
 *
 * A log is whatever a job wrote, so nothing about its size can be trusted:
 * it is read in blocks, and no line takes more than NCCLOG_LINE_MAX bytes
 * of memory. A longer line (a launcher's dump of its environment, a
 * binary blob) is cut there and the rest of it skipped; NUL bytes (a hole a
 * crashed writer left) are dropped; both are counted for a note. A line of
 * more than NCCLOG_NUL_MAX NUL bytes with no end is no text at all
 * (/dev/zero, a disk image), and ends the read with an error instead of
 * reading forever; so does a block of the input in which more than one
 * byte in fifty is a control character no text log holds (/dev/urandom,
 * a core file: binary data with line ends in it), at its first block.
 * What the reader keeps is bounded too (ncclog.h's NCCLOG_MAX_*): where a
 * bound is reached it stops there and says at which line. So is what it
 * reads, a file or a pipe alike (`nccl-log -` on endless text read for
 * ever): NCCLOG_FOREIGN_MAX bytes without one line NCCL wrote end the read
 * as no NCCL log, and reading stops after NCCLOG_MAX_BYTES in all.
 */
#include <stdlib.h>
#include <string.h>

#include "ncclog_internal.h"

#define BLOCK (1 << 20)

typedef struct {
    FILE *in;
    char *blk;
    size_t len, pos;
    long long before; /* bytes of the input before blk */
} blocks;

/* Whether a line NCCL wrote was seen (INFO, WARN, a version line). */
static bool nccl_seen(const ncclog *log)
{
    return log->info_lines || log->nwarn || log->version[0];
}

static const char *bytes_text(long long n, char *buf, size_t len)
{
    if (n >= 1LL << 30)
        snprintf(buf, len, "%lld GiB", n >> 30);
    else
        snprintf(buf, len, "%lld MiB", n >> 20);
    return buf;
}

/* Where the input has reached its bound (blocks): -1 with err set, where
 * no NCCL line came before NCCLOG_FOREIGN_MAX; -2 past NCCLOG_MAX_BYTES,
 * the reading stopped (a note); 0 otherwise. */
static int input_bound(const blocks *b, ncclog *log, long lineno, char *err, size_t errlen)
{
    long long at = b->before + (long long)b->pos;
    char size[32];
    if (!nccl_seen(log) && at >= NCCLOG_FOREIGN_MAX) {
        snprintf(err, errlen,
                 "%s:%ld: no NCCL line in the first %s (no \"NCCL INFO\", no \"NCCL WARN\"): "
                 "this is not an NCCL log; was it captured with NCCL_DEBUG=INFO?",
                 log->name, lineno, bytes_text(NCCLOG_FOREIGN_MAX, size, sizeof size));
        return -1;
    }
    if (at >= NCCLOG_MAX_BYTES) {
        if (!log->stopped_at) {
            log->stopped_at = lineno;
            snprintf(log->stopped_why, sizeof log->stopped_why, "more than %s of input",
                     bytes_text(NCCLOG_MAX_BYTES, size, sizeof size));
        }
        return -2;
    }
    return 0;
}

/* The next line into line[NCCLOG_LINE_MAX + 1], without its end: 1, 0 at
 * the end of the input, -1 with err set, -2 at the bound on the input
 * (input_bound; the line it cut is not returned). */
static int next_line(blocks *b, ncclog *log, long lineno, char *line, size_t *out, char *err,
                     size_t errlen)
{
    int bound = input_bound(b, log, lineno, err, errlen);
    if (bound)
        return bound;
    size_t n = 0;
    long nuls = 0;
    bool cut = false, any = false;
    for (;;) {
        if (b->pos == b->len) {
            b->before += (long long)b->len;
            b->len = b->pos = 0;
            if ((bound = input_bound(b, log, lineno, err, errlen)) != 0)
                return bound; /* a line of no end (`tr -d '\n' </dev/zero`...) */
            b->len = fread(b->blk, 1, BLOCK, b->in);
            if (b->len == 0) {
                if (ferror(b->in)) {
                    snprintf(err, errlen, "%s: read error after line %ld", log->name, lineno - 1);
                    return -1;
                }
                break;
            }
        }
        if (b->pos == 0 && b->len >= 256) {
            size_t ctl = 0;
            for (size_t i = 0; i < b->len; i++) {
                unsigned char ch = (unsigned char)b->blk[i];
                ctl += (ch < 0x20 && ch && ch != '\t' && ch != '\n' && ch != '\r' &&
                        ch != 0x1b && ch != '\f' && ch != '\b' && ch != '\a') ||
                       ch == 0x7f;
            }
            if (ctl * 50 > b->len) {
                snprintf(err, errlen,
                         "%s:%ld: binary data (%zu of %zu bytes here are control characters): "
                         "this is not a text log",
                         log->name, lineno, ctl, b->len);
                return -1;
            }
        }
        any = true;
        const char *start = b->blk + b->pos;
        size_t avail = b->len - b->pos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        b->pos += take + (nl ? 1 : 0);
        for (const char *p = start, *end = start + take; p < end;) {
            const char *z = memchr(p, 0, (size_t)(end - p));
            size_t run = (size_t)((z ? z : end) - p);
            size_t room = NCCLOG_LINE_MAX - n, k = run < room ? run : room;
            memcpy(line + n, p, k);
            n += k;
            cut |= k < run;
            p += run;
            if (z) { /* a run of NUL bytes */
                const char *q = z;
                while (q < end && !*q)
                    q++;
                nuls += q - z;
                p = q;
            }
        }
        if (nuls > NCCLOG_NUL_MAX) {
            snprintf(err, errlen,
                     "%s:%ld: more than %ld NUL bytes and no line end: this is not a text log",
                     log->name, lineno, NCCLOG_NUL_MAX);
            return -1;
        }
        if (nl)
            break;
    }
    if (!any && n == 0)
        return 0;
    if (cut) {
        if (!log->cut_lines++)
            log->first_cut = lineno;
    }
    if (nuls) {
        if (!log->nul_bytes)
            log->first_nul = lineno;
        log->nul_bytes += nuls;
    }
    while (n > 0 && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    *out = n;
    return 1;
}

void ncclog_read_note(const ncclog *log, char *note, size_t len)
{
    int w = 0;
    note[0] = 0;
    if (log->cut_lines)
        w = snprintf(note, len, "%ld line%s longer than %d KiB %s read only that far (the first "
                     "at line %ld)",
                     log->cut_lines, log->cut_lines == 1 ? "" : "s", NCCLOG_LINE_MAX / 1024,
                     log->cut_lines == 1 ? "was" : "were", log->first_cut);
    if (log->nul_bytes && w >= 0 && (size_t)w < len)
        w += snprintf(note + w, len - (size_t)w,
                      "%s%ld NUL byte%s dropped (the first on line %ld)", w ? "; " : "",
                      log->nul_bytes, log->nul_bytes == 1 ? "" : "s", log->first_nul);
    if (log->stopped_at && w >= 0 && (size_t)w < len)
        snprintf(note + w, len - (size_t)w,
                 "%sstopped reading at line %ld: %s (collviz goes no further); what "
                 "follows is what lines 1-%ld say",
                 w ? "; " : "", log->stopped_at, log->stopped_why, log->stopped_at - 1);
}

int ncclog_read(FILE *in, const char *name, ncclog *log, char *err, size_t errlen)
{
    memset(log, 0, sizeof *log);
    snprintf(log->name, sizeof log->name, "%s", name);
    ncclog__reader r = {.log = log, .err = err, .errlen = errlen, .tuning_block = -1,
                        .cur_version = -1, .last_coll = {-1, -1}};
    err[0] = 0;
    blocks b = {.in = in, .blk = cv_xmalloc(BLOCK)};
    char *line = cv_xmalloc(NCCLOG_LINE_MAX + 1);
    size_t len;
    int rc = 0, got;
    while (rc == 0 && (got = next_line(&b, log, log->lines + 1, line, &len, err, errlen)) != 0) {
        if (got == -2) /* the bound on the input: what was read is kept */
            break;
        if (got < 0) {
            rc = -1;
            break;
        }
        r.line = ++log->lines;
        rc = ncclog__line(&r, line);
        if (rc == 1) { /* a bound reached: what was read is kept */
            rc = 0;
            break;
        }
    }
    free(b.blk);
    free(line);
    if (rc == 0)
        rc = ncclog__build(&r);
    free(r.facts);
    free(r.pool);
    free(r.epochs);
    free(r.printers);
    free(r.printer_hash);
    free(r.fact_hash);
    free(r.vias);
    if (rc)
        ncclog_destroy(log);
    return rc;
}
