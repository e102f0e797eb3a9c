/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule tables, one per domain of list.h (pl_rules_NAME[] in src/rules/NAME.c), and
 * what several domain files share. To add a domain, see registry.c. */
#ifndef PERFLAB_RULES_DOMAINS_H
#define PERFLAB_RULES_DOMAINS_H
#include "rules/rules.h"

/* pl_rules_NAME[]: the rules of domain NAME (ids "NAME.*"), pl_rules_NAME_n of them. */
#define PL_RULE_DOMAIN(name)                                                                       \
	extern const struct pl_rule pl_rules_##name[];                                             \
	extern const size_t pl_rules_##name##_n;
#include "rules/list.h"
#undef PL_RULE_DOMAIN

/** The evidence of remote-NUMA findings (numa.c): `bench mem --numa-matrix` copy bandwidth
 *  from node 0's CPUs to node 0's and node 1's memory. Shared by the numa and pcie rules. */
extern const struct pl_evidence pl_numa_copy_evidence;

#endif
