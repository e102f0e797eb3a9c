/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plain OSU-style MPI ping-pong (osu_latency's loop): ranks 0 and 1, for each SIZE in
 * turn (default 8 1024 65536 1048576) in one process: separate page-aligned send and
 * receive buffers filled, MPI_Barrier, SKIP untimed warm-up round trips, then ITERS timed
 * ones with MPI_Wtime; osu_latency's counts (10000 and 100 up to 8 KiB, 1000 and 10
 * above). Prints "SIZE RTT_US ONEWAY_US" per size (one-way = round trip / 2, the OSU
 * convention). The reference for perflab-mpi's pair latency (benchmarks/mpi-latency.sh),
 * which measures each size the same way. "-s N" first makes N untimed 8 B round trips
 * (not osu_latency's): on a shared machine a job that has just woken runs its first
 * milliseconds on scheduler credit (its first size fast, the rest not), while perflab's
 * pairs start after seconds of work; -s puts the sweep in the same state.
 * Usage: mpi-pingpong [-s N] [SIZE...]. Build: mpicc -O2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	static const int defaults[] = { 8, 1024, 65536, 1048576 };
	int settle = 0, first = 1;
	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		settle = atoi(argv[2]);
		first = 3;
	}
	int n = argc > first ? argc - first : 4, max = 8;
	int *sizes = calloc((size_t)n, sizeof(int));
	for (int k = 0; k < n; k++) {
		sizes[k] = argc > first ? atoi(argv[k + first]) : defaults[k];
		max = sizes[k] > max ? sizes[k] : max;
	}
	size_t cap = ((size_t)max + 4095) / 4096 * 4096;
	char *sbuf = aligned_alloc(4096, cap ? cap : 4096),
	     *rbuf = aligned_alloc(4096, cap ? cap : 4096);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < settle; i++) {
		if (rank == 0) {
			MPI_Send(sbuf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(rbuf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(rbuf, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(sbuf, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
		}
	}
	for (int k = 0; k < n; k++) {
		int size = sizes[k], iters = size > 8192 ? 1000 : 10000,
		    skip = size > 8192 ? 10 : 100;
		memset(sbuf, 'a', (size_t)size);
		memset(rbuf, 'b', (size_t)size);
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = 0;
		for (int i = 0; i < skip + iters; i++) {
			if (i == skip)
				t0 = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(sbuf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(rbuf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(rbuf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(sbuf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
			}
		}
		if (rank == 0) {
			double rtt = (MPI_Wtime() - t0) / iters * 1e6;
			printf("%d %.4f %.4f\n", size, rtt, rtt / 2);
		}
	}
	free(sbuf);
	free(rbuf);
	free(sizes);
	MPI_Finalize();
	return 0;
}
