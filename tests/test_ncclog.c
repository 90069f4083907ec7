/*
 * test_ncclog.c: the NCCL log reader against the topologies the logs were
 * printed from (tests/ncclog/make_logs.py writes NAME.log and NAME.expect),
 * the bad logs against the words their one-line errors must hold, and a
 * log buried in a long training run's output read whole.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncclog.h"

#define LOGDIR COLLVIZ_SOURCE_DIR "/tests/ncclog/"
#define CHECK(cond) EXPECT(cond, "in %s", __func__)

static cJSON *load_expect(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, LOGDIR "%s.expect", name);
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *j = cJSON_Parse(buf);
    REQUIRE(j != NULL);
    return j;
}

static int read_log(const char *name, ncclog *log, char *err, size_t errlen)
{
    char path[512];
    snprintf(path, sizeof path, LOGDIR "%s.log", name);
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    char shown[64];
    snprintf(shown, sizeof shown, "%s.log", name);
    int rc = ncclog_read(f, shown, log, err, errlen);
    fclose(f);
    return rc;
}

static void check_good(const char *name)
{
    cJSON *e = load_expect(name);
    ncclog log;
    char err[2048];
    int rc = read_log(name, &log, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, err);
    REQUIRE(rc == 0);
    const char *comm = cJSON_GetObjectItem(e, "comm")->valuestring;
    const ncclog_comm *c = NULL;
    rc = ncclog_pick(&log, comm[0] ? comm : NULL, &c, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, err);
    REQUIRE(rc == 0);
    CHECK(!strcmp(c->id, comm));
    CHECK(!strcmp(log.version, cJSON_GetObjectItem(e, "version")->valuestring));
    int n = cJSON_GetObjectItem(e, "ranks")->valueint;
    CHECK(c->nranks == n);

    cJSON *rings = cJSON_GetObjectItem(e, "rings");
    CHECK(c->nchannels == cJSON_GetArraySize(rings));
    for (int ch = 0; ch < c->nchannels; ch++) {
        cJSON *ring = cJSON_GetArrayItem(rings, ch);
        for (int i = 0; i < n; i++) {
            int want = cJSON_GetArrayItem(ring, i)->valueint;
            if (c->channels[ch].order[i] != want)
                fprintf(stderr, "%s: channel %d position %d: %d, want %d\n", name, ch, i,
                        c->channels[ch].order[i], want);
            CHECK(c->channels[ch].order[i] == want);
            CHECK(c->channels[ch].next[want] == cJSON_GetArrayItem(ring, (i + 1) % n)->valueint);
        }
    }
    cJSON *parents = cJSON_GetObjectItem(e, "parents");
    for (int ch = 0; ch < cJSON_GetArraySize(parents); ch++) {
        CHECK(c->channels[ch].has_tree);
        for (int r = 0; r < n; r++) {
            int p = cJSON_GetArrayItem(cJSON_GetArrayItem(parents, ch), r)->valueint;
            CHECK(c->channels[ch].parent[r] == p);
            if (p >= 0) { /* and the parent lists it among its children */
                const int *k = c->channels[ch].children[p];
                CHECK(k[0] == r || k[1] == r || k[2] == r);
            }
        }
    }
    cJSON *hosts = cJSON_GetObjectItem(e, "hosts");
    CHECK(c->nnodes == cJSON_GetArraySize(hosts));
    for (int k = 0; k < c->nnodes; k++) {
        cJSON *h = cJSON_GetArrayItem(hosts, k);
        CHECK(!strcmp(c->hosts[k], cJSON_GetArrayItem(h, 0)->valuestring));
        cJSON *rk = cJSON_GetArrayItem(h, 1);
        for (int i = 0; i < cJSON_GetArraySize(rk); i++)
            CHECK(c->ranks[cJSON_GetArrayItem(rk, i)->valueint].node == k);
    }
    cJSON *cut = cJSON_GetObjectItem(e, "summary_cut");
    CHECK(!!(c->sources & NCCLOG_SRC_SUMMARY_CUT) == (cut && cJSON_IsTrue(cut)));
    ncclog_destroy(&log);
    cJSON_Delete(e);
}

static void check_bad(const char *name)
{
    cJSON *e = load_expect(name);
    ncclog log;
    char err[2048];
    int rc = read_log(name, &log, err, sizeof err);
    if (rc == 0) {
        const ncclog_comm *c;
        rc = ncclog_pick(&log, NULL, &c, err, sizeof err);
        ncclog_destroy(&log);
    }
    CHECK(rc != 0);
    CHECK(strchr(err, '\n') == NULL); /* one line */
    cJSON *words = cJSON_GetObjectItem(e, "error");
    for (int i = 0; i < cJSON_GetArraySize(words); i++) {
        const char *w = cJSON_GetArrayItem(words, i)->valuestring;
        if (!strstr(err, w))
            fprintf(stderr, "%s: error '%s' lacks '%s'\n", name, err, w);
        CHECK(strstr(err, w) != NULL);
    }
    cJSON_Delete(e);
}

/* A partial log: read, marked partial, each channel's ring and tree in the
 * state the expect names, and its words in what is missing and the ask. */
static const char *state_name(int st)
{
    static const char *names[] = {"unknown", "partial", "whole", "broken"};
    return st >= 0 && st < 4 ? names[st] : "?";
}

static void check_partial(const char *name)
{
    cJSON *root = load_expect(name), *e = cJSON_GetObjectItem(root, "partial");
    REQUIRE(e != NULL);
    ncclog log;
    char err[2048];
    int rc = read_log(name, &log, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, err);
    REQUIRE(rc == 0);
    const ncclog_comm *c = NULL;
    rc = ncclog_pick(&log, NULL, &c, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, err);
    REQUIRE(rc == 0);
    CHECK(c->partial);
    cJSON *rings = cJSON_GetObjectItem(e, "ring_is"), *trees = cJSON_GetObjectItem(e, "tree_is");
    CHECK(cJSON_GetArraySize(rings) == c->nchannels);
    for (int ch = 0; ch < c->nchannels && ch < cJSON_GetArraySize(rings); ch++) {
        const char *want = cJSON_GetArrayItem(rings, ch)->valuestring;
        if (strcmp(state_name(c->channels[ch].ring), want))
            fprintf(stderr, "%s: channel %d's ring is %s, want %s\n", name, ch,
                    state_name(c->channels[ch].ring), want);
        CHECK(!strcmp(state_name(c->channels[ch].ring), want));
        want = cJSON_GetArrayItem(trees, ch)->valuestring;
        CHECK(!strcmp(state_name(c->channels[ch].tree), want));
    }
    cJSON *ring0 = cJSON_GetObjectItem(e, "ring0");
    for (int i = 0; ring0 && i < c->nranks; i++)
        CHECK(c->channels[0].order[i] == cJSON_GetArrayItem(ring0, i)->valueint);
    char said[2 * NCCLOG_ERR_LEN + 4];
    snprintf(said, sizeof said, "%s | %s", c->missing, c->ask);
    cJSON *words = cJSON_GetObjectItem(e, "words");
    for (int i = 0; i < cJSON_GetArraySize(words); i++) {
        const char *w = cJSON_GetArrayItem(words, i)->valuestring;
        if (!strstr(said, w))
            fprintf(stderr, "%s: '%s' lacks '%s'\n", name, said, w);
        CHECK(strstr(said, w) != NULL);
    }
    ncclog_destroy(&log);
    cJSON_Delete(root);
}

/* The pasted logs of tests/ncclog/real (from public issue threads; their
 * README names each one's source) and tests/ncclog/synth (the classes the
 * public record lacks): each NAME.log against NAME.expect, which says what
 * a reader checked by hand the paste determines: the communicators, the
 * picked one's ranks, which of its ranks printed lines, each channel's ring
 * and tree state, the whole rings, the transports' text, NCCL's WARN lines,
 * the per-call choice lines, the tuning table's crossovers, a contradiction
 * where the paste holds one, and words the printed summary must hold. */
static size_t copy_escape(const char *s, char *out, size_t len)
{
    snprintf(out, len, "%s", s);
    return strlen(out);
}

static int int_at(cJSON *o, const char *key, int dflt)
{
    cJSON *v = cJSON_GetObjectItem(o, key);
    return v ? v->valueint : dflt;
}

static void check_paste(const char *dir, const char *name)
{
    char path[600], shown[600];
    snprintf(path, sizeof path, LOGDIR "%s/%s.expect", dir, name);
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *e = cJSON_Parse(buf);
    REQUIRE(e != NULL);
    snprintf(path, sizeof path, LOGDIR "%s/%s.log", dir, name);
    snprintf(shown, sizeof shown, "tests/ncclog/%s/%s.log", dir, name);
    f = fopen(path, "rb");
    REQUIRE(f != NULL);
    ncclog log;
    char err[2048];
    int rc = ncclog_read(f, shown, &log, err, sizeof err);
    fclose(f);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, err);
    REQUIRE(rc == 0);
    EXPECT(log.ncomms == int_at(e, "comms", -1), "%s: %d communicators", name, log.ncomms);
    EXPECT(log.nwarn == int_at(e, "warn_lines", 0), "%s: %ld WARN lines", name, log.nwarn);
    if (log.nwarn)
        EXPECT(log.warns[0].line == int_at(e, "first_warn_line", 0), "%s: first WARN", name);
    cJSON *v = cJSON_GetObjectItem(e, "version");
    EXPECT(!strcmp(log.version, v ? v->valuestring : ""), "%s: version '%s'", name, log.version);
    EXPECT(log.ncalls == int_at(e, "calls", 0), "%s: %d per-call lines", name, log.ncalls);
    const ncclog_comm *c = NULL;
    cJSON *pick = cJSON_GetObjectItem(e, "comm");
    if (pick) {
        rc = ncclog_pick(&log, pick->valuestring, &c, err, sizeof err);
        c = rc ? NULL : c;
    } else if (log.ncomms) {
        c = &log.comms[0];
    }
    cJSON *problem = cJSON_GetObjectItem(e, "problem");
    if (problem && c) {
        EXPECT(!strcmp(c->problem, problem->valuestring), "%s: problem '%s'", name, c->problem);
        rc = ncclog_pick(&log, pick ? pick->valuestring : NULL, &c, err, sizeof err);
        CHECK(rc != 0 && strchr(err, '\n') == NULL);
    } else if (c) {
        EXPECT(!c->problem[0], "%s: problem '%s'", name, c->problem);
        CHECK(c->nranks == int_at(e, "ranks", -1));
        CHECK(c->partial == cJSON_IsTrue(cJSON_GetObjectItem(e, "partial")));
        cJSON *printed = cJSON_GetObjectItem(e, "ranks_printed");
        int np = 0;
        for (int r = 0; r < c->nranks; r++)
            np += c->ranks[r].printed;
        CHECK(np == cJSON_GetArraySize(printed));
        for (int i = 0; i < cJSON_GetArraySize(printed); i++)
            CHECK(c->ranks[cJSON_GetArrayItem(printed, i)->valueint].printed);
        cJSON *ring_is = cJSON_GetObjectItem(e, "ring_is");
        cJSON *tree_is = cJSON_GetObjectItem(e, "tree_is");
        EXPECT(c->nchannels == cJSON_GetArraySize(ring_is), "%s: %d channels", name, c->nchannels);
        for (int ch = 0; ch < c->nchannels && ch < cJSON_GetArraySize(ring_is); ch++) {
            const char *want = cJSON_GetArrayItem(ring_is, ch)->valuestring;
            EXPECT(!strcmp(state_name(c->channels[ch].ring), want), "%s: channel %d's ring %s",
                   name, ch, state_name(c->channels[ch].ring));
            want = cJSON_GetArrayItem(tree_is, ch)->valuestring;
            EXPECT(!strcmp(state_name(c->channels[ch].tree), want), "%s: channel %d's tree %s",
                   name, ch, state_name(c->channels[ch].tree));
        }
        cJSON *ring;
        cJSON_ArrayForEach(ring, cJSON_GetObjectItem(e, "rings"))
        {
            int ch = atoi(ring->string);
            REQUIRE(ch < c->nchannels && c->channels[ch].ring == NCCLOG_WHOLE);
            for (int i = 0; i < c->nranks; i++)
                EXPECT(c->channels[ch].order[i] == cJSON_GetArrayItem(ring, i)->valueint,
                       "%s: channel %d position %d", name, ch, i);
        }
        cJSON *via;
        cJSON_ArrayForEach(via, cJSON_GetObjectItem(e, "vias"))
        {
            bool found = false;
            for (int ch = 0; ch < c->nchannels && !found; ch++)
                for (int r = 0; r < c->nranks && !found; r++)
                    found = !strcmp(c->channels[ch].via_text[r], via->valuestring);
            EXPECT(found, "%s: no hop via '%s'", name, via->valuestring);
        }
    }
    cJSON *coll;
    cJSON_ArrayForEach(coll, cJSON_GetObjectItem(e, "choice"))
    {
        int k = ncclog_coll_index(coll->string, strlen(coll->string));
        ncclog_choice ch[NCCLOG_CHOICE_SIZES];
        char note[512];
        REQUIRE(ncclog_choices(&log, log.ncomms == 1 ? &log.comms[0] : NULL, k, ch, note,
                               sizeof note) == NCCLOG_CHOICE_SIZES);
        int i = 0, prev_a = -2, prev_p = -2;
        cJSON *x;
        cJSON_ArrayForEach(x, coll)
        {
            while (i < NCCLOG_CHOICE_SIZES && ch[i].algo == prev_a && ch[i].proto == prev_p)
                i++;
            REQUIRE(i < NCCLOG_CHOICE_SIZES);
            char pick_s[64];
            snprintf(pick_s, sizeof pick_s, "%s/%s", ncclog_algo_name(ch[i].algo),
                     ncclog_proto_name(ch[i].proto));
            EXPECT(ch[i].bytes == (int64_t)cJSON_GetArrayItem(x, 0)->valuedouble &&
                       !strcmp(pick_s, cJSON_GetArrayItem(x, 1)->valuestring),
                   "%s: %s's choice changes at %lld to %s", name, coll->string,
                   (long long)ch[i].bytes, pick_s);
            prev_a = ch[i].algo, prev_p = ch[i].proto;
        }
    }
    /* What the summary says. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    REQUIRE(mem != NULL);
    if (c && !c->problem[0])
        ncclog_print_summary(mem, &log, c, copy_escape);
    else if (!log.ncomms)
        ncclog_print_log(mem, &log, copy_escape);
    fclose(mem);
    cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(e, "words"))
    {
        if (!strstr(text, w->valuestring))
            fprintf(stderr, "%s: the summary lacks '%s':\n%s\n", name, w->valuestring, text);
        CHECK(strstr(text, w->valuestring) != NULL);
    }
    free(text);
    ncclog_destroy(&log);
    cJSON_Delete(e);
}

/* Every NAME.log of a directory, at least min of them. */
static void check_pastes(const char *dir, int min)
{
    char path[512];
    snprintf(path, sizeof path, LOGDIR "%s", dir);
    DIR *d = opendir(path);
    REQUIRE(d != NULL);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t k = strlen(de->d_name);
        if (k < 5 || strcmp(de->d_name + k - 4, ".log"))
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(k - 4), de->d_name);
        check_paste(dir, name);
        n++;
    }
    closedir(d);
    EXPECT(n >= min, "%s: %d logs, want at least %d", dir, n, min);
}

/* Three communicators, each process with its own pointer for each: listed
 * without --comm, each one picked by its id and by a prefix of it, one by
 * a member's pointer, a prefix shared by several refused as ambiguous, a
 * wrong id refused with the list. multi-comm names them by commId;
 * multi-comm-old has only the pointers, and groups split by parity. */
static void check_multi(const char *name)
{
    cJSON *e = load_expect(name);
    ncclog log;
    char err[2048];
    REQUIRE(read_log(name, &log, err, sizeof err) == 0);
    const ncclog_comm *c;
    CHECK(ncclog_pick(&log, NULL, &c, err, sizeof err) != 0);
    CHECK(strstr(err, "3 communicators") && strstr(err, "--comm"));
    CHECK(log.ncomms == 3);
    cJSON *ids = cJSON_GetObjectItem(e, "comms");
    for (int i = 0; i < cJSON_GetArraySize(ids); i++) {
        const char *id = cJSON_GetArrayItem(ids, i)->valuestring;
        CHECK(strstr(err, id) != NULL);
    }
    for (int i = 0; i < cJSON_GetArraySize(ids); i++) {
        const char *id = cJSON_GetArrayItem(ids, i)->valuestring;
        REQUIRE(ncclog_pick(&log, id, &c, err, sizeof err) == 0);
        CHECK(!strcmp(c->id, id));
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%.*s", (int)strlen(id) - 1, id);
        REQUIRE(ncclog_pick(&log, prefix, &c, err, sizeof err) == 0);
        CHECK(!strcmp(c->id, id));
        cJSON *rings = cJSON_GetObjectItem(cJSON_GetObjectItem(e, "rings_by_comm"), id);
        CHECK(c->nchannels == cJSON_GetArraySize(rings));
        for (int ch = 0; ch < c->nchannels; ch++)
            for (int k = 0; k < c->nranks; k++)
                CHECK(c->channels[ch].order[k] ==
                      cJSON_GetArrayItem(cJSON_GetArrayItem(rings, ch), k)->valueint);
        for (int k = 1; k < c->nranks; k++) /* every rank its own pointer */
            CHECK(c->ranks[k].ptr[0] && strcmp(c->ranks[k].ptr, c->ranks[0].ptr) != 0);
    }
    cJSON *ptr = cJSON_GetObjectItem(e, "a_pointer")->child;
    REQUIRE(ncclog_pick(&log, ptr->string, &c, err, sizeof err) == 0);
    CHECK(!strcmp(c->id, ptr->valuestring));
    CHECK(ncclog_pick(&log, "0x", &c, err, sizeof err) != 0);
    CHECK(strstr(err, "ambiguous") != NULL);
    CHECK(ncclog_pick(&log, "0xdead", &c, err, sizeof err) != 0);
    CHECK(strstr(err, "matches no communicator") != NULL);
    ncclog_destroy(&log);
    cJSON_Delete(e);
}

/* A pointer-only log of 16 ranks, one process each: every rank its own
 * pointer, and still one communicator (what real logs of NCCL before
 * commId look like). */
static void check_pointer_only(void)
{
    FILE *tmp = tmpfile();
    REQUIRE(tmp != NULL);
    for (int r = 0; r < 16; r++) {
        fprintf(tmp, "h%d:%d:%d [%d] NCCL INFO Ring 00 : %d -> %d -> %d\n", r / 8, 100 + r,
                100 + r, r % 8, (r + 15) % 16, r, (r + 1) % 16);
        fprintf(tmp, "h%d:%d:%d [%d] NCCL INFO comm 0x7f%04x0 rank %d nranks 16 cudaDev %d "
                     "busId 1000 - Init COMPLETE\n",
                r / 8, 100 + r, 100 + r, r % 8, 0x1000 + 17 * r, r, r % 8);
    }
    rewind(tmp);
    ncclog log;
    char err[2048];
    int rc = ncclog_read(tmp, "pointers.log", &log, err, sizeof err);
    fclose(tmp);
    REQUIRE(rc == 0);
    const ncclog_comm *c;
    rc = ncclog_pick(&log, NULL, &c, err, sizeof err);
    if (rc)
        fprintf(stderr, "pointers.log: %s\n", err);
    REQUIRE(rc == 0);
    CHECK(c->nranks == 16 && c->nnodes == 2 && !c->by_commid && !c->grouped_by_order);
    CHECK(!strcmp(c->id, "0x7f10000"));
    REQUIRE(ncclog_pick(&log, "0x7f10110", &c, err, sizeof err) == 0); /* rank 1's */
    ncclog_destroy(&log);
}

/* Pointers only, and processes 2 and 3 created their pair before the
 * world, where 0 and 1 made the world first: the world's two halves are
 * found and joined, beside the two pairs. */
static void check_pointer_order(void)
{
    FILE *tmp = tmpfile();
    REQUIRE(tmp != NULL);
    for (int p = 0; p < 4; p++) {
        for (int k = 0; k < 2; k++) {
            bool world = (k == 0) == (p < 2);
            int rank = world ? p : p % 2, n = world ? 4 : 2;
            fprintf(tmp, "h:%d:%d [%d] NCCL INFO Ring 00 : %d -> %d -> %d\n", p, p, p,
                    (rank + n - 1) % n, rank, (rank + 1) % n);
            fprintf(tmp, "h:%d:%d [%d] NCCL INFO comm 0x7f%d%d00 rank %d nranks %d cudaDev %d "
                         "busId 1000 - Init COMPLETE\n",
                    p, p, p, p, k, rank, n, p);
        }
    }
    rewind(tmp);
    ncclog log;
    char err[2048];
    int rc = ncclog_read(tmp, "order.log", &log, err, sizeof err);
    fclose(tmp);
    REQUIRE(rc == 0);
    CHECK(log.ncomms == 3);
    const ncclog_comm *c;
    rc = ncclog_pick(&log, "0x7f2100", &c, err, sizeof err); /* process 2's world */
    if (rc)
        fprintf(stderr, "order.log: %s\n", err);
    REQUIRE(rc == 0);
    CHECK(c->nranks == 4 && !strcmp(c->id, "0x7f0000"));
    for (int i = 0; i < 4; i++)
        CHECK(c->channels[0].next[i] == (i + 1) % 4);
    REQUIRE(ncclog_pick(&log, "0x7f2000", &c, err, sizeof err) == 0); /* process 2's pair */
    CHECK(c->nranks == 2 && !strcmp(c->ranks[1].ptr, "0x7f3000"));
    ncclog_destroy(&log);
}

/* 100,000 communicators of one rank each, by commId and by pointer: ids
 * are looked up in a hash, so this takes well under a second (the linear
 * search it replaces took minutes). */
static void check_many_comms(void)
{
    FILE *tmp = tmpfile();
    REQUIRE(tmp != NULL);
    for (int i = 0; i < 100000; i++) {
        fprintf(tmp, "h:%d:%d [0] NCCL INFO comm 0x5%07x0 rank 0 nRanks 1 nNodes 1 localRanks 1 "
                     "localRank 0 MNNVL 0\n",
                i, i, i);
        fprintf(tmp, "h:%d:%d [0] NCCL INFO Ring 00 : 0 -> 0 -> 0\n", i, i);
        if (i % 2)
            fprintf(tmp, "h:%d:%d [0] NCCL INFO comm 0x5%07x0 rank 0 nranks 1 cudaDev 0 busId 1 "
                         "commId 0x%016x - Init COMPLETE\n",
                    i, i, i, i);
    }
    rewind(tmp);
    double t0 = cv_now_seconds();
    ncclog log;
    char err[2048];
    REQUIRE(ncclog_read(tmp, "many.log", &log, err, sizeof err) == 0);
    fclose(tmp);
    double dt = cv_now_seconds() - t0;
    if (dt > 20)
        fprintf(stderr, "many.log: %.1f s\n", dt);
    CHECK(dt < 20);
    CHECK(log.ncomms == 100000);
    const ncclog_comm *c;
    char id[32];
    snprintf(id, sizeof id, "0x5%07x0", 77776); /* a pointer's */
    REQUIRE(ncclog_pick(&log, id, &c, err, sizeof err) == 0);
    CHECK(!strcmp(c->id, id) && c->nranks == 1 && !c->by_commid);
    snprintf(id, sizeof id, "0x%016x", 77777); /* a commId */
    REQUIRE(ncclog_pick(&log, id, &c, err, sizeof err) == 0);
    CHECK(!strcmp(c->id, id) && c->by_commid);
    ncclog_destroy(&log);
}

/* The 16-rank log inside 200,000 lines of a training run's own output,
 * streamed through a pipe as `collviz nccl-log -` would read it. */
static void check_buried(void)
{
    char path[512];
    snprintf(path, sizeof path, LOGDIR "two-nodes-16.log");
    FILE *src = fopen(path, "rb");
    REQUIRE(src != NULL);
    FILE *tmp = tmpfile();
    REQUIRE(tmp != NULL);
    for (int i = 0; i < 100000; i++)
        fprintf(tmp, "[rank%d]: step %d loss %.4f lr 3.0e-4 grad_norm 1.02 tokens/s 412345\n", i % 16,
                i, 7.0 - i * 1e-5);
    char line[4096];
    while (fgets(line, sizeof line, src))
        fputs(line, tmp);
    for (int i = 0; i < 100000; i++)
        fprintf(tmp, "iteration %d: NCCL INFO-looking text that is not: Channel x\n", i);
    fclose(src);
    rewind(tmp);
    ncclog log;
    char err[2048];
    REQUIRE(ncclog_read(tmp, "buried.log", &log, err, sizeof err) == 0);
    fclose(tmp);
    const ncclog_comm *c;
    REQUIRE(ncclog_pick(&log, NULL, &c, err, sizeof err) == 0);
    CHECK(c->nranks == 16 && c->nnodes == 2 && c->nchannels == 4);
    CHECK(log.lines > 200000);
    ncclog_destroy(&log);
}

/* Lines are read into a bounded buffer: a 5 MB line in the middle of the
 * 16-rank log is cut and counted, NUL bytes inside lines are dropped and
 * counted, and the log around them is read whole; a file of NUL bytes with
 * no line end is refused as not text once a bounded amount is read. */
static void check_bounds(void)
{
    FILE *src = fopen(LOGDIR "two-nodes-16.log", "rb");
    REQUIRE(src != NULL);
    FILE *tmp = tmpfile();
    REQUIRE(tmp != NULL);
    char line[4096];
    long n = 0;
    while (fgets(line, sizeof line, src)) {
        if (++n == 40) {
            fputs("[rank3]: env ", tmp);
            for (int i = 0; i < 5 * 1024 * 1024; i++)
                fputc('A' + i % 26, tmp);
            fputc('\n', tmp);
        }
        if (n == 50) { /* NUL bytes inside a line NCCL printed */
            size_t k = strlen(line);
            fwrite(line, 1, k / 2, tmp);
            fwrite("\0\0\0", 1, 3, tmp);
            fputs(line + k / 2, tmp);
            continue;
        }
        fputs(line, tmp);
    }
    fclose(src);
    rewind(tmp);
    ncclog log;
    char err[2048];
    int rc = ncclog_read(tmp, "long.log", &log, err, sizeof err);
    fclose(tmp);
    if (rc)
        fprintf(stderr, "long.log: %s\n", err);
    REQUIRE(rc == 0);
    CHECK(log.lines == n + 1);
    CHECK(log.cut_lines == 1 && log.first_cut == 40);
    CHECK(log.nul_bytes == 3 && log.first_nul == 51);
    const ncclog_comm *c;
    REQUIRE(ncclog_pick(&log, NULL, &c, err, sizeof err) == 0);
    CHECK(c->nranks == 16 && c->nnodes == 2 && c->nchannels == 4);
    char note[256];
    ncclog_read_note(&log, note, sizeof note);
    CHECK(strstr(note, "1 line longer than 64 KiB was read only that far (the first at line "
                       "40)") != NULL);
    CHECK(strstr(note, "3 NUL bytes dropped (the first on line 51)") != NULL);
    ncclog_destroy(&log);

    tmp = tmpfile();
    REQUIRE(tmp != NULL);
    static char zeros[1 << 16];
    for (int i = 0; i < 40; i++) /* 2.5 MiB of NUL bytes, no line end */
        fwrite(zeros, 1, sizeof zeros, tmp);
    rewind(tmp);
    CHECK(ncclog_read(tmp, "zeros.bin", &log, err, sizeof err) != 0);
    CHECK(strstr(err, "zeros.bin:1: more than 1048576 NUL bytes and no line end: this is not a "
                      "text log") != NULL);
    fclose(tmp);
}

/* The lesson on reading a log stages channel 1 of the shipped log: its
 * ring, its double tree (channels 1 and 3), and quiz answers that are what
 * the log says. */
static void check_lesson(void)
{
    FILE *f = fopen(COLLVIZ_SOURCE_DIR "/assets/ncclog/two-nodes-16.log", "rb");
    REQUIRE(f != NULL);
    ncclog log;
    char err[2048];
    REQUIRE(ncclog_read(f, "two-nodes-16.log", &log, err, sizeof err) == 0);
    fclose(f);
    const ncclog_comm *c;
    REQUIRE(ncclog_pick(&log, NULL, &c, err, sizeof err) == 0);
    cv_topology t;
    int nodes;
    char note[256];
    REQUIRE(ncclog_topology(c, 1, &t, &nodes, note, sizeof note, err, sizeof err) == 0);
    CHECK(nodes == 2);

    f = fopen(COLLVIZ_SOURCE_DIR "/lessons/algo-nccl-log.json", "rb");
    REQUIRE(f != NULL);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *l = cJSON_Parse(buf);
    REQUIRE(l != NULL);
    cJSON *setup = cJSON_GetObjectItem(l, "setup"), *ring = cJSON_GetObjectItem(setup, "ring");
    CHECK(cJSON_GetObjectItem(setup, "ranks")->valueint == c->nranks);
    CHECK(cJSON_GetObjectItem(setup, "nodes")->valueint == nodes);
    for (int i = 0; i < c->nranks; i++)
        CHECK(cJSON_GetArrayItem(ring, i)->valueint == t.ring[i]);
    cJSON *beats = cJSON_GetObjectItem(l, "beats"), *b;
    int seen = 0;
    cJSON_ArrayForEach(b, beats)
    {
        cJSON *o = cJSON_GetObjectItem(b, "setup"), *q = cJSON_GetObjectItem(b, "quiz");
        cJSON *trees = o ? cJSON_GetObjectItem(o, "trees") : NULL;
        for (int k = 0; trees && k < 2; k++, seen++)
            for (int r = 0; r < c->nranks; r++)
                CHECK(cJSON_GetArrayItem(cJSON_GetArrayItem(trees, k), r)->valueint ==
                      t.parent[k][r]);
        const char *id = q ? cJSON_GetObjectItem(q, "id")->valuestring : "";
        if (!strcmp(id, "next-hop")) { /* where GPU 14 sends on channel 1 */
            CHECK(cJSON_GetObjectItem(q, "answer")->valueint == c->channels[1].next[14]);
            seen++;
        }
        if (!strcmp(id, "tree-parent")) { /* GPU 8's parent in channel 1's tree */
            CHECK(cJSON_GetObjectItem(q, "answer")->valueint == c->channels[1].parent[8]);
            seen++;
        }
    }
    CHECK(seen == 4);
    cJSON_Delete(l);
    ncclog_destroy(&log);
}

static const char *const good[] = {"single-node-8",   "two-nodes-16", "cut-summary-32", "dbtree-4",
                                   "old-connections", "old-updown",   "tree-lines"};
static const char *const bad[] = {"bad-not-nccl", "bad-disagree", "bad-tree", "bad-rank"};
static const char *const partial[] = {"partial-no-rings", "partial-missing-rank", "partial-conn",
                                      "partial-missing-tree-rank", "partial-cut-summary"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int good_name(int i, char *name, size_t len)
{
    return cases_name_at(good, COUNT(good), i, name, len);
}
static void good_case(int i) { check_good(good[i]); }
static int bad_name(int i, char *name, size_t len)
{
    return cases_name_at(bad, COUNT(bad), i, name, len);
}
static void bad_case(int i) { check_bad(bad[i]); }
static int partial_name(int i, char *name, size_t len)
{
    return cases_name_at(partial, COUNT(partial), i, name, len);
}
static void partial_case(int i) { check_partial(partial[i]); }
static void pastes_real(void) { check_pastes("real", 25); }
static void pastes_synth(void) { check_pastes("synth", 8); }
static void multi_comm(void) { check_multi("multi-comm"); }
static void multi_comm_old(void) { check_multi("multi-comm-old"); }

static const test_case cases[] = {
    CASE_EACH("good", good_name, good_case),
    CASE_EACH("bad", bad_name, bad_case),
    CASE_EACH("partial", partial_name, partial_case),
    CASE("pastes/real", pastes_real),
    CASE("pastes/synth", pastes_synth),
    CASE("multi/multi-comm", multi_comm),
    CASE("multi/multi-comm-old", multi_comm_old),
    CASE("pointer-only", check_pointer_only),
    CASE("pointer-order", check_pointer_order),
    CASE("many-comms", check_many_comms),
    CASE("buried", check_buried),
    CASE("bounds", check_bounds),
    CASE("lesson", check_lesson),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
