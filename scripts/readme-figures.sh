#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Put the support table of the last `make check` (build/support.md) into
# README.md, between the support-table markers.
#
#   scripts/support-table.sh [--check]
#
# --check: exit 1, printing the difference, if README.md's table is not
# build/support.md's (without the "From make check on DATE" line).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$KSTATS_ROOT"

T=build/support.md
BEGIN='<!-- support-table begin: scripts/support-table.sh -->'
END='<!-- support-table end -->'
[ -s "$T" ] || die "no $T: run make check first"
grep -qF "$BEGIN" README.md && grep -qF "$END" README.md || die "README.md has no support-table markers"

new=$(awk -v b="$BEGIN" -v e="$END" -v t="$T" '
	$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' README.md)
if [ "${1:-}" = --check ]; then
	diff <(grep -v '^From `make check`' README.md) <(grep -v '^From `make check`' <<< "$new")
	exit
fi
printf '%s\n' "$new" > README.md
say "README.md: support table from $T"
