/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Variants: INI files, --set keys, parameter expansion, word splitting, validation. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compare/experiment.h"
#include "util/str.h"

static char *write_tmp(const char *content)
{
	char *path = strdup("/tmp/perflab-cmp-ini.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static void test_split_words(void **state)
{
	(void)state;
	char **w = pl_cmp_split_words("  sh -c 'echo a  b' \"x \\\"y\\\"\" c\\ d ");
	assert_non_null(w);
	assert_string_equal(w[0], "sh");
	assert_string_equal(w[1], "-c");
	assert_string_equal(w[2], "echo a  b");
	assert_string_equal(w[3], "x \"y\"");
	assert_string_equal(w[4], "c d");
	assert_null(w[5]);
	pl_strv_free(w);
	assert_null(pl_cmp_split_words("echo 'unterminated"));
	w = pl_cmp_split_words("''");
	assert_string_equal(w[0], "");
	pl_strv_free(w);
}

/* what needs a shell, outside quotes only */
static void test_shell_syntax(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		int at; /* index of the reported character, -1 for none */
	} c[] = {
		{ "./bench --size 1G", -1 }, { "echo a | wc", 7 },	{ "a>b", 1 },
		{ "echo 'a|b;c>d'", -1 },    { "echo \"x $HOME\"", 8 }, { "echo \"a|b\"", -1 },
		{ "echo a\\|b", -1 },	     { "ls *.c", 3 },		{ "cd ~/x", 3 },
		{ "echo a~b #c", 9 },	     { "echo a#b", -1 },	{ "sleep 1 && true", 8 },
		{ "f() { :; }", 1 },	     { "echo `id`", 5 },	{ "echo 'open", -1 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *p = pl_cmp_shell_syntax(c[i].s);
		int at = p ? (int)(p - c[i].s) : -1;
		if (at != c[i].at)
			fail_msg("'%s': got %d, want %d", c[i].s, at, c[i].at);
	}
}

static void test_ini(void **state)
{
	(void)state;
	char *p = write_tmp("command = /bin/echo {n}\n"
			    "env.COMMON = 1\n"
			    "[base]\n"
			    "[arena2]\n"
			    "env.MALLOC_ARENA_MAX = 2\n"
			    "cpus = 0\n"
			    "sysctl.net.ipv4.tcp_rmem = 4096 131072 6291456\n"
			    "sysfs./sys/kernel/mm/transparent_hugepage/enabled = never\n");
	struct pl_cmp_experiment e = { 0 };
	char err[512];
	assert_int_equal(pl_cmp_load_ini(&e, p, err, sizeof(err)), 0);
	assert_int_equal(e.n, 2);
	assert_string_equal(e.v[0].name, "base");
	assert_string_equal(e.v[1].command, "/bin/echo {n}");
	assert_int_equal(e.v[1].nenv, 2);
	assert_string_equal(e.v[1].env[1], "MALLOC_ARENA_MAX=2");
	assert_int_equal(e.v[1].nsettings, 2);
	assert_string_equal(e.v[1].settings[0].path, "/proc/sys/net/ipv4/tcp_rmem");
	assert_string_equal(e.v[1].settings[0].value, "4096 131072 6291456");
	assert_string_equal(e.v[1].settings[1].path, "/sys/kernel/mm/transparent_hugepage/enabled");
	struct pl_cmp_param prm;
	assert_int_equal(pl_cmp_param_parse("n=1,2,3", &prm, err, sizeof(err)), 0);
	assert_int_equal(pl_cmp_expand_params(&e, &prm, 1, err, sizeof(err)), 0);
	assert_int_equal(e.n, 6);
	assert_string_equal(e.v[0].name, "base n=1");
	assert_string_equal(e.v[5].name, "arena2 n=3");
	assert_string_equal(e.v[5].command, "/bin/echo 3");
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), 0);
	assert_string_equal(e.v[2].argv[1], "3");
	assert_true(e.v[4].has_cpus && !e.v[1].has_cpus);
	pl_cmp_param_free(&prm);
	pl_cmp_experiment_free(&e);
	unlink(p);
	free(p);
}

static void test_ini_errors(void **state)
{
	(void)state;
	char err[512];
	struct pl_cmp_experiment e = { 0 };
	char *p = write_tmp("[a]\ncommand = /bin/true\n[b]\ncomand = /bin/true\n");
	assert_int_equal(pl_cmp_load_ini(&e, p, err, sizeof(err)), -EINVAL);
	/* names the file, the line and the key, and lists the keys */
	assert_non_null(strstr(err, ":4: unknown variant key 'comand'"));
	assert_non_null(strstr(err, "env.NAME"));
	pl_cmp_experiment_free(&e);
	unlink(p);
	free(p);
	memset(&e, 0, sizeof(e));
	assert_int_equal(pl_cmp_load_ini(&e, "/nonexistent/x.ini", err, sizeof(err)), -ENOENT);
	pl_cmp_experiment_free(&e);
	struct pl_cmp_variant v = { 0 };
	assert_int_equal(pl_cmp_variant_set(&v, "sysctl.../etc/passwd", "x", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(pl_cmp_variant_set(&v, "sysfs./etc/passwd", "x", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(pl_cmp_variant_set(&v, "env.", "x", err, sizeof(err)), -EINVAL);
}

static void test_finalize_errors(void **state)
{
	(void)state;
	char err[512];
	struct pl_cmp_experiment e = { 0 };
	struct pl_cmp_variant *v = pl_cmp_add_variant(&e, "only");
	pl_cmp_variant_set(v, "command", "/bin/true", err, sizeof(err));
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at least 2 variants"));
	v = pl_cmp_add_variant(&e, "missing");
	pl_cmp_variant_set(v, "command", "perflab-no-such-command --x", err, sizeof(err));
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'perflab-no-such-command' not found"));
	pl_cmp_variant_set(&e.v[1], "command", "true", err, sizeof(err));
	pl_cmp_variant_set(&e.v[1], "cpus", "3-1", err, sizeof(err));
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cpus='3-1'"));
	pl_cmp_variant_set(&e.v[1], "cpus", "0", err, sizeof(err));
	pl_cmp_variant_set(&e.v[1], "prepare", "perflab-nope", err, sizeof(err));
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "prepare command 'perflab-nope'"));
	pl_cmp_variant_set(&e.v[1], "prepare", "true", err, sizeof(err));
	pl_cmp_variant_set(&e.v[1], "cwd", "tmpfs", err, sizeof(err));
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), 0);
	assert_non_null(e.v[1].exe);
	assert_int_equal(pl_cmp_make_dirs(&e), 0);
	char *dir = strdup(e.v[1].workdir);
	assert_int_equal(access(dir, W_OK), 0);
	char *f = pl_xasprintf("%s/file", e.v[1].workdir); /* not dir: -O3 UBSan false null */
	FILE *fp = fopen(f, "w");
	assert_non_null(fp);
	fclose(fp);
	pl_cmp_cleanup_dirs(&e);
	assert_int_equal(access(dir, F_OK), -1); /* removed with its content */
	free(f);
	free(dir);
	struct pl_cmp_variant *dup = pl_cmp_add_variant(&e, "only");
	(void)dup;
	assert_int_equal(pl_cmp_finalize(&e, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "used twice"));
	pl_cmp_experiment_free(&e);
}

static void test_params_cartesian(void **state)
{
	(void)state;
	char err[512];
	struct pl_cmp_experiment e = { 0 };
	struct pl_cmp_variant *v = pl_cmp_add_variant(&e, "base");
	pl_cmp_variant_set(v, "command", "/bin/true", err, sizeof(err));
	v = pl_cmp_add_variant(&e, "t{a}-{b}");
	pl_cmp_variant_set(v, "command", "/bin/true {a}", err, sizeof(err));
	pl_cmp_variant_set(v, "env.B", "{b}", err, sizeof(err));
	struct pl_cmp_param p[2];
	assert_int_equal(pl_cmp_param_parse("a=1,2", &p[0], err, sizeof(err)), 0);
	assert_int_equal(pl_cmp_param_parse("b=x,y,z", &p[1], err, sizeof(err)), 0);
	assert_int_equal(pl_cmp_expand_params(&e, p, 2, err, sizeof(err)), 0);
	assert_int_equal(e.n, 7);
	assert_string_equal(e.v[1].name, "t1-x");
	assert_string_equal(e.v[3].name, "t1-z");
	assert_string_equal(e.v[6].name, "t2-z");
	assert_string_equal(e.v[6].env[0], "B=z");
	assert_string_equal(e.v[6].command, "/bin/true 2");
	struct pl_cmp_param unused;
	assert_int_equal(pl_cmp_param_parse("zz=1", &unused, err, sizeof(err)), 0);
	assert_int_equal(pl_cmp_expand_params(&e, &unused, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no variant mentions {zz}"));
	pl_cmp_param_free(&unused);
	assert_int_equal(pl_cmp_param_parse("novalues", &unused, err, sizeof(err)), -EINVAL);
	for (int i = 0; i < 2; i++)
		pl_cmp_param_free(&p[i]);
	pl_cmp_experiment_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_shell_syntax),
		cmocka_unit_test(test_ini),
		cmocka_unit_test(test_ini_errors),
		cmocka_unit_test(test_finalize_errors),
		cmocka_unit_test(test_params_cartesian),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
