/*
 * test_show_nccltests.c: `collviz show` reading the text nccl-tests
 * prints, as people paste it (app/gui/show_nccltests.c).
 *
 * The real pastes are under tests/show/nccltests/ with their threads in
 * its README.md; each fact checked here was read off the paste by hand:
 * the op (from the program's name, else the only one busbw/algbw and the
 * columns allow), the rank count (from "#  Rank" lines, else the only one
 * the busbw factor fits), hosts, GPU, version, iterations, the rows kept
 * and their values, and which questions the paste leaves open (an error
 * that names the flag to pass). The synthetic cases below them cover what
 * no paste at hand showed: several series and tests in one file, a 2017
 * table in milliseconds, rows of size 0, a negative time, hostile bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jr.h"
#include "ncclog.h"
#include "show.h"
#include "test_cli_util.h"

#define PASTES COLLVIZ_SOURCE_DIR "/tests/show/nccltests/"
#define DIR COLLVIZ_BINARY_DIR "/show-nccltests-test"

static show_hints no_hints = {-1, 0, -1, false};

static int load(const char *name, const show_hints *h, show_result *r, char *err, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, PASTES "%s", name);
    return show_load(path, h ? h : &no_hints, r, err, len);
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1, fabs(b)); }

/* nccl-tests 2.20: version line, program, two hosts of one GPU each. */
static void gb10_two_hosts(void)
{
    show_result r;
    char err[1200];
    int rc = load("dgx-spark-103-gb10-two-hosts.txt", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "gb10: %s", err);
    if (rc != CV_OK)
        return;
    EXPECT(r.spec.op == CV_OP_ALLREDUCE && !r.op_inferred, "gb10: op %s", cv_op_name(r.spec.op));
    EXPECT(r.spec.ranks == 2 && !r.ranks_inferred, "gb10: %d ranks", r.spec.ranks);
    EXPECT(r.hosts == 2 && r.spec.nodes == 2, "gb10: %d hosts, %d nodes", r.hosts, r.spec.nodes);
    EXPECT(!strcmp(r.gpu, "NVIDIA GB10"), "gb10: gpu '%s'", r.gpu);
    EXPECT(!strcmp(r.version, "2.20.0"), "gb10: version '%s'", r.version);
    EXPECT(!strcmp(r.program, "all_reduce_perf"), "gb10: program '%s'", r.program);
    EXPECT(r.iters == 100 && r.warmup == 10, "gb10: %ld iters, %ld warmup", r.iters, r.warmup);
    EXPECT(r.spec.dtype == CV_FLOAT32 && r.spec.redop == CV_SUM, "gb10: dtype, redop");
    EXPECT(!strcmp(r.backend, "nccl") && !strcmp(r.source, "nccl-tests"), "gb10: %s %s",
           r.backend, r.source);
    EXPECT(r.nrows == 4, "gb10: %d rows", r.nrows);
    if (r.nrows == 4) {
        const show_row *w = &r.rows[0];
        EXPECT(near(w->size, 8192) && near(w->count, 2048) && near(w->time_us, 35.15) &&
                   near(w->algbw, 0.23) && near(w->busbw, 0.23) && w->wrong == 0 && w->line == 12,
               "gb10: row 0 %g %g %g %g %g %g line %d", w->size, w->count, w->time_us, w->algbw,
               w->busbw, w->wrong, w->line);
        EXPECT(near(r.rows[3].size, 65536) && near(r.rows[3].time_us, 67.93), "gb10: row 3");
    }
    EXPECT(r.notes[0] == '\0', "gb10: notes '%s'", r.notes);
    char origin[256];
    show_origin(&r, origin, sizeof origin);
    EXPECT(!strcmp(origin, "all_reduce_perf, nccl-tests 2.20.0, 2 x NVIDIA GB10 on 2 hosts"),
           "gb10: origin '%s'", origin);
    /* two hosts: priced with the network between them */
    r.inter = *cv_link_find("ib-ndr");
    r.has_inter = true;
    int priced = 0;
    rc = show_model(&r, cv_link_find("nvlink4"), &priced, err, sizeof err);
    EXPECT(rc == CV_OK && priced == 4, "gb10 model: %s (%d priced)", err, priced);
    /* every transfer of a 2-rank ring crosses between hosts: slower than
     * the same plan on NVLink alone */
    double two_level = r.rows[3].model_us;
    r.has_inter = false;
    rc = show_model(&r, cv_link_find("nvlink4"), &priced, err, sizeof err);
    EXPECT(rc == CV_OK && r.rows[3].model_us < two_level, "gb10: nvlink %g us, two-level %g us",
           r.rows[3].model_us, two_level);
    show_result_destroy(&r);
}

/* The program named in the command line above the table; ranks from busbw. */
static void allgather_bfloat16(void)
{
    show_result r;
    char err[1200];
    int rc = load("nccl-1435-all-gather-bfloat16.txt", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "1435: %s", err);
    if (rc != CV_OK)
        return;
    EXPECT(r.spec.op == CV_OP_ALLGATHER && !r.op_inferred, "1435: op %s", cv_op_name(r.spec.op));
    EXPECT(r.spec.ranks == 2 && r.ranks_inferred, "1435: %d ranks", r.spec.ranks);
    EXPECT(r.spec.dtype == CV_BFLOAT16, "1435: dtype %s", cv_dtype_name(r.spec.dtype));
    EXPECT(r.nrows == 7 && near(r.rows[6].size, 117440512) && near(r.rows[6].busbw, 119.64),
           "1435: %d rows", r.nrows);
    EXPECT(strstr(r.notes, "2 ranks: the only count") != NULL, "1435: notes '%s'", r.notes);
    int priced = 0;
    rc = show_model(&r, cv_link_find("nvlink4"), &priced, err, sizeof err);
    EXPECT(rc == CV_OK && priced == 7, "1435 model: %s (%d of 7 priced)", err, priced);
    show_result_destroy(&r);
}

/* Rows only, no program, no Rank lines: op and ranks from busbw/algbw. */
static void inferred(const char *name, int ranks, int nrows, double first_time)
{
    show_result r;
    char err[1200];
    int rc = load(name, NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: %s", name, err);
    if (rc != CV_OK)
        return;
    EXPECT(r.spec.op == CV_OP_ALLREDUCE && r.op_inferred, "%s: op %s", name,
           cv_op_name(r.spec.op));
    EXPECT(r.spec.ranks == ranks && r.ranks_inferred, "%s: %d ranks, not %d", name, r.spec.ranks,
           ranks);
    EXPECT(r.nrows == nrows, "%s: %d rows, not %d", name, r.nrows, nrows);
    EXPECT(r.nrows > 0 && near(r.rows[0].time_us, first_time), "%s: first time %g", name,
           r.nrows ? r.rows[0].time_us : -1);
    EXPECT(strstr(r.notes, "no program name") != NULL, "%s: notes '%s'", name, r.notes);
    show_result_destroy(&r);
}

/* What the paste cannot say is asked for, by flag; given, it is used. */
static void asks(void)
{
    show_result r;
    char err[1200];
    int rc = load("nccl-644-error-column.txt", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "--op allgather") && strstr(err, "--op alltoall"),
           "644 without --op: %s", err);
    show_hints h = {CV_OP_ALLGATHER, 0, -1, false};
    rc = load("nccl-644-error-column.txt", &h, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "644 --op allgather: %s", err);
    if (rc == CV_OK) {
        EXPECT(r.spec.ranks == 8 && r.nrows == 13, "644: %d ranks, %d rows", r.spec.ranks,
               r.nrows);
        EXPECT(r.rows[0].wrong == -1 && strstr(r.notes, "largest error"), "644: wrong %g, '%s'",
               r.rows[0].wrong, r.notes);
        show_result_destroy(&r);
    }
    rc = load("nccl-1530-header-no-rows.txt", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "nccl-1530-header-no-rows.txt:15: a column header but "
                                          "no rows"), "1530: %s", err);
    /* the wrong rank count for these rows is refused, not drawn */
    h = (show_hints){CV_OP_ALLREDUCE, 4, -1, false};
    rc = load("mooncake-3484-rows-only.txt", &h, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "at 4 ranks"), "mooncake --ranks 4: %s", err);
}

static void typeless(void)
{
    show_result r;
    char err[1200];
    int rc = load("mscclpp-114-open-mpi-tags.txt", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "mscclpp: %s", err);
    if (rc != CV_OK)
        return;
    EXPECT(r.spec.ranks == 16 && r.spec.op == CV_OP_ALLREDUCE && r.spec.dtype == CV_FLOAT32,
           "mscclpp: %d ranks %s %s", r.spec.ranks, cv_op_name(r.spec.op),
           cv_dtype_name(r.spec.dtype));
    EXPECT(r.nrows == 1 && near(r.rows[0].time_us, 28286) && near(r.rows[0].busbw, 213.53),
           "mscclpp: rows");
    EXPECT(strstr(r.notes, "4 bytes per element") && strstr(r.notes, "in-place first"),
           "mscclpp: notes '%s'", r.notes);
    show_result_destroy(&r);
}

/* Synthetic: what no paste at hand showed. */
static int parse(const char *text, const show_hints *h, show_result *r, char *err, size_t len)
{
    return show_parse("synthetic.txt", text, strlen(text), h ? h : &no_hints, r, err, len);
}

static const char two_tests[] =
    "# Collective test starting: all_reduce_perf\n"
    "#  Rank  0 Group  0 Pid 1 on a device  0 [0x01] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid 1 on a device  1 [0x02] NVIDIA H100 80GB HBM3\n"
    "        1024           256     float     sum      -1    10.00    0.10    0.10      0\n"
    "        2048           512     float     sum      -1    10.00    0.20    0.20      0\n"
    "        1024           256     float     max      -1    10.00    0.10    0.10      0\n"
    "           0             0     float     sum      -1     3.00    0.00    0.00      0\n"
    "# Collective test starting: all_gather_perf\n"
    "#  Rank  0 Group  0 Pid 1 on a device  0 [0x01] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid 1 on a device  1 [0x02] NVIDIA H100 80GB HBM3\n"
    "        4096           512     float    none      -1    20.00    0.20    0.10      0\n";

static void synthetic(void)
{
    show_result r;
    char err[1200];
    int rc = parse(two_tests, NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.spec.op == CV_OP_ALLREDUCE && r.nrows == 2, "two tests: %s", err);
    if (rc == CV_OK) {
        EXPECT(strstr(r.notes, "1 rows of other series") && strstr(r.notes, "size 0") &&
                   strstr(r.notes, "another test"), "two tests: notes '%s'", r.notes);
        const cv_link *inter = NULL;
        char why[128];
        EXPECT(show_gpu_link(r.gpu, &inter, why, sizeof why) == cv_link_find("nvlink4") &&
                   inter == cv_link_find("ib-ndr"), "H100's links");
        show_result_destroy(&r);
    }
    show_hints h = {CV_OP_ALLGATHER, 0, -1, false};
    rc = parse(two_tests, &h, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.spec.op == CV_OP_ALLGATHER && r.nrows == 1 && r.spec.ranks == 2 &&
               near(r.rows[0].size, 4096), "--op picks the second test: %s", err);
    if (rc == CV_OK)
        show_result_destroy(&r);
    /* 2017: "bytes N type op", times in milliseconds */
    rc = parse("#  bytes  N  type  op  time  algbw  busbw  res  time  algbw  busbw  res\n"
               "  1048576  262144  float  sum  0.250  4.19  7.34  0e+00  0.250  4.19  7.34  0e+00\n",
               &(show_hints){-1, 8, -1, false}, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.nrows == 1 && near(r.rows[0].time_us, 250) && r.rows[0].wrong == -1,
           "2017 table: %s", err);
    if (rc == CV_OK)
        show_result_destroy(&r);
    rc = parse("   1024  256  float  sum  -1  -5.00  0.10  0.10  0\n", NULL, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "synthetic.txt:1: a row with a negative time"),
           "negative time: %s", err);
    /* hostile bytes: an ESC in the GPU's name is escaped, a NUL ends nothing */
    static const char hostile[] =
        "#  Rank  0 Group  0 Pid 1 on a device  0 [0x01] EVIL\x1b[2J GPU\n"
        "#  Rank  1 Group  0 Pid 1 on a device  1 [0x02] EVIL\x1b[2J GPU\n"
        "\0\0\n"
        "        1024           256     float     sum      -1    10.00    0.10    0.10      0\n";
    show_result_destroy(&r);
    h = (show_hints){CV_OP_ALLREDUCE, 0, -1, false};
    rc = show_parse("hostile.txt", hostile, sizeof hostile - 1, &h, &r, err, sizeof err);
    EXPECT(rc == CV_OK && !strchr(r.gpu, '\x1b') && r.nrows == 1, "hostile: %s gpu '%s'", err,
           rc == CV_OK ? r.gpu : "");
    if (rc == CV_OK)
        show_result_destroy(&r);
    /* an NCCL log in the same paste gives the ranks and nodes the rows lack */
    static const char mixed[] =
        "h1:1:2 [0] NCCL INFO comm 0x5558e3c10180 rank 0 nRanks 8 nNodes 2 localRanks 4 "
        "localRank 0 MNNVL 0\n"
        "       32768          8192     float     sum      -1    18.66    1.76    3.07       0\n"
        "       65536         16384     float     sum      -1    18.95    3.46    6.05       0\n";
    rc = parse(mixed, NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.spec.ranks == 8 && !r.ranks_inferred && r.spec.nodes == 2 &&
               strstr(r.notes, "from the NCCL log in the same file (line 1)"),
           "rows with an NCCL log: %s (%d ranks, %d nodes) '%s'", err, r.spec.ranks,
           r.spec.nodes, rc == CV_OK ? r.notes : "");
    if (rc == CV_OK)
        show_result_destroy(&r);
    /* launcher tags at the start of a paste are not a JSON array */
    rc = parse("[0]        1024           256     float     sum      -1    10.00    0.10    0.15"
               "      0\n", &(show_hints){CV_OP_ALLREDUCE, 4, -1, false}, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.nrows == 1, "a paste starting with [0]: %s", err);
    if (rc == CV_OK)
        show_result_destroy(&r);
    char *huge = malloc(200000);
    if (huge) {
        memset(huge, '7', 199999);
        huge[199999] = '\0';
        rc = parse(huge, NULL, &r, err, sizeof err);
        EXPECT(rc == CV_EINVAL && strstr(err, "neither the JSON"), "one huge line: %s", err);
        free(huge);
    }
}

/* The command: notes on stderr, --op and --ranks accepted, refused for JSON. */
static void command(void)
{
    int rc = tc_run(NULL, "show '" PASTES "mooncake-3484-rows-only.txt' --table");
    EXPECT(rc == 0 && strstr(tc_out, "note: 8 ranks: the only count") &&
               strstr(tc_out, "AllReduce (NCCL's algorithm), 8 ranks") &&
               strstr(tc_out, "the model prices ring"), "show mooncake: %d %s", rc, tc_out);
    rc = tc_run(NULL, "show '" PASTES "nccl-644-error-column.txt' --table");
    EXPECT(rc == 2 && strstr(tc_out, "pass --op"), "show 644: %d %s", rc, tc_out);
    rc = tc_run(NULL, "show '" PASTES "nccl-644-error-column.txt' --op allgather --table");
    EXPECT(rc == 0 && strstr(tc_out, "AllGather"), "show 644 --op allgather: %d %s", rc, tc_out);
    rc = tc_run(NULL, "show '" PASTES "dgx-spark-103-gb10-two-hosts.txt' --table");
    EXPECT(rc == 0 && strstr(tc_out, "2 hosts: ib-ndr between them"), "show gb10: %d %s", rc,
           tc_out);
    rc = tc_run(NULL, "show '" PASTES "mooncake-3484-rows-only.txt' --algo tree --table");
    EXPECT(rc == 0 && strstr(tc_out, "the model prices tree"), "--algo tree: %d %s", rc, tc_out);
    rc = tc_run(NULL, "show '" PASTES "mooncake-3484-rows-only.txt' --op broadcast --algo ring "
                      "--table");
    EXPECT(rc == 2, "--op broadcast on allreduce rows: %d %s", rc, tc_out);
}

/* NCCL's tuning table (2.29's blocks) beside its own per-call lines. */
static void choice(void)
{
    static const char log[] = COLLVIZ_SOURCE_DIR "/tests/ncclog/real/nccl-ebpf-2.29-tuning-blocks.log";
    show_result r;
    char err[1200];
    int rc = show_load(log, &no_hints, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "choice: %s", err);
    if (rc != CV_OK)
        return;
    /* the per-call lines name Broadcast: its row is the one shown */
    EXPECT(!strcmp(r.source, "nccl-log") && r.coll == 0 && r.spec.op == CV_OP_BROADCAST,
           "choice: %s coll %d", r.source, r.coll);
    EXPECT(r.nrows == NCCLOG_CHOICE_SIZES && near(r.rows[0].size, 8) &&
               near(r.rows[NCCLOG_CHOICE_SIZES - 1].size, 16.0 * 1024 * 1024 * 1024),
           "choice: %d rows", r.nrows);
    /* Ring/LL 9.3 us + S / 1.2 GB/s against Ring/Simple 22.4 us + S / 2.4 GB/s:
     * Simple from S > 31,440 B, so 16 KiB is LL and 32 KiB Simple, as the
     * per-call lines say (18 of 18) */
    EXPECT(!strcmp(r.rows[11].pick, "Ring/LL") && !strcmp(r.rows[12].pick, "Ring/Simple"),
           "choice: 16 KiB %s, 32 KiB %s", r.rows[11].pick, r.rows[12].pick);
    EXPECT(near(r.rows[12].time_us, 22.4 + 32768 / 2400.0), "choice: 32 KiB takes %g us",
           r.rows[12].time_us);
    EXPECT(r.agree == 18 && r.checked == 18, "choice: %d of %d per-call lines agree", r.agree,
           r.checked);
    double sizes[NCCLOG_CHOICE_SIZES];
    const char *labels[NCCLOG_CHOICE_SIZES];
    int n = show_choice_marks(&r, sizes, labels, NCCLOG_CHOICE_SIZES);
    EXPECT(n == 2 && near(sizes[1], 32768) && !strcmp(labels[1], "Ring/Simple"),
           "choice: %d marks", n);
    char tip[512];
    show_choice_tooltip(&r, 12, tip, sizeof tip);
    EXPECT(strstr(tip, "32 KiB: NCCL picks Ring/Simple") && strstr(tip, "Ring/LL 36.6"),
           "choice tooltip: %s", tip);
    EXPECT(r.spec.ranks == 0, "choice: no communicator, %d ranks", r.spec.ranks);
    show_result_destroy(&r);
    /* --op: AllGather's row, where PAT wins between Ring/LL and Ring/Simple */
    show_hints h = {CV_OP_ALLGATHER, 8, -1, false};
    rc = show_load(log, &h, &r, err, sizeof err);
    EXPECT(rc == CV_OK && r.coll == 2 && r.spec.ranks == 8, "choice --op allgather: %s", err);
    if (rc == CV_OK) {
        EXPECT(!strcmp(r.rows[12].pick, "Ring/LL") && !strcmp(r.rows[13].pick, "PAT/Simple") &&
                   !strcmp(r.rows[14].pick, "Ring/Simple"), "allgather: %s %s %s",
               r.rows[12].pick, r.rows[13].pick, r.rows[14].pick);
        int priced = 0;
        rc = show_model(&r, cv_link_find("nvlink4"), &priced, err, sizeof err);
        /* 8 and 16 B are below 8 ranks x 1 byte... 8 B is one byte a rank: priced */
        EXPECT(rc == CV_OK && r.rows[0].model_us > 0, "choice model: %s", err);
        show_result_destroy(&r);
    }
    h = (show_hints){CV_OP_ALLTOALL, 0, -1, false};
    rc = show_load(log, &h, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "not alltoall"), "choice --op alltoall: %s", err);
    /* --choice on a file with no table */
    h = (show_hints){-1, 0, -1, true};
    rc = load("mooncake-3484-rows-only.txt", &h, &r, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "NCCL_DEBUG=INFO"), "--choice without a table: %s",
           err);
    rc = tc_run(NULL, "show '" COLLVIZ_SOURCE_DIR "/tests/ncclog/real/nccl-ebpf-2.29-tuning-blocks.log' "
                      "--table");
    EXPECT(rc == 0 && strstr(tc_out, "agree at 18 of the 18") && strstr(tc_out, "Ring/Simple"),
           "show LOG --table: %d %s", rc, tc_out);
}

/* Lesson algo-nccl-choice's last beat quotes the log shipped in assets:
 * its figures must be the table's. */
static void lesson_figures(void)
{
    FILE *f = fopen(COLLVIZ_SOURCE_DIR "/assets/ncclog/nccl-2.29-tuning.log", "r");
    EXPECT(f != NULL, "assets/ncclog/nccl-2.29-tuning.log is missing");
    if (!f)
        return;
    ncclog *log = calloc(1, sizeof *log);
    char err[512];
    int rc = log ? ncclog_read(f, "nccl-2.29-tuning.log", log, err, sizeof err) : -1;
    fclose(f);
    EXPECT(rc == 0 && log->tuning.have, "the lesson's log: %s", err);
    if (rc == 0 && log->tuning.have) {
        /* Broadcast (0), Ring (1): LL (0) against Simple (2) */
        double a0 = log->tuning.lat[0][1][0], b0 = log->tuning.bw[0][1][0];
        double a2 = log->tuning.lat[0][1][2], b2 = log->tuning.bw[0][1][2];
        double cross = (a2 - a0) / (1 / (1000 * b0) - 1 / (1000 * b2));
        EXPECT(near(a0, 9.3) && near(b0, 1.2) && near(a2, 22.4) && near(b2, 2.4),
               "the lesson's alphas and betas: %g/%g %g/%g", a0, b0, a2, b2);
        EXPECT(fabs(cross - 31440) < 0.5, "the crossover is %g B, the lesson says 31,440", cross);
        ncclog_choice ch[NCCLOG_CHOICE_SIZES];
        char note[256];
        int n = ncclog_choices(log, NULL, 0, ch, note, sizeof note);
        int checked = 0;
        long off = 0;
        int agree = ncclog_choice_agreement(log, 0, ch, n, &checked, &off);
        EXPECT(agree == 18 && checked == 18, "the lesson says all 18 agree: %d of %d", agree,
               checked);
        /* its quiz: 64 KiB by LL 63.9 us (54.6 of them size / bandwidth), by Simple 49.7 */
        EXPECT(n > 13 && ch[13].bytes == 65536 && fabs(ch[13].all_us[1][0] - 63.9) < 0.05 &&
                   fabs(ch[13].all_us[1][2] - 49.7) < 0.05 &&
                   fabs(ch[13].all_us[1][0] - a0 - 54.6) < 0.05,
               "the quiz's times at 64 KiB: LL %g, Simple %g", ch[13].all_us[1][0],
               ch[13].all_us[1][2]);
    }
    if (log)
        ncclog_destroy(log);
    free(log);
    char *text = NULL;
    size_t len = 0;
    jr_error e;
    rc = jr_slurp(COLLVIZ_SOURCE_DIR "/lessons/algo-nccl-choice.json", 1 << 20, &text, &len, &e);
    EXPECT(rc == JR_OK && strstr(text, "31,440 B") && strstr(text, "all 18 of them agree") &&
               strstr(text, "assets/ncclog/nccl-2.29-tuning.log"),
           "lesson algo-nccl-choice no longer quotes the log's figures");
    free(text);
}

int main(void)
{
    gb10_two_hosts();
    allgather_bfloat16();
    inferred("mooncake-3484-rows-only.txt", 8, 11, 18.66);
    inferred("nccl-1453-interleaved-rank-tags.txt", 24, 10, 1626.5);
    inferred("nccl-tests-119-rows-and-summary.txt", 24, 6, 2560.7);
    asks();
    typeless();
    synthetic();
    command();
    choice();
    lesson_figures();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
