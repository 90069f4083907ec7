/*
 * cli_cost_nccl.c: `collviz cost --nccl PRESET`: NCCL's choice of algorithm
 * and protocol, predicted for a system learners meet (8 x A100, 8 x H100
 * with NVLS, nodes of them over InfiniBand or RoCE, a PCIe box). Prints
 * what is assumed of the system (the graphs NCCL's search would find), the
 * tuning table NCCL would print under NCCL_DEBUG_SUBSYS=TUNING (the model
 * in app/ncclog/ncclog_tuner.c), and for one collective the pick at each
 * size from -b to -e with its time and busbw, the best Ring and Tree
 * beside it, and where the pick changes.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ncclog.h"

static const char cost_nccl_help[] =
    "usage: collviz cost --nccl PRESET [--nodes K] [--gpus-per-node N] [--op OP]\n"
    "                    [--nccl-algo LIST] [-b MIN] [-e MAX] [--no-table] [--json]\n\n"
    "Predicts which algorithm and protocol NCCL picks for a collective at each\n"
    "message size, the way NCCL's tuner does (NCCL 2.29-2.30, src/graph/tuning.cc):\n"
    "for every algorithm and protocol a latency and a bandwidth, from the system's\n"
    "links and GPU generation; at each size the least latency + size / bandwidth.\n"
    "Prints the system's assumed graphs, the table NCCL prints under\n"
    "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING, then the pick per size and where it\n"
    "changes. The table is readable by `collviz nccl-log` and `collviz show`, so a\n"
    "real log's table and this one can be compared.\n"
    "  --nccl P   the system: %s\n"
    "  --nodes K  nodes of the preset over its NICs (default 1; 1 to 1024)\n"
    "  --gpus-per-node N  use N of each node's GPUs (1 to 8; with 1, NCCL may\n"
    "             run PAT for allgather and reducescatter)\n"
    "  --op OP    broadcast, reduce, allgather, reducescatter or allreduce (default)\n"
    "  -b, -e     the sizes shown, powers of two from 8 B to 16 GiB (default all)\n"
    "  --nccl-algo LIST  as NCCL_ALGO=LIST: only these algorithms (ring,tree),\n"
    "             or all but them (^nvls)\n"
    "  --no-table leave out NCCL's table\n"
    "  --json     the graphs, the table and the picks as JSON\n"
    "What is certain and what is not: the tuner's formula and constants are NCCL's;\n"
    "the graphs (channels and GB/s each) are what its topology search finds by its\n"
    "main rules on such a system, but a real search also sees the PCIe tree, NUMA\n"
    "and NIC placement, and NCCL's tuner plugins and NCCL_ALGO/NCCL_PROTO change\n"
    "the answer. CollNet (SHARP in the network) is not modelled.\n";

static const char *const colls[] = {"broadcast", "reduce", "allgather", "reducescatter",
                                    "allreduce", NULL};

static void size_text(int64_t b, char *out, size_t len)
{
    if (b >= (int64_t)1 << 30)
        snprintf(out, len, "%lld GiB", (long long)(b >> 30));
    else if (b >= 1 << 20)
        snprintf(out, len, "%lld MiB", (long long)(b >> 20));
    else if (b >= 1 << 10)
        snprintf(out, len, "%lld KiB", (long long)(b >> 10));
    else
        snprintf(out, len, "%lld B", (long long)b);
}

/* collviz's own plan of each of NCCL's algorithms (ncclog_algo_name's
 * order), where the op has it: what `run`, `gui` and `cost --algo` take. */
static const cv_algo as_plan[NCCLOG_ALGOS] = {
    CV_ALGO_DOUBLE_TREE,    CV_ALGO_RING,       CV_ALGO_COLLNET_DIRECT, CV_ALGO_COLLNET_CHAIN,
    CV_ALGO_IN_NETWORK,     CV_ALGO_NVLS_TREE,  CV_ALGO_PAT};

static void pick_text(int algo, int proto, char *out, size_t len)
{
    if (algo < 0)
        snprintf(out, len, "none");
    else
        snprintf(out, len, "%s/%s", ncclog_algo_name(algo), ncclog_proto_name(proto));
}

int cli_cmd_cost_nccl(int argc, char **argv)
{
    const char *const *names = ncclog_system_names();
    char list[256] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    const char *preset = NULL, *op = "allreduce", *only = NULL;
    int nodes = 1, ppn = 0;
    int64_t lo = 8, hi = (int64_t)16 << 30;
    bool json = false, no_table = false;
    cli_flag flags[] = {
        CLI_PICK("--nccl", &preset, names),
        CLI_INT("--nodes", &nodes, 1, 1024),
        CLI_INT("--gpus-per-node", &ppn, 1, 8),
        CLI_PICK("--op", &op, colls),
        CLI_TEXT("--nccl-algo", &only),
        CLI_SIZE("-b", &lo, 8, (int64_t)16 << 30, "bytes"),
        CLI_SIZE("-e", &hi, 8, (int64_t)16 << 30, "bytes"),
        CLI_SWITCH("--no-table", &no_table),
        CLI_SWITCH("--json", &json),
    };
    char help[sizeof cost_nccl_help + sizeof list];
    snprintf(help, sizeof help, cost_nccl_help, list);
    cli_cmdline cl = CLI_CMDLINE("cost", help, flags);
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    if (!preset)
        return cli_usage_error("cost: --nccl needs a preset: %s", list);
    if (lo > hi)
        return cli_usage_error("-b %lld is above -e %lld", (long long)lo, (long long)hi);
    ncclog_system sys = *ncclog_system_find(preset);
    sys.nodes = nodes;
    ncclog_system_gpus(&sys, ppn);
    if (sys.nodes * sys.gpus_per_node < 2)
        return cli_usage_error("cost --nccl: one rank in all; give --nodes K or --gpus-per-node N "
                               "for at least 2");
    int coll = 0;
    while (strcmp(colls[coll], op))
        coll++;
    ncclog_graph g[NCCLOG_ALGOS];
    ncclog_tuner_graphs(&sys, g);
    ncclog_tuning t;
    int threads[NCCLOG_ALGOS][NCCLOG_PROTOS];
    ncclog_tuner_table(&sys, g, &t, threads);
    char err[160];
    if (only && ncclog_tuner_only(&t, only, err, sizeof err))
        return cli_usage_error("--nccl-algo: %s", err);
    int nranks = sys.nodes * sys.gpus_per_node;
    ncclog_choice ch[NCCLOG_CHOICE_SIZES];
    char note[512];
    cv_spec spec; /* for nccl-tests' busbw factor */
    cv_spec_init(&spec);
    spec.op = ncclog_coll_op(coll);
    spec.ranks = nranks;
    double factor = cv_spec_busbw_factor(&spec);
    int n = ncclog_choices_of(&t, NCCLOG_TUNER_VERSION, sys.nodes, nranks, g[1].channels, coll, ch, note,
                              sizeof note);
    static const int shown[] = {1, 0, 4, 5, 6}; /* Ring, Tree, NVLS, NVLSTree, PAT */

    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "preset", sys.name);
        cJSON_AddStringToObject(root, "system", sys.about);
        cJSON_AddNumberToObject(root, "nodes", sys.nodes);
        cJSON_AddNumberToObject(root, "ranks", nranks);
        cJSON_AddStringToObject(root, "op", op);
        cJSON *gr = cJSON_AddObjectToObject(root, "graphs");
        for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
            const ncclog_graph *x = &g[shown[i]];
            if (!x->channels)
                continue;
            cJSON *o = cJSON_AddObjectToObject(gr, ncclog_algo_name(shown[i]));
            cJSON_AddNumberToObject(o, "channels", x->channels);
            cJSON_AddNumberToObject(o, "bw_intra_GBps", x->bw_intra);
            cJSON_AddNumberToObject(o, "bw_inter_GBps", x->bw_inter);
        }
        cJSON *tab = cJSON_AddObjectToObject(root, "table");
        for (int a = 0; a < NCCLOG_ALGOS; a++)
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                if (t.bw[coll][a][p] <= 0)
                    continue;
                char key[32];
                pick_text(a, p, key, sizeof key);
                cJSON *o = cJSON_AddObjectToObject(tab, key);
                cJSON_AddNumberToObject(o, "latency_us", t.lat[coll][a][p]);
                cJSON_AddNumberToObject(o, "bandwidth_GBps", t.bw[coll][a][p]);
            }
        cJSON *rows = cJSON_AddArrayToObject(root, "picks");
        for (int i = 0; i < n; i++) {
            if (ch[i].bytes < lo || ch[i].bytes > hi)
                continue;
            cJSON *o = cJSON_CreateObject();
            char pk[32];
            pick_text(ch[i].algo, ch[i].proto, pk, sizeof pk);
            cJSON_AddNumberToObject(o, "bytes", (double)ch[i].bytes);
            cJSON_AddStringToObject(o, "pick", pk);
            cJSON_AddNumberToObject(o, "time_us", ch[i].time_us);
            cJSON_AddNumberToObject(o, "busbw_GBps", ch[i].bytes / (ch[i].time_us * 1e3) * factor);
            cJSON_AddItemToArray(rows, o);
        }
        if (note[0])
            cJSON_AddStringToObject(root, "note", note);
        char *text = cJSON_Print(root);
        if (text)
            printf("%s\n", text);
        free(text);
        cJSON_Delete(root);
        return text ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }

    printf("NCCL's choice, modelled: %s, %d node%s x %d GPUs = %d ranks\n", sys.about, sys.nodes,
           sys.nodes == 1 ? "" : "s", sys.gpus_per_node, nranks);
    printf("model: NCCL 2.29-2.30's tuner (src/graph/tuning.cc): at each size the least\n"
           "       latency + bytes / bandwidth over the enabled algorithm x protocol pairs\n");
    printf("assumed graphs (what NCCL's topology search finds by its main rules; a real\n"
           "system's search may differ):");
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const ncclog_graph *x = &g[shown[i]];
        if (!x->channels || (shown[i] == 5 && sys.nodes == 1) || (shown[i] == 6 && nranks != sys.nodes))
            continue;
        if (sys.nodes > 1)
            printf("\n  %-8s %2d channel%s x %.1f GB/s inside a node, %.1f GB/s between",
                   ncclog_algo_name(shown[i]), x->channels, x->channels == 1 ? "" : "s",
                   x->bw_intra, x->bw_inter);
        else
            printf("\n  %-8s %2d channel%s x %.1f GB/s%s", ncclog_algo_name(shown[i]), x->channels,
                   x->channels == 1 ? "" : "s", x->bw_intra,
                   sys.nodes > 1 && x->bw_inter != x->bw_intra ? " inside a node" : "");
    }
    printf("\n");
    if (!no_table) {
        printf("\nthe table NCCL would print (latency us / bandwidth GB/s, 0 = off):\n");
        ncclog_tuner_print(stdout, &t, threads);
    }
    char sz[32], pk[32], rk[32], tk[32];
    printf("\n%s on %d ranks, NCCL's pick by size:\n", ncclog_coll_name(coll), nranks);
    printf("%10s  %-14s %12s %12s %14s %14s\n", "size", "pick", "time (us)", "busbw GB/s",
           "best Ring us", "best Tree us");
    for (int i = 0; i < n; i++) {
        if (ch[i].bytes < lo || ch[i].bytes > hi)
            continue;
        size_text(ch[i].bytes, sz, sizeof sz);
        pick_text(ch[i].algo, ch[i].proto, pk, sizeof pk);
        if (ch[i].ring_us >= 0)
            snprintf(rk, sizeof rk, "%.1f", ch[i].ring_us);
        else
            snprintf(rk, sizeof rk, "off");
        if (ch[i].tree_us >= 0)
            snprintf(tk, sizeof tk, "%.1f", ch[i].tree_us);
        else
            snprintf(tk, sizeof tk, "off");
        printf("%10s  %-14s %12.1f %12.2f %14s %14s\n", sz, pk, ch[i].time_us,
               ch[i].bytes / (ch[i].time_us * 1e3) * factor, rk, tk);
    }
    printf("the pick changes:");
    int changes = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || ch[i].algo != ch[i - 1].algo || ch[i].proto != ch[i - 1].proto) {
            size_text(ch[i].bytes, sz, sizeof sz);
            pick_text(ch[i].algo, ch[i].proto, pk, sizeof pk);
            printf("%s %s from %s", changes ? "," : "", pk, sz);
            changes++;
        }
    }
    printf("\n");
    /* the picks as collviz's own plans, to watch or price them */
    printf("as collviz plans:");
    int shown_plans = 0;
    unsigned seen = 0;
    for (int i = 0; i < n; i++) {
        int a = ch[i].algo;
        if (a < 0 || a >= NCCLOG_ALGOS || seen >> a & 1)
            continue;
        seen |= 1u << a;
        bool has = cv_op_has_algo(spec.op, as_plan[a]);
        printf("%s %s = %s", shown_plans++ ? "," : "", ncclog_algo_name(a),
               has ? cv_algo_name(as_plan[a]) : "(none)");
    }
    /* the largest size's pick on the stage, at a size the window draws */
    int vk = sys.nodes, vr = nranks, top = ch[n - 1].algo;
    if (vr > CV_MAX_VISUAL_RANKS) {
        /* as many whole nodes as the window draws, else part of one */
        vk = CV_MAX_VISUAL_RANKS / sys.gpus_per_node;
        vk = vk > 1 ? vk : 1;
        vr = vk * sys.gpus_per_node < CV_MAX_VISUAL_RANKS ? vk * sys.gpus_per_node
                                                          : CV_MAX_VISUAL_RANKS;
    }
    cv_algo watch = top >= 0 && top < NCCLOG_ALGOS && cv_op_has_algo(spec.op, as_plan[top])
                        ? as_plan[top]
                        : CV_ALGO_RING;
    printf("\n  e.g. collviz gui --op %s --algo %s --ranks %d", cv_op_name(spec.op),
           cv_algo_name(watch), vr);
    if (vk > 1)
        printf(" --nodes %d", vk);
    printf("\n");
    if (note[0])
        printf("note: %s\n", note);
    printf("uncertain: the graphs above are assumed; CollNet is not modelled; NCCL also\n"
           "splits a call over fewer channels at small sizes and a tuner plugin may\n"
           "override all of this. Compare with your own log: NCCL_DEBUG=INFO\n"
           "NCCL_DEBUG_SUBSYS=TUNING, then `collviz show LOG`.\n");
    return CLI_EXIT_OK;
}
