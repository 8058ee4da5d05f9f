#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The figures of README.md and Documentation/testing.rst, from the last
# runs that made them, never typed: each is a block between
#   <!-- figures:NAME (scripts/readme-figures.sh) -->  and  <!-- /figures -->
# (in the .rst, each marker a comment: ".. " before it) rewritten from its
# source:
#
#   cost     BENCHMARKS.md (the last `make bench`): the record path, what
#            `trace` adds to getppid(), the eBPF peers
#   check    build/check.log (`make check`'s output, kept by the Makefile)
#            and build/support.md: the test count and the time of the run
#   support  build/support.md: the kernels `make check` ran on
#   packages scripts/deps.sh: the setup's apt-get line, every package
#   guests   build/check.log: each QEMU guest's time against its timeout
#            (testing.rst)
#
#   scripts/readme-figures.sh [--check]
#
# A block whose source is missing is left as it is, with a message.
# --check: exit 1, printing the difference, if a document is not what the
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
	local direct fprobe kretprobe graph fl fl_x bt bt_x a64 a64_kp a64_bt up up_bt

	[ -s "$BENCH" ] || return 1
	rev=$(sed -n 's/^Produced by .* at commit \([0-9a-f+]*\) .*/\1/p' "$BENCH" | head -n1)
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
	up=$(cell 'kstats `trace PATH:ub_target`' 2 "$BENCH")
	up_bt=$(cell 'bpftrace `uprobe:PATH:ub_target` / `uretprobe:` `hist()`' 2 "$BENCH")
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
	| a user program's function: \`kstats trace PATH:FUNC\` (uprobe) / bpftrace uprobe hist | ${up:-n/a} / ${up_bt:-n/a} |

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

# fig_guests: the "guest NAME: S s, timeout T s (..., CPU C s)" lines of
# the last run, as a table (RST): each guest's time, its CPU time (QEMU's:
# the time on a core of its own) and its headroom, the timeout over the
# time, in bold under 2: that guest needs a shorter suite or a longer
# timeout.
fig_guests() {
	local rows from stages

	[ -s "$CHECKLOG" ] || return 1
	rows=$(sed -n 's/^    guest \([^:]*\): \([0-9.]*\) s, timeout \([0-9]*\) s\(.*\)/\1 \2 \3 \4/p' "$CHECKLOG" |
		awk '{ c = "-"; for (i = 4; i < NF; i++) if ($i ~ /CPU$/) c = $(i + 1); print $1, $2, $3, c }')
	if [ -z "$rows" ] || ! grep -qE '^== total: [0-9]+ s' "$CHECKLOG"; then
		say "$CHECKLOG: no guest times (an unfinished run, or one from before they were printed?)"
		return 1
	fi
	from=
	[ -s "$SUPPORT" ] && from=$(sed -n 's/^From `make check` on \(.*\)\.$/ on \1/p' "$SUPPORT")
	stages=$(sed -n 's/^== stages: //p' "$CHECKLOG" | tail -n1)
	echo
	awk -v total="$(sed -n 's/^== total: \([0-9]*\) s.*/\1/p' "$CHECKLOG" | tail -n1)" \
	    -v from="$from" -v stages="${stages:-all}" '
	{
		name[NR] = $1; t[NR] = $2; to[NR] = $3; cpu[NR] = $4; sum += $2; csum += $4
		h = $3 / $2
		head[NR] = sprintf("%.1f", h)
		if (h < 2) { head[NR] = "**" head[NR] "**"; low++ }
		if (length($1) > w) w = length($1)
	}
	END {
		if (w < 5) w = 5
		rule = sprintf("%s  =======  ======  =======  ========", dashes(w))
		print rule
		printf "%-" w "s  %7s  %6s  %7s  %8s\n", "guest", "time, s", "CPU, s", "timeout", "headroom"
		print rule
		for (i = 1; i <= NR; i++)
			printf "%-" w "s  %7.1f  %6s  %7d  %8s\n", name[i], t[i], cpu[i], to[i], head[i]
		print rule
		printf "\nFrom ``make check``%s (stages: %s): %d guests, %d s of guest time\n", from, stages, NR, sum
		printf "and %d s of CPU in all, in a run of %d minutes; %d under twice their time.\n", csum, (total + 30) / 60, low
	}
	function dashes(n,   s) { s = ""; while (n-- > 0) s = s "="; return s }' <<< "$rows"
	echo
}

fig_support() {
	[ -s "$SUPPORT" ] || return 1
	cat "$SUPPORT"
}

# figures FILE NAME...: FILE with the blocks NAME... rewritten, on stdout
figures() {
	local file=$1 name begin next block new
	shift
	new=$(cat "$file")
	for name in "$@"; do
		begin="<!-- figures:$name (scripts/readme-figures.sh) -->"
		grep -qxF -e "$begin" -e ".. $begin" <<< "$new" || die "$file has no $name block"
		if ! block=$(fig_$name); then
			# An empty block says where its figures will come from.
			next=$(grep -xF -A1 -e "$begin" -e ".. $begin" <<< "$new" | tail -n1)
			if [ "$name" != check ] || [ "$next" != '<!-- /figures -->' ]; then
				say "$name: no source yet, the block stays as it is"
				continue
			fi
			block="No \`make check\` has run on this tree yet: its count and time go here (\`$CHECKLOG\`)."
		fi
		new=$(BLOCK=$block awk -v b="$begin" -v e='<!-- /figures -->' '
			$0 == b || $0 == ".. " b { print; print ENVIRON["BLOCK"]; skip = 1; next }
			skip && $0 == e { skip = 0 }
			# an .rst comment after a paragraph needs a blank line
			skip && $0 == ".. " e { print ""; skip = 0 }
			!skip' <<< "$new")
	done
	printf '%s\n' "$new"
}

TESTING=Documentation/testing.rst
readme=$(figures "$README" cost check packages support)
testing=$(figures "$TESTING" guests)

if [ "${1:-}" = --check ]; then
	rc=0
	undated() { grep -Ev '^From `+make check`+ on ' "$@"; }
	diff <(undated "$README") <(undated <<< "$readme") || rc=1
	diff <(undated "$TESTING") <(undated <<< "$testing") || rc=1
	exit $rc
fi
printf '%s\n' "$readme" > "$README"
printf '%s\n' "$testing" > "$TESTING"
say "$README, $TESTING: figures rewritten"
