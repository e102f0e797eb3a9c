/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler event collector (profile/sched_collect.h) against a live child: the
 * collector opened on every online CPU, a child forked and exec'ing offcpu_sleep (20 x
 * 10 ms of sleep, otherwise idle; $PROFILE_SLEEPER), the rings drained every 50 ms until
 * it has exited (kept a zombie with WNOWAIT, so /proc/PID/schedstat still answers).
 * Invariants, never this machine's values: the events are sorted; the child is a target;
 * each of its switch-outs is followed by its switch-in before its next switch-out; at
 * least 20 of them sleep (S) with a callchain; and its off-CPU total from the log
 * (switch-out to switch-in, plus fork to first switch-in) is within 2% of its wall time
 * (fork to the last switch-out) minus its on-CPU time from schedstat. A run whose log
 * misses a switch of the child without a counted loss is repeated (up to 5 runs, then
 * skipped with the reason). Skips without the permission for the tracepoints (root). */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/profile.h"
#include "profile/sched.h"
#include "profile/sched_collect.h"
#include "profile/session.h"

/* sum_exec_runtime (ns) of @pid from /proc/PID/schedstat: "on-CPU run-queue-wait slices" */
static uint64_t schedstat_on_ns(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	unsigned long long on = 0, wait = 0, slices = 0;
	assert_int_equal(fscanf(f, "%llu %llu %llu", &on, &wait, &slices), 3);
	fclose(f);
	return on;
}

/* One run; false when the log misses a switch of the child that the kernel never
 * counted as lost (two switch-outs or two switch-ins in a row: the kernel writes no
 * sched_switch away from some tasks and drops a few events uncounted under load), so
 * the run proves nothing and is repeated. */
static bool run_once(const char *sleeper)
{
	int *cpus = NULL;
	size_t ncpus = 0;
	assert_int_equal(pl_psession_cpus(NULL, &cpus, &ncpus), 0);
	struct pl_profile prof;
	pl_profile_init(&prof, PL_SCHED_SAMPLE_TYPE, 0, "/nonexistent");
	struct pl_sched_log log;
	struct pl_sched_collect *c = NULL;
	enum pl_sched_stage stage;
	int r = pl_sched_open(&c, cpus, ncpus, 0, &log, &prof, &stage);
	if (r == -EACCES || r == -EPERM || r == -ENOENT) {
		fprintf(stderr, "# skip: %s\n", pl_sched_strerror(r, stage));
		free(cpus);
		pl_profile_free(&prof);
		skip();
		return true;
	}
	assert_int_equal(r, 0);
	pl_sched_enable(c);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(sleeper, sleeper, (char *)NULL);
		_exit(127);
	}
	siginfo_t si;
	for (;;) {
		memset(&si, 0, sizeof(si));
		assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | WNOHANG), 0);
		if (si.si_pid == pid)
			break;
		pl_sched_drain(c);
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	uint64_t on = schedstat_on_ns(pid); /* a zombie keeps its counters */
	int status = -1;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pl_sched_disable(c);
	pl_sched_drain(c);
	const uint32_t seed = (uint32_t)pid;
	pl_sched_finish(c, &seed, 1, false);
	pl_sched_close(c);

	assert_int_equal(log.lost, 0);
	assert_true(log.n > 0);
	assert_true(log.t0 < log.t1);
	assert_true(pl_sched_log_target(&log, (uint32_t)pid));
	const uint32_t tid = (uint32_t)pid;
	uint64_t fork_t = 0, first_in = 0, last_out = 0, out_t = 0, off = 0;
	unsigned sleeps = 0, outs = 0, ins = 0;
	bool complete = true;
	bool out = true; /* from the fork until its first switch-in, it waits */
	for (size_t i = 0; i < log.n; i++) {
		const struct pl_sched_ev *e = &log.ev[i];
		if (i)
			assert_true(log.ev[i - 1].time <= e->time);
		assert_true(e->time >= log.t0 && e->time <= log.t1);
		if (e->kind == PL_SCHED_FORK && e->tid == tid) {
			fork_t = e->time;
			out_t = e->time;
		}
		if (e->kind != PL_SCHED_SWITCH)
			continue;
		if ((e->tid == tid && out) || (e->other_tid == tid && e->tid != tid && !out)) {
			fprintf(stderr,
				"# a switch of the child at %llu ns is missing, uncounted\n",
				(unsigned long long)e->time);
			complete = false;
			break;
		}
		if (e->tid == tid) { /* switch-out */
			out = true;
			out_t = last_out = e->time;
			outs++;
			/* the last switch-out of an exiting task may carry pid -1: the kernel
			 * has unhashed it (perf_event_pid() of a dead task) */
			assert_true(e->pid == (uint32_t)pid ||
				    (e->pid == UINT32_MAX && e->prev_state == PL_TS_DEAD));
			if (e->prev_state == PL_TS_SLEEPING) {
				sleeps++;
				assert_int_not_equal(e->stack, PL_SCHED_NO_STACK);
				assert_true(prof.stacks[e->stack].n >= 2);
			}
		} else if (e->other_tid == tid) { /* switch-in */
			assert_true(fork_t > 0);
			out = false;
			off += e->time - out_t;
			ins++;
			if (!first_in)
				first_in = e->time;
		}
	}
	if (!complete) {
		pl_sched_log_free(&log);
		pl_profile_free(&prof);
		free(cpus);
		return false;
	}
	assert_true(fork_t > 0);
	assert_true(out); /* it ended switched out (exit) */
	assert_int_equal(outs, ins);
	assert_true(sleeps >= 20);
	uint64_t wall = last_out - fork_t;
	assert_true(wall >= 200u * 1000 * 1000);
	assert_true(on < wall);
	double want = (double)(wall - on), got = (double)off;
	fprintf(stderr, "# wall %.3f ms, on-CPU %.3f ms, off-CPU %.3f ms (want %.3f), %u sleeps\n",
		(double)wall / 1e6, (double)on / 1e6, got / 1e6, want / 1e6, sleeps);
	assert_true(got >= want * 0.98 && got <= want * 1.02);
	pl_sched_log_free(&log);
	pl_profile_free(&prof);
	free(cpus);
	return true;
}

static void test_sleeper(void **state)
{
	(void)state;
	const char *sleeper = getenv("PROFILE_SLEEPER");
	assert_non_null(sleeper);
	for (int attempt = 0; attempt < 5; attempt++)
		if (run_once(sleeper))
			return;
	fprintf(stderr, "# skip: 5 runs each missed a switch of the child the kernel did "
			"not count as lost\n");
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
