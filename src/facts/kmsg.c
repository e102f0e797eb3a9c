/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kmsg.*: kernel log events that make measurements wrong or show a sick machine:
 * clocksource marked unstable, thermal throttling, machine checks, perf lowering its
 * sample rate, hung tasks, soft/hard lockups, NVMe and SCSI command timeouts; each with a
 * count, the time of the last one (seconds since boot) and its text.
 * Source: through the sysroot, /dev/kmsg when it is a regular file (a fixture tree holds
 * the log there, in /dev/kmsg's record format); on the live system the kernel ring buffer
 * through syslog(2) SYSLOG_ACTION_READ_ALL (what `dmesg -r` prints; never blocks), which
 * needs CAP_SYSLOG when kernel.dmesg_restrict is 1; in a snapshot, /perflab-live/kmsg,
 * the bytes syslog(2) returned when it was taken. Formats:
 * Documentation/ABI/testing/dev-kmsg and syslog(2). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/record.h"
#include "util/str.h"
#include "util/sysroot.h"

#define KMSG "/dev/kmsg"
/* A snapshot's kernel log: what syslog(2) returned, as it returned it (docs/snapshot.md). */
#define KMSG_LIVE "/perflab-live/kmsg"

/* The substrings the events are made of (case-sensitive), tested by is_event(). */
enum pat {
	P_CLOCKSOURCE,
	P_AS_UNSTABLE,
	P_TEMP_ABOVE,
	P_CLOCK_THROTTLED,
	P_MACHINE_CHECK,
	P_HW_ERROR,
	P_MCE_CPU,
	P_EDAC_MC,
	P_SP_ERROR,
	P_PERF_TOOK,
	P_PERF_LOWERING,
	P_BLOCKED_FOR,
	P_SECONDS,
	P_SOFT_LOCKUP,
	P_HARD_LOCKUP,
	P_RCU_SCHED_STALL,
	P_RCU_INFO,
	P_SP_TIMEOUT,
	P_TIMED_OUT,
	P_TIMING_OUT,
	P_DID_TIME_OUT,
	P_ABORT,
	NPAT
};
static const char *const pats[NPAT] = {
	[P_CLOCKSOURCE] = "clocksource",
	[P_AS_UNSTABLE] = "as unstable",
	[P_TEMP_ABOVE] = "temperature above threshold",
	[P_CLOCK_THROTTLED] = "clock throttled",
	[P_MACHINE_CHECK] = "Machine check",
	[P_HW_ERROR] = "[Hardware Error]",
	[P_MCE_CPU] = "mce: CPU",
	[P_EDAC_MC] = "EDAC MC",
	[P_SP_ERROR] = " error",
	[P_PERF_TOOK] = "perf: interrupt took too long",
	[P_PERF_LOWERING] = "lowering kernel.perf_event_max_sample_rate",
	[P_BLOCKED_FOR] = "blocked for more than",
	[P_SECONDS] = "seconds",
	[P_SOFT_LOCKUP] = "soft lockup - CPU#",
	[P_HARD_LOCKUP] = "hard LOCKUP",
	[P_RCU_SCHED_STALL] = "rcu_sched self-detected stall",
	[P_RCU_INFO] = "rcu: INFO: rcu_",
	[P_SP_TIMEOUT] = " timeout",
	[P_TIMED_OUT] = "timed out",
	[P_TIMING_OUT] = "timing out command",
	[P_DID_TIME_OUT] = "DID_TIME_OUT",
	[P_ABORT] = "abort",
};

/* Where each pattern occurs next in the whole log, so that a line is searched only for
 * the patterns that occur in it: a strstr(3) of every pattern in every line (14 a line)
 * took 0.77 M of perflab check's 6.5 M instructions for a log of 744 lines (valgrind
 * callgrind, 2-vCPU EPYC guest); each pattern's search now goes through the log once. */
struct scan {
	const char *line, *eol; /* the line being tested, in the log (no '\n' inside) */
	const char *end;	/* the log's terminating NUL: "no more occurrences" */
	const char *next[NPAT]; /* the first occurrence at or after an earlier line; NULL:
				   not searched yet */
};

/* Whether pattern @p is in @m, the message of line sc->line (a copy of it, cut at the
 * line's end). The pattern holds no newline, so it is in the line only if its next
 * occurrence in the log starts before the line's end. */
static bool has(struct scan *sc, const char *m, enum pat p)
{
	const char *n = sc->next[p];
	if (!n || n < sc->line) {
		n = strstr(sc->line, pats[p]);
		sc->next[p] = n = n ? n : sc->end;
	}
	return n < sc->eol && strstr(m, pats[p]) != NULL;
}

static bool is_event(struct scan *sc, enum pl_kmsg_event e, const char *m)
{
	switch (e) {
	case PL_KMSG_CLOCKSOURCE_UNSTABLE: /* kernel/time/clocksource.c */
		return has(sc, m, P_CLOCKSOURCE) && has(sc, m, P_AS_UNSTABLE);
	case PL_KMSG_THERMAL: /* arch/x86/kernel/cpu/mce/therm_throt.c */
		return has(sc, m, P_TEMP_ABOVE) || has(sc, m, P_CLOCK_THROTTLED);
	case PL_KMSG_MCE: /* arch/x86/kernel/cpu/mce/core.c, drivers/edac */
		return has(sc, m, P_MACHINE_CHECK) || has(sc, m, P_HW_ERROR) ||
		       has(sc, m, P_MCE_CPU) || (has(sc, m, P_EDAC_MC) && has(sc, m, P_SP_ERROR));
	case PL_KMSG_PERF_RATE: /* kernel/events/core.c perf_sample_event_took() */
		return has(sc, m, P_PERF_TOOK) || has(sc, m, P_PERF_LOWERING);
	case PL_KMSG_HUNG_TASK: /* kernel/hung_task.c */
		return has(sc, m, P_BLOCKED_FOR) && has(sc, m, P_SECONDS);
	case PL_KMSG_SOFT_LOCKUP: /* kernel/watchdog.c */
		return has(sc, m, P_SOFT_LOCKUP) || has(sc, m, P_HARD_LOCKUP) ||
		       has(sc, m, P_RCU_SCHED_STALL) || has(sc, m, P_RCU_INFO);
	case PL_KMSG_NVME_TIMEOUT: /* drivers/nvme/host/pci.c nvme_timeout() */
		return strncmp(m, "nvme", 4) == 0 &&
		       (has(sc, m, P_SP_TIMEOUT) || has(sc, m, P_TIMED_OUT));
	case PL_KMSG_SCSI_TIMEOUT: /* drivers/scsi/scsi_error.c, sd.c */
		return (strncmp(m, "sd ", 3) == 0 || strncmp(m, "scsi", 4) == 0) &&
		       (has(sc, m, P_TIMING_OUT) || has(sc, m, P_TIMED_OUT) ||
			has(sc, m, P_DID_TIME_OUT) || has(sc, m, P_ABORT));
	case PL_KMSG_NEVENTS:
		break;
	}
	return false;
}

const char *const pl_kmsg_event_names[PL_KMSG_NEVENTS] = {
	"clocksource_unstable", "thermal_throttle", "machine_check",
	"perf_rate_lowered",	"hung_task",	    "soft_lockup",
	"nvme_timeout",		"scsi_timeout",
};

/* One record's time (seconds) and message from "PRI,SEQ,USEC,FLAGS;MSG" (/dev/kmsg) or
 * "<PRI>[ SEC.USEC] MSG" (syslog(2), dmesg -r) or a bare "[ SEC.USEC] MSG" (dmesg).
 * Returns the message (in @line) or NULL for a line of neither form. @t may be NULL:
 * the time is parsed only for the lines with an event (strtod(3) of every line's time
 * was 0.66 M instructions for 744 lines). */
static const char *record(const char *line, double *t)
{
	if (t)
		*t = -1;
	const char *p = line;
	if (*p == '<') { /* syslog(2) */
		const char *e = strchr(p, '>');
		if (!e || e - p > 5)
			return NULL;
		p = e + 1;
	}
	if (*p == '[') {
		const char *e = strchr(p, ']');
		if (!e)
			return NULL;
		if (t) {
			char *end;
			double v = strtod(p + 1, &end);
			if (end != p + 1 && end <= e && v >= 0 && v < 1e12)
				*t = v;
		}
		p = e + 1;
		while (*p == ' ')
			p++;
		return p;
	}
	/* /dev/kmsg: three comma-separated numbers, optional flags, ';' */
	const char *semi = strchr(p, ';');
	if (!semi || semi - p > 64)
		return NULL;
	const char *c1 = memchr(p, ',', (size_t)(semi - p));
	const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(semi - c1 - 1)) : NULL;
	if (!c1 || !c2)
		return NULL;
	char *end;
	unsigned long long us = strtoull(c2 + 1, &end, 10);
	if (end == c2 + 1 || (*end != ',' && *end != ';'))
		return NULL;
	if (t)
		*t = (double)us / 1e6;
	return semi + 1;
}

void pl_kmsg_parse(const char *text, struct pl_kmsg_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int e = 0; e < PL_KMSG_NEVENTS; e++)
		st->ev[e].last_s = -1;
	struct scan sc = { .end = text ? text + strlen(text) : NULL };
	const char *p = text;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		/* continuation lines of /dev/kmsg (" KEY=VALUE") carry no event */
		if (len && p[0] != ' ' && len < 4096) {
			char line[4096];
			memcpy(line, p, len);
			line[len] = '\0';
			const char *m = record(line, NULL);
			sc.line = p;
			sc.eol = p + len;
			if (m) {
				st->records++;
				double t = -1;
				bool timed = false;
				for (int e = 0; e < PL_KMSG_NEVENTS; e++) {
					if (!is_event(&sc, (enum pl_kmsg_event)e, m))
						continue;
					if (!timed)
						record(line, &t);
					timed = true;
					st->ev[e].count++;
					st->ev[e].last_s = t;
					snprintf(st->ev[e].last, sizeof(st->ev[e].last), "%s", m);
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* The live ring buffer through syslog(2) into *out. Returns 0 or -errno. */
static int read_live(char **out)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size < 0)
		return -errno;
	if (size == 0 || size > (int)PL_READ_MAX)
		size = 1 << 20;
	char *buf = pl_xmalloc((size_t)size + 1);
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		int e = errno;
		free(buf);
		return -e;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

void pl_collect_kmsg(struct pl_facts *f)
{
	pl_autofree char *text = NULL;
	const char *src = KMSG;
	/* live /dev/kmsg is the character device: not a problem for a snapshot to note */
	bool was = pl_record_pause(true);
	if (!pl_sysroot_is_live())
		pl_record_pause(was);
	int r = pl_read_file(KMSG, &text, NULL);
	pl_record_pause(was);
	if (r == -PL_ENOTREG && pl_sysroot_is_live()) {
		src = "syslog(2)";
		r = read_live(&text);
		if (r == 0)
			pl_record_live(KMSG_LIVE, text, strlen(text));
		else
			pl_record_probe_failure("syslog(2)", KMSG_LIVE, r);
	} else if ((r == -PL_ENOTREG || r == -ENOENT) && !pl_sysroot_is_live()) {
		/* a snapshot's copy of what syslog(2) returned, or the error it gave */
		int rl = pl_read_file(KMSG_LIVE, &text, NULL);
		if (rl != -ENOENT) {
			src = "syslog(2)";
			r = rl;
		}
	}
	if (r < 0) {
		const char *why = r == -EPERM || r == -EACCES
					  ? "permission denied (kernel.dmesg_restrict=1: needs "
					    "CAP_SYSLOG, run as root)"
					  : pl_read_strerror(r);
		pl_fact_unavailable(f, "kmsg.records", "%s: %s", src, why);
		for (int e = 0; e < PL_KMSG_NEVENTS; e++) {
			char key[64];
			snprintf(key, sizeof(key), "kmsg.%s", pl_kmsg_event_names[e]);
			pl_fact_unavailable(f, key, "%s: %s", src, why);
		}
		return;
	}
	struct pl_kmsg_stats st;
	pl_kmsg_parse(text, &st);
	pl_fact_int(f, "kmsg.records", (int64_t)st.records, src);
	for (int e = 0; e < PL_KMSG_NEVENTS; e++) {
		char key[64];
		snprintf(key, sizeof(key), "kmsg.%s", pl_kmsg_event_names[e]);
		json_t *o = json_object();
		json_object_set_new(o, "count", json_integer((json_int_t)st.ev[e].count));
		json_object_set_new(o, "last_s",
				    st.ev[e].last_s >= 0 ? json_real(st.ev[e].last_s)
							 : json_null());
		json_object_set_new(o, "last",
				    st.ev[e].count ? pl_json_string(st.ev[e].last) : json_null());
		pl_fact_set(f, key, o, src);
	}
}
