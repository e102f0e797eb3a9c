/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of one monitor interval (output.h). */
#include "monitor/output.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
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

/* A telemetry value: an integer, capped at JSON's (jansson's) largest. */
static long long tl_int(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (long long)v;
}

static json_t *tl_counters_json(const struct pl_mon_qat_tl *t)
{
	json_t *o = json_object();
	for (size_t i = 0; i < t->n; i++)
		json_object_set_new(o, t->name[i], json_integer(tl_int(t->value[i])));
	return o;
}

/* "telemetry": {"device": {counters} or null, "ring_pairs": [{slot, rp_num, service_type,
 * counters}, ...]} of a QAT device (the ring-pair files that were readable). */
static json_t *qat_tl_json(const struct pl_mon_qat_rate *x)
{
	json_t *rps = json_array();
	for (int i = 0; i < PL_MON_QAT_RP; i++) {
		if (!x->has_rp[i])
			continue;
		const struct pl_mon_qat_tl *t = &x->rp[i];
		char slot[2] = { (char)('A' + i), '\0' };
		json_array_append_new(
			rps, json_pack("{s:s,s:o,s:o,s:o}", "slot", slot, "rp_num",
				       t->rp_num >= 0 ? json_integer(t->rp_num) : json_null(),
				       "service_type",
				       t->service[0] ? pl_json_string(t->service) : json_null(),
				       "counters", tl_counters_json(t)));
	}
	return json_pack("{s:o,s:o}", "device", x->has_tl ? tl_counters_json(&x->tl) : json_null(),
			 "ring_pairs", rps);
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
		json_array_append_new(
			q, json_pack("{s:o,s:o,s:o,s:o,s:o}", "device", pl_json_string(x->name),
				     "requests_per_s", num(x->requests_per_s), "responses_per_s",
				     num(x->responses_per_s), "ras_events_per_s",
				     num(x->ras_events_per_s), "telemetry", qat_tl_json(x)));
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

/* --- the same sample written straight to the stream (the sampling loop's path: no tree
 * is built and freed per interval, which was half of monitor's CPU) ---------------- */

/* The writer's state: one "first member" flag per open object or array. It writes with
 * the _unlocked stdio calls: the stream belongs to the sampling loop's one thread. */
struct jw {
	FILE *f;
	int depth;
	bool first[8];
};

/* The comma before a member or element (none before the first), then "key": if any. */
static void jw_key(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		putc_unlocked(',', w->f);
	w->first[w->depth] = false;
	if (key) {
		putc_unlocked('"', w->f);
		fputs_unlocked(key, w->f);
		fputs_unlocked("\":", w->f);
	}
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_key(w, key);
	putc_unlocked(c, w->f);
	w->first[++w->depth] = true;
}

static void jw_close(struct jw *w, char c)
{
	putc_unlocked(c, w->f);
	w->depth--;
}

/* A finite double as jansson writes a real under JSON_REAL_PRECISION(8) (jansson
 * src/strconv.c jsonp_dtostr: "%.8g", ".0" appended when there is neither '.' nor 'e',
 * the exponent without '+' and leading zeros), else null as num() gives. Integral values
 * below 10^8 (%.8g prints all their digits) are written digit by digit, the rest through
 * pl_fmt_g (printf's bytes at a fraction of its cost). */
static void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (!isfinite(v)) {
		fputs_unlocked("null", w->f);
		return;
	}
	char b[40];
	size_t n;
	if (v >= 0 && v < 1e8 && !signbit(v) && v == (double)(uint32_t)v) {
		char d[12];
		size_t k = 0;
		uint32_t u = (uint32_t)v;
		do
			d[k++] = (char)('0' + u % 10);
		while (u /= 10);
		for (n = 0; k;)
			b[n++] = d[--k];
		b[n++] = '.';
		b[n++] = '0';
		b[n] = '\0';
	} else {
		int r = pl_fmt_g(b, sizeof(b), v, 8);
		n = r > 0 ? (size_t)r : 0;
		char *e = strchr(b, 'e');
		if (!e && !strchr(b, '.')) {
			b[n++] = '.';
			b[n++] = '0';
			b[n] = '\0';
		}
		if (e) {
			char *s = e + 1, *t = e + 2;
			if (*s == '-')
				s++;
			while (*t == '0')
				t++;
			memmove(s, t, strlen(t) + 1);
			n = strlen(b);
		}
	}
	fwrite_unlocked(b, 1, n, w->f);
}

/* A string as json_dumps writes pl_json_string(@s): printable ASCII without '"' and '\'
 * as it is; anything else through jansson itself (escapes, invalid UTF-8). */
static void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	const char *c = s;
	while (*c >= 0x20 && *c < 0x7f && *c != '"' && *c != '\\')
		c++;
	if (!*c) {
		putc_unlocked('"', w->f);
		fputs_unlocked(s, w->f);
		putc_unlocked('"', w->f);
		return;
	}
	json_t *j = pl_json_string(s);
	char *t = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	fputs_unlocked(t ? t : "null", w->f);
	free(t);
	json_decref(j);
}

static void jw_cpu(struct jw *w, const char *key, const struct pl_mon_cpupct *p)
{
	jw_open(w, key, '{');
	if (p->cpu >= 0) {
		jw_key(w, "cpu");
		fprintf(w->f, "%d", p->cpu);
	}
	jw_num(w, "user", p->user);
	jw_num(w, "nice", p->nice);
	jw_num(w, "system", p->system);
	jw_num(w, "iowait", p->iowait);
	jw_num(w, "irq", p->irq);
	jw_num(w, "softirq", p->softirq);
	jw_num(w, "steal", p->steal);
	jw_num(w, "guest", p->guest);
	jw_num(w, "idle", p->idle);
	jw_num(w, "busy", p->busy);
	if (p->cpu >= 0) {
		jw_num(w, "irq_per_s", p->irq_per_s);
		jw_num(w, "softirq_per_s", p->softirq_per_s);
	}
	jw_close(w, '}');
}

static void jw_sources(struct jw *w, const char *key, const struct pl_mon_source *s, size_t n)
{
	jw_open(w, key, '[');
	for (size_t i = 0; i < n; i++) {
		jw_open(w, NULL, '{');
		jw_str(w, "name", s[i].name);
		jw_num(w, "per_s", s[i].per_s);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void jw_counters(struct jw *w, const char *key, const struct pl_mon_qat_tl *t)
{
	jw_open(w, key, '{');
	for (size_t i = 0; i < t->n; i++) {
		jw_str(w, NULL, t->name[i]);
		putc_unlocked(':', w->f);
		fprintf(w->f, "%lld", tl_int(t->value[i]));
	}
	jw_close(w, '}');
}

/* qat_tl_json(), written */
static void jw_qat_tl(struct jw *w, const struct pl_mon_qat_rate *x)
{
	jw_open(w, "telemetry", '{');
	if (x->has_tl) {
		jw_counters(w, "device", &x->tl);
	} else {
		jw_key(w, "device");
		fputs_unlocked("null", w->f);
	}
	jw_open(w, "ring_pairs", '[');
	for (int i = 0; i < PL_MON_QAT_RP; i++) {
		if (!x->has_rp[i])
			continue;
		const struct pl_mon_qat_tl *t = &x->rp[i];
		char slot[2] = { (char)('A' + i), '\0' };
		jw_open(w, NULL, '{');
		jw_str(w, "slot", slot);
		jw_key(w, "rp_num");
		if (t->rp_num >= 0)
			fprintf(w->f, "%d", t->rp_num);
		else
			fputs_unlocked("null", w->f);
		if (t->service[0]) {
			jw_str(w, "service_type", t->service);
		} else {
			jw_key(w, "service_type");
			fputs_unlocked("null", w->f);
		}
		jw_counters(w, "counters", t);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

void pl_mon_sample_json_write(FILE *f, const struct pl_mon_rates *r)
{
	struct jw w = { .f = f, .first = { true } };
	jw_open(&w, NULL, '{');
	jw_num(&w, "t_s", r->t_s);
	jw_num(&w, "dt_s", r->dt_s);
	jw_open(&w, "flags", '[');
	if (r->flags & PL_MON_F_CPUS_CHANGED)
		jw_str(&w, NULL, "cpus_changed");
	if (r->flags & PL_MON_F_RESET)
		jw_str(&w, NULL, "counter_reset");
	jw_close(&w, ']');
	jw_open(&w, "reset", '[');
	for (int g = 0; g < PL_MON_G_N; g++)
		if (r->reset_groups & (1u << g))
			jw_str(&w, NULL, pl_mon_group_names[g]);
	jw_close(&w, ']');
	jw_open(&w, "cpu", '{');
	jw_cpu(&w, "all", &r->all);
	jw_open(&w, "per_cpu", '[');
	for (size_t i = 0; i < r->ncpu; i++)
		jw_cpu(&w, NULL, &r->cpu[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_open(&w, "load", '{');
	jw_num(&w, "avg1", r->load[0]);
	jw_num(&w, "avg5", r->load[1]);
	jw_num(&w, "avg15", r->load[2]);
	jw_num(&w, "running", r->running);
	jw_num(&w, "tasks", r->tasks);
	jw_num(&w, "blocked", r->blocked);
	jw_close(&w, '}');
	jw_num(&w, "ctxt_per_s", r->ctxt_per_s);
	jw_num(&w, "forks_per_s", r->forks_per_s);
	jw_open(&w, "interrupts", '{');
	jw_num(&w, "per_s", r->irq_per_s);
	jw_sources(&w, "top", r->irq_top, r->nirq_top);
	jw_close(&w, '}');
	jw_open(&w, "softirqs", '{');
	jw_num(&w, "per_s", r->softirq_per_s);
	jw_sources(&w, "by_kind", r->softirq, r->nsoftirq);
	jw_close(&w, '}');
	jw_open(&w, "memory", '{');
	jw_num(&w, "total_bytes", r->mem_total);
	jw_num(&w, "free_bytes", r->mem_free);
	jw_num(&w, "available_bytes", r->mem_available);
	jw_num(&w, "cached_bytes", r->mem_cached);
	jw_num(&w, "dirty_bytes", r->mem_dirty);
	jw_num(&w, "writeback_bytes", r->mem_writeback);
	jw_num(&w, "swap_used_bytes", r->swap_used);
	jw_num(&w, "minflt_per_s", r->minflt_per_s);
	jw_num(&w, "majflt_per_s", r->majflt_per_s);
	jw_num(&w, "swapin_per_s", r->swapin_per_s);
	jw_num(&w, "swapout_per_s", r->swapout_per_s);
	jw_num(&w, "thp_alloc_per_s", r->thp_alloc_per_s);
	jw_num(&w, "compact_stall_per_s", r->compact_stall_per_s);
	jw_close(&w, '}');
	jw_open(&w, "numa", '{');
	jw_num(&w, "hit_per_s", r->numa_hit_per_s);
	jw_num(&w, "miss_per_s", r->numa_miss_per_s);
	jw_num(&w, "local_per_s", r->numa_local_per_s);
	jw_num(&w, "other_per_s", r->numa_other_per_s);
	jw_num(&w, "remote_ratio", r->numa_remote_ratio);
	jw_close(&w, '}');
	static const char *const psi[PL_MON_PSI_N] = { "cpu", "memory", "io" };
	jw_open(&w, "pressure", '{');
	for (int i = 0; i < PL_MON_PSI_N; i++) {
		if (!r->psi_present[i]) {
			jw_key(&w, psi[i]);
			fputs_unlocked("null", f);
			continue;
		}
		jw_open(&w, psi[i], '{');
		jw_num(&w, "some_pct", r->psi_some_pct[i]);
		jw_num(&w, "full_pct", r->psi_full_pct[i]);
		jw_num(&w, "some_avg10", r->psi_some_avg10[i]);
		jw_close(&w, '}');
	}
	jw_close(&w, '}');
	jw_open(&w, "disks", '[');
	for (size_t i = 0; i < r->ndisk; i++) {
		const struct pl_mon_disk_rate *x = &r->disk[i];
		jw_open(&w, NULL, '{');
		jw_str(&w, "name", x->name);
		jw_num(&w, "r_per_s", x->r_per_s);
		jw_num(&w, "w_per_s", x->w_per_s);
		jw_num(&w, "read_bytes_per_s", x->read_Bps);
		jw_num(&w, "write_bytes_per_s", x->write_Bps);
		jw_num(&w, "aqu_sz", x->aqu_sz);
		jw_num(&w, "r_await_ms", x->r_await_ms);
		jw_num(&w, "w_await_ms", x->w_await_ms);
		jw_num(&w, "util_pct", x->util_pct);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_open(&w, "net", '{');
	jw_open(&w, "interfaces", '[');
	for (size_t i = 0; i < r->nnet; i++) {
		const struct pl_mon_net_rate *x = &r->net[i];
		jw_open(&w, NULL, '{');
		jw_str(&w, "name", x->name);
		jw_num(&w, "rx_packets_per_s", x->rx_pps);
		jw_num(&w, "tx_packets_per_s", x->tx_pps);
		jw_num(&w, "rx_bytes_per_s", x->rx_Bps);
		jw_num(&w, "tx_bytes_per_s", x->tx_Bps);
		jw_num(&w, "rx_drops_per_s", x->rx_drop_per_s);
		jw_num(&w, "tx_drops_per_s", x->tx_drop_per_s);
		jw_num(&w, "rx_errors_per_s", x->rx_err_per_s);
		jw_num(&w, "tx_errors_per_s", x->tx_err_per_s);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_num(&w, "tcp_outsegs_per_s", r->tcp_outsegs_per_s);
	jw_num(&w, "tcp_retrans_per_s", r->tcp_retrans_per_s);
	jw_num(&w, "listen_overflows_per_s", r->listen_overflows_per_s);
	jw_num(&w, "listen_drops_per_s", r->listen_drops_per_s);
	jw_close(&w, '}');
	jw_open(&w, "accel", '{');
	jw_open(&w, "qat", '[');
	for (size_t i = 0; i < r->nqat; i++) {
		const struct pl_mon_qat_rate *x = &r->qat[i];
		jw_open(&w, NULL, '{');
		jw_str(&w, "device", x->name);
		jw_num(&w, "requests_per_s", x->requests_per_s);
		jw_num(&w, "responses_per_s", x->responses_per_s);
		jw_num(&w, "ras_events_per_s", x->ras_events_per_s);
		jw_qat_tl(&w, x);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_open(&w, "gpu", '[');
	for (size_t i = 0; i < r->ngpu; i++) {
		const struct pl_mon_gpu *x = &r->gpu[i];
		jw_open(&w, NULL, '{');
		jw_key(&w, "index");
		fprintf(f, "%zu", i);
		jw_str(&w, "name", x->name);
		jw_num(&w, "util_pct", x->util_pct);
		jw_num(&w, "mem_util_pct", x->mem_util_pct);
		jw_num(&w, "mem_used_bytes", x->mem_used_bytes);
		jw_num(&w, "mem_total_bytes", x->mem_total_bytes);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_close(&w, '}');
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
	char b[40] = ",";
	if (isfinite(v))
		pl_fmt_g(b + 1, sizeof(b) - 1, v, 6); /* printf's %.6g, cheaper */
	fputs(b, f);
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
