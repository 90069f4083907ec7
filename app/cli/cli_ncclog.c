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

#include "cli.h"
#include "ncclog.h"

/* ------------------------------------------------------------------ JSON */

/* Text from the log (host names, versions, transports, NCCL's warnings)
 * goes into JSON escaped as the text summary escapes it, so the document
 * is valid UTF-8 with no control or bidi character from the log. */
static cJSON *log_string(const char *s)
{
    char safe[4 * NCCLOG_ERR_LEN + 64];
    cli_escape(s, safe, sizeof safe);
    return cJSON_CreateString(safe);
}

static void add_log_string(cJSON *o, const char *key, const char *s)
{
    cJSON_AddItemToObject(o, key, log_string(s));
}

static cJSON *int_array(const int *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static const char *state_name(int st)
{
    static const char *names[] = {"unknown", "partial", "whole", "broken"};
    return st >= 0 && st < 4 ? names[st] : "unknown";
}

static cJSON *comm_json(const ncclog_comm *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", c->id);
    cJSON_AddStringToObject(o, "id_is", c->by_commid ? "commId"
                                        : c->is_run  ? "run"
                                        : c->id[0]   ? "pointer"
                                                     : "none");
    if (c->grouped_by_order)
        cJSON_AddTrueToObject(o, "grouped_by_process_order");
    cJSON_AddNumberToObject(o, "first_line", (double)c->first_line);
    cJSON_AddNumberToObject(o, "ranks", c->nranks);
    if (c->version[0])
        add_log_string(o, "nccl_version", c->version);
    if (c->problem[0]) {
        add_log_string(o, "problem", c->problem);
        return o;
    }
    cJSON_AddBoolToObject(o, "partial", c->partial);
    if (c->partial) {
        add_log_string(o, "missing", c->missing);
        add_log_string(o, "ask", c->ask);
    }
    if (c->nnodes_said > 0)
        cJSON_AddNumberToObject(o, "nodes_said", c->nnodes_said);
    if (c->nchannels_said > 0)
        cJSON_AddNumberToObject(o, "channels_said", c->nchannels_said);
    cJSON *pr = cJSON_AddArrayToObject(o, "ranks_printed");
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r].printed)
            cJSON_AddItemToArray(pr, cJSON_CreateNumber(r));
    cJSON *nodes = cJSON_AddArrayToObject(o, "nodes");
    for (int k = 0; k < c->nnodes; k++) {
        cJSON *n = cJSON_CreateObject();
        add_log_string(n, "host", c->hosts[k]);
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
    } names[] = {{NCCLOG_SRC_SUMMARY, "summary"},       {NCCLOG_SRC_SUMMARY_CUT, "summary-cut"},
                 {NCCLOG_SRC_RING, "ring-lines"},        {NCCLOG_SRC_CONN, "connection-lines"},
                 {NCCLOG_SRC_TREES, "trees-lines"},      {NCCLOG_SRC_TREE, "tree-lines"},
                 {NCCLOG_SRC_COMM, "comm-lines"},        {NCCLOG_SRC_VIA, "transports"},
                 {NCCLOG_SRC_ELIM, "elimination"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (c->sources & names[i].bit)
            cJSON_AddItemToArray(src, cJSON_CreateString(names[i].name));
    cJSON *chans = cJSON_AddArrayToObject(o, "channels");
    for (int ch = 0; ch < c->nchannels; ch++) {
        const ncclog_channel *x = &c->channels[ch];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "channel", ch);
        cJSON_AddStringToObject(j, "ring_is", state_name(x->ring));
        if (x->ring == NCCLOG_WHOLE)
            cJSON_AddItemToObject(j, "ring", int_array(x->order, c->nranks));
        if (x->ring == NCCLOG_BROKEN) {
            cJSON_AddItemToObject(j, "summary", int_array(x->order, x->broken_len));
            cJSON_AddNumberToObject(j, "summary_line", (double)x->broken_line);
        }
        if (x->ring == NCCLOG_WHOLE || x->ring == NCCLOG_PARTIAL) {
            cJSON *hops = cJSON_AddArrayToObject(j, "hops");
            for (int i = 0; i < c->nranks; i++) {
                int a = x->ring == NCCLOG_WHOLE ? x->order[i] : i;
                if (x->next[a] < 0)
                    continue;
                cJSON *h = cJSON_CreateObject();
                cJSON_AddNumberToObject(h, "from", a);
                cJSON_AddNumberToObject(h, "to", x->next[a]);
                if (x->via_text[a][0])
                    add_log_string(h, "via", x->via_text[a]);
                else
                    cJSON_AddNullToObject(h, "via");
                cJSON_AddItemToArray(hops, h);
            }
        }
        cJSON_AddStringToObject(j, "tree_is", state_name(x->tree));
        if (x->tree == NCCLOG_WHOLE || x->tree == NCCLOG_PARTIAL) {
            cJSON *t = cJSON_AddObjectToObject(j, "tree");
            cJSON *par = cJSON_AddArrayToObject(t, "parent");
            cJSON *kids = cJSON_AddArrayToObject(t, "children");
            for (int r = 0; r < c->nranks; r++) {
                if (!x->tree_known[r]) {
                    cJSON_AddItemToArray(par, cJSON_CreateNull());
                    cJSON_AddItemToArray(kids, cJSON_CreateNull());
                    continue;
                }
                cJSON_AddItemToArray(par, cJSON_CreateNumber(x->parent[r]));
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

/* ---------------------------------------------------------- NCCL's choice */

/* collviz's own cost model (ncclog_model_seconds) on NVLink 4 inside a
 * node and NDR InfiniBand between, as the summary says. */
static double model_seconds(const ncclog_comm *c, int coll, cv_algo algo, int64_t bytes)
{
    return ncclog_model_seconds(c, coll, algo, bytes, cv_link_find("nvlink4"),
                                cv_link_find("ib-ndr"));
}

static void size_text(int64_t b, char *out, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (u < 3 && b >= 1024 && b % 1024 == 0)
        b /= 1024, u++;
    snprintf(out, len, "%lld %s", (long long)b, units[u]);
}

/* The collectives whose rows the table has: AllReduce first. */
static int choice_colls(const ncclog *log, int out[NCCLOG_COLLS])
{
    int n = 0;
    for (int k = NCCLOG_COLLS - 1; k >= 0; k--)
        if (log->tuning.row_seen[k])
            out[n++] = k;
    return n;
}

static void print_choice(FILE *out, const ncclog *log, const ncclog_comm *c)
{
    if (log->ncall_lines) {
        fprintf(out, "\nNCCL's choices as it printed them (%ld line%s, %d distinct):\n",
                log->ncall_lines, log->ncall_lines == 1 ? "" : "s", log->ncalls);
        for (int i = 0; i < log->ncalls && i < 16; i++) {
            const ncclog_call *k = &log->calls[i];
            char sz[32];
            size_text(k->bytes, sz, sizeof sz);
            fprintf(out, "  line %ld: %s%s%s -> %s %s", k->line,
                    k->coll >= 0 ? ncclog_coll_name(k->coll) : "", k->coll >= 0 ? " of " : "", sz,
                    ncclog_algo_name(k->algo),
                    ncclog_proto_name(k->proto));
            if (k->time_us >= 0)
                fprintf(out, ", %.1f us by its model", k->time_us);
            if (k->count > 1)
                fprintf(out, " (%ld times)", k->count);
            fputc('\n', out);
        }
        if (log->ncalls > 16)
            fprintf(out, "  ... and %d more\n", log->ncalls - 16);
    }
    int colls[NCCLOG_COLLS], nc = choice_colls(log, colls);
    if (!log->tuning.have || !nc)
        return;
    int coll = ncclog_choice_coll(log);
    ncclog_choice ch[NCCLOG_CHOICE_SIZES];
    char note[512];
    int n = ncclog_choices(log, c, coll, ch, note, sizeof note);
    fprintf(out, "\nNCCL's choice for %s by size, from its tuning table (line %ld%s): the "
                 "least latency + size / bandwidth\n",
            ncclog_coll_name(coll), log->tuning.line,
            log->tuning.others ? "; the log has more tables, of other communicators" : "");
    if (note[0])
        fprintf(out, "  (%s)\n", note);
    fprintf(out, "  %10s  %-16s %12s   %12s %12s\n", "size", "NCCL picks", "NCCL model",
            "collviz ring", "collviz tree");
    int prev_a = -2, prev_p = -2;
    for (int i = 0; i < n; i++) {
        char sz[32], pick[40], t[32], ring[32], tree[32];
        size_text(ch[i].bytes, sz, sizeof sz);
        if (ch[i].algo < 0) {
            snprintf(pick, sizeof pick, "(none enabled)");
            snprintf(t, sizeof t, "-");
        } else {
            snprintf(pick, sizeof pick, "%s/%s", ncclog_algo_name(ch[i].algo),
                     ncclog_proto_name(ch[i].proto));
            snprintf(t, sizeof t, "%.1f us", ch[i].time_us);
        }
        double rs = model_seconds(c, coll, CV_ALGO_RING, ch[i].bytes);
        double ts = model_seconds(c, coll, CV_ALGO_DOUBLE_TREE, ch[i].bytes);
        snprintf(ring, sizeof ring, rs >= 0 ? "%.1f us" : "-", rs * 1e6);
        snprintf(tree, sizeof tree, ts >= 0 ? "%.1f us" : "-", ts * 1e6);
        bool change = ch[i].algo != prev_a || ch[i].proto != prev_p;
        fprintf(out, "  %10s  %-16s %12s   %12s %12s%s\n", sz, pick, t, ring, tree,
                change && i ? "   <- crossover" : "");
        prev_a = ch[i].algo, prev_p = ch[i].proto;
    }
    int checked = 0;
    long off = 0;
    int agree = ncclog_choice_agreement(log, coll, ch, n, &checked, &off);
    if (checked)
        fprintf(out, "  NCCL's own per-call lines agree with this at %d of the %d sizes they "
                     "name%s", agree, checked, agree == checked ? "\n" : "");
    if (checked && agree < checked)
        fprintf(out, " (the first that differs: line %ld; NCCL also weighs channels, threads "
                     "and the number of operations in flight, which the table leaves out)\n",
                off);
    if (!c || c->nranks < 2)
        fputs("  (collviz's model needs the communicator's ranks: no \"comm\" or ring lines "
              "name them)\n",
              out);
    else
        fputs("  (collviz's model: `collviz cost`'s alpha-beta on this communicator's ranks and "
              "nodes, NVLink 4 inside a node and NDR InfiniBand between)\n",
              out);
}

static cJSON *choice_json(const ncclog *log, const ncclog_comm *c)
{
    cJSON *o = cJSON_CreateObject();
    if (log->tuning.have) {
        cJSON_AddNumberToObject(o, "table_line", (double)log->tuning.line);
        cJSON_AddNumberToObject(o, "other_tables", log->tuning.others);
        cJSON *tab = cJSON_AddObjectToObject(o, "table");
        for (int k = 0; k < NCCLOG_COLLS; k++) {
            if (!log->tuning.row_seen[k])
                continue;
            cJSON *row = cJSON_AddObjectToObject(tab, ncclog_coll_name(k));
            for (int a = 0; a < NCCLOG_ALGOS; a++) {
                if (!log->tuning.algo_seen[a])
                    continue;
                for (int p = 0; p < NCCLOG_PROTOS; p++) {
                    char key[40];
                    snprintf(key, sizeof key, "%s/%s", ncclog_algo_name(a), ncclog_proto_name(p));
                    cJSON *cell = cJSON_AddObjectToObject(row, key);
                    cJSON_AddNumberToObject(cell, "latency_us", log->tuning.lat[k][a][p]);
                    cJSON_AddNumberToObject(cell, "bandwidth_GBps", log->tuning.bw[k][a][p]);
                }
            }
        }
        cJSON *by = cJSON_AddObjectToObject(o, "choice");
        for (int k = NCCLOG_COLLS - 1; k >= 0; k--) {
            ncclog_choice ch[NCCLOG_CHOICE_SIZES];
            char note[512];
            int n = ncclog_choices(log, c, k, ch, note, sizeof note);
            if (!n)
                continue;
            cJSON *arr = cJSON_AddArrayToObject(by, ncclog_coll_name(k));
            for (int i = 0; i < n; i++) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddNumberToObject(e, "bytes", (double)ch[i].bytes);
                if (ch[i].algo >= 0) {
                    cJSON_AddStringToObject(e, "algo", ncclog_algo_name(ch[i].algo));
                    cJSON_AddStringToObject(e, "proto", ncclog_proto_name(ch[i].proto));
                    cJSON_AddNumberToObject(e, "nccl_us", ch[i].time_us);
                } else {
                    cJSON_AddNullToObject(e, "algo");
                }
                double rs = model_seconds(c, k, CV_ALGO_RING, ch[i].bytes);
                double ts = model_seconds(c, k, CV_ALGO_DOUBLE_TREE, ch[i].bytes);
                if (rs >= 0)
                    cJSON_AddNumberToObject(e, "collviz_ring_us", rs * 1e6);
                if (ts >= 0)
                    cJSON_AddNumberToObject(e, "collviz_tree_us", ts * 1e6);
                cJSON_AddItemToArray(arr, e);
            }
            if (note[0])
                cJSON_AddStringToObject(o, "assumed", note);
            int checked = 0;
            long off = 0;
            int agree = ncclog_choice_agreement(log, k, ch, n, &checked, &off);
            if (checked) {
                cJSON *ag = cJSON_AddObjectToObject(o, "calls_agree");
                cJSON_AddStringToObject(ag, "coll", ncclog_coll_name(k));
                cJSON_AddNumberToObject(ag, "checked", checked);
                cJSON_AddNumberToObject(ag, "agree", agree);
                if (off)
                    cJSON_AddNumberToObject(ag, "first_differs_line", (double)off);
            }
        }
    }
    cJSON *calls = cJSON_AddArrayToObject(o, "calls");
    for (int i = 0; i < log->ncalls; i++) {
        const ncclog_call *k = &log->calls[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "line", (double)k->line);
        if (k->coll >= 0)
            cJSON_AddStringToObject(e, "coll", ncclog_coll_name(k->coll));
        cJSON_AddNumberToObject(e, "bytes", (double)k->bytes);
        cJSON_AddStringToObject(e, "algo", ncclog_algo_name(k->algo));
        cJSON_AddStringToObject(e, "proto", ncclog_proto_name(k->proto));
        if (k->time_us >= 0)
            cJSON_AddNumberToObject(e, "nccl_us", k->time_us);
        cJSON_AddNumberToObject(e, "count", (double)k->count);
        cJSON_AddItemToArray(calls, e);
    }
    return o;
}

static bool log_partial(const ncclog *log, const ncclog_comm *only)
{
    if (log->ncomms == 0)
        return true;
    for (int i = 0; i < log->ncomms; i++)
        if ((!only || only == &log->comms[i]) && log->comms[i].partial)
            return true;
    return false;
}

static int print_json(const ncclog *log, const ncclog_comm *only)
{
    cJSON *o = cJSON_CreateObject();
    add_log_string(o, "file", log->name);
    if (log->version[0])
        add_log_string(o, "nccl_version", log->version);
    else
        cJSON_AddNullToObject(o, "nccl_version");
    if (log->flavor[0])
        cJSON_AddStringToObject(o, "library", log->flavor);
    cJSON_AddNumberToObject(o, "lines", (double)log->lines);
    cJSON_AddNumberToObject(o, "lines_cut", (double)log->cut_lines);
    cJSON_AddNumberToObject(o, "nul_bytes_dropped", (double)log->nul_bytes);
    if (log->stopped_at) {
        cJSON_AddNumberToObject(o, "stopped_at_line", (double)log->stopped_at);
        cJSON_AddStringToObject(o, "stopped_because", log->stopped_why);
    }
    cJSON_AddBoolToObject(o, "partial", log_partial(log, only));
    cJSON_AddNumberToObject(o, "warn_lines", (double)log->nwarn);
    cJSON *warns = cJSON_AddArrayToObject(o, "warnings");
    for (int i = 0; i < log->nwarns; i++) {
        cJSON *w = cJSON_CreateObject();
        cJSON_AddNumberToObject(w, "line", (double)log->warns[i].line);
        cJSON_AddNumberToObject(w, "count", (double)log->warns[i].count);
        add_log_string(w, "text", log->warns[i].text);
        if (log->warns[i].where[0])
            add_log_string(w, "where", log->warns[i].where);
        cJSON_AddItemToArray(warns, w);
    }
    cJSON *comms = cJSON_AddArrayToObject(o, "communicators");
    for (int i = 0; i < log->ncomms; i++)
        if (!only || only == &log->comms[i])
            cJSON_AddItemToArray(comms, comm_json(&log->comms[i]));
    if (log->tuning.have || log->ncalls)
        cJSON_AddItemToObject(o, "nccl_choice",
                              choice_json(log, only ? only : log->ncomms == 1 ? &log->comms[0]
                                                                             : NULL));
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    if (!s) {
        fputs("collviz: out of memory\n", stderr);
        return CLI_EXIT_USAGE;
    }
    puts(s);
    free(s);
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- command */

/* The reader's one-line error, which quotes the file name and --comm as
 * given and may quote the log, made safe for a terminal. */
static void print_error(const char *err)
{
    char safe[4 * (NCCLOG_ERR_LEN + 600)];
    cli_escape(err, safe, sizeof safe);
    fprintf(stderr, "collviz: %s\n", safe);
}

static int cli_ncclog_open(const char *path, const char *comm_id, ncclog *log, const ncclog_comm **comm)
{
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "collviz: %s: is a directory; give the log file\n", cli_esc(path));
        return CLI_EXIT_USAGE;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "collviz: %s: cannot open: %s\n", cli_esc(path), strerror(errno));
        return CLI_EXIT_USAGE;
    }
    char err[NCCLOG_ERR_LEN + 600];
    int rc = ncclog_read(f, strcmp(path, "-") ? path : "(standard input)", log, err, sizeof err);
    if (f != stdin)
        fclose(f);
    if (rc) {
        print_error(err);
        return CLI_EXIT_USAGE;
    }
    char note[256];
    ncclog_read_note(log, note, sizeof note);
    if (note[0])
        fprintf(stderr, "collviz: note: %s: %s\n", cli_esc(log->name), note);
    if (comm && ncclog_pick(log, comm_id, comm, err, sizeof err)) {
        print_error(err);
        ncclog_destroy(log);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static const char ncclog_help[] =
    "usage: collviz nccl-log FILE|- [--comm ID] [--json | --text] [--strict]\n\n"
    "Reads a log NCCL printed with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,GRAPH adds\n"
    "the per-rank ring lines) and prints what NCCL built: the nodes, each channel's\n"
    "ring in the order data travels (=NET=> marks a hop through the network), each\n"
    "channel's tree, and which lines said so. Lines from many processes may be\n"
    "interleaved, prefixed by a launcher (srun --label, mpirun --tag-output,\n"
    "torchrun) or a timestamp, coloured, or end in CRLF. `-` reads standard input.\n"
    "A log pasted in part is read for what it determines: whole channels are drawn,\n"
    "the known hops and tree entries of the rest are listed, and the summary ends\n"
    "with what is missing and what to capture for this NCCL version (marked\n"
    "\"partial\"; exit 0). NCCL's own WARN lines are reported first. With\n"
    "NCCL_DEBUG_SUBSYS=TUNING, NCCL's tuning table gives its algorithm and protocol\n"
    "for each size from 8 B to 16 GiB, beside collviz's cost model.\n"
    "Then, where there is a display, the window opens on that topology: cards\n"
    "grouped by node, an AllReduce along the first whole channel's ring (K: the next\n"
    "channel, A: another algorithm; double-tree follows the log's trees), executed\n"
    "for real (the same as `collviz gui --nccl-log FILE`); on a partial log, on the\n"
    "communicator's ranks and nodes with collviz's own ring where no channel is\n"
    "whole. `run`, `cost` and `export` take --nccl-log FILE too.\n\n"
    "  --comm ID  the communicator to show when the log holds several: its commId,\n"
    "             or the \"comm 0x...\" pointer any of its ranks printed (a prefix\n"
    "             that names one communicator is enough)\n"
    "  --json     the same as one JSON document (every communicator, unless --comm)\n"
    "  --text     the summary only, no window\n"
    "  --strict   a partial reading exits 2 (after printing it)\n";

int cli_nccl_log_cmd(int argc, char **argv, bool have_window, cli_nccl_window *open)
{
    memset(open, 0, sizeof *open);
    const char *path = NULL, *comm_id = NULL;
    bool json = false, text = false, strict = false;
    cli_flag flags[] = {
        CLI_TEXT("--comm", &comm_id),
        CLI_SWITCH("--json", &json),
        CLI_SWITCH("--text", &text),
        CLI_SWITCH("--strict", &strict),
    };
    cli_cmdline cl = CLI_CMDLINE_ARGS("nccl-log", ncclog_help, flags, &path, 1, "log");
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    if (!path)
        return cli_usage_error("nccl-log: which log? give a file, or - for standard input "
                               "(collviz nccl-log --help)");
    ncclog log;
    const ncclog_comm *c = NULL;
    int rc = cli_ncclog_open(path, NULL, &log, NULL);
    if (rc)
        return rc;
    bool all = json && !comm_id;
    if (log.ncomms == 0) { /* WARN lines, the version, NCCL's choices: what there is */
        if (json) {
            rc = print_json(&log, NULL);
        } else {
            ncclog_print_log(stdout, &log, cli_escape);
            print_choice(stdout, &log, NULL);
        }
        ncclog_destroy(&log);
        return rc ? rc : strict ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    if (!all) {
        char err[NCCLOG_ERR_LEN + 600];
        if (ncclog_pick(&log, comm_id, &c, err, sizeof err)) {
            print_error(err);
            ncclog_destroy(&log);
            return CLI_EXIT_USAGE;
        }
    }
    bool partial = log_partial(&log, c);
    if (json) {
        rc = print_json(&log, c);
    } else {
        ncclog_print_summary(stdout, &log, c, cli_escape);
        print_choice(stdout, &log, c);
    }
    char id[sizeof c->id];
    snprintf(id, sizeof id, "%s", c ? c->id : "");
    int nranks = c ? c->nranks : 0;
    ncclog_destroy(&log);
    if (rc)
        return rc;
    if (partial && strict)
        return CLI_EXIT_USAGE;
    if (json || text)
        return rc;
    if (nranks > CV_MAX_VISUAL_RANKS) {
        printf("\n(the window draws at most %d ranks and this communicator has %d: the "
               "summary above is all of it; `collviz run --nccl-log %s` runs it, `collviz cost "
               "--nccl-log %s` prices it)\n",
               CV_MAX_VISUAL_RANKS, nranks, cli_esc(path), cli_esc(path));
        return CLI_EXIT_OK;
    }
    if (nranks < 2) {
        printf("\n(one rank: nothing moves between GPUs, so no window)\n");
        return CLI_EXIT_OK;
    }
    if (!have_window) {
        printf("\n(this collviz has no window; `collviz run --nccl-log %s` steps through it)\n",
               cli_esc(path));
        return rc;
    }
    if (!strcmp(path, "-")) {
        printf("\n(a log from standard input is read once: save it to a file and run "
               "`collviz nccl-log FILE` to see it move)\n");
        return rc;
    }
    fflush(stdout);
    open->open = true;
    snprintf(open->path, sizeof open->path, "%s", path);
    snprintf(open->comm, sizeof open->comm, "%s", id);
    return rc;
}

/* ------------------------------------------------------------ --nccl-log */

/* The log the spec flags named, for the whole command (one per process,
 * like the other flags cli_finish_spec checks). */
static struct {
    const char *path, *comm;
    long channel;
    bool loaded;
    ncclog log;
    const ncclog_comm *c;
    cv_topology topo;
} g_log;

bool cli__apply_nccl_log(const cli_cmdline *cl, cv_spec *spec, int max_ranks)
{
    bool ranks_given = cli_flag_given(cl, "--ranks"), nodes_given = cli_flag_given(cl, "--nodes");
    static const cli_nccl_args none = {NULL, NULL, 0};
    const cli_nccl_args *a = cl->nccl ? cl->nccl : &none;
    if (!a->path) {
        if (a->comm || cli_flag_given(cl, "--channel")) {
            cli_usage_error("%s picks from an NCCL log: give --nccl-log FILE too",
                            a->comm ? "--comm" : "--channel");
            return false;
        }
        return true;
    }
    if (!g_log.path) {
        g_log.path = a->path;
        g_log.comm = a->comm;
        g_log.channel = a->channel;
    }
    if (!g_log.loaded) {
        if (cli_ncclog_open(g_log.path, g_log.comm, &g_log.log, &g_log.c) != CLI_EXIT_OK)
            return false;
        g_log.loaded = true;
    }
    const ncclog_comm *c = g_log.c;
    if (!cli_flag_given(cl, "--channel") && ncclog_first_known(c) > 0 &&
        c->channels[g_log.channel].ring != NCCLOG_WHOLE)
        g_log.channel = ncclog_first_known(c); /* the first channel the log gives whole */
    /* Under MPI each process is one rank: a log of another size is the
     * same mistake on every process, said once (cli_mpi_agree), exit 2. */
    cv_mpi *world = cli_mpi_world();
    if (world && !ranks_given && cv_mpi_size(world) != c->nranks) {
        cli_usage_error("--nccl-log %s: its communicator has %d ranks and the launcher started "
                        "%d processes; under --backend mpi each process is one rank: start %d",
                        cli_esc(g_log.path), c->nranks, cv_mpi_size(world), c->nranks);
        return false;
    }
    if (ranks_given && spec->ranks != c->nranks) {
        cli_usage_error("--ranks: %d, but the NCCL log's communicator has %d ranks; leave "
                        "--ranks out",
                        spec->ranks, c->nranks);
        return false;
    }
    if (c->nranks > max_ranks) {
        cli_usage_error("--nccl-log: the communicator has %d ranks; %s at most %d", c->nranks,
                        max_ranks == CV_MAX_VISUAL_RANKS ? "the window draws" : "collviz runs",
                        max_ranks);
        return false;
    }
    char note[256], err[CV_ERR_LEN];
    int nodes;
    if (ncclog_topology(c, (int)g_log.channel, &g_log.topo, &nodes, note, sizeof note, err,
                        sizeof err)) {
        cli_usage_error("%s", err);
        return false;
    }
    if (c->partial)
        fprintf(stderr, "collviz: note: %s: a partial log (`collviz nccl-log` says what is "
                        "missing); channel %ld %s\n",
                cli_esc(g_log.path), g_log.channel,
                c->nchannels && c->channels[g_log.channel].ring == NCCLOG_WHOLE
                    ? "is whole and on the stage"
                    : "is not whole: the stage has the communicator's ranks and nodes");
    /* The log says how many nodes there are, as it says how many ranks: a
     * different --nodes would give a second, contradicting cluster. */
    if (nodes_given && (spec->nodes > 1 ? spec->nodes : 1) != (nodes > 1 ? nodes : 1)) {
        cli_usage_error("--nodes: %d, but the NCCL log's communicator is on %d node%s; leave "
                        "--nodes out",
                        spec->nodes, nodes > 1 ? nodes : 1, nodes > 1 ? "s" : "");
        return false;
    }
    spec->ranks = c->nranks;
    spec->nodes = nodes;
    spec->topo = &g_log.topo;
    if (note[0])
        fprintf(stderr, "collviz: note: %s\n", note);
    if (!cv_algo_follows_topology(spec->op, spec->algo)) {
        /* the algorithms that follow a log's rings and trees, from their rows */
        char which[256] = "";
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos(spec->op, algos);
        for (int i = 0; i < na; i++)
            if (cv_algo_follows_topology(spec->op, algos[i]))
                snprintf(which + strlen(which), sizeof which - strlen(which), "%s%s",
                         which[0] ? " and " : "", cv_algo_name(algos[i]));
        fprintf(stderr, "collviz: note: %s %s builds its own pattern; only the log's ranks and "
                        "nodes apply (%s follow%s the log's channel)\n",
                cv_op_name(spec->op), cv_algo_name(spec->algo), which[0] ? which : "none",
                strchr(which, ' ') ? "" : "s");
    }
    return true;
}

const ncclog_comm *cli_nccl_log(int *channel, const char **path, const char **comm)
{
    if (!g_log.loaded)
        return NULL;
    if (channel)
        *channel = (int)g_log.channel;
    if (path)
        *path = g_log.path;
    if (comm)
        *comm = g_log.comm;
    return g_log.c;
}

void cli_print_nccl_source(FILE *out)
{
    if (!g_log.loaded)
        return;
    const ncclog_comm *c = g_log.c;
    fprintf(out, "ring and trees: channel %ld of communicator %s in %s (%d ranks", g_log.channel,
            c->id[0] ? c->id : "(unnamed)", cli_esc(g_log.path), c->nranks);
    if (c->nnodes > 0)
        fprintf(out, " on %d node%s", c->nnodes, c->nnodes == 1 ? "" : "s");
    fprintf(out, ", %d channel%s)\n", c->nchannels, c->nchannels == 1 ? "" : "s");
}

int cli_nccl_set_channel(int ch)
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
