/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "snapshot/snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util/archive.h"
#include "util/clock.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/libarchive.h"
#include "util/record.h"
#include "util/sha256.h"
#include "snapshot/redact.h"

/* What the perflab-live/ member @path (without the leading '/') holds (docs/snapshot.md),
 * or NULL for any other member. */
static const char *live_what(const char *path)
{
	static const struct {
		const char *path; /* a member, or a directory of members when it ends in '/' */
		const char *what;
	} live[] = {
		{ "perflab-live/cpuid", "cpuid leaves the collectors executed" },
		{ "perflab-live/kmsg", "the kernel log read through syslog(2)" },
		{ "perflab-live/ethtool/", "ethtool ioctl results of one interface" },
		{ "perflab-live/read-errors", "reads that failed, to fail the same way" },
	};
	if (strncmp(path, "perflab-live/", 13) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		size_t l = strlen(live[i].path);
		if (live[i].path[l - 1] == '/' ? strncmp(path, live[i].path, l) == 0
					       : strcmp(path, live[i].path) == 0)
			return live[i].what;
	}
	return "a live reading of a later perflab";
}

/* Whether an entry can be a member: tar's pax headers hold names and link targets in
 * UTF-8, so a name the kernel gave in other bytes (an interface may be named with any)
 * is left out and listed as unreadable with the reason. */
static bool archivable(const struct pl_rec_entry *v)
{
	return pl_utf8_valid(v->path) && (v->type != PL_REC_LINK || pl_utf8_valid(v->target));
}

#define NOT_UTF8 "a name or link target that is not UTF-8 (a snapshot holds UTF-8 names)"

json_t *pl_snapshot_manifest(long long created, int argc, char *const *argv,
			     const json_t *redactions)
{
	json_t *doc = json_object();
	char when[32];
	json_object_set_new(doc, "format", pl_json_string(PL_SNAPSHOT_FORMAT));
	json_object_set_new(doc, "format_version", json_integer(PL_SNAPSHOT_VERSION));
	json_object_set_new(doc, "perflab_version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(doc, "created",
			    pl_json_string(pl_iso8601(created, when, sizeof(when))));
	json_t *av = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(av, pl_json_string(argv[i]));
	json_object_set_new(doc, "argv", av);
	json_object_set_new(doc, "hostname_redacted", json_boolean(redactions != NULL));

	const struct pl_rec_entry *v;
	size_t n = pl_record_entries(&v);
	json_t *members = json_array(), *live = json_array();
	for (size_t i = 0; i < n; i++) {
		if (v[i].type == PL_REC_DIR || !archivable(&v[i]))
			continue;
		json_t *m = json_object();
		json_object_set_new(m, "path", pl_json_string(v[i].path + 1));
		if (v[i].type == PL_REC_FILE) {
			char hex[65];
			pl_sha256_hex(v[i].data, v[i].len, hex);
			json_object_set_new(m, "type", pl_json_string("file"));
			json_object_set_new(m, "size", json_integer((json_int_t)v[i].len));
			json_object_set_new(m, "sha256", pl_json_string(hex));
		} else {
			json_object_set_new(m, "type", pl_json_string("symlink"));
			json_object_set_new(m, "size", json_integer(0));
			json_object_set_new(m, "target", pl_json_string(v[i].target));
		}
		json_array_append_new(members, m);
		const char *what = v[i].type == PL_REC_FILE ? live_what(v[i].path + 1) : NULL;
		if (what) {
			json_t *l = json_object();
			json_object_set_new(l, "path", pl_json_string(v[i].path + 1));
			json_object_set_new(l, "what", pl_json_string(what));
			json_array_append_new(live, l);
		}
	}
	json_object_set_new(doc, "members", members);
	const struct pl_rec_problem *p;
	size_t np = pl_record_problems(&p);
	json_t *bad = json_array();
	for (size_t i = 0; i < np; i++) {
		json_t *u = json_object();
		json_object_set_new(u, "path", pl_json_string(p[i].path));
		json_object_set_new(u, "error", pl_json_string(p[i].why));
		json_array_append_new(bad, u);
	}
	for (size_t i = 0; i < n; i++) {
		if (archivable(&v[i]))
			continue;
		json_t *u = json_object();
		json_object_set_new(u, "path", pl_json_string(v[i].path));
		json_object_set_new(u, "error", pl_json_string(NOT_UTF8));
		json_array_append_new(bad, u);
	}
	json_object_set_new(doc, "unreadable", bad);
	json_object_set_new(doc, "live", live);
	if (redactions)
		json_object_set_new(doc, "redactions", json_deep_copy(redactions));
	return doc;
}

/* Write one member: a file (@data, @len), a symlink (@target) or a directory. Returns 0
 * or -EIO. */
static int member(struct archive *a, struct archive_entry *e, const char *path, mode_t type,
		  const char *data, size_t len, const char *target, long long created)
{
	pl_la.archive_entry_clear(e);
	pl_la.archive_entry_set_pathname(e, path);
	pl_la.archive_entry_set_filetype(e, type);
	pl_la.archive_entry_set_perm(e, type == AE_IFREG ? 0644 : type == AE_IFDIR ? 0755 : 0777);
	pl_la.archive_entry_set_uid(e, 0);
	pl_la.archive_entry_set_gid(e, 0);
	pl_la.archive_entry_set_mtime(e, (time_t)created, 0);
	pl_la.archive_entry_set_size(e, type == AE_IFREG ? (la_int64_t)len : 0);
	if (type == AE_IFLNK)
		pl_la.archive_entry_set_symlink(e, target);
	if (pl_la.archive_write_header(a, e) != ARCHIVE_OK)
		return -EIO;
	if (type == AE_IFREG && len && pl_la.archive_write_data(a, data, len) != (la_ssize_t)len)
		return -EIO;
	return 0;
}

static char *redact_one(void *ctx, const char *path, const char *data, size_t len, size_t *outlen)
{
	return pl_redact_buf(ctx, path, data, len, outlen);
}

void pl_snapshot_redact(struct pl_redactor *r)
{
	const struct pl_rec_entry *v;
	size_t n = pl_record_entries(&v);
	for (size_t i = 0; i < n; i++)
		if (v[i].type == PL_REC_FILE)
			pl_redactor_learn(r, v[i].path, v[i].data, v[i].len);
	pl_record_rewrite(redact_one, r);
}

static int write_utf8(FILE *fp, long long created, int argc, char *const *argv,
		      const json_t *redactions, char *why, size_t whylen);

int pl_snapshot_write(FILE *fp, long long created, int argc, char *const *argv,
		      const json_t *redactions, char *why, size_t whylen)
{
	char lib[300];
	int r = pl_libarchive_load(lib, sizeof(lib));
	if (r < 0) {
		snprintf(why, whylen, "%s (%s)", lib, PL_LIBARCHIVE_FIX);
		return r;
	}
	/* pax names are UTF-8: convert from it, not from the "C" locale's ASCII */
	struct pl_archive_locale l;
	pl_archive_utf8_begin(&l);
	r = write_utf8(fp, created, argc, argv, redactions, why, whylen);
	pl_archive_utf8_end(&l);
	return r;
}

/* pl_snapshot_write() with the thread's LC_CTYPE in UTF-8. */
static int write_utf8(FILE *fp, long long created, int argc, char *const *argv,
		      const json_t *redactions, char *why, size_t whylen)
{
	json_t *doc = pl_snapshot_manifest(created, argc, argv, redactions);
	char *manifest = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	struct archive *a = pl_la.archive_write_new();
	struct archive_entry *e = pl_la.archive_entry_new();
	int r = -EIO;
	if (!manifest || !a || !e) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	/* bytes_in_last_block 1: no zero padding after the zstd frame to the tar block size
	 * (10240), which zstd(1) would refuse as trailing garbage */
	if (pl_la.archive_write_add_filter_zstd(a) != ARCHIVE_OK ||
	    pl_la.archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    pl_la.archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    pl_la.archive_write_open_FILE(a, fp) != ARCHIVE_OK)
		goto fail;
	size_t mlen = strlen(manifest);
	if (member(a, e, PL_SNAPSHOT_MANIFEST, AE_IFREG, manifest, mlen, NULL, created) < 0)
		goto fail;
	const struct pl_rec_entry *v;
	size_t n = pl_record_entries(&v);
	for (size_t i = 0; i < n; i++) {
		if (!archivable(&v[i]))
			continue;
		mode_t t = v[i].type == PL_REC_FILE   ? AE_IFREG
			   : v[i].type == PL_REC_LINK ? AE_IFLNK
						      : AE_IFDIR;
		if (member(a, e, v[i].path + 1, t, v[i].data, v[i].len, v[i].target, created) < 0)
			goto fail;
	}
	if (pl_la.archive_write_close(a) != ARCHIVE_OK)
		goto fail;
	r = 0;
	goto out;
fail:
	snprintf(why, whylen, "%s",
		 pl_la.archive_error_string(a) ? pl_la.archive_error_string(a) : "write error");
out:
	if (e)
		pl_la.archive_entry_free(e);
	if (a)
		pl_la.archive_write_free(a);
	free(manifest);
	return r;
}
