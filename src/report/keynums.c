/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/keynums.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "facts/collectors.h"
#include "report/figures.h"
#include "util/json.h"
#include "report/report.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/str.h"

/* The first result of benchmark @name in @benches with status ok, else the first one of
 * any status, else NULL. */
static const json_t *find_bench(const json_t *benches, const char *name)
{
	const json_t *any = NULL, *d;
	size_t i;
	json_array_foreach(benches, i, d)
	{
		const char *n = pl_json_str(d, "benchmark"), *st = pl_json_str(d, "status");
		if (!n || strcmp(n, name) != 0)
			continue;
		if (st && strcmp(st, "ok") == 0)
			return d;
		if (!any)
			any = d;
	}
	return any;
}

static const json_t *find_metric(const json_t *doc, const char *name)
{
	const json_t *m;
	size_t i;
	json_array_foreach(json_object_get(doc, "metrics"), i, m)
	{
		const char *n = pl_json_str(m, "name");
		if (n && strcmp(n, name) == 0 && json_is_number(json_object_get(m, "median")))
			return m;
	}
	return NULL;
}

static double median(const json_t *m)
{
	return json_number_value(json_object_get(m, "median"));
}

/* What qualifies a figure (@m of @doc), from report/figures.h as its section shows it: the
 * figure's own warnings (runs, spread, shared CPU) and the benchmark's (quick run, machine
 * not idle, CPU steal), each in its short form where it has one, after @label ("" for the
 * headline figure, "reference: " for the row's reference figure). Not the runner's summary
 * of other metrics' spread; notes and info items stand in the figure's section. With
 * @only_metric, only the caveats about metric @metric (not those of the whole run). */
static void add_caveats(json_t *c, const struct pl_caveats *cs, bool bench_level, bool only_metric,
			const char *metric, const char *label)
{
	for (size_t k = 0; k < cs->n; k++) {
		const struct pl_caveat *v = &cs->v[k];
		if (v->kind != PL_CAVEAT_WARN) /* notes and info stand in the section */
			continue;
		if (bench_level && !v->tag && pl_startswith(v->text, "spread too wide"))
			continue;
		/* a caveat about another metric of the benchmark is not this figure's */
		if (v->metric && (!metric || strcmp(v->metric, metric) != 0))
			continue;
		if (only_metric && !v->metric)
			continue;
		pl_autofree char *t = pl_xasprintf("%s%s", label, v->tag ? v->tag : v->text);
		json_array_append_new(c, pl_json_string(t));
	}
}

/* The caveats of a row: those of its figure @m (the metric's own, then the benchmark's),
 * then those of the reference figure @ref of the same result (NULL: none), each marked
 * "reference: ". The benchmark's caveats about the run as a whole (machine not idle,
 * quick run) qualify both figures and stand once, unmarked. */
static json_t *caveats(const json_t *doc, const json_t *m, const json_t *ref)
{
	json_t *c = json_array();
	struct pl_caveats mc = { 0 }, rc = { 0 }, bc = { 0 };
	if (m)
		pl_caveats_metric(doc, m, &mc);
	if (ref)
		pl_caveats_metric(doc, ref, &rc);
	pl_caveats_bench(doc, &bc);
	const char *name = pl_json_str(m, "name"), *rname = pl_json_str(ref, "name");
	add_caveats(c, &mc, false, false, name, "");
	add_caveats(c, &bc, true, false, name, "");
	if (ref) {
		add_caveats(c, &rc, false, false, rname, "reference: ");
		add_caveats(c, &bc, true, true, rname, "reference: ");
	}
	pl_caveats_free(&mc);
	pl_caveats_free(&rc);
	pl_caveats_free(&bc);
	return c;
}

/* A row. @text and @detail may be NULL (""); @m gives value and unit when not NULL. */
static json_t *row(const char *name, const char *text, const json_t *m, const char *detail,
		   const char *reference, json_t *cav, const char *section)
{
	json_t *r = json_object();
	json_object_set_new(r, "name", pl_json_string(name));
	char v[48] = "";
	if (m)
		pl_evidence_fmt_value(v, sizeof(v), median(m), pl_json_str(m, "unit"));
	json_object_set_new(r, "text", pl_json_string(text ? text : v));
	json_object_set_new(r, "value", m ? json_real(median(m)) : json_null());
	json_object_set_new(r, "unit", m ? pl_json_string(pl_json_str(m, "unit")) : json_null());
	json_object_set_new(r, "detail", pl_json_string(detail ? detail : ""));
	json_object_set_new(r, "reference", pl_json_string(reference ? reference : ""));
	json_object_set_new(r, "caveats", cav ? cav : json_array());
	json_object_set_new(r, "section", pl_json_string(section));
	/* the single operations behind a median of medians (net's round trips): the tail
	 * the figure alone hides */
	const json_t *lat = json_object_get(m, "latency_ns");
	if (json_is_object(lat) && pl_json_int(lat, "n") > 0) {
		json_t *po = json_object();
		static const char *const keys[] = { "n", "p50", "mean", "p99", "p99.9", "max" };
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			const json_t *x = json_object_get(lat, keys[i]);
			json_object_set_new(po, keys[i], x ? json_deep_copy(x) : json_null());
		}
		json_object_set_new(r, "per_op", po);
	}
	return r;
}

/* The precision row @r's figure @m reached in a --precision run of @doc (its
 * runner.precision entry of the same name): the row's "precision" member and "+-0.42%"
 * after its text; nothing for a fixed-count run or a metric that was not a headline. */
static void add_precision(json_t *r, const json_t *doc, const json_t *m)
{
	const json_t *p = json_object_get(json_object_get(doc, "runner"), "precision");
	const char *name = pl_json_str(m, "name");
	size_t i;
	const json_t *pm;
	json_array_foreach(json_object_get(p, "metrics"), i, pm)
	{
		const char *n = pl_json_str(pm, "name");
		if (!name || !n || strcmp(n, name) != 0)
			continue;
		const json_t *reached = json_object_get(pm, "reached_pct");
		json_t *o = json_object();
		json_object_set_new(o, "reached_pct",
				    json_is_number(reached) ? json_real(json_number_value(reached))
							    : json_null());
		json_object_set_new(o, "requested_pct", json_real(pl_json_num(p, "requested_pct")));
		json_object_set_new(o, "stop", pl_json_string(pl_json_str(p, "stop")));
		json_object_set_new(r, "precision", o);
		/* the interval's two sides where they differ (pl_bench_ci_text()); without
		 * an interval (fewer runs than it needs) the spread of the runs there are */
		pl_autofree char *ci =
			pl_bench_ci_text(pl_json_num(m, "median"), pl_json_num(pm, "ci_low"),
					 pl_json_num(pm, "ci_high"));
		char pct[24];
		double cv = pl_json_num(m, "cv");
		long long runs = pl_json_int(m, "n");
		pl_autofree char *t =
			json_is_number(reached)
				? (ci ? pl_xasprintf("%s %s", pl_json_str(r, "text"), ci)
				      : pl_xasprintf("%s +-%s%%", pl_json_str(r, "text"),
						     pl_bench_pct(pct, sizeof(pct),
								  json_number_value(reached))))
			: isfinite(cv) && runs >= 2
				? pl_xasprintf("%s (no interval: %lld runs, cv %s%%)",
					       pl_json_str(r, "text"), runs,
					       pl_bench_pct(pct, sizeof(pct), cv * 100))
				: pl_xasprintf("%s (no interval)", pl_json_str(r, "text"));
		json_object_set_new(r, "text", pl_json_string(t));
		return;
	}
}

/* The benchmarks of the report and their section ids (pl_figure_bench_anchors()). */
struct kn {
	const json_t *report, *benches;
	json_t *ids;
};

/* The section id of result @doc (an element of k->benches), or "bench-@bench". */
static const char *section_of(const struct kn *k, const json_t *doc, const char *bench, char *buf,
			      size_t len)
{
	size_t i;
	const json_t *d;
	json_array_foreach(k->benches, i, d)
	{
		if (d == doc)
			return json_string_value(json_array_get(k->ids, i));
	}
	snprintf(buf, len, "bench-%s", bench);
	return buf;
}

/* A row for metric @m of result @doc of benchmark @bench; @detail/@reference computed by
 * the caller from the metric (NULL = none / "no reference"); @ref_m the metric of @doc the
 * reference shows (NULL: none), whose caveats the row adds as the reference's. Not
 * measured: why, in the text. */
static json_t *bench_row(const struct kn *k, const char *name, const char *bench, const json_t *doc,
			 const json_t *m, const char *detail, const char *reference,
			 const json_t *ref_m)
{
	char buf[64];
	const char *section = section_of(k, doc, bench, buf, sizeof(buf));
	if (!doc) {
		pl_autofree char *why = pl_xasprintf("not measured (perflab bench %s)", bench);
		json_t *r = row(name, why, NULL, NULL, NULL, NULL, ""); /* no section to link */
		return r;
	}
	if (!m) {
		const char *st = pl_json_str(doc, "status");
		const char *reason = pl_json_str(doc, "reason");
		pl_autofree char *why = st && strcmp(st, "ok") != 0
						? pl_xasprintf("%s%s%s", st, reason ? ": " : "",
							       reason ? reason : "")
						: pl_xstrdup("the result has no such metric");
		json_t *r = row(name, why, NULL, NULL, NULL, NULL, section);
		return r;
	}
	json_t *r = row(name, NULL, m, detail, reference ? reference : "no reference",
			caveats(doc, m, ref_m), section);
	add_precision(r, doc, m);
	return r;
}

/* A row that is not a key number although @doc measured something under its name: "not
 * a key number" in the figure's place, short like "not measured", and @why (what it
 * measured instead and how to measure the key number) as its context. */
static json_t *not_key_row(const struct kn *k, const char *name, const char *bench,
			   const json_t *doc, const char *why)
{
	char buf[64];
	return row(name, "not a key number", NULL, why, NULL, NULL,
		   section_of(k, doc, bench, buf, sizeof(buf)));
}

static void add_clock(json_t *rows, const struct kn *k)
{
	const json_t *benches = k->benches;
	const json_t *d = find_bench(benches, "clock");
	const json_t *m = find_metric(d, "gettimeofday");
	const json_t *sys = find_metric(d, "gettimeofday [syscall]");
	const char *via = m ? pl_json_str(json_object_get(m, "notes"), "via") : NULL;
	pl_autofree char *detail = pl_xasprintf(
		"gettimeofday, %s", !via			  ? "call path unknown"
				    : strcmp(via, "vdso") == 0	  ? "a vDSO call (no kernel entry)"
				    : strcmp(via, "syscall") == 0 ? "a system call (no vDSO here)"
								  : via);
	pl_autofree char *ref = NULL;
	if (m && sys) {
		char s[48];
		pl_evidence_fmt_value(s, sizeof(s), median(sys), pl_json_str(sys, "unit"));
		double x = median(m) > 0 ? median(sys) / median(m) : NAN;
		ref = isfinite(x) && via && strcmp(via, "vdso") == 0
			      ? pl_xasprintf("as a system call: %s (%.3gx the vDSO read)", s, x)
			      : pl_xasprintf("as a system call: %s", s);
	}
	json_array_append_new(
		rows, bench_row(k, "time read", "clock", d, m, detail, ref, ref ? sys : NULL));
}

/* The fastest "NAME compress" metric (compress measures one core), with zlib-1 (the
 * library of gzip -1) as its reference. Only level-1 metrics ("isal-1 compress") take
 * part while there are any, so the row compares libraries at the same level: ISA-L's
 * level 0 (no Huffman search) beats zlib-1 by being less work, not a faster library. */
static void add_compress(json_t *rows, const struct kn *k)
{
	const json_t *benches = k->benches;
	const json_t *d = find_bench(benches, "compress");
	const json_t *best = NULL, *m;
	size_t i;
	for (int pass = 0; pass < 2 && !best; pass++)
		json_array_foreach(json_object_get(d, "metrics"), i, m)
		{
			const char *n = pl_json_str(m, "name");
			size_t l = n ? strlen(n) : 0;
			if (l > 9 && strcmp(n + l - 9, " compress") == 0 &&
			    (pass == 1 || (l > 11 && strncmp(n + l - 11, "-1", 2) == 0)) &&
			    json_is_number(json_object_get(m, "median")) &&
			    (!best || median(m) > median(best)))
				best = m;
		}
	pl_autofree char *detail = NULL;
	pl_autofree char *ref = NULL;
	const json_t *z = NULL;
	if (best) {
		const char *n = pl_json_str(best, "name");
		detail = pl_xasprintf("%.*s, one core", (int)(strlen(n) - 9), n);
		z = find_metric(d, "zlib-1 compress");
		if (z == best)
			z = NULL;
		if (z) {
			char s[48];
			pl_evidence_fmt_value(s, sizeof(s), median(z), pl_json_str(z, "unit"));
			ref = pl_xasprintf("zlib-1 (gzip -1): %s", s);
		}
	}
	json_array_append_new(rows,
			      bench_row(k, "compression", "compress", d, best, detail, ref, z));
}

/* The memory row's reference: the theoretical peak of the populated DIMM channels
 * (facts dimm.peak_bandwidth_gbps = populated channels x configured MT/s x 8 B, from the
 * SMBIOS type 17 table) and the share of it @triad (GB/s, may be NULL) reaches; "no
 * reference (...)" without DIMM facts. Returns a new string. */
static char *mem_reference(const json_t *report, const json_t *triad)
{
	struct pl_dimm_peak p;
	if (!pl_dimm_peak_get(json_object_get(report, "facts"), &p))
		return pl_xstrdup("no reference (no DIMM facts for a theoretical peak)");
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "theoretical peak %.1f GB/s", p.gbps);
	if (p.populated >= 0 && p.total >= 0)
		pl_buf_printf(&b, " (%lld of %lld channels populated x MT/s x 8 B, SMBIOS)",
			      (long long)p.populated, (long long)p.total);
	const char *unit = pl_json_str(triad, "unit");
	if (triad && unit && strcmp(unit, "GB/s") == 0)
		pl_buf_printf(&b, ": triad at %.1f%% of it", median(triad) / p.gbps * 100);
	return pl_buf_steal(&b);
}

/* The memory row's figure of @d: the higher of STREAM triad with temporal stores ("triad")
 * and with streaming stores ("triad_nt", bench mem --nt), so the row shows the highest
 * bandwidth the run measured; NULL when neither was measured. Its detail in @detail: the
 * kernel, the store kind and the thread count (info.threads), e.g. "STREAM triad,
 * temporal stores, 2 threads"; "all CPUs" when the result does not say how many. */
static const json_t *mem_triad(const json_t *d, char *detail, size_t len)
{
	const json_t *t = find_metric(d, "triad"), *nt = find_metric(d, "triad_nt");
	const json_t *m = nt && (!t || median(nt) > median(t)) ? nt : t;
	const json_t *threads = json_object_get(json_object_get(d, "info"), "threads");
	char thr[32] = "all CPUs";
	if (json_is_integer(threads) && json_integer_value(threads) > 0)
		snprintf(thr, sizeof(thr), "%lld thread%s", (long long)json_integer_value(threads),
			 json_integer_value(threads) == 1 ? "" : "s");
	snprintf(detail, len, "STREAM triad, %s stores, %s",
		 m == nt ? "streaming (non-temporal)" : "temporal", thr);
	return m;
}

/* STREAM triad of bench mem (mem_triad(): the faster store kind) as the memory row,
 * against the DIMMs' peak. The row is memory bandwidth only when the three arrays do not
 * fit in the last-level cache (the size rule's LLC, info.llc_used_bytes, else the reported
 * one); below 4x the LLC (STREAM's rule) the row says the figure may include cache
 * bandwidth. */
static void add_mem(json_t *rows, const struct kn *k)
{
	const json_t *d = find_bench(k->benches, "mem");
	char detail[96];
	const json_t *triad = mem_triad(d, detail, sizeof(detail));
	const json_t *info = json_object_get(d, "info");
	double arr = pl_json_num(info, "array_bytes");
	double llc = json_is_number(json_object_get(info, "llc_used_bytes"))
			     ? pl_json_num(info, "llc_used_bytes")
			     : pl_json_num(info, "llc_total_bytes");
	bool in_cache = triad && arr > 0 && llc > 0 && 3 * arr <= llc;
	/* the peak alone when the triad is the cache's: no share of the DIMMs' peak */
	pl_autofree char *peak = mem_reference(k->report, in_cache ? NULL : triad);
	pl_autofree char *a = pl_figure_bytes(3 * arr), *l = pl_figure_bytes(llc);
	if (in_cache) {
		pl_autofree char *why = pl_xasprintf(
			"the three arrays (%s) fit in the last-level cache (%s), so triad measured "
			"the cache (run 'perflab bench mem' for memory bandwidth)",
			a, l);
		json_t *r = not_key_row(k, "memory", "mem", d, why);
		if (strncmp(peak, "theoretical", 11) == 0)
			json_object_set_new(r, "reference", pl_json_string(peak));
		json_array_append_new(rows, r);
		return;
	}
	json_t *mem = bench_row(k, "memory", "mem", d, triad, detail, peak, NULL);
	if (!triad && strncmp(peak, "theoretical", 11) == 0) /* the peak, also when not measured */
		json_object_set_new(mem, "reference", pl_json_string(peak));
	if (triad && arr > 0 && llc > 0 && arr < 4 * llc) {
		pl_autofree char *each = pl_figure_bytes(arr);
		pl_autofree char *c = pl_xasprintf(
			"arrays below 4x the last-level cache (%s each, LLC %s): may include cache "
			"bandwidth",
			each, l);
		json_array_insert_new(json_object_get(mem, "caveats"), 0, pl_json_string(c));
	}
	json_array_append_new(rows, mem);
}

/* The largest block size that makes IOPS a key number: small-block random reads, as a
 * device's IOPS are quoted (4 KiB; at most 16 KiB). */
#define PL_KEY_IOPS_MAX_BS 16384

/* The io rows: bandwidth, and IOPS only from small-block (<= 16 KiB) random reads: the
 * IOPS of 1 MiB or sequential reads are the bandwidth over the block size, which a reader
 * of "io IOPS 922/s" takes for the device's IOPS, so there the row says what to run. */
static void add_io(json_t *rows, const struct kn *k)
{
	const json_t *d = find_bench(k->benches, "io");
	const json_t *opts = json_object_get(d, "options");
	/* what the run did (info.cache: direct, cold or hot), not what was asked (auto) */
	const char *cache = pl_json_str(json_object_get(d, "info"), "cache");
	if (!cache)
		cache = pl_json_str(opts, "cache");
	const char *how = !cache			 ? "cache ?"
			  : strcmp(cache, "direct") == 0 ? "O_DIRECT (no page cache)"
			  : strcmp(cache, "cold") == 0	 ? "cold cache"
			  : strcmp(cache, "hot") == 0	 ? "hot cache (page cache, not the device)"
							 : cache;
	char bs[48] = "";
	long long bsz = pl_json_int(opts, "bs");
	bool has_bs = json_is_integer(json_object_get(opts, "bs")) && bsz > 0;
	if (has_bs)
		snprintf(bs, sizeof(bs), ", bs %lld %s",
			 bsz % 1048576 == 0 ? bsz / 1048576
			 : bsz % 1024 == 0  ? bsz / 1024
					    : bsz,
			 bsz % 1048576 == 0 ? "MiB"
			 : bsz % 1024 == 0  ? "KiB"
					    : "B");
	char qd[32] = "";
	if (json_is_integer(json_object_get(opts, "iodepth")))
		snprintf(qd, sizeof(qd), ", qd %lld", pl_json_int(opts, "iodepth"));
	const char *pattern = pl_json_str(opts, "pattern");
	pl_autofree char *io = pl_xasprintf("%s%s%s, %s", pattern ? pattern : "io", bs, qd, how);
	json_array_append_new(rows, bench_row(k, "io bandwidth", "io", d,
					      find_metric(d, "bandwidth"), io, NULL, NULL));
	const json_t *iops = find_metric(d, "iops");
	bool random_read = pattern && strcmp(pattern, "randread") == 0;
	if (iops && !(random_read && has_bs && bsz <= PL_KEY_IOPS_MAX_BS)) {
		pl_autofree char *why = pl_xasprintf(
			"bench io ran %s%s%s%s; IOPS count as a device's only from small-block "
			"random reads (run 'perflab bench io --pattern randread --bs 4KiB' for "
			"them; the bandwidth above is this run's figure)",
			pattern ? pattern : "?", has_bs ? " with " : "", has_bs ? bs + 5 : "",
			has_bs ? " blocks" : "");
		json_array_append_new(rows, not_key_row(k, "io IOPS", "io", d, why));
		return;
	}
	json_array_append_new(rows, bench_row(k, "io IOPS", "io", d, iops, io, NULL, NULL));
}

json_t *pl_keynums_build(const json_t *report)
{
	json_t *rows = json_array();
	pl_autofree char *line = pl_report_machine_line(report);
	json_array_append_new(rows, row("machine", line, NULL, NULL, NULL, NULL, "facts"));
	const json_t *check = json_object_get(report, "check");
	const json_t *sum = json_object_get(check, "summary");
	pl_autofree char *f =
		pl_xasprintf("%lld crit, %lld warn, %lld info", pl_json_int(sum, "crit"),
			     pl_json_int(sum, "warn"), pl_json_int(sum, "info"));
	pl_autofree char *wl = pl_xasprintf("workload %s", pl_json_str(check, "workload")
								   ? pl_json_str(check, "workload")
								   : "unknown");
	json_array_append_new(rows, row("findings", f, NULL, wl, NULL, NULL, "findings"));

	struct kn k = { report, json_object_get(report, "benchmarks"), NULL };
	k.ids = pl_figure_bench_anchors(k.benches);
	add_clock(rows, &k);
	const json_t *d = find_bench(k.benches, "syscall");
	json_array_append_new(rows, bench_row(&k, "syscall", "syscall", d,
					      find_metric(d, "getppid"), "getppid", NULL, NULL));
	add_mem(rows, &k);
	add_io(rows, &k);
	d = find_bench(k.benches, "net");
	json_array_append_new(rows, bench_row(&k, "loopback RTT", "net", d,
					      find_metric(d, "tcp_pp 64B round-trip"),
					      "TCP ping-pong, 64 B", NULL, NULL));
	add_compress(rows, &k);
	json_decref(k.ids);
	return rows;
}

void pl_report_annotate(json_t *report)
{
	const json_t *benches = json_object_get(report, "benchmarks");
	json_t *empty = json_array();
	pl_evidence_attach(json_object_get(json_object_get(report, "check"), "findings"),
			   benches ? benches : empty);
	json_decref(empty);
	json_object_set_new(report, "key_numbers", pl_keynums_build(report));
}
