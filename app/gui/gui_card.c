/*
 * gui_card.c: the reference card in the window (F3, over the stage or any
 * lesson): the rows of collectives/cv_card.c at 8 ranks and 1 GiB on
 * NVLink 4, their cells formatted as `collviz card` prints them
 * (cli_card_cell), in the window's language, handed to the renderer as an
 * rd_table.
 */
#include <stdlib.h>
#include <string.h>

#include "gui_internal.h"

#define CARD_ROWS (CV_OP_COUNT * CV_ALGO_COUNT)
#define CARD_CELL 80

struct gui_card {
    cv_lang lang;
    rd_table table;
    cv_card_row rows[CARD_ROWS];
    char cells[CARD_ROWS][CLI_CARD_COLS][CARD_CELL];
    const char *cellp[CARD_ROWS * CLI_CARD_COLS];
    const char *header[CLI_CARD_COLS];
    bool group[CARD_ROWS];
    char caption[256];
};

static void build(struct gui_card *k, cv_lang lang)
{
    const cv_link *link = cv_link_find("nvlink4");
    int n = cv_card_rows(8, (int64_t)1 << 30, link, k->rows, CARD_ROWS);
    k->lang = lang;
    for (int i = 0; i < n; i++) {
        k->group[i] = i == 0 || k->rows[i].op != k->rows[i - 1].op;
        for (int c = 0; c < CLI_CARD_COLS; c++) {
            cli_card_cell(&k->rows[i], c, lang, k->cells[i][c], CARD_CELL);
            if (c == 0 && !k->group[i])
                k->cells[i][c][0] = '\0'; /* the collective once, atop its group */
            k->cellp[i * CLI_CARD_COLS + c] = k->cells[i][c];
        }
    }
    for (int c = 0; c < CLI_CARD_COLS; c++)
        k->header[c] = cli_card_header(c, lang);
    cli_card_caption(8, k->rows[0].bytes_d, link, lang, k->caption, sizeof k->caption);
    bool zh = lang == CV_LANG_ZH;
    k->table = (rd_table){
        .title = zh ? "速查卡：每种集合通信与算法" : "Reference card: every collective and algorithm",
        .caption = k->caption,
        .legend = zh ? "N 进程数，D 集合通信的数据量（nccl-tests 约定），L 每节点进程数，K 节点数，"
                       "S 分片数。轮数与字节数按 Thakur、Rabenseifner 与 Gropp 及 NCCL；"
                       "collviz card 打印同一张表。"
                     : "N ranks, D the op's size (nccl-tests' convention), L ranks per node, K "
                       "nodes, S slices. Rounds and bytes after Thakur, Rabenseifner & Gropp and "
                       "NCCL; `collviz card` prints the same table.",
        .close = zh ? "F3、Esc 或单击关闭" : "F3, Esc or a click closes the card",
        .ncols = CLI_CARD_COLS,
        .nrows = n,
        .header = k->header,
        .cells = k->cellp,
        .group_start = k->group,
    };
}

const rd_table *gui__card(gui *g)
{
    if (!g->card && !(g->card = calloc(1, sizeof *g->card)))
        return NULL;
    if (g->card->table.nrows && g->card->lang == g->lang)
        return &g->card->table;
    memset(g->card, 0, sizeof *g->card);
    build(g->card, g->lang);
    return &g->card->table;
}

void gui__card_destroy(gui *g)
{
    free(g->card);
    g->card = NULL;
}
