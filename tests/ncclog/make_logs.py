#!/usr/bin/env python3
"""make_logs.py: writes the NCCL_DEBUG=INFO logs tests/test_ncclog.c reads.

Each good log is printed from a topology chosen here first (nodes, each
channel's ring, each channel's tree), in the line formats NCCL has used over
its versions, with the lines of every process interleaved at random the way
a launcher merges them. NAME.expect records the topology, so the test checks
the reader's reconstruction against the truth it was printed from, not
against the reader itself. Bad logs come with NAME.expect holding the words
the one-line error must contain.

Run it from anywhere; it rewrites the files beside it. The seed is fixed, so
the output only changes when this script does.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261124)
# Pointers and commIds from their own generator, so the topologies (and the
# lesson that quotes two-nodes-16) do not move when these do.
ids = random.Random(7)


def pointer(base):
    """A process's own "comm 0x..." pointer: NCCL prints the address of the
    communicator object in that process, so every rank of one communicator
    prints a different one."""
    return "0x%x%07x0" % (base, ids.randrange(1 << 28))


def comm_id():
    """The "commId 0x..." newer NCCL prints on Init START and COMPLETE: the
    hash of the unique id, the same on every rank."""
    return "0x%016x" % ids.randrange(1 << 64)


def write(name, lines, expect, crlf=False):
    with open(os.path.join(HERE, name + ".log"), "w", newline="") as f:
        for line in lines:
            f.write(line + ("\r\n" if crlf else "\n"))
    with open(os.path.join(HERE, name + ".expect"), "w") as f:
        json.dump(expect, f, indent=1, sort_keys=True)
        f.write("\n")


def interleave(streams):
    """Merges per-process line lists, keeping each process's own order."""
    streams = [list(s) for s in streams if s]
    out = []
    while streams:
        k = rng.randrange(len(streams))
        out.append(streams[k].pop(0))
        if not streams[k]:
            streams.pop(k)
    return out


def bus_id(local):
    return ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"][local % 8]


def chain_tree(order):
    """A chain in ring order: order[0] is the root."""
    parent = {order[0]: -1}
    for a, b in zip(order, order[1:]):
        parent[b] = a
    return parent


def children_of(parent, n):
    kids = {r: [] for r in range(n)}
    for r in range(n):
        if parent[r] >= 0:
            kids[parent[r]].append(r)
    return kids


def trees_field(kids, r, parent, style):
    k = (kids[r] + [-1, -1, -1])[:3]
    down = "/".join(str(x) for x in k)
    if style == "modern":
        return "%s->%d->%d" % (down, r, parent[r])
    if style == "old":
        return "%d->%d->%s" % (parent[r], r, down)
    if style == "updown":
        # NCCL 2.4 printed the up tree, then the down tree (its mirror).
        return "%s->%d->%d|%d->%d->%s" % (down, r, parent[r], parent[r], r, down)
    raise ValueError(style)


def topology(nodes, gpus, nch, tree_kind):
    """As NCCL builds them: nch/2 distinct channels, each run twice (channel
    c and c + nch/2 share a ring); each node's GPUs in a per-channel order,
    the nodes in sequence. Trees: a chain inside each node, the node heads
    joined by a binary tree in heap order; with tree_kind "dbtree", the
    second half of the channels uses the mirror tree (NCCL's double binary
    tree: a head that is inner in one tree is a leaf in the other)."""
    n = nodes * gpus
    half = max(1, nch // 2)
    base = []
    for c in range(half):
        order = []
        for k in range(nodes):
            local = list(range(gpus))
            if c % 2:
                rng.shuffle(local)
            order += [k * gpus + g for g in local]
        # rank 0 first, as NCCL prints rings from rank 0
        base.append(order[order.index(0):] + order[:order.index(0)])
    rings, trees = [], []
    for c in range(nch):
        order = base[c % half]
        rings.append(order)
        parent = {}
        heads = []
        for k in range(nodes):
            mine = [r for r in order if r // gpus == k]
            parent.update(chain_tree(mine))
            heads.append(mine[0])
        if tree_kind == "dbtree" and c >= half:
            heads = heads[::-1]
        # a binary tree over the heads in heap order
        for i, h in enumerate(heads):
            parent[h] = -1 if i == 0 else heads[(i - 1) // 2]
        trees.append(parent)
    return n, rings, trees


def expect_good(n, nodes_hosts, rings, trees, version, extra=None):
    e = {"ranks": n, "version": version, "rings": rings,
         "parents": [[t[r] for r in range(n)] for t in trees] if trees else [],
         "hosts": nodes_hosts}
    if extra:
        e.update(extra)
    return e


def modern_log(name, nodes, gpus, nch, prefix, graph_lines, crlf=False, colours=False):
    """NCCL 2.19+: comm lines, rank 0's summaries, Trees, optional Ring
    lines (NCCL_DEBUG_SUBSYS=GRAPH), connections, Init COMPLETE."""
    n, rings, trees = topology(nodes, gpus, nch, "dbtree")
    hosts = ["node%02d-gpu" % k for k in range(nodes)]
    rng.randrange(1 << 32)  # once the shared pointer; kept so the topologies stay put
    cid = comm_id()
    streams = []
    for r in range(n):
        host, local = hosts[r // gpus], r % gpus
        pid = 40000 + r * 7
        comm = pointer(0x55d4 + r)
        head = "%s%s:%d:%d [%d] NCCL INFO " % (prefix(r), host, pid, pid + 31, local)
        main = "%s%s:%d:%d [%d] NCCL INFO " % (prefix(r), host, pid, pid, local)
        s = []
        if r == 0:
            s.append(main + "NCCL version 2.21.5+cuda12.4")
        s.append(main + "ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s "
                 "commId %s - Init START" % (comm, r, n, local, local, bus_id(local), cid))
        s.append(head + "comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0"
                 % (comm, r, n, nodes, gpus, local))
        if r == 0:
            for c in range(nch):
                s.append(head + "Channel %02d/%02d : %s" % (c, nch, " ".join(str(x) for x in rings[c])))
        fields = []
        for c in range(nch):
            kids = children_of(trees[c], n)
            fields.append("[%d] %s" % (c, trees_field(kids, r, trees[c], "modern")))
        s.append(head + "Trees " + " ".join(fields))
        if graph_lines:
            for c in range(nch):
                o = rings[c]
                i = o.index(r)
                s.append(head + "Ring %02d : %d -> %d -> %d" % (c, o[i - 1], r, o[(i + 1) % n]))
        s.append(head + "P2P Chunksize set to 524288")
        for c in range(nch):
            o = rings[c]
            nxt = o[(o.index(r) + 1) % n]
            if nxt // gpus == r // gpus:
                via = "P2P/CUMEM/read"
                s.append(head + "Channel %02d/0 : %d[%d] -> %d[%d] via %s" % (c, r, local, nxt, nxt % gpus, via))
            else:
                via = "NET/IB/%d/GDRDMA" % (c % 4)
                s.append(head + "Channel %02d/0 : %d[%d] -> %d[%d] [send] via %s" % (c, r, local, nxt, nxt % gpus, via))
        s.append(head + "Connected all rings")
        for c in range(nch):
            p = trees[c][r]
            if p >= 0:
                kind = "P2P/CUMEM/read" if p // gpus == r // gpus else "NET/IB/%d/GDRDMA" % (c % 4)
                s.append(head + "Channel %02d/0 : %d[%d] -> %d[%d] via %s" % (c, r, local, p, p % gpus, kind))
        s.append(head + "Connected all trees")
        s.append(head + "ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s "
                 "commId %s localSize 208 used 1073741824 bytes on core 12 - Init COMPLETE"
                 % (comm, r, n, local, local, bus_id(local), cid))
        if colours and r % 3 == 0:
            s = ["\x1b[32m" + x + "\x1b[0m" for x in s]
        streams.append(s)
    lines = ["+ torchrun --nproc-per-node=%d train.py" % gpus] + interleave(streams)
    lines.append("step 1 loss 7.1184")
    write(name, lines, expect_good(n, [[h, list(range(k * gpus, (k + 1) * gpus))] for k, h in enumerate(hosts)],
                                   rings, trees, "2.21.5+cuda12.4", {"comm": cid}), crlf)


def cut_summary_log(name):
    """NCCL 2.8 on 4 nodes x 8: rank 0's summary lines stop after 20 ranks
    (the last number cut in two), per-rank Ring lines complete them; Slurm's
    `srun --label` prefixes, a few lines coloured, timestamps in front."""
    nodes, gpus, nch = 4, 8, 4
    n, rings, trees = topology(nodes, gpus, nch, "dbtree")
    hosts = ["ip-172-31-%d-%d" % (k, 10 + 3 * k) for k in range(nodes)]
    rng.randrange(1 << 32)
    streams, comm0 = [], None
    for r in range(n):
        host, local = hosts[r // gpus], r % gpus
        comm = pointer(0x7f3a + r)
        comm0 = comm0 or comm
        pid = 4886 + r
        head = "%d: %s:%d:%d [%d] NCCL INFO " % (r, host, pid, pid + 60, local)
        s = []
        if r == 0:
            s.append(head + "NCCL version 2.8.4+cuda11.2")
            for c in range(nch):
                shown = "".join("%4d" % x for x in rings[c])[:80]  # cut mid-number
                s.append(head + "Channel %02d/%02d :%s" % (c, nch, shown))
        for c in range(nch):
            o = rings[c]
            i = o.index(r)
            s.append(head + "Ring %02d : %d -> %d -> %d" % (c, o[i - 1], r, o[(i + 1) % n]))
        fields = []
        for c in range(nch):
            kids = children_of(trees[c], n)
            fields.append("[%d] %s" % (c, trees_field(kids, r, trees[c], "modern")))
        s.append(head + "Trees " + " ".join(fields))
        s.append(head + "Connected all rings")
        s.append(head + "comm %s rank %d nranks %d cudaDev %d busId %s - Init COMPLETE"
                 % (comm, r, n, local, bus_id(local)))
        s = ["2021-06-01T10:%02d:%02d.%03d %s" % (r % 60, (7 * r) % 60, r, x) for x in s]
        streams.append(s)
    write(name, interleave(streams),
          expect_good(n, [[h, list(range(k * gpus, (k + 1) * gpus))] for k, h in enumerate(hosts)],
                      rings, trees, "2.8.4+cuda11.2", {"comm": comm0, "summary_cut": True}))


def small_dbtree_log(name):
    """4 ranks on 2 nodes (2 GPUs each), NCCL's double binary tree over the
    two nodes; torchrun's [defaultN]: prefixes; Windows line ends."""
    nodes, gpus, nch = 2, 2, 2
    n, rings, trees = topology(nodes, gpus, nch, "dbtree")
    hosts = ["gpu-a", "gpu-b"]
    rng.randrange(1 << 32)
    cid = comm_id()
    streams = []
    for r in range(n):
        host, local = hosts[r // gpus], r % gpus
        comm = pointer(0x1c2d + r)
        head = "[default%d]:%s:%d:%d [%d] NCCL INFO " % (local, host, 900 + r, 950 + r, local)
        s = [head + "comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0"
             % (comm, r, n, nodes, gpus, local)]
        if r == 0:
            s.insert(0, head + "NCCL version 2.23.4+cuda12.6")
            for c in range(nch):
                s.append(head + "Channel %02d/%02d :    %s" % (c, nch, "   ".join(str(x) for x in rings[c])))
        fields = []
        for c in range(nch):
            kids = children_of(trees[c], n)
            fields.append("[%d] %s" % (c, trees_field(kids, r, trees[c], "modern")))
        s.append(head + "Trees " + " ".join(fields))
        for c in range(nch):
            o = rings[c]
            nxt = o[(o.index(r) + 1) % n]
            via = "P2P/IPC" if nxt // gpus == r // gpus else "NET/Socket/0"
            tag = "" if nxt // gpus == r // gpus else " [send]"
            s.append(head + "Channel %02d/0 : %d[%s] -> %d[%s]%s via %s" % (c, r, bus_id(local), nxt, bus_id(nxt % gpus), tag, via))
        s.append(head + "Connected all rings")
        s.append(head + "ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s "
                 "commId %s - Init COMPLETE" % (comm, r, n, local, local, bus_id(local), cid))
        streams.append(s)
    write(name, interleave(streams),
          expect_good(n, [[h, list(range(k * gpus, (k + 1) * gpus))] for k, h in enumerate(hosts)],
                      rings, trees, "2.23.4+cuda12.6", {"comm": cid}), crlf=True)


def old_connections_log(name, tree_style):
    """NCCL 2.4-2.6: no per-rank Ring lines and no summary; the ring only in
    connection lines "Ring cc : a[bus] -> b[bus] via ...", then "Connected all
    rings" and the trees' connections; trees in the old parent->self->children
    form (or 2.4's up|down pair); mpirun --tag-output prefixes; a bare
    "NCCL version" line."""
    nodes, gpus, nch = 2, 4, 2
    n, rings, trees = topology(nodes, gpus, nch, "binary")
    hosts = ["c%02d" % (k + 11) for k in range(nodes)]
    rng.randrange(1 << 32)
    streams, comm0 = [], None
    for r in range(n):
        host, local = hosts[r // gpus], r % gpus
        comm = pointer(0x7f14 + r)
        comm0 = comm0 or comm
        pid = 10158 + r
        head = "[1,%d]<stdout>:%s:%d:%d [%d] NCCL INFO " % (r, host, pid, pid + 402, local)
        s = []
        if r == 0:
            s.append("[1,0]<stdout>:NCCL version 2.4.8+cuda10.1")
        fields = []
        for c in range(nch):
            kids = children_of(trees[c], n)
            fields.append("[%d] %s" % (c, trees_field(kids, r, trees[c], tree_style)))
        s.append(head + "Trees" + "".join(" " + f for f in fields))
        for c in range(nch):
            o = rings[c]
            nxt = o[(o.index(r) + 1) % n]
            if nxt // gpus == r // gpus:
                s.append(head + "Ring %02d : %d[%s] -> %d[%s] via P2P/IPC" % (c, r, bus_id(local), nxt, bus_id(nxt % gpus)))
            else:
                s.append(head + "Ring %02d : %d -> %d [send] via NET/IB/0/GDRDMA" % (c, r, nxt))
                # the receiver prints the same hop
        s.append(head + "Connected all rings")
        for c in range(nch):
            p = trees[c][r]
            if p >= 0:
                s.append(head + "Ring %02d : %d[%s] -> %d[%s] via P2P/IPC" % (c, r, bus_id(local), p, bus_id(p % gpus)))
        s.append(head + "comm %s rank %d nranks %d cudaDev %d nvmlDev %d - Init COMPLETE" % (comm, r, n, local, local))
        streams.append(s)
    write(name, interleave(streams),
          expect_good(n, [[h, list(range(k * gpus, (k + 1) * gpus))] for k, h in enumerate(hosts)],
                      rings, trees, "2.4.8+cuda10.1", {"comm": comm0}))


def tree_lines_log(name):
    """Per-rank "Tree c : parent -> self -> children" lines beside "Ring c :
    prev -> self -> next", with no communicator named anywhere."""
    nodes, gpus, nch = 1, 4, 2
    n, rings, trees = topology(nodes, gpus, nch, "binary")
    streams = []
    for r in range(n):
        head = "h1:%d:%d [%d] NCCL INFO " % (300 + r, 300 + r, r)
        s = []
        for c in range(nch):
            o = rings[c]
            i = o.index(r)
            s.append(head + "Ring %02d : %d -> %d -> %d" % (c, o[i - 1], r, o[(i + 1) % n]))
            kids = (children_of(trees[c], n)[r] + [-1, -1, -1])[:3]
            s.append(head + "Tree %d : %d -> %d -> %s" % (c, trees[c][r], r, "/".join(str(k) for k in kids)))
        streams.append(s)
    write(name, interleave(streams), expect_good(n, [["h1", list(range(n))]], rings, trees, "", {"comm": ""}))


def multi_comm_log(name, with_commid):
    """A world communicator of 8 and two 4-rank groups split from it, the
    same processes printing all three, each process with its own pointer
    for each. With commId (NCCL 2.19+), every communicator has one; without
    (older NCCL), only the pointers, and the groups are split by parity
    (ranks 0, 2, 4, 6 and 1, 3, 5, 7) with rings of their own, so the reader
    must deal the pointers out right to rebuild them."""
    gpus = 8
    wrings = [list(range(8)), [0, 2, 4, 6, 7, 5, 3, 1]]
    if with_commid:
        world, groups = comm_id(), [comm_id(), comm_id()]
        members = [[0, 1, 2, 3], [4, 5, 6, 7]]
        grings = [[[0, 1, 2, 3], [0, 3, 2, 1]], [[0, 1, 2, 3], [0, 3, 2, 1]]]
    else:
        world, groups = None, [None, None]
        members = [[0, 2, 4, 6], [1, 3, 5, 7]]
        grings = [[[0, 1, 2, 3], [0, 3, 2, 1]], [[0, 2, 1, 3], [0, 3, 1, 2]]]
    ptrs = {}
    streams = []
    for r in range(gpus):
        head = "dgx1:%d:%d [%d] NCCL INFO " % (7000 + r, 7000 + r, r)
        wp, gp = pointer(0x5600 + r), pointer(0x5610 + r)
        g = 0 if r in members[0] else 1
        gr = members[g].index(r)
        ptrs[(None, r)], ptrs[(g, gr)] = wp, gp
        tail = lambda cid: (" commId %s" % cid) if with_commid else ""
        s = []
        if with_commid:
            s.append(head + "ncclCommInitRank comm %s rank %d nranks 8 cudaDev %d nvmlDev %d busId %s%s - Init START"
                     % (wp, r, r, r, bus_id(r), tail(world)))
            s.append(head + "comm %s rank %d nRanks 8 nNodes 1 localRanks 8 localRank %d MNNVL 0" % (wp, r, r))
        if r == 0:
            for c, o in enumerate(wrings):
                s.append(head + "Channel %02d/02 : %s" % (c, " ".join(map(str, o))))
        for c, o in enumerate(wrings):
            i = o.index(r)
            s.append(head + "Ring %02d : %d -> %d -> %d" % (c, o[i - 1], r, o[(i + 1) % 8]))
        s.append(head + "comm %s rank %d nranks 8 cudaDev %d busId %s%s - Init COMPLETE" % (wp, r, r, bus_id(r), tail(world)))
        if with_commid:
            s.append(head + "ncclCommSplit comm %s rank %d nranks 4 cudaDev %d nvmlDev %d busId %s parent %s color %d key %d%s - Init START"
                     % (gp, gr, r, r, bus_id(r), wp, g, gr, tail(groups[g])))
            s.append(head + "comm %s rank %d nRanks 4 nNodes 1 localRanks 4 localRank %d MNNVL 0" % (gp, gr, gr))
        for c, o in enumerate(grings[g]):
            i = o.index(gr)
            s.append(head + "Ring %02d : %d -> %d -> %d" % (c, o[i - 1], gr, o[(i + 1) % 4]))
        s.append(head + "comm %s rank %d nranks 4 cudaDev %d busId %s%s - Init COMPLETE" % (gp, gr, r, bus_id(r), tail(groups[g])))
        streams.append(s)
    lines = interleave(streams)
    if not with_commid:  # named by the pointer of their rank 0
        world, groups = ptrs[(None, 0)], [ptrs[(0, 0)], ptrs[(1, 0)]]
    write(name, lines, {"comms": [world] + groups,
                        "rings_by_comm": {world: wrings, groups[0]: grings[0], groups[1]: grings[1]},
                        "members": {groups[0]: members[0], groups[1]: members[1]},
                        "a_pointer": {ptrs[(1, 2)]: groups[1]}})


def bad_logs():
    # No ring or tree lines: only initialisation chatter.
    lines = ["host:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
             "host:1:1 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so)",
             "host:1:1 [0] NCCL INFO comm 0x55aa00 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0",
             "host:1:1 [0] NCCL INFO ncclCommInitRank comm 0x55aa00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init COMPLETE"]
    # Partial logs are read for what they determine (a "partial" reading):
    # the expect names each channel's ring and tree state and words of what
    # is missing and what to capture.
    write("partial-no-rings", lines, {"partial": {"ring_is": [], "tree_is": [],
                                                  "words": ["no ring or tree line",
                                                            "NCCL_DEBUG_SUBSYS=INIT,GRAPH"]}})
    write("bad-not-nccl", ["epoch 1 loss 2.3", "epoch 2 loss 2.1"], {"error": ["no NCCL lines in 2 lines", "NCCL_DEBUG=INFO"]})
    # Rank 3 says it sends to 5; the summary says 4.
    lines = ["h:1:1 [0] NCCL INFO Channel 00/01 : 0 1 2 3 4 5",
             "h:4:4 [3] NCCL INFO Ring 00 : 2 -> 3 -> 5"]
    write("bad-disagree", lines, {"error": ["bad-disagree.log:2:", "disagree", "rank 3", "line 1"]})
    # A cut summary of 6 ranks and rank 4's own line missing: the other
    # ranks' lines leave one hop open, 3 -> 4, which they force.
    lines = ["h:1:1 [0] NCCL INFO comm 0x77 rank 0 nRanks 6 nNodes 1 localRanks 6 localRank 0 MNNVL 0",
             "h:1:1 [0] NCCL INFO Channel 00/01 :    0   1   2   3"]
    for r in (0, 1, 2, 3, 5):
        o = [0, 1, 2, 3, 4, 5]
        lines.append("h:%d:%d [%d] NCCL INFO Ring 00 : %d -> %d -> %d" % (10 + r, 10 + r, r, o[r - 1], r, o[(r + 1) % 6]) if r != 3 else
                     "h:%d:%d [%d] NCCL INFO Trees [0] -1/-1/-1->3->2" % (10 + r, 10 + r, r))
    write("partial-missing-rank", lines, {"partial": {"ring_is": ["whole"], "tree_is": ["partial"],
                                                      "ring0": [0, 1, 2, 3, 4, 5],
                                                      "words": ["tree 0 not whole", "no line from rank 4"]}})
    # Rank 2 names 0 as its parent, rank 0 lists only 1.
    lines = ["h:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1",
             "h:2:2 [1] NCCL INFO Trees [0] -1/-1/-1->1->0",
             "h:3:3 [2] NCCL INFO Trees [0] -1/-1/-1->2->0"]
    write("bad-tree", lines, {"error": ["bad-tree.log:3:", "trees disagree", "rank 2"]})
    # A summary NCCL cut after 20 of 32 ranks, and no per-rank Ring lines.
    shown = "".join("%4d" % x for x in range(32))[:80]
    lines = ["h:1:1 [0] NCCL INFO comm 0x7f00bb0 rank 0 nRanks 32 nNodes 4 localRanks 8 localRank 0 MNNVL 0",
             "h:1:1 [0] NCCL INFO Channel 00/01 :" + shown]
    write("partial-cut-summary", lines,
          {"partial": {"ring_is": ["partial"], "tree_is": ["unknown"],
                       "words": ["channel 0: only part of the ring is known", "NCCL_DEBUG_SUBSYS=INIT,GRAPH",
                                 "no line from ranks 1-31"]}})
    # Rank 5's Trees line missing: rank 4 lists it as a child.
    lines = ["h:%d:%d [%d] NCCL INFO Trees [0] %s" % (10 + r, 10 + r, r, t) for r, t in
             [(0, "1/-1/-1->0->-1"), (1, "2/-1/-1->1->0"), (2, "3/-1/-1->2->1"),
              (3, "4/-1/-1->3->2"), (4, "5/-1/-1->4->3")]]
    lines.insert(0, "h:10:10 [0] NCCL INFO comm 0x7f00aa0 rank 0 nRanks 6 nNodes 1 localRanks 6 localRank 0 MNNVL 0")
    write("partial-missing-tree-rank", lines,
          {"partial": {"ring_is": ["unknown"], "tree_is": ["partial"],
                       "words": ["tree 0 not whole", "no line from rank 5"]}})
    # Old connection lines that mix a tree's edge into the ring (NVIDIA/nccl#385's puzzle).
    lines = ["n:1:1 [0] NCCL INFO Ring 00 : 0[1000] -> 1[2000] via P2P/IPC",
             "n:2:2 [1] NCCL INFO Ring 00 : 1[2000] -> 2[3000] via P2P/IPC",
             "n:3:3 [2] NCCL INFO Ring 00 : 2[3000] -> 0[1000] via P2P/IPC",
             "n:3:3 [2] NCCL INFO Ring 00 : 2[3000] -> 1[2000] via P2P/IPC"]
    write("partial-conn", lines, {"partial": {"ring_is": ["unknown"], "tree_is": ["unknown"],
                                              "words": ["connection lines mix the rings' hops with the trees'",
                                                        "\"Channel NN :\" summary lines"]}})
    # A rank far beyond what collviz reads.
    write("bad-rank", ["h:1:1 [0] NCCL INFO Ring 00 : 1 -> 99999 -> 2"], {"error": ["bad-rank.log:1:", "out of range"]})


if __name__ == "__main__":
    modern_log("single-node-8", 1, 8, 4, lambda r: "", graph_lines=True, colours=True)
    modern_log("two-nodes-16", 2, 8, 4, lambda r: "[1,%d]<stdout>:" % r, graph_lines=False)
    # the lesson algo-nccl-log reads this one, and it ships with the assets
    assets = os.path.join(HERE, "..", "..", "assets", "ncclog")
    os.makedirs(assets, exist_ok=True)
    with open(os.path.join(HERE, "two-nodes-16.log"), "rb") as f, \
            open(os.path.join(assets, "two-nodes-16.log"), "wb") as g:
        g.write(f.read())
    cut_summary_log("cut-summary-32")
    small_dbtree_log("dbtree-4")
    old_connections_log("old-connections", "old")
    old_connections_log("old-updown", "updown")
    tree_lines_log("tree-lines")
    multi_comm_log("multi-comm", True)
    multi_comm_log("multi-comm-old", False)
    bad_logs()
