/*
 * cli_mpi.c: `collviz run --backend mpi` as every process of an MPI launch
 * runs it (the backend is collectives/cv_mpi.c).
 *
 * Each process reads its own command line, so one of them can fail where
 * the others do not (a bad flag given to one, a file only one cannot read,
 * a different --count). MPI therefore starts before the flags are read,
 * and nothing runs until every process has said how its preparation went
 * (cli_mpi_agree): a mistake every process made is the one line it would
 * be without MPI, with its exit code; a failure on some is one line naming
 * the first failing rank, and exit 3 everywhere. Until then each process's
 * stderr is held back, so N processes never print N copies of a line;
 * process 0 alone prints. After the agreement, a process that fails says
 * so in one line with its rank and ends every process (exit 3), since the
 * others may already be waiting for it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cv_mpi.h"

static cv_mpi *g_mpi;
static FILE *g_held; /* stderr, held back until the agreement */
static int g_saved_err = -1;

bool cli_mpi_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--backend=mpi") ||
            (!strcmp(argv[i], "--backend") && i + 1 < argc && !strcmp(argv[i + 1], "mpi")))
            return true;
    }
    return false;
}

cv_mpi *cli_mpi_world(void) { return g_mpi; }

int cli_mpi_trace_only(const char *cmd)
{
    return cli_usage_error("%s --backend mpi: the window draws an MPI run from its trace: run "
                           "`mpirun -np N collviz run --backend mpi ... --trace-out T.json`, then "
                           "`collviz %s --trace T.json`", cmd, cmd);
}

int cli_mpi_begin(void)
{
    char err[CV_ERR_LEN];
    if (!cv_mpi_built()) /* cli_select_backend says so in its one line */
        return CLI_EXIT_OK;
    if (cv_mpi_create(&g_mpi, err, sizeof err) != CV_OK) {
        fprintf(stderr, "collviz: --backend mpi: %s\n", err);
        return CLI_EXIT_UNAVAIL;
    }
    if (cv_mpi_rank(g_mpi) != 0 && !freopen("/dev/null", "w", stdout))
        fclose(stdout); /* process 0 alone prints */
    fflush(stderr);
    g_held = tmpfile();
    g_saved_err = g_held ? dup(STDERR_FILENO) : -1;
    if (g_saved_err >= 0)
        dup2(fileno(g_held), STDERR_FILENO);
    return CLI_EXIT_OK;
}

/* Gives stderr back: what was held in held, its last line (the failure,
 * after any notes) without "collviz: " in line. */
static void release(char *held, size_t heldlen, char *line, size_t len)
{
    line[0] = held[0] = '\0';
    if (g_saved_err < 0)
        return;
    fflush(stderr);
    dup2(g_saved_err, STDERR_FILENO);
    close(g_saved_err);
    g_saved_err = -1;
    rewind(g_held);
    size_t n = fread(held, 1, heldlen - 1, g_held);
    held[n] = '\0';
    fclose(g_held);
    g_held = NULL;
    while (n > 0 && held[n - 1] == '\n')
        n--;
    const char *s = held + n;
    while (s > held && s[-1] != '\n')
        s--;
    s += !strncmp(s, "collviz: ", 9) ? 9 : 0;
    snprintf(line, len, "%.*s", (int)strcspn(s, "\n"), s);
}

int cli_mpi_agree(int code, const char *what)
{
    if (!g_mpi)
        return code == CLI_MPI_HELP ? CLI_EXIT_OK : code;
    char held[4096], why[CV_ERR_LEN];
    bool zero = cv_mpi_rank(g_mpi) == 0;
    release(held, sizeof held, why, sizeof why);
    if (code == CLI_MPI_HELP)
        snprintf(why, sizeof why, "printed its --help and stopped");
    else if (code && !why[0])
        snprintf(why, sizeof why, "stopped with exit status %d", code);
    int who = -1;
    int agreed = cv_mpi_agree(g_mpi, code, why, sizeof why, &who);
    /* Ready everywhere: then every process must be about to run the same. */
    if (!agreed && !cv_mpi_same(g_mpi, what ? what : "", why, sizeof why))
        agreed = cv_mpi_agree(g_mpi, CLI_EXIT_UNAVAIL, why, sizeof why, &who);
    else if (!agreed)
        agreed = cv_mpi_agree(g_mpi, CLI_EXIT_OK, why, sizeof why, &who);
    if (!agreed) {
        if (zero) /* rank 0's notes, as a run without MPI shows them */
            fputs(held, stderr);
        return CLI_EXIT_OK;
    }
    if (agreed == CLI_MPI_HELP && who < 0) /* --help everywhere: rank 0's is on stdout */
        return CLI_EXIT_OK;
    if (zero) {
        if (who < 0)
            fprintf(stderr, "collviz: %s\n", why);
        else
            fprintf(stderr, "collviz: rank %d: %s\n", who, why);
    }
    return who < 0 ? agreed : CLI_EXIT_UNAVAIL;
}

void cli_mpi_fail(const char *what)
{
    fprintf(stderr, "collviz: rank %d: %s\n", cv_mpi_rank(g_mpi), what);
    cv_mpi_abort(g_mpi, CLI_EXIT_UNAVAIL);
}

int cli_mpi_end(int code)
{
    if (!g_mpi)
        return code;
    char held[8], line[8];
    release(held, sizeof held, line, sizeof line);
    code = (int)cv_mpi_share(g_mpi, code); /* process 0 verified: its word goes */
    fflush(stdout);
    cv_mpi_destroy(g_mpi);
    g_mpi = NULL;
    return code;
}
