/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measuring loops of `perflab bench io` (see io.h). The psync engine is fio's: one
 * pread/pwrite per operation; the io_uring engine keeps iodepth reads or writes in
 * flight per job with plain (non-fixed) buffers, submitted and reaped `batch` at a time
 * (1 by default, one io_uring_enter per operation), as fio's io_uring engine does by
 * default, and timestamps each operation from submission to its completion event.
 *
 * Above 800 lines on purpose: both engines share the test files (created, filled, removed
 * on a signal), the job threads and the offset and cold-cache logic. */
#include "bench/io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "bench/splitmix.h"
#include "bench/bench.h"
#include "util/str.h"

const char *const pl_io_rw_names[] = { "read", "write", "randread", "randwrite", NULL };
const char *const pl_io_engine_names[] = { "psync", "io_uring", NULL };

#define ALIGN 4096u

static void fill_random(void *buf, size_t n, uint64_t *seed)
{
	uint64_t *p = buf;
	for (size_t i = 0; i < n / 8; i++)
		p[i] = pl_splitmix64(seed);
}

/* ---- cleanup registry (async-signal-safe removal) ---- */

#define REG_MAX 64
static struct reg {
	volatile sig_atomic_t used;
	unsigned long seq; /* creation order */
	bool sfdir;	   /* a small-file directory with files f000000.. */
	unsigned nfiles;
	char path[PATH_MAX];
} reg[REG_MAX];
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long reg_seq;

static void reg_add(const char *path, bool sfdir, unsigned nfiles)
{
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++) {
		if (reg[i].used)
			continue;
		snprintf(reg[i].path, sizeof(reg[i].path), "%s", path);
		reg[i].sfdir = sfdir;
		reg[i].nfiles = nfiles;
		reg[i].seq = ++reg_seq;
		reg[i].used = 1;
		break;
	}
	pthread_mutex_unlock(&reg_lock);
}

static void reg_del(const char *path)
{
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++)
		if (reg[i].used && strcmp(reg[i].path, path) == 0)
			reg[i].used = 0;
	pthread_mutex_unlock(&reg_lock);
}

/* "f" + 7 digits: built without snprintf so the signal handler can use it. */
static void sf_name(char *out, const char *dir, unsigned i)
{
	size_t n = strlen(dir);
	memcpy(out, dir, n);
	out[n++] = '/';
	out[n++] = 'f';
	for (int d = 6; d >= 0; d--) {
		out[n + (size_t)d] = (char)('0' + i % 10);
		i /= 10;
	}
	out[n + 7] = '\0';
}

static void remove_entry(const char *path, bool sfdir, unsigned nfiles)
{
	if (!sfdir) {
		unlink(path);
		return;
	}
	char p[PATH_MAX + 16];
	for (unsigned i = 0; i < nfiles; i++) {
		sf_name(p, path, i);
		unlink(p);
	}
	rmdir(path);
}

void pl_io_cleanup_all(void)
{
	/* newest first: files before the directories that hold them */
	for (;;) {
		int best = -1;
		for (int i = 0; i < REG_MAX; i++)
			if (reg[i].used && (best < 0 || reg[i].seq > reg[best].seq))
				best = i;
		if (best < 0)
			break;
		remove_entry(reg[best].path, reg[best].sfdir, reg[best].nfiles);
		reg[best].used = 0;
	}
}

/* ---- files ---- */

static int check_space(const char *dir, uint64_t need)
{
	struct statvfs sv;
	if (statvfs(dir, &sv) < 0)
		return -errno;
	uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need + need / 100 > avail)
		return -ENOSPC;
	return 0;
}

/* Write @size bytes of pseudo-random data into @fd in 1 MiB chunks, then fsync. */
static int fill_fd(int fd, uint64_t size, uint64_t seed, bool (*stopped)(void *), void *arg)
{
	size_t chunk = 1u << 20;
	char *buf = pl_xmalloc(chunk);
	int r = 0;
	for (uint64_t off = 0; off < size && r == 0; off += chunk) {
		if (stopped && stopped(arg)) {
			r = -EINTR;
			break;
		}
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
		fill_random(buf, chunk, &seed);
		for (size_t done = 0; done < n;) {
			ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(off + done));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				r = -errno;
				break;
			}
			done += (size_t)w;
		}
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	free(buf);
	return r;
}

int pl_io_file_create(const char *dir, uint64_t size, struct pl_io_file *f, bool (*stopped)(void *),
		      void *arg)
{
	memset(f, 0, sizeof(*f));
	if (size == 0)
		return -EINVAL;
	struct stat st;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(dir, W_OK) < 0)
		return -errno;
	char *path = pl_xasprintf("%s/perflab-io.XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0) {
		int r = -errno;
		free(path);
		return r;
	}
	reg_add(path, false, 0);
	f->path = path;
	f->size = size;
	/* the space check comes after the file exists: a directory we cannot write
	 * (read-only, /proc) is reported as such, not as a full file system */
	int r = check_space(dir, size);
	if (r == 0)
		r = fill_fd(fd, size, 0x10f11e5ull ^ size, stopped, arg);
	close(fd);
	if (r < 0)
		pl_io_file_remove(f);
	return r;
}

int pl_io_tmpdir_create(const char *parent, char **out)
{
	char *d = pl_xasprintf("%s/perflab-io.XXXXXX", parent);
	if (!mkdtemp(d)) {
		int r = -errno;
		free(d);
		return r;
	}
	reg_add(d, true, 0);
	*out = d;
	return 0;
}

void pl_io_tmpdir_remove(char **dir)
{
	if (!dir || !*dir)
		return;
	rmdir(*dir);
	reg_del(*dir);
	free(*dir);
	*dir = NULL;
}

void pl_io_file_remove(struct pl_io_file *f)
{
	if (!f || !f->path)
		return;
	unlink(f->path);
	reg_del(f->path);
	free(f->path);
	f->path = NULL;
}

int pl_io_residency(const char *path, double *pct)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	int r = 0;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out;
	}
	if (st.st_size == 0) {
		*pct = 0;
		goto out;
	}
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)st.st_size;
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		r = -errno;
		goto out;
	}
	size_t np = (len + (size_t)pg - 1) / (size_t)pg;
	unsigned char *vec = pl_xmalloc(np);
	if (mincore(m, len, vec) < 0) {
		r = -errno;
	} else {
		size_t in = 0;
		for (size_t i = 0; i < np; i++)
			in += vec[i] & 1;
		*pct = 100.0 * (double)in / (double)np;
	}
	free(vec);
	munmap(m, len);
out:
	close(fd);
	return r;
}

int pl_io_drop_file_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = 0;
	if (fdatasync(fd) < 0)
		r = -errno;
	else
		r = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return r;
}

int pl_io_warm_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = 1u << 20;
	char *buf = pl_xmalloc(n);
	ssize_t got;
	int r = 0;
	while ((got = read(fd, buf, n)) != 0) {
		if (got < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
	}
	free(buf);
	close(fd);
	return r;
}

int pl_io_drop_all_caches(void)
{
	if (geteuid() != 0)
		return -EACCES;
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = write(fd, "3\n", 2) == 2 ? 0 : -errno;
	close(fd);
	return r;
}

/* ---- the measured window ---- */

struct job {
	const struct pl_io_params *p;
	const struct pl_io_file *f;
	unsigned idx;
	int fd;
	struct pl_hist hist;
	uint64_t ops, bytes;
	uint64_t seed;
	uint64_t next_seq, region_lo, region_hi; /* sequential cursor and region */
	uint64_t since_drop, drops; /* cold: bytes read since the last drop of the range */
	uint64_t nblocks;
	uint64_t deadline;
	int err;
	unsigned uring_flags; /* what ring_init() got */
	uint64_t enters;      /* io_uring_enter(2) calls of the loop */
	uint64_t waits;	      /* of those, the calls that waited (the CQ ring was empty) */
	atomic_bool *stop;
};

static bool job_stopped(struct job *j)
{
	if (atomic_load(j->stop))
		return true;
	if (j->p->stopped && j->p->stopped(j->p->stopped_arg)) {
		atomic_store(j->stop, true);
		return true;
	}
	return false;
}

static uint64_t next_offset(struct job *j)
{
	enum pl_io_rw rw = j->p->rw;
	if (rw == PL_IO_RANDREAD || rw == PL_IO_RANDWRITE)
		return (pl_splitmix64(&j->seed) % j->nblocks) * j->p->bs;
	uint64_t off = j->next_seq;
	j->next_seq += j->p->bs;
	if (j->next_seq + j->p->bs > j->region_hi)
		j->next_seq = j->region_lo; /* wrap, as fio does when time based */
	return off;
}

static bool is_write(const struct pl_io_params *p)
{
	return p->rw == PL_IO_WRITE || p->rw == PL_IO_RANDWRITE;
}

/* Cold buffered reads: once the job has read as many bytes as its range holds (a pass,
 * sequential; about that much, random), drop the range's cached pages so the next pass
 * reads from the device again. Random jobs use the whole file as their range. */
static void keep_cold(struct job *j, uint64_t n)
{
	const struct pl_io_params *p = j->p;
	if (!p->cold || p->direct || is_write(p))
		return;
	bool rnd = p->rw == PL_IO_RANDREAD;
	uint64_t lo = rnd ? 0 : j->region_lo, hi = rnd ? j->nblocks * p->bs : j->region_hi;
	j->since_drop += n;
	if (j->since_drop < hi - lo)
		return;
	posix_fadvise(j->fd, (off_t)lo, (off_t)(hi - lo), POSIX_FADV_DONTNEED);
	j->since_drop = 0;
	j->drops++;
}

static void job_psync(struct job *j, char *buf)
{
	const struct pl_io_params *p = j->p;
	bool w = is_write(p);
	unsigned k = 0;
	for (;;) {
		if ((k++ & 15) == 0 && (pl_now_ns() >= j->deadline || job_stopped(j)))
			break;
		uint64_t off = next_offset(j);
		uint64_t a = pl_now_ns();
		ssize_t n = w ? pwrite(j->fd, buf, p->bs, (off_t)off)
			      : pread(j->fd, buf, p->bs, (off_t)off);
		uint64_t b = pl_now_ns();
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			j->err = -errno;
			break;
		}
		pl_hist_record(&j->hist, b - a);
		j->ops++;
		j->bytes += (uint64_t)n;
		if (b >= j->deadline)
			break;
		keep_cold(j, (uint64_t)n);
	}
}

int pl_io_uring_probe(void)
{
	struct io_uring ring;
	int r = io_uring_queue_init(1, &ring, 0);
	if (r < 0)
		return r;
	io_uring_queue_exit(&ring);
	return 0;
}

/* The ring of one job, set up as fio 3.33's io_uring engine sets up its own (strace of
 * `fio --ioengine=io_uring` here: io_uring_setup flags CQSIZE|COOP_TASKRUN|SINGLE_ISSUER|
 * DEFER_TASKRUN): completions are not pushed to the task as they arrive (an IPI to kick
 * a running task, a VM exit on this guest, and a wake-up of a sleeping one for each), but
 * posted when the task asks for them in io_uring_enter(GETEVENTS), which every call of
 * this loop does. DEFER_TASKRUN needs the ring to be used by the thread that made
 * it (SINGLE_ISSUER), which holds: each job makes its own. Kernels before 6.1 refuse
 * DEFER_TASKRUN, before 6.0 SINGLE_ISSUER, before 5.19 COOP_TASKRUN (-EINVAL): each
 * refusal retries with fewer flags, down to none. Returns 0 or -errno of the last try;
 * *flags gets the flags the ring got. */
static int ring_init(struct io_uring *ring, unsigned depth, unsigned *flags)
{
	static const unsigned tries[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int r = -EINVAL;
	for (size_t k = 0; k < sizeof(tries) / sizeof(tries[0]); k++) {
		struct io_uring_params prm = { .flags = tries[k] };
		r = io_uring_queue_init_params(depth, ring, &prm);
		if (r == 0) {
			*flags = tries[k];
			return 0;
		}
		if (r != -EINVAL)
			break;
	}
	return r;
}

/* Stamp the operations prepared since the last stamp with the time of the system call
 * about to submit them (a submission's latency runs from just before that call). */
static void stamp_prepared(uint64_t *t_sub, const unsigned *slots, unsigned *n)
{
	if (*n == 0)
		return;
	uint64_t now = pl_now_ns();
	for (unsigned k = 0; k < *n; k++)
		t_sub[slots[k]] = now;
	*n = 0;
}

/* The state of one job's io_uring loop. */
struct uring_loop {
	struct io_uring ring;
	uint64_t *t_sub;      /* per slot: time of the call that submitted it, ns */
	unsigned *free_slots; /* stack of free slots */
	unsigned *prepared;   /* slots prepared and not yet stamped */
	unsigned nfree, nprep, inflight, batch;
};

/* Submit every prepared operation with io_uring_enter(n, 0, GETEVENTS), fio's
 * fio_ioring_commit(): the GETEVENTS flag makes the kernel post the completions that
 * arrived meanwhile (deferred task work), so the reap that follows finds them without
 * another call. What the kernel did not take (-EAGAIN, -EBUSY) stays in the SQ ring for
 * the next call. Returns 0 or -errno. */
static int uring_commit(struct job *j, struct uring_loop *u)
{
	if (io_uring_sq_ready(&u->ring) == 0)
		return 0;
	stamp_prepared(u->t_sub, u->prepared, &u->nprep);
	int r = io_uring_submit_and_get_events(&u->ring);
	j->enters++;
	return r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY ? r : 0;
}

/* Reap at most u->batch completions already in the CQ ring (fio's fio_ioring_cqring_reap
 * with iodepth_batch_complete_max): each one's latency runs from its submitting call to
 * now. Returns how many were reaped. */
static unsigned uring_reap(struct job *j, struct uring_loop *u)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	uint64_t now = 0;
	io_uring_for_each_cqe(&u->ring, head, cqe)
	{
		if (seen == 0)
			now = pl_now_ns();
		unsigned i = (unsigned)io_uring_cqe_get_data64(cqe);
		if (cqe->res < 0) {
			j->err = cqe->res;
		} else {
			pl_hist_record(&j->hist, now - u->t_sub[i]);
			j->ops++;
			j->bytes += (uint64_t)cqe->res;
			keep_cold(j, (uint64_t)cqe->res);
		}
		u->free_slots[u->nfree++] = i;
		u->inflight--;
		if (++seen == u->batch)
			break;
	}
	io_uring_cq_advance(&u->ring, seen);
	return seen;
}

/* The io_uring loop, fio 3.33's do_io() with its io_uring engine in our own words:
 * prepare an operation for every free slot, committing every @batch prepared ones
 * (td_io_queue() with iodepth_batch_submit); once no slot is free (queue_full()), commit
 * what is still prepared, then reap at most @batch completions from the CQ ring
 * (td_io_getevents() with iodepth_batch_complete_max) and enter the kernel to wait,
 * io_uring_enter(0, 1, GETEVENTS), only when it was empty (fio_ioring_getevents() with
 * iodepth_batch_complete_min 1). @batch 1 is fio's default (one call per operation,
 * completions taken one at a time); @batch = iodepth commits every free slot at once. */
static void job_uring(struct job *j, char *bufs)
{
	const struct pl_io_params *p = j->p;
	unsigned depth = p->iodepth;
	struct uring_loop u = { .batch = p->batch == 0 || p->batch > depth ? depth : p->batch };
	int r = ring_init(&u.ring, depth, &j->uring_flags);
	if (r < 0) {
		j->err = r == -ENOSYS || r == -EPERM ? -ENOSYS : r;
		return;
	}
	u.t_sub = pl_xcalloc(depth, sizeof(uint64_t));
	u.free_slots = pl_xcalloc(depth, sizeof(unsigned));
	u.prepared = pl_xcalloc(depth, sizeof(unsigned));
	u.nfree = depth;
	for (unsigned i = 0; i < depth; i++)
		u.free_slots[i] = depth - 1 - i;
	bool w = is_write(p);
	bool submitting = true;
	for (;;) {
		if (submitting && (pl_now_ns() >= j->deadline || job_stopped(j)))
			submitting = false;
		while (submitting && u.nfree > 0) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&u.ring);
			if (!sqe)
				break;
			unsigned i = u.free_slots[--u.nfree];
			uint64_t off = next_offset(j);
			char *b = bufs + (size_t)i * p->bs;
			if (w)
				io_uring_prep_write(sqe, j->fd, b, (unsigned)p->bs, off);
			else
				io_uring_prep_read(sqe, j->fd, b, (unsigned)p->bs, off);
			io_uring_sqe_set_data64(sqe, i);
			u.prepared[u.nprep++] = i;
			u.inflight++;
			if (io_uring_sq_ready(&u.ring) >= u.batch &&
			    (r = uring_commit(j, &u)) < 0) {
				j->err = r;
				submitting = false;
			}
		}
		if (u.inflight == 0)
			break;
		if ((r = uring_commit(j, &u)) < 0) {
			j->err = r;
			break;
		}
		if (uring_reap(j, &u) == 0) {
			/* io_uring_enter(0, 1, GETEVENTS); anything the kernel refused
			 * before goes with it */
			r = io_uring_submit_and_wait(&u.ring, 1);
			j->enters++;
			j->waits++;
			if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) {
				j->err = r;
				break;
			}
			uring_reap(j, &u);
		}
		if (j->err)
			submitting = false;
	}
	free(u.prepared);
	free(u.free_slots);
	free(u.t_sub);
	io_uring_queue_exit(&u.ring);
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	const struct pl_io_params *p = j->p;
	if (p->first_cpu >= 0 && p->ncpus > 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET((unsigned)p->first_cpu + j->idx % p->ncpus, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	unsigned depth = p->engine == PL_IO_URING ? p->iodepth : 1;
	char *bufs = NULL;
	if (posix_memalign((void **)&bufs, ALIGN, (size_t)p->bs * depth) != 0) {
		j->err = -ENOMEM;
		return NULL;
	}
	uint64_t seed = j->seed ^ 0xb0f;
	fill_random(bufs, (size_t)p->bs * depth, &seed);
	if (p->engine == PL_IO_URING)
		job_uring(j, bufs);
	else
		job_psync(j, bufs);
	free(bufs);
	return NULL;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int pl_io_run(const struct pl_io_file *f, const struct pl_io_params *p, struct pl_hist *lat,
	      struct pl_io_result *r)
{
	memset(r, 0, sizeof(*r));
	if (p->bs == 0 || p->bs > f->size || p->bs > (1u << 30) || p->jobs == 0 ||
	    (p->engine == PL_IO_URING && (p->iodepth == 0 || p->iodepth > 4096)))
		return -EINVAL;
	if (p->direct && p->bs % ALIGN)
		return -EINVAL;
	unsigned nj = p->jobs;
	struct job *jobs = pl_xcalloc(nj, sizeof(*jobs));
	pthread_t *th = pl_xcalloc(nj, sizeof(pthread_t));
	atomic_bool stop = false;
	int ret = 0;
	int flags = (is_write(p) ? O_WRONLY : O_RDONLY) | O_CLOEXEC | (p->direct ? O_DIRECT : 0);
	uint64_t nblocks = f->size / p->bs;
	unsigned opened = 0;
	for (; opened < nj; opened++) {
		struct job *j = &jobs[opened];
		j->fd = open(f->path, flags);
		if (j->fd < 0) {
			ret = errno == EINVAL && p->direct ? -EOPNOTSUPP : -errno;
			break;
		}
		j->p = p;
		j->f = f;
		j->idx = opened;
		j->stop = &stop;
		j->nblocks = nblocks;
		j->seed = p->seed + 0x9e37ull * (opened + 1);
		/* sequential jobs each stream through their own slice (fio's offset_increment) */
		uint64_t per = nblocks / nj;
		if (per == 0)
			per = 1;
		j->region_lo = (opened * per % nblocks) * p->bs;
		j->region_hi = j->region_lo + per * p->bs;
		if (j->region_hi > nblocks * p->bs)
			j->region_hi = nblocks * p->bs;
		j->next_seq = j->region_lo;
		pl_hist_init(&j->hist, lat ? lat->bits : 0);
	}
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	uint64_t t0 = pl_now_ns();
	unsigned started = 0;
	if (ret == 0) {
		for (; started < nj; started++) {
			jobs[started].deadline = t0 + (uint64_t)(p->seconds * 1e9);
			if (pthread_create(&th[started], NULL, job_main, &jobs[started]) != 0) {
				atomic_store(&stop, true);
				ret = -EAGAIN;
				break;
			}
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	uint64_t t1 = pl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	for (unsigned i = 0; i < opened; i++) {
		struct job *j = &jobs[i];
		if (j->err && ret == 0)
			ret = j->err == -EINVAL && p->direct ? -EOPNOTSUPP : j->err;
		r->ops += j->ops;
		r->bytes += j->bytes;
		r->drops += j->drops;
		r->enters += j->enters;
		r->waits += j->waits;
		if (i == 0)
			r->uring_flags = j->uring_flags;
		if (lat)
			pl_hist_merge(lat, &j->hist);
		pl_hist_free(&j->hist);
		close(j->fd);
	}
	r->elapsed_s = (double)(t1 - t0) / 1e9;
	r->mbps = r->elapsed_s > 0 ? (double)r->bytes / r->elapsed_s / 1e6 : 0;
	r->iops = r->elapsed_s > 0 ? (double)r->ops / r->elapsed_s : 0;
	r->user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
	r->sys_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
	r->interrupted = atomic_load(&stop);
	free(jobs);
	free(th);
	return ret;
}

/* ---- small files ---- */

int pl_io_sf_create(const char *dir, unsigned nfiles, uint64_t file_size, struct pl_io_sf *sf,
		    bool (*stopped)(void *), void *arg)
{
	memset(sf, 0, sizeof(*sf));
	if (nfiles == 0 || nfiles > 9999999)
		return -EINVAL;
	struct stat st;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(dir, W_OK) < 0)
		return -errno;
	uint64_t per = file_size < 4096 ? 4096 : (file_size + 4095) / 4096 * 4096;
	char *d = pl_xasprintf("%s/perflab-sf.XXXXXX", dir);
	if (!mkdtemp(d)) {
		int r = -errno;
		free(d);
		return r;
	}
	reg_add(d, true, nfiles);
	sf->dir = d;
	sf->nfiles = nfiles;
	sf->file_size = file_size;
	int r = check_space(dir, per * nfiles);
	char *buf = pl_xmalloc(file_size + 8);
	uint64_t seed = 0x5f11e5;
	char p[PATH_MAX + 16];
	for (unsigned i = 0; i < nfiles && r == 0; i++) {
		if (stopped && (i & 63) == 0 && stopped(arg)) {
			r = -EINTR;
			break;
		}
		sf_name(p, d, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0) {
			r = -errno;
			break;
		}
		fill_random(buf, file_size + 8, &seed);
		if (write(fd, buf, file_size) != (ssize_t)file_size)
			r = errno ? -errno : -EIO;
		close(fd);
	}
	free(buf);
	if (r == 0)
		sync(); /* data on disk, so "cold" can drop it (clean pages only) */
	if (r < 0)
		pl_io_sf_remove(sf);
	return r;
}

void pl_io_sf_remove(struct pl_io_sf *sf)
{
	if (!sf || !sf->dir)
		return;
	remove_entry(sf->dir, true, sf->nfiles);
	reg_del(sf->dir);
	free(sf->dir);
	sf->dir = NULL;
}

int pl_io_sf_drop(const struct pl_io_sf *sf)
{
	char p[PATH_MAX + 16];
	for (unsigned i = 0; i < sf->nfiles; i++) {
		sf_name(p, sf->dir, i);
		int r = pl_io_drop_file_cache(p);
		if (r < 0)
			return r;
	}
	return 0;
}

int pl_io_sf_measure(const struct pl_io_sf *sf, struct pl_hist *stat_lat, struct pl_hist *read_lat,
		     struct pl_io_sf_result *r, bool (*stopped)(void *), void *arg)
{
	memset(r, 0, sizeof(*r));
	unsigned n = sf->nfiles;
	unsigned *order = pl_xmalloc(n * sizeof(unsigned));
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	uint64_t seed = 0x0de5;
	for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates */
		unsigned k = (unsigned)(pl_splitmix64(&seed) % (i + 1));
		unsigned t = order[i];
		order[i] = order[k];
		order[k] = t;
	}
	char p[PATH_MAX + 16];
	/* residency of the data before the pass (mincore on each file) */
	double res = 0;
	for (unsigned i = 0; i < n; i++) {
		double x = 0;
		sf_name(p, sf->dir, i);
		if (sf->file_size && pl_io_residency(p, &x) == 0)
			res += x;
	}
	r->residency = n ? res / n : 0;
	size_t cap = sf->file_size + 4096;
	char *buf = pl_xmalloc(cap);
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	int ret = 0;
	uint64_t t0 = pl_now_ns();
	for (unsigned i = 0; i < n && ret == 0; i++) {
		sf_name(p, sf->dir, order[i]);
		struct stat st;
		uint64_t a = pl_now_ns();
		if (stat(p, &st) < 0)
			ret = -errno;
		if (stat_lat)
			pl_hist_record(stat_lat, pl_now_ns() - a);
		if (stopped && (i & 63) == 0 && stopped(arg))
			ret = -EINTR;
	}
	uint64_t t1 = pl_now_ns();
	uint64_t bytes = 0;
	for (unsigned i = 0; i < n && ret == 0; i++) {
		sf_name(p, sf->dir, order[i]);
		uint64_t a = pl_now_ns();
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		ssize_t got;
		while ((got = read(fd, buf, cap)) > 0)
			bytes += (uint64_t)got;
		if (got < 0)
			ret = -errno;
		close(fd);
		if (read_lat)
			pl_hist_record(read_lat, pl_now_ns() - a);
		if (stopped && (i & 63) == 0 && stopped(arg))
			ret = -EINTR;
	}
	uint64_t t2 = pl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	r->stat_files_per_s = t1 > t0 ? n / ((double)(t1 - t0) / 1e9) : 0;
	r->read_files_per_s = t2 > t1 ? n / ((double)(t2 - t1) / 1e9) : 0;
	r->mbps = t2 > t1 ? (double)bytes / ((double)(t2 - t1) / 1e9) / 1e6 : 0;
	r->user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
	r->sys_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
	free(buf);
	free(order);
	return ret;
}
