/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "counters/pmu_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

int pl_pmu_format_parse(const char *text, struct pl_pmu_format *f)
{
	static const struct {
		const char *name;
		enum pl_pmu_field field;
	} fields[] = { { "config:", PL_PMU_CONFIG },
		       { "config1:", PL_PMU_CONFIG1 },
		       { "config2:", PL_PMU_CONFIG2 } };
	const char *p = NULL;
	enum pl_pmu_field field = PL_PMU_CONFIG;
	for (size_t i = 0; i < N_ELEM(fields); i++) {
		size_t l = strlen(fields[i].name);
		if (strncmp(text, fields[i].name, l) == 0) {
			p = text + l;
			field = fields[i].field;
			break;
		}
	}
	if (!p)
		return -EINVAL;
	uint64_t mask = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		char *e;
		unsigned long lo = strtoul(p, &e, 10), hi = lo;
		p = e;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -EINVAL;
			hi = strtoul(p + 1, &e, 10);
			p = e;
		}
		if (lo > 63 || hi > 63 || hi < lo)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			mask |= 1ULL << b;
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ' || *p == '\t')
		p++;
	if (*p)
		return -EINVAL;
	f->field = field;
	f->mask = mask;
	f->nbits = __builtin_popcountll(mask);
	return 0;
}

uint64_t pl_pmu_format_place(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	int vbit = 0;
	for (int fbit = 0; fbit < 64; fbit++) {
		if (!(mask & (1ULL << fbit)))
			continue;
		if (value & (1ULL << vbit))
			out |= 1ULL << fbit;
		vbit++;
	}
	return out;
}

bool pl_pmu_format_fits(const struct pl_pmu_format *f, uint64_t value)
{
	return f->nbits >= 64 || (value >> f->nbits) == 0;
}

static bool term_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

int pl_pmu_terms_parse(const char *text, struct pl_pmu_term *terms, size_t max, size_t *n,
		       char *err, size_t errlen)
{
	size_t len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	*n = 0;
	if (len == 0)
		return 0;
	const char *p = text, *end = text + len;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *tend = comma ? comma : end;
		const char *eq = memchr(p, '=', (size_t)(tend - p));
		const char *nend = eq ? eq : tend;
		size_t nl = (size_t)(nend - p);
		if (nl == 0) {
			snprintf(err, errlen, "empty term in '%.*s'", (int)len, text);
			return -EINVAL;
		}
		for (const char *c = p; c < nend; c++)
			if (!term_char(*c) || (c == p && *c == '.')) {
				snprintf(err, errlen, "malformed term '%.*s'", (int)(tend - p), p);
				return -EINVAL;
			}
		if (nl >= PL_PMU_TERM_MAX) {
			snprintf(err, errlen, "term name '%.*s' too long", (int)nl, p);
			return -EINVAL;
		}
		if (*n >= max) {
			snprintf(err, errlen, "more than %zu terms in '%.*s'", max, (int)len, text);
			return -EINVAL;
		}
		struct pl_pmu_term *t = &terms[*n];
		memcpy(t->name, p, nl);
		t->name[nl] = '\0';
		t->value = 1;
		t->has_value = eq != NULL;
		if (eq) {
			const char *v = eq + 1;
			size_t vl = (size_t)(tend - v);
			char buf[32];
			char *e;
			if (vl == 0 || vl >= sizeof(buf) || !isdigit((unsigned char)*v)) {
				snprintf(err, errlen,
					 "term '%.*s' needs a number (decimal or 0x hex) after '='",
					 (int)(tend - p), p);
				return -EINVAL;
			}
			memcpy(buf, v, vl);
			buf[vl] = '\0';
			errno = 0;
			unsigned long long x = strtoull(buf, &e, 0);
			if (errno || *e) {
				snprintf(err, errlen,
					 "term '%.*s' needs a number (decimal or 0x hex) after '='",
					 (int)(tend - p), p);
				return -EINVAL;
			}
			t->value = x;
		}
		(*n)++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int pl_pmu_modifiers(const char *mods, struct perf_event_attr *attr, char *bad)
{
	bool ex = attr->exclude_user || attr->exclude_kernel || attr->exclude_hv;
	bool ex_gh = attr->exclude_guest || attr->exclude_host;
	for (const char *m = mods; *m; m++) {
		switch (*m) {
		case 'u':
		case 'k':
		case 'h':
			if (!ex) {
				attr->exclude_user = attr->exclude_kernel = attr->exclude_hv = 1;
				ex = true;
			}
			if (*m == 'u')
				attr->exclude_user = 0;
			else if (*m == 'k')
				attr->exclude_kernel = 0;
			else
				attr->exclude_hv = 0;
			break;
		case 'G':
		case 'H':
			if (!ex_gh) {
				attr->exclude_guest = attr->exclude_host = 1;
				ex_gh = true;
			}
			if (*m == 'G')
				attr->exclude_guest = 0;
			else
				attr->exclude_host = 0;
			break;
		case 'I':
			attr->exclude_idle = 1;
			break;
		default:
			*bad = *m;
			return -EINVAL;
		}
	}
	return 0;
}

/* Names from tools/perf/util/parse-events.l (the fixed symbols) in the order of the
 * PERF_COUNT_* enums of include/uapi/linux/perf_event.h; "" ends an alias list. */
struct sym {
	const char *names[3];
	uint32_t type;
	uint64_t config;
};
static const struct sym syms[] = {
	{ { "cpu-cycles", "cycles" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ { "instructions" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ { "cache-references" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ { "cache-misses" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ { "branch-instructions", "branches" },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ { "branch-misses" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ { "bus-cycles" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ { "stalled-cycles-frontend", "idle-cycles-frontend" },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ { "stalled-cycles-backend", "idle-cycles-backend" },
	  PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ { "ref-cycles" }, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ { "cpu-clock" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ { "task-clock" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ { "page-faults", "faults" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ { "context-switches", "cs" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ { "cpu-migrations", "migrations" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ { "minor-faults" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ { "major-faults" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ { "alignment-faults" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ { "emulation-faults" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ { "dummy" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ { "bpf-output" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ { "cgroup-switches" }, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* tools/perf/util/evsel.c: evsel__hw_cache, evsel__hw_cache_op, evsel__hw_cache_result
 * and evsel__hw_cache_stat (which ops each cache has). */
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define OPS(r, w, p) ((r) | (w) << 1 | (p) << 2)
static const unsigned cache_valid[PERF_COUNT_HW_CACHE_MAX] = {
	OPS(1, 1, 1), OPS(1, 0, 1), OPS(1, 1, 1), OPS(1, 1, 1),
	OPS(1, 0, 0), OPS(1, 0, 0), OPS(1, 1, 1),
};

/* Length of the alias of @list (@rows x @cols) that @s starts with, followed by '-' or
 * the end, the longest such; *@row gets its row. 0 when none. */
static size_t match_alias(const char *s, const char *const *list, size_t rows, size_t cols,
			  size_t *row, bool nocase)
{
	size_t best = 0;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols && list[r * cols + c]; c++) {
			const char *a = list[r * cols + c];
			size_t l = strlen(a);
			int d = nocase ? strncasecmp(s, a, l) : strncmp(s, a, l);
			if (d == 0 && (s[l] == '\0' || s[l] == '-') && l > best) {
				best = l;
				*row = r;
			}
		}
	return best;
}

static bool cache_event(const char *name, uint64_t *config)
{
	size_t type = 0, op = SIZE_MAX, res = SIZE_MAX;
	size_t l = match_alias(name, &cache_types[0][0], PERF_COUNT_HW_CACHE_MAX, 6, &type, false);
	if (!l)
		return false;
	const char *p = name + l;
	for (int part = 0; part < 2 && *p; part++) {
		size_t r;
		p++; /* the '-' */
		size_t lo = op == SIZE_MAX ? match_alias(p, &cache_ops[0][0],
							 PERF_COUNT_HW_CACHE_OP_MAX, 5, &r, true)
					   : 0;
		if (lo) {
			if (!(cache_valid[type] & (1u << r)))
				return false;
			op = r;
			p += lo;
			continue;
		}
		size_t lr = res == SIZE_MAX
				    ? match_alias(p, &cache_results[0][0],
						  PERF_COUNT_HW_CACHE_RESULT_MAX, 5, &r, true)
				    : 0;
		if (!lr)
			return false;
		res = r;
		p += lr;
	}
	if (*p)
		return false;
	if (op == SIZE_MAX)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res == SIZE_MAX)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = type | op << 8 | res << 16;
	return true;
}

bool pl_pmu_generic(const char *name, uint32_t *type, uint64_t *config)
{
	for (size_t i = 0; i < N_ELEM(syms); i++)
		for (size_t j = 0; j < N_ELEM(syms[i].names) && syms[i].names[j]; j++)
			if (strcmp(name, syms[i].names[j]) == 0) {
				*type = syms[i].type;
				*config = syms[i].config;
				return true;
			}
	if (cache_event(name, config)) {
		*type = PERF_TYPE_HW_CACHE;
		return true;
	}
	return false;
}

const char *pl_pmu_generic_first(const char *name)
{
	for (size_t i = 0; i < N_ELEM(syms); i++)
		for (size_t j = 0; j < N_ELEM(syms[i].names) && syms[i].names[j]; j++)
			if (strcmp(name, syms[i].names[j]) == 0)
				return syms[i].names[0];
	return NULL;
}

int pl_pmu_generic_each(uint32_t type, int (*fn)(const char *name, void *ctx), void *ctx)
{
	int r = 0;
	if (type != PERF_TYPE_HW_CACHE) {
		for (size_t i = 0; i < N_ELEM(syms) && !r; i++)
			if (syms[i].type == type)
				r = fn(syms[i].names[0], ctx);
		return r;
	}
	/* perf list's spelling (evsel.c __evsel__hw_cache_type_op_res_name): "-loads" for
	 * an access, "-load-misses" for a miss. */
	for (size_t t = 0; t < PERF_COUNT_HW_CACHE_MAX && !r; t++)
		for (size_t o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX && !r; o++) {
			if (!(cache_valid[t] & (1u << o)))
				continue;
			char name[96];
			snprintf(name, sizeof(name), "%s-%s", cache_types[t][0], cache_ops[o][1]);
			r = fn(name, ctx);
			if (r)
				break;
			snprintf(name, sizeof(name), "%s-%s-%s", cache_types[t][0], cache_ops[o][0],
				 cache_results[1][0]);
			r = fn(name, ctx);
		}
	return r;
}
