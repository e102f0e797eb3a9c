/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the ranks of a perflab-mpi job run (run.h): every rank's host (hostname and boot
 * id, through the sysroot), the CPUs it may run on and its host's online CPUs, known to
 * every rank; a node's placement for the cluster document (report/cluster.h reads it for
 * the caveats of shared hosts, oversubscription and shared CPUs); and the CPUs a pair
 * of ranks on one host is pinned to for its ping-pong. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/run.h"
#include "util/cpuset.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

struct pl_mpi_place *pl_mpi_places;
int *pl_mpi_node_of;

/* This rank's CPUs (sched_getaffinity) as a cpulist, malloc'd; "" when unknown. */
static char *allowed_cpus(void)
{
	cpu_set_t cs;
	if (sched_getaffinity(0, sizeof(cs), &cs) < 0)
		return pl_xstrdup("");
	struct pl_cpuset s;
	pl_cpuset_clear(&s);
	for (int c = 0; c < CPU_SETSIZE && c < PL_MAX_CPUS; c++)
		if (CPU_ISSET(c, &cs))
			pl_cpuset_set(&s, (unsigned)c);
	char buf[4096];
	return pl_xstrdup(pl_cpuset_format(&s, buf, sizeof(buf)));
}

/* The string at @p up to its NUL or @end, malloc'd. */
static char *field(const char *p, const char *end)
{
	size_t n = p < end ? strnlen(p, (size_t)(end - p)) : 0;
	char *s = pl_xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

void pl_mpi_gather_places(void)
{
	char *host = NULL, *boot = NULL;
	pl_read_str("/proc/sys/kernel/hostname", &host);
	pl_read_str("/proc/sys/kernel/random/boot_id", &boot);
	char *h = pl_str_escape(host ? pl_trim(host) : "?", PL_ESC_UTF8);
	char *cpus = allowed_cpus();
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct pl_buf b = { 0 };
	pl_buf_append(&b, h, strlen(h) + 1);
	const char *bt = boot ? pl_trim(boot) : "";
	pl_buf_append(&b, bt, strlen(bt) + 1);
	pl_buf_append(&b, cpus, strlen(cpus) + 1);
	pl_buf_printf(&b, "%ld", online > 0 ? online : 0);
	pl_buf_append(&b, "", 1);
	free(host);
	free(boot);
	free(h);
	free(cpus);

	size_t nr = (size_t)pl_mpi_nranks;
	int *lens, *displs;
	char *all = pl_mpi_allgather_bytes(b.data, (int)b.len, &lens, &displs);
	pl_buf_free(&b);
	pl_mpi_places = pl_xcalloc(nr, sizeof(*pl_mpi_places));
	for (size_t r = 0; r < nr; r++) {
		const char *p = all + displs[r], *end = p + lens[r];
		const char *f[4] = { end, end, end, end };
		for (int k = 0; k < 4 && p < end; k++) {
			f[k] = p;
			p += strnlen(p, (size_t)(end - p)) + 1;
		}
		struct pl_mpi_place *pl = &pl_mpi_places[r];
		pl->host = field(f[0], end);
		pl->boot = field(f[1], end);
		pl->cpus = field(f[2], end);
		char *on = field(f[3], end), *e;
		long v = strtol(on, &e, 10);
		pl->online = e != on && !*e && v > 0 && v < PL_MAX_CPUS ? (int)v : 0;
		free(on);
		pl->host_of = (int)r;
		for (size_t q = 0; q < r; q++)
			if (strcmp(pl_mpi_places[q].host, pl->host) == 0 &&
			    strcmp(pl_mpi_places[q].boot, pl->boot) == 0) {
				pl->host_of = (int)q;
				break;
			}
	}
	free(all);
	free(lens);
	free(displs);
}

void pl_mpi_free_places(void)
{
	for (int r = 0; pl_mpi_places && r < pl_mpi_nranks; r++) {
		free(pl_mpi_places[r].host);
		free(pl_mpi_places[r].boot);
		free(pl_mpi_places[r].cpus);
	}
	free(pl_mpi_places);
	pl_mpi_places = NULL;
	free(pl_mpi_node_of);
	pl_mpi_node_of = NULL;
}

bool pl_mpi_same_host(int a, int b)
{
	return pl_mpi_places && pl_mpi_places[a].host_of == pl_mpi_places[b].host_of;
}

json_t *pl_mpi_place_json(int node)
{
	json_t *pl = json_object(), *ranks = json_array(), *cpus = json_array();
	int first = -1, host_ranks = 0;
	for (int r = 0; r < pl_mpi_nranks; r++)
		if (pl_mpi_node_of && pl_mpi_node_of[r] == node) {
			if (first < 0)
				first = r;
			json_array_append_new(ranks, json_integer(r));
			json_array_append_new(cpus, pl_json_string(pl_mpi_places[r].cpus));
		}
	for (int r = 0; first >= 0 && r < pl_mpi_nranks; r++)
		host_ranks += pl_mpi_same_host(r, first);
	const struct pl_mpi_place *p = &pl_mpi_places[first < 0 ? 0 : first];
	json_object_set_new(pl, "hostname", pl_json_string(p->host));
	json_object_set_new(pl, "boot_id", pl_json_string(p->boot));
	json_object_set_new(pl, "ranks", ranks);
	json_object_set_new(pl, "cpus_allowed", cpus);
	json_object_set_new(pl, "host_ranks", json_integer(host_ranks));
	json_object_set_new(pl, "host_cpus", json_integer(p->online));
	return pl;
}

/* The lowest CPU of cpulist @list other than @not (-1: any), or -1. */
static int first_cpu(const char *list, int not )
{
	struct pl_cpuset s;
	if (pl_cpuset_parse(list, &s) < 0)
		return -1;
	for (int c = pl_cpuset_next(&s, 0); c >= 0; c = pl_cpuset_next(&s, (unsigned)c + 1))
		if (c != not )
			return c;
	return -1;
}

bool pl_mpi_pair_cpus(int lead, int peer, int *lead_cpu, int *peer_cpu)
{
	*lead_cpu = *peer_cpu = -1;
	if (!pl_mpi_same_host(lead, peer))
		return false;
	int a = first_cpu(pl_mpi_places[lead].cpus, -1);
	int b = a < 0 ? -1 : first_cpu(pl_mpi_places[peer].cpus, a);
	if (a < 0 || b < 0)
		return false;
	*lead_cpu = a;
	*peer_cpu = b;
	return true;
}

int pl_mpi_pin(int cpu, cpu_set_t *saved)
{
	if (sched_getaffinity(0, sizeof(*saved), saved) < 0)
		return -1;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}
