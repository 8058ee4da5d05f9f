# SPDX-License-Identifier: GPL-2.0
#
# The README's quick start, run as it is written: every shell line of the
# code blocks under "## Quick start" (README.md, put in the guest by
# lib.sh guest_adds), in order, from a directory laid out as the source
# tree is (kstats.ko, examples/kstats_example.ko, tools/kstats).  The
# guest is root and builds nothing: sudo runs its command, and the make
# lines are skipped (their modules and tool were built on the host, from
# the same tree).  Each line must succeed, and leave what the README says
# it does; so a README example that no longer works fails here.

R=$KB/README.md
if [ ! -r $R ]; then
	skip "the README's quick start" "no README.md in the guest"
	return 0 2>/dev/null || exit 0
fi
RD=/tmp/readme
rm -rf $RD && mkdir -p $RD/examples $RD/tools
ln -s $KB/kstats.ko $RD/kstats.ko
ln -s $KB/kstats_example.ko $RD/examples/kstats_example.ko
ln -s "$(command -v kstats)" $RD/tools/kstats

# The shell lines of the quick start's code blocks: the unlabelled fences
# between "## Quick start" and the next heading, but for a block of output
# (its first line a prompt, "$ ").
awk '/^## /		{ in_qs = ($0 == "## Quick start"); next }
     !in_qs		{ next }
     /^```/		{ if (fence) { fence = 0; out = 0 }
			  else { fence = 1; first = 1 }
			  next }
     fence && first	{ first = 0; out = /^\$ / }
     fence && !out && NF	{ print }' $R > /tmp/readme.sh
expect_match "the quick start has its shell lines (insmod, list, show, stop, reset, start, trace, remove, rmmod)" \
	"$(tr '\n' ' ' < /tmp/readme.sh)" \
	'insmod kstats\.ko.*kstats list.*kstats show example_write.*echo stop.*echo reset.*echo start.*trace do_nanosleep.*remove do_nanosleep.*rmmod kstats_example kstats'

skipped=0
ran=0
while IFS= read -r line; do
	# "make X && Y": X was built on the host, Y runs
	case $line in
	make*"&& "*)	skipped=$((skipped + 1)); line=${line#*&& } ;;
	make*)		skipped=$((skipped + 1)); continue ;;
	esac
	ran=$((ran + 1))
	check "README: $line" readme_run $RD /tmp/readme.out "$line"
	case $line in
	*"insmod kstats.ko"*)
		expect "README: kstats is loaded, _control is there" \
			"$([ -w $KS/_control ] && echo yes)" yes ;;
	*"insmod examples/kstats_example.ko"*)
		expect_match "README: the example made example_write" "$(ls $KS)" '^example_write$'
		# the example's distribution gets its three sizes
		kload write /dev/kstats_example 100 64 > /dev/null ;;
	*"kstats list"*)
		expect_match "README: list names example_write" "$(cat /tmp/readme.out)" '(^|[ /])example_write( |$)' ;;
	*"kstats show example_write"*)
		expect_match "README: show prints its 100 samples" "$(cat /tmp/readme.out)" \
			'^ +100 +' ;;
	*"echo stop"*)
		expect "README: stop: state stopped" "$(field $KS/example_write name state)" stopped ;;
	*"echo reset"*)
		expect "README: reset: no sample left" "$(field $KS/example_write name samples)" 0 ;;
	*"echo start"*)
		expect "README: start: state active" "$(field $KS/example_write name state)" active ;;
	*'"trace do_nanosleep"'*)
		expect "README: trace do_nanosleep made its node" "$([ -r $KS/do_nanosleep ] && echo yes)" yes ;;
	*'"remove do_nanosleep"'*)
		expect "README: remove: the node is gone" "$([ -e $KS/do_nanosleep ] || echo gone)" gone ;;
	*"rmmod kstats_example kstats"*)
		expect "README: rmmod: kstats and the example unloaded" \
			"$([ -e /sys/module/kstats ] || [ -e /sys/module/kstats_example ] || echo gone)" gone ;;
	esac
done < /tmp/readme.sh
diag "README quick start: $ran lines run, $skipped make lines skipped (built on the host)"
# as every file ends: kstats unloaded, whatever a failure above left
rmmod kstats_example 2>/dev/null
rmmod kstats 2>/dev/null
true
