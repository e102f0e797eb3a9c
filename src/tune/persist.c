/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Persistence of a profile across reboots (tune/persist.h). */
#include "tune/persist.h"
#include "tune/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/beneath.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

#define WANTS "/etc/systemd/system/sysinit.target.wants"
#define PERSIST_LINK WANTS "/perflab-tune.service"

int pl_persist_check(char *why, size_t whylen)
{
	static const char *const need[] = { "/run/systemd/system", "/etc/systemd" };
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		char p[PATH_MAX];
		struct stat st;
		if (pl_sysroot_path(p, sizeof(p), need[i]) < 0 || stat(p, &st) < 0 ||
		    !S_ISDIR(st.st_mode)) {
			snprintf(why, whylen, "%s", p);
			return -ENOTSUP;
		}
	}
	return 0;
}

/* Write @data to @path atomically (util/outfile.h) with mode 0644. */
static int write_atomic(const char *path, const char *data)
{
	struct pl_outfile o;
	int r = pl_outfile_open(&o, path);
	if (r < 0)
		return r;
	if (fputs(data, o.fp) < 0) {
		pl_outfile_close(&o, false);
		return -EIO;
	}
	if (o.tmp && chmod(o.tmp, 0644) < 0) {
		r = -errno;
		pl_outfile_close(&o, false);
		return r;
	}
	return pl_outfile_close(&o, true);
}

int pl_persist_chain_check(const struct pl_tune_profile *pr, char *why, size_t whylen)
{
	struct pl_tune_path path;
	pl_tune_path_default(&path, NULL);
	for (size_t i = 0; pr->chain && pr->chain[i]; i++) {
		const char *c = pr->chain[i];
		if (strcmp(c, pr->file) == 0)
			continue;
		bool found = false;
		for (size_t k = 0; k < path.n && !found; k++) {
			size_t n = strlen(path.dirs[k]);
			found = strncmp(c, path.dirs[k], n) == 0 && c[n] == '/';
		}
		if (!found) {
			snprintf(why, whylen, "%s", c);
			return -ENOENT;
		}
	}
	return 0;
}

/* @s as one systemd.syntax(7) word for ExecStart=: as it is when it holds only
 * letters, digits and "/_.+-:,=@", otherwise in double quotes, with '\' and '"'
 * escaped, '%' doubled (a specifier otherwise) and '$' doubled (a variable otherwise).
 * NULL when @s holds a control character (a newline would start a new unit line). */
static char *unit_word(const char *s)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789/_.+-:,=@";
	if (*s && !s[strspn(s, plain)])
		return pl_xstrdup(s); /* nothing to quote: the word as it is */
	struct pl_buf b = { 0 };
	pl_buf_append(&b, "\"", 1);
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f) {
			free(b.data);
			return NULL;
		}
		if (c == '\\' || c == '"')
			pl_buf_append(&b, "\\", 1);
		else if (c == '%' || c == '$')
			pl_buf_append(&b, p, 1);
		pl_buf_append(&b, p, 1);
	}
	pl_buf_append(&b, "\"", 1);
	return b.data;
}

/* -EEXIST when @rel exists below @root as anything (a link is not followed), 0 when it
 * is absent, another -errno when its directory cannot be reached safely. */
static int absent(int root, const char *rel)
{
	const char *base;
	int dir = pl_beneath_parent(root, rel, &base);
	if (dir == -ENOENT)
		return 0;
	if (dir < 0)
		return dir;
	struct stat st;
	int r = fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST
		: errno == ENOENT				  ? 0
								  : -errno;
	close(dir);
	return r;
}

/* The unit's reachable directories and free names below @root: 0, -EEXIST (a unit or
 * link in the way), -ELOOP (a symlink on the way), -ENOENT (no /etc/systemd/system), other
 * -errno. *@made_dir (may be NULL) says whether the .wants directory must be made. */
static int names_free(int root, bool *made_dir)
{
	const char *base;
	int dir = pl_beneath_parent(root, PL_PERSIST_UNIT, &base);
	if (dir < 0)
		return dir;
	close(dir);
	int r = absent(root, PL_PERSIST_UNIT);
	if (r == 0)
		r = absent(root, PERSIST_LINK);
	if (r < 0)
		return r;
	int wfd = pl_beneath_open(root, WANTS, O_PATH | O_DIRECTORY, 0);
	if (made_dir)
		*made_dir = wfd == -ENOENT;
	if (wfd >= 0)
		close(wfd);
	return wfd >= 0 || wfd == -ENOENT ? 0 : wfd; /* a link or a file at the .wants name */
}

int pl_persist_prepare(const char *state_dir, const char *name, const char *exe, const char **what)
{
	const char *dummy;
	if (!what)
		what = &dummy;
	*what = exe;
	/* A binary replaced or removed since it started cannot be run at boot. */
	size_t el = strlen(exe);
	if (exe[0] != '/' || (el >= 10 && strcmp(exe + el - 10, " (deleted)") == 0))
		return -ENOEXEC;
	*what = state_dir;
	pl_autofree char *pdir = pl_xasprintf("%s/persist", state_dir);
	pl_autofree char *w_exe = unit_word(exe), *w_state = unit_word(state_dir),
			 *w_pdir = unit_word(pdir), *w_name = unit_word(name);
	if (!w_exe || !w_state || !w_pdir) {
		*what = !w_exe ? exe : state_dir;
		return -EINVAL;
	}
	if (!w_name) {
		*what = name;
		return -EINVAL;
	}
	*what = PL_PERSIST_UNIT;
	int root = pl_beneath_root(pl_sysroot());
	if (root < 0)
		return root;
	int r = names_free(root, NULL);
	close(root);
	return r;
}

int pl_persist_write(struct pl_journal *j, const char *state_dir, const char *name,
		     const char *file, const char *exe)
{
	const char *link_abs = PERSIST_LINK;
	int r = pl_persist_prepare(state_dir, name, exe, NULL);
	if (r < 0)
		return r;
	pl_autofree char *pdir = pl_xasprintf("%s/persist", state_dir);
	pl_autofree char *w_exe = unit_word(exe), *w_state = unit_word(state_dir),
			 *w_pdir = unit_word(pdir), *w_name = unit_word(name);
	int root = pl_beneath_root(pl_sysroot());
	if (root < 0)
		return root;
	bool made_dir = false;
	r = names_free(root, &made_dir);
	if (r < 0) {
		close(root);
		return r; /* -EEXIST: a persisted profile (roll it back first) or another unit */
	}
	pl_autofree char *text = NULL;
	size_t len;
	/* The profile file is outside the sysroot's /etc (bundled or --profile-dir) or
	 * inside it: read it by its host path. */
	FILE *f = fopen(file, "re");
	if (!f) {
		r = -errno;
		close(root);
		return r;
	}
	struct pl_buf b = { 0 };
	char chunk[4096];
	while ((len = fread(chunk, 1, sizeof(chunk), f)) > 0)
		pl_buf_append(&b, chunk, len);
	fclose(f);
	text = b.data ? b.data : pl_xstrdup("");
	pl_autofree char *cdir = pl_xasprintf("%s/%s", pdir, name);
	pl_autofree char *copy = pl_xasprintf("%s/tuned.conf", cdir);
	unsigned long step;
	if ((r = pl_journal_persist(j, PL_PERSIST_UNIT, link_abs, copy, made_dir, name, &step)) <
	    0) {
		close(root);
		return r;
	}
	pl_autofree char *u = pl_xasprintf(
		"# Written by 'perflab tune apply --persist %s'; remove with 'perflab tune "
		"rollback'.\n"
		"[Unit]\n"
		"Description=perflab tune profile %s\n"
		"DefaultDependencies=no\n"
		"After=systemd-sysctl.service local-fs.target systemd-modules-load.service\n"
		"Before=sysinit.target shutdown.target\n"
		"Conflicts=shutdown.target\n"
		"\n"
		"[Service]\n"
		"Type=oneshot\n"
		"RemainAfterExit=yes\n"
		"ExecStart=%s tune apply --boot --state-dir %s --profile-dir %s %s\n"
		"\n"
		"[Install]\n"
		"WantedBy=sysinit.target\n",
		name, name, w_exe, w_state, w_pdir, w_name);
	if ((mkdir(pdir, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(cdir, 0700) < 0 && errno != EEXIST))
		r = -errno;
	if (r == 0)
		r = write_atomic(copy, text);
	if (r == 0)
		r = pl_beneath_write_atomic(root, PL_PERSIST_UNIT, u, strlen(u), 0644);
	if (r == 0 && made_dir) {
		const char *base;
		int dir = pl_beneath_parent(root, WANTS, &base);
		r = dir < 0 ? dir : mkdirat(dir, base, 0755) < 0 ? -errno : 0;
		if (dir >= 0)
			close(dir);
	}
	if (r == 0)
		r = pl_beneath_symlink("../perflab-tune.service", root, link_abs);
	close(root);
	if (r < 0) {
		int u2 = pl_journal_rollback(j, step - 1, NULL, NULL);
		(void)u2;
	}
	return r;
}

int pl_persist_boot_record(const char *state_dir, const char *name, int exit_status)
{
	json_t *o = json_object();
	json_object_set_new(o, "profile", pl_json_string(name));
	json_object_set_new(o, "ok", json_boolean(exit_status == 0));
	json_object_set_new(o, "exit", json_integer(exit_status));
	json_object_set_new(o, "time", json_integer((json_int_t)time(NULL)));
	pl_autofree char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	pl_autofree char *path = pl_xasprintf("%s/%s", state_dir, PL_PERSIST_BOOT_FILE);
	pl_autofree char *line = pl_xasprintf("%s\n", s);
	return write_atomic(path, line);
}

int pl_persist_boot_read(const char *state_dir, char **profile, bool *ok, long long *time)
{
	pl_autofree char *path = pl_xasprintf("%s/%s", state_dir, PL_PERSIST_BOOT_FILE);
	json_error_t err;
	json_t *o = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	if (!o)
		return access(path, F_OK) < 0 ? -ENOENT : -EBADMSG;
	json_t *p = json_object_get(o, "profile"), *k = json_object_get(o, "ok"),
	       *t = json_object_get(o, "time");
	int r = -EBADMSG;
	if (json_is_string(p) && json_is_boolean(k) && json_is_integer(t)) {
		*profile = pl_xstrdup(json_string_value(p));
		*ok = json_is_true(k);
		*time = json_integer_value(t);
		r = 0;
	}
	json_decref(o);
	return r;
}
