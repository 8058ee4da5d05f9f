// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols of a user program or shared library, read from its ELF file
 * for "trace PATH:SYMBOL": the function's file offset, where the uprobe
 * goes.  The file is whatever the path names, so it is read as untrusted
 * input: each header, table and string is read only after its offset and
 * size were checked against the file's size, sizes that overflow are
 * refused, and a symbol's name is compared within its string table,
 * which is read whole and ended with a NUL of our own.
 *
 * What is looked at: the ELF header (a 64-bit program or shared library
 * of this machine and byte order), the program headers (the PT_LOAD
 * segments that are executable: a function's address is converted to a
 * file offset through the one that holds it), the section headers (the
 * symbol tables, .symtab and .dynsym, their string tables, and
 * .gnu.version, which tells a shared library's default version of a
 * symbol from its older ones).
 *
 * Context: process; reads the file, so only when a node is made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/elf.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_elf.h"
#include "kstats_internal.h"

/* The GNU extensions kstats reads, which the kernel's elf.h lacks. */
#define KSTATS_STT_GNU_IFUNC	10
#define KSTATS_SHT_GNU_VERSYM	0x6fffffff
/* A .gnu.version entry of a symbol that is not its name's default. */
#define KSTATS_VERSYM_HIDDEN	0x8000

/* Symbols read at once: 6 KiB of a table. */
#define KSTATS_ELF_SYMS_CHUNK	256

/*
 * @len bytes at @off, within the file's size (ENOEXEC: a table the file
 * says is there, and is not).
 */
static int kstats_elf_read(const struct kstats_elf_reader *r, void *buf,
			   u64 len, u64 off, const char **why)
{
	int err;

	if (off > r->size || len > r->size - off) {
		*why = "a header or table lies beyond the end of the file";
		return -ENOEXEC;
	}
	err = r->read(r->ctx, buf, len, off);
	if (err)
		*why = "the file could not be read";
	return err;
}

/* The ELF header of a 64-bit program or shared library of this machine. */
static int kstats_elf_header(const struct kstats_elf_reader *r,
			     struct elf64_hdr *eh, const char **why)
{
	int err;

	*why = "not an ELF file";
	if (r->size < sizeof(*eh))
		return -ENOEXEC;
	err = kstats_elf_read(r, eh, sizeof(*eh), 0, why);
	if (err)
		return err;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return -ENOEXEC;
	if (eh->e_ident[EI_CLASS] != ELF_CLASS) {
		*why = "not a 64-bit ELF file";
		return -ENOEXEC;
	}
	if (eh->e_ident[EI_DATA] != ELF_DATA) {
		*why = "an ELF file of the other byte order";
		return -ENOEXEC;
	}
	if (eh->e_machine != ELF_ARCH) {
		*why = "an ELF file of another machine";
		return -ENOEXEC;
	}
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
		*why = "an ELF file that is no program or shared library";
		return -ENOEXEC;
	}
	return 0;
}

/*
 * @n entries of @entsize bytes at @off, read into a new buffer (@size the
 * C size of one: a file whose entries are of another size is refused).
 */
static void *kstats_elf_table(const struct kstats_elf_reader *r, u64 off,
			      u64 n, u64 entsize, size_t size, const char **why)
{
	void *buf;
	int err;

	if (entsize != size) {
		*why = "its headers are of a size no 64-bit ELF file has";
		return ERR_PTR(-ENOEXEC);
	}
	if (n > r->size / size) {
		*why = "a header or table lies beyond the end of the file";
		return ERR_PTR(-ENOEXEC);
	}
	buf = kvmalloc_array(n ?: 1, size, GFP_KERNEL);
	if (!buf) {
		*why = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	/* no entries: whatever the offset says, nothing to read there */
	if (!n)
		return buf;
	err = kstats_elf_read(r, buf, n * size, off, why);
	if (err) {
		kvfree(buf);
		return ERR_PTR(err);
	}
	return buf;
}

/* The program headers, @eh->e_phnum of them. */
static struct elf64_phdr *kstats_elf_phdrs(const struct kstats_elf_reader *r,
					   const struct elf64_hdr *eh,
					   const char **why)
{
	return kstats_elf_table(r, eh->e_phoff, eh->e_phnum, eh->e_phentsize,
				sizeof(struct elf64_phdr), why);
}

/*
 * The executable PT_LOAD segment of @ph holding the file bytes
 * [@off, @off + 1), from the file's layout (@by_vaddr false) or the
 * address @off of its memory layout (@by_vaddr true): its file offset in
 * *@file_off.  A segment that ends past the file is refused.
 */
static int kstats_elf_code(const struct kstats_elf_reader *r,
			   const struct elf64_hdr *eh,
			   const struct elf64_phdr *ph, u64 off, bool by_vaddr,
			   u64 *file_off, const char **why)
{
	unsigned int i;

	for (i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *p = &ph[i];
		u64 start = by_vaddr ? p->p_vaddr : p->p_offset;

		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) ||
		    off < start || off - start >= p->p_filesz)
			continue;
		if (p->p_offset > r->size || p->p_filesz > r->size - p->p_offset) {
			*why = "an executable segment lies beyond the end of the file";
			return -ENOEXEC;
		}
		*file_off = p->p_offset + (off - start);
		return 0;
	}
	*why = by_vaddr ? "its address is in no executable segment of the file" :
			  "the offset is in no executable segment of the file";
	return -EINVAL;
}

/**
 * kstats_elf_code_offset() - whether a file offset is in an ELF file's code
 * @r: the file
 * @offset: the offset ("trace PATH:0xOFFSET")
 * @why: on failure, why, for the kernel log
 *
 * Context: process; may sleep.
 * Return: 0; -ENOEXEC for a file that is no 64-bit ELF program or shared
 * library of this machine (or whose headers lie beyond its end), -EINVAL
 * for an offset beyond its end or in no executable PT_LOAD segment,
 * -ENOMEM, or the reader's errno.
 */
int kstats_elf_code_offset(const struct kstats_elf_reader *r, u64 offset,
			   const char **why)
{
	struct elf64_phdr *ph;
	struct elf64_hdr eh;
	u64 at;
	int err;

	err = kstats_elf_header(r, &eh, why);
	if (err)
		return err;
	if (offset >= r->size) {
		*why = "the offset is beyond the end of the file";
		return -EINVAL;
	}
	ph = kstats_elf_phdrs(r, &eh, why);
	if (IS_ERR(ph))
		return PTR_ERR(ph);
	err = kstats_elf_code(r, &eh, ph, offset, false, &at, why);
	kvfree(ph);
	return err;
}
EXPORT_SYMBOL_NS_GPL(kstats_elf_code_offset, KSTATS_NS);

/*
 * What the symbols of a name were, over the tables: the functions found
 * (@nr distinct addresses, the first @found; one that is a shared
 * library's default version wins over its older ones, @hidden), and the
 * other kinds seen, for the reason a name that is no function is refused.
 */
struct kstats_elf_match {
	const char *name;
	size_t len;
	struct kstats_elf_func found;
	unsigned int nr;
	bool hidden;
	bool undefined;
	bool ifunc;
	bool other;
};

/* Symbol @s, named @name, a function of @m's name: counted once an address. */
static void kstats_elf_take(struct kstats_elf_match *m,
			    const struct elf64_sym *s, bool hidden)
{
	if (m->nr && s->st_value == m->found.vaddr) {
		/* the same function in both tables, or another version of it */
		m->hidden &= hidden;
		return;
	}
	/* an older version of a shared library's function gives way */
	if (m->nr && !hidden && m->hidden)
		m->nr = 0;
	else if (m->nr && hidden && !m->hidden)
		return;
	if (!m->nr) {
		m->found.vaddr = s->st_value;
		m->found.size = s->st_size;
		m->hidden = hidden;
	}
	m->nr++;
}

/*
 * Whether symbol @idx of the dynamic symbol table, @sh[@symtab], is not
 * its name's default version (.gnu.version, linked to that table).
 */
static bool kstats_elf_hidden(const struct kstats_elf_reader *r,
			      const struct elf64_hdr *eh,
			      const struct elf64_shdr *sh, unsigned int symtab,
			      u64 idx)
{
	unsigned int i;
	const char *why;
	u16 v;

	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != KSTATS_SHT_GNU_VERSYM ||
		    sh[i].sh_link != symtab || idx >= sh[i].sh_size / sizeof(v))
			continue;
		/* out of the file: no version known, taken as the default */
		if (kstats_elf_read(r, &v, sizeof(v),
				    sh[i].sh_offset + idx * sizeof(v), &why))
			return false;
		return v & KSTATS_VERSYM_HIDDEN;
	}
	return false;
}

/* The symbols named @m->name in table @sh[@t] and its string table. */
static int kstats_elf_symtab(const struct kstats_elf_reader *r,
			     const struct elf64_hdr *eh,
			     const struct elf64_shdr *sh, unsigned int t,
			     struct kstats_elf_match *m, const char **why)
{
	const struct elf64_shdr *tab = &sh[t], *str;
	u64 n, i, k, chunk;
	struct elf64_sym *syms;
	char *names;
	int err;

	if (tab->sh_entsize != sizeof(struct elf64_sym) ||
	    tab->sh_link >= eh->e_shnum) {
		*why = "a symbol table of a size or link no 64-bit ELF file has";
		return -ENOEXEC;
	}
	str = &sh[tab->sh_link];
	if (str->sh_size > KSTATS_ELF_STRTAB_MAX) {
		*why = "a string table over 64 MiB";
		return -EFBIG;
	}
	n = tab->sh_size / sizeof(struct elf64_sym);
	names = kvmalloc(str->sh_size + 1, GFP_KERNEL);
	syms = kmalloc_array(KSTATS_ELF_SYMS_CHUNK, sizeof(*syms), GFP_KERNEL);
	err = -ENOMEM;
	*why = "out of memory";
	if (!names || !syms)
		goto out;
	err = kstats_elf_read(r, names, str->sh_size, str->sh_offset, why);
	if (err)
		goto out;
	/* every name ends within the table, however the file ends it */
	names[str->sh_size] = '\0';
	for (i = 0; i < n; i += chunk) {
		chunk = min_t(u64, n - i, KSTATS_ELF_SYMS_CHUNK);
		err = kstats_elf_read(r, syms, chunk * sizeof(*syms),
				      tab->sh_offset + i * sizeof(*syms), why);
		if (err)
			goto out;
		for (k = 0; k < chunk; k++) {
			const struct elf64_sym *s = &syms[k];

			if (s->st_name >= str->sh_size ||
			    str->sh_size - s->st_name < m->len ||
			    memcmp(names + s->st_name, m->name, m->len + 1))
				continue;
			if (s->st_shndx == SHN_UNDEF) {
				m->undefined = true;
			} else if (ELF64_ST_TYPE(s->st_info) == STT_FUNC) {
				kstats_elf_take(m, s, tab->sh_type == SHT_DYNSYM &&
						kstats_elf_hidden(r, eh, sh, t, i + k));
			} else if (ELF64_ST_TYPE(s->st_info) == KSTATS_STT_GNU_IFUNC) {
				m->ifunc = true;
			} else {
				m->other = true;
			}
		}
	}
out:
	kfree(syms);
	kvfree(names);
	return err;
}

/* Why no function of the name was taken, from what was seen. */
static int kstats_elf_no_func(const struct kstats_elf_match *m, bool tables,
			      const char **why)
{
	if (m->ifunc) {
		*why = "an ifunc (STT_GNU_IFUNC), its address its resolver's";
		return -EINVAL;
	}
	if (m->other) {
		*why = "a symbol that is no function (not STT_FUNC: data, or another kind)";
		return -EINVAL;
	}
	if (m->undefined) {
		*why = "a symbol the file imports: trace the library that defines it";
		return -ENOENT;
	}
	*why = tables ? "no symbol of that name in the file's symbol tables" :
			"no symbol table in the file (stripped): give PATH:0xOFFSET";
	return -ENOENT;
}

/**
 * kstats_elf_func() - a function of an ELF file, by its symbol's name
 * @r: the file
 * @name: the symbol, as its table has it (no version suffix)
 * @f: where to store the function's file offset, address and size
 * @why: on failure, why, for the kernel log
 *
 * The symbol is looked for in .symtab and .dynsym; a name that both
 * define at one address is one function, as is a shared library's name
 * whose default version (.gnu.version) is at another address than its
 * older ones (the default is taken).  Its address is converted to a file
 * offset through the executable PT_LOAD segment that holds it.
 *
 * Context: process; may sleep.
 * Return: 0; -ENOEXEC for a file that is no 64-bit ELF program or shared
 * library of this machine, or whose headers or tables lie beyond its end;
 * -ENOENT for a name in no symbol table, or only imported there; -EINVAL
 * for a symbol that is no function (data, an ifunc) or an address in no
 * executable segment; -ENOTUNIQ for functions of that name at several
 * addresses (static functions of several files); -EFBIG for a string
 * table over KSTATS_ELF_STRTAB_MAX; -ENOMEM; or the reader's errno.
 */
int kstats_elf_func(const struct kstats_elf_reader *r, const char *name,
		    struct kstats_elf_func *f, const char **why)
{
	struct kstats_elf_match m = { .name = name, .len = strlen(name) };
	struct elf64_phdr *ph = NULL;
	struct elf64_shdr *sh;
	struct elf64_hdr eh;
	bool tables = false;
	unsigned int i;
	int err;

	err = kstats_elf_header(r, &eh, why);
	if (err)
		return err;
	/* extended numbering (e_shnum 0, the count elsewhere): no tables read */
	sh = kstats_elf_table(r, eh.e_shoff, eh.e_shnum, eh.e_shnum ?
			      eh.e_shentsize : sizeof(*sh), sizeof(*sh), why);
	if (IS_ERR(sh))
		return PTR_ERR(sh);
	for (i = 0; !err && i < eh.e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
			continue;
		tables = true;
		err = kstats_elf_symtab(r, &eh, sh, i, &m, why);
	}
	if (err)
		goto out;
	if (!m.nr) {
		err = kstats_elf_no_func(&m, tables, why);
		goto out;
	}
	if (m.nr > 1) {
		*why = "functions of that name at several addresses (statics): give PATH:0xOFFSET";
		err = -ENOTUNIQ;
		goto out;
	}
	ph = kstats_elf_phdrs(r, &eh, why);
	if (IS_ERR(ph)) {
		err = PTR_ERR(ph);
		ph = NULL;
		goto out;
	}
	err = kstats_elf_code(r, &eh, ph, m.found.vaddr, true, &m.found.offset,
			      why);
	if (!err)
		*f = m.found;
out:
	kvfree(ph);
	kvfree(sh);
	return err;
}
EXPORT_SYMBOL_NS_GPL(kstats_elf_func, KSTATS_NS);
