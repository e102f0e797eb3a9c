/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Accelerators for perflab monitor (accel.h): QAT fw_counters and NVML by dlopen. */
#include "monitor/accel.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/str.h"
#include "util/testhook.h"
#include "util/sysroot.h"

#define DEBUGFS "/sys/kernel/debug"

/* The number after the colon that follows @p on the line [@p, @eol): true and *v when
 * there is one (blanks and '|' around it are allowed; overflow refused). */
static bool row_value(const char *p, const char *eol, uint64_t *v)
{
	const char *c = memchr(p, ':', (size_t)(eol - p));
	if (!c)
		return false;
	c++;
	while (c < eol && (*c == ' ' || *c == '\t'))
		c++;
	if (c >= eol || !isdigit((unsigned char)*c))
		return false;
	uint64_t x = 0;
	while (c < eol && isdigit((unsigned char)*c)) {
		unsigned d = (unsigned)(*c - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		c++;
	}
	while (c < eol && (*c == ' ' || *c == '\t' || *c == '|' || *c == '\r'))
		c++;
	if (c != eol)
		return false;
	*v = x;
	return true;
}

/* Add @v to *sum unless that overflows (then the sum saturates, which reads as a reset
 * at worst, never as a huge rate). */
static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = *sum > UINT64_MAX - v ? UINT64_MAX : *sum + v;
}

/* Upstream table (kernel 6.7+, adf_fw_counters.c qat_fw_counters_seq_show): a header
 * "AE" then the column names ("Requests", "Responses"), and per engine "%2d:" then one
 * number per column. Sums the columns into sum[0] (Requests) and sum[1] (Responses).
 * True when the header and at least one complete row were found. */
static bool parse_table(const char *text, uint64_t sum[3], bool seen[3])
{
	int col[8]; /* column i feeds sum[col[i]], -1: a column we do not know */
	int ncol = 0;
	bool header = false, rows = false;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (!header && eol - s >= 2 && s[0] == 'A' && s[1] == 'E' &&
		    (s + 2 == eol || s[2] == ' ' || s[2] == '\t')) {
			header = true;
			for (const char *t = s + 2; t < eol && ncol < 8;) {
				while (t < eol && (*t == ' ' || *t == '\t'))
					t++;
				const char *w = t;
				while (t < eol && *t != ' ' && *t != '\t')
					t++;
				if (t == w)
					break;
				size_t n = (size_t)(t - w);
				col[ncol++] = n == 8 && memcmp(w, "Requests", 8) == 0	 ? 0
					      : n == 9 && memcmp(w, "Responses", 9) == 0 ? 1
											 : -1;
			}
		} else if (header && s < eol && isdigit((unsigned char)*s)) {
			const char *t = s;
			while (t < eol && isdigit((unsigned char)*t))
				t++;
			if (t < eol && *t == ':') {
				uint64_t v[8];
				int k = 0;
				bool ok = true;
				t++;
				while (ok && k < ncol) {
					while (t < eol && (*t == ' ' || *t == '\t'))
						t++;
					if (t >= eol || !isdigit((unsigned char)*t)) {
						ok = false;
						break;
					}
					uint64_t x = 0;
					while (t < eol && isdigit((unsigned char)*t)) {
						unsigned d = (unsigned)(*t - '0');
						if (x > (UINT64_MAX - d) / 10) {
							ok = false;
							break;
						}
						x = x * 10 + d;
						t++;
					}
					v[k++] = x;
				}
				for (int i = 0; ok && i < ncol; i++)
					if (col[i] >= 0) {
						add_sat(&sum[col[i]], v[i]);
						seen[col[i]] = true;
						rows = true;
					}
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return rows && seen[0];
}

int pl_mon_parse_qat_fw_counters(const char *text, uint64_t *requests, uint64_t *responses,
				 uint64_t *ras_events, bool *has_ras)
{
	uint64_t sum[3] = { 0 };
	bool seen[3] = { false };
	if (!parse_table(text, sum, seen)) {
		/* the out-of-tree driver's box ("| Firmware Requests [AE  0]: N |") */
		static const char *const key[] = { "Firmware Requests", "Firmware Responses",
						   "RAS Events" };
		memset(sum, 0, sizeof(sum));
		memset(seen, 0, sizeof(seen));
		for (const char *p = text; *p;) {
			const char *eol = strchr(p, '\n');
			if (!eol)
				eol = p + strlen(p);
			for (int k = 0; k < 3; k++) {
				size_t kl = strlen(key[k]);
				const char *s = p;
				while (s < eol && (*s == ' ' || *s == '\t' || *s == '|'))
					s++;
				uint64_t v;
				if ((size_t)(eol - s) >= kl && strncasecmp(s, key[k], kl) == 0 &&
				    row_value(s + kl, eol, &v)) {
					add_sat(&sum[k], v);
					seen[k] = true;
					break;
				}
			}
			p = *eol ? eol + 1 : eol;
		}
	}
	if (!seen[0])
		return -EINVAL;
	*requests = sum[0];
	*responses = sum[1];
	*ras_events = sum[2];
	*has_ras = seen[2];
	return 0;
}

int pl_mon_parse_qat_telemetry(const char *text, struct pl_mon_qat_tl *out)
{
	memset(out, 0, sizeof(*out));
	out->rp_num = -1;
	bool any = false;
	for (const char *p = text ? text : ""; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *s = p, *e;
		p = *eol ? eol + 1 : eol;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		for (e = s; e < eol && (isalnum((unsigned char)*e) || *e == '_'); e++)
			;
		size_t nl = (size_t)(e - s);
		if (!nl || nl >= sizeof(out->name[0]) || e == eol || (*e != ' ' && *e != '\t'))
			continue;
		const char *v = e;
		while (v < eol && (*v == ' ' || *v == '\t'))
			v++;
		const char *ve = v;
		while (ve < eol && *ve != ' ' && *ve != '\t' && *ve != '\r')
			ve++;
		if (nl == 12 && memcmp(s, "service_type", 12) == 0) {
			size_t n = (size_t)(ve - v);
			if (n && n < sizeof(out->service)) {
				memcpy(out->service, v, n);
				out->service[n] = '\0';
			}
			continue;
		}
		uint64_t x = 0;
		bool ok = v < ve;
		for (const char *c = v; ok && c < ve; c++) {
			unsigned d = (unsigned)(*c - '0');
			ok = d <= 9 && x <= (UINT64_MAX - d) / 10;
			x = x * 10 + d;
		}
		if (!ok)
			continue;
		if (nl == 6 && memcmp(s, "rp_num", 6) == 0) {
			out->rp_num = x <= 1024 ? (int)x : -1;
			continue;
		}
		any = true;
		if (out->n == PL_MON_QAT_TL_MAX)
			continue;
		memcpy(out->name[out->n], s, nl);
		out->name[out->n][nl] = '\0';
		out->value[out->n++] = x;
	}
	return any ? 0 : -EINVAL;
}

static int qat_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pl_mon_qat *)a)->name, ((const struct pl_mon_qat *)b)->name);
}

void pl_mon_qats_free(struct pl_mon_qat *q, size_t n)
{
	for (size_t i = 0; q && i < n; i++)
		free(q[i].name);
	free(q);
}

void pl_mon_qat_read(struct pl_mon_qat **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char **ents = NULL;
	size_t ne = 0;
	if (pl_list_dir(DEBUGFS, &ents, &ne) < 0)
		return;
	struct pl_mon_qat *q = NULL;
	size_t k = 0;
	for (size_t i = 0; i < ne; i++) {
		if (strncmp(ents[i], "qat_", 4) != 0)
			continue;
		char *text = NULL;
		if (pl_read_filef(&text, NULL, DEBUGFS "/%s/fw_counters", ents[i]) < 0)
			continue;
		q = pl_xrealloc(q, sizeof(*q) * (k + 1));
		struct pl_mon_qat *d = &q[k];
		memset(d, 0, sizeof(*d));
		if (pl_mon_parse_qat_fw_counters(text, &d->requests, &d->responses, &d->ras_events,
						 &d->has_ras) == 0) {
			d->name = pl_xstrdup(ents[i]);
			k++;
			char *t = NULL;
			if (pl_read_filef(&t, NULL, DEBUGFS "/%s/telemetry/device_data", ents[i]) ==
			    0)
				d->has_tl = pl_mon_parse_qat_telemetry(t, &d->tl) == 0;
			free(t);
			for (int r = 0; r < PL_MON_QAT_RP; r++) {
				t = NULL;
				if (pl_read_filef(&t, NULL, DEBUGFS "/%s/telemetry/rp_%c_data",
						  ents[i], 'A' + r) == 0)
					d->has_rp[r] =
						pl_mon_parse_qat_telemetry(t, &d->rp[r]) == 0;
				free(t);
			}
		}
		free(text);
	}
	pl_strv_free(ents);
	if (k)
		qsort(q, k, sizeof(*q), qat_cmp);
	*out = q;
	*n = k;
}

/* --- NVML (nvml.h ABI: return codes are an int enum, NVML_SUCCESS = 0; a device is an
 * opaque pointer; nvmlUtilization_t and nvmlMemory_t (v1) as below) ----------------- */
typedef int nvml_ret;
typedef struct nvml_dev *nvml_dev;
struct nvml_util {
	unsigned int gpu, memory;
};
struct nvml_mem {
	unsigned long long total, free, used;
};

static struct {
	bool tried, ok;
	void *lib;
	char why[256];
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	nvml_ret (*count)(unsigned int *);
	nvml_ret (*handle)(unsigned int, nvml_dev *);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
	nvml_ret (*mem)(nvml_dev, struct nvml_mem *);
	nvml_ret (*name)(nvml_dev, char *, unsigned int);
} nv;

bool pl_mon_nvml_available(const char **why)
{
	if (!nv.tried) {
		nv.tried = true;
		const char *path = PL_TEST_HOOK("PERFLAB_NVML_LIB");
		if (!path || !*path)
			path = "libnvidia-ml.so.1";
		nv.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!nv.lib) {
			const char *e = dlerror();
			snprintf(nv.why, sizeof(nv.why), "%s", e ? e : "dlopen failed");
		} else {
			static const char *const sym[] = {
				"nvmlInit_v2",
				"nvmlShutdown",
				"nvmlDeviceGetCount_v2",
				"nvmlDeviceGetHandleByIndex_v2",
				"nvmlDeviceGetUtilizationRates",
				"nvmlDeviceGetMemoryInfo",
				"nvmlDeviceGetName",
			};
			void *f[7];
			bool all = true;
			for (size_t i = 0; i < 7 && all; i++) {
				f[i] = dlsym(nv.lib, sym[i]);
				if (!f[i]) {
					snprintf(nv.why, sizeof(nv.why), "%s: no symbol %s", path,
						 sym[i]);
					all = false;
				}
			}
			if (all) {
				/* POSIX dlsym: a function pointer round-trips through void * */
				memcpy(&nv.init, &f[0], sizeof(f[0]));
				memcpy(&nv.shutdown, &f[1], sizeof(f[1]));
				memcpy(&nv.count, &f[2], sizeof(f[2]));
				memcpy(&nv.handle, &f[3], sizeof(f[3]));
				memcpy(&nv.util, &f[4], sizeof(f[4]));
				memcpy(&nv.mem, &f[5], sizeof(f[5]));
				memcpy(&nv.name, &f[6], sizeof(f[6]));
				nvml_ret r = nv.init();
				if (r == 0)
					nv.ok = true;
				else
					snprintf(nv.why, sizeof(nv.why), "nvmlInit_v2 returned %d",
						 r);
			}
			if (!nv.ok) {
				dlclose(nv.lib);
				nv.lib = NULL;
			}
		}
	}
	if (why)
		*why = nv.ok ? NULL : nv.why;
	return nv.ok;
}

void pl_mon_gpu_read(struct pl_mon_gpu **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	unsigned int cnt = 0;
	if (!pl_mon_nvml_available(NULL) || nv.count(&cnt) != 0 || cnt == 0)
		return;
	if (cnt > 64)
		cnt = 64;
	struct pl_mon_gpu *g = pl_xcalloc(cnt, sizeof(*g));
	for (unsigned int i = 0; i < cnt; i++) {
		struct pl_mon_gpu *d = &g[i];
		d->util_pct = d->mem_util_pct = d->mem_used_bytes = d->mem_total_bytes = NAN;
		nvml_dev h = NULL;
		if (nv.handle(i, &h) != 0)
			continue;
		char name[96] = "";
		if (nv.name(h, name, sizeof(name)) == 0) {
			name[sizeof(name) - 1] = '\0';
			snprintf(d->name, sizeof(d->name), "%s", name);
		}
		struct nvml_util u;
		if (nv.util(h, &u) == 0 && u.gpu <= 100 && u.memory <= 100) {
			d->util_pct = u.gpu;
			d->mem_util_pct = u.memory;
		}
		struct nvml_mem m;
		if (nv.mem(h, &m) == 0) {
			d->mem_used_bytes = (double)m.used;
			d->mem_total_bytes = (double)m.total;
		}
	}
	*out = g;
	*n = cnt;
}

void pl_mon_nvml_close(void)
{
	if (nv.ok) {
		nv.shutdown();
		dlclose(nv.lib);
	}
	memset(&nv, 0, sizeof(nv));
}
