#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall / DKMS, against Debian's kernel headers on
# this host (nothing is loaded here).  Prints TAP.
#
#   tests/install-test.sh [--no-vm]
#
# 1. The version: dkms.conf's PACKAGE_VERSION, `make version`, modinfo.
# 2. make install DESTDIR=D: exactly the expected files; the installed tool
#    runs; examples/consumer/ builds against D's header and Module.symvers
#    (modversions of kstats_new, depends kstats); make uninstall DESTDIR=D
#    leaves no file.
# 3. make install-module into the host's /lib/modules/<6.12>: depmod knows
#    it; make uninstall-module: it does not any more.
# 4. dkms add / build / install -k for Debian's 6.12 and 6.1 kernels, then
#    (unless --no-vm) Debian's 6.12 kernel boots in QEMU, modprobes the
#    DKMS-installed kstats and loads the consumer of step 2 against it;
#    dkms remove --all leaves nothing.
# Steps 3 and 4 change the host's /lib/modules and DKMS tree: they are
# skipped when kstats is already installed there, hold a lock, and undo
# what they did on exit.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$KSTATS_ROOT/tests/guest/lib.sh"
cd "$KSTATS_ROOT"

vm=1
[ "${1:-}" != --no-vm ] || vm=0

W=$(mktemp -d /tmp/kstats-install.XXXXXX)
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
UNDO=()
cleanup() {
	local i
	for ((i = ${#UNDO[@]} - 1; i >= 0; i--)); do
		eval "${UNDO[i]}" > /dev/null 2>&1 || true
	done
	rm -rf "$W"
}
trap cleanup EXIT

echo "TAP version 13"

# The Debian kernels, by name: 6.12 is required, 6.1 is cheap.
# (the release is the image's: Debian's 6.1 header trees say 6.1.192 in
# include/config/kernel.release)
declare -A KDIRS KVERS
while read -r name image kdir; do
	[ "$kdir" = - ] || KDIRS[$name]=$kdir KVERS[$name]=${image#/boot/vmlinuz-}
done < <(debian_kernels)
K612=${KDIRS[6.12]:-}
if [ -z "$K612" ]; then
	echo "1..0 # SKIP no Debian 6.12 headers (/lib/modules/*/build)"
	exit 0
fi
KVER=${KVERS[6.12]}

# A clean copy of the tree: DKMS copies what it is given, and builds here
# must not leave objects in the work tree.
copy_tree "$W/src"
mk() { make -C "$W/src" KDIR="$K612" "$@"; }

# --- 1. one version
expect_match "dkms.conf PACKAGE_VERSION" "$VERSION" '^[0-9]+\.[0-9]+\.[0-9]+$'
expect "make version is dkms.conf's" "$(mk -s version)" "$VERSION"
check "make modules (Debian $KVER)" mk modules
expect "modinfo version of kstats.ko" "$(/sbin/modinfo -F version "$W/src/kstats.ko")" "$VERSION"

# --- 2. make install / uninstall into a DESTDIR
D=$W/destdir
check "make install DESTDIR" mk install DESTDIR="$D"
want="lib/modules/$KVER/extra/kstats.ko.xz
usr/local/include/kstats/kstats.h
usr/local/include/kstats/kstats_bucket.h
usr/local/lib/kstats/$KVER/Module.symvers
usr/local/sbin/kstats
usr/local/share/man/man8/kstats.8"
# the module is compressed as the kernel's config says
grep -q '^CONFIG_MODULE_COMPRESS_XZ=y' "$K612/.config" || want=${want/kstats.ko.xz/kstats.ko}
expect "installed files" "$(cd "$D" && find . -type f | sed 's|^\./||' | sort)" "$want"
check "installed kstats --help" "$D/usr/local/sbin/kstats" --help
expect "installed kstats.h is the tree's" "$(cmp kstats.h "$D/usr/local/include/kstats/kstats.h" && echo same)" same
expect "installed Module.symvers exports kstats_new" \
	"$(awk '$2 == "kstats_new" { print $3, $4 }' "$D/usr/local/lib/kstats/$KVER/Module.symvers")" \
	"$W/src/kstats EXPORT_SYMBOL_GPL"

cp -r examples/consumer "$W/consumer"
check "examples/consumer builds against the installed header and Module.symvers" \
	bash -c "make -C '$W/consumer' KDIR='$K612' KSTATS_PREFIX='$D/usr/local' > '$W/consumer.log' 2>&1"
C=$W/consumer/kstats_consumer.ko
expect "consumer: no undefined symbols" "$(grep 'undefined!' "$W/consumer.log" || true)" ""
expect "consumer depends on kstats" "$(/sbin/modinfo -F depends "$C" 2>/dev/null)" kstats
expect "consumer carries kstats_new's CRC" \
	"$(/sbin/modprobe --dump-modversions "$C" 2>/dev/null | awk '$2 == "kstats_new" { print $1 }')" \
	"$(awk '$2 == "kstats_new" { print $1 }' "$D/usr/local/lib/kstats/$KVER/Module.symvers")"

check "make uninstall DESTDIR" mk uninstall DESTDIR="$D"
expect "no file left after make uninstall" "$(find "$D" -type f | sed "s|^$D/||")" ""

# --- 3 and 4 change the host: one make check at a time.
exec 9> /run/lock/kstats-install-test.lock
flock -w 600 9 || { echo "Bail out! lock /run/lock/kstats-install-test.lock"; exit 1; }

# --- 3. make install-module into the host's /lib/modules/KVER
M=/lib/modules/$KVER
if ls "$M"/extra/kstats.ko* > /dev/null 2>&1; then
	skip "make install-module into $M" "kstats is installed there"
else
	UNDO+=("make -C '$W/src' KDIR='$K612' uninstall-module")
	check "make install-module (Debian $KVER)" mk install-module
	expect "depmod: modules.dep has extra/kstats" \
		"$(grep -o '^extra/kstats\.ko[.a-z]*:' "$M/modules.dep")" "$(ls "$M"/extra/kstats.ko* | sed "s|^$M/||;s|$|:|")"
	check "make uninstall-module" mk uninstall-module
	expect "depmod: modules.dep has no kstats" "$(grep -c 'kstats' "$M/modules.dep")" 0
fi

# --- 4. DKMS
if ! command -v dkms > /dev/null; then
	skip "DKMS" "dkms is not installed (scripts/deps.sh installs it)"
elif [ -e "/var/lib/dkms/kstats" ] || [ -e "/usr/src/kstats-$VERSION" ]; then
	skip "DKMS" "kstats is in the DKMS tree already (dkms status)"
else
	[ -e /var/lib/dkms/mok.key ] || UNDO+=("rm -f /var/lib/dkms/mok.key /var/lib/dkms/mok.pub")
	UNDO+=("rm -rf '/usr/src/kstats-$VERSION'" "dkms remove 'kstats/$VERSION' --all")
	# what a user types, from a clean tree
	check "dkms add ." bash -c "cd '$W/src' && make -s KDIR='$K612' clean >/dev/null 2>&1; dkms add ."
	for name in 6.12 6.1; do
		kd=${KDIRS[$name]:-}
		if [ -z "$kd" ]; then
			skip "dkms build/install Debian $name" "no headers"
			continue
		fi
		kv=${KVERS[$name]}
		check "dkms build kstats/$VERSION -k $kv" dkms build "kstats/$VERSION" -k "$kv"
		check "dkms install kstats/$VERSION -k $kv" dkms install "kstats/$VERSION" -k "$kv"
		check "dkms status: installed for $kv" \
			grep -qF "kstats/$VERSION, $kv, $(uname -m): installed" <(dkms status kstats 2>/dev/null)
		f=$(ls /lib/modules/"$kv"/updates/dkms/kstats.ko* 2>/dev/null | head -n1) || f=none
		expect "modinfo version of DKMS's kstats for $kv" "$(/sbin/modinfo -F version "$f" 2>/dev/null)" "$VERSION"
		expect "modinfo vermagic is $kv" "$(/sbin/modinfo -F vermagic "$f" 2>/dev/null | cut -d' ' -f1)" "$kv"
	done
	if [ "$vm" = 1 ]; then
		img=/boot/vmlinuz-$KVER
		cat > "$W/dkms-guest.sh" <<'EOF'
t() { if "$@" > /tmp/out 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; sed 's/^/# /' /tmp/out; fi; n=$((n + 1)); }
n=1
d="modprobe kstats (DKMS)" t modprobe kstats
echo "# /sys/module/kstats/version: $(cat /sys/module/kstats/version)"
d="the consumer example loads against it" t insmod /kstats/kstats_consumer.ko
echo '# $ head -n 5 /sys/kernel/debug/kstats/consumer_kmalloc'
head -n 5 /sys/kernel/debug/kstats/consumer_kmalloc | sed 's/^/# /'
d="consumer_kmalloc has its 1000 samples" t grep -q ' samples 1000 ' /sys/kernel/debug/kstats/consumer_kmalloc
d="the consumer read its own p99 with kstats_read()" t sh -c 'dmesg | grep -q "kstats_consumer: 1000 kmalloc+kfree, p50 [0-9]* ns, p99 [0-9]* ns"'
d="rmmod kstats_consumer kstats" t rmmod kstats_consumer kstats
echo "1..$((n - 1))"
EOF
		rc=0
		tests/vm-run.sh --kernel "$img" --script "$W/dkms-guest.sh" --timeout 300 \
			--modules-dir "$M" --module kstats --add "$C" --log "$W/vm.log" \
			> "$W/vm.tap" 2> "$W/vm.err" || rc=$?
		# its time, as tests/check.sh prints each guest's
		sed -n 's/^vm-run.sh: [^ ]*: \([0-9.]*\) s, \(.*\)/# guest dkms: \1 s, timeout 300 s (\2)/p' "$W/vm.err"
		if [ $rc = 0 ]; then
			ok "Debian $KVER in QEMU: modprobe the DKMS kstats, insmod the consumer ($(grep -c '^ok' "$W/vm.tap") guest checks)"
			grep '^#' "$W/vm.tap" || true
		else
			not_ok "Debian $KVER in QEMU: modprobe the DKMS kstats, insmod the consumer"
			sed 's/^/#   /' "$W/vm.tap" "$W/vm.err" | head -n 20
		fi
	fi
	check "dkms remove kstats/$VERSION --all" dkms remove "kstats/$VERSION" --all
	rm -rf "/usr/src/kstats-$VERSION"
	expect "nothing of kstats left in DKMS and /lib/modules" \
		"$(ls -d /var/lib/dkms/kstats /usr/src/kstats-* /lib/modules/*/updates/dkms/kstats.ko* 2>/dev/null;
		   grep -l kstats /lib/modules/*/modules.dep 2>/dev/null)" ""
fi

echo "1..$T_N"
[ "$T_FAIL" = 0 ]
