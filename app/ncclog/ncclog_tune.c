/*
 * ncclog_tune.c: which algorithm and protocol NCCL chose, and why.
 *
 * With NCCL_DEBUG_SUBSYS=TUNING, rank 0 prints its tuning table once per
 * communicator: for each collective and each algorithm x protocol, the
 * latency (us) and bandwidth (GB/s) its model assumes. It has had three
 * layouts: NCCL 2.5-2.6 ("Latency/AlgBw |  Tree/    LL |" over
 * "%7.1f/%5.1f|" cells), 2.7-2.17 (the same header with wider cells), and
 * from 2.18 blocks of three algorithms, each under an "Algorithm |" and a
 * "Protocol |" line. Per call, NCCL 2.21-2.22 print "N Bytes -> Algo A
 * proto P time T", 2.23 prefix the collective's name, and from 2.24 "Coll:
 * N Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}".
 *
 * From the table, ncclog_choices computes the choice NCCL's tuner makes at
 * each size the way ncclTopoGetAlgoTime does (src/graph/tuning.cc): the
 * least latency + bytes / (1000 * bandwidth) over the enabled pairs (a
 * bandwidth of 0 is a disabled pair), with its two corrections.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ncclog_internal.h"

static const char *const coll_names[NCCLOG_COLLS] = {"Broadcast", "Reduce", "AllGather",
                                                     "ReduceScatter", "AllReduce"};
static const char *const algo_names[NCCLOG_ALGOS] = {"Tree", "Ring", "CollNetDirect",
                                                     "CollNetChain", "NVLS", "NVLSTree",
                                                     "PAT"};
static const char *const proto_names[NCCLOG_PROTOS] = {"LL", "LL128", "Simple"};

const char *ncclog_coll_name(int c) { return c >= 0 && c < NCCLOG_COLLS ? coll_names[c] : "?"; }
const char *ncclog_algo_name(int a) { return a >= 0 && a < NCCLOG_ALGOS ? algo_names[a] : "?"; }
const char *ncclog_proto_name(int p)
{
    return p >= 0 && p < NCCLOG_PROTOS ? proto_names[p] : "?";
}

int ncclog_coll_index(const char *name, size_t len)
{
    for (int c = 0; c < NCCLOG_COLLS; c++)
        if (strlen(coll_names[c]) == len && !strncmp(coll_names[c], name, len))
            return c;
    return -1;
}

/* An algorithm's index from its name in any form NCCL printed it: the
 * table's "Tree", "CollNet" (2.6-2.13: CollNetDirect), "CollNetDirect", and
 * the per-call lines' "TREE", "COLLNET_DIRECT", "NVLS_TREE". */
static int algo_index(const char *s, size_t n)
{
    char t[24];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof t; i++)
        if (s[i] != '_')
            t[k++] = (char)tolower((unsigned char)s[i]);
    t[k] = 0;
    if (!strcmp(t, "collnet"))
        return 2;
    for (int a = 0; a < NCCLOG_ALGOS; a++) {
        char u[24];
        size_t m = 0;
        for (const char *q = algo_names[a]; *q && m + 1 < sizeof u; q++)
            u[m++] = (char)tolower((unsigned char)*q);
        u[m] = 0;
        if (!strcmp(t, u))
            return a;
    }
    return -1;
}

static int proto_index(const char *s, size_t n)
{
    for (int p = NCCLOG_PROTOS - 1; p >= 0; p--)
        if (strlen(proto_names[p]) == n && !strncasecmp(proto_names[p], s, n))
            return p;
    return -1;
}

static const char *word(const char **p, size_t *n)
{
    const char *s = *p;
    while (*s == ' ' || *s == '|' || *s == '\t')
        s++;
    const char *e = s;
    while (*e && *e != ' ' && *e != '|' && *e != '\t' && *e != '/')
        e++;
    *n = (size_t)(e - s);
    *p = e;
    return s;
}

/* A new table (its first column is Tree) is read unless one was read
 * already (another communicator's is counted); a later block of three
 * algorithms keeps the state. */
static void table_start(ncclog__reader *r, bool first_block)
{
    ncclog_tuning *t = &r->log->tuning;
    if (!first_block)
        return;
    if (t->have) {
        t->others++;
        r->tuning_block = 0;
        return;
    }
    t->have = true;
    t->line = r->line;
    r->tuning_block = 1;
}

static int tuning_table_line(ncclog__reader *r, const char *msg)
{
    ncclog_tuning *t = &r->log->tuning;
    const char *q = msg;
    while (*q == ' ')
        q++;
    if (!strncmp(q, "Latency/AlgBw |", 15)) {
        t->format = strstr(q, "Tree/    LL |") && !strstr(q, "   Tree/") ? 25 : 27;
        const char *c = q + 15;
        int n = 0;
        while (n < 27) {
            size_t len;
            const char *a = word(&c, &len);
            if (!len || *c != '/')
                break;
            int ai = algo_index(a, len);
            c++;
            while (*c == ' ')
                c++;
            const char *p = word(&c, &len);
            r->cols_algo[n] = ai;
            r->cols_proto[n] = proto_index(p, len);
            n++;
        }
        r->tuning_ncols = n;
        table_start(r, true);
        return 1;
    }
    if (!strncmp(q, "Algorithm   |", 13) || !strncmp(q, "Algorithm |", 11)) {
        const char *c = strchr(q, '|') + 1;
        int n = 0;
        bool first = false;
        while (n < 27) {
            size_t len;
            const char *a = word(&c, &len);
            if (!len)
                break;
            int ai = algo_index(a, len);
            if (n == 0)
                first = ai == 0;
            for (int p = 0; p < NCCLOG_PROTOS; p++) {
                r->cols_algo[n] = ai;
                r->cols_proto[n] = p;
                n++;
            }
        }
        r->tuning_ncols = n;
        t->format = 218;
        table_start(r, first);
        return 1;
    }
    if (!strncmp(q, "Protocol    |", 13) || !strncmp(q, "Max NThreads |", 14))
        return r->tuning_block >= 0;
    /* A row: "    AllReduce |     6.3/   0.8 |  ..." */
    const char *bar = strchr(q, '|');
    if (!bar || r->tuning_block < 0)
        return 0;
    size_t nlen = (size_t)(bar - q);
    while (nlen > 0 && q[nlen - 1] == ' ')
        nlen--;
    int coll = ncclog_coll_index(q, nlen);
    if (coll < 0)
        return 0;
    if (r->tuning_block != 1)
        return 1;
    const char *c = bar + 1;
    for (int k = 0; k < r->tuning_ncols; k++) {
        char *end;
        double lat = strtod(c, &end);
        if (end == c || *end != '/')
            break;
        double bw = strtod(end + 1, &end);
        int a = r->cols_algo[k], p = r->cols_proto[k];
        if (a >= 0 && p >= 0 && isfinite(lat) && isfinite(bw)) {
            t->lat[coll][a][p] = lat;
            t->bw[coll][a][p] = bw;
            t->algo_seen[a] = true;
        }
        while (*end == ' ')
            end++;
        if (*end == '|')
            end++;
        c = end;
    }
    t->row_seen[coll] = true;
    return 1;
}

/* "[Coll: ]N Bytes -> Algo A proto P time T" and "Coll: N Bytes -> Algo
 * NAME proto NAME channel{Lo..Hi}={a..b}"; "Coll: opCount ..." names the
 * collective for the older form's next line. */
static int call_line(ncclog__reader *r, int printer, const char *msg)
{
    const char *q = msg;
    int coll = -1;
    const char *colon = strchr(q, ':');
    if (colon && colon - q < 20 && !isdigit((unsigned char)*q)) {
        coll = ncclog_coll_index(q, (size_t)(colon - q));
        if (coll < 0 && strncmp(q, "Send", 4) && strncmp(q, "Recv", 4))
            return 0;
        q = colon + 1;
        while (*q == ' ')
            q++;
        if (!strncmp(q, "opCount ", 8)) {
            r->last_coll[0] = coll;
            r->last_coll[1] = printer;
            return 1;
        }
    }
    if (!isdigit((unsigned char)*q))
        return 0;
    char *end;
    long long bytes = strtoll(q, &end, 10);
    if (strncmp(end, " Bytes -> Algo ", 15))
        return 0;
    if (coll < 0 && r->last_coll[1] == printer)
        coll = r->last_coll[0];
    q = end + 15;
    size_t n;
    const char *a = word(&q, &n);
    int algo = isdigit((unsigned char)*a) ? atoi(a) : algo_index(a, n);
    if (strncmp(q, " proto ", 7))
        return 0;
    q += 7;
    const char *p = word(&q, &n);
    int proto = isdigit((unsigned char)*p) ? atoi(p) : proto_index(p, n);
    double time = -1;
    if (!strncmp(q, " time ", 6))
        time = strtod(q + 6, NULL);
    if (algo < 0 || algo >= NCCLOG_ALGOS)
        algo = -1;
    if (proto < 0 || proto >= NCCLOG_PROTOS)
        proto = -1;
    ncclog *log = r->log;
    log->ncall_lines++;
    for (int i = 0; i < log->ncalls; i++) {
        ncclog_call *k = &log->calls[i];
        if (k->coll == coll && k->bytes == bytes && k->algo == algo && k->proto == proto) {
            k->count++;
            return 1;
        }
    }
    if (log->ncalls < NCCLOG_CALLS_KEEP) {
        ncclog_call *k = &log->calls[log->ncalls++];
        k->line = r->line;
        k->coll = coll;
        k->bytes = bytes;
        k->algo = algo;
        k->proto = proto;
        k->time_us = time;
        k->count = 1;
    }
    return 1;
}

int ncclog__tuning_line(ncclog__reader *r, int printer, const char *msg)
{
    if (tuning_table_line(r, msg))
        return 1;
    return call_line(r, printer, msg);
}

/* ------------------------------------------------------------- choices */

/* NCCL's correction of its Tree bandwidth for AllReduce, by log2(bytes /
 * 64): 2.7-2.11's table (22 sizes), then 2.12's (23; 2.28 added a 24th). */
static const float tree_corr_27[NCCLOG_PROTOS][22] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9}};
static const float tree_corr_212[NCCLOG_PROTOS][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0,
     1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0,
     1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

static int log2_floor(int64_t v) /* -1 for 0 */
{
    int l = -1;
    while (v > 0) {
        v >>= 1;
        l++;
    }
    return l;
}

int ncclog_choices(const ncclog *log, const ncclog_comm *c, int coll, ncclog_choice *out,
                   char *note, size_t notelen)
{
    note[0] = 0;
    if (!log->tuning.have)
        return 0;
    int ver = ncclog_version_num(c && c->version[0] ? c->version : log->version);
    int nnodes = c ? (c->nnodes_said > 0 ? c->nnodes_said : c->nnodes) : 0;
    int nranks = c ? c->nranks : 0;
    int nch = c ? (c->nchannels_said > 0 ? c->nchannels_said : c->nchannels) : 0;
    return ncclog_choices_of(&log->tuning, ver, nnodes, nranks, nch, coll, out, note, notelen);
}

void ncclog_choice_at(const ncclog_tuning *t, int ver, int nnodes, int nranks, int nch, int coll,
                      int64_t bytes, ncclog_choice *ch)
{
    ch->bytes = bytes;
    ch->algo = ch->proto = -1;
    ch->time_us = ch->ring_us = ch->tree_us = -1;
    for (int a = 0; a < NCCLOG_ALGOS; a++)
        for (int p = 0; p < NCCLOG_PROTOS; p++)
            ch->all_us[a][p] = -1;
    int ls = ver && ver < 22300 ? (bytes >> 6 ? log2_floor(bytes >> 6) : 0)
                                : log2_floor(bytes >> 6);
    for (int a = 0; a < NCCLOG_ALGOS; a++)
        for (int p = 0; p < NCCLOG_PROTOS; p++) {
            double bw = t->bw[coll][a][p], lat = t->lat[coll][a][p];
            if (bw <= 0)
                continue;
            if (a == 0 && coll == 4 && ls >= 0) {
                if (ver && ver < 21200) {
                    if (ls < 22)
                        bw *= tree_corr_27[p][ls];
                } else if (ls < 23) {
                    bw *= tree_corr_212[p][ls];
                }
            }
            if (a == 1 && p == 2 && coll == 4 && nnodes > 1) {
                bool plateau = ver && ver < 21800
                                   ? bytes >= nranks / 16.0 * 65536
                                   : nch > 0 && bytes / ((int64_t)nch * nranks) >= 64;
                if (plateau)
                    lat *= ver && ver < 21800 ? 1.9 : 1.4;
            }
            double time = lat + (double)bytes / (1000.0 * bw);
            ch->all_us[a][p] = time;
            if (ch->algo < 0 || time < ch->time_us) {
                ch->algo = a;
                ch->proto = p;
                ch->time_us = time;
            }
            if (a == 1 && (ch->ring_us < 0 || time < ch->ring_us))
                ch->ring_us = time;
            if (a == 0 && (ch->tree_us < 0 || time < ch->tree_us))
                ch->tree_us = time;
        }
}

int ncclog_choices_of(const ncclog_tuning *t, int ver, int nnodes, int nranks, int nch, int coll,
                      ncclog_choice *out, char *note, size_t notelen)
{
    note[0] = 0;
    if (coll < 0 || coll >= NCCLOG_COLLS || !t->row_seen[coll])
        return 0;
    size_t w = 0;
#define NOTE(...)                                                                          \
    do {                                                                                   \
        if (w < notelen) {                                                                 \
            int k_ = snprintf(note + w, notelen - w, __VA_ARGS__);                         \
            w += k_ > 0 ? (size_t)k_ : 0;                                                  \
        }                                                                                  \
    } while (0)
    if (!ver && coll == 4)
        NOTE("no NCCL version in the log: NCCL 2.23's rules assumed");
    if (coll == 4 && (nnodes <= 0 || nranks <= 0))
        NOTE("%snodes or ranks unknown: Ring Simple's plateau factor not applied",
             w ? "; " : "");
    else if (coll == 4 && nnodes > 1 && ver >= 21800)
        NOTE("%sRing Simple's latency x1.4 past its plateau, NCCL's factor for compute "
             "capability 8.0 and newer (1.9 before)",
             w ? "; " : "");
    for (int i = 0; i < NCCLOG_CHOICE_SIZES; i++)
        ncclog_choice_at(t, ver, nnodes, nranks, nch, coll, (int64_t)8 << i, &out[i]);
#undef NOTE
    return NCCLOG_CHOICE_SIZES;
}

int ncclog_choice_coll(const ncclog *log)
{
    const ncclog_tuning *t = &log->tuning;
    if (!t->have)
        return -1;
    long named[NCCLOG_COLLS] = {0};
    for (int i = 0; i < log->ncalls; i++)
        if (log->calls[i].coll >= 0 && log->calls[i].coll < NCCLOG_COLLS)
            named[log->calls[i].coll] += log->calls[i].count;
    int best = -1;
    for (int k = 0; k < NCCLOG_COLLS; k++)
        if (t->row_seen[k] && named[k] > 0 && (best < 0 || named[k] > named[best]))
            best = k;
    if (best >= 0)
        return best;
    for (int k = NCCLOG_COLLS - 1; k >= 0; k--) /* AllReduce is the last */
        if (t->row_seen[k])
            return k;
    return -1;
}

int ncclog_choice_agreement(const ncclog *log, int coll, const ncclog_choice *ch, int n,
                            int *checked, long *first_off)
{
    int agree = 0;
    *checked = 0;
    *first_off = 0;
    for (int i = 0; i < log->ncalls; i++) {
        const ncclog_call *k = &log->calls[i];
        if (k->coll != coll || k->algo < 0 || k->proto < 0)
            continue;
        for (int j = 0; j < n; j++) {
            if (ch[j].bytes != k->bytes)
                continue;
            (*checked)++;
            if (ch[j].algo == k->algo && ch[j].proto == k->proto)
                agree++;
            else if (!*first_off || k->line < *first_off)
                *first_off = k->line;
        }
    }
    return agree;
}

cv_op ncclog_coll_op(int coll)
{
    static const cv_op ops[NCCLOG_COLLS] = {CV_OP_BROADCAST, CV_OP_REDUCE, CV_OP_ALLGATHER,
                                            CV_OP_REDUCESCATTER, CV_OP_ALLREDUCE};
    return coll >= 0 && coll < NCCLOG_COLLS ? ops[coll] : CV_OP_ALLREDUCE;
}

double ncclog_model_seconds(const ncclog_comm *c, int coll, cv_algo algo, int64_t bytes,
                            const cv_link *intra, const cv_link *inter)
{
    if (!c || c->nranks < 2 || c->nranks > CV_MAX_RANKS || coll < 0 || coll >= NCCLOG_COLLS)
        return -1;
    cv_topology *topo = calloc(1, sizeof *topo);
    if (!topo)
        return -1;
    int nodes = 1;
    char note[256], err[CV_ERR_LEN];
    int ch = ncclog_first_known(c);
    double seconds = -1;
    cv_spec spec;
    cv_spec_init(&spec);
    spec.op = ncclog_coll_op(coll);
    spec.algo = algo;
    spec.ranks = c->nranks;
    cv_plan *plan = NULL;
    if (ncclog_topology(c, ch < 0 ? 0 : ch, topo, &nodes, note, sizeof note, err, sizeof err) ||
        !cv_op_has_algo(spec.op, algo))
        goto done;
    spec.nodes = nodes;
    spec.topo = topo;
    int64_t unit = cv_spec_bench_unit(&spec);
    if (bytes % unit)
        goto done;
    spec.count = bytes / unit;
    if (cv_plan_create(&spec, &plan, err, sizeof err))
        goto done;
    cv_cost cost;
    cv_cost_plan_nodes(plan, intra, nodes > 1 ? inter : intra, &cost);
    cv_plan_destroy(plan);
    seconds = cost.seconds;
done:
    free(topo);
    return seconds;
}
