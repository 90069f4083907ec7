/*
 * ncclog_tuner.c: NCCL's tuner, modelled. Where ncclog_tune.c reads the
 * tuning table an NCCL log printed, this file computes that table for a
 * system described by a few numbers (a preset: 8 x H100 on NVSwitch, 2-16
 * nodes of them over InfiniBand, a PCIe box), so `collviz cost --nccl`
 * can say which algorithm and protocol NCCL would pick at each size, and
 * why, without a cluster.
 *
 * Two parts, of different certainty:
 *  - The graphs (channels and GB/s per channel for Ring, Tree, NVLS) are
 *    what NCCL's topology search would find, reduced to its main rules
 *    (src/graph/search.cc): the fastest speed step whose channels fit the
 *    GPU's NVLink, PCIe or NIC bandwidth, channels doubled where the speed
 *    allows, NVLS one channel per GPU. A real system's search also sees
 *    its PCIe tree, NUMA and NIC placement, so these are assumptions, and
 *    `cost --nccl` prints them as such.
 *  - The table from the graphs follows ncclTopoTuneModel (NCCL 2.29-2.30,
 *    src/graph/tuning.cc) term by term: base and per-hop latencies by
 *    link kind, the per-channel caps by GPU generation, the LL, LL128,
 *    Tree and PAT factors, NVLS's efficiency, and bus bandwidth turned into
 *    algorithm bandwidth. Given a real log's graphs it gives the log's
 *    table (tests/test_ncclog_tuner.c checks one to the printed decimal).
 * The choice per size is then ncclog_choices_of, as for a log's table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ncclog_internal.h"

enum { T_TREE, T_RING, T_CND, T_CNC, T_NVLS, T_NVLST, T_PAT };
enum { P_LL, P_LL128, P_SIMPLE };
enum { C_BCAST, C_REDUCE, C_AG, C_RS, C_AR };
enum { HW_NVLINK, HW_PCI, HW_NET };

/* NCCL's constants (tuning.cc, 2.29-2.30): [algo][proto] in us. */
static const double base_lat[NCCLOG_ALGOS][NCCLOG_PROTOS] = {
    {6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0}};
static const double hw_lat[3][NCCLOG_ALGOS][NCCLOG_PROTOS] = {
    /* NVLink */
    {{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {0, 0, 4.0}},
    /* PCIe */
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
    /* network */
    {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 14}},
};
/* [generation: Volta, Ampere, Hopper, Blackwell][nodes: 1, 2, more] */
static const double ll_max_bw[4][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
static const double ring_ll128_ch[4] = {20.0, 20.0, 36.7, 40.0};
static const double tree_ll128_ch[4][3] = {
    {20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
static const double tree_ch[4][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
static const double nvls_tree_ch[4][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
static const double nvls_efficiency[4] = {0, 0, .85, .74};

/* NCCL's speed steps for its search (GB/s per channel). */
static const double speeds_intra[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
static const double speeds_intra_sm90[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
static const double speeds_inter[] = {48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4,
                                      1.2, 0.24, 0.12};
static const double speeds_inter_sm90[] = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4,
                                           1.2, 0.24, 0.12};
#define NSP(a) (int)(sizeof(a) / sizeof(a[0]))
#define SEARCH_MAX_CHANNELS 16 /* MAXCHANNELS / 2: what one search may find */

static const ncclog_system presets[] = {
    {"a100-8", "8 x A100 SXM on NVSwitch (NVLink 3: 12 links x 20 GB/s as NCCL counts them), 8 HDR NICs", 80, 8, 1, 240.0,
     true, true, false, 8, 25.0, false},
    {"h100-8", "8 x H100 SXM on NVSwitch (NVLink 4: 18 links x 20.6 GB/s as NCCL counts them) with NVLS, 8 NDR NICs", 90, 8,
     1, 370.8, true, true, true, 8, 50.0, false},
    {"h100-8-nonvls", "the same 8 x H100 with NCCL_NVLS_ENABLE=0", 90, 8, 1, 370.8, true, true, false, 8,
     50.0, false},
    {"h100-8-roce", "8 x H100 SXM on NVSwitch with NVLS, 8 RoCE 400 Gb/s NICs, AMD CPUs", 90, 8, 1, 370.8,
     true, true, true, 8, 50.0, true},
    {"a100-8-roce", "8 x A100 SXM on NVSwitch, 8 RoCE 200 Gb/s NICs, AMD CPUs", 80, 8, 1, 240.0, true,
     true, false, 8, 25.0, true},
    {"pcie-8", "8 GPUs of compute capability 8.9 on PCIe 4.0 x16 (24 GB/s), no NVLink, 2 NICs of 100 "
               "Gb/s",
     89, 8, 1, 24.0, false, false, false, 2, 12.5, false},
};

int ncclog_system_presets(const ncclog_system **out)
{
    *out = presets;
    return (int)(sizeof presets / sizeof presets[0]);
}

const ncclog_system *ncclog_system_find(const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

const char *const *ncclog_system_names(void)
{
    enum { N = sizeof presets / sizeof presets[0] };
    static const char *names[N + 1];
    for (int i = 0; i < N; i++)
        names[i] = presets[i].name;
    return names;
}

void ncclog_system_gpus(ncclog_system *s, int gpus_per_node)
{
    if (gpus_per_node <= 0 || gpus_per_node == s->gpus_per_node)
        return;
    int nics = s->nics * gpus_per_node / s->gpus_per_node;
    s->nics = nics < 1 ? 1 : nics;
    s->gpus_per_node = gpus_per_node;
}

static int gen_of(int cc) { return cc >= 100 ? 3 : cc >= 90 ? 2 : cc >= 80 ? 1 : 0; }

/* NCCL's speed steps for the generation cc, inside a node or across
 * nodes; *n their count. */
static const double *speeds(int cc, bool inter, int *n)
{
    if (inter) {
        *n = cc >= 90 ? NSP(speeds_inter_sm90) : NSP(speeds_inter);
        return cc >= 90 ? speeds_inter_sm90 : speeds_inter;
    }
    *n = cc >= 90 ? NSP(speeds_intra_sm90) : NSP(speeds_intra);
    return cc >= 90 ? speeds_intra_sm90 : speeds_intra;
}

/* The first speed step not above limit. */
static double step_at_most(const double *sp, int n, double limit)
{
    for (int i = 0; i < n; i++)
        if (sp[i] <= limit + 1e-9)
            return sp[i];
    return sp[n - 1];
}

/* The channels and speed of a ring (or tree) inside one node: the fastest
 * step of which at least one channel fits the GPU's bandwidth, as many
 * channels of it as fit (up to 16), doubled at half the speed where NCCL
 * doubles (ncclTopoDupChannels), then the speed raised while the channels
 * still fit (the search's second pass). */
static void intra_graph(const ncclog_system *s, ncclog_graph *g)
{
    int n;
    const double *sp = speeds(s->cc, false, &n);
    double bw = step_at_most(sp, n, s->gpu_gbs);
    int nch = (int)floor(s->gpu_gbs / bw + 1e-9);
    if (nch > SEARCH_MAX_CHANNELS)
        nch = SEARCH_MAX_CHANNELS;
    if (nch < 1)
        nch = 1;
    if (bw >= 25.0 && !(s->cc > 80 && bw < 50.0 && nch > 4)) {
        int dup = nch * 2 > 2 * SEARCH_MAX_CHANNELS ? 2 * SEARCH_MAX_CHANNELS : nch * 2;
        bw /= (dup + nch - 1) / nch;
        nch = dup;
    }
    for (int i = n - 1; i >= 0; i--) /* pass 2: a faster step at the same channels */
        if (sp[i] > bw && sp[i] * nch <= s->gpu_gbs + 1e-9)
            bw = sp[i];
    g->channels = nch;
    g->bw_intra = g->bw_inter = bw;
}

void ncclog_tuner_graphs(const ncclog_system *s, ncclog_graph g[NCCLOG_ALGOS])
{
    memset(g, 0, sizeof(ncclog_graph) * NCCLOG_ALGOS);
    ncclog_graph ring = {0};
    int ppn = s->gpus_per_node;
    if (s->nodes <= 1) {
        intra_graph(s, &ring);
    } else {
        /* Across nodes each channel leaves through a NIC: the fastest step a
         * NIC carries whose channels, one per NIC, the GPU's link also
         * carries; doubled where NCCL doubles. */
        int n;
        const double *sp = speeds(s->cc, true, &n);
        int nics = s->nics < 1 ? 1 : s->nics;
        int per_gpu_nics = nics >= ppn ? nics / ppn : 1;
        double limit = s->nic_gbs;
        if (ppn > 1 && s->gpu_gbs / nics < limit)
            limit = s->gpu_gbs / nics;
        double bw = step_at_most(sp, n, limit);
        int nch = ppn > 1 ? nics : per_gpu_nics;
        if (bw >= 25.0 && !(s->cc > 80 && bw < 50.0 && nch > 4)) {
            bw /= 2;
            nch *= 2;
        }
        ring.channels = nch;
        ring.bw_intra = ring.bw_inter = bw;
    }
    ring.path_intra = s->nvlink ? NCCLOG_PATH_NVL : NCCLOG_PATH_SYS;
    ring.path_inter = NCCLOG_PATH_PIX; /* a NIC on the GPU's PCIe switch (NCCL's default kind) */
    g[T_RING] = ring;
    g[T_TREE] = ring; /* the same search, a tree pattern */
    g[T_PAT] = ring;
    if (s->nodes == 2 && ppn > 1) {
        /* two nodes: the search raises a tree's speed inside the node up to
         * twice the speed between them, where the NVLink carries it */
        int n;
        const double *sp = speeds(s->cc, true, &n);
        double want = 2 * ring.bw_inter, room = s->gpu_gbs / ring.channels;
        g[T_TREE].bw_intra = step_at_most(sp, n, want < room ? want : room);
    }
    g[T_TREE].tree_pattern = ppn == 1; /* one GPU a node: a plain tree */
    if (s->nvls && s->nvswitch && s->cc >= 90) {
        /* NVLS: one channel per GPU, all pulling evenly inside a node */
        int n, ni;
        const double *sp = speeds(s->cc, false, &n), *spi = speeds(s->cc, true, &ni);
        ncclog_graph nv = {0};
        nv.channels = ppn < 32 ? ppn : 32;
        nv.bw_intra = step_at_most(sp, n, s->gpu_gbs / nv.channels);
        /* the search's second pass raises the speed between nodes up to
         * twice the speed inside (on one node nothing limits it but the
         * steps; across nodes, the NIC) */
        double up = 2 * nv.bw_intra;
        if (s->nodes > 1 && s->nic_gbs < up)
            up = s->nic_gbs;
        nv.bw_inter = s->nodes > 1 ? step_at_most(spi, ni, up) : step_at_most(sp, n, up);
        nv.path_intra = NCCLOG_PATH_NVL;
        nv.path_inter = ring.path_inter;
        g[T_NVLS] = g[T_NVLST] = nv;
    }
}

static int log2i(int v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

void ncclog_tuner_table(const ncclog_system *s, const ncclog_graph g[NCCLOG_ALGOS], ncclog_tuning *t,
                        int max_threads[NCCLOG_ALGOS][NCCLOG_PROTOS])
{
    memset(t, 0, sizeof *t);
    memset(max_threads, 0, sizeof(int) * NCCLOG_ALGOS * NCCLOG_PROTOS);
    t->have = true;
    t->format = 218;
    for (int a = 0; a < NCCLOG_ALGOS; a++)
        t->algo_seen[a] = true;
    for (int c = 0; c < NCCLOG_COLLS; c++)
        t->row_seen[c] = true;

    /* Threads per block (NCCL_NTHREADS unset) */
    max_threads[T_RING][P_SIMPLE] = g[T_RING].bw_intra * g[T_RING].channels <= 12.0 ? 256 : 512;
    max_threads[T_TREE][P_SIMPLE] = 512;
    max_threads[T_CND][P_SIMPLE] = max_threads[T_CNC][P_SIMPLE] = 640;
    max_threads[T_NVLS][P_SIMPLE] = max_threads[T_NVLST][P_SIMPLE] = 640;
    max_threads[T_RING][P_LL] = max_threads[T_TREE][P_LL] = 512;
    max_threads[T_RING][P_LL128] = max_threads[T_TREE][P_LL128] = 640;

    int nnodes = s->nodes < 1 ? 1 : s->nodes, ppn = s->gpus_per_node;
    int nranks = nnodes * ppn;
    if (nranks <= 1)
        return;
    int gen = gen_of(s->cc), i2 = nnodes <= 2 ? nnodes - 1 : 2;
    int i1 = nnodes == 1 ? gen : s->cpu_amd ? 1 : 0;
    double ll_max = ll_max_bw[i1][i2];
    int intra_hw[NCCLOG_ALGOS], hw[NCCLOG_ALGOS];
    for (int a = 0; a < NCCLOG_ALGOS; a++) {
        intra_hw[a] = g[a].path_intra == NCCLOG_PATH_NVL ? HW_NVLINK : HW_PCI;
        hw[a] = nnodes == 1 ? intra_hw[a] : HW_NET;
    }
    bool pat_on = s->cc >= 60 && nnodes == nranks;

    for (int c = 0; c < NCCLOG_COLLS; c++) {
        int nsteps = c == C_AR ? 2 * (nranks - 1) : c == C_RS || c == C_AG ? nranks - 1 : nranks;
        for (int a = 0; a < NCCLOG_ALGOS; a++) {
            if ((c == C_BCAST || c == C_REDUCE) && a != T_RING)
                continue;
            if ((c == C_RS || c == C_AG) && a != T_PAT && a != T_RING && a != T_NVLS && a != T_CND)
                continue;
            if (c == C_AR && a == T_PAT)
                continue;
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                if ((a == T_NVLS || a == T_NVLST) && p != P_SIMPLE)
                    continue;
                if ((c == C_RS || c == C_AG) && a == T_PAT && (p != P_SIMPLE || !pat_on))
                    continue;
                bool collnet = a == T_CND || a == T_CNC;
                double bw = nnodes <= 2 || collnet ? g[a].bw_intra : g[a].bw_inter;
                if (a == T_NVLST || a == T_NVLS) {
                    if (g[a].channels < 2)
                        continue;
                    double intra = g[a].bw_intra * nvls_efficiency[gen] * (g[a].channels - 1) /
                                   g[a].channels;
                    intra *= c == C_AR ? 2.0 : (double)(ppn - 1) / ppn;
                    double inter = g[a].bw_inter * (nnodes <= 2 && a == T_NVLST ? 2 : 1);
                    bw = intra < inter ? intra : inter;
                    if (a == T_NVLST && nvls_tree_ch[gen][i2] < bw)
                        bw = nvls_tree_ch[gen][i2];
                }
                double bus = g[a].channels * bw;
                if (a == T_RING && p == P_LL)
                    bus = fmin(ll_max, bus * .5);
                if (a == T_RING && p == P_LL128)
                    bus = fmin(bus * .92, g[a].channels * ring_ll128_ch[gen]);
                if (a == T_TREE && c == C_AR)
                    bus = fmin(bus * .92, g[a].channels * tree_ch[gen][i2]);
                if (a == T_TREE && p == P_LL)
                    bus = fmin(bus / 3.8, ll_max);
                if (a == T_TREE && p == P_LL128)
                    bus = fmin(bus * (nnodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                               g[a].channels * tree_ll128_ch[gen][i2]);
                if (a == T_TREE && g[a].tree_pattern)
                    bus *= .85;
                if (a == T_PAT)
                    bus *= .75;
                if (collnet)
                    bus = 0; /* CollNet needs a SHARP network plugin: not modelled */
                if (a == T_NVLS && (c == C_AG || c == C_RS) && nnodes > 1)
                    bus = 0;
                if (!(a != T_RING && (c == C_AG || c == C_RS)))
                    bus *= a == T_RING || a == T_NVLS || a == T_NVLST ? (double)nranks / nsteps : .5;
                t->bw[c][a][p] = bus;

                double lat = base_lat[a][p];
                double intra_lat = hw_lat[intra_hw[a]][a][p];
                double inter_lat = ppn == 1 ? hw_lat[HW_NET][T_TREE][p] : hw_lat[HW_NET][a][p];
                inter_lat += g[a].latency_inter;
                if (p == P_SIMPLE)
                    inter_lat += g[a].latency_inter;
                if (a == T_RING) {
                    double l = hw_lat[hw[a]][a][p];
                    if (c == C_REDUCE || c == C_BCAST) {
                        lat += l; /* the search keeps the same channels */
                    } else {
                        double over = 0;
                        if (nnodes > 1)
                            over = (s->cpu_amd ? 2.0 : 1.0) * (p == P_SIMPLE ? 3 : 1);
                        if (intra_lat < over)
                            intra_lat = over;
                        int inter_steps = nnodes == 1 ? 0 : c == C_AR ? 2 * (nnodes - 1) : nnodes - 1;
                        lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
                    }
                } else if (a == T_TREE) {
                    if (c == C_AR)
                        lat += 2 * ((ppn - 1) * intra_lat + log2i(nnodes) * inter_lat);
                } else if (a == T_CND) {
                    lat += 2 * ((ppn - 1 < 1 ? ppn - 1 : 1) * intra_lat + (ppn - 1) * 0.4) + inter_lat;
                } else if (a == T_CNC) {
                    lat += 2 * (ppn - 1) * intra_lat + inter_lat;
                } else if (a == T_NVLS) {
                    lat = intra_lat + (nnodes > 1 ? inter_lat : 0);
                } else if (a == T_NVLST) {
                    lat += intra_lat + 2 * log2i(nnodes) * inter_lat;
                } else if (a == T_PAT) {
                    if (c == C_AG || c == C_RS)
                        lat += log2i(nnodes) * (inter_lat / 3.5) + nranks * 2.8;
                }
                t->lat[c][a][p] = lat;
            }
        }
    }

    /* What NCCL switches off: NVLS Tree on one node; CollNet and NVLS across
     * nodes without a CollNet plugin; LL128 where a path is slower than
     * NVLink (on Hopper and newer, up to a NIC through another GPU). */
    for (int c = 0; c < NCCLOG_COLLS; c++)
        for (int a = 0; a < NCCLOG_ALGOS; a++)
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                bool off = (nnodes == 1 && a == T_NVLST) || a == T_CND || a == T_CNC ||
                           (a == T_NVLS && nnodes > 1);
                if (p == P_LL128) {
                    int inter_max = s->cc >= 90 ? NCCLOG_PATH_PXN : NCCLOG_PATH_PXB;
                    bool ok = g[a].path_inter <= inter_max && g[a].path_intra <= NCCLOG_PATH_NVB;
                    off = off || !ok;
                }
                if (off)
                    t->bw[c][a][p] = 0;
            }
    /* As NCCL prints them: one decimal each. */
    for (int c = 0; c < NCCLOG_COLLS; c++)
        for (int a = 0; a < NCCLOG_ALGOS; a++)
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                t->lat[c][a][p] = round(t->lat[c][a][p] * 10) / 10;
                t->bw[c][a][p] = round(t->bw[c][a][p] * 10) / 10;
            }
}

void ncclog_tuner_print(FILE *out, const ncclog_tuning *t,
                        const int max_threads[NCCLOG_ALGOS][NCCLOG_PROTOS])
{
    for (int block = 0; block < (NCCLOG_ALGOS + 2) / 3; block++) {
        fprintf(out, "NCCL INFO   Algorithm   |");
        for (int k = 0; k < 3; k++) {
            int a = block * 3 + k;
            if (a < NCCLOG_ALGOS)
                fprintf(out, " %14s   %14s   %14s |", "", ncclog_algo_name(a), "");
        }
        fprintf(out, "\nNCCL INFO   Protocol    |");
        for (int k = 0; k < 3; k++)
            for (int p = 0; p < NCCLOG_PROTOS; p++)
                fprintf(out, " %14s |", ncclog_proto_name(p));
        fprintf(out, "\nNCCL INFO  Max NThreads |");
        for (int k = 0; k < 3; k++) {
            int a = block * 3 + k;
            if (a < NCCLOG_ALGOS)
                for (int p = 0; p < NCCLOG_PROTOS; p++)
                    fprintf(out, " %14d |", max_threads[a][p]);
        }
        fputc('\n', out);
        for (int c = 0; c < NCCLOG_COLLS; c++) {
            fprintf(out, "NCCL INFO %13s |", ncclog_coll_name(c));
            for (int k = 0; k < 3; k++) {
                int a = block * 3 + k;
                if (a < NCCLOG_ALGOS)
                    for (int p = 0; p < NCCLOG_PROTOS; p++)
                        fprintf(out, "%8.1f/%6.1f |", t->lat[c][a][p], t->bw[c][a][p]);
            }
            fputc('\n', out);
        }
    }
}

int ncclog_tuner_only(ncclog_tuning *t, const char *list, char *err, size_t errlen)
{
    bool keep[NCCLOG_ALGOS] = {0}, negate = list[0] == '^';
    const char *p = list + negate;
    if (!*p) {
        snprintf(err, errlen, "no algorithm named");
        return -1;
    }
    while (*p) {
        size_t n = strcspn(p, ",");
        int a = -1;
        for (int k = 0; k < NCCLOG_ALGOS && a < 0; k++)
            if (strlen(ncclog_algo_name(k)) == n && !strncasecmp(ncclog_algo_name(k), p, n))
                a = k;
        if (a < 0) {
            snprintf(err, errlen, "'%.*s' is not one of NCCL's algorithms (tree, ring, "
                     "collnetdirect, collnetchain, nvls, nvlstree, pat)", (int)(n > 40 ? 40 : n), p);
            return -1;
        }
        keep[a] = true;
        p += n + (p[n] == ',');
    }
    for (int a = 0; a < NCCLOG_ALGOS; a++)
        if (keep[a] == negate)
            for (int c = 0; c < NCCLOG_COLLS; c++)
                for (int q = 0; q < NCCLOG_PROTOS; q++)
                    t->bw[c][a][q] = 0;
    return 0;
}
