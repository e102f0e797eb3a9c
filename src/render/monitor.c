/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The monitor document as charts and a summary table (render/monitor.h). The charts are
 * written here as plain SVG (no script), like the rest of the report: line charts and
 * stacked areas over time, downsampled to at most PLOT_POINTS points by the mean of
 * each bucket, with the command's start and end drawn as labelled vertical lines. */
#include "render/monitor.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/json.h"
#include "render/markdown.h"
#include "render/svg.h"
#include "report/from.h"
#include "util/cleanup.h"
#include "util/outdir.h"
#include "util/str.h"

#define PLOT_POINTS 720
#define NS(a) (sizeof(a) / sizeof((a)[0]))
#define W 760
#define H 200
#define ML 64 /* left margin (axis labels) */
#define MR 12
#define MT 40
#define MB 24

bool pl_monview_is_monitor(const char *path)
{
	char e[512];
	json_t *d = pl_report_read_json(path, e, sizeof(e));
	bool yes = d && json_is_object(d) && json_is_string(json_object_get(d, "kind")) &&
		   strcmp(json_string_value(json_object_get(d, "kind")), "monitor") == 0;
	json_decref(d);
	return yes;
}

json_t *pl_monview_load(const char *path, char *err, size_t errlen)
{
	char e[512];
	json_t *d = pl_report_read_json(path, e, sizeof(e));
	if (!d) {
		snprintf(err, errlen, "%s", e);
		return NULL;
	}
	if (!json_is_object(d) || strcmp(pl_json_str(d, "kind"), "monitor") != 0 ||
	    !json_is_array(json_object_get(d, "samples"))) {
		snprintf(err, errlen, "'%s' is not a perflab monitor document (no samples)", path);
		json_decref(d);
		return NULL;
	}
	return d;
}

/* The value named by @spec in sample @s: "a.b.c" (a number; null or missing = NaN),
 * "list[].f" (sum of f over the array) or "list[]^f" (max). */
static double value(const json_t *s, const char *spec)
{
	const char *br = strstr(spec, "[]");
	char part[64];
	const json_t *o = s;
	const char *p = spec, *end = br ? br : spec + strlen(spec);
	while (p < end && o) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t n = dot ? (size_t)(dot - p) : (size_t)(end - p);
		if (n >= sizeof(part))
			return NAN;
		memcpy(part, p, n);
		part[n] = '\0';
		o = json_object_get(o, part);
		p = dot ? dot + 1 : end;
	}
	if (!br)
		return json_is_number(o) ? json_number_value(o) : NAN;
	bool max = br[2] == '^';
	const char *f = br + 3;
	double acc = NAN;
	size_t i;
	const json_t *x;
	json_array_foreach(o, i, x)
	{
		const json_t *v = json_object_get(x, f);
		if (!json_is_number(v))
			continue;
		double d = json_number_value(v);
		acc = isnan(acc) ? d : max ? fmax(acc, d) : acc + d;
	}
	return acc;
}

/* The per-CPU entry of CPU @cpu in sample @s, or NULL. */
static const json_t *cpu_entry(const json_t *s, long cpu)
{
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(json_object_get(s, "cpu"), "per_cpu"), i,
			   x) if (json_integer_value(json_object_get(x, "cpu")) == cpu) return x;
	return NULL;
}

/* One series of a chart. */
struct series {
	const char *label;
	const char *spec; /* value() spec; NULL: per-CPU (fields summed from @cpu_fields) */
	const char *const *cpu_fields;
	double scale; /* multiplies the values (bytes/s -> MB/s) */
};

static double series_value(const json_t *s, const struct series *se, long cpu)
{
	if (se->spec)
		return value(s, se->spec) * se->scale;
	const json_t *c = cpu_entry(s, cpu);
	if (!c)
		return NAN;
	double sum = 0;
	for (const char *const *f = se->cpu_fields; *f; f++) {
		const json_t *v = json_object_get(c, *f);
		if (!json_is_number(v))
			return NAN;
		sum += json_number_value(v);
	}
	return sum * se->scale;
}

static const char *const palette[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
				       "#59a14f", "#edc948", "#b07aa1", "#9c755f" };

/* A round tick step for about four ticks over 0..@v: 1, 2, 2.5 or 5 x 10^k. */
static double nice_step(double v)
{
	if (!(v > 0) || !isfinite(v))
		return 0.25;
	double raw = v / 4, e = pow(10, floor(log10(raw)));
	static const double m[] = { 1, 2, 2.5, 5, 10 };
	for (size_t i = 0; i < 5; i++)
		if (m[i] * e >= raw * 0.999)
			return m[i] * e;
	return 10 * e;
}

/* The decimals that write every multiple of @step exactly (25 -> 0, 2.5 -> 1, 0.25 -> 2),
 * so all the labels of an axis have one precision. */
static int step_decimals(double step)
{
	int d = 0;
	for (double x = step; d < 6 && fabs(x - round(x)) > 1e-6 * fmax(1, x); x *= 10)
		d++;
	return d;
}

/* Append one chart of @ns series over the samples of @doc. The time axis runs from the
 * first sample with a value to the last (a sample's rates are over the interval that
 * ends at its t_s, so there is nothing to draw before the first one); a series has no
 * point where its value is missing (a line) or counts 0 there (a stack). The y axis
 * ends at @ymax_fixed, or at a round step above the largest value, with its ticks
 * written in one precision. Each legend swatch is drawn exactly as its series is. */
static void chart(struct pl_buf *b, const json_t *doc, const char *title, const char *unit,
		  const struct series *se, size_t ns, bool stacked, double ymax_fixed, long cpu)
{
	const json_t *samples = json_object_get(doc, "samples");
	size_t n = json_array_size(samples);
	if (n == 0)
		return;
	size_t step = (n + PLOT_POINTS - 1) / PLOT_POINTS, np = (n + step - 1) / step;
	double *t = pl_xcalloc(np, sizeof(double));
	double *y = pl_xcalloc(np * ns, sizeof(double));
	bool *has = pl_xcalloc(np * ns, sizeof(bool)); /* series j has a value at point k */
	bool *any = pl_xcalloc(np, sizeof(bool));      /* some series has one at point k */
	double tmin = INFINITY, tmax = -INFINITY, ymax = 0;
	for (size_t k = 0; k < np; k++) {
		size_t cnt = 0, *got = pl_xcalloc(ns, sizeof(size_t));
		for (size_t i = k * step; i < n && i < (k + 1) * step; i++, cnt++) {
			const json_t *s = json_array_get(samples, i);
			t[k] += json_number_value(json_object_get(s, "t_s"));
			for (size_t j = 0; j < ns; j++) {
				double v = series_value(s, &se[j], cpu);
				if (isfinite(v)) {
					y[k * ns + j] += v;
					got[j]++;
				}
			}
		}
		t[k] /= (double)cnt;
		double stack = 0;
		for (size_t j = 0; j < ns; j++) {
			has[k * ns + j] = got[j] > 0;
			any[k] = any[k] || got[j] > 0;
			y[k * ns + j] = got[j] ? y[k * ns + j] / (double)got[j] : 0;
			stack = stacked ? stack + y[k * ns + j] : fmax(stack, y[k * ns + j]);
		}
		free(got);
		if (!any[k])
			continue;
		ymax = fmax(ymax, stack);
		tmin = fmin(tmin, t[k]);
		tmax = fmax(tmax, t[k]);
	}
	if (!isfinite(tmin)) {
		free(t);
		free(y);
		free(has);
		free(any);
		return;
	}
	double ystep = ymax_fixed > 0 ? ymax_fixed / 4 : nice_step(ymax);
	double top = ymax_fixed > 0 ? ymax_fixed : fmax(ystep, ceil(ymax / ystep - 1e-9) * ystep);
	int yd = step_decimals(ystep);
	double pw = W - ML - MR, ph = H - MT - MB, tspan = tmax > tmin ? tmax - tmin : 1;
#define X(tt) (ML + (fmin(fmax((tt), tmin), tmax) - tmin) / tspan * pw)
#define Y(v) (MT + ph - fmin((v), top) / top * ph)
	pl_buf_printf(b, "<figure><svg viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\">", W, H);
	pl_buf_puts(b, "<title>");
	pl_html_escape(b, title);
	pl_buf_puts(b, "</title><text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">");
	pl_html_escape(b, title);
	pl_buf_puts(b, "</text>");
	int nt = (int)floor(top / ystep + 1e-9);
	for (int g = 0; g <= nt && g <= 20; g++) {
		double v = ystep * g;
		pl_buf_printf(b,
			      "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			      "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
			      "class=\"ytick\">%.*f%s%s</text>",
			      ML, W - MR, Y(v), Y(v), ML - 4, Y(v) + 4, yd, v,
			      g == nt && *unit ? " " : "", g == nt ? unit : "");
	}
	/* the time axis in one precision too */
	int td = tspan >= 100 ? 0 : tspan >= 10 ? 1 : tspan >= 1 ? 2 : 3;
	pl_buf_printf(b,
		      "<text x=\"%d\" y=\"%d\" font-size=\"11\" class=\"xtick\">%.*f s</text>"
		      "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\" "
		      "class=\"xtick\">%.*f s</text>",
		      ML, H - 6, td, tmin, W - MR, H - 6, td, tmax);
	double *base = pl_xcalloc(np, sizeof(double));
	double lx = ML;
	for (size_t j = 0; j < ns; j++) {
		const char *col = palette[j % (sizeof(palette) / sizeof(palette[0]))];
		if (stacked) {
			pl_buf_printf(b, "<polygon fill=\"%s\" class=\"series\" points=\"", col);
			for (size_t k = 0; k < np; k++)
				if (any[k])
					pl_buf_printf(b, "%.1f,%.1f ", X(t[k]),
						      Y(base[k] + y[k * ns + j]));
			for (size_t k = np; k-- > 0;)
				if (any[k])
					pl_buf_printf(b, "%.1f,%.1f ", X(t[k]), Y(base[k]));
			pl_buf_puts(b, "\"/>");
			for (size_t k = 0; k < np; k++)
				base[k] += y[k * ns + j];
		} else {
			/* one polyline per run of points with a value */
			bool open = false;
			for (size_t k = 0; k <= np; k++) {
				bool h = k < np && has[k * ns + j];
				if (h && !open)
					pl_buf_printf(
						b,
						"<polyline fill=\"none\" stroke=\"%s\" "
						"stroke-width=\"1.5\" class=\"series\" points=\"",
						col);
				if (h)
					pl_buf_printf(b, "%.1f,%.1f ", X(t[k]), Y(y[k * ns + j]));
				if (!h && open)
					pl_buf_puts(b, "\"/>");
				open = h;
			}
		}
		pl_buf_printf(b,
			      "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" "
			      "class=\"legend\"/>",
			      lx, 22, col);
		pl_buf_printf(b, "<text x=\"%.0f\" y=\"%d\" font-size=\"11\">", lx + 13, 31);
		pl_html_escape(b, se[j].label);
		pl_buf_puts(b, "</text>");
		/* the next swatch after this label (about 6.5 px a character at 11 px) */
		lx += 13 + 6.5 * (double)strlen(se[j].label) + 16;
	}
	size_t i;
	const json_t *ev;
	json_array_foreach(json_object_get(doc, "events"), i, ev)
	{
		double et = json_number_value(json_object_get(ev, "t_s"));
		pl_buf_printf(
			b,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#000\" "
			"stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
			"text-anchor=\"%s\">",
			X(et), X(et), MT, H - MB, X(et) + (X(et) > W * 0.8 ? -2 : 2),
			MT + 10 + 10 * (int)(i % 2), X(et) > W * 0.8 ? "end" : "start");
		pl_html_escape(b, pl_json_str(ev, "event"));
		pl_buf_puts(b, "</text>");
	}
	pl_buf_puts(b, "</svg></figure>\n");
#undef X
#undef Y
	free(base);
	free(t);
	free(y);
	free(has);
	free(any);
}

/* The summary rows: label, unit, value() spec, scale. */
static const struct {
	const char *label, *unit, *spec;
	double scale;
} rows[] = {
	{ "CPU busy (all CPUs)", "%", "cpu.all.busy", 1 },
	{ "CPU user", "%", "cpu.all.user", 1 },
	{ "CPU system", "%", "cpu.all.system", 1 },
	{ "CPU iowait", "%", "cpu.all.iowait", 1 },
	{ "CPU softirq", "%", "cpu.all.softirq", 1 },
	{ "CPU steal", "%", "cpu.all.steal", 1 },
	{ "busiest CPU", "%", "cpu.per_cpu[]^busy", 1 },
	{ "load average (1 min)", "", "load.avg1", 1 },
	{ "runnable tasks", "", "load.running", 1 },
	{ "context switches", "/s", "ctxt_per_s", 1 },
	{ "forks", "/s", "forks_per_s", 1 },
	{ "interrupts", "/s", "interrupts.per_s", 1 },
	{ "softirqs", "/s", "softirqs.per_s", 1 },
	{ "major page faults", "/s", "memory.majflt_per_s", 1 },
	{ "memory available", "MB", "memory.available_bytes", 1e-6 },
	{ "NUMA remote ratio", "", "numa.remote_ratio", 1 },
	{ "PSI cpu some", "%", "pressure.cpu.some_pct", 1 },
	{ "PSI memory some", "%", "pressure.memory.some_pct", 1 },
	{ "PSI io some", "%", "pressure.io.some_pct", 1 },
	{ "disk read", "MB/s", "disks[].read_bytes_per_s", 1e-6 },
	{ "disk write", "MB/s", "disks[].write_bytes_per_s", 1e-6 },
	{ "disk util (busiest)", "%", "disks[]^util_pct", 1 },
	{ "network rx", "MB/s", "net.interfaces[].rx_bytes_per_s", 1e-6 },
	{ "network tx", "MB/s", "net.interfaces[].tx_bytes_per_s", 1e-6 },
	{ "TCP retransmits", "/s", "net.tcp_retrans_per_s", 1 },
	{ "QAT fw requests", "/s", "accel.qat[].requests_per_s", 1 },
	{ "GPU util (busiest)", "%", "accel.gpu[]^util_pct", 1 },
	{ "GPU memory used", "MB", "accel.gpu[].mem_used_bytes", 1e-6 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* mean, p95 (nearest rank) and max of row @r over @doc's samples; false when none. */
static bool row_stats(const json_t *doc, size_t r, double *mean, double *p95, double *max)
{
	const json_t *samples = json_object_get(doc, "samples");
	size_t n = json_array_size(samples), k = 0;
	double *v = pl_xmalloc((n ? n : 1) * sizeof(double)), sum = 0;
	for (size_t i = 0; i < n; i++) {
		double x = value(json_array_get(samples, i), rows[r].spec) * rows[r].scale;
		if (isfinite(x)) {
			v[k++] = x;
			sum += x;
		}
	}
	if (!k) {
		free(v);
		return false;
	}
	qsort(v, k, sizeof(double), cmp_double);
	*mean = sum / (double)k;
	size_t rank = (size_t)ceil(0.95 * (double)k);
	*p95 = v[rank ? rank - 1 : 0];
	*max = v[k - 1];
	free(v);
	return true;
}

static void summary_md(struct pl_buf *b, const json_t *doc)
{
	pl_buf_puts(b, "| series | unit | mean | p95 | max |\n|---|---|---|---|---|\n");
	for (size_t r = 0; r < NROWS; r++) {
		double mean, p95, max;
		char a[32], c[32], d[32];
		if (row_stats(doc, r, &mean, &p95, &max))
			pl_buf_printf(b, "| %s | %s | %s | %s | %s |\n", rows[r].label,
				      rows[r].unit, pl_fmt_num(a, sizeof(a), mean),
				      pl_fmt_num(c, sizeof(c), p95), pl_fmt_num(d, sizeof(d), max));
	}
}

static void summary_term(FILE *f, const json_t *doc, const char *path)
{
	fprintf(f, "%s: %lld samples of %s s, %s s in all%s\n", path, pl_json_int(doc, "nsamples"),
		pl_fmt_num((char[32]){ 0 }, 32, pl_json_num(doc, "interval_s")),
		pl_fmt_num((char[32]){ 0 }, 32, pl_json_num(doc, "elapsed_s")),
		json_is_true(json_object_get(doc, "interrupted")) ? " (interrupted)" : "");
	fprintf(f, "  %-22s %-5s %10s %10s %10s\n", "series", "unit", "mean", "p95", "max");
	for (size_t r = 0; r < NROWS; r++) {
		double mean, p95, max;
		char a[32], c[32], d[32];
		if (row_stats(doc, r, &mean, &p95, &max))
			fprintf(f, "  %-22s %-5s %10s %10s %10s\n", rows[r].label, rows[r].unit,
				pl_fmt_num(a, sizeof(a), mean), pl_fmt_num(c, sizeof(c), p95),
				pl_fmt_num(d, sizeof(d), max));
	}
}

static void command_line(struct pl_buf *b, const json_t *doc, bool html)
{
	const json_t *cmd = json_object_get(doc, "command");
	const json_t *res = json_object_get(doc, "command_result");
	if (!json_is_array(cmd) || !json_is_object(res))
		return;
	pl_autofree char *argv = NULL;
	struct pl_buf a = { 0 };
	size_t i;
	const json_t *x;
	json_array_foreach(cmd, i, x) pl_buf_printf(&a, "%s%s", i ? " " : "", json_string_value(x));
	argv = pl_buf_steal(&a);
	char st[48];
	if (json_is_integer(json_object_get(res, "exit_status")))
		snprintf(st, sizeof(st), "exit %lld", pl_json_int(res, "exit_status"));
	else
		snprintf(st, sizeof(st), "signal %lld", pl_json_int(res, "signal"));
	if (html) {
		pl_buf_puts(b, "<p>Command <code>");
		pl_html_escape(b, argv);
	} else {
		pl_autofree char *code = pl_report_md_code_text(argv);
		pl_buf_puts(b, "Command ");
		pl_buf_puts(b, code);
	}
	pl_buf_printf(b, "%s: %s, its own CPU: user %.3f s, system %.3f s, wall %.3f s%s\n",
		      html ? "</code>" : "", st, pl_json_num(res, "user_s"),
		      pl_json_num(res, "system_s"), pl_json_num(res, "wall_s"),
		      html ? "</p>" : "\n");
}

static void html_doc(struct pl_buf *b, const json_t *doc, const char *path)
{
	static const char
		*const user[] = { "user", "nice", NULL },
		       *const sys[] = { "system", NULL }, *const irq[] = { "irq", "softirq", NULL },
		       *const iow[] = { "iowait", NULL }, *const stl[] = { "steal", NULL };
	pl_buf_puts(b, "<section><h2>");
	pl_html_escape(b, path);
	pl_buf_printf(b, "</h2><p>%lld samples, every %s s, started ", pl_json_int(doc, "nsamples"),
		      pl_fmt_num((char[32]){ 0 }, 32, pl_json_num(doc, "interval_s")));
	pl_html_escape(b, pl_json_str(doc, "started_at"));
	pl_buf_puts(b, " on ");
	pl_html_escape(b, pl_json_str(json_object_get(doc, "host"), "hostname"));
	pl_buf_puts(b, "</p>\n");
	command_line(b, doc, true);
	const struct series cpu_all[] = {
		{ "user", "cpu.all.user", NULL, 1 },	   { "nice", "cpu.all.nice", NULL, 1 },
		{ "system", "cpu.all.system", NULL, 1 },   { "irq", "cpu.all.irq", NULL, 1 },
		{ "softirq", "cpu.all.softirq", NULL, 1 }, { "iowait", "cpu.all.iowait", NULL, 1 },
		{ "steal", "cpu.all.steal", NULL, 1 },
	};
	chart(b, doc, "CPU, all CPUs (stacked)", "%", cpu_all, NS(cpu_all), true, 100, -1);
	const json_t *first = json_array_get(json_object_get(doc, "samples"), 0);
	size_t i;
	const json_t *c;
	json_array_foreach(json_object_get(json_object_get(first, "cpu"), "per_cpu"), i, c)
	{
		if (i >= 64)
			break;
		long cpu = (long)json_integer_value(json_object_get(c, "cpu"));
		const struct series per[] = {
			{ "user+nice", NULL, user, 1 },	 { "system", NULL, sys, 1 },
			{ "irq+softirq", NULL, irq, 1 }, { "iowait", NULL, iow, 1 },
			{ "steal", NULL, stl, 1 },
		};
		char t[48];
		snprintf(t, sizeof(t), "CPU %ld (stacked)", cpu);
		chart(b, doc, t, "%", per, NS(per), true, 100, cpu);
	}
	const struct series intr[] = { { "interrupts", "interrupts.per_s", NULL, 1 },
				       { "softirqs", "softirqs.per_s", NULL, 1 },
				       { "context switches", "ctxt_per_s", NULL, 1 } };
	chart(b, doc, "Interrupts, softirqs and context switches per second", "/s", intr, NS(intr),
	      false, 0, -1);
	const struct series numa[] = { { "remote ratio", "numa.remote_ratio", NULL, 1 } };
	chart(b, doc, "NUMA remote ratio (other / (local + other) page allocations)", "", numa,
	      NS(numa), false, 1, -1);
	const struct series disk[] = { { "read", "disks[].read_bytes_per_s", NULL, 1e-6 },
				       { "write", "disks[].write_bytes_per_s", NULL, 1e-6 } };
	chart(b, doc, "Disks, all devices", "MB/s", disk, NS(disk), false, 0, -1);
	const struct series net[] = { { "rx", "net.interfaces[].rx_bytes_per_s", NULL, 1e-6 },
				      { "tx", "net.interfaces[].tx_bytes_per_s", NULL, 1e-6 } };
	chart(b, doc, "Network, all interfaces", "MB/s", net, NS(net), false, 0, -1);
	const struct series psi[] = { { "cpu", "pressure.cpu.some_pct", NULL, 1 },
				      { "memory", "pressure.memory.some_pct", NULL, 1 },
				      { "io", "pressure.io.some_pct", NULL, 1 } };
	chart(b, doc, "Pressure stall, some tasks (% of the interval)", "%", psi, NS(psi), false,
	      100, -1);
	/* accelerators only when the run saw one (QAT fw_counters, NVML GPUs) */
	bool qat = false, gpu = false;
	const json_t *samples = json_object_get(doc, "samples");
	for (size_t k = 0; k < json_array_size(samples); k++) {
		const json_t *a = json_object_get(json_array_get(samples, k), "accel");
		qat = qat || json_array_size(json_object_get(a, "qat")) > 0;
		gpu = gpu || json_array_size(json_object_get(a, "gpu")) > 0;
	}
	if (qat) {
		const struct series q[] = {
			{ "requests", "accel.qat[].requests_per_s", NULL, 1 },
			{ "responses", "accel.qat[].responses_per_s", NULL, 1 },
		};
		chart(b, doc, "QAT firmware requests, all devices", "/s", q, NS(q), false, 0, -1);
	}
	if (gpu) {
		const struct series g[] = { { "busiest GPU", "accel.gpu[]^util_pct", NULL, 1 },
					    { "memory (busiest)", "accel.gpu[]^mem_util_pct", NULL,
					      1 } };
		chart(b, doc, "GPU utilization (NVML)", "%", g, NS(g), false, 100, -1);
	}
	pl_buf_puts(b, "<h3>Summary</h3><table><tr><th>series</th><th>unit</th><th>mean</th>"
		       "<th>p95</th><th>max</th></tr>\n");
	for (size_t r = 0; r < NROWS; r++) {
		double mean, p95, max;
		char a[32], d[32], e[32];
		if (row_stats(doc, r, &mean, &p95, &max))
			pl_buf_printf(b,
				      "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</"
				      "td></tr>\n",
				      rows[r].label, rows[r].unit, pl_fmt_num(a, sizeof(a), mean),
				      pl_fmt_num(d, sizeof(d), p95), pl_fmt_num(e, sizeof(e), max));
	}
	pl_buf_puts(b, "</table></section>\n");
}

int pl_monview_write(const char *dir, json_t *const *docs, const char *const *paths, size_t n,
		     FILE *term, const char **why)
{
	int dirfd = pl_outdir_open(dir, why);
	if (dirfd < 0)
		return dirfd;
	struct pl_buf h = { 0 }, m = { 0 };
	pl_buf_puts(&h, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
			"<title>perflab monitor</title><style>body{font-family:sans-serif;"
			"max-width:60em;margin:auto;padding:1em}table{border-collapse:collapse}"
			"td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
			"td:first-child{text-align:left}figure{margin:1em 0}</style></head><body>"
			"<h1>perflab monitor</h1>\n");
	pl_buf_puts(&m, "# perflab monitor\n\n");
	for (size_t i = 0; i < n; i++) {
		html_doc(&h, docs[i], paths[i]);
		pl_autofree char *title = pl_report_md_text(paths[i]);
		pl_autofree char *started = pl_report_md_text(pl_json_str(docs[i], "started_at"));
		pl_buf_printf(&m, "## %s\n\n%lld samples, every %g s, started %s\n\n", title,
			      pl_json_int(docs[i], "nsamples"), pl_json_num(docs[i], "interval_s"),
			      started);
		command_line(&m, docs[i], false);
		summary_md(&m, docs[i]);
		pl_buf_puts(&m, "\n");
		if (term)
			summary_term(term, docs[i], paths[i]);
	}
	pl_buf_puts(&h, "</body></html>\n");
	pl_autofree char *hs = pl_buf_steal(&h);
	pl_autofree char *ms = pl_buf_steal(&m);
	int r = pl_outdir_write(dirfd, "monitor.html", hs);
	if (r == 0)
		r = pl_outdir_write(dirfd, "monitor.md", ms);
	close(dirfd);
	return r;
}

int pl_monview_from(char *const *from, const char *dir, FILE *term, char *err, size_t errlen)
{
	size_t n = 0, nmon = 0;
	const char *other = NULL, *mon = NULL;
	for (; from && from[n]; n++) {
		if (pl_monview_is_monitor(from[n]))
			nmon++, mon = from[n];
		else
			other = from[n];
	}
	if (nmon == 0)
		return 1;
	if (other) {
		snprintf(err, errlen,
			 "'%s' is a monitor document and '%s' is not: give monitor documents on "
			 "their own (perflab report --from monitor.json)",
			 mon, other);
		return -EINVAL;
	}
	json_t **docs = pl_xcalloc(n, sizeof(*docs));
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		if (!(docs[i] = pl_monview_load(from[i], err, errlen)))
			r = -EINVAL;
	const char *why = NULL;
	if (r == 0 &&
	    (r = pl_monview_write(dir, docs, (const char *const *)from, n, term, &why)) < 0) {
		if (why)
			snprintf(err, errlen,
				 "refusing report directory '%s': %s (choose another with -o DIR)",
				 dir, why);
		else
			snprintf(err, errlen,
				 "cannot write '%s/monitor.html': %s (choose another -o DIR)", dir,
				 strerror(-r));
	}
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return r;
}
