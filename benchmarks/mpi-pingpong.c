/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plain OSU-style MPI ping-pong (osu_latency's loop): ranks 0 and 1, SIZE bytes,
 * SKIP untimed warm-up round trips, then ITERS timed ones with MPI_Wtime. Prints
 * "SIZE RTT_US ONEWAY_US" (one-way = round trip / 2, the OSU convention). The reference
 * for perflab-mpi's pair latency (benchmarks/mpi-latency.sh). Build: mpicc -O2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int size = argc > 1 ? atoi(argv[1]) : 8, iters = argc > 2 ? atoi(argv[2]) : 10000;
	int skip = argc > 3 ? atoi(argv[3]) : 100;
	char *buf = calloc(1, (size_t)size + 1);
	double t0 = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < skip + iters; i++) {
		if (i == skip)
			t0 = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
		}
	}
	if (rank == 0) {
		double rtt = (MPI_Wtime() - t0) / iters * 1e6;
		printf("%d %.4f %.4f\n", size, rtt, rtt / 2);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
