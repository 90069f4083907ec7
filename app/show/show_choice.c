/*
 * show_choice.c: NCCL's choice of algorithm and protocol by message size,
 * read from the tuning table an NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING
 * log prints, as rows `collviz show` draws (show.h).
 *
 * The table gives, for each collective, algorithm and protocol, a latency
 * (us) and a bandwidth (GB/s); NCCL picks, at each size, the pair with the
 * least latency + size / bandwidth (app/ncclog/ncclog_tune.c computes it,
 * with NCCL's corrections). Each row here is one size from 8 B to 16 GiB:
 * the time of NCCL's pick, and as lines the best Ring and the best Tree
 * drawn as algbw = size / time, so the crossovers show where the lines
 * cross and the marks name the new pick. Where the log also holds NCCL's
 * per-call lines ("Broadcast: 32768 Bytes -> Algo RING proto SIMPLE"),
 * they are compared with the table's choice, size by size. The cost model
 * of collviz is priced beside it as for any other result (show_model.c),
 * on the communicator's ranks from the log's "comm" lines or --ranks.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "show.h"

bool show_has_tuning(const char *text, size_t len)
{
    /* 2.5-2.17 print "Latency/AlgBw |"; 2.18+ print "  Algorithm   |" blocks */
    static const char *const marks[] = {"Latency/AlgBw", "Algorithm   |"};
    for (size_t k = 0; k < 2; k++) {
        size_t ml = strlen(marks[k]);
        for (size_t i = 0; i + ml <= len; i++)
            if (text[i] == marks[k][0] && !memcmp(text + i, marks[k], ml))
                return true;
    }
    return false;
}

static void pick_name(const ncclog_choice *c, char *out, size_t len)
{
    if (c->algo < 0)
        snprintf(out, len, "none enabled");
    else
        snprintf(out, len, "%s/%s", ncclog_algo_name(c->algo), ncclog_proto_name(c->proto));
}

/* The communicator the table belongs to: the log's only one, else none. */
static const ncclog_comm *the_comm(const ncclog *log)
{
    return log->ncomms == 1 ? &log->comms[0] : NULL;
}

static int coll_wanted(const ncclog *log, const show_hints *h, const char *path, char *err,
                       size_t errlen)
{
    if (!h || h->op < 0)
        return ncclog_choice_coll(log);
    for (int k = 0; k < NCCLOG_COLLS; k++)
        if (ncclog_coll_op(k) == (cv_op)h->op) {
            if (log->tuning.row_seen[k])
                return k;
            snprintf(err, errlen, "%s: NCCL's tuning table at line %ld has no %s row", path,
                     log->tuning.line, ncclog_coll_name(k));
            return -2;
        }
    snprintf(err, errlen, "%s: NCCL's tuning table has rows for Broadcast, Reduce, AllGather, "
             "ReduceScatter and AllReduce only, not %s", path, cv_op_name((cv_op)h->op));
    return -2;
}

/* The spec collviz prices beside it: the op, ring (or --algo), int8 so
 * that every size is a whole number of elements, the ranks and nodes. */
static int model_spec(show_result *r, const ncclog_comm *c, const show_hints *h, char *err,
                      size_t errlen)
{
    cv_spec_init(&r->spec);
    r->spec.op = ncclog_coll_op(r->coll);
    r->spec.algo = CV_ALGO_RING;
    r->spec.dtype = CV_INT8;
    r->spec.ranks = h && h->ranks > 0 ? h->ranks : c && c->nranks >= 2 ? c->nranks : 0;
    if (r->spec.ranks > CV_MAX_RANKS)
        r->spec.ranks = 0; /* more than collviz models: the model line is left out */
    int nodes = c ? (c->nnodes_said > 0 ? c->nnodes_said : c->nnodes) : 1;
    if (r->spec.ranks && nodes > 1 && r->spec.ranks % nodes == 0)
        r->spec.nodes = nodes;
    r->hosts = nodes > 1 ? nodes : 0;
    if (h && h->algo >= 0) {
        if (!cv_op_has_algo(r->spec.op, (cv_algo)h->algo)) {
            snprintf(err, errlen, "%s: --algo %s is not an algorithm of %s (see collviz list)",
                     r->path, cv_algo_name((cv_algo)h->algo), cv_op_name(r->spec.op));
            return CV_EINVAL;
        }
        r->spec.algo = (cv_algo)h->algo;
    }
    return CV_OK;
}

static int fill_rows(show_result *r, const ncclog *log, const ncclog_comm *c)
{
    char note[512];
    r->choice = calloc(NCCLOG_CHOICE_SIZES, sizeof *r->choice);
    r->rows = calloc(NCCLOG_CHOICE_SIZES, sizeof *r->rows);
    if (!r->choice || !r->rows)
        return CV_ENOMEM;
    int n = ncclog_choices(log, c, r->coll, r->choice, note, sizeof note);
    if (note[0])
        snprintf(r->notes, sizeof r->notes, "NCCL's model: %s", note);
    for (int i = 0; i < n; i++) {
        const ncclog_choice *ch = &r->choice[i];
        double b = (double)ch->bytes;
        show_row *w = &r->rows[i];
        /* busbw's line is the best Ring, algbw's the best Tree: algbw = size / time */
        *w = (show_row){b, -1, ch->time_us, ch->tree_us > 0 ? b / (ch->tree_us * 1e3) : -1,
                        ch->ring_us > 0 ? b / (ch->ring_us * 1e3) : -1, -1, -1, -1, -1, 0, "", ""};
        pick_name(ch, w->pick, sizeof w->pick);
    }
    r->nrows = n;
    r->agree = ncclog_choice_agreement(log, r->coll, r->choice, n, &r->checked, &(long){0});
    return CV_OK;
}

int show_parse_ncclog(const char *path, const char *text, size_t len, const show_hints *h,
                      show_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    out->iters = out->warmup = -1;
    FILE *in = fmemopen((void *)text, len ? len : 1, "r");
    if (!in) {
        snprintf(err, errlen, "%s: out of memory", path);
        return CV_ENOMEM;
    }
    ncclog *log = calloc(1, sizeof *log);
    char why[1024];
    int rc = !log ? CV_ENOMEM : ncclog_read(in, path, log, why, sizeof why) ? CV_EINVAL : CV_OK;
    fclose(in);
    if (rc == CV_EINVAL)
        cli_escape(why, err, errlen);
    else if (rc == CV_OK && !log->tuning.have)
        rc = CV_EINVAL, snprintf(err, errlen, "%s: no tuning table in this NCCL log (NCCL prints "
                                 "it with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING)", path);
    if (rc == CV_OK && (out->coll = coll_wanted(log, h, path, err, errlen)) < 0)
        rc = CV_EINVAL;
    if (rc == CV_OK) {
        const ncclog_comm *c = the_comm(log);
        out->table_line = log->tuning.line;
        snprintf(out->source, sizeof out->source, "nccl-log");
        snprintf(out->backend, sizeof out->backend, "nccl");
        cli_escape(log->version, out->version, sizeof out->version);
        rc = model_spec(out, c, h, err, errlen);
        if (rc == CV_OK)
            rc = fill_rows(out, log, c);
        if (rc == CV_ENOMEM)
            snprintf(err, errlen, "%s: out of memory", path);
    }
    if (log)
        ncclog_destroy(log);
    free(log);
    if (rc != CV_OK)
        show_result_destroy(out);
    return rc;
}

void show_choice_tooltip(const show_result *r, int i, char *out, size_t len)
{
    const ncclog_choice *ch = &r->choice[i];
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int64_t b = ch->bytes;
    int u = 0;
    while (u < 3 && b >= 1024 && b % 1024 == 0)
        b /= 1024, u++;
    char size[32];
    snprintf(size, sizeof size, "%lld %s", (long long)b, units[u]);
    int n = snprintf(out, len, "%s: NCCL picks %s", size, r->rows[i].pick);
    if (ch->algo >= 0 && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, ", %.1f \xC2\xB5s by its model", ch->time_us);
    /* every enabled pair, fastest first, four at most */
    bool used[NCCLOG_ALGOS][NCCLOG_PROTOS] = {{0}};
    for (int k = 0; k < 4 && n > 0 && (size_t)n < len; k++) {
        int ba = -1, bp = -1;
        for (int a = 0; a < NCCLOG_ALGOS; a++)
            for (int p = 0; p < NCCLOG_PROTOS; p++)
                if (ch->all_us[a][p] >= 0 && !used[a][p] &&
                    (ba < 0 || ch->all_us[a][p] < ch->all_us[ba][bp]))
                    ba = a, bp = p;
        if (ba < 0)
            break;
        used[ba][bp] = true;
        n += snprintf(out + n, len - (size_t)n, "\n%s%s/%s %.1f \xC2\xB5s", k ? "" : "least "
                      "latency + size / bandwidth: ", ncclog_algo_name(ba), ncclog_proto_name(bp),
                      ch->all_us[ba][bp]);
    }
    if (r->rows[i].model_us >= 0 && n > 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "\ncollviz %s: %.1f \xC2\xB5s", cv_algo_name(r->spec.algo),
                 r->rows[i].model_us);
}

int show_choice_marks(const show_result *r, double *sizes, const char **labels, int max)
{
    int n = 0;
    for (int i = 0; i < r->nrows && n < max; i++)
        if (i == 0 || strcmp(r->rows[i].pick, r->rows[i - 1].pick)) {
            sizes[n] = r->rows[i].size;
            labels[n++] = r->rows[i].pick;
        }
    return n;
}
