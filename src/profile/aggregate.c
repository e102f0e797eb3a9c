/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Aggregation of samples (profile/aggregate.h): per symbol, per callchain (folded stacks),
 * the call tree and the per-thread and per-CPU tables; the same chains of weighted stacks
 * (off-CPU time, profile/offcpu.h). Above 800 lines on purpose: every view is a pass over
 * the same sample table with the same symbol keys. */
#include "profile/aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

static uint64_t str_hash2(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ull;
	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 1099511628211ull;
	return h;
}

/* Functions are keyed by (module, name in the symbol table): two symbols that demangle
 * to the same text (a constructor's C1 and C2 variants) stay two functions, as in perf. */
static const char *func_key(const struct pl_func *f)
{
	return f->mangled ? f->mangled : f->name;
}

static void fhash_insert(uint32_t *t, size_t cap, const struct pl_func *f, uint32_t id)
{
	size_t j = str_hash2(f->module, func_key(f)) & (cap - 1);
	while (t[j])
		j = (j + 1) & (cap - 1);
	t[j] = id + 1;
}

/* The id of function @name (as in the symbol table) of @module, created on first sight;
 * the name is demangled then, once per function, unless @demangle is false. */
static uint32_t intern_func(struct pl_preport *r, const char *module, const char *name, bool kernel,
			    bool demangle)
{
	if ((r->nfuncs + 1) * 2 > r->fhash_cap) {
		size_t cap = r->fhash_cap ? r->fhash_cap * 2 : 256;
		uint32_t *t = pl_xcalloc(cap, sizeof(uint32_t));
		for (size_t i = 0; i < r->nfuncs; i++)
			fhash_insert(t, cap, &r->funcs[i], (uint32_t)i);
		free(r->fhash);
		r->fhash = t;
		r->fhash_cap = cap;
	}
	size_t j = str_hash2(module, name) & (r->fhash_cap - 1);
	while (r->fhash[j]) {
		struct pl_func *f = &r->funcs[r->fhash[j] - 1];
		if (strcmp(func_key(f), name) == 0 && strcmp(f->module, module) == 0)
			return r->fhash[j] - 1;
		j = (j + 1) & (r->fhash_cap - 1);
	}
	if (r->nfuncs == r->capfuncs) {
		r->capfuncs = r->capfuncs ? r->capfuncs * 2 : 256;
		r->funcs = pl_xrealloc(r->funcs, r->capfuncs * sizeof(*r->funcs));
	}
	struct pl_func *f = &r->funcs[r->nfuncs];
	memset(f, 0, sizeof(*f));
	char *d = demangle ? pl_demangle(name) : NULL;
	if (d && strcmp(d, name) != 0) {
		f->name = d;
		f->mangled = pl_xstrdup(name);
	} else {
		free(d);
		f->name = pl_xstrdup(name);
	}
	f->module = pl_xstrdup(module);
	f->kernel = kernel;
	r->fhash[j] = (uint32_t)r->nfuncs + 1;
	return (uint32_t)r->nfuncs++;
}

/* Cache of resolved addresses: (address space, address) -> function id. */
struct addr_cache {
	struct ent {
		const struct pl_aspace *as;
		uint64_t addr;
		uint32_t func;
		uint32_t used;
	} * e;
	size_t cap, n;
};

static uint64_t addr_key(const struct pl_aspace *as, uint64_t a)
{
	uint64_t h = (uint64_t)(uintptr_t)as * 0x9e3779b97f4a7c15ull ^ a;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static struct ent *cache_slot(struct addr_cache *c, const struct pl_aspace *as, uint64_t a)
{
	if ((c->n + 1) * 2 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4096;
		struct ent *e = pl_xcalloc(cap, sizeof(*e));
		for (size_t i = 0; i < c->cap; i++) {
			if (!c->e[i].used)
				continue;
			size_t j = addr_key(c->e[i].as, c->e[i].addr) & (cap - 1);
			while (e[j].used)
				j = (j + 1) & (cap - 1);
			e[j] = c->e[i];
		}
		free(c->e);
		c->e = e;
		c->cap = cap;
	}
	size_t j = addr_key(as, a) & (c->cap - 1);
	while (c->e[j].used && !(c->e[j].as == as && c->e[j].addr == a))
		j = (j + 1) & (c->cap - 1);
	return &c->e[j];
}

/* Kernel addresses of the report, resolved in one pass over kallsyms. */
struct ktab {
	uint64_t *addrs;
	char **names, **mods;
	size_t n;
};

static uint32_t resolve(struct pl_preport *r, struct pl_profile *p, struct pl_aspace *as,
			uint64_t addr, const struct ktab *kt)
{
	if (pl_is_kernel_addr(addr)) {
		if (p->syms.kernel_hidden) {
			r->kernel_hidden = true;
			return intern_func(r, "[kernel]", "[kernel]", true, false);
		}
		size_t lo = 0, hi = kt->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (kt->addrs[mid] < addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		const char *name = NULL, *mod = "";
		if (lo < kt->n && kt->addrs[lo] == addr && kt->names[lo]) {
			name = kt->names[lo];
			mod = kt->mods[lo];
		}
		char mbuf[80];
		if (*mod)
			snprintf(mbuf, sizeof(mbuf), "[%s]", mod);
		else
			snprintf(mbuf, sizeof(mbuf), "[kernel.kallsyms]");
		return intern_func(r, mbuf, name ? name : "[unknown]", true, !p->no_demangle);
	}
	const struct pl_map *m = pl_aspace_find(as, addr);
	if (!m)
		return intern_func(r, "[unknown]", "[unknown]", false, false);
	const struct pl_sym *s = NULL;
	if (m->mod->jit)
		s = pl_jit_resolve(&p->syms, (pid_t)as->pid, addr);
	else
		s = pl_module_resolve(&p->syms, m->mod, addr - m->start + m->pgoff, NULL);
	return intern_func(r, m->mod->jit ? "[jit]" : m->mod->name, s ? s->name : "[unknown]",
			   false, s && !p->no_demangle);
}

/* Distinct (stack, address space, comm) combinations and their counts. */
struct combo {
	uint32_t stack;
	uint32_t as;
	const char *comm;
	uint64_t count;
};

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static int cmp_combo(const void *x, const void *y)
{
	const struct combo *a = x, *b = y;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	if (a->as != b->as)
		return a->as < b->as ? -1 : 1;
	return a->comm < b->comm ? -1 : a->comm > b->comm;
}

/* Sort @cs (@n) and merge equal combos, summing their counts. Returns how many remain. */
static size_t merge_combos(struct combo *cs, size_t n)
{
	qsort(cs, n, sizeof(*cs), cmp_combo);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && cmp_combo(&cs[w - 1], &cs[i]) == 0)
			cs[w - 1].count += cs[i].count;
		else
			cs[w++] = cs[i];
	}
	return w;
}

static void build_chains(struct pl_preport *r, struct pl_profile *p, const struct combo *cs,
			 size_t nc);

int pl_preport_build(struct pl_preport *r, struct pl_profile *p, pl_sample_filter filter,
		     void *fctx)
{
	memset(r, 0, sizeof(*r));
	uint32_t maxcpu = 0;
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].cpu > maxcpu)
			maxcpu = p->samples[i].cpu;
	r->ncpu = maxcpu + 1;
	r->cpu_samples = pl_xcalloc(r->ncpu, sizeof(uint64_t));
	r->thread_samples = pl_xcalloc(p->nthreads + 1, sizeof(uint64_t));
	r->thread_kernel = pl_xcalloc(p->nthreads + 1, sizeof(uint64_t));
	struct combo *cs = pl_xmalloc((p->nsamples + 1) * sizeof(*cs));
	size_t nc = 0;
	/* Address space per sample: cache the last lookup per pid (samples are mostly in
	 * one process). */
	uint32_t last_pid = UINT32_MAX;
	uint64_t last_time = 0;
	struct pl_aspace *last_as = NULL;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pl_psample *s = &p->samples[i];
		if (filter && !filter(fctx, s))
			continue;
		r->nsamples++;
		if (s->kernel)
			r->kernel++;
		r->cpu_samples[s->cpu]++;
		struct pl_thread *t = pl_profile_thread(p, s->pid, s->tid);
		size_t ti = (size_t)(t - p->threads);
		r->thread_samples[ti]++;
		if (s->kernel)
			r->thread_kernel[ti]++;
		if (s->pid != last_pid || s->time < last_time || !last_as || p->nas > 1) {
			last_as = pl_profile_aspace(p, s->pid, s->time);
			last_pid = s->pid;
			last_time = s->time;
		}
		cs[nc++] = (struct combo){ s->stack,
					   last_as ? (uint32_t)(last_as - p->as) : UINT32_MAX,
					   t->comm, 1 };
	}
	nc = merge_combos(cs, nc);
	build_chains(r, p, cs, nc);
	free(cs);
	return 0;
}

/* The chains of the merged combos @cs (@nc, sorted): every address resolved once, kernel
 * ones in one pass over kallsyms; each function's self and total. */
static void build_chains(struct pl_preport *r, struct pl_profile *p, const struct combo *cs,
			 size_t nc)
{
	/* All kernel addresses first (as looked up below: callers at addr - 1). */
	struct ktab kt = { 0 };
	size_t kcap = 0;
	for (size_t i = 0; i < nc; i++) {
		if (cs[i].stack == UINT32_MAX)
			continue;
		const struct pl_stack *st = &p->stacks[cs[i].stack];
		const uint64_t *ips = p->ips + st->off;
		for (uint32_t k = 0; k < st->n; k++) {
			uint64_t a = k ? ips[k] - 1 : ips[k];
			if (!pl_is_kernel_addr(a))
				continue;
			if (kt.n == kcap) {
				kcap = kcap ? kcap * 2 : 256;
				kt.addrs = pl_xrealloc(kt.addrs, kcap * sizeof(uint64_t));
			}
			kt.addrs[kt.n++] = a;
		}
	}
	if (kt.n) {
		qsort(kt.addrs, kt.n, sizeof(uint64_t), cmp_u64);
		size_t u = 0;
		for (size_t i = 0; i < kt.n; i++)
			if (!u || kt.addrs[u - 1] != kt.addrs[i])
				kt.addrs[u++] = kt.addrs[i];
		kt.n = u;
		kt.names = pl_xcalloc(kt.n, sizeof(char *));
		kt.mods = pl_xcalloc(kt.n, sizeof(char *));
		if (pl_kernel_resolve_many(&p->syms, kt.addrs, kt.n, kt.names, kt.mods) < 0)
			p->syms.kernel_hidden = true;
	}
	struct addr_cache cache = { 0 };
	r->chains = pl_xcalloc(nc + 1, sizeof(*r->chains));
	uint8_t *seen = NULL;
	size_t seen_cap = 0;
	for (size_t i = 0; i < nc; i++) {
		/* no stack (a weighted stack the event gave none): one "[no stack]" frame */
		static const struct pl_stack none = { 0, 0, 0 };
		const struct pl_stack *st =
			cs[i].stack == UINT32_MAX ? &none : &p->stacks[cs[i].stack];
		struct pl_aspace *as = cs[i].as == UINT32_MAX ? NULL : &p->as[cs[i].as];
		const uint64_t *ips = p->ips + st->off;
		struct pl_chain *ch = &r->chains[r->nchains++];
		ch->comm = cs[i].comm[0] ? cs[i].comm : "[unknown]";
		ch->count = cs[i].count;
		ch->frames = pl_xmalloc((st->n + 1) * sizeof(uint32_t));
		ch->n = st->n;
		if (!st->n) {
			ch->n = 1;
			ch->frames[0] = intern_func(r, "[unknown]", "[no stack]", false, false);
		}
		for (uint32_t k = 0; k < st->n; k++) {
			/* Return addresses point after the call: look up addr - 1 for callers. */
			uint64_t a = k ? ips[k] - 1 : ips[k];
			struct ent *e = cache_slot(&cache, as, a);
			if (!e->used) {
				uint32_t fid = resolve(r, p, as, a, &kt);
				e = cache_slot(&cache, as,
					       a); /* resolve() does not touch the cache */
				*e = (struct ent){ as, a, fid, 1 };
				cache.n++;
			}
			ch->frames[st->n - 1 - k] = e->func; /* root first */
		}
		if (seen_cap < r->nfuncs) {
			seen_cap = r->nfuncs * 2;
			seen = pl_xrealloc(seen, seen_cap);
		}
		r->funcs[ch->frames[ch->n - 1]].self += ch->count;
		memset(seen, 0, seen_cap);
		for (uint32_t k = 0; k < ch->n; k++) {
			uint32_t f = ch->frames[k];
			if (!seen[f]) {
				seen[f] = 1;
				r->funcs[f].total += ch->count;
			}
		}
	}
	free(seen);
	free(cache.e);
	for (size_t i = 0; i < kt.n; i++) {
		free(kt.names[i]);
		free(kt.mods[i]);
	}
	free(kt.names);
	free(kt.mods);
	free(kt.addrs);
}

int pl_preport_build_weighted(struct pl_preport *r, struct pl_profile *p,
			      const struct pl_pweight *w, size_t n, uint32_t *chain_of)
{
	memset(r, 0, sizeof(*r));
	r->ncpu = 1;
	r->cpu_samples = pl_xcalloc(1, sizeof(uint64_t));
	r->thread_samples = pl_xcalloc(p->nthreads + n + 1, sizeof(uint64_t));
	r->thread_kernel = pl_xcalloc(p->nthreads + n + 1, sizeof(uint64_t));
	struct combo *cs = pl_xmalloc((n + 1) * sizeof(*cs));
	struct combo *keys = pl_xmalloc((n + 1) * sizeof(*keys));
	/* every thread first: creating one may move the others' names */
	for (size_t i = 0; i < n; i++)
		pl_profile_thread(p, w[i].pid, w[i].tid);
	for (size_t i = 0; i < n; i++) {
		struct pl_thread *t = pl_profile_thread(p, w[i].pid, w[i].tid);
		struct pl_aspace *as = pl_profile_aspace(p, w[i].pid, w[i].time);
		cs[i] = (struct combo){ w[i].stack, as ? (uint32_t)(as - p->as) : UINT32_MAX,
					t->comm, w[i].weight };
		keys[i] = cs[i];
		r->nsamples += w[i].weight;
	}
	size_t nc = merge_combos(cs, n);
	build_chains(r, p, cs, nc);
	for (size_t i = 0; chain_of && i < n; i++) {
		const struct combo *c = bsearch(&keys[i], cs, nc, sizeof(*cs), cmp_combo);
		chain_of[i] = (uint32_t)(c - cs);
	}
	free(keys);
	free(cs);
	return 0;
}

void pl_preport_free(struct pl_preport *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfuncs; i++) {
		free(r->funcs[i].name);
		free(r->funcs[i].mangled);
		free(r->funcs[i].module);
	}
	free(r->funcs);
	for (size_t i = 0; i < r->nchains; i++)
		free(r->chains[i].frames);
	free(r->chains);
	free(r->cpu_samples);
	free(r->thread_samples);
	free(r->thread_kernel);
	free(r->fhash);
	memset(r, 0, sizeof(*r));
}

static const struct pl_preport *order_r;
static bool order_total;

static int cmp_order(const void *x, const void *y)
{
	const struct pl_func *a = &order_r->funcs[*(const uint32_t *)x];
	const struct pl_func *b = &order_r->funcs[*(const uint32_t *)y];
	uint64_t va = order_total ? a->total : a->self, vb = order_total ? b->total : b->self;
	if (va != vb)
		return va > vb ? -1 : 1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->module, b->module);
}

uint32_t *pl_preport_order(const struct pl_preport *r, bool by_total)
{
	uint32_t *o = pl_xmalloc((r->nfuncs + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < r->nfuncs; i++)
		o[i] = (uint32_t)i;
	order_r = r;
	order_total = by_total;
	qsort(o, r->nfuncs, sizeof(uint32_t), cmp_order);
	return o;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Length of the operator token at @s when @s follows "operator" (the brackets in
 * "operator<<", "operator->", "operator()" are part of the name), else 0. */
static size_t operator_len(const char *start, const char *s)
{
	if ((size_t)(s - start) < 8 || strncmp(s - 8, "operator", 8) != 0)
		return 0;
	if (s - start > 8 && (s[-9] == '_' || (s[-9] >= 'a' && s[-9] <= 'z') ||
			      (s[-9] >= 'A' && s[-9] <= 'Z') || (s[-9] >= '0' && s[-9] <= '9')))
		return 0;
	static const char *const ops[] = { "<=>", "<<=", ">>=", "->*", "<<", ">>", "<=",
					   ">=",  "->",	 "()",	"<",   ">",  NULL };
	for (int i = 0; ops[i]; i++)
		if (strncmp(s, ops[i], strlen(ops[i])) == 0)
			return strlen(ops[i]);
	return 0;
}

/* Length of a token at @s whose brackets are not group brackets: an operator name,
 * "->" anywhere (Rust's "Fn(&str) -> bool", C++'s "decltype(a->b)") and
 * "(anonymous namespace)"; else 0. */
static size_t token_len(const char *start, const char *s)
{
	size_t op = operator_len(start, s);
	if (op)
		return op;
	if (strncmp(s, "->", 2) == 0)
		return s[2] == '*' ? 3 : 2;
	if (strncmp(s, "(anonymous namespace)", 21) == 0)
		return 21;
	return 0;
}

/* A bracket group of a name: byte offsets of '<' or '(' and of its match. */
struct agroup {
	size_t open, close;
	int cls;   /* collapse order, 0 first; -1: never (collapsing would not shorten) */
	int depth; /* groups around it */
};

/* A name parsed for shortening. */
struct aname {
	const char *s;
	size_t len;
	struct agroup *g; /* in collapse order */
	size_t ng;
	bool *top;  /* top[i]: byte i is outside every group and brace */
	size_t fin; /* open of the final parameter list, or SIZE_MAX */
	bool *keep; /* keep[i]: byte i must stay (it tells the name from a look-alike) */
};

static int cmp_agroup(const void *x, const void *y)
{
	const struct agroup *a = x, *b = y;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;	   /* innermost first */
	return a->open > b->open ? -1 : a->open < b->open; /* then the last first */
}

/* Groups and their collapse order: template argument lists outside the final parameter
 * list (0), other parenthesised groups outside it (1: a lambda's signature, decltype),
 * template arguments inside it (2), parenthesised groups inside it (3), the final
 * parameter list (4). */
static void aname_parse(struct aname *a, const char *s)
{
	*a = (struct aname){ .s = s, .len = strlen(s), .fin = SIZE_MAX };
	a->top = pl_xcalloc(a->len + 1, sizeof(bool));
	a->keep = pl_xcalloc(a->len + 1, sizeof(bool));
	size_t *stack = pl_xmalloc((a->len + 1) * sizeof(size_t));
	size_t sp = 0, cap = 0;
	int braces = 0;
	for (size_t i = 0; i < a->len;) {
		size_t t = token_len(s, s + i);
		for (size_t k = i; k < i + (t ? t : 1); k++)
			a->top[k] = !sp && !braces;
		if (t) {
			i += t;
			continue;
		}
		char c = s[i];
		if (c == '<' || c == '(') {
			stack[sp++] = i;
		} else if ((c == '>' || c == ')') && sp &&
			   s[stack[sp - 1]] == (c == '>' ? '<' : '(')) {
			if (a->ng == cap) {
				cap = cap ? cap * 2 : 16;
				a->g = pl_xrealloc(a->g, cap * sizeof(*a->g));
			}
			sp--;
			a->g[a->ng++] = (struct agroup){ stack[sp], i, 0, (int)sp };
		} else if (c == '{') {
			braces++;
		} else if (c == '}' && braces) {
			braces--;
		}
		i++;
	}
	free(stack);
	for (size_t k = 0; k < a->ng; k++)
		if (s[a->g[k].open] == '(' && a->top[a->g[k].open])
			a->fin = a->g[k].open; /* groups are in order of their close */
	for (size_t k = 0; k < a->ng; k++) {
		struct agroup *g = &a->g[k];
		bool paren = s[g->open] == '(';
		bool in_fin = false;
		for (size_t j = 0; j < a->ng; j++)
			if (a->g[j].open == a->fin && g->open > a->fin && g->close < a->g[j].close)
				in_fin = true;
		if (g->close - g->open - 1 <= 3)
			g->cls = -1;
		else if (g->open == a->fin)
			g->cls = 4;
		else
			g->cls = (in_fin ? 2 : 0) + paren;
	}
	if (a->ng)
		qsort(a->g, a->ng, sizeof(*a->g), cmp_agroup);
}

static void aname_free(struct aname *a)
{
	free(a->g);
	free(a->top);
	free(a->keep);
}

/* Does collapsing group @g hide a byte that must stay? */
static bool aname_hides_kept(const struct aname *a, const struct agroup *g)
{
	for (size_t i = g->open + 1; i < g->close; i++)
		if (a->keep[i])
			return true;
	return false;
}

/* The name with the groups @coll marks collapsed to "<...>" / "(...)"; pos[i] (when
 * @pos) gets the output offset of byte i, SIZE_MAX when hidden. Returns the length;
 * writes to @out (room for the name's length + 1) when not NULL. */
static size_t aname_render(const struct aname *a, const bool *coll, char *out, size_t *pos)
{
	size_t n = 0;
	size_t *endat = pl_xmalloc((a->len + 1) * sizeof(size_t));
	for (size_t i = 0; i < a->len; i++)
		endat[i] = SIZE_MAX;
	for (size_t k = 0; k < a->ng; k++)
		if (coll[k])
			endat[a->g[k].open] = a->g[k].close; /* one group opens at a byte */
	for (size_t i = 0; i < a->len;) {
		size_t end = endat[i];
		if (pos)
			pos[i] = n;
		if (out)
			out[n] = a->s[i];
		n++;
		if (end == SIZE_MAX) {
			i++;
			continue;
		}
		if (out)
			memcpy(out + n, "...", 3);
		n += 3;
		for (size_t k = i + 1; k < end && pos; k++)
			pos[k] = SIZE_MAX;
		i = end;
	}
	if (out)
		out[n] = 0;
	free(endat);
	return n;
}

/* Is byte @i of the name the start of a component ("::" or a space before it, outside
 * every group and brace, and not a bracket)? */
static bool aname_boundary(const struct aname *a, size_t i)
{
	if (a->s[i] == '(' || a->s[i] == '<')
		return false; /* "decltype (...)": the group belongs to the word before */
	return (i >= 2 && a->s[i - 1] == ':' && a->s[i - 2] == ':' && a->top[i - 2]) ||
	       (i >= 1 && a->s[i - 1] == ' ' && a->top[i - 1]);
}

/* Shorten @a to at most @max bytes (see pl_names_abbrev). */
static char *aname_abbrev(const struct aname *a, size_t max)
{
	if (a->len <= max)
		return pl_xstrdup(a->s);
	bool *coll = pl_xcalloc(a->ng + 1, sizeof(bool));
	/* sav[k]: bytes that collapsed group k saves, 0 once a collapsed group holds it */
	size_t *sav = pl_xcalloc(a->ng + 1, sizeof(size_t));
	size_t cur = a->len;
	for (size_t k = 0; k < a->ng && cur > max; k++) {
		const struct agroup *g = &a->g[k];
		if (g->cls < 0 || aname_hides_kept(a, g))
			continue;
		size_t inner = 0;
		bool hidden = false;
		for (size_t j = 0; j < a->ng; j++) {
			if (!coll[j])
				continue;
			if (a->g[j].open < g->open && a->g[j].close > g->close)
				hidden = true; /* inside a collapsed group: no gain */
			else if (a->g[j].open > g->open && a->g[j].close < g->close)
				inner += sav[j];
		}
		if (hidden)
			continue;
		for (size_t j = 0; j < a->ng; j++)
			if (coll[j] && a->g[j].open > g->open && a->g[j].close < g->close)
				sav[j] = 0;
		coll[k] = true;
		sav[k] = g->close - g->open - 1 - 3;
		cur = cur + inner - sav[k];
	}
	free(sav);
	char *out = pl_xmalloc(a->len + 1);
	size_t *pos = pl_xmalloc((a->len + 1) * sizeof(size_t));
	cur = aname_render(a, coll, out, pos);
	free(coll);
	if (cur > max) {
		/* Cut the front: at the first component boundary from which the rest fits and
		 * that keeps the final parameter list and the protected bytes; else the tail. */
		size_t limit = a->fin != SIZE_MAX ? pos[a->fin] : cur;
		for (size_t i = 0; i < a->len; i++)
			if (a->keep[i] && pos[i] < limit)
				limit = pos[i];
		size_t c = cur - (max - 3);
		for (size_t i = 1; i < a->len; i++)
			if (pos[i] != SIZE_MAX && pos[i] <= limit && cur - pos[i] + 3 <= max &&
			    aname_boundary(a, i)) {
				c = pos[i];
				break;
			}
		char *t = pl_xasprintf("...%s", out + c);
		free(out);
		out = t;
	}
	free(pos);
	return out;
}

char **pl_names_abbrev(const char *const *names, const size_t *max, size_t n)
{
	struct aname *a = pl_xcalloc(n + 1, sizeof(*a));
	char **out = pl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		aname_parse(&a[i], names[i]);
		out[i] = aname_abbrev(&a[i], max[i] < 8 ? 8 : max[i]);
	}
	/* Different names that came out the same: each keeps the last byte where it differs
	 * from the other (the tails agree after it), then also the first, and is shortened
	 * again; repeat while that changes something. */
	bool *redo = pl_xcalloc(n + 1, sizeof(bool));
	for (int round = 0; round < 8; round++) {
		bool changed = false;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				if (i == j || redo[i] || strcmp(out[i], out[j]) != 0 ||
				    strcmp(names[i], names[j]) == 0)
					continue;
				size_t li = a[i].len, lj = a[j].len, p = 0, q = 0;
				while (p < li && p < lj && names[i][p] == names[j][p])
					p++;
				while (q < li - p && q < lj - p &&
				       names[i][li - 1 - q] == names[j][lj - 1 - q])
					q++;
				if (li - q == p)
					continue; /* all of @i is in @j: @j keeps what differs */
				size_t k = !a[i].keep[li - q - 1] ? li - q - 1 : p;
				if (a[i].keep[k])
					continue;
				a[i].keep[k] = true;
				redo[i] = changed = true;
			}
		if (!changed)
			break;
		for (size_t i = 0; i < n; i++)
			if (redo[i]) {
				free(out[i]);
				out[i] = aname_abbrev(&a[i], max[i] < 8 ? 8 : max[i]);
				redo[i] = false;
			}
	}
	for (size_t i = 0; i < n; i++)
		aname_free(&a[i]);
	free(a);
	free(redo);
	return out;
}

char *pl_name_abbrev(const char *name, size_t max)
{
	char **v = pl_names_abbrev(&name, &max, 1);
	char *s = v[0];
	free(v);
	return s;
}

/* One frame of a folded line: ';' (the separator) becomes ':', control characters
 * (a newline would end the line) '?', and an empty name (a thread may name itself "")
 * "[unknown]", so that every line is one that pl_flame_read accepts. */
static void folded_frame(struct pl_buf *b, const char *name)
{
	if (!*name)
		name = "[unknown]";
	for (const char *s = name; *s; s++)
		pl_buf_append(b, *s == ';' ? ":" : (unsigned char)*s < 0x20 ? "?" : s, 1);
}

/* A frame that did not resolve: folded as "[unknown]" (an empty name too). */
static bool is_unknown(const char *name)
{
	return !*name || strcmp(name, "[unknown]") == 0;
}

int pl_preport_write_folded(const struct pl_preport *r, FILE *f)
{
	return pl_preport_write_folded_marked(r, f, NULL);
}

int pl_preport_write_folded_marked(const struct pl_preport *r, FILE *f, const char *mark)
{
	char **lines = pl_xmalloc((r->nchains + 1) * sizeof(char *));
	for (size_t i = 0; i < r->nchains; i++) {
		const struct pl_chain *c = &r->chains[i];
		struct pl_buf b = { 0 };
		folded_frame(&b, c->comm);
		for (uint32_t k = 0; k < c->n; k++) {
			const struct pl_func *fn = &r->funcs[c->frames[k]];
			/* a broken unwind repeats one unresolved frame: a run of identical
			 * "[unknown]" frames is one frame, as it is in the flame graph */
			if (k > 0 && is_unknown(fn->name) &&
			    is_unknown(r->funcs[c->frames[k - 1]].name) &&
			    fn->kernel == r->funcs[c->frames[k - 1]].kernel)
				continue;
			pl_buf_puts(&b, ";");
			folded_frame(&b, fn->name);
			if (fn->kernel)
				pl_buf_puts(&b, "_[k]");
			if (mark)
				pl_buf_puts(&b, mark);
		}
		/* The count goes after a tab so equal stacks sort together; see below. */
		pl_buf_printf(&b, "\t%llu", (unsigned long long)c->count);
		lines[i] = pl_buf_steal(&b);
	}
	qsort(lines, r->nchains, sizeof(char *), cmp_str);
	/* Different address spaces can resolve to the same names: merge equal stacks. */
	for (size_t i = 0; i < r->nchains;) {
		char *tab = strrchr(lines[i], '\t');
		size_t klen = (size_t)(tab - lines[i]);
		unsigned long long sum = 0;
		size_t j = i;
		while (j < r->nchains && strncmp(lines[j], lines[i], klen) == 0 &&
		       lines[j][klen] == '\t') {
			sum += strtoull(lines[j] + klen + 1, NULL, 10);
			j++;
		}
		fprintf(f, "%.*s %llu\n", (int)klen, lines[i], sum);
		i = j;
	}
	for (size_t i = 0; i < r->nchains; i++)
		free(lines[i]);
	free(lines);
	return ferror(f) ? -EIO : 0;
}

/* Call tree: a trie of function ids. */
struct tnode {
	uint32_t func;
	uint64_t count;
	size_t *kids;
	size_t nkids, capkids;
};

struct tree {
	struct tnode *n;
	size_t len, cap;
};

static size_t tree_child(struct tree *t, size_t parent, uint32_t func)
{
	struct tnode *p = &t->n[parent];
	for (size_t i = 0; i < p->nkids; i++)
		if (t->n[p->kids[i]].func == func)
			return p->kids[i];
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->n = pl_xrealloc(t->n, t->cap * sizeof(*t->n));
	}
	size_t id = t->len++;
	t->n[id] = (struct tnode){ func, 0, NULL, 0, 0 };
	p = &t->n[parent];
	if (p->nkids == p->capkids) {
		p->capkids = p->capkids ? p->capkids * 2 : 4;
		p->kids = pl_xrealloc(p->kids, p->capkids * sizeof(size_t));
	}
	p->kids[p->nkids++] = id;
	return id;
}

static struct tree *tree_sort_ctx;

static int cmp_kid(const void *x, const void *y)
{
	const struct tnode *a = &tree_sort_ctx->n[*(const size_t *)x];
	const struct tnode *b = &tree_sort_ctx->n[*(const size_t *)y];
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

/* Walk the printed (unpruned) nodes under @node: with @room set, record for each
 * function the name room of its narrowest row; else print the rows, with the names in
 * @nm (NULL entries: whole). */
static void tree_walk(struct tree *t, const struct pl_preport *r, FILE *f, size_t node, int depth,
		      uint64_t min, size_t width, size_t *room, char **nm)
{
	struct tnode *n = &t->n[node];
	tree_sort_ctx = t;
	if (n->nkids)
		qsort(n->kids, n->nkids, sizeof(size_t), cmp_kid);
	for (size_t i = 0; i < n->nkids; i++) {
		struct tnode *k = &t->n[n->kids[i]];
		if (k->count < min)
			break;
		const struct pl_func *fn = &r->funcs[k->func];
		if (room) {
			/* 9 columns of share, the indent, then "name [module]" */
			size_t used = 9 + (size_t)depth * 2 + strlen(fn->module) + 3;
			size_t w = width > used + 40 ? width - used : 40;
			if (w < room[k->func])
				room[k->func] = w;
		} else {
			const char *name = nm && nm[k->func] ? nm[k->func] : fn->name;
			bool br = fn->module[0] != '[';
			fprintf(f, "%6.2f%%  %*s%s %s%s%s\n",
				100.0 * (double)k->count / (double)r->nsamples, depth * 2, "", name,
				br ? "[" : "", fn->module, br ? "]" : "");
		}
		tree_walk(t, r, f, n->kids[i], depth + 1, min, width, room, nm);
		n = &t->n[node];
	}
}

void pl_preport_write_tree(const struct pl_preport *r, FILE *f, double min_pct, size_t width)
{
	struct tree t = { 0 };
	t.cap = 256;
	t.n = pl_xmalloc(t.cap * sizeof(*t.n));
	t.n[t.len++] = (struct tnode){ UINT32_MAX, 0, NULL, 0, 0 };
	for (size_t i = 0; i < r->nchains; i++) {
		const struct pl_chain *c = &r->chains[i];
		size_t cur = 0;
		t.n[0].count += c->count;
		for (uint32_t k = 0; k < c->n; k++) {
			cur = tree_child(&t, cur, c->frames[k]);
			t.n[cur].count += c->count;
		}
	}
	/* "under min_pct pruned": keep branches with count >= min_pct % of the samples */
	uint64_t min = (uint64_t)ceil((double)r->nsamples * min_pct / 100.0);
	if (min < 1)
		min = 1;
	char **nm = NULL;
	if (width) {
		/* one shortened text per function, different names kept apart */
		size_t *room = pl_xmalloc((r->nfuncs + 1) * sizeof(size_t));
		for (size_t i = 0; i < r->nfuncs; i++)
			room[i] = SIZE_MAX;
		tree_walk(&t, r, f, 0, 0, min, width, room, NULL);
		const char **names = pl_xmalloc((r->nfuncs + 1) * sizeof(char *));
		size_t *max = pl_xmalloc((r->nfuncs + 1) * sizeof(size_t));
		uint32_t *id = pl_xmalloc((r->nfuncs + 1) * sizeof(uint32_t));
		size_t n = 0;
		for (size_t i = 0; i < r->nfuncs; i++)
			if (room[i] != SIZE_MAX) {
				names[n] = r->funcs[i].name;
				max[n] = room[i];
				id[n++] = (uint32_t)i;
			}
		char **sh = pl_names_abbrev(names, max, n);
		nm = pl_xcalloc(r->nfuncs + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++)
			nm[id[i]] = sh[i];
		free(sh);
		free(id);
		free(max);
		free(names);
		free(room);
	}
	tree_walk(&t, r, f, 0, 0, min, width, NULL, nm);
	for (size_t i = 0; nm && i < r->nfuncs; i++)
		free(nm[i]);
	free(nm);
	for (size_t i = 0; i < t.len; i++)
		free(t.n[i].kids);
	free(t.n);
}
