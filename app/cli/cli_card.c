/*
 * cli_card.c: `collviz card`, the reference card: every op and algorithm
 * with the textbook's round count, the bytes its beta term counts per
 * rank, and the alpha-beta time they give (collectives/cv_card.c), in
 * English or Chinese, as text or JSON. cli_card_cell formats one cell the
 * same way for the window's F3 overlay.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char card_help[] =
    "usage: collviz card [--ranks N] [--bytes SIZE] [--link PRESET] [--lang en|zh] [--json]\n\n"
    "The reference card: every collective and algorithm collviz runs, with the\n"
    "textbook's round count (Thakur, Rabenseifner & Gropp; NCCL), the bytes the\n"
    "beta term counts (through the busiest port, summed over the rounds), and the\n"
    "alpha-beta time\n"
    "rounds x alpha + bytes / beta, each as a formula in N (ranks) and D (the op's\n"
    "size, nccl-tests' convention) and as a value at the example.\n"
    "  --ranks N      the example's rank count (default 8)\n"
    "  --bytes SIZE   the example's D (default 1GiB; rounded down to whole float32\n"
    "                 elements per rank)\n"
    "  --link P       the link alpha and beta come from (default nvlink4)\n"
    "  --lang L       en or zh\n"
    "  --json         the rows as JSON\n"
    "In the window, F3 opens the same card over any lesson or the stage.\n";

const char *cli_card_header(int col, cv_lang lang)
{
    static const char *const en[CLI_CARD_COLS] = {"collective", "algorithm", "rounds", "",
                                                  "bytes in the \xCE\xB2 term", "",
                                                  "time"};
    static const char *const zh[CLI_CARD_COLS] = {"集合通信", "算法", "轮数", "",
                                                  "\xCE\xB2 项的字节数", "", "时间"};
    return col < 0 || col >= CLI_CARD_COLS ? "" : lang == CV_LANG_ZH ? zh[col] : en[col];
}

static void human_bytes(int64_t b, char *out, size_t len)
{
    if (b >= (int64_t)1 << 30)
        snprintf(out, len, "%.3g GiB", (double)b / (1 << 30));
    else if (b >= 1 << 20)
        snprintf(out, len, "%.3g MiB", (double)b / (1 << 20));
    else if (b >= 1 << 10)
        snprintf(out, len, "%.3g KiB", (double)b / (1 << 10));
    else
        snprintf(out, len, "%lld B", (long long)b);
}

void cli_card_cell(const cv_card_row *r, int col, cv_lang lang, char *out, size_t len)
{
    out[0] = '\0';
    switch (col) {
    case 0: snprintf(out, len, "%s", cv_op_title(r->op)); break;
    case 1: snprintf(out, len, "%s", cv_algo_name(r->algo)); break;
    case 2: snprintf(out, len, "%s", r->rounds_f); break;
    case 3:
        if (strcmp(r->rounds_f, "-"))
            snprintf(out, len, "%d", r->rounds);
        break;
    case 4:
        snprintf(out, len, "%s", r->bytes_f[0] ? r->bytes_f
                                 : lang == CV_LANG_ZH ? "（教科书未给出）" : "(no textbook figure)");
        break;
    case 5:
        if (r->bytes > 0)
            human_bytes(r->bytes, out, len);
        break;
    case 6:
        if (r->time_s >= 0 && r->time_s < 1e-3)
            snprintf(out, len, "%.1f \xC2\xB5s", r->time_s * 1e6);
        else if (r->time_s >= 0)
            snprintf(out, len, "%.2f ms", r->time_s * 1e3);
        break;
    default: break;
    }
}

void cli_card_caption(int ranks, int64_t d, const cv_link *link, cv_lang lang, char *out,
                      size_t len)
{
    char size[32];
    human_bytes(d, size, sizeof size);
    if (lang == CV_LANG_ZH)
        snprintf(out, len, "时间 = 轮数·α + 字节数/β。示例值：N = %d，D = %s，%s（α = %.3g µs，"
                 "β = %.4g GB/s）。", ranks, size, link->name ? link->name : "--bw",
                 link->alpha * 1e6, link->bw / 1e9);
    else
        snprintf(out, len, "time = rounds\xC2\xB7\xCE\xB1 + bytes/\xCE\xB2. Values at N = %d, "
                 "D = %s, %s (\xCE\xB1 = %.3g \xC2\xB5s, \xCE\xB2 = %.4g GB/s).", ranks, size,
                 link->name ? link->name : "--bw", link->alpha * 1e6, link->bw / 1e9);
}

static void print_text(const cv_card_row *rows, int n, int ranks, const cv_link *link,
                       cv_lang lang)
{
    char caption[256];
    cli_card_caption(ranks, rows[0].bytes_d, link, lang, caption, sizeof caption);
    printf("%s\n%s\n\n", lang == CV_LANG_ZH ? "速查卡：每种集合通信与算法"
                                             : "Reference card: every collective and algorithm",
           caption);
    printf("%-14s %-19s %-16s %5s  %-22s %10s %11s\n", cli_card_header(0, lang),
           cli_card_header(1, lang), cli_card_header(2, lang), "", cli_card_header(4, lang), "",
           cli_card_header(6, lang));
    for (int i = 0; i < n; i++) {
        char c[CLI_CARD_COLS][80];
        for (int k = 0; k < CLI_CARD_COLS; k++)
            cli_card_cell(&rows[i], k, lang, c[k], sizeof c[k]);
        printf("%-14s %-19s %-16s %5s  %-22s %10s %11s\n", i && rows[i - 1].op == rows[i].op ? ""
               : c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }
}

static int print_json(const cv_card_row *rows, int n, int ranks, const cv_link *link)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ranks", ranks);
    cJSON_AddNumberToObject(o, "bytes", (double)rows[0].bytes_d);
    cJSON_AddStringToObject(o, "link", link->name ? link->name : "");
    cJSON_AddNumberToObject(o, "alpha_us", link->alpha * 1e6);
    cJSON_AddNumberToObject(o, "GBps", link->bw / 1e9);
    cJSON *arr = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "op", cv_op_name(rows[i].op));
        cJSON_AddStringToObject(e, "algo", cv_algo_name(rows[i].algo));
        cJSON_AddStringToObject(e, "rounds_formula", rows[i].rounds_f);
        cJSON_AddNumberToObject(e, "rounds", rows[i].rounds);
        if (rows[i].bytes > 0) {
            cJSON_AddStringToObject(e, "bytes_formula", rows[i].bytes_f);
            cJSON_AddNumberToObject(e, "bytes", (double)rows[i].bytes);
            cJSON_AddNumberToObject(e, "time_us", rows[i].time_s * 1e6);
        } else {
            cJSON_AddNullToObject(e, "bytes_formula");
        }
        cJSON_AddItemToArray(arr, e);
    }
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    if (!s) {
        fputs("collviz: out of memory\n", stderr);
        return CLI_EXIT_USAGE;
    }
    puts(s);
    free(s);
    return CLI_EXIT_OK;
}

int cli_cmd_card(int argc, char **argv)
{
    int ranks = 8;
    int64_t bytes = (int64_t)1 << 30;
    const char *link_name = "nvlink4";
    int lang = CV_LANG_EN;
    bool json = false;
    cli_flag flags[] = {
        CLI_INT("--ranks", &ranks, 2, CV_MAX_RANKS),
        CLI_SIZE("--bytes", &bytes, 1, (int64_t)1 << 40, "bytes"),
        CLI_PICK("--link", &link_name, cli_link_names()),
        CLI_ENUM("--lang", &lang, &cli_langs),
        CLI_SWITCH("--json", &json),
    };
    cli_cmdline cl = CLI_CMDLINE("card", card_help, flags);
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    const cv_link *link = cv_link_find(link_name);
    /* The card builds no plan: its rows and, with --json, a document of
     * them (a kilobyte a row, generously) are all it takes, at any --ranks
     * and --bytes; COLLVIZ_MEMORY_LIMIT is honoured all the same. */
    char err[CV_ERR_LEN];
    if (cv_memory_check((int64_t)CV_OP_COUNT * CV_ALGO_COUNT *
                            ((int64_t)sizeof(cv_card_row) + 1024),
                        "card", "it needs as much at any --ranks and --bytes", err,
                        sizeof err) != CV_OK)
        return cli_usage_error("%s", err);
    cv_card_row rows[CV_OP_COUNT * CV_ALGO_COUNT];
    int n = cv_card_rows(ranks, bytes, link, rows, CV_OP_COUNT * CV_ALGO_COUNT);
    if (json)
        return print_json(rows, n, ranks, link);
    print_text(rows, n, ranks, link, (cv_lang)lang);
    return CLI_EXIT_OK;
}
