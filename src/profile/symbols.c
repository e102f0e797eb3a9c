/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "util/str.h"
#include "util/sysroot.h"

void pl_symtab_init(struct pl_symtab *st, const char *debug_root)
{
	memset(st, 0, sizeof(*st));
	st->debug_root = pl_xstrdup(debug_root ? debug_root : "/usr/lib/debug");
	elf_version(EV_CURRENT);
}

static void module_free(struct pl_module *m)
{
	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	free(m->path);
	free(m->syms);
	free(m->strs);
	free(m->symsrc);
	free(m);
}

void pl_symtab_free(struct pl_symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nmods; i++)
		module_free(st->mods[i]);
	free(st->mods);
	for (size_t i = 0; i < st->njits; i++) {
		free(st->jits[i].syms);
		free(st->jits[i].strs);
	}
	free(st->jits);
	free(st->ksyms);
	free(st->kmods);
	free(st->kstrs);
	free(st->debug_root);
	memset(st, 0, sizeof(*st));
}

static bool is_anon(const char *path)
{
	return !path || !*path || strcmp(path, "//anon") == 0 || pl_startswith(path, "[anon") ||
	       pl_startswith(path, "/memfd:") || strcmp(path, "[heap]") == 0 ||
	       strcmp(path, "[stack]") == 0;
}

struct pl_module *pl_symtab_module(struct pl_symtab *st, const char *path, uint64_t dev,
				   uint64_t ino, const uint8_t *bid, uint32_t bid_len, pid_t pid,
				   uint64_t start, uint64_t end, bool live)
{
	if (bid_len > 20)
		bid_len = 20;
	bool anon = is_anon(path);
	for (size_t i = 0; i < st->nmods; i++) {
		struct pl_module *m = st->mods[i];
		bool same;
		if (anon || m->jit)
			same = anon && m->jit;
		else if (bid_len && m->build_id_len)
			same = m->build_id_len == bid_len && memcmp(m->build_id, bid, bid_len) == 0;
		else if (ino || m->ino)
			same = m->dev == dev && m->ino == ino;
		else
			same = strcmp(m->path, path) == 0; /* [vdso] and friends */
		if (!same)
			continue;
		if (m->fd < 0 && live && !m->loaded && !anon && ino) {
			/* the mapped file itself, through the live process's map_files link
			 * (kept open for libelf; why not pl_read_file: below) */
			char rel[96], p[4096];
			snprintf(rel, sizeof(rel), "/proc/%d/map_files/%llx-%llx", (int)pid,
				 (unsigned long long)start, (unsigned long long)end);
			if (pl_sysroot_path(p, sizeof(p), rel) == 0)
				m->fd = open(p, O_RDONLY | O_CLOEXEC);
		}
		return m;
	}
	struct pl_module *m = pl_xcalloc(1, sizeof(*m));
	m->path = pl_xstrdup(anon ? "[jit]" : path);
	const char *slash = strrchr(m->path, '/');
	m->name = slash ? slash + 1 : m->path;
	m->dev = dev;
	m->ino = ino;
	m->pid = pid;
	m->fd = -1;
	m->jit = anon;
	if (bid_len) {
		memcpy(m->build_id, bid, bid_len);
		m->build_id_len = bid_len;
	}
	if (live && !anon && ino) {
		/* A live read of the target's /proc/PID/map_files/START-END: the very file it
		 * mapped, even when that path was replaced or deleted since, or lives in another
		 * mount namespace. It is an ELF image kept open as a descriptor for libelf (as
		 * open_in_sysroot), not a text file, so not pl_read_file(); the path gets the
		 * sysroot prefix, which is "/" here (@live: the tasks are running). */
		char rel[96], p[4096];
		snprintf(rel, sizeof(rel), "/proc/%d/map_files/%llx-%llx", (int)pid,
			 (unsigned long long)start, (unsigned long long)end);
		if (pl_sysroot_path(p, sizeof(p), rel) == 0)
			m->fd = open(p, O_RDONLY | O_CLOEXEC);
	}
	if (st->nmods == st->capmods) {
		st->capmods = st->capmods ? st->capmods * 2 : 32;
		st->mods = pl_xrealloc(st->mods, st->capmods * sizeof(*st->mods));
	}
	st->mods[st->nmods++] = m;
	return m;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct pl_sym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Prefer the sized, then the shorter (non-versioned) name at the same address. */
	if ((x->size == 0) != (y->size == 0))
		return x->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sort, drop duplicates at one address, give size-0 symbols the gap to the next. */
static void finish_syms(struct pl_sym *s, size_t *n)
{
	if (!*n)
		return;
	qsort(s, *n, sizeof(*s), cmp_sym);
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		if (w && s[w - 1].start == s[i].start)
			continue;
		s[w++] = s[i];
	}
	for (size_t i = 0; i < w; i++)
		if (!s[i].size && i + 1 < w)
			s[i].size = s[i + 1].start - s[i].start;
	*n = w;
}

static void read_build_id(Elf *e, uint8_t *out, uint32_t *len)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0 && nh.n_descsz <= 20) {
				memcpy(out, (char *)d->d_buf + doff, nh.n_descsz);
				*len = (uint32_t)nh.n_descsz;
				return;
			}
		}
	}
}

static const char *read_debuglink(Elf *e)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *nm = elf_strptr(e, shstrndx, sh.sh_name);
		if (nm && strcmp(nm, ".gnu_debuglink") == 0) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d && d->d_size > 4 && memchr(d->d_buf, 0, d->d_size))
				return d->d_buf;
		}
	}
	return NULL;
}

static void read_segs(Elf *e, struct pl_module *m)
{
	size_t n;
	if (elf_getphdrnum(e, &n) < 0)
		return;
	m->nsegs = 0;
	for (size_t i = 0; i < n && m->nsegs < 16; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			m->segs[m->nsegs++] =
				(struct pl_seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
}

/* Append the function symbols of @e (.symtab when present, else .dynsym). */
/* Point the symbols at their names in the stolen string storage, then sort. */
static char *fix_names(struct pl_sym *syms, size_t *n, struct pl_buf *strs, size_t *offs)
{
	char *base = pl_buf_steal(strs);
	for (size_t i = 0; i < *n; i++)
		syms[i].name = base + offs[i];
	free(offs);
	finish_syms(syms, n);
	return base;
}

static size_t read_syms(Elf *e, struct pl_module *m)
{
	Elf_Scn *scn = NULL, *best = NULL;
	GElf_Shdr bsh = { 0 };
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !best)) {
			best = scn;
			bsh = sh;
		}
	}
	if (!best)
		return 0;
	Elf_Data *d = elf_getdata(best, NULL);
	if (!d || !bsh.sh_entsize)
		return 0;
	size_t n = bsh.sh_size / bsh.sh_entsize;
	struct pl_buf strs = { 0 };
	struct pl_sym *syms = pl_xmalloc((n ? n : 1) * sizeof(*syms));
	size_t *offs = pl_xmalloc((n ? n : 1) * sizeof(*offs));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			continue;
		int t = GELF_ST_TYPE(s.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		const char *nm = elf_strptr(e, bsh.sh_link, s.st_name);
		if (!nm || !*nm)
			continue;
		offs[k] = strs.len;
		pl_buf_append(&strs, nm, strlen(nm) + 1);
		syms[k++] = (struct pl_sym){ s.st_value, s.st_size, NULL };
	}
	m->strs = fix_names(syms, &k, &strs, offs);
	m->syms = syms;
	m->nsyms = k;
	return k;
}

static bool has_symtab(Elf *e)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB && sh.sh_size)
			return true;
	}
	return false;
}

/* An ELF file (a binary, a library, a debug file, or one seen through /proc/PID/root)
 * opened read-only under the sysroot prefix for libelf. Not through pl_read_file(): libelf
 * maps the file from a descriptor (ELF_C_READ_MMAP) and reads only the sections it needs,
 * where pl_read_file() would copy a whole (often large, not text) image into memory and
 * refuse one over PL_READ_MAX. The path still gets the sysroot prefix (pl_sysroot_path),
 * although profile runs only on the live system. */
static int open_in_sysroot(const char *abs)
{
	char p[4096];
	if (abs[0] != '/' || pl_sysroot_path(p, sizeof(p), abs) < 0)
		return -1;
	return open(p, O_RDONLY | O_CLOEXEC);
}

/* Try a debug file: must be ELF and, when both build-ids are known, match. */
static Elf *try_debug(const char *abs, const struct pl_module *m, int *fd_out)
{
	int fd = open_in_sysroot(abs);
	if (fd < 0)
		return NULL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !has_symtab(e)) {
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	if (m->build_id_len) {
		uint8_t b[20];
		uint32_t bl = 0;
		read_build_id(e, b, &bl);
		if (bl && (bl != m->build_id_len || memcmp(b, m->build_id, bl) != 0)) {
			elf_end(e);
			close(fd);
			return NULL;
		}
	}
	*fd_out = fd;
	return e;
}

static Elf *find_debug(struct pl_symtab *st, struct pl_module *m, const char *link, int *fd,
		       char **src)
{
	char p[4096];
	Elf *e;
	if (m->build_id_len) {
		int n = snprintf(p, sizeof(p), "%s/.build-id/%02x/", st->debug_root,
				 m->build_id[0]);
		for (uint32_t i = 1; i < m->build_id_len && n < (int)sizeof(p) - 8; i++)
			n += snprintf(p + n, sizeof(p) - (size_t)n, "%02x", m->build_id[i]);
		snprintf(p + n, sizeof(p) - (size_t)n, ".debug");
		if ((e = try_debug(p, m, fd))) {
			*src = pl_xstrdup(p);
			return e;
		}
	}
	if (link && m->path[0] == '/') {
		char dir[2048];
		snprintf(dir, sizeof(dir), "%s", m->path);
		char *sl = strrchr(dir, '/');
		*sl = '\0';
		const char *fmts[] = { "%s/%s", "%s/.debug/%s", NULL };
		for (int i = 0; fmts[i]; i++) {
			snprintf(p, sizeof(p), fmts[i], dir, link);
			if ((e = try_debug(p, m, fd))) {
				*src = pl_xstrdup(p);
				return e;
			}
		}
		snprintf(p, sizeof(p), "%s%s/%s", st->debug_root, dir, link);
		if ((e = try_debug(p, m, fd))) {
			*src = pl_xstrdup(p);
			return e;
		}
	}
	return NULL;
}

/* The vDSO is the same image in every process: read perflab's own. */
static int load_vdso(struct pl_module *m)
{
	const uint8_t *img = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	if (!img)
		return -ENOENT;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	size_t len = (size_t)(eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize);
	Elf *e = elf_memory((char *)img, len);
	if (!e)
		return -EINVAL;
	read_segs(e, m);
	read_syms(e, m);
	elf_end(e);
	m->symsrc = pl_xstrdup("[vdso]");
	return m->nsyms ? 0 : -ENODATA;
}

int pl_module_load(struct pl_symtab *st, struct pl_module *m)
{
	if (m->loaded)
		return m->nsyms ? 0 : -ENODATA;
	m->loaded = true;
	if (m->jit)
		return -ENODATA;
	if (strcmp(m->path, "[vdso]") == 0)
		return pl_sysroot_is_live() ? load_vdso(m) : -ENOENT;
	int fd = -1;
	if (m->fd >= 0) {
		fd = dup(m->fd);
	} else if (m->path[0] == '/') {
		char rel[4096];
		snprintf(rel, sizeof(rel), "/proc/%d/root%s", (int)m->pid, m->path);
		fd = open_in_sysroot(rel);
		if (fd < 0)
			fd = open_in_sysroot(m->path);
	}
	Elf *e = NULL;
	if (fd >= 0) {
		e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (e && elf_kind(e) != ELF_K_ELF) {
			elf_end(e);
			e = NULL;
		}
	}
	const char *link = NULL;
	if (e) {
		read_segs(e, m);
		if (!m->build_id_len)
			read_build_id(e, m->build_id, &m->build_id_len);
		link = read_debuglink(e);
	}
	int r = -ENODATA;
	if (!e || !has_symtab(e)) {
		int dfd = -1;
		char *src = NULL;
		Elf *d = find_debug(st, m, link, &dfd, &src);
		if (d) {
			if (!m->nsegs)
				read_segs(d, m);
			if (read_syms(d, m)) {
				m->symsrc = src;
				src = NULL;
				r = 0;
			}
			free(src);
			elf_end(d);
			close(dfd);
		}
	}
	if (r < 0 && e && read_syms(e, m)) {
		m->symsrc = pl_xstrdup(m->path);
		r = 0;
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	if (!e && r < 0)
		return -ENOENT;
	return r;
}

int pl_module_off2vaddr(const struct pl_module *m, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < m->nsegs; i++) {
		const struct pl_seg *s = &m->segs[i];
		if (off >= s->off && off < s->off + s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct pl_sym *bsearch_sym(const struct pl_sym *s, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct pl_sym *c = &s[lo - 1];
	/* The last symbol without size gets a generous 4 KiB. */
	uint64_t size = c->size ? c->size : 4096;
	return a < c->start + size ? c : NULL;
}

const struct pl_sym *pl_module_resolve(struct pl_symtab *st, struct pl_module *m, uint64_t off,
				       uint64_t *sym_off)
{
	if (!m->loaded)
		pl_module_load(st, m);
	uint64_t va;
	if (!m->nsyms || pl_module_off2vaddr(m, off, &va) < 0)
		return NULL;
	const struct pl_sym *s = bsearch_sym(m->syms, m->nsyms, va);
	if (s && sym_off)
		*sym_off = va - s->start;
	return s;
}

static void load_jit(struct pl_jitmap *j)
{
	j->tried = true;
	char rel[128];
	char *txt = NULL;
	snprintf(rel, sizeof(rel), "/proc/%d/root/tmp/perf-%d.map", (int)j->pid, (int)j->pid);
	if (pl_read_file(rel, &txt, NULL) < 0) {
		snprintf(rel, sizeof(rel), "/tmp/perf-%d.map", (int)j->pid);
		if (pl_read_file(rel, &txt, NULL) < 0)
			return;
	}
	struct pl_buf strs = { 0 };
	size_t cap = 64, n = 0;
	struct pl_sym *s = pl_xmalloc(cap * sizeof(*s));
	size_t *offs = pl_xmalloc(cap * sizeof(*offs));
	for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
		/* "START SIZE name with spaces", START and SIZE hex without 0x */
		char *e1, *e2;
		unsigned long long a = strtoull(line, &e1, 16);
		if (e1 == line || *e1 != ' ')
			continue;
		unsigned long long sz = strtoull(e1 + 1, &e2, 16);
		if (e2 == e1 + 1 || *e2 != ' ')
			continue;
		if (n == cap) {
			cap *= 2;
			s = pl_xrealloc(s, cap * sizeof(*s));
			offs = pl_xrealloc(offs, cap * sizeof(*offs));
		}
		offs[n] = strs.len;
		pl_buf_append(&strs, e2 + 1, strlen(e2 + 1) + 1);
		s[n++] = (struct pl_sym){ a, sz, NULL };
	}
	free(txt);
	j->strs = fix_names(s, &n, &strs, offs);
	j->syms = s;
	j->nsyms = n;
}

const struct pl_sym *pl_jit_resolve(struct pl_symtab *st, pid_t pid, uint64_t addr)
{
	struct pl_jitmap *j = NULL;
	for (size_t i = 0; i < st->njits; i++)
		if (st->jits[i].pid == pid)
			j = &st->jits[i];
	if (!j) {
		st->jits = pl_xrealloc(st->jits, (st->njits + 1) * sizeof(*st->jits));
		j = &st->jits[st->njits++];
		memset(j, 0, sizeof(*j));
		j->pid = pid;
	}
	if (!j->tried)
		load_jit(j);
	return bsearch_sym(j->syms, j->nsyms, addr);
}

/* kallsyms order: by address, then by original index (name holds index + 1). */
static int cmp_sym_index(const void *a, const void *b)
{
	const struct pl_sym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
}

static void load_kallsyms(struct pl_symtab *st)
{
	st->kallsyms_tried = true;
	char *txt = NULL;
	size_t len = 0;
	if (pl_read_file("/proc/kallsyms", &txt, &len) < 0) {
		st->kernel_hidden = true;
		return;
	}
	size_t cap = 1024, n = 0, nonzero = 0;
	struct pl_sym *s = pl_xmalloc(cap * sizeof(*s));
	size_t *offs = pl_xmalloc(cap * sizeof(*offs));
	size_t *moffs = pl_xmalloc(cap * sizeof(*moffs));
	struct pl_buf strs = { 0 };
	pl_buf_append(&strs, "", 1);
	char *save = NULL;
	for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *e;
		unsigned long long a = strtoull(line, &e, 16);
		if (e == line || e[0] != ' ' || !e[1] || e[2] != ' ')
			continue;
		char t = e[1];
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		char *nm = e + 3;
		char *mod = strchr(nm, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[')
				mod++;
			char *rb = strchr(mod, ']');
			if (rb)
				*rb = '\0';
		}
		if (a)
			nonzero++;
		if (n == cap) {
			cap *= 2;
			s = pl_xrealloc(s, cap * sizeof(*s));
			offs = pl_xrealloc(offs, cap * sizeof(*offs));
			moffs = pl_xrealloc(moffs, cap * sizeof(*moffs));
		}
		offs[n] = strs.len;
		pl_buf_append(&strs, nm, strlen(nm) + 1);
		moffs[n] = 0;
		if (mod && *mod) {
			moffs[n] = strs.len;
			pl_buf_append(&strs, mod, strlen(mod) + 1);
		}
		s[n] = (struct pl_sym){ a, 0, (const char *)(uintptr_t)(n + 1) };
		n++;
	}
	free(txt);
	if (!nonzero) {
		st->kernel_hidden = true;
		free(s);
		free(offs);
		free(moffs);
		pl_buf_free(&strs);
		return;
	}
	st->kstrs = pl_buf_steal(&strs);
	/* Sort indices via the name field trick: it holds index+1 until names are set. */
	qsort(s, n, sizeof(*s), cmp_sym_index);
	st->kmods = pl_xmalloc((n ? n : 1) * sizeof(char *));
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		size_t idx = (size_t)(uintptr_t)s[i].name - 1;
		if (w && s[w - 1].start == s[i].start)
			continue;
		s[w].start = s[i].start;
		s[w].name = st->kstrs + offs[idx];
		st->kmods[w] = st->kstrs + moffs[idx];
		w++;
	}
	for (size_t i = 0; i + 1 < w; i++)
		s[i].size = s[i + 1].start - s[i].start;
	if (w)
		s[w - 1].size = 4096;
	free(offs);
	free(moffs);
	st->ksyms = s;
	st->nksyms = w;
}

const struct pl_sym *pl_kernel_resolve(struct pl_symtab *st, uint64_t addr, const char **mod)
{
	if (!st->kallsyms_tried)
		load_kallsyms(st);
	if (st->kernel_hidden || !st->nksyms)
		return NULL;
	const struct pl_sym *s = bsearch_sym(st->ksyms, st->nksyms, addr);
	if (s && mod)
		*mod = st->kmods[s - st->ksyms];
	return s;
}

/* One kallsyms line "ADDR T name\t[mod]": fill @best at the slot of its address. */
struct kbest {
	uint64_t start;
	char name[128];
	char mod[64];
	bool set;
};

/* The hex address at the start of a kallsyms line (at most 16 lowercase or uppercase
 * digits, no sign, no "0x"), with *@end after it (== @s when there is none). strtoull()
 * here was 60% of the instructions of a report with kernel samples (callgrind: 56 M of
 * 95 M for ~200,000 lines: locale, sign and base handling per call). */
static uint64_t kaddr(const char *s, const char **end)
{
	uint64_t v = 0;
	int i = 0;
	for (; i < 16; i++) {
		unsigned c = (unsigned char)s[i], d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	*end = s + i;
	return v;
}

static void kline(char *line, const uint64_t *addrs, size_t n, struct kbest *best, size_t *nonzero)
{
	const char *e;
	uint64_t a = kaddr(line, &e);
	if (e == line || e[0] != ' ' || !e[1] || e[2] != ' ')
		return;
	if (a)
		(*nonzero)++;
	char t = e[1];
	if (t != 't' && t != 'T' && t != 'w' && t != 'W')
		return;
	/* first address >= a: the symbol may be the best for it and the ones after */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (addrs[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || (best[lo].set && best[lo].start >= a))
		return;
	/* Most lines land here once (kallsyms is mostly sorted): copy, do not format. */
	const char *nm = e + 3;
	size_t nl = strcspn(nm, "\t");
	const char *mod = nm[nl] ? nm + nl + 1 : "";
	if (*mod == '[')
		mod++;
	size_t ml = strcspn(mod, "]");
	best[lo].start = a;
	best[lo].set = true;
	if (nl >= sizeof(best[lo].name))
		nl = sizeof(best[lo].name) - 1;
	if (ml >= sizeof(best[lo].mod))
		ml = sizeof(best[lo].mod) - 1;
	memcpy(best[lo].name, nm, nl);
	best[lo].name[nl] = '\0';
	memcpy(best[lo].mod, mod, ml);
	best[lo].mod[ml] = '\0';
}

int pl_kernel_resolve_many(struct pl_symtab *st, const uint64_t *addrs, size_t n, char **names,
			   char **mods)
{
	for (size_t i = 0; i < n; i++)
		names[i] = mods[i] = NULL;
	if (!n)
		return 0;
	/* Streamed, not pl_read_file(): one pass keeps a few fixed slots instead of the
	 * whole table, and a kernel with many modules can have a kallsyms larger than
	 * PL_READ_MAX, which pl_read_file() refuses (kernel symbols would vanish). The path
	 * gets the sysroot prefix; profile runs on the live system only, where /proc/kallsyms
	 * is a procfs file, never a FIFO or device. */
	char path[4096];
	int r = pl_sysroot_path(path, sizeof(path), "/proc/kallsyms");
	if (r < 0)
		return r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		st->kernel_hidden = true;
		return -errno;
	}
	struct kbest *best = pl_xcalloc(n, sizeof(*best));
	size_t cap = 1 << 18, len = 0, nonzero = 0;
	char *buf = pl_xmalloc(cap + 1);
	for (;;) {
		ssize_t got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
		buf[len] = '\0';
		char *s = buf, *nl;
		while ((nl = memchr(s, '\n', len - (size_t)(s - buf)))) {
			*nl = '\0';
			kline(s, addrs, n, best, &nonzero);
			s = nl + 1;
		}
		len -= (size_t)(s - buf);
		memmove(buf, s, len);
	}
	close(fd);
	free(buf);
	if (!nonzero) {
		st->kernel_hidden = true;
		free(best);
		return 0;
	}
	/* best for address i = the greatest start among slots 0..i (prefix maximum) */
	const struct kbest *cur = NULL;
	for (size_t i = 0; i < n; i++) {
		if (best[i].set && (!cur || best[i].start > cur->start))
			cur = &best[i];
		if (cur) {
			names[i] = pl_xstrdup(cur->name);
			mods[i] = pl_xstrdup(cur->mod);
		}
	}
	free(best);
	return 0;
}

char *pl_demangle(const char *name)
{
	/* Every mangling DMGL_AUTO demangles starts with '_' ("_Z": C++ and legacy Rust,
	 * "_R": Rust v0; D's "_D" needs DMGL_DLANG, which we do not pass); skip the rest
	 * (C names, kernel symbols) without a call. */
	if (!name || name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_AUTO | DMGL_PARAMS | DMGL_ANSI);
}
