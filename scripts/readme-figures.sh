#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's figures, from the last runs that made them, never typed:
# each is a block of README.md between
#   <!-- figures:NAME (scripts/readme-figures.sh) -->  and  <!-- /figures -->
# rewritten from its source:
#
#   cost     BENCHMARKS.md (the last `make bench`): the record path, what
#            `trace` adds to getppid(), the eBPF peers
#   check    build/check.log (`make check`'s output, kept by the Makefile)
#            and build/support.md: the test count and the time of the run
#   support  build/support.md: the kernels `make check` ran on
#   packages scripts/deps.sh: the setup's apt-get line, every package
#
#   scripts/readme-figures.sh [--check]
#
# A block whose source is missing is left as it is, with a message.
# --check: exit 1, printing the difference, if README.md is not what the
# sources give (without the "From make check on DATE" lines).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$KSTATS_ROOT"

README=README.md
BENCH=BENCHMARKS.md
SUPPORT=build/support.md
CHECKLOG=build/check.log

# cell LABEL COLUMN FILE: column COLUMN (1 = the label) of the first table
# row of FILE whose first cell is LABEL.
cell() {
	awk -F'|' -v l="$1" -v c="$2" '
		{ f = $2; gsub(/^ +| +$/, "", f) }
		f == l { v = $(c + 1); gsub(/^ +| +$/, "", v); print v; exit }' "$3"
}

# cell_after HEADING LABEL COLUMN FILE: as cell, in the part of FILE after
# its first line starting with HEADING.
cell_after() {
	awk -v h="$1" 'index($0, h) == 1 { p = 1 } p' "$4" > "$KSTATS_ROOT/build/.cell_after"
	cell "$2" "$3" "$KSTATS_ROOT/build/.cell_after"
}

# need VALUE WHAT: VALUE, or stop: the source changed its shape.
need() {
	[ -n "$1" ] || die "$BENCH: no $2 (did make bench change its tables?)"
	printf '%s' "$1"
}

fig_cost() {
	local rec bits fast spin atomic rev
	local direct fprobe kretprobe graph fl fl_x bt bt_x a64 a64_kp a64_bt

	[ -s "$BENCH" ] || return 1
	rev=$(sed -n 's/^Produced by .* at commit \([0-9a-f]*\) .*/\1/p' "$BENCH" | head -n1)
	rec=$(need "$(cell '**kstats_record()** hot (same slot)' 2 "$BENCH")" "kstats_record() row")
	bits=$(need "$(cell 'kstats_record_bits() (frac_bits a compile-time constant), hot' 2 "$BENCH")" "kstats_record_bits() row")
	fast=$(need "$(cell 'ktime_get_mono_fast_ns() (kstats clock ktime)' 2 "$BENCH")" "ktime row")
	spin=$(need "$(cell 'spinlock histogram (irqsave), hot' 2 "$BENCH")" "spinlock row")
	atomic=$(need "$(cell 'shared atomic64 array, hot' 2 "$BENCH")" "atomic64 row")
	direct=$(need "$(cell '**kstats `trace FUNC`** (default mechanism: direct)' 3 "$BENCH")" "trace FUNC row")
	fprobe=$(need "$(cell 'kstats `trace FUNC mech fprobe`' 3 "$BENCH")" "mech fprobe row")
	kretprobe=$(need "$(cell 'kstats `trace FUNC mech kretprobe`' 3 "$BENCH")" "mech kretprobe row")
	graph=$(need "$(cell 'ftrace function_graph, filtered to FUNC' 3 "$BENCH")" "function_graph row")
	fl=$(need "$(cell 'libbpf-tools funclatency' 4 "$BENCH")" "funclatency row")
	fl_x=$(cell 'libbpf-tools funclatency' 5 "$BENCH")
	bt=$(need "$(cell 'bpftrace kfunc/kretfunc hist' 4 "$BENCH")" "bpftrace row")
	bt_x=$(cell 'bpftrace kfunc/kretfunc hist' 5 "$BENCH")
	mkdir -p build
	a64=$(cell_after '## Debian 6.12' '**kstats `trace FUNC`** (default mechanism: direct)' 4 "$BENCH")
	a64_kp=$(cell_after '## Debian 6.12' 'kstats `trace FUNC mech kretprobe`' 4 "$BENCH")
	a64_bt=$(cell_after '### Peers on Debian 6.12 arm64' 'bpftrace kfunc/kretfunc hist' 4 "$BENCH")
	cat <<-EOT
	| per call, Debian 6.12 | instructions |
	|---|---:|
	| \`kstats_record()\` | ${rec%.0} |
	| \`kstats_record_bits()\` (\`frac_bits\` known at compile time) | ${bits%.0} |
	| for comparison: \`ktime_get_mono_fast_ns()\`, a spinlock-protected histogram, a shared atomic64 array (which does not scale) | ${fast%.0}, ${spin%.0}, ${atomic%.0} |
	| added to \`getppid()\` by \`kstats trace\` (direct trampoline) | $direct |
	| the same through fprobe / kretprobe (\`mech fprobe\`, \`mech kretprobe\`) | $fprobe / $kretprobe |
	| ftrace's function_graph on the same call | $graph |
	| libbpf-tools funclatency / bpftrace kfunc hist on the same call | $fl ($fl_x) / $bt ($bt_x) |
	| Debian 6.12 arm64: \`kstats trace\` (direct trampoline) / kretprobe / bpftrace kfunc hist | ${a64:-n/a} / ${a64_kp:-n/a} / ${a64_bt:-n/a} |

	From \`make bench\`${rev:+ at commit $rev} (QEMU \`-icount\`: instructions, not cycles).
	EOT
}

fig_check() {
	local sum total from

	[ -s "$CHECKLOG" ] || return 1
	sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$CHECKLOG" | tail -n1)
	total=$(sed -n 's/^== total: \([0-9]*\) s.*/\1/p' "$CHECKLOG" | tail -n1)
	if [ -z "$sum" ] || [ -z "$total" ]; then
		say "$CHECKLOG: no summary (an unfinished run?)"
		return 1
	fi
	from=
	[ -s "$SUPPORT" ] && from=$(sed -n 's/^From `make check` on \(.*\)\.$/, \1/p' "$SUPPORT")
	printf 'Last run%s: `%s` in %d minutes.\n' "$from" "$sum" \
		$(((total + 30) / 60))
}

fig_packages() {
	local list

	list=$(sed -n '/^pkgs=(/,/"\$@")$/p' scripts/deps.sh |
		sed 's/#.*//; s/^pkgs=(//; s/"\$@")//' | xargs)
	[ -n "$list" ] || return 1
	echo '```'
	echo "apt-get install --no-install-recommends $list" | fmt -w 72 | sed '$!s/$/ \\/; 2,$s/^/    /'
	echo '```'
}

fig_support() {
	[ -s "$SUPPORT" ] || return 1
	cat "$SUPPORT"
}

new=$(cat "$README")
for name in cost check packages support; do
	begin="<!-- figures:$name (scripts/readme-figures.sh) -->"
	grep -qF "$begin" <<< "$new" || die "$README has no $name block"
	if ! block=$(fig_$name); then
		# An empty block says where its figures will come from.
		next=$(grep -xF -A1 "$begin" <<< "$new" | tail -n1)
		if [ "$name" != check ] || [ "$next" != '<!-- /figures -->' ]; then
			say "$name: no source yet, the block stays as it is"
			continue
		fi
		block="No \`make check\` has run on this tree yet: its count and time go here (\`$CHECKLOG\`)."
	fi
	new=$(BLOCK=$block awk -v b="$begin" -v e='<!-- /figures -->' '
		$0 == b { print; print ENVIRON["BLOCK"]; skip = 1; next }
		skip && $0 == e { skip = 0 }
		!skip' <<< "$new")
done

if [ "${1:-}" = --check ]; then
	diff <(grep -v '^From `make check`' "$README") <(grep -v '^From `make check`' <<< "$new")
	exit
fi
printf '%s\n' "$new" > "$README"
say "$README: figures rewritten"
