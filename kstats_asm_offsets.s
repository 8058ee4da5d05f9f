	.file	"kstats_asm_offsets.c"
# GNU C11 (Debian 12.2.0-14+deb12u1) version 12.2.0 (x86_64-linux-gnu)
#	compiled by GNU C version 12.2.0, GMP version 6.2.1, MPFR version 4.2.0, MPC version 1.3.1, isl version isl-0.25-GMP

# GGC heuristics: --param ggc-min-expand=100 --param ggc-min-heapsize=131072
# options passed: -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -m64 -mno-80387 -mno-fp-ret-in-387 -mpreferred-stack-boundary=3 -mskip-rax-setup -mtune=generic -mno-red-zone -mcmodel=kernel -mrecord-mcount -mfentry -march=x86-64 -O2 -std=gnu11 -p -fshort-wchar -funsigned-char -fno-common -fno-PIE -fno-strict-aliasing -fcf-protection=none -falign-jumps=1 -falign-loops=1 -fno-asynchronous-unwind-tables -fno-delete-null-pointer-checks -fno-allow-store-data-races -fno-stack-protector -ftrivial-auto-var-init=zero -fno-stack-clash-protection -falign-functions=16 -fno-strict-overflow -fstack-check=no -fconserve-stack -fno-builtin-wcslen -fno-builtin-wcslen -fno-builtin
	.text
	.section	.text.startup,"ax",@progbits
	.p2align 4
	.globl	main
	.type	main, @function
main:
1:	call	__fentry__
	.section __mcount_loc, "a",@progbits
	.quad 1b
	.previous
# /work/main/kstats_asm_offsets.c:20: 	DEFINE(KSTATS_TASK_COMM, offsetof(struct task_struct, comm));
#APP
# 20 "/work/main/kstats_asm_offsets.c" 1
	
.ascii "->KSTATS_TASK_COMM $1768 offsetof(struct task_struct, comm)"	#
# 0 "" 2
# /work/main/kstats_asm_offsets.c:21: 	DEFINE(KSTATS_TASK_PID, offsetof(struct task_struct, pid));
# 21 "/work/main/kstats_asm_offsets.c" 1
	
.ascii "->KSTATS_TASK_PID $1120 offsetof(struct task_struct, pid)"	#
# 0 "" 2
# /work/main/kstats_asm_offsets.c:22: 	DEFINE(KSTATS_TASK_TGID, offsetof(struct task_struct, tgid));
# 22 "/work/main/kstats_asm_offsets.c" 1
	
.ascii "->KSTATS_TASK_TGID $1124 offsetof(struct task_struct, tgid)"	#
# 0 "" 2
# /work/main/kstats_asm_offsets.c:32: 	DEFINE(KSTATS_PCPU_HOT_CURRENT, offsetof(struct pcpu_hot, current_task));
# 32 "/work/main/kstats_asm_offsets.c" 1
	
.ascii "->KSTATS_PCPU_HOT_CURRENT $0 offsetof(struct pcpu_hot, current_task)"	#
# 0 "" 2
# /work/main/kstats_asm_offsets.c:33: 	DEFINE(KSTATS_PCPU_HOT_PREEMPT, offsetof(struct pcpu_hot, preempt_count));
# 33 "/work/main/kstats_asm_offsets.c" 1
	
.ascii "->KSTATS_PCPU_HOT_PREEMPT $8 offsetof(struct pcpu_hot, preempt_count)"	#
# 0 "" 2
# /work/main/kstats_asm_offsets.c:40: }
#NO_APP
	xorl	%eax, %eax	#
	ret	
	.size	main, .-main
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
