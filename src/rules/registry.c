/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule registry: one table per domain of list.h.
 *
 * To add a rule domain NAME:
 *   1. write src/rules/NAME.c defining `const struct pl_rule pl_rules_NAME[]` and
 *      `const size_t pl_rules_NAME_n` (clock.c is the smallest table with its own
 *      predicates);
 *   2. add the line `PL_RULE_DOMAIN(NAME)` to src/rules/list.h.
 * That is the code: the line declares the table (domains.h), lists it below and makes
 * meson compile src/rules/NAME.c. tests/rules/test_rules.c needs fires / does-not-fire
 * cases for every rule (a test fails for a rule without both); docs/ARCHITECTURE.md, "How
 * to add a rule", lists every place, README included. Order is the order of
 * `check --list-rules`; findings are sorted by severity and id. */
#include "rules/domains.h"

const struct pl_rule_table pl_rule_tables[] = {
#define PL_RULE_DOMAIN(name) { #name, pl_rules_##name, &pl_rules_##name##_n },
#include "rules/list.h"
#undef PL_RULE_DOMAIN
};
const size_t pl_nrule_tables = sizeof(pl_rule_tables) / sizeof(pl_rule_tables[0]);
