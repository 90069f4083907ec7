/*
 * gui_export.c: `collviz export`: PNG frames and an animated GIF of a
 * collective, for slides and notes, rendered headless with the software
 * renderer (no display needed).
 *
 * It drives the same gui object as the window, so an exported frame is
 * pixel for pixel what the window shows at that time, minus the buttons.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gui_cmds.h"
#include "gui_internal.h"

static const char export_help[] =
    "usage: collviz export [--op OP] [--algo ALGO] [--ranks N] [--count N] [--dtype T]\n"
            "                      [--redop R] [--root R] [--slices S] [--nodes K]\n"
            "                      [--backend cpu|cuda|auto] [--input FILE]\n"
            "                      [--init rank|index|random|nan] [--seed N]\n"
            "                      [--out DIR] [--gif FILE] [--size WxH] [--fps F]\n"
            "                      [--step-seconds S] [--theme dark|light|projector]\n"
            "                      [--lang en|zh] [--compare ALGO[,ALGO]] [--no-narration]\n"
            "                      [--nccl-log FILE [--comm ID] [--channel C]] [--stills]\n"
            "                      [--hold S] [--proto simple|ll128|ll] [--trace FILE]\n"
            "                      [--link PRESET] [--inter-link PRESET]\n"
            "Writes DIR/frame-00000.png ... (one frame every 1/F s, S seconds per step)\n"
            "and/or an animated GIF. Defaults: 1280x800, 10 fps, 1 s per step.\n"
            "--hold S: the GIF shows its first and last frames for S seconds (default 2,\n"
            "0 to 600), so a looping slide reads the start and the result.\n"
            "--stills: DIR/step-00.png ... instead, one PNG per step once it has landed\n"
            "(its arithmetic shown), step-00 the inputs: slides for each step.\n"
            "--nccl-log FILE draws your own cluster: the log's ranks and nodes, and\n"
            "channel C's ring and trees for ring and double-tree (collviz nccl-log).\n"
            "--input FILE gives the inputs yourself, in the shape of run --json's \"inputs\"\n"
            "(see collviz run --help); --init and --seed fill them otherwise.\n"
            "--trace FILE replays a run recorded anywhere (collviz run --trace-out FILE):\n"
            "its op, algorithm, ranks and inputs, with its measured times and backend.\n";

int gui_cmd_export(int argc, char **argv)
{
    if (cli_mpi_requested(argc, argv))
        return cli_mpi_trace_only("export");
    gui_options o;
    gui_options_init(&o);
    o.headless = true;
    const char *backend_name = "cpu", *out_dir = NULL, *gif_path = NULL, *compare = NULL;
    const char *input = NULL, *trace = NULL;
    long seed = (long)o.seed;
    long fps = 10;
    double step_seconds = 1.0, hold = 2.0;
    bool no_narration = false, stills = false;
    int size[2] = {o.width, o.height};
    o.spec.count = -1; /* not given: the stage picks it from the rank count */
    cli_nccl_args nccl = {NULL, NULL, 0};
    cli_flag flags[] = {
        CLI_SPEC_FLAGS(&o.spec),
        CLI_NCCL_FLAGS(&nccl),
        CLI_PICK("--backend", &backend_name, cli_backends),
        CLI_TEXT("--out", &out_dir),
        CLI_TEXT("--gif", &gif_path),
        CLI_WXH("--size", size, 8192),
        CLI_LONG("--fps", &fps, 1, 60),
        CLI_NUMBER("--step-seconds", &step_seconds, 0.1, 60, "seconds"),
        CLI_NUMBER("--hold", &hold, 0, 600, "seconds"),
        CLI_ENUM("--theme", &o.theme, &gui_themes),
        CLI_ENUM("--lang", &o.lang, &cli_langs),
        CLI_TEXT("--compare", &compare),
        CLI_SWITCH("--no-narration", &no_narration),
        CLI_SWITCH("--stills", &stills),
        CLI_ENUM("--init", &o.init, &cli_inits),
        CLI_LONG("--seed", &seed, 0, 2147483647L),
        CLI_TEXT("--input", &input),
        CLI_TEXT("--trace", &trace),
        CLI_PICK("--link", &o.link, cli_link_names()),
        CLI_PICK("--inter-link", &o.inter_link, cli_link_names()),
    };
    cli_cmdline cl = CLI_CMDLINE("export", export_help, flags);
    cl.nccl = &nccl;
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    o.narration = !no_narration;
    o.seed = (uint64_t)seed;
    o.width = size[0];
    o.height = size[1];
    bool algo_given = cli_flag_given(&cl, "--algo");
    if (!out_dir && !gif_path)
        return cli_usage_error("export needs --out DIR, --gif FILE or both");
    if (stills && !out_dir)
        return cli_usage_error("--stills needs --out DIR (one PNG per step goes there)");
    cli_trace rec;
    char label[300];
    void **given = NULL; /* --input's values, checked before any frame */
    gui_stage_args sa = {trace, compare, backend_name, input, algo_given, true};
    int rc = gui_setup_stage(&cl, &o, &sa, &rec, label, sizeof label, &given);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        cli_free_inputs(given, o.spec.ranks);
        cli_trace_destroy(&rec);
        return cli_usage_error("--out: cannot create %s: %s", out_dir, strerror(errno));
    }

    char err[CV_ERR_LEN] = "";
    gui *g = NULL;
    rd_gif *gif = NULL;
    int status = CLI_EXIT_OK;
    long total = 0; /* frames made: said once the GIF is whole */
    int nsteps = 0;
    if (gui_create(&o, &g, err, sizeof err) != CV_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        cli_free_inputs(given, o.spec.ranks);
        cli_trace_destroy(&rec);
        return CLI_EXIT_USAGE;
    }
    if (trace && gui_trace(g, 0)) { /* the replay against the recording, on the terminal too */
        gui_report_trace(g, &rec);
        if (gui_current_message(g))
            printf("collviz: %s\n", gui_current_message(g));
        /* said on the terminal; the frames' header names where the run was
         * recorded, so no notice lies over their cards */
        gui_message(g, NULL, 0);
    }
    if (!gui_trace(g, 0)) {
        fprintf(stderr, "collviz: %s\n", gui_current_message(g) ? gui_current_message(g) : "no trace");
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (gui_backend(g) != o.backend) {
        /* The device could not run the setup and the window's builder went
         * on with the CPU: right for auto (said once), not for a cuda the
         * user asked for, whose frames would silently come from the CPU. */
        const char *why = gui_current_message(g) ? gui_current_message(g) : "the device failed";
        fprintf(stderr, "collviz: %s\n", why);
        if (strcmp(backend_name, "auto") != 0) {
            status = CLI_EXIT_UNAVAIL;
            goto done;
        }
    }
    g->clean = true;
    if (gif_path && !(gif = rd_gif_create(gif_path, o.width, o.height, err, sizeof err))) {
        fprintf(stderr, "collviz: %s\n", err);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (stills) {
        /* One slide per step: the state after it, what it did still shown. */
        int ns = gui_nsteps(g);
        for (int k = 0; k <= ns; k++) {
            gui_seek(g, k);
            g->landed = k > 0;
            /* Twice: where the step text follows the step, the panel
             * scrolls to it from the layout of the frame before, which a
             * still that is drawn once would show one step behind. */
            gui_render(g);
            gui_render(g);
            SDL_Surface *s = rd_read_pixels(gui_renderer(g));
            char path[1200];
            snprintf(path, sizeof path, "%s/step-%02d.png", out_dir, k);
            if (!s || rd_save_png(s, path, err, sizeof err) != CV_OK) {
                fprintf(stderr, "collviz: %s\n", s ? err : SDL_GetError());
                SDL_FreeSurface(s);
                status = CLI_EXIT_USAGE;
                goto done;
            }
            SDL_FreeSurface(s);
        }
        printf("collviz: %d stills (step-00 to step-%02d) in %s\n", ns + 1, ns, cli_esc(out_dir));
        if (!gif_path)
            goto done;
    }
    int per_step = (int)lround(step_seconds * fps);
    if (per_step < 1)
        per_step = 1;
    nsteps = gui_nsteps(g);
    /* Every step's frames, then the final state held for one step. */
    long frames = (long)nsteps * per_step + per_step;
    int delay_cs = (int)lround(100.0 / fps);
    for (long k = 0; k < frames; k++) {
        double t = fmin((double)k / per_step, nsteps);
        gui_seek(g, t);
        gui_render(g);
        SDL_Surface *s = rd_read_pixels(gui_renderer(g));
        if (!s) {
            fprintf(stderr, "collviz: cannot read frame %ld: %s\n", k, SDL_GetError());
            status = CLI_EXIT_USAGE;
            goto done;
        }
        if (out_dir) {
            char path[1200];
            snprintf(path, sizeof path, "%s/frame-%05ld.png", out_dir, k);
            if (rd_save_png(s, path, err, sizeof err) != CV_OK) {
                fprintf(stderr, "collviz: %s\n", err);
                SDL_FreeSurface(s);
                status = CLI_EXIT_USAGE;
                goto done;
            }
        }
        /* the first and the last frame held (GIF delays are at most 655 s) */
        int hold_cs = (int)lround(hold * 100) > delay_cs ? (int)lround(hold * 100) : delay_cs;
        int this_cs = k == 0 || k == frames - 1 ? hold_cs : delay_cs;
        if (gif && rd_gif_add(gif, s, this_cs, err, sizeof err) != CV_OK) {
            fprintf(stderr, "collviz: %s\n", err);
            SDL_FreeSurface(s);
            status = CLI_EXIT_USAGE;
            goto done;
        }
        SDL_FreeSurface(s);
    }
    total = frames;
done:
    /* The GIF is whole (and in place) only once closed: say so after. */
    if (gif && rd_gif_destroy(gif, err, sizeof err) != CV_OK && status == CLI_EXIT_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        status = CLI_EXIT_USAGE;
    }
    if (status == CLI_EXIT_OK && total > 0)
        printf("collviz: %ld frame%s (%d step%s, %ld fps)%s%s%s%s\n", total,
               total == 1 ? "" : "s", nsteps, nsteps == 1 ? "" : "s", fps, out_dir ? " in " : "",
               out_dir ? cli_esc(out_dir) : "", gif_path ? ", GIF " : "",
               gif_path ? cli_esc(gif_path) : "");
    gui_destroy(g);
    cli_free_inputs(given, o.spec.ranks);
    cli_trace_destroy(&rec);
    return status;
}
