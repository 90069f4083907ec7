/*
 * cv_builder.c: the small builder every plan generator (cv_plan_*.c) writes
 * its plan through: open a step, add copies and reductions to it, name the
 * NCCL primitives they stand for, close it. Steps and transfers grow in
 * place; a step left without transfers is dropped. Generators sit above
 * this file and below the registry (cv_algos.c) in the order of
 * docs/ARCHITECTURE.md, so they never reach the plan builder's caller.
 */
#include <string.h>

#include "cv_internal.h"

void cv__plan_begin(cv_plan *p, const char *phase)
{
    if (p->nsteps == p->cap_steps_) {
        p->cap_steps_ = p->cap_steps_ ? p->cap_steps_ * 2 : 16;
        p->steps = cv__xrealloc(p->steps, (size_t)p->cap_steps_ * sizeof *p->steps);
    }
    p->steps[p->nsteps].first = p->ntransfers;
    p->steps[p->nsteps].count = 0;
    p->steps[p->nsteps].phase = phase;
    p->steps[p->nsteps].loads = false;
}

void cv__plan_loads(cv_plan *p) { p->steps[p->nsteps].loads = true; }

/* Appends a zeroed transfer to the open step. */
static cv_transfer *add_transfer(cv_plan *p)
{
    cv_step *st = &p->steps[p->nsteps];
    if (p->ntransfers == p->cap_transfers_) {
        int64_t cap = p->cap_transfers_ ? p->cap_transfers_ * 2 : 64, most = 0;
        if (p->sink_ && p->ports_ && p->ports_->max_transfers > 0)
            most = p->ports_->max_transfers > 64 ? p->ports_->max_transfers : 64;
        cap = most && cap > most ? most : cap;
        if (cap > p->cap_transfers_) {
            p->cap_transfers_ = cap;
            p->transfers = cv__xrealloc(p->transfers,
                                        (size_t)p->cap_transfers_ * sizeof *p->transfers);
        } else { /* the consumer's bound: the step's transfers go, counted */
            p->ports_->lost += st->count;
            p->ntransfers = st->first;
            st->count = 0;
        }
    }
    cv_transfer *t = &p->transfers[p->ntransfers++];
    memset(t, 0, sizeof *t);
    st->count++;
    return t;
}

void cv__xfer(cv_plan *p, int src, cv_buf sbuf, int64_t soff, int dst, cv_buf dbuf, int64_t doff,
              int64_t count, cv_xfer_kind kind)
{
    if (count <= 0)
        return;
    cv_transfer *t = add_transfer(p);
    t->src = src;
    t->dst = dst;
    t->src_buf = (uint8_t)sbuf;
    t->dst_buf = (uint8_t)dbuf;
    t->kind = (uint8_t)kind;
    t->src_off = soff;
    t->dst_off = doff;
    t->count = count;
}

void cv__recv_reduce(cv_plan *p, cv__at src, cv__at local, cv__at dst, int64_t count,
                     unsigned flags)
{
    if (count <= 0)
        return;
    bool in_place = local.buf == dst.buf && local.off == dst.off;
    cv__xfer(p, src.rank, src.buf, src.off, dst.rank, dst.buf, dst.off, count,
             in_place ? CV_XFER_REDUCE : CV_XFER_REDUCE_COPY);
    cv_transfer *t = &p->transfers[p->ntransfers - 1];
    if (!in_place) {
        t->local_buf = (uint8_t)local.buf;
        t->local_off = local.off;
    }
    t->flags = (uint8_t)flags;
}

void cv__prims(cv_plan *p, int64_t first, cv_prim send, cv_prim recv)
{
    for (int64_t i = first; i < p->ntransfers; i++) {
        p->transfers[i].prim_send = (uint8_t)send;
        p->transfers[i].prim_recv = (uint8_t)(p->transfers[i].src == p->transfers[i].dst
                                                  ? CV_PRIM_NONE
                                                  : recv);
    }
}

bool cv__step_moves(const cv_plan *p, const cv_step *st)
{
    for (int64_t i = 0; i < st->count; i++)
        if (p->transfers[st->first + i].src != p->transfers[st->first + i].dst)
            return true;
    return false;
}

void cv__plan_end(cv_plan *p)
{
    cv_step *st = &p->steps[p->nsteps];
    if (st->count <= 0)
        return;
    if (p->sink_) { /* streamed: the step goes to the sink, its transfers go */
        st->local = !cv__step_moves(p, st);
        p->sink_(p, st, p->sink_ctx_);
        p->ntransfers = st->first;
        st->first = 0;
        st->count = 0;
    }
    p->nsteps++;
}

cv__ports *cv__plan_ports(cv_plan *p) { return p->sink_ ? p->ports_ : NULL; }

void cv__plan_end_ports(cv_plan *p, bool local)
{
    cv_step *st = &p->steps[p->nsteps];
    st->first = p->ntransfers;
    st->count = 0;
    st->local = local;
    p->ports_->given = true;
    p->sink_(p, st, p->sink_ctx_);
    p->ports_->given = false;
    st->first = 0;
    p->nsteps++;
}

void cv__copy_blocks(cv_plan *p, int root, int64_t a, int64_t cnt, int64_t c, int src, cv_buf sb,
                     bool src_abs, int64_t src_off, int dst, cv_buf db, bool dst_abs,
                     int64_t dst_off)
{
    int n = p->spec.ranks;
    for (int64_t done = 0; done < cnt;) {
        int64_t blk = (a + done + root) % n, run = cnt - done;
        if (run > n - blk)
            run = n - blk;
        cv__copy(p, src, sb, src_abs ? blk * c : src_off + done * c, dst, db,
                 dst_abs ? blk * c : dst_off + done * c, run * c);
        done += run;
    }
}

int cv__ring_pos(const cv_plan *p, int rank)
{
    if (!p->spec.topo || !p->spec.topo->has_ring)
        return rank;
    for (int k = 0; k < p->spec.ranks; k++)
        if (p->spec.topo->ring[k] == rank)
            return k;
    return rank; /* unreachable for a checked topology */
}

void cv__pipeline_run(cv_plan *p, const cv__pipeline *pl, void *ctx)
{
    int S = pl->slices, R = pl->rounds;
    for (int t = 0; t < S + R - 1; t++) {
        int s_lo = t - R + 1 > 0 ? t - R + 1 : 0, s_hi = t < S - 1 ? t : S - 1;
        /* the latest slice is in the earliest local round */
        int first = pl->phase_of(ctx, t - s_hi), last = pl->phase_of(ctx, t - s_lo);
        cv__plan_begin(p, pl->names[first * pl->nphases + last]);
        for (int s = s_lo; s <= s_hi; s++)
            pl->round(p, ctx, s, t - s);
        cv__plan_end(p);
        for (int k = 0; k < pl->subs; k++) {
            cv__plan_begin(p, pl->sub_names[k]);
            for (int s = s_lo; s <= s_hi; s++)
                pl->sub(p, ctx, s, t - s, k);
            cv__plan_end(p);
        }
    }
}

void cv__add_slots(cv_plan *p, int part, int n, int64_t stride, int64_t off, int64_t len, int m,
                   bool finish)
{
    int top = cv__pow2_floor(n - 1 > 0 ? n - 1 : 1);
    for (int a = 0; a + m < n; a += 2 * m)
        cv__recv_reduce(p, CV_AT(part, CV_BUF_SCRATCH, (int64_t)(a + m) * stride + off),
                        CV_AT(part, CV_BUF_SCRATCH, (int64_t)a * stride + off),
                        CV_AT(part, CV_BUF_SCRATCH, (int64_t)a * stride + off), len,
                        finish && m == top ? CV_XFER_FINISH : 0);
}
