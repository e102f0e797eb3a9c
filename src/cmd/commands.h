/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The entry points of the commands of src/cmd/list.h, for src/main.c's dispatch. */
#ifndef PERFLAB_CMD_COMMANDS_H
#define PERFLAB_CMD_COMMANDS_H

/** Command entry points: argv[0] is the command name. Return an exit code (log.h). */
#define PL_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "cmd/list.h"
#undef PL_COMMAND

#endif
