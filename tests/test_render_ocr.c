/*
 * test_render_ocr.c: the final AllReduce sums can be read back off the
 * picture by OCR (tesseract), as a learner would read them: 8 and 16 ranks
 * on 1920x1080, and 8 ranks in the projector theme on 1024x768, both the
 * window's frame (buttons, timeline, narration) and the exported frame
 * (`collviz export`: no buttons).
 *
 * The frame is made black on white (text is light on the dark themes) and
 * scaled up without smoothing, then read with tesseract's sparse-text mode.
 * Every distinct sum must be read somewhere, at least 70% of the result
 * cells must be read, and almost nothing that looks like a sum may be
 * wrong. The expected values are the trace's own results, formatted as the
 * stage formats them. Skipped (77) without tesseract (scripts/deps.sh
 * installs it).
 */
#include "test_render_util.h"

#include <SDL_image.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int ranks, w, h;
    rd_theme_id theme;
} ocr_case;

/* The stage's part of the frame, black text on white, scaled by k
 * (nearest neighbour). */
static SDL_Surface *prepare(SDL_Surface *in, SDL_Rect crop, int k)
{
    SDL_Surface *src = SDL_ConvertSurfaceFormat(in, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_Surface *out = SDL_CreateRGBSurfaceWithFormat(0, crop.w * k, crop.h * k, 32,
                                                      SDL_PIXELFORMAT_ARGB8888);
    for (int y = 0; y < out->h; y++) {
        const uint32_t *s = (const uint32_t *)((const uint8_t *)src->pixels +
                                               (size_t)(crop.y + y / k) * src->pitch) + crop.x;
        uint32_t *d = (uint32_t *)((uint8_t *)out->pixels + (size_t)y * out->pitch);
        for (int x = 0; x < out->w; x++) {
            uint32_t p = s[x / k];
            int lum = (int)(((p >> 16) & 255) * 299 + ((p >> 8) & 255) * 587 + (p & 255) * 114) / 1000;
            d[x] = lum > 140 ? 0xff000000u : 0xffffffffu;
        }
    }
    SDL_FreeSurface(src);
    return out;
}

/* Reads the frame with tesseract; returns the words (caller frees). */
static char *ocr(SDL_Surface *frame, SDL_Rect crop, int k, const char *name)
{
    char png[1024], base[1024], cmd[2600], txt[1100];
    snprintf(png, sizeof png, "%s/ocr-%s-x%d.png", COLLVIZ_BINARY_DIR, name, k);
    snprintf(base, sizeof base, "%s/ocr-%s-x%d", COLLVIZ_BINARY_DIR, name, k);
    SDL_Surface *s = prepare(frame, crop, k);
    IMG_SavePNG(s, png);
    SDL_FreeSurface(s);
    /* One thread: several times faster on a small shared machine. */
    snprintf(cmd, sizeof cmd, "OMP_THREAD_LIMIT=1 tesseract '%s' '%s' --psm 11 >/dev/null 2>&1", png,
             base);
    if (system(cmd) != 0)
        return NULL;
    snprintf(txt, sizeof txt, "%s.txt", base);
    FILE *f = fopen(txt, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* How many words of text are each expected value; wrong: words of the
 * sums' length and first digit that are none of them. */
static int match(const char *text, char (*want)[32], int nwant, int *found, int *wrong)
{
    int total = 0;
    *wrong = 0;
    memset(found, 0, sizeof(int) * (size_t)nwant);
    char *copy = strdup(text);
    for (char *w = strtok(copy, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
        bool hit = false;
        for (int i = 0; i < nwant && !hit; i++)
            if (strcmp(w, want[i]) == 0) {
                found[i]++;
                total++;
                hit = true;
            }
        if (!hit && strlen(w) == strlen(want[0]) && w[0] == want[0][0] &&
            strspn(w, "0123456789") == strlen(w))
            (*wrong)++;
    }
    free(copy);
    return total;
}

static void check_frame(gui *g, const ocr_case *c, bool exported)
{
    const cv_trace *t = gui_trace(g, 0);
    const cv_spec *spec = &cv_trace_plan(t)->spec;
    /* The distinct result values, as the stage writes them. */
    static char want[4096][32];
    int nwant = 0, cells = 0;
    for (int r = 0; r < spec->ranks; r++) {
        const void *out = cv_trace_output(t, r);
        for (int64_t i = 0; out && i < cv_spec_buf_count(spec, CV_BUF_RECV, r); i++) {
            char v[32];
            rd_value_text(spec->dtype, out, i, v, sizeof v);
            cells++;
            bool seen = false;
            for (int k = 0; k < nwant && !seen; k++)
                seen = strcmp(want[k], v) == 0;
            if (!seen && nwant < 4096)
                snprintf(want[nwant++], sizeof want[0], "%s", v);
        }
    }
    g->clean = exported;
    gui_seek(g, gui_nsteps(g));
    SDL_Surface *frame = tr_capture(g);
    char name[96];
    snprintf(name, sizeof name, "%d-%s-%dx%d-%s", c->ranks, rd_theme_get(c->theme)->name, c->w, c->h,
             exported ? "export" : "window");
    SDL_Rect crop = rd_last_layout(gui_rd(g))->stage;
    int best = -1, best_wrong = 0, found[4096], best_found[4096];
    /* Twice the size reads most frames; three times where it does not. */
    for (int k = 2; k <= 3 && !(best * 10 >= cells * 7 && best_wrong * 20 <= cells); k++) {
        char *text = ocr(frame, crop, k, name);
        if (!text) {
            TR_CHECK(false, "%s: tesseract failed", name);
            break;
        }
        int wrong;
        int n = match(text, want, nwant, found, &wrong);
        free(text);
        if (n > best) {
            best = n, best_wrong = wrong;
            memcpy(best_found, found, sizeof(int) * (size_t)nwant);
        }
    }
    SDL_FreeSurface(frame);
    if (best < 0)
        return;
    int missing = 0;
    for (int i = 0; i < nwant; i++)
        if (best_found[i] == 0) {
            missing++;
            TR_CHECK(false, "%s: the sum %s is read nowhere", name, want[i]);
        }
    printf("%s: %d of %d result cells read, %d distinct sums all read: %s, %d misread\n", name, best,
           cells, nwant, missing ? "no" : "yes", best_wrong);
    TR_CHECK(best * 10 >= cells * 7, "%s: only %d of %d result cells read", name, best, cells);
    TR_CHECK(best_wrong * 20 <= cells, "%s: %d words look like sums but are wrong", name, best_wrong);
}

static const ocr_case setups[] = {
    {8, 1920, 1080, RD_THEME_DARK},
    {16, 1920, 1080, RD_THEME_DARK},
    {8, 1024, 768, RD_THEME_PROJECTOR},
};

/* One case a setup: "8-ranks-1920x1080-dark". */
static int setup_name(int i, char *name, size_t len)
{
    if (i >= (int)(sizeof setups / sizeof *setups))
        return 0;
    snprintf(name, len, "%d-ranks-%dx%d-%s", setups[i].ranks, setups[i].w, setups[i].h,
             rd_theme_get(setups[i].theme)->name);
    return 1;
}

static void read_setup(int i)
{
    const ocr_case *c = &setups[i];
    cv_spec spec =
        tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, c->ranks, gui_default_count(CV_OP_ALLREDUCE, c->ranks));
    gui *g = tr_gui(&spec, c->w, c->h, c->theme, CV_LANG_EN);
    TR_CHECK(gui_trace(g, 0) != NULL, "no trace for %d ranks", c->ranks);
    if (gui_trace(g, 0)) {
        check_frame(g, c, false);
        check_frame(g, c, true);
    }
    gui_destroy(g);
}

static const test_case cases[] = {
    CASE_EACH("", setup_name, read_setup),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    if (system("tesseract --version >/dev/null 2>&1") != 0) {
        printf("skipped: tesseract is not installed (scripts/deps.sh installs tesseract-ocr)\n");
        return TR_SKIP;
    }
    cases_run();
    SDL_Quit();
    return cases_end();
}
