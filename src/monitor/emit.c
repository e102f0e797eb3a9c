/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of one monitor interval (emit.h). */
#include "monitor/emit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/json.h"
#include "util/cleanup.h"
#include "util/str.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cpu_json(const struct pl_mon_cpupct *p)
{
	json_t *o = json_object();
	if (p->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(p->cpu));
	static const char *const k[] = { "user",    "nice",  "system", "iowait", "irq",
					 "softirq", "steal", "guest",  "idle",	 "busy" };
	const double v[] = { p->user,	 p->nice,  p->system, p->iowait, p->irq,
			     p->softirq, p->steal, p->guest,  p->idle,	 p->busy };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		json_object_set_new(o, k[i], num(v[i]));
	if (p->cpu >= 0) {
		json_object_set_new(o, "irq_per_s", num(p->irq_per_s));
		json_object_set_new(o, "softirq_per_s", num(p->softirq_per_s));
	}
	return o;
}

static json_t *sources_json(const struct pl_mon_source *s, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:o,s:o}", "name", pl_json_string(s[i].name),
						   "per_s", num(s[i].per_s)));
	return a;
}

json_t *pl_mon_sample_json(const struct pl_mon_rates *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "t_s", num(r->t_s));
	json_object_set_new(o, "dt_s", num(r->dt_s));
	json_t *flags = json_array();
	if (r->flags & PL_MON_F_CPUS_CHANGED)
		json_array_append_new(flags, pl_json_string("cpus_changed"));
	if (r->flags & PL_MON_F_RESET)
		json_array_append_new(flags, pl_json_string("counter_reset"));
	json_object_set_new(o, "flags", flags);
	json_t *reset = json_array();
	for (int g = 0; g < PL_MON_G_N; g++)
		if (r->reset_groups & (1u << g))
			json_array_append_new(reset, pl_json_string(pl_mon_group_names[g]));
	json_object_set_new(o, "reset", reset);
	json_t *per = json_array();
	for (size_t i = 0; i < r->ncpu; i++)
		json_array_append_new(per, cpu_json(&r->cpu[i]));
	json_object_set_new(o, "cpu",
			    json_pack("{s:o,s:o}", "all", cpu_json(&r->all), "per_cpu", per));
	json_object_set_new(o, "load",
			    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "avg1", num(r->load[0]), "avg5",
				      num(r->load[1]), "avg15", num(r->load[2]), "running",
				      num(r->running), "tasks", num(r->tasks), "blocked",
				      num(r->blocked)));
	json_object_set_new(o, "ctxt_per_s", num(r->ctxt_per_s));
	json_object_set_new(o, "forks_per_s", num(r->forks_per_s));
	json_object_set_new(o, "interrupts",
			    json_pack("{s:o,s:o}", "per_s", num(r->irq_per_s), "top",
				      sources_json(r->irq_top, r->nirq_top)));
	json_object_set_new(o, "softirqs",
			    json_pack("{s:o,s:o}", "per_s", num(r->softirq_per_s), "by_kind",
				      sources_json(r->softirq, r->nsoftirq)));
	json_t *m = json_object();
	static const char *const mk[] = { "total_bytes",	"free_bytes",	 "available_bytes",
					  "cached_bytes",	"dirty_bytes",	 "writeback_bytes",
					  "swap_used_bytes",	"minflt_per_s",	 "majflt_per_s",
					  "swapin_per_s",	"swapout_per_s", "thp_alloc_per_s",
					  "compact_stall_per_s" };
	const double mv[] = { r->mem_total,	     r->mem_free,      r->mem_available,
			      r->mem_cached,	     r->mem_dirty,     r->mem_writeback,
			      r->swap_used,	     r->minflt_per_s,  r->majflt_per_s,
			      r->swapin_per_s,	     r->swapout_per_s, r->thp_alloc_per_s,
			      r->compact_stall_per_s };
	for (size_t i = 0; i < sizeof(mv) / sizeof(mv[0]); i++)
		json_object_set_new(m, mk[i], num(mv[i]));
	json_object_set_new(o, "memory", m);
	json_object_set_new(o, "numa",
			    json_pack("{s:o,s:o,s:o,s:o,s:o}", "hit_per_s", num(r->numa_hit_per_s),
				      "miss_per_s", num(r->numa_miss_per_s), "local_per_s",
				      num(r->numa_local_per_s), "other_per_s",
				      num(r->numa_other_per_s), "remote_ratio",
				      num(r->numa_remote_ratio)));
	static const char *const psi[PL_MON_PSI_N] = { "cpu", "memory", "io" };
	json_t *p = json_object();
	for (int i = 0; i < PL_MON_PSI_N; i++)
		json_object_set_new(p, psi[i],
				    r->psi_present[i]
					    ? json_pack("{s:o,s:o,s:o}", "some_pct",
							num(r->psi_some_pct[i]), "full_pct",
							num(r->psi_full_pct[i]), "some_avg10",
							num(r->psi_some_avg10[i]))
					    : json_null());
	json_object_set_new(o, "pressure", p);
	json_t *d = json_array();
	for (size_t i = 0; i < r->ndisk; i++) {
		const struct pl_mon_disk_rate *x = &r->disk[i];
		json_array_append_new(
			d, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
				     pl_json_string(x->name), "r_per_s", num(x->r_per_s), "w_per_s",
				     num(x->w_per_s), "read_bytes_per_s", num(x->read_Bps),
				     "write_bytes_per_s", num(x->write_Bps), "aqu_sz",
				     num(x->aqu_sz), "r_await_ms", num(x->r_await_ms), "w_await_ms",
				     num(x->w_await_ms), "util_pct", num(x->util_pct)));
	}
	json_object_set_new(o, "disks", d);
	json_t *n = json_array();
	for (size_t i = 0; i < r->nnet; i++) {
		const struct pl_mon_net_rate *x = &r->net[i];
		json_array_append_new(
			n, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
				     pl_json_string(x->name), "rx_packets_per_s", num(x->rx_pps),
				     "tx_packets_per_s", num(x->tx_pps), "rx_bytes_per_s",
				     num(x->rx_Bps), "tx_bytes_per_s", num(x->tx_Bps),
				     "rx_drops_per_s", num(x->rx_drop_per_s), "tx_drops_per_s",
				     num(x->tx_drop_per_s), "rx_errors_per_s", num(x->rx_err_per_s),
				     "tx_errors_per_s", num(x->tx_err_per_s)));
	}
	json_object_set_new(o, "net",
			    json_pack("{s:o,s:o,s:o,s:o,s:o}", "interfaces", n, "tcp_outsegs_per_s",
				      num(r->tcp_outsegs_per_s), "tcp_retrans_per_s",
				      num(r->tcp_retrans_per_s), "listen_overflows_per_s",
				      num(r->listen_overflows_per_s), "listen_drops_per_s",
				      num(r->listen_drops_per_s)));
	json_t *q = json_array();
	for (size_t i = 0; i < r->nqat; i++) {
		const struct pl_mon_qat_rate *x = &r->qat[i];
		json_array_append_new(q, json_pack("{s:o,s:o,s:o,s:o}", "device",
						   pl_json_string(x->name), "requests_per_s",
						   num(x->requests_per_s), "responses_per_s",
						   num(x->responses_per_s), "ras_events_per_s",
						   num(x->ras_events_per_s)));
	}
	json_t *g = json_array();
	for (size_t i = 0; i < r->ngpu; i++) {
		const struct pl_mon_gpu *x = &r->gpu[i];
		json_array_append_new(g, json_pack("{s:i,s:o,s:o,s:o,s:o,s:o}", "index", (int)i,
						   "name", pl_json_string(x->name), "util_pct",
						   num(x->util_pct), "mem_util_pct",
						   num(x->mem_util_pct), "mem_used_bytes",
						   num(x->mem_used_bytes), "mem_total_bytes",
						   num(x->mem_total_bytes)));
	}
	json_object_set_new(o, "accel", json_pack("{s:o,s:o}", "qat", q, "gpu", g));
	return o;
}

void pl_mon_accel_sum(const struct pl_mon_rates *r, struct pl_mon_accel_sum *s)
{
	*s = (struct pl_mon_accel_sum){ NAN, NAN, NAN, NAN, NAN };
	for (size_t i = 0; i < r->nqat; i++) {
		const struct pl_mon_qat_rate *q = &r->qat[i];
		if (isfinite(q->requests_per_s))
			s->qat_requests_per_s =
				(isnan(s->qat_requests_per_s) ? 0 : s->qat_requests_per_s) +
				q->requests_per_s;
		if (isfinite(q->responses_per_s))
			s->qat_responses_per_s =
				(isnan(s->qat_responses_per_s) ? 0 : s->qat_responses_per_s) +
				q->responses_per_s;
	}
	size_t nu = 0;
	double su = 0;
	for (size_t i = 0; i < r->ngpu; i++) {
		const struct pl_mon_gpu *g = &r->gpu[i];
		if (isfinite(g->util_pct))
			su += g->util_pct, nu++;
		if (isfinite(g->mem_used_bytes))
			s->gpu_mem_used_bytes =
				(isnan(s->gpu_mem_used_bytes) ? 0 : s->gpu_mem_used_bytes) +
				g->mem_used_bytes;
		if (isfinite(g->mem_total_bytes))
			s->gpu_mem_total_bytes =
				(isnan(s->gpu_mem_total_bytes) ? 0 : s->gpu_mem_total_bytes) +
				g->mem_total_bytes;
	}
	if (nu)
		s->gpu_util_pct = su / (double)nu;
}

void pl_mon_io_sum(const struct pl_mon_rates *r, struct pl_mon_io_sum *s)
{
	memset(s, 0, sizeof(*s));
#define ADD(dst, v)                                                                                \
	do {                                                                                       \
		if (isfinite(v))                                                                   \
			(dst) += (v);                                                              \
	} while (0)
	for (size_t i = 0; i < r->ndisk; i++) {
		ADD(s->r_per_s, r->disk[i].r_per_s);
		ADD(s->w_per_s, r->disk[i].w_per_s);
		ADD(s->read_Bps, r->disk[i].read_Bps);
		ADD(s->write_Bps, r->disk[i].write_Bps);
		if (isfinite(r->disk[i].util_pct) && r->disk[i].util_pct > s->util_max)
			s->util_max = r->disk[i].util_pct;
	}
	for (size_t i = 0; i < r->nnet; i++) {
		ADD(s->rx_Bps, r->net[i].rx_Bps);
		ADD(s->tx_Bps, r->net[i].tx_Bps);
		ADD(s->rx_pps, r->net[i].rx_pps);
		ADD(s->tx_pps, r->net[i].tx_pps);
	}
#undef ADD
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

void pl_mon_csv_header(FILE *f, const struct pl_cpuset *cpus)
{
	fputs("t_s,dt_s,flags,user_pct,nice_pct,system_pct,iowait_pct,irq_pct,softirq_pct,"
	      "steal_pct,idle_pct,busy_pct,load1,load5,load15,running,blocked,ctxt_per_s,"
	      "forks_per_s,irq_per_s,softirq_per_s,mem_available_bytes,mem_cached_bytes,"
	      "mem_dirty_bytes,minflt_per_s,majflt_per_s,swapin_per_s,swapout_per_s,"
	      "numa_remote_ratio,psi_cpu_some_pct,psi_memory_some_pct,psi_io_some_pct,"
	      "disk_r_per_s,disk_w_per_s,disk_read_bytes_per_s,disk_write_bytes_per_s,"
	      "disk_util_max_pct,net_rx_bytes_per_s,net_tx_bytes_per_s,tcp_retrans_per_s,"
	      "listen_overflows_per_s,qat_requests_per_s,qat_responses_per_s,gpu_util_pct,"
	      "gpu_mem_used_bytes",
	      f);
	for (int c = pl_cpuset_next(cpus, 0); c >= 0; c = pl_cpuset_next(cpus, (unsigned)c + 1))
		fprintf(f, ",cpu%d_busy_pct", c);
	fputc('\n', f);
}

void pl_mon_csv_row(FILE *f, const struct pl_mon_rates *r, const struct pl_cpuset *cpus)
{
	fprintf(f, "%.3f,%.3f,%s%s%s", r->t_s, r->dt_s,
		r->flags & PL_MON_F_CPUS_CHANGED ? "cpus_changed" : "",
		(r->flags & PL_MON_F_CPUS_CHANGED) && (r->flags & PL_MON_F_RESET) ? " " : "",
		r->flags & PL_MON_F_RESET ? "counter_reset" : "");
	const struct pl_mon_cpupct *a = &r->all;
	struct pl_mon_io_sum s;
	pl_mon_io_sum(r, &s);
	struct pl_mon_accel_sum x;
	pl_mon_accel_sum(r, &x);
	const double v[] = {
		a->user,
		a->nice,
		a->system,
		a->iowait,
		a->irq,
		a->softirq,
		a->steal,
		a->idle,
		a->busy,
		r->load[0],
		r->load[1],
		r->load[2],
		r->running,
		r->blocked,
		r->ctxt_per_s,
		r->forks_per_s,
		r->irq_per_s,
		r->softirq_per_s,
		r->mem_available,
		r->mem_cached,
		r->mem_dirty,
		r->minflt_per_s,
		r->majflt_per_s,
		r->swapin_per_s,
		r->swapout_per_s,
		r->numa_remote_ratio,
		r->psi_some_pct[0],
		r->psi_some_pct[1],
		r->psi_some_pct[2],
		s.r_per_s,
		s.w_per_s,
		s.read_Bps,
		s.write_Bps,
		s.util_max,
		s.rx_Bps,
		s.tx_Bps,
		r->tcp_retrans_per_s,
		r->listen_overflows_per_s,
		x.qat_requests_per_s,
		x.qat_responses_per_s,
		x.gpu_util_pct,
		x.gpu_mem_used_bytes,
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		csv_num(f, v[i]);
	for (int c = pl_cpuset_next(cpus, 0); c >= 0; c = pl_cpuset_next(cpus, (unsigned)c + 1)) {
		double b = NAN;
		for (size_t i = 0; i < r->ncpu; i++)
			if (r->cpu[i].cpu == c)
				b = r->cpu[i].busy;
		csv_num(f, b);
	}
	fputc('\n', f);
}

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

/* @v in @w characters: plain with @prec decimals when it fits, else scaled k/M/G/T. */
static void col(FILE *f, double v, int w, int prec)
{
	if (!isfinite(v)) {
		fprintf(f, " %*s", w, "-");
		return;
	}
	char b[32];
	snprintf(b, sizeof(b), "%.*f", prec, v);
	if ((int)strlen(b) <= w) {
		fprintf(f, " %*s", w, b);
		return;
	}
	static const char sfx[] = "kMGTPE";
	double x = v;
	int i = -1;
	while (fabs(x) >= 999.5 && i < 5)
		x /= 1000, i++;
	snprintf(b, sizeof(b), "%.*f%c", fabs(x) < 9.95 ? 1 : 0, x, i >= 0 ? sfx[i] : ' ');
	fprintf(f, " %*s", w, b);
}

void pl_mon_text_header(FILE *f)
{
	fprintf(f,
		"%8s %5s %5s %5s %5s %5s %5s %5s %5s %5s %6s %6s %6s %6s %6s %6s %6s %6s %6s %5s\n",
		"t_s", "usr%", "nice%", "sys%", "iow%", "irq%", "sirq%", "stl%", "idle%", "load1",
		"cs/s", "fork/s", "intr/s", "majf/s", "diskMB", "util%", "netMB", "retr/s", "qat/s",
		"gpu%");
}

void pl_mon_text_line(FILE *f, const struct pl_mon_rates *r, bool bars)
{
	struct pl_mon_io_sum s;
	pl_mon_io_sum(r, &s);
	const struct pl_mon_cpupct *a = &r->all;
	fprintf(f, "%8.1f", r->t_s);
	const double pct[] = { a->user, a->nice,    a->system, a->iowait,
			       a->irq,	a->softirq, a->steal,  a->idle };
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		col(f, pct[i], 5, 1);
	col(f, r->load[0], 5, 2);
	col(f, r->ctxt_per_s, 6, 0);
	col(f, r->forks_per_s, 6, 0);
	col(f, r->irq_per_s, 6, 0);
	col(f, r->majflt_per_s, 6, 0);
	col(f, (s.read_Bps + s.write_Bps) / 1e6, 6, 2);
	col(f, s.util_max, 6, 1);
	col(f, (s.rx_Bps + s.tx_Bps) / 1e6, 6, 2);
	col(f, r->tcp_retrans_per_s, 6, 0);
	struct pl_mon_accel_sum x;
	pl_mon_accel_sum(r, &x);
	col(f, x.qat_requests_per_s, 6, 0);
	col(f, x.gpu_util_pct, 5, 1);
	if (bars && r->ncpu) {
		static const char *const lv[] = { " ",	    "\u2581", "\u2582", "\u2583", "\u2584",
						  "\u2585", "\u2586", "\u2587", "\u2588" };
		fputs(" |", f);
		for (size_t i = 0; i < r->ncpu && i < 256; i++) {
			double b = r->cpu[i].busy;
			int k = isfinite(b) ? (int)lround(b / 12.5) : 0;
			fputs(lv[k < 0 ? 0 : k > 8 ? 8 : k], f);
		}
		fputc('|', f);
	}
	fputc('\n', f);
}
