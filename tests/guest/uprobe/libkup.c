// SPDX-License-Identifier: GPL-2.0
/*
 * libkup.so: a shared library's function for the tests of "trace
 * PATH:SYMBOL" (t-24-uprobes.sh), built stripped, so that the symbol is
 * found in its dynamic symbol table alone; kuprobe-dyn calls it.
 */
__attribute__((noinline)) long kup_lib_add(long a, long b)
{
	/* not const: each call is made */
	asm volatile("" ::: "memory");
	return a + b;
}
