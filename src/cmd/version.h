/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab --version: what this perflab is and what it can use here (version.c). */
#ifndef PERFLAB_CMD_VERSION_H
#define PERFLAB_CMD_VERSION_H
#include <stdbool.h>

/** Print the version report on stdout: text (first line "perflab X.Y.Z", then the
 *  commit, build type, libraries built in, and perflab-mpi, NVML and QAT as found at run
 *  time, each with where or why not), or with @json one object
 *  (docs/schemas/version.schema.json). Returns an exit code (log.h): 0, or 3 when stdout
 *  cannot be written. */
int pl_version_print(bool json);

#endif
