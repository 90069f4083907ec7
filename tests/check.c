/*
 * check.c: the runner of the tests' case tables (check.h). It expands the
 * table (a family's members become cases of their own), reads the command
 * line (--list, --part K/N, names or globs), runs the chosen cases in the
 * table's order with each one's checks and failures counted apart, and
 * ends with the totals, the failed cases' names and the exit code ctest
 * reads: 0, 1, or 77 for a skip.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int checks, failures;

#define NAME_LEN 128

typedef struct {
    char name[NAME_LEN];
    const test_case *row;
    int member; /* a family's member; -1 for a plain case */
    int chosen;
    int failed;
} entry;

static const char *prog = "test";
static entry *entries;
static int nentries, ready, skipped, quiet;

/* Bad usage, or a table that cannot be: says why and exits 2. */
__attribute__((format(printf, 1, 2))) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", prog);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    exit(2);
}

static void add(const test_case *row, int member, const char *member_name)
{
    entries = realloc(entries, (size_t)(nentries + 1) * sizeof *entries);
    if (!entries) {
        printf("%s: out of memory\n", prog);
        exit(1);
    }
    entry *e = &entries[nentries++];
    memset(e, 0, sizeof *e);
    e->row = row;
    e->member = member;
    int n;
    if (member < 0)
        n = snprintf(e->name, sizeof e->name, "%s", row->name);
    else if (!row->name[0])
        n = snprintf(e->name, sizeof e->name, "%s", member_name);
    else
        n = snprintf(e->name, sizeof e->name, "%s/%s", row->name, member_name);
    /* A name is typed on a command line and in ctest -R, and is a line of
     * the list CMake reads (';' would split it): no spaces, no glob
     * characters, and every name its own. */
    if (n <= 0 || n >= NAME_LEN || strpbrk(e->name, " \t\n*?[]\\'\"$;"))
        die("the case name '%s' is empty, too long, or has a space or a glob character", e->name);
    for (int i = 0; i < nentries - 1; i++)
        if (!strcmp(entries[i].name, e->name))
            die("two cases are named '%s'", e->name);
}

static void expand(const test_case *cases, int ncases)
{
    for (int r = 0; r < ncases; r++) {
        const test_case *row = &cases[r];
        if (row->then && r == 0)
            die("the first case, '%s', goes on from no case", row->name);
        if (!row->each) {
            add(row, -1, NULL);
            continue;
        }
        char member[NAME_LEN];
        for (int i = 0; row->each(i, member, sizeof member); i++)
            add(row, i, member);
    }
}

static void usage(void)
{
    printf("usage: %s [--list] [--part K/N] [NAME...]\n"
           "  runs every case, or those each NAME matches (the whole name, or a glob in\n"
           "  which '*' matches '/' too); --list prints their names; --part K/N runs\n"
           "  every Nth of them from the Kth on\n",
           prog);
}

void cases_args(int argc, char **argv, const test_case *cases, int ncases)
{
    if (argc > 0 && argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        prog = slash ? slash + 1 : argv[0];
    }
    expand(cases, ncases);
    int list = 0, part = 1, parts = 1, named = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--list")) {
            list = 1;
        } else if (!strcmp(a, "--part")) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            char end;
            if (sscanf(v, "%d/%d%c", &part, &parts, &end) != 2 || parts < 1 || part < 1 ||
                part > parts)
                die("--part wants K/N with 1 <= K <= N, not '%s'", v);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            exit(0);
        } else if (a[0] == '-') {
            die("unknown flag '%s'; allowed: --list, --part K/N, NAME...", a);
        } else {
            int hits = 0;
            for (int k = 0; k < nentries; k++)
                if (!fnmatch(a, entries[k].name, 0)) {
                    entries[k].chosen = 1;
                    hits++;
                }
            if (!hits)
                die("no case matches '%s' (--list names them)", a);
            named = 1;
        }
    }
    for (int k = 0; k < nentries; k++)
        entries[k].chosen |= !named;
    /* --part: every Nth of the cases chosen, counted in the table's order. */
    for (int k = 0, nth = 0; k < nentries; k++)
        if (entries[k].chosen && nth++ % parts != part - 1)
            entries[k].chosen = 0;
    /* A case that goes on from the one above brings it along. */
    for (int k = nentries - 1; k > 0; k--)
        if (entries[k].chosen && entries[k].member < 0 && entries[k].row->then)
            entries[k - 1].chosen = 1;
    if (list) {
        for (int k = 0; k < nentries; k++)
            if (entries[k].chosen)
                printf("%s\n", entries[k].name);
        exit(0);
    }
    ready = 1;
}

int cases_run(void)
{
    if (!ready)
        die("cases_run before cases_args");
    int ran = 0;
    for (int k = 0; k < nentries; k++) {
        entry *e = &entries[k];
        if (!e->chosen)
            continue;
        int c0 = checks, f0 = failures;
        if (e->member < 0)
            e->row->run();
        else
            e->row->run_each(e->member);
        ran++;
        e->failed = failures - f0;
        if (quiet)
            continue;
        int n = checks - c0;
        if (e->failed)
            printf("FAILED %s (%d of %d check%s)\n", e->name, e->failed, n, n == 1 ? "" : "s");
        else
            printf("ok %s (%d check%s)\n", e->name, n, n == 1 ? "" : "s");
        fflush(stdout);
    }
    return ran;
}

int cases_end(void)
{
    if (!quiet) {
        printf("%d checks, %d failures\n", checks, failures);
        int in_cases = 0, shown = 0;
        for (int k = 0; k < nentries; k++) {
            if (!entries[k].failed)
                continue;
            in_cases += entries[k].failed;
            printf("%s %s", shown++ ? "," : "failed:", entries[k].name);
        }
        if (failures > in_cases)
            printf("%s (checks outside the cases)", shown++ ? "," : "failed:");
        if (shown)
            printf("\n");
        fflush(stdout);
    }
    free(entries);
    entries = NULL;
    nentries = 0;
    return failures ? 1 : skipped ? 77 : 0;
}

int cases_main(int argc, char **argv, const test_case *cases, int ncases)
{
    cases_args(argc, argv, cases, ncases);
    cases_run();
    return cases_end();
}

int cases_name_at(const char *const *names, int count, int i, char *name, size_t len)
{
    if (i < 0 || i >= count)
        return 0;
    snprintf(name, len, "%s", names[i]);
    return 1;
}

int cases_flag(int *argc, char **argv, const char *flag)
{
    int found = 0, k = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], flag))
            found = 1;
        else
            argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return found;
}

void cases_skip(const char *why)
{
    if (why)
        printf("%s\n", why);
    skipped = 1;
}

void cases_quiet(int q) { quiet = q; }
