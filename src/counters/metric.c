/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics table (metric.h): each formula with its events, unit, threshold and the
 * document it comes from, selection by name, group and PMU kind, and evaluation through
 * the formula language (expr.h). docs/metrics.md is this table for readers. */
#include "counters/metric.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/expr.h"
#include "util/escape.h"

#define EV(...)                                                                                    \
	(const char *const[])                                                                      \
	{                                                                                          \
		__VA_ARGS__, NULL                                                                  \
	}

/* Sources, cited by several rows */
#define SRC_GREGG                                                                                  \
	"Brendan Gregg, \"CPU Utilization is Wrong\" (2017): IPC < 1.0 likely stall-bound, "       \
	"> 1.0 likely instruction-bound; perf's stat-shadow.c prints the same ratio"
#define SRC_SHADOW "perf, tools/perf/util/stat-shadow.c (print_metric: ratio colours)"
#define SRC_TMA                                                                                    \
	"A. Yasin, \"A Top-Down method for performance analysis and counters "                     \
	"architecture\", ISPASS 2014; thresholds of perf's Intel metrics "                         \
	"(tools/perf/pmu-events/arch/x86/sapphirerapids/spr-metrics.json, "                        \
	"tma_*_bound MetricThreshold)"
#define SRC_ZEN4                                                                                   \
	"AMD PPR for Family 19h Models 10h and later (Zen 4), Pipeline Utilization; perf's "       \
	"tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json (6 dispatch slots)"
#define SRC_SBSA                                                                                   \
	"Arm Neoverse V1 / N2 telemetry specifications (topdown L1: STALL_SLOT_* over "            \
	"slots); perf's tools/perf/pmu-events/arch/arm64/sbsa.json"
#define SRC_RAPL                                                                                   \
	"Intel SDM vol. 3B, 15.10 Platform Specific Power Management (RAPL); the power "           \
	"PMU's events/energy-*.scale (2^-32 J), arch/x86/events/rapl.c"

/* TMA level-1 thresholds (perf's Intel metrics, MetricThreshold) */
#define TMA_FE 15.0
#define TMA_BAD 15.0
#define TMA_BE 20.0
#define TMA_RET 70.0

/* Intel: Sapphire Rapids and later, PERF_METRICS through the core PMU's aliases */
#define INTEL_TD                                                                                   \
	"(\"cpu/topdown-fe-bound/\" + \"cpu/topdown-bad-spec/\" + \"cpu/topdown-retiring/\" + "    \
	"\"cpu/topdown-be-bound/\")"
#define INTEL_TD_EV                                                                                \
	EV("cpu/slots/", "cpu/topdown-fe-bound/", "cpu/topdown-bad-spec/",                         \
	   "cpu/topdown-retiring/", "cpu/topdown-be-bound/")

/* AMD Zen 4: ls_not_halted_cyc (0x76), de_no_dispatch_per_slot (0x1a0: 0x01 frontend,
 * 0x1e backend stalls), de_src_op_disp.all (0xaa, 0x07), ex_ret_ops (0xc1) */
#define ZEN4_CYC "\"cpu/event=0x76/\""
#define ZEN4_SLOTS "(6 * " ZEN4_CYC ")"
#define ZEN4_EV                                                                                    \
	EV("cpu/event=0x76/", "cpu/event=0x1a0,umask=0x1/", "cpu/event=0x1a0,umask=0x1e/",         \
	   "cpu/event=0xaa,umask=0x7/", "cpu/event=0xc1/")

/* Arm Neoverse V1 / N2 (the N1 lacks the STALL_SLOT events: unavailable there) */
#define ARM_SLOTS "(#slots * \"cpu/cpu_cycles/\")"
#define ARM_EV                                                                                     \
	EV("cpu/cpu_cycles/", "cpu/stall_slot/", "cpu/stall_slot_frontend/",                       \
	   "cpu/stall_slot_backend/", "cpu/op_retired/", "cpu/op_spec/")

/* AMD Zen 4 Data Fabric: DRAM beats of 64 bytes on each of 12 channels */
#define DF(dir, n) "\"amd_df/local_processor_" dir "_data_beats_cs" #n "/\""
#define DFE(dir, n) "amd_df/local_processor_" dir "_data_beats_cs" #n "/"
#define DF_SUM(d)                                                                                  \
	"(" DF(d, 0) " + " DF(d, 1) " + " DF(d, 2) " + " DF(d, 3) " + " DF(d, 4) " + " DF(         \
		d,                                                                                 \
		5) " + " DF(d,                                                                     \
			    6) " + " DF(d,                                                         \
					7) " + " DF(d,                                             \
						    8) " + " DF(d,                                 \
								9) " + " DF(d,                     \
									    10) " + " DF(d,        \
											 11) ")"
#define DF_EV(d)                                                                                   \
	EV(DFE(d, 0), DFE(d, 1), DFE(d, 2), DFE(d, 3), DFE(d, 4), DFE(d, 5), DFE(d, 6), DFE(d, 7), \
	   DFE(d, 8), DFE(d, 9), DFE(d, 10), DFE(d, 11))
#define SRC_DF                                                                                     \
	"perf's tools/perf/pmu-events/arch/x86/amdzen4/recommended.json "                          \
	"(dram_*_data_for_local_processor: beats x 64 B, ScaleUnit 6.103515625e-5MiB)"
#define SRC_IMC                                                                                    \
	"perf's Intel uncore memory metrics (UNC_M_CAS_COUNT.RD/.WR x 64 B); the "                 \
	"uncore_imc PMU's events/cas_count_*.scale 6.103515625e-5 and .unit MiB"

static const struct pl_metric table[] = {
	/* basic */
	{ .name = "ipc",
	  .group = "basic",
	  .pmu_kind = "any",
	  .events = EV("instructions", "cycles"),
	  .expr = "instructions / cycles",
	  .unit = "insn/cycle",
	  .threshold = 1.0,
	  .below = true,
	  .desc = "instructions retired per cycle",
	  .source = SRC_GREGG },
	{ .name = "cpi",
	  .group = "basic",
	  .pmu_kind = "any",
	  .events = EV("instructions", "cycles"),
	  .expr = "cycles / instructions",
	  .unit = "cycles/insn",
	  .threshold = 1.0,
	  .desc = "cycles per instruction retired",
	  .source = SRC_GREGG },
	{ .name = "frequency",
	  .group = "basic",
	  .pmu_kind = "any",
	  .events = EV("cycles", "task-clock"),
	  .expr = "cycles / (\"task-clock\" * 1e6)",
	  .unit = "GHz",
	  .threshold = NAN,
	  .desc = "cycles per second on CPU (task-clock in msec)",
	  .source =
		  "perf, tools/perf/util/stat-shadow.c (GHz beside cycles: cycles / task-clock)" },
	{ .name = "frequency_aperf",
	  .group = "basic",
	  .pmu_kind = "any",
	  .events = EV("msr/tsc/", "msr/aperf/", "msr/mperf/", "task-clock"),
	  .expr = "\"msr/tsc/\" / (\"task-clock\" * 1e6) * \"msr/aperf/\" / \"msr/mperf/\"",
	  .unit = "GHz",
	  .threshold = NAN,
	  .desc = "TSC rate times APERF/MPERF: the average frequency while not halted",
	  .source = "Intel SDM vol. 3B, 15.2 (IA32_APERF / IA32_MPERF); turbostat's Bzy_MHz "
		    "= TSC rate * APERF / MPERF" },
	{ .name = "branch_miss_rate",
	  .group = "basic",
	  .pmu_kind = "any",
	  .events = EV("branch-misses", "branches"),
	  .expr = "100 * \"branch-misses\" / branches",
	  .unit = "%",
	  .threshold = 5.0,
	  .desc = "mispredicted branches per branch",
	  .source = SRC_SHADOW " (branch-misses above 5% shown as a warning)" },
	/* cache */
	{ .name = "l1d_mpki",
	  .group = "cache",
	  .pmu_kind = "any",
	  .events = EV("L1-dcache-load-misses", "instructions"),
	  .expr = "1000 * \"L1-dcache-load-misses\" / instructions",
	  .unit = "MPKI",
	  .threshold = NAN,
	  .desc = "L1 data cache load misses per 1000 instructions",
	  .source = "perf's generic cache event (PERF_COUNT_HW_CACHE_L1D, OP_READ, RESULT_MISS); "
		    "Intel's tma_info_memory_l1mpki (spr-metrics.json)" },
	{ .name = "l2_mpki",
	  .group = "cache",
	  .pmu_kind = "intel",
	  .events = EV("cpu/event=0xd1,umask=0x10/", "instructions"),
	  .expr = "1000 * \"cpu/event=0xd1,umask=0x10/\" / instructions",
	  .unit = "MPKI",
	  .threshold = NAN,
	  .desc = "loads missing L2 (MEM_LOAD_RETIRED.L2_MISS) per 1000 instructions",
	  .source = "perf's tools/perf/pmu-events/arch/x86/sapphirerapids/spr-metrics.json "
		    "(tma_info_memory_l2mpki)" },
	{ .name = "l2_mpki",
	  .group = "cache",
	  .pmu_kind = "amd-zen4",
	  .events = EV("cpu/event=0x64,umask=0x9/", "instructions"),
	  .expr = "1000 * \"cpu/event=0x64,umask=0x9/\" / instructions",
	  .unit = "MPKI",
	  .threshold = NAN,
	  .desc = "L2 misses of instruction and data cache requests "
		  "(l2_cache_req_stat.ic_dc_miss_in_l2) per 1000 instructions",
	  .source = "AMD PPR for Family 19h Models 10h and later, PMCx064; perf's "
		    "tools/perf/pmu-events/arch/x86/amdzen4/cache.json" },
	{ .name = "l2_mpki",
	  .group = "cache",
	  .pmu_kind = "arm-neoverse",
	  .events = EV("cpu/l2d_cache_refill/", "instructions"),
	  .expr = "1000 * \"cpu/l2d_cache_refill/\" / instructions",
	  .unit = "MPKI",
	  .threshold = NAN,
	  .desc = "L2 data cache refills per 1000 instructions",
	  .source = "Arm Neoverse N2 telemetry specification (L2D_CACHE_REFILL, 0x17); perf's "
		    "tools/perf/pmu-events/arch/arm64/arm/neoverse-n2-v2/metrics.json "
		    "(l2d_cache_mpki)" },
	{ .name = "llc_mpki",
	  .group = "cache",
	  .pmu_kind = "any",
	  .events = EV("LLC-load-misses", "instructions"),
	  .expr = "1000 * \"LLC-load-misses\" / instructions",
	  .unit = "MPKI",
	  .threshold = NAN,
	  .desc = "last-level cache load misses per 1000 instructions",
	  .source = "perf's generic cache event (PERF_COUNT_HW_CACHE_LL, OP_READ, RESULT_MISS)" },
	/* tlb */
	{ .name = "dtlb_miss_rate",
	  .group = "tlb",
	  .pmu_kind = "any",
	  .events = EV("dTLB-load-misses", "dTLB-loads"),
	  .expr = "100 * \"dTLB-load-misses\" / \"dTLB-loads\"",
	  .unit = "%",
	  .threshold = 5.0,
	  .desc = "data TLB load misses per data TLB load",
	  .source = SRC_SHADOW " (dTLB-load-misses above 5% shown as a warning)" },
	/* topdown: Intel */
	{ .name = "topdown_retiring",
	  .group = "topdown",
	  .pmu_kind = "intel",
	  .events = INTEL_TD_EV,
	  .expr = "100 * \"cpu/topdown-retiring/\" / " INTEL_TD,
	  .unit = "%",
	  .threshold = TMA_RET,
	  .desc = "slots retiring uops",
	  .source = SRC_TMA },
	{ .name = "topdown_bad_speculation",
	  .group = "topdown",
	  .pmu_kind = "intel",
	  .events = INTEL_TD_EV,
	  .expr = "100 * \"cpu/topdown-bad-spec/\" / " INTEL_TD,
	  .unit = "%",
	  .threshold = TMA_BAD,
	  .desc = "slots wasted on mispredicted paths",
	  .source = SRC_TMA },
	{ .name = "topdown_frontend_bound",
	  .group = "topdown",
	  .pmu_kind = "intel",
	  .events = INTEL_TD_EV,
	  .expr = "100 * \"cpu/topdown-fe-bound/\" / " INTEL_TD,
	  .unit = "%",
	  .threshold = TMA_FE,
	  .desc = "slots the frontend left empty",
	  .source = SRC_TMA },
	{ .name = "topdown_backend_bound",
	  .group = "topdown",
	  .pmu_kind = "intel",
	  .events = INTEL_TD_EV,
	  .expr = "100 * \"cpu/topdown-be-bound/\" / " INTEL_TD,
	  .unit = "%",
	  .threshold = TMA_BE,
	  .desc = "slots stalled on the backend",
	  .source = SRC_TMA },
	/* topdown: AMD Zen 4 */
	{ .name = "topdown_retiring",
	  .group = "topdown",
	  .pmu_kind = "amd-zen4",
	  .events = ZEN4_EV,
	  .expr = "100 * \"cpu/event=0xc1/\" / " ZEN4_SLOTS,
	  .unit = "%",
	  .threshold = TMA_RET,
	  .desc = "dispatch slots of ops that retired",
	  .source = SRC_ZEN4 },
	{ .name = "topdown_bad_speculation",
	  .group = "topdown",
	  .pmu_kind = "amd-zen4",
	  .events = ZEN4_EV,
	  .expr = "100 * (\"cpu/event=0xaa,umask=0x7/\" - \"cpu/event=0xc1/\") / " ZEN4_SLOTS,
	  .unit = "%",
	  .threshold = TMA_BAD,
	  .desc = "dispatched ops that did not retire",
	  .source = SRC_ZEN4 },
	{ .name = "topdown_frontend_bound",
	  .group = "topdown",
	  .pmu_kind = "amd-zen4",
	  .events = ZEN4_EV,
	  .expr = "100 * \"cpu/event=0x1a0,umask=0x1/\" / " ZEN4_SLOTS,
	  .unit = "%",
	  .threshold = TMA_FE,
	  .desc = "dispatch slots the frontend left empty",
	  .source = SRC_ZEN4 },
	{ .name = "topdown_backend_bound",
	  .group = "topdown",
	  .pmu_kind = "amd-zen4",
	  .events = ZEN4_EV,
	  .expr = "100 * \"cpu/event=0x1a0,umask=0x1e/\" / " ZEN4_SLOTS,
	  .unit = "%",
	  .threshold = TMA_BE,
	  .desc = "dispatch slots stalled on the backend",
	  .source = SRC_ZEN4 },
	/* topdown: Arm Neoverse V1 / N2 */
	{ .name = "topdown_retiring",
	  .group = "topdown",
	  .pmu_kind = "arm-neoverse",
	  .events = ARM_EV,
	  .expr = "100 * (\"cpu/op_retired/\" / \"cpu/op_spec/\") * (1 - \"cpu/stall_slot/\" "
		  "/ " ARM_SLOTS ")",
	  .unit = "%",
	  .threshold = TMA_RET,
	  .desc = "slots of operations that retired",
	  .source = SRC_SBSA },
	{ .name = "topdown_bad_speculation",
	  .group = "topdown",
	  .pmu_kind = "arm-neoverse",
	  .events = ARM_EV,
	  .expr = "100 * (1 - \"cpu/op_retired/\" / \"cpu/op_spec/\") * (1 - \"cpu/stall_slot/\" "
		  "/ " ARM_SLOTS ")",
	  .unit = "%",
	  .threshold = TMA_BAD,
	  .desc = "slots of operations that did not retire",
	  .source = SRC_SBSA },
	{ .name = "topdown_frontend_bound",
	  .group = "topdown",
	  .pmu_kind = "arm-neoverse",
	  .events = ARM_EV,
	  .expr = "100 * \"cpu/stall_slot_frontend/\" / " ARM_SLOTS,
	  .unit = "%",
	  .threshold = TMA_FE,
	  .desc = "slots the frontend left empty",
	  .source = SRC_SBSA },
	{ .name = "topdown_backend_bound",
	  .group = "topdown",
	  .pmu_kind = "arm-neoverse",
	  .events = ARM_EV,
	  .expr = "100 * \"cpu/stall_slot_backend/\" / " ARM_SLOTS,
	  .unit = "%",
	  .threshold = TMA_BE,
	  .desc = "slots stalled on the backend",
	  .source = SRC_SBSA },
	/* memory */
	{ .name = "memory_read_bw",
	  .group = "memory",
	  .pmu_kind = "intel",
	  .events = EV("uncore_imc/cas_count_read/"),
	  .expr = "\"uncore_imc/cas_count_read/\" * 1048576 / 1e9 / duration_time",
	  .unit = "GB/s",
	  .threshold = NAN,
	  .desc = "DRAM read bandwidth at the memory controllers (MiB counts)",
	  .source = SRC_IMC },
	{ .name = "memory_write_bw",
	  .group = "memory",
	  .pmu_kind = "intel",
	  .events = EV("uncore_imc/cas_count_write/"),
	  .expr = "\"uncore_imc/cas_count_write/\" * 1048576 / 1e9 / duration_time",
	  .unit = "GB/s",
	  .threshold = NAN,
	  .desc = "DRAM write bandwidth at the memory controllers (MiB counts)",
	  .source = SRC_IMC },
	{ .name = "memory_read_bw",
	  .group = "memory",
	  .pmu_kind = "amd-zen4",
	  .events = DF_EV("read"),
	  .expr = DF_SUM("read") " * 64 / 1e9 / duration_time",
	  .unit = "GB/s",
	  .threshold = NAN,
	  .desc = "DRAM read bandwidth of the local processor at the Data Fabric",
	  .source = SRC_DF },
	{ .name = "memory_write_bw",
	  .group = "memory",
	  .pmu_kind = "amd-zen4",
	  .events = DF_EV("write"),
	  .expr = DF_SUM("write") " * 64 / 1e9 / duration_time",
	  .unit = "GB/s",
	  .threshold = NAN,
	  .desc = "DRAM write bandwidth of the local processor at the Data Fabric",
	  .source = SRC_DF },
	/* power */
	{ .name = "power_pkg",
	  .group = "power",
	  .pmu_kind = "any",
	  .events = EV("power/energy-pkg/"),
	  .expr = "\"power/energy-pkg/\" / duration_time",
	  .unit = "W",
	  .threshold = NAN,
	  .desc = "package power (energy-pkg in Joules over the run)",
	  .source = SRC_RAPL },
	{ .name = "energy_pkg",
	  .group = "power",
	  .pmu_kind = "any",
	  .events = EV("power/energy-pkg/"),
	  .expr = "\"power/energy-pkg/\"",
	  .unit = "J",
	  .threshold = NAN,
	  .desc = "package energy over the run",
	  .source = SRC_RAPL },
	{ .name = "power_ram",
	  .group = "power",
	  .pmu_kind = "any",
	  .events = EV("power/energy-ram/"),
	  .expr = "\"power/energy-ram/\" / duration_time",
	  .unit = "W",
	  .threshold = NAN,
	  .desc = "DRAM power (energy-ram in Joules over the run)",
	  .source = SRC_RAPL },
	{ .name = "energy_ram",
	  .group = "power",
	  .pmu_kind = "any",
	  .events = EV("power/energy-ram/"),
	  .expr = "\"power/energy-ram/\"",
	  .unit = "J",
	  .threshold = NAN,
	  .desc = "DRAM energy over the run",
	  .source = SRC_RAPL },
	/* software */
	{ .name = "cpu_utilization",
	  .group = "software",
	  .pmu_kind = "any",
	  .events = EV("task-clock"),
	  .expr = "\"task-clock\" / (duration_time * 1000)",
	  .unit = "CPUs",
	  .threshold = NAN,
	  .desc = "CPUs utilized: task-clock msec per wall msec",
	  .source = "perf, tools/perf/util/stat-shadow.c (\"CPUs utilized\")" },
	{ .name = "context_switch_rate",
	  .group = "software",
	  .pmu_kind = "any",
	  .events = EV("context-switches", "task-clock"),
	  .expr = "\"context-switches\" / (\"task-clock\" / 1000)",
	  .unit = "/s",
	  .threshold = NAN,
	  .desc = "context switches per second of task-clock (CPU time counted), as perf stat's "
		  "/sec",
	  .source = "perf_event_open(2), PERF_COUNT_SW_CONTEXT_SWITCHES" },
	{ .name = "cpu_migration_rate",
	  .group = "software",
	  .pmu_kind = "any",
	  .events = EV("cpu-migrations", "task-clock"),
	  .expr = "\"cpu-migrations\" / (\"task-clock\" / 1000)",
	  .unit = "/s",
	  .threshold = NAN,
	  .desc = "migrations between CPUs per second of task-clock (CPU time counted), as perf "
		  "stat's /sec",
	  .source = "perf_event_open(2), PERF_COUNT_SW_CPU_MIGRATIONS" },
	{ .name = "page_fault_rate",
	  .group = "software",
	  .pmu_kind = "any",
	  .events = EV("page-faults", "task-clock"),
	  .expr = "\"page-faults\" / (\"task-clock\" / 1000)",
	  .unit = "/s",
	  .threshold = NAN,
	  .desc = "page faults per second of task-clock (CPU time counted), as perf stat's /sec",
	  .source = "perf_event_open(2), PERF_COUNT_SW_PAGE_FAULTS" },
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

static struct pl_expr *parsed[NTABLE];
static pthread_once_t parsed_once = PTHREAD_ONCE_INIT;

static void parse_table(void)
{
	/* every formula parses: test_metric.c checks each against its event list */
	for (size_t i = 0; i < NTABLE; i++) {
		char err[256];
		if (pl_expr_parse(table[i].expr, &parsed[i], err, sizeof(err)) < 0)
			parsed[i] = NULL;
	}
}

const struct pl_metric *pl_metric_table(size_t *n)
{
	*n = NTABLE;
	return table;
}

static bool kind_fits(const struct pl_metric *m, const char *pmu_kind)
{
	return !pmu_kind || !strcmp(m->pmu_kind, "any") || !strcmp(m->pmu_kind, pmu_kind);
}

static bool already(const struct pl_metric **out, size_t n, const struct pl_metric *m)
{
	for (size_t i = 0; i < n; i++)
		if (out[i] == m)
			return true;
	return false;
}

/* Add the entries named @name (a metric, or every metric of a group when @group) that
 * fit @pmu_kind, or the first entry of a metric none of whose entries fits (it then
 * reads as unavailable). Returns the new count, or -ENOSPC past @max. */
static int add_named(const char *name, bool group, const char *pmu_kind,
		     const struct pl_metric **out, size_t n, size_t max)
{
	for (size_t i = 0; i < NTABLE; i++) {
		const struct pl_metric *m = &table[i];
		if (strcmp(group ? m->group : m->name, name))
			continue;
		/* the first entry of each metric name decides for all its entries */
		bool first = true;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(table[j].name, m->name))
				first = false;
		if (!first)
			continue;
		const struct pl_metric *pick = NULL;
		for (size_t j = i; j < NTABLE && !pick; j++)
			if (!strcmp(table[j].name, m->name) && kind_fits(&table[j], pmu_kind))
				pick = &table[j];
		if (!pick)
			pick = m;
		for (size_t j = i; j < NTABLE; j++) {
			const struct pl_metric *c = &table[j];
			if (strcmp(c->name, m->name) || (c != pick && !kind_fits(c, pmu_kind)))
				continue;
			if (already(out, n, c))
				continue;
			if (n >= max)
				return -ENOSPC;
			out[n++] = c;
		}
	}
	return (int)n;
}

static bool is_group(const char *name)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (!strcmp(table[i].group, name))
			return true;
	return false;
}

static bool is_metric(const char *name)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (!strcmp(table[i].name, name))
			return true;
	return false;
}

/* @s with controls and invalid UTF-8 as \xNN, cut to @len bytes, in @buf */
static const char *escaped(const char *s, char *buf, size_t len)
{
	char *e = pl_str_escape(s, PL_ESC_TERM);
	snprintf(buf, len, "%s", e);
	free(e);
	return buf;
}

int pl_metric_select(const char *spec, const char *pmu_kind, const struct pl_metric **out,
		     size_t max, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		snprintf(err, errlen,
			 "empty metric list (give metric or group names; see perflab stat --list)");
		return -ENOENT;
	}
	/* names as errors show them: one line, whatever bytes they hold */
	char shown[256];
	size_t n = 0;
	const char *p = spec;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[64];
		if (len == 0 || len >= sizeof(name)) {
			snprintf(err, errlen,
				 "%s metric name in '%s' (give metric or group names separated by "
				 "commas; see perflab stat --list)",
				 len ? "overlong" : "empty", escaped(spec, shown, sizeof(shown)));
			return -ENOENT;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		int rc;
		if (is_metric(name))
			rc = add_named(name, false, pmu_kind, out, n, max);
		else if (is_group(name))
			rc = add_named(name, true, pmu_kind, out, n, max);
		else {
			snprintf(err, errlen,
				 "unknown metric or group '%s' (see perflab stat --list for the "
				 "metrics and groups)",
				 escaped(name, shown, sizeof(shown)));
			return -ENOENT;
		}
		if (rc < 0) {
			snprintf(err, errlen, "'%s' selects more than %zu metrics (name fewer)",
				 escaped(spec, shown, sizeof(shown)), max);
			return rc;
		}
		n = (size_t)rc;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)n;
}

int pl_metric_eval(const struct pl_metric *m, const struct pl_cnt_result *r, double *value,
		   char *missing, size_t missinglen)
{
	if (m >= table && m < table + NTABLE) {
		pthread_once(&parsed_once, parse_table);
		const struct pl_expr *e = parsed[m - table];
		if (!e) {
			snprintf(missing, missinglen, "a formula that does not parse");
			return -EINVAL;
		}
		return pl_expr_eval(e, r, value, missing, missinglen);
	}
	struct pl_expr *e;
	int rc = pl_expr_parse(m->expr, &e, missing, missinglen);
	if (rc < 0)
		return -EINVAL;
	rc = pl_expr_eval(e, r, value, missing, missinglen);
	pl_expr_free(e);
	return rc;
}
