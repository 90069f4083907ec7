/*
 * test_cost.c: the cost model reproduces the worked examples of the source
 * notes and the textbook formulas, from plans alone; sizes parse as
 * documented.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv.h"
#include "check.h"

static cv_cost cost_of(cv_op op, cv_algo algo, int ranks, int64_t bytes, int slices, double bw)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.ranks = ranks;
    s.dtype = CV_INT8; /* one byte an element: count == bytes */
    s.count = bytes;
    s.slices = slices;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    cv_cost c = {0};
    if (cv_plan_create(&s, &p, err, sizeof err)) {
        printf("build failed: %s\n", err);
        failures++;
        return c;
    }
    cv_link l = {NULL, bw, 0, 0, NULL, CV_HW_NVLINK};
    cv_cost_plan(p, &l, &c);
    cv_plan_destroy(p);
    return c;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-15; }

/* The worked examples: GPT-3's tensor-parallel all-reduce, 32 x 2048 x
 * 12288 fp16 values over 8 ranks at 600 GB/s; 1B fp32 parameters, data
 * parallel over 8 ranks: 7 GB sent per rank. */
static void check_examples(void)
{
    int64_t gpt = 32LL * 2048 * 12288 * 2;
    EXPECT(gpt == 1610612736LL, "GPT-3 activation bytes");
    cv_cost c = cost_of(CV_OP_ALLREDUCE, CV_ALGO_RING, 8, gpt, 1, 600e9);
    EXPECT(fabs(c.seconds * 1e3 - 4.70) < 0.005, "GPT-3 ring allreduce at 600 GB/s: %.4f ms",
           c.seconds * 1e3);
    c = cost_of(CV_OP_ALLREDUCE, CV_ALGO_RING, 8, gpt, 1, 230e9);
    EXPECT(fabs(c.seconds * 1e3 - 12.25) < 0.01, "same at 230 GB/s busbw: %.3f ms",
           c.seconds * 1e3);

    c = cost_of(CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 4000000000LL, 1, 100e9);
    EXPECT(c.max_sent == 7000000000LL, "1B fp32 over 8 ranks sends %lld bytes per rank",
           (long long)c.max_sent);
}

/* The textbook formulas. Pipelined ring broadcast: D (S + k - 2) / (S B);
 * naive: (k - 1) D / B. Tree allreduce: 2 log2(k) D / B. Ring allreduce
 * 2(N-1)/N D / B, and nccl-tests' busbw equals B for it. */
static void check_formulas(void)
{
    cv_cost c;
    for (int k = 2; k <= 16; k++)
        for (int S = 1; S <= 8; S++) {
            int64_t d = 840 * 1024; /* divisible by every S here */
            c = cost_of(CV_OP_BROADCAST, CV_ALGO_RING, k, d, S, 1e9);
            EXPECT(near(c.seconds, (double)d * (S + k - 2) / (S * 1e9)),
                   "pipelined broadcast k=%d S=%d: %g s", k, S, c.seconds);
        }
    for (int k = 2; k <= 16; k++) {
        c = cost_of(CV_OP_BROADCAST, CV_ALGO_DIRECT, k, 1 << 20, 1, 1e9);
        EXPECT(near(c.seconds, (k - 1) * (double)(1 << 20) / 1e9), "naive broadcast k=%d", k);
    }
    for (int k = 2; k <= 64; k *= 2) {
        c = cost_of(CV_OP_ALLREDUCE, CV_ALGO_TREE, k, 1 << 20, 1, 1e9);
        EXPECT(near(c.seconds, 2 * log2(k) * (double)(1 << 20) / 1e9), "tree allreduce k=%d", k);
    }
    c = cost_of(CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 8 << 20, 1, 50e9);
    EXPECT(near(c.busbw, 50e9), "ring allreduce busbw %g", c.busbw);
    c = cost_of(CV_OP_ALLGATHER, CV_ALGO_RING, 8, 1 << 20, 1, 50e9);
    EXPECT(near(c.busbw, 50e9), "ring allgather busbw %g", c.busbw);
}

/* Alpha: one per communicating step. */
static void check_alpha_per_step(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = 8;
    s.count = 0;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    s.count = 8;
    cv_plan_create(&s, &p, err, sizeof err);
    cv_link l = {NULL, 1e30, 1e-6, 0, NULL, CV_HW_NVLINK};
    cv_cost c;
    cv_cost_plan(p, &l, &c);
    EXPECT(near(c.seconds, 14e-6), "alpha x 14 steps: %g", c.seconds);
    EXPECT(c.comm_steps == 14, "comm steps %d", c.comm_steps);
    cv_plan_destroy(p);
}

/* A root sending N-1 messages through its one port pays N-1 alphas:
 * direct scatter and gather of 8 kB on 8 ranks at 5 us and 100 GB/s,
 * against the binomial tree's log2 8 = 3 (Thakur, Rabenseifner & Gropp:
 * linear (N-1)a, tree a log2 N, both (N-1)/N D/B). */
static void check_root_port(void)
{
    cv_spec s;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    cv_cost c;
    for (int op = CV_OP_SCATTER; op <= CV_OP_GATHER; op++) {
        cv_spec_init(&s);
        s.op = op;
        s.ranks = 8;
        s.dtype = CV_INT8;
        s.count = 1000; /* per rank: 8 kB in all */
        cv_link l = {NULL, 100e9, 5e-6, 0, NULL, CV_HW_NVLINK};
        for (int a = 0; a < 2; a++) {
            s.algo = a ? CV_ALGO_TREE : CV_ALGO_DIRECT;
            cv_plan_create(&s, &p, err, sizeof err);
            cv_cost_plan(p, &l, &c);
            double want = (a ? 3 : 7) * 5e-6 + 7000 / 100e9;
            EXPECT(near(c.seconds, want) && c.alphas == (a ? 3 : 7),
                   "%s %s: %g s and %lld alphas, want %g", cv_op_name(op), cv_algo_name(s.algo),
                   c.seconds, (long long)c.alphas, want);
            cv_plan_destroy(p);
        }
    }
}

/* The parameter server: N-1 gradients in one after another, then N-1
 * results out of its one port: 2(N-1) (alpha + D/B), at 5 us and 100 GB/s. */
static void check_parameter_server(void)
{
    cv_spec s;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    cv_cost c;
    cv_link l = {NULL, 100e9, 5e-6, 0, NULL, CV_HW_NVLINK};
    cv_spec_init(&s);
    s.algo = CV_ALGO_DIRECT;
    s.ranks = 8;
    s.dtype = CV_INT8;
    s.count = 1000000;
    cv_plan_create(&s, &p, err, sizeof err);
    cv_cost_plan(p, &l, &c);
    EXPECT(near(c.seconds, 14 * (5e-6 + 1e6 / 100e9)) && c.alphas == 14,
           "parameter server: %g s, %lld alphas", c.seconds, (long long)c.alphas);
    cv_plan_destroy(p);
}

/* One-shot and two-shot load from every peer at once, so a port pays one
 * alpha a step however many peers it reads: one-shot alpha + (N-1) D/B +
 * (N-1) D/gamma, two-shot 2 alpha + 2(N-1)/N D/B + (N-1)/N D/gamma, the
 * ring's bytes in 2 alphas instead of 2(N-1). Worked by hand at alpha =
 * 5 us, B = 100 GB/s, gamma = 50 GB/s where given (0: none). */
static void check_one_two_shot(void)
{
    static const struct {
        cv_algo algo;
        int ranks;
        int64_t bytes;
        double gamma, want_s;
        int64_t alphas, sent;
    } cases[] = {
        /* 5 us + 7 x 1 MB / 100 GB/s = 5 + 70 us */
        {CV_ALGO_ONE_SHOT, 8, 1000000, 0, 75e-6, 1, 7000000},
        /* + 7 MB reduced at 50 GB/s = 140 us */
        {CV_ALGO_ONE_SHOT, 8, 1000000, 50e9, 215e-6, 1, 7000000},
        /* 5 us + 1 x 8 kB / 100 GB/s = 5 + 0.08 us */
        {CV_ALGO_ONE_SHOT, 2, 8000, 0, 5.08e-6, 1, 8000},
        /* 5 us + 63 x 8 kB / 100 GB/s = 5 + 5.04 us */
        {CV_ALGO_ONE_SHOT, 64, 8000, 0, 10.04e-6, 1, 504000},
        /* 2 x 5 us + 2 x 7/8 x 8 MB / 100 GB/s = 10 + 140 us */
        {CV_ALGO_TWO_SHOT, 8, 8000000, 0, 150e-6, 2, 14000000},
        /* + 7/8 x 8 MB reduced at 50 GB/s = 140 us */
        {CV_ALGO_TWO_SHOT, 8, 8000000, 50e9, 290e-6, 2, 14000000},
        /* 2 x 5 us + 2 x 3/4 x 4 kB / 100 GB/s = 10 + 0.06 us */
        {CV_ALGO_TWO_SHOT, 4, 4000, 0, 10.06e-6, 2, 6000},
        /* the ring, same bytes: 14 x 5 us + 140 us */
        {CV_ALGO_RING, 8, 8000000, 0, 210e-6, 14, 14000000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.algo = cases[i].algo;
        s.ranks = cases[i].ranks;
        s.dtype = CV_INT8;
        s.count = cases[i].bytes;
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        if (cv_plan_create(&s, &p, err, sizeof err)) {
            EXPECT(0, "%s: %s", cv_algo_name(s.algo), err);
            continue;
        }
        cv_link l = {NULL, 100e9, 5e-6, cases[i].gamma, NULL, CV_HW_NVLINK};
        cv_cost c;
        cv_cost_plan(p, &l, &c);
        EXPECT(near(c.seconds, cases[i].want_s) && c.alphas == cases[i].alphas &&
                   c.max_sent == cases[i].sent,
               "%s N=%d %lld B gamma %g: %g s, %lld alphas, %lld B sent; want %g s, %lld, %lld",
               cv_algo_name(s.algo), s.ranks, (long long)s.count, cases[i].gamma, c.seconds,
               (long long)c.alphas, (long long)c.max_sent, cases[i].want_s,
               (long long)cases[i].alphas, (long long)cases[i].sent);
        cv_plan_destroy(p);
    }
    /* one-shot beats two-shot below alpha B N / ((N-1)(N-2)): on nvlink4 (2 us,
     * 450 GB/s) at 8 ranks, 171 kB: one-shot wins at 64 kB, two-shot at 1 MB */
    const cv_link *nv = cv_link_find("nvlink4");
    double t[2][2];
    for (int a = 0; a < 2; a++)
        for (int big = 0; big < 2; big++) {
            cv_spec s;
            cv_spec_init(&s);
            s.algo = a ? CV_ALGO_TWO_SHOT : CV_ALGO_ONE_SHOT;
            s.ranks = 8;
            s.dtype = CV_INT8;
            s.count = big ? 1 << 20 : 64 << 10;
            cv_plan *p = NULL;
            char err[CV_ERR_LEN];
            cv_cost c = {0};
            if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK)
                cv_cost_plan(p, nv, &c);
            t[a][big] = c.seconds;
            cv_plan_destroy(p);
        }
    EXPECT(t[0][0] < t[1][0] && t[1][1] < t[0][1],
           "one-shot %g / %g s, two-shot %g / %g s at 64 kB / 1 MB", t[0][0], t[0][1], t[1][0],
           t[1][1]);
}

/* Transfers between the same two ranks in one step are one message:
 * recursive halving's last round splits a folded pair's range in three. */
static void check_one_message_a_pair(void)
{
    cv_spec s;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    cv_cost c;
    cv_spec_init(&s);
    s.op = CV_OP_REDUCESCATTER;
    s.algo = CV_ALGO_RECURSIVE_HALVING;
    s.ranks = 6;
    s.dtype = CV_INT8;
    s.count = 100;
    cv_plan_create(&s, &p, err, sizeof err);
    cv_link l = {NULL, 1e30, 1e-6, 0, NULL, CV_HW_NVLINK};
    cv_cost_plan(p, &l, &c);
    EXPECT(c.alphas == p->nrounds && near(c.seconds, p->nrounds * 1e-6),
           "recursive halving on 6 ranks: %lld alphas for %d rounds", (long long)c.alphas,
           p->nrounds);
    cv_plan_destroy(p);
}

/* Two levels, 16 ranks in 2 nodes of 8, 256 MB: hierarchical allreduce
 * crosses the network in 2(K-1) = 2 rounds, each NIC carrying
 * 2(K-1)/K x D/L = 32 MB; NCCL's flat ring with 8 channels crosses it in
 * all 2(N-1) = 30, each NIC carrying 2(N-1)/N x D/8 = 60 MB. So the
 * hierarchy wins where latency counts (8 kB) and the rings where
 * bandwidth does (256 MB), on nvlink4 inside and ib-ndr between. */
static void check_two_levels(void)
{
    cv_spec s;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    cv_cost c;
    const cv_link *nv = cv_link_find("nvlink4"), *ib = cv_link_find("ib-ndr");
    double t[2][2];
    for (int a = 0; a < 2; a++)
        for (int big = 0; big < 2; big++) {
            cv_spec_init(&s);
            s.algo = a ? CV_ALGO_HIERARCHICAL : CV_ALGO_MULTIRING;
            s.ranks = 16;
            s.nodes = 2;
            s.dtype = CV_INT8;
            s.count = big ? 256000000 : 8192;
            cv_plan_create(&s, &p, err, sizeof err);
            cv_cost_plan_nodes(p, nv, ib, &c);
            t[a][big] = c.seconds;
            if (big) {
                EXPECT(c.inter_rounds == (a ? 2 : 30), "%s: %d rounds cross nodes",
                       cv_algo_name(s.algo), c.inter_rounds);
                EXPECT(c.max_sent_inter == (a ? 32000000 : 60000000),
                       "%s: the busiest NIC sends %lld", cv_algo_name(s.algo),
                       (long long)c.max_sent_inter);
            }
            cv_plan_destroy(p);
        }
    EXPECT(t[1][0] < t[0][0] && t[0][1] < t[1][1],
           "hierarchical %g / %g s, multi-ring %g / %g s at 8 kB / 256 MB", t[1][0], t[1][1],
           t[0][0], t[0][1]);
    /* one node: the two-level model is the one-level one */
    cv_spec_init(&s);
    s.ranks = 8;
    s.count = 1 << 20;
    cv_plan_create(&s, &p, err, sizeof err);
    cv_cost one, two;
    cv_cost_plan(p, nv, &one);
    cv_cost_plan_nodes(p, nv, ib, &two);
    EXPECT(one.seconds == two.seconds && two.inter_rounds == 0, "one node: %g vs %g",
           one.seconds, two.seconds);
    cv_plan_destroy(p);
}

static void check_sizes(void)
{
    struct {
        const char *s;
        int64_t want;
    } ok[] = {{"1610612736", 1610612736LL}, {"1.6GB", 1600000000LL}, {"512MiB", 536870912LL},
              {"64M", 67108864LL},            {"8k", 8192},             {"8", 8},
              {"1.5GiB", 1610612736LL},       {"2kB", 2000}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t b = -1;
        EXPECT(cv_parse_size(ok[i].s, &b) == CV_OK && b == ok[i].want, "size %s -> %lld",
               ok[i].s, (long long)b);
    }
    const char *bad[] = {"", "abc", "-1", "1.5", "12XB", "1e30GB", "nan"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t b;
        EXPECT(cv_parse_size(bad[i], &b) != CV_OK, "size '%s' should be refused", bad[i]);
    }
}

/* The link presets; their names, joined from the table for help texts and
 * messages: every row once, in order; a short buffer is cut and the
 * length told. */
static void check_presets(void)
{
    const cv_link *nv = cv_link_find("nvlink4");
    EXPECT(nv && near(nv->bw, 450e9), "nvlink4 preset");
    EXPECT(!cv_link_find("nvlink9"), "unknown preset");
    const cv_link *links;
    int n = cv_link_presets(&links);
    char all[512] = "", want[512] = "", cut[8];
    for (int i = 0; i < n; i++) {
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s", i ? "|" : "", links[i].name);
        EXPECT(cv_link_find(links[i].name) == &links[i], "%s found", links[i].name);
    }
    int len = cv_link_names("|", all, sizeof all);
    EXPECT(!strcmp(all, want) && len == (int)strlen(want), "cv_link_names: %s", all);
    EXPECT(cv_link_names("|", cut, sizeof cut) == len && strlen(cut) == sizeof cut - 1 &&
               !strncmp(cut, want, sizeof cut - 1),
           "cv_link_names into a short buffer: %s", cut);
    EXPECT(cv_link_names(", ", NULL, 0) == len + n - 1, "the length with a longer separator");
}

/* The protocols, worked by hand from the wire formats and NCCL's per-hop
 * ring latencies (tuning.cc: NVLink LL 0.6, LL128 1.9, Simple 3.4 us; PCIe
 * 1.0, 2.5, 5.7; network 2.7, 4.0, 14): a ring AllReduce of D bytes on N
 * ranks is 2(N-1) steps of alpha' + (D/N) / B', with B' the bandwidth's
 * data share (1, 120/128, 1/2) and alpha' alpha scaled by the protocol's
 * hop latency over Simple's. Simple is the model as it was. */
static void check_protocols(void)
{
    static const struct {
        const char *link;
        cv_proto proto;
        double share, hop; /* data share, hop latency / Simple's */
    } rows[] = {
        {"nvlink4", CV_PROTO_SIMPLE, 1.0, 1.0},
        {"nvlink4", CV_PROTO_LL, 0.5, 0.6 / 3.4},
        {"nvlink4", CV_PROTO_LL128, 120.0 / 128.0, 1.9 / 3.4},
        {"pcie4", CV_PROTO_LL, 0.5, 1.0 / 5.7},
        {"pcie5", CV_PROTO_LL128, 120.0 / 128.0, 2.5 / 5.7},
        {"ib-ndr", CV_PROTO_LL, 0.5, 2.7 / 14.0},
        {"eth100", CV_PROTO_LL128, 120.0 / 128.0, 4.0 / 14.0},
    };
    const int n = 8;
    const int64_t d = 1 << 20;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const cv_link *l = cv_link_find(rows[i].link);
        cv_spec s;
        cv_spec_init(&s);
        s.ranks = n;
        s.dtype = CV_INT8;
        s.count = d;
        s.proto = rows[i].proto;
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        if (!l || cv_plan_create(&s, &p, err, sizeof err)) {
            EXPECT(0, "%s: no link or plan", rows[i].link);
            continue;
        }
        cv_cost c;
        cv_cost_plan(p, l, &c);
        double want = 2 * (n - 1) * (l->alpha * rows[i].hop + (double)d / n / (l->bw * rows[i].share));
        EXPECT(near(c.seconds, want), "%s %s: %.6g s, by hand %.6g s", rows[i].link,
               cv_proto_name(rows[i].proto), c.seconds, want);
        cv_plan_destroy(p);
    }
    /* Small messages: LL wins on NVLink; large ones: Simple. */
    const cv_link *nv = cv_link_find("nvlink4");
    double t[2][CV_PROTO_COUNT];
    const int64_t sizes[2] = {4096, (int64_t)256 << 20};
    for (int k = 0; k < 2; k++)
        for (int pr = 0; pr < CV_PROTO_COUNT; pr++) {
            cv_spec s;
            cv_spec_init(&s);
            s.ranks = n;
            s.dtype = CV_INT8;
            s.count = sizes[k];
            s.proto = (cv_proto)pr;
            cv_plan *p = NULL;
            char err[CV_ERR_LEN];
            cv_cost c = {0};
            if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK) {
                cv_cost_plan(p, nv, &c);
                cv_plan_destroy(p);
            }
            t[k][pr] = c.seconds;
        }
    EXPECT(t[0][CV_PROTO_LL] < t[0][CV_PROTO_LL128] && t[0][CV_PROTO_LL128] < t[0][CV_PROTO_SIMPLE],
           "4 KiB: LL < LL128 < Simple");
    EXPECT(t[1][CV_PROTO_SIMPLE] < t[1][CV_PROTO_LL128] && t[1][CV_PROTO_LL128] < t[1][CV_PROTO_LL],
           "256 MiB: Simple < LL128 < LL");
    char err[CV_ERR_LEN];
    cv_spec bad;
    cv_spec_init(&bad);
    bad.proto = CV_PROTO_COUNT;
    EXPECT(cv_spec_check(&bad, CV_MAX_RANKS, err, sizeof err) == CV_EINVAL && strstr(err, "--proto"),
           "an unknown protocol is refused: %s", err);
    EXPECT(cv_proto_parse("LL128") == CV_PROTO_LL128 && cv_proto_parse("simple") == CV_PROTO_SIMPLE &&
               cv_proto_parse("ll64") < 0,
           "protocol names parse");
}

/* Hierarchical allreduce with --slices S: the slices follow each other
 * through the four phases one step apart, so a step can keep NVLink and the
 * NICs busy at once and lasts as long as the slower. Worked by hand for 2
 * nodes of 2 ranks, 2 slices of D/2 (steps: intra RS of slice 0; inter RS
 * of 0 beside intra RS of 1; inter AG of 0 and inter RS of 1, one message
 * of D/4 on each NIC; intra AG of 0 beside inter AG of 1; intra AG of 1).
 * On 8 nodes of 8 H100s at 1 GiB the pipeline beats the flat rings the
 * unpipelined hierarchy loses to; at 64 KiB every slice's extra alpha makes
 * it slower. */
/* PAT, NVLS, NVLS-Tree and CollNet have Simple kernels alone in NCCL: a
 * plan asked for LL runs and is priced as Simple, and the registry says so
 * for exactly those rows. */
static void check_simple_only(void)
{
    static const struct {
        cv_op op;
        cv_algo algo;
        int nodes;
    } rows[] = {
        {CV_OP_ALLGATHER, CV_ALGO_PAT, 1},      {CV_OP_REDUCESCATTER, CV_ALGO_PAT, 1},
        {CV_OP_ALLGATHER, CV_ALGO_IN_NETWORK, 1}, {CV_OP_REDUCESCATTER, CV_ALGO_IN_NETWORK, 1},
        {CV_OP_ALLREDUCE, CV_ALGO_IN_NETWORK, 1},
        {CV_OP_ALLREDUCE, CV_ALGO_NVLS_TREE, 2}, {CV_OP_ALLREDUCE, CV_ALGO_COLLNET_DIRECT, 2},
        {CV_OP_ALLREDUCE, CV_ALGO_COLLNET_CHAIN, 2},
    };
    const cv_link *l = cv_link_find("nvlink4");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double t[CV_PROTO_COUNT];
        for (int pr = 0; pr < CV_PROTO_COUNT; pr++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = rows[i].op;
            s.algo = rows[i].algo;
            s.ranks = 8;
            s.nodes = rows[i].nodes;
            s.dtype = CV_INT8;
            s.count = 1 << 20;
            s.proto = (cv_proto)pr;
            cv_plan *p = NULL;
            char err[CV_ERR_LEN];
            cv_cost c = {0};
            EXPECT(cv_plan_create(&s, &p, err, sizeof err) == CV_OK, "%s", err);
            if (!p)
                return;
            EXPECT(p->spec.proto == CV_PROTO_SIMPLE, "%s runs Simple", cv_algo_name(s.algo));
            p->spec.proto = (cv_proto)pr; /* priced as Simple even when set afterwards */
            cv_cost_plan_nodes(p, l, l, &c);
            t[pr] = c.seconds;
            cv_plan_destroy(p);
        }
        EXPECT(t[CV_PROTO_LL] == t[CV_PROTO_SIMPLE] && t[CV_PROTO_LL128] == t[CV_PROTO_SIMPLE],
               "%s %s: %g %g %g", cv_op_name(rows[i].op), cv_algo_name(rows[i].algo),
               t[0], t[1], t[2]);
    }
    int simple_only = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int n = cv_op_algos((cv_op)op, a);
        for (int k = 0; k < n; k++)
            simple_only += cv_algo_proto((cv_op)op, a[k], CV_PROTO_LL) != CV_PROTO_LL;
    }
    EXPECT(simple_only == (int)(sizeof rows / sizeof rows[0]), "%d rows are Simple-only",
           simple_only);
}

static void check_pipelined_hierarchy(void)
{
    const cv_link *nv = cv_link_find("nvlink4"), *ib = cv_link_find("ib-ndr");
    const double d = 1 << 20;
    double intra = nv->alpha + d / 4 / nv->bw, inter = ib->alpha + d / 8 / ib->bw;
    double want = 2 * intra + 2 * fmax(intra, inter) + ib->alpha + d / 4 / ib->bw;
    double t[4];
    int64_t nic[2];
    static const struct {
        cv_algo algo;
        int ranks, nodes, slices;
        int64_t count;
    } rows[4] = {{CV_ALGO_HIERARCHICAL, 4, 2, 2, 1 << 20},
                 {CV_ALGO_HIERARCHICAL, 64, 8, 64, (int64_t)1 << 30},
                 {CV_ALGO_HIERARCHICAL, 64, 8, 1, (int64_t)1 << 30},
                 {CV_ALGO_MULTIRING, 64, 8, 1, (int64_t)1 << 30}};
    for (int i = 0; i < 4; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.algo = rows[i].algo;
        s.ranks = rows[i].ranks;
        s.nodes = rows[i].nodes;
        s.slices = rows[i].slices;
        s.dtype = CV_INT8;
        s.count = rows[i].count;
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        cv_cost c = {0};
        EXPECT(cv_plan_create(&s, &p, err, sizeof err) == CV_OK, "plan: %s", err);
        if (p) {
            cv_cost_plan_nodes(p, nv, ib, &c);
            if (i >= 1 && i <= 2)
                nic[i - 1] = c.max_sent_inter;
            cv_plan_destroy(p);
        }
        t[i] = c.seconds;
    }
    EXPECT(near(t[0], want), "2 nodes x 2, 2 slices: %.6g s, by hand %.6g s", t[0], want);
    EXPECT(t[1] < t[3] && t[3] < t[2], "1 GiB: pipelined %.4g s < flat rings %.4g s < "
           "unpipelined %.4g s", t[1], t[3], t[2]);
    EXPECT(nic[0] == nic[1], "the pipeline sends the same through each NIC: %lld vs %lld",
           (long long)nic[0], (long long)nic[1]);
}

static const test_case cases[] = {
    CASE("examples", check_examples),
    CASE("formulas", check_formulas),
    CASE("alpha-per-step", check_alpha_per_step),
    CASE("root-port", check_root_port),
    CASE("parameter-server", check_parameter_server),
    CASE("one-message-a-pair", check_one_message_a_pair),
    CASE("one-two-shot", check_one_two_shot),
    CASE("two-levels", check_two_levels),
    CASE("sizes", check_sizes),
    CASE("presets", check_presets),
    CASE("protocols", check_protocols),
    CASE("simple-only", check_simple_only),
    CASE("pipelined-hierarchy", check_pipelined_hierarchy),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
