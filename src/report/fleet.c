/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab report --fleet`: snapshot archives to the node documents of the cluster merge
 * (report/fleet.h). */
#include "report/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "facts/facts.h"
#include "report/keynums.h"
#include "report/limits.h"
#include "report/node.h"
#include "util/archive.h"
#include "util/beneath.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/privdir.h"
#include "util/sha256.h"
#include "util/str.h"
#include "util/sysroot.h"

/* A growing NULL-terminated vector of malloc'd strings. */
struct strv {
	char **v;
	size_t n, cap;
};

static void strv_add(struct strv *l, const char *s)
{
	if (l->n + 1 >= l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = pl_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = pl_xstrdup(s);
	l->v[l->n] = NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t l = strlen(s), k = strlen(suf);
	return l > k && strcmp(s + l - k, suf) == 0;
}

/* The snapshots in directory @dir (regular files *PL_FLEET_SUFFIX, sorted) onto @out.
 * Returns how many, or -EINVAL with @err filled. */
static int scan_dir(const char *dir, struct strv *out, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen,
			 "cannot read directory '%s': %s (give snapshot files or a "
			 "readable directory of them)",
			 dir, strerror(errno));
		return -EINVAL;
	}
	struct strv found = { 0 };
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !has_suffix(de->d_name, PL_FLEET_SUFFIX))
			continue;
		pl_autofree char *p = pl_xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			strv_add(&found, p);
	}
	closedir(d);
	if (found.n > 1)
		qsort(found.v, found.n, sizeof(*found.v), cmp_str);
	for (size_t i = 0; i < found.n; i++)
		strv_add(out, found.v[i]);
	int n = (int)found.n;
	pl_strv_free(found.v);
	if (n == 0) {
		snprintf(err, errlen,
			 "directory '%s' holds no snapshot (*%s files made by perflab snapshot)",
			 dir, PL_FLEET_SUFFIX);
		return -EINVAL;
	}
	return n;
}

/* -EINVAL with @err naming the first of the @n @files whose real path (symbolic links,
 * "." and ".." resolved) an earlier one has: one file given twice, by its name, through
 * a link, or as a directory and a file in it, would count one machine as two. */
static int check_repeats(char *const *files, size_t n, char *err, size_t errlen)
{
	char **real = pl_xcalloc(n ? n : 1, sizeof(*real));
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		real[i] = realpath(files[i], NULL);
		for (size_t j = 0; j < i && real[i] && r == 0; j++) {
			if (!real[j] || strcmp(real[i], real[j]) != 0)
				continue;
			if (strcmp(files[i], files[j]) == 0)
				snprintf(err, errlen,
					 "'%s' is given twice: one machine would count as two "
					 "(give each snapshot once)",
					 files[i]);
			else
				snprintf(err, errlen,
					 "'%s' and '%s' are one file: one machine would count as "
					 "two (give each snapshot once)",
					 files[j], files[i]);
			r = -EINVAL;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(real[i]);
	free(real);
	return r;
}

int pl_fleet_scan(char *const *paths, char ***files, char *err, size_t errlen)
{
	*files = NULL;
	struct strv out = { 0 };
	int r = 0;
	for (char *const *p = paths; p && *p && r == 0; p++) {
		struct stat st;
		if (stat(*p, &st) != 0 || access(*p, R_OK) != 0) {
			snprintf(err, errlen,
				 "cannot open '%s': %s (give snapshot files made by perflab "
				 "snapshot, "
				 "or a directory of them)",
				 *p, strerror(errno));
			r = -EINVAL;
		} else if (S_ISDIR(st.st_mode)) {
			r = scan_dir(*p, &out, err, errlen) < 0 ? -EINVAL : 0;
		} else if (S_ISREG(st.st_mode)) {
			strv_add(&out, *p);
		} else {
			snprintf(err, errlen,
				 "'%s' is neither a file nor a directory (give snapshot files made "
				 "by "
				 "perflab snapshot, or a directory of them)",
				 *p);
			r = -EINVAL;
		}
	}
	if (r == 0)
		r = check_repeats(out.v, out.n, err, errlen);
	if (r == 0 && out.n < 2) {
		snprintf(err, errlen,
			 "%zu snapshot given: a fleet report compares 2 or more machines (for one, "
			 "run perflab report --no-bench --sysroot FILE)",
			 out.n);
		r = -EINVAL;
	}
	if (r == 0 && out.n > PL_CLUSTER_MAX_NODES) {
		snprintf(err, errlen, "%zu snapshots given: a fleet report takes at most %d", out.n,
			 PL_CLUSTER_MAX_NODES);
		r = -EINVAL;
	}
	if (r < 0) {
		pl_strv_free(out.v);
		return r;
	}
	*files = out.v;
	return (int)out.n;
}

/* The SHA-256 of the file @path's bytes into @hex; false when it cannot be read. */
static bool file_sha256(const char *path, char hex[65])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct pl_sha256 h;
	pl_sha256_init(&h);
	unsigned char buf[65536];
	ssize_t got;
	while ((got = read(fd, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			pl_sha256_update(&h, buf, (size_t)got);
	close(fd);
	uint8_t d[32];
	pl_sha256_final(&h, d);
	for (size_t i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return got == 0;
}

char **pl_fleet_same_content(char *const *files, size_t n)
{
	char(*hex)[65] = pl_xcalloc(n ? n : 1, sizeof(*hex));
	bool *ok = pl_xcalloc(n ? n : 1, sizeof(*ok));
	struct strv out = { 0 };
	for (size_t i = 0; i < n; i++) {
		ok[i] = file_sha256(files[i], hex[i]);
		for (size_t j = 0; j < i && ok[i]; j++) {
			if (!ok[j] || strcmp(hex[i], hex[j]) != 0)
				continue;
			pl_autofree char *line = pl_xasprintf(
				"'%s' and '%s' have the same content (SHA-256 %.16s...): one "
				"machine's snapshot given twice counts as two nodes (leave one "
				"out)",
				files[j], files[i], hex[i]);
			strv_add(&out, line);
			break;
		}
	}
	free(hex);
	free(ok);
	return out.v;
}

/* @file's name without its directory and PL_FLEET_SUFFIX, malloc'd. */
static char *file_stem(const char *file)
{
	const char *b = strrchr(file, '/');
	char *s = pl_xstrdup(b && b[1] ? b + 1 : file);
	if (has_suffix(s, PL_FLEET_SUFFIX))
		s[strlen(s) - strlen(PL_FLEET_SUFFIX)] = '\0';
	return s;
}

/* Extract @file into the new directory @dir (0700). Returns 0, or -errno with @err
 * filled as one line naming @file. */
static int extract(const char *file, const char *dir, char *err, size_t errlen)
{
	if (mkdir(dir, 0700) < 0) {
		int e = errno;
		snprintf(err, errlen,
			 "'%s': cannot make the directory '%s' to read it into: %s (point TMPDIR "
			 "at a writable directory)",
			 file, dir, strerror(e));
		return -e;
	}
	int dfd = pl_beneath_root(dir);
	if (dfd < 0) {
		snprintf(err, errlen,
			 "'%s': cannot open '%s': %s (point TMPDIR at a writable "
			 "directory)",
			 file, dir, strerror(-dfd));
		return dfd;
	}
	struct pl_archive_error ae;
	int r = pl_archive_extract_file(file, dfd, &ae);
	close(dfd);
	if (r < 0 && ae.member[0])
		snprintf(err, errlen, "'%s': member '%s' %s (%s; or leave this snapshot out)", file,
			 ae.member, ae.why, ae.fix);
	else if (r < 0)
		snprintf(err, errlen, "'%s': %s (%s; or leave this snapshot out)", file, ae.why,
			 ae.fix);
	return r;
}

/* Remove the directory @dir and everything in it (no symlink followed). */
static void remove_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		pl_rmtree_below(fd);
		close(fd);
	}
	rmdir(dir);
}

/* The report document of the sysroot now set, as `perflab report --no-bench --sysroot`
 * writes its report.json, without the facts' sources. NULL when no fact is available. */
static json_t *node_doc(int workload)
{
	struct pl_facts f;
	pl_facts_init(&f);
	json_t *doc = pl_report_node_doc(&f, workload, NULL, NULL, NULL);
	pl_facts_free(&f);
	if (!doc)
		return NULL;
	json_object_set_new(doc, "run",
			    pl_report_run_info(PL_BENCH_MODE_DEFAULT, false, false, NULL, 0));
	pl_report_annotate(doc);
	const char *k;
	json_t *fact;
	json_object_foreach(json_object_get(doc, "facts"), k, fact) json_object_del(fact, "source");
	return doc;
}

json_t *pl_fleet_docs(char *const *files, size_t n, int workload, int *rc, char *err, size_t errlen)
{
	const char *top;
	if (errlen)
		err[0] = '\0';
	int r = pl_privdir_create("perflab-fleet", &top);
	if (r < 0) {
		snprintf(err, errlen,
			 "cannot make a temporary directory to read the snapshots into: %s (point "
			 "TMPDIR at a writable directory)",
			 strerror(-r));
		*rc = r;
		return NULL;
	}
	json_t *docs = json_array();
	for (size_t i = 0; i < n && docs; i++) {
		/* a directory of its own per snapshot: the collectors' caches are kept per
		 * sysroot path (cpuinfo, cpuid, read-errors) */
		pl_autofree char *dir = pl_xasprintf("%s/%zu", top, i);
		r = extract(files[i], dir, err, errlen);
		json_t *doc = NULL;
		if (r == 0 && (r = pl_sysroot_set(dir)) == 0) {
			doc = node_doc(workload);
			pl_sysroot_set(NULL);
			if (!doc) {
				snprintf(err, errlen,
					 "'%s': no facts found in it (give a snapshot made by "
					 "perflab "
					 "snapshot, or leave it out)",
					 files[i]);
				r = -EINVAL;
			}
		} else if (r != 0 && !err[0]) {
			snprintf(err, errlen, "'%s': cannot read it: %s", files[i], strerror(-r));
		}
		remove_tree(dir);
		if (r < 0) {
			json_decref(docs);
			docs = NULL;
			break;
		}
		const char *host = pl_json_str(json_object_get(doc, "machine"), "hostname");
		pl_autofree char *stem = file_stem(files[i]);
		json_t *e = json_object();
		json_object_set_new(e, "file", pl_json_string(files[i]));
		json_object_set_new(e, "name", pl_json_string(host && *host ? host : stem));
		json_object_set_new(e, "doc", doc);
		json_array_append_new(docs, e);
	}
	pl_privdir_remove();
	*rc = r;
	return docs;
}
