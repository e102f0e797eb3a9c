/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text report, the JSON document, folded stacks and flame graphs of a profiling run
 * (profile/output.h). */
#include "profile/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/json.h"
#include "profile/flame.h"
#include "util/cleanup.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"

void pl_pout_init(struct pl_pout *po, const struct pl_psession *s, const struct pl_preport *r,
		  const struct pl_timeline *tl)
{
	static const char *const cg_names[] = {
		[PL_CG_NONE] = "none", [PL_CG_FP] = "fp", [PL_CG_DWARF] = "dwarf"
	};
	*po = (struct pl_pout){
		.what = s->what,
		.pe = &s->pe,
		.p = &s->prof,
		.r = r,
		.mk = s->markers.hdr ? &s->markers : NULL,
		.tl = tl,
		.sc = s->sc,
		.locks = s->locks,
		.wall_ns = s->t1 - s->t0,
		.freq = (int)s->cfg.pe.freq,
		.period = s->cfg.pe.period,
		.cg = cg_names[s->cfg.pe.cg],
		.have_child = s->have_child,
		.child_status = s->child_status,
		.interrupted = s->interrupted,
		.pid_target = s->cfg.pids != NULL,
	};
}

bool pl_region_filter_keep(void *ctx, const struct pl_psample *s)
{
	const struct pl_region_filter *f = ctx;
	return pl_markers_inside(f->m, f->idx, s->tid, s->time);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* Time, instances and samples of region @i. */
static void region_stats(const struct pl_markring *mk, const struct pl_profile *p, size_t i,
			 uint64_t *ns, uint64_t *inst, uint64_t *smp)
{
	*ns = *inst = *smp = 0;
	for (size_t k = 0; k < mk->nwins; k++)
		if (mk->wins[k].name == i) {
			*ns += mk->wins[k].end - mk->wins[k].begin;
			(*inst)++;
		}
	if (!*inst)
		return;
	for (size_t k = 0; k < p->nsamples; k++)
		if (pl_markers_inside(mk, (int)i, p->samples[k].tid, p->samples[k].time))
			(*smp)++;
}

/* What perf_event_open's errno @e for the cycles event means (perf_event_open(2), ERRORS):
 * ENOENT/ENODEV/ENXIO, no such hardware event, is a machine without a PMU perflab may use
 * (most VMs expose none); EOPNOTSUPP a PMU that cannot sample (no overflow interrupt). */
static const char *fallback_why(int e)
{
	if (e == EOPNOTSUPP)
		return "this PMU cannot sample (no overflow interrupt)";
	return "this machine exposes no hardware PMU (as most VMs)";
}

char *pl_pout_fallback_sentence(int e)
{
	return pl_xasprintf("no hardware cycles event: %s; sampling cpu-clock instead",
			    fallback_why(e));
}

/* "command    exited with status 3" when the command did not exit 0. */
static void print_status(FILE *out, const struct pl_pout *o)
{
	if (!o->have_child)
		return;
	if (o->interrupted)
		fprintf(out, "command    interrupted (Ctrl-C): the profile covers the run until "
			     "then\n");
	else if (WIFEXITED(o->child_status) && WEXITSTATUS(o->child_status))
		fprintf(out, "command    exited with status %d\n", WEXITSTATUS(o->child_status));
	else if (WIFSIGNALED(o->child_status))
		fprintf(out, "command    killed by signal %d\n", WTERMSIG(o->child_status));
}

/* --call-graph dwarf: the bytes of user stack actually copied per sample (at most). The
 * kernel shrinks a copy that would take the record past 64 KiB (the u16 record size;
 * perf_sample_ustack_size() in kernel/events/core.c), so near 65528 it copies less than
 * asked, by the size of the rest of the record. */
uint32_t pl_pout_stack_copied(const struct pl_pe_session *s, const struct pl_profile *p)
{
	uint32_t asked = s->attr.sample_stack_user;
	return p->stack_copied_max && p->stack_copied_max < asked ? (uint32_t)p->stack_copied_max
								  : asked;
}

/* The advice for truncated stacks: a larger --stack-size, or, where the kernel already
 * copies all it can, frame pointers. */
const char *pl_pout_stack_advice(const struct pl_pe_session *s, const struct pl_profile *p)
{
	uint32_t asked = s->attr.sample_stack_user;
	if (asked < PL_PE_STACK_USER_MAX && pl_pout_stack_copied(s, p) == asked)
		return "raise --stack-size (at most 65528)";
	return "the kernel copies no more (a record stays under 64 KiB): build with "
	       "-fno-omit-frame-pointer and use --call-graph fp";
}

bool pl_pout_text_shows_samples(bool syscalls, bool samples, bool tree, bool timeline, bool region)
{
	return !syscalls || samples || tree || timeline || region;
}

void pl_pout_text(FILE *out, const struct pl_pout *o)
{
	const char *b = pl_style(out, "bold"), *z = pl_style(out, "reset");
	const struct pl_pe_session *s = o->pe;
	const struct pl_profile *p = o->p;
	const struct pl_preport *r = o->r;
	const struct pl_markring *mk = o->mk;
	const struct pl_timeline *tl = o->tl;
	const struct pl_syscalls *sc = o->sc;
	fprintf(out, "%sprofile of %s%s\n", b, o->what, z);
	/* --syscalls asks for the syscall summary: it comes first, and the sampling part
	 * (mostly the tracing's own cost then) only on request */
	bool samples = pl_pout_text_shows_samples(sc != NULL, o->samples, o->tree, tl != NULL,
						  o->region != NULL);
	if (!samples) {
		fprintf(out, "duration   %.3f s\n", (double)o->wall_ns / 1e9);
		print_status(out, o);
		pl_syscalls_print(sc, out);
		if (o->locks)
			pl_futex_print(o->locks, out, o->top);
		if (s->nfds == 0)
			fprintf(out, "\nno samples taken: --samples adds the sampling tables "
				     "(they show mostly the cost of the syscall tracing)\n");
		else
			fprintf(out,
				"\n%llu samples taken in parallel are not shown: --samples prints "
				"the sampling tables (they show mostly the cost of the syscall "
				"tracing)\n",
				(unsigned long long)p->nsamples);
		return;
	}
	fprintf(out, "event      %s", s->event_name);
	if (s->fell_back) {
		pl_autofree char *fb = pl_pout_fallback_sentence(s->fallback_errno);
		fprintf(out, " (%s)", fb);
	}
	if (o->period)
		fprintf(out, ", every %llu events", (unsigned long long)o->period);
	else
		fprintf(out, ", %d Hz", o->freq);
	fprintf(out, ", callchains %s%s\n", o->cg, s->user_only ? ", user space only" : "");
	fprintf(out, "duration   %.3f s\n", (double)o->wall_ns / 1e9);
	if (p->unwinder) {
		uint32_t copied = pl_pout_stack_copied(s, p);
		if (copied < s->attr.sample_stack_user)
			fprintf(out,
				"stacks     %u bytes of user stack asked per sample, at most %u "
				"copied (the kernel keeps a record under 64 KiB); ",
				(unsigned)s->attr.sample_stack_user, (unsigned)copied);
		else
			fprintf(out, "stacks     %u bytes of user stack copied per sample; ",
				(unsigned)copied);
		if (p->dwarf_truncated)
			fprintf(out,
				"%llu of %zu samples (%.1f%%) truncated: their stack went on past "
				"the copy, so outer callers are missing (%s)\n",
				(unsigned long long)p->dwarf_truncated, p->nsamples,
				pct(p->dwarf_truncated, p->nsamples), pl_pout_stack_advice(s, p));
		else
			fprintf(out, "no stack was truncated\n");
	}
	uint64_t all = p->nsamples;
	fprintf(out, "samples    %llu", (unsigned long long)all);
	if (o->region)
		fprintf(out, " (%llu in region '%s', %.1f%%)", (unsigned long long)r->nsamples,
			o->region, pct(r->nsamples, all));
	/* A share p of n samples is binomial: its standard deviation sqrt(p(1-p)/n) is at
	 * most 50/sqrt(n) points (p = 50%); below 100 samples that is over 5 points, and a
	 * table of shares from 1 sample says 100% of nothing. */
	if (r->nsamples > 0 && r->nsamples < 100)
		fprintf(out,
			"  (few: a share here is uncertain by up to %.0f points, 1 sd; run longer "
			"or raise -F)",
			50.0 / sqrt((double)r->nsamples));
	fputc('\n', out);
	fprintf(out, "lost       %llu records, %llu samples (%.2f%% of samples)\n",
		(unsigned long long)p->lost, (unsigned long long)p->lost_samples,
		pct(p->lost + p->lost_samples, all + p->lost + p->lost_samples));
	fprintf(out, "user       %.1f%%   kernel %.1f%%%s\n",
		pct(r->nsamples - r->kernel, r->nsamples), pct(r->kernel, r->nsamples),
		r->kernel_hidden ? "  (kernel symbols hidden: kernel.kptr_restrict or no "
				   "CAP_SYSLOG; kernel samples are one [kernel] bucket)"
				 : "");
	print_status(out, o);
	if (sc)
		pl_syscalls_print(sc, out);
	if (o->locks)
		pl_futex_print(o->locks, out, o->top);
	if (mk && mk->nnames) {
		fprintf(out, "\n%sregions%s (per thread, CLOCK_MONOTONIC windows)\n", b, z);
		fprintf(out, "  %-24s %10s %10s %9s %7s\n", "name", "time ms", "instances",
			"samples", "%");
		for (size_t i = 0; i < mk->nnames; i++) {
			uint64_t ns, inst, smp;
			region_stats(mk, p, i, &ns, &inst, &smp);
			if (!inst)
				continue;
			fprintf(out, "  %-24s %10.3f %10llu %9llu %6.1f%%\n", mk->names[i],
				(double)ns / 1e6, (unsigned long long)inst, (unsigned long long)smp,
				pct(smp, all));
		}
		if (mk->npoints)
			fprintf(out, "  %llu point marks\n", (unsigned long long)mk->npoints);
		if (mk->dropped)
			fprintf(out, "  %llu marker records dropped (ring full)\n",
				(unsigned long long)mk->dropped);
	}
	if (!r->nsamples)
		fprintf(out, "\nno samples: the target used no CPU while it was profiled%s\n",
			o->pid_target ? " (an idle process)" : "");
	/* threads with samples, most first, at most --top of them (all are in --json) */
	size_t *ti = pl_xcalloc(p->nthreads + 1, sizeof(size_t)), nt = 0;
	for (size_t i = 0; i < p->nthreads; i++)
		if (r->thread_samples[i])
			ti[nt++] = i;
	for (size_t i = 1; i < nt; i++) /* insertion sort: stable, by samples descending */
		for (size_t k = i; k > 0 && r->thread_samples[ti[k]] > r->thread_samples[ti[k - 1]];
		     k--) {
			size_t x = ti[k];
			ti[k] = ti[k - 1];
			ti[k - 1] = x;
		}
	fprintf(out, "\n%sthreads%s\n  %8s %8s %-16s %9s %7s %8s\n", b, z, "pid", "tid", "comm",
		"samples", "%", "kernel%");
	uint64_t rest = 0;
	for (size_t n = 0; n < nt; n++) {
		size_t i = ti[n];
		if ((int)n >= o->top) {
			rest += r->thread_samples[i];
			continue;
		}
		const struct pl_thread *t = &p->threads[i];
		fprintf(out, "  %8u %8u %-16s %9llu %6.1f%% %7.1f%%\n", t->pid, t->tid, t->comm,
			(unsigned long long)r->thread_samples[i],
			pct(r->thread_samples[i], r->nsamples),
			pct(r->thread_kernel[i], r->thread_samples[i]));
	}
	if (nt > (size_t)o->top)
		fprintf(out, "  ... %zu more threads with %llu samples (%.1f%%; all in --json)\n",
			nt - (size_t)o->top, (unsigned long long)rest, pct(rest, r->nsamples));
	free(ti);
	fprintf(out, "\n%scpus%s\n", b, z);
	for (size_t c = 0; c < r->ncpu; c++)
		if (r->cpu_samples[c])
			fprintf(out, "  cpu%-4zu %9llu %6.1f%%\n", c,
				(unsigned long long)r->cpu_samples[c],
				pct(r->cpu_samples[c], r->nsamples));
	/* On a terminal, long (C++) names in the tables and the tree are shortened so a row
	 * fits the width; to a file or pipe they are printed whole, like perf report. */
	struct winsize ws;
	size_t cols = isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col
			      ? ws.ws_col
			      : 0;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *ord = pl_preport_order(r, pass == 1);
		fprintf(out, "\n%stop functions by %s%s\n  %7s %7s %9s  %s\n", b,
			pass ? "total (with callees)" : "self", z, "self%", "total%", "samples",
			"function [module]");
		size_t rows = 0;
		while (rows < r->nfuncs && (int)rows < o->top &&
		       (pass ? r->funcs[ord[rows]].total : r->funcs[ord[rows]].self))
			rows++;
		/* the rows' names shortened together, so different names stay apart */
		char **nm = NULL;
		if (cols) {
			const char **names = pl_xmalloc((rows + 1) * sizeof(char *));
			size_t *room = pl_xmalloc((rows + 1) * sizeof(size_t));
			for (size_t i = 0; i < rows; i++) {
				const struct pl_func *f = &r->funcs[ord[i]];
				names[i] = f->name;
				/* 29 columns of numbers, then "name [module]" */
				room[i] = cols > 29 + strlen(f->module) + 3 + 40
						  ? cols - 29 - strlen(f->module) - 3
						  : 40;
			}
			nm = pl_names_abbrev(names, room, rows);
			free(room);
			free(names);
		}
		for (size_t i = 0; i < rows; i++) {
			const struct pl_func *f = &r->funcs[ord[i]];
			uint64_t v = pass ? f->total : f->self;
			fprintf(out, "  %6.2f%% %6.2f%% %9llu  %s %s%s%s\n",
				pct(f->self, r->nsamples), pct(f->total, r->nsamples),
				(unsigned long long)v, nm ? nm[i] : f->name,
				f->module[0] == '[' ? "" : "[", f->module,
				f->module[0] == '[' ? "" : "]");
			if (nm)
				free(nm[i]);
		}
		free(nm);
		free(ord);
	}
	if (o->tree) {
		fprintf(out, "\n%scall tree%s (top-down, branches under 1%% pruned)\n", b, z);
		pl_preport_write_tree(r, out, 1.0, cols);
	}
	if (tl) {
		fprintf(out, "\n%stimeline%s (%d ms buckets; samples per bucket)\n", b, z,
			(int)tl->bucket_ms);
		for (size_t k = 0; k < tl->nthr + tl->ncpu; k++) {
			bool thr = k < tl->nthr;
			size_t row = thr ? k : k - tl->nthr;
			const uint64_t *v = thr ? tl->thr + row * tl->nb : tl->cpu + row * tl->nb;
			fprintf(out, "  %-22s", thr ? tl->thr_labels[row] : tl->cpu_labels[row]);
			for (size_t i = 0; i < tl->nb; i++)
				fprintf(out, " %llu", (unsigned long long)v[i]);
			fputc('\n', out);
		}
	}
	if (o->off)
		pl_offcpu_text(out, o->off, o->offn, p, o->top, b, z);
}

static json_t *u64a(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

json_t *pl_pout_folded_json(const char *text, const char *key)
{
	json_t *a = json_array();
	if (!text)
		return a;
	char *buf = pl_xstrdup(text);
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *sp = strrchr(line, ' ');
		uint64_t n;
		if (!sp || pl_parse_u64(sp + 1, &n) < 0)
			continue;
		*sp = '\0';
		json_t *x = json_object();
		json_object_set_new(x, "stack", pl_json_string(line));
		json_object_set_new(x, key, json_integer((json_int_t)n));
		json_array_append_new(a, x);
	}
	free(buf);
	return a;
}

/* The folded stacks as [{"stack":"comm;f1;f2","count":N}], the same lines as --folded, so
 * `perflab report --from` can draw the flame graph of a saved profile. */
static json_t *folded_json(const struct pl_preport *r)
{
	pl_autofree char *buf = NULL;
	size_t len = 0;
	if (pl_pout_folded(r, &buf, &len) < 0)
		return json_array();
	return pl_pout_folded_json(buf, "count");
}

json_t *pl_pout_json(const struct pl_pout *o)
{
	const struct pl_pe_session *s = o->pe;
	const struct pl_profile *p = o->p;
	const struct pl_preport *r = o->r;
	const struct pl_timeline *tl = o->tl;
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "target", pl_json_string(o->what));
	json_t *ev = json_object();
	json_object_set_new(ev, "name", pl_json_string(s->event_name));
	pl_autofree char *fb = s->fell_back ? pl_pout_fallback_sentence(s->fallback_errno) : NULL;
	json_object_set_new(ev, "fallback", fb ? pl_json_string(fb) : json_null());
	json_object_set_new(ev, "user_only", json_boolean(s->user_only));
	if (o->period)
		json_object_set_new(ev, "period", json_integer((json_int_t)o->period));
	else
		json_object_set_new(ev, "freq_hz", json_integer(o->freq));
	json_object_set_new(ev, "callchains", pl_json_string(o->cg));
	json_object_set_new(d, "event", ev);
	if (p->unwinder) {
		json_t *dw = json_object();
		json_object_set_new(dw, "stack_size",
				    json_integer((json_int_t)s->attr.sample_stack_user));
		json_object_set_new(dw, "stack_copied_max",
				    json_integer((json_int_t)p->stack_copied_max));
		json_object_set_new(dw, "unwound", json_integer((json_int_t)p->dwarf_unwound));
		json_object_set_new(dw, "truncated", json_integer((json_int_t)p->dwarf_truncated));
		json_object_set_new(dw, "truncated_pct",
				    json_real(pct(p->dwarf_truncated, p->nsamples)));
		json_object_set_new(d, "dwarf", dw);
	}
	json_object_set_new(d, "duration_s", json_real((double)o->wall_ns / 1e9));
	json_object_set_new(d, "samples_total", json_integer((json_int_t)p->nsamples));
	json_object_set_new(d, "samples", json_integer((json_int_t)r->nsamples));
	json_object_set_new(d, "region", pl_json_string(o->region));
	json_object_set_new(d, "lost_records", json_integer((json_int_t)p->lost));
	json_object_set_new(d, "lost_samples", json_integer((json_int_t)p->lost_samples));
	json_object_set_new(
		d, "lost_pct",
		json_real(pct(p->lost + p->lost_samples, p->nsamples + p->lost + p->lost_samples)));
	json_object_set_new(d, "user_pct", json_real(pct(r->nsamples - r->kernel, r->nsamples)));
	json_object_set_new(d, "kernel_pct", json_real(pct(r->kernel, r->nsamples)));
	json_object_set_new(d, "kernel_hidden", json_boolean(r->kernel_hidden));
	if (o->have_child) {
		json_object_set_new(d, "exit_status",
				    json_integer(WIFEXITED(o->child_status)
							 ? WEXITSTATUS(o->child_status)
							 : 128 + WTERMSIG(o->child_status)));
		json_object_set_new(d, "interrupted", json_boolean(o->interrupted));
	}
	json_t *th = json_array();
	for (size_t i = 0; i < p->nthreads; i++) {
		if (!r->thread_samples[i])
			continue;
		const struct pl_thread *t = &p->threads[i];
		json_t *x = json_object();
		json_object_set_new(x, "pid", json_integer(t->pid));
		json_object_set_new(x, "tid", json_integer(t->tid));
		json_object_set_new(x, "comm", pl_json_string(t->comm));
		json_object_set_new(x, "samples", json_integer((json_int_t)r->thread_samples[i]));
		json_object_set_new(x, "pct", json_real(pct(r->thread_samples[i], r->nsamples)));
		json_object_set_new(x, "kernel_pct",
				    json_real(pct(r->thread_kernel[i], r->thread_samples[i])));
		json_array_append_new(th, x);
	}
	json_object_set_new(d, "threads", th);
	json_t *cp = json_array();
	for (size_t c = 0; c < r->ncpu; c++) {
		if (!r->cpu_samples[c])
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "cpu", json_integer((json_int_t)c));
		json_object_set_new(x, "samples", json_integer((json_int_t)r->cpu_samples[c]));
		json_object_set_new(x, "pct", json_real(pct(r->cpu_samples[c], r->nsamples)));
		json_array_append_new(cp, x);
	}
	json_object_set_new(d, "cpus", cp);
	json_t *rg = json_array();
	for (size_t i = 0; o->mk && i < o->mk->nnames; i++) {
		uint64_t ns, inst, smp;
		region_stats(o->mk, p, i, &ns, &inst, &smp);
		if (!inst)
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "name", pl_json_string(o->mk->names[i]));
		json_object_set_new(x, "time_ms", json_real((double)ns / 1e6));
		json_object_set_new(x, "instances", json_integer((json_int_t)inst));
		json_object_set_new(x, "samples", json_integer((json_int_t)smp));
		json_object_set_new(x, "pct", json_real(pct(smp, p->nsamples)));
		json_array_append_new(rg, x);
	}
	json_object_set_new(d, "regions", rg);
	json_object_set_new(d, "marker_points",
			    json_integer(o->mk ? (json_int_t)o->mk->npoints : 0));
	json_object_set_new(d, "marker_dropped",
			    json_integer(o->mk ? (json_int_t)o->mk->dropped : 0));
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *ord = pl_preport_order(r, pass == 1);
		json_t *a = json_array();
		for (size_t i = 0; i < r->nfuncs && (int)i < o->top; i++) {
			const struct pl_func *f = &r->funcs[ord[i]];
			if (!(pass ? f->total : f->self))
				break;
			json_t *x = json_object();
			json_object_set_new(x, "function", pl_json_string(f->name));
			if (f->mangled)
				json_object_set_new(x, "mangled", pl_json_string(f->mangled));
			json_object_set_new(x, "module", pl_json_string(f->module));
			json_object_set_new(x, "kernel", json_boolean(f->kernel));
			json_object_set_new(x, "self", json_integer((json_int_t)f->self));
			json_object_set_new(x, "total", json_integer((json_int_t)f->total));
			json_object_set_new(x, "self_pct", json_real(pct(f->self, r->nsamples)));
			json_object_set_new(x, "total_pct", json_real(pct(f->total, r->nsamples)));
			json_array_append_new(a, x);
		}
		free(ord);
		json_object_set_new(d, pass ? "top_total" : "top_self", a);
	}
	if (tl) {
		json_t *t = json_object();
		json_object_set_new(t, "bucket_ms", json_integer((json_int_t)tl->bucket_ms));
		json_object_set_new(t, "buckets", json_integer((json_int_t)tl->nb));
		json_t *ta = json_array();
		for (size_t k = 0; k < tl->nthr; k++) {
			json_t *x = json_object();
			json_object_set_new(x, "tid", json_integer(tl->thr_tid[k]));
			json_object_set_new(x, "label", pl_json_string(tl->thr_labels[k]));
			json_object_set_new(x, "counts", u64a(tl->thr + k * tl->nb, tl->nb));
			json_array_append_new(ta, x);
		}
		json_object_set_new(t, "threads", ta);
		json_t *ca = json_array();
		for (size_t k = 0; k < tl->ncpu; k++) {
			json_t *x = json_object();
			json_object_set_new(x, "cpu", json_integer((json_int_t)k));
			json_object_set_new(x, "counts", u64a(tl->cpu + k * tl->nb, tl->nb));
			json_array_append_new(ca, x);
		}
		json_object_set_new(t, "cpus", ca);
		json_object_set_new(d, "timeline", t);
	}
	if (o->sc)
		json_object_set_new(d, "syscalls", pl_syscalls_json(o->sc));
	if (o->locks)
		json_object_set_new(d, "locks", pl_futex_json(o->locks));
	json_object_set_new(d, "folded", folded_json(r));
	if (o->off)
		json_object_set_new(
			d, "off_cpu",
			pl_offcpu_json(o->off, o->offn, p, o->off_folded, o->wall_folded));
	return d;
}

int pl_pout_folded(const struct pl_preport *r, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	FILE *mem = open_memstream(buf, len);
	if (!mem)
		return -errno;
	pl_preport_write_folded(r, mem);
	fclose(mem);
	return 0;
}

static int write_svg(FILE *out, const char *folded, size_t len, const struct pl_timeline *tl,
		     const char *title, const char *unit)
{
	pl_autoflame struct pl_flame *fl = pl_flame_new();
	if (unit)
		pl_flame_set_unit(fl, unit);
	/* fmemopen reads only ("r"); its buffer argument is not const */
	FILE *in = fmemopen((void *)folded, len ? len : 1, "r");
	if (in && len)
		pl_flame_read(fl, in, NULL);
	if (in)
		fclose(in);
	struct pl_flame_timeline ftl = { 0 };
	if (tl) {
		ftl.nrows = tl->nthr;
		ftl.nbuckets = tl->nb;
		ftl.counts = tl->thr;
		ftl.labels = (const char *const *)tl->thr_labels;
		ftl.bucket_ms = tl->bucket_ms;
	}
	return pl_flame_write_svg(fl, out, title, tl ? &ftl : NULL);
}

int pl_pout_write_stacks(const char *path, bool svg, const char *folded, size_t len,
			 const struct pl_timeline *tl, const char *title, const char *unit,
			 char *err, size_t errlen)
{
	err[0] = '\0';
	struct pl_outfile of;
	int e = pl_outfile_open(&of, path);
	if (e < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-e));
		return PL_EXIT_USAGE;
	}
	if (svg)
		write_svg(of.fp, folded, len, tl, title, unit);
	else
		fwrite(folded, 1, len, of.fp);
	return pl_outfile_close(&of, true) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}

int pl_pout_write(const struct pl_pout *po, const char *path, bool to_stderr, bool json, char *err,
		  size_t errlen)
{
	err[0] = '\0';
	const char *dest = to_stderr ? "stderr" : path && strcmp(path, "-") != 0 ? path : "stdout";
	struct pl_outfile out = { 0 };
	FILE *fp = stderr;
	if (!to_stderr) {
		int e = pl_outfile_open(&out, path);
		if (e < 0) {
			snprintf(err, errlen, "cannot write '%s': %s", dest, strerror(-e));
			return PL_EXIT_USAGE;
		}
		fp = out.fp;
	}
	int e = 0;
	if (json) {
		json_t *doc = pl_pout_json(po);
		e = pl_json_write(fp, doc);
		json_decref(doc);
	} else {
		pl_pout_text(fp, po);
	}
	if (to_stderr) {
		if (e == 0 && (fflush(stderr) != 0 || ferror(stderr)))
			e = -EIO;
	} else {
		int c = pl_outfile_close(&out, e == 0);
		if (e == 0)
			e = c;
	}
	if (e < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", dest, strerror(-e));
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}

int pl_pout_from_folded(const char *path, const char *svg, char *err, size_t errlen)
{
	bool std = strcmp(path, "-") == 0;
	err[0] = '\0';
	if (!svg) {
		snprintf(err, errlen, "--from-folded needs --svg FILE (the flame graph to write)");
		return PL_EXIT_USAGE;
	}
	FILE *in = std ? stdin : fopen(path, "r");
	if (!in) {
		snprintf(err, errlen,
			 "cannot read '%s': %s (give a folded-stacks file, e.g. one written by "
			 "profile --folded FILE, or - for standard input)",
			 path, strerror(errno));
		return PL_EXIT_USAGE;
	}
	pl_autoflame struct pl_flame *fl = pl_flame_new();
	size_t bad = 0;
	int r = pl_flame_read(fl, in, &bad);
	int rerr = ferror(in) ? errno : 0;
	if (!std)
		fclose(in);
	if (r == 0 && rerr) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(rerr));
		return PL_EXIT_USAGE;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s:%zu: %s", std ? "<stdin>" : path, bad,
			 pl_flame_strerror(r));
		return PL_EXIT_USAGE;
	}
	struct pl_outfile of;
	int e = pl_outfile_open(&of, svg);
	if (e < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", svg, strerror(-e));
		return PL_EXIT_USAGE;
	}
	pl_flame_write_svg(fl, of.fp, "Flame graph", NULL);
	return pl_outfile_close(&of, true) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}

char *pl_pout_warn_truncated(const struct pl_pe_session *pe, const struct pl_profile *p)
{
	if (!p->dwarf_truncated)
		return NULL;
	return pl_xasprintf(
		"--call-graph dwarf: %llu of %zu samples (%.1f%%) had a deeper user "
		"stack than the %u bytes copied, so their outer callers are missing; %s",
		(unsigned long long)p->dwarf_truncated, p->nsamples,
		pct(p->dwarf_truncated, p->nsamples), (unsigned)pl_pout_stack_copied(pe, p),
		pl_pout_stack_advice(pe, p));
}

char *pl_pout_warn_lost(const struct pl_profile *p)
{
	if (!p->lost && !p->lost_samples)
		return NULL;
	return pl_xasprintf(
		"%llu records and %llu samples lost (%.2f%%): the ring filled up; "
		"raise --ring-kb or lower -F",
		(unsigned long long)p->lost, (unsigned long long)p->lost_samples,
		pct(p->lost + p->lost_samples, p->nsamples + p->lost + p->lost_samples));
}
