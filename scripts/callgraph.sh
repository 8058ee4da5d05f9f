#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The graph of which file calls (or takes the address of) a function or
# variable of which other file, from the objects' symbol tables, and its
# cycles: a file must not call back into a file that calls it.  The
# graph of which file includes which of the project's headers is checked
# the same way.
#
#   scripts/callgraph.sh module [KDIR]   build kstats.ko in a scratch copy
#   scripts/callgraph.sh tools           compile the tool's files one by one:
#                                        tools/kstats.c, tools/cmd/*.c, tools/lib/*.c
#   -v (first): print the edges, "A -> B: symbols"
#
# Exit 0 without a cycle, 1 with one (tsort prints each).  An assembly
# file counts with the C file it serves: mech/kstats_direct_tramp_*.S are
# the other half of mech/kstats_direct_exits.c (the entries and exits
# they call, and the fields they read).  core/kstats.c is built as
# core/kstats_core.o.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

verbose=
[ "${1:-}" = -v ] && { verbose=1; shift; }
what=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A folder	# tools: each file's folder, for the layers' check

case $what in
module)
	kdir=${2:-$(newest '/lib/modules/*/build')}
	[ -f "$kdir/Makefile" ] || die "no kernel build tree: pass KDIR"
	mkdir "$tmp/src"
	git -C "$KSTATS_ROOT" ls-files -z | (cd "$KSTATS_ROOT" && xargs -0 cp --parents -t "$tmp/src")
	# Uncommitted files too: the check is of the work tree.
	git -C "$KSTATS_ROOT" ls-files -z --others --exclude-standard |
		(cd "$KSTATS_ROOT" && xargs -0 -r cp --parents -t "$tmp/src")
	make -s -C "$kdir" M="$tmp/src" modules > "$tmp/log" 2>&1 || { cat "$tmp/log"; die "build failed"; }
	objs=
	for o in "$tmp"/src/{core,control,trace,mech,lib}/kstats_*.o; do
		objs+=" $o"
	done
	srcs=$(cd "$KSTATS_ROOT" && ls kstats*.h {core,control,trace,mech,lib}/kstats*.[chS])
	incs=". core control trace mech lib"
	;;
tools)
	mkdir "$tmp/o"
	cflags=$(pkg-config --cflags libbpf 2>/dev/null || true)
	# main and the dispatch, a file a subcommand, what they share (the
	# folders of tools/Makefile; every header in tools/lib)
	srcs=$(cd "$KSTATS_ROOT" && ls tools/*.c tools/cmd/*.c tools/lib/*.c)
	for c in $srcs; do
		cc -std=c99 $cflags -I"$KSTATS_ROOT/tools/lib" -c "$KSTATS_ROOT/$c" \
			-o "$tmp/o/$(basename "${c%.c}").o"
		folder[$(basename "${c%.c}")]=$(dirname "$c")
	done
	objs=$(ls "$tmp"/o/*.o)
	srcs=$(cd "$KSTATS_ROOT" && find tools tools/cmd tools/lib -maxdepth 1 -name '*.[ch]' | sort -u)
	incs="tools/lib"
	;;
*)
	die "usage: scripts/callgraph.sh [-v] module [KDIR] | tools"
	;;
esac

unit() {
	local u
	u=$(basename "$1" .o)
	case $u in
	kstats_core) u=kstats ;;
	kstats_direct_tramp_*) u=kstats_direct_exits ;;
	esac
	printf '%s' "$u"
}

declare -A def
for o in $objs; do
	u=$(unit "$o")
	for s in $(nm --defined-only "$o" | awk '$2 ~ /^[TDBRCV]$/ { print $3 }'); do
		def[$s]=$u
	done
done
for o in $objs; do
	a=$(unit "$o")
	for s in $(nm -u "$o" | awk '{ print $2 }'); do
		b=${def[$s]:-}
		if [ -n "$b" ] && [ "$b" != "$a" ]; then
			echo "$a $b $s"
		fi
	done
done | sort -u > "$tmp/edges"

if [ -n "$verbose" ]; then
	awk '{ k = $1 " -> " $2; e[k] = e[k] " " $3 } END { for (k in e) print k ":" e[k] }' \
		"$tmp/edges" | sort
fi
# Includes: FILE HEADER for each #include "HEADER" of the project's files.
(cd "$KSTATS_ROOT" && for f in $srcs; do
	echo "$f $f"
	# a header by its name, from the file's folder or the include paths
	# (kstats.mk's layers; tools/lib for the tool)
	sed -n 's/^#include "\(.*\)"/\1/p' "$f" | while read -r h; do
		# shellcheck disable=SC2086
		for d in "$(dirname "$f")" $incs; do
			[ -f "$d/$h" ] && { echo "$f $d/$h" | sed 's| \./| |'; break; }
		done
	done
done) > "$tmp/includes"
if ! tsort "$tmp/includes" > /dev/null 2> "$tmp/loops"; then
	cat "$tmp/loops" >&2
	say "$what: the include graph has a cycle"
	exit 1
fi

# Every file is a node, even one that calls nothing of the others.
{ for o in $objs; do u=$(unit "$o"); echo "$u $u"; done
  awk '{ print $1, $2 }' "$tmp/edges"; } | sort -u > "$tmp/pairs"
if ! tsort "$tmp/pairs" > /dev/null 2> "$tmp/loops"; then
	cat "$tmp/loops" >&2
	say "$what: the call graph has a cycle"
	exit 1
fi
# The tool's layers: tools/kstats.c above tools/cmd/ above tools/lib/; a
# subcommand calls no other subcommand (what two share goes in lib/).
if [ "$what" = tools ]; then
	up=$(while read -r a b s; do
		case ${folder[$a]}:${folder[$b]} in
		tools/lib:tools/lib|tools/cmd:tools/lib|tools:*) ;;
		*) echo "$a -> $b: $s" ;;
		esac
	done < "$tmp/edges")
	if [ -n "$up" ]; then
		echo "$up" >&2
		say "tools: a call against the layers (kstats.c, cmd/, lib/)"
		exit 1
	fi
fi
say "$what: no cycle among $(wc -l < <(printf '%s\n' $objs)) files"
