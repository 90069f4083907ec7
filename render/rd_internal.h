/*
 * rd_internal.h: names shared between the renderer's files (prefix rd__).
 * Not part of the public interface in render.h.
 *
 * The renderer is built in four layers, and a file calls only files below
 * it: a lower layer, or one before it in its own layer, in this order
 * (tests/test_render_layers.sh checks it on the object files):
 *   1. primitives: faces, cached text, palettes, strings, keys, shapes,
 *      images: rd_font.c, rd_text.c, rd_theme.c, rd_theme_load.c,
 *      rd_strings.c, rd_keys.c, rd_prims.c, rd_image.c
 *   2. plan: what a plan's links, steps, chunks and prices are, and the
 *      words for them: rd_plan.c, rd_chunks.c, rd_words.c
 *   3. layout: where everything goes, rectangles and lines only, nothing
 *      drawn; the hit test reads it: rd_cells.c, rd_fit.c, rd_stage.c,
 *      rd_timeline_layout.c, rd_narration_layout.c, rd_layout.c, rd_hit.c
 *   4. drawing: walks the layout and draws it: rd_links.c, rd_card.c,
 *      rd_flight.c, rd_chrome.c, rd_diagram.c, rd_timeline.c, rd_narration.c,
 *      rd_overlay.c, rd_draw.c (the frame), and show's chart,
 *      rd_chart_axes.c, rd_chart.c (rd_chart_internal.h)
 * This header is in the same order. Per-frame scratch lives in rd_ctx
 * (the layout's in its rd__scratch), never in statics.
 */
#ifndef RD_INTERNAL_H
#define RD_INTERNAL_H

#include "render.h"

/* ============================================================ primitives */

/* Thick lines and filled shapes with SDL_RenderGeometry (rd_prims.c). */
void rd__line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width, SDL_Color c);
void rd__disc(SDL_Renderer *r, float cx, float cy, float radius, SDL_Color c);
void rd__arrowhead(SDL_Renderer *r, float x0, float y0, float x1, float y1, float size,
                   SDL_Color c);
void rd__fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c);
void rd__frame(SDL_Renderer *r, SDL_Rect rc, int width, SDL_Color c);
SDL_Color rd__mix(SDL_Color a, SDL_Color b, float t);
/* The shade behind the cards of node k (two alternating). */
SDL_Color rd__node_shade(const rd_theme *th, int node);

/* Text that records its box for the layout tests (rd_debug_boxes). */
SDL_Rect rd__text(rd_ctx *c, const char *s, int px, SDL_Color col, SDL_Rect box, int align,
                  int layer);
void rd__box(rd_ctx *c, SDL_Rect r, int kind, int layer, const char *label);

/* Human-readable byte counts ("192 B", "1.5 KiB") and times ("12.3 us"). */
void rd__fmt_bytes(double bytes, char *out, size_t outlen);
void rd__fmt_seconds(double s, char *out, size_t outlen);

/* A rectangle with negative sizes clamped to 0. */
static inline SDL_Rect rd__rect(int x, int y, int w, int h)
{
    return (SDL_Rect){x, y, w > 0 ? w : 0, h > 0 ? h : 0};
}

/* The palettes as compiled in (rd_theme.c), and replacing one of the
 * themes the program has (rd_theme_load.c, the palette files' loader). */
const rd_theme *rd__theme_builtin(rd_theme_id id);
void rd__theme_set(rd_theme_id id, const rd_theme *th);

/* ================================================================== plan */

/* Links a plan uses: bit d of m[s] when some transfer goes from s to d. */
typedef struct {
    int n;
    uint64_t m[RD_LAYOUT_MAX_RANKS];
} rd__links;

/* rd_plan.c: the links of the whole plan, and of one step (none past the
 * last); whether a link from participant s to d crosses between nodes
 * (drawn dashed). */
void rd__plan_links(const cv_plan *plan, rd__links *out);
void rd__step_links(const cv_plan *plan, int step, rd__links *out);
bool rd__crosses_nodes(const cv_plan *plan, int s, int d);
/* The links of each part of a plan that splits its buffer between
 * structures running at once: a double binary tree's two trees (tree t
 * carries half t), a multi-ring's channels (channel j its j-th share).
 * Fills out[0..k-1], parts past max in the last; returns k, 0 for a plan
 * that is not split so. */
int rd__part_links(const cv_plan *plan, rd__links *out, int max);
/* A double binary tree's tree t (0 or 1) as the plan runs it: each rank's
 * parent in up[0..n-1] (-1 at the root), read off the transfers of the
 * tree's half (a rank's first send up, before anything comes down);
 * returns the root, -1 for a plan that is not a double tree. */
int rd__tree_parents(const cv_plan *plan, int t, int *up);
/* Ranks in ring order (following the plan's links from rank 0) when the
 * links form one cycle; otherwise 0..n-1. */
void rd__ring_order(const rd__links *l, int *order);
/* Tree depth of each rank from root along the plan's links (-1 when
 * unreachable). Returns the number of levels. */
int rd__levels(const rd__links *l, int root, int *depth);

/* A panel's time: its own in compare mode, else the frame's. */
static inline double rd__panel_t(const rd_frame *f, const rd_panel *p)
{
    return p->t >= 0 ? p->t : f->t;
}

/* The panel's link for model times: its own, else the first preset
 * (rd_plan.c). */
const cv_link *rd__link(const rd_panel *p);
/* The model a panel is priced on: its link, and between nodes its inter
 * link (cv_cost_plan_nodes); "nvlink4" or "nvlink4 + ib-ndr" into where. */
void rd__cost_plan(const rd_panel *p, const cv_plan *plan, cv_cost *out);
double rd__cost_step(const rd_panel *p, const cv_plan *plan, int step, int64_t *bytes);
const char *rd__link_words(const rd_panel *p, const cv_plan *plan, char *out, size_t outlen);

/* rd_chunks.c: the chunk (letter) an element belongs to, by the op's
 * natural partition: one chunk per rank, as the source notes draw them.
 * -1 = no letter. */
int rd__chunk_of(const cv_spec *spec, cv_buf buf, int rank, int64_t i);
/* How a buffer of cnt elements splits into chunk blocks: n chunks of the
 * op's default partition (part = the count), count/c chunks of c for the
 * per-rank layouts (group = c), or none worth drawing as blocks. */
void rd__chunk_blocks(const cv_spec *spec, cv_buf b, int64_t cnt, int *nchunks, int64_t *part,
                      int64_t *group);

/* rd_words.c: the header's first line (op, algorithm, ranks, count, ...)
 * fitted to w pixels at px; compare mode's second line ("ring: step 3 of
 * 6 · tree: ..."); the shown step's numbers (phase, step, the busiest
 * port, measured and modelled time; compact for a caption, whose first
 * lines give bytes and the model). */
void rd__spec_words(rd_text *t, const rd_frame *f, int px, int w, char *out, size_t outlen);
void rd__compare_words(const rd_frame *f, char *out, size_t outlen);
void rd__step_numbers(rd_text *tx, int px, int maxw, const rd_frame *f, const rd_panel *p,
                      bool compact, char *out, size_t outlen);
/* A compare caption's first lines (steps, bytes, model time with the
 * textbook's formulas), wrapped to w pixels; returns how many. */
int rd__caption_lines(rd_text *t, const rd_frame *f, const rd_panel *panel, int px, int w,
                      char (*lines)[320], int maxlines);

/* ================================================================ layout */

/* rd_cells.c: the centre of the cells holding elements [off, off + count)
 * of a row, where chunks fly from and land. */
void rd__region_centre(const rd_card_layout *cl, int b, int64_t off, int64_t count, float *x,
                       float *y);
/* A chunk's whole path (rd_flight_path) round a link route already found
 * (m points). */
int rd__flight_path_on(const rd_layout *L, int p, const cv_transfer *x, const float (*route)[2],
                       int m, float (*pts)[2]);
/* Card k's title ("GPU 3 (root)", or its number alone on a small card)
 * and the box it is drawn in; *tpx its size, *square whether the colour
 * square fits left of it. */
SDL_Rect rd__card_title(rd_text *t, const rd_layout *L, const rd_frame *f, int p, int k,
                        char *title, size_t len, int *tpx, bool *square);

/* The height of a cell's stripes for values of px. */
static inline int rd__stripe_h(int px) { return px * 3 / 10 > 3 ? px * 3 / 10 : 3; }

/* rd_fit.c: what one panel's cards must hold, and the measures that
 * decide it, taken once a panel (rd__stage_init). */
typedef struct {
    const cv_plan *plan;
    const rd_layout *L;
    rd_text *t;
    cv_lang lang;
    int n, nrows;
    int nparts; /* the ranks' cards, and an in-network plan's switches (cards n ...) */
    bool projector;
    int px_min, px_max;
    int64_t count[RD_LAYOUT_MAX_PARTS][CV_BUF_COUNT]; /* -1: no such row */
    int chunks[RD_LAYOUT_MAX_PARTS][CV_BUF_COUNT];    /* chunk blocks a row would have */
    int64_t part[RD_LAYOUT_MAX_PARTS][CV_BUF_COUNT];
    int64_t cgroup[RD_LAYOUT_MAX_PARTS][CV_BUF_COUNT];
    /* measured at each text size */
    int value_w[64], label_w[64], rowlab_w[64], dots_w[64];
} rd__stage;

/* One card's insides at a text size: each row's mode and lines. */
typedef struct {
    int px;
    bool labels;
    bool label_top; /* the row's name on a line above it, not in a column beside it */
    int title_h, rowlab_w, rowlab_h, ipad, gap;
    int mode[CV_BUF_COUNT], per_line[CV_BUF_COUNT], lines[CV_BUF_COUNT], cells[CV_BUF_COUNT];
    int line_h[CV_BUF_COUNT];
    int need_h;
} rd__card_fit;

/* The best text size and quality every card of a size can share. */
typedef struct {
    int quality; /* as rd__fit_card's, the worst card's */
    int px;
    bool labels;
} rd__panel_fit;

void rd__stage_init(rd__stage *s, const rd_frame *f, const rd_panel *p, const rd_layout *L,
                    rd_text *text);
/* Card rank's insides in w x h at px: 3 every row legible cells with
 * labels, 2 cells without labels, 1 some chunk blocks, 0 stripes
 * somewhere, -1 nothing fits at all. */
int rd__fit_card(const rd__stage *s, int rank, int w, int h, int px, bool labels, rd__card_fit *f);
rd__panel_fit rd__fit_panel(const rd__stage *s, int w, int h);
/* Better: legible before illegible, then larger type, then more room. */
double rd__fit_score(rd__panel_fit f, int w, int h);
/* Fills one card's rectangles for a fit. */
void rd__place_insides(const rd__stage *s, int rank, SDL_Rect c, const rd__card_fit *f,
                       rd_card_layout *cl);
/* The size of chunk labels under values of px. */
int rd__label_px(int px);

/* The widest cards on an ellipse for an area, kept for the next frames
 * (rd_stage.c). */
#define RD__CIRCLE_MEMO 8
typedef struct {
    int w, h, n, gap;
    double aspect, width;
    bool centre;
} rd__circle_memo;

/* A line of the narration being laid out (rd_narration_layout.c): what
 * the panel will draw, plus its height and the space above it. */
typedef struct {
    rd_line l;
    int h, gap;
} rd__staged;
#define RD__STAGED_LINES 224
#define RD__WRAP_LINES 96
#define RD__WRAP_LEN 256 /* as rd_line's text */
#define RD__CHOICE_LINES 5

/* Scratch for laying out a frame: too large for the stack (the browser's
 * is small), and kept out of statics so that the renderer can be entered
 * again. rd_draw's lives in rd_ctx; rd_layout_compute takes one of its own. */
typedef struct {
    rd__stage stage;
    rd__circle_memo circles[RD__CIRCLE_MEMO];
    int next_circle;
    rd__staged staged[RD__STAGED_LINES];                 /* the narration's text column */
    char wrap[RD__WRAP_LINES][RD__WRAP_LEN];             /* one block of it, wrapped */
    char choices[RD_MAX_CHOICES][RD__CHOICE_LINES][256]; /* the answers' lines */
} rd__scratch;

/* The stage of one panel (rd_stage.c): where its cards go and their insides. */
void rd__layout_panel(rd__scratch *sc, const rd_frame *f, const rd_panel *p, SDL_Rect area,
                      rd_layout *L, rd_text *text, bool caption, rd_panel_layout *pl);

/* rd_narration_layout.c: the narration panel's lines, answers, buttons and
 * field, into L (its rectangle L->narration already placed). */
void rd__layout_narration(rd__scratch *sc, rd_text *t, const rd_frame *f, rd_layout *L);
/* A step timeline's lane height in text heights (px_small) for nl lanes:
 * a few lanes get room for a label on two lines, many (a pipeline's
 * stages) one line each (rd_timeline_layout.c). */
float rd__steptl_lane_px(int nl);
/* Where a diagram's boxes, arrows (clipped to the boxes) and arrow labels
 * go in area, for the drawing. */
typedef struct {
    int nboxes, narrows;
    SDL_Rect box[RD_DIAGRAM_MAX_BOXES];
    bool arrow[RD_DIAGRAM_MAX_ARROWS];     /* drawn: it joins two boxes */
    float ends[RD_DIAGRAM_MAX_ARROWS][4];  /* x0, y0, x1, y1 */
    SDL_Rect label[RD_DIAGRAM_MAX_ARROWS]; /* w == 0: no label */
} rd__diagram_geom;
void rd__diagram_place(rd_text *t, const rd_diagram *d, SDL_Rect area, float ui, int px,
                       rd__diagram_geom *g);

/* rd_layout.c: rd_layout_compute with the caller's scratch. */
void rd__layout_frame(rd__scratch *sc, const rd_frame *f, int w, int h, rd_text *text,
                      rd_layout *L);

/* ================================================================ drawing */

/* Aggregated cell contents of one panel at one displayed step. */
typedef struct {
    uint64_t mask;    /* OR of the elements' provenance */
    int32_t last;     /* latest step that wrote any of them, -1 = initial */
    int32_t n;        /* elements in the cell */
    int64_t first;    /* first element */
} rd__cell;

typedef struct {
    const cv_trace *trace;
    int step;          /* state the cells show */
    uint64_t sig;      /* layout signature (cells and groups) */
    rd__cell *cells;   /* all rows of all ranks */
    size_t cap;
    size_t off[RD_LENS_CARD + 1][CV_BUF_COUNT]; /* + a switch, + the lens card */
    bool valid;
} rd__cellcache;

/* A link's route as found for a layout (rd_link_route looks at every
 * card; a frame asks for the same routes again and again). */
typedef struct {
    uint64_t key; /* 0: empty */
    int n;
    float pts[RD_ROUTE_MAX][2];
} rd__route_memo;
#define RD__ROUTE_MEMO 4096
#define RD_MAX_BOXES 4096
#define RD__LANE_STEPS 4096 /* step marks drawn on a timeline lane */

struct rd_ctx {
    SDL_Renderer *r;
    rd_text *text;
    rd_layout L;         /* the last frame's, for the overlays drawn after it */
    int shown[2];        /* the step whose state each panel shows */
    rd__cellcache cache[2];
    rd__links links[2];
    const cv_plan *links_plan[2];
    SDL_Texture *layer;  /* the static layer */
    int layer_w, layer_h;
    uint64_t layer_key;
    bool layer_ok;
    bool no_targets;     /* the renderer cannot render to textures */
    bool debug;
    rd_box boxes[RD_MAX_BOXES];
    int nboxes;
    rd__scratch scratch;            /* the layout's */
    rd__diagram_geom diagram;       /* the diagram being drawn */
    rd_steptl_geom steptl;          /* the step timeline being drawn */
    int lane_x[RD__LANE_STEPS + 1]; /* the timeline lane being drawn: step k at lane_x[k] */
    uint64_t route_sig[2];          /* each panel's layout, as the routes depend on it */
    rd__route_memo routes[RD__ROUTE_MEMO];
};

/* Behind the cards (rd_links.c): the nodes' bands and the links, the step
 * in progress's on top; the plan's links, kept per panel. */
void rd__draw_nodes(rd_ctx *c, const rd_frame *f, int p);
void rd__draw_links(rd_ctx *c, const rd_frame *f, int p, int step);
const rd__links *rd__panel_links(rd_ctx *c, const rd_frame *f, int p);
/* A double tree's two trees above the cards, the shown step's edges lit
 * (rd_links.c). */
void rd__draw_trees(rd_ctx *c, const rd_frame *f, int p);
/* A hypercube's round above the cards: its rule and its pairs. */
void rd__draw_rounds(rd_ctx *c, const rd_frame *f, int p);
/* The route of the link from card s to card d (rd_link_route), kept for
 * as long as the panel's cards stay where they are; rd__routes_begin
 * takes each panel's layout after it is laid out. */
void rd__routes_begin(rd_ctx *c);
int rd__route(rd_ctx *c, int p, int s, int d, bool both, float (*pts)[2]);

/* The stage's cards (rd_card.c): the cell cache of panel p for the shown
 * step (call before drawing its cards), and one card. */
void rd__update_cells(rd_ctx *c, int p, const rd_panel *panel, int shown);
/* Card k of panel p: a rank's card, a switch's (nranks), or RD_LENS_CARD. */
void rd__draw_card(rd_ctx *c, const rd_frame *f, int p, int k);

/* What moves (rd_flight.c): step's chunks in flight at frac (< RD_ARRIVE),
 * and its landing: the cells it wrote flashed at flash, its sums. */
void rd__draw_flight(rd_ctx *c, const rd_frame *f, int p, int step, double frac);
void rd__draw_landing(rd_ctx *c, const rd_frame *f, int p, int step, float flash);

/* Around the stage (rd_chrome.c): the header, the timeline, the button
 * bar, and each panel's legend and compare caption. */
void rd__draw_header(rd_ctx *c, const rd_frame *f);
void rd__draw_timeline(rd_ctx *c, const rd_frame *f, bool cursor);
void rd__draw_buttons(rd_ctx *c, const rd_frame *f);
void rd__draw_legend(rd_ctx *c, const rd_frame *f, int p);
void rd__draw_caption(rd_ctx *c, const rd_frame *f, int p);

/* A beat's diagram in area, and a lesson's beside the stage
 * (rd_diagram.c). */
void rd__draw_diagram(rd_ctx *c, const rd_frame *f, const rd_diagram *d, SDL_Rect area);
void rd__draw_side_diagram(rd_ctx *c, const rd_frame *f);
/* A beat's step timeline, under the stage or in the panel, with the
 * static layer; its cursor, each frame (rd_timeline.c). */
void rd__draw_steptl(rd_ctx *c, const rd_frame *f);
void rd__draw_steptl_cursor(rd_ctx *c, const rd_frame *f);
/* The narration panel as laid out (rd_narration.c). */
void rd__draw_narration(rd_ctx *c, const rd_frame *f);

/* Drawn over everything (rd_overlay.c): the help, the cell tooltip, the
 * banner. */
void rd__draw_help(rd_ctx *c, const rd_frame *f);
void rd__draw_pointer(rd_ctx *c, const rd_frame *f);
/* The ranks of mask as runs ("0-3", "5", pairs and singles joined by
 * sep: "0+2+3" in chunk labels, "0-3, 5, 7" in the tooltip); rd_chunks.c. */
size_t rd__rank_runs(uint64_t mask, const char *sep, char *out, size_t outlen);
void rd__draw_table(rd_ctx *c, const rd_frame *f, const rd_table *t);
void rd__draw_tooltip(rd_ctx *c, const rd_frame *f);
void rd__draw_message(rd_ctx *c, const rd_frame *f);

#endif /* RD_INTERNAL_H */
