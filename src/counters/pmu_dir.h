/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the resolver (pmu.c) and the listing (pmu_list.c) share about the PMU directory
 * /sys/bus/event_source/devices, read through the sysroot. */
#ifndef PL_COUNTERS_PMU_DIR_H
#define PL_COUNTERS_PMU_DIR_H
#include <stdbool.h>
#include <stddef.h>

/** The directory every PMU has a folder in (Documentation/ABI/testing/
 *  sysfs-bus-event_source-devices-*). */
#define PL_PMU_DEVICES "/sys/bus/event_source/devices"

/** Whether PMU @name is a core PMU: "cpu" (x86 without hybrid cores), or one with a
 *  "cpus" file (x86 hybrid "cpu_core" and "cpu_atom", Arm "armv8_pmuv3_0"), as perf's
 *  is_pmu_core() decides (tools/perf/util/pmu.c). */
bool pl_pmu_is_core(const char *name);

/** The sorted names of the PMUs (malloc'd NULL-terminated vector, free with pl_strv_free;
 *  *@n the count). Returns 0 or -errno of the listing. */
int pl_pmu_names(char ***out, size_t *n);

/** The zones of the powercap sysfs (/sys/class/powercap/intel-rapl:N[:M],
 *  Documentation/power/powercap/powercap.rst) whose name file matches the power PMU's
 *  event @alias ("energy-pkg": "package-N", "energy-cores": "core", "energy-ram":
 *  "dram", "energy-gpu": "uncore", "energy-psys": "psys"): calls @fn with each zone's
 *  directory name ("intel-rapl:0") in sorted order. Returns how many matched, -EINVAL
 *  when @alias is not one of those names, or @fn's negative return. */
int pl_pmu_powercap_zones(const char *alias, int (*fn)(const char *zone, void *ctx), void *ctx);

#endif
