/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule registry: one table per domain file. See domains.h for how to add one. */
#include "rules/domains.h"

const struct pl_rule_table pl_rule_tables[] = {
	{ "clock", pl_rules_clock, &pl_rules_clock_n },
};
const size_t pl_nrule_tables = sizeof(pl_rule_tables) / sizeof(pl_rule_tables[0]);
