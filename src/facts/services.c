/* SPDX-License-Identifier: GPL-3.0-or-later */
/* services.*: daemons that change performance behind the engineer's back (irqbalance
 * moves interrupts, numad moves memory, tuned and power-profiles-daemon set governors),
 * found by their /proc/PID/comm (at most 15 characters, proc(5)); and the active tuned
 * profile (/etc/tuned/active_profile). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/record.h"
#include "util/str.h"
#include "util/sysroot.h"

static const struct {
	const char *name; /* the service, the key component */
	const char *comm; /* its comm, as the kernel truncates it */
} daemons[] = {
	{ "irqbalance", "irqbalance" },
	{ "numad", "numad" },
	{ "tuned", "tuned" },
	{ "thermald", "thermald" },
	{ "power-profiles-daemon", "power-profiles-" },
	{ "cpupower", "cpupower" },
};
#define NDAEMONS (sizeof(daemons) / sizeof(daemons[0]))

bool pl_proc_comm_watched(const char *comm)
{
	for (size_t i = 0; i < NDAEMONS; i++)
		if (strcmp(comm, daemons[i].comm) == 0)
			return true;
	return pl_noise_comm_watched(comm);
}

char **pl_proc_comms(int *err)
{
	char **pids;
	int r = pl_list_dir("/proc", &pids, NULL);
	if (r < 0) {
		*err = r;
		return NULL;
	}
	size_t n = 0;
	char **comms = pl_xcalloc(1, sizeof(*comms));
	for (char **p = pids; *p; p++) {
		uint64_t pid;
		if (pl_parse_u64(*p, &pid) < 0)
			continue;
		char *comm;
		/* A snapshot (util/record.h) keeps the comm of PID 1 and of the processes the
		 * facts look for, not every process's: read unrecorded, then again recorded. */
		bool was = pl_record_pause(true);
		int rr = pl_read_strf(&comm, "/proc/%s/comm", *p);
		pl_record_pause(was);
		if (rr < 0)
			continue; /* exited meanwhile */
		if (pl_record_on() && (strcmp(*p, "1") == 0 || pl_proc_comm_watched(comm))) {
			char *again;
			if (pl_read_strf(&again, "/proc/%s/comm", *p) == 0)
				free(again);
		}
		comms = pl_xrealloc(comms, (n + 2) * sizeof(*comms));
		comms[n++] = comm;
		comms[n] = NULL;
	}
	pl_strv_free(pids);
	*err = 0;
	return comms;
}

void pl_collect_services(struct pl_facts *f)
{
	int r;
	pl_autostrv char **comms = pl_proc_comms(&r);
	bool running[NDAEMONS] = { false };
	size_t seen = 0;
	for (char **c = comms; c && *c; c++) {
		seen++;
		for (size_t i = 0; i < NDAEMONS; i++)
			running[i] |= strcmp(*c, daemons[i].comm) == 0;
	}
	for (size_t i = 0; i < NDAEMONS; i++) {
		char key[96];
		snprintf(key, sizeof(key), "services.%s.running", daemons[i].name);
		if (seen)
			pl_fact_bool(f, key, running[i], "/proc/*/comm");
		else
			pl_fact_unavailable(f, key, "/proc/*/comm: %s",
					    r < 0 ? pl_read_strerror(r) : "no process readable");
	}
	static const char prof[] = "/etc/tuned/active_profile";
	char *s;
	r = pl_read_str(prof, &s);
	if (r == 0) {
		pl_fact_str(f, "services.tuned.profile", s, prof);
		free(s);
	} else {
		pl_fact_unavailable(f, "services.tuned.profile", "%s: %s%s", prof,
				    pl_read_strerror(r),
				    r == -ENODATA ? " (no profile active)" : "");
	}
}
