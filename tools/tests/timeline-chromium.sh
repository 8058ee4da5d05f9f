#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kstats timeline's page in a browser: headless Chromium loads the page the
# fixtures make (tests/fixtures/history_*.txt); the DOM it builds must hold
# a row for every node, each with as many heatmap cells as its history has
# non-empty buckets, and a screenshot of it must not be blank: the heatmap's
# colours drawn.  Run by tests/run.sh (make -C tools check), or alone:
#
#   tools/tests/timeline-chromium.sh [KSTATS]
#
# Last line: what passed, or why not.  Exit 0 pass, 1 fail, 77 skipped
# (no Chromium: apt-get install chromium, as scripts/deps.sh does).
cd "$(dirname "$0")/.." || exit 2
K=${1:-./kstats}
F=tests/fixtures
B=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
	{ echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# its profile and caches in $T; no sandbox, as root; no GPU in a VM or CI
export HOME=$T XDG_CONFIG_HOME=$T XDG_CACHE_HOME=$T
chromium() {
	timeout 120 "$B" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$T/profile" "$@" 2>> "$T/chromium.err"
}

HIST="$F/history_live.txt $F/history_frozen.txt"
# shellcheck disable=SC2086
if ! "$K" timeline -o "$T/timeline.html" $HIST 2> "$T/err"; then
	echo "FAIL: kstats timeline -o: $(cat "$T/err")"
	exit 1
fi

chromium --dump-dom "file://$T/timeline.html" > "$T/dom.html"
# shellcheck disable=SC2086
if ! python3 - "$T/dom.html" $HIST > "$T/dom.ok" 2> "$T/why" <<'EOF'
import sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """Each section.node's data-name, and the rect.cell under it."""
    def __init__(self):
        super().__init__()
        self.rows, self.cur = {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'section' and 'node' in (a.get('class') or '').split():
            self.cur = a.get('data-name')
            self.rows[self.cur] = 0
        elif self.cur and tag == 'rect' and a.get('class') == 'cell':
            self.rows[self.cur] += 1

    def handle_endtag(self, tag):
        if tag == 'section':
            self.cur = None

dom = Dom()
dom.feed(open(sys.argv[1], encoding='utf-8').read())
want = {}
for f in sys.argv[2:]:
    lines = open(f).read().split('\n')
    want[lines[0].split()[2]] = sum(1 for l in lines if l.startswith('slice ')
                                    for b in l.split()[13].split(',')
                                    if int(b.split(':')[1]))
if dom.rows != want:
    sys.exit('the DOM has rows and cells %s, the histories %s' % (dom.rows, want))
if not all(want.values()):
    sys.exit('a node without cells: %s' % want)
print('%s' % ', '.join('%s %d cells' % kv for kv in sorted(dom.rows.items())))
EOF
then
	echo "FAIL: chromium --dump-dom: $(tail -1 "$T/why") (chromium said: $(grep -v dbus "$T/chromium.err" | tail -2))"
	exit 1
fi

chromium --screenshot="$T/shot.png" --window-size=1200,800 "file://$T/timeline.html" > /dev/null
if ! python3 - "$T/shot.png" > "$T/shot.ok" 2> "$T/why" <<'EOF'
import struct, sys, zlib

# A PNG, decoded with zlib alone: 8-bit RGB or RGBA, not interlaced.
data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
pos, idat, hdr = 8, b'', None
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit('PNG of depth %d, colour type %d, interlace %d: not read here' % (depth, ctype, interlace))
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, red, white = bytearray(stride), set(), 0, 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        colours.add((r, g, bl))
        red += r > 150 and g < 90 and bl < 90	# the busiest cells' dark red
        white += r > 250 and g > 250 and bl > 250
    prev = line
share = 1 - white / (w * h)
if len(colours) < 16 or red < 200 or share < 0.05:
    sys.exit('a blank screenshot: %d colours, %d dark red pixels, %.1f%% not white' % (len(colours), red, 100 * share))
print('%dx%d: %d colours, %d dark red pixels, %.0f%% not white' % (w, h, len(colours), red, 100 * share))
EOF
then
	echo "FAIL: chromium --screenshot: $(tail -1 "$T/why") (chromium said: $(grep -v dbus "$T/chromium.err" | tail -2))"
	exit 1
fi
echo "every node's row with its cells in the DOM ($(cat "$T/dom.ok")); the screenshot not blank ($(cat "$T/shot.ok"))"
