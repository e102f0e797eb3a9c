/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise.*: what wakes up during a benchmark or changes the machine between two runs:
 * ASLR (/proc/sys/kernel/randomize_va_space: layouts differ run to run), unattended
 * package upgrades and whether they reboot the machine (/etc/apt/apt.conf.d/, apt.conf(5),
 * the unattended-upgrades README; the GPU-instance field report configured automatic
 * reboots), whether systemd runs (sd_booted(3): /run/systemd/system is a directory), enabled
 * systemd timers (/etc/systemd/system/timers.target.wants/; they fire only while systemd
 * runs), cloud agents, snapd and cron (by /proc/PID/comm). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

#define APT_DIR "/etc/apt/apt.conf.d"
#define TIMERS_DIR "/etc/systemd/system/timers.target.wants"
#define SYSTEMD_RUN "/run/systemd/system"

/* Cloud guest agents that poll their metadata service and run commands (comm, at most 15
 * characters, as the kernel truncates it). */
static const char *const agents[] = {
	"amazon-ssm-agen", /* AWS Systems Manager */
	"google_guest_ag", /* GCE guest agent */
	"google_osconfig", /* GCE OS Config */
	"waagent",	   /* Azure Linux agent */
	"WALinuxAgent",
	"oracle-cloud-ag", /* OCI */
	"qemu-ga",	   /* QEMU guest agent */
	NULL,
};

bool pl_noise_comm_watched(const char *comm)
{
	for (const char *const *a = agents; *a; a++)
		if (strcmp(comm, *a) == 0)
			return true;
	return strcmp(comm, "snapd") == 0 || strcmp(comm, "cron") == 0 ||
	       strcmp(comm, "crond") == 0;
}

const char *pl_apt_conf_get(const char *text, const char *name)
{
	static char val[64];
	const char *res = NULL;
	size_t nl = strlen(name);
	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		/* NAME "VALUE"; (case-insensitive names, apt.conf(5)); "//" comments */
		if (len > nl && strncasecmp(p, name, nl) == 0 &&
		    (p[nl] == ' ' || p[nl] == '\t' || p[nl] == '"')) {
			const char *q = memchr(p + nl, '"', len - nl);
			const char *e = q ? memchr(q + 1, '"', len - (size_t)(q + 1 - p)) : NULL;
			if (q && e && (size_t)(e - q - 1) < sizeof(val)) {
				memcpy(val, q + 1, (size_t)(e - q - 1));
				val[e - q - 1] = '\0';
				res = val; /* a later line wins */
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return res;
}

static bool truthy(const char *v)
{
	return v && (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
		     strcasecmp(v, "on") == 0 || (v[0] >= '1' && v[0] <= '9'));
}

static void collect_apt(struct pl_facts *f)
{
	char **files;
	int r = pl_list_dir(APT_DIR, &files, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "noise.unattended_upgrade.enabled", APT_DIR ": %s%s",
				    pl_read_strerror(r),
				    r == -ENOENT ? " (not Debian/Ubuntu)" : "");
		pl_fact_unavailable(f, "noise.unattended_upgrade.automatic_reboot", APT_DIR ": %s",
				    pl_read_strerror(r));
		return;
	}
	/* files are read in order, a later setting wins (apt.conf(5)) */
	pl_autofree char *en = NULL, *reboot = NULL;
	for (char **n = files; *n; n++) {
		char *text;
		if (pl_read_filef(&text, NULL, APT_DIR "/%s", *n) < 0)
			continue;
		const char *v = pl_apt_conf_get(text, "APT::Periodic::Unattended-Upgrade");
		if (v) {
			free(en);
			en = pl_xstrdup(v);
		}
		v = pl_apt_conf_get(text, "Unattended-Upgrade::Automatic-Reboot");
		if (v) {
			free(reboot);
			reboot = pl_xstrdup(v);
		}
		free(text);
	}
	pl_strv_free(files);
	pl_fact_bool(f, "noise.unattended_upgrade.enabled", truthy(en), APT_DIR);
	pl_fact_bool(f, "noise.unattended_upgrade.automatic_reboot", truthy(en) && truthy(reboot),
		     APT_DIR);
}

/* noise.systemd.running as sd_booted(3) decides it: /run/systemd/system is a directory
 * (systemd creates it early at boot; a unit file or a stale /etc tree does not). Absent,
 * it says "not running" only when PID 1 is known (/proc/1/comm; *pid1 gets it, malloc'd,
 * or NULL): a tree without processes (an empty sysroot) tells nothing. Returns 1 running,
 * 0 not running (*why gets the static reason), or -errno when unknown. */
static int collect_systemd(struct pl_facts *f, const char **why, char **pid1)
{
	char **ents;
	*pid1 = NULL;
	int r = pl_list_dir(SYSTEMD_RUN, &ents, NULL);
	if (r == 0) {
		pl_strv_free(ents);
		pl_fact_bool(f, "noise.systemd.running", true, SYSTEMD_RUN);
		return 1;
	}
	int p = pl_read_str("/proc/1/comm", pid1);
	if ((r == -ENOENT || r == -ENOTDIR) && p == 0) {
		*why = r == -ENOENT ? "not present" : "not a directory";
		pl_fact_bool(f, "noise.systemd.running", false, SYSTEMD_RUN);
		return 0;
	}
	pl_fact_unavailable(f, "noise.systemd.running", SYSTEMD_RUN ": %s%s", pl_read_strerror(r),
			    p < 0 ? ", and PID 1 unknown" : "");
	return r < 0 ? r : p;
}

/* noise.timers: the enabled timers, only while systemd runs (@systemd from
 * collect_systemd(), @why its reason, @pid1 PID 1's name): without it no timer can fire,
 * and the fact is unavailable with that reason, so the rule does not fire. */
static void collect_timers(struct pl_facts *f, int systemd, const char *why, const char *pid1)
{
	char **names;
	int r = pl_list_dir(TIMERS_DIR, &names, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "noise.timers", TIMERS_DIR ": %s%s", pl_read_strerror(r),
				    r == -ENOENT ? " (no timer enabled, or not systemd)" : "");
		return;
	}
	json_t *list = json_array();
	for (char **n = names; *n; n++) {
		size_t l = strlen(*n);
		char path[512], *target;
		snprintf(path, sizeof(path), TIMERS_DIR "/%s", *n);
		/* an enabled unit is a symlink to its unit file (systemctl enable) */
		if (l > 6 && strcmp(*n + l - 6, ".timer") == 0 && pl_readlink(path, &target) == 0) {
			json_array_append_new(list, pl_json_string(*n));
			free(target);
		}
	}
	pl_strv_free(names);
	if (systemd == 0) {
		size_t n = json_array_size(list);
		json_decref(list);
		pl_fact_unavailable(f, "noise.timers",
				    SYSTEMD_RUN ": %s (systemd is not running, PID 1 is '%s': the "
						"%zu timer%s enabled in " TIMERS_DIR
						" cannot fire)",
				    why, pid1, n, n == 1 ? "" : "s");
		return;
	}
	pl_fact_set(f, "noise.timers", list, TIMERS_DIR);
}

void pl_collect_noise(struct pl_facts *f)
{
	pl_fact_from_file_int(f, "noise.aslr", "/proc/sys/kernel/randomize_va_space");
	collect_apt(f);
	const char *sd_why = NULL;
	pl_autofree char *pid1 = NULL;
	int systemd = collect_systemd(f, &sd_why, &pid1);
	collect_timers(f, systemd, sd_why, pid1);
	int r;
	pl_autostrv char **comms = pl_proc_comms(&r);
	if (!comms || !comms[0]) {
		const char *why = r < 0 ? pl_read_strerror(r) : "no process readable";
		pl_fact_unavailable(f, "noise.agents", "/proc/*/comm: %s", why);
		pl_fact_unavailable(f, "noise.snapd.running", "/proc/*/comm: %s", why);
		pl_fact_unavailable(f, "noise.cron.running", "/proc/*/comm: %s", why);
		return;
	}
	json_t *found = json_array();
	bool snapd = false, cron = false;
	for (char **c = comms; *c; c++) {
		snapd |= strcmp(*c, "snapd") == 0;
		cron |= strcmp(*c, "cron") == 0 || strcmp(*c, "crond") == 0;
		for (const char *const *a = agents; *a; a++) {
			bool dup = false;
			size_t i;
			json_t *e;
			json_array_foreach(found, i, e) dup |=
				strcmp(json_string_value(e), *a) == 0;
			if (strcmp(*c, *a) == 0 && !dup)
				json_array_append_new(found, pl_json_string(*a));
		}
	}
	pl_fact_set(f, "noise.agents", found, "/proc/*/comm");
	pl_fact_bool(f, "noise.snapd.running", snapd, "/proc/*/comm");
	pl_fact_bool(f, "noise.cron.running", cron, "/proc/*/comm");
}
