/*
 * test_model_measured.c: NCCL's tuner as collviz models it (`cost --nccl`,
 * `show --nccl`) against nccl-tests results measured on real systems, read
 * from the pastes in tests/model/measured/ (their threads and pages in its
 * README.md). index.json says, for each paste, the preset and nodes it is
 * priced on, or why it is left out (a system the thread calls broken, a
 * network no preset models, CollNet); the reasons are printed.
 *
 * The targets: at the paste's largest size the model's busbw within 15% of
 * the measured out-of-place busbw; where the paste reaches small sizes
 * (64 KiB and below), the model's least time within a factor of 2 of the
 * measured least time (the latency floor).
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "show.h"

#define DIR COLLVIZ_SOURCE_DIR "/tests/model/measured/"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static int priced, floors;

static void check_entry(const cJSON *e)
{
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(e, "file"));
    const cJSON *m = cJSON_GetObjectItem(e, "model");
    EXPECT(file != NULL, "an entry without a file");
    if (!file)
        return;
    if (!cJSON_IsObject(m)) {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(e, "model_excluded"));
        EXPECT(why && *why, "%s: left out without a reason", file);
        printf("  %-52s left out: %s\n", file, why ? why : "?");
        return;
    }
    EXPECT(!cJSON_IsTrue(cJSON_GetObjectItem(e, "anomalous")) &&
               !cJSON_IsString(cJSON_GetObjectItem(e, "anomalous")),
           "%s: priced although marked anomalous", file);
    const char *preset = cJSON_GetStringValue(cJSON_GetObjectItem(m, "preset"));
    const ncclog_system *base = preset ? ncclog_system_find(preset) : NULL;
    EXPECT(base != NULL, "%s: no preset '%s'", file, preset ? preset : "");
    if (!base)
        return;
    ncclog_system sys = *base;
    sys.nodes = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(m, "nodes"));
    const char *only = cJSON_GetStringValue(cJSON_GetObjectItem(m, "nccl_algo"));
    show_hints h = {.op = cv_op_parse(cJSON_GetStringValue(cJSON_GetObjectItem(e, "op"))),
                    .ranks = sys.nodes * sys.gpus_per_node, .algo = -1};
    char path[512], err[1200], about[512];
    snprintf(path, sizeof path, DIR "%s", file);
    show_result r;
    int rc = show_load(path, &h, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: %s", file, err);
    if (rc != CV_OK)
        return;
    rc = show_model_nccl(&r, &sys, only, about, sizeof about, err, sizeof err);
    EXPECT(rc == CV_OK && r.nrows > 0, "%s: %s", file, err);
    if (rc != CV_OK || r.nrows == 0) {
        show_result_destroy(&r);
        return;
    }
    const show_row *top = &r.rows[r.nrows - 1];
    double off = top->model_busbw / top->busbw - 1;
    EXPECT(fabs(off) <= 0.15, "%s: at %.0f B the model's busbw %.2f is %+.1f%% off the "
           "measured %.2f GB/s (target 15%%)", file, top->size, top->model_busbw, off * 100,
           top->busbw);
    printf("  %-52s %s x %d: busbw at %.0f B measured %.2f, model %.2f (%+.1f%%, %s)", file,
           sys.name, sys.nodes, top->size, top->busbw, top->model_busbw, off * 100, top->pick);
    priced++;
    if (cJSON_IsTrue(cJSON_GetObjectItem(m, "floor"))) {
        double meas = INFINITY, model = INFINITY;
        for (int i = 0; i < r.nrows; i++) {
            if (r.rows[i].size > 65536)
                continue;
            meas = fmin(meas, r.rows[i].time_us);
            model = fmin(model, r.rows[i].model_us);
        }
        EXPECT(isfinite(meas) && isfinite(model), "%s: floor asked for, no row of 64 KiB or less",
               file);
        double ratio = model / meas;
        EXPECT(ratio >= 0.5 && ratio <= 2.0, "%s: least time measured %.1f us, model %.1f us "
               "(x%.2f, target within 2x)", file, meas, model, ratio);
        printf("; floor measured %.1f us, model %.1f us (x%.2f)", meas, model, ratio);
        floors++;
    } else {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(m, "floor_why"));
        EXPECT(why && *why, "%s: no floor check and no reason", file);
        printf("; floor not checked: %s", why ? why : "?");
    }
    printf("\n");
    show_result_destroy(&r);
}

static void measured(void)
{
    char *text = slurp(DIR "index.json");
    EXPECT(text != NULL, "cannot read %sindex.json", DIR);
    if (!text)
        return;
    cJSON *idx = cJSON_Parse(text);
    free(text);
    EXPECT(cJSON_IsArray(idx), "index.json is not a JSON array");
    const cJSON *e;
    cJSON_ArrayForEach(e, idx)
    check_entry(e);
    cJSON_Delete(idx);
    /* the data must keep enough in it for the targets to mean something */
    EXPECT(priced >= 5, "only %d pastes priced", priced);
    EXPECT(floors >= 2, "only %d latency floors checked", floors);
    printf("  %d pastes priced, %d floors checked\n", priced, floors);
}

static const test_case cases[] = {
    CASE("measured", measured),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
