/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi snapshot: the collector of each node (one rank per node, as for the other
 * commands) takes the node's snapshot archive (snapshot/snapshot.h, docs/snapshot.md) in
 * memory and sends it to rank 0 through the documents' gather protocol (gather.c): one
 * JSON text per node holding the archive in base64 (RFC 4648, through Nettle), so no
 * shared file system is needed. Rank 0 writes DIR/NODE.tar.zst for each node, atomically,
 * ready for `perflab report --fleet DIR`. */
#include <errno.h>
#include <nettle/base64.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/node.h"
#include "facts/facts.h"
#include "mpi/run.h"
#include "report/cluster.h"
#include "snapshot/snapshot.h"
#include "util/beneath.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/outdir.h"
#include "util/record.h"
#include "util/str.h"

/* This node's snapshot as {"archive": BASE64, "bytes": N}, or {"failed": why}. The
 * manifest's argv is perflab-mpi's command line, @argv (@argc strings). */
static json_t *take_snapshot(int argc, char **argv)
{
	long long created = pl_now_epoch();
	pl_record_start();
	struct pl_facts f;
	pl_facts_init(&f);
	pl_mpi_first_err[0] = '\0';
	pl_error_sink = pl_mpi_keep_error;
	int rc = pl_inspect_collect(NULL, &f);
	pl_error_sink = NULL;
	pl_record_pause(true);
	pl_facts_free(&f);
	json_t *doc = json_object();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = rc >= 0 ? NULL : open_memstream(&buf, &len);
	char why[1024] = "";
	if (rc >= 0) {
		snprintf(why, sizeof(why), "%s", pl_mpi_first_err);
	} else if (!fp) {
		snprintf(why, sizeof(why), "cannot hold the archive in memory: %s",
			 strerror(errno));
	} else {
		int w = pl_snapshot_write(fp, created, argc, argv, NULL, why, sizeof(why));
		if (fclose(fp) != 0 && w == 0)
			snprintf(why, sizeof(why), "cannot hold the archive in memory");
		else if (w == 0)
			why[0] = '\0';
	}
	pl_record_stop();
	if (why[0] || !buf) {
		json_object_set_new(doc, "failed", pl_json_string(why[0] ? why : "no archive"));
	} else {
		char *b64 = pl_xmalloc(BASE64_ENCODE_RAW_LENGTH(len) + 1);
		base64_encode_raw(b64, len, (const uint8_t *)buf);
		b64[BASE64_ENCODE_RAW_LENGTH(len)] = '\0';
		json_object_set_new(doc, "archive", pl_json_string(b64));
		json_object_set_new(doc, "bytes", json_integer((json_int_t)len));
		free(b64);
	}
	free(buf);
	return doc;
}

/* The archive bytes of @doc (take_snapshot()'s), malloc'd into *@out (*@len bytes).
 * Returns 0, or -EINVAL with the reason in @why. */
static int archive_bytes(const json_t *doc, uint8_t **out, size_t *len, char *why, size_t wl)
{
	if (!doc) {
		snprintf(why, wl, "its message is not JSON");
		return -EINVAL;
	}
	if (pl_json_str(doc, "failed")) {
		snprintf(why, wl, "%s", pl_json_str(doc, "failed"));
		return -EINVAL;
	}
	const char *b64 = pl_json_str(doc, "archive");
	if (!b64) {
		snprintf(why, wl, "its message holds no archive");
		return -EINVAL;
	}
	size_t n = strlen(b64), got = BASE64_DECODE_LENGTH(n);
	uint8_t *buf = pl_xmalloc(got + 1);
	struct base64_decode_ctx ctx;
	base64_decode_init(&ctx);
	json_int_t want = json_integer_value(json_object_get(doc, "bytes"));
	if (!base64_decode_update(&ctx, &got, buf, n, b64) || !base64_decode_final(&ctx) ||
	    (json_int_t)got != want) {
		free(buf);
		snprintf(why, wl, "its archive arrived damaged (not the %lld bytes sent)",
			 (long long)want);
		return -EINVAL;
	}
	*out = buf;
	*len = got;
	return 0;
}

/* File names for the @nc node names @names: bytes other than letters, digits, '.', '_',
 * '-' and '#' as '_', a leading '.' too (at most 200 bytes; "node" for an empty name),
 * made unique again (pl_cluster_unique_names: two names may clean to one), then
 * ".tar.zst" (what `report --fleet DIR` reads). New NULL-terminated strv. */
static char **file_names(char *const *names, int nc)
{
	char **clean = pl_xcalloc((size_t)nc + 1, sizeof(*clean));
	for (int i = 0; i < nc; i++) {
		char *c = pl_xstrdup(names[i]);
		if (strlen(c) > 200)
			c[200] = '\0';
		for (char *p = c; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-' ||
			      *p == '#'))
				*p = '_';
		if (!*c) {
			free(c);
			c = pl_xstrdup("node");
		} else if (*c == '.') {
			*c = '_';
		}
		clean[i] = c;
	}
	char **uniq = pl_cluster_unique_names((const char *const *)clean, (size_t)nc);
	pl_strv_free(clean);
	for (int i = 0; i < nc; i++) {
		char *f = pl_xasprintf("%s.tar.zst", uniq[i]);
		free(uniq[i]);
		uniq[i] = f;
	}
	return uniq;
}

/* Rank 0: write the nodes' archives (@docs, @got as the gather left them) into -o DIR and
 * say where each went on stdout. Returns the exit code: 0, 2 (DIR refused or not
 * writable, nothing written), 3 (a node without an archive: the others are written). */
static int write_snapshots(const struct mpi_opts *o, const int *coll, int nc, char *const *names,
			   json_t **docs, const bool *got)
{
	const char *dir = pl_g.output, *why = NULL;
	int dirfd = pl_outdir_open(dir, &why);
	if (dirfd < 0) {
		char m[600];
		if (why)
			snprintf(
				m, sizeof(m),
				"refusing snapshot directory '%s': %s (choose another with -o DIR)",
				dir, why);
		else
			snprintf(
				m, sizeof(m),
				"cannot create snapshot directory '%s': %s (choose another with -o "
				"DIR)",
				dir, strerror(-dirfd));
		pl_mpi_fail_line(m);
		return PL_EXIT_USAGE;
	}
	char **files = file_names(names, nc);
	int ret = PL_EXIT_OK, written = 0;
	for (int i = 0; i < nc; i++) {
		char reason[600];
		uint8_t *buf = NULL;
		size_t len = 0;
		int r;
		if (!got[i]) {
			if (pl_mpi_stop.late)
				snprintf(reason, sizeof(reason),
					 "no snapshot after --timeout %g s (hung or still running)",
					 o->timeout_s);
			else
				snprintf(reason, sizeof(reason),
					 "no snapshot before the run was interrupted");
			r = -EINVAL;
		} else {
			r = archive_bytes(docs[i], &buf, &len, reason, sizeof(reason));
		}
		if (r == 0) {
			r = pl_beneath_write_atomic(dirfd, files[i], buf, len, 0644);
			if (r < 0)
				snprintf(reason, sizeof(reason), "cannot write '%s/%s': %s", dir,
					 files[i], strerror(-r));
		}
		free(buf);
		if (r == 0) {
			printf("%s: %s/%s (%zu bytes)\n", names[i], dir, files[i], len);
			written++;
		} else {
			char *m = pl_xasprintf("node %s (rank %d): %s", names[i], coll[i], reason);
			pl_mpi_fail_line(m);
			free(m);
			ret = PL_EXIT_RUNTIME;
		}
	}
	printf("%d of %d node snapshots written to %s/ (perflab report --fleet %s)\n", written, nc,
	       dir, dir);
	fflush(stdout);
	pl_strv_free(files);
	close(dirfd);
	return ret;
}

int pl_mpi_run_snapshot(const struct mpi_opts *o, const int *coll, int nc, char *const *names,
			int argc, char **argv)
{
	char **av = pl_xcalloc((size_t)argc + 1, sizeof(*av));
	for (int i = 0; i < argc; i++)
		av[i] = argv[i];
	av[0] = "perflab-mpi"; /* not the path it was started from */
	json_t *doc = take_snapshot(argc, av);
	free(av);
	if (pl_mpi_rank != 0) {
		pl_mpi_send_json(doc, TAG_DOC);
		json_decref(doc);
		return 0;
	}
	json_t **docs = pl_xcalloc((size_t)nc, sizeof(*docs));
	bool *got = pl_xcalloc((size_t)nc, sizeof(*got));
	docs[0] = doc;
	got[0] = true;
	pl_mpi_gather_json(TAG_DOC, coll, nc, docs, got, MPI_Wtime() + o->timeout_s, NULL, NULL,
			   NULL);
	int ret = write_snapshots(o, coll, nc, names, docs, got);
	for (int i = 0; i < nc; i++)
		json_decref(docs[i]);
	free(docs);
	free(got);
	if (pl_mpi_stop.late) /* a hung rank would block MPI_Finalize */
		MPI_Abort(MPI_COMM_WORLD, ret);
	return ret;
}
