// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kstats_elf.c, the reader that finds a user function in
 * its ELF file: an image built here in memory, of this machine, with the
 * symbols each refusal is for, then the same image broken in each of the
 * ways an untrusted file may be.  Built as kstats_elf_test.ko against
 * kstats.ko (where the kernel's uprobe API is one kstats builds for).
 */
#include <kunit/test.h>
#include <linux/elf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_elf.h"
#include "kstats_internal.h"

/* The image's layout: headers, then code, then data, then the tables. */
#define T_SIZE		0x3000
#define T_BASE		0x400000
#define T_CODE		0x1000		/* file offset of the code segment */
#define T_DATA		0x2000		/* of the data segment */
#define T_DATA_VADDR	0x403000
#define T_SYMTAB	0x2100
#define T_DYNSYM	0x2400
#define T_VERSYM	0x2600
#define T_STRTAB	0x2700
#define T_SHDRS		0x2800
#define T_NSYMS		12
#define T_NDYN		4

/* The sections, in the order of their headers. */
enum { S_NULL, S_SYMTAB, S_STRTAB, S_DYNSYM, S_VERSYM, S_NR };

/* An image and the reader of it. */
struct t_image {
	u8 *buf;
	size_t size;
	int fail;	/* the error every read returns, if not 0 */
	struct kstats_elf_reader r;
};

static int t_read(void *ctx, void *buf, size_t len, u64 off)
{
	struct t_image *im = ctx;

	if (im->fail)
		return im->fail;
	/* the reader never asks past the end: a test of its own checks */
	if (off > im->size || len > im->size - off)
		return -EFAULT;
	memcpy(buf, im->buf + off, len);
	return 0;
}

/* A name in the one string table, which both symbol tables share. */
static u32 t_str(u8 *buf, u32 *end, const char *s)
{
	u32 at = *end;
	size_t len = strlen(s) + 1;

	memcpy(buf + T_STRTAB + at, s, len);
	*end += len;
	return at;
}

static void t_sym(struct elf64_sym *s, u32 name, u8 type, u8 bind, u16 shndx,
		  u64 value, u64 size)
{
	s->st_name = name;
	s->st_info = (bind << 4) | type;
	s->st_shndx = shndx;
	s->st_value = value;
	s->st_size = size;
}

static void t_shdr(struct elf64_shdr *sh, u32 type, u64 off, u64 size,
		   u32 link, u64 entsize)
{
	sh->sh_type = type;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_link = link;
	sh->sh_entsize = entsize;
}

/*
 * The image: a read-only segment of the headers, an executable one of
 * code (0x401000), a data one (0x403000); .symtab with f (a function),
 * d (data), u (imported), i (an ifunc), dup twice at two addresses,
 * nox (a "function" in the data), both (also in .dynsym); .dynsym with
 * v, an older version hidden at 0x401040 and the default at 0x401050.
 */
static struct t_image *t_image(struct kunit *test)
{
	struct t_image *im = kunit_kzalloc(test, sizeof(*im), GFP_KERNEL);
	struct elf64_phdr *ph;
	struct elf64_shdr *sh;
	struct elf64_hdr *eh;
	struct elf64_sym *sy, *dy;
	u16 *vs;
	u32 str = 1;

	KUNIT_ASSERT_NOT_NULL(test, im);
	im->buf = kunit_kzalloc(test, T_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, im->buf);
	im->size = T_SIZE;
	im->r.read = t_read;
	im->r.ctx = im;
	im->r.size = T_SIZE;

	eh = (void *)im->buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELF_CLASS;
	eh->e_ident[EI_DATA] = ELF_DATA;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = ELF_ARCH;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 3;
	eh->e_shoff = T_SHDRS;
	eh->e_shentsize = sizeof(*sh);
	eh->e_shnum = S_NR;

	ph = (void *)(im->buf + sizeof(*eh));
	ph[0] = (struct elf64_phdr){ .p_type = PT_LOAD, .p_flags = PF_R,
		.p_offset = 0, .p_vaddr = T_BASE, .p_filesz = T_CODE };
	ph[1] = (struct elf64_phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
		.p_offset = T_CODE, .p_vaddr = T_BASE + T_CODE,
		.p_filesz = 0x1000 };
	ph[2] = (struct elf64_phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W,
		.p_offset = T_DATA, .p_vaddr = T_DATA_VADDR, .p_filesz = 0x100 };

	sy = (void *)(im->buf + T_SYMTAB);
	t_sym(&sy[1], t_str(im->buf, &str, "f"), STT_FUNC, STB_GLOBAL, 1,
	      0x401010, 16);
	t_sym(&sy[2], t_str(im->buf, &str, "d"), STT_OBJECT, STB_GLOBAL, 2,
	      T_DATA_VADDR, 4);
	t_sym(&sy[3], t_str(im->buf, &str, "u"), STT_FUNC, STB_GLOBAL,
	      SHN_UNDEF, 0, 0);
	t_sym(&sy[4], t_str(im->buf, &str, "i"), 10, STB_GLOBAL, 1, 0x401018, 8);
	t_sym(&sy[5], t_str(im->buf, &str, "dup"), STT_FUNC, STB_LOCAL, 1,
	      0x401020, 8);
	t_sym(&sy[6], sy[5].st_name, STT_FUNC, STB_LOCAL, 1, 0x401030, 8);
	t_sym(&sy[7], t_str(im->buf, &str, "nox"), STT_FUNC, STB_GLOBAL, 2,
	      T_DATA_VADDR + 0x10, 8);
	t_sym(&sy[8], t_str(im->buf, &str, "both"), STT_FUNC, STB_GLOBAL, 1,
	      0x401060, 8);
	/* "oth": the tail of "both", as linkers share a name's suffix */
	t_sym(&sy[9], sy[8].st_name + 1, STT_FUNC, STB_GLOBAL, 1, 0x401070, 8);
	/* a name past the table: never read */
	t_sym(&sy[10], T_SIZE, STT_FUNC, STB_GLOBAL, 1, 0x401080, 8);

	dy = (void *)(im->buf + T_DYNSYM);
	t_sym(&dy[1], t_str(im->buf, &str, "v"), STT_FUNC, STB_GLOBAL, 1,
	      0x401040, 8);
	t_sym(&dy[2], dy[1].st_name, STT_FUNC, STB_GLOBAL, 1, 0x401050, 8);
	t_sym(&dy[3], sy[8].st_name, STT_FUNC, STB_GLOBAL, 1, 0x401060, 8);
	vs = (void *)(im->buf + T_VERSYM);
	vs[1] = 0x8002;		/* v@OLD: hidden */
	vs[2] = 3;		/* v@@NEW: the default */
	vs[3] = 1;

	sh = (void *)(im->buf + T_SHDRS);
	t_shdr(&sh[S_SYMTAB], SHT_SYMTAB, T_SYMTAB, T_NSYMS * sizeof(*sy),
	       S_STRTAB, sizeof(*sy));
	t_shdr(&sh[S_STRTAB], SHT_STRTAB, T_STRTAB, str, 0, 0);
	t_shdr(&sh[S_DYNSYM], SHT_DYNSYM, T_DYNSYM, T_NDYN * sizeof(*dy),
	       S_STRTAB, sizeof(*dy));
	t_shdr(&sh[S_VERSYM], 0x6fffffff, T_VERSYM, T_NDYN * sizeof(*vs),
	       S_DYNSYM, sizeof(*vs));
	return im;
}

static struct elf64_hdr *t_eh(struct t_image *im)
{
	return (void *)im->buf;
}

static struct elf64_shdr *t_sh(struct t_image *im)
{
	return (void *)(im->buf + T_SHDRS);
}

/* kstats_elf_func() of @name: its errno, its offset in *@off. */
static int t_func(struct t_image *im, const char *name, u64 *off)
{
	struct kstats_elf_func f = {};
	const char *why = NULL;
	int err = kstats_elf_func(&im->r, name, &f, &why);

	*off = err ? 0 : f.offset;
	return err;
}

static void kstats_elf_test_symbols(struct kunit *test)
{
	struct t_image *im = t_image(test);
	struct kstats_elf_func f = {};
	const char *why = NULL;
	u64 off;

	KUNIT_EXPECT_EQ(test, kstats_elf_func(&im->r, "f", &f, &why), 0);
	KUNIT_EXPECT_EQ(test, f.offset, 0x1010ULL);
	KUNIT_EXPECT_EQ(test, f.vaddr, 0x401010ULL);
	KUNIT_EXPECT_EQ(test, f.size, 16ULL);
	/* in both tables at one address: one function */
	KUNIT_EXPECT_EQ(test, t_func(im, "both", &off), 0);
	KUNIT_EXPECT_EQ(test, off, 0x1060ULL);
	/* a suffix of another name, as the table shares it */
	KUNIT_EXPECT_EQ(test, t_func(im, "oth", &off), 0);
	KUNIT_EXPECT_EQ(test, off, 0x1070ULL);
	/* the default version, not the older hidden one */
	KUNIT_EXPECT_EQ(test, t_func(im, "v", &off), 0);
	KUNIT_EXPECT_EQ(test, off, 0x1050ULL);
	/* a prefix of a name is not that name */
	KUNIT_EXPECT_EQ(test, t_func(im, "bot", &off), -ENOENT);
	KUNIT_EXPECT_EQ(test, t_func(im, "missing", &off), -ENOENT);
	KUNIT_EXPECT_EQ(test, t_func(im, "u", &off), -ENOENT);
	KUNIT_EXPECT_EQ(test, t_func(im, "d", &off), -EINVAL);
	KUNIT_EXPECT_EQ(test, t_func(im, "i", &off), -EINVAL);
	KUNIT_EXPECT_EQ(test, t_func(im, "dup", &off), -ENOTUNIQ);
	KUNIT_EXPECT_EQ(test, t_func(im, "nox", &off), -EINVAL);
	why = NULL;
	KUNIT_EXPECT_EQ(test, kstats_elf_func(&im->r, "d", &f, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);
}

static void kstats_elf_test_offsets(struct kunit *test)
{
	struct t_image *im = t_image(test);
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x1010, &why), 0);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x1fff, &why), 0);
	/* the headers' segment, the data's, the tables: no code */
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x10, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x2000, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x2fff, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, T_SIZE, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, U64_MAX, &why), -EINVAL);
}

/* Each way the header may not be a program of this machine. */
static void kstats_elf_test_headers(struct kunit *test)
{
	struct t_image *im;
	u64 off;

	im = t_image(test);
	im->buf[1] = 'X';
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	im->buf[EI_CLASS] = ELFCLASS32;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	/* the byte order this machine does not have */
	im->buf[EI_DATA] = ELFDATA2LSB + ELFDATA2MSB - ELF_DATA;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_eh(im)->e_machine = ELF_ARCH + 1;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_eh(im)->e_type = ET_REL;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	/* shorter than its header */
	im = t_image(test);
	im->r.size = 32;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	/* a shared library: the same */
	im = t_image(test);
	t_eh(im)->e_type = ET_DYN;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), 0);
	KUNIT_EXPECT_EQ(test, off, 0x1010ULL);
	/* no sections: nothing to look in */
	im = t_image(test);
	t_eh(im)->e_shnum = 0;
	t_eh(im)->e_shoff = U64_MAX;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOENT);
}

/*
 * Each table and header the file places beyond its end, or of a size no
 * such file has: refused, and nothing read past the end (t_read() would
 * say -EFAULT).
 */
static void kstats_elf_test_bounds(struct kunit *test)
{
	struct t_image *im;
	u64 off;

	im = t_image(test);
	t_eh(im)->e_shoff = T_SIZE - 8;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_eh(im)->e_shoff = U64_MAX - 8;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_eh(im)->e_shentsize = 32;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_SYMTAB].sh_size = U64_MAX - 7;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_SYMTAB].sh_offset = T_SIZE - sizeof(struct elf64_sym);
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_SYMTAB].sh_entsize = 16;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_SYMTAB].sh_link = S_NR;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_STRTAB].sh_offset = T_SIZE - 1;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	t_sh(im)[S_STRTAB].sh_size = KSTATS_ELF_STRTAB_MAX + 1;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -EFBIG);
	/* the program headers, and an executable segment past the end */
	im = t_image(test);
	t_eh(im)->e_phoff = T_SIZE - 8;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	im = t_image(test);
	((struct elf64_phdr *)(im->buf + sizeof(struct elf64_hdr)))[1].p_filesz = U64_MAX;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -ENOEXEC);
	/* the version table past the end: taken as no version */
	im = t_image(test);
	t_sh(im)[S_VERSYM].sh_offset = T_SIZE;
	KUNIT_EXPECT_EQ(test, t_func(im, "v", &off), -ENOTUNIQ);
	/* a string table that ends with no NUL: no name runs past it */
	im = t_image(test);
	t_sh(im)[S_STRTAB].sh_size = t_sh(im)[S_STRTAB].sh_size - 1;
	KUNIT_EXPECT_EQ(test, t_func(im, "v", &off), 0);
	KUNIT_EXPECT_EQ(test, off, 0x1050ULL);
}

/* A read that fails: its errno, nothing found. */
static void kstats_elf_test_read_error(struct kunit *test)
{
	struct t_image *im = t_image(test);
	const char *why = NULL;
	u64 off;

	im->fail = -EIO;
	KUNIT_EXPECT_EQ(test, t_func(im, "f", &off), -EIO);
	KUNIT_EXPECT_EQ(test, kstats_elf_code_offset(&im->r, 0x1010, &why), -EIO);
}

static struct kunit_case kstats_elf_test_cases[] = {
	KUNIT_CASE(kstats_elf_test_symbols),
	KUNIT_CASE(kstats_elf_test_offsets),
	KUNIT_CASE(kstats_elf_test_headers),
	KUNIT_CASE(kstats_elf_test_bounds),
	KUNIT_CASE(kstats_elf_test_read_error),
	{}
};

static struct kunit_suite kstats_elf_test_suite = {
	.name = "kstats_elf",
	.test_cases = kstats_elf_test_cases,
};

kunit_test_suite(kstats_elf_test_suite);

MODULE_DESCRIPTION("KUnit tests of kstats' ELF reader");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSTATS_NS);
