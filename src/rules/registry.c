/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule registry: one table per domain file. See domains.h for how to add one. Order
 * is the order of `check --list-rules`; findings are sorted by severity and id. */
#include "rules/domains.h"

#define TABLE(name)                                                                                \
	{                                                                                          \
#name, pl_rules_##name, &pl_rules_##name##_n                                       \
	}

const struct pl_rule_table pl_rule_tables[] = {
	TABLE(clock), TABLE(power), TABLE(sched), TABLE(mem),	   TABLE(numa),
	TABLE(net),   TABLE(block), TABLE(accel), TABLE(dimm),	   TABLE(pcie),
	TABLE(nic),   TABLE(kmsg),  TABLE(noise), TABLE(conflict),
};
const size_t pl_nrule_tables = sizeof(pl_rule_tables) / sizeof(pl_rule_tables[0]);
