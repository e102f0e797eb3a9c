/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi's gather protocol: every collector sends its document (one JSON text per
 * message) to rank 0, which receives up to WINDOW of them at once and parses each as it
 * lands; and stopping early: a signal, another rank's notice or rank 0's --timeout ends
 * every wait, so rank 0 writes what it has. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/run.h"
#include "report/limits.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/testhook.h"

/* ---- stopping early: SIGINT/SIGTERM, a rank's notice, rank 0's --timeout ---- */

/* OpenMPI 4.1's mpirun turns a SIGINT or SIGTERM of its own into SIGTERM to every rank
 * and SIGKILL 1 s later (odls_base_sigkill_timeout), so rank 0 has about a second to
 * write what it has. */
volatile sig_atomic_t pl_mpi_got_sig;
struct pl_mpi_stop_cause pl_mpi_stop = { .phase = "documents" };

void pl_mpi_on_stop_signal(int sig)
{
	if (!pl_mpi_got_sig)
		pl_mpi_got_sig = sig;
}

/* True once this run must stop (fills pl_mpi_stop): this rank's signal or, on rank 0, another
 * rank's TAG_STOP notice {signal, rank}. */
bool pl_mpi_stopping(void)
{
	if (pl_mpi_stop.sig || pl_mpi_stop.late)
		return true;
	if (pl_mpi_got_sig) {
		pl_mpi_stop.sig = pl_mpi_got_sig;
		pl_mpi_stop.rank = pl_mpi_rank;
		return true;
	}
	int flag = 0;
	MPI_Status st;
	if (pl_mpi_rank == 0)
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag, &st);
	if (flag) {
		int v[2];
		MPI_Recv(v, 2, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		pl_mpi_stop.sig = v[0];
		pl_mpi_stop.rank = v[1];
	}
	return flag != 0;
}

/* Wait for the @n requests @rq, polling pl_mpi_stopping() and sleeping NAP_US between tests
 * (waiting ranks leave the CPUs to the ones working: 64 ranks share 2 here), and on rank 0
 * the MPI_Wtime @deadline (0: none; past it pl_mpi_stop.late is set). Returns 0 or -EINTR. */
int pl_mpi_wait_reqs(int n, MPI_Request *rq, double deadline)
{
	for (;;) {
		int done = 0;
		MPI_Testall(n, rq, &done, MPI_STATUSES_IGNORE);
		if (done)
			return 0;
		if (pl_mpi_stopping())
			return -EINTR;
		if (deadline > 0 && MPI_Wtime() > deadline) {
			pl_mpi_stop.late = true;
			return -EINTR;
		}
		usleep(NAP_US);
	}
}

/* MPI_Ibarrier on @comm, waited for as pl_mpi_wait_reqs(). */
int pl_mpi_poll_barrier(MPI_Comm comm, double deadline)
{
	MPI_Request rq;
	MPI_Ibarrier(comm, &rq);
	return pl_mpi_wait_reqs(1, &rq, deadline);
}

/* A rank other than 0 that must stop: tell rank 0 (TAG_STOP {signal, rank}), leave it
 * STOP_GRACE_S to write the partial report and end the job (MPI_Abort, or mpirun's
 * SIGKILL), then exit 128 + signal without MPI_Finalize (a collective that could hang). */
_Noreturn void pl_mpi_rank_stop(void)
{
	int v[2] = { pl_mpi_stop.sig, pl_mpi_stop.rank }, done = 0;
	MPI_Request rq;
	MPI_Isend(v, 2, MPI_INT, 0, TAG_STOP, MPI_COMM_WORLD, &rq);
	for (double end = MPI_Wtime() + STOP_GRACE_S; MPI_Wtime() < end; usleep(10000))
		if (!done)
			MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
	fflush(stdout);
	_exit(128 + (pl_mpi_stop.sig > 0 ? pl_mpi_stop.sig : SIGTERM));
}

/* Send @doc's compact text to rank 0 with @tag (one message; rank 0 sizes it with
 * MPI_Improbe) and wait for the send; a stop on the way ends this rank (pl_mpi_rank_stop).
 * A text longer than PL_DOC_MAX_BYTES goes as {"failed": why} instead. */
void pl_mpi_send_json(const json_t *doc, int tag)
{
	char *text = json_dumps(doc, JSON_COMPACT);
	size_t n = text ? strlen(text) : 0;
	if (n > PL_DOC_MAX_BYTES) { /* rank 0 would refuse it: say why instead */
		json_t *f = json_object();
		char *why = pl_xasprintf("its document is %zu bytes, more than the %zu MiB "
					 "perflab reads of a document",
					 n, PL_DOC_MAX_BYTES >> 20);
		json_object_set_new(f, "failed", pl_json_string(why));
		free(why);
		free(text);
		text = json_dumps(f, JSON_COMPACT);
		json_decref(f);
		n = text ? strlen(text) : 0;
	}
	MPI_Request rq;
	MPI_Isend(text ? text : "", (int)n, MPI_CHAR, 0, tag, MPI_COMM_WORLD, &rq);
	if (pl_mpi_wait_reqs(1, &rq, 0) < 0)
		pl_mpi_rank_stop();
	free(text);
}

/* The index of world rank @r in the ascending collectors' ranks @coll (@nc), or -1. */
static int coll_index(const int *coll, int nc, int r)
{
	for (int lo = 0, hi = nc - 1; lo <= hi;) {
		int mid = (lo + hi) / 2;
		if (coll[mid] == r)
			return mid;
		if (coll[mid] < r)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Test hook (tests/mpi/interrupt.sh): rank 0 writes how many nodes' documents it has,
 * its own included, to $PERFLAB_MPI_TEST_GATHERED (temp + rename) as each one lands. */
static void test_note_gathered(int tag, int n)
{
	static const char *f;
	static bool looked;
	if (!looked) {
		f = PL_TEST_HOOK("PERFLAB_MPI_TEST_GATHERED");
		looked = true;
	}
	struct pl_outfile out;
	if (f && tag == TAG_DOC && pl_outfile_open(&out, f) == 0) {
		fprintf(out.fp, "%d\n", n);
		pl_outfile_close(&out, !ferror(out.fp));
	}
}

/* Rank 0: the JSON text with @tag from each collector i (1..@nc-1) without @got[i],
 * parsed into @out[i] as it lands (NULL when it is not JSON; @got[i] set either way).
 * A text's size comes from MPI_Improbe and its receive is MPI_Imrecv, so up to WINDOW of
 * them are in flight at once (their senders progress in parallel) and each is parsed as
 * soon as it completes (MPI_Testsome) and freed: rank 0 holds at most WINDOW texts.
 * With @wait_s (may be NULL): the seconds until the last collector's text arrived (its
 * envelope matched; each collector counted once), @gather_s from then until all are parsed,
 * @parse_s the CPU seconds of the parsing (added to). Returns 0, or -EINTR when pl_mpi_stopping()
 * or
 * @deadline (MPI_Wtime; pl_mpi_stop.late) ended it first; receives still in flight are left to the
 * exit.
 */
int pl_mpi_gather_json(int tag, const int *coll, int nc, json_t **out, bool *got, double deadline,
		       double *wait_s, double *gather_s, double *parse_s)
{
	MPI_Request rq[WINDOW];
	char *buf[WINDOW];
	int len[WINDOW], who[WINDOW], idx[WINDOW];
	int left = 0, fly = 0, unmatched = 0;
	double t0 = MPI_Wtime(), t_all = t0, cpu = 0;
	for (int i = 1; i < nc; i++)
		left += !got[i];
	unmatched = left;
	for (int k = 0; k < WINDOW; k++)
		rq[k] = MPI_REQUEST_NULL;
	pl_autofree bool *seen = pl_xcalloc((size_t)nc, sizeof(bool));
	int r = 0;
	while (left > 0) {
		bool moved = false;
		for (int k = 0; k < WINDOW && fly < WINDOW; k++) {
			if (rq[k] != MPI_REQUEST_NULL)
				continue;
			int flag = 0;
			MPI_Message m;
			MPI_Status st;
			MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m, &st);
			if (!flag)
				break;
			MPI_Get_count(&st, MPI_CHAR, &len[k]);
			who[k] = coll_index(coll, nc, st.MPI_SOURCE);
			buf[k] = pl_xmalloc((size_t)len[k] + 1);
			MPI_Imrecv(buf[k], len[k], MPI_CHAR, &m, &rq[k]);
			fly++;
			moved = true;
			/* once per collector: a second text of one (never sent, but a rank's
			 * stray message must not end the wait early) does not count */
			if (who[k] > 0 && !got[who[k]] && !seen[who[k]]) {
				seen[who[k]] = true;
				if (--unmatched == 0)
					t_all = MPI_Wtime(); /* the last collector's text is here */
			}
		}
		int n = 0;
		if (fly)
			MPI_Testsome(WINDOW, rq, &n, idx, MPI_STATUSES_IGNORE);
		for (int j = 0; n != MPI_UNDEFINED && j < n; j++) {
			int k = idx[j], i = who[k];
			struct timespec c0, c1;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
			json_t *d = json_loadb(buf[k], (size_t)len[k], 0, NULL);
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
			cpu += (double)(c1.tv_sec - c0.tv_sec) +
			       (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
			free(buf[k]);
			fly--;
			moved = true;
			if (i > 0 && !got[i]) {
				out[i] = d;
				got[i] = true;
				left--;
				test_note_gathered(tag, nc - left);
			} else {
				json_decref(d);
			}
		}
		if (moved || left == 0)
			continue;
		if (pl_mpi_stopping()) {
			r = -EINTR;
			break;
		}
		if (MPI_Wtime() > deadline) {
			pl_mpi_stop.late = true;
			r = -EINTR;
			break;
		}
		if (!fly)
			usleep(NAP_US);
	}
	if (wait_s) {
		double end = MPI_Wtime();
		if (unmatched) /* not all arrived: all of it was waiting */
			t_all = end;
		*wait_s += t_all - t0;
		*gather_s += end - t_all;
		*parse_s += cpu;
	}
	return r;
}

/* Test hook (tests/mpi/): stop here until a signal, a hung rank or a pair that never
 * ends; first write this rank's pid to the file $PERFLAB_MPI_TEST_STALLED (temp +
 * rename), so the test knows when, and whom to signal. */
void pl_mpi_test_stall(void)
{
	const char *f = PL_TEST_HOOK("PERFLAB_MPI_TEST_STALLED");
	if (f) {
		struct pl_outfile out;
		if (pl_outfile_open(&out, f) == 0) {
			fprintf(out.fp, "%ld\n", (long)getpid());
			pl_outfile_close(&out, !ferror(out.fp));
		}
	}
	while (!pl_mpi_got_sig)
		usleep(10000);
}

char *pl_mpi_allgather_bytes(const void *buf, int len, int **lens, int **displs)
{
	size_t nr = (size_t)pl_mpi_nranks;
	*lens = pl_xcalloc(nr, sizeof(int));
	*displs = pl_xcalloc(nr, sizeof(int));
	MPI_Allgather(&len, 1, MPI_INT, *lens, 1, MPI_INT, MPI_COMM_WORLD);
	size_t total = 0;
	for (size_t r = 0; r < nr; r++) {
		(*displs)[r] = (int)total;
		total += (size_t)(*lens)[r];
	}
	char *all = pl_xmalloc(total ? total : 1);
	MPI_Allgatherv(buf, len, MPI_CHAR, all, *lens, *displs, MPI_CHAR, MPI_COMM_WORLD);
	return all;
}
