# SPDX-License-Identifier: GPL-2.0
#
# kstats: per-CPU log-linear histograms for the Linux kernel.
#
#   make                 kstats.ko for the running kernel (KDIR=... for another)
#   make tests examples bench    the KUnit, example and benchmark modules
#   make tools           the kstats command-line tool
#   make install         module (+ depmod), header and Module.symvers, tool and
#                        man page; make uninstall removes them (install.mk)
#   make check           everything, in QEMU, on the test and Debian kernels
#   make demo            boot Debian's kernel with kstats and show a distribution
#   make bench-run       (alias: make bench) cost figures, see BENCHMARKS.md;
#                        QUICK=1: shorter, without the eBPF peers and 6.1
#   make mutants         the planted bugs of tests/mutants/ must be caught

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(CURDIR)
KMAKE = $(MAKE) -C $(KDIR)
EXTRA_SYMS = KBUILD_EXTRA_SYMBOLS=$(PWD)/Module.symvers

.PHONY: all modules tests examples bench-modules tools clean check demo bench \
	install uninstall kdir-check mutants

all: modules

kdir-check:
	@test -f $(KDIR)/Makefile || { echo "kstats: no kernel build tree at $(KDIR): pass KDIR=/path/to/linux-build, or run 'make check' / 'make demo' to build and test in QEMU"; exit 2; }

modules: kdir-check
	$(KMAKE) M=$(PWD) modules

tests: modules
	$(KMAKE) M=$(PWD)/tests $(EXTRA_SYMS) modules

examples: modules
	$(KMAKE) M=$(PWD)/examples $(EXTRA_SYMS) modules

bench-modules: modules
	$(KMAKE) M=$(PWD)/bench $(EXTRA_SYMS) modules

tools:
	$(MAKE) -C tools

clean:
	-test -f $(KDIR)/Makefile && for d in . tests examples bench; do \
		$(KMAKE) M=$(PWD)/$$d clean; done
	-$(MAKE) -C tools clean

# Its output is also kept in build/check.log, where scripts/readme-figures.sh
# finds the README's test count and time.
check:
	@mkdir -p build
	{ tests/check.sh; echo $$? > build/check.rc; } | tee build/check.log; \
		exit $$(cat build/check.rc)

include install.mk

demo:
	scripts/demo.sh

mutants:
	tests/mutants.sh

bench:
	bench/bench.sh $(if $(QUICK),--quick)
