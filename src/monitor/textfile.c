/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One monitor interval as a Prometheus textfile (textfile.h). */
#include "monitor/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/beneath.h"
#include "util/escape.h"
#include "util/str.h"

#define PREFIX "perflab_monitor_"

/* PREFIX @name is a metric name of the safe charset (the names are constants; a name
 * that is not is left out rather than written as a line the collector rejects). */
static bool name_ok(const char *name)
{
	char full[128];
	int n = snprintf(full, sizeof(full), PREFIX "%s", name);
	return n > 0 && (size_t)n < sizeof(full) && pl_prom_name_ok(full);
}

/* The # HELP and # TYPE lines of a gauge family (@help: no backslash or newline). */
static void family(FILE *f, const char *name, const char *help)
{
	if (name_ok(name))
		fprintf(f, "# HELP " PREFIX "%s %s\n# TYPE " PREFIX "%s gauge\n", name, help, name);
}

/* "name{k1="v1",k2="v2"} value" when @v is finite; a NULL key ends the labels. The
 * values are escaped whole (backslash, quote, newline, invalid UTF-8). */
static void sample(FILE *f, const char *name, double v, const char *k1, const char *v1,
		   const char *k2, const char *v2)
{
	if (!isfinite(v) || !name_ok(name))
		return;
	fprintf(f, PREFIX "%s", name);
	if (k1) {
		fprintf(f, "{%s=", k1);
		pl_prom_label_value(f, v1);
		if (k2) {
			fprintf(f, ",%s=", k2);
			pl_prom_label_value(f, v2);
		}
		fputc('}', f);
	}
	fprintf(f, " %.9g\n", v);
}

static void prom_cpu(FILE *f, const struct pl_mon_cpupct *p)
{
	static const char *const mode[] = { "user",    "nice",	"system", "iowait", "irq",
					    "softirq", "steal", "guest",  "idle" };
	const double v[] = { p->user,	 p->nice,  p->system, p->iowait, p->irq,
			     p->softirq, p->steal, p->guest,  p->idle };
	char cpu[16];
	if (p->cpu < 0)
		snprintf(cpu, sizeof(cpu), "all");
	else
		snprintf(cpu, sizeof(cpu), "%d", p->cpu);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		sample(f, "cpu_percent", v[i], "cpu", cpu, "mode", mode[i]);
}

static void prom_devices(FILE *f, const struct pl_mon_rates *r)
{
	family(f, "disk_bytes_per_second", "Disk bytes read or written per second.");
	for (size_t i = 0; i < r->ndisk; i++) {
		sample(f, "disk_bytes_per_second", r->disk[i].read_Bps, "device", r->disk[i].name,
		       "op", "read");
		sample(f, "disk_bytes_per_second", r->disk[i].write_Bps, "device", r->disk[i].name,
		       "op", "write");
	}
	family(f, "disk_util_percent", "Share of the interval a disk had I/O in flight (%).");
	for (size_t i = 0; i < r->ndisk; i++)
		sample(f, "disk_util_percent", r->disk[i].util_pct, "device", r->disk[i].name, NULL,
		       NULL);
	family(f, "net_bytes_per_second", "Network interface bytes received or sent per second.");
	for (size_t i = 0; i < r->nnet; i++) {
		sample(f, "net_bytes_per_second", r->net[i].rx_Bps, "device", r->net[i].name,
		       "direction", "rx");
		sample(f, "net_bytes_per_second", r->net[i].tx_Bps, "device", r->net[i].name,
		       "direction", "tx");
	}
	family(f, "qat_requests_per_second", "QAT firmware requests per second.");
	for (size_t i = 0; i < r->nqat; i++)
		sample(f, "qat_requests_per_second", r->qat[i].requests_per_s, "device",
		       r->qat[i].name, NULL, NULL);
	family(f, "qat_responses_per_second", "QAT firmware responses per second.");
	for (size_t i = 0; i < r->nqat; i++)
		sample(f, "qat_responses_per_second", r->qat[i].responses_per_s, "device",
		       r->qat[i].name, NULL, NULL);
	family(f, "qat_telemetry", "QAT telemetry counter at the end of the interval.");
	for (size_t i = 0; i < r->nqat; i++) {
		const struct pl_mon_qat_tl *t = &r->qat[i].tl;
		for (size_t k = 0; r->qat[i].has_tl && k < t->n; k++)
			sample(f, "qat_telemetry", (double)t->value[k], "device", r->qat[i].name,
			       "counter", t->name[k]);
	}
	static const struct {
		const char *name, *help;
		size_t off;
	} gpu[] = {
		{ "gpu_util_percent", "Share of the last sample period a GPU kernel ran (%).",
		  offsetof(struct pl_mon_gpu, util_pct) },
		{ "gpu_memory_used_bytes", "GPU memory used.",
		  offsetof(struct pl_mon_gpu, mem_used_bytes) },
		{ "gpu_memory_total_bytes", "GPU memory in total.",
		  offsetof(struct pl_mon_gpu, mem_total_bytes) },
	};
	for (size_t k = 0; k < sizeof(gpu) / sizeof(gpu[0]); k++) {
		family(f, gpu[k].name, gpu[k].help);
		for (size_t i = 0; i < r->ngpu; i++) {
			char idx[24];
			snprintf(idx, sizeof(idx), "%zu", i);
			double v;
			memcpy(&v, (const char *)&r->gpu[i] + gpu[k].off, sizeof(v));
			sample(f, gpu[k].name, v, "gpu", idx, "name", r->gpu[i].name);
		}
	}
}

static void prom_text(FILE *f, const struct pl_mon_rates *r)
{
	family(f, "cpu_percent", "CPU time share over the last interval (%).");
	prom_cpu(f, &r->all);
	for (size_t i = 0; i < r->ncpu; i++)
		prom_cpu(f, &r->cpu[i]);
	family(f, "load_average", "Load average at the end of the interval.");
	sample(f, "load_average", r->load[0], "period", "1m", NULL, NULL);
	sample(f, "load_average", r->load[1], "period", "5m", NULL, NULL);
	sample(f, "load_average", r->load[2], "period", "15m", NULL, NULL);
	const struct {
		const char *name, *help;
		double v;
	} g[] = {
		{ "interval_seconds", "Length of the interval.", r->dt_s },
		{ "context_switches_per_second", "Context switches per second.", r->ctxt_per_s },
		{ "forks_per_second", "Forks per second.", r->forks_per_s },
		{ "interrupts_per_second", "Interrupts per second, all CPUs.", r->irq_per_s },
		{ "softirqs_per_second", "Softirqs per second, all CPUs.", r->softirq_per_s },
		{ "memory_available_bytes", "MemAvailable at the end of the interval.",
		  r->mem_available },
		{ "memory_dirty_bytes", "Dirty memory at the end of the interval.", r->mem_dirty },
		{ "page_faults_minor_per_second", "Minor page faults per second.",
		  r->minflt_per_s },
		{ "page_faults_major_per_second", "Major page faults per second.",
		  r->majflt_per_s },
		{ "numa_remote_ratio", "Share of page allocations on a remote NUMA node (0..1).",
		  r->numa_remote_ratio },
		{ "tcp_retransmits_per_second", "TCP segments retransmitted per second.",
		  r->tcp_retrans_per_s },
		{ "tcp_listen_overflows_per_second", "TCP listen queue overflows per second.",
		  r->listen_overflows_per_s },
	};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		family(f, g[i].name, g[i].help);
		sample(f, g[i].name, g[i].v, NULL, NULL, NULL, NULL);
	}
	static const char *const psi[PL_MON_PSI_N] = { "cpu", "memory", "io" };
	family(f, "pressure_some_percent", "Share of the interval some tasks stalled (%).");
	for (int i = 0; i < PL_MON_PSI_N; i++)
		sample(f, "pressure_some_percent", r->psi_some_pct[i], "resource", psi[i], NULL,
		       NULL);
	prom_devices(f, r);
}

char *pl_mon_prom_text(const struct pl_mon_rates *r, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	prom_text(f, r);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int pl_mon_prom_open(struct pl_mon_prom *p, const char *path)
{
	p->dirfd = -1;
	p->name = NULL;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EISDIR;
	char *dir = slash ? pl_xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path)
			  : pl_xstrdup(".");
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : access(dir, W_OK) < 0 ? -errno : 0;
	free(dir);
	/* a directory at the name would make every rename over it fail */
	struct stat st;
	if (rc == 0 && fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
		rc = -EISDIR;
	if (rc < 0) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	p->dirfd = fd;
	p->name = pl_xstrdup(base);
	return 0;
}

void pl_mon_prom_close(struct pl_mon_prom *p)
{
	if (p->dirfd >= 0 && p->name)
		close(p->dirfd);
	p->dirfd = -1;
	free(p->name);
	p->name = NULL;
}

int pl_mon_prom_write(const struct pl_mon_prom *p, const struct pl_mon_rates *r)
{
	size_t len;
	char *text = pl_mon_prom_text(r, &len);
	if (!text)
		return -ENOMEM;
	int rc = pl_beneath_write_atomic(p->dirfd, p->name, text, len, 0644);
	free(text);
	return rc;
}
