/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rule tables, one per domain file. To add a domain: write src/rules/DOMAIN.c defining
 * pl_rules_DOMAIN[] and pl_rules_DOMAIN_n, declare them here, list them in registry.c and
 * src/rules/meson.build. */
#ifndef PERFLAB_RULES_DOMAINS_H
#define PERFLAB_RULES_DOMAINS_H
#include "rules/rules.h"

extern const struct pl_rule pl_rules_clock[];
extern const size_t pl_rules_clock_n;

#endif
