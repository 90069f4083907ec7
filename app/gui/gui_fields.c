/*
 * gui_fields.c: the stage as it is now, one spec field at a time (cli.h,
 * "Spec fields"): the value `collviz export` takes for each row of the
 * table, so the page's "export GIF" (app/web/web_link.c) makes the GIF of
 * what the window shows, field by field, and a new row cannot be left out
 * (the switch names every row; the compiler says when one is missing).
 */
#include <stdio.h>

#include "gui_cmds.h"
#include "gui_internal.h"

bool gui_field_text(const gui *g, cli_field_id id, char *out, size_t len)
{
    const cv_spec *s = gui_spec(g);
    int channel = 0;
    const char *log = NULL, *comm = NULL;
    bool logged = s->topo && cli_nccl_log(&channel, &log, &comm) && log;
    out[0] = '\0';
    switch (id) {
    case CLI_FIELD_OP: snprintf(out, len, "%s", cv_op_name(s->op)); return true;
    case CLI_FIELD_ALGO: snprintf(out, len, "%s", cv_algo_name(s->algo)); return true;
    case CLI_FIELD_RANKS: snprintf(out, len, "%d", s->ranks); return true;
    case CLI_FIELD_COUNT: snprintf(out, len, "%lld", (long long)s->count); return true;
    case CLI_FIELD_DTYPE: snprintf(out, len, "%s", cv_dtype_name(s->dtype)); return true;
    case CLI_FIELD_REDOP: /* refused where the op does not reduce */
        snprintf(out, len, "%s", cv_redop_name(s->redop));
        return cv_op_reduces(s->op);
    case CLI_FIELD_ROOT:
        snprintf(out, len, "%d", s->root);
        return cv_algo_uses_root(s->op, s->algo);
    case CLI_FIELD_SLICES:
        snprintf(out, len, "%d", s->slices);
        return cv_algo_uses_slices(s->op, s->algo);
    case CLI_FIELD_NODES: /* an NCCL log's nodes come with the log */
        snprintf(out, len, "%d", s->nodes);
        return s->nodes > 1 && !s->topo;
    case CLI_FIELD_PROTO: /* refused, even as simple, where NCCL runs Simple only */
        snprintf(out, len, "%s", cv_proto_name(s->proto));
        return s->proto != CV_PROTO_SIMPLE;
    case CLI_FIELD_COMPARE:
        snprintf(out, len, "%s,%s", cv_algo_name(s->algo), cv_algo_name(gui_compared_algo(g)));
        return gui_compare(g);
    case CLI_FIELD_LINK:
        snprintf(out, len, "%s", g->link ? g->link->name : "");
        return g->link != NULL;
    case CLI_FIELD_INTER_LINK:
        snprintf(out, len, "%s", g->inter ? g->inter->name : "");
        return g->inter != NULL;
    case CLI_FIELD_INIT:
        snprintf(out, len, "%s", cv_init_name(gui_init(g)));
        return (unsigned)gui_init(g) < CV_INIT_COUNT;
    case CLI_FIELD_SEED: snprintf(out, len, "%llu", (unsigned long long)gui_seed(g)); return true;
    case CLI_FIELD_INPUT:   /* the values are the stage's; no file holds them */
    case CLI_FIELD_BACKEND: /* the frames are drawn from the CPU's run */
    case CLI_FIELD_NO_NARRATION:
    case CLI_FIELD_TRACE: /* the replay's spec is given field by field */ return false;
    case CLI_FIELD_NCCL_LOG: snprintf(out, len, "%s", logged ? log : ""); return logged;
    case CLI_FIELD_COMM:
        snprintf(out, len, "%s", logged && comm ? comm : "");
        return logged && comm && *comm;
    case CLI_FIELD_CHANNEL: snprintf(out, len, "%d", channel); return logged;
    case CLI_FIELD_THEME: snprintf(out, len, "%s", rd_theme_get(gui_theme(g))->name); return true;
    case CLI_FIELD_LANG:
        snprintf(out, len, "%s", gui_lang(g) == CV_LANG_ZH ? "zh" : "en");
        return true;
    case CLI_NFIELDS: break;
    }
    return false;
}
