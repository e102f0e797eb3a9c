/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune plugin list: one PL_TUNE_PLUGIN(name) line per plugin perflab implements,
 * `name` being the tuned plugin (the section name or `type=` of a unit). This file is
 * also read by src/tune/meson.build, which compiles src/tune/plugins/<name>.c for every
 * line that starts with "PL_TUNE_PLUGIN(".
 *
 * To add a plugin NAME:
 *   1. write src/tune/plugins/NAME.c defining
 *      `int pl_tune_plugin_NAME(struct pl_tune_ctx *c, const struct pl_tune_unit *u)`
 *      that adds one item per option (and per device) with pl_tune_add_item() and
 *      decides it with the helpers of tune/plugins/plugin.h (copy a neighbour: sysctl.c
 *      is the smallest, disk.c one with devices);
 *   2. add the line `PL_TUNE_PLUGIN(NAME)` here.
 * tune/plan.c then runs it for every enabled unit of that type, and `tune show` no
 * longer marks the type unsupported (pl_tune_plugin_supported). */
PL_TUNE_PLUGIN(sysctl)
PL_TUNE_PLUGIN(vm)
PL_TUNE_PLUGIN(cpu)
PL_TUNE_PLUGIN(disk)
PL_TUNE_PLUGIN(sysfs)
PL_TUNE_PLUGIN(bootloader)
