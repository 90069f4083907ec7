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

static int app_ncclog_open(const char *path, const char *comm_id, ncclog *log, const ncclog_comm **comm)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "collviz: %s: cannot open: %s\n", path, strerror(errno));
        return APP_EXIT_USAGE;
    }
    char err[NCCLOG_ERR_LEN + 600];
    int rc = ncclog_read(f, strcmp(path, "-") ? path : "(standard input)", log, err, sizeof err);
    if (f != stdin)
        fclose(f);
    if (rc) {
        fprintf(stderr, "collviz: %s\n", err);
        return APP_EXIT_USAGE;
    }
    if (comm && ncclog_pick(log, comm_id, comm, err, sizeof err)) {
        fprintf(stderr, "collviz: %s\n", err);
        ncclog_free(log);
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

static void usage(FILE *out)
{
    fputs("usage: collviz nccl-log FILE|- [--comm ID] [--json]\n\n"
          "Reads a log NCCL printed with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,GRAPH adds\n"
          "the per-rank ring lines) and prints what NCCL built: the nodes, each channel's\n"
          "ring in the order data travels (=NET=> marks a hop through the network), each\n"
          "channel's tree, and which lines said so. Lines from many processes may be\n"
          "interleaved, prefixed by a launcher (srun --label, mpirun --tag-output,\n"
          "torchrun) or a timestamp, coloured, or end in CRLF. `-` reads standard input.\n\n"
          "  --comm ID  the communicator to show when the log holds several (its 0x...\n"
          "             address as NCCL printed it; a unique prefix is enough)\n"
          "  --json     the same as one JSON document (every communicator, unless --comm)\n",
          out);
}

int app_cmd_nccl_log(int argc, char **argv)
{
    const char *path = NULL, *comm_id = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return APP_EXIT_OK;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if ((r = app_flag_value(argc, argv, &i, "--comm", &v)) != 0) {
            if (r < 0)
                return APP_EXIT_USAGE;
            comm_id = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return app_usage_error("nccl-log: unknown flag '%s'; allowed: --comm ID, --json",
                                   argv[i]);
        } else if (path) {
            return app_usage_error("nccl-log: one log at a time ('%s' and '%s')", path, argv[i]);
        } else {
            path = argv[i];
        }
    }
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
        ncclog_print_summary(stdout, &log, c);
    ncclog_free(&log);
    return rc;
}
