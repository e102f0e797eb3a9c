/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Collector entry points (one per file in src/facts/) and the parsers they export for
 * unit tests. To add a domain: write src/facts/DOMAIN.c with pl_collect_DOMAIN(), declare
 * it here, add it to registry.c and src/facts/meson.build. */
#ifndef PERFLAB_FACTS_COLLECTORS_H
#define PERFLAB_FACTS_COLLECTORS_H
#include <jansson.h>

#include "facts/facts.h"

/** kernel.release, kernel.version, kernel.cmdline, kernel.cmdline.params. */
void pl_collect_kernel(struct pl_facts *f);
/** clocksource.current, clocksource.available. */
void pl_collect_clock(struct pl_facts *f);
/** virt.hypervisor and the evidence for it. */
void pl_collect_virt(struct pl_facts *f);

/** Parse a kernel command line (/proc/cmdline) into an object name -> value string, or
 *  true for a bare flag. Double quotes group ("a=\"x y\""), later duplicates win (as most
 *  early_param handlers do). Returns a new object; never NULL. */
json_t *pl_cmdline_parse(const char *cmdline);

/** Parse a sysfs list whose active entry is bracketed ("[mq-deadline] none", the format of
 *  queue/scheduler and THP's enabled). Returns the active entry as a malloc'd string or
 *  NULL when none is bracketed; *all (optional) gets a new array of every entry. */
char *pl_parse_bracket_list(const char *s, json_t **all);

#endif
