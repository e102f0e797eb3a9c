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
#include <stdint.h>

/** Resolve the user's spelling @spec (one event, no commas outside a PMU's slashes) into
 *  @ev: @ev->name is @spec as given, @ev->attr has type, config, config1 and config2 as
 *  perf builds them (tools/perf/util/parse-events.c) and the exclude_* bits of a modifier
 *  (":u", ":k", ":h", ":G", ":H", ":I", or after a PMU event's closing slash, "cpu/.../u",
 *  as perf's get_event_modifier sets them); every other attr field is 0 (perf also sets
 *  exclude_guest on every event it opens, event_attr_init: that is the opener's choice).
 *  Generic events resolve without a core PMU (opening them then fails); task-clock and
 *  cpu-clock get unit "msec" and scale 1e-6. A spelling that means several PMU instances
 *  gives the first (pl_pmu_resolve_all gives them all). Returns 0; or -EINVAL for a
 *  malformed spelling (a term without a value, a value that does not fit its format's
 *  bits, an unknown term or modifier, an unterminated "pmu/", an alias two PMUs define),
 *  -ENOENT for an unknown event, tracepoint or PMU, -ENODEV for an event of the core PMU
 *  ("cpu/...") on a machine without one, -EACCES for an unreadable tracefs,
 *  each with a one-line reason in @err (@errlen bytes; names the input and the fix, e.g.
 *  "unknown event 'cyclez' (perflab stat --list shows this machine's events)"). Reads
 *  only through the sysroot helper. */
int pl_pmu_resolve(const char *spec, struct pl_cnt_event *ev, char *err, size_t errlen);

/** As pl_pmu_resolve, for a spelling that may name several PMUs: a PMU name given
 *  without its instance suffix ("uncore_imc/cas_count_read/" for uncore_imc_0,
 *  uncore_imc_1, ...) resolves to one event per instance, all with the same @name so
 *  pl_cnt_result_sum adds them (as perf merges uncore boxes). The PMU name "cpu" means
 *  this machine's core PMU whatever its sysfs name ("cpu_core", "armv8_pmuv3_0"), so
 *  metric tables can spell core events one way; on a hybrid machine (cpu_core and
 *  cpu_atom) "cpu/ALIAS/" and the generic hardware and cache events give one event per
 *  core PMU that has them (a generic one with the PMU's type in config bits 32-63, as
 *  perf 6.1 does). "power/energy-*" (and a bare "energy-*") with no power PMU resolve to
 *  the powercap zones, one PL_CNT_POWERCAP event per zone. A bare alias resolves when
 *  the PMUs defining it are one PMU, its instances, or the core PMUs. Fills at most @max
 *  events into @evs and returns how many (>= 1), or a negative errno as pl_pmu_resolve
 *  (-E2BIG when there are more than @max). */
int pl_pmu_resolve_all(const char *spec, struct pl_cnt_event *evs, size_t max, char *err,
		       size_t errlen);

/** Whether the machine has a core PMU (a PMU named "cpu", one with a "cpus" file as
 *  cpu_core, cpu_atom and armv8_pmuv3_0 have, or one exporting events/cpu-cycles), read
 *  from /sys/bus/event_source/devices through the sysroot: true, or false with the
 *  reason in @why (@whylen bytes), naming the PMUs there ("no core PMU in
 *  /sys/bus/event_source/devices (it has: breakpoint, msr, software, tracepoint): a
 *  virtual machine without a virtual PMU, or no PMU driver for this CPU"). */
bool pl_pmu_have_core(char *why, size_t whylen);

/** The pipeline slots per cycle of the core PMU: its caps/slots file (Arm PMUs of
 *  Armv8.4 and later with PMMIR_EL1, drivers/perf/arm_pmuv3.c; Intel's cpu/caps/slots is
 *  absent, its slots are an event), read through the sysroot; the first core PMU that
 *  has one. Returns 0 with *@slots set (> 0), -ENOENT when none has it. */
int pl_pmu_core_slots(uint64_t *slots);

/** Call @fn for every event this machine offers, kind by kind: generic hardware and
 *  cache events (when a core PMU exists; in perf list's order and spelling,
 *  "L1-dcache-loads", "L1-dcache-load-misses"), software events, every PMU's aliases as
 *  "pmu/alias/" (PMUs and aliases sorted), the powercap stand-ins "power/energy-NAME/"
 *  when no power PMU exists, and tracepoint systems as "sys:*" (not each tracepoint).
 *  @kind is "hardware", "cache", "software", "pmu", "powercap" or "tracepoint"; @desc the
 *  event's unit ("Joules", "MiB") or "". Returns 0 or the first nonzero return of @fn. */
int pl_pmu_list(int (*fn)(const char *kind, const char *name, const char *desc, void *ctx),
		void *ctx);

#endif
