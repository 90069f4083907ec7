/*
 * cli_ncclog.c: `collviz nccl-log FILE|-` (the summary, or --json), and
 * --nccl-log FILE for the commands that run, price or draw a collective:
 * the log's communicator sets the rank count and the nodes, and the
 * channel picked with --channel gives the ring and the trees the plan
 * follows (app/ncclog reads the log).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "ncclog.h"

/* ------------------------------------------------------------------ JSON */

static cJSON *int_array(const int *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static cJSON *comm_json(const ncclog_comm *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", c->id);
    cJSON_AddStringToObject(o, "id_is", c->by_commid ? "commId" : c->id[0] ? "pointer" : "none");
    if (c->grouped_by_order)
        cJSON_AddTrueToObject(o, "grouped_by_process_order");
    cJSON_AddNumberToObject(o, "first_line", (double)c->first_line);
    cJSON_AddNumberToObject(o, "ranks", c->nranks);
    if (c->problem[0]) {
        cJSON_AddStringToObject(o, "problem", c->problem);
        return o;
    }
    cJSON *nodes = cJSON_AddArrayToObject(o, "nodes");
    for (int k = 0; k < c->nnodes; k++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "host", c->hosts[k]);
        cJSON *rk = cJSON_AddArrayToObject(n, "ranks");
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r].node == k)
                cJSON_AddItemToArray(rk, cJSON_CreateNumber(r));
        cJSON_AddItemToArray(nodes, n);
    }
    cJSON *src = cJSON_AddArrayToObject(o, "read_from");
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{NCCLOG_SRC_SUMMARY, "summary"}, {NCCLOG_SRC_SUMMARY_CUT, "summary-cut"},
                 {NCCLOG_SRC_RING, "ring-lines"}, {NCCLOG_SRC_CONN, "connection-lines"},
                 {NCCLOG_SRC_TREES, "trees-lines"}, {NCCLOG_SRC_TREE, "tree-lines"},
                 {NCCLOG_SRC_COMM, "comm-lines"}, {NCCLOG_SRC_VIA, "transports"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (c->sources & names[i].bit)
            cJSON_AddItemToArray(src, cJSON_CreateString(names[i].name));
    cJSON *chans = cJSON_AddArrayToObject(o, "channels");
    for (int ch = 0; ch < c->nchannels; ch++) {
        const ncclog_channel *x = &c->channels[ch];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "channel", ch);
        if (x->order[0] >= 0) {
            cJSON_AddItemToObject(j, "ring", int_array(x->order, c->nranks));
            cJSON *hops = cJSON_AddArrayToObject(j, "hops");
            for (int i = 0; i < c->nranks; i++) {
                int a = x->order[i];
                cJSON *h = cJSON_CreateObject();
                cJSON_AddNumberToObject(h, "from", a);
                cJSON_AddNumberToObject(h, "to", x->next[a]);
                if (x->via_text[a][0])
                    cJSON_AddStringToObject(h, "via", x->via_text[a]);
                else
                    cJSON_AddNullToObject(h, "via");
                cJSON_AddItemToArray(hops, h);
            }
        }
        if (x->has_tree) {
            cJSON *t = cJSON_AddObjectToObject(j, "tree");
            cJSON_AddItemToObject(t, "parent", int_array(x->parent, c->nranks));
            cJSON *kids = cJSON_AddArrayToObject(t, "children");
            for (int r = 0; r < c->nranks; r++) {
                cJSON *k = cJSON_CreateArray();
                for (int q = 0; q < 3; q++)
                    if (x->children[r][q] >= 0)
                        cJSON_AddItemToArray(k, cJSON_CreateNumber(x->children[r][q]));
                cJSON_AddItemToArray(kids, k);
            }
        }
        cJSON_AddItemToArray(chans, j);
    }
    return o;
}

static int print_json(const ncclog *log, const ncclog_comm *only)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", log->name);
    if (log->version[0])
        cJSON_AddStringToObject(o, "nccl_version", log->version);
    else
        cJSON_AddNullToObject(o, "nccl_version");
    cJSON_AddNumberToObject(o, "lines", (double)log->lines);
    cJSON_AddNumberToObject(o, "lines_cut", (double)log->cut_lines);
    cJSON_AddNumberToObject(o, "nul_bytes_dropped", (double)log->nul_bytes);
    cJSON *comms = cJSON_AddArrayToObject(o, "communicators");
    for (int i = 0; i < log->ncomms; i++)
        if (!only || only == &log->comms[i])
            cJSON_AddItemToArray(comms, comm_json(&log->comms[i]));
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    if (!s) {
        fputs("collviz: out of memory\n", stderr);
        return APP_EXIT_USAGE;
    }
    puts(s);
    free(s);
    return APP_EXIT_OK;
}

/* ---------------------------------------------------------------- command */

/* The reader's one-line error, which quotes the file name and --comm as
 * given and may quote the log, made safe for a terminal. */
static void print_error(const char *err)
{
    char safe[4 * (NCCLOG_ERR_LEN + 600)];
    app_escape(err, safe, sizeof safe);
    fprintf(stderr, "collviz: %s\n", safe);
}

static int app_ncclog_open(const char *path, const char *comm_id, ncclog *log, const ncclog_comm **comm)
{
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "collviz: %s: is a directory; give the log file\n", app_esc(path));
        return APP_EXIT_USAGE;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "collviz: %s: cannot open: %s\n", app_esc(path), strerror(errno));
        return APP_EXIT_USAGE;
    }
    char err[NCCLOG_ERR_LEN + 600];
    int rc = ncclog_read(f, strcmp(path, "-") ? path : "(standard input)", log, err, sizeof err);
    if (f != stdin)
        fclose(f);
    if (rc) {
        print_error(err);
        return APP_EXIT_USAGE;
    }
    char note[256];
    ncclog_read_note(log, note, sizeof note);
    if (note[0])
        fprintf(stderr, "collviz: note: %s: %s\n", app_esc(log->name), note);
    if (comm && ncclog_pick(log, comm_id, comm, err, sizeof err)) {
        print_error(err);
        ncclog_free(log);
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

static const char ncclog_help[] =
    "usage: collviz nccl-log FILE|- [--comm ID] [--json | --text]\n\n"
    "Reads a log NCCL printed with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,GRAPH adds\n"
    "the per-rank ring lines) and prints what NCCL built: the nodes, each channel's\n"
    "ring in the order data travels (=NET=> marks a hop through the network), each\n"
    "channel's tree, and which lines said so. Lines from many processes may be\n"
    "interleaved, prefixed by a launcher (srun --label, mpirun --tag-output,\n"
    "torchrun) or a timestamp, coloured, or end in CRLF. `-` reads standard input.\n"
    "Then, where there is a display, the window opens on that topology: cards\n"
    "grouped by node, an AllReduce along channel 0's ring (K: the next channel,\n"
    "A: another algorithm; double-tree follows the log's trees), executed for real\n"
    "(the same as `collviz gui --nccl-log FILE`). `run`, `cost` and `export` take\n"
    "--nccl-log FILE too, to run or price your own cluster's rings and trees.\n\n"
    "  --comm ID  the communicator to show when the log holds several: its commId,\n"
    "             or the \"comm 0x...\" pointer any of its ranks printed (a prefix\n"
    "             that names one communicator is enough)\n"
    "  --json     the same as one JSON document (every communicator, unless --comm)\n"
    "  --text     the summary only, no window\n";

int app_nccl_log_cmd(int argc, char **argv, app_nccl_window_fn open_window)
{
    const char *path = NULL, *comm_id = NULL;
    bool json = false, text = false;
    app_flag flags[] = {
        APP_TEXT("--comm", &comm_id),
        APP_SWITCH("--json", &json),
        APP_SWITCH("--text", &text),
    };
    app_cmdline cl = APP_CMDLINE_ARGS("nccl-log", ncclog_help, flags, &path, 1, "log");
    int code;
    if (!app_flags_parse(&cl, argc, argv, &code))
        return code;
    if (!path)
        return app_usage_error("nccl-log: which log? give a file, or - for standard input "
                               "(collviz nccl-log --help)");
    ncclog log;
    const ncclog_comm *c = NULL;
    int rc = app_ncclog_open(path, comm_id, &log, json && !comm_id ? NULL : &c);
    if (rc)
        return rc;
    if (json)
        rc = print_json(&log, c);
    else
        ncclog_print_summary(stdout, &log, c, app_escape);
    char id[sizeof c->id];
    snprintf(id, sizeof id, "%s", c ? c->id : "");
    int nranks = c ? c->nranks : 0;
    ncclog_free(&log);
    if (json || text || rc)
        return rc;
    if (nranks > CV_MAX_VISUAL_RANKS) {
        printf("\n(the window draws at most %d ranks and this communicator has %d: the "
               "summary above is all of it; `collviz run --nccl-log %s` runs it, `collviz cost "
               "--nccl-log %s` prices it)\n",
               CV_MAX_VISUAL_RANKS, nranks, app_esc(path), app_esc(path));
        return APP_EXIT_OK;
    }
    if (!open_window) {
        printf("\n(this collviz has no window; `collviz run --nccl-log %s` steps through it)\n",
               app_esc(path));
        return rc;
    }
    if (!strcmp(path, "-")) {
        printf("\n(a log from standard input is read once: save it to a file and run "
               "`collviz nccl-log FILE` to see it move)\n");
        return rc;
    }
    fflush(stdout);
    return open_window(path, id[0] ? id : NULL);
}

/* ------------------------------------------------------------ --nccl-log */

/* The log the spec flags named, for the whole command (one per process,
 * like the other flags app_finish_spec checks). */
static struct {
    const char *path, *comm;
    long channel;
    bool loaded;
    ncclog log;
    const ncclog_comm *c;
    cv_topology topo;
} g_log;

app_nccl_args app__nccl_args;

bool app__apply_nccl_log(const app_cmdline *cl, cv_spec *spec, int max_ranks)
{
    bool ranks_given = app_flag_given(cl, "--ranks"), nodes_given = app_flag_given(cl, "--nodes");
    if (!app__nccl_args.path) {
        if (app__nccl_args.comm || app_flag_given(cl, "--channel")) {
            app_usage_error("%s picks from an NCCL log: give --nccl-log FILE too",
                            app__nccl_args.comm ? "--comm" : "--channel");
            return false;
        }
        return true;
    }
    if (!g_log.path) {
        g_log.path = app__nccl_args.path;
        g_log.comm = app__nccl_args.comm;
        g_log.channel = app__nccl_args.channel;
    }
    if (!g_log.loaded) {
        if (app_ncclog_open(g_log.path, g_log.comm, &g_log.log, &g_log.c) != APP_EXIT_OK)
            return false;
        g_log.loaded = true;
    }
    const ncclog_comm *c = g_log.c;
    if (ranks_given && spec->ranks != c->nranks) {
        app_usage_error("--ranks: %d, but the NCCL log's communicator has %d ranks; leave "
                        "--ranks out",
                        spec->ranks, c->nranks);
        return false;
    }
    if (c->nranks > max_ranks) {
        app_usage_error("--nccl-log: the communicator has %d ranks; %s at most %d", c->nranks,
                        max_ranks == CV_MAX_VISUAL_RANKS ? "the window draws" : "collviz runs",
                        max_ranks);
        return false;
    }
    char note[256], err[CV_ERR_LEN];
    int nodes;
    if (ncclog_topology(c, (int)g_log.channel, &g_log.topo, &nodes, note, sizeof note, err,
                        sizeof err)) {
        app_usage_error("%s", err);
        return false;
    }
    spec->ranks = c->nranks;
    if (!nodes_given)
        spec->nodes = nodes;
    spec->topo = &g_log.topo;
    if (note[0])
        fprintf(stderr, "collviz: note: %s\n", note);
    bool follows = spec->algo == CV_ALGO_RING || spec->algo == CV_ALGO_DOUBLE_TREE;
    if (!follows)
        fprintf(stderr, "collviz: note: %s %s builds its own pattern; only the log's ranks and "
                        "nodes apply (ring and double-tree follow the log's channel)\n",
                cv_op_name(spec->op), cv_algo_name(spec->algo));
    return true;
}

const ncclog_comm *app_nccl_log(int *channel, const char **path)
{
    if (!g_log.loaded)
        return NULL;
    if (channel)
        *channel = (int)g_log.channel;
    if (path)
        *path = g_log.path;
    return g_log.c;
}

void app_print_nccl_source(FILE *out)
{
    if (!g_log.loaded)
        return;
    const ncclog_comm *c = g_log.c;
    fprintf(out, "ring and trees: channel %ld of communicator %s in %s (%d ranks", g_log.channel,
            c->id[0] ? c->id : "(unnamed)", app_esc(g_log.path), c->nranks);
    if (c->nnodes > 0)
        fprintf(out, " on %d node%s", c->nnodes, c->nnodes == 1 ? "" : "s");
    fprintf(out, ", %d channel%s)\n", c->nchannels, c->nchannels == 1 ? "" : "s");
}

int app_nccl_set_channel(int ch)
{
    if (!g_log.loaded || ch < 0 || ch >= g_log.c->nchannels)
        return -1;
    char note[256], err[CV_ERR_LEN];
    int nodes;
    if (ncclog_topology(g_log.c, ch, &g_log.topo, &nodes, note, sizeof note, err, sizeof err))
        return -1;
    g_log.channel = ch;
    return 0;
}
