/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Event names to perf_event_attr, through the sysroot: the generic events of
 * include/uapi/linux/perf_event.h (hardware, hardware cache, software), raw "rNNNN",
 * tracepoints "sys:name" (the tracefs id), and PMU events of
 * /sys/bus/event_source/devices/PMU/{type,format/NAME,events/NAME} in perf's syntax:
 * "pmu/event=0x3c,umask=0x1/", "pmu/alias/", "pmu/alias,cmask=1/", or a bare alias that
 * one PMU's events/ directory defines ("topdown-retiring", "energy-pkg" resolves to the
 * power PMU). Format files say which attr field and bits a term fills
 * ("config:0-7,21", Documentation/ABI/testing/sysfs-bus-event_source-devices-format);
 * alias files hold terms ("event=0x00,umask=0x80"; sysfs-bus-event_source-devices-events),
 * with .scale and .unit beside them. The powercap sysfs (/sys/class/powercap/intel-rapl:N)
 * stands in for power/energy-* where the power PMU is absent. */
#ifndef PL_COUNTERS_PMU_H
#define PL_COUNTERS_PMU_H
#include "counters/counters.h"

#include <stddef.h>

/** Resolve the user's spelling @spec (one event, no commas outside a PMU's slashes) into
 *  @ev. Returns 0; or -EINVAL for a malformed spelling (a term without a value, a value
 *  that does not fit its format's bits, an unterminated "pmu/"), -ENOENT for an unknown
 *  event or PMU, each with a one-line reason in @err (@errlen bytes; names the input and
 *  the fix, e.g. "unknown event 'cyclez' (perflab stat --list shows this machine's
 *  events)"). Reads only through the sysroot helper. */
int pl_pmu_resolve(const char *spec, struct pl_cnt_event *ev, char *err, size_t errlen);

/** As pl_pmu_resolve, for a spelling that may name several PMUs: a PMU name given
 *  without its instance suffix ("uncore_imc/cas_count_read/" for uncore_imc_0,
 *  uncore_imc_1, ...) resolves to one event per instance, all with the same @name so
 *  pl_cnt_result_sum adds them (as perf merges uncore boxes). The PMU name "cpu" means
 *  this machine's core PMU whatever its sysfs name ("cpu_core", "armv8_pmuv3_0"), so
 *  metric tables can spell core events one way. Fills at most @max events into @evs and
 *  returns how many (>= 1), or a negative errno as pl_pmu_resolve. */
int pl_pmu_resolve_all(const char *spec, struct pl_cnt_event *evs, size_t max, char *err,
		       size_t errlen);

/** Whether the machine has a core PMU (a PMU named "cpu", "cpu_core", "cpu_atom",
 *  "armv8_*" or "armv8_pmuv3*", or any PMU exporting the generic "cycles" alias or
 *  accepting PERF_TYPE_HARDWARE): true, or false with the reason in @why ("no core PMU
 *  in /sys/bus/event_source/devices: a VM without a virtual PMU"). */
bool pl_pmu_have_core(char *why, size_t whylen);

/** Call @fn for every event this machine offers, sorted within each kind: generic
 *  hardware and cache events (when a core PMU exists), software events, every PMU's
 *  aliases as "pmu/alias/", and tracepoint systems as "sys:*" (not each tracepoint).
 *  @kind is "hardware", "cache", "software", "pmu", "powercap" or "tracepoint"; @desc a
 *  short description or "". Returns 0 or the first nonzero return of @fn. */
int pl_pmu_list(int (*fn)(const char *kind, const char *name, const char *desc, void *ctx),
		void *ctx);

#endif
