/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Persistence of a profile across reboots (tune/persist.h). */
#include "tune/persist.h"
#include "tune/profile.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/json.h"
#include "util/cleanup.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

#define WANTS "/etc/systemd/system/sysinit.target.wants"

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

int pl_persist_write(struct pl_journal *j, const char *state_dir, const char *name,
		     const char *file, const char *exe)
{
	char unit[PATH_MAX], wants[PATH_MAX], link[PATH_MAX];
	const char *link_abs = WANTS "/perflab-tune.service";
	int r;
	if ((r = pl_sysroot_path(unit, sizeof(unit), PL_PERSIST_UNIT)) < 0 ||
	    (r = pl_sysroot_path(wants, sizeof(wants), WANTS)) < 0 ||
	    (r = pl_sysroot_path(link, sizeof(link), link_abs)) < 0)
		return r;
	struct stat st;
	if (lstat(unit, &st) == 0 || lstat(link, &st) == 0)
		return -EEXIST; /* a persisted profile (roll it back first) or another unit */
	pl_autofree char *text = NULL;
	size_t len;
	/* The profile file is outside the sysroot's /etc (bundled or --profile-dir) or
	 * inside it: read it by its host path. */
	FILE *f = fopen(file, "re");
	if (!f)
		return -errno;
	struct pl_buf b = { 0 };
	char chunk[4096];
	while ((len = fread(chunk, 1, sizeof(chunk), f)) > 0)
		pl_buf_append(&b, chunk, len);
	fclose(f);
	text = b.data ? b.data : pl_xstrdup("");
	pl_autofree char *pdir = pl_xasprintf("%s/persist", state_dir);
	pl_autofree char *cdir = pl_xasprintf("%s/%s", pdir, name);
	pl_autofree char *copy = pl_xasprintf("%s/tuned.conf", cdir);
	bool made_dir = stat(wants, &st) < 0;
	unsigned long step;
	if ((r = pl_journal_persist(j, PL_PERSIST_UNIT, link_abs, copy, made_dir, name, &step)) < 0)
		return r;
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
		name, name, exe, state_dir, pdir, name);
	if ((mkdir(pdir, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(cdir, 0700) < 0 && errno != EEXIST))
		r = -errno;
	if (r == 0)
		r = write_atomic(copy, text);
	if (r == 0)
		r = write_atomic(unit, u);
	if (r == 0 && made_dir && mkdir(wants, 0755) < 0)
		r = -errno;
	if (r == 0 && symlink("../perflab-tune.service", link) < 0)
		r = -errno;
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
