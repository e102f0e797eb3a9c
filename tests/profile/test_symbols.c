/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Symbolizer tests on ELF fixtures built here with cc, objcopy and strip; expected
 * addresses come from nm. Cases: a PIE executable, a shared library, a stripped binary
 * with its debug file found by build-id, one found by .gnu_debuglink, and a binary
 * deleted while its process runs (opened through /proc/PID/map_files), and C++ names
 * (mangled in the table). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/symbols.h"
#include "util/sysroot.h"

#include "testutil.h"

static char dir[] = "/tmp/perflab-sym.XXXXXX";

static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Address of @sym in @file from nm, or 0. */
static uint64_t nm_addr(const char *file, const char *sym)
{
	char cmd[1024], line[512];
	snprintf(cmd, sizeof(cmd), "nm %s", file);
	FILE *p = popen(cmd, "r");
	uint64_t a = 0;
	while (p && fgets(line, sizeof(line), p)) {
		unsigned long long v;
		char t, name[256];
		if (sscanf(line, "%llx %c %255s", &v, &t, name) == 3 && strcmp(name, sym) == 0)
			a = v;
	}
	if (p)
		pclose(p);
	return a;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	FILE *f = fopen("/tmp/perflab-sym-src.c", "w");
	if (!f)
		return -1;
	fputs("#include <unistd.h>\n"
	      "__attribute__((noinline)) int fx_alpha(int x) { return x * 3 + 1; }\n"
	      "__attribute__((noinline)) int fx_beta(int x) { return fx_alpha(x) ^ 5; }\n"
	      "int main(int c, char **v) { (void)v; if (c > 1) for (;;) pause();\n"
	      "  return fx_beta(c); }\n",
	      f);
	fclose(f);
	f = fopen("/tmp/perflab-sym-lib.c", "w");
	if (!f)
		return -1;
	fputs("__attribute__((noinline)) int fxlib_gamma(int x) { return x + 7; }\n"
	      "int fxlib_delta(int x) { return fxlib_gamma(x) * 2; }\n",
	      f);
	fclose(f);
	if (sh("cc -g -O1 -fPIE -pie -Wl,--build-id -o %s/fx /tmp/perflab-sym-src.c", dir) ||
	    sh("cc -g -O1 -fPIC -shared -Wl,--build-id -o %s/libfx.so /tmp/perflab-sym-lib.c",
	       dir) ||
	    sh("cd %s && objcopy --only-keep-debug fx fx.debug && cp fx fx.stripped && "
	       "strip --strip-all fx.stripped && cp fx.stripped fx.linked && "
	       "objcopy --add-gnu-debuglink=fx.debug fx.linked && cp fx fxrun",
	       dir) ||
	    sh("cd %s && id=$(readelf -n fx | awk '/Build ID/ { print $3 }') && "
	       "mkdir -p debug/.build-id/${id%%${id#??}} && "
	       "cp fx.debug debug/.build-id/${id%%${id#??}}/${id#??}.debug",
	       dir))
		return -1;
	unlink("/tmp/perflab-sym-src.c");
	unlink("/tmp/perflab-sym-lib.c");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return pl_test_rmtree(dir) == 0 ? 0 : -1;
}

static struct pl_module *module_of(struct pl_symtab *st, const char *path)
{
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	return pl_symtab_module(st, path, sb.st_dev, sb.st_ino, NULL, 0, getpid(), 0, 0, false);
}

/* File offset of virtual address @va in @m (inverse of pl_module_off2vaddr). */
static uint64_t off_of(const struct pl_module *m, uint64_t va)
{
	for (size_t i = 0; i < m->nsegs; i++)
		if (va >= m->segs[i].vaddr && va < m->segs[i].vaddr + m->segs[i].filesz)
			return va - m->segs[i].vaddr + m->segs[i].off;
	fail_msg("0x%llx is in no PT_LOAD segment", (unsigned long long)va);
	return 0;
}

static void expect_sym(struct pl_symtab *st, struct pl_module *m, uint64_t va, const char *name,
		       uint64_t delta)
{
	uint64_t so = ~0ull;
	pl_module_load(st, m); /* the segments give the expected file offset */
	const struct pl_sym *s = pl_module_resolve(st, m, off_of(m, va + delta), &so);
	assert_non_null(s);
	assert_string_equal(s->name, name);
	assert_int_equal(so, delta);
}

static void test_pie(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof(p), "%s/fx", dir);
	uint64_t a = nm_addr(p, "fx_alpha"), b = nm_addr(p, "fx_beta"), mn = nm_addr(p, "main");
	assert_true(a && b && mn);
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	struct pl_module *m = module_of(&st, p);
	assert_int_equal(pl_module_load(&st, m), 0);
	expect_sym(&st, m, a, "fx_alpha", 0);
	expect_sym(&st, m, a, "fx_alpha", 2);
	expect_sym(&st, m, b, "fx_beta", 1);
	expect_sym(&st, m, mn, "main", 0);
	assert_int_not_equal(m->build_id_len, 0);
	/* the same file again is the same module: cache by (dev, inode) */
	assert_ptr_equal(module_of(&st, p), m);
	pl_symtab_free(&st);
}

static void test_shared_library(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof(p), "%s/libfx.so", dir);
	uint64_t g = nm_addr(p, "fxlib_gamma"), d = nm_addr(p, "fxlib_delta");
	assert_true(g && d);
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	struct pl_module *m = module_of(&st, p);
	expect_sym(&st, m, g, "fxlib_gamma", 0);
	expect_sym(&st, m, d, "fxlib_delta", 3);
	assert_string_equal(m->name, "libfx.so");
	pl_symtab_free(&st);
}

static void test_stripped_build_id(void **state)
{
	(void)state;
	char p[512], full[512], root[512];
	snprintf(p, sizeof(p), "%s/fx.stripped", dir);
	snprintf(full, sizeof(full), "%s/fx", dir);
	snprintf(root, sizeof(root), "%s/debug", dir);
	uint64_t a = nm_addr(full, "fx_alpha");
	/* without the debug file: no fx_alpha (it is in neither .symtab nor .dynsym) */
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	struct pl_module *m = module_of(&st, p);
	pl_module_load(&st, m);
	uint64_t off = off_of(m, a);
	const struct pl_sym *s = pl_module_resolve(&st, m, off, NULL);
	assert_true(s == NULL || strcmp(s->name, "fx_alpha") != 0);
	pl_symtab_free(&st);
	/* with DEBUGROOT/.build-id/xx/yyyy.debug */
	pl_symtab_init(&st, root);
	m = module_of(&st, p);
	expect_sym(&st, m, a, "fx_alpha", 1);
	assert_non_null(m->symsrc);
	assert_non_null(strstr(m->symsrc, "/.build-id/"));
	pl_symtab_free(&st);
}

static void test_stripped_debuglink(void **state)
{
	(void)state;
	char p[512], full[512];
	snprintf(p, sizeof(p), "%s/fx.linked", dir);
	snprintf(full, sizeof(full), "%s/fx", dir);
	uint64_t b = nm_addr(full, "fx_beta");
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	struct pl_module *m = module_of(&st, p);
	expect_sym(&st, m, b, "fx_beta", 0);
	assert_non_null(strstr(m->symsrc, "fx.debug"));
	pl_symtab_free(&st);
}

static void test_deleted_while_running(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof(p), "%s/fxrun", dir);
	uint64_t a = nm_addr(p, "fx_alpha");
	struct stat sb;
	assert_int_equal(stat(p, &sb), 0);
	/* segments of the same file for the expected offsets (read before deleting) */
	struct pl_symtab ref;
	pl_symtab_init(&ref, "/nonexistent");
	struct pl_module *rm = module_of(&ref, p);
	pl_module_load(&ref, rm);
	uint64_t off = off_of(rm, a);
	pid_t pid = fork();
	if (pid == 0) {
		execl(p, p, "wait", (char *)NULL);
		_exit(127);
	}
	/* wait for the exec: the mapping of fxrun shows up in /proc/PID/maps */
	char maps[64], line[1024];
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	unsigned long long s = 0, e = 0, pg = 0;
	for (int tries = 0; tries < 200 && !s; tries++) {
		usleep(10000);
		FILE *f = fopen(maps, "r");
		while (f && fgets(line, sizeof(line), f)) {
			char perms[8];
			unsigned long long ls, le, lo;
			if (sscanf(line, "%llx-%llx %7s %llx", &ls, &le, perms, &lo) == 4 &&
			    perms[2] == 'x' && strstr(line, "fxrun")) {
				s = ls;
				e = le;
				pg = lo;
			}
		}
		if (f)
			fclose(f);
	}
	assert_true(s != 0);
	assert_int_equal(unlink(p), 0);
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	char gone[600];
	snprintf(gone, sizeof(gone), "%s (deleted)", p);
	struct pl_module *m =
		pl_symtab_module(&st, gone, sb.st_dev, sb.st_ino, NULL, 0, pid, s, e, true);
	bool opened = m->fd >= 0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (!opened) {
		pl_symtab_free(&st);
		pl_symtab_free(&ref);
		skip(); /* /proc/PID/map_files needs CAP_SYS_ADMIN (root) */
	}
	/* the process is gone too: the kept fd still reads the deleted file */
	assert_true(off >= pg);
	const struct pl_sym *sy = pl_module_resolve(&st, m, off, NULL);
	assert_non_null(sy);
	assert_string_equal(sy->name, "fx_alpha");
	pl_symtab_free(&st);
	pl_symtab_free(&ref);
}

/* C++: the symbol table keeps the mangled names (the cache holds what the file has), at
 * nm's addresses. Demangling is tested once each: fixed strings in test_names.c, the
 * profiler's output against c++filt in profile_cxx.sh. */
static void test_cxx_names(void **state)
{
	(void)state;
	if (system("command -v g++ >/dev/null"))
		skip(); /* g++ missing: scripts/install-deps.sh test installs it */
	char src[600], bin[600];
	snprintf(src, sizeof(src), "%s/cx.cpp", dir);
	snprintf(bin, sizeof(bin), "%s/cx", dir);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("namespace ns { __attribute__((noinline)) int twice(int x) { return 2 * x; } }\n"
	      "template <class T> __attribute__((noinline)) T add(T a, T b) { return a + b; }\n"
	      "__attribute__((noinline)) long over(long x) { return x + 1; }\n"
	      "__attribute__((noinline)) long over(double x) { return (long)x; }\n"
	      "int main(int c, char **) { auto l = [](int x) __attribute__((noinline)) {\n"
	      "  return x * 3; }; return ns::twice(c) + add<short>(1, 2) + (int)over(1L)\n"
	      "  + (int)over(1.0) + l(c); }\n",
	      f);
	fclose(f);
	assert_int_equal(sh("g++ -O1 -o %s %s", bin, src), 0);
	char cmd[1400], line[512];
	snprintf(cmd, sizeof(cmd),
		 "nm --defined-only %s | awk '$2 ~ /^[TtWw]$/ && $3 ~ /^_Z/ { print $1, $3 }'",
		 bin);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	struct pl_module *m = module_of(&st, bin);
	size_t n = 0;
	bool lambda = false, tmpl = false;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		unsigned long long a;
		char mangled[256];
		assert_int_equal(sscanf(line, "%llx %255s", &a, mangled), 2);
		expect_sym(&st, m, a, mangled, 0);
		lambda |= strcmp(mangled, "_ZZ4mainENKUliE_clEi") == 0;
		tmpl |= strcmp(mangled, "_Z3addIsET_S0_S0_") == 0;
		n++;
	}
	pclose(p);
	pl_symtab_free(&st);
	assert_int_equal(n, 5); /* ns::twice, add<short>, two over, the lambda */
	assert_true(lambda && tmpl);
}

/* pl_kernel_resolve_many over a kallsyms fixture (through the sysroot): the address
 * parser (symbols.c kaddr) takes 16 hex digits in either case; lines that are not text
 * symbols or whose address is malformed are skipped; a module name comes without its
 * brackets; an address before every symbol stays unresolved. */
static void test_kallsyms_fixture(void **state)
{
	(void)state;
	char root[600], path[700];
	snprintf(root, sizeof(root), "%s/ksys", dir);
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(sh("mkdir -p %s", path), 0);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _stext\n"
	      "ffffffff81001000 t k_lower\n"
	      "FFFFFFFF81002000 T K_UPPER\n"
	      "ffffffff81002800 d k_data\n"
	      "0xffffffff81002900 T k_prefixed\n"
	      "ffffffff8100zz00 T k_bad\n"
	      "ffffffff81003000 W k_weak\n"
	      "ffffffffc0000000 t k_mod\t[dummy_mod]\n",
	      f);
	fclose(f);
	assert_int_equal(pl_sysroot_set(root), 0);
	uint64_t addrs[] = { 0xffffffff80000000ull, 0xffffffff81000010ull, 0xffffffff81001fffull,
			     0xffffffff81002900ull, 0xffffffff81003004ull, 0xffffffffc0000100ull };
	const size_t n = sizeof(addrs) / sizeof(addrs[0]);
	char *names[6], *mods[6];
	struct pl_symtab st;
	pl_symtab_init(&st, "/nonexistent");
	assert_int_equal(pl_kernel_resolve_many(&st, addrs, n, names, mods), 0);
	assert_int_equal(pl_sysroot_set("/"), 0);
	assert_false(st.kernel_hidden);
	assert_null(names[0]);
	const char *want[] = { NULL, "_stext", "k_lower", "K_UPPER", "k_weak", "k_mod" };
	for (size_t i = 1; i < n; i++)
		assert_string_equal(names[i], want[i]);
	assert_string_equal(mods[1], "");
	assert_string_equal(mods[5], "dummy_mod");
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(mods[i]);
	}
	pl_symtab_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie),
		cmocka_unit_test(test_shared_library),
		cmocka_unit_test(test_stripped_build_id),
		cmocka_unit_test(test_stripped_debuglink),
		cmocka_unit_test(test_deleted_while_running),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_kallsyms_fixture),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
