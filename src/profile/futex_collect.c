/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `profile --locks`, the collecting half: the futex syscall tracepoints opened on every
 * CPU (profile/tprings.h), their records decoded into the wait log as the rings drain, each
 * wait's user stack unwound (a memoised CFI unwind of the stack copy, so the caller of
 * pthread_mutex_lock is found), and at the end the analysis of profile/futex.c run over
 * the log. */
#include "profile/futex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/decode.h"
#include "profile/tprings.h"
#include "profile/tracefs.h"
#include "profile/unwind.h"
#include "util/str.h"

/* x86-64 user registers in the order profile/unwind.h reads them (perf_event.c) */
#define REGS_MASK 0x00ff01ffull
#define REG_IP 8 /* AX BX CX DX SI DI BP SP IP R8..R15: the pc's index */
#define ST_BASE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

static const char *const call_names[PL_FUTEX_NCALLS] = { "futex", "futex_waitv", "futex_wait",
							 "futex_wake" };

/* One ring's bookkeeping for the lost-event rule. */
struct ringstat {
	uint64_t last;	   /* time of its last record */
	uint64_t read;	   /* samples read from it */
	uint64_t lost_rec; /* drops its PERF_RECORD_LOST records reported */
	uint64_t bad;	   /* samples that could not be decoded */
	bool broken;	   /* a loss or a bad sample since @last: a gap opens there */
};

/* The CFI unwind of a wait's libc frames is memoised: a stack unwound before from the
 * same pc with the same frame-pointer chain, whose return addresses the new copy holds
 * at the same offsets from the stack pointer, is the same stack (the frames' sizes
 * follow from their pcs). A contended lock is waited on from few places, so most waits
 * skip libdwfl. */
#define MEMO_SLOTS 4096
#define MEMO_RAS 16

struct memo {
	bool used;
	uint32_t pid;
	uint64_t ip, fphash;
	uint32_t nra;
	uint16_t off[MEMO_RAS]; /* byte offset in the stack copy of each return address */
	uint64_t ra[MEMO_RAS];
	uint32_t stack; /* the interned result */
};

struct pl_futex {
	struct pl_tp_rings t;
	struct pl_futex_fmt fmt;
	uint8_t call[2 * PL_FUTEX_NCALLS]; /* per opened event: its call */
	bool exit[2 * PL_FUTEX_NCALLS];	   /* per opened event: a sys_exit_* */
	uint64_t st[2 * PL_FUTEX_NCALLS];  /* per opened event: its sample_type */
	size_t nev;
	struct ringstat *rs;
	struct pl_unwinder *unwinder;
	struct memo *memo; /* MEMO_SLOTS, with the unwinder */
	uint64_t memo_hits;
	struct pl_futex_log log;
	uint8_t *scratch;
	/* during a drain */
	struct pl_profile *p;
	size_t ring;
	/* after pl_futex_finish */
	bool finished;
	uint64_t fired_extra; /* drops no record reported */
	struct pl_futex_result res;
	struct pl_futex_site *sites;
	size_t nsites;
	uint64_t wall_ns;
};

static struct pl_futex_field fmt_field(const char *fmt, const char *name)
{
	struct pl_futex_field fl = { -1, -1 };
	if (fmt && pl_tracefs_field(fmt, name, &fl.off, &fl.size) < 0)
		fl = (struct pl_futex_field){ -1, -1 };
	return fl;
}

int pl_futex_open(struct pl_futex **out, const pid_t *pids, size_t npids, const int *cpus,
		  size_t ncpus, bool on_exec, bool inherit, uint32_t stack_bytes)
{
	const char *dir = pl_tracefs_dir("syscalls");
	if (!dir)
		return pl_tracefs_missing_errno();
	struct pl_futex *f = pl_xcalloc(1, sizeof(*f));
	uint64_t configs[2 * PL_FUTEX_NCALLS];
	f->fmt.ret = (struct pl_futex_field){ -1, -1 };
	for (int c = 0; c < PL_FUTEX_NCALLS; c++) {
		f->fmt.uaddr[c] = f->fmt.op[c] = (struct pl_futex_field){ -1, -1 };
		if (c == PL_FUTEX_CALL_FUTEX)
			f->fmt.val = (struct pl_futex_field){ -1, -1 };
		char en[64], ex[64];
		snprintf(en, sizeof(en), "sys_enter_%s", call_names[c]);
		snprintf(ex, sizeof(ex), "sys_exit_%s", call_names[c]);
		uint64_t id_en, id_ex;
		char *fe = NULL, *fx = NULL;
		int r = pl_tracefs_event(dir, "syscalls", en, &id_en, &fe);
		if (r == 0)
			r = pl_tracefs_event(dir, "syscalls", ex, &id_ex, &fx);
		if (r == 0) {
			f->fmt.uaddr[c] = fmt_field(fe, "uaddr");
			f->fmt.op[c] = fmt_field(fe, "op");
			if (c == PL_FUTEX_CALL_FUTEX)
				f->fmt.val = fmt_field(fe, "val");
			struct pl_futex_field ret = fmt_field(fx, "ret");
			if (ret.off >= 0)
				f->fmt.ret = ret;
		}
		free(fe);
		free(fx);
		if (r < 0) {
			if (c == PL_FUTEX_CALL_FUTEX) { /* futex(2) itself is required */
				pl_futex_close(f);
				return r == -EACCES || r == -EPERM ? r : -ENOENT;
			}
			continue; /* futex_waitv, futex_wait, futex_wake: where present */
		}
		for (int k = 0; k < 2; k++) {
			f->call[f->nev] = (uint8_t)c;
			f->exit[f->nev] = k;
			f->st[f->nev] =
				k ? ST_BASE | PERF_SAMPLE_RAW
				  : ST_BASE | PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN |
						(stack_bytes ? PERF_SAMPLE_REGS_USER |
								       PERF_SAMPLE_STACK_USER
							     : 0);
			configs[f->nev++] = k ? id_ex : id_en;
		}
	}
	struct perf_event_attr a = { 0 };
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.sample_period = 1;
	a.sample_id_all = 1; /* the time of a PERF_RECORD_LOST: where the gap ends */
	a.exclude_callchain_kernel = 1;
	a.sample_regs_user = stack_bytes ? REGS_MASK : 0;
	a.sample_stack_user = stack_bytes;
	a.disabled = 1;
	a.enable_on_exec = on_exec;
	a.inherit = inherit;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = 4096u * 4096u / 4; /* a quarter of the 16 MiB ring */
	int r = pl_tp_open(&f->t, &a, configs, f->st, f->nev, pids, npids, cpus, ncpus, 4096);
	if (r < 0) {
		pl_futex_close(f);
		return r;
	}
	f->rs = pl_xcalloc(f->t.s.nrings + 1, sizeof(*f->rs));
	f->unwinder = stack_bytes ? pl_unwind_new() : NULL;
	f->memo = stack_bytes ? pl_xcalloc(MEMO_SLOTS, sizeof(*f->memo)) : NULL;
	f->scratch = pl_xmalloc(PL_REC_MAX);
	*out = f;
	return 0;
}

void pl_futex_enable(struct pl_futex *f)
{
	pl_pe_enable(&f->t.s);
}

void pl_futex_disable(struct pl_futex *f)
{
	pl_pe_disable(&f->t.s);
}

/* A loss or a bad sample in the current ring: the gap runs from its last record to the
 * next one at or after it (an older one, written out of order from an interrupt, leaves
 * it open), or to the end of the run. */
static void ring_broken(struct pl_futex *f)
{
	f->rs[f->ring].broken = true;
}

static void ring_seen(struct pl_futex *f, uint64_t time)
{
	struct ringstat *r = &f->rs[f->ring];
	if (r->broken && time >= r->last) {
		pl_futex_log_gap(&f->log, r->last, time);
		r->broken = false;
	}
	if (time > r->last)
		r->last = time;
}

static uint64_t hash_ips(const uint64_t *v, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < n; i++) {
		h ^= v[i];
		h *= 0x100000001b3ull;
		h ^= h >> 31;
	}
	return h;
}

/* The stack word at byte @off of @s's copy, or 0 past what was copied. */
static uint64_t stack_word(const struct pl_sample *s, size_t off)
{
	uint64_t w = 0;
	if (off + 8 <= s->stack_dyn)
		memcpy(&w, s->stack + off, 8);
	return w;
}

static bool memo_hit(const struct memo *m, const struct pl_sample *s)
{
	for (uint32_t i = 0; i < m->nra; i++)
		if (stack_word(s, m->off[i]) != m->ra[i])
			return false;
	return true;
}

/* Remember where the return addresses of @ips (@n pcs, leaf first, as unwound) lie in
 * @s's copy, in order; nothing when none is there. */
static void memo_put(struct memo *m, uint32_t pid, uint64_t ip, uint64_t fphash,
		     const struct pl_sample *s, const uint64_t *ips, uint32_t n, uint32_t stack)
{
	struct memo x = { .used = true, .pid = pid, .ip = ip, .fphash = fphash, .stack = stack };
	size_t off = 0;
	for (uint32_t i = 1; i < n && x.nra < MEMO_RAS; i++) {
		while (off + 8 <= s->stack_dyn && stack_word(s, off) != ips[i])
			off += 8;
		if (off + 8 > s->stack_dyn || off > UINT16_MAX)
			break; /* beyond the copy */
		x.off[x.nra] = (uint16_t)off;
		x.ra[x.nra++] = ips[i];
		off += 8;
	}
	if (x.nra)
		*m = x;
}

/* The enter's stack: the frame-pointer chain (user only), with the CFI unwind of the
 * copied stack in front where there is one. */
static uint32_t enter_stack(struct pl_futex *f, const struct pl_sample *s)
{
	uint64_t buf[PL_STACK_MAX];
	uint32_t n = 0;
	for (uint64_t i = 0; s->ips && i < s->nr && n < PL_STACK_MAX; i++)
		if (s->ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			buf[n++] = s->ips[i];
	if (!f->unwinder || !s->regs || !s->stack || s->nregs <= REG_IP)
		return n ? pl_profile_intern_stack(f->p, s->pid, buf, n) : PL_FUTEX_NO_STACK;
	uint64_t ip = s->regs[REG_IP], fph = hash_ips(buf, n);
	struct memo *m = &f->memo[(hash_ips(&ip, 1) ^ fph ^ s->pid) & (MEMO_SLOTS - 1)];
	if (m->used && m->pid == s->pid && m->ip == ip && m->fphash == fph && memo_hit(m, s)) {
		f->memo_hits++;
		return m->stack;
	}
	bool unwound, cut;
	n = pl_profile_join_dwarf(f->p, f->unwinder, s, buf, n, &unwound, &cut);
	uint32_t st = n ? pl_profile_intern_stack(f->p, s->pid, buf, n) : PL_FUTEX_NO_STACK;
	if (unwound && st != PL_FUTEX_NO_STACK)
		memo_put(m, s->pid, ip, fph, s, buf, n, st);
	return st;
}

static int on_rec(void *ctx, const struct perf_event_header *h)
{
	struct pl_futex *f = ctx;
	struct ringstat *rs = &f->rs[f->ring];
	if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES) {
		/* LOST: { u64 id; u64 lost; sample_id }, LOST_SAMPLES: { u64 lost; sample_id } */
		size_t at = h->type == PERF_RECORD_LOST ? 8 : 0;
		uint64_t v = 0;
		if (h->size >= sizeof(*h) + at + 8)
			memcpy(&v, (const uint8_t *)(h + 1) + at, 8);
		rs->lost_rec += v;
		f->log.lost += v;
		ring_broken(f);
		struct pl_sample_id sid;
		if (pl_parse_sample_id(h, ST_BASE, &sid) == 0)
			ring_seen(f, sid.time);
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	uint64_t id;
	int k = -1;
	if (h->size >= sizeof(*h) + 8) {
		memcpy(&id, h + 1, 8); /* PERF_SAMPLE_IDENTIFIER comes first */
		k = pl_tp_event_of(&f->t, id);
	}
	struct pl_sample sm;
	struct pl_futex_ev e = { 0 };
	if (k < 0 ||
	    pl_parse_sample(h, f->st[k], f->st[k] & PERF_SAMPLE_REGS_USER ? REGS_MASK : 0, &sm) <
		    0 ||
	    pl_futex_decode(&f->fmt, (enum pl_futex_call)f->call[k], f->exit[k], sm.raw,
			    sm.raw_size, &e) < 0) {
		rs->bad++; /* lost as surely as a dropped one */
		f->log.lost++;
		ring_broken(f);
		return 0;
	}
	rs->read++;
	ring_seen(f, sm.time);
	e.time = sm.time;
	e.pid = sm.pid;
	e.tid = sm.tid;
	e.ring = (uint32_t)f->ring;
	e.stack = !e.exit && e.cls == PL_FUTEX_WAIT ? enter_stack(f, &sm) : PL_FUTEX_NO_STACK;
	pl_futex_log_add(&f->log, &e);
	return 0;
}

void pl_futex_drain(struct pl_futex *f, struct pl_profile *p)
{
	f->p = p;
	for (size_t i = 0; i < f->t.s.nrings; i++) {
		struct pl_pe_ring *r = &f->t.s.rings[i];
		uint64_t head = pl_pe_ring_head(r), tail = pl_pe_ring_tail(r);
		bool bad = false;
		f->ring = i;
		uint64_t nt = pl_ring_walk(r->data, r->data_size, tail, head, f->scratch, on_rec, f,
					   &bad);
		if (bad)
			ring_broken(f);
		pl_pe_ring_set_tail(r, bad ? head : nt);
	}
}

void pl_futex_finish(struct pl_futex *f, struct pl_profile *p, uint64_t wall_ns)
{
	if (f->finished)
		return;
	f->finished = true;
	f->wall_ns = wall_ns;
	/* drops no record reported: what the kernel counted minus what was read and
	 * reported lost, a gap from the ring's last record to the end */
	uint64_t *fired = pl_xcalloc(f->t.s.nrings + 1, sizeof(uint64_t));
	bool have = pl_tp_fired(&f->t, fired) == 0;
	for (size_t i = 0; i < f->t.s.nrings; i++) {
		struct ringstat *r = &f->rs[i];
		uint64_t known = r->read + r->lost_rec + r->bad;
		if (have && fired[i] > known) {
			f->log.lost += fired[i] - known;
			f->fired_extra += fired[i] - known;
			r->broken = true;
		}
		if (r->broken)
			pl_futex_log_gap(&f->log, r->last, UINT64_MAX);
	}
	free(fired);
	/* the threads the profile knows (FORK and COMM records, /proc at attach): a wait
	 * on one's id is a join */
	uint32_t *tids = pl_xmalloc((p->nthreads + 1) * 2 * sizeof(uint32_t));
	for (size_t i = 0; i < p->nthreads; i++) {
		tids[2 * i] = p->threads[i].pid;
		tids[2 * i + 1] = p->threads[i].tid;
	}
	pl_futex_mark_joins(&f->log, tids, p->nthreads);
	free(tids);
	pl_futex_analyze(&f->log, &f->res);
	pl_futex_sites_build(&f->res, p, &f->sites, &f->nsites);
}

const struct pl_futex_result *pl_futex_result(const struct pl_futex *f)
{
	return &f->res;
}

const struct pl_futex_site *pl_futex_sites(const struct pl_futex *f, size_t *n)
{
	*n = f->nsites;
	return f->sites;
}

uint64_t pl_futex_wall_ns(const struct pl_futex *f)
{
	return f->wall_ns;
}

const char *pl_futex_strerror(int err)
{
	if (err == -ENOENT)
		return "the syscalls:sys_enter_futex and sys_exit_futex tracepoints are not "
		       "available (a kernel with CONFIG_FTRACE_SYSCALLS, and tracefs mounted: "
		       "'mount -t tracefs nodev /sys/kernel/tracing' as root)";
	if (err == -EACCES || err == -EPERM)
		return "no permission for the futex tracepoints (run as root, or give CAP_PERFMON "
		       "with a tracefs this user can read, e.g. 'mount -o remount,mode=755 "
		       "/sys/kernel/tracing')";
	return strerror(-err);
}

void pl_futex_close(struct pl_futex *f)
{
	if (!f)
		return;
	pl_tp_close(&f->t);
	pl_unwind_free(f->unwinder);
	free(f->memo);
	pl_futex_log_free(&f->log);
	pl_futex_result_free(&f->res);
	pl_futex_sites_free(f->sites, f->nsites);
	free(f->rs);
	free(f->scratch);
	free(f);
}
