/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The collector registry. To add a fact domain: write src/facts/DOMAIN.c exporting
 * pl_collect_DOMAIN() (declared in collectors.h), list it below and in meson.build.
 * Order matters only for humans: `inspect` prints domains in this order. */
#include "facts/collectors.h"

const struct pl_collector pl_collectors[] = {
	{ "virt", "hypervisor detection", pl_collect_virt },
	{ "kernel", "kernel release and boot command line", pl_collect_kernel },
	{ "clocksource", "current and available clocksources", pl_collect_clock },
};
const size_t pl_ncollectors = sizeof(pl_collectors) / sizeof(pl_collectors[0]);
