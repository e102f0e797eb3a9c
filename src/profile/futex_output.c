/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --locks: the call sites of the futex waits (symbolised through the profile's address
 * spaces), the text report and the JSON (profile/futex.h). */
#include <stdlib.h>
#include <string.h>

#include "profile/futex.h"
#include "profile/symbols.h"
#include "util/json.h"
#include "util/log.h"
#include "util/str.h"

/* The runtime's own modules: a call site is the first frame outside them. */
static bool runtime_module(const char *name)
{
	static const char *const pre[] = { "libc.so",	"libc-",    "libpthread",
					   "ld-linux",	"ld.so",    "ld64.so",
					   "libstdc++", "libgcc_s", "libc++" };
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strncmp(name, pre[i], strlen(pre[i])) == 0)
			return true;
	return false;
}

/* Frame @a (a return address when @caller: looked up at a - 1) of @as: function and
 * module (malloc'd). */
static void frame_name(struct pl_profile *p, struct pl_aspace *as, uint64_t a, bool caller,
		       char **name, char **module)
{
	uint64_t addr = caller ? a - 1 : a;
	const struct pl_map *m = pl_aspace_find(as, addr);
	const struct pl_sym *s = NULL;
	if (m && m->mod->jit)
		s = pl_jit_resolve(&p->syms, (pid_t)as->pid, addr);
	else if (m)
		s = pl_module_resolve(&p->syms, m->mod, addr - m->start + m->pgoff, NULL);
	*module = pl_xstrdup(!m ? "[unknown]" : m->mod->jit ? "[jit]" : m->mod->name);
	char *dm = s && !p->no_demangle ? pl_demangle(s->name) : NULL;
	*name = dm ? dm : s ? pl_xstrdup(s->name) : pl_xasprintf("0x%llx", (unsigned long long)a);
}

static void stat_merge(struct pl_futex_stat *d, const struct pl_futex_stat *s)
{
	d->waits += s->waits;
	d->total_ns += s->total_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	d->retries += s->retries;
	d->timeouts += s->timeouts;
	d->eintr += s->eintr;
	d->errors += s->errors;
}

static int cmp_site(const void *x, const void *y)
{
	const struct pl_futex_site *a = x, *b = y;
	if (a->st.total_ns != b->st.total_ns)
		return a->st.total_ns > b->st.total_ns ? -1 : 1;
	if (a->st.waits != b->st.waits)
		return a->st.waits > b->st.waits ? -1 : 1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->module, b->module);
}

void pl_futex_sites_build(const struct pl_futex_result *r, struct pl_profile *p,
			  struct pl_futex_site **sites, size_t *n)
{
	struct pl_futex_site *v = pl_xcalloc(r->nstacks + 1, sizeof(*v));
	size_t nv = 0;
	/* r->stacks is sorted by total: the first stack of a site is its heaviest */
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct pl_futex_row *row = &r->stacks[i];
		const struct pl_stack *st =
			row->stack == PL_FUTEX_NO_STACK || row->stack >= p->nstacks
				? NULL
				: &p->stacks[row->stack];
		struct pl_aspace *as = pl_profile_aspace(p, row->pid, row->time);
		uint32_t nf = st ? st->n : 0;
		char **frames = pl_xcalloc(nf + 1, sizeof(char *));
		char *site = NULL, *smod = NULL;
		for (uint32_t k = 0; k < nf; k++) {
			char *nm, *mod;
			frame_name(p, as, p->ips[st->off + k], k > 0, &nm, &mod);
			frames[k] = pl_xasprintf("%s (%s)", nm, mod);
			if (!site && !runtime_module(mod)) {
				site = nm;
				smod = mod;
			} else {
				free(nm);
				free(mod);
			}
		}
		if (!site) {
			site = pl_xstrdup("[unknown]");
			smod = pl_xstrdup(nf ? "[runtime only]" : "[no stack]");
		}
		size_t j = 0;
		while (j < nv && !(strcmp(v[j].name, site) == 0 && strcmp(v[j].module, smod) == 0))
			j++;
		if (j == nv) {
			v[nv++] = (struct pl_futex_site){ site, smod, { 0 }, 0, frames, nf };
		} else {
			free(site);
			free(smod);
			for (uint32_t k = 0; k < nf; k++)
				free(frames[k]);
			free(frames);
		}
		stat_merge(&v[j].st, &row->st);
		v[j].nstacks++;
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_site);
	*sites = v;
	*n = nv;
}

void pl_futex_sites_free(struct pl_futex_site *sites, size_t n)
{
	for (size_t i = 0; sites && i < n; i++) {
		free(sites[i].name);
		free(sites[i].module);
		for (size_t k = 0; k < sites[i].nframes; k++)
			free(sites[i].frames[k]);
		free(sites[i].frames);
	}
	free(sites);
}

/* ns as perf lock contention prints it: "1.61 ms", "92.66 us", "800 ns". */
static const char *dur(char *buf, size_t len, double ns)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
	return buf;
}

static double mean_ns(const struct pl_futex_stat *st)
{
	return st->waits ? (double)st->total_ns / (double)st->waits : 0.0;
}

static void stat_cols(FILE *out, const struct pl_futex_stat *st)
{
	char a[32], b[32], c[32];
	fprintf(out, "  %10llu %12s %12s %12s %8llu", (unsigned long long)st->waits,
		dur(a, sizeof(a), (double)st->total_ns), dur(b, sizeof(b), (double)st->max_ns),
		dur(c, sizeof(c), mean_ns(st)), (unsigned long long)st->retries);
}

void pl_futex_print(const struct pl_futex *f, FILE *out, int top)
{
	const struct pl_futex_result *r = pl_futex_result(f);
	size_t ns;
	const struct pl_futex_site *s = pl_futex_sites(f, &ns);
	const char *b = pl_style(out, "bold"), *z = pl_style(out, "reset");
	uint64_t wall = pl_futex_wall_ns(f);
	char t1[32];
	fprintf(out,
		"\n%slock contention%s (futex waits: syscalls:sys_enter/exit_futex; time = "
		"enter to exit)\n",
		b, z);
	fprintf(out,
		"  %llu waits, %s blocked (%.1f%% of the %.3f s wall time, summed over threads), "
		"%llu retries (EAGAIN), %llu wakes\n",
		(unsigned long long)r->all.waits, dur(t1, sizeof(t1), (double)r->all.total_ns),
		wall ? 100.0 * (double)r->all.total_ns / (double)wall : 0.0, (double)wall / 1e9,
		(unsigned long long)r->all.retries, (unsigned long long)r->wakes);
	fprintf(out, "  %10s %12s %12s %12s %8s   %s\n", "contended", "total wait", "max wait",
		"avg wait", "retries", "call site");
	for (size_t i = 0; i < ns && (int)i < top; i++) {
		stat_cols(out, &s[i].st);
		fprintf(out, "   %s (%s)", s[i].name, s[i].module);
		if (s[i].st.timeouts || s[i].st.eintr || s[i].st.errors)
			fprintf(out, "  [%llu timed out, %llu interrupted, %llu errors]",
				(unsigned long long)s[i].st.timeouts,
				(unsigned long long)s[i].st.eintr,
				(unsigned long long)s[i].st.errors);
		fputc('\n', out);
		for (size_t k = 0; k < s[i].nframes && k < 8; k++)
			fprintf(out, "  %58s %s %s\n", "", k ? "<-" : "  ", s[i].frames[k]);
	}
	if (ns > (size_t)top)
		fprintf(out, "  ... %zu more call sites (--top, --json has all)\n",
			ns - (size_t)top);
	fprintf(out, "\n  %10s %12s %12s %12s %8s   %s\n", "contended", "total wait", "max wait",
		"avg wait", "retries", "lock (pid:address)");
	for (size_t i = 0; i < r->nlocks && (int)i < top; i++) {
		stat_cols(out, &r->locks[i].st);
		if (r->locks[i].uaddr)
			fprintf(out, "   %u:0x%llx\n", r->locks[i].pid,
				(unsigned long long)r->locks[i].uaddr);
		else
			fprintf(out, "   %u:(futex_waitv)\n", r->locks[i].pid);
	}
	fprintf(out, "\n  %10s %12s %12s %12s %8s   %s\n", "contended", "total wait", "max wait",
		"avg wait", "retries", "thread (pid/tid, % of wall blocked)");
	for (size_t i = 0; i < r->nthreads && (int)i < top; i++) {
		stat_cols(out, &r->threads[i].st);
		fprintf(out, "   %u/%u %.1f%%\n", r->threads[i].pid, r->threads[i].tid,
			wall ? 100.0 * (double)r->threads[i].st.total_ns / (double)wall : 0.0);
	}
	if (r->joins.waits || r->joins.retries) {
		char t2[32], t3[32];
		fprintf(out,
			"  thread joins (waits for a thread to exit, pthread_join: not lock "
			"contention, not counted above): %llu wait%s, %s blocked, max %s\n",
			(unsigned long long)r->joins.waits, r->joins.waits == 1 ? "" : "s",
			dur(t2, sizeof(t2), (double)r->joins.total_ns),
			dur(t3, sizeof(t3), (double)r->joins.max_ns));
	}
	fprintf(out, "  lost events %llu%s; waits dropped %llu (enter or exit lost)",
		(unsigned long long)r->lost,
		r->lost ? " (waits they cut are dropped, never guessed)" : "",
		(unsigned long long)r->dropped);
	if (r->open_start || r->open_end)
		fprintf(out,
			"; not counted: %llu waits begun before the start, %llu still waiting "
			"at the end",
			(unsigned long long)r->open_start, (unsigned long long)r->open_end);
	fputc('\n', out);
}

static json_t *stat_json(const struct pl_futex_stat *st)
{
	json_t *o = json_object();
	json_object_set_new(o, "contended", json_integer((json_int_t)st->waits));
	json_object_set_new(o, "total_ms", json_real((double)st->total_ns / 1e6));
	json_object_set_new(o, "max_us", json_real((double)st->max_ns / 1e3));
	json_object_set_new(o, "mean_us", json_real(mean_ns(st) / 1e3));
	json_object_set_new(o, "retries", json_integer((json_int_t)st->retries));
	json_object_set_new(o, "timeouts", json_integer((json_int_t)st->timeouts));
	json_object_set_new(o, "interrupted", json_integer((json_int_t)st->eintr));
	json_object_set_new(o, "errors", json_integer((json_int_t)st->errors));
	return o;
}

json_t *pl_futex_json(const struct pl_futex *f)
{
	const struct pl_futex_result *r = pl_futex_result(f);
	size_t ns;
	const struct pl_futex_site *s = pl_futex_sites(f, &ns);
	uint64_t wall = pl_futex_wall_ns(f);
	json_t *d = stat_json(&r->all);
	json_object_set_new(d, "source",
			    pl_json_string("syscalls:sys_enter_futex/sys_exit_futex tracepoints"));
	json_object_set_new(d, "wall_share",
			    json_real(wall ? (double)r->all.total_ns / (double)wall : 0.0));
	json_object_set_new(d, "wakes", json_integer((json_int_t)r->wakes));
	json_object_set_new(d, "lost", json_integer((json_int_t)r->lost));
	json_object_set_new(d, "dropped", json_integer((json_int_t)r->dropped));
	json_object_set_new(d, "open_start", json_integer((json_int_t)r->open_start));
	json_object_set_new(d, "open_end", json_integer((json_int_t)r->open_end));
	json_object_set_new(d, "joins", stat_json(&r->joins));
	json_t *sites = json_array();
	for (size_t i = 0; i < ns; i++) {
		json_t *o = stat_json(&s[i].st);
		json_object_set_new(o, "site", pl_json_string(s[i].name));
		json_object_set_new(o, "module", pl_json_string(s[i].module));
		json_object_set_new(o, "stacks", json_integer((json_int_t)s[i].nstacks));
		json_t *fr = json_array();
		for (size_t k = 0; k < s[i].nframes; k++)
			json_array_append_new(fr, pl_json_string(s[i].frames[k]));
		json_object_set_new(o, "stack", fr);
		json_array_append_new(sites, o);
	}
	json_object_set_new(d, "sites", sites);
	json_t *locks = json_array();
	for (size_t i = 0; i < r->nlocks; i++) {
		json_t *o = stat_json(&r->locks[i].st);
		json_object_set_new(o, "pid", json_integer(r->locks[i].pid));
		char a[32];
		snprintf(a, sizeof(a), "0x%llx", (unsigned long long)r->locks[i].uaddr);
		json_object_set_new(o, "address",
				    r->locks[i].uaddr ? pl_json_string(a) : json_null());
		json_array_append_new(locks, o);
	}
	json_object_set_new(d, "locks", locks);
	json_t *threads = json_array();
	for (size_t i = 0; i < r->nthreads; i++) {
		json_t *o = stat_json(&r->threads[i].st);
		json_object_set_new(o, "pid", json_integer(r->threads[i].pid));
		json_object_set_new(o, "tid", json_integer(r->threads[i].tid));
		json_object_set_new(
			o, "wall_share",
			json_real(wall ? (double)r->threads[i].st.total_ns / (double)wall : 0.0));
		json_array_append_new(threads, o);
	}
	json_object_set_new(d, "threads", threads);
	return d;
}
