/*
 * cv_mpi.c: the MPI backend, one rank per process (cv_mpi.h says what it
 * promises).
 *
 * It fits cv_backend, with cv_run called on every process with the same
 * plan and options; one optional member, holds(), says which ranks are
 * this process's, so each process fills and keeps only its own inputs
 * (process 0 every one, to verify): 8 processes of 64 MiB each then hold
 * 8 inputs between them, not 64. run_step() posts an MPI_Irecv for each transfer
 * this process receives and an MPI_Isend for each it sends, runs its local
 * transfers meanwhile, waits, then reduces what arrived with the CPU
 * backend's kernels (cv__kernel); read() is collective, the owner sending
 * to process 0. A step's transfers never read what another writes (plans
 * are validated for that), so a copy lands straight in its destination and
 * a reduction needs only a staging buffer. Messages of one step between
 * one pair of processes are matched by MPI's non-overtaking order: both
 * sides post them in the plan's order.
 *
 * Nothing waits forever: every wait polls with a deadline
 * (COLLVIZ_MPI_TIMEOUT, default 60 s) and names the step and the rank not
 * heard from; a process killed outright is the launcher's to notice, which
 * ends the others with SIGTERM, and they then exit at once with status 3.
 * The end is bounded too: no process enters MPI_Finalize before every one
 * has said it came to the end (cv_mpi_share), and MPI_Finalize itself has
 * the same deadline (cv_mpi_destroy), so a process stopped at the end of a
 * run cannot leave the others waiting there.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cv_internal.h"
#include "cv_mpi.h"

#ifdef COLLVIZ_HAVE_MPI
#include <mpi.h>
#endif

#define DEFAULT_TIMEOUT_S 60.0
/* MPI counts are ints: a transfer goes as messages of at most this. */
#define MAX_MESSAGE_BYTES ((int64_t)1 << 30)
#define READ_TAG 30000
#define TIME_TAG 30001
#define END_TAG 30002
#define SHARE_TAG 30003
#define STEP_TAGS 16384

bool cv_mpi_built(void)
{
#ifdef COLLVIZ_HAVE_MPI
    return true;
#else
    return false;
#endif
}

bool cv_mpi_launched(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    const char *tasks = getenv("SLURM_STEP_NUM_TASKS");
    return getenv("SLURM_PROCID") && tasks && atol(tasks) > 1;
}

long cv_mpi_launcher_size(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                 "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atol(v) > 0)
            return atol(v);
    }
    return 0;
}

#ifndef COLLVIZ_HAVE_MPI

/* ------------------------------------------------------ built without MPI */

static int no_mpi(char *err, size_t errlen)
{
    snprintf(err, errlen,
             "mpi unavailable (built without MPI): install an MPI (Open MPI's "
             "libopenmpi-dev, scripts/deps.sh) and reconfigure");
    return CV_EUNAVAIL;
}

int cv_mpi_create(cv_mpi **out, char *err, size_t errlen)
{
    *out = NULL;
    return no_mpi(err, errlen);
}
void cv_mpi_destroy(cv_mpi *m) { (void)m; }
int cv_mpi_rank(const cv_mpi *m) { return 0; }
int cv_mpi_size(const cv_mpi *m) { return 1; }
const char *cv_mpi_host(const cv_mpi *m, int rank) { return ""; }
int cv_mpi_agree(cv_mpi *m, int status, char *why, size_t len, int *who)
{
    *who = status ? 0 : -1;
    return status;
}
bool cv_mpi_same(cv_mpi *m, const char *text, char *why, size_t len) { return true; }
int64_t cv_mpi_share(cv_mpi *m, int64_t value) { return value; }
void cv_mpi_abort(cv_mpi *m, int code) { exit(code); }
int cv_mpi_library_seconds(cv_mpi *m, const cv_spec *spec, int warmup, int iterations,
                           double *seconds, char *err, size_t errlen)
{
    *seconds = 0;
    return no_mpi(err, errlen);
}

static int nompi_probe(char *err, size_t errlen) { return no_mpi(err, errlen); }
static int nompi_open(const cv_plan *plan, void **state, char *err, size_t errlen)
{
    *state = NULL;
    return no_mpi(err, errlen);
}
static int nompi_write(void *state, int rank, cv_buf buf, int64_t off, int64_t count,
                       const void *src, char *err, size_t errlen)
{
    return no_mpi(err, errlen);
}
static int nompi_run_step(void *state, int step, double *seconds, char *err, size_t errlen)
{
    return no_mpi(err, errlen);
}
static int nompi_read(void *state, int rank, cv_buf buf, int64_t off, int64_t count, void *dst,
                      char *err, size_t errlen)
{
    return no_mpi(err, errlen);
}
static void nompi_close(void *state) { (void)state; }

static const cv_backend mpi_backend = {
    .name = "mpi",
    .probe = nompi_probe,
    .open = nompi_open,
    .write = nompi_write,
    .run_step = nompi_run_step,
    .read = nompi_read,
    .close = nompi_close,
};

#else

/* ---------------------------------------------------------- the processes */

/* COLLVIZ_MPI_TIMEOUT: seconds, above 0; CV_EINVAL for anything else. */
static int timeout_env(double *seconds, char *err, size_t errlen)
{
    const char *v = getenv("COLLVIZ_MPI_TIMEOUT");
    *seconds = DEFAULT_TIMEOUT_S;
    if (!v)
        return CV_OK;
    char *end = NULL;
    errno = 0;
    double s = strtod(v, &end);
    if (errno || end == v || *end || !(s > 0) || s > 1e6)
        return cv__fail(err, errlen,
                        "COLLVIZ_MPI_TIMEOUT='%.40s': allowed: seconds above 0 and "
                        "at most 1000000 (default %g)",
                        v, DEFAULT_TIMEOUT_S);
    *seconds = s;
    return CV_OK;
}

struct cv_mpi {
    int rank, size;
    bool init_here;
    MPI_Comm comm; /* a private copy of the world, errors returned */
    char (*hosts)[MPI_MAX_PROCESSOR_NAME];
    double timeout;
    int timeout_status;
    char timeout_err[CV_ERR_LEN];
};

static cv_mpi *g_world; /* the run the backend executes on (cv_mpi_create's) */

/* The launcher ends the job when a process dies (mpirun sends the others
 * SIGTERM): leave at once with the status a backend that cannot run gives.
 * The launcher's own notice names the process that died. */
static void on_term(int sig)
{
    (void)sig;
    _exit(3);
}

static void mpi_error_text(int code, char *out, size_t len)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(code, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", code);
    snprintf(out, len, "%s", text);
}

/* Waits for n requests, polling so that a peer that never answers becomes
 * an error rather than a hang: CV_EBACKEND and one line in err, naming the
 * rank not heard from where peers says who each request is with (NULL: a
 * collective, no one rank). Spins first (messages usually arrive within
 * microseconds), then naps between polls, which leaves the cores to the
 * other processes when there are more processes than cores. Later ranks
 * wait a little longer, so that where several wait on one silent process
 * the lowest says so and ends the run before the others would: one line,
 * not one from each. A poll that comes more than a second after the one
 * before means this process itself was stopped or starved (kill -STOP,
 * then -CONT): that time does not count against its peers. */
static int await(cv_mpi *m, int64_t n, MPI_Request *reqs, const int *peers, const char *what,
                 char *err, size_t errlen)
{
    const struct timespec nap = {0, 20 * 1000};
    int stagger = m->rank < 16 ? m->rank : 16;
    double last = cv_now_seconds(), deadline = last + m->timeout + 0.25 * stagger;
    for (long spins = 0;; spins++) {
        int done = 0;
        int rc = MPI_Testall((int)n, reqs, &done, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS) {
            char text[MPI_MAX_ERROR_STRING];
            mpi_error_text(rc, text, sizeof text);
            snprintf(err, errlen, "%s: %s", what, text);
            return CV_EBACKEND;
        }
        if (done)
            return CV_OK;
        if (spins < 2000)
            continue;
        nanosleep(&nap, NULL);
        double now = cv_now_seconds();
        if (now - last > 1.0)
            deadline += now - last;
        last = now;
        if (now < deadline)
            continue;
        int peer = -1;
        for (int64_t i = 0; peers && i < n && peer < 0; i++) {
            int flag = 1;
            if (reqs[i] != MPI_REQUEST_NULL)
                MPI_Request_get_status(reqs[i], &flag, MPI_STATUS_IGNORE);
            if (!flag)
                peer = peers[i];
        }
        if (peer >= 0)
            snprintf(err, errlen,
                     "%s: nothing from rank %d within %g s (COLLVIZ_MPI_TIMEOUT); "
                     "it stopped or died",
                     what, peer, m->timeout);
        else
            snprintf(err, errlen,
                     "%s: some rank did not answer within %g s "
                     "(COLLVIZ_MPI_TIMEOUT); it stopped or died",
                     what, m->timeout);
        return CV_EBACKEND;
    }
}

/* Waits for one collective of the run's own bookkeeping (the hosts, the
 * agreement), as a step waits for its messages: a process that stopped
 * before it ends the run with one line rather than a hang. */
static void settle(cv_mpi *m, MPI_Request *req, const char *what)
{
    char err[CV_ERR_LEN];
    if (await(m, 1, req, NULL, what, err, sizeof err)) {
        fprintf(stderr, "collviz: rank %d: --backend mpi: %s\n", m->rank, err);
        cv_mpi_abort(m, 3);
    }
}

int cv_mpi_create(cv_mpi **out, char *err, size_t errlen)
{
    int initialised = 0, finalised = 0;
    *out = NULL;
    MPI_Finalized(&finalised);
    if (finalised)
        return cv__fail(err, errlen, "MPI was already finalised in this process");
    MPI_Initialized(&initialised);
    if (!initialised && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init failed");
        return CV_EUNAVAIL;
    }
    cv_mpi *m = cv__xcalloc(1, sizeof *m);
    m->init_here = !initialised;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &m->rank);
    MPI_Comm_size(m->comm, &m->size);
    m->hosts = cv__xcalloc((size_t)m->size, sizeof *m->hosts);
    char me[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    if (MPI_Get_processor_name(me, &len) != MPI_SUCCESS)
        me[0] = '\0';
    /* A host name of one's own choosing: containers or namespaces that all
     * report one machine's name, and tests of several hosts on one. */
    const char *named = getenv("COLLVIZ_MPI_HOST");
    if (named && *named)
        snprintf(me, sizeof me, "%s", named);
    m->timeout_status = timeout_env(&m->timeout, m->timeout_err, sizeof m->timeout_err);
    MPI_Request req;
    MPI_Iallgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, m->hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                   m->comm, &req);
    settle(m, &req, "learning each rank's host");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    g_world = m;
    *out = m;
    return CV_OK;
}

/* The line a process stuck in MPI_Finalize leaves with (on_alarm). */
static char g_end_line[160];
static size_t g_end_len;

static void on_alarm(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, g_end_line, g_end_len);
    (void)w;
    _exit(3);
}

void cv_mpi_destroy(cv_mpi *m)
{
    if (!m)
        return;
    if (g_world == m)
        g_world = NULL;
    MPI_Comm_free(&m->comm);
    if (m->init_here) {
        /* Every process said it had come to the end (cv_mpi_share), but
         * one can still stop before MPI_Finalize, which then waits for it
         * with no deadline of its own: bound it as every other wait, and
         * leave with exit status 3, which the launcher takes as the end of
         * the job, which then ends the others (SIGTERM, on_term). Rank 0
         * the sooner by a few seconds, the time the launcher takes to end
         * the others: one line, not one from each. */
        int n = snprintf(g_end_line, sizeof g_end_line,
                         "collviz: rank %d: --backend mpi: ending MPI: some rank did not "
                         "answer within %g s (COLLVIZ_MPI_TIMEOUT); it stopped or died\n",
                         m->rank, m->timeout);
        g_end_len = n < 0 ? 0 : (size_t)n < sizeof g_end_line ? (size_t)n : sizeof g_end_line - 1;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGALRM, &sa, NULL);
        fflush(stdout);
        fflush(stderr);
        alarm((unsigned)m->timeout + 1 + (m->rank > 0 ? 4 : 0));
        MPI_Finalize();
        alarm(0);
    }
    free(m->hosts);
    free(m);
}

int cv_mpi_rank(const cv_mpi *m) { return m ? m->rank : 0; }
int cv_mpi_size(const cv_mpi *m) { return m ? m->size : 1; }
const char *cv_mpi_host(const cv_mpi *m, int rank)
{
    return m && rank >= 0 && rank < m->size ? m->hosts[rank] : "";
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int cv_mpi_agree(cv_mpi *m, int status, char *why, size_t len, int *who)
{
    /* Each process's code and the hash of its line: enough to tell one
     * mistake everywhere from different ones, without sending every line. */
    long long mine[2] = {status, status ? (long long)text_hash(why) : 0};
    long long *all = cv__xcalloc((size_t)m->size * 2, sizeof *all);
    MPI_Request req;
    MPI_Iallgather(mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, m->comm, &req);
    settle(m, &req, "agreeing to start");
    int first = -1;
    bool alike = true;
    for (int r = 0; r < m->size; r++) {
        if (all[2 * r] && first < 0)
            first = r;
        if (all[2 * r] != all[0] || all[2 * r + 1] != all[1])
            alike = false;
    }
    int code = first < 0 ? 0 : (int)all[2 * first];
    free(all);
    *who = -1;
    if (first < 0)
        return 0;
    char line[CV_ERR_LEN];
    snprintf(line, sizeof line, "%s", m->rank == first ? why : "");
    MPI_Ibcast(line, (int)sizeof line, MPI_CHAR, first, m->comm, &req);
    settle(m, &req, "agreeing to start");
    snprintf(why, len, "%s", line);
    *who = alike ? -1 : first; /* alike: every process failed, as the first did */
    return code;
}

bool cv_mpi_same(cv_mpi *m, const char *text, char *why, size_t len)
{
    char first[CV_ERR_LEN];
    snprintf(first, sizeof first, "%s", m->rank == 0 ? text : "");
    MPI_Request req;
    MPI_Ibcast(first, (int)sizeof first, MPI_CHAR, 0, m->comm, &req);
    settle(m, &req, "agreeing to start");
    if (!strncmp(first, text, sizeof first - 1))
        return true;
    /* Say which word differs: for "--flag value" texts, the flag and both
     * values. */
    const char *a = text, *b = first;
    for (;;) {
        size_t na = strcspn(a, " "), nb = strcspn(b, " ");
        if (na != nb || strncmp(a, b, na) || !a[na] || !b[nb])
            break;
        a += na + 1;
        b += nb + 1;
    }
    /* a and b: the first word that differs; the flag is the word before
     * it where that begins with "--". */
    const char *flag = a, *before = a > text + 1 ? a - 2 : NULL;
    while (before && before > text && before[-1] != ' ')
        before--;
    if (before && !strncmp(before, "--", 2) && strncmp(a, "--", 2))
        flag = before;
    size_t nflag = flag == a ? 0 : (size_t)(a - flag);
    snprintf(why, len,
             "runs %.*s%.*s where rank 0 runs %.*s%.*s; every process must run the "
             "same collective",
             (int)nflag, flag, (int)strcspn(a, " "), a, (int)nflag, flag, (int)strcspn(b, " "), b);
    return false;
}

int64_t cv_mpi_share(cv_mpi *m, int64_t value)
{
    /* Messages rather than a collective: each process tells process 0 it
     * has come to the end, and 0 answers each with the value once all
     * have, so that a wait that runs out names the silent rank (process 0
     * waits the least, await's stagger, and says it). A broadcast would
     * let process 0 and the ones that heard it go on into MPI_Finalize
     * and wait there, with no deadline, for one that stopped. */
    int n = m->size, me = m->rank, rc = CV_OK;
    if (n == 1)
        return value;
    long long v = value;
    char token = 1, *tokens = cv__xcalloc((size_t)n, 1);
    MPI_Request *reqs = cv__xcalloc((size_t)n + 1, sizeof *reqs);
    int *peers = cv__xcalloc((size_t)n + 1, sizeof *peers);
    char err[CV_ERR_LEN];
    const char *what = "finishing the run";
    if (me != 0) {
        MPI_Isend(&token, 1, MPI_CHAR, 0, END_TAG, m->comm, &reqs[0]);
        MPI_Irecv(&v, 1, MPI_LONG_LONG, 0, SHARE_TAG, m->comm, &reqs[1]);
        rc = await(m, 2, reqs, peers, what, err, sizeof err);
    } else {
        for (int r = 1; r < n; r++) {
            MPI_Irecv(&tokens[r], 1, MPI_CHAR, r, END_TAG, m->comm, &reqs[r - 1]);
            peers[r - 1] = r;
        }
        rc = await(m, n - 1, reqs, peers, what, err, sizeof err);
        for (int r = 1; r < n && !rc; r++)
            MPI_Isend(&v, 1, MPI_LONG_LONG, r, SHARE_TAG, m->comm, &reqs[r - 1]);
        if (!rc)
            rc = await(m, n - 1, reqs, peers, what, err, sizeof err);
    }
    free(tokens);
    free(reqs);
    free(peers);
    if (rc) {
        fprintf(stderr, "collviz: rank %d: --backend mpi: %s\n", me, err);
        cv_mpi_abort(m, 3);
    }
    return v;
}

void cv_mpi_abort(cv_mpi *m, int code)
{
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(m ? m->comm : MPI_COMM_WORLD, code);
    exit(code); /* MPI_Abort does not return; should it, end this process at least */
}

/* ------------------------------------------------- the library's own call */

/* MPI's datatype and op for spec where it reduces; false where it has none. */
static bool mpi_reduction(const cv_spec *s, MPI_Datatype *type, MPI_Op *op)
{
    switch (s->dtype) {
    case CV_INT8: *type = MPI_INT8_T; break;
    case CV_INT32: *type = MPI_INT32_T; break;
    case CV_INT64: *type = MPI_INT64_T; break;
    case CV_FLOAT32: *type = MPI_FLOAT; break;
    case CV_FLOAT64: *type = MPI_DOUBLE; break;
    default: return false; /* float16, bfloat16: no MPI type */
    }
    switch (s->redop) {
    case CV_SUM: *op = MPI_SUM; break;
    case CV_PROD: *op = MPI_PROD; break;
    case CV_MIN: *op = MPI_MIN; break;
    case CV_MAX: *op = MPI_MAX; break;
    case CV_BAND: *op = MPI_BAND; break;
    case CV_BOR: *op = MPI_BOR; break;
    case CV_BXOR: *op = MPI_BXOR; break;
    default: return false; /* avg: MPI has none */
    }
    return true;
}

int cv_mpi_library_seconds(cv_mpi *m, const cv_spec *spec, int warmup, int iterations,
                           double *seconds, char *err, size_t errlen)
{
    *seconds = 0;
    bool reduces = cv_op_reduces(spec->op);
    MPI_Datatype type = MPI_BYTE;
    MPI_Op op = MPI_SUM;
    if (reduces && !mpi_reduction(spec, &type, &op)) {
        snprintf(err, errlen, "MPI has no %s reduction of %s", cv_redop_name(spec->redop),
                 cv_dtype_name(spec->dtype));
        return CV_EUNAVAIL;
    }
    /* Without a reduction the elements are bytes: any dtype moves. */
    int64_t unit = reduces ? 1 : (int64_t)cv_dtype_size(spec->dtype);
    int64_t count = spec->count * unit;
    if (count > 2147483647) {
        snprintf(err, errlen, "%lld elements: beyond an MPI count (an int)", (long long)count);
        return CV_EUNAVAIL;
    }
    size_t esz = cv_dtype_size(spec->dtype);
    int64_t ns = cv_spec_buf_count(spec, CV_BUF_SEND, m->rank);
    int64_t nr = cv_spec_buf_count(spec, CV_BUF_RECV, m->rank);
    /* The buffers NCCL's layout gives each rank (MPI reads no buffer a
     * rank leaves unused, such as a non-root's receive buffer of gather). */
    unsigned char *in = cv__alloc_big((size_t)ns * esz + 64);
    unsigned char *out = cv__alloc_big((size_t)nr * esz + 64);
    if (!in || !out) {
        free(in);
        free(out);
        snprintf(err, errlen, "out of memory for MPI's own call's buffers");
        return CV_ENOMEM;
    }
    memset(in, 0, (size_t)ns * esz + 64);
    memset(out, 0, (size_t)nr * esz + 64);
    int c = (int)count, root = cv_op_has_root(spec->op) ? spec->root : 0, n = m->size;
    int next = (m->rank + 1) % n, prev = (m->rank + n - 1) % n;
    double t0 = 0;
    int rc = MPI_SUCCESS;
    for (int it = 0; it < warmup + iterations && rc == MPI_SUCCESS; it++) {
        if (it == warmup) {
            MPI_Barrier(m->comm);
            t0 = MPI_Wtime();
        }
        switch (spec->op) {
        case CV_OP_ALLREDUCE: rc = MPI_Allreduce(in, out, c, type, op, m->comm); break;
        case CV_OP_ALLGATHER: rc = MPI_Allgather(in, c, type, out, c, type, m->comm); break;
        case CV_OP_REDUCESCATTER:
            rc = MPI_Reduce_scatter_block(in, out, c, type, op, m->comm);
            break;
        case CV_OP_ALLTOALL: rc = MPI_Alltoall(in, c, type, out, c, type, m->comm); break;
        case CV_OP_BROADCAST: rc = MPI_Bcast(out, c, type, root, m->comm); break;
        case CV_OP_REDUCE: rc = MPI_Reduce(in, out, c, type, op, root, m->comm); break;
        case CV_OP_GATHER: rc = MPI_Gather(in, c, type, out, c, type, root, m->comm); break;
        case CV_OP_SCATTER: rc = MPI_Scatter(in, c, type, out, c, type, root, m->comm); break;
        default:
            rc = MPI_Sendrecv(in, c, type, next, 7, out, c, type, prev, 7, m->comm,
                              MPI_STATUS_IGNORE);
            break;
        }
    }
    double mine = (MPI_Wtime() - t0) / iterations;
    free(in);
    free(out);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        mpi_error_text(rc, text, sizeof text);
        snprintf(err, errlen, "MPI's own %s: %s", cv_op_name(spec->op), text);
        return CV_EBACKEND;
    }
    MPI_Allreduce(&mine, seconds, 1, MPI_DOUBLE, MPI_MAX, m->comm);
    return CV_OK;
}

/* ------------------------------------------------------------ the backend */

typedef struct {
    const cv_plan *plan;
    cv_mpi *m;
    size_t esz;
    int parts;
    unsigned char **bufs; /* [part * CV_BUF_COUNT + buf]; NULL where another process owns it */
    int64_t *lens;
    MPI_Request *reqs;
    int *peers; /* the rank each request waits on */
    int64_t cap_reqs;
    double *times;        /* process 0: each process's time for a step */
    unsigned char *stage; /* where reductions' incoming chunks land */
    int64_t cap_stage;
} mpi_state;

/* The process that holds participant `part`: its rank, and process 0 for
 * an in-network plan's switch. */
static int owner(const mpi_state *s, int part) { return part < s->plan->spec.ranks ? part : 0; }

static bool mine(const mpi_state *s, int part) { return owner(s, part) == s->m->rank; }

static int mpi_probe(char *err, size_t errlen)
{
    if (!g_world) {
        cv__fail(err, errlen,
                 "the MPI backend runs under an MPI launcher through collviz run "
                 "(mpirun -np N collviz run --backend mpi ...)");
        return CV_EUNAVAIL;
    }
    if (g_world->timeout_status) {
        snprintf(err, errlen, "%s", g_world->timeout_err);
        return CV_EINVAL;
    }
    long launched = cv_mpi_launcher_size();
    if (g_world->size == 1 && launched > 1) {
        /* srun without --mpi=pmix, say: each process is alone in its world */
        snprintf(err, errlen,
                 "MPI sees 1 process but the launcher started %ld: this MPI cannot "
                 "reach the launcher's process manager (with Slurm, try srun --mpi=pmix)",
                 launched);
        return CV_EUNAVAIL;
    }
    return CV_OK;
}

static void mpi_close(void *state)
{
    mpi_state *s = state;
    if (!s)
        return;
    if (s->bufs)
        for (int i = 0; i < s->parts * CV_BUF_COUNT; i++)
            free(s->bufs[i]);
    free(s->bufs);
    free(s->lens);
    free(s->reqs);
    free(s->peers);
    free(s->stage);
    free(s->times);
    free(s);
}

/* Host memory this process's buffers take: its rank's, and process 0 also
 * the switch's. */
static int64_t mpi_host_bytes(const cv_plan *plan)
{
    int me = g_world ? g_world->rank : 0;
    size_t esz = cv_dtype_size(plan->spec.dtype);
    int64_t n = 0;
    for (int part = 0; part < cv_plan_parts(plan); part++)
        if ((part < plan->spec.ranks ? part : 0) == me)
            for (int b = 0; b < CV_BUF_COUNT; b++)
                n += (cv_plan_buf_count(plan, (cv_buf)b, part) + 1) * (int64_t)esz;
    return n;
}

static int mpi_open(const cv_plan *plan, void **state, char *err, size_t errlen)
{
    *state = NULL;
    int rc = mpi_probe(err, errlen);
    if (rc)
        return rc;
    if (plan->spec.ranks != g_world->size)
        return cv__fail(err, errlen,
                        "the plan has %d ranks and MPI %d processes: one rank a "
                        "process",
                        plan->spec.ranks, g_world->size);
    mpi_state *s = cv__xcalloc(1, sizeof *s);
    s->plan = plan;
    s->m = g_world;
    s->esz = cv_dtype_size(plan->spec.dtype);
    s->parts = cv_plan_parts(plan);
    s->times = cv__xcalloc((size_t)s->m->size, sizeof *s->times);
    int nb = s->parts * CV_BUF_COUNT;
    s->bufs = cv__xcalloc((size_t)nb, sizeof *s->bufs);
    s->lens = cv__xcalloc((size_t)nb, sizeof *s->lens);
    for (int i = 0; i < nb; i++) {
        s->lens[i] = cv_plan_buf_count(plan, (cv_buf)(i % CV_BUF_COUNT), i / CV_BUF_COUNT);
        if (!mine(s, i / CV_BUF_COUNT))
            continue;
        size_t n = ((size_t)s->lens[i] + 1) * s->esz;
        s->bufs[i] = cv__alloc_big(n);
        if (!s->bufs[i]) {
            snprintf(err, errlen, "out of memory allocating rank %d's buffers (%.1f MiB)",
                     s->m->rank, (double)mpi_host_bytes(plan) / 1048576.0);
            mpi_close(s);
            return CV_ENOMEM;
        }
        memset(s->bufs[i], 0, n); /* RECV and SCRATCH start as zeros, never garbage */
    }
    *state = s;
    return CV_OK;
}

static int check_range(const mpi_state *s, int rank, cv_buf buf, int64_t off, int64_t count,
                       char *err, size_t errlen)
{
    if (rank < 0 || rank >= s->parts || (unsigned)buf >= CV_BUF_COUNT || off < 0 || count < 0 ||
        off + count > s->lens[rank * CV_BUF_COUNT + buf])
        return cv__fail(err, errlen, "mpi: access to rank %d %s [%lld, +%lld) out of bounds", rank,
                        cv_buf_name(buf), (long long)off, (long long)count);
    return CV_OK;
}

static unsigned char *at(const mpi_state *s, int part, int buf, int64_t off)
{
    return s->bufs[part * CV_BUF_COUNT + buf] + (size_t)off * s->esz;
}

static int mpi_write(void *state, int rank, cv_buf buf, int64_t off, int64_t count, const void *src,
                     char *err, size_t errlen)
{
    mpi_state *s = state;
    int rc = check_range(s, rank, buf, off, count, err, errlen);
    if (!rc && count && mine(s, rank)) /* another process's: its own copy of cv_run writes it */
        memcpy(at(s, rank, buf, off), src, (size_t)count * s->esz);
    return rc;
}

/* Waits for the first n of the step's requests (await). */
static int wait_all(mpi_state *s, int64_t n, const char *what, char *err, size_t errlen)
{
    return await(s->m, n, s->reqs, s->peers, what, err, errlen);
}

static void ensure_reqs(mpi_state *s, int64_t n)
{
    if (n <= s->cap_reqs)
        return;
    s->reqs = cv__xrealloc(s->reqs, (size_t)n * sizeof *s->reqs);
    s->peers = cv__xrealloc(s->peers, (size_t)n * sizeof *s->peers);
    s->cap_reqs = n;
}

/* Messages of at most MAX_MESSAGE_BYTES for n bytes. */
static int64_t pieces_of(int64_t bytes)
{
    return bytes ? (bytes + MAX_MESSAGE_BYTES - 1) / MAX_MESSAGE_BYTES : 0;
}

/* Posts n bytes at p to or from peer as pieces; returns requests posted. */
static int64_t post(mpi_state *s, bool send, unsigned char *p, int64_t bytes, int peer, int tag,
                    int64_t k)
{
    int64_t posted = 0;
    for (int64_t done = 0; done < bytes; done += MAX_MESSAGE_BYTES) {
        int len = (int)(bytes - done < MAX_MESSAGE_BYTES ? bytes - done : MAX_MESSAGE_BYTES);
        if (send)
            MPI_Isend(p + done, len, MPI_BYTE, peer, tag, s->m->comm, &s->reqs[k + posted]);
        else
            MPI_Irecv(p + done, len, MPI_BYTE, peer, tag, s->m->comm, &s->reqs[k + posted]);
        s->peers[k + posted] = peer;
        posted++;
    }
    return posted;
}

/* The largest of every process's `mine`, on every process: each sends its
 * own to process 0, which sends the largest back. Messages rather than a
 * collective, so that a wait that runs out names the rank that is silent
 * (process 0 waits the least, cv_mpi_create's stagger, and says it). */
static int slowest(mpi_state *s, double mine, double *out, const char *what, char *err,
                   size_t errlen)
{
    int n = s->m->size, me = s->m->rank;
    ensure_reqs(s, n + 1);
    *out = mine;
    if (n == 1)
        return CV_OK;
    if (me != 0) {
        MPI_Isend(&mine, 1, MPI_DOUBLE, 0, TIME_TAG, s->m->comm, &s->reqs[0]);
        MPI_Irecv(out, 1, MPI_DOUBLE, 0, TIME_TAG, s->m->comm, &s->reqs[1]);
        s->peers[0] = s->peers[1] = 0;
        return wait_all(s, 2, what, err, errlen);
    }
    for (int r = 1; r < n; r++) {
        MPI_Irecv(&s->times[r], 1, MPI_DOUBLE, r, TIME_TAG, s->m->comm, &s->reqs[r - 1]);
        s->peers[r - 1] = r;
    }
    int rc = wait_all(s, n - 1, what, err, errlen);
    for (int r = 1; r < n && !rc; r++)
        *out = s->times[r] > *out ? s->times[r] : *out;
    for (int r = 1; r < n && !rc; r++) {
        MPI_Isend(out, 1, MPI_DOUBLE, r, TIME_TAG, s->m->comm, &s->reqs[r - 1]);
        s->peers[r - 1] = r;
    }
    return rc ? rc : wait_all(s, n - 1, what, err, errlen);
}

static int mpi_run_step(void *state, int step, double *seconds, char *err, size_t errlen)
{
    mpi_state *s = state;
    const cv_plan *p = s->plan;
    if (step < 0 || step >= p->nsteps)
        return cv__fail(err, errlen, "mpi: step %d out of range (plan has %d)", step, p->nsteps);
    const cv_step *st = &p->steps[step];
    const cv_transfer *xs = &p->transfers[st->first];
    const cv_spec *sp = &p->spec;
    double t0 = cv_now_seconds();

    /* What this process sends and receives in the step, and the staging
     * reductions need. */
    int64_t nreq = 0, staged = 0;
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *x = &xs[i];
        if (owner(s, x->src) == owner(s, x->dst))
            continue;
        int64_t bytes = x->count * (int64_t)s->esz;
        if (mine(s, x->src) || mine(s, x->dst))
            nreq += pieces_of(bytes);
        if (mine(s, x->dst) && x->kind != CV_XFER_COPY)
            staged += bytes;
    }
    ensure_reqs(s, nreq + 1);
    if (staged > s->cap_stage) {
        free(s->stage);
        s->stage = cv__xmalloc_big((size_t)staged);
        s->cap_stage = staged;
    }
    int tag = step % STEP_TAGS;
    int64_t k = 0, stage_at = 0;
    for (int64_t i = 0; i < st->count; i++) { /* receives first: no unexpected messages */
        const cv_transfer *x = &xs[i];
        if (!mine(s, x->dst) || mine(s, x->src))
            continue;
        int64_t bytes = x->count * (int64_t)s->esz;
        unsigned char *into = x->kind == CV_XFER_COPY ? at(s, x->dst, x->dst_buf, x->dst_off)
                                                      : s->stage + stage_at;
        if (x->kind != CV_XFER_COPY)
            stage_at += bytes;
        k += post(s, false, into, bytes, owner(s, x->src), tag, k);
    }
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *x = &xs[i];
        if (mine(s, x->src) && !mine(s, x->dst))
            k += post(s, true, at(s, x->src, x->src_buf, x->src_off), x->count * (int64_t)s->esz,
                      owner(s, x->dst), tag, k);
    }
    /* Local transfers while the messages travel. */
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *x = &xs[i];
        if (!mine(s, x->src) || !mine(s, x->dst))
            continue;
        const void *local = x->kind == CV_XFER_REDUCE_COPY
                                ? at(s, x->dst, x->local_buf, x->local_off)
                                : NULL;
        cv__kernel(sp->dtype, sp->redop, x, at(s, x->dst, x->dst_buf, x->dst_off), local,
                   at(s, x->src, x->src_buf, x->src_off), x->count, sp->ranks);
    }
    char what[64];
    snprintf(what, sizeof what, "step %d", step + 1);
    int rc = wait_all(s, k, what, err, errlen);
    if (rc)
        return rc;
    /* Reductions of what arrived, in the order it was staged. */
    stage_at = 0;
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *x = &xs[i];
        if (!mine(s, x->dst) || mine(s, x->src))
            continue;
        if (x->kind == CV_XFER_COPY) /* it landed in place */
            continue;
        const void *local = x->kind == CV_XFER_REDUCE_COPY
                                ? at(s, x->dst, x->local_buf, x->local_off)
                                : NULL;
        cv__kernel(sp->dtype, sp->redop, x, at(s, x->dst, x->dst_buf, x->dst_off), local,
                   s->stage + stage_at, x->count, sp->ranks);
        stage_at += x->count * (int64_t)s->esz;
    }
    /* The step lasts as long as its slowest process took. */
    snprintf(what, sizeof what, "step %d's timing", step + 1);
    return slowest(s, cv_now_seconds() - t0, seconds, what, err, errlen);
}

/* Collective: every process calls it alike; process 0 gets the region,
 * from its owner. */
static int mpi_read(void *state, int rank, cv_buf buf, int64_t off, int64_t count, void *dst,
                    char *err, size_t errlen)
{
    mpi_state *s = state;
    int rc = check_range(s, rank, buf, off, count, err, errlen);
    if (rc || !count)
        return rc;
    int from = owner(s, rank), me = s->m->rank;
    int64_t bytes = count * (int64_t)s->esz;
    if (from == me && me == 0) {
        memcpy(dst, at(s, rank, buf, off), (size_t)bytes);
        return CV_OK;
    }
    if (me != 0 && from != me) {
        memset(dst, 0, (size_t)bytes); /* process 0 holds the results; here, zeros */
        return CV_OK;
    }
    ensure_reqs(s, pieces_of(bytes) + 1);
    int64_t k = from == me ? post(s, true, at(s, rank, buf, off), bytes, 0, READ_TAG, 0)
                           : post(s, false, dst, bytes, from, READ_TAG, 0);
    char what[96];
    snprintf(what, sizeof what, "reading rank %d's %s back", rank, cv_buf_name(buf));
    return wait_all(s, k, what, err, errlen);
}

static bool mpi_holds(void *state, int rank) { return mine(state, rank); }

static const cv_backend mpi_backend = {
    .name = "mpi",
    .holds = mpi_holds,
    .probe = mpi_probe,
    .open = mpi_open,
    .write = mpi_write,
    .run_step = mpi_run_step,
    .read = mpi_read,
    .close = mpi_close,
    .host_bytes = mpi_host_bytes,
};

#endif /* COLLVIZ_HAVE_MPI */

const cv_backend *cv_mpi_backend(void) { return &mpi_backend; }

int cv_mpi_nodes(const cv_mpi *m)
{
    int n = cv_mpi_size(m), k = 1;
    for (int r = 1; r < n; r++)
        if (strcmp(cv_mpi_host(m, r), cv_mpi_host(m, r - 1))) {
            for (int q = 0; q < r - 1; q++) /* a host seen before, then left: not in blocks */
                if (!strcmp(cv_mpi_host(m, q), cv_mpi_host(m, r)))
                    return 1;
            k++;
        }
    if (k < 2 || n % k)
        return 1;
    for (int r = 0; r < n; r++) /* every host the same number of ranks */
        if (strcmp(cv_mpi_host(m, r), cv_mpi_host(m, r / (n / k) * (n / k))))
            return 1;
    return k;
}
