/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab bench: placeholder until its issue lands; exits 3 with a clear message. */
#include "cmd/common.h"

int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	pl_error("'perflab bench' is not implemented yet in this build");
	return PL_EXIT_RUNTIME;
}
