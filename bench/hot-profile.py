#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Count the instructions kstats.ko ran, by function, from QEMU's log of the
# translation blocks it executed (tests/vm-run.sh --exec-log):
#
#   bench/hot-profile.py LOG KO TEXT LAST,FIRST LOOPS [FUNC...]
#
# LOG: the exec log (-d exec,nochain,in_asm: each block's instructions when
# it is translated, then a line per run of it); KO: the module it ran;
# TEXT: the address of its .text in the guest; LAST and FIRST: the last
# function the guest runs before the measured loop and the first after
# it, neither during it (a read of the node: its release, its open): the
# loop is the longest stretch of the log from a block of LAST to one of
# FIRST.  Prints each function's instructions per loop (of LOOPS), then,
# for each FUNC, its blocks: offset, instructions, runs per loop, to read
# against `objdump -d KO`.
import bisect
import re
import subprocess
import sys
from collections import Counter

if len(sys.argv) < 6:
    sys.exit("usage: hot-profile.py LOG KO TEXT LAST,FIRST LOOPS [FUNC...]")
log, ko, text, marks, loops = sys.argv[1:6]
last, first = marks.split(",")
funcs = sys.argv[6:]
text, loops = int(text, 16), int(loops)

# the .text functions of the module, by offset
nm = subprocess.run(["nm", "-n", "--defined-only", ko], check=True,
                    capture_output=True, text=True).stdout
syms = [(int(a, 16), n) for a, t, n in
        (line.split()[:3] for line in nm.splitlines() if len(line.split()) >= 3)
        if t in "tT"]
starts = [a for a, _ in syms]


def where(pc):
    """The function of .text offset pc, or None outside the module."""
    off = pc - text
    i = bisect.bisect_right(starts, off) - 1
    if off < 0 or i < 0 or off - starts[i] > 0x10000:
        return None
    return syms[i][1]


# one pass: each block's size at its last translation, the runs in order
size = {}
runs = []
run_re = re.compile(r"Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
insn_re = re.compile(r"^(0x[0-9a-f]+):\s")
block, n = None, 0
with open(log, errors="replace") as f:
    for line in f:
        if line.startswith("IN:"):
            block, n = None, 0
            continue
        m = insn_re.match(line)
        if m:
            if block is None:
                block = int(m.group(1), 16)
            n += 1
            size[block] = n
            continue
        m = run_re.search(line)
        if m:
            pc = int(m.group(1), 16)
            runs.append((pc, size.get(pc, 0)))

# the longest stretch from a block of LAST to the next of either, of FIRST
lo = hi = prev = None
for i, (pc, _) in enumerate(runs):
    fn = where(pc)
    if fn == first and prev is not None and (lo is None or i - prev > hi - lo):
        lo, hi = prev + 1, i
    if fn in (last, first):
        prev = i if fn == last else None
if lo is None:
    sys.exit(f"hot-profile: no run of {first} after one of {last} in {log}")

per_fn = Counter()
blocks = Counter()
for pc, n in runs[lo:hi]:
    fn = where(pc)
    if fn is None:
        continue
    per_fn[fn] += n
    if fn in funcs:
        blocks[pc] += 1
total = sum(per_fn.values())
print(f"# {loops} loops, {total / loops:.1f} module instructions a loop")
for fn, n in per_fn.most_common():
    print(f"{n / loops:10.1f}  {fn}")
for fn in funcs:
    print(f"\n# {fn}: block offset, instructions, runs a loop")
    for pc in sorted(pc for pc in blocks if where(pc) == fn):
        print(f"  {pc - text:x}  {size.get(pc, 0):3d}  {blocks[pc] / loops:.2f}")
