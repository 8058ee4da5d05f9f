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
BPF_LIBS=${BPF_LIBS:--lbpf -lelf -lz}
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
# the lines -v wrote on stderr: all but the tool's own messages
vlines() { grep -v '^kstats: ' "$T/err"; }
py() { python3 -c "$@"; }
json_get() { # FILE EXPR: evaluates EXPR with d = the parsed JSON
	py "import json,sys; d=json.load(open('$1')); print($2)"
}

echo "# build"
for cc in gcc clang; do
	if command -v $cc > /dev/null; then
		# shellcheck disable=SC2086
		out=$($cc -std=c99 -Wall -Wextra -O2 -pthread -Ilib -o "$T/k-$cc" kstats.c cmd/*.c lib/*.c $BPF_LIBS -lm 2>&1)
		if [ -z "$out" ]; then ok "$cc -Wall -Wextra -O2: no warnings"; else bad "$cc warnings" "$out"; fi
	fi
done

echo "# unit (ASan/UBSan): percentiles, KS, deltas, units, BTF values, value lines, summaries of every fixture"
build/unit $F/*.txt $F/series/*.txt $S/*.txt > "$T/unit" 2>&1
grep -E '^(not )?ok' "$T/unit" | grep -v '^ok' | sed 's/^/FAIL - unit: /'
# its last line "unit: P passed F failed"; anything else (a sanitizer's
# report, a crash) is one failure more, never a pass
read -r _ up uf < <(tail -1 "$T/unit")
case $up$uf in *[!0-9]*|'') up=0 uf=1 ;; esac
if [ "$up" -gt 0 ] && [ "$uf" = 0 ]; then PASS=$((PASS + up)); echo "ok - unit: $up checks"
else FAIL=$((FAIL + uf)); PASS=$((PASS + up)); echo "FAIL - unit: $(tail -3 "$T/unit")"; fi

echo "# usage"
rc 0 "--help" $K --help; has USAGE || bad "--help prints USAGE"
rc 2 "no command" $K
rc 2 "unknown command" $K frobnicate
has "^kstats: unknown command 'frobnicate' (kstats help lists them)$" err && ok "unknown command: named" || bad "unknown command msg" "$(cat "$T/err")"
rc 2 "a misspelt command" $K trcae vfs_read
[ "$(cat "$T/err")" = "kstats: unknown command 'trcae'; did you mean 'trace'? (kstats help)" ] && ok "kstats trcae: did you mean 'trace'?" || bad "trcae" "$(cat "$T/err")"
rc 2 "a misspelt option" $K trace vfs_read --commm dd
[ "$(cat "$T/err")" = "kstats: unknown option '--commm' for 'trace'; did you mean '--comm'? (kstats help trace for usage)" ] &&
	ok "--commm: did you mean '--comm'?" || bad "--commm" "$(cat "$T/err")"
rc 2 "unknown option" $K show $F/basic.txt --bogus
has "^kstats: unknown option '--bogus' for 'show' (kstats help show for usage)$" err && ok "unknown option: named" || bad "--bogus" "$(cat "$T/err")"
rc 2 "option of another command" $K show $F/basic.txt --alpha 0.1
has "'--alpha' is not an option of 'show' (it is of: diff)" err && ok "another command's option: whose it is" || bad "--alpha" "$(cat "$T/err")"
rc 2 "a short option of another command" $K runqlat -Q -d 0.01
has "'-Q' is not an option of 'runqlat' (it is of: biolatency)" err && ok "runqlat -Q: biolatency's" || bad "-Q" "$(cat "$T/err")"
rc 2 "an ambiguous beginning" $K trace vfs_read --s 1
has "option '--s' is ambiguous for 'trace'" err && ok "--s: ambiguous" || bad "--s" "$(cat "$T/err")"
rc 2 "options before the command" $K -d 3 trace vfs_read
has "options go after the command" err && ok "options before the command: said where they go" || bad "-d before" "$(cat "$T/err")"
# each subcommand's own usage, from the table its parser reads: kstats help
# CMD, CMD --help and CMD -h say the same, with every option it takes
for c in list show trace runqlat biolatency syscall lockwait softirq hardirq offcpu census top watch heatmap timeline explain diff export help; do
	$K help $c > "$T/h1" 2>&1; r1=$?
	$K $c --help > "$T/h2" 2>&1; r2=$?
	$K $c -h > "$T/h3" 2>&1; r3=$?
	missing=$($K help --options $c | while read -r _ l s a; do
		case $s in -?) ;; *) a="$s${a:+ $a}"; s= ;; esac
		grep -qF -- "$l${a:+ $a}" "$T/h1" && { [ -z "$s" ] || grep -qF -- "$s, $l" "$T/h1"; } || printf '%s ' "$l"; done)
	if [ $r1$r2$r3 = 000 ] && cmp -s "$T/h1" "$T/h2" && cmp -s "$T/h1" "$T/h3" &&
	   grep -q "^USAGE: kstats $c" "$T/h1" && [ -z "$missing" ]; then
		ok "help $c = $c --help = $c -h: its usage, every option of its table"
	else
		bad "help $c" "rc $r1$r2$r3, missing: $missing $(head -3 "$T/h1")"
	fi
done
$K help trace > "$T/out"
has '--cgroup PATH' && has '--folded' && has '--follow' && has '--self' && has '--rows N' && has '--all-rows' &&
	has '\[-- COMMAND \[ARGS\]\]' && ! has '^  diff ' && ok "trace --help: --cgroup, --folded, -- COMMAND; not the global help" || bad "trace help" "$(cat "$T/out")"
rc 2 "help of an unknown command" $K help trcae
has "did you mean 'trace'" err && ok "help trcae: did you mean 'trace'?" || bad "help trcae" "$(cat "$T/err")"
[ "$($K help --synopsis | grep -c '^kstats ')" = 18 ] && ok "help --synopsis: a line a subcommand" || bad "synopsis" "$($K help --synopsis)"
rc 2 "missing value" $K watch $F/basic.txt -i
rc 2 "bad -b" $K trace vfs_read -b 9
rc 2 "watch NAME needs -i" $K --root $F watch basic.txt
rc 2 "trace --cpu needs N" $K trace vfs_read --cpu
rc 2 "trace --cpu not a number" $K trace vfs_read --cpu x
rc 2 "trace --pid negative" $K trace vfs_read --pid -1
rc 2 "trace --comm over 15" $K trace vfs_read --comm 0123456789abcdef
rc 2 "trace --value twice" $K trace vfs_read --value count --value pos
rc 2 "trace --if 5 times" $K trace vfs_read --if 'count > 1' --if 'count > 2' --if 'count > 3' --if 'count > 4' --if 'count > 5'
rc 2 "show --value" $K show $F/basic.txt --value count
rc 2 "trace a bad target" $K trace tp:x
rc 2 "trace tp with a bad group" $K trace 'tp:a-b:c'

echo "# show"
for f in $F/*.txt $F/series/*.txt $S/*.txt; do
	case $f in */history_*) continue ;; esac	# a node's history: timeline's
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
# rank ceil(N * q), at most max; min and max within the first and last
rows = [l.split() for l in open('$f') if l.startswith('slot ') and l.split()[2] == 'CPUS']
rows.sort(key=lambda r: int(r[1]))	# a family: each key's rows
n = sum(int(r[5]) for r in rows)
def pct(ppm):
    rank, c = -(-n * ppm // 1000000), 0
    for r in rows:
        c += int(r[5])
        if c >= rank:
            return min(int(r[13]), want['max'])
mine = {'samples': n}
if n:
    assert int(rows[0][11]) <= want['min'] <= int(rows[0][13]), (rows[0], want)
    assert int(rows[-1][11]) <= want['max'] <= int(rows[-1][13]), (rows[-1], want)
for k, q in (('p50', 500000), ('p90', 900000), ('p99', 990000), ('p99.9', 999000)):
    mine[k] = pct(q) if n else 0
assert all(want[k] == v for k, v in mine.items()), (mine, want)
" 2> "$T/err" && ok "show --json $(basename $f): summary == # summary line, percentiles recomputed, min and max in their slots" || bad "json summary $(basename $f)" "$(tail -1 "$T/err")"
done
$K show $F/known.txt --json > "$T/j"
v=$(json_get "$T/j" "' '.join(str(d['summary'][k]) for k in ['samples','min','p50','p90','p99','p99.9','max','mean'])")
# known.txt: one write() of each size 1..100 to the example device, so
# example_write_bytes (frac_bits 2: values 0..3 exact, then 4 slots per
# power of two) holds exactly 1..100. By hand: rank 50 is 50, in [48, 55];
# rank 90 is 90, in [80, 95]; ranks 99 and 100 in [96, 111]; mean 5050/100.
[ "$v" = "100 1 55 95 111 111 111 50" ] && ok "known values 1..100: exact percentiles" || bad "known percentiles" "$v"
# the human output reads them inside their slots, and says so
$K show $F/known.txt > "$T/out"
grep -qE '^ +100 +1 +50 +90 +100 +100 +111 +50$' "$T/out" && has '^percentiles interpolated in their slots' &&
	ok "show: percentiles of 1..100 interpolated (50 90 100 100), marked; --json keeps 55 95 111 111" || bad "show interpolated" "$(head -7 "$T/out")"
# any bytes in a header line: valid JSON, nothing cut, nothing raw to the terminal
py "
src = open('$F/basic.txt', 'rb').read().split(b'\\n')
src.insert(2, b'# note k caf\\xc3\\xa9 \\xff\\xc0\\x80 \\x1b[31mred\\x1b]0;title\\x07 \\xc2\\x9b ' + b'x' * 3000)
open('$T/ctl.txt', 'wb').write(b'\\n'.join(src) + b'\\n\\n')"
rc 0 "show: a header line of any bytes, blank lines at the end" $K show "$T/ctl.txt"
! grep -q "$(printf '\033')" "$T/out" && ! grep -q "$(printf '\a')" "$T/out" && has '\\x1b\[31mred\\x1b\]0;title\\x07' && has 'café' &&
	ok "show: control bytes and invalid UTF-8 as \\xNN, UTF-8 kept" || bad "show raw bytes" "$(sed -n 3p "$T/out" | head -c 200 | od -c | head -3)"
for cmd in "show $T/ctl.txt --json" "export --format json $T/ctl.txt"; do
	$K $cmd > "$T/j"
	py "
import json
d = json.load(open('$T/j', encoding='utf-8'))
d = d['distributions'][0] if 'distributions' in d else d
l = d['header'][2]
assert l.startswith('# note k café \\ufffd\\ufffd\\ufffd \\x1b[31mred\\x1b]0;title\\x07 \\x9b '), repr(l[:60])
assert l.endswith('x' * 3000) and len(l) == 3000 + 39, len(l)" 2> "$T/err" && ok "${cmd%% *} --json: any bytes valid JSON, 3039-character line whole" || bad "json bytes ${cmd%% *}" "$(tail -1 "$T/err")"
done
rc 0 "show text" $K show $F/known.txt --rows 50
has '^\[1\] *1 |@@@ *|$' && has '^\[64, 80) *16 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|' \
	&& ok "histogram rows as bpftrace hist()" || bad "histogram rows" "$(cat "$T/out")"
$K show $F/basic.txt > "$T/out"
has ' 1.088us ' && has ' 4.243us$' && ok "summary in human units" || bad "summary units" "$(sed -n 5,6p "$T/out")"
rc 0 "show merges rows" $K show $F/slow_io.txt --rows 10
n=$(grep -c '^\[' "$T/out"); has 'adjacent slots merged' && [ "$n" -le 10 ] && ok "merged to $n rows <= 10" || bad "merge rows" "$n"
rc 0 "show ms units" $K show $F/slow_io.txt; has 'ms, ' && ok "ms bounds" || bad "ms bounds"
rc 0 "show cycles" $K show $F/tsc.txt; has '^\[1024, 1280) *10173 |' && ok "cycles bounds raw" || bad "cycles bounds" "$(grep '^\[' "$T/out" | head -2)"
# arm64's cycle counter: clock cycles with cycles_khz, as the kernel prints it there
sed -e '1s/clock tsc /clock cycles /' -e 's/^# clock tsc_khz /# clock cycles_khz /' $F/tsc.txt > "$T/cycles.txt"
rc 0 "show clock cycles" $K show "$T/cycles.txt"; has '^\[1024, 1280) *10173 |' && ok "clock cycles: bounds raw" || bad "clock cycles bounds" "$(grep '^\[' "$T/out" | head -2)"
rc 0 "show clock cycles --json" $K show "$T/cycles.txt" --json
[ "$(json_get "$T/out" "d['distributions'][0]['cycles_khz'] if 'distributions' in d else d['cycles_khz']" 2>/dev/null)" = 2596143 ] &&
	ok "--json: cycles_khz of clock cycles" || bad "--json cycles_khz" "$(head -c 300 "$T/out")"
sed -e 's/^# clock tsc_khz /# clock cycles_khz /' $F/tsc.txt > "$T/cycles-bad.txt"
rc 2 "cycles_khz under clock tsc refused" $K show "$T/cycles-bad.txt"
rc 0 "show range overflow" $K show $F/range.txt; has '^\[448ns, \.\.\.) *2063 |' && ok "overflow slot label" || bad "overflow label"
rc 0 "show empty" $K show $F/empty.txt; has 'no samples' && ok "empty distribution" || bad "empty"
# cpus4.txt: 1000 writes of 64 B on CPUs 0, 1, 3 each, of 4 KiB on CPU 2
rc 0 "show --cpu" $K show $F/cpus4.txt --cpu
[ "$(grep -c '  <$' "$T/out")" = 1 ] && grep -q '^2 .* 8.994us .* <$' "$T/out" && ok "--cpu marks only CPU 2" || bad "--cpu mark" "$(cat "$T/out" | head -20)"
[ "$(grep -cE '^[0-3] +1000 ' "$T/out")" = 4 ] && grep -q '^all  *4000 ' "$T/out" && ok "--cpu: 4 CPUs and all" || bad "--cpu rows"

echo "# list"
mkdir "$T/fx"; cp $F/*.txt "$T/fx/"; rm "$T/fx"/history_*	# without fixtures/README, nor histories
rc 0 "list --root fixtures" $K --root "$T/fx" list
[ "$(grep -vc '^FILE ' "$T/out")" = "$(ls "$T/fx" | wc -l)" ] && ok "list: one line per file" || bad "list lines"
grep -q '^basic.txt *example_write *ktime *ns *1234 *0 *active' "$T/out" && grep -q '^empty.txt *idle .* stopped' "$T/out" &&
	grep -q '^slow_io.txt *sleep_local *local *ns *539 *261 *active' "$T/out" && grep -q '^tsc.txt *getppid_tsc *tsc *cycles *20000 ' "$T/out" &&
	ok "list --root DIR: each file named, its node's name, clock, samples, missed, state" || bad "list fields" "$(cat "$T/out")"
mkdir "$T/named"; cp $F/basic.txt "$T/named/example_write"; cp $F/tsc.txt "$T/named/getppid_tsc"
rc 0 "list where files are named after their nodes" $K --root "$T/named" list
head -1 "$T/out" | grep -q '^NAME ' && grep -q '^example_write *ktime' "$T/out" && ok "list: no FILE column where each file is its node (debugfs)" || bad "list named" "$(cat "$T/out")"
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

echo "# writes checked, missing files named"
for args in "show $F/basic.txt" "show $F/basic.txt --json" "diff $F/steady_a.txt $F/steady_b.txt" "export $F/basic.txt" \
	"export --format json $F/basic.txt" "watch $F/series/snap0.txt $F/series/snap1.txt" "heatmap $F/series/snap0.txt $F/series/snap1.txt -o -"; do
	$K $args > /dev/full 2> "$T/err"; r=$?
	[ $r = 2 ] && has 'writing the output failed: No space left on device' err && ok "${args%% *} > /dev/full: exit 2, said" || bad "${args%% *} > /dev/full" "exit $r: $(cat "$T/err")"
done
mkdir "$T/coll"; echo old > "$T/coll/kstats.prom"
rc 0 "export -o FILE" $K export $F/basic.txt -o "$T/coll/kstats.prom"
[ "$(ls "$T/coll")" = kstats.prom ] && grep -q '_count' "$T/coll/kstats.prom" && [ "$(stat -c %a "$T/coll/kstats.prom")" = 644 ] &&
	ok "export -o: renamed over the old file, mode 644, no temporary left" || bad "export -o" "$(ls -l "$T/coll")"
rc 2 "export -o into a missing directory" $K export $F/basic.txt -o "$T/nodir/kstats.prom"
has "cannot write $T/nodir/kstats.prom" err && ok "export -o: error names the file" || bad "export -o msg" "$(cat "$T/err")"
chmod 555 "$T/coll"
if [ "$(id -u)" != 0 ]; then rc 2 "export -o, directory not writable" $K export $F/basic.txt -o "$T/coll/kstats.prom"; fi
chmod 755 "$T/coll"
rc 0 "export -o -: standard output" $K export $F/basic.txt -o -; has '_count' && ok "export -o -: written" || bad "export -o -"
(cd "$T" && $OLDPWD/$K show befor.txt > out 2> err); r=$?
[ $r = 2 ] && grep -q '^kstats: befor.txt: no such file (nor a distribution: ' "$T/err" && [ "$(wc -l < "$T/err")" = 1 ] &&
	ok "a misspelled file: named first, then why there is no distribution" || bad "missing file" "exit $r: $(cat "$T/err")"
rc 2 "a missing file with a path" $K show ./befor.txt; has '^kstats: ./befor.txt: no such file$' err && ok "missing path named" || bad "missing path" "$(cat "$T/err")"
rc 2 "diff with a missing file" $K diff $F/basic.txt nosuch.txt; has 'nosuch.txt: no such file' err && ok "diff: missing file named" || bad "diff missing" "$(cat "$T/err")"

echo "# diff: exit 0 same, 1 different, 2 error"
G=build/gen_fixture
gen() { $G --name lat --bits 3 "$@"; }
rc 0 "diff identical" $K diff $F/steady_a.txt $F/steady_a.txt
has 'D = 0.0000' && has 'p = 1' && grep -qE '^p99 +[0-9.]+us +[0-9.]+us +1\.000 ' "$T/out" && ok "identical: ratio 1, D 0, p 1" || bad "identical" "$(cat "$T/out")"
# captured: 20000 writes of 64 B twice (steady_a, steady_b), of 128 B
# (slower), 10000 of 512 B then 10000 of 64 B (warmup); 500000 of 64 B
# twice (big_a, big_b)
rc 0 "diff two runs of one distribution: same" $K diff $F/steady_a.txt $F/steady_b.txt
has 'D = 0\.0008 at 1\.279us, n_eff = 10000, p = 1$' && has '^verdict: same' && ok "same: KS as evidence, verdict same" || bad "same D" "$(tail -3 "$T/out")"
rc 1 "diff 128 B writes: different" $K diff $F/steady_a.txt $F/slower.txt; has 'verdict: DIFFERENT' && ok "verdict line" || bad "verdict line"
grep -qE '^p50 .* UP$' "$T/out" && has 'D = 0\.9872 at 1\.151us' && ok "slower: p50 UP, D = 0.9872" || bad "slower" "$(cat "$T/out")"
rc 1 "diff warm-up half: different" $K diff $F/steady_a.txt $F/warmup.txt
has 'D = 0\.5002 at 1\.663us' && grep -qE '^p90 .* UP$' "$T/out" && ok "warm-up half: p90 UP, D = 0.5" || bad "warm-up" "$(cat "$T/out")"
# big_b's p50 to p99 are 3-4.5% above big_a's: KS calls that certain
# (p = 0), the quantiles call it under the 5% threshold
rc 0 "diff two long runs of the same writes: 3-4.5% apart, same" $K diff $F/big_a.txt $F/big_b.txt
has 'D = 0\.2214 at 1\.151us, n_eff = 250000, p = 0$' && grep -qE '^p90 .*1\.04[0-9] +\[1\.04[0-9], 1\.04[0-9]\] +same$' "$T/out" &&
	ok "long runs: p90 x1.04 with a tight interval, same; KS D 0.2214" || bad "long runs" "$(cat "$T/out")"
rc 1 "diff the long runs with --threshold 3" $K diff $F/big_a.txt $F/big_b.txt --threshold 3
rc 0 "diff huge N, 1% shift: under the threshold" $K diff $S/big_a.txt $S/big_b.txt
grep -qE '^p50 .* 1\.01[0-9] +\[1\.0[01][0-9], 1\.0[12][0-9]\] +same$' "$T/out" && ok "huge N: p50 x1.01 with a tight interval" || bad "1% shift" "$(cat "$T/out")"
rc 1 "diff huge N, --threshold 0.5%: different" $K diff $S/big_a.txt $S/big_b.txt --threshold 0.5%
rc 0 "diff --threshold 5 = 5%" $K diff $S/big_a.txt $S/big_b.txt --threshold 5
rc 2 "diff --threshold 0" $K diff $S/big_a.txt $S/big_b.txt --threshold 0
rc 2 "diff --min-effect is gone" $K diff $S/big_a.txt $S/big_b.txt --min-effect 0
# the tail regression: 1e5 samples, B with 1% of them 10x slower
gen --seed 1 -s 0,100000,lognormal,1000,0.4 > "$T/ta.txt"
gen --seed 2 -s 0,99000,lognormal,1000,0.4 -s 0,1000,lognormal,10000,0.4 > "$T/tb.txt"
gen --seed 3 -s 0,100000,lognormal,1000,0.4 > "$T/tc.txt"
rc 1 "diff 1% tail 10x slower at 1e5: different" $K diff "$T/ta.txt" "$T/tb.txt"
grep -qE '^p99\.9 .* UP$' "$T/out" && grep -qE '^p50 .* same$' "$T/out" && has 'verdict: DIFFERENT.*p99.9 x' && ok "tail: p99.9 UP, p50 same" || bad "tail" "$(cat "$T/out")"
r=$(awk '$1 == "p99.9" {print $4}' "$T/out"); py "assert 4 < $r < 7, $r" && ok "tail: p99.9 ratio $r (p99.9 of the mixture / of the law)" || bad "tail ratio" "$r"
rc 0 "diff two draws of one law at 1e5: same" $K diff "$T/ta.txt" "$T/tc.txt"
# several runs: A's medians 1000, 1100, 950 (run-to-run noise), B 1090
for i in 1 2 3; do gen --seed $((10 + i)) -s 0,100000,lognormal,$(echo 1000 1100 950 | cut -d' ' -f$i),0.4 > "$T/ra$i.txt"; done
gen --seed 20 -s 0,100000,lognormal,1090,0.4 > "$T/rb1.txt"
gen --seed 21 -s 0,100000,lognormal,1010,0.4 > "$T/rb2.txt"
gen --seed 22 -s 0,100000,lognormal,1500,0.4 > "$T/rb3.txt"
gen --seed 23 -s 0,100000,lognormal,1550,0.4 > "$T/rb4.txt"
rc 1 "diff one noisy pair: A1 vs B 9% apart: different" $K diff "$T/ra1.txt" "$T/rb1.txt"
rc 0 "diff A1 A2 A3 -- B1 B2: within A's spread: same" $K diff "$T"/ra{1,2,3}.txt -- "$T"/rb{1,2}.txt
grep -qE '^ +A +B +B/A +CI of B/A +A.s spread' "$T/out" && has "against A's run-to-run spread" && ok "runs: spread column and verdict" || bad "runs output" "$(cat "$T/out")"
rc 1 "diff A1 A2 A3 -- B3 B4: 50% slower: different" $K diff "$T"/ra{1,2,3}.txt -- "$T"/rb{3,4}.txt
grep -qE '^A: .*ra1.txt .*ra2.txt .*ra3.txt \(lat, 300000 samples in 3 runs\)$' "$T/out" && ok "runs: A's three files pooled" || bad "runs head" "$(head -2 "$T/out")"
rc 2 "diff -- with nothing after" $K diff "$T/ra1.txt" --
rc 2 "diff two --" $K diff "$T/ra1.txt" -- "$T/rb1.txt" -- "$T/rb2.txt"
rc 2 "diff units differ" $K diff $F/basic.txt $F/tsc.txt
rc 2 "diff ns and plain values" $K diff $F/basic.txt $F/known.txt
rc 2 "diff empty" $K diff $F/basic.txt $F/empty.txt
rc 2 "diff malformed" $K diff $F/basic.txt $M/p_wrong.txt
rc 2 "diff one arg" $K diff $F/basic.txt
rc 2 "diff a units mismatch among runs" $K diff $F/basic.txt -- $F/basic.txt $F/tsc.txt
rc 1 "diff frac_bits 3 vs 0 (rebinned)" $K diff $F/basic.txt $F/bits0.txt
has 'frac_bits 0' && ok "rebinned to the coarser frac_bits" || bad "rebin"
rc 0 "diff counts" $K diff $F/steady_a.txt $F/steady_b.txt; grep -qE '^A: .*\(example_write, 20000 samples in 1 run\)' "$T/out" && ok "samples per side" || bad "counts" "$(head -3 "$T/out")"

echo "# diff: false-positive rate and power by simulation (tests/sim_diff.c)"
build/sim_diff 200 > "$T/sim"
while read -r _ what n _ runs rest; do
	k=${rest#*: }; k=${k%% of*}; R=${rest##* of }; R=${R%% *}
	case $what in
	same-law*noisy*) if [ "${runs%:}" = 1/1 ]; then lim=">= 5 * $R / 100"; else lim="<= 5 * $R / 100"; fi ;;
	same-law*) lim="<= 5 * $R / 100" ;;
	shift-25*) lim=">= 70 * $R / 100" ;;
	*) lim=">= 95 * $R / 100" ;;
	esac
	if [ "$((k $lim))" = 1 ]; then ok "sim $what $n runs $runs $k of $R DIFFERENT (want $lim)"
	else bad "sim $what $n $runs" "$k of $R DIFFERENT, want $lim"; fi
done < "$T/sim"

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
has 'a series is of one distribution' err && ok "watch: other distribution refused, said" || bad "watch names" "$(cat "$T/err")"
$G --name warm --bits 0 -s 0,100,const,1000 > "$T/b0.txt"; $G --name warm --bits 3 -s 0,200,const,1000 > "$T/b3.txt"
rc 2 "watch: frac_bits 3 then 0 refused" $K watch "$T/b3.txt" "$T/b0.txt"
has "b0.txt: frac_bits 0, but .*b3.txt had 3: the distribution was recreated" err && ok "watch: mixed frac_bits, said" || bad "watch bits" "$(cat "$T/err")"
rc 2 "heatmap: frac_bits 3 then 0 refused" $K heatmap "$T/b3.txt" "$T/b0.txt" -o "$T/hb.svg"
has 'a series needs one frac_bits' err && [ ! -e "$T/hb.svg" ] && ok "heatmap: mixed frac_bits, no SVG" || bad "heatmap bits" "$(cat "$T/err")"
rc 0 "watch a reset to no samples" $K watch $F/series/snap3.txt $F/series/snap0.txt
grep -qE '^1 .* 0 .*reset' "$T/out" && ok "watch: reset to an empty table" || bad "reset empty" "$(cat "$T/out")"
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

echo "# timeline: the histories (_history/NAME), a row a slice or an HTML heatmap"
# history_live.txt: 8 slices of 100 ms, 5 then a pause of 15 then 3;
# history_frozen.txt: 5 slices of 10 ms, the trigger fired at the last
# one's start, frozen 5 ms into it; history_malformed.txt: buckets of 9, 10 samples
HL=$F/history_live.txt HF=$F/history_frozen.txt
rc 0 "timeline FILE FILE: text" $K timeline $HL $HF
[ "$(grep -cE '^ +[+-][0-9]+\.[0-9]{3}s +[0-9]+ ' "$T/out")" = 13 ] && ok "timeline: 13 slice rows (8 + 5)" || bad "timeline rows" "$(cat "$T/out")"
py "
import re
rows = [l.split() for l in open('$T/out') if re.match(r' +[+-][0-9]+\.[0-9]{3}s +[0-9]+ ', l)]
want = []
for f in ('$HL', '$HF'):
    s = [l.split() for l in open(f) if l.startswith('slice ')]
    t0 = int(s[0][1])
    want += [('+%.3fs' % ((int(x[1]) - t0) / 1e9), x[3]) for x in s]
assert [(r[0], r[1]) for r in rows] == want, ([(r[0], r[1]) for r in rows], want)
assert all(len(l.rstrip('\n')) <= 80 for l in open('$T/out')), 'over 80 columns'
" 2> "$T/err" && ok "timeline: each slice's offset and samples as the files have them, 80 columns" || bad "timeline values" "$(tail -2 "$T/err")"
grep -qE '^ +\+2\.000s +200 +2\.1us +3\.3us +9us +9\.5us$' "$T/out" && grep -qE '^ +\.\.\. \(15 empty slices, 1\.5s\)$' "$T/out" &&
	has '^  lost 2 slices, 37 samples$' && has '^  910 samples; the highest p99 9us, at +2.000s$' &&
	ok "timeline: the slice after the pause (min p50 p99 max), the pause, the losses, the highest p99" || bad "timeline live" "$(head -16 "$T/out")"
grep -qE '^ +\+0\.040s +25 +11us +1\.3ms +1\.6ms +1\.65ms  <- trigger, frozen$' "$T/out" &&
	has '^  frozen at +0.045s by trigger slow 1000000$' && has '^  trigger slow: above 1ms for 20ms, fired at +0.040s$' &&
	has '^vfs_read: 5 slices of 10ms (a ring of 128, 16384 bytes), frozen$' && [ "$(grep -c '^  unit ns (assumed: no node file)$' "$T/out")" = 2 ] &&
	ok "timeline: the frozen node's head, the trigger and the freeze in the last slice's row" || bad "timeline frozen" "$(tail -10 "$T/out")"
rc 0 "timeline -o FILE.html" $K timeline -o "$T/tl.html" $HL $HF
has "^kstats: wrote $T/tl.html: 2 nodes$" err && ok "timeline -o: says what it wrote" || bad "timeline wrote" "$(cat "$T/err")"
py "
import re
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.nodes = {}; s.cur = None; s.depth = 0; s.title = None; s.marks = {}; s.ext = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag in ('script', 'link', 'img', 'iframe') or any(k in ('src', 'href') for k in a):
            s.ext.append(tag)
        if tag == 'section' and 'node' in a.get('class', '').split():
            s.cur = a['data-name']; s.nodes[s.cur] = []; s.marks[s.cur] = {}
        if s.cur and tag == 'rect' and a.get('class') == 'cell':
            s.nodes[s.cur].append(a); s.title = ''
        if s.cur and tag == 'g' and a.get('class', '').startswith('mark '):
            s.marks[s.cur][a['class'].split()[1]] = int(a['data-t'])
    def handle_data(s, d):
        if s.title is not None:
            s.title += d
    def handle_endtag(s, tag):
        if tag == 'title' and s.title is not None:
            s.nodes[s.cur][-1]['title'] = s.title; s.title = None
        if tag == 'section':
            s.cur = None
p = P(); p.feed(open('$T/tl.html').read())
want = {}
for f in ('$HL', '$HF'):
    name = open(f).readline().split()[2]
    s = [l.split() for l in open(f) if l.startswith('slice ')]
    want[name] = (sum(1 for x in s for b in x[13].split(',') if int(b.split(':')[1])), sum(int(x[3]) for x in s))
got = {n: (len(c), sum(int(re.search(r': (\d+) of \d+ samples', x['title']).group(1)) for x in c)) for n, c in p.nodes.items()}
assert got == want, (got, want)
assert p.marks == {'example_write': {}, 'vfs_read': {'trigger': 3020000000, 'frozen': 3025000000}}, p.marks
assert not p.ext, p.ext
c = [x for x in p.nodes['vfs_read'] if 'slice at 3020000000 ns' in x['title']]
page = open('$T/tl.html').read()
tx = float(re.search(r'class=\"mark trigger\"[^>]*><path d=\"M([0-9.]+) ', page).group(1))
fx = float(re.search(r'class=\"mark frozen\"[^>]*><path d=\"M([0-9.]+) ', page).group(1))
x, w = float(c[0]['x']), float(c[0]['width'])
assert abs(tx - x) < 0.01 and abs(fx - (x + w / 2)) < 0.01, (tx, fx, x, w)
assert page.count('class=\"pause\"') == 1 and 'a pause: 15 empty slices, 1.5s' in page
" 2> "$T/err" && ok "timeline -o: a row a node, a cell a non-empty bucket (32, 17) adding up to the samples (910, 190), the trigger and freeze lines where they fell, one pause, nothing external" ||
	bad "timeline html" "$(tail -3 "$T/err")"
rc 2 "timeline of a malformed history" $K timeline $HL $F/history_malformed.txt -o "$T/bad.html"
[ "$(cat "$T/err")" = "kstats: $F/history_malformed.txt:2: the buckets add up to 9, the slice has 10 samples (see Documentation/format.rst)" ] && [ ! -e "$T/bad.html" ] &&
	ok "timeline: a malformed history: file, line, reason, exit 2, no page" || bad "timeline malformed" "$(cat "$T/err")"
rc 2 "timeline of a distribution" $K timeline $F/basic.txt
has 'basic.txt:1: first line must be .# history NAME' err && ok "timeline: a distribution is not a history, said" || bad "timeline basic" "$(cat "$T/err")"
# a root: its _history, the nodes' own files (unit, outliers); a saved copy of it
mkdir -p "$T/hr/_history" "$T/noh" "$T/emptyh/_history"
cp $HF "$T/hr/_history/vfs_read"; cp $HL "$T/hr/_history/example_write"; cp $F/basic.txt "$T/hr/foo"
printf '%s\n' '# name vfs_read clock ktime unit ns frac_bits 3 state active cpus 2 samples 3 missed 0' \
	'# source mechanism fprobe target vfs_read maxactive 0 floor_p50 0' \
	'# summary samples 3 min 20971520 p50 23068671 p90 23068671 p99 23068671 p99.9 23068671 max 23068671 mean 21000000' \
	'slot 178 CPU 0 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671' \
	'slot 178 CPUS 2 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671' \
	'# outliers slow 1000000 keep 256 kept 3 dropped 0 stack 0' \
	'outlier 1200000 time 3014000000 cpu 0 pid 7 tid 8 comm kload' \
	'outlier 1500000 time 3021000000 cpu 1 pid 7 tid 9 comm kload' \
	'outlier 21000000 time 100 cpu 0 pid 7 tid 8 comm kload' > "$T/hr/vfs_read"
rc 0 "timeline: the root's histories" $K --root "$T/hr" timeline
[ "$(grep -E '^[a-z_]+: ' "$T/out" | cut -d: -f1 | tr '\n' ' ')" = "example_write vfs_read " ] &&
	has '^vfs_read: 5 slices of 10ms (a ring of 128, 16384 bytes), frozen$' && [ "$(grep -c '^  unit ns' "$T/out")" = 2 ] && has '^  unit ns$' &&
	[ "$(grep -c '<- .*1 outlier$' "$T/out")" = 2 ] && grep -qE '^ +\+0\.030s .*  <- 1 outlier$' "$T/out" &&
	ok "timeline --root: every history, by name; the node's unit and its outliers in their slices (not the one outside)" || bad "timeline root" "$(cat "$T/out" "$T/err")"
rc 0 "timeline --root NAME -o" $K --root "$T/hr" timeline vfs_read -o "$T/o.html"
[ "$(grep -c 'class="outlier"' "$T/o.html")" = 2 ] && [ "$(grep -c '<section class="node"' "$T/o.html")" = 1 ] &&
	grep -q '<title>outlier 1.5ms at +0.041s: pid 7 tid 9 comm kload</title>' "$T/o.html" &&
	ok "timeline -o: the outliers within the slices marked, each with its value, time, task" || bad "timeline outliers" "$(grep -c outlier "$T/o.html")"
cp -r "$T/hr" "$T/saved"
rc 0 "timeline a saved _history/NAME" $K timeline "$T/saved/_history/vfs_read"
[ "$(grep -c '<- .*1 outlier$' "$T/out")" = 2 ] && ok "timeline DIR/_history/NAME: the node DIR/NAME beside it read" || bad "timeline saved" "$(cat "$T/out")"
# a real capture (tools/tests/fixtures/history-capture.sh, Debian 6.12 in
# QEMU): three nodes frozen by a trigger on one of them
HC=$F/history-capture
rc 0 "timeline of a captured root" $K --root "$HC" timeline
[ "$(grep -E '^[a-z_]+: ' "$T/out" | cut -d: -f1 | tr '\n' ' ')" = "example_write_bytes nanosleep write " ] &&
	[ "$(grep -c 'frozen at +[0-9.]*s by trigger nanosleep 20000000$' "$T/out")" = 3 ] &&
	[ "$(grep -cE '^ +[+-][0-9]+\.[0-9]{3}s +[0-9]+ ' "$T/out")" = "$(cat "$HC"/_history/* | grep -c '^slice ')" ] &&
	ok "timeline: the captured rings, a row a slice of each, all frozen by the one trigger" || bad "timeline capture" "$(head -20 "$T/out")"
rc 0 "timeline -o of a captured root" $K --root "$HC" timeline -o "$T/cap.html"
[ "$(grep -c '<rect class="cell"' "$T/cap.html")" = "$(cat "$HC"/_history/* | awk '$1 == "slice" { n += split($14, a, ",") } END { print n }')" ] &&
	ok "timeline -o: a cell a bucket of the captured slices" || bad "timeline capture html" "$(grep -c cell "$T/cap.html")"
rc 2 "timeline: no _history" $K --root "$T/noh" timeline
has "$T/noh/_history: no such directory" err && ok "timeline: no _history directory, said" || bad "no _history" "$(cat "$T/err")"
rc 2 "timeline: an empty _history" $K --root "$T/emptyh" timeline
has "no history in $T/emptyh/_history" err && ok "timeline: no history at all, said" || bad "empty _history" "$(cat "$T/err")"
rc 2 "timeline: an unknown NAME" $K --root "$T/hr" timeline nope
has "no history 'nope' in $T/hr/_history and no file 'nope'" err && ok "timeline NAME: none, said where" || bad "timeline nope" "$(cat "$T/err")"
rc 2 "timeline: a node without a history" $K --root "$T/hr" timeline foo
has "foo keeps no history: no $T/hr/_history/foo" err && ok "timeline NAME: a node without a history, said" || bad "timeline foo" "$(cat "$T/err")"
rc 2 "timeline: an unreadable root" $K --root "$T/nope" timeline
echo "# explain: when a node's tail comes (period, phases), what goes with it"
# tests/make_explain.py: periodic/: rq's tail every 25 slices of 10 ms,
# throttle.web's samples up in the same slices, noise unrelated; flat/: the
# same nodes, rq's tail in random slices, nothing going with it
python3 tests/make_explain.py "$T/xr"
XP=$T/xr/periodic XF=$T/xr/flat
rc 0 "explain rq: text" $K --root "$XP" explain rq
py "
import re, sys
s = open('$T/out').read()
m = re.match(r'rq: its tail \(above 4\.194ms\) comes every ([0-9.]+)ms \(strength (0\.[0-9]+|1\.00)\); it goes with ([^ ]+) \(r (0\.[0-9]+|1\.00), lag 0\)', s)
sys.exit(not m or abs(float(m.group(1)) - 250) > 25 or float(m.group(2)) < 0.8 or m.group(3) != 'throttle.web' or s.count('\n') != 1)
" && ok "explain: rq's tail every 250ms (within 10 %), throttle.web first, a line" || bad "explain text" "$(cat "$T/out")"
rc 0 "explain rq --json" $K --root "$XP" explain --json rq
py "
import json, sys
d = json.load(open('$T/out'))
n = d['nodes'][0]
sys.exit(not (set(d) == {'slice_ns', 'window_ns', 'context', 'nodes'} and d['context'] == [] and d['slice_ns'] == 10000000 and d['window_ns'] == 4000000000
	and len(d['nodes']) == 1 and n['name'] == 'rq' and n['tail_above'] == 4194304
	and abs(n['period_ns'] - 250000000) <= 25000000 and 0.8 <= n['period_strength'] <= 1
	and n['correlates'][0]['with'] == 'throttle.web' and n['correlates'][0]['lag_ns'] == 0 and n['correlates'][0]['r'] > 0.9
	and all(c['r'] >= 0.6 for c in n['correlates']) and 'noise' not in [c['with'] for c in n['correlates']]
	and n['phases'] == [[5000000000, 9000000000]]))
" && ok "explain --json: period 250 ms (within 10 %), throttle.web first (r > 0.9, lag 0), noise not, one phase: the window" || bad "explain json" "$(cat "$T/out" "$T/err")"
rc 0 "explain: every node" $K --root "$XP" explain
[ "$(cut -d: -f1 "$T/out" | tr '\n' ' ')" = "noise rq throttle.web " ] && has '^rq: .*throttle.web:tail (r ' && has '^noise: .* has no period; nothing moves with it;' &&
	ok "explain, no NAME: every history, a line each; the named nodes' tails are series too" || bad "explain all" "$(cat "$T/out")"
rc 0 "explain: no period" $K --root "$XF" explain --json rq
py "
import json, sys
n = json.load(open('$T/out'))['nodes'][0]
sys.exit(not (n['period_ns'] is None and n['period_strength'] is None and not [c for c in n['correlates'] if c['with'].startswith('throttle')]
	and len(n['phases']) > 10))
" && ok "explain: a tail in random slices: period null, no throttle.web, phases apart" || bad "explain flat" "$(cat "$T/out")"
rc 0 "explain: no period, text" $K --root "$XF" explain rq
has '^rq: its tail (above 4\.194ms) has no period; nothing moves with it; it came in [0-9]* phases: +' && ! has 'every' &&
	ok "explain: no period, nothing moves with it: said so, no weak claim" || bad "explain flat text" "$(cat "$T/out")"
rc 0 "explain --above" $K --root "$XP" explain --above 65536 --json noise
json_get "$T/out" "d['nodes'][0]['tail_above'], d['nodes'][0]['period_ns']" > "$T/v"
[ "$(cat "$T/v")" = "65536 None" ] && ok "explain --above V: the tail above V (noise: none periodic)" || bad "explain --above" "$(cat "$T/v")"
rc 2 "explain: a node without a history" $K --root "$XP" explain rq nope
[ "$(cat "$T/err")" = "kstats: nope has no history: make it with 'history NS COUNT'" ] && [ ! -s "$T/out" ] &&
	ok "explain NAME without a history: said, with the fix, exit 2" || bad "explain nope" "$(cat "$T/err")"
# a real capture (tools/tests/fixtures/explain-capture.sh, Debian 6.12 in
# QEMU): a server with a quota of 25 ms every 250 ms; rq's tail and the
# throttle section kept as explain -d made it
XC=$F/explain-capture
rc 0 "explain a captured quota" $K --root "$XC" explain --json rq
py "
import json, sys
n = json.load(open('$T/out'))['nodes'][0]
c = n['correlates']
sys.exit(not (abs(n['period_ns'] - 250000000) <= 25000000 and n['period_strength'] >= 0.8
	and c and c[0]['with'] == 'throttle.web' and c[0]['r'] >= 0.9 and c[0]['lag_ns'] == 0))
" && ok "explain, a captured CPU quota: period 250 ms (within 10 %), throttle.web first (r 0.9+, lag 0)" || bad "explain capture" "$(cat "$T/out")"
$K --root "$XC" explain rq > "$T/out" 2>&1
cmp -s "$T/out" "$XC/explain-0.txt" && ok "explain, a captured quota: the sentence the guest printed" || bad "explain capture text" "$(cat "$T/out" "$XC/explain-0.txt")"
# real captures on a loaded machine (t-34 in QEMU, arm64 6.12 beside
# other guests): the server answered a few requests a period, so a
# quarter of rq's samples are slow (p90 among them), and the requester
# woke a slice or two late; p99 alone kept a part of the slow mode, and
# the raw series' peak was weak (none, or at 750 ms)
for n in a b; do
	rc 0 "explain a loaded machine's capture ($n)" $K --root "$F/explain-loaded-$n" explain --json rq
	json_get "$T/out" "d['nodes'][0]['tail_above'] <= 117440512, abs(d['nodes'][0]['period_ns'] - 250000000) <= 25000000, d['nodes'][0]['period_jitter_ns']" > "$T/v"
	[ "$(cat "$T/v")" = "True True 20000000" ] &&
		ok "explain, a loaded machine's quota ($n): the slow mode whole, period 250 ms give or take 20 ms" ||
		bad "explain loaded $n" "$(cat "$T/v" "$T/out")"
done
# -d: the rings recorded for SECS, frozen, read, thawed; in a fake root
# _control is a file the tool appends to
cp -r "$XP" "$T/xfz"; : > "$T/xfz/_control"
sed -i '1s/state live/state frozen frozen_at 9000000000 by freeze/' "$T/xfz/_history/noise"
rc 2 "explain -d: frozen histories refused" $K --root "$T/xfz" explain -d 1 rq
has "the histories are frozen (by freeze): -d would read another's freeze" err && [ ! -s "$T/xfz/_control" ] &&
	ok "explain -d of frozen histories: refused, nothing written to _control" || bad "explain -d frozen" "$(cat "$T/err"; cat "$T/xfz/_control")"
cp -r "$XP" "$T/xl"; : > "$T/xl/_control"
rc 0 "explain -d 1" $K --root "$T/xl" explain -d 1 --no-context --json rq
[ "$(cat "$T/xl/_control")" = "$(printf 'freeze\nthaw')" ] && ok "explain -d: freeze then thaw written to _control" ||
	bad "explain -d control" "$(cat "$T/xl/_control")"
# the last second of the rings (their end, 9 s: no frozen_at in a fake root)
json_get "$T/out" "d['window_ns'], d['nodes'][0]['phases'], abs(d['nodes'][0]['period_ns'] - 250000000) <= 25000000" > "$T/v"
[ "$(cat "$T/v")" = "1000000000 [[8000000000, 8770000000]] True" ] && ok "explain -d 1: the last second only (from 8 s to the last tail, 8.77 s), its period" || bad "explain -d window" "$(cat "$T/v")"
: > "$T/xl/_control"
$K --root "$T/xl" explain -d 30 --no-context rq > "$T/out" 2> "$T/err" & xpid=$!
sleep 0.3; kill -INT $xpid; wait $xpid; r=$?
[ $r = 0 ] && [ "$(cat "$T/xl/_control")" = "$(printf 'freeze\nthaw')" ] && has '^rq: its tail' &&
	ok "explain -d, Ctrl-C: what was recorded, frozen, read and thawed" || bad "explain -d SIGINT" "exit $r: $(cat "$T/err" "$T/xl/_control")"
# -d's context: made on the named node's slice, for the window (1 s: 100
# slices and 8), removed newest first after the thaw; this machine's
# interrupts and vectors, runqlat and ivcsw always (the fake root has no
# file of them: no series, nothing else read)
: > "$T/xl/_control"
rc 0 "explain -d 1, context" $K --root "$T/xl" explain -d 1 --json rq
py "
import json, re, sys
lines = open('$T/xl/_control').read().split('\\n')
made = [re.search(r' (?:name )?(explain_ctx[0-9]+) ', l).group(1) for l in lines if l.startswith('trace ')]
gone = [l.split()[1] for l in lines if l.startswith('remove ')]
i = lines.index('freeze')
ok = (made and made == ['explain_ctx%d' % (k + 1) for k in range(len(made))] and gone == made[::-1]
	and all(l.endswith(' history 10000000 108') for l in lines[:i])
	and lines[i + 1] == 'thaw' and lines[:i] == [l for l in lines if l.startswith('trace ')]
	and any(' start tp:sched:sched_wakeup key arg0 ' in l for l in lines)
	and any(l.startswith('trace tp:sched:sched_switch name explain_ctx') and ' if arg0 == 1 ' in l for l in lines)
	and any(re.search(r' start tp:irq:softirq_entry key cpu if arg0 == [0-9] end tp:irq:softirq_exit key cpu if arg0 == [0-9] ', l) for l in lines))
ctx = json.load(open('$T/out'))['context']
sys.exit(not (ok and len(ctx) == len(made) and 'runqlat' in ctx and 'ivcsw' in ctx and any(c.startswith('softirq:') for c in ctx)))
" && ok "explain -d: context nodes made with histories on the slice, listed, removed after the thaw, newest first" ||
	bad "explain -d context" "$(cat "$T/xl/_control" "$T/out" "$T/err")"
# the page in a browser (skipped when Chromium is not installed)
tests/timeline-chromium.sh "$K" > "$T/chr" 2>&1; r=$?
case $r in
0) ok "timeline in headless Chromium: $(tail -1 "$T/chr")" ;;
77) skip "timeline in headless Chromium" "$(tail -1 "$T/chr")" ;;
*) bad "timeline in headless Chromium" "$(tail -5 "$T/chr")" ;;
esac

echo "# export"
# one file per name: Prometheus series must be unique
EXP="$F/basic.txt $F/known.txt $F/bits0.txt $F/tsc.txt $F/range.txt $F/slow_io.txt $F/empty.txt"
mkdir "$T/exp"; cp $EXP "$T/exp/"
$K --root "$T/exp" export > "$T/prom"; r=$?
[ $r = 0 ] && ok "export prometheus" || bad "export rc $r"
$K --root "$T/exp" export --buckets 100000 > "$T/prom-all"
if command -v promtool > /dev/null; then
	t "promtool check metrics" sh -c "promtool check metrics < '$T/prom'"
	t "promtool check metrics (--buckets 100000)" sh -c "promtool check metrics < '$T/prom-all'"
else
	skip "promtool check metrics" "promtool not installed (apt-get install prometheus)"
fi
# Prometheus's conventions: one family a unit, named with it; durations in
# seconds; no host label unless asked; at most 64 buckets by default
py "
import re
fam = {}
for l in open('$T/prom'):
    m = re.match(r'([a-z_]+?)(_bucket|_sum|_count)?\{(.*)\} ', l)
    if m and not m.group(1).endswith('_total'):
        fam.setdefault(m.group(1), set()).add(re.search(r'name=\"([^\"]+)\"', m.group(3)).group(1))
        assert 'host=' not in l and 'unit=' not in l, l
assert fam == {'kstats_duration_seconds': {'example_write', 'getppid_bits0', 'sleep_local', 'bounded', 'idle'},
               'kstats_duration_cycles': {'getppid_tsc'}, 'kstats_value': {'example_write_bytes'}}, fam
n = {}
for l in open('$T/prom'):
    m = re.search(r'_bucket\{name=\"([^\"]+)\"', l)
    if m:
        n[m.group(1)] = n.get(m.group(1), 0) + 1
assert max(n.values()) <= 64 and min(n.values()) >= 8, n
n = sum(1 for l in open('$T/prom-all') if l.startswith('kstats_duration_seconds_bucket{name=\"example_write\"'))
assert n == 495 + 1, n
" 2> "$T/err" && ok "export: a family per unit, no host or unit label, <= 64 buckets (495 + 1 with --buckets)" || bad "export conventions" "$(tail -2 "$T/err")"
grep -q '^kstats_duration_seconds_bucket{name="example_write",clock="ktime",le="0.000016383"} 1231$' "$T/prom" &&
	grep -q '^kstats_duration_seconds_bucket{name="example_write",clock="ktime",le="+Inf"} 1234$' "$T/prom" &&
	grep -q '^kstats_duration_seconds_count{name="example_write",clock="ktime"} 1234$' "$T/prom" &&
	grep -q '^kstats_duration_seconds_sum{name="example_write",clock="ktime"} 0.0052364' "$T/prom" &&
	ok "export: le and _sum in seconds, exact, and _count" || bad "export seconds" "$(grep 'name="example_write"' "$T/prom" | tail -4)"
rc 2 "export --buckets 1" $K export --buckets 1 $F/basic.txt
$K export --host web1 $F/basic.txt | grep -q '^kstats_duration_seconds_count{name="example_write",clock="ktime",host="web1"} 1234$' &&
	ok "export --host: the label only when asked" || bad "export --host"
# histogram_quantile() on the exported buckets must land in the bucket of
# the tool's p50/p90/p99 (the file's slot hi), with and without merging
for p in prom prom-all; do
py "
import json, re, subprocess, glob
text = open('$T/$p').read()
buckets = {}
for m in re.finditer(r'(kstats_[a-z_]+)_bucket\{name=\"([^\"]+)\".*?le=\"([^\"]+)\"\} (\d+)', text):
    scale = 1e9 if m.group(1) == 'kstats_duration_seconds' else 1
    le = float('inf') if m.group(3) == '+Inf' else round(float(m.group(3)) * scale)
    buckets.setdefault(m.group(2), []).append((le, int(m.group(4))))
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
        est = prev_le if le == float('inf') else prev_le + (le - prev_le) * (rank - prev_c) / (c - prev_c)
        hi = d['summary'][key]
        assert prev_le < hi <= le or (le == float('inf') and hi > prev_le), (f, key, est, prev_le, le, hi)
        assert prev_le <= est <= le, (f, key, est)
        checked += 1
assert checked >= 12, checked
" 2> "$T/err" && ok "histogram_quantile in the bucket of p50/p90/p99 ($p)" || bad "histogram_quantile $p" "$(tail -2 "$T/err")"
done
# known.txt: the bucket le="55" holds 1..55 (with --buckets 100000: every
# slot); _sum is the sum of the slots' avg * count (5006; exact: 5050)
grep -q '^kstats_value_sum{name="example_write_bytes",clock="none"} 5006$' "$T/prom" &&
	grep -q '^kstats_value_bucket{name="example_write_bytes",.*le="55"} 55$' "$T/prom-all" && ok "export: exact sum and bucket of 1..100" || bad "export known"

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

echo "# values: # value, # filter, # negative and the errno rows (synthetic value_*.txt)"
rc 0 "show a node with a value" $K show $S/value_ret.txt
has '^# value ret$' && has '^# filter comm kvalue$' && ok "show: value and filter lines" || bad "show value lines" "$(head -5 "$T/out")"
has '^negative: 47 samples, min -5000, max -9 (not in the histogram)$' && ok "show: the negative line" || bad "show negative" "$(grep negative "$T/out")"
[ "$(grep '^errno ' "$T/out" | tr '\n' '|')" = 'errno EBADF (9): 1|errno EAGAIN (11): 40|errno EFAULT (14): 2|errno ERESTARTSYS (512): 3|' ] &&
	ok "show: errno rows by name, the kernel's own too" || bad "show errnos" "$(grep '^errno' "$T/out")"
rc 0 "show all negative" $K show $S/value_negative.txt
has 'no samples' && has '^errno EINVAL (22): 7$' && ok "show: no histogram, 7 x -EINVAL" || bad "all negative" "$(tail -4 "$T/out")"
rc 0 "show: no negative" $K show $S/value_filters.txt; has '^negative: 0 samples$' && ok "show: 0 negative samples" || bad "0 negative"
rc 0 "show: older files unchanged" $K show $F/values.txt; ! has '^negative' && ! has '^errno' && ok "show: no negative line for older files" || bad "older show"
$K show $S/value_ret.txt --json > "$T/j"
py "
import json; d = json.load(open('$T/j'))
assert d['value'] == 'ret' and d['filter'] == 'comm kvalue', d
assert d['negative'] == {'samples': 47, 'min': -5000, 'max': -9}, d['negative']
assert d['errno'] == [{'errno': 9, 'name': 'EBADF', 'count': 1}, {'errno': 11, 'name': 'EAGAIN', 'count': 40},
                      {'errno': 14, 'name': 'EFAULT', 'count': 2}, {'errno': 512, 'name': 'ERESTARTSYS', 'count': 3}], d['errno']
" 2> "$T/err" && ok "show --json: value, filter, negative, errno" || bad "json values" "$(tail -1 "$T/err")"
$K show $F/values.txt --json > "$T/j"
py "
import json; d = json.load(open('$T/j'))
assert not {'value', 'filter', 'negative', 'errno'} & set(d), d.keys()" 2> "$T/err" && ok "show --json: none of them for older files" || bad "json older" "$(tail -1 "$T/err")"
mkdir "$T/vexp"; cp $S/value_ret.txt $S/value_negative.txt $F/basic.txt "$T/vexp/"
$K --root "$T/vexp" export > "$T/prom"
grep -q '^kstats_negative_samples_total{name="ksys_read",clock="none"} 47$' "$T/prom" &&
	grep -q '^kstats_errno_total{name="ksys_read",clock="none",errno="EAGAIN"} 40$' "$T/prom" &&
	grep -q '^kstats_errno_total{name="kfail",clock="none",errno="EINVAL"} 7$' "$T/prom" &&
	! grep -q 'kstats_negative_samples_total{name="example_write"' "$T/prom" &&
	ok "export: negative and errno counters" || bad "export values" "$(grep -E 'negative|errno' "$T/prom")"
if command -v promtool > /dev/null; then
	t "promtool check metrics (values)" sh -c "promtool check metrics < '$T/prom'"
else
	skip "promtool check metrics (values)" "promtool not installed"
fi
rc 0 "export json (values)" $K export --format json --host h $S/value_ret.txt
py "
import json; d = json.load(open('$T/out'))['distributions'][0]
assert d['negative']['samples'] == 47 and len(d['errno']) == 4" 2> "$T/err" && ok "export json: negative and errno" || bad "export json values" "$(tail -1 "$T/err")"

echo "# trace (fake root: _control is a plain file)"
mkdir -p "$T/tr"; : > "$T/tr/_control"; cp $F/basic.txt "$T/tr/vfs_read"
rc 0 "trace -d" $K --root "$T/tr" trace vfs_read -b 4 -d 0.2
[ "$(cat "$T/tr/_control")" = "$(printf 'trace vfs_read bits 4\nremove vfs_read')" ] && ok "trace: _control writes" || bad "trace control" "$(cat "$T/tr/_control")"
has '^@example_write (ns):' && has '^\[' && ok "trace: histogram printed" || bad "trace output"
: > "$T/tr/_control"
rc 0 "trace --slow --why -d" $K --root "$T/tr" trace vfs_read --slow 1000000 --why -d 0.2
[ "$(head -n 1 "$T/tr/_control")" = "trace vfs_read slow 1000000 why" ] && ok "trace --why: the node's why" || bad "trace --why" "$(cat "$T/tr/_control")"
: > "$T/tr/_control"
rc 2 "trace --why --value: refused" $K --root "$T/tr" trace vfs_read --value ret --why -d 0.2
[ ! -s "$T/tr/_control" ] && has 'not --value' err && ok "trace --why --value: nothing written, said why" || bad "why value" "$(cat "$T/err")"
rc 0 "trace -i -d" $K --root "$T/tr" trace vfs_read -i 0.1 -d 0.3
[ "$(grep -c 'samples$' "$T/out")" -ge 2 ] && ok "trace -i: one histogram per interval" || bad "trace -i" "$(cat "$T/out")"
: > "$T/tr/_control"
$K --root "$T/tr" trace vfs_read > "$T/out" 2>&1 & pid=$!
sleep 0.3; kill -INT $pid; wait $pid; r=$?
[ $r = 0 ] && grep -q '^remove vfs_read$' "$T/tr/_control" && has '^@example_write' && ok "trace: Ctrl-C prints and removes the node" || bad "trace SIGINT" "rc $r: $(cat "$T/tr/_control")"
rc 2 "trace without _control" $K --root "$T/nope" trace vfs_read -d 0.1

echo "# trace --value and filters (fake root; the test BTF of unit --btf-dir: vfs_read, do_thing, noret, tp x, module kmod_fn)"
mkdir -p "$T/btf"; build/unit --btf-dir "$T/btf"
export KSTATS_BTF=$T/btf
for n in do_thing kmod_fn x; do cp $S/value_ret.txt "$T/tr/$n"; done
# tc NAME WANT ARGS...: trace ARGS -d 0.01 writes WANT, then remove NODE
tc() {
	local n=$1 want=$2; shift 2
	: > "$T/tr/_control"
	rc 0 "$n" $K --root "$T/tr" trace "$@" -d 0.01 -v
	got=$(head -1 "$T/tr/_control")
	if [ "$got" = "$want" ] && [ "$(vlines | head -1)" = "$want" ]; then ok "$n: $want"; else bad "$n" "got '$got', -v '$(vlines | head -1)', want '$want'"; fi
}
tc "trace --value count --comm dd" "trace vfs_read value arg2 comm dd" vfs_read --value count --comm dd
tc "trace --value *pos" "trace vfs_read value arg3+0:8" vfs_read --value '*pos'
tc "trace a field path, --if, every filter, -b" \
	"trace vfs_read bits 2 value arg0+32:8+80:8 pid 12 tid 13 comm dd cpu 1 if arg2 >= 4096 if arg3+0:8 != -1 if arg0+8:s4 & 255" \
	vfs_read --value 'file->f_inode->i_size' --if 'count >= 0x1000' --if '*pos!=-1' --if 'file->f_owner.pid & 0xff' \
	--cpu 1 --comm dd --tid 13 --pid 12 -b 2
tc "trace --if without --value" "trace vfs_read if arg0+40:8 < -2" vfs_read --if 'file->f_count < -2'
tc "trace --value ret of an int function" "trace do_thing value ret:s4" do_thing --value ret
tc "trace --if 0xffffffff00000000: the same 64 bits" "trace do_thing if arg1:4 & -4294967296" do_thing --if 'b & 0xffffffff00000000'
tc "trace a module's function" "trace kmod_fn value arg0+0:4" kmod_fn --value 'file->f_flags'
tc "trace a tracepoint's argument" "trace tp:grp:x value arg0+32:8+80:8 if arg1:s4 < 0" tp:grp:x --value 'file->f_inode->i_size' --if 'err < 0'
grep -q '^remove x$' "$T/tr/_control" && ok "trace tp:GROUP:EVENT: the node is EVENT" || bad "tp node name" "$(cat "$T/tr/_control")"
# tr_refused NAME MESSAGE ARGS...: exit 2, MESSAGE on stderr, nothing written
tr_refused() {
	local n=$1 want=$2; shift 2
	: > "$T/tr/_control"
	rc 2 "$n" $K --root "$T/tr" trace "$@" -d 0.01
	if [ "$(cat "$T/err")" = "kstats: $want" ] && [ ! -s "$T/tr/_control" ]; then ok "$n: message, nothing written"
	else bad "$n" "$(cat "$T/err"); _control: $(cat "$T/tr/_control")"; fi
}
tr_refused "refused: unknown parameter" "--value 'nope': vfs_read has no parameter 'nope' (its parameters: file, buf, count, pos)" vfs_read --value nope
tr_refused "refused: a bitfield" "--value 'file->f_inode->i_flags': 'file->f_inode->i_flags' is a bitfield (3 bits): only whole bytes can be read" vfs_read --value 'file->f_inode->i_flags'
tr_refused "refused: an array" "--value 'file->f_inode->i_blocks': 'file->f_inode->i_blocks' is an array (long long[4]): name one element, e.g. file->f_inode->i_blocks[0]" vfs_read --value 'file->f_inode->i_blocks'
tr_refused "refused: ret of void" "--value 'ret': 'ret': noret returns void" noret --value ret
tr_refused "refused: ret of a tracepoint" "--if 'ret < 0': 'ret': tp:grp:x is a tracepoint, it has no return value" tp:grp:x --if 'ret < 0'
tr_refused "refused: --if without operator" "--if 'count': expected 'EXPR OP C' with OP one of == != < <= > >= & (kstats --help for usage)" vfs_read --if count
tr_refused "refused: --if constant" "--if 'count > x': expected 'EXPR OP C' with OP one of == != < <= > >= & and C a decimal or 0x-hex number (kstats --help for usage)" vfs_read --if 'count > x'
tr_refused "refused: --if =" "--if 'count = 1': expected 'EXPR OP C' with OP one of == != < <= > >= & and C a decimal or 0x-hex number (kstats --help for usage)" vfs_read --if 'count = 1'
rc 2 "refused: unknown function" $K --root "$T/tr" trace nosuch_fn --value x -d 0.01
has "nosuch_fn: not in the BTF of the kernel ($T/btf/vmlinux) nor of a loaded module" err && ok "unknown function: named, with the BTF searched" || bad "unknown fn" "$(cat "$T/err")"
KSTATS_BTF=$T/nobtf rc 2 "no BTF" $K --root "$T/tr" trace vfs_read --value count -d 0.01
has 'CONFIG_DEBUG_INFO_BTF.*without BTF, write it in the kernel.s terms' err && ok "no BTF: says what is needed" || bad "no BTF" "$(cat "$T/err")"
KSTATS_BTF=$T/nobtf tc "no BTF: the kernel's terms as they are" "trace vfs_read value arg3+0:8 if ret < 0" vfs_read --value 'arg3+0:8' --if 'ret < 0'
tc "the kernel's terms as they are, with BTF" "trace vfs_read value arg0+32:8+80:8 if ret:s4 < 0" vfs_read --value 'arg0+32:8+80:8' --if 'ret:s4<0'
tr_refused "refused: a bad kernel term" "--value 'arg0+8:4+0:8': 'arg0+8:4+0:8': unexpected '+' (write ret, a parameter, *parameter, a->b, a.b or a[N])" vfs_read --value 'arg0+8:4+0:8'
# a user function (PATH:SYMBOL): its node BASENAME.SYMBOL, as the kernel
# names it; no BTF, its values in the kernel's terms
cp $S/value_ret.txt "$T/tr/libc.so.6.malloc"
tc "trace PATH:SYMBOL --value arg0 --pid" "trace /usr/lib/libc.so.6:malloc value arg0 pid 7" /usr/lib/libc.so.6:malloc --value arg0 --pid 7
grep -q '^remove libc.so.6.malloc$' "$T/tr/_control" && ok "trace PATH:SYMBOL: the node is BASENAME.SYMBOL" || bad "user node name" "$(cat "$T/tr/_control")"
tr_refused "refused: a user function's BTF expression" "--value 'a->b': a user function has no BTF (without BTF, write it in the kernel's terms: ret, argN, argN+OFF:SIZE)" /usr/lib/libc.so.6:malloc --value 'a->b'
rc 2 "refused: a relative PATH:SYMBOL" $K --root "$T/tr" trace ./prog:main -d 0.01
# trace -i of a node with a value: the value line once, each interval's
# negative samples and errnos (value_ret2.txt: 15 more -EAGAIN)
cp $S/value_ret.txt "$T/tr/ksys_read"
( sleep 0.3; cp $S/value_ret2.txt "$T/tr/ksys_read.tmp"; mv "$T/tr/ksys_read.tmp" "$T/tr/ksys_read" ) &
rc 0 "trace -i --value ret" $K --root "$T/tr" trace ksys_read --value ret -i 0.2 -d 0.6
wait
[ "$(grep -c '^# value ret$' "$T/out")" = 1 ] && has '^negative: 47 samples, min -5000, max -9' && has '^errno EAGAIN (11): 40$' &&
	has '^negative: 15 samples (not in the histogram)$' && has '^errno EAGAIN (11): 15$' &&
	ok "trace -i: value line, negative and errno deltas" || bad "trace -i values" "$(grep -E '^(#|negative|errno|[0-9])' "$T/out")"
unset KSTATS_BTF
if [ -r /sys/kernel/btf/vmlinux ]; then
	tc "trace --value on this machine's BTF" "trace vfs_read value arg2" vfs_read --value count
else
	skip "trace --value on this machine's BTF" "/sys/kernel/btf/vmlinux not readable"
fi

echo "# recipes (fake root): the exact _control lines, -v, the refusals"
# rcp NAME WANT ARGS...: kstats ARGS -d 0.01 -v writes WANT, then removes its node
rcp() {
	local n=$1 want=$2 node; shift 2
	node=$(echo "$want" | awk '{print $2}')
	: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/$node"
	rc 0 "$n" $K --root "$T/tr" "$@" -d 0.01 -v
	got=$(cat "$T/tr/_control")
	if [ "$got" = "$(printf '%s\nremove %s' "$want" "$node")" ] && [ "$(vlines)" = "$got" ]; then ok "$n: $want"
	else bad "$n" "got '$got', -v '$(cat "$T/err")', want '$want'"; fi
}
# rcp_re DESC REGEX ARGS...: as rcp, the line matching REGEX (what BTF
# says of this machine's kernel: field offsets)
rcp_re() {
	local n=$1 want=$2; shift 2
	: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/$1"
	rc 0 "$n" $K --root "$T/tr" "$@" -d 0.01 -v
	if head -n 1 "$T/tr/_control" | grep -qE -- "$want" && [ "$(vlines)" = "$(cat "$T/tr/_control")" ]; then ok "$n"
	else bad "$n" "got '$(cat "$T/tr/_control")', want /$want/"; fi
}
# runqlat: the three ways into the run queue, as libbpf-tools' runqlat
# (a switch out of a task still runnable, not the idle task's: its
# __state and pid from BTF)
RQ_STARTS='start tp:sched:sched_wakeup key arg0 start tp:sched:sched_wakeup_new key arg0 start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:4 == 0 if arg1\+[0-9]+:s4 != 0'
if [ -r /sys/kernel/btf/vmlinux ]; then
	rcp_re "runqlat: enqueued at a wakeup, a first wakeup, a preemption" \
		"^trace runqlat $RQ_STARTS end tp:sched:sched_switch key arg2\$" runqlat --self
	rcp_re "runqlat --cpu: where the task is switched in" \
		"^trace runqlat $RQ_STARTS end tp:sched:sched_switch key arg2 cpu 1\$" runqlat --cpu 1 --self
	# kstats' own tasks left out at each start (their tgid, from BTF): its
	# wakeups are runqlat's to see, whatever its waits
	: > "$T/tr/_control"
	$K --root "$T/tr" runqlat -d 0.01 -v > "$T/out" 2> "$T/err" & pid=$!; wait $pid
	grep -qE "^trace runqlat start tp:sched:sched_wakeup key arg0 if arg0\+([0-9]+):s4 != $pid start tp:sched:sched_wakeup_new key arg0 if arg0\+\1:s4 != $pid start tp:sched:sched_switch key arg1 if arg1\+\1:s4 != $pid if arg1\+[0-9]+:4 == 0 if arg1\+[0-9]+:s4 != 0 end tp:sched:sched_switch key arg2\$" "$T/tr/_control" &&
		ok "runqlat: kstats' own process left out at each start (p, p, prev: its tgid $pid)" || bad "runqlat self" "$(cat "$T/tr/_control")"
	: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/offcpu"
	$K --root "$T/tr" offcpu -d 0.01 -v > "$T/out" 2> "$T/err" & pid=$!; wait $pid
	grep -qE "^trace offcpu start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:s4 != $pid if arg1\+[0-9]+:s4 != 0 end " "$T/tr/_control" &&
		ok "offcpu: kstats' own process left out (prev, switched out)" || bad "offcpu self" "$(cat "$T/tr/_control")"
else
	skip "runqlat with this machine's BTF" "/sys/kernel/btf/vmlinux not readable"
fi
# without BTF: the wakeups alone, saying what is not counted
: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/runqlat"
KSTATS_BTF=$T/nobtf rc 0 "runqlat without BTF" $K --root "$T/tr" runqlat -d 0.01 -v --self
[ "$(head -n 1 "$T/tr/_control")" = "trace runqlat start tp:sched:sched_wakeup key arg0 start tp:sched:sched_wakeup_new key arg0 end tp:sched:sched_switch key arg2" ] &&
	grep -q "no start there, a preempted task's wait is not counted" "$T/err" && ok "runqlat without BTF: the wakeups, saying so" || bad "runqlat without BTF" "$(cat "$T/tr/_control" "$T/err")"
rcp "biolatency -b 2 and every filter: at the issue" \
	"trace biolatency start tp:block:block_rq_issue key arg0 pid 12 tid 13 comm dd cpu 1 end tp:block:block_rq_complete key arg0 bits 2" \
	biolatency --pid 12 --tid 13 --comm dd --cpu 1 -b 2
rcp "syscall: all calls, a histogram per call (sys_enter's id)" \
	"trace syscall start tp:raw_syscalls:sys_enter key task by arg1 end tp:raw_syscalls:sys_exit key task inflight 16384" syscall
nr=$(printf '#include <sys/syscall.h>\nSYS_clock_nanosleep\n' | cc -E -P - | tail -1)
end_if=""; [ "$(uname -m)" = x86_64 ] && end_if=" if arg0+120:8 == $nr"
rcp "syscall clock_nanosleep --comm: the caller at both points" \
	"trace syscall_clock_nanosleep start tp:raw_syscalls:sys_enter key task comm kvalue cpu 0 if arg1 == $nr end tp:raw_syscalls:sys_exit key task comm kvalue$end_if inflight 16384" \
	syscall clock_nanosleep --comm kvalue --cpu 0
rcp "lockwait --tid" "trace lockwait start tp:lock:contention_begin key task match arg0 tid 7 end tp:lock:contention_end key task match arg0 tid 7 nest outer" lockwait --tid 7
rcp "lockwait --why: each wait split" "trace lockwait start tp:lock:contention_begin key task match arg0 end tp:lock:contention_end key task match arg0 nest outer why" lockwait --why
rcp "syscall --why" "trace syscall start tp:raw_syscalls:sys_enter key task by arg1 end tp:raw_syscalls:sys_exit key task inflight 16384 why" syscall --why
for r in runqlat offcpu softirq; do
	rc 2 "$r --why: not a task's own span" $K --root "$T/tr" $r --why -d 0.01
	has "^kstats: '--why' is not an option of '$r' (it is of: trace, syscall, lockwait)" err && ok "$r --why: refused, named" || bad "$r --why" "$(cat "$T/err")"
done
rcp "softirq --cpu: both points, by vector" "trace softirq start tp:irq:softirq_entry key cpu cpu 3 by arg0 end tp:irq:softirq_exit key cpu cpu 3" softirq --cpu 3
rcp "softirq" "trace softirq start tp:irq:softirq_entry key cpu by arg0 end tp:irq:softirq_exit key cpu" softirq
if [ -r /sys/kernel/btf/vmlinux ]; then
	rcp_re "hardirq: by the handler's name (str: action->name, from BTF)" \
		'^trace hardirq start tp:irq:irq_handler_entry key cpu by str:arg1\+[0-9]+:8 end tp:irq:irq_handler_exit key cpu$' hardirq
	rcp_re "hardirq --max-keys" \
		'^trace hardirq start tp:irq:irq_handler_entry key cpu by str:arg1\+[0-9]+:8 max 16 end tp:irq:irq_handler_exit key cpu$' hardirq --max-keys 16
fi
: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/hardirq"
KSTATS_BTF=$T/nobtf rc 0 "hardirq without BTF" $K --root "$T/tr" hardirq -d 0.01 -v
[ "$(head -n 1 "$T/tr/_control")" = "trace hardirq start tp:irq:irq_handler_entry key cpu by arg0 end tp:irq:irq_handler_exit key cpu" ] &&
	grep -q "a histogram per IRQ instead" "$T/err" && ok "hardirq without BTF: by IRQ, saying so" || bad "hardirq without BTF" "$(cat "$T/tr/_control" "$T/err")"
rcp "offcpu --by pid --max-keys --idle" "trace offcpu start tp:sched:sched_switch key arg1 by pid max 100 end tp:sched:sched_switch key arg2 full refuse inflight 16384" offcpu --by pid --max-keys 100 --idle --self
rcp "lockwait --by comm: among the start's options" "trace lockwait start tp:lock:contention_begin key task match arg0 tid 7 by comm end tp:lock:contention_end key task match arg0 tid 7 nest outer" lockwait --tid 7 --by comm
rcp "offcpu --pid: the task switched out" \
	"trace offcpu start tp:sched:sched_switch key arg1 pid 5 end tp:sched:sched_switch key arg2 full refuse inflight 16384" offcpu --pid 5 --idle --self
rcp "offcpu --min --max (us): over and under (ns)" \
	"trace offcpu start tp:sched:sched_switch key arg1 end tp:sched:sched_switch key arg2 full refuse inflight 16384 over 1000 under 2500000" offcpu --idle --min 1 --max 2500 --self
rcp "offcpu --by stack: off-CPU time by kernel stack" \
	"trace offcpu start tp:sched:sched_switch key arg1 by stack end tp:sched:sched_switch key arg2 full refuse inflight 16384" offcpu --by stack --idle --self
rcp "offcpu --by stack:16 --cgroup: the task switched out" \
	"trace offcpu start tp:sched:sched_switch key arg1 cgroup /a/b by stack 16 end tp:sched:sched_switch key arg2 full refuse inflight 16384" offcpu --by stack:16 --idle --cgroup /a/b --self
rcp "lockwait --by caller: by stack 16, named by caller" \
	"trace lockwait start tp:lock:contention_begin key task match arg0 by stack 16 end tp:lock:contention_end key task match arg0 nest outer" lockwait --by caller
rcp "lockwait --by stack --cgroup: at both points" \
	"trace lockwait start tp:lock:contention_begin key task match arg0 cgroup /x by stack end tp:lock:contention_end key task match arg0 cgroup /x nest outer" lockwait --by stack --cgroup /x
rcp "biolatency --cgroup --by cgroup: the issuer, at the issue" \
	"trace biolatency start tp:block:block_rq_issue key arg0 cgroup /db by cgroup end tp:block:block_rq_complete key arg0" biolatency --cgroup /db --by cgroup
rcp "lockwait --max 0.5: under 500 ns" \
	"trace lockwait start tp:lock:contention_begin key task match arg0 end tp:lock:contention_end key task match arg0 nest outer under 500" lockwait --max 0.5
if [ -r /sys/kernel/btf/vmlinux ]; then
	rcp_re "offcpu: the idle task left out (prev->pid != 0, from BTF)" \
		'^trace offcpu start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:s4 != 0 end tp:sched:sched_switch key arg2 full refuse inflight 16384$' offcpu --self
	rcp_re "biolatency -Q: from the insertion, else the issue of a queue without elevator" \
		'^trace biolatency start tp:block:block_rq_insert key arg0 start tp:block:block_rq_issue key arg0 if arg0(\+[0-9]+:8)+ == 0 end tp:block:block_rq_complete key arg0$' biolatency -Q
	rcp_re "biolatency -Q --disk --comm: each at both starts" \
		'^trace biolatency start tp:block:block_rq_insert key arg0 comm dd by (arg0[^ ]+) start tp:block:block_rq_issue key arg0 comm dd if arg0(\+[0-9]+:8)+ == 0 by \1 end tp:block:block_rq_complete key arg0$' biolatency --queued --disk --comm dd
fi
: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/offcpu"
KSTATS_BTF=$T/nobtf rc 0 "offcpu without BTF" $K --root "$T/tr" offcpu -d 0.01 -v --self
[ "$(head -n 1 "$T/tr/_control")" = "trace offcpu start tp:sched:sched_switch key arg1 end tp:sched:sched_switch key arg2 full refuse inflight 16384" ] &&
	grep -q "the idle task is counted too" "$T/err" && ok "offcpu without BTF: the idle task too, saying so" || bad "offcpu without BTF" "$(cat "$T/tr/_control" "$T/err")"
# rcp_refused NAME MESSAGE ARGS...: exit 2, MESSAGE on stderr, nothing written
rcp_refused() {
	local n=$1 want=$2; shift 2
	: > "$T/tr/_control"
	rc 2 "$n" $K --root "$T/tr" "$@" -d 0.01
	if grep -q -- "$want" "$T/err" && [ ! -s "$T/tr/_control" ]; then ok "$n: refused, nothing written"
	else bad "$n" "$(cat "$T/err"); _control: $(cat "$T/tr/_control")"; fi
}
rcp_refused "runqlat -Q" "'-Q' is not an option of 'runqlat' (it is of: biolatency)" runqlat -Q
rcp_refused "runqlat --idle" "'--idle' is not an option of 'runqlat' (it is of: offcpu)" runqlat --idle
rcp_refused "offcpu --min above --max" "--min is above --max" offcpu --idle --min 10 --max 5
rcp_refused "offcpu --min -1" "--min and --max take microseconds" offcpu --min -1
rcp_refused "softirq --pid" "softirq --pid: a softirq belongs to no task" softirq --pid 1
rcp_refused "softirq --cgroup" "softirq --cgroup: a softirq belongs to no task" softirq --cgroup /a
rcp_refused "runqlat --by cgroup: the waker's" "runqlat --by cgroup: the task current at the wakeup is the waker" runqlat --by cgroup
rcp_refused "syscall --by caller: a section" "syscall --by caller: the caller is a function's" syscall --by caller
rc 2 "--cgroup needs a path from the cgroup2 root" $K --root "$T/tr" lockwait --cgroup a/b -d 0.01
has "--cgroup takes a path under the cgroup2 mount" err && ok "--cgroup a/b: refused, saying why" || bad "--cgroup a/b" "$(cat "$T/err")"
rcp_refused "hardirq --comm" "hardirq --comm: a hardirq belongs to no task" hardirq --comm sh
rcp_refused "runqlat --comm" "runqlat --comm: the woken task is current at neither point.*use --pid or --tid" runqlat --comm sh
rcp_refused "runqlat --by cpu: the waker's CPU at the start" "runqlat --by cpu: a family's key is taken at the start, and the cpu there is not the CPU the task was switched in on" runqlat --by cpu
rcp_refused "softirq --by pid: no task" "softirq --by pid: a softirq belongs to no task" softirq --by pid
rcp_refused "syscall: unknown NAME" "syscall 'nosuch': no such system call" syscall nosuch
rcp_refused "syscall: two NAMEs" "syscall takes at most one system call NAME" syscall read write
rcp_refused "runqlat: an argument" "runqlat takes no argument" runqlat x
rcp "syscall: a long line under 512 characters" "trace syscall_rt_tgsigqueueinfo start tp:raw_syscalls:sys_enter key task pid 2147483647 tid 2147483647 comm 0123456789abcde cpu 65535 if arg1 == 297 end tp:raw_syscalls:sys_exit key task pid 2147483647 tid 2147483647 comm 0123456789abcde if arg0+120:8 == 297 inflight 16384" \
	syscall rt_tgsigqueueinfo --pid 2147483647 --tid 2147483647 --comm 0123456789abcde --cpu 65535
if [ -r /sys/kernel/btf/vmlinux ]; then
	rcp_refused "runqlat: a line over 512 characters" "the kernel's line would be 5[0-9][0-9] characters, _control takes 512" \
		runqlat --pid 2147483647 --tid 2147483647 --cpu 65535 --pids --max-keys 65536 -b 5
fi
rcp_refused "recipes: no --value" "'--value' is not an option of 'biolatency' (it is of: trace)" biolatency --value count
rcp_refused "biolatency --pids" "'--pids' is not an option of 'biolatency' (it is of: runqlat)" biolatency --pids
rcp_refused "runqlat --disk" "'-D' is not an option of 'runqlat' (it is of: biolatency)" runqlat -D
rcp_refused "runqlat --pids --tids" "one key a family" runqlat --pids --tids
rcp_refused "runqlat --max-keys without a family" "--max-keys goes with a family" runqlat --max-keys 4
rcp_refused "--max-keys 0" "--max-keys takes a count from 1 to 65536" hardirq --max-keys 0
KSTATS_BTF=$T/nobtf rcp_refused "runqlat --pid without BTF" "runqlat --pid needs p->tgid of tp:sched:sched_wakeup" runqlat --pid 1
: > "$T/tr/_control"; cp $F/basic.txt "$T/tr/runqlat"
$K --root "$T/tr" runqlat > "$T/out" 2>&1 & pid=$!
sleep 0.3; kill -TERM $pid; wait $pid; r=$?
[ $r = 0 ] && [ "$(tail -1 "$T/tr/_control")" = "remove runqlat" ] && has '^# summary samples' && ok "recipe: SIGTERM prints and removes the node" || bad "recipe SIGTERM" "rc $r: $(cat "$T/tr/_control")"
: > "$T/tr/_control"
$K --root "$T/tr" runqlat -d 0.5 2>/dev/null | head -c 1 > /dev/null; r=$?
sleep 0.6
[ "$(tail -1 "$T/tr/_control")" = "remove runqlat" ] && ok "recipe: the node removed when the reader went away" || bad "recipe SIGPIPE" "$(cat "$T/tr/_control")"
if [ -r /sys/kernel/btf/vmlinux ]; then
	: > "$T/tr/_control"
	rc 0 "runqlat --pid with this machine's BTF" $K --root "$T/tr" runqlat --pid 42 -d 0.01 -v
	grep -qE '^trace runqlat start tp:sched:sched_wakeup key arg0 if arg0\+([0-9]+):s4 == 42 start tp:sched:sched_wakeup_new key arg0 if arg0\+\1:s4 == 42 start tp:sched:sched_switch key arg1 if arg1\+\1:s4 == 42 if arg1\+[0-9]+:4 == 0 if arg1\+[0-9]+:s4 != 0 end tp:sched:sched_switch key arg2 if arg2\+\1:s4 == 42$' "$T/tr/_control" &&
		ok "runqlat --pid: an 'if' on the woken task's tgid at each start (p, p, prev) and at the end (next)" || bad "runqlat --pid" "$(cat "$T/tr/_control")"
	# a histogram per woken process or thread (libbpf-tools -P/--pids,
	# -L/--tids; --pid without a number as --pids), the key at the wakeup
	for a in "--pids" "-P" "--pid" "--pid -b 2" "--tids" "-L"; do
		: > "$T/tr/_control"
		rc 0 "runqlat $a with this machine's BTF" $K --root "$T/tr" runqlat $a -d 0.01 -v --self
		case $a in *tid*|-L) f=pid ;; *) f=tgid ;; esac
		off=$(grep -oE 'by arg0\+[0-9]+:s4' "$T/tr/_control" | head -1)
		grep -qE '^trace runqlat start tp:sched:sched_wakeup key arg0 by arg0\+([0-9]+):s4 start tp:sched:sched_wakeup_new key arg0 by arg0\+\1:s4 start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:4 == 0 if arg1\+[0-9]+:s4 != 0 by arg1\+\1:s4 end tp:sched:sched_switch key arg2( bits 2)?$' "$T/tr/_control" &&
			ok "runqlat $a: by the woken task's $f ($off)" || bad "runqlat $a" "$(cat "$T/tr/_control")"
		eval "off_$f='$off'"
	done
	[ "$off_pid" != "$off_tgid" ] && [ -n "$off_pid" ] && ok "runqlat: --tids keys by pid, --pids by tgid ($off_pid, $off_tgid)" || bad "runqlat pid/tgid offsets" "$off_pid $off_tgid"
	# --by comm: the woken task's name, in place in its task_struct (an
	# offset with no size), at each start from that start's task
	: > "$T/tr/_control"
	rc 0 "runqlat --by comm with this machine's BTF" $K --root "$T/tr" runqlat --by comm -d 0.01 -v --self
	grep -qE '^trace runqlat start tp:sched:sched_wakeup key arg0 by str:arg0\+([0-9]+) start tp:sched:sched_wakeup_new key arg0 by str:arg0\+\1 start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:4 == 0 if arg1\+[0-9]+:s4 != 0 by str:arg1\+\1 end tp:sched:sched_switch key arg2$' "$T/tr/_control" &&
		ok "runqlat --by comm: by the woken task's name, p->comm at the wakeups, prev->comm at a preemption" || bad "runqlat --by comm" "$(cat "$T/tr/_control")"
	# --by pid and --by tid: the woken task's too, not the waker's
	for a in pid:tgid tid:pid; do
		: > "$T/tr/_control"
		rc 0 "runqlat --by ${a%:*} with this machine's BTF" $K --root "$T/tr" runqlat --by ${a%:*} -d 0.01 -v --self
		off=$(grep -oE 'by arg0\+[0-9]+:s4' "$T/tr/_control" | head -1)
		[ -n "$off" ] && [ "$off" = "$(eval echo \$off_${a#*:})" ] &&
			ok "runqlat --by ${a%:*}: by the woken task's ${a#*:} ($off)" || bad "runqlat --by ${a%:*}" "$(cat "$T/tr/_control")"
	done
	: > "$T/tr/_control"
	rc 0 "biolatency --disk with this machine's BTF" $K --root "$T/tr" biolatency --disk -d 0.01 -v
	grep -qE '^trace biolatency start tp:block:block_rq_issue key arg0 by arg0\+[0-9]+:8\+[0-9]+:8\+[0-9]+:8\+[0-9]+:4 end tp:block:block_rq_complete key arg0$' "$T/tr/_control" &&
		ok "biolatency --disk: by rq->q->disk->part0->bd_dev at the issue" || bad "biolatency --disk" "$(cat "$T/tr/_control")"
	: > "$T/tr/_control"
	rc 0 "biolatency -D --max-keys 8" $K --root "$T/tr" biolatency -D --max-keys 8 -d 0.01 -v
	grep -qE ' by arg0\+[0-9]+:8\+[0-9]+:8\+[0-9]+:8\+[0-9]+:4 max 8 end ' "$T/tr/_control" && ok "biolatency -D --max-keys 8" || bad "biolatency -D" "$(cat "$T/tr/_control")"
else
	skip "runqlat --pid with this machine's BTF" "/sys/kernel/btf/vmlinux not readable"
fi
KSTATS_BTF=$T/nobtf rcp_refused "runqlat --pids without BTF" "runqlat --pids needs p->tgid of tp:sched:sched_wakeup" runqlat --pids
KSTATS_BTF=$T/nobtf rcp_refused "runqlat --by comm without BTF" "runqlat --by comm needs p->comm of tp:sched:sched_wakeup" runqlat --by comm
KSTATS_BTF=$T/nobtf rcp_refused "biolatency --disk without BTF" "biolatency --disk needs rq->q->disk->part0->bd_dev of tp:block:block_rq_issue" biolatency --disk

echo "# census (fake root): its _control lines, a refusal part-way, stop, show"
mkdir -p "$T/cs"; : > "$T/cs/_control"
# without BTF, so that the lines do not depend on this machine's offsets;
# the page faults' user half needs BTF (its flags and FAULT_FLAG_USER)
# the system calls: on x86-64 their dispatch, x64_sys_call() by nr, one
# function; else (and where that is refused) the recipe's section
CENSUS_SYSCALL_RECIPE="trace census_syscall start tp:raw_syscalls:sys_enter key task by arg1 max 256 end tp:raw_syscalls:sys_exit key task inflight 16384"
case $(uname -m) in
x86_64) CENSUS_SYSCALL="trace x64_sys_call name census_syscall mech direct by arg1 max 256" ;;
*) CENSUS_SYSCALL=$CENSUS_SYSCALL_RECIPE ;;
esac
CENSUS_LINES="$CENSUS_SYSCALL
trace census_hardirq start tp:irq:irq_handler_entry key cpu by arg0 max 64 end tp:irq:irq_handler_exit key cpu
trace census_softirq start tp:irq:softirq_entry key cpu by arg0 max 16 end tp:irq:softirq_exit key cpu
trace census_runqlat start tp:sched:sched_wakeup key arg0 start tp:sched:sched_wakeup_new key arg0 end tp:sched:sched_switch key arg2
trace handle_mm_fault name census_pagefault
trace census_offcpu start tp:sched:sched_switch key arg1 by arg3 max 16 end tp:sched:sched_switch key arg2 full refuse inflight 16384"
KSTATS_BTF=$T/nobtf rc 0 "census start without BTF" $K --root "$T/cs" census start
[ "$(cat "$T/cs/_control")" = "$CENSUS_LINES" ] && has 'census: census_biolatency skipped (above)' err &&
	has 'census: census_pagefault_user: .*vmlinux: No such file or directory' err && has '^census: [0-9] nodes made census_syscall ' &&
	ok "census start: each family's line, bounded by max, named census_*; biolatency --disk and user page faults skipped without BTF, said" ||
	bad "census lines" "$(cat "$T/cs/_control" "$T/err")"
if [ -r /sys/kernel/btf/vmlinux ]; then
	: > "$T/cs/_control"
	rc 0 "census start with this machine's BTF" $K --root "$T/cs" census start -b 2
	grep -qE '^trace census_hardirq start tp:irq:irq_handler_entry key cpu by str:arg1\+[0-9]+:8 max 64 end tp:irq:irq_handler_exit key cpu bits 2$' "$T/cs/_control" &&
		grep -qE '^trace census_biolatency start tp:block:block_rq_issue key arg0 by arg0(\+[0-9]+:[0-9]+)+ max 32 end tp:block:block_rq_complete key arg0 bits 2$' "$T/cs/_control" &&
		grep -qE '^trace census_offcpu start tp:sched:sched_switch key arg1 if arg1\+[0-9]+:s4 != 0 by arg3 max 16 end .* bits 2$' "$T/cs/_control" &&
		grep -qE '^trace handle_mm_fault name census_pagefault_user if arg2:4 & [0-9]+ bits 2$' "$T/cs/_control" &&
		[ "$(grep -c ' bits 2$' "$T/cs/_control")" = "$(wc -l < "$T/cs/_control")" ] && ! grep -q "!= $$" "$T/cs/_control" &&
		ok "census start -b 2: hardirq by handler, biolatency by disk, offcpu by reason without the idle task, user faults by their flag; no pid of its own left out" ||
		bad "census BTF lines" "$(cat "$T/cs/_control")"
fi
: > "$T/cs/_control"; touch "$T/cs/census_syscall"
rc 2 "census start: a census exists" $K --root "$T/cs" census start
has "a census exists (census_syscall in $T/cs): kstats census stop first" err && [ ! -s "$T/cs/_control" ] &&
	ok "census start over a census: refused, nothing written" || bad "census exists" "$(cat "$T/err" "$T/cs/_control")"
# stop: the census's nodes, newest first; a user's nodes, census_-named or not, stay
touch "$T/cs/census_offcpu" "$T/cs/census_mine" "$T/cs/syscall"
rc 0 "census stop" $K --root "$T/cs" census stop
[ "$(cat "$T/cs/_control")" = "$(printf 'remove census_offcpu\nremove census_syscall')" ] && has '^census: removed census_offcpu census_syscall$' &&
	ok "census stop: exactly the census's nodes, not census_mine nor syscall" || bad "census stop" "$(cat "$T/cs/_control")"
rm -f "$T/cs"/census_* "$T/cs/syscall"
rc 2 "census stop without a census" $K --root "$T/cs" census stop
has "no census in $T/cs" err && ok "census stop without one: said" || bad "stop none" "$(cat "$T/err")"
rc 2 "census frob" $K --root "$T/cs" census frob
rc 2 "census stop -b" $K --root "$T/cs" census stop -b 2
# a refusal part-way: the kernel refuses the third line (strace injects
# ENOSPC into that write); the two made are removed, newest first
if command -v strace > /dev/null && strace -qq -o /dev/null true 2> /dev/null; then
	: > "$T/cs/_control"
	KSTATS_BTF=$T/nobtf rc 2 "census start refused part-way" strace -qq -o /dev/null -P "$T/cs/_control" -e trace=write \
		-e inject=write:error=ENOSPC:when=3 $K --root "$T/cs" census start
	[ "$(cat "$T/cs/_control")" = "$(printf '%s\n' "$CENSUS_LINES" | head -2; printf 'remove census_hardirq\nremove census_syscall')" ] &&
		has '^kstats: census: census_softirq refused: No space left on device$' err &&
		has '^kstats: census not started: census_softirq failed; removed what was made: census_hardirq census_syscall$' err &&
		ok "census start refused at its third line: which part, why, the two made removed" || bad "census part-way" "$(cat "$T/cs/_control" "$T/err")"
	# no x64_sys_call to trace (ENOENT): the recipe's section, said with -v
	if [ "$CENSUS_SYSCALL" != "$CENSUS_SYSCALL_RECIPE" ]; then
		: > "$T/cs/_control"
		KSTATS_BTF=$T/nobtf rc 0 "census start: no x64_sys_call" strace -qq -o /dev/null -P "$T/cs/_control" -e trace=write \
			-e inject=write:error=ENOENT:when=1 $K --root "$T/cs" census start -v
		[ "$(cat "$T/cs/_control")" = "$(printf '%s\n' "$CENSUS_LINES" | sed "1s/.*/$CENSUS_SYSCALL_RECIPE/")" ] &&
			has '^kstats: census: census_syscall: .*; the syscall recipe instead$' err && ! has 'census_syscall skipped' err &&
			ok "census start: x64_sys_call refused (ENOENT), the syscall recipe's section made instead, said with -v" ||
			bad "census syscall fallback" "$(cat "$T/cs/_control" "$T/err")"
	fi
	# a part the kernel has not (no such tracepoint): skipped, the rest made
	: > "$T/cs/_control"
	KSTATS_BTF=$T/nobtf rc 0 "census start: a part missing" strace -qq -o /dev/null -P "$T/cs/_control" -e trace=write \
		-e inject=write:error=ENOENT:when=5 $K --root "$T/cs" census start
	[ "$(grep -c '^trace ' "$T/cs/_control")" = "$(( $(printf '%s\n' "$CENSUS_LINES" | wc -l) - 1 ))" ] && ! grep -q '^remove' "$T/cs/_control" &&
		grep -qE '^kstats: census: census_pagefault skipped: No such file or directory$' "$T/err" &&
		ok "census start: a part the kernel has not is skipped, said; the rest made" || bad "census skip" "$(cat "$T/cs/_control" "$T/err")"
	: > "$T/cs/_control"
	KSTATS_BTF=$T/nobtf rc 2 "census start: nothing made" strace -qq -o /dev/null -P "$T/cs/_control" -e trace=write \
		-e inject=write:error=ENOENT $K --root "$T/cs" census start
	has 'census not started: none of its [0-9] parts could be made' err && ok "census start: nothing could be made, an error" || bad "census none" "$(cat "$T/err")"
else
	skip "census start refused part-way" "no strace (its write fault injection)"
fi
# show: every census node as one table, a family's keys named
mkdir -p "$T/cshow"; : > "$T/cshow/_control"
$G --name census_syscall --bits 3 --cpus 2 --by arg1 --key 0 -s 0,120,const,900 --key 110 -s 1,80,const,5000 > "$T/cshow/census_syscall"
$G --name census_runqlat --bits 3 --cpus 2 -s 0,10,const,2000 > "$T/cshow/census_runqlat"
cp $F/basic.txt "$T/cshow/mine"
rc 0 "census show" $K --root "$T/cshow" census show
[ "$(awk 'NR > 1 && $1 ~ /^census_/ {print $1, $2, $3}' "$T/out" | tr '\n' ' ')" = "census_runqlat - 10 census_syscall all 200 census_syscall read 120 census_syscall getppid 80 " ] &&
	has '^NODE  *KEY  *count  *min  *p50  *p90  *p99  *p99.9  *max  *mean$' && ! has example_write &&
	ok "census show: one table, a row a node and a key, the keys named; not a user's node" || bad "census show" "$(cat "$T/out")"
rm "$T/cshow"/census_*
rc 2 "census show without a census" $K --root "$T/cshow" census show

echo "# top --batch: saved sets (directories of nodes' files), -i apart"
# two reads of three nodes (values, exact slots): lat gains 100 of 14;
# syscall's read 100 of 9 and one of 4000, getppid is new (300 of 4),
# getpid and quiet gain nothing
v() { $G --clock none --value arg0 --bits 3 --cpus 2 "$@"; }
mkdir -p "$T/top/a" "$T/top/b" "$T/top/c"
v --name lat -s 0,100,const,10 > "$T/top/a/lat"
v --name quiet -s 1,5,const,7 > "$T/top/a/quiet"
v --name census_syscall --by arg1 --key 0 -s 0,50,const,5 --key 39 -s 1,10,const,3 > "$T/top/a/census_syscall"
v --name lat -s 0,100,const,10 -s 1,100,const,14 > "$T/top/b/lat"
cp "$T/top/a/quiet" "$T/top/b/quiet"
v --name census_syscall --by arg1 --key 0 -s 0,50,const,5 -s 0,100,const,9 -s 1,1,const,4000 --key 39 -s 1,10,const,3 \
	--key 110 -s 0,300,const,4 > "$T/top/b/census_syscall"
v --name lat -s 0,100,const,10 -s 1,100,const,14 -s 0,50,const,3 > "$T/top/c/lat"
cp "$T/top/b/quiet" "$T/top/b/census_syscall" "$T/top/c/"
# what each row must say, from the files' slot rows: the delta's samples
# over 2 s, the value of the slot where rank q * N falls (these slots are
# exact: lo = hi), max the highest slot's hi
py "
import re
def read(p):
    keys, k = {}, '-'
    for l in open(p):
        m = re.match(r'key (\S+) samples', l)
        if m: k = m.group(1)
        m = re.match(r'slot (\d+) CPUS \d+ count (\d+) avg \d+ p \S+ lo (\d+) hi (\d+)', l)
        if m: keys.setdefault(k, {})[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return keys
names = {'0': 'read', '39': 'getpid', '110': 'getppid'}
for n in ('lat', 'quiet', 'census_syscall'):
    a, b = read('$T/top/a/' + n), read('$T/top/b/' + n)
    for k in b:
        d = [(s, c - a.get(k, {}).get(s, (0,))[0], lo, hi) for s, (c, lo, hi) in sorted(b[k].items())]
        d = [x for x in d if x[1]]
        N = sum(x[1] for x in d)
        def q(f):
            cum = 0
            for s, c, lo, hi in d:
                cum += c
                if cum >= f * N:
                    assert lo == hi or f == 1, (n, k, lo, hi)
                    return hi
        row = [n, names.get(k, k) if n == 'census_syscall' else '-', '%.1f' % (N / 2)]
        row += [str(q(0.5)), str(q(0.99)), str(d[-1][3])] if N else ['-', '-', '-']
        print(' '.join(row))
" > "$T/want" 2> "$T/err" || bad "top: the expected rows" "$(cat "$T/err")"
top_rows() { awk '/^kstats top /{f++} f == '"${1:-1}"' && NF >= 6 && $1 != "NAME" && $1 != "kstats" {print $1, $2, $3, $4, $5, $6}' "$T/out"; }
LC_ALL=C rc 0 "top --batch of two saved sets" $K top --batch -i 2 "$T/top/a" "$T/top/b"
if [ "$(uname -m)" = x86_64 ]; then
	[ "$(top_rows | sort)" = "$(sort "$T/want")" ] && [ "$(grep -c '^kstats top ' "$T/out")" = 1 ] &&
		has '^kstats top frame 1, interval 2 s, sort p99, 5 rows$' &&
		ok "top --batch: a row a node and a key; samples/s, p50, p99, max of the delta, as the slots say" ||
		bad "top rows" "$(cat "$T/out"; echo want; cat "$T/want")"
else
	skip "top rows" "syscall numbers of x86_64"
fi
[ "$(top_rows | awk '{print $1 "/" $2}' | tr '\n' ' ')" = "lat/- census_syscall/read census_syscall/getppid census_syscall/getpid quiet/- " ] &&
	ok "top: by p99, largest first; rows without samples last, by name" || bad "top p99 order" "$(top_rows)"
LC_ALL=C rc 0 "top --sort rate" $K top --batch -i 2 --sort rate "$T/top/a" "$T/top/b"
[ "$(top_rows | awk '{print $2}' | head -3 | tr '\n' ' ')" = "getppid read - " ] && has 'sort rate' && ok "top --sort rate: getppid (150/s), read (50.5/s), lat (50/s)" || bad "top rate order" "$(top_rows)"
LC_ALL=C rc 0 "top --sort max" $K top --batch -i 2 --sort max "$T/top/a" "$T/top/b"
[ "$(top_rows | awk '{print $2}' | head -3 | tr '\n' ' ')" = "read - getppid " ] && ok "top --sort max: read (4095), lat (14), getppid (4)" || bad "top max order" "$(top_rows)"
rc 2 "top --sort bogus" $K top --batch --sort p50 "$T/top/a" "$T/top/b"
LC_ALL=C rc 0 "top: three sets, two frames" $K top --batch -i 2 "$T/top/a" "$T/top/b" "$T/top/c"
[ "$(grep -c '^kstats top frame ' "$T/out")" = 2 ] && [ "$(top_rows 2 | awk '$1 == "lat" {print $3, $4}')" = "25.0 3" ] &&
	[ "$(grep '^lat ' "$T/out" | tail -1 | sed 's/.*  //')" = "@-" ] &&
	ok "top: a frame a set after the first; the sparkline of lat's p99 (14, then 3: 2 of 7), ASCII in the C locale" || bad "top frames" "$(cat "$T/out")"
LC_ALL=C.UTF-8 rc 0 "top: UTF-8 sparkline" $K top --batch -i 2 "$T/top/a" "$T/top/b" "$T/top/c"
[ "$(grep '^lat ' "$T/out" | tail -1 | sed 's/.*  //')" = "$(printf '\xe2\x96\x88\xe2\x96\x83')" ] && ok "top: block characters in a UTF-8 locale" || bad "top utf8" "$(grep '^lat ' "$T/out")"
rc 0 "top -c 1" $K top --batch -c 1 "$T/top/a" "$T/top/b" "$T/top/c"
[ "$(grep -c '^kstats top ' "$T/out")" = 1 ] && ok "top --batch -c 1: one frame" || bad "top -c" "$(cat "$T/out")"
# keys without names (by comm): as the file has them, escaped
mkdir -p "$T/topk/a" "$T/topk/b"
$G --name vr --bits 3 --by comm --key kvalue -s 0,10,const,900 > "$T/topk/a/vr"
$G --name vr --bits 3 --by comm --key kvalue -s 0,10,const,900 --key 'my task\' -s 1,5,const,900 > "$T/topk/b/vr"
rc 0 "top: a family by comm" $K top --batch "$T/topk/a" "$T/topk/b"
[ "$(top_rows | awk '{print $1, $2, $3}' | tr '\n' ';')" = 'vr my\x20task\x5c 5.0;vr kvalue 0.0;' ] &&
	ok "top: keys as the file has them (escaped), a key new since the first read" || bad "top raw keys" "$(cat "$T/out")"
# offcpu by reason: a sleep and its freezable kind (0x2000) read apart
mkdir -p "$T/tops/a" "$T/tops/b"
v --name census_offcpu --by arg3 --key 1 -s 0,10,const,5 --key 8193 -s 0,10,const,5 > "$T/tops/a/census_offcpu"
v --name census_offcpu --by arg3 --key 1 -s 0,10,const,9 --key 8193 -s 0,10,const,6 --key 1026 -s 0,10,const,1 > "$T/tops/b/census_offcpu"
rc 0 "top: offcpu by reason" $K top --batch "$T/tops/a" "$T/tops/b"
[ "$(top_rows | awk '{print $2}' | sort | tr '\n' ' ')" = "I(idle) S(sleep) S(sleep,freezable) " ] &&
	ok "top: offcpu's reasons named, a freezable sleep apart from a plain one" || bad "top states" "$(cat "$T/out")"
rc 2 "top: one DIR" $K top --batch "$T/top/a"
rc 2 "top --census with DIRs" $K top --batch --census "$T/top/a" "$T/top/b"
rc 2 "top without a terminal, no --batch" $K top "$T/top/a" "$T/top/b" < /dev/null
has 'top needs a terminal: --batch' err && ok "top without a terminal: says --batch" || bad "top tty" "$(cat "$T/err")"
# live from a root: --census made first, removed on the way out, by -c
# or by SIGTERM: nothing left behind
mkdir -p "$T/tl"; : > "$T/tl/_control"; cp "$T/top/a/lat" "$T/tl/"
left() { awk '$1 == "trace" {n = $2; for (i = 3; i < NF; i++) if ($i == "name") n = $(i + 1); made[n] = 1} $1 == "remove" {delete made[$2]} END {for (n in made) printf "%s ", n}' "$T/tl/_control"; }
KSTATS_BTF=$T/nobtf rc 0 "top --census --batch -c 2" $K --root "$T/tl" top --census --batch -c 2 -i 0.05
[ "$(grep -c '^kstats top .*, census$' "$T/out")" = 2 ] && [ "$(grep -c '^trace census_\|^trace .* name census_' "$T/tl/_control")" -ge 6 ] &&
	[ -z "$(left)" ] && [ "$(tail -1 "$T/tl/_control")" = "remove census_syscall" ] &&
	ok "top --census -c 2: two frames, the census made first and removed at the end" || bad "top --census" "left: $(left); $(cat "$T/tl/_control")"
: > "$T/tl/_control"
KSTATS_BTF=$T/nobtf $K --root "$T/tl" top --census --batch -i 0.05 > "$T/out" 2> "$T/err" & pid=$!
sleep 0.3; kill -TERM $pid; wait $pid; r=$?
[ $r = 0 ] && [ -n "$(cat "$T/tl/_control")" ] && [ -z "$(left)" ] && has '^kstats top frame 1' &&
	ok "top --census: SIGTERM removes the census" || bad "top SIGTERM" "rc $r, left: $(left)"
: > "$T/tl/_control"
KSTATS_BTF=$T/nobtf $K --root "$T/tl" top --census --batch -i 0.05 2> /dev/null | head -c 1 > /dev/null
[ -n "$(cat "$T/tl/_control")" ] && [ -z "$(left)" ] && ok "top --census: the reader gone, the census removed" || bad "top SIGPIPE" "left: $(left)"

echo "# top in a terminal (tmux): s, /, f, q"
if command -v tmux > /dev/null; then
	TM="tmux -L kstats-test-$$"
	# f writes freeze to _control: this one refuses it with EINVAL (not
	# a number for oom_score_adj), and _errors says why, as the kernel's
	mkdir -p "$T/tt"; ln -s /proc/self/oom_score_adj "$T/tt/_control"
	printf '%s\n' "[    1.000000] _control: error: unknown command 'freeze': use new, remove or trace" '  Command: freeze' '  ^' > "$T/tt/_errors"
	# the pane's text once it shows @1 (its screen drawn), within 5 s
	pane() {
		for _ in $(seq 50); do
			$TM capture-pane -p -t top > "$T/pane" 2> /dev/null
			grep -q -- "$1" "$T/pane" && return 0
			sleep 0.1
		done
		return 1
	}
	prow() { grep -E '^(lat|census_syscall|quiet) ' "$T/pane" | awk '{print $2}' | tr '\n' ' '; }
	$TM new-session -d -s top -x 120 -y 40 "LC_ALL=C $K --root $T/tt top -i 0.2 $T/top/a $T/top/b; echo exit \$?; sleep 10"
	pane '^kstats top frame 1,' && [ "$(prow)" = "- read getppid getpid - " ] &&
		ok "top on a terminal: the frame, by p99" || bad "tmux p99" "$(cat "$T/pane")"
	$TM send-keys -t top s
	pane 'sort rate' && [ "$(prow)" = "getppid read - getpid - " ] && ok "top: s sorts by rate" || bad "tmux s" "$(cat "$T/pane")"
	$TM send-keys -t top / s y s Enter
	pane "filter 'sys'" && [ "$(prow)" = "getppid read getpid " ] && has '3 rows' pane && ok "top: / sys Enter keeps the rows named sys" || bad "tmux /" "$(cat "$T/pane")"
	$TM send-keys -t top / x Escape
	sleep 0.3; pane "filter 'sys'" && [ "$(prow)" = "getppid read getpid " ] && ok "top: Esc leaves the filter as it was" || bad "tmux Esc" "$(cat "$T/pane")"
	$TM send-keys -t top f
	pane '^freeze:' && has "^freeze: not supported by this kstats (no history): _control: unknown command 'freeze'" pane &&
		ok "top: f says what the kernel answered" || bad "tmux f" "$(cat "$T/pane")"
	$TM send-keys -t top q
	pane '^exit ' && has '^exit 0$' pane && ! has '^kstats top' pane && ok "top: q quits, the screen as it was" || bad "tmux q" "$(cat "$T/pane")"
	$TM kill-server 2> /dev/null
else
	skip "top in a terminal" "no tmux"
fi

echo "# families: show, --top, JSON, Prometheus, names of keys (synthetic family_*.txt)"
FC=$S/family_comm.txt
rc 0 "show a family" $K show $FC
[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@vr[kvalue]: @vr[my\x20task\x5c]: @vr[other]: ' ] && ok "show: @NAME[KEY]: per key, largest first, escaped" || bad "family headings" "$(grep '^@' "$T/out")"
has '^# family by comm max 2 keys 2 other 5 key_bytes 7936$' && grep -qE '^ +305 +12 ' "$T/out" && has '^family by comm: 2 keys (max 2), other 5 samples$' &&
	ok "show: the header, the total's summary, the family line" || bad "family header" "$(head -12 "$T/out")"
[ "$(grep -A1 -E '^ +count' "$T/out" | grep -cE '^ +(305|200|100|5) ')" = 4 ] && ok "show: each key's own count line" || bad "family counts" "$(cat "$T/out")"
sed 's/^key my\\x20task\\x5c /key \\x6fther /' $FC > "$T/fam_other.txt"
rc 0 "show a family with a task named other" $K show "$T/fam_other.txt"
[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@vr[kvalue]: @vr[\x6fther]: @vr[other]: ' ] && ok "show: a task named other (\\x6fther) is not the key other" || bad "task named other" "$(grep '^@' "$T/out")"
rc 0 "show --top 1" $K show $FC --top 1
[ "$(grep -c '^@' "$T/out")" = 1 ] && has '^(--top 1: 2 more keys, 105 samples, not shown)$' && ok "show --top 1: one key, the rest counted" || bad "--top" "$(tail -3 "$T/out")"
rc 2 "show --top 0" $K show $FC --top 0
rc 0 "show --json a family" $K show $FC --json
py "
import json; d = json.load(open('$T/out'))
assert d['family'] == {'by': 'comm', 'max': 2, 'keys': 2, 'other': 5, 'key_bytes': 7936}, d['family']
assert [k['key'] for k in d['keys']] == ['kvalue', 'my task\\\\', 'other'], [k['key'] for k in d['keys']]
assert [k['samples'] for k in d['keys']] == [200, 100, 5] and [k['other'] for k in d['keys']] == [False, False, True]
for k in d['keys']:
    assert sum(s['count'] for s in k['slots']) == k['samples'] == k['summary']['samples']
assert d['keys'][1]['summary']['min'] == 1024 and d['keys'][1]['summary']['max'] == 2047
assert d['samples'] == sum(k['samples'] for k in d['keys']) and d['per_cpu'] == []
" 2> "$T/err" && ok "show --json: family, keys unescaped, samples, summaries, slots" || bad "family json" "$(tail -1 "$T/err")"
$K show $FC --json --top 2 > "$T/j"
py "
import json; d = json.load(open('$T/j'))
assert len(d['keys']) == 2 and d['left_out'] == {'keys': 1, 'samples': 5}, d.get('left_out')" 2> "$T/err" && ok "show --json --top 2: left_out" || bad "json top" "$(tail -1 "$T/err")"
mkdir "$T/fexp"; cp $S/family_*.txt $F/basic.txt "$T/fexp/"
$K --root "$T/fexp" export > "$T/prom"
py "
import re
count, plain = {}, {}
for l in open('$T/prom'):
    m = re.match(r'(kstats_[a-z_]+)_count\{name=\"([^\"]+)\",clock=\"[a-z]+\"(?:,key=\"((?:[^\"\\\\]|\\\\.)*)\")?\} (\d+)$', l)
    if m and m.group(3) is not None:
        count[(m.group(2), m.group(3))] = int(m.group(4))
    elif m:
        plain[m.group(2)] = int(m.group(4))
assert count[('vr', 'kvalue')] == 200 and count[('vr', 'my task\\\\\\\\')] == 100 and count[('vr', 'other')] == 5, count
assert count[('softirq', '1')] == 500 and count[('syscall', '-1')] == 3, count
assert plain['vr'] == 305 and plain['softirq'] == 1000 and plain['example_write'] == 1234, plain
assert sum(v for (n, k), v in count.items() if n == 'syscall') == plain['syscall']
" 2> "$T/err" && ok "export: a series set per key (key label, escaped), _count = the key's samples, the total without key" || bad "family prom" "$(tail -2 "$T/err")"
grep -q '^kstats_value_bucket{name="vr",clock="none",key="my task\\\\",le="+Inf"} 100$' "$T/prom" && ok "export: key label escaped per Prometheus" || bad "prom escape" "$(grep 'my task' "$T/prom" | tail -1)"
if command -v promtool > /dev/null; then t "promtool check metrics (families)" sh -c "promtool check metrics < '$T/prom'"; fi
rc 0 "list: families" $K --root "$T/fexp" list
grep -qE '^family_comm.txt +vr .* family by comm keys 2$' "$T/out" && grep -qE '^family_softirq.txt +softirq .* family by (argument 0|vec_nr|[a-z_]+) keys 4$' "$T/out" && grep -qE '^basic.txt +example_write .*active *$' "$T/out" &&
	ok "list: family by BY keys K" || bad "list family" "$(cat "$T/out")"
# the recipes name their keys: a fake root holding the node they make
for n in softirq hardirq; do sed "1s/name softirq/name $n/" $S/family_softirq.txt > "$T/tr/$n"; done
cp $S/family_syscall.txt "$T/tr/syscall"
rc 0 "softirq: keys as vector names" $K --root "$T/tr" softirq -d 0.01
[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@softirq[TIMER]: @softirq[NET_RX]: @softirq[RCU]: @softirq[SCHED]: ' ] && ok "softirq: @softirq[TIMER]: ..., largest first" || bad "softirq names" "$(grep '^@' "$T/out")"
nr=$(printf '#include <sys/syscall.h>\nSYS_read SYS_clock_nanosleep\n' | cc -E -P - | tail -1)
rc 0 "syscall: keys as system call names" $K --root "$T/tr" syscall -d 0.01 --top 2
if [ "$nr" = "0 230" ]; then
	[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@syscall[read]: @syscall[clock_nanosleep]: ' ] && has '^(--top 2: 1 more keys, 3 samples, not shown)$' &&
		ok "syscall: @syscall[read]: @syscall[clock_nanosleep]:, --top 2" || bad "syscall names" "$(grep -E '^[@(]' "$T/out")"
else
	skip "syscall names" "not x86_64 numbers ($nr)"
fi
mkdir -p "$T/sys/proc" "$T/sys/sys/dev/block/8:16"
printf '           CPU0       CPU1\n  1:          9          0   IO-APIC   1-edge      i8042\n  3:  1  2  PCI-MSI 3-edge  virtio0-config, ahci[0000:00:1f.2]\nNMI:          0          0   Non-maskable interrupts\n' > "$T/sys/proc/interrupts"
printf 'MAJOR=8\nMINOR=16\nDEVNAME=sdb\nDEVTYPE=disk\n' > "$T/sys/sys/dev/block/8:16/uevent"
# without BTF, hardirq keys by IRQ and names them
KSTATS_BTF=$T/nobtf KSTATS_SYSFS=$T/sys rc 0 "hardirq without BTF: keys as IRQ names" $K --root "$T/tr" hardirq -d 0.01
[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@hardirq[i8042]: @hardirq[ahci[0000:00:1f.2]]: @hardirq[9]: @hardirq[7]: ' ] && ok "hardirq: the last column of /proc/interrupts, else the number" || bad "hardirq names" "$(grep '^@' "$T/out")"
$G --name biolatency --bits 3 --cpus 2 --by arg0+88:8+52:4 --key $(( (8 << 20) | 16 )) -s 0,10,const,100000 --key $(( (259 << 20) | 1 )) -s 1,5,const,200000 > "$T/tr/biolatency"
if [ -r /sys/kernel/btf/vmlinux ]; then
	KSTATS_SYSFS=$T/sys rc 0 "biolatency --disk: keys as disk names" $K --root "$T/tr" biolatency --disk -d 0.01
	[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@biolatency[sdb]: @biolatency[259:1]: ' ] && ok "biolatency --disk: DEVNAME, else MAJ:MIN" || bad "disk names" "$(grep '^@' "$T/out")"
fi
rc 0 "show of a family without the recipe: the numbers" $K show "$T/tr/softirq"
grep -q '^@softirq\[1\]:$' "$T/out" && ok "show: keys as the file has them" || bad "show raw keys" "$(grep '^@' "$T/out")"

# lockwait --by caller: the stacks named by their first frame outside the
# lock and scheduler text (a fake kallsyms), one caller's stacks merged
printf '%s\n' 'ffffffff81000000 T _stext' 'ffffffff81f00000 T __sched_text_start' \
	'ffffffff81f00010 T mutex_lock' 'ffffffff81f00100 t __mutex_lock.constprop.0' \
	'ffffffff81f00200 T schedule' 'ffffffff81f10000 T __sched_text_end' \
	'ffffffff81f10000 T __lock_text_start' 'ffffffff81f10010 T _raw_spin_lock' \
	'ffffffff81f20000 T __lock_text_end' 'ffffffffc0000000 t site_a	[kstats_lifetime]' > "$T/sys/proc/kallsyms"
$G --name lockwait --bits 3 --cpus 2 --by stack --frames 5 \
	--key 'lt_round+0x10;site_a+0x11;mutex_lock+0x1d;__mutex_lock.constprop.0+0x3a;schedule+0x4c' -s 0,3,const,20000000 \
	--key 'lt_round+0x20;site_a+0x11;mutex_lock+0x1d;__mutex_lock.constprop.0+0x3a' -s 1,1,const,20000000 \
	--key 'lt_round+0x30;site_b+0x21;_raw_spin_lock+0x5' -s 0,2,const,1000 > "$T/tr/lockwait"
KSTATS_SYSFS=$T/sys rc 0 "lockwait --by caller: keys as callers" $K --root "$T/tr" lockwait --by caller -d 0.01
[ "$(grep -E '^@|^family' "$T/out" | tr '\n' ' ')" = 'family by caller: 2 keys (max 64) @lockwait[site_a+0x11]: @lockwait[site_b+0x21]: ' ] &&
	grep -A1 -E '^ +count' "$T/out" | grep -qE '^ +4 ' && ok "lockwait --by caller: site_a's two stacks merged (4 waits), then site_b" ||
	bad "lock callers" "$(cat "$T/out")"
# a node over several functions, by func: its header, --sort, --top, list
rc 0 "show a family by func" $K show $S/family_func.txt
[ "$(grep '^@' "$T/out" | tr '\n' ' ')" = '@vfs_[vfs_read]: @vfs_[vfs_open]: @vfs_[vfs_write]: ' ] &&
	has '^# functions matched 5 traced 4 skipped 1 alias 1 fallback 1$' && has '^# fallback vfs_wide:fprobe:stack_args$' && has '^# skipped vfs_ni:alias$' &&
	ok "show: @vfs_[FUNC]: per function, by samples; the functions' lines" || bad "by func" "$(cat "$T/out")"
rc 0 "show --sort p99 --top 2" $K show $S/family_func.txt --sort p99 --top 2
[ "$(grep -E '^[@(]' "$T/out" | tr '\n' ' ')" = '@vfs_[vfs_write]: @vfs_[vfs_open]: (--top 2: 1 more keys, 10 samples, not shown) ' ] &&
	ok "show --sort p99 --top 2: the two slowest by p99" || bad "sort p99" "$(grep -E '^[@(]' "$T/out")"
rc 0 "show --sort total" $K show $S/family_func.txt --sort total --json
json_get "$T/out" "' '.join(k['key'] for k in d['keys'])" > "$T/keys" 2>&1
[ "$(cat "$T/keys")" = "vfs_write vfs_open vfs_read" ] && ok "show --sort total --json: keys by their total" || bad "sort total" "$(cat "$T/keys")"
rc 2 "show --sort bogus" $K show $S/family_func.txt --sort bogus
mkdir -p "$T/fn"; cp $S/family_func.txt "$T/fn/vfs_"
rc 0 "list: a node over several functions" $K --root "$T/fn" list
grep -qE '^vfs_ .* family by func keys 3 functions 5 traced 4 skipped 1$' "$T/out" &&
	ok "list: functions N traced T skipped S" || bad "list functions" "$(cat "$T/out")"
: > "$T/fn/_control"
rc 0 "trace 'vfs_*' --by func" $K --root "$T/fn" trace 'vfs_*' --by func -d 0.01 -v
[ "$(cat "$T/fn/_control")" = "$(printf '%s\n%s' 'trace vfs_* by func' 'remove vfs_')" ] &&
	has '^@vfs_\[vfs_read\]:$' && ok "trace a glob --by func: one node, named as the kernel names it, @NAME[FUNC]:" ||
	bad "trace glob" "$(cat "$T/fn/_control") / $(grep '^@' "$T/out")"
cp $S/family_func.txt "$T/fn/a.b"; : > "$T/fn/_control"
rc 0 "trace a list" $K --root "$T/fn" trace a,b -d 0.01 -v
[ "$(cat "$T/fn/_control")" = "$(printf '%s\n%s' 'trace a,b' 'remove a.b')" ] && ok "trace F1,F2: the node a.b" ||
	bad "trace list" "$(cat "$T/fn/_control")"
rc 2 "trace one function --by func: refused" $K --root "$T/fn" trace vfs_read --by func -d 0.01
has "by func is for several functions" err && ok "--by func on one function: says why" || bad "by func one" "$(cat "$T/err")"

# show of a family by stack: a frame a line; --folded; --json frames
rc 0 "show a family by stack" $K show $S/family_stack.txt
[ "$(grep -A4 '^@offcpu\[$' "$T/out" | head -5 | tr '\n' '|')" = '@offcpu[|    schedule+0x4c|    do_nanosleep+0x6e|    do_syscall_64+0x5b|]:|' ] &&
	ok "show: a stack key a frame a line, the innermost first" || bad "stack key" "$(cat "$T/out")"
rc 0 "show --folded" $K show $S/family_stack.txt --folded
[ "$(cat "$T/out")" = "$(printf '%s\n' 'do_syscall_64+0x5b;do_nanosleep+0x6e;schedule+0x4c 40000000' 'kthread+0xe4;worker_thread+0x11a;schedule+0x4c 30000000')" ] &&
	ok "show --folded: FRAMES VALUE per key, root first, the key's total, other left out" || bad "folded" "$(cat "$T/out")"
rc 0 "show --folded a family by caller" $K show $S/family_caller.txt --folded
[ "$(cat "$T/out")" = "$(printf '%s\n' 'lt_mutex_site_a+0x11 60000' 'lt_mutex_site_b+0x11 40000')" ] && ok "show --folded: a caller is one frame" || bad "folded caller" "$(cat "$T/out")"
rc 2 "show --folded of a node without a family" $K show $F/basic.txt --folded
rc 2 "show --folded --json" $K show $S/family_stack.txt --folded --json
rc 0 "show --json a family by stack" $K show $S/family_stack.txt --json
json_get "$T/out" "[k.get('frames') for k in d['keys']] == [['do_syscall_64+0x5b', 'do_nanosleep+0x6e', 'schedule+0x4c'], ['kthread+0xe4', 'worker_thread+0x11a', 'schedule+0x4c'], None] and d['family']['frames'] == 3" | grep -q True &&
	ok "show --json: frames as arrays, root first; the family's frames" || bad "json frames" "$(head -c 600 "$T/out")"

echo "# trace --by (fake root)"
KSTATS_BTF=$T/btf tc "trace --by count --max-keys" "trace vfs_read value arg3+0:8 by arg2 max 8" vfs_read --value '*pos' --by count --max-keys 8
KSTATS_BTF=$T/btf tc "trace --by comm after the filters" "trace vfs_read pid 3 if arg2 > 1 by comm" vfs_read --pid 3 --if 'count > 1' --by comm
KSTATS_BTF=$T/btf tc "trace --by a field path" "trace vfs_read by arg0+32:8+80:8" vfs_read --by 'file->f_inode->i_size'
KSTATS_BTF=$T/nobtf tc "trace --by cpu without BTF" "trace vfs_read by cpu" vfs_read --by cpu
KSTATS_BTF=$T/nobtf tc "trace --by caller --cgroup" "trace vfs_read cgroup /a by caller" vfs_read --by caller --cgroup /a
KSTATS_BTF=$T/nobtf tc "trace --by stack:4" "trace vfs_read by stack 4" vfs_read --by stack:4
KSTATS_BTF=$T/btf tr_refused "trace --by unknown parameter" "--by 'nope': vfs_read has no parameter 'nope' (its parameters: file, buf, count, pos)" vfs_read --by nope
rc 2 "trace --max-keys without --by" $K --root "$T/tr" trace vfs_read --max-keys 3 -d 0.01
rc 2 "trace --max-keys 65537" $K --root "$T/tr" trace vfs_read --by cpu --max-keys 65537 -d 0.01

echo "# compact histograms: empty rows folded, 40 rows at most, --rows N, --all-rows; the summary and outliers first"
rc 0 "show slow_io (default)" $K show $F/slow_io.txt
n=$(grep -c '^\[' "$T/out"); d=$($K show $F/slow_io.txt --all-rows | grep -c '^\[')
[ "$n" -le 40 ] && [ "$d" -gt 40 ] && has 'merged per row to fit 40 rows' && ok "show: $n rows by default (--all-rows: $d)" || bad "compact" "$n / $d rows"
rc 0 "show basic (default)" $K show $F/basic.txt
n=$(grep -c '^\[' "$T/out"); d=$($K show $F/basic.txt --all-rows | grep -c '^\[')
grep -qE '^\[1.664us, 8.192us\) +0 \| +\| 19 empty rows$' "$T/out" && [ "$n" -lt "$d" ] &&
	ok "show: runs of empty rows folded, a line each ($n rows, --all-rows $d)" || bad "folded" "$(cat "$T/out")"
$K show $F/slow_io.txt --all-rows > "$T/out"
! has 'empty rows' && ! has 'merged' && [ "$(grep -c '^\[.*  *0 |' "$T/out")" -gt 0 ] && ok "show --all-rows: every slot, empty ones as rows" || bad "--all-rows" "$(head -20 "$T/out")"
rc 0 "show --rows 8" $K show $F/slow_io.txt --rows 8
[ "$(grep -c '^\[' "$T/out")" -le 8 ] && has 'merged per row to fit 8 rows' && ok "show --rows 8: at most 8 rows" || bad "--rows 8" "$(cat "$T/out")"
printf '%s\n' '# name w clock ktime unit ns frac_bits 3 state active cpus 2 samples 3 missed 0' \
	'# source mechanism fprobe target kstats_lifetime_work maxactive 0 floor_p50 0' \
	'# summary samples 3 min 20971520 p50 23068671 p90 23068671 p99 23068671 p99.9 23068671 max 23068671 mean 21000000' \
	'slot 178 CPU 0 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671' \
	'slot 178 CPUS 2 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671' \
	'# outliers slow 10000000 keep 256 kept 1 dropped 0 stack 2' \
	'outlier 21000000 time 100 cpu 0 pid 7 tid 8 comm kload stack do_syscall_64+0x87;lt_slow_caller+0xf' > "$T/outl.txt"
rc 0 "show a node with outliers" $K show "$T/outl.txt"
[ "$(grep -nE '^ +count|^outliers:|^@w ' "$T/out" | cut -d: -f2 | tr -d ' ' | cut -c1-5 | tr '\n' ' ')" = 'count outli @w(ns ' ] &&
	ok "show: the summary, then the outliers, then the bars" || bad "show order" "$(cat "$T/out")"
sed -e 's/^# outliers slow .*/# outliers slow 10000000 keep 256 kept 2 dropped 0 stack 2/' \
	-e 's/ comm kload stack / comm kload why oncpu 12000000 runq 8000000 blocked 0 irq 1000000 vcsw 0 ivcsw 2 preempted-by sh:524 stack /' "$T/outl.txt" > "$T/why.txt"
echo 'outlier 50000000 time 200 cpu 1 pid 9 tid 9 comm usleep why oncpu 100000 runq 100000 blocked 49800000 irq 0 vcsw 1 ivcsw 0 blocked-in hrtimer_nanosleep' >> "$T/why.txt"
sed -i '2a # why oncpu 12100000 runq 8100000 blocked 49800000 irq 1000000 calls 3 unsplit 1' "$T/why.txt"
rc 0 "show a node with why" $K show "$T/why.txt"
has '^        why: oncpu 57.1% runq 38.1% blocked 0.0% irq 4.8% (vcsw 0 ivcsw 2) preempted-by sh:524$' &&
	has '^        why: oncpu 0.2% runq 0.2% blocked 99.6% irq 0.0% (vcsw 1 ivcsw 0) blocked-in hrtimer_nanosleep$' &&
	ok "show: each outlier's split, in shares, who preempted it, where it slept" || bad "why" "$(cat "$T/out")"
has '^why: oncpu 17.0% runq 11.4% blocked 70.1% irq 1.4% of 3 calls (1 not split)$' &&
	ok "show: the node's split, in shares, under the summary" || bad "why sums" "$(grep '^why' "$T/out")"
$K show "$T/why.txt" --json > "$T/j"
[ "$(json_get "$T/j" "d['outliers'][0]['why'] == {'oncpu': 12000000, 'runq': 8000000, 'blocked': 0, 'irq': 1000000, 'vcsw': 0, 'ivcsw': 2, 'preempted_by': 'sh:524', 'blocked_in': None} and d['outliers'][1]['why']['blocked_in'] == 'hrtimer_nanosleep' and d['why'] == {'oncpu': 12100000, 'runq': 8100000, 'blocked': 49800000, 'irq': 1000000, 'calls': 3, 'unsplit': 1} and 'why' not in d['outliers'][0]['stack']")" = True ] &&
	ok "show --json: each outlier's why" || bad "why json" "$(cat "$T/j")"
sed 's/ why oncpu 12000000 runq/ why oncpu x runq/' "$T/why.txt" > "$T/whybad.txt"
rc 2 "show: a why part that is not a number, refused" $K show "$T/whybad.txt"
for c in "trace vfs_read" "runqlat" "softirq" "offcpu"; do
	$K help ${c%% *} | grep -q -- '--rows N' && $K help ${c%% *} | grep -q -- '--all-rows' || bad "$c --rows" "no --rows or --all-rows"
done; ok "trace and the recipes take --rows N and --all-rows"

echo "# exact min and max, the filter cgroup PATH (synthetic exact_reads.txt, family_cgroup.txt)"
rc 0 "show exact_reads" $K show $S/exact_reads.txt
grep -qE '^ +340 +3000 +[0-9]+ +4096 +4096 +4096 +4096 +3967$' "$T/out" && ! grep -qE '^ +340 .*4607' "$T/out" &&
	ok "show: 4096-byte reads: max 4096, not the slot's 4607" || bad "exact max" "$(grep -E '^ +340 ' "$T/out")"
has '^# filter comm dd cgroup /system.slice/x\\x20y.service$' && ok "show: the filter cgroup PATH, as the kernel prints it" || bad "cgroup filter" "$(grep '^# filter' "$T/out")"
$K show $S/exact_reads.txt --json > "$T/j"
[ "$(json_get "$T/j" "d['summary']['max'] == 4096 and d['summary']['min'] == 3000 and d['filter'] == 'comm dd cgroup /system.slice/x' + chr(92) + 'x20y.service'")" = True ] &&
	ok "show --json: max 4096, min 3000, the cgroup filter" || bad "exact json" "$(json_get "$T/j" "d['summary'], d['filter']")"
rc 0 "show a family by cgroup" $K show $S/family_cgroup.txt
has '^@cg\[/system.slice/db.service\]:$' && has '^@cg\[id:4242\]:$' && ok "show: cgroup keys, a removed one as id:N" || bad "cgroup keys" "$(grep '^@' "$T/out")"
grep -A2 '^@cg\[/system.slice/db.service\]:$' "$T/out" | grep -qE '^ +30 +4.608us .* +5us +5us$' &&
	ok "show: a key's max kept within the node's exact one (5us, not its slot's 5.119us)" || bad "key max" "$(grep -A2 '^@cg' "$T/out")"

echo "# values named, in the human output (the test BTF)"
KSTATS_BTF=$T/btf rc 0 "show value_filters with the test BTF" $K show $S/value_filters.txt
has '^# value count$' && has '^# filter pid 123 tid 124 comm dd cpu 0 if count > 100 if \*pos & 4095 if file->f_inode->i_size >= -1 if argument 1 (u32) != 0x10$' &&
	ok "show: # value and # filter name each value (count, *pos, file->f_inode->i_size), or say what it is" || bad "names" "$(grep -E '^# (value|filter)' "$T/out")"
KSTATS_BTF=$T/nobtf rc 0 "show value_filters without BTF" $K show $S/value_filters.txt
has '^# value argument 2$' && has 'if the u64 at +80 from the pointer at +32 from argument 0 >= -1' &&
	ok "show without BTF: each value said in words" || bad "words" "$(grep -E '^# (value|filter)' "$T/out")"
KSTATS_BTF=$T/nobtf rc 0 "show family_softirq without BTF" $K show $S/family_softirq.txt
has '^family by argument 0: 4 keys' && ! grep -q 'arg0' "$T/out" && ok "show: no kernel term in the human output (family by argument 0)" || bad "family words" "$(grep -E 'family|arg0' "$T/out")"
$K show $S/family_softirq.txt --json | grep -q '"by": "arg0"' && ok "show --json: the kernel's terms kept" || bad "json raw"

echo "# -- COMMAND, --follow, --self (fake root)"
: > "$T/tr/_control"
t0=$(date +%s%N)
rc 0 "trace -- COMMAND" $K --root "$T/tr" trace vfs_read -v -- sleep 0.3
t1=$(date +%s%N)
p=$(sed -n 's/^trace vfs_read pid \([0-9]*\)$/\1/p' "$T/tr/_control")
[ -n "$p" ] && has "^Tracing vfs_read, only sleep (pid $p)\.$" && [ "$(tail -1 "$T/tr/_control")" = "remove vfs_read" ] &&
	[ $(( (t1 - t0) / 1000000 )) -ge 300 ] && [ $(( (t1 - t0) / 1000000 )) -lt 2000 ] &&
	ok "trace -- sleep 0.3: the node of its pid ($p), ended when it exited ($(( (t1 - t0) / 1000000 )) ms)" ||
	bad "-- COMMAND" "$(cat "$T/tr/_control") / $(head -3 "$T/out") $(( (t1 - t0) / 1000000 )) ms"
: > "$T/tr/_control"
rc 0 "recipe -- COMMAND" $K --root "$T/tr" syscall -v -- true
grep -qE '^trace syscall start tp:raw_syscalls:sys_enter key task pid [0-9]+ by arg1 end tp:raw_syscalls:sys_exit key task pid [0-9]+ inflight 16384$' "$T/tr/_control" &&
	ok "syscall -- true: the calling process at both points" || bad "syscall -- true" "$(cat "$T/tr/_control")"
: > "$T/tr/_control"; cp $S/family_softirq.txt "$T/tr/softirq"
rc 0 "softirq -- COMMAND: all of them, while it runs" $K --root "$T/tr" softirq -- true
grep -q "^kstats: softirq: every task's while true runs: a softirq belongs to no task" "$T/err" && ! grep -q pid "$T/tr/_control" &&
	ok "softirq -- true: no filter, saying why" || bad "softirq --" "$(cat "$T/err" "$T/tr/_control")"
: > "$T/tr/_control"
rc 2 "-- a COMMAND that is not" $K --root "$T/tr" trace vfs_read -- /nonexistent/x
has "^kstats: '/nonexistent/x': no such program" err && [ ! -s "$T/tr/_control" ] && ok "-- a missing program: said, nothing written" || bad "missing program" "$(cat "$T/err")"
rc 2 "--follow without COMMAND" $K --root "$T/tr" trace vfs_read --follow -d 0.01
has 'give -- COMMAND' err && ok "--follow without -- COMMAND: refused" || bad "--follow alone" "$(cat "$T/err")"
rc 2 "-- COMMAND --pid" $K --root "$T/tr" trace vfs_read --pid 1 -- true
has 'no --pid nor --tid' err && ok "-- COMMAND with --pid: refused" || bad "COMMAND --pid" "$(cat "$T/err")"
rc 2 "--follow --cgroup" $K --root "$T/tr" trace vfs_read --follow --cgroup /a -- true
has 'no --cgroup with it' err && ok "--follow with --cgroup: refused" || bad "--follow --cgroup" "$(cat "$T/err")"
rc 2 "runqlat --follow" $K --root "$T/tr" runqlat --follow -- true
has 'runqlat --follow: a cgroup filter tests the task current at each point' err && [ "$(grep -c '^trace' "$T/tr/_control")" = 0 ] &&
	ok "runqlat --follow: refused, why (the waker's cgroup)" || bad "runqlat --follow" "$(cat "$T/err")"
: > "$T/tr/_control"
rc 0 "--self: the waits as any task's" $K --root "$T/tr" trace vfs_read --self -d 0.05
[ "$(head -1 "$T/tr/_control")" = "trace vfs_read" ] && ok "trace --self: the node, no other filter" || bad "--self" "$(cat "$T/tr/_control")"
: > "$T/tr/_control"
# -i: a snapshot an interval, each waited for unseen
rc 0 "trace -i -d: intervals" $K --root "$T/tr" trace vfs_read -i 0.05 -d 0.2
[ "$(grep -c ' samples$' "$T/out")" = 4 ] && ok "trace -i 0.05 -d 0.2: 4 intervals" || bad "-i intervals" "$(grep samples "$T/out")"

echo "# refusals: the kernel's reason, from _errors (fake root: _control refuses everything)"
mkdir -p "$T/rf"; ln -s /dev/full "$T/rf/_control"
printf '%s\n' '[   12.000001] _control: error: unknown option '"'"'colour'"'"'' '  Command: new foo colour red' '                 ^' \
	'[   57.902114] vfs_raed: error: no symbol '"'"'vfs_raed'"'"'' '  Command: trace vfs_raed' '                 ^' > "$T/rf/_errors"
rc 2 "a refused trace" $K --root "$T/rf" trace vfs_raed -d 0.01
[ "$(grep -v '^kstats: attaching' "$T/err")" = "$(printf '%s\n' "kstats: vfs_raed: no symbol 'vfs_raed' (No space left on device)" '  Command: trace vfs_raed' '                 ^')" ] &&
	ok "refused: the reason of _errors' entry for this command, its caret" || bad "refusal" "$(cat "$T/err")"
rc 2 "a refused trace, no entry" $K --root "$T/rf" trace vfs_read -d 0.01
has "'trace vfs_read' refused by $T/rf/_control: No space left on device (the kernel log says why: dmesg | tail)" err && ! has 'is the function traceable' err &&
	ok "refused, _errors has no entry: the errno, the kernel log" || bad "refusal without entry" "$(cat "$T/err")"

echo "# diff: one run a side that bounds nothing cannot be judged"
# 3 of 1us and one of 60us, against one of 70us: the mean's interval is
# [0, inf], which the run-to-run noise of one run a side cannot narrow
gen --seed 31 -s 0,3,const,1000 -s 0,1,const,60000 > "$T/ua.txt"; gen --seed 32 -s 0,3,const,1000 -s 0,1,const,70000 > "$T/ub.txt"
rc 2 "diff of 4 samples a side" $K diff "$T/ua.txt" "$T/ub.txt"
grep -qE '^mean .*\[0\.000, inf\] +cannot be judged: one run a side$' "$T/out" && has "^verdict: cannot be judged (threshold 5%, alpha 0.05): mean \[0.000, inf\] bound nothing: one run a side: give 3 runs a side or more" &&
	has 'kstats: diff cannot judge: one run a side: give 3 runs a side or more' err &&
	ok "diff: the mean's [0, inf] is not 'same': cannot be judged, exit 2, give runs" || bad "unjudged" "$(cat "$T/out" "$T/err")"

echo "# the kernel's grammar and the tool's: one list of filters and of keys"
if [ -f ../trace/kstats_point.c ] && [ -f ../control/kstats_cmd.c ] &&
   [ -f ../trace/kstats_by_key_list.h ]; then
	kf=$(sed -n '/^int kstats_filter_format/,/^}/p' ../trace/kstats_point.c | grep -oE '"(%s)?[a-z]+ ' | sed 's/"//; s/%s//; s/ $//' | grep -v '^if$' | tr '\n' ' ')
	kb=$(grep -oE '^KSTATS_BY_KEY\([A-Z]+, [A-Z]+, "[a-z]+"' ../trace/kstats_by_key_list.h |
		grep -oE '"[a-z]+"' | tr -d '"' | tr '\n' ' ')
	sed -n '/kstats_by_names\[KSTATS_BY_VALUE\] = {/,/^};/p' ../trace/kstats_point.c |
		grep -q '#include "kstats_by_key_list.h"' ||
		kb="kstats_by_names not from kstats_by_key_list.h"
	ki=$(grep -c 'kstats_parse_cond' ../control/kstats_cmd.c)
	tf=$(build/unit --grammar | sed -n 's/^filter //p'); tb=$(build/unit --grammar | sed -n 's/^by //p')
	kw=$(for w in $tf; do grep -q "strcasecmp(key, \"$w\")" ../control/kstats_cmd.c || printf '%s ' "$w"; done)
	what="the filters ($tf) of kstats_point.c and keys ($tb) of kstats_by_key_list.h"
	what="$what are the tool's, each filter a word kstats_cmd.c reads"
	[ "$kf" = "$tf " ] && [ "$kb" = "$tb " ] && [ "$ki" -ge 2 ] && [ -z "$kw" ] &&
		ok "grammar: $what" ||
		bad "grammar" "kernel filters '$kf' keys '$kb', tool '$tf' '$tb', not in kstats_cmd.c: '$kw'"
else skip "grammar" "no kernel sources (tools alone)"; fi

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
# and their refusals and resets: nothing leaks, no undefined behaviour
for args in "watch $F/series/snap3.txt $F/series/snap0.txt" "watch $F/series/snap3.txt $F/series/snap1.txt" \
	"watch $F/basic.txt $F/tsc.txt" "watch $T/b3.txt $T/b0.txt" "heatmap $T/b3.txt $T/b0.txt -o /dev/null" \
	"heatmap $F/series/snap3.txt $F/series/snap0.txt $F/series/snap6.txt -o /dev/null" "heatmap $F/basic.txt $F/tsc.txt -o /dev/null" \
	"diff $F/basic.txt $F/bits0.txt -- $F/basic.txt" "diff $F/steady_a.txt $F/big_a.txt -- $F/steady_b.txt $F/big_b.txt" \
	"export $F/range.txt -o $T/san.prom" "show $F/basic.txt" \
	"timeline $F/history_live.txt $F/history_frozen.txt" "timeline $F/history_malformed.txt" \
	"timeline -o /dev/null $F/history_live.txt $F/history_frozen.txt" "--root $T/hr timeline" \
	"--root $T/hr timeline -o /dev/null" "timeline $T/saved/_history/vfs_read -o /dev/null" \
	"--root $T/xr/periodic explain" "--root $T/xr/flat explain --json" "--root $T/xr/periodic explain nope" \
	"--root $T/xfz explain -d 1 rq" "--root $T/xl explain -d 0.01 --json rq"; do
	$SAN $args > /dev/null 2>> "$T/san"; r=$?
	[ $r -le 2 ] || echo "exit $r: $args" >> "$T/san"
done
cp $S/value_ret.txt "$T/tr/vfs_read"
for v in 'file->f_inode->i_size' '*pos' nope 'file->f_inode->i_flags' 'file->f_owner' 'file->f_next->f_next->f_next->f_next->f_flags'; do
	KSTATS_BTF=$T/btf $SAN --root "$T/tr" trace vfs_read --value "$v" --if 'count > 1' -i 0.01 -d 0.02 > /dev/null 2>> "$T/san"
	r=$?; [ $r -le 2 ] || echo "exit $r: trace --value $v" >> "$T/san"
done
KSTATS_BTF=$T/btf $SAN --root "$T/tr" trace kmod_fn --value 'file->f_flags' -d 0.01 > /dev/null 2>> "$T/san"
# top and the census: their rows, keys and frees
for args in "top --batch -i 2 $T/top/a $T/top/b $T/top/c" "top --batch --sort max $T/top/a $T/top/b"; do
	$SAN $args > /dev/null 2>> "$T/san"; r=$?
	[ $r -le 2 ] || echo "exit $r: $args" >> "$T/san"
done
: > "$T/tl/_control"
KSTATS_BTF=$T/nobtf $SAN --root "$T/tl" top --census --batch -c 2 -i 0.01 > /dev/null 2>> "$T/san" || echo "exit $?: top --census" >> "$T/san"
if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|^exit' "$T/san"; then bad "sanitizers" "$(grep -m3 -E 'runtime error|Sanitizer|^exit' "$T/san")"
else ok "sanitizers: no error on $(ls $F/*.txt $F/series/*.txt $S/*.txt $M/* | wc -l) inputs"; fi

echo "# fuzz (libFuzzer, ${FUZZ_SECONDS:-45} s, seeds: the captured fixtures, the synthetic ones and the malformed files made from them)"
mkdir -p build/corpus
if KSTATS_BTF=/nonexistent build/fuzz_snapshot -artifact_prefix=build/ -max_total_time="${FUZZ_SECONDS:-45}" -max_len=65536 -print_final_stats=0 \
	build/corpus $F $F/series $S $M > "$T/fuzz" 2>&1; then
	ok "fuzz: $(grep -o 'Done [0-9]* runs' "$T/fuzz" | tail -1), no crash"
else
	bad "fuzz" "$(grep -m5 -E 'ERROR|SUMMARY|crash-' "$T/fuzz")"
fi

echo "# man page and install"
if command -v groff > /dev/null; then
	w=$(groff -man -ww -z kstats.8 2>&1); [ -z "$w" ] && ok "man page: groff -ww clean" || bad "man page" "$w"
else skip "man page" "no groff"; fi
# Documentation/kstats-command.rst is kept in step with the man page: every
# subcommand of its SYNOPSIS and every long option it names is on that page.
doc=../Documentation/kstats-command.rst
if [ -f "$doc" ]; then
	missing=$( { sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' kstats.8 |
			grep -o '\\fB[a-z]*\\fR' | sed 's/\\f[BR]//g'
		sed 's/\\-/-/g' kstats.8 | grep -o -- '--[a-z][a-z-]*'; } | sort -u |
		while read -r w; do grep -qF -- "$w" "$doc" || printf '%s ' "$w"; done)
	[ -z "$missing" ] && ok "man page and Documentation/kstats-command.rst in step" ||
		bad "kstats-command.rst" "not on the page: $missing"
else skip "kstats-command.rst" "no Documentation/ (tools alone)"; fi
# The man page and the help text: every option of every subcommand's table
# (the one its parser reads) is on the page, as its long form or its short
sed 's/\\-/-/g; s/\\f[BIR]//g' kstats.8 > "$T/man"
missing=$(for c in list show trace runqlat biolatency syscall lockwait softirq hardirq offcpu census top watch heatmap timeline explain diff export help; do
	$K help --options $c | while read -r _ l s _; do
		grep -qF -- "$l" "$T/man" || { case $s in -?) grep -qE -- "(^|[^-[:alnum:]])$s([^[:alnum:]]|$)" "$T/man" ;; *) false ;; esac; } ||
			printf '%s %s; ' "$c" "$l"
	done
done)
[ -z "$missing" ] && ok "man page: every option of every subcommand's table" ||
	bad "man page lacks options" "$missing"
make -s install DESTDIR="$T/inst" PREFIX=/usr > /dev/null 2>&1
[ -x "$T/inst/usr/sbin/kstats" ] && [ -f "$T/inst/usr/share/man/man8/kstats.8" ] && ok "make install DESTDIR PREFIX" || bad "install"

echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ $FAIL = 0 ]
