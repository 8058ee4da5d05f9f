# SPDX-License-Identifier: GPL-2.0
#
# What differs between the kernels kstats builds for, decided once here
# from the kernel's version (the C code then tests named features), for
# kstats.ko (Kbuild) and the test modules (tests/Kbuild).
# The layers' folders (Kbuild): every file of kstats.ko, and the test and
# bench modules that reach its internals, includes their headers by name.
kstats-root := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ccflags-y += $(addprefix -I$(kstats-root)/,. core control trace mech lib)
kstats-kv := $(shell echo $$(($(VERSION) * 1000 + $(PATCHLEVEL))))
# Since 6.13 a symbol namespace is written as a string.
ccflags-y += $(if $(shell [ $(kstats-kv) -ge 6013 ] && echo y),-DKSTATS_NS_IS_STRING)
# fprobe handlers take a struct pt_regs from 6.5 to 6.13 (other arguments
# before, a struct ftrace_regs since 6.14).
ccflags-y += $(if $(shell [ $(kstats-kv) -ge 6005 ] && [ $(kstats-kv) -lt 6014 ] && echo y),-DKSTATS_FPROBE_PT_REGS)
# COUNT_ARGS() is in <linux/args.h> from 6.5 (in <linux/kernel.h> before).
ccflags-y += $(if $(shell [ $(kstats-kv) -ge 6005 ] && echo y),-DKSTATS_HAVE_ARGS_H)
# x86's current task is in struct pcpu_hot from 6.2 (current_task before).
ccflags-y += $(if $(shell [ $(kstats-kv) -ge 6002 ] && echo y),-DKSTATS_PCPU_HOT)
# ftrace's direct calls take an ftrace_ops since 6.6 (register_ftrace_direct();
# before, register_ftrace_direct_multi()).
ccflags-y += $(if $(shell [ $(kstats-kv) -ge 6006 ] && echo y),-DKSTATS_FTRACE_DIRECT_OPS)
# The kernel's uprobes (kstats_uprobe.c): 6.1's API (uprobe_register()
# returns an int, uprobe_unregister() waits for the handlers, a consumer's
# filter takes a context) before 6.11; 6.12's (uprobe_register() returns
# the uprobe, unregistration in two parts, no context); 6.13 adds
# handlers' per-call data.  Built for those two alone: elsewhere a user
# function is refused (EOPNOTSUPP).
kstats-uprobe-api := $(if $(CONFIG_UPROBES),$(shell [ $(kstats-kv) -lt 6011 ] && echo V61; [ $(kstats-kv) -eq 6012 ] && echo V612))
ccflags-y += $(if $(kstats-uprobe-api),-DKSTATS_HAVE_UPROBE -DKSTATS_UPROBE_$(kstats-uprobe-api))
