#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Fake roots for kstats explain: ROOT/_history/{rq,throttle.web,noise} in
# the format of Documentation/format.rst ("History: _history/NAME"), 400
# slices of 10 ms from a seeded generator (the same files every run).
#
#   make_explain.py DIR   writes DIR/periodic and DIR/flat
#
# periodic: rq's tail (4 ms+, about 2% of its samples) comes every 25
# slices (250 ms), 2 slices long; throttle.web's samples rise in those same
# slices; noise is unrelated.  flat: rq's tail in random slices (no
# period), throttle.web and noise random, unrelated to it.
import os
import random
import sys

SLICE = 10_000_000
N = 400
T0 = 5_000_000_000
FAST = [(1024, 1100), (1152, 1200), (1280, 1300), (2048, 2100)]
SLOW = (4194304, 4300000)


def slice_line(t, buckets):
    """buckets: [(lo, count, a value in it)], by increasing lo"""
    b = [x for x in buckets if x[1]]
    n = sum(c for _, c, _ in b)
    vals = []
    for _, c, v in b:
        vals += [v] * c
    p50, p99 = vals[(n + 1) // 2 - 1], vals[-(-n * 99 // 100) - 1]
    return ("slice %d samples %d min %d p50 %d p99 %d max %d buckets %s\n"
            % (t, n, vals[0], p50, p99, vals[-1],
               ",".join("%d:%d" % (lo, c) for lo, c, _ in b)))


def write(root, name, slices):
    os.makedirs(os.path.join(root, "_history"), exist_ok=True)
    with open(os.path.join(root, "_history", name), "w") as f:
        f.write("# history %s slice %d slices 512 bytes 65536 state live\n"
                % (name, SLICE))
        for i, bk in enumerate(slices):
            if any(c for _, c, _ in bk):
                f.write(slice_line(T0 + i * SLICE, bk))


def fast(rng, extra=0):
    return [(lo, rng.randint(20, 30) + (extra if lo == 2048 else 0), v)
            for lo, v in FAST]


def make(root, periodic, seed):
    rng = random.Random(seed)
    if periodic:
        hot = [i % 25 < 2 for i in range(N)]
    else:
        hot = [rng.random() < 0.08 for _ in range(N)]
    rq, thr, noise = [], [], []
    for i in range(N):
        rq.append(fast(rng) + [(SLOW[0], rng.randint(15, 25) if hot[i] else 0,
                                SLOW[1])])
        if periodic:
            busy = 10 + (60 if hot[i] else 0) + rng.randint(0, 5)
        else:
            busy = 10 + (60 if rng.random() < 0.08 else 0) + rng.randint(0, 5)
        thr.append([(65536, busy, 70000)])
        noise.append([(512, rng.randint(1, 40), 600),
                      (8192, rng.randint(0, 3), 9000)])
    write(root, "rq", rq)
    write(root, "throttle.web", thr)
    write(root, "noise", noise)


if __name__ == "__main__":
    make(os.path.join(sys.argv[1], "periodic"), True, 1)
    make(os.path.join(sys.argv[1], "flat"), False, 2)
