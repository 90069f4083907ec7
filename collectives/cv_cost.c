/*
 * cv_cost.c: the alpha-beta(-gamma) cost model, read off the plan itself.
 *
 * Each rank is modelled with full-duplex ports, one into its node (NVLink,
 * PCIe) and, with several nodes, one out of it (its NIC), each on its own
 * link: in a step a port can send and receive at its link's one-way
 * bandwidth at the same time, one message after another, and the step lasts
 * as long as its slowest port. A switch (in-network reduction) has a port
 * per rank, so the ranks' ports carry its traffic. A message is what one rank sends another in a step (the
 * transfers between the same two ranks in one step are one message), and
 * each pays the start-up latency alpha on its port. So a step costs alpha
 * times the messages through its busiest port (the most any rank sends or
 * receives), plus the bytes through its busiest port (the largest of any
 * rank's sent or received bytes) divided by the bandwidth, plus, when gamma
 * is given, the bytes reduced at the busiest rank divided by gamma. Summing
 * over steps reproduces the textbook formulas (Thakur, Rabenseifner and
 * Gropp 2005) without restating them per algorithm: ring allreduce 2(N-1)
 * steps of alpha + D/N, a pipelined chain broadcast (S+N-2) steps of D/S, a
 * binomial tree log2(N) steps of alpha + D, and a root that sends N-1
 * messages at once through its one port (direct scatter, the parameter
 * server's broadcast) (N-1) alpha, as a linear algorithm pays. A step of
 * loads (one-shot and two-shot AllReduce: a kernel that reads every peer's
 * memory at once over NVLink) pays one alpha a port, however many peers.
 * Local copies cost nothing here: they are memory traffic, not network.
 *
 * cv_cost_model prices a spec without holding its plan: the generator
 * hands it each step as it closes, it keeps what the price reads (every
 * port's messages and bytes, equal ports once) and the transfers go, so
 * `cost`, `show` and the card at 1024 ranks take megabytes, not the 3.7 GB
 * of a 67-million-transfer multi-ring plan. A generator that can sum a
 * step's ports without making its transfers (the multi-ring's rings:
 * cv__plan_ports) hands it those sums instead, so pricing it takes no
 * longer than its ports. Its prices are the whole plan's to the bit
 * (test_cost_model).
 */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "cv_internal.h"

/* The link presets, one row each: one-way bandwidth of one GPU's links, an
 * assumed latency per step, and what the preset stands for. This table is
 * the only list of them: `collviz cost --help`, `collviz show --help`,
 * the flags' error messages, `collviz list` and a lesson's check read it,
 * and test_link_lists checks the README's list against it. A new preset
 * is a row here. */
static const cv_link presets[] = {
    {"nvlink3", 300e9, 2e-6, 0, "NVLink 3 (A100): 12 links x 25 GB/s each way = 300 GB/s; "
                                "the 600 GB/s often quoted counts both directions", CV_HW_NVLINK},
    {"nvlink4", 450e9, 2e-6, 0, "NVLink 4 (H100): 18 links x 25 GB/s each way = 450 GB/s "
                                "(900 GB/s both directions)", CV_HW_NVLINK},
    {"pcie4", 32e9, 3e-6, 0, "PCIe 4.0 x16: 32 GB/s each way (about 26 GB/s measured)", CV_HW_PCI},
    {"pcie5", 64e9, 3e-6, 0, "PCIe 5.0 x16: 64 GB/s each way", CV_HW_PCI},
    {"ib-hdr", 25e9, 5e-6, 0, "InfiniBand HDR: 200 Gb/s = 25 GB/s per port", CV_HW_NET},
    {"ib-ndr", 50e9, 5e-6, 0, "InfiniBand NDR: 400 Gb/s = 50 GB/s per port", CV_HW_NET},
    {"eth100", 12.5e9, 10e-6, 0, "100 Gb Ethernet: 12.5 GB/s per port", CV_HW_NET},
};

/* The protocols, as the model charges them. The share of a line that is
 * data follows from the wire format: Simple's lines are all data, LL128's
 * 128-byte line carries 120 bytes of data and 8 of flags, LL's 8-byte store
 * 4 and 4. Per step, alpha is Simple's latency on the link, and the other
 * protocols pay it in the proportion NCCL's own tuner gives their per-hop
 * ring latencies (src/graph/tuning.cc, hwLatencies, in microseconds:
 * NVLink LL 0.6, LL128 1.9, Simple 3.4; PCIe 1.0, 2.5, 5.7; network 2.7,
 * 4.0, 14). NCCL's tuner also caps LL and LL128 per channel and adds a
 * base latency per call, which this model leaves out. */
static const double proto_share[CV_PROTO_COUNT] = {1.0, 120.0 / 128.0, 0.5};
static const double hop_us[3][CV_PROTO_COUNT] = {
    /* Simple, LL128, LL */
    {3.4, 1.9, 0.6},  /* NVLink */
    {5.7, 2.5, 1.0},  /* PCIe */
    {14.0, 4.0, 2.7}, /* network */
};

double cv_proto_data_share(cv_proto proto)
{
    return (unsigned)proto < CV_PROTO_COUNT ? proto_share[proto] : 1.0;
}

double cv_proto_latency_share(cv_proto proto, const cv_link *link)
{
    int hw = link && (unsigned)link->hw <= CV_HW_NET ? (int)link->hw : CV_HW_NVLINK;
    return (unsigned)proto < CV_PROTO_COUNT ? hop_us[hw][proto] / hop_us[hw][CV_PROTO_SIMPLE] : 1.0;
}

int cv_link_presets(const cv_link **out)
{
    *out = presets;
    return (int)(sizeof presets / sizeof presets[0]);
}

const cv_link *cv_link_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof presets / sizeof presets[0]; i++)
        if (strcasecmp(name, presets[i].name) == 0)
            return &presets[i];
    return NULL;
}

int cv_link_names(const char *sep, char *out, size_t len)
{
    size_t used = 0;
    if (len)
        out[0] = '\0';
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        const char *before = i ? sep : "";
        int n = used < len ? snprintf(out + used, len - used, "%s%s", before, presets[i].name)
                           : snprintf(NULL, 0, "%s%s", before, presets[i].name);
        used += (size_t)(n > 0 ? n : 0);
    }
    return (int)used;
}

/* Each rank has two ports: one into its node (NVLink, PCIe; index 0) and
 * one out of it (its NIC; index 1). Counters per port for one step, reused
 * across steps. */
enum { INTRA, INTER };

typedef struct {
    int64_t *sent[2], *recvd[2]; /* bytes */
    int64_t *nout[2], *nin[2];   /* transfers, then messages */
    int64_t *reduced;            /* bytes reduced at each rank */
    int64_t *pairs;              /* (src, dst) of a step's transfers, for sorting */
    int64_t cap_pairs;
    int n;
} port_counts;

static int pair_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Counts distinct peers per rank and port (messages out in nout, in in
 * nin) where some port has more than one transfer: sorted pairs, counted
 * once each. */
static void count_messages(const cv_plan *p, const cv_step *st, port_counts *pc)
{
    int64_t np = 0;
    if (st->count > pc->cap_pairs) {
        free(pc->pairs);
        pc->cap_pairs = st->count;
        pc->pairs = cv__xmalloc((size_t)pc->cap_pairs * sizeof *pc->pairs);
    }
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *t = &p->transfers[st->first + i];
        if (t->src != t->dst)
            pc->pairs[np++] = (int64_t)t->src * pc->n + t->dst;
    }
    for (int l = 0; l < 2; l++) {
        memset(pc->nout[l], 0, (size_t)pc->n * sizeof *pc->nout[l]);
        memset(pc->nin[l], 0, (size_t)pc->n * sizeof *pc->nin[l]);
    }
    qsort(pc->pairs, (size_t)np, sizeof *pc->pairs, pair_cmp);
    for (int64_t i = 0; i < np; i++)
        if (i == 0 || pc->pairs[i] != pc->pairs[i - 1]) {
            int src = (int)(pc->pairs[i] / pc->n), dst = (int)(pc->pairs[i] % pc->n);
            int l = cv_plan_node_of(p, src) != cv_plan_node_of(p, dst);
            pc->nout[l][src]++;
            pc->nin[l][dst]++;
        }
}

/* One step: the time of its slowest port, alpha per message plus bytes over
 * bandwidth, each port on its own link, plus the reduction at gamma. */
static double step_cost(const cv_plan *p, int k, const cv_link *link[2], port_counts *pc,
                        int64_t *busiest_out, int64_t *messages_out)
{
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype), busiest = 0, reduced = 0, msgs = 0;
    const cv_step *st = &p->steps[k];
    for (int l = 0; l < 2; l++) {
        memset(pc->sent[l], 0, (size_t)pc->n * sizeof *pc->sent[l]);
        memset(pc->recvd[l], 0, (size_t)pc->n * sizeof *pc->recvd[l]);
        memset(pc->nout[l], 0, (size_t)pc->n * sizeof *pc->nout[l]);
        memset(pc->nin[l], 0, (size_t)pc->n * sizeof *pc->nin[l]);
    }
    memset(pc->reduced, 0, (size_t)pc->n * sizeof *pc->reduced);
    bool several = false; /* some port has more than one transfer */
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *t = &p->transfers[st->first + i];
        int64_t bytes = t->count * esz;
        if (t->src != t->dst) {
            int l = cv_plan_node_of(p, t->src) != cv_plan_node_of(p, t->dst);
            pc->sent[l][t->src] += bytes;
            pc->recvd[l][t->dst] += bytes;
            several |= ++pc->nout[l][t->src] > 1;
            several |= ++pc->nin[l][t->dst] > 1;
        }
        if (t->kind != CV_XFER_COPY)
            pc->reduced[t->dst] += bytes;
    }
    if (several) /* transfers between the same two ranks are one message */
        count_messages(p, st, pc);
    double sec = 0;
    /* PAT, NVLS and CollNet have Simple kernels alone: priced as such. */
    cv_proto proto = cv_algo_proto(p->spec.op, p->spec.algo, p->spec.proto);
    /* A switch has a port per rank it connects: the ranks' ports carry its
     * traffic, its own sums of them do not bound anything. */
    for (int r = 0; r < p->spec.ranks; r++) {
        for (int l = 0; l < 2; l++) {
            int64_t port = pc->sent[l][r] > pc->recvd[l][r] ? pc->sent[l][r] : pc->recvd[l][r];
            int64_t m = pc->nout[l][r] > pc->nin[l][r] ? pc->nout[l][r] : pc->nin[l][r];
            if (st->loads && m > 1) /* loads from every peer at once: one start-up */
                m = 1;
            busiest = port > busiest ? port : busiest;
            if (port <= 0)
                continue;
            double t = link[l]->alpha * cv_proto_latency_share(proto, link[l]) * (double)m +
                       (double)port / (link[l]->bw * cv_proto_data_share(proto));
            if (t > sec) { /* the slowest port sets the step's time */
                sec = t;
                msgs = m;
            }
        }
        reduced = pc->reduced[r] > reduced ? pc->reduced[r] : reduced;
    }
    if (busiest_out)
        *busiest_out = busiest;
    if (messages_out)
        *messages_out = busiest > 0 ? msgs : 0;
    if (link[INTRA]->gamma > 0)
        sec += (double)reduced / link[INTRA]->gamma;
    return sec;
}

static void counts_init(port_counts *pc, int n)
{
    memset(pc, 0, sizeof *pc);
    pc->n = n;
    for (int l = 0; l < 2; l++) {
        pc->sent[l] = cv__xcalloc((size_t)n, sizeof *pc->sent[l]);
        pc->recvd[l] = cv__xcalloc((size_t)n, sizeof *pc->recvd[l]);
        pc->nout[l] = cv__xcalloc((size_t)n, sizeof *pc->nout[l]);
        pc->nin[l] = cv__xcalloc((size_t)n, sizeof *pc->nin[l]);
    }
    pc->reduced = cv__xcalloc((size_t)n, sizeof *pc->reduced);
}

static void counts_free(port_counts *pc)
{
    for (int l = 0; l < 2; l++) {
        free(pc->sent[l]);
        free(pc->recvd[l]);
        free(pc->nout[l]);
        free(pc->nin[l]);
    }
    free(pc->reduced);
    free(pc->pairs);
}

double cv_cost_step_nodes(const cv_plan *p, int k, const cv_link *intra, const cv_link *inter,
                          int64_t *busiest)
{
    if (k < 0 || k >= p->nsteps) {
        if (busiest)
            *busiest = 0;
        return 0;
    }
    const cv_link *link[2] = {intra, inter ? inter : intra};
    port_counts pc;
    counts_init(&pc, cv_plan_parts(p));
    double sec = step_cost(p, k, link, &pc, busiest, NULL);
    counts_free(&pc);
    return sec;
}

double cv_cost_step(const cv_plan *p, int k, const cv_link *l, int64_t *busiest)
{
    return cv_cost_step_nodes(p, k, l, l, busiest);
}

void cv_cost_plan_nodes(const cv_plan *p, const cv_link *intra, const cv_link *inter,
                        cv_cost *out)
{
    memset(out, 0, sizeof *out);
    const cv_link *link[2] = {intra, inter ? inter : intra};
    int n = p->spec.ranks;
    port_counts pc;
    counts_init(&pc, cv_plan_parts(p));
    int64_t *total_sent = cv__xcalloc((size_t)n, sizeof *total_sent);
    int64_t *total_inter = cv__xcalloc((size_t)n, sizeof *total_inter);
    for (int k = 0; k < p->nsteps; k++) {
        int64_t busiest = 0, msgs = 0;
        out->seconds += step_cost(p, k, link, &pc, &busiest, &msgs);
        out->busiest_total += busiest;
        out->alphas += msgs;
        out->comm_steps += busiest > 0;
        bool crosses = false;
        for (int r = 0; r < n; r++) {
            total_sent[r] += pc.sent[INTRA][r] + pc.sent[INTER][r];
            total_inter[r] += pc.sent[INTER][r];
            crosses |= pc.sent[INTER][r] > 0 || pc.recvd[INTER][r] > 0;
        }
        out->inter_rounds += crosses;
    }
    for (int r = 0; r < n; r++) {
        out->max_sent = total_sent[r] > out->max_sent ? total_sent[r] : out->max_sent;
        out->max_sent_inter =
            total_inter[r] > out->max_sent_inter ? total_inter[r] : out->max_sent_inter;
    }
    out->steps = p->nrounds;
    if (out->seconds > 0) {
        out->algbw = (double)cv_spec_bench_bytes(&p->spec) / out->seconds;
        out->busbw = out->algbw * cv_spec_busbw_factor(&p->spec);
    }
    free(total_sent);
    free(total_inter);
    counts_free(&pc);
}

void cv_cost_plan(const cv_plan *p, const cv_link *l, cv_cost *out)
{
    cv_cost_plan_nodes(p, l, l, out);
}

/* ----------------------------------------------------------- the model */

/* What pricing needs of one step, kept once the step's transfers are gone:
 * the ports that can be its slowest, each as (link, messages, bytes) with
 * the place the per-port walk above would meet it first (rank * 2 + link),
 * so a tie goes the same way; the busiest port's bytes and the most bytes
 * one rank reduces. Equal ports are kept once: a ring step is one. */
typedef struct {
    int64_t m, bytes;
    int32_t order;
    int32_t level;
} port_tuple;

typedef struct {
    int64_t first, count; /* into model->tuples */
    int64_t busiest, reduced;
} step_sum;

struct cv_cost_model {
    cv_plan *plan; /* the spec and the steps; their transfers are gone */
    step_sum *sums;
    int cap_sums;
    port_tuple *tuples;
    int64_t ntuples, cap_tuples;
    port_counts pc;
    cv__ports view; /* pc's arrays, for a generator that sums its steps (cv__plan_ports) */
    int64_t *total_sent, *total_inter; /* per rank, over the steps so far */
    int inter_rounds;
    int64_t *set, cap_set; /* a step's (src, dst) pairs, each once: see model_messages */
    int64_t *used;         /* the slots of set a step filled */
    int *last;             /* each sender's last peer in the step */
    int *node;             /* cv_plan_node_of each participant, once the generator set nswitch */
    int64_t avail;         /* the memory it may take (cv_memory_available) */
    int64_t most;          /* the most transfers a step had */
    bool over;             /* some step's would not fit in avail: none of its were kept */
    int64_t most_scratch;  /* the most the generator held besides (cv__ports' scratch) */
};

/* Bytes a transfer held while its step is priced: itself, and its slots in
 * model_messages' set (twice the step's transfers, rounded up to a power
 * of two, a key and a used slot each). */
#define HELD_PER_TRANSFER ((int64_t)sizeof(cv_transfer) + 64)

/* What the model holds now, less the open step's transfers and set. */
static int64_t model_held(const cv_cost_model *m, const cv_plan *p)
{
    int64_t n = m->pc.n, r = p->spec.ranks;
    return (int64_t)sizeof *m + 9 * n * 8 + 2 * r * 8 + 2 * n * (int64_t)sizeof(int) +
           (int64_t)m->cap_sums * (int64_t)sizeof(step_sum) +
           m->cap_tuples * (int64_t)sizeof(port_tuple) +
           (int64_t)p->cap_steps_ * (int64_t)sizeof(cv_step) + m->most_scratch;
}

/* count_messages without its sort, which took most of the time of a step
 * of thousands of transfers: each (src, dst) pair is counted the first
 * time it is met, in an open-addressed set emptied slot by slot after the
 * step; a transfer to the same peer as its sender's last one (a ring's
 * channels all pass to the next rank) is known without the set. The same
 * counts. */
static void model_messages(cv_cost_model *m, const cv_plan *p, const cv_step *st)
{
    port_counts *pc = &m->pc;
    if (2 * st->count > m->cap_set) {
        int64_t size = m->cap_set ? m->cap_set : 64;
        while (size < 2 * st->count)
            size *= 2;
        free(m->set);
        free(m->used);
        m->cap_set = size;
        m->set = cv__xmalloc((size_t)size * sizeof *m->set);
        m->used = cv__xmalloc((size_t)size * sizeof *m->used);
        for (int64_t i = 0; i < size; i++)
            m->set[i] = -1;
    }
    if (!m->last)
        m->last = cv__xmalloc((size_t)pc->n * sizeof *m->last);
    for (int i = 0; i < pc->n; i++)
        m->last[i] = -1;
    for (int l = 0; l < 2; l++) {
        memset(pc->nout[l], 0, (size_t)pc->n * sizeof *pc->nout[l]);
        memset(pc->nin[l], 0, (size_t)pc->n * sizeof *pc->nin[l]);
    }
    uint64_t mask = (uint64_t)m->cap_set - 1;
    int64_t nused = 0;
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *t = &p->transfers[st->first + i];
        if (t->src == t->dst || m->last[t->src] == t->dst)
            continue;
        m->last[t->src] = t->dst;
        int64_t key = (int64_t)t->src * pc->n + t->dst;
        uint64_t h = ((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 20;
        for (;; h++) {
            int64_t *slot = &m->set[h & mask];
            if (*slot == key)
                break;
            if (*slot < 0) {
                *slot = key;
                m->used[nused++] = (int64_t)(h & mask);
                int l = m->node[t->src] != m->node[t->dst];
                pc->nout[l][t->src]++;
                pc->nin[l][t->dst]++;
                break;
            }
        }
    }
    for (int64_t i = 0; i < nused; i++)
        m->set[m->used[i]] = -1;
}

static void add_tuple(cv_cost_model *m, int64_t first, int level, int64_t msgs, int64_t bytes,
                      int order, int64_t *recent)
{
    /* a few recent ones checked: not every duplicate need go, most do */
    unsigned h = (unsigned)((uint64_t)(msgs * 31 + bytes * 7 + level) % 64);
    int64_t j = recent[h];
    if (j >= first && m->tuples[j].level == level && m->tuples[j].m == msgs &&
        m->tuples[j].bytes == bytes)
        return;
    if (m->ntuples == m->cap_tuples) {
        m->cap_tuples = m->cap_tuples ? m->cap_tuples * 2 : 256;
        m->tuples = cv__xrealloc(m->tuples, (size_t)m->cap_tuples * sizeof *m->tuples);
    }
    m->tuples[m->ntuples] = (port_tuple){msgs, bytes, order, level};
    recent[h] = m->ntuples++;
}

/* One step closed by the generator, its transfers still there: the same
 * counts as step_cost, kept as a step_sum. */
static void model_step(const cv_plan *p, const cv_step *st, void *ctx)
{
    cv_cost_model *m = ctx;
    port_counts *pc = &m->pc;
    int k = (int)(st - p->steps);
    int64_t want = st->count + m->view.lost; /* the step's transfers, kept or not */
    m->most = want > m->most ? want : m->most;
    m->over |= m->view.lost > 0;
    m->view.lost = 0;
    m->most_scratch = m->view.scratch > m->most_scratch ? m->view.scratch : m->most_scratch;
    if (m->over) /* refused at the end: nothing more is priced */
        return;
    if (k >= m->cap_sums) {
        m->cap_sums = m->cap_sums ? m->cap_sums * 2 : 64;
        m->sums = cv__xrealloc(m->sums, (size_t)m->cap_sums * sizeof *m->sums);
    }
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype);
    if (!m->node) { /* generators set their switches before their first step */
        m->node = cv__xmalloc((size_t)pc->n * sizeof *m->node);
        for (int i = 0; i < pc->n; i++)
            m->node[i] = i < cv_plan_parts(p) ? cv_plan_node_of(p, i) : -2;
    }
    if (!m->view.given) { /* transfers: summed here (else the generator summed them) */
        for (int l = 0; l < 2; l++) {
            memset(pc->sent[l], 0, (size_t)pc->n * sizeof *pc->sent[l]);
            memset(pc->recvd[l], 0, (size_t)pc->n * sizeof *pc->recvd[l]);
            memset(pc->nout[l], 0, (size_t)pc->n * sizeof *pc->nout[l]);
            memset(pc->nin[l], 0, (size_t)pc->n * sizeof *pc->nin[l]);
        }
        memset(pc->reduced, 0, (size_t)pc->n * sizeof *pc->reduced);
        bool several = false;
        for (int64_t i = 0; i < st->count; i++) {
            const cv_transfer *t = &p->transfers[st->first + i];
            int64_t bytes = t->count * esz;
            if (t->src != t->dst) {
                int l = m->node[t->src] != m->node[t->dst];
                pc->sent[l][t->src] += bytes;
                pc->recvd[l][t->dst] += bytes;
                several |= ++pc->nout[l][t->src] > 1;
                several |= ++pc->nin[l][t->dst] > 1;
            }
            if (t->kind != CV_XFER_COPY)
                pc->reduced[t->dst] += bytes;
        }
        if (several) /* transfers between the same two ranks are one message */
            model_messages(m, p, st);
    }
    step_sum *s = &m->sums[k];
    *s = (step_sum){m->ntuples, 0, 0, 0};
    int64_t recent[64];
    for (int h = 0; h < 64; h++)
        recent[h] = -1;
    bool crosses = false;
    for (int r = 0; r < p->spec.ranks; r++) {
        for (int l = 0; l < 2; l++) {
            int64_t port = pc->sent[l][r] > pc->recvd[l][r] ? pc->sent[l][r] : pc->recvd[l][r];
            int64_t msgs = pc->nout[l][r] > pc->nin[l][r] ? pc->nout[l][r] : pc->nin[l][r];
            if (st->loads && msgs > 1)
                msgs = 1;
            s->busiest = port > s->busiest ? port : s->busiest;
            if (port > 0)
                add_tuple(m, s->first, l, msgs, port, r * 2 + l, recent);
        }
        s->reduced = pc->reduced[r] > s->reduced ? pc->reduced[r] : s->reduced;
        m->total_sent[r] += pc->sent[INTRA][r] + pc->sent[INTER][r];
        m->total_inter[r] += pc->sent[INTER][r];
        crosses |= pc->sent[INTER][r] > 0 || pc->recvd[INTER][r] > 0;
    }
    s->count = m->ntuples - s->first;
    m->inter_rounds += crosses;
    /* what the next step's transfers may take */
    int64_t left = m->avail - model_held(m, p);
    m->over |= left < 0;
    m->view.max_transfers = left / HELD_PER_TRANSFER > 1 ? left / HELD_PER_TRANSFER : 1;
}

void cv_cost_model_destroy(cv_cost_model *m)
{
    if (!m)
        return;
    cv_plan_destroy(m->plan);
    free(m->sums);
    free(m->tuples);
    free(m->total_sent);
    free(m->total_inter);
    free(m->set);
    free(m->used);
    free(m->last);
    free(m->node);
    counts_free(&m->pc);
    free(m);
}

int cv_cost_model_create(const cv_spec *spec, cv_cost_model **out, char *err, size_t errlen)
{
    *out = NULL;
    int rc = cv_spec_check(spec, CV_MAX_RANKS, err, errlen);
    if (rc)
        return rc;
    cv_cost_model *m = cv__xcalloc(1, sizeof *m);
    /* participants: the ranks and the switches, at most one a node besides
     * the network's */
    counts_init(&m->pc, spec->ranks + cv_spec_nodes(spec) + 1);
    m->total_sent = cv__xcalloc((size_t)spec->ranks, sizeof *m->total_sent);
    m->total_inter = cv__xcalloc((size_t)spec->ranks, sizeof *m->total_inter);
    m->view = (cv__ports){m->pc.n,
                          {m->pc.sent[0], m->pc.sent[1]},
                          {m->pc.recvd[0], m->pc.recvd[1]},
                          {m->pc.nout[0], m->pc.nout[1]},
                          {m->pc.nin[0], m->pc.nin[1]},
                          m->pc.reduced,
                          false,
                          0,
                          0,
                          0};
    /* the memory it may take: a 1024-rank plan priced a step at a time
     * holds its largest step (a million transfers for one-shot) */
    m->avail = cv_memory_available(NULL, 0);
    cv_plan fixed = {.spec = *spec};
    int64_t left = m->avail - model_held(m, &fixed);
    m->view.max_transfers = left / HELD_PER_TRANSFER > 1 ? left / HELD_PER_TRANSFER : 1;
    rc = cv__plan_create_ported(spec, model_step, m, &m->view, &m->plan, err, errlen);
    if (!rc && (m->over || left < 0)) {
        char what[160];
        snprintf(what, sizeof what, "pricing %s %s at %d ranks", cv_op_name(spec->op),
                 cv_algo_name(spec->algo), spec->ranks);
        int64_t need = model_held(m, m->plan) + m->most * HELD_PER_TRANSFER;
        rc = cv_memory_check(need, what, "lower --ranks", err, errlen);
        if (rc == CV_OK) { /* memory came free meanwhile: the steps are gone all the same */
            cv__fail(err, errlen,
                     "%s needed more than the %.1f MiB available when it began; memory has come "
                     "free since: run it again, or lower --ranks",
                     what, (double)m->avail / (1 << 20));
            rc = CV_ENOMEM;
        }
    }
    if (rc) {
        cv_cost_model_destroy(m);
        return rc;
    }
    *out = m;
    return CV_OK;
}

const cv_plan *cv_cost_model_plan(const cv_cost_model *m) { return m->plan; }

/* Step k's time: its slowest port, the first met where two are as slow. */
static double model_step_cost(const cv_cost_model *m, int k, cv_proto proto,
                              const cv_link *link[2], int64_t *messages_out)
{
    const step_sum *s = &m->sums[k];
    double sec = 0;
    int64_t msgs = 0;
    /* PAT, NVLS and CollNet have Simple kernels alone: priced as such. */
    proto = cv_algo_proto(m->plan->spec.op, m->plan->spec.algo, proto);
    for (int64_t i = 0; i < s->count; i++) {
        const port_tuple *q = &m->tuples[s->first + i];
        const cv_link *ln = link[q->level];
        double t = ln->alpha * cv_proto_latency_share(proto, ln) * (double)q->m +
                   (double)q->bytes / (ln->bw * cv_proto_data_share(proto));
        if (t > sec) {
            sec = t;
            msgs = q->m;
        }
    }
    if (messages_out)
        *messages_out = s->busiest > 0 ? msgs : 0;
    if (link[INTRA]->gamma > 0)
        sec += (double)s->reduced / link[INTRA]->gamma;
    return sec;
}

double cv_cost_model_step(const cv_cost_model *m, int k, const cv_link *intra,
                          const cv_link *inter, int64_t *busiest)
{
    if (k < 0 || k >= m->plan->nsteps) {
        if (busiest)
            *busiest = 0;
        return 0;
    }
    const cv_link *link[2] = {intra, inter ? inter : intra};
    if (busiest)
        *busiest = m->sums[k].busiest;
    return model_step_cost(m, k, m->plan->spec.proto, link, NULL);
}

void cv_cost_model_price(const cv_cost_model *m, cv_proto proto, const cv_link *intra,
                         const cv_link *inter, cv_cost *out)
{
    memset(out, 0, sizeof *out);
    const cv_plan *p = m->plan;
    const cv_link *link[2] = {intra, inter ? inter : intra};
    for (int k = 0; k < p->nsteps; k++) {
        int64_t msgs = 0;
        out->seconds += model_step_cost(m, k, proto, link, &msgs);
        out->busiest_total += m->sums[k].busiest;
        out->alphas += msgs;
        out->comm_steps += m->sums[k].busiest > 0;
    }
    out->inter_rounds = m->inter_rounds;
    for (int r = 0; r < p->spec.ranks; r++) {
        out->max_sent = m->total_sent[r] > out->max_sent ? m->total_sent[r] : out->max_sent;
        out->max_sent_inter =
            m->total_inter[r] > out->max_sent_inter ? m->total_inter[r] : out->max_sent_inter;
    }
    out->steps = p->nrounds;
    if (out->seconds > 0) {
        out->algbw = (double)cv_spec_bench_bytes(&p->spec) / out->seconds;
        out->busbw = out->algbw * cv_spec_busbw_factor(&p->spec);
    }
}
