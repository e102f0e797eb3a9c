/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The size limits of saved documents (report/limits.h). */
#include "report/limits.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util/json.h"

/* json_load_callback's reader: at most PL_DOC_MAX_BYTES from the file. */
struct reader {
	FILE *f;
	size_t total;
	bool too_big;
};

static size_t read_some(void *buf, size_t len, void *data)
{
	struct reader *r = data;
	size_t n = fread(buf, 1, len, r->f);
	r->total += n;
	if (r->total > PL_DOC_MAX_BYTES) {
		r->too_big = true;
		return (size_t)-1;
	}
	if (n == 0 && ferror(r->f))
		return (size_t)-1;
	return n;
}

json_t *pl_doc_read(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return pl_json_read_path(path, err, errlen); /* its message for a directory */
	/* Only a regular file: a FIFO or device would block or never end. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot read JSON from '%s': unable to open %s: %s", path,
			 path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "cannot read JSON from '%s': not a regular file", path);
		return NULL;
	}
	fcntl(fd, F_SETFL, 0);
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct reader r = { .f = f };
	json_error_t je;
	json_t *doc = json_load_callback(read_some, &r, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (r.too_big) {
		json_decref(doc);
		snprintf(err, errlen,
			 "'%s' is larger than %zu MiB, the most perflab reads of a document", path,
			 PL_DOC_MAX_BYTES >> 20);
		return NULL;
	}
	if (!doc && je.line > 0)
		snprintf(err, errlen, "cannot read JSON from '%s': %s (line %d, column %d)", path,
			 je.text, je.line, je.column);
	else if (!doc)
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, je.text);
	return doc;
}

/* -E2BIG with the message when @n is past @max. */
static int over(size_t n, size_t max, const char *path, const char *what, char *err, size_t errlen)
{
	if (n <= max)
		return 0;
	snprintf(err, errlen, "'%s' holds %zu %s; perflab takes at most %zu per document", path, n,
		 what, max);
	return -E2BIG;
}

/* The metrics of benchmark result @b. */
static int check_metrics(const json_t *b, const char *path, char *err, size_t errlen)
{
	return over(json_array_size(json_object_get(b, "metrics")), PL_DOC_MAX_METRICS, path,
		    "metrics in one benchmark result", err, errlen);
}

int pl_doc_check_limits(const json_t *doc, const char *path, char *err, size_t errlen)
{
	const json_t *check = json_object_get(doc, "check");
	const json_t *findings = json_object_get(check ? check : doc, "findings");
	const json_t *bench = json_object_get(doc, "benchmarks");
	int r = over(json_object_size(json_object_get(doc, "facts")), PL_DOC_MAX_FACTS, path,
		     "facts", err, errlen);
	if (!r)
		r = over(json_array_size(findings), PL_DOC_MAX_FINDINGS, path, "findings", err,
			 errlen);
	if (!r)
		r = over(json_array_size(bench), PL_DOC_MAX_BENCHMARKS, path, "benchmark results",
			 err, errlen);
	if (!r)
		r = check_metrics(doc, path, err, errlen);
	size_t i;
	json_t *b;
	json_array_foreach(bench, i, b)
	{
		if (r)
			break;
		r = check_metrics(b, path, err, errlen);
	}
	return r;
}
