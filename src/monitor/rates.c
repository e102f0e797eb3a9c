/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rates of one interval from two snapshots (rates.h). The formulas are sysstat's:
 * mpstat's CPU shares of the tick deltas (sysstat rd_stats.c/mpstat.c), iostat -x's
 * r/s, rkB/s, r_await, aqu-sz and %util from the diskstats deltas
 * (Documentation/admin-guide/iostats.rst), sar -n DEV's per-interface rates. */
#include "monitor/rates.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "util/str.h"

const char *const pl_mon_group_names[PL_MON_G_N] = {
	[PL_MON_G_CPU] = "cpu",		 [PL_MON_G_STAT] = "stat", [PL_MON_G_IRQ] = "interrupts",
	[PL_MON_G_SOFTIRQ] = "softirqs", [PL_MON_G_VM] = "vmstat", [PL_MON_G_PSI] = "pressure",
	[PL_MON_G_DISK] = "disk",	 [PL_MON_G_NET] = "net",   [PL_MON_G_TCP] = "tcp",
	[PL_MON_G_ACCEL] = "accel",
};

/* @b - @a per second, or NaN with the group's reset bit when the counter went down. */
static double rate(uint64_t a, uint64_t b, double dt, struct pl_mon_rates *r, int group)
{
	if (b < a) {
		r->reset_groups |= 1u << group;
		return NAN;
	}
	return (double)(b - a) / dt;
}

/* Rate of kv field @f present at both ends, else NaN. */
static double kv_rate(const struct pl_mon_kv *a, const struct pl_mon_kv *b, int f, double dt,
		      struct pl_mon_rates *r, int group)
{
	uint32_t bit = 1u << f;
	if (!(a->have & bit) || !(b->have & bit))
		return NAN;
	return rate(a->v[f], b->v[f], dt, r, group);
}

static double kv_level(const struct pl_mon_kv *b, int f)
{
	return b->have & (1u << f) ? (double)b->v[f] : NAN;
}

/* The shares of one CPU's tick deltas @d into @p. A field that went down counts 0 and
 * marks the interval. */
static void cpu_pct(const uint64_t *a, const uint64_t *b, struct pl_mon_cpupct *p,
		    struct pl_mon_rates *r)
{
	uint64_t d[PL_MON_CPU_NF];
	for (int i = 0; i < PL_MON_CPU_NF; i++) {
		if (b[i] < a[i]) {
			r->reset_groups |= 1u << PL_MON_G_CPU;
			d[i] = 0;
		} else {
			d[i] = b[i] - a[i];
		}
	}
	double tot = 0;
	for (int i = 0; i <= PL_MON_STEAL; i++)
		tot += (double)d[i];
	int cpu = p->cpu;
	double irq = p->irq_per_s, sirq = p->softirq_per_s;
	if (tot <= 0) {
		*p = (struct pl_mon_cpupct){ cpu, NAN, NAN, NAN, NAN, NAN, NAN,
					     NAN, NAN, NAN, NAN, irq, sirq };
		return;
	}
	double k = 100.0 / tot;
	p->user = d[PL_MON_USER] > d[PL_MON_GUEST] ? (double)(d[PL_MON_USER] - d[PL_MON_GUEST]) * k
						   : 0;
	p->nice = d[PL_MON_NICE] > d[PL_MON_GUEST_NICE]
			  ? (double)(d[PL_MON_NICE] - d[PL_MON_GUEST_NICE]) * k
			  : 0;
	p->system = (double)d[PL_MON_SYSTEM] * k;
	p->iowait = (double)d[PL_MON_IOWAIT] * k;
	p->irq = (double)d[PL_MON_IRQ] * k;
	p->softirq = (double)d[PL_MON_SOFTIRQ] * k;
	p->steal = (double)d[PL_MON_STEAL] * k;
	p->guest = (double)(d[PL_MON_GUEST] + d[PL_MON_GUEST_NICE]) * k;
	p->idle = (double)d[PL_MON_IDLE] * k;
	p->busy = 100.0 - p->idle - p->iowait;
	if (p->busy < 0)
		p->busy = 0;
}

/* Row @name of table @t, trying index @hint first (rows rarely move). -1 when absent. */
static long find_row(const struct pl_mon_irqtab *t, const char *name, size_t hint)
{
	if (hint < t->nrows && strcmp(t->rows[hint].name, name) == 0)
		return (long)hint;
	for (size_t i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* Column of CPU @cpu in @t, -1 when absent. */
static int find_col(const struct pl_mon_irqtab *t, int cpu)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->cols[c] == cpu)
			return c;
	return -1;
}

/* Per-CPU rates (into r->cpu[].irq_per_s or softirq_per_s, selected by @soft), the
 * all-CPU rate, and per-row rates into @src (at most @nsrc rows, NULL: none). */
static double table_rates(const struct pl_mon_irqtab *a, const struct pl_mon_irqtab *b, double dt,
			  struct pl_mon_rates *r, bool soft, struct pl_mon_source *src, size_t nsrc,
			  size_t *nout, bool top)
{
	int group = soft ? PL_MON_G_SOFTIRQ : PL_MON_G_IRQ;
	*nout = 0;
	if (!a->ncols || !b->ncols)
		return NAN;
	/* the columns present at both ends */
	int *acol = pl_xcalloc((size_t)b->ncols, sizeof(int));
	double *colsum = pl_xcalloc((size_t)b->ncols, sizeof(double));
	bool *colbad = pl_xcalloc((size_t)b->ncols, sizeof(bool));
	for (int c = 0; c < b->ncols; c++)
		acol[c] = find_col(a, b->cols[c]);
	double all = 0;
	bool allbad = false;
	/* the row behind each src[] entry: names are formatted for the kept ones only, at
	 * the end (a machine has thousands of IRQ rows and PL_MON_TOP of them are kept) */
	const struct pl_mon_irqrow
		*from[PL_MON_SOFTIRQ_MAX > PL_MON_TOP ? PL_MON_SOFTIRQ_MAX : PL_MON_TOP];
	if (nsrc > sizeof(from) / sizeof(from[0]))
		nsrc = sizeof(from) / sizeof(from[0]);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct pl_mon_irqrow *rb = &b->rows[i];
		if (!rb->full)
			continue;
		long ia = find_row(a, rb->name, i);
		if (ia < 0 || !a->rows[ia].full)
			continue;
		const uint64_t *cb = b->counts + i * (size_t)b->ncols;
		const uint64_t *ca = a->counts + (size_t)ia * (size_t)a->ncols;
		double row = 0;
		bool bad = false;
		for (int c = 0; c < b->ncols; c++) {
			if (acol[c] < 0)
				continue;
			if (cb[c] < ca[acol[c]]) {
				bad = colbad[c] = true;
				continue;
			}
			double d = (double)(cb[c] - ca[acol[c]]);
			colsum[c] += d;
			row += d;
		}
		if (bad) {
			r->reset_groups |= 1u << group;
			allbad = true;
			continue;
		}
		all += row;
		if (!src)
			continue;
		double per_s = row / dt;
		if (!top) {
			if (*nout < nsrc) {
				from[*nout] = rb;
				src[(*nout)++].per_s = per_s;
			}
			continue;
		}
		/* keep the @nsrc highest, sorted */
		if (per_s <= 0)
			continue;
		size_t k = *nout < nsrc ? (*nout)++ : nsrc;
		if (k == nsrc && per_s <= src[nsrc - 1].per_s)
			continue;
		if (k == nsrc)
			k = nsrc - 1;
		while (k > 0 && src[k - 1].per_s < per_s) {
			src[k].per_s = src[k - 1].per_s;
			from[k] = from[k - 1];
			k--;
		}
		src[k].per_s = per_s;
		from[k] = rb;
	}
	for (size_t k = 0; src && k < *nout; k++) {
		if (from[k]->desc[0] && !soft)
			snprintf(src[k].name, sizeof(src[k].name), "%s %s", from[k]->name,
				 from[k]->desc);
		else
			snprintf(src[k].name, sizeof(src[k].name), "%s", from[k]->name);
	}
	for (size_t i = 0; i < r->ncpu; i++) {
		int c = find_col(b, r->cpu[i].cpu);
		double v = c < 0 || acol[c] < 0 || colbad[c] ? NAN : colsum[c] / dt;
		if (soft)
			r->cpu[i].softirq_per_s = v;
		else
			r->cpu[i].irq_per_s = v;
	}
	free(acol);
	free(colsum);
	free(colbad);
	return allbad ? NAN : all / dt;
}

static void cpu_rates(const struct pl_mon_stat *a, const struct pl_mon_stat *b,
		      const struct pl_cpuset *cpus, struct pl_mon_rates *r)
{
	bool same = a->ncpu == b->ncpu;
	for (int c = 0; same && c < a->ncpu; c++)
		same = a->online[c] == b->online[c];
	if (!same)
		r->flags |= PL_MON_F_CPUS_CHANGED;
	int n = a->ncpu < b->ncpu ? a->ncpu : b->ncpu;
	r->cpu = pl_xcalloc((size_t)(n ? n : 1), sizeof(*r->cpu));
	uint64_t suma[PL_MON_CPU_NF] = { 0 }, sumb[PL_MON_CPU_NF] = { 0 };
	for (int c = 0; c < n; c++) {
		if (!a->online[c] || !b->online[c])
			continue;
		for (int f = 0; f < PL_MON_CPU_NF; f++)
			suma[f] += a->cpu[c][f], sumb[f] += b->cpu[c][f];
		if (cpus && !pl_cpuset_isset(cpus, (unsigned)c))
			continue;
		struct pl_mon_cpupct *p = &r->cpu[r->ncpu++];
		*p = (struct pl_mon_cpupct){ .cpu = c, .irq_per_s = NAN, .softirq_per_s = NAN };
		cpu_pct(a->cpu[c], b->cpu[c], p, r);
	}
	r->all = (struct pl_mon_cpupct){ .cpu = -1 };
	/* the "cpu" line sums the online CPUs: after a CPU went away it can go down, so
	 * then the sum of the CPUs present at both ends is used; so too when no CPU's own line
	 * moved (an interval shorter than a tick): the kernel rounds the total to ticks on
	 * its own, and a tick it shows alone would make the whole machine 0% or 100% busy
	 * while every CPU says nothing */
	uint64_t moved = 0;
	for (int f = 0; f <= PL_MON_STEAL; f++)
		moved += sumb[f] > suma[f] ? sumb[f] - suma[f] : 0;
	if (same && a->has_total && b->has_total && moved > 0)
		cpu_pct(a->total, b->total, &r->all, r);
	else
		cpu_pct(suma, sumb, &r->all, r);
}

/* The entry of @arr (@n entries of @size bytes, each with a pointer to its NUL-terminated
 * name at byte @off) named @name, or NULL: the same disk, interface or device in the earlier
 * snapshot (entries come and go between snapshots; only those in both get rates). */
static const void *same_name(const void *arr, size_t n, size_t size, size_t off, const char *name)
{
	for (size_t j = 0; j < n; j++) {
		const char *e = (const char *)arr + j * size, *en;
		memcpy(&en, e + off, sizeof(en));
		if (en && strcmp(en, name) == 0)
			return e;
	}
	return NULL;
}
#define SAME_NAME(ARR, N, NAME)                                                                    \
	same_name((ARR), (N), sizeof(*(ARR)), offsetof(__typeof__(*(ARR)), name), (NAME))

static void disk_rates(const struct pl_mon_snap *a, const struct pl_mon_snap *b, double dt,
		       struct pl_mon_rates *r)
{
	r->disk = pl_xcalloc(b->ndisk ? b->ndisk : 1, sizeof(*r->disk));
	for (size_t i = 0; i < b->ndisk; i++) {
		const struct pl_mon_disk *db = &b->disk[i];
		const struct pl_mon_disk *da = SAME_NAME(a->disk, a->ndisk, db->name);
		if (!da)
			continue;
		struct pl_mon_disk_rate *o = &r->disk[r->ndisk++];
		o->name = pl_xstrdup(db->name);
		o->r_per_s = rate(da->rd_ios, db->rd_ios, dt, r, PL_MON_G_DISK);
		o->w_per_s = rate(da->wr_ios, db->wr_ios, dt, r, PL_MON_G_DISK);
		o->read_Bps = rate(da->rd_sectors, db->rd_sectors, dt, r, PL_MON_G_DISK) * 512;
		o->write_Bps = rate(da->wr_sectors, db->wr_sectors, dt, r, PL_MON_G_DISK) * 512;
		o->aqu_sz = rate(da->weighted_ms, db->weighted_ms, dt, r, PL_MON_G_DISK) / 1000;
		double u = rate(da->io_ms, db->io_ms, dt, r, PL_MON_G_DISK) / 10;
		o->util_pct = u > 100 ? 100 : u;
		double rios = (double)db->rd_ios - (double)da->rd_ios;
		double wios = (double)db->wr_ios - (double)da->wr_ios;
		double rms = (double)db->rd_ms - (double)da->rd_ms;
		double wms = (double)db->wr_ms - (double)da->wr_ms;
		o->r_await_ms = rios > 0 && rms >= 0 ? rms / rios : NAN;
		o->w_await_ms = wios > 0 && wms >= 0 ? wms / wios : NAN;
	}
}

static void net_rates(const struct pl_mon_snap *a, const struct pl_mon_snap *b, double dt,
		      struct pl_mon_rates *r)
{
	r->net = pl_xcalloc(b->nnet ? b->nnet : 1, sizeof(*r->net));
	for (size_t i = 0; i < b->nnet; i++) {
		const struct pl_mon_netif *nb = &b->net[i];
		const struct pl_mon_netif *na = SAME_NAME(a->net, a->nnet, nb->name);
		if (!na)
			continue;
		struct pl_mon_net_rate *o = &r->net[r->nnet++];
		o->name = pl_xstrdup(nb->name);
		o->rx_pps = rate(na->rx_packets, nb->rx_packets, dt, r, PL_MON_G_NET);
		o->tx_pps = rate(na->tx_packets, nb->tx_packets, dt, r, PL_MON_G_NET);
		o->rx_Bps = rate(na->rx_bytes, nb->rx_bytes, dt, r, PL_MON_G_NET);
		o->tx_Bps = rate(na->tx_bytes, nb->tx_bytes, dt, r, PL_MON_G_NET);
		o->rx_drop_per_s = rate(na->rx_drop, nb->rx_drop, dt, r, PL_MON_G_NET);
		o->tx_drop_per_s = rate(na->tx_drop, nb->tx_drop, dt, r, PL_MON_G_NET);
		o->rx_err_per_s = rate(na->rx_errs, nb->rx_errs, dt, r, PL_MON_G_NET);
		o->tx_err_per_s = rate(na->tx_errs, nb->tx_errs, dt, r, PL_MON_G_NET);
	}
}

static void mem_rates(const struct pl_mon_snap *a, const struct pl_mon_snap *b, double dt,
		      struct pl_mon_rates *r)
{
	const struct pl_mon_kv *m = &b->mem;
	r->mem_total = kv_level(m, PL_MON_MEM_TOTAL);
	r->mem_free = kv_level(m, PL_MON_MEM_FREE);
	r->mem_available = kv_level(m, PL_MON_MEM_AVAILABLE);
	r->mem_cached = kv_level(m, PL_MON_MEM_CACHED);
	r->mem_dirty = kv_level(m, PL_MON_MEM_DIRTY);
	r->mem_writeback = kv_level(m, PL_MON_MEM_WRITEBACK);
	double st = kv_level(m, PL_MON_MEM_SWAPTOTAL), sf = kv_level(m, PL_MON_MEM_SWAPFREE);
	r->swap_used = st >= sf ? st - sf : NAN;
	const struct pl_mon_kv *va = &a->vm, *vb = &b->vm;
	int g = PL_MON_G_VM;
	double all = kv_rate(va, vb, PL_MON_VM_PGFAULT, dt, r, g);
	r->majflt_per_s = kv_rate(va, vb, PL_MON_VM_PGMAJFAULT, dt, r, g);
	/* pgfault counts every fault, pgmajfault the major ones (sar -B's fault/s, majflt/s) */
	r->minflt_per_s = all >= r->majflt_per_s ? all - r->majflt_per_s : NAN;
	r->swapin_per_s = kv_rate(va, vb, PL_MON_VM_PSWPIN, dt, r, g);
	r->swapout_per_s = kv_rate(va, vb, PL_MON_VM_PSWPOUT, dt, r, g);
	double tf = kv_rate(va, vb, PL_MON_VM_THP_FAULT_ALLOC, dt, r, g);
	double tc = kv_rate(va, vb, PL_MON_VM_THP_COLLAPSE_ALLOC, dt, r, g);
	r->thp_alloc_per_s = isnan(tf) ? tc : isnan(tc) ? tf : tf + tc;
	r->compact_stall_per_s = kv_rate(va, vb, PL_MON_VM_COMPACT_STALL, dt, r, g);
	r->numa_hit_per_s = kv_rate(va, vb, PL_MON_VM_NUMA_HIT, dt, r, g);
	r->numa_miss_per_s = kv_rate(va, vb, PL_MON_VM_NUMA_MISS, dt, r, g);
	r->numa_local_per_s = kv_rate(va, vb, PL_MON_VM_NUMA_LOCAL, dt, r, g);
	r->numa_other_per_s = kv_rate(va, vb, PL_MON_VM_NUMA_OTHER, dt, r, g);
	double den = r->numa_local_per_s + r->numa_other_per_s;
	r->numa_remote_ratio = den > 0 ? r->numa_other_per_s / den : NAN;
}

static void accel_rates(const struct pl_mon_snap *a, const struct pl_mon_snap *b, double dt,
			struct pl_mon_rates *r)
{
	/* a QAT entry holds its telemetry tables (~20 KB): none allocated without a device */
	r->qat = b->nqat ? pl_xcalloc(b->nqat, sizeof(*r->qat)) : NULL;
	for (size_t i = 0; i < b->nqat; i++) {
		const struct pl_mon_qat *qb = &b->qat[i];
		const struct pl_mon_qat *qa = SAME_NAME(a->qat, a->nqat, qb->name);
		if (!qa)
			continue;
		struct pl_mon_qat_rate *o = &r->qat[r->nqat++];
		o->name = pl_xstrdup(qb->name);
		o->requests_per_s = rate(qa->requests, qb->requests, dt, r, PL_MON_G_ACCEL);
		o->responses_per_s = rate(qa->responses, qb->responses, dt, r, PL_MON_G_ACCEL);
		o->ras_events_per_s =
			qa->has_ras && qb->has_ras
				? rate(qa->ras_events, qb->ras_events, dt, r, PL_MON_G_ACCEL)
				: NAN;
		o->has_tl = qb->has_tl;
		o->tl = qb->tl;
		memcpy(o->has_rp, qb->has_rp, sizeof(o->has_rp));
		memcpy(o->rp, qb->rp, sizeof(o->rp));
	}
	r->ngpu = b->ngpu;
	r->gpu = pl_xcalloc(b->ngpu ? b->ngpu : 1, sizeof(*r->gpu));
	if (b->ngpu)
		memcpy(r->gpu, b->gpu, b->ngpu * sizeof(*r->gpu));
}

static void psi_rates(const struct pl_mon_snap *a, const struct pl_mon_snap *b, double dt,
		      struct pl_mon_rates *r)
{
	for (int i = 0; i < PL_MON_PSI_N; i++) {
		const struct pl_mon_psi *pa = &a->psi[i], *pb = &b->psi[i];
		r->psi_some_pct[i] = r->psi_full_pct[i] = r->psi_some_avg10[i] = NAN;
		if (!pa->present || !pb->present)
			continue;
		r->psi_present[i] = true;
		r->psi_some_avg10[i] = pb->some_avg10;
		double s = rate(pa->some_total_us, pb->some_total_us, dt, r, PL_MON_G_PSI) / 1e4;
		r->psi_some_pct[i] = s > 100 ? 100 : s;
		if (pa->has_full && pb->has_full) {
			double f = rate(pa->full_total_us, pb->full_total_us, dt, r, PL_MON_G_PSI) /
				   1e4;
			r->psi_full_pct[i] = f > 100 ? 100 : f;
		}
	}
}

int pl_mon_rates_compute(const struct pl_mon_snap *a, const struct pl_mon_snap *b,
			 const struct pl_cpuset *cpus, uint64_t t0_ns, struct pl_mon_rates *out)
{
	if (b->t_ns <= a->t_ns)
		return -EINVAL;
	struct pl_mon_rates *r = out;
	memset(r, 0, sizeof(*r));
	double dt = (double)(b->t_ns - a->t_ns) / 1e9;
	r->dt_s = dt;
	r->t_s = (double)(b->t_ns - t0_ns) / 1e9;
	cpu_rates(&a->stat, &b->stat, cpus, r);
	r->ctxt_per_s = a->stat.has_ctxt && b->stat.has_ctxt
				? rate(a->stat.ctxt, b->stat.ctxt, dt, r, PL_MON_G_STAT)
				: NAN;
	r->forks_per_s = a->stat.has_processes && b->stat.has_processes
				 ? rate(a->stat.processes, b->stat.processes, dt, r, PL_MON_G_STAT)
				 : NAN;
	r->blocked = (double)b->stat.procs_blocked;
	for (int i = 0; i < 3; i++)
		r->load[i] = b->has_load ? b->load.avg[i] : NAN;
	r->running = b->has_load ? (double)b->load.running : (double)b->stat.procs_running;
	r->tasks = b->has_load ? (double)b->load.tasks : NAN;
	r->irq_per_s = table_rates(&a->irq, &b->irq, dt, r, false, r->irq_top, PL_MON_TOP,
				   &r->nirq_top, true);
	r->softirq_per_s = table_rates(&a->softirq, &b->softirq, dt, r, true, r->softirq,
				       PL_MON_SOFTIRQ_MAX, &r->nsoftirq, false);
	mem_rates(a, b, dt, r);
	psi_rates(a, b, dt, r);
	disk_rates(a, b, dt, r);
	net_rates(a, b, dt, r);
	accel_rates(a, b, dt, r);
	const struct pl_mon_kv *ta = &a->tcp, *tb = &b->tcp;
	r->tcp_outsegs_per_s = kv_rate(ta, tb, PL_MON_TCP_OUTSEGS, dt, r, PL_MON_G_TCP);
	r->tcp_retrans_per_s = kv_rate(ta, tb, PL_MON_TCP_RETRANSSEGS, dt, r, PL_MON_G_TCP);
	r->listen_overflows_per_s =
		kv_rate(ta, tb, PL_MON_TCP_LISTENOVERFLOWS, dt, r, PL_MON_G_TCP);
	r->listen_drops_per_s = kv_rate(ta, tb, PL_MON_TCP_LISTENDROPS, dt, r, PL_MON_G_TCP);
	if (r->reset_groups)
		r->flags |= PL_MON_F_RESET;
	return 0;
}

void pl_mon_rates_free(struct pl_mon_rates *r)
{
	if (!r)
		return;
	free(r->cpu);
	for (size_t i = 0; i < r->ndisk; i++)
		free(r->disk[i].name);
	free(r->disk);
	for (size_t i = 0; i < r->nnet; i++)
		free(r->net[i].name);
	free(r->net);
	for (size_t i = 0; i < r->nqat; i++)
		free(r->qat[i].name);
	free(r->qat);
	free(r->gpu);
	memset(r, 0, sizeof(*r));
}
