# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall, included by the Makefile.
#
#   make install [KDIR=...] [DESTDIR=...] [INSTALL_MOD_PATH=...] [PREFIX=...]
#
#   install-module  kstats.ko in $(INSTALL_MOD_PATH)/lib/modules/KVER/extra/
#                   (INSTALL_MOD_PATH defaults to DESTDIR), then depmod -a
#                   KVER when installing into the running system (no
#                   INSTALL_MOD_PATH: a package's postinst runs depmod)
#   install-dev     kstats.h and kstats_bucket.h in $(PREFIX)/include/kstats/,
#                   Module.symvers in $(PREFIX)/lib/kstats/KVER/ (the symbol
#                   CRCs are per kernel): what another module's Kbuild needs,
#                   see examples/consumer/; also after a DKMS install
#   install-tools   $(PREFIX)/sbin/kstats and its man page (tools/Makefile)
#
# KVER is the release of the kernel tree at KDIR (its UTS_RELEASE).  `make uninstall` with
# the same variables removes exactly these files and the directories it
# made that are left empty.

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(CURDIR)/dkms.conf)
PREFIX ?= /usr/local
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
INSTALL_MOD_PATH ?= $(DESTDIR)
INSTALL_MOD_DIR ?= extra
# (UTS_RELEASE: Debian's 6.1 trees say 6.1.192 in kernel.release)
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)

MODDIR = $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
HDRDIR = $(DESTDIR)$(INCLUDEDIR)/kstats
SYMDIR = $(DESTDIR)$(LIBDIR)/kstats/$(KVER)
HEADERS = kstats.h kstats_bucket.h
TOOLVARS = DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
# depmod when the module went to the running system's /lib/modules.
DEPMOD_LIVE = if [ -z "$(INSTALL_MOD_PATH)" ]; then depmod -a $(KVER); fi

.PHONY: version install-module install-dev install-tools \
	uninstall-module uninstall-dev uninstall-tools

version:
	@echo $(VERSION)

install: install-module install-dev install-tools

install-module: modules
	$(KMAKE) M=$(PWD) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) DEPMOD=true modules_install
	$(DEPMOD_LIVE)

install-dev: modules
	install -d $(HDRDIR) $(SYMDIR)
	install -m 0644 $(HEADERS) $(HDRDIR)/
	install -m 0644 Module.symvers $(SYMDIR)/Module.symvers

install-tools:
	$(MAKE) -C tools install $(TOOLVARS)

uninstall: uninstall-module uninstall-dev uninstall-tools

uninstall-module:
	@test -n "$(KVER)" || { echo "kstats: uninstall needs KDIR=... or KVER=..."; exit 2; }
	rm -f $(addprefix $(MODDIR)/kstats.ko,'' .xz .gz .zst)
	-rmdir $(MODDIR) 2>/dev/null
	$(DEPMOD_LIVE)

uninstall-dev:
	rm -f $(addprefix $(HDRDIR)/,$(HEADERS)) $(SYMDIR)/Module.symvers
	-rmdir $(HDRDIR) $(SYMDIR) $(dir $(SYMDIR)) 2>/dev/null

uninstall-tools:
	$(MAKE) -C tools uninstall $(TOOLVARS)
