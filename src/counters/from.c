/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perf stat -j` and `perf stat -x,` output read back into a reading (from.h). The
 * shapes are perf 6.1's (tools/perf/util/stat-display.c), checked against its output on
 * this project's machines (tests/fixtures/perf-stat/):
 *   -j:  {["interval" : T,] ["cpu" : "N" | "socket" : "S0", "aggregate-number" : N |
 *         "thread" : "comm-tid" | ...,] "counter-value" : "V" | "<not counted>" |
 *         "<not supported>", "unit" : U, "event" : E, "event-runtime" : NS,
 *         "pcnt-running" : P[, "metric-value" : M, "metric-unit" : MU]}
 *   -x,: [T,][CPUn, | S0,N, | S0-D0,N, | S0-D0-C0,N, | N0,N, | comm-tid,]V,U,E,NS,P[,M,MU]
 * A line holding only a metric (no event) continues the line before it and is skipped.
 * The file is outside input: bounded size, line length and line count, every number
 * through strtod/strtoull with its range checked. */
#include "counters/from.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/str.h"

/** Largest file read (bytes). */
#define FROM_MAX_BYTES (4u << 20)
/** Longest line (bytes, newline excluded). */
#define FROM_MAX_LINE 4096
/** Most lines. */
#define FROM_MAX_LINES 200000
/** Most distinct events, and distinct (event, scope) readings. */
#define FROM_MAX_EVENTS 512
#define FROM_MAX_VALUES 65536

#define HASH_SIZE (4 * FROM_MAX_VALUES)

#define FIX " (give the output of perf stat -j or perf stat -x, unchanged)"

/* One parsed line */
struct rec {
	double interval; /* seconds since the start; -1 without -I */
	int cpu, socket, tid;
	const char *value; /* "123.0", "<not counted>", "<not supported>" */
	const char *unit, *event;
	uint64_t runtime;
	double pcnt;
	double metric; /* NAN when none */
	const char *metric_unit;
};

struct reader {
	const char *path;
	size_t line;
	char *err;
	size_t errlen;
	struct pl_cnt_event *evs; /* grows: the values hold indexes until the end */
	size_t nevs, capevs;
	struct pl_cnt_value *vals;
	size_t *evidx; /* each value's event */
	size_t nvals, capvals;
	int32_t *slot; /* hash of (event, scope) -> value index + 1; HASH_SIZE entries */
	double last_interval;
	double wall_s; /* from task-clock and its "CPUs utilized" */
	bool have_duration;
	double duration_ns;
};

static int bad(struct reader *rd, const char *what)
{
	snprintf(rd->err, rd->errlen, "%s:%zu: %s" FIX, rd->path, rd->line, what);
	return -EINVAL;
}

static bool parse_num(const char *s, double *out)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	/* perf prints decimals only: no hex, no inf/nan */
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && !strchr(".-+eE", *p))
			return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno == ERANGE || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno == ERANGE || *end)
		return false;
	*out = v;
	return true;
}

static bool value_like(const char *s)
{
	double d;
	return !strcmp(s, "<not counted>") || !strcmp(s, "<not supported>") || parse_num(s, &d);
}

/* "CPU3" -> 3 */
static bool parse_cpu(const char *s, int *cpu)
{
	uint64_t v;
	if (strncmp(s, "CPU", 3) || !parse_u64(s + 3, &v) || v > 1u << 20)
		return false;
	*cpu = (int)v;
	return true;
}

/* "S1" or "S1-D0" or "S1-D0-C3" -> 1 */
static bool parse_socket(const char *s, int *socket)
{
	if (s[0] != 'S' || !isdigit((unsigned char)s[1]))
		return false;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s + 1, &end, 10);
	if (errno || v > 1u << 20 || (*end && *end != '-'))
		return false;
	*socket = (int)v;
	return true;
}

/* "comm-1234" -> 1234 (the comm may hold dashes) */
static bool parse_thread(const char *s, int *tid)
{
	const char *dash = strrchr(s, '-');
	uint64_t v;
	if (!dash || !parse_u64(dash + 1, &v) || v == 0 || v > INT32_MAX)
		return false;
	*tid = (int)v;
	return true;
}

static int scope_field(struct reader *rd, struct rec *r, const char *f, bool thread_ok)
{
	if (parse_cpu(f, &r->cpu) || parse_socket(f, &r->socket))
		return 0;
	if (f[0] == 'N' && isdigit((unsigned char)f[1]))
		return 0; /* a NUMA node of --per-node: summed like no scope */
	if (thread_ok && parse_thread(f, &r->tid))
		return 0;
	return bad(rd, "unrecognised scope field");
}

/* Split @line at commas in place into at most @max fields. */
static size_t split_csv(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return max + 1;
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}

/* perf prints an event spelt with terms ("cpu/event=0xaa,umask=0x7/") unquoted, its
 * commas among the separators: join such a name's pieces back into one field. */
static size_t join_terms(char **f, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		const char *slash = strchr(f[i], '/');
		size_t len = strlen(f[i]);
		if (!isalpha((unsigned char)f[i][0]) || !slash || !strchr(slash, '=') ||
		    (len > 1 && f[i][len - 1] == '/' && strchr(slash + 1, '/')))
			continue;
		size_t j = i + 1;
		while (j < n) {
			size_t lj = strlen(f[j]);
			bool last = lj && f[j][lj - 1] == '/';
			f[j][-1] = ','; /* undo the split: the pieces are contiguous */
			j++;
			if (last)
				break;
		}
		size_t merged = j - i - 1;
		memmove(&f[i + 1], &f[j], (n - j) * sizeof(*f));
		n -= merged;
	}
	return n;
}

static int parse_csv(struct reader *rd, char *line, struct rec *r, bool *skip)
{
	char *f[32];
	size_t n = split_csv(line, f, 31);
	if (n > 31)
		return bad(rd, "too many fields for a perf stat -x, line");
	n = join_terms(f, n);
	if (n > 15)
		return bad(rd, "too many fields for a perf stat -x, line");
	/* the value is the first field followed by a unit, an event, the run time (ns) and
	 * the percentage running; before it the interval and the scope fields */
	for (size_t i = 0; i <= 4 && i + 4 < n; i++) {
		uint64_t rt;
		double pc;
		char *t = pl_trim(f[i]);
		if (!value_like(t) || !*f[i + 2] || !parse_u64(f[i + 3], &rt) ||
		    !parse_num(f[i + 4], &pc))
			continue;
		size_t k = 0;
		if (i > 0) {
			double iv;
			char *t0 = pl_trim(f[0]);
			if (parse_num(t0, &iv)) {
				if (iv < 0)
					return bad(rd, "negative interval time");
				r->interval = iv;
				k = 1;
			}
		}
		/* scope: "CPUn" | "Sn,count" | "Sn-Dm[-Ck],count" | "Nn,count" | "comm-tid" */
		if (i - k > 2)
			return bad(rd, "unrecognised fields before the value");
		if (i - k >= 1 && scope_field(rd, r, f[k], i - k == 1) < 0)
			return -EINVAL;
		if (i - k == 2) {
			uint64_t cnt;
			if (!parse_u64(f[k + 1], &cnt))
				return bad(rd, "aggregate count is not a number");
		}
		r->value = t;
		r->unit = f[i + 1];
		r->event = f[i + 2];
		r->runtime = rt;
		r->pcnt = pc;
		if (i + 5 < n && *f[i + 5]) {
			double mv;
			if (!parse_num(f[i + 5], &mv))
				return bad(rd, "metric value is not a number");
			r->metric = mv;
			r->metric_unit = i + 6 < n ? f[i + 6] : "";
		}
		if (n > i + 7)
			return bad(rd, "too many fields after the event");
		return 0;
	}
	/* a metric continuing the line before: empty fields up to the metric */
	size_t empty = 0;
	while (empty < n && !*pl_trim(f[empty]))
		empty++;
	if (n >= 7 && empty >= n - 2) {
		*skip = true;
		return 0;
	}
	return bad(rd, "not a perf stat -x, line: expected value,unit,event,run time,percent");
}

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int parse_json(struct reader *rd, const char *line, size_t len, struct rec *r, bool *skip,
		      json_t **hold)
{
	json_error_t je;
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		return bad(rd, "not a JSON object");
	*hold = o;
	if (!json_is_object(o))
		return bad(rd, "not a JSON object");
	json_t *ev = json_object_get(o, "event");
	if (!ev) {
		if (json_object_get(o, "metric-value") || json_object_get(o, "metric-unit")) {
			*skip = true; /* a further metric of the event before */
			return 0;
		}
		return bad(rd, "no \"event\" member");
	}
	r->event = jstr(o, "event");
	r->value = jstr(o, "counter-value");
	r->unit = jstr(o, "unit");
	if (!r->event || !*r->event)
		return bad(rd, "\"event\" is not a non-empty string");
	if (!r->value || !value_like(r->value))
		return bad(rd, "\"counter-value\" is not a number in a string");
	if (!r->unit)
		r->unit = "";
	json_t *rt = json_object_get(o, "event-runtime");
	if (!json_is_integer(rt) || json_integer_value(rt) < 0)
		return bad(rd, "\"event-runtime\" is not a non-negative integer");
	r->runtime = (uint64_t)json_integer_value(rt);
	json_t *pc = json_object_get(o, "pcnt-running");
	if (!json_is_number(pc) || !isfinite(json_number_value(pc)))
		return bad(rd, "\"pcnt-running\" is not a number");
	r->pcnt = json_number_value(pc);
	json_t *iv = json_object_get(o, "interval");
	if (iv) {
		if (!json_is_number(iv) || !(json_number_value(iv) >= 0) ||
		    !isfinite(json_number_value(iv)))
			return bad(rd, "\"interval\" is not a non-negative number");
		r->interval = json_number_value(iv);
	}
	const char *s;
	if ((s = jstr(o, "cpu"))) {
		uint64_t c;
		if (!parse_u64(s, &c) || c > 1u << 20)
			return bad(rd, "\"cpu\" is not a CPU number");
		r->cpu = (int)c;
	} else if (json_object_get(o, "cpu")) {
		return bad(rd, "\"cpu\" is not a string");
	}
	if ((s = jstr(o, "socket")) && !parse_socket(s, &r->socket))
		return bad(rd, "\"socket\" is not S<number>");
	if ((s = jstr(o, "die")) && !parse_socket(s, &r->socket))
		return bad(rd, "\"die\" is not S<number>-D<number>");
	if ((s = jstr(o, "core")) && !parse_socket(s, &r->socket))
		return bad(rd, "\"core\" is not S<number>-D<number>-C<number>");
	if ((s = jstr(o, "thread")) && !parse_thread(s, &r->tid))
		return bad(rd, "\"thread\" is not comm-tid");
	json_t *mv = json_object_get(o, "metric-value");
	if (mv) {
		if (!json_is_number(mv) || !isfinite(json_number_value(mv)))
			return bad(rd, "\"metric-value\" is not a number");
		r->metric = json_number_value(mv);
		r->metric_unit = jstr(o, "metric-unit");
		if (!r->metric_unit)
			r->metric_unit = "";
	}
	return 0;
}

/* The index of @r's event in rd->evs, added when new; -1 past FROM_MAX_EVENTS. */
static long event_for(struct reader *rd, const struct rec *r)
{
	for (size_t i = 0; i < rd->nevs; i++)
		if (!strcmp(rd->evs[i].name, r->event))
			return (long)i;
	if (rd->nevs >= FROM_MAX_EVENTS)
		return -1;
	if (rd->nevs == rd->capevs) {
		rd->capevs = rd->capevs ? rd->capevs * 2 : 16;
		rd->evs = pl_xrealloc(rd->evs, rd->capevs * sizeof(*rd->evs));
	}
	struct pl_cnt_event *ev = &rd->evs[rd->nevs++];
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", r->event);
	const char *slash = strchr(r->event, '/');
	if (slash && (size_t)(slash - r->event) < sizeof(ev->pmu))
		snprintf(ev->pmu, sizeof(ev->pmu), "%.*s", (int)(slash - r->event), r->event);
	ev->source = PL_CNT_PERF;
	ev->scale = 1; /* perf printed the value scaled already */
	snprintf(ev->unit, sizeof(ev->unit), "%s", r->unit);
	return (long)(rd->nevs - 1);
}

static int add_rec(struct reader *rd, const struct rec *r)
{
	if (strlen(r->event) >= PL_CNT_NAME_MAX)
		return bad(rd, "event name too long");
	if (strlen(r->unit) >= PL_CNT_UNIT_MAX)
		return bad(rd, "unit too long");
	if (!(r->pcnt >= 0 && r->pcnt <= 100.0001))
		return bad(rd, "percentage running outside 0..100");
	if (r->runtime > UINT64_MAX / 2)
		return bad(rd, "run time out of range");
	long ev = event_for(rd, r);
	if (ev < 0) {
		snprintf(rd->err, rd->errlen, "%s:%zu: more than %d distinct events" FIX, rd->path,
			 rd->line, FROM_MAX_EVENTS);
		return -EINVAL;
	}
	bool supported = strcmp(r->value, "<not supported>") != 0;
	bool counted = supported && strcmp(r->value, "<not counted>") != 0;
	double value = 0;
	if (counted && (!parse_num(r->value, &value) || value < 0 || value > 1e300))
		return bad(rd, "counter value out of range");
	uint64_t running = r->runtime;
	/* pcnt-running = running / enabled * 100 */
	double en = r->pcnt > 0 ? (double)running * 100.0 / r->pcnt + 0.5 : (double)running;
	uint64_t enabled = en < 1.8e19 ? (uint64_t)en : UINT64_MAX;
	if (r->interval >= 0 && r->interval > rd->last_interval)
		rd->last_interval = r->interval;
	if (!strcmp(r->event, "duration_time") && counted) {
		rd->have_duration = true;
		rd->duration_ns += value;
	}
	/* "CPUs utilized" of task-clock = task-clock / wall: the wall time of the run */
	if (!strcmp(r->event, "task-clock") && counted && r->interval < 0 && r->metric > 0 &&
	    r->metric_unit && !strcmp(r->metric_unit, "CPUs utilized") && rd->wall_s == 0)
		rd->wall_s = value / 1000.0 / r->metric;
	/* intervals summed into one reading, one per (event, scope) */
	struct pl_cnt_value *v = NULL;
	uint64_t h = (uint64_t)ev * 0x9e3779b97f4a7c15u ^
		     (uint64_t)(uint32_t)r->cpu * 0xff51afd7ed558ccdu ^
		     (uint64_t)(uint32_t)r->socket * 0xc4ceb9fe1a85ec53u ^
		     (uint64_t)(uint32_t)r->tid;
	h ^= h >> 29;
	size_t at = (size_t)(h % HASH_SIZE);
	for (; rd->slot[at]; at = (at + 1) % HASH_SIZE) {
		size_t i = (size_t)rd->slot[at] - 1;
		struct pl_cnt_value *c = &rd->vals[i];
		if (rd->evidx[i] == (size_t)ev && c->cpu == r->cpu && c->socket == r->socket &&
		    c->tid == r->tid) {
			v = c;
			break;
		}
	}
	if (!v) {
		if (rd->nvals >= FROM_MAX_VALUES) {
			snprintf(rd->err, rd->errlen, "%s:%zu: more than %d readings" FIX, rd->path,
				 rd->line, FROM_MAX_VALUES);
			return -EINVAL;
		}
		if (rd->nvals == rd->capvals) {
			rd->capvals = rd->capvals ? rd->capvals * 2 : 64;
			rd->vals = pl_xrealloc(rd->vals, rd->capvals * sizeof(*rd->vals));
			rd->evidx = pl_xrealloc(rd->evidx, rd->capvals * sizeof(*rd->evidx));
		}
		rd->evidx[rd->nvals] = (size_t)ev;
		rd->slot[at] = (int32_t)(rd->nvals + 1);
		v = &rd->vals[rd->nvals++];
		*v = (struct pl_cnt_value){
			.cpu = r->cpu, .socket = r->socket, .tid = r->tid, .supported = true
		};
	}
	v->supported = v->supported && supported;
	if (!supported)
		snprintf(v->why, sizeof(v->why), "<not supported> in the perf stat output");
	if (counted) {
		v->counted = true;
		v->value += value;
		double raw = (double)v->raw + value;
		v->raw = raw < 1.8e19 ? (uint64_t)(raw + 0.5) : UINT64_MAX;
	}
	v->running_ns += running;
	v->enabled_ns += enabled;
	return 0;
}

static int read_all(const char *path, const char *shown, char **buf, size_t *len, char *err,
		    size_t errlen)
{
	int fd;
	bool is_stdin = !strcmp(path, "-");
	if (is_stdin)
		fd = STDIN_FILENO;
	else
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen,
			 "cannot read perf stat output from '%s': %s (give a readable file)", shown,
			 strerror(e));
		return e == EACCES ? -EACCES : -ENOENT;
	}
	struct stat st;
	if (!is_stdin) {
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			snprintf(err, errlen,
				 "cannot read perf stat output from '%s': not a regular file (save "
				 "perf stat -o FILE output to a file first)",
				 shown);
			close(fd);
			return -EINVAL;
		}
	}
	size_t cap = 65536, n = 0;
	char *b = pl_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > FROM_MAX_BYTES)
				break;
			cap *= 2;
			b = pl_xrealloc(b, cap + 1);
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			snprintf(err, errlen, "cannot read perf stat output from '%s': %s", shown,
				 strerror(e));
			free(b);
			if (!is_stdin)
				close(fd);
			return e == EACCES ? -EACCES : -EINVAL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!is_stdin)
		close(fd);
	if (n > FROM_MAX_BYTES) {
		snprintf(err, errlen,
			 "perf stat output '%s' is longer than %u MiB (give one run's output)",
			 shown, FROM_MAX_BYTES >> 20);
		free(b);
		return -EINVAL;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int pl_cnt_from_file(const char *path, struct pl_cnt_result *r, struct pl_cnt_event **evs,
		     size_t *nevs, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	/* the path as errors show it: one line, whatever bytes it holds */
	char *shown = pl_str_escape(path, PL_ESC_TERM);
	int rc = read_all(path, shown, &buf, &len, err, errlen);
	if (rc < 0) {
		free(shown);
		return rc;
	}
	struct reader rd = { .path = shown, .err = err, .errlen = errlen, .last_interval = -1 };
	rd.slot = pl_xcalloc(HASH_SIZE, sizeof(*rd.slot));
	int format = 0; /* 'j' or 'x' once known */
	char *p = buf;
	rc = 0;
	while (p < buf + len && rc == 0) {
		char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(buf + len - p);
		char *next = nl ? nl + 1 : buf + len;
		rd.line++;
		if (rd.line > FROM_MAX_LINES) {
			snprintf(err, errlen, "%s: more than %d lines" FIX, shown, FROM_MAX_LINES);
			rc = -EINVAL;
			break;
		}
		if (ll > FROM_MAX_LINE) {
			rc = bad(&rd, "line too long");
			break;
		}
		p[ll] = '\0';
		if (ll && p[ll - 1] == '\r')
			p[--ll] = '\0';
		if (memchr(p, '\0', ll)) {
			rc = bad(&rd, "NUL byte in the line");
			break;
		}
		char *t = pl_trim(p);
		p = next;
		if (!*t || *t == '#')
			continue;
		if (!format)
			format = *t == '{' ? 'j' : 'x';
		struct rec rec = { .interval = -1, .cpu = -1, .socket = -1, .metric = NAN };
		bool skip = false;
		json_t *hold = NULL;
		if (format == 'j')
			rc = *t == '{' ? parse_json(&rd, t, strlen(t), &rec, &skip, &hold)
				       : bad(&rd, "not a JSON object in perf stat -j output");
		else
			rc = parse_csv(&rd, t, &rec, &skip);
		if (rc == 0 && !skip)
			rc = add_rec(&rd, &rec);
		json_decref(hold);
	}
	free(buf);
	free(rd.slot);
	if (rc == 0 && rd.nvals == 0) {
		snprintf(err, errlen, "%s: no perf stat readings in the file" FIX, shown);
		rc = -EINVAL;
	}
	free(shown);
	if (rc < 0) {
		free(rd.vals);
		free(rd.evidx);
		free(rd.evs);
		return rc;
	}
	/* the events array no longer moves: point the values at their events, and count
	 * the distinct CPUs of per-CPU readings */
	uint8_t *seen = pl_xcalloc((1u << 20) / 8 + 1, 1);
	int ncpus = 0;
	for (size_t i = 0; i < rd.nvals; i++) {
		rd.vals[i].ev = &rd.evs[rd.evidx[i]];
		int c = rd.vals[i].cpu;
		if (c >= 0 && !(seen[c / 8] & (1u << (c % 8)))) {
			seen[c / 8] |= (uint8_t)(1u << (c % 8));
			ncpus++;
		}
	}
	free(seen);
	free(rd.evidx);
	*r = (struct pl_cnt_result){ .v = rd.vals, .n = rd.nvals, .ncpus = ncpus };
	double wall = rd.last_interval >= 0 ? rd.last_interval
		      : rd.have_duration    ? rd.duration_ns / 1e9
					    : rd.wall_s;
	r->elapsed_ns = wall > 0 && wall < 1e9 ? (uint64_t)llround(wall * 1e9) : 0;
	*evs = rd.evs;
	*nevs = rd.nevs;
	return 0;
}
