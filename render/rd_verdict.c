/*
 * rd_verdict.c: compare mode's closing sentence. Once both sides have
 * finished, the narration says which one finished first in the model, by
 * how much, and why, in the model's own terms: each side's time is its
 * latency part (alpha times the messages its busiest port starts, one per
 * step for a ring) plus its bandwidth part (the busiest port's bytes over
 * the link's bandwidth). Where the latency parts are the larger share the
 * pair is latency-bound and fewer steps win; where the bandwidth parts are,
 * it is bandwidth-bound and fewer bytes per link win. With nodes the two
 * links mix in every step, so the sentence gives each side's steps and
 * bytes without splitting its time.
 *
 * The times are cv_cost_plan_nodes's, the same sum of cv_cost_step_nodes
 * the timeline's model axis is drawn with, so the sentence and the
 * picture never disagree.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* A time as the stage writes it, but a few nanoseconds or less with two
 * significant digits ("0.25 ns"), never a bare "0 ns" beside a real cost. */
static void fmt_time(double sec, char *out, size_t n)
{
    if (sec > 0 && sec < 1e-8)
        snprintf(out, n, "%.2g ns", sec * 1e9);
    else
        rd__fmt_seconds(sec, out, n);
}

/* One side's model terms. */
typedef struct {
    const char *name;
    cv_proto proto;
    double t, a, b; /* whole, latency part, bandwidth part (s) */
    int steps;
    int64_t alphas, busiest;
} side;

static side terms(const cv_plan *plan, const cv_link *link, const cv_link *inter)
{
    cv_cost c;
    cv_cost_plan_nodes(plan, link, inter, &c);
    side s = {cv_algo_name(plan->spec.algo), plan->spec.proto, c.seconds, 0, 0, c.steps, c.alphas,
              c.busiest_total};
    s.a = (double)c.alphas * link->alpha * cv_proto_latency_share(plan->spec.proto, link);
    s.b = c.seconds - s.a;
    return s;
}

/* "ring = 14 alpha (28.0 us) + 448 B at 450 GB/s (1 ns)". */
static void side_words(const side *s, const cv_link *link, bool zh, char *out, size_t n)
{
    char a[32], b[32], by[32];
    fmt_time(s->a, a, sizeof a);
    fmt_time(s->b, b, sizeof b);
    rd__fmt_bytes((double)s->busiest, by, sizeof by);
    if (s->b <= 0)
        snprintf(b, sizeof b, "0");
    snprintf(out, n, zh ? "%s = %lld 个 \xCE\xB1（%s）+ 最忙端口 %s，按 %.0f GB/s（%s）"
                        : "%s = %lld \xCE\xB1 (%s) + %s through its busiest port at %.0f GB/s (%s)",
             s->name, (long long)s->alphas, a, by, link->bw * cv_proto_data_share(s->proto) / 1e9, b);
}

/* Why w won over l, from the terms: which part made the difference, and
 * whether the pair is latency- or bandwidth-bound at this size. */
static void why(const side *w, const side *l, bool zh, char *out, size_t n)
{
    double ga = l->a - w->a, gb = l->b - w->b;
    bool latency = w->a + l->a >= w->b + l->b;
    char saved[32], by_w[32], by_l[32];
    rd__fmt_bytes((double)w->busiest, by_w, sizeof by_w);
    rd__fmt_bytes((double)l->busiest, by_l, sizeof by_l);
    /* The label names the regime only where the term that decided is
     * also the larger share of the time; else neither dominates. */
    const char *bound = latency != (ga >= gb)
                            ? (zh ? "这个大小下两项相当" : "Neither term dominates at this size")
                        : latency ? (zh ? "这个大小下是延迟主导" : "Latency-bound at this size")
                                  : (zh ? "这个大小下是带宽主导" : "Bandwidth-bound at this size");
    if (ga >= gb) {
        fmt_time(ga, saved, sizeof saved);
        snprintf(out, n, zh ? "%s：%s 的 \xCE\xB1 更少（%lld 对 %lld），省下 %s%s"
                            : "%s: %s pays fewer \xCE\xB1 (%lld against %lld), which saves %s%s",
                 bound, w->name, (long long)w->alphas, (long long)l->alphas, saved,
                 latency ? (zh ? "；步数少的赢。" : "; fewer steps win.") : (zh ? "。" : "."));
    } else {
        fmt_time(gb, saved, sizeof saved);
        snprintf(out, n, zh ? "%s：%s 最忙端口的字节更少（%s 对 %s），省下 %s%s"
                            : "%s: %s sends fewer bytes through its busiest port (%s against %s), "
                              "which saves %s%s",
                 bound, w->name, by_w, by_l, saved,
                 !latency ? (zh ? "；每条链路字节少的赢。" : "; fewer bytes per link win.")
                          : (zh ? "。" : "."));
    }
    double other = ga >= gb ? gb : ga; /* the part that went the other way */
    if (other < 0) {
        size_t k = strlen(out);
        char cost[32];
        fmt_time(-other, cost, sizeof cost);
        if (zh)
            snprintf(out + k, n - k, "%s 的%s更多，多花 %s，不足以扭转。", w->name,
                     ga >= gb ? "字节" : "步数", cost);
        else
            snprintf(out + k, n - k, " Its extra %s cost %s, not enough to turn it.",
                     ga >= gb ? "bytes" : "steps", cost);
    }
}

void rd_compare_verdict(const cv_plan *a, const cv_plan *b, const cv_link *link,
                        const cv_link *inter, cv_lang lang, char *out, size_t outlen)
{
    bool zh = lang == CV_LANG_ZH;
    out[0] = '\0';
    if (!a || !b || !link || outlen == 0)
        return;
    bool nodes = inter && cv_spec_nodes(&a->spec) > 1;
    side s[2] = {terms(a, link, nodes ? inter : NULL), terms(b, link, nodes ? inter : NULL)};
    int wi = s[1].t < s[0].t;
    const side *w = &s[wi], *l = &s[!wi];
    char tw[32], tl[32], diff[32], sw[200], sl[200], because[400];
    fmt_time(w->t, tw, sizeof tw);
    fmt_time(l->t, tl, sizeof tl);
    fmt_time(l->t - w->t, diff, sizeof diff);
    size_t k;
    if (l->t - w->t <= 0.01 * l->t)
        k = (size_t)snprintf(out, outlen, zh ? "两边在模型里几乎同时完成：%s %s，%s %s。"
                                             : "Both finish together in the model: %s %s, %s %s.",
                             s[0].name, wi ? tl : tw, s[1].name, wi ? tw : tl);
    else
        k = (size_t)snprintf(out, outlen, zh ? "%s 先完成：模型里 %s，%s 要 %s，快 %.1f 倍（少 %s）。"
                                             : "%s finished first: %s in the model against %s's %s, "
                                               "%.1f\xC3\x97 as fast (%s less).",
                             w->name, tw, l->name, tl, l->t / w->t, diff);
    if (k >= outlen)
        return;
    if (nodes) {
        char bw_[32], bl[32];
        rd__fmt_bytes((double)w->busiest, bw_, sizeof bw_);
        rd__fmt_bytes((double)l->busiest, bl, sizeof bl);
        snprintf(out + k, outlen - k,
                 zh ? "\n%s：%d 步，最忙端口 %s；%s：%d 步，最忙端口 %s（节点内 %s，节点间 %s）。"
                    : "\n%s: %d steps, %s through its busiest port; %s: %d steps, %s (%s inside "
                      "a node, %s between nodes).",
                 w->name, w->steps, bw_, l->name, l->steps, bl, link->name ? link->name : "--bw",
                 inter->name ? inter->name : "");
        return;
    }
    side_words(&s[0], link, zh, sw, sizeof sw);
    side_words(&s[1], link, zh, sl, sizeof sl);
    why(w, l, zh, because, sizeof because);
    char al[32];
    fmt_time(link->alpha * cv_proto_latency_share(a->spec.proto, link), al, sizeof al);
    snprintf(out + k, outlen - k, zh ? "\n模型的各项（%s：\xCE\xB1 = %s）：%s；%s。\n%s"
                                      : "\nThe model's terms (%s: \xCE\xB1 = %s): %s; %s.\n%s",
             link->name ? link->name : "--bw", al, sw, sl, because);
}
