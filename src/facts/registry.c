/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The collector registry, built from list.h.
 *
 * To add a fact domain NAME:
 *   1. write src/facts/NAME.c exporting `void pl_collect_NAME(struct pl_facts *f)`
 *      (clocksource.c is the smallest example);
 *   2. add the line `PL_FACT(NAME, "summary")` to src/facts/list.h, with the facts it sets
 *      as its docstring above it.
 * That is the code: the line declares pl_collect_NAME() (collectors.h), lists it below and
 * makes meson compile src/facts/NAME.c. docs/ARCHITECTURE.md, "How to add a fact", lists
 * the tests and docs to update too. Order matters only for humans: `inspect` prints
 * domains in list.h's order. */
#include "facts/collectors.h"

const struct pl_collector pl_collectors[] = {
#define PL_FACT(name, summary) { #name, summary, pl_collect_##name },
#include "facts/list.h"
#undef PL_FACT
};
const size_t pl_ncollectors = sizeof(pl_collectors) / sizeof(pl_collectors[0]);
