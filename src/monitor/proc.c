/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The /proc parsers of perflab monitor (proc.h). Numbers are parsed with strtoull and a
 * check of where it stopped; a line that does not parse is skipped, never half-used. */
#include "monitor/proc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/clock.h"
#include "util/str.h"
#include "util/sysroot.h"

/* One unsigned decimal at *p (leading blanks skipped) that ends at a blank, the end of
 * the line or of the text; advances *p. False when there is none or it overflows. The
 * parsers below read the text in place, line by line: a number never runs past '\n'. */
static bool next_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	/* strtoull's digits and overflow check without its locale and base handling:
	 * this is most of what a snapshot costs */
	uint64_t v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (*s && *s != ' ' && *s != '\t' && *s != '\n')
		return false;
	*out = v;
	*p = s;
	return true;
}

/* The line starting at @p: its length without the newline; *next gets the next line. */
static size_t line_len(const char *p, const char **next)
{
	const char *eol = strchr(p, '\n');
	size_t n = eol ? (size_t)(eol - p) : strlen(p);
	*next = eol ? eol + 1 : p + n;
	return n;
}

/* Copy the line of @len bytes at @p into a NUL-terminated buffer (caller frees). */
static char *line_dup(const char *p, size_t len)
{
	char *s = pl_xmalloc(len + 1);
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

static void stat_free(struct pl_mon_stat *s)
{
	free(s->cpu);
	free(s->online);
	memset(s, 0, sizeof(*s));
}

/* Make room for CPU @n in @s. */
static void stat_grow(struct pl_mon_stat *s, int n)
{
	if (n < s->ncpu)
		return;
	int nn = n + 1;
	s->cpu = pl_xrealloc(s->cpu, sizeof(*s->cpu) * (size_t)nn);
	s->online = pl_xrealloc(s->online, sizeof(*s->online) * (size_t)nn);
	memset(s->cpu + s->ncpu, 0, sizeof(*s->cpu) * (size_t)(nn - s->ncpu));
	memset(s->online + s->ncpu, 0, sizeof(*s->online) * (size_t)(nn - s->ncpu));
	s->ncpu = nn;
}

/* The fields of a "cpu..." line after its name; older kernels have fewer than ten
 * (steal since 2.6.11, guest 2.6.24, guest_nice 2.6.33): the missing ones are 0. At
 * least four (user nice system idle) are required. */
static bool cpu_fields(const char *p, uint64_t f[PL_MON_CPU_NF])
{
	int k = 0;
	memset(f, 0, sizeof(uint64_t) * PL_MON_CPU_NF);
	while (k < PL_MON_CPU_NF && next_u64(&p, &f[k]))
		k++;
	return k >= 4;
}

int pl_mon_parse_stat(const char *text, struct pl_mon_stat *out)
{
	struct pl_mon_stat s = { 0 };
	bool any = false;
	for (const char *p = text ? text : "", *next; *p; p = next) {
		line_len(p, &next);
		const char *l = p; /* the line in place: the checks below stop at '\n' */
		uint64_t v;
		const char *q;
		if (strncmp(l, "cpu ", 4) == 0) {
			if (cpu_fields(l + 4, s.total))
				s.has_total = any = true;
		} else if (strncmp(l, "cpu", 3) == 0 && isdigit((unsigned char)l[3])) {
			char *end;
			errno = 0;
			long n = strtol(l + 3, &end, 10);
			uint64_t f[PL_MON_CPU_NF];
			if (errno || n < 0 || n >= 8192 || *end != ' ' || !cpu_fields(end, f))
				continue;
			stat_grow(&s, (int)n);
			memcpy(s.cpu[n], f, sizeof(f));
			s.online[n] = true;
			any = true;
		} else if (strncmp(l, "ctxt ", 5) == 0 && (q = l + 5, next_u64(&q, &v))) {
			s.ctxt = v;
			s.has_ctxt = true;
		} else if (strncmp(l, "processes ", 10) == 0 && (q = l + 10, next_u64(&q, &v))) {
			s.processes = v;
			s.has_processes = true;
		} else if (strncmp(l, "procs_running ", 14) == 0 &&
			   (q = l + 14, next_u64(&q, &v))) {
			s.procs_running = v;
		} else if (strncmp(l, "procs_blocked ", 14) == 0 &&
			   (q = l + 14, next_u64(&q, &v))) {
			s.procs_blocked = v;
		}
	}
	if (!any) {
		stat_free(&s);
		return -EINVAL;
	}
	*out = s;
	return 0;
}

int pl_mon_parse_loadavg(const char *text, struct pl_mon_loadavg *out)
{
	struct pl_mon_loadavg l = { 0 };
	const char *p = text ? text : "";
	char *end;
	for (int i = 0; i < 3; i++) {
		errno = 0;
		l.avg[i] = strtod(p, &end);
		if (end == p || errno || !(l.avg[i] >= 0) || l.avg[i] > 1e9)
			return -EINVAL;
		p = end;
	}
	/* "2/345": runnable / all tasks */
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	unsigned long long r = strtoull(p, &end, 10);
	if (errno || *end != '/')
		return -EINVAL;
	l.running = r;
	p = end + 1;
	if (!isdigit((unsigned char)*p) || !next_u64(&p, &l.tasks))
		return -EINVAL;
	*out = l;
	return 0;
}

static void irqtab_free(struct pl_mon_irqtab *t)
{
	free(t->cols);
	free(t->rows);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

/* Copy up to @cap-1 bytes of @s (whitespace-trimmed) into @dst. */
static void copy_trim(char *dst, size_t cap, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* A malloc'd copy of the @n bytes at @s without the white space around them, whole. */
static char *dup_trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	char *d = pl_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

int pl_mon_parse_irqtab(const char *text, struct pl_mon_irqtab *out)
{
	struct pl_mon_irqtab t = { 0 };
	const char *p = text ? text : "", *next;
	/* header: "           CPU0       CPU1" */
	size_t len = line_len(p, &next);
	pl_autofree char *hdr = line_dup(p, len);
	for (char *h = hdr; *h;) {
		while (*h == ' ' || *h == '\t')
			h++;
		if (!*h)
			break;
		char *end;
		if (strncmp(h, "CPU", 3) != 0 || !isdigit((unsigned char)h[3]))
			break;
		errno = 0;
		long n = strtol(h + 3, &end, 10);
		if (errno || n < 0 || n >= 8192 || (*end && *end != ' ' && *end != '\t'))
			break;
		t.cols = pl_xrealloc(t.cols, sizeof(int) * (size_t)(t.ncols + 1));
		t.cols[t.ncols++] = (int)n;
		h = end;
	}
	if (t.ncols == 0) {
		irqtab_free(&t);
		return -EINVAL;
	}
	size_t cap = 0;
	for (p = next; *p; p = next) {
		len = line_len(p, &next);
		const char *l = p, *eol = p + len; /* the row in place */
		const char *colon = memchr(l, ':', len);
		if (!colon)
			continue;
		struct pl_mon_irqrow row = { 0 };
		copy_trim(row.name, sizeof(row.name), l, (size_t)(colon - l));
		if (!row.name[0] || strchr(row.name, ' '))
			continue;
		if (t.nrows == cap) {
			cap = cap ? cap * 2 : 64;
			t.rows = pl_xrealloc(t.rows, sizeof(*t.rows) * cap);
			t.counts = pl_xrealloc(t.counts, sizeof(uint64_t) * cap * (size_t)t.ncols);
		}
		uint64_t *c = t.counts + t.nrows * (size_t)t.ncols;
		const char *q = colon + 1;
		int k = 0;
		while (k < t.ncols && next_u64(&q, &c[k]))
			k++;
		row.full = k == t.ncols;
		if (!row.full)
			memset(c, 0, sizeof(uint64_t) * (size_t)t.ncols);
		/* the rest: "IO-APIC 2-edge timer" -> the device is the last word for numbered
		 * IRQs; named rows keep their text ("Local timer interrupts") */
		const char *rest = q;
		if (isdigit((unsigned char)row.name[0])) {
			const char *e = eol;
			while (e > rest && isspace((unsigned char)e[-1]))
				e--;
			const char *b = e;
			while (b > rest && !isspace((unsigned char)b[-1]))
				b--;
			copy_trim(row.desc, sizeof(row.desc), b, (size_t)(e - b));
		} else {
			copy_trim(row.desc, sizeof(row.desc), rest, (size_t)(eol - rest));
		}
		t.rows[t.nrows++] = row;
	}
	*out = t;
	return 0;
}

/* "Key: value [kB]" (meminfo, @colon) or "key value" (vmstat) lines into @out for the
 * names in @keys. */
static int parse_kv(const char *text, const char *const *keys, int nkeys, bool colon,
		    struct pl_mon_kv *out)
{
	struct pl_mon_kv kv = { 0 };
	bool any = false;
	size_t klen[32];
	for (int k = 0; k < nkeys; k++)
		klen[k] = strlen(keys[k]);
	for (const char *p = text ? text : "", *next; *p; p = next) {
		size_t len = line_len(p, &next);
		const char *eol = p + len;
		const char *sep = memchr(p, colon ? ':' : ' ', len);
		if (!sep)
			continue;
		const char *q = sep + 1;
		uint64_t v;
		if (!next_u64(&q, &v))
			continue;
		any = true;
		while (*q == ' ')
			q++;
		if (colon && eol - q == 2 && q[0] == 'k' && q[1] == 'B') {
			if (v > UINT64_MAX / 1024)
				continue;
			v *= 1024;
		} else if (q != eol) {
			continue;
		}
		size_t kn = (size_t)(sep - p);
		for (int k = 0; k < nkeys; k++)
			if (klen[k] == kn && memcmp(p, keys[k], kn) == 0) {
				kv.v[k] = v;
				kv.have |= 1u << k;
			}
	}
	if (!any)
		return -EINVAL;
	*out = kv;
	return 0;
}

int pl_mon_parse_meminfo(const char *text, struct pl_mon_kv *out)
{
	static const char *const keys[PL_MON_MEM_NF] = {
		[PL_MON_MEM_TOTAL] = "MemTotal",	 [PL_MON_MEM_FREE] = "MemFree",
		[PL_MON_MEM_AVAILABLE] = "MemAvailable", [PL_MON_MEM_BUFFERS] = "Buffers",
		[PL_MON_MEM_CACHED] = "Cached",		 [PL_MON_MEM_DIRTY] = "Dirty",
		[PL_MON_MEM_WRITEBACK] = "Writeback",	 [PL_MON_MEM_SWAPTOTAL] = "SwapTotal",
		[PL_MON_MEM_SWAPFREE] = "SwapFree",
	};
	return parse_kv(text, keys, PL_MON_MEM_NF, true, out);
}

int pl_mon_parse_vmstat(const char *text, struct pl_mon_kv *out)
{
	static const char *const keys[PL_MON_VM_NF] = {
		[PL_MON_VM_PGFAULT] = "pgfault",
		[PL_MON_VM_PGMAJFAULT] = "pgmajfault",
		[PL_MON_VM_PSWPIN] = "pswpin",
		[PL_MON_VM_PSWPOUT] = "pswpout",
		[PL_MON_VM_THP_FAULT_ALLOC] = "thp_fault_alloc",
		[PL_MON_VM_THP_COLLAPSE_ALLOC] = "thp_collapse_alloc",
		[PL_MON_VM_COMPACT_STALL] = "compact_stall",
		[PL_MON_VM_NUMA_HIT] = "numa_hit",
		[PL_MON_VM_NUMA_MISS] = "numa_miss",
		[PL_MON_VM_NUMA_LOCAL] = "numa_local",
		[PL_MON_VM_NUMA_OTHER] = "numa_other",
	};
	return parse_kv(text, keys, PL_MON_VM_NF, false, out);
}

/* "avg10=1.23" / "total=123" out of the line @l. */
static bool psi_field(const char *l, const char *key, double *d, uint64_t *u)
{
	const char *f = strstr(l, key);
	if (!f)
		return false;
	f += strlen(key);
	if (u)
		return next_u64(&f, u);
	char *end;
	errno = 0;
	*d = strtod(f, &end);
	return end != f && !errno && *d >= 0 && *d <= 100;
}

int pl_mon_parse_psi(const char *text, struct pl_mon_psi *out)
{
	struct pl_mon_psi ps = { 0 };
	bool some = false;
	for (const char *p = text ? text : "", *next; *p; p = next) {
		size_t len = line_len(p, &next);
		pl_autofree char *l = line_dup(p, len);
		double a;
		uint64_t tot;
		if (!psi_field(l, " avg10=", &a, NULL) || !psi_field(l, " total=", NULL, &tot))
			continue;
		if (strncmp(l, "some ", 5) == 0) {
			ps.some_avg10 = a;
			ps.some_total_us = tot;
			some = true;
		} else if (strncmp(l, "full ", 5) == 0) {
			ps.full_avg10 = a;
			ps.full_total_us = tot;
			ps.has_full = true;
		}
	}
	if (!some)
		return -EINVAL;
	ps.present = true;
	*out = ps;
	return 0;
}

int pl_mon_parse_diskstats(const char *text, struct pl_mon_disk **out, size_t *n)
{
	struct pl_mon_disk *d = NULL;
	size_t nd = 0, cap = 0;
	for (const char *p = text ? text : "", *next; *p; p = next) {
		line_len(p, &next);
		const char *q = p; /* in place: every step below stops at '\n' */
		uint64_t major, minor;
		if (!next_u64(&q, &major) || !next_u64(&q, &minor))
			continue;
		while (*q == ' ')
			q++;
		const char *ne = q;
		while (*ne && *ne != ' ' && *ne != '\n')
			ne++;
		if (ne == q)
			continue;
		struct pl_mon_disk e = { 0 };
		const char *name = q;
		size_t name_len = (size_t)(ne - q);
		q = ne;
		uint64_t f[17] = { 0 };
		int k = 0;
		while (k < 17 && next_u64(&q, &f[k]))
			k++;
		if (k < 11) /* the 2.6 four-field partition lines say too little */
			continue;
		e.rd_ios = f[0], e.rd_merges = f[1], e.rd_sectors = f[2], e.rd_ms = f[3];
		e.wr_ios = f[4], e.wr_merges = f[5], e.wr_sectors = f[6], e.wr_ms = f[7];
		e.in_flight = f[8], e.io_ms = f[9], e.weighted_ms = f[10];
		e.dc_ios = f[11], e.dc_ms = f[14];
		e.fl_ios = f[15], e.fl_ms = f[16];
		e.name = dup_trim(name, name_len);
		if (nd == cap) {
			cap = cap ? cap * 2 : 16;
			d = pl_xrealloc(d, sizeof(*d) * cap);
		}
		d[nd++] = e;
	}
	if (!nd) {
		free(d);
		return -EINVAL;
	}
	*out = d;
	*n = nd;
	return 0;
}

void pl_mon_disks_free(struct pl_mon_disk *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++)
		free(d[i].name);
	free(d);
}

void pl_mon_netifs_free(struct pl_mon_netif *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

int pl_mon_parse_netdev(const char *text, struct pl_mon_netif **out, size_t *n)
{
	struct pl_mon_netif *v = NULL;
	size_t nv = 0, cap = 0;
	bool header = false;
	for (const char *p = text ? text : "", *next; *p; p = next) {
		size_t len = line_len(p, &next);
		pl_autofree char *l = line_dup(p, len);
		if (strstr(l, "Receive") || strstr(l, "bytes    packets")) {
			header = true;
			continue;
		}
		char *colon = strrchr(l, ':');
		if (!colon)
			continue;
		struct pl_mon_netif e = { 0 };
		pl_autofree char *name = dup_trim(l, (size_t)(colon - l));
		if (!name[0] || strchr(name, ' '))
			continue;
		const char *q = colon + 1;
		uint64_t f[16];
		int k = 0;
		while (k < 16 && next_u64(&q, &f[k]))
			k++;
		if (k < 16)
			continue;
		e.rx_bytes = f[0], e.rx_packets = f[1], e.rx_errs = f[2], e.rx_drop = f[3];
		e.tx_bytes = f[8], e.tx_packets = f[9], e.tx_errs = f[10], e.tx_drop = f[11];
		e.name = pl_steal_ptr(&name);
		if (nv == cap) {
			cap = cap ? cap * 2 : 8;
			v = pl_xrealloc(v, sizeof(*v) * cap);
		}
		v[nv++] = e;
	}
	if (!header && !nv) {
		free(v);
		return -EINVAL;
	}
	*out = v;
	*n = nv;
	return 0;
}

/* The next field of the line [*p, @end) split at spaces (pl_split's fields: runs of
 * bytes other than ' '); advances *p. False at the end of the line. */
static bool next_field(const char **p, const char *end, const char **f, size_t *n)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return false;
	const char *e = s;
	while (e < end && *e != ' ')
		e++;
	*f = s;
	*n = (size_t)(e - s);
	*p = e;
	return true;
}

int pl_mon_snmp_get(const char *text, const char *section, const char *key, uint64_t *out)
{
	size_t sl = strlen(section), kl = strlen(key);
	const char *hdr = NULL, *hdr_end = NULL;
	for (const char *p = text ? text : "", *next; *p; p = next) {
		size_t len = line_len(p, &next);
		if (len <= sl || strncmp(p, section, sl) != 0 || p[sl] != ':')
			continue;
		if (!hdr) {
			hdr = p + sl + 1;
			hdr_end = p + len;
			continue;
		}
		/* the value line after the header: the same position (fields walked in step,
		 * nothing copied but the one value) */
		const char *h = hdr, *v = p + sl + 1, *end = p + len, *hf, *vf;
		size_t hn, vn;
		while (next_field(&h, hdr_end, &hf, &hn) && next_field(&v, end, &vf, &vn)) {
			if (hn != kl || memcmp(hf, key, kl) != 0)
				continue;
			char num[64];
			pl_autofree char *big = vn >= sizeof(num) ? line_dup(vf, vn) : NULL;
			if (!big) {
				memcpy(num, vf, vn);
				num[vn] = '\0';
			}
			return pl_parse_u64(big ? big : num, out) < 0 ? -EINVAL : 0;
		}
		return -ENOENT;
	}
	return -ENOENT;
}

/* The files read at every snapshot, kept open between snapshots (pl_reader: one pread
 * each instead of open, fstat, read and close) until pl_mon_snap_close(). */
enum {
	F_STAT,
	F_LOADAVG,
	F_INTERRUPTS,
	F_SOFTIRQS,
	F_MEMINFO,
	F_VMSTAT,
	F_PSI_CPU,
	F_PSI_MEMORY,
	F_PSI_IO,
	F_DISKSTATS,
	F_NETDEV,
	F_SNMP,
	F_NETSTAT,
	F_N,
};
static const char *const snap_paths[F_N] = {
	[F_STAT] = "/proc/stat",
	[F_LOADAVG] = "/proc/loadavg",
	[F_INTERRUPTS] = "/proc/interrupts",
	[F_SOFTIRQS] = "/proc/softirqs",
	[F_MEMINFO] = "/proc/meminfo",
	[F_VMSTAT] = "/proc/vmstat",
	[F_PSI_CPU] = "/proc/pressure/cpu",
	[F_PSI_MEMORY] = "/proc/pressure/memory",
	[F_PSI_IO] = "/proc/pressure/io",
	[F_DISKSTATS] = "/proc/diskstats",
	[F_NETDEV] = "/proc/net/dev",
	[F_SNMP] = "/proc/net/snmp",
	[F_NETSTAT] = "/proc/net/netstat",
};
static struct pl_reader snap_files[F_N];

/* The text of file @f (in the sysroot, owned by its reader until its next read); NULL
 * when it cannot be read. */
static const char *slurp(int f)
{
	const char *t = NULL;
	return pl_reader_read(&snap_files[f], snap_paths[f], &t, NULL) < 0 ? NULL : t;
}

void pl_mon_snap_close(void)
{
	for (int f = 0; f < F_N; f++)
		pl_reader_close(&snap_files[f]);
}

/* Keep whole disks that have done I/O (iostat's default device list). */
static void filter_disks(struct pl_mon_snap *s)
{
	char **blk = NULL;
	size_t nb = 0;
	bool have_blk = pl_list_dir("/sys/block", &blk, &nb) == 0;
	size_t k = 0;
	for (size_t i = 0; i < s->ndisk; i++) {
		struct pl_mon_disk *d = &s->disk[i];
		bool whole = !have_blk;
		for (size_t b = 0; have_blk && b < nb && !whole; b++)
			whole = strcmp(blk[b], d->name) == 0;
		bool used = d->rd_ios || d->wr_ios || d->dc_ios || d->fl_ios;
		if (whole && used)
			s->disk[k++] = *d;
		else
			free(d->name);
	}
	s->ndisk = k;
	pl_strv_free(blk);
}

int pl_mon_snap_read(struct pl_mon_snap *out)
{
	struct pl_mon_snap s = { 0 };
	s.t_ns = pl_now_ns();
	const char *stat = slurp(F_STAT);
	if (!stat || pl_mon_parse_stat(stat, &s.stat) < 0)
		return -ENOENT;
	s.has_stat = true;
	const char *load = slurp(F_LOADAVG);
	s.has_load = load && pl_mon_parse_loadavg(load, &s.load) == 0;
	const char *irq = slurp(F_INTERRUPTS);
	if (irq)
		pl_mon_parse_irqtab(irq, &s.irq);
	const char *sirq = slurp(F_SOFTIRQS);
	if (sirq)
		pl_mon_parse_irqtab(sirq, &s.softirq);
	const char *mem = slurp(F_MEMINFO);
	if (mem)
		pl_mon_parse_meminfo(mem, &s.mem);
	const char *vm = slurp(F_VMSTAT);
	if (vm)
		pl_mon_parse_vmstat(vm, &s.vm);
	for (int i = 0; i < PL_MON_PSI_N; i++) {
		const char *t = slurp(F_PSI_CPU + i);
		if (t)
			pl_mon_parse_psi(t, &s.psi[i]);
	}
	const char *disk = slurp(F_DISKSTATS);
	if (disk && pl_mon_parse_diskstats(disk, &s.disk, &s.ndisk) == 0)
		filter_disks(&s);
	const char *net = slurp(F_NETDEV);
	if (net)
		pl_mon_parse_netdev(net, &s.net, &s.nnet);
	const char *snmp = slurp(F_SNMP);
	const char *nstat = slurp(F_NETSTAT);
	static const struct {
		int field;
		const char *sec, *key;
		bool netstat;
	} tcp[] = {
		{ PL_MON_TCP_OUTSEGS, "Tcp", "OutSegs", false },
		{ PL_MON_TCP_RETRANSSEGS, "Tcp", "RetransSegs", false },
		{ PL_MON_TCP_LISTENOVERFLOWS, "TcpExt", "ListenOverflows", true },
		{ PL_MON_TCP_LISTENDROPS, "TcpExt", "ListenDrops", true },
	};
	for (size_t i = 0; i < sizeof(tcp) / sizeof(tcp[0]); i++) {
		const char *t = tcp[i].netstat ? nstat : snmp;
		uint64_t v;
		if (t && pl_mon_snmp_get(t, tcp[i].sec, tcp[i].key, &v) == 0) {
			s.tcp.v[tcp[i].field] = v;
			s.tcp.have |= 1u << tcp[i].field;
		}
	}
	pl_mon_qat_read(&s.qat, &s.nqat);
	pl_mon_gpu_read(&s.gpu, &s.ngpu);
	*out = s;
	return 0;
}

void pl_mon_snap_free(struct pl_mon_snap *s)
{
	if (!s)
		return;
	stat_free(&s->stat);
	irqtab_free(&s->irq);
	irqtab_free(&s->softirq);
	pl_mon_disks_free(s->disk, s->ndisk);
	pl_mon_netifs_free(s->net, s->nnet);
	pl_mon_qats_free(s->qat, s->nqat);
	free(s->gpu);
	memset(s, 0, sizeof(*s));
}

void pl_mon_snap_move(struct pl_mon_snap *to, struct pl_mon_snap *from)
{
	pl_mon_snap_free(to);
	*to = *from;
	memset(from, 0, sizeof(*from));
}
