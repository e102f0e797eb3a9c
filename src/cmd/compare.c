/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab compare: placeholder until its issue lands; exits 3 with a clear message. */
#include "cmd/common.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	pl_error("'perflab compare' is not implemented yet in this build");
	return PL_EXIT_RUNTIME;
}
