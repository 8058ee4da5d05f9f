#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Count the results of TAP or KUnit KTAP read from stdin.
#
#   some-test | tests/tap.sh [--prefix NAME]
#
# Counts leaf test cases only: a result line ("ok N name", "not ok N name",
# any indentation) that closes nested, more indented results is a suite or
# parameterised test and is not counted itself.  "# SKIP" (and "# TODO") are
# skipped; "Bail out!" and results missing from a top-level plan ("1..N")
# are failures.  Prints one line "passed=P failed=F skipped=S" and then one
# "not ok: NAME" line per failure (NAME prefixed by "NAME: " with --prefix
# and by the enclosing "# Subtest:" name).  Exit status 1 if any failed.
set -euo pipefail

prefix=
[ "${1:-}" != --prefix ] || prefix=$2

awk -v prefix="$prefix" '
function indent(s) { match(s, /^[ \t]*/); return RLENGTH }
{ sub(/\r$/, "") }
/^[ \t]*# Subtest: / {
	l = indent($0); s = $0; sub(/^[ \t]*# Subtest: /, "", s); sub_[l] = s
	next
}
/^[ \t]*Bail out!/ { fail[++nf] = $0; bailed = 1; next }
/^[ \t]*1\.\.[0-9]+/ {
	l = indent($0)
	if (l == 0) { s = $0; sub(/^1\.\./, "", s); plan += s + 0 }
	next
}
/^[ \t]*(not )?ok [0-9]+/ {
	l = indent($0)
	parent = haschild[l]; haschild[l] = 0
	for (i = 0; i < l; i++) haschild[i] = 1
	# forget deeper suite names once their parent is closed
	for (i in sub_) if (i + 0 > l) delete sub_[i]
	if (l == 0) top++
	if (parent) next
	line = $0; sub(/^[ \t]*/, "", line)
	notok = line ~ /^not ok/
	name = line; sub(/^(not )?ok [0-9]+ *(- *)?/, "", name)
	dir = ""
	if (match(name, /[ \t]#[ \t]*[A-Za-z]+/)) {
		dir = toupper(substr(name, RSTART, RLENGTH))
		name = substr(name, 1, RSTART - 1)
	}
	if (dir ~ /SKIP/ || dir ~ /TODO/) { nskip++; next }
	for (i = l; i >= 0; i--) if (i in sub_) name = sub_[i] "." name
	if (notok) fail[++nf] = name
	else npass++
}
END {
	if (plan > top && !bailed) fail[++nf] = sprintf("missing %d of %d planned tests", plan - top, plan)
	printf "passed=%d failed=%d skipped=%d\n", npass, nf, nskip
	for (i = 1; i <= nf; i++) printf "not ok: %s%s\n", (prefix != "" ? prefix ": " : ""), fail[i]
	exit nf > 0
}'
