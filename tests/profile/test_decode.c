/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests without a kernel: ring-buffer decoding (records that wrap, a header split
 * at the end of the ring, LOST and LOST_SAMPLES), the perf_event_open fallbacks through
 * the fault shim (pl_perf_open_hook), and folded output from a synthetic profile whose
 * frames resolve through a JIT map. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/decode.h"
#include "profile/tracefs.h"
#include "profile/perf_event.h"
#include "profile/profile.h"
#include "profile/aggregate.h"

#define ST                                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* Byte builder for records as the kernel lays them out. */
struct rb {
	uint8_t b[4096];
	size_t n;
};

static void u64(struct rb *r, uint64_t v)
{
	memcpy(r->b + r->n, &v, 8);
	r->n += 8;
}

static void hdr(struct rb *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };
	memcpy(r->b + r->n, &h, sizeof(h));
	r->n += sizeof(h);
}

static void fix_size(struct rb *r, size_t start)
{
	uint16_t sz = (uint16_t)(r->n - start);
	memcpy(r->b + start + 6, &sz, 2);
}

/* sample_id trailer for non-sample records with ST: TID, TIME, CPU, IDENTIFIER */
static void sid(struct rb *r, uint32_t pid, uint32_t tid, uint64_t time)
{
	u64(r, (uint64_t)tid << 32 | pid);
	u64(r, time);
	u64(r, 0);
	u64(r, 7);
}

static void sample(struct rb *r, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
		   const uint64_t *chain, size_t n, bool kernel)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	u64(r, 7);	  /* identifier */
	u64(r, chain[0]); /* ip */
	u64(r, (uint64_t)tid << 32 | pid);
	u64(r, time);
	u64(r, cpu);
	u64(r, 1001001); /* period */
	u64(r, n + 1);
	u64(r, kernel ? (uint64_t)PERF_CONTEXT_KERNEL : (uint64_t)PERF_CONTEXT_USER);
	for (size_t i = 0; i < n; i++)
		u64(r, chain[i]);
	fix_size(r, s);
}

static void lost(struct rb *r, uint64_t n)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_LOST, 0);
	u64(r, 7);
	u64(r, n);
	sid(r, 1, 1, 5);
	fix_size(r, s);
}

static void lost_samples(struct rb *r, uint64_t n)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_LOST_SAMPLES, 0);
	u64(r, n);
	sid(r, 1, 1, 5);
	fix_size(r, s);
}

static void comm(struct rb *r, uint32_t pid, uint32_t tid, const char *name)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_COMM, 0);
	memcpy(r->b + r->n, &pid, 4);
	memcpy(r->b + r->n + 4, &tid, 4);
	r->n += 8;
	memset(r->b + r->n, 0, 16);
	strcpy((char *)r->b + r->n, name);
	r->n += 16;
	sid(r, pid, tid, 1);
	fix_size(r, s);
}

static void mmap2(struct rb *r, uint32_t pid, uint64_t addr, uint64_t len, const char *path)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	uint32_t v[2] = { pid, pid };
	memcpy(r->b + r->n, v, 8);
	r->n += 8;
	u64(r, addr);
	u64(r, len);
	u64(r, 0); /* pgoff */
	u64(r, 0); /* maj, min */
	u64(r, 0); /* ino */
	u64(r, 0); /* ino_generation */
	uint32_t pf[2] = { 5 /* PROT_READ|PROT_EXEC */, 2 /* MAP_PRIVATE */ };
	memcpy(r->b + r->n, pf, 8);
	r->n += 8;
	size_t l = (strlen(path) + 8) & ~(size_t)7;
	memset(r->b + r->n, 0, l);
	strcpy((char *)r->b + r->n, path);
	r->n += l;
	sid(r, pid, pid, 2);
	fix_size(r, s);
}

/* Copy @r into a ring of @size bytes starting at byte counter @tail. */
static void to_ring(uint8_t *ring, size_t size, uint64_t tail, const struct rb *r)
{
	for (size_t i = 0; i < r->n; i++)
		ring[(tail + i) & (size - 1)] = r->b[i];
}

static void test_ring_wrap(void **state)
{
	(void)state;
	struct rb r = { 0 };
	uint64_t c1[] = { 0x401000, 0x401100, 0x401200 };
	uint64_t c2[] = { 0xffffffff81000010ull };
	sample(&r, 10, 11, 1000, 1, c1, 3, false); /* 88 bytes */
	sample(&r, 10, 12, 2000, 0, c2, 1, true);
	lost(&r, 5);
	lost_samples(&r, 7);
	sample(&r, 10, 11, 3000, 1, c1, 2, false);
	uint8_t ring[512];
	memset(ring, 0xee, sizeof(ring));
	/* Start 40 bytes before the end: the first record wraps. Counters run freely:
	 * start after several laps. */
	uint64_t tail = 3 * 512 + 512 - 40;
	to_ring(ring, sizeof(ring), tail, &r);
	struct pl_profile p;
	pl_profile_init(&p, ST, 0, NULL);
	uint8_t scratch[PL_REC_MAX];
	bool corrupt = true;
	uint64_t nt = pl_ring_walk(ring, sizeof(ring), tail, tail + r.n, scratch, pl_profile_record,
				   &p, &corrupt);
	assert_false(corrupt);
	assert_int_equal(nt, tail + r.n);
	assert_int_equal(p.nrecords, 5);
	assert_int_equal(p.nsamples, 3);
	assert_int_equal(p.lost, 5);
	assert_int_equal(p.lost_samples, 7);
	assert_int_equal(p.samples[0].tid, 11);
	assert_int_equal(p.samples[0].time, 1000);
	assert_int_equal(p.samples[0].cpu, 1);
	assert_false(p.samples[0].kernel);
	assert_true(p.samples[1].kernel);
	const struct pl_stack *s0 = &p.stacks[p.samples[0].stack];
	assert_int_equal(s0->n, 3); /* the PERF_CONTEXT_USER marker is dropped */
	assert_int_equal(p.ips[s0->off + 2], 0x401200);
	/* the third sample has a different (shorter) chain: a new stack */
	assert_int_not_equal(p.samples[2].stack, p.samples[0].stack);
	pl_profile_free(&p);
}

static int count_cb(void *ctx, const struct perf_event_header *h)
{
	(void)h;
	(*(int *)ctx)++;
	return 0;
}

static void test_header_split(void **state)
{
	(void)state;
	struct rb r = { 0 };
	lost(&r, 1);
	lost(&r, 2);
	uint8_t ring[256];
	uint64_t tail = 256 - 4; /* the 8-byte header itself straddles the end */
	to_ring(ring, sizeof(ring), tail, &r);
	uint8_t scratch[PL_REC_MAX];
	int n = 0;
	bool corrupt;
	assert_int_equal(
		pl_ring_walk(ring, sizeof(ring), tail, tail + r.n, scratch, count_cb, &n, &corrupt),
		tail + r.n);
	assert_int_equal(n, 2);
	/* A head that cuts the second record: walk stops at its start and says so. */
	n = 0;
	uint64_t half = tail + r.n - 8;
	assert_int_equal(
		pl_ring_walk(ring, sizeof(ring), tail, half, scratch, count_cb, &n, &corrupt),
		tail + r.n / 2);
	assert_int_equal(n, 1);
	assert_true(corrupt);
}

static void test_parse_short(void **state)
{
	(void)state;
	struct rb r = { 0 };
	uint64_t c[] = { 1, 2, 3, 4 };
	sample(&r, 1, 1, 1, 0, c, 4, false);
	struct perf_event_header *h = (struct perf_event_header *)r.b;
	h->size -= 16; /* callchain claims more than the record holds */
	struct pl_sample s;
	assert_int_equal(pl_parse_sample(h, ST, 0, &s), -EINVAL);
}

/* ---- the fault shim ---- */

static int fail_errno;
static int fail_when; /* 1: hardware events fail, 2: kernel sampling fails, 3: everything */
static int opens;

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int g, unsigned long fl)
{
	(void)pid;
	(void)cpu;
	(void)g;
	(void)fl;
	opens++;
	if ((fail_when == 1 && a->type == PERF_TYPE_HARDWARE) ||
	    (fail_when == 2 && !a->exclude_kernel) || fail_when == 3) {
		errno = fail_errno;
		return -1;
	}
	/* A memfd stands in for the event fd: pl_pe_open only mmaps it. */
	int fd = memfd_create("fake-perf", MFD_CLOEXEC);
	if (fd >= 0 && ftruncate(fd, 8 << 20) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void open_with(int when, int err, struct pl_pe_session *s, int *rc)
{
	pl_perf_open_hook = fake_open;
	fail_when = when;
	fail_errno = err;
	opens = 0;
	struct pl_pe_config cfg = { .event = "cycles", .freq = 999, .cg = PL_CG_FP };
	pid_t pid = 1;
	int cpu = 0;
	*rc = pl_pe_open(s, &cfg, &pid, 1, &cpu, 1);
}

static void test_fallback_enoent(void **state)
{
	(void)state;
	int errs[] = { ENOENT, EOPNOTSUPP, ENODEV, ENXIO };
	for (size_t i = 0; i < 4; i++) {
		struct pl_pe_session s;
		int rc;
		open_with(1, errs[i], &s, &rc);
		assert_int_equal(rc, 0);
		assert_true(s.fell_back);
		assert_int_equal(s.fallback_errno, errs[i]);
		assert_false(s.user_only);
		assert_string_equal(s.event_name, "cpu-clock");
		assert_int_equal(s.attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(s.attr.config, PERF_COUNT_SW_CPU_CLOCK);
		assert_true(s.attr.use_clockid);
		assert_int_equal(s.nrings, 1);
		pl_pe_close(&s);
	}
}

static void test_fallback_eacces(void **state)
{
	(void)state;
	int errs[] = { EACCES, EPERM };
	for (size_t i = 0; i < 2; i++) {
		struct pl_pe_session s;
		int rc;
		open_with(2, errs[i], &s, &rc);
		assert_int_equal(rc, 0);
		assert_true(s.user_only);
		assert_true(s.attr.exclude_kernel);
		assert_string_equal(s.event_name, "cycles");
		assert_int_equal(s.user_only_errno, errs[i]);
		pl_pe_close(&s);
	}
}

/* The advice for a refused perf_event_open, over made-up privileges: paranoid is
 * blamed only where it refuses the request, root is never told to run as root, and a
 * seccomp filter or LSM is named where neither paranoid nor a capability explains it. */
static const char *advise(int err, bool user_only, bool sys, int64_t paranoid, bool root,
			  bool perfmon)
{
	static char buf[1024];
	struct pl_pe_request rq = { .event = "cpu-clock",
				    .user_only = user_only,
				    .system_wide = sys };
	struct pl_pe_privs pv = { .have_paranoid = paranoid >= -1,
				  .paranoid = paranoid,
				  .root = root,
				  .perfmon = perfmon };
	return pl_pe_advice(err, &rq, &pv, buf, sizeof(buf));
}

static void test_advice(void **state)
{
	(void)state;
	/* an unprivileged user that paranoid refuses: explain it, suggest root/CAP_PERFMON */
	const char *m = advise(EACCES, false, false, 2, false, false);
	assert_non_null(strstr(m, "kernel.perf_event_paranoid is 2"));
	assert_non_null(strstr(m, "run as root"));
	assert_non_null(strstr(m, "CAP_PERFMON"));
	assert_non_null(strstr(m, "kptr_restrict"));
	assert_non_null(
		strstr(m, "cpu-clock sampling (user and kernel, per task) refused with EACCES"));
	assert_null(strstr(m, "seccomp filter or"));
	m = advise(EACCES, true, false, 3, false, false);
	assert_non_null(strstr(m, "this needs <= 2"));
	assert_null(strstr(m, "kptr_restrict"));	 /* no kernel samples were asked */
	m = advise(EACCES, true, true, 1, false, false); /* system-wide needs <= 0 */
	assert_non_null(strstr(m, "this needs <= 0"));
	/* root (CAP_PERFMON/CAP_SYS_ADMIN) refused: not paranoid, never "run as root" */
	int errs[] = { EPERM, EACCES };
	for (int i = 0; i < 2; i++) {
		m = advise(errs[i], true, false, 2, true, true);
		assert_non_null(strstr(m, "seccomp filter"));
		assert_non_null(strstr(m, "seccomp profile"));
		assert_non_null(strstr(m, "SELinux"));
		assert_non_null(strstr(m, "AppArmor"));
		assert_non_null(strstr(m, "as root with CAP_PERFMON"));
		assert_non_null(strstr(m, errs[i] == EPERM ? "with EPERM" : "with EACCES"));
		assert_null(strstr(m, "run as root"));
		assert_null(strstr(m, "sysctl kernel.perf_event_paranoid="));
		/* the same with paranoid unreadable, and for system-wide requests */
		m = advise(errs[i], false, true, -2, true, true);
		assert_non_null(strstr(m, "seccomp filter"));
		assert_null(strstr(m, "run as root"));
	}
	/* unprivileged, but paranoid allows the request: a filter or LSM refused it */
	m = advise(EPERM, true, false, 2, false, false);
	assert_non_null(strstr(m, "kernel.perf_event_paranoid is 2, which allows it"));
	assert_non_null(strstr(m, "seccomp filter"));
	assert_null(strstr(m, "run as root"));
	m = advise(EPERM, false, true, -1, false, false);
	assert_non_null(strstr(m, "which allows it"));
	/* root without the capabilities (a container) that paranoid refuses: the capability,
	 * not root, is what is missing */
	m = advise(EACCES, true, false, 3, true, false);
	assert_non_null(strstr(m, "runs as root but without CAP_PERFMON"));
	assert_non_null(strstr(m, "--cap-add PERFMON"));
	assert_null(strstr(m, "run as root"));
	/* ENOSYS: no perf events in the kernel, or (the paranoid file exists) a filter */
	m = advise(ENOSYS, true, false, -2, false, false);
	assert_non_null(strstr(m, "kernel has no perf events"));
	assert_null(strstr(m, "seccomp"));
	m = advise(ENOSYS, true, false, 2, true, true);
	assert_non_null(strstr(m, "seccomp filter answers ENOSYS"));
	/* the event is not supported */
	int missing[] = { ENOENT, EOPNOTSUPP, ENODEV, ENXIO };
	for (int i = 0; i < 4; i++) {
		m = advise(missing[i], false, false, 2, true, true);
		assert_non_null(strstr(m, "the event is not supported here"));
		assert_null(strstr(m, "seccomp"));
		assert_null(strstr(m, "paranoid"));
	}
	/* the ring's mmap over the locked-memory limit */
	struct pl_pe_request rq = { .event = "cycles", .user_only = true, .mmap = true };
	struct pl_pe_privs pv = { .have_paranoid = true, .paranoid = 2 };
	char buf[1024];
	m = pl_pe_advice(EPERM, &rq, &pv, buf, sizeof(buf));
	assert_non_null(strstr(m, "perf_event_mlock_kb"));
	assert_non_null(strstr(m, "--ring-kb"));
	assert_null(strstr(m, "perf_event_paranoid"));
}

/* Capabilities count only in the initial user namespace: the uid_map test, and the
 * advice to a root of a user namespace (unshare -r) that paranoid refuses. */
static void test_advice_userns(void **state)
{
	(void)state;
	assert_true(pl_pe_uid_map_is_initial("         0          0 4294967295\n"));
	assert_true(pl_pe_uid_map_is_initial("0 0 4294967295"));
	assert_false(
		pl_pe_uid_map_is_initial("         0          0          1\n")); /* unshare -r */
	assert_false(pl_pe_uid_map_is_initial("         0       1000          1\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0 4294967294\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0 4294967295\n1 1 1\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0\n4294967295\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0 42949672950\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0 99999999999999999999999\n"));
	assert_false(pl_pe_uid_map_is_initial("0 0 4294967295x\n"));
	assert_false(pl_pe_uid_map_is_initial(""));
	char buf[1024];
	struct pl_pe_request rq = { .event = "cpu-clock" }; /* kernel samples, per task */
	struct pl_pe_privs pv = {
		.have_paranoid = true, .paranoid = 2, .root = true, .userns = true
	};
	const char *m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_non_null(strstr(m, "kernel.perf_event_paranoid is 2"));
	assert_non_null(strstr(m, "root of a user namespace"));
	assert_non_null(strstr(m, "sysctl kernel.perf_event_paranoid=1"));
	assert_null(strstr(m, "does not restrict"));
	assert_null(strstr(m, "seccomp"));
	assert_null(strstr(m, "--cap-add")); /* not a container that dropped them */
	pv.root = false; /* another uid inside the namespace: root there does not help */
	m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_non_null(strstr(m, "do not count: outside it run as root"));
}

/* -p PID of another user's or a non-dumpable process, unprivileged: the kernel's ptrace
 * access mode check refused it (EACCES), not a filter alone. */
static void test_advice_ptrace(void **state)
{
	(void)state;
	char buf[1024];
	struct pl_pe_request rq = { .event = "cpu-clock", .user_only = true, .pid_target = true };
	struct pl_pe_privs pv = { .have_paranoid = true, .paranoid = 2 };
	const char *m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_non_null(strstr(m, "-p PID: the process belongs to another user or is not dumpable "
				  "(ptrace access mode check; see "
				  "Documentation/admin-guide/perf-security.rst)"));
	assert_non_null(strstr(m, "kernel.perf_event_paranoid is 2, which allows it"));
	/* EPERM is not the ptrace check's answer; a started command is perflab's own child */
	m = pl_pe_advice(EPERM, &rq, &pv, buf, sizeof(buf));
	assert_null(strstr(m, "ptrace"));
	rq.pid_target = false;
	m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_null(strstr(m, "ptrace"));
	/* CAP_PERFMON skips the ptrace check (Linux 5.8+) */
	rq.pid_target = true;
	pv.perfmon = true;
	m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_null(strstr(m, "ptrace"));
	assert_non_null(strstr(m, "does not restrict"));
	/* paranoid refuses first (it is checked before the task): paranoid is named */
	pv.perfmon = false;
	pv.paranoid = 3;
	m = pl_pe_advice(EACCES, &rq, &pv, buf, sizeof(buf));
	assert_null(strstr(m, "ptrace"));
	assert_non_null(strstr(m, "this needs <= 2"));
}

static void test_fallback_fails(void **state)
{
	(void)state;
	struct pl_pe_session s;
	int rc;
	open_with(3, EACCES, &s, &rc);
	assert_int_equal(rc, -EACCES);
	assert_int_equal(opens, 2); /* as is, then user only */
	open_with(3, ENOENT, &s, &rc);
	assert_int_equal(rc, -ENOENT);
	assert_int_equal(opens, 2); /* cycles, then cpu-clock */
}

/* ---- folded output from a synthetic profile with a JIT map ---- */

static void test_folded_jit(void **state)
{
	(void)state;
	const uint32_t pid = 3999999;
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("10000 100 jit_outer\n10100 80 jit;inner\n10200 40 jit leaf\n", f);
	fclose(f);
	struct rb r = { 0 };
	comm(&r, pid, pid, "jitprog");
	mmap2(&r, pid, 0x10000, 0x1000, "//anon");
	uint64_t a[] = { 0x10110, 0x10010 };	      /* inner <- outer */
	uint64_t b[] = { 0x10210, 0x10150, 0x10020 }; /* leaf <- inner <- outer */
	uint64_t c[] = { 0x10300, 0x10020 };	      /* unknown <- outer */
	sample(&r, pid, pid, 10, 0, a, 2, false);
	sample(&r, pid, pid, 11, 0, a, 2, false);
	sample(&r, pid, pid, 12, 1, b, 3, false);
	sample(&r, pid, pid, 13, 1, c, 2, false);
	struct pl_profile p;
	pl_profile_init(&p, ST, 0, NULL);
	uint8_t scratch[PL_REC_MAX];
	pl_ring_walk(r.b, 4096, 0, r.n, scratch, pl_profile_record, &p, NULL);
	struct pl_preport rep;
	pl_preport_build(&rep, &p, NULL, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	pl_preport_write_folded(&rep, m);
	fclose(m);
	/* sorted, merged, ';' in names replaced by ':' */
	assert_string_equal(buf, "jitprog;jit_outer;[unknown] 1\n"
				 "jitprog;jit_outer;jit:inner 2\n"
				 "jitprog;jit_outer;jit:inner;jit leaf 1\n");
	assert_int_equal(rep.nsamples, 4);
	uint32_t *ord = pl_preport_order(&rep, true);
	assert_string_equal(rep.funcs[ord[0]].name, "jit_outer");
	assert_int_equal(rep.funcs[ord[0]].total, 4);
	assert_int_equal(rep.funcs[ord[0]].self, 0);
	free(ord);
	free(buf);
	pl_preport_free(&rep);
	pl_profile_free(&p);
	unlink(path);
}

/* A format file as this kernel writes it: fields found by their last word, arrays by the
 * name before [N], the size with the offset; a prefix of a name is not the name. */
static void test_tracefs_field(void **state)
{
	(void)state;
	const char *fmt = "name: sched_switch\nID: 372\nformat:\n"
			  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
			  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
			  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
			  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
			  "\tfield:const char * name;\toffset:64;\tsize:8;\tsigned:0;\n"
			  "\tfield:int broken;\tsize:4;\n";
	int off = -1, sz = -1;
	assert_int_equal(pl_tracefs_field(fmt, "prev_state", &off, &sz), 0);
	assert_int_equal(off, 32);
	assert_int_equal(sz, 8);
	assert_int_equal(pl_tracefs_field(fmt, "prev_comm", &off, &sz), 0);
	assert_int_equal(off, 8);
	assert_int_equal(sz, 16);
	assert_int_equal(pl_tracefs_field(fmt, "next_pid", &off, NULL), 0);
	assert_int_equal(off, 56);
	assert_int_equal(pl_tracefs_field(fmt, "name", &off, &sz), 0);
	assert_int_equal(off, 64);
	off = sz = -1;
	assert_int_equal(pl_tracefs_field(fmt, "pid", &off, &sz), -ENOENT);
	assert_int_equal(pl_tracefs_field(fmt, "state", &off, &sz), -ENOENT);
	assert_int_equal(pl_tracefs_field(fmt, "broken", &off, &sz), -ENOENT);
	assert_int_equal(pl_tracefs_field(fmt, "", &off, &sz), -ENOENT);
	assert_int_equal(off, -1);
	assert_int_equal(sz, -1);
}

/* --off-cpu/--locks refused without CAP_PERFMON: one short line with the option, the
 * paranoid value, the capability (Linux 5.8) and the fix; the pid variant names the
 * ptrace check; with the capability, or for other errors, nothing (the generic advice). */
static void test_advice_tracing(void **state)
{
	(void)state;
	char buf[512];
	struct pl_pe_request rq = { .event = "cpu-clock", .user_only = true };
	struct pl_pe_privs pv = { .have_paranoid = true, .paranoid = 2 };
	const char *m = pl_pe_advice_tracing("--off-cpu", EACCES, &rq, &pv, buf, sizeof(buf));
	assert_non_null(m);
	assert_true(strncmp(m,
			    "--off-cpu: perf_event_open refused (EACCES): "
			    "kernel.perf_event_paranoid is 2 and perflab has no CAP_PERFMON",
			    100) == 0);
	assert_non_null(strstr(m, "CAP_PERFMON (Linux 5.8+"));
	assert_non_null(strstr(m, "'sysctl kernel.perf_event_paranoid=-1'"));
	assert_null(strchr(m, '\n'));
	assert_true(strlen(m) < 300);
	rq.pid_target = true;
	m = pl_pe_advice_tracing("--locks", EACCES, &rq, &pv, buf, sizeof(buf));
	assert_true(strncmp(m,
			    "--locks -p: perf_event_open refused (EACCES): the process "
			    "belongs to another user",
			    60) == 0);
	assert_non_null(strstr(m, "kernel.perf_event_paranoid (2)"));
	assert_null(strstr(m, "paranoid=-1")); /* does not help another user's process */
	pv.paranoid = 3;		       /* paranoid refuses first */
	m = pl_pe_advice_tracing("--locks", EACCES, &rq, &pv, buf, sizeof(buf));
	assert_non_null(strstr(m, "kernel.perf_event_paranoid is 3"));
	pv.perfmon = true;
	assert_null(pl_pe_advice_tracing("--locks", EACCES, &rq, &pv, buf, sizeof(buf)));
	pv.perfmon = false;
	assert_null(pl_pe_advice_tracing("--locks", ENOENT, &rq, &pv, buf, sizeof(buf)));
	rq.mmap = true;
	assert_null(pl_pe_advice_tracing("--locks", EPERM, &rq, &pv, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap),	cmocka_unit_test(test_header_split),
		cmocka_unit_test(test_parse_short),	cmocka_unit_test(test_fallback_enoent),
		cmocka_unit_test(test_fallback_eacces), cmocka_unit_test(test_fallback_fails),
		cmocka_unit_test(test_advice),		cmocka_unit_test(test_advice_userns),
		cmocka_unit_test(test_advice_ptrace),	cmocka_unit_test(test_folded_jit),
		cmocka_unit_test(test_tracefs_field),	cmocka_unit_test(test_advice_tracing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
