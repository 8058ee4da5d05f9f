// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_many: 200 functions for a node over many ("trace kstats_many_fn*
 * by func", tests/guest/t-22-many.sh).
 *
 * kstats_many_fn0() .. kstats_many_fn199() each count their calls in a
 * slot of their own (so that no two compile to the same code, which the
 * compiler could fold into one), and sleep when told to.
 * /sys/kernel/debug/kstats_many/ctl takes one command per write():
 *
 *   call R        R rounds; in each, kstats_many_fnI() is called I % 5 + 1
 *                 times, for every I: (I % 5 + 1) * R calls of fnI; then
 *                 R calls of kstats_many_wide8(), whose eight arguments
 *                 take two stack words on x86-64 (a function the
 *                 trampoline does not take: it falls back), and R of
 *                 kstats_many_wide6(), whose six are all in registers
 *   sleep I       kstats_many_fnI() sleeps, interruptibly, until "wake";
 *                 the write returns then (EINTR if a signal ends it)
 *   wake          wake the sleepers
 *
 * EINVAL for anything else.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define KSTATS_MANY_FUNCS	200

static unsigned long kstats_many_hits[KSTATS_MANY_FUNCS];
static DECLARE_WAIT_QUEUE_HEAD(kstats_many_wq);
static unsigned int kstats_many_gen;

/* A call of a function: counted in @hits; asleep until "wake" if told. */
static __always_inline int kstats_many_call(unsigned long *hits, bool sleep)
{
	unsigned int gen = READ_ONCE(kstats_many_gen);

	WRITE_ONCE(*hits, *hits + 1);
	if (!sleep)
		return 0;
	return wait_event_interruptible(kstats_many_wq,
					READ_ONCE(kstats_many_gen) != gen);
}

#define KSTATS_MANY_FN(n)						\
static noinline int kstats_many_fn##n(bool sleep)			\
{									\
	return kstats_many_call(&kstats_many_hits[n], sleep);		\
}

KSTATS_MANY_FN(0) KSTATS_MANY_FN(1) KSTATS_MANY_FN(2) KSTATS_MANY_FN(3)
KSTATS_MANY_FN(4) KSTATS_MANY_FN(5) KSTATS_MANY_FN(6) KSTATS_MANY_FN(7)
KSTATS_MANY_FN(8) KSTATS_MANY_FN(9) KSTATS_MANY_FN(10)
KSTATS_MANY_FN(11) KSTATS_MANY_FN(12) KSTATS_MANY_FN(13)
KSTATS_MANY_FN(14) KSTATS_MANY_FN(15) KSTATS_MANY_FN(16)
KSTATS_MANY_FN(17) KSTATS_MANY_FN(18) KSTATS_MANY_FN(19)
KSTATS_MANY_FN(20) KSTATS_MANY_FN(21) KSTATS_MANY_FN(22)
KSTATS_MANY_FN(23) KSTATS_MANY_FN(24) KSTATS_MANY_FN(25)
KSTATS_MANY_FN(26) KSTATS_MANY_FN(27) KSTATS_MANY_FN(28)
KSTATS_MANY_FN(29) KSTATS_MANY_FN(30) KSTATS_MANY_FN(31)
KSTATS_MANY_FN(32) KSTATS_MANY_FN(33) KSTATS_MANY_FN(34)
KSTATS_MANY_FN(35) KSTATS_MANY_FN(36) KSTATS_MANY_FN(37)
KSTATS_MANY_FN(38) KSTATS_MANY_FN(39) KSTATS_MANY_FN(40)
KSTATS_MANY_FN(41) KSTATS_MANY_FN(42) KSTATS_MANY_FN(43)
KSTATS_MANY_FN(44) KSTATS_MANY_FN(45) KSTATS_MANY_FN(46)
KSTATS_MANY_FN(47) KSTATS_MANY_FN(48) KSTATS_MANY_FN(49)
KSTATS_MANY_FN(50) KSTATS_MANY_FN(51) KSTATS_MANY_FN(52)
KSTATS_MANY_FN(53) KSTATS_MANY_FN(54) KSTATS_MANY_FN(55)
KSTATS_MANY_FN(56) KSTATS_MANY_FN(57) KSTATS_MANY_FN(58)
KSTATS_MANY_FN(59) KSTATS_MANY_FN(60) KSTATS_MANY_FN(61)
KSTATS_MANY_FN(62) KSTATS_MANY_FN(63) KSTATS_MANY_FN(64)
KSTATS_MANY_FN(65) KSTATS_MANY_FN(66) KSTATS_MANY_FN(67)
KSTATS_MANY_FN(68) KSTATS_MANY_FN(69) KSTATS_MANY_FN(70)
KSTATS_MANY_FN(71) KSTATS_MANY_FN(72) KSTATS_MANY_FN(73)
KSTATS_MANY_FN(74) KSTATS_MANY_FN(75) KSTATS_MANY_FN(76)
KSTATS_MANY_FN(77) KSTATS_MANY_FN(78) KSTATS_MANY_FN(79)
KSTATS_MANY_FN(80) KSTATS_MANY_FN(81) KSTATS_MANY_FN(82)
KSTATS_MANY_FN(83) KSTATS_MANY_FN(84) KSTATS_MANY_FN(85)
KSTATS_MANY_FN(86) KSTATS_MANY_FN(87) KSTATS_MANY_FN(88)
KSTATS_MANY_FN(89) KSTATS_MANY_FN(90) KSTATS_MANY_FN(91)
KSTATS_MANY_FN(92) KSTATS_MANY_FN(93) KSTATS_MANY_FN(94)
KSTATS_MANY_FN(95) KSTATS_MANY_FN(96) KSTATS_MANY_FN(97)
KSTATS_MANY_FN(98) KSTATS_MANY_FN(99) KSTATS_MANY_FN(100)
KSTATS_MANY_FN(101) KSTATS_MANY_FN(102) KSTATS_MANY_FN(103)
KSTATS_MANY_FN(104) KSTATS_MANY_FN(105) KSTATS_MANY_FN(106)
KSTATS_MANY_FN(107) KSTATS_MANY_FN(108) KSTATS_MANY_FN(109)
KSTATS_MANY_FN(110) KSTATS_MANY_FN(111) KSTATS_MANY_FN(112)
KSTATS_MANY_FN(113) KSTATS_MANY_FN(114) KSTATS_MANY_FN(115)
KSTATS_MANY_FN(116) KSTATS_MANY_FN(117) KSTATS_MANY_FN(118)
KSTATS_MANY_FN(119) KSTATS_MANY_FN(120) KSTATS_MANY_FN(121)
KSTATS_MANY_FN(122) KSTATS_MANY_FN(123) KSTATS_MANY_FN(124)
KSTATS_MANY_FN(125) KSTATS_MANY_FN(126) KSTATS_MANY_FN(127)
KSTATS_MANY_FN(128) KSTATS_MANY_FN(129) KSTATS_MANY_FN(130)
KSTATS_MANY_FN(131) KSTATS_MANY_FN(132) KSTATS_MANY_FN(133)
KSTATS_MANY_FN(134) KSTATS_MANY_FN(135) KSTATS_MANY_FN(136)
KSTATS_MANY_FN(137) KSTATS_MANY_FN(138) KSTATS_MANY_FN(139)
KSTATS_MANY_FN(140) KSTATS_MANY_FN(141) KSTATS_MANY_FN(142)
KSTATS_MANY_FN(143) KSTATS_MANY_FN(144) KSTATS_MANY_FN(145)
KSTATS_MANY_FN(146) KSTATS_MANY_FN(147) KSTATS_MANY_FN(148)
KSTATS_MANY_FN(149) KSTATS_MANY_FN(150) KSTATS_MANY_FN(151)
KSTATS_MANY_FN(152) KSTATS_MANY_FN(153) KSTATS_MANY_FN(154)
KSTATS_MANY_FN(155) KSTATS_MANY_FN(156) KSTATS_MANY_FN(157)
KSTATS_MANY_FN(158) KSTATS_MANY_FN(159) KSTATS_MANY_FN(160)
KSTATS_MANY_FN(161) KSTATS_MANY_FN(162) KSTATS_MANY_FN(163)
KSTATS_MANY_FN(164) KSTATS_MANY_FN(165) KSTATS_MANY_FN(166)
KSTATS_MANY_FN(167) KSTATS_MANY_FN(168) KSTATS_MANY_FN(169)
KSTATS_MANY_FN(170) KSTATS_MANY_FN(171) KSTATS_MANY_FN(172)
KSTATS_MANY_FN(173) KSTATS_MANY_FN(174) KSTATS_MANY_FN(175)
KSTATS_MANY_FN(176) KSTATS_MANY_FN(177) KSTATS_MANY_FN(178)
KSTATS_MANY_FN(179) KSTATS_MANY_FN(180) KSTATS_MANY_FN(181)
KSTATS_MANY_FN(182) KSTATS_MANY_FN(183) KSTATS_MANY_FN(184)
KSTATS_MANY_FN(185) KSTATS_MANY_FN(186) KSTATS_MANY_FN(187)
KSTATS_MANY_FN(188) KSTATS_MANY_FN(189) KSTATS_MANY_FN(190)
KSTATS_MANY_FN(191) KSTATS_MANY_FN(192) KSTATS_MANY_FN(193)
KSTATS_MANY_FN(194) KSTATS_MANY_FN(195) KSTATS_MANY_FN(196)
KSTATS_MANY_FN(197) KSTATS_MANY_FN(198) KSTATS_MANY_FN(199)

static int (*const kstats_many_fns[KSTATS_MANY_FUNCS])(bool) = {
	kstats_many_fn0, kstats_many_fn1, kstats_many_fn2, kstats_many_fn3,
	kstats_many_fn4, kstats_many_fn5, kstats_many_fn6, kstats_many_fn7,
	kstats_many_fn8, kstats_many_fn9, kstats_many_fn10, kstats_many_fn11,
	kstats_many_fn12, kstats_many_fn13, kstats_many_fn14,
	kstats_many_fn15, kstats_many_fn16, kstats_many_fn17,
	kstats_many_fn18, kstats_many_fn19, kstats_many_fn20,
	kstats_many_fn21, kstats_many_fn22, kstats_many_fn23,
	kstats_many_fn24, kstats_many_fn25, kstats_many_fn26,
	kstats_many_fn27, kstats_many_fn28, kstats_many_fn29,
	kstats_many_fn30, kstats_many_fn31, kstats_many_fn32,
	kstats_many_fn33, kstats_many_fn34, kstats_many_fn35,
	kstats_many_fn36, kstats_many_fn37, kstats_many_fn38,
	kstats_many_fn39, kstats_many_fn40, kstats_many_fn41,
	kstats_many_fn42, kstats_many_fn43, kstats_many_fn44,
	kstats_many_fn45, kstats_many_fn46, kstats_many_fn47,
	kstats_many_fn48, kstats_many_fn49, kstats_many_fn50,
	kstats_many_fn51, kstats_many_fn52, kstats_many_fn53,
	kstats_many_fn54, kstats_many_fn55, kstats_many_fn56,
	kstats_many_fn57, kstats_many_fn58, kstats_many_fn59,
	kstats_many_fn60, kstats_many_fn61, kstats_many_fn62,
	kstats_many_fn63, kstats_many_fn64, kstats_many_fn65,
	kstats_many_fn66, kstats_many_fn67, kstats_many_fn68,
	kstats_many_fn69, kstats_many_fn70, kstats_many_fn71,
	kstats_many_fn72, kstats_many_fn73, kstats_many_fn74,
	kstats_many_fn75, kstats_many_fn76, kstats_many_fn77,
	kstats_many_fn78, kstats_many_fn79, kstats_many_fn80,
	kstats_many_fn81, kstats_many_fn82, kstats_many_fn83,
	kstats_many_fn84, kstats_many_fn85, kstats_many_fn86,
	kstats_many_fn87, kstats_many_fn88, kstats_many_fn89,
	kstats_many_fn90, kstats_many_fn91, kstats_many_fn92,
	kstats_many_fn93, kstats_many_fn94, kstats_many_fn95,
	kstats_many_fn96, kstats_many_fn97, kstats_many_fn98,
	kstats_many_fn99, kstats_many_fn100, kstats_many_fn101,
	kstats_many_fn102, kstats_many_fn103, kstats_many_fn104,
	kstats_many_fn105, kstats_many_fn106, kstats_many_fn107,
	kstats_many_fn108, kstats_many_fn109, kstats_many_fn110,
	kstats_many_fn111, kstats_many_fn112, kstats_many_fn113,
	kstats_many_fn114, kstats_many_fn115, kstats_many_fn116,
	kstats_many_fn117, kstats_many_fn118, kstats_many_fn119,
	kstats_many_fn120, kstats_many_fn121, kstats_many_fn122,
	kstats_many_fn123, kstats_many_fn124, kstats_many_fn125,
	kstats_many_fn126, kstats_many_fn127, kstats_many_fn128,
	kstats_many_fn129, kstats_many_fn130, kstats_many_fn131,
	kstats_many_fn132, kstats_many_fn133, kstats_many_fn134,
	kstats_many_fn135, kstats_many_fn136, kstats_many_fn137,
	kstats_many_fn138, kstats_many_fn139, kstats_many_fn140,
	kstats_many_fn141, kstats_many_fn142, kstats_many_fn143,
	kstats_many_fn144, kstats_many_fn145, kstats_many_fn146,
	kstats_many_fn147, kstats_many_fn148, kstats_many_fn149,
	kstats_many_fn150, kstats_many_fn151, kstats_many_fn152,
	kstats_many_fn153, kstats_many_fn154, kstats_many_fn155,
	kstats_many_fn156, kstats_many_fn157, kstats_many_fn158,
	kstats_many_fn159, kstats_many_fn160, kstats_many_fn161,
	kstats_many_fn162, kstats_many_fn163, kstats_many_fn164,
	kstats_many_fn165, kstats_many_fn166, kstats_many_fn167,
	kstats_many_fn168, kstats_many_fn169, kstats_many_fn170,
	kstats_many_fn171, kstats_many_fn172, kstats_many_fn173,
	kstats_many_fn174, kstats_many_fn175, kstats_many_fn176,
	kstats_many_fn177, kstats_many_fn178, kstats_many_fn179,
	kstats_many_fn180, kstats_many_fn181, kstats_many_fn182,
	kstats_many_fn183, kstats_many_fn184, kstats_many_fn185,
	kstats_many_fn186, kstats_many_fn187, kstats_many_fn188,
	kstats_many_fn189, kstats_many_fn190, kstats_many_fn191,
	kstats_many_fn192, kstats_many_fn193, kstats_many_fn194,
	kstats_many_fn195, kstats_many_fn196, kstats_many_fn197,
	kstats_many_fn198, kstats_many_fn199,
};

/* Eight arguments, two on the stack: EIO from "call" if the sum is wrong. */
static noinline __attribute__((__noipa__)) long
kstats_many_wide8(long a, long b, long c, long d,
		  long e, long f, long g, long h)
{
	return a + b + c + d + e + f + g + h;
}

/* Six arguments, all in registers: EIO from "call" if the sum is wrong. */
static noinline __attribute__((__noipa__)) long
kstats_many_wide6(long a, long b, long c, long d, long e, long f)
{
	return a + b + c + d + e + f;
}

static ssize_t kstats_many_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[32], *arg;
	unsigned int n, i, r, k;
	int err = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	arg = strim(buf);
	if (!strcmp(arg, "wake")) {
		WRITE_ONCE(kstats_many_gen, kstats_many_gen + 1);
		wake_up_all(&kstats_many_wq);
	} else if (sscanf(arg, "call %u", &n) == 1 && n <= 100000) {
		for (r = 0; r < n; r++)
			for (i = 0; i < KSTATS_MANY_FUNCS; i++)
				for (k = 0; k <= i % 5; k++)
					kstats_many_fns[i](false);
		for (r = 0; r < n && !err; r++)
			if (kstats_many_wide8(1, 2, 3, 4, 5, 6, 7, r) != 28 + r)
				err = -EIO;
		for (r = 0; r < n && !err; r++)
			if (kstats_many_wide6(1, 2, 3, 16, r, 6) != 28 + r)
				err = -EIO;
	} else if (sscanf(arg, "sleep %u", &n) == 1 && n < KSTATS_MANY_FUNCS) {
		err = kstats_many_fns[n](true);
	} else {
		return -EINVAL;
	}
	return err ? err : len;
}

static const struct file_operations kstats_many_fops = {
	.owner = THIS_MODULE,
	.write = kstats_many_write,
};

static struct dentry *kstats_many_dir;

static int __init kstats_many_init(void)
{
	kstats_many_dir = debugfs_create_dir("kstats_many", NULL);
	debugfs_create_file("ctl", 0200, kstats_many_dir, NULL,
			    &kstats_many_fops);
	return 0;
}

static void __exit kstats_many_exit(void)
{
	debugfs_remove_recursive(kstats_many_dir);
}

module_init(kstats_many_init);
module_exit(kstats_many_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats test: 200 functions for a node over many");
