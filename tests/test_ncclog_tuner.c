/*
 * test_ncclog_tuner.c: NCCL's tuner as modelled (app/ncclog/ncclog_tuner.c).
 * The formula is checked against a real table: the graphs of a run whose
 * TUNING log is in tests/ncclog/real (NCCL 2.29, two nodes of one GPU over
 * sockets) give every latency and bandwidth that log printed, to its
 * decimal. The presets' tables go through the log reader and come back the
 * same, and their picks are the ones NCCL is known to make on such systems
 * (NVLS for a large AllReduce on 8 x H100, Ring without NVLS, trees at
 * small sizes across nodes, PAT only with one GPU a node).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncclog.h"

static void read_log(const char *path, ncclog *log)
{
    char err[NCCLOG_ERR_LEN];
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    REQUIRE(ncclog_read(f, path, log, err, sizeof err) == 0);
    fclose(f);
    REQUIRE(log->tuning.have);
}

static int compare_tables(const char *what, const ncclog_tuning *want, const ncclog_tuning *got)
{
    int bad = 0;
    for (int c = 0; c < NCCLOG_COLLS; c++)
        for (int a = 0; a < NCCLOG_ALGOS; a++)
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                bool ok = fabs(want->lat[c][a][p] - got->lat[c][a][p]) < 0.051 &&
                          fabs(want->bw[c][a][p] - got->bw[c][a][p]) < 0.051;
                EXPECT(ok, "%s: %s %s/%s: %.1f/%.1f, want %.1f/%.1f", what, ncclog_coll_name(c),
                       ncclog_algo_name(a), ncclog_proto_name(p), got->lat[c][a][p],
                       got->bw[c][a][p], want->lat[c][a][p], want->bw[c][a][p]);
                bad += !ok;
            }
    return bad;
}

/* The 2.29 log: 2 ranks on 2 hosts, one GPU each, NCCL over sockets. Its
 * ring has 2.4 GB/s in all (2 channels of 1.2: Ring Simple's AllReduce
 * bandwidth), its tree twice that and a plain tree pattern (one GPU a
 * node), LL128 off (the path to the network is not a PCIe switch). */
static void real_table(void)
{
    ncclog log = {0};
    read_log(COLLVIZ_SOURCE_DIR "/tests/ncclog/real/nccl-ebpf-2.29-tuning-blocks.log", &log);
    ncclog_system s = {"ebpf", "two hosts of one GPU", 90, 1, 2, 0, false, false, false, 1, 1.2,
                       false};
    ncclog_graph g[NCCLOG_ALGOS] = {0};
    ncclog_graph ring = {2, 1.2, 1.2, NCCLOG_PATH_LOC, NCCLOG_PATH_SYS, 0, false};
    ncclog_graph tree = {2, 2.4, 2.4, NCCLOG_PATH_LOC, NCCLOG_PATH_SYS, 0, true};
    g[1] = ring;
    g[0] = g[6] = tree;
    g[2] = g[3] = ring; /* CollNet: latencies printed, bandwidth off */
    ncclog_tuning t;
    int threads[NCCLOG_ALGOS][NCCLOG_PROTOS];
    ncclog_tuner_table(&s, g, &t, threads);
    EXPECT(compare_tables("2.29 log", &log.tuning, &t) == 0, "the model differs from the log");
    EXPECT(threads[1][2] == 256 && threads[0][2] == 512 && threads[4][2] == 640,
           "threads: ring simple %d, tree simple %d, nvls %d", threads[1][2], threads[0][2],
           threads[4][2]);
    ncclog_destroy(&log);
}

/* A preset's table printed, read back by the log reader: the same table. */
static void round_trip(const char *preset, int nodes, ncclog_tuning *t)
{
    ncclog_system s = *ncclog_system_find(preset);
    s.nodes = nodes;
    ncclog_graph g[NCCLOG_ALGOS];
    int threads[NCCLOG_ALGOS][NCCLOG_PROTOS];
    ncclog_tuner_graphs(&s, g);
    ncclog_tuner_table(&s, g, t, threads);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    REQUIRE(out != NULL);
    fprintf(out, "host:1:1 [0] NCCL INFO NCCL version 2.29.2+cuda12.9\n");
    /* the reader wants each line behind a printer's prefix */
    char *tab = NULL;
    size_t tlen = 0;
    FILE *tf = open_memstream(&tab, &tlen);
    ncclog_tuner_print(tf, t, threads);
    fclose(tf);
    for (char *line = strtok(tab, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(out, "host:1:1 [0] %s\n", line);
    free(tab);
    fclose(out);
    FILE *in = fmemopen(buf, len, "rb");
    ncclog log = {0};
    char err[NCCLOG_ERR_LEN];
    REQUIRE(ncclog_read(in, preset, &log, err, sizeof err) == 0);
    fclose(in);
    free(buf);
    REQUIRE(log.tuning.have);
    char what[64];
    snprintf(what, sizeof what, "%s x %d read back", preset, nodes);
    EXPECT(compare_tables(what, t, &log.tuning) == 0, "%s", what);
    ncclog_destroy(&log);
}

/* The pick at bytes for coll (4 AllReduce, 2 AllGather) on a preset. */
static void pick(const char *preset, int nodes, int ppn, int coll, int64_t bytes, char *out,
                 size_t len, double *busbw)
{
    ncclog_system s = *ncclog_system_find(preset);
    s.nodes = nodes;
    ncclog_system_gpus(&s, ppn);
    ncclog_graph g[NCCLOG_ALGOS];
    int threads[NCCLOG_ALGOS][NCCLOG_PROTOS];
    ncclog_tuning t;
    ncclog_tuner_graphs(&s, g);
    ncclog_tuner_table(&s, g, &t, threads);
    ncclog_choice ch[NCCLOG_CHOICE_SIZES];
    char note[512];
    REQUIRE(ncclog_choices_of(&t, NCCLOG_TUNER_VERSION, s.nodes, s.nodes * s.gpus_per_node, g[1].channels, coll,
                              ch, note, sizeof note) == NCCLOG_CHOICE_SIZES);
    int i = 0;
    while (i < NCCLOG_CHOICE_SIZES - 1 && ch[i].bytes < bytes)
        i++;
    snprintf(out, len, "%s/%s", ncclog_algo_name(ch[i].algo), ncclog_proto_name(ch[i].proto));
    int n = s.nodes * s.gpus_per_node;
    double f = coll == 4 ? 2.0 * (n - 1) / n : (double)(n - 1) / n;
    *busbw = ch[i].bytes / (ch[i].time_us * 1e3) * f;
}

static void presets_round_trip(void)
{
    const ncclog_system *ps;
    int n = ncclog_system_presets(&ps);
    REQUIRE(n >= 5);
    for (int i = 0; i < n; i++)
        for (int nodes = 1; nodes <= 16; nodes *= 4) {
            ncclog_tuning t;
            round_trip(ps[i].name, nodes, &t);
        }
}

static void known_picks(void)
{
    char p[64];
    double bw;
    /* 8 x H100 with NVLS: NVLS for large AllReduce (NCCL's default there),
     * busbw near the 480 GB/s such systems measure */
    pick("h100-8", 1, 0, 4, (int64_t)1 << 30, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "NVLS/Simple"), "h100-8 1 GiB allreduce: %s", p);
    EXPECT(bw > 450 && bw < 490, "h100-8 1 GiB busbw %.1f", bw);
    pick("h100-8", 1, 0, 4, 8, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "Ring/LL"), "h100-8 8 B allreduce: %s", p);
    /* without NVLS, the ring, at the NVLink's 360 GB/s of channels */
    pick("h100-8-nonvls", 1, 0, 4, (int64_t)1 << 30, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "Ring/Simple"), "h100-8-nonvls 1 GiB: %s", p);
    EXPECT(bw > 340 && bw < 361, "h100-8-nonvls busbw %.1f", bw);
    pick("a100-8", 1, 0, 4, (int64_t)1 << 30, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "Ring/Simple") && bw > 225 && bw < 241, "a100-8 1 GiB: %s %.1f", p, bw);
    /* across nodes small messages go by tree (log of the nodes, not
     * linear), large ones by NVLS Tree on H100 */
    pick("h100-8", 8, 0, 4, 1024, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "Tree/LL"), "h100-8 x 8 1 KiB: %s", p);
    pick("h100-8", 8, 0, 4, (int64_t)1 << 30, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "NVLSTree/Simple"), "h100-8 x 8 1 GiB: %s", p);
    /* A100 nodes with 8 HDR NICs: 192 GB/s of ring at most (8 x 24) */
    pick("a100-8", 4, 0, 4, (int64_t)4 << 30, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "Ring/Simple") && bw > 180 && bw <= 192, "a100-8 x 4 4 GiB: %s %.1f", p,
           bw);
    /* PAT: one GPU a node, AllGather at small sizes; never with 8 a node */
    pick("h100-8", 16, 1, 2, 64 * 1024, p, sizeof p, &bw);
    EXPECT(!strcmp(p, "PAT/Simple"), "h100 16 nodes x 1 GPU 64 KiB allgather: %s", p);
    pick("h100-8", 16, 0, 2, 64 * 1024, p, sizeof p, &bw);
    EXPECT(strcmp(p, "PAT/Simple") != 0, "PAT with 8 GPUs a node: %s", p);
}

static const test_case cases[] = {
    CASE("real-table", real_table),
    CASE("round-trip", presets_round_trip),
    CASE("known-picks", known_picks),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
