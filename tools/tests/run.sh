#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kstats tool's tests, without a VM: run by `make -C tools check`.
# Last line: "N passed, N failed, N skipped"; exit status 1 on any failure.
cd "$(dirname "$0")/.." || exit 2
K=./kstats
SAN=build/kstats-san
F=tests/fixtures
M=tests/malformed
S=tests/synthetic	# constructed cases (make_synthetic.sh); $F holds real captures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0 FAIL=0 SKIP=0

ok()   { PASS=$((PASS + 1)); echo "ok - $1"; }
bad()  { FAIL=$((FAIL + 1)); echo "FAIL - $1${2:+: $2}"; }
skip() { SKIP=$((SKIP + 1)); echo "skip - $1: $2"; }
# t NAME COMMAND...: passes when the command succeeds
t() { local n=$1; shift; if "$@" > "$T/out" 2> "$T/err"; then ok "$n"; else bad "$n" "$(head -c 300 "$T/err")"; fi; }
# rc WANT NAME COMMAND...: passes when the command exits with WANT
rc() {
	local want=$1 n=$2 got; shift 2
	"$@" > "$T/out" 2> "$T/err"; got=$?
	if [ "$got" = "$want" ]; then ok "$n"; else bad "$n" "exit $got, want $want: $(head -c 300 "$T/err")"; fi
}
has() { grep -q -- "$1" "$T/${2:-out}"; }
py() { python3 -c "$@"; }
json_get() { # FILE EXPR: evaluates EXPR with d = the parsed JSON
	py "import json,sys; d=json.load(open('$1')); print($2)"
}

echo "# build"
for cc in gcc clang; do
	if command -v $cc > /dev/null; then
		out=$($cc -std=c99 -Wall -Wextra -O2 -o "$T/k-$cc" kstats.c snapshot.c stats.c render.c export.c heatmap.c -lm 2>&1)
		if [ -z "$out" ]; then ok "$cc -Wall -Wextra -O2: no warnings"; else bad "$cc warnings" "$out"; fi
	fi
done

echo "# unit (ASan/UBSan): percentiles, KS, deltas, units, summaries of every fixture"
build/unit $F/*.txt $F/series/*.txt $S/*.txt > "$T/unit" 2>&1
grep -E '^(not )?ok' "$T/unit" | grep -v '^ok' | sed 's/^/FAIL - unit: /'
read -r _ up uf < <(tail -1 "$T/unit")
if [ -n "$up" ] && [ "$uf" = 0 ]; then PASS=$((PASS + up)); echo "ok - unit: $up checks"
else FAIL=$((FAIL + ${uf:-1})); PASS=$((PASS + ${up:-0})); echo "FAIL - unit: $(tail -3 "$T/unit")"; fi

echo "# usage"
rc 0 "--help" $K --help; has USAGE || bad "--help prints USAGE"
rc 2 "no command" $K
rc 2 "unknown command" $K frobnicate
rc 2 "unknown option" $K show $F/basic.txt --bogus
rc 2 "option of another command" $K show $F/basic.txt --alpha 0.1
rc 2 "missing value" $K watch $F/basic.txt -i
rc 2 "bad -b" $K trace vfs_read -b 9
rc 2 "watch NAME needs -i" $K --root $F watch basic.txt

echo "# show"
for f in $F/*.txt $F/series/*.txt $S/*.txt; do
	rc 0 "show $(basename $f)" $K show "$f"
	# the JSON summary is recomputed from the slot rows: it must equal
	# the kernel's "# summary" line.
	$K show "$f" --json > "$T/j" && py "
import json
d = json.load(open('$T/j'))
line = open('$f').read().split('# summary ')[1].split('\n')[0].split()
want = {line[i]: int(line[i + 1]) for i in range(0, len(line), 2)}
assert d['summary'] == want, (d['summary'], want)
assert sum(s['count'] for s in d['slots']) == d['samples']
# and recomputed here from the all-CPU rows: hi of the slot holding
# rank ceil(N * q), min the first lo, max the last hi
rows = [l.split() for l in open('$f') if l.startswith('slot ') and l.split()[2] == 'CPUS']
n = sum(int(r[5]) for r in rows)
def pct(ppm):
    rank, c = -(-n * ppm // 1000000), 0
    for r in rows:
        c += int(r[5])
        if c >= rank:
            return int(r[13])
mine = {'samples': n, 'min': int(rows[0][11]) if n else 0, 'max': int(rows[-1][13]) if n else 0}
for k, q in (('p50', 500000), ('p90', 900000), ('p99', 990000), ('p99.9', 999000)):
    mine[k] = pct(q) if n else 0
assert all(want[k] == v for k, v in mine.items()), (mine, want)
" 2> "$T/err" && ok "show --json $(basename $f): summary == # summary line == recomputed" || bad "json summary $(basename $f)" "$(tail -1 "$T/err")"
done
$K show $F/known.txt --json > "$T/j"
v=$(json_get "$T/j" "' '.join(str(d['summary'][k]) for k in ['samples','min','p50','p90','p99','p99.9','max','mean'])")
# known.txt: one write() of each size 1..100 to the example device, so
# example_write_bytes (frac_bits 2: values 0..3 exact, then 4 slots per
# power of two) holds exactly 1..100. By hand: rank 50 is 50, in [48, 55];
# rank 90 is 90, in [80, 95]; ranks 99 and 100 in [96, 111]; mean 5050/100.
[ "$v" = "100 1 55 95 111 111 111 50" ] && ok "known values 1..100: exact percentiles" || bad "known percentiles" "$v"
rc 0 "show text" $K show $F/known.txt --rows 50
has '^\[1\] *1 |@@@ *|$' && has '^\[64, 80) *16 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|' \
	&& ok "histogram rows as bpftrace hist()" || bad "histogram rows" "$(cat "$T/out")"
$K show $F/basic.txt > "$T/out"
has ' 1.151us ' && has ' 4.243us$' && ok "summary in human units" || bad "summary units"
rc 0 "show merges rows" $K show $F/slow_io.txt --rows 10
n=$(grep -c '^\[' "$T/out"); has 'adjacent slots merged' && [ "$n" -le 10 ] && ok "merged to $n rows <= 10" || bad "merge rows" "$n"
rc 0 "show ms units" $K show $F/slow_io.txt; has 'ms, ' && ok "ms bounds" || bad "ms bounds"
rc 0 "show cycles" $K show $F/tsc.txt; has '^\[1024, 1280) *10173 |' && ok "cycles bounds raw" || bad "cycles bounds" "$(grep '^\[' "$T/out" | head -2)"
rc 0 "show range overflow" $K show $F/range.txt; has '^\[448ns, \.\.\.) *2063 |' && ok "overflow slot label" || bad "overflow label"
rc 0 "show empty" $K show $F/empty.txt; has 'no samples' && ok "empty distribution" || bad "empty"
# cpus4.txt: 1000 writes of 64 B on CPUs 0, 1, 3 each, of 4 KiB on CPU 2
rc 0 "show --cpu" $K show $F/cpus4.txt --cpu
[ "$(grep -c '  <$' "$T/out")" = 1 ] && grep -q '^2 .* 9.215us .* <$' "$T/out" && ok "--cpu marks only CPU 2" || bad "--cpu mark" "$(cat "$T/out" | head -20)"
[ "$(grep -cE '^[0-3] +1000 ' "$T/out")" = 4 ] && grep -q '^all  *4000 ' "$T/out" && ok "--cpu: 4 CPUs and all" || bad "--cpu rows"

echo "# list"
mkdir "$T/fx"; cp $F/*.txt "$T/fx/"	# without fixtures/README
rc 0 "list --root fixtures" $K --root "$T/fx" list
[ "$(grep -vc '^NAME' "$T/out")" = "$(ls $F/*.txt | wc -l)" ] && ok "list: one line per file" || bad "list lines"
grep -q '^example_write *ktime *ns *1234 *0 *active' "$T/out" && grep -q '^idle .* stopped' "$T/out" &&
	grep -q '^sleep_local *local *ns *539 *261 *active' "$T/out" && grep -q '^getppid_tsc *tsc *cycles *20000 ' "$T/out" &&
	ok "list: clock, samples, missed, state" || bad "list fields" "$(cat "$T/out")"
mkdir "$T/mixed"; cp $F/basic.txt "$T/mixed/good"; cp $M/crlf.txt "$T/mixed/broken"; echo x > "$T/mixed/_control"
rc 2 "list: a broken file is an error" $K --root "$T/mixed" list
has example_write && has 'broken:5:' err && ok "list: still lists the good ones" || bad "list mixed"

echo "# errors: one line, with the fix, exit 2"
rc 2 "missing --root dir" $K --root "$T/nope" list; has 'check --root' err && [ "$(wc -l < "$T/err")" = 1 ] && ok "missing root: one line" || bad "missing root msg" "$(cat "$T/err")"
rc 2 "unknown name" $K --root $F show nosuch; has "no distribution 'nosuch'.*kstats list" err && ok "unknown name message" || bad "unknown name msg" "$(cat "$T/err")"
rc 2 "default root absent" $K show nosuch_dist
grep -qE 'debugfs is not mounted|module is not loaded|permission denied|no distribution' "$T/err" && ok "debugfs/module message" || bad "debugfs msg" "$(cat "$T/err")"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir -p "$T/priv"; cp $F/basic.txt "$T/priv/x"; chmod 700 "$T/priv"; chmod 755 "$T"
	rc 2 "no permission" setpriv --reuid=65534 --regid=65534 --clear-groups $K --root "$T/priv" show x
	has 'permission denied.*run as root' err && ok "permission message" || bad "permission msg" "$(cat "$T/err")"
elif [ "$(id -u)" != 0 ]; then
	mkdir -p "$T/priv"; cp $F/basic.txt "$T/priv/x"; chmod 000 "$T/priv"
	rc 2 "no permission" $K --root "$T/priv" show x; has 'permission denied' err && ok "permission message" || bad "permission msg"
	chmod 700 "$T/priv"
else
	skip "no permission" "root without setpriv"
fi
for f in $M/*; do
	rc 2 "malformed $(basename $f) rejected" $K show "$f"
	if [ "$(wc -l < "$T/err")" = 1 ] && grep -qE "^kstats: $f(:[0-9]+)?: " "$T/err"; then ok "malformed $(basename $f): file:line: reason"
	else bad "malformed message $(basename $f)" "$(cat "$T/err")"; fi
done

echo "# diff: exit 0 same, 1 different, 2 error"
rc 0 "diff identical" $K diff $F/steady_a.txt $F/steady_a.txt; has 'D = 0.0000' && has 'p = 1' && ok "identical: D 0, p 1" || bad "identical D"
# captured: 20000 writes of 64 B twice (steady_a, steady_b), of 128 B
# (slower), 10000 of 512 B then 10000 of 64 B (warmup); 500000 of 64 B
# twice (big_a, big_b)
rc 0 "diff two runs of one distribution: same" $K diff $F/steady_a.txt $F/steady_b.txt
has 'D = 0\.0008 at 1\.279us, n_eff = 10000, p = 1$' && ok "same: D and p" || bad "same D" "$(grep D "$T/out")"
rc 1 "diff 128 B writes: different" $K diff $F/steady_a.txt $F/slower.txt; has 'verdict: DIFFERENT' && ok "verdict line" || bad "verdict line"
has 'D = 0\.9872 at 1\.151us' && ok "slower: D = 0.9872" || bad "slower D" "$(grep D "$T/out")"
rc 1 "diff warm-up half: different" $K diff $F/steady_a.txt $F/warmup.txt
has 'D = 0\.5002 at 1\.663us' && ok "warm-up half: D = 0.5 (half the samples moved)" || bad "warm-up D" "$(grep D "$T/out")"
rc 1 "diff two long runs of the same writes: different (p90 moved one slot)" $K diff $F/big_a.txt $F/big_b.txt
has 'D = 0\.2214 at 1\.151us, n_eff = 250000, p = 0$' && ok "long runs: D 0.2214" || bad "long runs D" "$(grep D "$T/out")"
rc 0 "diff huge N, 1% shift: negligible effect" $K diff $S/big_a.txt $S/big_b.txt; has 'D < min-effect' && ok "negligible: explained" || bad "negligible text"
rc 1 "diff huge N with --min-effect 0: different" $K diff $S/big_a.txt $S/big_b.txt --min-effect 0
rc 0 "diff strict alpha: p 6e-84 above 1e-100" $K diff $S/big_a.txt $S/big_b.txt --min-effect 0 --alpha 1e-100
rc 2 "diff units differ" $K diff $F/basic.txt $F/tsc.txt
rc 2 "diff ns and plain values" $K diff $F/basic.txt $F/known.txt
rc 2 "diff empty" $K diff $F/basic.txt $F/empty.txt
rc 2 "diff malformed" $K diff $F/basic.txt $M/p_wrong.txt
rc 2 "diff one arg" $K diff $F/basic.txt
rc 1 "diff frac_bits 3 vs 0 (rebinned)" $K diff $F/basic.txt $F/bits0.txt
has 'frac_bits 0' && ok "rebinned to the coarser frac_bits" || bad "rebin"
rc 0 "diff ratio" $K diff $F/steady_a.txt $F/steady_b.txt; grep -qE '^count +20000 +20000 +1\.000' "$T/out" && ok "count and ratio" || bad "ratio" "$(head -6 "$T/out")"

echo "# watch (saved cumulative snapshots, and live with a fake root)"
rc 0 "watch series" $K watch $F/series/snap{0,1,2,3,4,5,6}.txt -i 1
[ "$(grep -cE '^[0-9]+ ' "$T/out")" = 6 ] && ok "watch: 6 intervals from 7 snapshots" || bad "watch lines" "$(cat "$T/out")"
grep -qE '^1 .*<- first interval' "$T/out" && [ "$(grep -c 'first interval' "$T/out")" = 1 ] && ok "watch: first interval marked" || bad "first marked"
$K show $F/series/snap1.txt --json > "$T/j"
p50=$($K watch $F/series/snap{0,1,2}.txt | awk '$1 == 1 {print $5}')
want=$(json_get "$T/j" "d['summary']['p50']")
[ "$p50" = "$($K show $F/series/snap1.txt | awk '/ count +min +p50/ {getline; print $3}')" ] && ok "watch: interval 1 p50 = snapshot 1's p50 ($want ns)" || bad "watch p50" "$p50 vs $want"
a=$(awk '$1 == 1 {print $3}' "$T/out"); r=$(awk '$1 == 1 {print $4}' "$T/out")
[ "$a" = 2000 ] && [ "$r" = 2000.0 ] && ok "watch: count and rate" || bad "watch count/rate" "$a $r"
rc 2 "watch mixed units" $K watch $F/basic.txt $F/tsc.txt
rc 0 "watch a reset" $K watch $F/series/snap3.txt $F/series/snap1.txt; has 'reset' && ok "reset noted" || bad "reset"
mkdir -p "$T/live"; cp $F/series/snap0.txt "$T/live/warm"
( for i in 1 2 3 4 5 6; do sleep 0.15; cp $F/series/snap$i.txt "$T/live/warm.tmp"; mv "$T/live/warm.tmp" "$T/live/warm"; done ) &
rc 0 "watch live -i -c" $K --root "$T/live" watch warm -i 0.2 -c 3
wait
[ "$(grep -cE '^[0-9]+ ' "$T/out")" = 3 ] && ok "watch live: -c 3 gives 3 lines" || bad "watch live" "$(cat "$T/out")"

echo "# heatmap"
rc 0 "heatmap from snapshots" $K heatmap $F/series/snap{0,1,2,3,4,5,6}.txt -i 1 -o "$T/h.svg"
$K show $F/series/snap6.txt --json > "$T/j"
rows=$(json_get "$T/j" "d['slots'][-1]['slot'] - d['slots'][0]['slot'] + 1")
cells=$(py "
import xml.etree.ElementTree as E
r = E.parse('$T/h.svg').getroot()
print(sum(1 for e in r.iter('{http://www.w3.org/2000/svg}rect') if e.get('class') == 'cell'))" 2>&1)
[ "$cells" = $((6 * rows)) ] && ok "heatmap: well-formed SVG, 6 x $rows cells" || bad "heatmap cells" "$cells vs 6 x $rows"
if command -v xmllint > /dev/null; then t "heatmap: xmllint" xmllint --noout "$T/h.svg"; else skip "xmllint" "not installed"; fi
grep -q 'time (s)' "$T/h.svg" && grep -q 'latency (ns' "$T/h.svg" && ok "heatmap: axes with units" || bad "heatmap axes"
py "
import xml.etree.ElementTree as E
r = E.parse('$T/h.svg').getroot()
n = sum(int(e.find('{http://www.w3.org/2000/svg}title').text.rsplit(': ', 1)[1]) for e in r.iter('{http://www.w3.org/2000/svg}rect') if e.get('class') == 'cell')
assert n == 12000, n" 2> "$T/err" && ok "heatmap: cells add up to the samples" || bad "heatmap total" "$(tail -1 "$T/err")"
rc 2 "heatmap needs -o" $K heatmap $F/series/snap0.txt $F/series/snap1.txt
rc 2 "heatmap NAME needs -i -d" $K --root "$T/live" heatmap warm -o "$T/x.svg"
cp $F/series/snap3.txt "$T/live/warm"
rc 0 "heatmap live" $K --root "$T/live" heatmap warm -i 0.1 -d 0.3 -o "$T/l.svg"
[ "$(grep -c 'class="cell"' "$T/l.svg")" -ge 3 ] && has 'wrote' err && ok "heatmap live: 3 intervals" || bad "heatmap live"

echo "# export"
# one file per name: Prometheus series must be unique
EXP="$F/basic.txt $F/known.txt $F/bits0.txt $F/tsc.txt $F/range.txt $F/slow_io.txt $F/empty.txt"
mkdir "$T/exp"; cp $EXP "$T/exp/"
$K --root "$T/exp" export --host testhost > "$T/prom"; r=$?
[ $r = 0 ] && ok "export prometheus" || bad "export rc $r"
if command -v promtool > /dev/null; then
	t "promtool check metrics" sh -c "promtool check metrics < '$T/prom'"
else
	skip "promtool check metrics" "promtool not installed (apt-get install prometheus)"
fi
# histogram_quantile() on the exported buckets must land in the slot of
# the tool's p99: (hi of the slot below, hi].
py "
import json, re, subprocess
text = open('$T/prom').read()
buckets = {}
for m in re.finditer(r'kstats_bucket\{name=\"([^\"]+)\".*?le=\"([^\"]+)\"\} (\d+)', text):
    buckets.setdefault(m.group(1), []).append((float('inf') if m.group(2) == '+Inf' else int(m.group(2)), int(m.group(3))))
import glob
checked = 0
for f in glob.glob('$T/exp/*.txt'):
    d = json.loads(subprocess.check_output(['$K', 'show', f, '--json']))
    if not d['samples'] or d['name'] not in buckets:
        continue
    b = buckets[d['name']]
    total = b[-1][1]
    for q, key in ((0.5, 'p50'), (0.9, 'p90'), (0.99, 'p99')):
        rank = q * total
        prev_le, prev_c = 0, 0
        for le, c in b:
            if c >= rank:
                break
            prev_le, prev_c = le, c
        if le == float('inf'):
            est = prev_le
        else:
            est = prev_le + (le - prev_le) * (rank - prev_c) / (c - prev_c)
        slot = next(s for s in d['slots'] if s['hi'] == d['summary'][key])
        assert slot['lo'] - 1 <= est <= slot['hi'], (f, key, est, slot)
        checked += 1
assert checked >= 12, checked
" 2> "$T/err" && ok "histogram_quantile agrees with p50/p90/p99 within the slot" || bad "histogram_quantile" "$(tail -2 "$T/err")"
grep -q '^kstats_count{name="example_write",clock="ktime",unit="ns",host="testhost"} 1234$' "$T/prom" && ok "export: labels and _count" || bad "export labels"
grep -q 'le="+Inf"} 1234$' "$T/prom" && grep -q '^kstats_sum{name="example_write"' "$T/prom" && ok "export: +Inf and _sum" || bad "export inf/sum"
# known.txt: the bucket le="55" holds 1..55; _sum is the sum of the
# slots' avg * count (avg rounded down: 5006, the exact total is 5050)
grep -q '^kstats_sum{name="example_write_bytes",clock="none",unit="value",host="testhost"} 5006$' "$T/prom" &&
	grep -q '^kstats_bucket{name="example_write_bytes",.*le="55"} 55$' "$T/prom" && ok "export: exact sum and bucket of 1..100" || bad "export known"

rc 0 "export json" $K export --format json --host h $F/known.txt $F/cpus4.txt
py "
import json; d = json.load(open('$T/out'))
assert [x['name'] for x in d['distributions']] == ['example_write_bytes', 'example_write']
s = d['distributions'][1]
assert len(s['per_cpu']) == 4 and all(sum(c['count'] for c in x['cpus']) == x['count'] for x in s['slots'])
assert [x['count'] for x in d['distributions'][0]['slots']] == [1] * 7 + [2] * 4 + [4] * 4 + [8] * 4 + [16, 16, 5]
" 2> "$T/err" && ok "export json: full slot table, per CPU" || bad "export json" "$(tail -1 "$T/err")"
rc 2 "export bad format" $K export --format csv $F/basic.txt
rc 2 "export malformed" $K export $M/order.txt

echo "# trace (fake root: _control is a plain file)"
mkdir -p "$T/tr"; : > "$T/tr/_control"; cp $F/basic.txt "$T/tr/vfs_read"
rc 0 "trace -d" $K --root "$T/tr" trace vfs_read -b 4 -d 0.2
[ "$(cat "$T/tr/_control")" = "$(printf 'trace vfs_read bits 4\nremove vfs_read')" ] && ok "trace: _control writes" || bad "trace control" "$(cat "$T/tr/_control")"
has '^@example_write (ns):' && has '^\[' && ok "trace: histogram printed" || bad "trace output"
: > "$T/tr/_control"
rc 0 "trace -i -d" $K --root "$T/tr" trace vfs_read -i 0.1 -d 0.3
[ "$(grep -c 'samples$' "$T/out")" -ge 2 ] && ok "trace -i: one histogram per interval" || bad "trace -i" "$(cat "$T/out")"
: > "$T/tr/_control"
$K --root "$T/tr" trace vfs_read > "$T/out" 2>&1 & pid=$!
sleep 0.3; kill -INT $pid; wait $pid; r=$?
[ $r = 0 ] && grep -q '^remove vfs_read$' "$T/tr/_control" && has '^@example_write' && ok "trace: Ctrl-C prints and removes the node" || bad "trace SIGINT" "rc $r: $(cat "$T/tr/_control")"
rc 2 "trace without _control" $K --root "$T/nope" trace vfs_read -d 0.1

echo "# sanitizers (ASan/UBSan build): every fixture and every malformed file"
: > "$T/san"
for f in $F/*.txt $F/series/*.txt $S/*.txt $M/*; do
	for args in "show $f" "show $f --cpu --rows 6" "show $f --json" "diff $f $F/basic.txt" "export $f"; do
		$SAN $args > /dev/null 2>> "$T/san"; r=$?
		[ $r -le 2 ] || echo "exit $r: $args" >> "$T/san"
	done
done
$SAN heatmap $F/series/snap{0,1,2,3,4,5,6}.txt -o /dev/null 2>> "$T/san"
$SAN watch $F/series/snap{0,1,2,3,4,5,6}.txt > /dev/null 2>> "$T/san"
if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|^exit' "$T/san"; then bad "sanitizers" "$(grep -m3 -E 'runtime error|Sanitizer|^exit' "$T/san")"
else ok "sanitizers: no error on $(ls $F/*.txt $F/series/*.txt $S/*.txt $M/* | wc -l) inputs"; fi

echo "# fuzz (libFuzzer, ${FUZZ_SECONDS:-45} s, seeds: the captured fixtures and the malformed files made from them)"
mkdir -p build/corpus
if build/fuzz_snapshot -artifact_prefix=build/ -max_total_time="${FUZZ_SECONDS:-45}" -max_len=65536 -print_final_stats=0 \
	build/corpus $F $F/series $M > "$T/fuzz" 2>&1; then
	ok "fuzz: $(grep -o 'Done [0-9]* runs' "$T/fuzz" | tail -1), no crash"
else
	bad "fuzz" "$(grep -m5 -E 'ERROR|SUMMARY|crash-' "$T/fuzz")"
fi

echo "# man page and install"
if command -v groff > /dev/null; then
	w=$(groff -man -ww -z kstats.8 2>&1); [ -z "$w" ] && ok "man page: groff -ww clean" || bad "man page" "$w"
else skip "man page" "no groff"; fi
make -s install DESTDIR="$T/inst" PREFIX=/usr > /dev/null 2>&1
[ -x "$T/inst/usr/sbin/kstats" ] && [ -f "$T/inst/usr/share/man/man8/kstats.8" ] && ok "make install DESTDIR PREFIX" || bad "install"

echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ $FAIL = 0 ]
