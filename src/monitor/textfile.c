/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One monitor interval as a Prometheus textfile (textfile.h). */
#include "monitor/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/str.h"

/* "name{labels} value" when @v is finite. */
static void prom(FILE *f, const char *name, const char *labels, double v)
{
	if (isfinite(v))
		fprintf(f, "perflab_monitor_%s%s%s%s %.9g\n", name, labels ? "{" : "",
			labels ? labels : "", labels ? "}" : "", v);
}

static void prom_cpu(FILE *f, const struct pl_mon_cpupct *p)
{
	static const char *const mode[] = { "user",    "nice",	"system", "iowait", "irq",
					    "softirq", "steal", "guest",  "idle" };
	const double v[] = { p->user,	 p->nice,  p->system, p->iowait, p->irq,
			     p->softirq, p->steal, p->guest,  p->idle };
	char cpu[16], l[64];
	if (p->cpu < 0)
		snprintf(cpu, sizeof(cpu), "all");
	else
		snprintf(cpu, sizeof(cpu), "%d", p->cpu);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(l, sizeof(l), "cpu=\"%s\",mode=\"%s\"", cpu, mode[i]);
		prom(f, "cpu_percent", l, v[i]);
	}
}

static void prom_text(FILE *f, const struct pl_mon_rates *r)
{
	fputs("# HELP perflab_monitor_cpu_percent CPU time share over the last interval (%).\n"
	      "# TYPE perflab_monitor_cpu_percent gauge\n",
	      f);
	prom_cpu(f, &r->all);
	for (size_t i = 0; i < r->ncpu; i++)
		prom_cpu(f, &r->cpu[i]);
	fputs("# TYPE perflab_monitor_load_average gauge\n", f);
	prom(f, "load_average", "period=\"1m\"", r->load[0]);
	prom(f, "load_average", "period=\"5m\"", r->load[1]);
	prom(f, "load_average", "period=\"15m\"", r->load[2]);
	const struct {
		const char *name;
		double v;
	} g[] = {
		{ "interval_seconds", r->dt_s },
		{ "context_switches_per_second", r->ctxt_per_s },
		{ "forks_per_second", r->forks_per_s },
		{ "interrupts_per_second", r->irq_per_s },
		{ "softirqs_per_second", r->softirq_per_s },
		{ "memory_available_bytes", r->mem_available },
		{ "memory_dirty_bytes", r->mem_dirty },
		{ "page_faults_minor_per_second", r->minflt_per_s },
		{ "page_faults_major_per_second", r->majflt_per_s },
		{ "numa_remote_ratio", r->numa_remote_ratio },
		{ "tcp_retransmits_per_second", r->tcp_retrans_per_s },
		{ "tcp_listen_overflows_per_second", r->listen_overflows_per_s },
	};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		fprintf(f, "# TYPE perflab_monitor_%s gauge\n", g[i].name);
		prom(f, g[i].name, NULL, g[i].v);
	}
	static const char *const psi[PL_MON_PSI_N] = { "cpu", "memory", "io" };
	fputs("# TYPE perflab_monitor_pressure_some_percent gauge\n", f);
	for (int i = 0; i < PL_MON_PSI_N; i++) {
		char l[32];
		snprintf(l, sizeof(l), "resource=\"%s\"", psi[i]);
		prom(f, "pressure_some_percent", l, r->psi_some_pct[i]);
	}
	fputs("# TYPE perflab_monitor_disk_bytes_per_second gauge\n"
	      "# TYPE perflab_monitor_disk_util_percent gauge\n",
	      f);
	for (size_t i = 0; i < r->ndisk; i++) {
		char l[96];
		snprintf(l, sizeof(l), "device=\"%s\",op=\"read\"", r->disk[i].name);
		prom(f, "disk_bytes_per_second", l, r->disk[i].read_Bps);
		snprintf(l, sizeof(l), "device=\"%s\",op=\"write\"", r->disk[i].name);
		prom(f, "disk_bytes_per_second", l, r->disk[i].write_Bps);
		snprintf(l, sizeof(l), "device=\"%s\"", r->disk[i].name);
		prom(f, "disk_util_percent", l, r->disk[i].util_pct);
	}
	fputs("# TYPE perflab_monitor_net_bytes_per_second gauge\n", f);
	for (size_t i = 0; i < r->nnet; i++) {
		char l[96];
		snprintf(l, sizeof(l), "device=\"%s\",direction=\"rx\"", r->net[i].name);
		prom(f, "net_bytes_per_second", l, r->net[i].rx_Bps);
		snprintf(l, sizeof(l), "device=\"%s\",direction=\"tx\"", r->net[i].name);
		prom(f, "net_bytes_per_second", l, r->net[i].tx_Bps);
	}
	fputs("# TYPE perflab_monitor_qat_requests_per_second gauge\n"
	      "# TYPE perflab_monitor_qat_responses_per_second gauge\n",
	      f);
	for (size_t i = 0; i < r->nqat; i++) {
		char l[96];
		snprintf(l, sizeof(l), "device=\"%s\"", r->qat[i].name);
		prom(f, "qat_requests_per_second", l, r->qat[i].requests_per_s);
		prom(f, "qat_responses_per_second", l, r->qat[i].responses_per_s);
	}
	fputs("# TYPE perflab_monitor_qat_telemetry gauge\n", f);
	for (size_t i = 0; i < r->nqat; i++) {
		const struct pl_mon_qat_tl *t = &r->qat[i].tl;
		for (size_t k = 0; r->qat[i].has_tl && k < t->n; k++) {
			char l[160];
			snprintf(l, sizeof(l), "device=\"%s\",counter=\"%s\"", r->qat[i].name,
				 t->name[k]);
			prom(f, "qat_telemetry", l, (double)t->value[k]);
		}
	}
	fputs("# TYPE perflab_monitor_gpu_util_percent gauge\n"
	      "# TYPE perflab_monitor_gpu_memory_used_bytes gauge\n"
	      "# TYPE perflab_monitor_gpu_memory_total_bytes gauge\n",
	      f);
	for (size_t i = 0; i < r->ngpu; i++) {
		char l[160], nm[96];
		/* label values escape backslash, quote and newline (exposition format) */
		size_t k = 0;
		for (const char *c = r->gpu[i].name; *c && k + 2 < sizeof(nm); c++) {
			if (*c == '\\' || *c == '"')
				nm[k++] = '\\';
			nm[k++] = *c == '\n' ? ' ' : *c;
		}
		nm[k] = '\0';
		snprintf(l, sizeof(l), "gpu=\"%zu\",name=\"%s\"", i, nm);
		prom(f, "gpu_util_percent", l, r->gpu[i].util_pct);
		prom(f, "gpu_memory_used_bytes", l, r->gpu[i].mem_used_bytes);
		prom(f, "gpu_memory_total_bytes", l, r->gpu[i].mem_total_bytes);
	}
}

int pl_mon_prom_write(const char *path, const struct pl_mon_rates *r)
{
	pl_autofree char *tmp = pl_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		return -e;
	}
	prom_text(f, r);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		int e = errno ? errno : EIO;
		unlink(tmp);
		return -e;
	}
	if (rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		return -e;
	}
	return 0;
}
