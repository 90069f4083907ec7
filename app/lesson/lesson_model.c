/*
 * lesson_model.c: the cost model's answers the lessons state, remembered.
 *
 * A lesson's figures and number quizzes are computed from the model when
 * the lesson loads (no byte count or time is typed by hand), and a few of
 * them are heavy: a crossover is some fifty pairs of plans of 64 ranks, and
 * one figure prices a 1024-rank ring. Loading the course then costs about
 * 0.4 s natively and three times that in the browser, before the first
 * frame. So each answer is kept under a key that names everything it
 * depends on (the spec, the links, for a crossover the other algorithm),
 * asked again only once per process, and can be written to a file
 * (`collviz lessons --model-cache FILE`) that a later process reads
 * (COLLVIZ_MODEL_CACHE): the browser's page packs one, made by the same
 * code compiled the same way, so it starts without recomputing. An entry
 * that is not in the file is computed as always; a file that cannot be
 * read (the shared JSON reader's refusals: collectives/json/jr.h) is ignored with
 * one line on stderr.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jr.h"
#include "lesson_internal.h"

#define MODEL_FORMAT 1
#define MODEL_MAX_BYTES (16 << 20) /* the course's answers take some 100 KiB */
#define NVALUES 10 /* cv_cost's fields, or a crossover's bytes in [0] */

typedef struct {
    char *key;
    double v[NVALUES];
} model_entry;

static struct {
    model_entry *e;
    int n, cap;
    int *slot; /* open addressing: index into e, -1 empty */
    int nslots;
    bool loaded; /* COLLVIZ_MODEL_CACHE read (or found unset) */
} memo;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int find(const char *key)
{
    if (!memo.nslots)
        return -1;
    for (size_t i = fnv1a(key) & (size_t)(memo.nslots - 1);; i = (i + 1) & (size_t)(memo.nslots - 1)) {
        int k = memo.slot[i];
        if (k < 0)
            return -1;
        if (strcmp(memo.e[k].key, key) == 0)
            return k;
    }
}

static void put(const char *key, const double *v)
{
    int k = find(key);
    if (k >= 0) {
        memcpy(memo.e[k].v, v, sizeof memo.e[k].v);
        return;
    }
    if (memo.n == memo.cap) {
        memo.cap = memo.cap ? 2 * memo.cap : 256;
        memo.e = lesson__xrealloc(memo.e, (size_t)memo.cap * sizeof *memo.e);
    }
    memo.e[memo.n].key = lesson__xstrdup(key);
    memcpy(memo.e[memo.n].v, v, sizeof memo.e[memo.n].v);
    memo.n++;
    if (2 * memo.n > memo.nslots) { /* keep it at most half full */
        free(memo.slot);
        memo.nslots = memo.nslots ? 2 * memo.nslots : 512;
        memo.slot = lesson__xmalloc((size_t)memo.nslots * sizeof *memo.slot);
        for (int i = 0; i < memo.nslots; i++)
            memo.slot[i] = -1;
        for (int j = 0; j < memo.n; j++) {
            size_t i = fnv1a(memo.e[j].key) & (size_t)(memo.nslots - 1);
            while (memo.slot[i] >= 0)
                i = (i + 1) & (size_t)(memo.nslots - 1);
            memo.slot[i] = j;
        }
        return;
    }
    size_t i = fnv1a(key) & (size_t)(memo.nslots - 1);
    while (memo.slot[i] >= 0)
        i = (i + 1) & (size_t)(memo.nslots - 1);
    memo.slot[i] = memo.n - 1;
}

/* Reads the file COLLVIZ_MODEL_CACHE names, once. */
static void load_file(void)
{
    if (memo.loaded)
        return;
    memo.loaded = true;
    const char *path = getenv("COLLVIZ_MODEL_CACHE");
    if (!path || !*path)
        return;
    /* The shared reader: a FIFO or a directory is refused, not waited on;
     * a syntax error is named with its line and column. */
    jr_opts o = {.max_bytes = MODEL_MAX_BYTES};
    jr_doc d;
    jr_error e;
    char safe[1024], line[1400];
    if (jr_read_file(path, &o, &d, &e) != JR_OK) {
        const char *why = e.status == JR_EOPEN ? strerror(e.sys_errno) : e.msg;
        if (!strncmp(why, "cannot read: ", 13))
            why += 13;
        jr_escape(path, safe, sizeof safe);
        if (e.line > 0)
            fprintf(stderr, "collviz: COLLVIZ_MODEL_CACHE=%s; computing the lessons' figures "
                            "instead\n", jr_error_text(&e, path, line, sizeof line));
        else
            fprintf(stderr, "collviz: COLLVIZ_MODEL_CACHE=%s cannot be read (%s); computing the "
                            "lessons' figures instead\n", safe, why);
        return;
    }
    const cJSON *doc = d.root;
    cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
    cJSON *entries = cJSON_GetObjectItemCaseSensitive(doc, "entries");
    if (!cJSON_IsNumber(fmt) || fmt->valueint != MODEL_FORMAT || !cJSON_IsArray(entries)) {
        jr_escape(path, safe, sizeof safe);
        fprintf(stderr, "collviz: COLLVIZ_MODEL_CACHE=%s is not a model cache of format %d; "
                        "computing the lessons' figures instead\n", safe, MODEL_FORMAT);
        jr_destroy(&d);
        return;
    }
    const cJSON *row;
    cJSON_ArrayForEach(row, entries) {
        double v[NVALUES] = {0};
        const cJSON *key = cJSON_GetArrayItem(row, 0);
        if (!cJSON_IsString(key) || cJSON_GetArraySize(row) != NVALUES + 1)
            continue;
        bool ok = true;
        for (int i = 0; i < NVALUES && ok; i++) {
            const cJSON *x = cJSON_GetArrayItem(row, i + 1);
            ok = cJSON_IsNumber(x);
            v[i] = ok ? x->valuedouble : 0;
        }
        if (ok)
            put(key->valuestring, v);
    }
    jr_destroy(&d);
}

/* Everything a plan's cost depends on, exactly (%a: no rounding). */
static bool make_key(char *out, size_t n, const char *kind, const cv_spec *s, const cv_link *link,
                     const cv_link *inter, int extra)
{
    if (s->topo) /* a topology from outside: not something a key can name */
        return false;
    int len = snprintf(out, n, "%s %d %d %d %lld %d %d %d %d %d %d %d | %a %a %a %d", kind,
                       (int)s->op, (int)s->algo, s->ranks, (long long)s->count, (int)s->dtype,
                       (int)s->redop, s->root, s->slices, s->nodes, (int)s->proto, extra, link->bw,
                       link->alpha, link->gamma, (int)link->hw);
    if (inter && len > 0 && (size_t)len < n)
        len += snprintf(out + len, n - (size_t)len, " | %a %a %a %d", inter->bw, inter->alpha,
                        inter->gamma, (int)inter->hw);
    return len > 0 && (size_t)len < n;
}

bool lesson__model_cost(const cv_spec *spec, const cv_link *link, const cv_link *inter,
                        bool remember, cv_cost *out, char *err, size_t errlen)
{
    load_file();
    char key[512];
    bool keyed = make_key(key, sizeof key, "cost", spec, link, inter, 0);
    int k = keyed ? find(key) : -1;
    if (k >= 0) {
        const double *v = memo.e[k].v;
        *out = (cv_cost){.seconds = v[0],
                         .steps = (int)v[1],
                         .comm_steps = (int)v[2],
                         .max_sent = (int64_t)v[3],
                         .busiest_total = (int64_t)v[4],
                         .alphas = (int64_t)v[5],
                         .inter_rounds = (int)v[6],
                         .max_sent_inter = (int64_t)v[7],
                         .algbw = v[8],
                         .busbw = v[9]};
        return true;
    }
    cv_spec s = *spec;
    cv_plan *plan = NULL;
    if (cv_spec_check(&s, CV_MAX_RANKS, err, errlen) != CV_OK ||
        cv_plan_create(&s, &plan, err, errlen) != CV_OK)
        return false;
    cv_cost_plan_nodes(plan, link, inter, out);
    cv_plan_destroy(plan);
    if (keyed && remember) {
        double v[NVALUES] = {out->seconds,
                             out->steps,
                             out->comm_steps,
                             (double)out->max_sent,
                             (double)out->busiest_total,
                             (double)out->alphas,
                             out->inter_rounds,
                             (double)out->max_sent_inter,
                             out->algbw,
                             out->busbw};
        put(key, v);
    }
    return true;
}

bool lesson__model_get_crossover(const cv_spec *spec, cv_algo versus, const cv_link *link,
                                 const cv_link *inter, int64_t *bytes)
{
    load_file();
    char key[512];
    int k = make_key(key, sizeof key, "crossover", spec, link, inter, (int)versus) ? find(key) : -1;
    if (k < 0)
        return false;
    *bytes = (int64_t)memo.e[k].v[0];
    return true;
}

void lesson__model_put_crossover(const cv_spec *spec, cv_algo versus, const cv_link *link,
                                 const cv_link *inter, int64_t bytes)
{
    char key[512];
    double v[NVALUES] = {(double)bytes};
    if (make_key(key, sizeof key, "crossover", spec, link, inter, (int)versus))
        put(key, v);
}

int lesson_model_cache_write(const char *path, char *err, size_t errlen)
{
    cJSON *doc = cJSON_CreateObject(), *entries = cJSON_CreateArray();
    cJSON_AddNumberToObject(doc, "format", MODEL_FORMAT);
    cJSON_AddItemToObject(doc, "entries", entries);
    for (int i = 0; i < memo.n; i++) {
        cJSON *row = cJSON_CreateArray();
        cJSON_AddItemToArray(row, cJSON_CreateString(memo.e[i].key));
        for (int j = 0; j < NVALUES; j++)
            cJSON_AddItemToArray(row, cJSON_CreateNumber(memo.e[i].v[j]));
        cJSON_AddItemToArray(entries, row);
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    char why[CV_ERR_LEN] = "out of memory";
    cv_wfile *w = text ? cv_wfile_create(path, 0, why, sizeof why) : NULL;
    FILE *f = cv_wfile_stream(w);
    errno = 0;
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && !ok)
        snprintf(why, sizeof why, "%s", strerror(errno ? errno : EIO));
    if (w && cv_wfile_destroy(w, ok, why, sizeof why) != CV_OK)
        ok = false;
    free(text);
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, why);
        return -1;
    }
    return memo.n;
}
