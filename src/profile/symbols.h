/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Symbolization: ELF modules through elfutils' libelf (.symtab, .dynsym, separate debug
 * files by build-id under DEBUGROOT/.build-id/xx/yyyy.debug and by .gnu_debuglink), the
 * vDSO from perflab's own image, JIT maps (/tmp/perf-PID.map, the format of Linux perf's
 * Documentation/jit-interface.txt) and the kernel from /proc/kallsyms. Modules are cached
 * by build-id, else by (device, inode), never by path; a file is opened through
 * /proc/PID/map_files while the process lives so deleted binaries still resolve. */
#ifndef PERFLAB_PROFILE_SYMBOLS_H
#define PERFLAB_PROFILE_SYMBOLS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** One function symbol: [start, start+size) in the file's virtual addresses. */
struct pl_sym {
	uint64_t start, size;
	const char *name; /**< points into the module's string storage */
};

/** A loaded segment: file offsets [off, off+filesz) map to vaddr. */
struct pl_seg {
	uint64_t off, vaddr, filesz;
};

/** An executable file (or the vDSO). */
struct pl_module {
	char *path;	  /**< path as mapped (may be "(deleted)"), owned */
	const char *name; /**< basename of path */
	uint8_t build_id[20];
	uint32_t build_id_len; /**< 0 when unknown */
	uint64_t dev, ino;     /**< dev = makedev(maj, min) */
	int fd;		       /**< opened through /proc/PID/map_files, or -1 */
	pid_t pid;	       /**< a process that mapped it (for /proc/PID/root) */
	bool loaded;	       /**< symbols read (or tried) */
	bool jit;	       /**< anonymous executable memory (JIT) */
	struct pl_sym *syms;   /**< sorted by start */
	size_t nsyms;
	struct pl_seg segs[16];
	size_t nsegs;
	char *strs;   /**< string storage of syms */
	char *symsrc; /**< file the symbols came from, owned, or NULL */
};

/** A JIT map of one process: sorted symbols over absolute addresses. */
struct pl_jitmap {
	pid_t pid;
	bool tried;
	struct pl_sym *syms;
	size_t nsyms;
	char *strs;
};

/** The symbol tables of a run. Zero-initialise, then pl_symtab_init(). */
struct pl_symtab {
	struct pl_module **mods;
	size_t nmods, capmods;
	struct pl_jitmap *jits;
	size_t njits;
	char *debug_root; /**< "/usr/lib/debug" (inside the sysroot) unless changed */
	/* kernel */
	bool kallsyms_tried;
	bool kernel_hidden; /**< kallsyms addresses are all 0 (kptr_restrict) */
	struct pl_sym *ksyms;
	size_t nksyms;
	char **kmods; /**< module of each ksym ("" = vmlinux), parallel to ksyms */
	char *kstrs;
};

/** Initialise with the debug root @debug_root (NULL = "/usr/lib/debug"). */
void pl_symtab_init(struct pl_symtab *st, const char *debug_root);
/** Free everything (closes module fds). NULL-safe. */
void pl_symtab_free(struct pl_symtab *st);

/** Find or create the module for a mapping seen in an MMAP2 record (or /proc/PID/maps):
 *  cache key build-id (@bid, @bid_len > 0) else (@dev, @ino). When @live and the module
 *  has no fd yet, opens /proc/@pid/map_files/@start-@end. Never fails (memory aside);
 *  the module may still have no symbols later. */
struct pl_module *pl_symtab_module(struct pl_symtab *st, const char *path, uint64_t dev,
				   uint64_t ino, const uint8_t *bid, uint32_t bid_len, pid_t pid,
				   uint64_t start, uint64_t end, bool live);

/** Load @m's symbols now (done lazily by pl_module_resolve). Returns 0, -ENOENT when no
 *  file could be opened, -ENODATA when it has no symbol table, -EINVAL for a bad ELF. */
int pl_module_load(struct pl_symtab *st, struct pl_module *m);

/** Translate a file offset to the module's virtual address through its PT_LOAD
 *  segments. Returns 0 or -ENOENT (not in a loaded segment). */
int pl_module_off2vaddr(const struct pl_module *m, uint64_t off, uint64_t *vaddr);

/** Symbol containing file offset @off in @m (loading it first), or NULL. *@sym_off
 *  (optional) gets the distance from the symbol start. */
const struct pl_sym *pl_module_resolve(struct pl_symtab *st, struct pl_module *m, uint64_t off,
				       uint64_t *sym_off);

/** Symbol of JIT address @addr in process @pid from /proc/PID/root/tmp/perf-PID.map
 *  (else /tmp/perf-PID.map inside the sysroot), or NULL. */
const struct pl_sym *pl_jit_resolve(struct pl_symtab *st, pid_t pid, uint64_t addr);

/** Kernel symbol of @addr from /proc/kallsyms (parsed once), or NULL; *@mod gets "" for
 *  vmlinux or the module name. st->kernel_hidden tells whether addresses are hidden. */
const struct pl_sym *pl_kernel_resolve(struct pl_symtab *st, uint64_t addr, const char **mod);

/** Resolve the sorted, distinct kernel addresses @addrs (@n of them) in one streaming
 *  pass over /proc/kallsyms, without loading the whole table (122k symbols here): for each
 *  address the text symbol with the greatest start <= it. names[i] and mods[i] get
 *  malloc'd strings ("" module = vmlinux) or NULL when no symbol precedes the address.
 *  Sets st->kernel_hidden when all addresses in kallsyms are 0. Returns 0 or -errno. */
int pl_kernel_resolve_many(struct pl_symtab *st, const uint64_t *addrs, size_t n, char **names,
			   char **mods);

/** Demangle symbol name @name: C++ (Itanium ABI, as g++ and clang emit it, including
 *  clone suffixes like ".cold" -> " [clone .cold]") and Rust (legacy "_ZN..17h<hash>E"
 *  and v0 "_R..."), with libiberty's cplus_demangle (DMGL_AUTO | DMGL_PARAMS |
 *  DMGL_ANSI: parameter lists and cv-qualifiers as `c++filt` prints them; without
 *  DMGL_VERBOSE, so the standard abbreviations stay short ("std::string" where
 *  c++filt writes "std::basic_string<char, ...>") and Rust hashes are dropped, like
 *  perf report and rustc-demangle's "{:#}"). D names ("_D...") are not demangled
 *  (DMGL_AUTO does not include DMGL_DLANG). Returns a malloc'd string the caller frees,
 *  or NULL when @name is not mangled or not a valid mangling. Out of memory: libiberty
 *  allocates with xmalloc, which prints a message and exit()s the process (status 1)
 *  instead of returning NULL, so this is the one call in the profile library that can
 *  end the process on OOM (as perf and c++filt do). */
char *pl_demangle(const char *name);

/** True for a kernel-space address on x86-64 (upper half). */
static inline bool pl_is_kernel_addr(uint64_t a)
{
	return a >= 0xffff800000000000ull;
}

#endif
