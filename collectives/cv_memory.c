/*
 * cv_memory.c: how much memory a run will take, and how much there is.
 *
 * cv_run asks before it allocates anything large: a run that does not fit
 * must end with one line giving both figures, never with the kernel's OOM
 * killer (exit 137, no message) minutes later. The footprint counts every
 * allocation a run makes in proportion to its data: the backend's host
 * buffers (all of them on the CPU backend), the inputs kept for
 * verification, the results read back, the avg scratch and, in visual
 * mode, the step record and one state over it. `run --json` and
 * --trace-out read their document from those inputs and results and write
 * it as they go (cli_run.c), a few kilobytes of their own whatever the
 * run, so nothing more is counted for them. What there is: the least of
 * /proc/meminfo's MemAvailable, the cgroup's limit less its usage, and
 * $COLLVIZ_MEMORY_LIMIT (a size such as 2G: the most a run may take, for a
 * shared machine; tests use it to stand for a small one).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cv_internal.h"

/* A number read from the first line of path that starts with key (key ""
 * reads the first line); -1 if absent or not a number. */
static int64_t read_number(const char *path, const char *key, int64_t scale)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    int64_t v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0)
            continue;
        char *end = NULL;
        long long x = strtoll(line + kl, &end, 10);
        if (end != line + kl && x >= 0)
            v = (int64_t)x * scale;
        break;
    }
    fclose(f);
    return v;
}

int cv_memory_limit_env(int64_t *bytes, char *err, size_t errlen)
{
    *bytes = -1;
    const char *lim = getenv("COLLVIZ_MEMORY_LIMIT");
    if (!lim || !*lim)
        return CV_OK;
    int64_t v = 0;
    int prc = cv_parse_size(lim, &v);
    if (prc != CV_OK || v <= 0) {
        /* the value as the user wrote it, but nothing a terminal would act on */
        char shown[48];
        size_t n = 0;
        for (const unsigned char *p = (const unsigned char *)lim; *p && n + 5 < sizeof shown; p++)
            n += (size_t)(*p >= 0x20 && *p < 0x7f
                              ? snprintf(shown + n, sizeof shown - n, "%c", *p)
                              : snprintf(shown + n, sizeof shown - n, "\\x%02x", *p));
        if (prc == CV_ETOOBIG) /* a size, only beyond what any count of bytes can be */
            snprintf(err, errlen,
                     "COLLVIZ_MEMORY_LIMIT=%s%s is too large: at most 9223372036854775807 bytes "
                     "(2^63 - 1, about 8 EiB); give bytes such as 8G or 512MiB, or unset it",
                     shown, strlen(lim) > 40 ? "..." : "");
        else
            snprintf(err, errlen,
                     "COLLVIZ_MEMORY_LIMIT=%s%s is not a size above 0: give bytes such as 8G, "
                     "512MiB or 2000000000 (k, M, G, T and KiB, MiB, GiB, TiB: powers of 1024; "
                     "kB, MB, GB, TB: of 1000), or unset it",
                     shown, strlen(lim) > 40 ? "..." : "");
        return CV_EINVAL;
    }
    *bytes = v;
    return CV_OK;
}

int64_t cv_memory_available(char *source, size_t sourcelen)
{
    int64_t best = -1;
    const char *why = "physical memory";
    int64_t bytes;
    char ignored[8];
    if (cv_memory_limit_env(&bytes, ignored, sizeof ignored) == CV_OK && bytes > 0) {
        best = bytes;
        why = "COLLVIZ_MEMORY_LIMIT";
    }
    int64_t avail = read_number("/proc/meminfo", "MemAvailable:", 1024);
    if (avail >= 0 && (best < 0 || avail < best)) {
        best = avail;
        why = "available memory";
    }
    /* cgroup v2: "max" reads as no number, so no limit. */
    int64_t cmax = read_number("/sys/fs/cgroup/memory.max", "", 1);
    int64_t cur = read_number("/sys/fs/cgroup/memory.current", "", 1);
    if (cmax > 0 && cur >= 0) {
        int64_t left = cmax > cur ? cmax - cur : 0;
        if (best < 0 || left < best) {
            best = left;
            why = "this cgroup's memory limit";
        }
    }
    if (best < 0) {
        long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        best = pages > 0 && size > 0 ? (int64_t)pages * size : INT64_MAX;
    }
    if (source)
        snprintf(source, sourcelen, "%s", why);
    return best;
}

/* a * b in bytes, saturating: a run that big is refused either way. */
static int64_t mul_sat(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
}

static int64_t add_sat(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int64_t cv_plan_host_buffer_bytes(const cv_plan *plan)
{
    int64_t esz = (int64_t)cv_dtype_size(plan->spec.dtype), total = 0;
    for (int r = 0; r < cv_plan_parts(plan); r++)
        for (int b = 0; b < CV_BUF_COUNT; b++)
            total = add_sat(total, mul_sat(cv_plan_buf_count(plan, (cv_buf)b, r) + 1, esz));
    return total;
}

/* Bytes a visual trace and one state over it take: the trace keeps every
 * buffer's initial values and the values each transfer wrote; the state
 * holds each element's value, provenance mask (8 bytes) and the step that
 * last wrote it (4). */
int64_t cv_visual_footprint(const cv_plan *p, int states)
{
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype), elems = 0, send = 0, recv = 0;
    for (int r = 0; r < cv_plan_parts(p); r++)
        for (int b = 0; b < CV_BUF_COUNT; b++)
            elems = add_sat(elems, cv_plan_buf_count(p, (cv_buf)b, r));
    for (int r = 0; r < p->spec.ranks; r++) {
        send = add_sat(send, cv_spec_buf_count(&p->spec, CV_BUF_SEND, r));
        recv = add_sat(recv, cv_spec_buf_count(&p->spec, CV_BUF_RECV, r));
    }
    /* the record (cv__visual_bytes: initial values, what each transfer
     * wrote, and a state), the states beyond that one (value, provenance
     * mask and last step of every element), the trace's inputs and results,
     * and the backend's buffers while it runs */
    int64_t more = states > 1 ? mul_sat(states - 1, mul_sat(elems, esz + 12)) : 0;
    return add_sat(add_sat(cv__visual_bytes(p), more),
                   add_sat(mul_sat(add_sat(send, recv), esz), cv_plan_host_buffer_bytes(p)));
}

int64_t cv__visual_bytes(const cv_plan *p)
{
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype), elems = 0, moved = 0;
    for (int r = 0; r < cv_plan_parts(p); r++)
        for (int b = 0; b < CV_BUF_COUNT; b++)
            elems += cv_plan_buf_count(p, (cv_buf)b, r);
    for (int64_t x = 0; x < p->ntransfers; x++)
        moved += p->transfers[x].count;
    return elems * (2 * esz + 12) + moved * esz;
}

bool cv__avg_premultiplies(const cv_spec *s)
{
    return s->redop == CV_AVG && cv_dtype_is_float(s->dtype) && cv_op_reduces(s->op);
}

bool cv__run_in_place(const cv_plan *plan, const cv_backend *be, const cv_run_opts *o)
{
    /* No plan writes a send buffer (cv_plan_validate), so the backend's
     * SEND still holds the inputs when the results are checked; the avg
     * pre-multiply and the user's own inputs need a copy of their own. */
    return o->discard && !o->visual && be->view && !cv__avg_premultiplies(&plan->spec) &&
           !o->inputs;
}

void cv_run_footprint(const cv_plan *plan, const cv_backend *be, const cv_run_opts *o,
                      cv_footprint *f)
{
    bool visual = o->visual, verify = o->verify;
    const cv_spec *s = &plan->spec;
    int64_t esz = (int64_t)cv_dtype_size(s->dtype), send = 0, recv = 0, most = 0;
    for (int r = 0; r < s->ranks; r++) {
        int64_t n = cv_spec_buf_count(s, CV_BUF_SEND, r);
        send = add_sat(send, n);
        most = n > most ? n : most;
        recv = add_sat(recv, cv_spec_buf_count(s, CV_BUF_RECV, r));
    }
    memset(f, 0, sizeof *f);
    f->buffers = be->host_bytes ? be->host_bytes(plan) : 0;
    bool direct = cv__run_in_place(plan, be, o); /* no inputs or results of its own */
    f->data = direct ? 0 : mul_sat(send, esz);
    if (cv__avg_premultiplies(s))
        f->data = add_sat(f->data, mul_sat(most, esz)); /* the pre-multiplied copy */
    if (!direct && (verify || visual))
        f->data = add_sat(f->data, mul_sat(recv, esz));
    f->record = visual ? cv__visual_bytes(plan) : 0;
    f->total = add_sat(add_sat(f->buffers, f->data), f->record);
}

/* "120.0 MiB", "1 B": bytes in KiB, MiB or GiB with d decimals. */
static void memory_size(int64_t bytes, int d, char *out, size_t len)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB"};
    if (bytes < 1024) {
        snprintf(out, len, "%lld B", (long long)bytes);
        return;
    }
    double v = (double)bytes / 1024.0;
    int u = 0;
    for (; u < 2 && v >= 1024.0; u++)
        v /= 1024.0;
    snprintf(out, len, "%.*f %s", d, v, unit[u]);
}

int cv_memory_check(int64_t need, const char *what, const char *advice, char *err, size_t errlen)
{
    char source[64];
    int64_t avail = cv_memory_available(source, sizeof source);
    if (need <= avail)
        return CV_OK;
    /* each in its own unit (bytes below a KiB), with as many decimals (up
     * to three) as it takes for the two to read differently */
    char a[40], b[40];
    for (int d = 1; d <= 3; d++) {
        memory_size(need, d, a, sizeof a);
        memory_size(avail, d, b, sizeof b);
        if (strcmp(a, b) != 0)
            break;
    }
    snprintf(err, errlen, "%s would need %s of memory but %s is %s; %s", what, a, source, b,
             advice);
    return CV_ENOMEM;
}

int cv_run_check_memory(const cv_plan *plan, const cv_backend *be, const cv_run_opts *opts,
                        char *err, size_t errlen)
{
    cv_footprint f;
    cv_run_footprint(plan, be, opts, &f);
    char source[64];
    int64_t avail = cv_memory_available(source, sizeof source);
    if (f.total <= avail)
        return CV_OK;
    /* GiB, or MiB when both are under one; as many decimals (up to three)
     * as it takes for the need and the limit to read differently. */
    const double gib = 1073741824.0;
    double unit = (double)(f.total > avail ? f.total : avail) >= gib ? gib : 1048576.0;
    const char *uname = unit == gib ? "GiB" : "MiB";
    int d = 1;
    for (char a[40], b[40]; d < 3; d++) {
        snprintf(a, sizeof a, "%.*f", d, (double)f.total / unit);
        snprintf(b, sizeof b, "%.*f", d, (double)avail / unit);
        if (strcmp(a, b) != 0)
            break;
    }
    const cv_spec *s = &plan->spec;
    snprintf(err, errlen,
             "%s %s with %d ranks x %lld %s would need %.*f %s of memory (buffers %.*f, inputs "
             "and results %.*f, step record %.*f) but %s is %.*f %s; lower --count or --ranks",
             cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
             cv_dtype_name(s->dtype), d, (double)f.total / unit, uname, d,
             (double)f.buffers / unit, d, (double)f.data / unit, d, (double)f.record / unit,
             source, d, (double)avail / unit, uname);
    return CV_ENOMEM;
}
