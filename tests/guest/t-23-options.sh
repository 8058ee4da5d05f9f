# SPDX-License-Identifier: GPL-2.0
#
# Every option the direct trampoline takes counts the same calls as
# fprobe's handlers (the kretprobe's where the kernel has no fprobe) on
# the same calls: filters on the task (the trampoline's "task" variants,
# header "entry task"; the task's name alone, its "comm" variants, which
# compare it inline, header "entry comm"; a cgroup alone, its "cgroup"
# variants, header "entry cgroup"), with each clock, families keyed by
# the task (its "task key" variants, header "entry task_key"; the
# task's name, pid or tid with no filter or the name alone and a clock
# read inline, its "task name" and "task ids" variants, header "entry
# [comm] task_name|task_ids exit task_key") or by
# the caller (read at the exit with no filter or the task's name alone,
# its "frame key" variants, header "exit frame_key"; the task key ones
# with other filters, header "entry frame_key") or otherwise (its "rich"
# variants), and a value alone: the return value
# (its "ret" variants, header "exit ret") or an argument (its "arg"
# variants, header "entry arg").  Each pair of nodes, one of each
# mechanism, is on the same function at once while kload makes getppid()
# calls pinned to CPU 0, then to CPU 1: both must count exactly those the
# option asks for, per key for a family, and miss none.  Runs where kstats
# traces directly; elsewhere one SKIP says why (lib.sh no_direct).

why=$(no_direct)
if [ -n "$why" ]; then
	skip "options through direct and through the probes" "$why"
else
	O=/tmp/options
	FB=kretprobe
	grep -q ' register_fprobe$' /proc/kallsyms && FB=fprobe
	SYM=$(sys_fn getppid)
	# the calls: 500 on CPU 0, then 300 on CPU 1 where there is one
	N0=500 N1=0
	[ "$(grep -c ^processor /proc/cpuinfo)" -gt 1 ] && N1=300
	ALL=$((N0 + N1))
	# o_key FILE KEY: a family key's samples ("key KEY samples N")
	o_key() { awk -v k="$2" '$1 == "key" && $2 == k { print $4 }' "$1"; }

	check "insmod kstats.ko (options)" insmod $KB/kstats.ko
	# A cgroup filter alone (the "cgroup" variants, header "entry
	# cgroup", checked inline with a clock read inline): kload runs in
	# /ko23/sub (kload cgroup), which a filter on it or on its parent
	# takes, and one on the sibling /ko23x or on the child leaf does not.
	CG=/sys/fs/cgroup
	cat > $O.rows <<-EOF
	comm kload|ALL|entry comm
	comm nobody|0|entry comm
	comm kloa|0|entry comm
	comm kload_|0|entry comm
	cpu 0 comm kload|N0|entry task
	cgroup / comm kload|ALL|entry task
	comm kload clock $CYC|ALL|entry comm
	comm kload clock local|ALL|entry comm
	comm kload clock ktime|ALL|entry comm
	comm kload by cpu|0=$N0 1=$N1|entry comm
	comm kload by cpu max 1|0=$N0 other=$N1|entry comm
	comm kload by comm|kload=$ALL|entry (comm task_name exit )?task_key
	by comm|kload=$ALL|entry (task_name exit )?task_key
	comm kload by comm clock $CYC|kload=$ALL|entry comm task_name exit task_key
	by comm clock $CYC|kload=$ALL|entry task_name exit task_key
	comm kload by pid clock $CYC|same=$ALL|entry comm task_ids exit task_key
	comm kload by tid clock $CYC|same=$ALL|entry comm task_ids exit task_key
	comm kload by tid clock local|same=$ALL|entry task_key
	cgroup / by comm clock local|kload=$ALL|entry task_key
	comm kload by caller|same=$ALL|entry comm exit frame_key
	comm kload by caller clock $CYC|same=$ALL|entry comm exit frame_key
	comm kload by caller clock ktime|same=$ALL|entry comm exit frame_key
	comm kload cpu 0 by caller clock local|same=$N0|entry frame_key
	EOF
	if grep -qw cgroup2 /proc/filesystems; then
		mkdir -p $CG
		grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
		mkdir -p $CG/ko23/sub/leaf $CG/ko23x
		cat >> $O.rows <<-EOF
		cgroup /ko23|ALL|entry cgroup
		cgroup /ko23/sub clock $CYC|ALL|entry cgroup
		cgroup /ko23 clock $CYC|ALL|entry cgroup
		cgroup /ko23 clock local|ALL|entry cgroup
		cgroup /ko23x|0|entry cgroup
		cgroup /ko23x clock $CYC|0|entry cgroup
		cgroup /ko23/sub/leaf clock $CYC|0|entry cgroup
		cgroup /ko23 comm kload|ALL|entry task
		cgroup /ko23 by cpu|0=$N0 1=$N1|entry cgroup
		EOF
	fi
	# o_load CPU N: kload's N getppid() calls on CPU, in /ko23/sub for a
	# row on those cgroups
	o_load() {
		case $opt in
		*/ko23*) kload cgroup $CG/ko23/sub kload pin "$1" kload getppid "$2" ;;
		*) kload pin "$1" kload getppid "$2" ;;
		esac
	}
	n=0
	# OPTIONS | samples of the node, or key=samples of its family |
	# what the direct node's source line says of its entry
	while IFS='|' read -r opt want entry; do
		[ -n "$opt" ] || continue
		n=$((n + 1))
		expect "trace $SYM $opt (direct)" \
			"$(ctl $KS/_control "trace $SYM name od$n $opt")" ok
		expect "trace $SYM mech $FB $opt" \
			"$(ctl $KS/_control "trace $SYM name of$n mech $FB $opt")" ok
		cat $KS/od$n > $O.d
		expect "$opt: the default node is direct" "$(field $O.d source mechanism)" direct
		if [ -n "$entry" ]; then
			expect_match "$opt: $entry" "$(grep '^# source' $O.d)" " $entry( |$)"
		else
			expect_match "$opt: no task entry (rich)" "$(grep '^# source' $O.d)" "stack_words [0-9]+( read (tsc|cycles))?$"
		fi
		o_load 0 $N0
		[ $N1 = 0 ] || o_load 1 $N1
		cat $KS/od$n > $O.d
		cat $KS/of$n > $O.f
		for m in d f; do
			mech=direct
			[ $m = f ] && mech=$FB
			case $want in
			sum=*|same=*)
				expect "$opt ($mech): the keys' samples" \
					"$(awk '$1 == "key" { n += $4 } END { print n + 0 }' $O.$m)" "${want#*=}"
				# the same keys, each with the same samples
				[ "${want%%=*}" = same ] && [ $m = f ] &&
					expect "$opt: the same keys through direct and $FB" \
						"$(grep '^key ' $O.f | sort)" "$(grep '^key ' $O.d | sort)" ;;
			*=*)
				for kv in $want; do
					k=${kv%%=*} v=${kv#*=}
					case $k in 1|other) [ $N1 = 0 ] && v= ;; esac
					expect "$opt ($mech): key $k" "$(o_key $O.$m "$k")" "$v"
				done ;;
			*)
				expect "$opt ($mech): samples" "$(field $O.$m name samples)" "$(($want))" ;;
			esac
			expect "$opt ($mech): nothing missed" "$(field $O.$m name missed)" 0
		done
		expect "remove od$n of$n" "$(ctl $KS/_control "remove od$n")$(ctl $KS/_control "remove of$n")" okok
	done < $O.rows
	[ ! -d $CG/ko23 ] || rmdir $CG/ko23/sub/leaf $CG/ko23/sub $CG/ko23 $CG/ko23x

	# A gap sibling (the rich variants): the same calls and the same
	# gaps between them through both mechanisms; kload's calls on each
	# CPU all but the first have a gap before them (a few other tasks'
	# calls are allowed, the same in both)
	expect "trace $SYM gap (direct)" "$(ctl $KS/_control "trace $SYM name ogd gap")" ok
	expect "trace $SYM mech $FB gap" "$(ctl $KS/_control "trace $SYM name ogf mech $FB gap")" ok
	expect "gap: the default node is direct" "$(field $KS/ogd source mechanism)" direct
	kload pin 0 kload getppid $N0
	[ $N1 = 0 ] || kload pin 1 kload getppid $N1
	ncpu=1
	[ $N1 = 0 ] || ncpu=2
	ds=$(field $KS/ogd name samples) dg=$(field $KS/ogd.gap name samples)
	expect_match "gap (direct): kload's $ALL calls, or a few more" "$ds" "^$ALL$|^$((ALL + 1))$|^$((ALL + 2))$"
	expect_match "gap (direct): a gap before each but the first on each CPU" \
		"$dg" "^$((ALL - ncpu))$|^$((ALL - ncpu + 1))$|^$((ALL - ncpu + 2))$"
	expect "gap: the same calls through $FB" "$(field $KS/ogf name samples)" "$ds"
	expect "gap: the same gaps through $FB" "$(field $KS/ogf.gap name samples)" "$dg"
	expect "gap: nothing missed (direct)" "$(field $KS/ogd name missed)" 0
	expect "remove ogd ogf" "$(ctl $KS/_control "remove ogd")$(ctl $KS/_control "remove ogf")" okok

	# The return value alone (the trampoline's "ret" variants, header
	# "exit ret"): getppid() returns kload's parent (one per pinned run),
	# so both nodes see the same values, as their minimum and maximum,
	# and the same count: all of kload's calls, and any other task's
	# (none is expected; a few are allowed, the same in both)
	expect "trace $SYM value ret (direct)" \
		"$(ctl $KS/_control "trace $SYM name ord value ret")" ok
	expect "trace $SYM mech $FB value ret" \
		"$(ctl $KS/_control "trace $SYM name orf mech $FB value ret")" ok
	kload ctl $KS/ord reset > /dev/null
	kload ctl $KS/orf reset > /dev/null
	kload pin 0 kload getppid $N0
	[ $N1 = 0 ] || kload pin 1 kload getppid $N1
	cat $KS/ord > $O.d
	cat $KS/orf > $O.f
	expect_match "value ret: exit ret (direct)" "$(grep '^# source' $O.d)" "mechanism direct .* exit ret( |$)"
	ds=$(field $O.d name samples)
	expect_match "value ret (direct): kload's $ALL calls, or a few more" "$ds" "^$ALL$|^$((ALL + 1))$|^$((ALL + 2))$"
	expect "value ret: the same count through $FB" "$(field $O.f name samples)" "$ds"
	dmm="$(field $O.d summary min) $(field $O.d summary max)"
	expect_match "value ret (direct): parents' pids" "$dmm" "^[1-9][0-9]* [1-9][0-9]*$"
	expect "value ret: the same values through $FB" \
		"$(field $O.f summary min) $(field $O.f summary max)" "$dmm"
	expect "value ret: nothing missed, either" \
		"$(field $O.d name missed) $(field $O.f name missed)" "0 0"
	expect "remove ord orf" "$(ctl $KS/_control "remove ord")$(ctl $KS/_control "remove orf")" okok

	# An argument alone (the "arg" variants, header "entry arg"), and
	# the return value again, on a function with six arguments, all in
	# registers: kstats_many_wide6(1, 2, 3, 16, r, 6) for r = 0 .. 99
	# returns 28 + r, and its arg5 is always 6; kstats_many_wide8, whose
	# eight take stack words on x86-64, is not traced directly there
	if [ -f $KB/kstats_many.ko ] && insmod $KB/kstats_many.ko; then
		if [ $WIDE8_STACK = 0 ]; then
			expect "kstats_many_wide8, all in registers: mech direct" \
				"$(ctl $KS/_control "trace kstats_many_wide8 name ow8 mech direct")" ok
			ctl $KS/_control 'remove ow8' >/dev/null
		else
			expect "kstats_many_wide8, stack words: mech direct refused" \
				"$(ctl $KS/_control "trace kstats_many_wide8 name ow8 mech direct")" EOPNOTSUPP
		fi
		W=kstats_many_wide6
		for opt in "value arg5" "value ret"; do
			n=$((n + 1))
			expect "trace $W $opt (direct)" \
				"$(ctl $KS/_control "trace $W name od$n $opt")" ok
			expect "trace $W mech $FB $opt" \
				"$(ctl $KS/_control "trace $W name of$n mech $FB $opt")" ok
			expect "call 100" "$(ctl /sys/kernel/debug/kstats_many/ctl "call 100")" ok
			cat $KS/od$n > $O.d
			cat $KS/of$n > $O.f
			want="100 6 6 0" entry="entry arg"
			[ "$opt" = "value ret" ] && want="100 28 127 0" entry="exit ret"
			expect_match "$W $opt: $entry" "$(grep '^# source' $O.d)" \
				"mechanism direct .*arg_regs 6 stack_words 0 $entry( |$)"
			for m in d f; do
				expect "$W $opt ($m): samples, min, max, missed" \
					"$(field $O.$m name samples) $(field $O.$m summary min) $(field $O.$m summary max) $(field $O.$m name missed)" \
					"$want"
			done
			expect "remove od$n of$n" "$(ctl $KS/_control "remove od$n")$(ctl $KS/_control "remove of$n")" okok
		done
		# by cpu alone: its keys are the CPUs' own rows, which the
		# plain variants fill as they fill any distribution's (no entry
		# of their own, no key's memory): 100 calls on CPU 0, 50 on 1
		n=$((n + 1))
		expect "trace $W by cpu (direct)" \
			"$(ctl $KS/_control "trace $W name od$n by cpu")" ok
		expect "trace $W mech $FB by cpu" \
			"$(ctl $KS/_control "trace $W name of$n mech $FB by cpu")" ok
		kload pin 0 kload ctl /sys/kernel/debug/kstats_many/ctl "call 100" > /dev/null
		[ $N1 = 0 ] || kload pin 1 kload ctl /sys/kernel/debug/kstats_many/ctl "call 50" > /dev/null
		cat $KS/od$n > $O.d
		cat $KS/of$n > $O.f
		expect_match "$W by cpu: the plain variants" "$(grep '^# source' $O.d)" \
			"mechanism direct .*stack_words 0( read (tsc|cycles))?$"
		want="100 "
		[ $N1 = 0 ] || want="100 50"
		for m in d f; do
			expect "$W by cpu ($m): keys 0 and 1" "$(o_key $O.$m 0) $(o_key $O.$m 1)" "$want"
			expect "$W by cpu ($m): no key's memory, nothing missed" \
				"$(field $O.$m family key_bytes) $(field $O.$m name missed)" "0 0"
		done
		expect "remove od$n of$n" "$(ctl $KS/_control "remove od$n")$(ctl $KS/_control "remove of$n")" okok
		check "rmmod kstats_many (options)" rmmod kstats_many
	else
		skip "value arg5 and ret on kstats_many_wide8" "no kstats_many.ko"
	fi
	check "rmmod kstats (options)" rmmod kstats
fi
