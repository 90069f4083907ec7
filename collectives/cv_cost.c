/*
 * cv_cost.c: the alpha-beta(-gamma) cost model, read off the plan itself.
 *
 * Each rank is modelled with one full-duplex port: in a step it can send
 * and receive at the link's one-way bandwidth at the same time. A step that
 * moves bytes between ranks costs alpha (latency) plus the bytes through
 * its busiest port (the largest of any rank's sent or received bytes)
 * divided by the bandwidth, plus, when gamma is given, the bytes reduced at
 * the busiest rank divided by gamma. Summing over steps reproduces the
 * textbook formulas (Thakur, Rabenseifner and Gropp 2005) without restating
 * them per algorithm: ring allreduce 2(N-1) steps of D/N bytes, a pipelined
 * chain broadcast (S+N-2) steps of D/S, a binomial tree log2(N) steps of D.
 * Local copies cost nothing here: they are memory traffic, not network.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "cv_internal.h"

/* One-way bandwidth of one GPU's links, and an assumed latency per step. */
static const cv_link presets[] = {
    {"nvlink3", 300e9, 2e-6, 0, "NVLink 3 (A100): 12 links x 25 GB/s each way = 300 GB/s; "
                                "the 600 GB/s often quoted counts both directions"},
    {"nvlink4", 450e9, 2e-6, 0, "NVLink 4 (H100): 18 links x 25 GB/s each way = 450 GB/s "
                                "(900 GB/s both directions)"},
    {"pcie4", 32e9, 3e-6, 0, "PCIe 4.0 x16: 32 GB/s each way (about 26 GB/s measured)"},
    {"pcie5", 64e9, 3e-6, 0, "PCIe 5.0 x16: 64 GB/s each way"},
    {"ib-hdr", 25e9, 5e-6, 0, "InfiniBand HDR: 200 Gb/s = 25 GB/s per port"},
    {"ib-ndr", 50e9, 5e-6, 0, "InfiniBand NDR: 400 Gb/s = 50 GB/s per port"},
    {"eth100", 12.5e9, 10e-6, 0, "100 Gb Ethernet: 12.5 GB/s per port"},
};

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

/* Per-rank byte counters for one step, reused across steps. */
typedef struct {
    int64_t *sent, *recvd, *reduced;
    int n;
} port_counts;

static double step_cost(const cv_plan *p, int k, const cv_link *l, port_counts *pc,
                        int64_t *busiest_out)
{
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype), busiest = 0, reduced = 0;
    const cv_step *st = &p->steps[k];
    memset(pc->sent, 0, (size_t)pc->n * sizeof *pc->sent);
    memset(pc->recvd, 0, (size_t)pc->n * sizeof *pc->recvd);
    memset(pc->reduced, 0, (size_t)pc->n * sizeof *pc->reduced);
    for (int64_t i = 0; i < st->count; i++) {
        const cv_transfer *t = &p->transfers[st->first + i];
        int64_t bytes = t->count * esz;
        if (t->src != t->dst) {
            pc->sent[t->src] += bytes;
            pc->recvd[t->dst] += bytes;
        }
        if (t->kind != CV_XFER_COPY)
            pc->reduced[t->dst] += bytes;
    }
    for (int r = 0; r < pc->n; r++) {
        int64_t port = pc->sent[r] > pc->recvd[r] ? pc->sent[r] : pc->recvd[r];
        busiest = port > busiest ? port : busiest;
        reduced = pc->reduced[r] > reduced ? pc->reduced[r] : reduced;
    }
    if (busiest_out)
        *busiest_out = busiest;
    double sec = 0;
    if (busiest > 0)
        sec += l->alpha + (double)busiest / l->bw;
    if (l->gamma > 0)
        sec += (double)reduced / l->gamma;
    return sec;
}

static void counts_init(port_counts *pc, int n)
{
    pc->n = n;
    pc->sent = cv__xcalloc((size_t)n, sizeof *pc->sent);
    pc->recvd = cv__xcalloc((size_t)n, sizeof *pc->recvd);
    pc->reduced = cv__xcalloc((size_t)n, sizeof *pc->reduced);
}

static void counts_free(port_counts *pc)
{
    free(pc->sent);
    free(pc->recvd);
    free(pc->reduced);
}

double cv_cost_step(const cv_plan *p, int k, const cv_link *l, int64_t *busiest)
{
    if (k < 0 || k >= p->nsteps) {
        if (busiest)
            *busiest = 0;
        return 0;
    }
    port_counts pc;
    counts_init(&pc, p->spec.ranks);
    double sec = step_cost(p, k, l, &pc, busiest);
    counts_free(&pc);
    return sec;
}

void cv_cost_plan(const cv_plan *p, const cv_link *l, cv_cost *out)
{
    memset(out, 0, sizeof *out);
    port_counts pc;
    counts_init(&pc, p->spec.ranks);
    int64_t *total_sent = cv__xcalloc((size_t)p->spec.ranks, sizeof *total_sent);
    for (int k = 0; k < p->nsteps; k++) {
        int64_t busiest = 0;
        out->seconds += step_cost(p, k, l, &pc, &busiest);
        out->busiest_total += busiest;
        out->comm_steps += busiest > 0;
        for (int r = 0; r < p->spec.ranks; r++)
            total_sent[r] += pc.sent[r];
    }
    for (int r = 0; r < p->spec.ranks; r++)
        out->max_sent = total_sent[r] > out->max_sent ? total_sent[r] : out->max_sent;
    out->steps = p->nrounds;
    if (out->seconds > 0) {
        out->algbw = (double)cv_spec_bench_bytes(&p->spec) / out->seconds;
        out->busbw = out->algbw * cv_spec_busbw_factor(&p->spec);
    }
    free(total_sent);
    counts_free(&pc);
}

int cv_parse_size(const char *s, int64_t *bytes)
{
    if (!s || !*s)
        return CV_EINVAL;
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return CV_EINVAL;
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {
        {"", 1},         {"b", 1},           {"k", 1024.0},      {"m", 1048576.0},
        {"g", 1073741824.0}, {"t", 1099511627776.0}, {"kib", 1024.0}, {"mib", 1048576.0},
        {"gib", 1073741824.0}, {"tib", 1099511627776.0}, {"kb", 1e3}, {"mb", 1e6},
        {"gb", 1e9},     {"tb", 1e12},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].suffix) != 0)
            continue;
        /* "kb" is 1000 but "k" is 1024 (nccl-tests' convention); case
         * decides nothing, so "KB" and "kB" agree. */
        double b = v * units[i].mult, whole = nearbyint(b);
        if (b > 9.0e18 || fabs(b - whole) > 1e-9 * b + 1e-9) /* no fractional bytes */
            return CV_EINVAL;
        *bytes = (int64_t)whole;
        return CV_OK;
    }
    return CV_EINVAL;
}
