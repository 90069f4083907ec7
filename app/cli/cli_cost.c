/*
 * cli_cost.c: `collviz cost`. Builds the plan for a message of SIZE bytes
 * and prices it with the alpha-beta(-gamma) model: each step, the bytes
 * through the busiest port, and in total the predicted time, the bytes the
 * busiest rank sends, algbw and busbw (nccl-tests' definitions).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* %s: the link presets, from their table (cv_link_names). */
static const char cost_help[] =
    "usage: collviz cost --op OP [--algo A] --ranks N --bytes SIZE\n"
    "                    [--link %s | --bw GBps]\n"
    "                    [--alpha us] [--gamma GBps] [--slices S] [--dtype T]\n"
    "                    [--redop R] [--root R]\n"
    "                    [--nodes K [--inter-link ib-ndr|...]] [--json]\n"
    "                    [--proto simple|ll128|ll]\n"
    "                    [--nccl-log FILE [--comm ID] [--channel C]]\n"
    "       collviz cost --nccl PRESET [--nodes K] [--op OP]   (NCCL's own choice;\n"
    "                    `collviz cost --nccl h100-8 --help` says more)\n\n"
    "Predicts the time of a collective from its plan: every step that moves data\n"
    "costs alpha for each message through its busiest port (a root sending N-1\n"
    "messages at once pays N-1 alphas; one-shot and two-shot, which load from every\n"
    "peer at once, one), plus the bytes through its busiest port\n"
    "(a rank's sends or receives, whichever is larger) over the one-way\n"
    "bandwidth, plus the bytes reduced over gamma when --gamma is given. SIZE is the message in nccl-tests'\n"
    "convention (the whole buffer; for allgather the gathered result) and takes\n"
    "units: 1610612736, 1.6GB (10^9), 512MiB or 512M (2^20). Without --link or\n"
    "--bw the link is nvlink4. --bw has no latency unless --alpha is given.\n"
    "--nccl-log FILE prices your own cluster: the ranks and nodes of the log's\n"
    "communicator, and channel C's ring and trees (default 0) for ring and\n"
    "double-tree.\n"
    "--nodes K splits the ranks into K nodes: --link is then the link inside a\n"
    "node and --inter-link (default ib-ndr) each rank's NIC between nodes; a step\n"
    "lasts as long as its slowest port, and the output adds how many steps cross\n"
    "the network and what the busiest NIC sends. Compare --algo hierarchical with\n"
    "multi-ring (NCCL's flat ring, one channel per GPU) this way.\n"
    "--proto prices NCCL's protocol (default simple): ll128 carries 120 data bytes\n"
    "in each 128-byte line, ll 4 in each 8-byte store, at less latency per step\n"
    "(alpha scaled by NCCL's per-hop ring latency against Simple's on the link's\n"
    "kind: NVLink, PCIe or network). The output ends with the time under each.\n";

static void human_bytes(double b, char *out, size_t len)
{
    if (b >= 1e9)
        snprintf(out, len, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(out, len, "%.2f MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(out, len, "%.2f kB", b / 1e3);
    else
        snprintf(out, len, "%.0f B", b);
}

static void human_time(double s, char *out, size_t len)
{
    if (s >= 1)
        snprintf(out, len, "%.3f s", s);
    else if (s >= 1e-3)
        snprintf(out, len, "%.2f ms", s * 1e3);
    else
        snprintf(out, len, "%.2f us", s * 1e6);
}

/* The plan's time under each protocol: the plan is the same, only the
 * price of its steps changes. */
static void by_proto(const cv_cost_model *model, const cv_link *link, const cv_link *inter,
                     double secs[CV_PROTO_COUNT])
{
    for (int p = 0; p < CV_PROTO_COUNT; p++) {
        cv_cost c;
        cv_cost_model_price(model, (cv_proto)p, link, inter, &c);
        secs[p] = c.seconds;
    }
}

/* "LL: 4 bytes of data in every 8-byte store ...": what the protocol
 * changes in the model, on the link inside a node. */
static void print_proto(cv_proto p, const cv_link *link)
{
    static const char *const how[CV_PROTO_COUNT] = {
        "the data as it is, one fence a step",
        "128-byte lines of 120 bytes of data and 8 of flags",
        "8-byte stores of 4 bytes of data and a 4-byte flag",
    };
    printf("protocol: %s: %s\n          %.1f GB/s of data one way, alpha x %.2f = %.2f us a step\n",
           cv_proto_title(p), how[p], link->bw * cv_proto_data_share(p) / 1e9,
           cv_proto_latency_share(p, link), link->alpha * cv_proto_latency_share(p, link) * 1e6);
}

/* "by protocol: Simple 8.04 us · LL128 5.53 us · LL 5.14 us (LL is
 * quickest at this size)", over the protocols NCCL runs the algorithm with. */
static void print_by_proto(const cv_spec *spec, const double secs[CV_PROTO_COUNT])
{
    if (cv_algo_proto(spec->op, spec->algo, CV_PROTO_LL) != CV_PROTO_LL) {
        printf("by protocol: Simple only: NCCL has no LL or LL128 kernels for %s %s\n",
               cv_op_name(spec->op), cv_algo_name(spec->algo));
        return;
    }
    int best = 0;
    printf("by protocol:");
    for (int p = 0; p < CV_PROTO_COUNT; p++) {
        char tp[32];
        human_time(secs[p], tp, sizeof tp);
        printf("%s %s %s", p ? " ·" : "", cv_proto_title((cv_proto)p), tp);
        best = secs[p] < secs[best] ? p : best;
    }
    printf(" (%s is quickest at this size)\n", cv_proto_title((cv_proto)best));
}

int cli_cmd_cost(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--nccl"))
            return cli_cmd_cost_nccl(argc, argv);
    cv_spec spec;
    cv_spec_init(&spec);
    spec.op = CV_OP_COUNT;
    spec.dtype = CV_INT8; /* the model only needs bytes */
    bool json = false;
    int64_t bytes = -1;
    cv_link link = *cv_link_find("nvlink4");
    cv_link inter = *cv_link_find("ib-ndr"); /* between nodes, with --nodes */
    const char *link_name = NULL, *inter_name = NULL;
    double bw = 0, alpha = -1, gamma = 0;
    cli_nccl_args nccl = {NULL, NULL, 0};
    cli_flag flags[] = {
        CLI_SPEC_OP_FLAGS(&spec),
        CLI_SPEC_DATA_FLAGS(&spec),
        CLI_NCCL_FLAGS(&nccl),
        CLI_REFUSE("--count", "give the message size with --bytes, not --count"),
        /* 2^48 bytes: far past any real message, and every op's count of
         * it stays addressable at 1024 ranks */
        CLI_SIZE("--bytes", &bytes, 0, (int64_t)1 << 48, "bytes"),
        CLI_PICK("--link", &link_name, cli_link_names()),
        CLI_PICK("--inter-link", &inter_name, cli_link_names()),
        CLI_NUMBER("--bw", &bw, 1e-3, 1e6, "GB/s"),
        CLI_NUMBER("--alpha", &alpha, 0, 1e6, "microseconds"),
        CLI_NUMBER("--gamma", &gamma, 1e-3, 1e6, "GB/s"),
        CLI_SWITCH("--json", &json),
    };
    char links[512], help[sizeof cost_help + sizeof links];
    cv_link_names("|", links, sizeof links);
    snprintf(help, sizeof help, cost_help, links);
    cli_cmdline cl = CLI_CMDLINE("cost", help, flags);
    cl.nccl = &nccl;
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    const cli_flag *lf = cli_flag_get(&cl, "--link"), *bf = cli_flag_get(&cl, "--bw");
    if (lf->seen + bf->seen > 1)
        return cli_usage_error("%s: give either --link or --bw, once",
                               lf->at > bf->at ? "--link" : "--bw");
    if (link_name)
        link = *cv_link_find(link_name);
    if (bf->seen)
        link = (cv_link){NULL, bw * 1e9, 0, 0, NULL, CV_HW_NVLINK};
    if (inter_name)
        inter = *cv_link_find(inter_name);
    alpha = alpha >= 0 ? alpha * 1e-6 : -1;
    gamma *= 1e9;
    if (spec.op == CV_OP_COUNT)
        return cli_usage_error("cost: --op is required");
    if (bytes < 0)
        return cli_usage_error("cost: --bytes is required (e.g. --bytes 1.6GB)");
    if (alpha >= 0)
        link.alpha = alpha;
    link.gamma = gamma;
    /* SIZE in nccl-tests' convention -> the op's count. */
    bool per_rank = cv_op_bench_per_rank(spec.op);
    int64_t unit = cv_spec_bench_unit(&spec);
    if (spec.ranks < 1 || spec.ranks > CV_MAX_RANKS)
        return cli_usage_error("--ranks: allowed 1 to %d", CV_MAX_RANKS);
    if (bytes % unit)
        return cli_usage_error("--bytes: %lld is not a multiple of %lld (%s%s)", (long long)bytes,
                               (long long)unit, per_rank ? "ranks x " : "",
                               cv_dtype_name(spec.dtype));
    spec.count = bytes / unit;
    if (!cli_finish_spec(&cl, &spec, cli_flag_given(&cl, "--algo"), CV_MAX_RANKS))
        return CLI_EXIT_USAGE;
    if (inter_name && cv_spec_nodes(&spec) <= 1)
        return cli_usage_error("--inter-link: the %d ranks are on one node, so nothing crosses "
                               "the network; give --nodes K (K > 1) or --nccl-log of a run on "
                               "several nodes",
                               spec.ranks);
    char err[CV_ERR_LEN];
    /* Priced a step at a time, never the whole plan in memory: a
     * 1024-rank multi-ring plan is 67 million transfers (cv_cost_model). */
    cv_cost_model *model = NULL;
    if (cv_cost_model_create(&spec, &model, err, sizeof err))
        return cli_usage_error("%s", err);
    const cv_plan *plan = cv_cost_model_plan(model);
    cv_cost c;
    bool nodes = cv_spec_nodes(&spec) > 1;
    inter.gamma = link.gamma;
    cv_cost_model_price(model, spec.proto, &link, nodes ? &inter : &link, &c);

    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "op", cv_op_name(spec.op));
        cJSON_AddStringToObject(root, "algo", cv_algo_name(spec.algo));
        cJSON_AddNumberToObject(root, "ranks", spec.ranks);
        cJSON_AddNumberToObject(root, "bytes", (double)bytes);
        cJSON_AddStringToObject(root, "link", link.name ? link.name : "custom");
        cJSON_AddNumberToObject(root, "bw_GBps", link.bw / 1e9);
        cJSON_AddNumberToObject(root, "alpha_us", link.alpha * 1e6);
        cJSON_AddNumberToObject(root, "gamma_GBps", link.gamma / 1e9);
        cJSON_AddNumberToObject(root, "nodes", cv_spec_nodes(&spec));
        cJSON_AddStringToObject(root, "proto", cv_proto_name(spec.proto));
        double ps[CV_PROTO_COUNT];
        by_proto(model, &link, nodes ? &inter : &link, ps);
        cJSON *bp = cJSON_AddObjectToObject(root, "time_us_by_proto");
        for (int p = 0; p < CV_PROTO_COUNT; p++) /* only those NCCL runs it with */
            if (cv_algo_proto(spec.op, spec.algo, (cv_proto)p) == (cv_proto)p)
                cJSON_AddNumberToObject(bp, cv_proto_name((cv_proto)p), ps[p] * 1e6);
        if (nodes) {
            cJSON_AddStringToObject(root, "inter_link", inter.name);
            cJSON_AddNumberToObject(root, "inter_bw_GBps", inter.bw / 1e9);
            cJSON_AddNumberToObject(root, "inter_alpha_us", inter.alpha * 1e6);
            cJSON_AddNumberToObject(root, "inter_rounds", c.inter_rounds);
            cJSON_AddNumberToObject(root, "bytes_sent_per_nic", (double)c.max_sent_inter);
        }
        char formula[64];
        cv_plan_textbook_rounds(plan, formula, sizeof formula);
        cJSON_AddNumberToObject(root, "steps", c.steps);
        cJSON_AddStringToObject(root, "steps_formula", formula);
        cJSON_AddNumberToObject(root, "comm_steps", c.comm_steps);
        cJSON_AddNumberToObject(root, "alphas", (double)c.alphas);
        cJSON_AddNumberToObject(root, "bytes_sent_per_rank", (double)c.max_sent);
        cJSON_AddNumberToObject(root, "time_us", c.seconds * 1e6);
        cJSON_AddNumberToObject(root, "algbw_GBps", c.algbw / 1e9);
        cJSON_AddNumberToObject(root, "busbw_GBps", c.busbw / 1e9);
        cJSON *steps = cJSON_AddArrayToObject(root, "per_step");
        for (int k = 0; k < plan->nsteps; k++) {
            int64_t busiest;
            double sec = cv_cost_model_step(model, k, &link, nodes ? &inter : &link, &busiest);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "phase", plan->steps[k].phase);
            cJSON_AddNumberToObject(o, "round", plan->steps[k].round);
            cJSON_AddBoolToObject(o, "local", plan->steps[k].local);
            cJSON_AddBoolToObject(o, "loads", plan->steps[k].loads);
            cJSON_AddNumberToObject(o, "busiest_bytes", (double)busiest);
            cJSON_AddNumberToObject(o, "time_us", sec * 1e6);
            cJSON_AddItemToArray(steps, o);
        }
        char *text = cJSON_Print(root);
        puts(text);
        free(text);
        cJSON_Delete(root);
        cv_cost_model_destroy(model);
        return CLI_EXIT_OK;
    }
    char b1[32], b2[32], t1[32];
    human_bytes((double)bytes, b1, sizeof b1);
    cli_print_nccl_source(stdout);
    printf("%s %s, %d ranks, %lld bytes (%s)\n", cv_op_title(spec.op), cv_algo_name(spec.algo),
           spec.ranks, (long long)bytes, b1);
    printf("link: %s, %.1f GB/s one way, alpha %.2f us", link.name ? link.name : "--bw",
           link.bw / 1e9, link.alpha * 1e6);
    if (link.gamma > 0)
        printf(", gamma %.1f GB/s", link.gamma / 1e9);
    putchar('\n');
    if (link.about && link.name)
        printf("      %s\n", link.about);
    print_proto(spec.proto, &link);
    if (nodes)
        printf("%d nodes x %d ranks; between nodes: %s, %.1f GB/s one way, alpha %.2f us\n",
               cv_spec_nodes(&spec), cv_spec_ranks_per_node(&spec), inter.name,
               inter.bw / 1e9, inter.alpha * 1e6);
    printf("\nstep  phase             busiest port        time\n");
    for (int k = 0; k < plan->nsteps; k++) {
        if (plan->nsteps > 24 && k == 10) {
            printf("  ... %d more steps\n", plan->nsteps - 20);
            k = plan->nsteps - 10;
        }
        int64_t busiest;
        double sec = cv_cost_model_step(model, k, &link, nodes ? &inter : &link, &busiest);
        human_bytes((double)busiest, b2, sizeof b2);
        human_time(sec, t1, sizeof t1);
        if (plan->steps[k].local) /* a sub-phase of the round above: no traffic */
            printf("      %-16s %13s  %10s\n", plan->steps[k].phase, "local", t1);
        else
            printf("%4d  %-16s %13s  %10s\n", plan->steps[k].round, plan->steps[k].phase, b2, t1);
    }
    human_bytes((double)c.max_sent, b2, sizeof b2);
    human_time(c.seconds, t1, sizeof t1);
    char rounds[128];
    cv_plan_rounds_text(plan, rounds, sizeof rounds);
    printf("\n%s (each a round that moves data between ranks)\n", rounds);
    bool loads = false; /* a step that reads every peer at once pays one alpha */
    for (int k = 0; k < plan->nsteps; k++)
        loads |= plan->steps[k].loads;
    printf("latency: alpha x %lld (one per message through the busiest port, each step%s)\n",
           (long long)c.alphas, loads ? "; one for a step that loads from every peer at once" : "");
    printf("bytes sent per rank (busiest): %lld (%s)\n", (long long)c.max_sent, b2);
    if (nodes) {
        char b3[32];
        human_bytes((double)c.max_sent_inter, b3, sizeof b3);
        printf("between nodes: %d of the steps; the busiest NIC sends %lld (%s)\n",
               c.inter_rounds, (long long)c.max_sent_inter, b3);
    }
    printf("predicted time: %s\n", t1);
    double ps[CV_PROTO_COUNT];
    by_proto(model, &link, nodes ? &inter : &link, ps);
    print_by_proto(&spec, ps);
    printf("algbw: %.2f GB/s   busbw: %.2f GB/s (busbw = algbw x %.4g)\n", c.algbw / 1e9,
           c.busbw / 1e9, cv_spec_busbw_factor(&spec));
    cv_cost_model_destroy(model);
    return CLI_EXIT_OK;
}
