/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of every rule predicate: each case builds synthetic facts with the pl_fact_*
 * setters, runs one rule's predicate and asserts how many findings it adds (and what they
 * say). A registry test fails when a rule lacks a case that fires or one that does not.
 * Facts are written as JSON: {"key": value, "key2": {"$unavailable": "reason"}}. */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"
#include "bench/bench.h"
#include "counters/metric.h"
#include "counters/window.h"
#include "util/json.h"
#include "rules/predicates.h"
#include "rules/rules.h"
#include "util/str.h"

struct rcase {
	const char *rule;     /* rule id */
	const char *facts;    /* JSON object of facts */
	int fires;	      /* expected number of findings */
	const char *observed; /* substring of the first finding's observed text, or NULL */
	const char *subject;  /* subject of the first finding, or NULL */
	const char *fix;      /* substring of the first finding's fix command, or NULL */
};

#define UNAV "{\"$unavailable\":\"not present\"}"
#define ISTATES_DEEP                                                                               \
	"[{\"name\":\"POLL\",\"latency_us\":0,\"disabled\":false},"                                \
	"{\"name\":\"C1\",\"latency_us\":2,\"disabled\":false},"                                   \
	"{\"name\":\"C1E\",\"latency_us\":10,\"disabled\":false},"                                 \
	"{\"name\":\"C6\",\"latency_us\":133,\"disabled\":false}]"
#define ISTATES_C6_OFF                                                                             \
	"[{\"name\":\"POLL\",\"latency_us\":0,\"disabled\":false},"                                \
	"{\"name\":\"C1\",\"latency_us\":2,\"disabled\":false},"                                   \
	"{\"name\":\"C6\",\"latency_us\":133,\"disabled\":true}]"

static const struct rcase cases[] = {
	/* clock */
	{ "clock.xen-tsc",
	  "{\"clocksource.current\":\"xen\",\"clocksource.available\":[\"xen\",\"tsc\",\"hpet\"],"
	  "\"cpu.tsc.invariant\":true}",
	  1, "xen", NULL, "echo tsc" },
	{ "clock.xen-tsc",
	  "{\"clocksource.current\":\"xen\",\"clocksource.available\":[\"xen\",\"tsc\"]}", 1 },
	{ "clock.xen-tsc",
	  "{\"clocksource.current\":\"xen\",\"clocksource.available\":[\"xen\",\"tsc\"],"
	  "\"cpu.tsc.invariant\":false}",
	  0 },
	{ "clock.xen-tsc",
	  "{\"clocksource.current\":\"kvm-clock\",\"clocksource.available\":[\"kvm-clock\",\"tsc\"]"
	  "}",
	  0 },
	{ "clock.xen-tsc", "{\"clocksource.current\":\"xen\",\"clocksource.available\":[\"xen\"]}",
	  0 },
	{ "clock.xen-tsc", "{\"clocksource.current\":\"xen\",\"clocksource.available\":" UNAV "}",
	  0 },
	{ "clock.slow-source",
	  "{\"clocksource.current\":\"hpet\",\"clocksource.available\":[\"tsc\",\"hpet\"]}", 1,
	  "hpet (tsc available)", NULL, "echo tsc" },
	{ "clock.slow-source",
	  "{\"clocksource.current\":\"acpi_pm\",\"clocksource.available\":[\"kvm-clock\",\"acpi_"
	  "pm\"]}",
	  1, "acpi_pm", NULL, "echo kvm-clock" },
	{ "clock.slow-source",
	  "{\"clocksource.current\":\"hpet\",\"clocksource.available\":[\"tsc\",\"hpet\"],"
	  "\"cpu.tsc.invariant\":false}",
	  0 },
	{ "clock.slow-source",
	  "{\"clocksource.current\":\"tsc\",\"clocksource.available\":[\"tsc\",\"hpet\"]}", 0 },
	{ "clock.slow-source",
	  "{\"clocksource.current\":\"kvm-clock\",\"clocksource.available\":[\"kvm-clock\"]}", 0 },

	/* power */
	{ "power.governor",
	  "{\"cpufreq.governor\":\"powersave\",\"cpufreq.driver\":\"intel_pstate\","
	  "\"cpufreq.intel_pstate.status\":\"active\"}",
	  1, "governor powersave (intel_pstate active)", NULL, "-g performance" },
	{ "power.governor", "{\"cpufreq.governor\":\"mixed\"}", 1, "governor mixed" },
	{ "power.governor", "{\"cpufreq.governor\":\"performance\"}", 0 },
	{ "power.governor", "{\"cpufreq.governor\":" UNAV "}", 0 },
	{ "power.boost-off", "{\"cpufreq.boost\":false,\"cpufreq.driver\":\"intel_pstate\"}", 1,
	  "turbo boost off", NULL, "intel_pstate/no_turbo" },
	{ "power.boost-off", "{\"cpufreq.boost\":false,\"cpufreq.driver\":\"acpi-cpufreq\"}", 1,
	  NULL, NULL, "echo 1 > /sys/devices/system/cpu/cpufreq/boost" },
	{ "power.boost-off", "{\"cpufreq.boost\":true}", 0 },
	{ "power.boost-off", "{\"cpufreq.boost\":" UNAV "}", 0 },
	{ "power.boost-benchmark", "{\"cpufreq.boost\":true}", 1, "turbo boost on", NULL,
	  "echo 0 > /sys/devices/system/cpu/cpufreq/boost" },
	{ "power.boost-benchmark", "{\"cpufreq.boost\":false}", 0 },
	{ "power.cstates-deep", "{\"cpuidle.states\":" ISTATES_DEEP "}", 1, "C6 (133 us)" },
	{ "power.cstates-deep", "{\"cpuidle.states\":" ISTATES_C6_OFF "}", 0 },
	{ "power.cstates-deep",
	  "{\"cpuidle.states\":" ISTATES_DEEP
	  ",\"services.tuned.profile\":\"latency-performance\"}",
	  0 },
	{ "power.cstates-deep",
	  "{\"cpuidle.states\":" ISTATES_DEEP ",\"services.tuned.profile\":\"balanced\"}", 1 },
	{ "power.cstates-deep", "{\"cpuidle.states\":" UNAV "}", 0 },
	{ "power.cstates-deep", "{\"cpuidle.states\":[]}", 0 },
	{ "power.cstate-cmdline", "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"0\"}}",
	  1, "intel_idle.max_cstate=0" },
	{ "power.cstate-cmdline",
	  "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"0\",\"processor.max_cstate\":"
	  "\"1\"}}",
	  0 },
	{ "power.cstate-cmdline", "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"1\"}}",
	  0 },
	{ "power.cstate-cmdline", "{\"kernel.cmdline.params\":" UNAV "}", 0 },

	/* sched */
	{ "sched.nohz-full-unisolated", "{\"kernel.cmdline.params\":{\"nohz_full\":\"1-15\"}}", 1,
	  "CPUs 1-15 not in isolcpus; no rcu_nocbs", NULL, "isolcpus=1-15 rcu_nocbs=1-15" },
	{ "sched.nohz-full-unisolated",
	  "{\"kernel.cmdline.params\":{\"nohz_full\":\"1-15\",\"isolcpus\":\"1-7\",\"rcu_nocbs\":"
	  "\"1-15\"}}",
	  1, "CPUs 8-15 not in isolcpus; rcu_nocbs=1-15" },
	{ "sched.nohz-full-unisolated",
	  "{\"kernel.cmdline.params\":{\"nohz_full\":\"1-15\",\"isolcpus\":\"managed_irq,domain,1-"
	  "15\"}}",
	  0 },
	{ "sched.nohz-full-unisolated", "{\"kernel.cmdline.params\":{\"quiet\":true}}", 0 },
	{ "sched.nohz-full-unisolated", "{\"kernel.cmdline.params\":{\"nohz_full\":\"garbage\"}}",
	  0 },
	{ "sched.nohz-full-unisolated", "{\"kernel.cmdline.params\":" UNAV "}", 0 },
	{ "sched.latency-ns", "{\"sysctl.kernel.sched_latency_ns\":24000000}", 1,
	  "kernel.sched_latency_ns = 24000000" },
	{ "sched.latency-ns", "{\"sysctl.kernel.sched_latency_ns\":\"24000000\"}", 1 },
	{ "sched.latency-ns", "{\"sysctl.kernel.sched_latency_ns\":12000000}", 0 },
	{ "sched.latency-ns", "{\"sysctl.kernel.sched_latency_ns\":" UNAV "}", 0 },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance.running\":true}", 1,
	  "irqbalance running" },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance.running\":false}", 0 },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance\":{\"running\":true}}", 1 },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance\":true}", 1 },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance\":{\"running\":false}}", 0 },
	{ "sched.irqbalance-hpc", "{\"services.irqbalance\":" UNAV "}", 0 },

	/* mem */
	{ "mem.thp-latency", "{\"mem.thp.enabled\":\"always\"}", 1, "mem.thp.enabled = always" },
	{ "mem.thp-latency", "{\"mem.thp.enabled\":\"madvise\"}", 0 },
	{ "mem.thp-latency", "{\"mem.thp.enabled\":" UNAV "}", 0 },
	{ "mem.thp-defrag", "{\"mem.thp.defrag\":\"always\"}", 1 },
	{ "mem.thp-defrag", "{\"mem.thp.defrag\":\"madvise\"}", 0 },
	{ "mem.thp-hpc", "{\"mem.thp.enabled\":\"never\"}", 1 },
	{ "mem.thp-hpc", "{\"mem.thp.enabled\":\"always\"}", 0 },
	{ "mem.swappiness", "{\"sysctl.vm.swappiness\":60,\"mem.swap.total_bytes\":1073741824}", 1,
	  "vm.swappiness = 60", NULL, "sysctl -w vm.swappiness=10" },
	{ "mem.swappiness", "{\"sysctl.vm.swappiness\":60,\"mem.swap.total_bytes\":0}", 0 },
	{ "mem.swappiness", "{\"sysctl.vm.swappiness\":60}", 0 },
	{ "mem.swappiness", "{\"sysctl.vm.swappiness\":10,\"mem.swap.total_bytes\":1073741824}",
	  0 },
	{ "mem.swappiness", "{\"sysctl.vm.swappiness\":" UNAV ",\"mem.swap.total_bytes\":1}", 0 },
	{ "mem.dirty-latency",
	  "{\"sysctl.vm.dirty_ratio\":20,\"sysctl.vm.dirty_background_ratio\":10}", 1,
	  "vm.dirty_ratio = 20, vm.dirty_background_ratio = 10" },
	{ "mem.dirty-latency",
	  "{\"sysctl.vm.dirty_ratio\":10,\"sysctl.vm.dirty_background_ratio\":3}", 0 },
	{ "mem.dirty-latency",
	  "{\"sysctl.vm.dirty_ratio\":0,\"sysctl.vm.dirty_background_ratio\":0,"
	  "\"sysctl.vm.dirty_bytes\":268435456}",
	  0 },
	{ "mem.dirty-latency", "{\"sysctl.vm.dirty_ratio\":20}", 0 },
	{ "mem.dirty-throughput",
	  "{\"sysctl.vm.dirty_ratio\":20,\"sysctl.vm.dirty_background_ratio\":10}", 1 },
	{ "mem.dirty-throughput",
	  "{\"sysctl.vm.dirty_ratio\":40,\"sysctl.vm.dirty_background_ratio\":10}", 0 },
	{ "mem.vfs-cache-pressure-zero", "{\"sysctl.vm.vfs_cache_pressure\":0}", 1 },
	{ "mem.vfs-cache-pressure-zero", "{\"sysctl.vm.vfs_cache_pressure\":100}", 0 },
	{ "mem.vfs-cache-pressure-zero", "{\"sysctl.vm.vfs_cache_pressure\":" UNAV "}", 0 },
	{ "mem.vfs-cache-pressure", "{\"sysctl.vm.vfs_cache_pressure\":100}", 1,
	  "vm.vfs_cache_pressure = 100" },
	{ "mem.vfs-cache-pressure", "{\"sysctl.vm.vfs_cache_pressure\":50}", 0 },

	/* numa */
	{ "numa.remote-ratio", "{\"numa.nodes\":2,\"numa.remote_ratio\":0.8}", 1, "80% of page" },
	{ "numa.remote-ratio", "{\"numa.nodes\":2,\"numa.remote_ratio\":0.05}", 0 },
	{ "numa.remote-ratio", "{\"numa.nodes\":1,\"numa.remote_ratio\":0.8}", 0 },
	{ "numa.remote-ratio", "{\"numa.nodes\":2,\"numa.remote_ratio\":" UNAV "}", 0 },
	{ "numa.zone-reclaim", "{\"numa.nodes\":2,\"sysctl.vm.zone_reclaim_mode\":1}", 1,
	  "vm.zone_reclaim_mode = 1" },
	{ "numa.zone-reclaim", "{\"numa.nodes\":2,\"sysctl.vm.zone_reclaim_mode\":0}", 0 },
	{ "numa.zone-reclaim", "{\"numa.nodes\":1,\"sysctl.vm.zone_reclaim_mode\":1}", 0 },
	{ "numa.zone-reclaim", "{\"sysctl.vm.zone_reclaim_mode\":1}", 0 },
	{ "numa.balancing-pinned", "{\"numa.nodes\":2,\"sysctl.kernel.numa_balancing\":1}", 1 },
	{ "numa.balancing-pinned", "{\"numa.nodes\":2,\"sysctl.kernel.numa_balancing\":0}", 0 },
	{ "numa.balancing-pinned", "{\"numa.nodes\":1,\"sysctl.kernel.numa_balancing\":1}", 0 },
	{ "numa.numad-hpc", "{\"numa.nodes\":2,\"services.numad.running\":true}", 1 },
	{ "numa.numad-hpc", "{\"numa.nodes\":2,\"services.numad.running\":false}", 0 },
	{ "numa.numad-hpc", "{\"numa.nodes\":2,\"services.numad\":{\"running\":true}}", 1,
	  "numad running", NULL, "systemctl disable --now numad" },
	{ "numa.numad-hpc", "{\"numa.nodes\":2,\"services.numad\":{\"running\":false}}", 0 },
	{ "numa.numad-hpc", "{\"numa.nodes\":1,\"services.numad\":{\"running\":true}}", 0 },

	/* net */
	/* the window bound is worked out from the value seen (v x 8 / 1 ms) */
	{ "net.rmem-max", "{\"sysctl.net.core.rmem_max\":212992}", 1,
	  "net.core.rmem_max = 212992 (208 KiB, the kernel default: at most 1.7 Gb/s at 1 ms "
	  "RTT)" },
	{ "net.rmem-max", "{\"sysctl.net.core.rmem_max\":4194304}", 1,
	  "net.core.rmem_max = 4194304 (4 MiB: at most 33.6 Gb/s at 1 ms RTT)" },
	{ "net.rmem-max", "{\"sysctl.net.core.rmem_max\":1000000}", 1,
	  "= 1000000 (1000000 bytes: at most 8.0 Gb/s at 1 ms RTT)" },
	{ "net.rmem-max", "{\"sysctl.net.core.rmem_max\":16777216}", 0 },
	{ "net.rmem-max", "{\"sysctl.net.core.rmem_max\":" UNAV "}", 0 },
	{ "net.wmem-max", "{\"sysctl.net.core.wmem_max\":212992}", 1 },
	{ "net.wmem-max", "{\"sysctl.net.core.wmem_max\":33554432}", 0 },
	{ "net.tcp-rmem", "{\"sysctl.net.ipv4.tcp_rmem\":\"4096\\t131072\\t6291456\"}", 1,
	  "net.ipv4.tcp_rmem max = 6291456" },
	{ "net.tcp-rmem", "{\"sysctl.net.ipv4.tcp_rmem\":[4096,131072,6291456]}", 1 },
	{ "net.tcp-rmem", "{\"sysctl.net.ipv4.tcp_rmem\":\"4096 87380 16777216\"}", 0 },
	{ "net.tcp-rmem", "{\"sysctl.net.ipv4.tcp_rmem\":\"4096 87380\"}", 0 },
	{ "net.tcp-wmem", "{\"sysctl.net.ipv4.tcp_wmem\":\"4096 16384 4194304\"}", 1,
	  "net.ipv4.tcp_wmem max = 4194304 (4 MiB, the kernel default: at most 33.6 Gb/s at 1 ms "
	  "RTT)" },
	{ "net.tcp-wmem", "{\"sysctl.net.ipv4.tcp_wmem\":\"4096 16384 212992\"}", 1,
	  "(208 KiB: at most 1.7 Gb/s at 1 ms RTT)" },
	{ "net.tcp-wmem", "{\"sysctl.net.ipv4.tcp_wmem\":\"4096 16384 16777216\"}", 0 },
	{ "net.netdev-backlog", "{\"sysctl.net.core.netdev_max_backlog\":1000}", 1 },
	{ "net.netdev-backlog", "{\"sysctl.net.core.netdev_max_backlog\":100000}", 0 },
	{ "net.somaxconn", "{\"sysctl.net.core.somaxconn\":1024}", 1, "net.core.somaxconn = 1024" },
	{ "net.somaxconn", "{\"sysctl.net.core.somaxconn\":4096}", 0 },
	{ "net.congestion-control", "{\"sysctl.net.ipv4.tcp_congestion_control\":\"cubic\"}", 1,
	  "net.ipv4.tcp_congestion_control = cubic", NULL, "modprobe tcp_bbr" },
	{ "net.congestion-control", "{\"sysctl.net.ipv4.tcp_congestion_control\":\"bbr\"}", 0 },
	{ "net.congestion-control", "{\"sysctl.net.ipv4.tcp_congestion_control\":" UNAV "}", 0 },
	{ "net.bbr-qdisc",
	  "{\"sysctl.net.ipv4.tcp_congestion_control\":\"bbr\",\"sysctl.net.core.default_qdisc\":"
	  "\"fq_codel\"}",
	  1, "default_qdisc = fq_codel" },
	{ "net.bbr-qdisc",
	  "{\"sysctl.net.ipv4.tcp_congestion_control\":\"bbr\",\"sysctl.net.core.default_qdisc\":"
	  "\"fq\"}",
	  0 },
	{ "net.bbr-qdisc",
	  "{\"sysctl.net.ipv4.tcp_congestion_control\":\"cubic\",\"sysctl.net.core.default_qdisc\":"
	  "\"fq_codel\"}",
	  0 },
	{ "net.slow-start-after-idle", "{\"sysctl.net.ipv4.tcp_slow_start_after_idle\":1}", 1 },
	{ "net.slow-start-after-idle", "{\"sysctl.net.ipv4.tcp_slow_start_after_idle\":0}", 0 },
	{ "net.tcp-timestamps-off", "{\"sysctl.net.ipv4.tcp_timestamps\":0}", 1,
	  "net.ipv4.tcp_timestamps = 0" },
	{ "net.tcp-timestamps-off", "{\"sysctl.net.ipv4.tcp_timestamps\":1}", 0 },
	{ "net.tcp-timestamps-off", "{\"sysctl.net.ipv4.tcp_timestamps\":" UNAV "}", 0 },
	{ "net.icmp-echo-ignored", "{\"sysctl.net.ipv4.icmp_echo_ignore_all\":1}", 1,
	  "net.ipv4.icmp_echo_ignore_all = 1" },
	{ "net.icmp-echo-ignored",
	  "{\"sysctl.net.ipv4.icmp_echo_ignore_all\":0,\"sysctl.net.ipv6.icmp.echo_ignore_all\":1}",
	  1, "net.ipv6.icmp.echo_ignore_all = 1" },
	{ "net.icmp-echo-ignored",
	  "{\"sysctl.net.ipv4.icmp_echo_ignore_all\":0,\"sysctl.net.ipv6.icmp.echo_ignore_all\":0}",
	  0 },
	{ "net.tcp-tw-recycle", "{\"sysctl.net.ipv4.tcp_tw_recycle\":1}", 1 },
	{ "net.tcp-tw-recycle", "{\"sysctl.net.ipv4.tcp_tw_recycle\":0}", 0 },
	{ "net.tcp-tw-recycle", "{\"sysctl.net.ipv4.tcp_tw_recycle\":" UNAV "}", 0 },

	/* block */
	{ "block.scheduler-hdd",
	  "{\"block.sda.rotational\":1,\"block.sda.queue.scheduler\":\"none\","
	  "\"block.sdb.rotational\":1,\"block.sdb.queue.scheduler\":\"mq-deadline\"}",
	  1, "sda (rotational disk): scheduler = none", "sda",
	  "echo mq-deadline > /sys/block/sda/queue/scheduler" },
	{ "block.scheduler-hdd",
	  "{\"block.sda.rotational\":0,\"block.sda.queue.scheduler\":\"none\"}", 0 },
	{ "block.scheduler-hdd",
	  "{\"block.vda.rotational\":1,\"block.vda.queue.scheduler\":\"none\"}", 0 },
	{ "block.scheduler-hdd",
	  "{\"block.sda.rotational\":" UNAV ",\"block.sda.queue.scheduler\":\"none\"}", 0 },
	{ "block.scheduler-nvme",
	  "{\"block.nvme0n1.rotational\":0,\"block.nvme0n1.queue.scheduler\":\"mq-deadline\","
	  "\"block.nvme1n1.rotational\":0,\"block.nvme1n1.queue.scheduler\":\"kyber\"}",
	  2, "nvme0n1 (NVMe): scheduler = mq-deadline", "nvme0n1",
	  "echo none > /sys/block/nvme0n1" },
	{ "block.scheduler-nvme",
	  "{\"block.nvme0n1.rotational\":0,\"block.nvme0n1.queue.scheduler\":\"none\"}", 0 },
	{ "block.scheduler-nvme", "{\"block.nvme0n1.queue.scheduler\":" UNAV "}", 0 },
	{ "block.scheduler-virtio",
	  "{\"block.vda.rotational\":1,\"block.vda.queue.scheduler\":\"bfq\"}", 1,
	  "vda (virtual disk): scheduler = bfq", "vda" },
	{ "block.scheduler-virtio",
	  "{\"block.vda.rotational\":1,\"block.vda.queue.scheduler\":\"mq-deadline\"}", 0 },
	{ "block.read-ahead",
	  "{\"block.sda.rotational\":1,\"block.sda.queue.read_ahead_kb\":128,"
	  "\"block.vdb.rotational\":1,\"block.vdb.queue.read_ahead_kb\":\"128\"}",
	  2, "sda (rotational disk): read_ahead_kb = 128", "sda", "echo 4096 > /sys/block/sda" },
	{ "block.read-ahead",
	  "{\"block.nvme0n1.rotational\":0,\"block.nvme0n1.queue.read_ahead_kb\":128}", 0 },
	{ "block.read-ahead", "{\"block.sda.rotational\":1,\"block.sda.queue.read_ahead_kb\":8192}",
	  0 },
	{ "block.read-ahead",
	  "{\"block.loop0.rotational\":1,\"block.loop0.queue.read_ahead_kb\":128}", 0 },
	{ "block.nr-requests",
	  "{\"block.sda.rotational\":1,\"block.sda.queue.scheduler\":\"mq-deadline\","
	  "\"block.sda.queue.nr_requests\":64}",
	  1, "sda (rotational disk): nr_requests = 64", "sda" },
	{ "block.nr-requests",
	  "{\"block.sda.rotational\":1,\"block.sda.queue.scheduler\":\"mq-deadline\","
	  "\"block.sda.queue.nr_requests\":256}",
	  0 },
	{ "block.nr-requests",
	  "{\"block.sda.rotational\":0,\"block.sda.queue.scheduler\":\"mq-deadline\","
	  "\"block.sda.queue.nr_requests\":64}",
	  0 },

	/* accel */
	{ "accel.qat", "{\"accel.qat.devices\":{\"count\":2,\"models\":[\"C62x\",\"C62x\"]}}", 1,
	  "2 devices (C62x, C62x)" },
	{ "accel.qat", "{\"accel.qat.devices\":[\"8970\"]}", 1, "1 device (8970)" },
	{ "accel.qat",
	  "{\"accel.qat.devices\":[{\"slot\":\"0000:3d:00.0\",\"name\":\"C62x Chipset QuickAssist "
	  "Technology\",\"id\":\"8086:37c8\"}]}",
	  1, "1 device (C62x Chipset QuickAssist Technology)" },
	{ "accel.qat", "{\"accel.qat.devices\":[]}", 0 },
	{ "accel.qat", "{\"accel.qat.devices\":{\"count\":0,\"models\":[]}}", 0 },
	{ "accel.qat", "{\"accel.qat.devices\":" UNAV "}", 0 },
	{ "accel.gpu",
	  "{\"accel.gpu.devices\":{\"count\":1,\"models\":[\"GV100GL [Tesla V100]\"]}}", 1,
	  "Tesla V100" },
	{ "accel.gpu", "{\"accel.gpu.devices\":0}", 0 },

/* dimm */
#define DIMM(loc, ch, rated, conf, part)                                                           \
	"{\"locator\":\"" loc "\",\"channel\":\"" ch "\",\"size_bytes\":34359738368,"              \
	"\"speed_mts\":" #rated ",\"configured_mts\":" #conf ",\"part_number\":\"" part "\"}"
	{ "dimm.below-rated",
	  "{\"dimm.devices\":[" DIMM("P1-DIMMA1", "P1-DIMMA", 2933, 2933,
				     "X") "," DIMM("P1-DIMMC1", "P1-DIMMC", 2933, 2666, "X") "]}",
	  1, "P1-DIMMC1 runs at 2666 MT/s of its rated 2933 MT/s", "P1-DIMMC1" },
	{ "dimm.below-rated", "{\"dimm.devices\":[" DIMM("A", "A", 2933, 2933, "X") "]}", 0 },
	{ "dimm.below-rated", "{\"dimm.devices\":[" DIMM("A", "A", 0, 2666, "X") "]}", 0 },
	{ "dimm.below-rated", "{\"dimm.devices\":" UNAV "}", 0 },
	{ "dimm.channels-empty", "{\"dimm.channels.total\":12,\"dimm.channels.populated\":11}", 1,
	  "11 of 12 memory channels populated" },
	{ "dimm.channels-empty", "{\"dimm.channels.total\":12,\"dimm.channels.populated\":12}", 0 },
	{ "dimm.channels-empty", "{\"dimm.channels.total\":" UNAV ",\"dimm.channels.populated\":4}",
	  0 },
	{ "dimm.channels-uneven",
	  "{\"dimm.channels\":[{\"channel\":\"A\",\"dimms\":2,\"size_bytes\":68719476736},"
	  "{\"channel\":\"B\",\"dimms\":1,\"size_bytes\":34359738368}]}",
	  1, "2 populated channels hold 32 to 64 GiB (1 to 2 DIMMs each)" },
	{ "dimm.channels-uneven",
	  "{\"dimm.channels\":[{\"channel\":\"A\",\"dimms\":1,\"size_bytes\":34359738368},"
	  "{\"channel\":\"B\",\"dimms\":1,\"size_bytes\":34359738368}]}",
	  0 },
	{ "dimm.channels-uneven", "{\"dimm.channels\":[{\"channel\":\"A\",\"dimms\":1}]}", 0 },
	{ "dimm.mixed-modules",
	  "{\"dimm.devices\":[" DIMM("A1", "A", 2933, 2933, "M393A4K40CB2-CVF") "," DIMM(
		  "B1", "B", 2933, 2933, "HMA84GR7CJR4N-WM") "]}",
	  1, "2 module part numbers: M393A4K40CB2-CVF, HMA84GR7CJR4N-WM" },
	{ "dimm.mixed-modules",
	  "{\"dimm.devices\":[" DIMM("A1", "A", 2933, 2933, "M") "," DIMM("B1", "B", 2933, 2933,
									  "M") "]}",
	  0 },

/* pcie */
#define PDEV(slot, kind, sp, msp, w, mw, node, cpus)                                               \
	"{\"slot\":\"" slot "\",\"kind\":\"" kind "\",\"speed_gts\":" #sp                          \
	",\"max_speed_gts\":" #msp ",\"width\":" #w ",\"max_width\":" #mw ",\"numa_node\":" #node  \
	",\"local_cpus\":\"" cpus "\"}"
	{ "pcie.gpu-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:af:00.0", "gpu", 16.0, 16.0, 8, 16, 1, "4-7") "]}", 1,
	  "link 16 GT/s x8 of 16 GT/s x16", "0000:af:00.0", "lspci -vv -s 0000:af:00.0" },
	{ "pcie.gpu-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:af:00.0", "gpu", 2.5, 16.0, 16, 16, 1, "4-7") "]}", 0 },
	{ "pcie.gpu-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:18:00.0", "nic", 8.0, 8.0, 4, 8, 0, "0-3") "]}", 0 },
	{ "pcie.nic-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:18:00.0", "nic", 5.0, 8.0, 8, 8, 0, "0-3") "]}", 1,
	  "link 5 GT/s x8 of 8 GT/s x8" },
	{ "pcie.nic-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:18:00.0", "nic", 8.0, 8.0, 8, 8, 0, "0-3") "]}", 0 },
	{ "pcie.nvme-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:5e:00.0", "nvme", 8.0, 8.0, 2, 4, 0, "0-3") "]}", 1,
	  "x2 of 8 GT/s x4" },
	{ "pcie.nvme-link-degraded",
	  "{\"pcie.devices\":[{\"slot\":\"0000:5e:00.0\",\"kind\":\"nvme\",\"speed_gts\":null}]}",
	  0 },
	{ "pcie.accel-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:3d:00.0", "accel", 2.5, 8.0, 16, 16, 0, "0-3") "]}", 1 },
	{ "pcie.accel-link-degraded",
	  "{\"pcie.devices\":[" PDEV("0000:3d:00.0", "accel", 8.0, 8.0, 16, 16, 0, "0-3") "]}", 0 },
	{ "pcie.gpu-remote-numa",
	  "{\"pcie.devices\":[" PDEV("0000:af:00.0", "gpu", 16.0, 16.0, 16, 16, 1,
				     "4-7,12-15") "],"
						  "\"kernel.cmdline.params\":{\"isolcpus\":"
						  "\"managed_irq,domain,1-3\"}}",
	  1, "0000:af:00.0 on NUMA node 1 (CPUs 4-7,12-15); the workload's CPUs (isolcpus) are 1-3",
	  "0000:af:00.0", "numactl --cpunodebind=1 --membind=1" },
	{ "pcie.gpu-remote-numa",
	  "{\"pcie.devices\":[" PDEV("0000:af:00.0", "gpu", 16.0, 16.0, 16, 16, 1,
				     "4-7") "],"
					    "\"kernel.cmdline.params\":{\"nohz_full\":\"3-5\"}}",
	  0 },
	{ "pcie.gpu-remote-numa",
	  "{\"pcie.devices\":[" PDEV("0000:af:00.0", "gpu", 16.0, 16.0, 16, 16, 1,
				     "4-7") "],"
					    "\"kernel.cmdline.params\":{\"quiet\":true}}",
	  0 },
	{ "pcie.nic-remote-numa",
	  "{\"pcie.devices\":[" PDEV("0000:18:00.0", "nic", 8.0, 8.0, 8, 8, 0,
				     "0-3") "],"
					    "\"workload.cpus\":\"4-7\"}",
	  1, "the workload's CPUs (workload.cpus) are 4-7" },
	{ "pcie.nic-remote-numa",
	  "{\"pcie.devices\":[" PDEV("0000:18:00.0", "nic", 8.0, 8.0, 8, 8, -1,
				     "0-7") "],"
					    "\"workload.cpus\":\"4-7\"}",
	  0 },

	/* nic */
	{ "nic.irqs-one-cpu",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.irqs\":[{\"irq\":100},{\"irq\":101}],"
	  "\"net.eno1.irq_cpus\":\"0\",\"cpu.online\":16}",
	  1, "all 2 queue IRQs of eno1 may run only on CPU 0", "eno1", "irqbalance" },
	{ "nic.irqs-one-cpu",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.irqs\":[{\"irq\":100},{\"irq\":101}],"
	  "\"net.eno1.irq_cpus\":\"0-1\",\"cpu.online\":16}",
	  0 },
	{ "nic.irqs-one-cpu",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.irqs\":[{\"irq\":100}],"
	  "\"net.eno1.irq_cpus\":\"0\",\"cpu.online\":16}",
	  0 },
	{ "nic.rps-off-single-queue",
	  "{\"net.interfaces\":[\"eth0\"],\"net.eth0.queues\":1,\"net.eth0.rps_queues\":0,"
	  "\"cpu.online\":8}",
	  1, "eth0 has one receive queue and RPS off on a 8-CPU host", "eth0",
	  "echo fe > /sys/class/net/eth0/queues/rx-0/rps_cpus" },
	{ "nic.rps-off-single-queue",
	  "{\"net.interfaces\":[\"eth0\"],\"net.eth0.queues\":1,\"net.eth0.rps_queues\":0,"
	  "\"cpu.online\":2}",
	  0 },
	{ "nic.rps-off-single-queue",
	  "{\"net.interfaces\":[\"eth0\"],\"net.eth0.queues\":1,\"net.eth0.rps_queues\":1,"
	  "\"cpu.online\":8}",
	  0 },
	{ "nic.ring-below-max",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.ring\":{\"rx\":512,\"rx_max\":4096,\"tx\":512,"
	  "\"tx_max\":4096}}",
	  1, "eno1 rings rx 512 of 4096, tx 512 of 4096", "eno1",
	  "ethtool -G eno1 rx 4096 tx 4096" },
	{ "nic.ring-below-max",
	  "{\"net.interfaces\":[\"eth0\"],\"net.eth0.ring\":{\"rx\":256,\"rx_max\":256,\"tx\":256,"
	  "\"tx_max\":256}}",
	  0 },
	{ "nic.ring-below-max", "{\"net.interfaces\":[\"lo\"],\"net.lo.ring\":" UNAV "}", 0 },
	{ "nic.coalesce-latency",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.coalesce\":{\"rx_usecs\":50,"
	  "\"adaptive_rx\":true}}",
	  1, "eno1 rx-usecs 50, adaptive-rx on", "eno1", "ethtool -C eno1 adaptive-rx off" },
	{ "nic.coalesce-latency",
	  "{\"net.interfaces\":[\"eno1\"],\"net.eno1.coalesce\":{\"rx_usecs\":0,"
	  "\"adaptive_rx\":false}}",
	  0 },

/* kmsg */
#define KEV(n) "{\"count\":" #n ",\"last_s\":2.45,\"last\":\"msg\"}"
	{ "kmsg.clocksource-unstable", "{\"kmsg.clocksource_unstable\":" KEV(1) "}", 1,
	  "1 time, last 2 s after boot: msg" },
	{ "kmsg.clocksource-unstable", "{\"kmsg.clocksource_unstable\":" KEV(0) "}", 0 },
	{ "kmsg.thermal-throttle", "{\"kmsg.thermal_throttle\":" KEV(2) "}", 1, "2 times" },
	{ "kmsg.thermal-throttle", "{\"kmsg.thermal_throttle\":" UNAV "}", 0 },
	{ "kmsg.machine-check", "{\"kmsg.machine_check\":" KEV(3) "}", 1 },
	{ "kmsg.machine-check", "{\"kmsg.machine_check\":" KEV(0) "}", 0 },
	{ "kmsg.perf-rate-lowered", "{\"kmsg.perf_rate_lowered\":" KEV(1) "}", 1 },
	{ "kmsg.perf-rate-lowered", "{\"kmsg.perf_rate_lowered\":" KEV(0) "}", 0 },
	{ "kmsg.hung-task", "{\"kmsg.hung_task\":" KEV(1) "}", 1 },
	{ "kmsg.hung-task", "{\"kmsg.hung_task\":" KEV(0) "}", 0 },
	{ "kmsg.soft-lockup", "{\"kmsg.soft_lockup\":{\"count\":1,\"last_s\":null,\"last\":\"x\"}}",
	  1, "1 time, last: x" },
	{ "kmsg.soft-lockup", "{\"kmsg.soft_lockup\":" KEV(0) "}", 0 },
	{ "kmsg.nvme-timeout", "{\"kmsg.nvme_timeout\":" KEV(1) "}", 1 },
	{ "kmsg.nvme-timeout", "{\"kmsg.nvme_timeout\":" KEV(0) "}", 0 },
	{ "kmsg.scsi-timeout", "{\"kmsg.scsi_timeout\":" KEV(4) "}", 1 },
	{ "kmsg.scsi-timeout", "{\"kmsg.scsi_timeout\":" KEV(0) "}", 0 },

	/* noise */
	{ "noise.auto-reboot", "{\"noise.unattended_upgrade.automatic_reboot\":true}", 1,
	  "reboots automatically", NULL, "systemctl disable --now unattended-upgrades" },
	{ "noise.auto-reboot", "{\"noise.unattended_upgrade.automatic_reboot\":false}", 0 },
	/* without systemd (sd_booted) only cron starts unattended-upgrades */
	{ "noise.auto-reboot",
	  "{\"noise.unattended_upgrade.automatic_reboot\":true,\"noise.systemd.running\":false,"
	  "\"noise.cron.running\":false}",
	  0 },
	{ "noise.auto-reboot",
	  "{\"noise.unattended_upgrade.automatic_reboot\":true,\"noise.systemd.running\":false,"
	  "\"noise.cron.running\":true}",
	  1, "started by cron's /etc/cron.daily/apt-compat", NULL,
	  "Unattended-Upgrade::Automatic-Reboot \"false\";' > /etc/apt/apt.conf.d/" },
	{ "noise.auto-reboot",
	  "{\"noise.unattended_upgrade.automatic_reboot\":true,\"noise.systemd.running\":true,"
	  "\"noise.cron.running\":false}",
	  1, "reboots automatically", NULL, "systemctl disable --now unattended-upgrades" },
	{ "noise.cloud-agent", "{\"noise.agents\":[\"amazon-ssm-agen\",\"qemu-ga\"]}", 1,
	  "running: amazon-ssm-agen, qemu-ga", NULL, "systemctl stop amazon-ssm-agen qemu-ga" },
	{ "noise.cloud-agent",
	  "{\"noise.agents\":[\"amazon-ssm-agen\",\"qemu-ga\"],\"noise.systemd.running\":false}", 1,
	  "running: amazon-ssm-agen, qemu-ga", NULL, "pkill -x 'amazon-ssm-agen|qemu-ga'" },
	{ "noise.cloud-agent", "{\"noise.agents\":[]}", 0 },
	{ "noise.snapd", "{\"noise.snapd.running\":true}", 1, "snapd running" },
	{ "noise.snapd", "{\"noise.snapd.running\":false}", 0 },
	{ "noise.cron", "{\"noise.cron.running\":true}", 1, "cron running", NULL,
	  "systemctl stop cron" },
	{ "noise.cron", "{\"noise.cron.running\":true,\"noise.systemd.running\":false}", 1,
	  "cron running", NULL, "pkill -x cron" },
	{ "noise.cron", "{\"noise.cron.running\":" UNAV "}", 0 },
	{ "noise.timers", "{\"noise.timers\":[\"apt-daily.timer\",\"fstrim.timer\"]}", 1,
	  "enabled timers: apt-daily.timer, fstrim.timer", NULL,
	  "systemctl stop apt-daily.timer fstrim.timer" },
	{ "noise.timers", "{\"noise.timers\":[\"apt-daily.timer\"],\"noise.systemd.running\":true}",
	  1 },
	/* timers fire only while systemd runs (a document written before the fact was
	 * unavailable without systemd may still list them) */
	{ "noise.timers",
	  "{\"noise.timers\":[\"apt-daily.timer\"],\"noise.systemd.running\":false}", 0 },
	{ "noise.timers", "{\"noise.timers\":" UNAV ",\"noise.systemd.running\":false}", 0 },
	{ "noise.timers", "{\"noise.timers\":[]}", 0 },
	{ "noise.smt-siblings", "{\"cpu.smt.control\":\"on\",\"cpu.threads_per_core\":2}", 1,
	  "SMT on, 2 threads per core" },
	{ "noise.smt-siblings", "{\"cpu.smt.control\":\"off\",\"cpu.threads_per_core\":1}", 0 },
	{ "noise.smt-siblings", "{\"cpu.smt.control\":\"on\",\"cpu.threads_per_core\":1}", 0 },
	{ "noise.aslr", "{\"sysctl.kernel.randomize_va_space\":2}", 1,
	  "kernel.randomize_va_space = 2" },
	{ "noise.aslr", "{\"noise.aslr\":1}", 1 },
	{ "noise.aslr", "{\"sysctl.kernel.randomize_va_space\":\"0\"}", 0 },

	/* conflict */
	{ "conflict.dirty-background",
	  "{\"sysctl.vm.dirty_background_ratio\":40,\"sysctl.vm.dirty_ratio\":20}", 1,
	  "(the kernel uses 10)", NULL, "sysctl -w vm.dirty_background_ratio=10" },
	{ "conflict.dirty-background",
	  "{\"sysctl.vm.dirty_background_ratio\":10,\"sysctl.vm.dirty_ratio\":20}", 0 },
	{ "conflict.dirty-background",
	  "{\"sysctl.vm.dirty_background_ratio\":0,\"sysctl.vm.dirty_ratio\":20}", 0 },
	{ "conflict.rmem-max-tcp",
	  "{\"sysctl.net.core.rmem_max\":16777216,"
	  "\"sysctl.net.ipv4.tcp_rmem\":\"4096\\t1048576\\t2097152\"}",
	  1,
	  "net.core.rmem_max = 16777216 above net.ipv4.tcp_rmem max = 2097152 (net.ipv4.tcp_rmem "
	  "= 4096 1048576 2097152): TCP autotuning stops at 2097152 bytes",
	  NULL, "sysctl -w net.ipv4.tcp_rmem='4096 1048576 16777216'" },
	{ "conflict.rmem-max-tcp",
	  "{\"sysctl.net.core.rmem_max\":16777216,\"sysctl.net.ipv4.tcp_rmem\":[4096,87380,"
	  "16777216]}",
	  0 },
	{ "conflict.rmem-max-tcp",
	  "{\"sysctl.net.core.rmem_max\":212992,\"sysctl.net.ipv4.tcp_rmem\":\"4096 87380 "
	  "6291456\"}",
	  0 },
	{ "conflict.rmem-max-tcp", "{\"sysctl.net.core.rmem_max\":16777216}", 0 },
	{ "conflict.wmem-max-tcp",
	  "{\"sysctl.net.core.wmem_max\":8388608,\"sysctl.net.ipv4.tcp_wmem\":\"4096 16384 "
	  "4194304\"}",
	  1, "net.core.wmem_max = 8388608 above net.ipv4.tcp_wmem max = 4194304", NULL,
	  "sysctl -w net.ipv4.tcp_wmem='4096 16384 8388608'" },
	{ "conflict.wmem-max-tcp",
	  "{\"sysctl.net.core.wmem_max\":4194304,\"sysctl.net.ipv4.tcp_wmem\":\"4096 16384 "
	  "4194304\"}",
	  0 },
	{ "conflict.syn-backlog-somaxconn",
	  "{\"sysctl.net.ipv4.tcp_max_syn_backlog\":30000,\"sysctl.net.core.somaxconn\":4096}", 1,
	  "net.ipv4.tcp_max_syn_backlog = 30000 above net.core.somaxconn = 4096: a listener's SYN "
	  "queue holds at most 4096",
	  NULL, "sysctl -w net.core.somaxconn=30000" },
	{ "conflict.syn-backlog-somaxconn",
	  "{\"sysctl.net.ipv4.tcp_max_syn_backlog\":4096,\"sysctl.net.core.somaxconn\":4096}", 0 },
	{ "conflict.syn-backlog-somaxconn", "{\"sysctl.net.ipv4.tcp_max_syn_backlog\":30000}", 0 },
	{ "conflict.intel-idle-limit-unused",
	  "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"1\"},"
	  "\"cpuidle.driver\":\"acpi_idle\"}",
	  1, "intel_idle.max_cstate=1, but the idle driver is acpi_idle" },
	{ "conflict.intel-idle-limit-unused",
	  "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"0\"},"
	  "\"cpuidle.driver\":\"acpi_idle\"}",
	  0 },
	{ "conflict.intel-idle-limit-unused",
	  "{\"kernel.cmdline.params\":{\"intel_idle.max_cstate\":\"1\"},"
	  "\"cpuidle.driver\":\"intel_idle\"}",
	  0 },
	{ "conflict.processor-limit-unused",
	  "{\"kernel.cmdline.params\":{\"processor.max_cstate\":\"1\"},"
	  "\"cpuidle.driver\":\"intel_idle\"}",
	  1, "processor.max_cstate=1, but the idle driver is intel_idle" },
	{ "conflict.processor-limit-unused",
	  "{\"kernel.cmdline.params\":{\"processor.max_cstate\":\"1\",\"intel_idle.max_cstate\":"
	  "\"1\"},\"cpuidle.driver\":\"intel_idle\"}",
	  0 },
	{ "conflict.tuned-governor",
	  "{\"services.tuned.profile\":\"balanced\",\"cpufreq.governor\":\"performance\","
	  "\"services.tuned.running\":true}",
	  1, "tuned profile balanced" },
	{ "conflict.tuned-governor",
	  "{\"services.tuned.profile\":\"balanced\",\"cpufreq.governor\":\"performance\","
	  "\"services.tuned.running\":false}",
	  0 },
	{ "conflict.tuned-governor",
	  "{\"services.tuned.profile\":\"throughput-performance\",\"cpufreq.governor\":"
	  "\"performance\",\"services.tuned.running\":true}",
	  0 },
	{ "conflict.swappiness-no-swap", "{\"sysctl.vm.swappiness\":10,\"mem.swap.total_bytes\":0}",
	  1, "vm.swappiness = 10 with no swap configured" },
	{ "conflict.swappiness-no-swap",
	  "{\"sysctl.vm.swappiness\":10,\"mem.swap.total_bytes\":1073741824}", 0 },
	{ "conflict.swappiness-no-swap", "{\"sysctl.vm.swappiness\":60,\"mem.swap.total_bytes\":0}",
	  0 },
};
static const size_t ncases = sizeof(cases) / sizeof(cases[0]);

/* Load @json into @f through the setters. */
static void load_facts(struct pl_facts *f, const char *json)
{
	json_error_t err;
	json_t *o = json_loads(json, 0, &err);
	if (!o)
		fail_msg("bad test facts '%s': %s", json, err.text);
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v)
	{
		const json_t *un = json_is_object(v) ? json_object_get(v, "$unavailable") : NULL;
		if (un)
			pl_fact_unavailable(f, k, "%s", json_string_value(un));
		else if (json_is_string(v))
			pl_fact_str(f, k, json_string_value(v), "/test");
		else if (json_is_boolean(v))
			pl_fact_bool(f, k, json_is_true(v), "/test");
		else if (json_is_integer(v))
			pl_fact_int(f, k, json_integer_value(v), "/test");
		else
			pl_fact_set(f, k, json_incref(v), "/test");
	}
	json_decref(o);
}

static void run_case(void **state)
{
	const struct rcase *c = *state;
	const struct pl_rule *r = pl_rule_find(c->rule);
	assert_non_null(r);
	struct pl_facts f;
	pl_facts_init(&f);
	load_facts(&f, c->facts);
	struct pl_findings fs = { 0 };
	r->eval(r, &f, &fs);
	if ((int)fs.n != c->fires)
		fail_msg("%s over %s: %zu findings, want %d%s%s", c->rule, c->facts, fs.n, c->fires,
			 fs.n ? "; first observed: " : "", fs.n ? fs.v[0].observed : "");
	for (size_t i = 0; i < fs.n; i++) {
		const struct pl_finding *x = &fs.v[i];
		assert_ptr_equal(x->rule, r);
		assert_true(x->observed[0] && x->expected[0]);
		assert_true(json_array_size(x->facts) > 0);
		for (size_t k = 0; k < json_array_size(x->facts); k++)
			assert_null(strchr(json_string_value(json_array_get(x->facts, k)), '*'));
	}
	if (fs.n && c->observed && !strstr(fs.v[0].observed, c->observed))
		fail_msg("%s: observed '%s' lacks '%s'", c->rule, fs.v[0].observed, c->observed);
	if (fs.n && c->subject)
		assert_string_equal(fs.v[0].subject ? fs.v[0].subject : "(none)", c->subject);
	if (fs.n && c->fix && (!fs.v[0].fix_command || !strstr(fs.v[0].fix_command, c->fix)))
		fail_msg("%s: fix '%s' lacks '%s'", c->rule,
			 fs.v[0].fix_command ? fs.v[0].fix_command : "(null)", c->fix);
	pl_findings_free(&fs);
	pl_facts_free(&f);
}

#define FOREACH_RULE(r)                                                                            \
	for (size_t t_ = 0; t_ < pl_nrule_tables; t_++)                                            \
		for (size_t i_ = 0; i_ < *pl_rule_tables[t_].n; i_++)                              \
			for (const struct pl_rule *r = &pl_rule_tables[t_].rules[i_], *once_ = r;  \
			     once_; once_ = NULL)

/* Every rule has a case where it fires and one where it does not. */
static void test_every_rule_has_cases(void **state)
{
	(void)state;
	size_t n = 0;
	FOREACH_RULE(r)
	{
		bool fires = false, quiet = false;
		for (size_t i = 0; i < ncases; i++)
			if (strcmp(cases[i].rule, r->id) == 0) {
				fires |= cases[i].fires > 0;
				quiet |= cases[i].fires == 0;
			}
		if (!fires || !quiet)
			fail_msg("rule %s lacks a case that %s", r->id,
				 fires ? "does not fire" : "fires");
		n++;
	}
	assert_true(n >= 78);
	for (size_t i = 0; i < ncases; i++)
		if (!pl_rule_find(cases[i].rule))
			fail_msg("case names unknown rule %s", cases[i].rule);
}

/* Data every rule must carry, in the shapes the schema and `tune` expect. */
static void test_rule_data(void **state)
{
	(void)state;
	regex_t id_re;
	assert_int_equal(regcomp(&id_re, "^[a-z0-9]+\\.[a-z0-9.-]+$", REG_EXTENDED | REG_NOSUB), 0);
	FOREACH_RULE(r)
	{
		assert_int_equal(regexec(&id_re, r->id, 0, NULL, 0), 0);
		/* the id starts with its domain */
		size_t dl = strlen(pl_rule_tables[t_].domain);
		assert_memory_equal(r->id, pl_rule_tables[t_].domain, dl);
		assert_int_equal(r->id[dl], '.');
		assert_ptr_equal(pl_rule_find(r->id), r); /* unique */
		assert_true(r->workloads && (r->workloads & ~(unsigned)PL_WL_ALL) == 0);
		assert_true(r->severity >= PL_SEV_INFO && r->severity <= PL_SEV_CRIT);
		assert_non_null(r->keys);
		assert_non_null(r->keys[0]);
		assert_non_null(r->eval);
		assert_true(r->title && r->title[0]);
		assert_true(r->rationale && strlen(r->rationale) > 80);
		assert_true(r->source &&
			    (strstr(r->source, "Documentation/") || strstr(r->source, "https://") ||
			     strstr(r->source, "tuned") || strstr(r->source, "Red Hat") ||
			     strstr(r->source, "(8)") || strstr(r->source, "(1)")));
		if (r->risky)
			assert_memory_equal(r->rationale, "Risky: ", 7);
		if (r->fix_tune) {
			char **lines = pl_split(r->fix_tune, "\n", NULL);
			for (char **l = lines; *l; l++)
				if ((*l)[0] != '[' || !strchr(*l, ']') || !strchr(*l, '='))
					fail_msg(
						"%s: profile item '%s' is not '[plugin] key=value'",
						r->id, *l);
			pl_strv_free(lines);
		}
		/* sysctl fixes name a sysctl the rule reads (so facts collect it) */
		if (r->fix_tune && pl_startswith(r->fix_tune, "[sysctl] ")) {
			char *name = pl_xstrdup(r->fix_tune + strlen("[sysctl] "));
			*strchr(name, '=') = '\0';
			char *key = pl_xasprintf("sysctl.%s", name);
			bool found = false;
			for (const char *const *k = r->keys; *k; k++)
				found |= strcmp(*k, key) == 0;
			if (!found)
				fail_msg("%s fixes %s but does not read %s", r->id, name, key);
			free(key);
			free(name);
		}
	}
	regfree(&id_re);
}

/* Missing is not bad: no rule fires over no facts, nor over facts that are all
 * unavailable (a container without /proc/sys, a VM without cpufreq). */
static void test_missing_is_not_bad(void **state)
{
	(void)state;
	struct pl_facts f;
	pl_facts_init(&f);
	FOREACH_RULE(r)
	{
		for (const char *const *k = r->keys; *k; k++) {
			char *key = pl_xstrdup(*k);
			char *star = strchr(key, '*');
			if (star) { /* a device */
				char *dk =
					pl_xasprintf("%.*ssda%s", (int)(star - key), key, star + 1);
				free(key);
				key = dk;
			}
			pl_fact_unavailable(&f, key, "%s: not present", key);
			free(key);
		}
	}
	struct pl_findings none = { 0 };
	struct pl_facts empty;
	pl_facts_init(&empty);
	for (unsigned w = 0; pl_workload_names[w]; w++) {
		struct pl_findings fs = { 0 };
		pl_rules_eval(&f, 1u << w, &fs);
		if (fs.n)
			fail_msg("workload %s: %s fired on unavailable facts", pl_workload_names[w],
				 fs.v[0].rule->id);
		assert_true(fs.nrules > 0);
		assert_non_null(fs.unevaluated); /* they are reported as not evaluated */
		pl_findings_free(&fs);
		pl_rules_eval(&empty, 1u << w, &none);
		assert_int_equal(none.n, 0);
		pl_findings_free(&none);
	}
	pl_facts_free(&f);
	pl_facts_free(&empty);
}

/* Garbage values of the wrong type (a collector bug, a hand-edited report) never crash a
 * predicate; objects and nulls never make a rule fire. Strings may: "garbage" is a
 * governor that is not "performance". */
static void test_garbage_values(void **state)
{
	(void)state;
	static const char *const garbage[] = { "null",
					       "{}",
					       "[1,\"x\",{},null,[]]",
					       "1.5",
					       "-1",
					       "\"garbage\"",
					       "{\"running\":\"x\"}",
					       "[{\"name\":1,\"latency_us\":\"x\"}]",
					       NULL };
	for (const char *const *g = garbage; *g; g++) {
		struct pl_facts f;
		pl_facts_init(&f);
		FOREACH_RULE(r)
		{
			for (const char *const *k = r->keys; *k; k++) {
				char *star = strchr(*k, '*');
				char *key = star ? pl_xasprintf("%.*ssda%s", (int)(star - *k), *k,
								star + 1)
						 : pl_xstrdup(*k);
				pl_fact_set(&f, key, json_loads(*g, JSON_DECODE_ANY, NULL),
					    "/test");
				free(key);
			}
		}
		for (unsigned w = 0; pl_workload_names[w]; w++) {
			struct pl_findings fs = { 0 };
			pl_rules_eval(&f, 1u << w, &fs);
			for (size_t i = 0; i < fs.n; i++)
				assert_true(fs.v[i].observed[0] && fs.v[i].expected[0]);
			if ((strcmp(*g, "null") == 0 || strcmp(*g, "{}") == 0) && fs.n)
				fail_msg("%s fired on %s values", fs.v[0].rule->id, *g);
			pl_findings_free(&fs);
		}
		pl_facts_free(&f);
	}
}

/* pl_rules_eval: workload filter, sort order (crit first, then id, then subject), counts. */
static void test_eval_filter_and_order(void **state)
{
	(void)state;
	struct pl_facts f;
	pl_facts_init(&f);
	load_facts(&f, "{\"sysctl.net.ipv4.tcp_tw_recycle\":1,\"sysctl.net.ipv4.tcp_timestamps\":0,"
		       "\"mem.thp.enabled\":\"always\",\"sysctl.net.core.somaxconn\":128,"
		       "\"block.sdb.rotational\":1,\"block.sdb.queue.scheduler\":\"none\","
		       "\"block.sda.rotational\":1,\"block.sda.queue.scheduler\":\"none\"}");
	struct pl_findings fs = { 0 };
	pl_rules_eval(&f, PL_WL_GENERAL, &fs);
	assert_int_equal(fs.n, 4);
	assert_string_equal(fs.v[0].rule->id, "net.tcp-tw-recycle");
	assert_string_equal(fs.v[1].rule->id, "block.scheduler-hdd");
	assert_string_equal(fs.v[1].subject, "sda");
	assert_string_equal(fs.v[2].subject, "sdb");
	assert_string_equal(fs.v[3].rule->id, "net.tcp-timestamps-off");
	json_t *doc = pl_findings_to_json(&fs, "general");
	json_t *sum = json_object_get(doc, "summary");
	assert_int_equal(json_integer_value(json_object_get(sum, "total")), 4);
	assert_int_equal(json_integer_value(json_object_get(sum, "crit")), 1);
	assert_int_equal(json_integer_value(json_object_get(sum, "warn")), 3);
	assert_int_equal(json_integer_value(json_object_get(sum, "rules")), (json_int_t)fs.nrules);
	json_t *x = json_array_get(json_object_get(doc, "findings"), 1);
	assert_string_equal(json_string_value(json_object_get(x, "subject")), "sda");
	assert_string_equal(json_string_value(json_array_get(json_object_get(x, "facts"), 0)),
			    "block.sda.queue.scheduler");
	assert_string_equal(json_string_value(json_object_get(json_object_get(x, "fix"), "tune")),
			    "[disk] devices=sda elevator=mq-deadline");
	json_decref(doc);
	pl_findings_free(&fs);

	pl_rules_eval(&f, PL_WL_LATENCY, &fs);
	bool thp = false, somax = false;
	for (size_t i = 0; i < fs.n; i++) {
		thp |= strcmp(fs.v[i].rule->id, "mem.thp-latency") == 0;
		somax |= strcmp(fs.v[i].rule->id, "net.somaxconn") == 0;
	}
	assert_true(thp);
	assert_false(somax); /* network/throughput only */
	pl_findings_free(&fs);
	pl_rules_eval(&f, PL_WL_NETWORK, &fs);
	somax = false;
	for (size_t i = 0; i < fs.n; i++)
		somax |= strcmp(fs.v[i].rule->id, "net.somaxconn") == 0;
	assert_true(somax);
	pl_findings_free(&fs);
	pl_facts_free(&f);
}

/* check collects only the domains its rules read. */
static void test_domains(void **state)
{
	(void)state;
	static const char *const known[] = { "virt",	 "kernel",  "clocksource", "cpu",
					     "cpufreq",	 "cpuidle", "mem",	   "numa",
					     "sysctl",	 "block",   "fs",	   "net",
					     "services", "accel",   NULL };
	char *d = pl_rules_domains(PL_WL_GENERAL, known);
	assert_string_equal(
		d,
		"kernel,clocksource,cpu,cpufreq,cpuidle,mem,numa,sysctl,block,net,services,accel");
	free(d);
	d = pl_rules_domains(PL_WL_HPC, known);
	assert_non_null(strstr(d, "services")); /* irqbalance, numad */
	assert_non_null(strstr(d, "cpufreq"));
	assert_null(strstr(d, "virt"));
	assert_null(strstr(d, ",net"));
	free(d);
	d = pl_rules_domains(PL_WL_LATENCY, known);
	assert_non_null(strstr(d, "cpuidle"));
	assert_non_null(strstr(d, "services")); /* tuned profile holding cpu_dma_latency */
	free(d);
	d = pl_rules_domains(PL_WL_GENERAL, NULL);
	assert_string_equal(d, "");
	free(d);
}

static void test_readers(void **state)
{
	(void)state;
	struct pl_facts f;
	pl_facts_init(&f);
	load_facts(&f, "{\"a\":\"12\",\"b\":\"12x\",\"c\":true,\"d\":0.25,\"e\":\"1 2 3\","
		       "\"services.s\":{\"running\":true},\"services.t\":false,"
		       "\"services.u\":{\"running\":\"yes\"},\"services.v.running\":true}");
	int64_t v;
	double d;
	bool b;
	assert_true(pl_rf_int(&f, "a", &v) && v == 12);
	assert_false(pl_rf_int(&f, "b", &v));
	assert_true(pl_rf_int(&f, "c", &v) && v == 1);
	assert_false(pl_rf_int(&f, "missing", &v));
	assert_true(pl_rf_num(&f, "d", &d) && d == 0.25);
	assert_true(pl_rf_vec(&f, "e", 2, &v) && v == 3);
	assert_false(pl_rf_vec(&f, "e", 3, &v));
	assert_true(pl_rf_running(&f, "s", &b) && b);
	assert_true(pl_rf_running(&f, "t", &b) && !b);
	assert_true(pl_rf_running(&f, "v", &b) && b);
	assert_false(pl_rf_running(&f, "u", &b));
	assert_false(pl_rf_running(&f, "none", &b));
	assert_string_equal(pl_rf_name("sysctl.vm.swappiness"), "vm.swappiness");
	assert_string_equal(pl_rf_name("mem.thp.enabled"), "mem.thp.enabled");
	pl_facts_free(&f);
}

/* Evidence is data: every rule that has it names a benchmark of the registry, options that
 * benchmark has, 1 to 4 metrics and a sentence whose placeholders refer to them; the
 * rules backed by a measurement have it. (tests/rules/evidence.sh runs the benchmarks and checks
 * the metrics are ones they declare.) */
static void test_evidence_data(void **state)
{
	(void)state;
	static const char *const want[] = { "clock.xen-tsc",	      "clock.slow-source",
					    "numa.remote-ratio",      "sched.nohz-full-unisolated",
					    "block.scheduler-hdd",    "block.scheduler-nvme",
					    "block.scheduler-virtio", "block.read-ahead",
					    "power.governor",	      "power.boost-off",
					    "power.boost-benchmark",  "power.cstates-deep",
					    "power.cstate-cmdline",   NULL };
	for (const char *const *w = want; *w; w++) {
		const struct pl_rule *r = pl_rule_find(*w);
		assert_non_null(r);
		if (!r->evidence)
			fail_msg("%s has no evidence", *w);
	}
	size_t with = 0;
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++) {
			const struct pl_rule *r = &pl_rule_tables[t].rules[i];
			const struct pl_evidence *ev = r->evidence;
			if (!ev)
				continue;
			with++;
			const struct pl_bench *b = pl_bench_find(ev->bench);
			if (!b)
				fail_msg("%s: evidence names no benchmark '%s'", r->id, ev->bench);
			for (const char *const *a = ev->argv; a && *a; a++) {
				if (strncmp(*a, "--", 2) != 0)
					continue;
				bool found = false;
				for (const struct pl_opt *o = b->opts; o && o->name && !found; o++)
					found = strcmp(o->name, *a + 2) == 0;
				if (!found)
					fail_msg("%s: bench %s has no option %s", r->id, ev->bench,
						 *a);
			}
			size_t nm = 0;
			while (ev->metrics && ev->metrics[nm])
				nm++;
			assert_true(nm >= 1 && nm <= PL_EVIDENCE_MAX_METRICS);
			bool used[PL_EVIDENCE_MAX_METRICS] = { false };
			for (const char *p = strchr(ev->text, '{'); p; p = strchr(p + 1, '{')) {
				const char *end = strchr(p, '}');
				assert_non_null(end);
				if (strncmp(p, "{subject}", 9) == 0)
					continue;
				unsigned k = (unsigned)(p[1] - '1');
				if (k >= nm || (p[2] != '}' && p[2] != ':'))
					fail_msg("%s: placeholder %.*s names no metric", r->id,
						 (int)(end - p + 1), p);
				used[k] = true;
			}
			for (size_t k = 0; k < nm; k++)
				if (!used[k])
					fail_msg("%s: metric '%s' is not in the sentence", r->id,
						 ev->metrics[k]);
		}
	assert_true(with >= 13);
}

static json_t *docs(const char *text)
{
	json_error_t e;
	json_t *d = json_loads(text, 0, &e);
	if (!d)
		fail_msg("bad test JSON: %s", e.text);
	return d;
}

#define METRIC(n, med, unit, via)                                                                  \
	"{\"name\":\"" n "\",\"unit\":\"" unit "\",\"median\":" med via "}"

/* pl_evidence_eval() reads the figures from bench documents, or says why it could not. */
static void test_evidence_eval(void **state)
{
	(void)state;
	const struct pl_evidence *clk = pl_rule_find("clock.xen-tsc")->evidence;
	json_t *b = docs(
		"[{\"benchmark\":\"clock\",\"status\":\"skipped\",\"reason\":\"r\"},"
		"{\"benchmark\":\"clock\",\"status\":\"ok\",\"metrics\":[" METRIC(
			"gettimeofday", "1234.0", "ns",
			",\"notes\":{\"via\":\"syscall\"}") "," METRIC("gettimeofday [syscall]",
								       "1250", "ns", "") "]}]");
	json_t *e = pl_evidence_eval(clk, b, NULL);
	assert_string_equal(
		pl_json_str(e, "text"),
		"gettimeofday costs 1.234 us here (via syscall); 1.25 us as a system call");
	assert_string_equal(pl_json_str(e, "benchmark"), "clock");
	assert_int_equal(json_array_size(json_object_get(e, "metrics")), 2);
	assert_true(json_number_value(json_object_get(
			    json_array_get(json_object_get(e, "metrics"), 1), "median")) == 1250);
	assert_null(json_object_get(e, "unavailable"));
	json_decref(e);
	json_decref(b);

	/* a vDSO read in ns, without the via note: "unknown", never a guess */
	b = docs("[{\"benchmark\":\"clock\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"gettimeofday", "21.3", "ns", "") "," METRIC("gettimeofday [syscall]", "1200", "ns",
							     "") "]}]");
	e = pl_evidence_eval(clk, b, NULL);
	assert_string_equal(
		pl_json_str(e, "text"),
		"gettimeofday costs 21.3 ns here (via unknown); 1.2 us as a system call");
	json_decref(e);
	json_decref(b);

	/* a metric missing, or without a median: unavailable, naming it */
	b = docs("[{\"benchmark\":\"clock\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"gettimeofday", "21.3", "ns", "") "," METRIC("gettimeofday [syscall]", "null", "ns",
							     "") "]}]");
	e = pl_evidence_eval(clk, b, NULL);
	assert_null(json_object_get(e, "text"));
	assert_string_equal(pl_json_str(e, "unavailable"),
			    "'bench clock' has no metric 'gettimeofday [syscall]'");
	json_decref(e);
	json_decref(b);

	/* the benchmark did not run: its reason; not at all: says so */
	const struct pl_evidence *numa = pl_rule_find("numa.remote-ratio")->evidence;
	b = docs("[{\"benchmark\":\"mem\",\"status\":\"failed\",\"reason\":\"no libnuma\"}]");
	e = pl_evidence_eval(numa, b, NULL);
	assert_string_equal(pl_json_str(e, "unavailable"),
			    "'bench mem --numa-matrix' did not run: no libnuma");
	assert_string_equal(json_string_value(json_array_get(json_object_get(e, "argv"), 0)),
			    "--numa-matrix");
	json_decref(e);
	e = pl_evidence_eval(pl_rule_find("block.read-ahead")->evidence, b, "vda");
	assert_string_equal(pl_json_str(e, "unavailable"), "'bench io' was not run");
	json_decref(e);
	json_decref(b);

	/* {subject} and several metrics with their units */
	b = docs("[{\"benchmark\":\"io\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"bandwidth", "436.4", "MB/s",
		"") "," METRIC("iops", "416.2", "1/s", "") "," METRIC("latency", "173567", "ns",
								      "") "]}]");
	e = pl_evidence_eval(pl_rule_find("block.read-ahead")->evidence, b, "vda");
	assert_string_equal(pl_json_str(e, "text"),
			    "reading a file of the working directory (cold cache; the device may "
			    "not be vda): 436.4 MB/s, 416.2/s requests, 173.6 us per request");
	json_decref(e);
	json_decref(b);
	/* the NUMA matrix: bandwidth and latency of the local and the remote cell */
	b = docs("[{\"benchmark\":\"mem\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"copy cpu0 mem0", "48.1", "GB/s",
		"") "," METRIC("copy cpu0 mem1", "28.2", "GB/s",
			       "") "," METRIC("latency cpu0 mem0", "92.5", "ns",
					      "") "," METRIC("latency cpu0 mem1", "141", "ns",
							     "") "]}]");
	e = pl_evidence_eval(numa, b, NULL);
	assert_string_equal(
		pl_json_str(e, "text"),
		"STREAM copy from node 0's CPUs runs at 48.1 GB/s on local memory and "
		"28.2 GB/s on node 1's memory; a dependent load takes 92.5 ns and 141 ns");
	json_decref(e);
	json_decref(b);

	/* bench wakeup and bench freq: the C-state and governor rules' sentences */
	b = docs("[{\"benchmark\":\"wakeup\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"timer", "52300", "ns",
		"") "," METRIC("timer p99", "181000", "ns",
			       "") "," METRIC("futex wakeup", "20700", "ns",
					      "") "]},"
						  "{\"benchmark\":\"freq\",\"status\":\"ok\","
						  "\"metrics\":[" METRIC("busy 1", "3592.3", "MHz",
									 "") "]}]");
	e = pl_evidence_eval(pl_rule_find("power.cstates-deep")->evidence, b, NULL);
	assert_string_equal(pl_json_str(e, "text"),
			    "a sleeping thread wakes 52.3 us late on its timer (p99 181 us); a "
			    "wakeup from another CPU through a futex takes 20.7 us");
	json_decref(e);
	e = pl_evidence_eval(pl_rule_find("power.governor")->evidence, b, NULL);
	assert_string_equal(
		pl_json_str(e, "text"),
		"a busy CPU runs at 3592 MHz (a dependent add chain, one cycle per add; "
		"compare the nominal clock in /proc/cpuinfo)");
	json_decref(e);
	json_decref(b);
}

/* A counter metric as evidence: every rule's counter is a metric of the table with its
 * unit; a synthetic reading (counted while bench mem ran) gives the clause with the
 * value worked by hand, a reading without the events says it is unavailable, and a
 * document that was not counted adds nothing. */
static void test_evidence_counter(void **state)
{
	(void)state;
	size_t with = 0;
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++) {
			const struct pl_rule *r = &pl_rule_tables[t].rules[i];
			const struct pl_evidence *ev = r->evidence;
			if (!ev || !ev->counter)
				continue;
			with++;
			const struct pl_metric *ms[4];
			char err[256];
			if (pl_metric_select(ev->counter, NULL, ms, 4, err, sizeof(err)) < 1)
				fail_msg("%s: counter '%s' is no metric: %s", r->id, ev->counter,
					 err);
			if (strcmp(ms[0]->unit, ev->counter_unit) != 0)
				fail_msg("%s: counter unit '%s', the metric's is '%s'", r->id,
					 ev->counter_unit, ms[0]->unit);
			if (!ev->counter_label || !ev->counter_text ||
			    !strstr(ev->counter_text, "{c}"))
				fail_msg("%s: counter without a label or a {c} clause", r->id);
		}
	assert_true(with >= 2);

	const struct pl_evidence *thp = pl_rule_find("mem.thp-hpc")->evidence;
	const struct pl_metric *m[1];
	char err[256];
	assert_int_equal(pl_metric_select("dtlb_miss_rate", NULL, m, 1, err, sizeof(err)), 1);
	/* 50 misses in 1000 loads: 100 * 50 / 1000 = 5 % (metric.c's formula) */
	struct pl_cnt_event evs[2] = { { .name = "dTLB-load-misses", .scale = 1 },
				       { .name = "dTLB-loads", .scale = 1 } };
	struct pl_cnt_value v[2] = {
		{ .ev = &evs[0], .raw = 50, .value = 50, .counted = true, .supported = true },
		{ .ev = &evs[1], .raw = 1000, .value = 1000, .counted = true, .supported = true },
	};
	struct pl_cnt_result r = { .v = v, .n = 2, .elapsed_ns = 1000000000 };
	json_t *b = docs("[{\"benchmark\":\"mem\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"triad", "12.5", "GB/s", "") "]}]");
	json_object_set_new(json_array_get(b, 0), "counters", pl_cnt_row("mem", m, 1, &r));
	json_t *e = pl_evidence_eval(thp, b, NULL);
	assert_string_equal(pl_json_str(e, "text"),
			    "STREAM Triad reaches 12.5 GB/s here; dTLB load misses were 5 % of "
			    "dTLB loads while it ran");
	const json_t *c = json_object_get(e, "counter");
	assert_string_equal(pl_json_str(c, "name"), "dtlb_miss_rate");
	assert_true(json_number_value(json_object_get(c, "value")) == 5.0);
	assert_null(json_object_get(c, "unavailable"));
	json_decref(e);

	/* no dTLB events on this PMU: the clause says so, no value */
	v[0].counted = v[0].supported = false;
	v[0].value = 0;
	json_object_set_new(json_array_get(b, 0), "counters", pl_cnt_row("mem", m, 1, &r));
	e = pl_evidence_eval(thp, b, NULL);
	assert_string_equal(pl_json_str(e, "text"),
			    "STREAM Triad reaches 12.5 GB/s here; dTLB misses (dtlb_miss_rate): "
			    "unavailable: dTLB-load-misses not on this PMU");
	c = json_object_get(e, "counter");
	assert_true(json_is_null(json_object_get(c, "value")));
	assert_string_equal(pl_json_str(c, "unavailable"), "dTLB-load-misses not on this PMU");
	json_decref(e);

	/* not counted (saved results, the report's plan): the figures alone */
	json_object_del(json_array_get(b, 0), "counters");
	e = pl_evidence_eval(thp, b, NULL);
	assert_string_equal(pl_json_str(e, "text"), "STREAM Triad reaches 12.5 GB/s here");
	assert_null(json_object_get(e, "counter"));
	json_decref(e);
	json_decref(b);
}

/* pl_evidence_attach(): findings of rules with evidence get it, others lose a stale one. */
static void test_evidence_attach(void **state)
{
	(void)state;
	json_t *f = docs("[{\"id\":\"clock.slow-source\"},{\"id\":\"mem.swappiness\","
			 "\"evidence\":{\"text\":\"stale\"}},{\"id\":\"no.such-rule\"},{}]");
	json_t *b = docs("[{\"benchmark\":\"clock\",\"status\":\"ok\",\"metrics\":[" METRIC(
		"gettimeofday", "900", "ns",
		",\"notes\":{\"via\":\"syscall\"}") "," METRIC("gettimeofday [syscall]", "950",
							       "ns", "") "]}]");
	assert_int_equal(pl_evidence_attach(f, b), 1);
	assert_string_equal(
		pl_json_str(json_object_get(json_array_get(f, 0), "evidence"), "text"),
		"gettimeofday costs 900 ns here (via syscall); 950 ns as a system call");
	assert_null(json_object_get(json_array_get(f, 1), "evidence"));
	json_t *empty = json_array();
	assert_int_equal(pl_evidence_attach(f, empty), 0); /* no figures: no evidence */
	assert_null(json_object_get(json_array_get(f, 0), "evidence"));
	json_decref(empty);
	json_decref(b);
	json_decref(f);
}

/* pl_bench_measure_findings() on this machine: one brief bench clock run for the two
 * clock findings (same evidence), none for a finding without evidence; the figures in
 * each finding's evidence are that run's medians. */
static void test_measure_findings(void **state)
{
	(void)state;
	struct pl_findings fs = { 0 };
	pl_finding_add(&fs, pl_rule_find("clock.xen-tsc"), NULL, "o", "e");
	pl_finding_add(&fs, pl_rule_find("clock.slow-source"), NULL, "o", "e");
	pl_finding_add(&fs, pl_rule_find("mem.swappiness"), NULL, "o", "e");
	json_t *runs = pl_bench_measure_findings(&fs, NULL);
	assert_int_equal(json_array_size(runs), 1);
	const json_t *d = json_array_get(runs, 0);
	assert_string_equal(pl_json_str(d, "benchmark"), "clock");
	assert_null(fs.v[2].evidence);
	for (int i = 0; i < 2; i++) {
		const json_t *ev = fs.v[i].evidence;
		assert_non_null(ev);
		if (strcmp(pl_json_str(d, "status"), "ok") != 0) {
			assert_non_null(strstr(pl_json_str(ev, "unavailable"), "did not run"));
			continue;
		}
		const char *text = pl_json_str(ev, "text");
		assert_non_null(text);
		regex_t re;
		assert_int_equal(
			regcomp(&re,
				"^gettimeofday costs [0-9.]+ [nu]s here \\(via "
				"(vdso|syscall|unknown)\\); [0-9.]+ [nu]s as a system call$",
				REG_EXTENDED | REG_NOSUB),
			0);
		if (regexec(&re, text, 0, NULL, 0) != 0)
			fail_msg("evidence text '%s'", text);
		regfree(&re);
		size_t k;
		const json_t *m;
		json_array_foreach(json_object_get(ev, "metrics"), k, m)
		{
			const json_t *dm = NULL, *x;
			size_t j;
			json_array_foreach(json_object_get(d, "metrics"), j,
					   x) if (strcmp(pl_json_str(x, "name"),
							 pl_json_str(m, "name")) == 0) dm = x;
			assert_non_null(dm);
			assert_true(json_number_value(json_object_get(m, "median")) ==
				    json_number_value(json_object_get(dm, "median")));
		}
	}
	json_decref(runs);
	pl_findings_free(&fs);
}

/* The facts store's key index (src/facts/facts.c): lookups of many keys across the index's
 * rebuilds, a later set replacing in place, insertion order kept, unknown keys absent. */
static void test_fact_index(void **state)
{
	(void)state;
	struct pl_facts f;
	pl_facts_init(&f);
	assert_null(pl_facts_get(&f, "cpu.model")); /* empty: no index yet */
	enum { N = 5000 };
	char key[32];
	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "k.%d", i);
		pl_fact_int(&f, key, i, "test");
	}
	for (int i = 0; i < N; i += 3) { /* replace every third: same place, new value */
		snprintf(key, sizeof(key), "k.%d", i);
		pl_fact_int(&f, key, -i, "again");
	}
	assert_int_equal(f.n, N);
	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "k.%d", i);
		assert_string_equal(f.v[i].key, key);
		int64_t v = 0;
		assert_true(pl_facts_get_int(&f, key, &v));
		assert_int_equal(v, i % 3 == 0 ? -i : i);
		assert_ptr_equal(pl_facts_get(&f, key), &f.v[i]);
	}
	assert_null(pl_facts_get(&f, "k.5000"));
	assert_null(pl_facts_get(&f, "k."));
	assert_null(pl_facts_get(&f, ""));
	pl_fact_unavailable(&f, "k.7", "gone");
	assert_non_null(pl_facts_get(&f, "k.7"));
	assert_null(pl_facts_value(&f, "k.7"));
	assert_int_equal(f.n, N);
	pl_facts_free(&f);
}

int main(void)
{
	size_t n = ncases + 13;
	struct CMUnitTest *tests = pl_xcalloc(n, sizeof(*tests));
	char **names = pl_xcalloc(ncases, sizeof(*names));
	for (size_t i = 0; i < ncases; i++) {
		names[i] = pl_xasprintf("%s %s: %s", cases[i].rule,
					cases[i].fires ? "fires" : "does not fire", cases[i].facts);
		tests[i] = (struct CMUnitTest){ names[i], run_case, NULL, NULL, (void *)&cases[i] };
	}
	tests[ncases + 0] = (struct CMUnitTest)cmocka_unit_test(test_every_rule_has_cases);
	tests[ncases + 1] = (struct CMUnitTest)cmocka_unit_test(test_rule_data);
	tests[ncases + 2] = (struct CMUnitTest)cmocka_unit_test(test_missing_is_not_bad);
	tests[ncases + 3] = (struct CMUnitTest)cmocka_unit_test(test_eval_filter_and_order);
	tests[ncases + 4] = (struct CMUnitTest)cmocka_unit_test(test_readers);
	tests[ncases + 5] = (struct CMUnitTest)cmocka_unit_test(test_domains);
	tests[ncases + 6] = (struct CMUnitTest)cmocka_unit_test(test_garbage_values);
	tests[ncases + 7] = (struct CMUnitTest)cmocka_unit_test(test_evidence_data);
	tests[ncases + 8] = (struct CMUnitTest)cmocka_unit_test(test_evidence_eval);
	tests[ncases + 9] = (struct CMUnitTest)cmocka_unit_test(test_evidence_attach);
	tests[ncases + 10] = (struct CMUnitTest)cmocka_unit_test(test_measure_findings);
	tests[ncases + 11] = (struct CMUnitTest)cmocka_unit_test(test_fact_index);
	tests[ncases + 12] = (struct CMUnitTest)cmocka_unit_test(test_evidence_counter);
	int rc = _cmocka_run_group_tests("rules", tests, n, NULL, NULL);
	for (size_t i = 0; i < ncases; i++)
		free(names[i]);
	free(names);
	free(tests);
	return rc;
}
