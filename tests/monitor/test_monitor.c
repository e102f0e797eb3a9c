/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of perflab monitor's engine on fixture text: every /proc parser (current and
 * older kernels' formats, garbage), the interval rates against hand-computed values (as
 * mpstat and iostat -x compute them), counters that wrap or reset, a CPU that goes
 * offline between two snapshots, and a snapshot read from a fixture sysroot. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitor/output.h"
#include "monitor/proc.h"
#include "monitor/rates.h"
#include "monitor/textfile.h"
#include "util/sysroot.h"

#include "testutil.h"

#define near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6)

static const char stat_a[] = "cpu  1000 10 500 8000 100 20 30 40 0 0\n"
			     "cpu0 500 5 250 4000 50 10 15 20 0 0\n"
			     "cpu1 500 5 250 4000 50 10 15 20 0 0\n"
			     "intr 12345 1 2 3\nctxt 100000\nbtime 1700000000\nprocesses 5000\n"
			     "procs_running 3\nprocs_blocked 1\nsoftirq 10 1 2 3\n";
/* 100 ticks later per CPU: cpu0 all user (busy), cpu1 all idle */
static const char stat_b[] = "cpu  1100 10 500 8100 100 20 30 40 0 0\n"
			     "cpu0 600 5 250 4000 50 10 15 20 0 0\n"
			     "cpu1 500 5 250 4100 50 10 15 20 0 0\n"
			     "intr 12400 1 2 3\nctxt 102000\nbtime 1700000000\nprocesses 5010\n"
			     "procs_running 2\nprocs_blocked 0\n";

static void test_stat(void **state)
{
	(void)state;
	struct pl_mon_stat s;
	assert_int_equal(pl_mon_parse_stat(stat_a, &s), 0);
	assert_true(s.has_total && s.has_ctxt && s.has_processes);
	assert_int_equal(s.ncpu, 2);
	assert_true(s.online[0] && s.online[1]);
	assert_int_equal(s.total[PL_MON_USER], 1000);
	assert_int_equal(s.cpu[1][PL_MON_STEAL], 20);
	assert_int_equal(s.ctxt, 100000);
	assert_int_equal(s.processes, 5000);
	assert_int_equal(s.procs_running, 3);
	assert_int_equal(s.procs_blocked, 1);
	free(s.cpu);
	free(s.online);
	/* a 2.6.9 kernel: four or seven fields, the rest 0; a gap (cpu1 offline) */
	assert_int_equal(pl_mon_parse_stat("cpu 1 2 3 4\ncpu0 1 2 3 4 5 6 7\ncpu2 1 2 3 4\n", &s),
			 0);
	assert_int_equal(s.ncpu, 3);
	assert_true(s.online[0] && !s.online[1] && s.online[2]);
	assert_int_equal(s.cpu[0][PL_MON_SOFTIRQ], 7);
	assert_int_equal(s.cpu[0][PL_MON_STEAL], 0);
	assert_false(s.has_ctxt);
	free(s.cpu);
	free(s.online);
	assert_int_equal(pl_mon_parse_stat("", &s), -EINVAL);
	assert_int_equal(pl_mon_parse_stat("cpu 1 2\ncpu0 x y z w\n", &s), -EINVAL);
	assert_int_equal(pl_mon_parse_stat(NULL, &s), -EINVAL);
}

static void test_loadavg(void **state)
{
	(void)state;
	struct pl_mon_loadavg l;
	assert_int_equal(pl_mon_parse_loadavg("14.22 12.09 3.50 7/345 6789\n", &l), 0);
	near(l.avg[0], 14.22);
	near(l.avg[2], 3.5);
	assert_int_equal(l.running, 7);
	assert_int_equal(l.tasks, 345);
	assert_int_equal(pl_mon_parse_loadavg("0.1 0.2\n", &l), -EINVAL);
	assert_int_equal(pl_mon_parse_loadavg("0.1 0.2 0.3 7 345\n", &l), -EINVAL);
	assert_int_equal(pl_mon_parse_loadavg("-1 0.2 0.3 1/2 3\n", &l), -EINVAL);
	assert_int_equal(pl_mon_parse_loadavg("nan 0.2 0.3 1/2 3\n", &l), -EINVAL);
}

/* CPU1 offline: its column is absent */
static const char irq_a[] = "           CPU0       CPU2       \n"
			    "  0:         40          0   IO-APIC   2-edge      timer\n"
			    " 24:       1000       2000   PCI-MSI 49152-edge      virtio0-input.0\n"
			    "LOC:       5000       6000   Local timer interrupts\n"
			    "ERR:          0\n"
			    "MIS:          0\n";
static const char irq_b[] = "           CPU0       CPU2       \n"
			    "  0:         40          0   IO-APIC   2-edge      timer\n"
			    " 24:       1100       2300   PCI-MSI 49152-edge      virtio0-input.0\n"
			    "LOC:       5100       6100   Local timer interrupts\n"
			    "ERR:          0\n"
			    "MIS:          0\n";

static void free_tab(struct pl_mon_irqtab *t)
{
	free(t->cols);
	free(t->rows);
	free(t->counts);
}

static void test_irqtab(void **state)
{
	(void)state;
	struct pl_mon_irqtab t;
	assert_int_equal(pl_mon_parse_irqtab(irq_a, &t), 0);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.cols[1], 2);
	assert_int_equal(t.nrows, 5);
	assert_string_equal(t.rows[1].name, "24");
	assert_string_equal(t.rows[1].desc, "virtio0-input.0");
	assert_string_equal(t.rows[2].name, "LOC");
	assert_string_equal(t.rows[2].desc, "Local timer interrupts");
	assert_true(t.rows[2].full);
	assert_false(t.rows[3].full); /* ERR: one number */
	assert_int_equal(t.counts[1 * 2 + 1], 2000);
	free_tab(&t);
	static const char soft[] = "                    CPU0       CPU1\n"
				   "          HI:          1          0\n"
				   "       TIMER:     100000      90000\n"
				   "      NET_RX:        500        700\n";
	assert_int_equal(pl_mon_parse_irqtab(soft, &t), 0);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.rows[2].name, "NET_RX");
	assert_int_equal(t.counts[2 * 2 + 1], 700);
	free_tab(&t);
	assert_int_equal(pl_mon_parse_irqtab("no header\n 0: 1 2\n", &t), -EINVAL);
	assert_int_equal(pl_mon_parse_irqtab("", &t), -EINVAL);
}

static const char meminfo[] = "MemTotal:        4000000 kB\nMemFree:         1000000 kB\n"
			      "MemAvailable:    3000000 kB\nBuffers:           10000 kB\n"
			      "Cached:           500000 kB\nDirty:                 40 kB\n"
			      "Writeback:             0 kB\nSwapTotal:       1000000 kB\n"
			      "SwapFree:         900000 kB\nHugePages_Total:       0\n";
static const char vm_a[] = "nr_free_pages 250000\npgfault 1000\npgmajfault 10\npswpin 0\n"
			   "pswpout 0\nthp_fault_alloc 5\nthp_collapse_alloc 1\ncompact_stall 2\n"
			   "numa_hit 1000\nnuma_miss 0\nnuma_local 800\nnuma_other 200\n";
static const char vm_b[] = "nr_free_pages 250000\npgfault 3000\npgmajfault 30\npswpin 4\n"
			   "pswpout 8\nthp_fault_alloc 9\nthp_collapse_alloc 3\ncompact_stall 2\n"
			   "numa_hit 3000\nnuma_miss 0\nnuma_local 1600\nnuma_other 1400\n";

static void test_kv(void **state)
{
	(void)state;
	struct pl_mon_kv kv;
	assert_int_equal(pl_mon_parse_meminfo(meminfo, &kv), 0);
	assert_true(kv.have & (1u << PL_MON_MEM_AVAILABLE));
	assert_int_equal(kv.v[PL_MON_MEM_TOTAL], 4000000ull * 1024);
	assert_int_equal(kv.v[PL_MON_MEM_DIRTY], 40ull * 1024);
	/* a 3.13 kernel has no MemAvailable */
	assert_int_equal(pl_mon_parse_meminfo("MemTotal: 10 kB\nMemFree: 5 kB\n", &kv), 0);
	assert_false(kv.have & (1u << PL_MON_MEM_AVAILABLE));
	assert_int_equal(pl_mon_parse_meminfo("garbage\n", &kv), -EINVAL);
	assert_int_equal(pl_mon_parse_vmstat(vm_a, &kv), 0);
	assert_int_equal(kv.v[PL_MON_VM_NUMA_OTHER], 200);
	assert_int_equal(kv.v[PL_MON_VM_THP_COLLAPSE_ALLOC], 1);
	/* no NUMA, no THP: absent, not 0 */
	assert_int_equal(pl_mon_parse_vmstat("pgfault 1\npgmajfault 0\n", &kv), 0);
	assert_false(kv.have & (1u << PL_MON_VM_NUMA_HIT));
	assert_int_equal(pl_mon_parse_vmstat("pgfault -1\n", &kv), -EINVAL);
}

static void test_psi(void **state)
{
	(void)state;
	struct pl_mon_psi p;
	assert_int_equal(pl_mon_parse_psi("some avg10=1.50 avg60=0.00 avg300=0.00 total=123456\n"
					  "full avg10=0.25 avg60=0.00 avg300=0.00 total=789\n",
					  &p),
			 0);
	assert_true(p.present && p.has_full);
	near(p.some_avg10, 1.5);
	assert_int_equal(p.some_total_us, 123456);
	assert_int_equal(p.full_total_us, 789);
	/* the cpu file before 5.13 has no full line */
	assert_int_equal(pl_mon_parse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n", &p),
			 0);
	assert_false(p.has_full);
	assert_int_equal(pl_mon_parse_psi("full avg10=0.00 avg60=0 avg300=0 total=1\n", &p),
			 -EINVAL);
	assert_int_equal(pl_mon_parse_psi("some avg10=200 total=1\n", &p), -EINVAL);
}

/* 4.18+ (18 numbers after the name: 15 fields... 5.5+ 17 fields) and a 4.17 line (11) */
static const char disk_a[] =
	" 253       0 vda 1000 0 8000 500 2000 0 16000 4000 0 3000 4500 0 0 0 0 100 50\n"
	" 253       1 vda1 900 0 7000 400 1900 0 15000 3900 0 2900 4300\n"
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
static const char disk_b[] =
	" 253       0 vda 1100 0 8800 600 2200 0 20000 4600 1 3500 5300 0 0 0 0 110 55\n"
	" 253       1 vda1 1000 0 7800 500 2100 0 19000 4500 1 3400 5100\n"
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static void test_diskstats(void **state)
{
	(void)state;
	struct pl_mon_disk *d;
	size_t n;
	assert_int_equal(pl_mon_parse_diskstats(disk_a, &d, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].name, "vda");
	assert_int_equal(d[0].wr_sectors, 16000);
	assert_int_equal(d[0].weighted_ms, 4500);
	assert_int_equal(d[0].fl_ios, 100);
	assert_int_equal(d[1].fl_ios, 0);
	assert_int_equal(d[1].io_ms, 2900);
	pl_mon_disks_free(d, n);
	/* the 2.6 partition line: four numbers, too few */
	assert_int_equal(pl_mon_parse_diskstats("   8  1 sda1 10 20 30 40\n", &d, &n), -EINVAL);
	assert_int_equal(pl_mon_parse_diskstats("", &d, &n), -EINVAL);
}

static const char net_a[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	"errs drop fifo colls carrier compressed\n"
	"    lo: 1000 10 0 0 0 0 0 0 1000 10 0 0 0 0 0 0\n"
	"  eth0: 5000 50 1 2 0 0 0 0 7000 70 0 3 0 0 0 0\n";
static const char net_b[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	"errs drop fifo colls carrier compressed\n"
	"    lo: 3000 30 0 0 0 0 0 0 3000 30 0 0 0 0 0 0\n"
	"  eth0: 6000 60 1 2 0 0 0 0 9000 90 0 4 0 0 0 0\n";

static void test_netdev_snmp(void **state)
{
	(void)state;
	struct pl_mon_netif *v;
	size_t n;
	assert_int_equal(pl_mon_parse_netdev(net_a, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[1].name, "eth0");
	assert_int_equal(v[1].tx_bytes, 7000);
	assert_int_equal(v[1].tx_drop, 3);
	assert_int_equal(v[1].rx_errs, 1);
	pl_mon_netifs_free(v, n);
	assert_int_equal(pl_mon_parse_netdev("nothing here\n", &v, &n), -EINVAL);
	static const char snmp[] = "Ip: Forwarding DefaultTTL\nIp: 1 64\n"
				   "Tcp: RtoAlgorithm RtoMin MaxConn OutSegs RetransSegs\n"
				   "Tcp: 1 200 -1 5000 17\n";
	uint64_t x;
	assert_int_equal(pl_mon_snmp_get(snmp, "Tcp", "RetransSegs", &x), 0);
	assert_int_equal(x, 17);
	assert_int_equal(pl_mon_snmp_get(snmp, "Tcp", "MaxConn", &x), -EINVAL);
	assert_int_equal(pl_mon_snmp_get(snmp, "Tcp", "Nope", &x), -ENOENT);
	assert_int_equal(pl_mon_snmp_get(snmp, "TcpExt", "ListenOverflows", &x), -ENOENT);
	assert_int_equal(pl_mon_snmp_get("TcpExt: ListenOverflows ListenDrops\nTcpExt: 3 4\n",
					 "TcpExt", "ListenDrops", &x),
			 0);
	assert_int_equal(x, 4);
}

/* A snapshot from texts at time @t_ns. */
static void snap(struct pl_mon_snap *s, uint64_t t_ns, const char *st, const char *irq,
		 const char *vm, const char *disk, const char *net, uint64_t psi_us)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	assert_int_equal(pl_mon_parse_stat(st, &s->stat), 0);
	s->has_stat = true;
	assert_int_equal(pl_mon_parse_irqtab(irq, &s->irq), 0);
	assert_int_equal(pl_mon_parse_meminfo(meminfo, &s->mem), 0);
	assert_int_equal(pl_mon_parse_vmstat(vm, &s->vm), 0);
	assert_int_equal(pl_mon_parse_diskstats(disk, &s->disk, &s->ndisk), 0);
	assert_int_equal(pl_mon_parse_netdev(net, &s->net, &s->nnet), 0);
	char p[128];
	snprintf(p, sizeof(p), "some avg10=1.00 avg60=0 avg300=0 total=%llu\n",
		 (unsigned long long)psi_us);
	assert_int_equal(pl_mon_parse_psi(p, &s->psi[PL_MON_PSI_IO]), 0);
}

/* pl_mon_sample_json_write() gives the bytes json_dumps gives for pl_mon_sample_json(). */
static void same_json(const struct pl_mon_rates *r)
{
	json_t *j = pl_mon_sample_json(r);
	char *want = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(8));
	json_decref(j);
	char *got = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&got, &n);
	assert_non_null(f);
	pl_mon_sample_json_write(f, r);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void test_rates(void **state)
{
	(void)state;
	struct pl_mon_snap a, b;
	snap(&a, 1000000000ull, stat_a, irq_a, vm_a, disk_a, net_a, 0);
	snap(&b, 3000000000ull, stat_b, irq_b, vm_b, disk_b, net_b, 500000); /* dt = 2 s */
	struct pl_mon_rates r;
	assert_int_equal(pl_mon_rates_compute(&a, &b, NULL, 0, &r), 0);
	near(r.dt_s, 2);
	near(r.t_s, 3);
	assert_int_equal(r.flags, 0);
	/* all CPUs: 100 user + 100 idle ticks */
	near(r.all.user, 50);
	near(r.all.idle, 50);
	near(r.all.busy, 50);
	near(r.all.system, 0);
	assert_int_equal(r.ncpu, 2);
	near(r.cpu[0].user, 100);
	near(r.cpu[0].busy, 100);
	near(r.cpu[1].idle, 100);
	near(r.ctxt_per_s, 1000);
	near(r.forks_per_s, 5);
	near(r.running, 2);
	/* interrupts: cpu0 (100 + 100) / 2, CPU2's column is not a CPU of /proc/stat here */
	near(r.irq_per_s, (100 + 300 + 100 + 100) / 2.0);
	near(r.cpu[0].irq_per_s, 100);
	assert_true(isnan(r.cpu[1].irq_per_s)); /* no column for CPU1 */
	assert_int_equal(r.nirq_top, 2);	/* the timer did not fire */
	assert_string_equal(r.irq_top[0].name, "24 virtio0-input.0");
	near(r.irq_top[0].per_s, 200);
	assert_string_equal(r.irq_top[1].name, "LOC Local timer interrupts");
	/* memory and NUMA: 2000 faults, 20 of them major; local 800, other 1200 */
	near(r.minflt_per_s, 990);
	near(r.majflt_per_s, 10);
	near(r.swapout_per_s, 4);
	near(r.thp_alloc_per_s, 3);
	near(r.compact_stall_per_s, 0);
	near(r.numa_remote_ratio, 1200.0 / 2000);
	near(r.mem_available, 3000000.0 * 1024);
	near(r.swap_used, 100000.0 * 1024);
	/* pressure: 0.5 s stalled of 2 s */
	assert_true(r.psi_present[PL_MON_PSI_IO]);
	assert_false(r.psi_present[PL_MON_PSI_CPU]);
	near(r.psi_some_pct[PL_MON_PSI_IO], 25);
	/* iostat -x for vda: 100 reads, 200 writes, 800 + 4000 sectors, in 2 s */
	assert_int_equal(r.ndisk, 3); /* the filter is pl_mon_snap_read's */
	const struct pl_mon_disk_rate *d = &r.disk[0];
	near(d->r_per_s, 50);
	near(d->w_per_s, 100);
	near(d->read_Bps, 800 * 512 / 2.0);
	near(d->write_Bps, 4000 * 512 / 2.0);
	near(d->r_await_ms, 1);			  /* 100 ms / 100 reads */
	near(d->w_await_ms, 3);			  /* 600 ms / 200 writes */
	near(d->aqu_sz, 800 / 2000.0);		  /* weighted ms / elapsed ms */
	near(d->util_pct, 500 / 20.0);		  /* 500 ms busy of 2000 ms */
	assert_true(isnan(r.disk[2].r_await_ms)); /* loop0: no I/O, no await */
	assert_int_equal(r.nnet, 2);
	near(r.net[0].rx_Bps, 1000);
	near(r.net[1].tx_pps, 10);
	near(r.net[1].tx_drop_per_s, 0.5);
	struct pl_mon_io_sum s;
	pl_mon_io_sum(&r, &s);
	near(s.rx_Bps, 1500);
	near(s.util_max, 25);
	/* the JSON sample has the same numbers */
	same_json(&r);
	json_t *j = pl_mon_sample_json(&r);
	assert_true(json_real_value(json_object_get(
			    json_object_get(json_object_get(j, "cpu"), "all"), "user")) == 50);
	assert_true(json_is_null(json_object_get(json_object_get(j, "pressure"), "cpu")));
	json_decref(j);
	pl_mon_rates_free(&r);
	/* --cpus 1: one row, the all-CPU figures unchanged */
	struct pl_cpuset one;
	pl_cpuset_clear(&one);
	pl_cpuset_set(&one, 1);
	assert_int_equal(pl_mon_rates_compute(&a, &b, &one, 0, &r), 0);
	assert_int_equal(r.ncpu, 1);
	assert_int_equal(r.cpu[0].cpu, 1);
	near(r.all.busy, 50);
	pl_mon_rates_free(&r);
	/* time must move forward */
	assert_int_equal(pl_mon_rates_compute(&b, &a, NULL, 0, &r), -EINVAL);
	pl_mon_snap_free(&a);
	pl_mon_snap_free(&b);
}

/* A 32-bit interrupt count that wrapped, a disk counter reset (driver reload) and a
 * NO_HZ iowait that went backwards: those rates are NaN, the interval is marked, and
 * nothing is negative. */
static void test_rates_wrap(void **state)
{
	(void)state;
	static const char irq_wrap[] =
		"           CPU0       CPU2\n"
		"  0:         40          0   IO-APIC   2-edge      timer\n"
		" 24:         10       2300   PCI-MSI 49152-edge      virtio0\n"
		"LOC:       5100       6100   Local timer interrupts\n";
	static const char stat_back[] = "cpu  1100 10 500 8100 90 20 30 40 0 0\n"
					"cpu0 600 5 250 4000 40 10 15 20 0 0\n"
					"cpu1 500 5 250 4100 50 10 15 20 0 0\n"
					"ctxt 90000\nprocesses 5010\n";
	static const char disk_reset[] = " 253 0 vda 5 0 40 1 0 0 0 0 0 2 3\n";
	struct pl_mon_snap a, b;
	snap(&a, 1000000000ull, stat_a, irq_a, vm_a, disk_a, net_a, 100);
	snap(&b, 2000000000ull, stat_back, irq_wrap, vm_a, disk_reset, net_a, 50);
	struct pl_mon_rates r;
	assert_int_equal(pl_mon_rates_compute(&a, &b, NULL, 0, &r), 0);
	assert_true(r.flags & PL_MON_F_RESET);
	assert_false(r.flags & PL_MON_F_CPUS_CHANGED);
	unsigned want = 1u << PL_MON_G_CPU | 1u << PL_MON_G_STAT | 1u << PL_MON_G_IRQ |
			1u << PL_MON_G_DISK | 1u << PL_MON_G_PSI;
	assert_int_equal(r.reset_groups, want);
	assert_true(isnan(r.irq_per_s));
	assert_true(isnan(r.cpu[0].irq_per_s)); /* the wrapped row is in CPU0's column */
	assert_true(isnan(r.ctxt_per_s));
	near(r.forks_per_s, 10);
	assert_true(isnan(r.psi_some_pct[PL_MON_PSI_IO]));
	/* iowait went down by 10: counted 0; the shares are still of the ticks seen */
	assert_true(r.all.iowait >= 0 && r.cpu[0].iowait >= 0);
	near(r.cpu[0].user, 100);
	assert_true(isnan(r.disk[0].r_per_s));
	assert_true(isnan(r.disk[0].util_pct) || r.disk[0].util_pct >= 0);
	/* the top sources keep the rows that did not wrap */
	for (size_t i = 0; i < r.nirq_top; i++)
		assert_true(r.irq_top[i].per_s > 0 && strcmp(r.irq_top[i].name, "24 virtio0") != 0);
	json_t *j = pl_mon_sample_json(&r);
	char *t = json_dumps(j, JSON_COMPACT);
	assert_non_null(strstr(t, "\"flags\":[\"counter_reset\"]"));
	assert_non_null(
		strstr(t, "\"reset\":[\"cpu\",\"stat\",\"interrupts\",\"pressure\",\"disk\"]"));
	assert_null(strstr(t, ":-")); /* no negative number anywhere */
	free(t);
	json_decref(j);
	pl_mon_rates_free(&r);
	pl_mon_snap_free(&a);
	pl_mon_snap_free(&b);
}

/* QAT fw_counters: both formats, garbage, rates and a device reset (counters go down) */
static const char qat_a[] = "AE          Requests        Responses\n"
			    " 0:             1000              990\n"
			    " 1:             2000             1990\n";
static const char qat_b[] = "AE          Requests        Responses\n"
			    " 0:             1500             1490\n"
			    " 1:             2700             2690\n";
static const char qat_oot[] = "+------------------------------------------------+\n"
			      "| FW Statistics for Qat Device                   |\n"
			      "+------------------------------------------------+\n"
			      "| Firmware Requests [AE  0]:               123456 |\n"
			      "| Firmware Responses[AE  0]:               123450 |\n"
			      "| RAS events        [AE  0]:                    1 |\n"
			      "| Firmware Requests [AE  1]:                    4 |\n"
			      "| Firmware Responses[AE  1]:                    4 |\n"
			      "| RAS events        [AE  1]:                    0 |\n";

static void test_qat(void **state)
{
	(void)state;
	uint64_t rq, rs, ras;
	bool has_ras;
	assert_int_equal(pl_mon_parse_qat_fw_counters(qat_a, &rq, &rs, &ras, &has_ras), 0);
	assert_int_equal(rq, 3000);
	assert_int_equal(rs, 2980);
	assert_false(has_ras);
	assert_int_equal(pl_mon_parse_qat_fw_counters(qat_oot, &rq, &rs, &ras, &has_ras), 0);
	assert_int_equal(rq, 123460);
	assert_int_equal(rs, 123454);
	assert_int_equal(ras, 1);
	assert_true(has_ras);
	assert_int_equal(pl_mon_parse_qat_fw_counters("", &rq, &rs, &ras, &has_ras), -EINVAL);
	assert_int_equal(
		pl_mon_parse_qat_fw_counters("AE Requests\n 0: x\n", &rq, &rs, &ras, &has_ras),
		-EINVAL);
	assert_int_equal(pl_mon_parse_qat_fw_counters("AE Requests\n 0: 99999999999999999999\n",
						      &rq, &rs, &ras, &has_ras),
			 -EINVAL);
	/* two snapshots 0.5 s apart: 1200 requests -> 2400/s */
	struct pl_mon_snap a = { .t_ns = 1000000000ull }, b = { .t_ns = 1500000000ull };
	struct pl_mon_qat qa = { .name = "qat_c6xx_0000:3d:00.0" }, qb = qa;
	assert_int_equal(pl_mon_parse_qat_fw_counters(qat_a, &qa.requests, &qa.responses,
						      &qa.ras_events, &qa.has_ras),
			 0);
	assert_int_equal(pl_mon_parse_qat_fw_counters(qat_b, &qb.requests, &qb.responses,
						      &qb.ras_events, &qb.has_ras),
			 0);
	a.qat = &qa, a.nqat = 1, b.qat = &qb, b.nqat = 1;
	struct pl_mon_rates r;
	assert_int_equal(pl_mon_rates_compute(&a, &b, NULL, 0, &r), 0);
	assert_int_equal(r.nqat, 1);
	assert_string_equal(r.qat[0].name, "qat_c6xx_0000:3d:00.0");
	near(r.qat[0].requests_per_s, 2400);
	near(r.qat[0].responses_per_s, 2400);
	assert_true(isnan(r.qat[0].ras_events_per_s));
	assert_false(r.flags & PL_MON_F_RESET);
	struct pl_mon_accel_sum x;
	pl_mon_accel_sum(&r, &x);
	near(x.qat_requests_per_s, 2400);
	assert_true(isnan(x.gpu_util_pct));
	pl_mon_rates_free(&r);
	/* the device was reset (driver reload): counters went down -> null, counter_reset */
	assert_int_equal(
		pl_mon_rates_compute(
			&b, &(struct pl_mon_snap){ .t_ns = 2000000000ull, .qat = &qa, .nqat = 1 },
			NULL, 0, &r),
		0);
	assert_true(r.flags & PL_MON_F_RESET);
	assert_true(r.reset_groups & (1u << PL_MON_G_ACCEL));
	assert_true(isnan(r.qat[0].requests_per_s));
	same_json(&r);
	json_t *j = pl_mon_sample_json(&r);
	char *t = json_dumps(j, JSON_COMPACT);
	assert_non_null(strstr(t, "\"requests_per_s\":null"));
	assert_non_null(strstr(t, "\"accel\"]"));
	free(t);
	json_decref(j);
	pl_mon_rates_free(&r);
}

/* The direct JSON writer on the values that take jansson's other paths: exponents (with
 * and without leading zeros), integers at and past 10^8, fractions, -0, NaN, strings to
 * escape and invalid UTF-8, every section present (PSI, disks, interfaces, QAT, GPUs). */
static void test_sample_json_write(void **state)
{
	(void)state;
	struct pl_mon_cpupct cpu[2] = {
		{ .cpu = 0,
		  .user = 12.5,
		  .nice = 0,
		  .system = 1e-5,
		  .iowait = 99999999,
		  .irq = 100000000,
		  .softirq = 123456789,
		  .steal = 1.0 / 3,
		  .guest = -0.0,
		  .idle = NAN,
		  .busy = 2.5e20,
		  .irq_per_s = 4e-300,
		  .softirq_per_s = 7 },
		{ .cpu = 3, .user = 100, .idle = 0.1, .busy = 1e15, .irq_per_s = NAN },
	};
	struct pl_mon_disk_rate disk = {
		.name = "nvme0n1", .r_per_s = 1234.5678901, .read_Bps = 5.5e9, .r_await_ms = NAN
	};
	struct pl_mon_net_rate net[2] = { { .name = "eth\"0\\", .rx_pps = 3 },
					  { .name = "w\xff\x01", .tx_Bps = 1e-10 } };
	struct pl_mon_qat_rate qat = { .name = "qat_4xxx_0000:6b:00.0",
				       .requests_per_s = 1e7,
				       .ras_events_per_s = NAN };
	qat.has_tl = true;
	assert_int_equal(pl_mon_parse_qat_telemetry("sample_cnt 5\nbw_in 8612\nbig "
						    "18446744073709551615\n",
						    &qat.tl),
			 0);
	qat.has_rp[2] = true;
	assert_int_equal(
		pl_mon_parse_qat_telemetry("rp_num 7\nservice_type sym\nbw_out 1\n", &qat.rp[2]),
		0);
	qat.has_rp[3] = true;
	assert_int_equal(pl_mon_parse_qat_telemetry("bw_out 2\n", &qat.rp[3]), 0);
	struct pl_mon_gpu gpu = { .name = "NVIDIA H200 \xc3\xa9",
				  .util_pct = 42,
				  .mem_used_bytes = 1.5e11,
				  .mem_total_bytes = NAN };
	struct pl_mon_rates r = {
		.t_s = 0.1,
		.dt_s = 0.10000231,
		.flags = PL_MON_F_CPUS_CHANGED | PL_MON_F_RESET,
		.reset_groups = 1u << PL_MON_G_IRQ | 1u << PL_MON_G_ACCEL,
		.all = { .cpu = -1, .user = 33.333333333, .idle = 66.666666667 },
		.ncpu = 2,
		.cpu = cpu,
		.load = { 14.22, 12.09, 0 },
		.running = 3,
		.tasks = NAN,
		.ctxt_per_s = 19999.99999,
		.nirq_top = 1,
		.irq_top = { { .name = "LOC Local timer interrupts", .per_s = 250 } },
		.nsoftirq = 1,
		.softirq = { { .name = "NET_RX", .per_s = 0.5 } },
		.mem_total = 135000000000.0,
		.numa_remote_ratio = 0.8,
		.psi_present = { true, false, true },
		.psi_some_pct = { 1.25, NAN, 100 },
		.psi_full_pct = { NAN, NAN, 0 },
		.ndisk = 1,
		.disk = &disk,
		.nnet = 2,
		.net = net,
		.nqat = 1,
		.qat = &qat,
		.ngpu = 1,
		.gpu = &gpu,
	};
	same_json(&r);
	struct pl_mon_rates empty = { .all = { .cpu = -1 } };
	same_json(&empty);
}

/* QAT telemetry files (adf_tl_debugfs.c's "%-23s%20llu" lines): the current value kept,
 * min/max/avg columns ignored, rp_num and service_type apart, bad lines skipped. */
static void test_qat_telemetry(void **state)
{
	(void)state;
	struct pl_mon_qat_tl t;
	assert_int_equal(pl_mon_parse_qat_telemetry(
				 "sample_cnt                               57\n"
				 "bw_in                                  8612                8602"
				 "                8622                8612\n"
				 "util_cph0                                38                  28"
				 "                  48                  38\n"
				 "bad-name                                  1\n"
				 "nonumber                                 x1\n"
				 "huge                 99999999999999999999999\n"
				 "a_name_longer_than_the_table_has_room_for 5\n"
				 "bare\n",
				 &t),
			 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.name[0], "sample_cnt");
	assert_int_equal(t.value[0], 57);
	assert_string_equal(t.name[1], "bw_in");
	assert_int_equal(t.value[1], 8612);
	assert_int_equal(t.value[2], 38);
	assert_int_equal(t.rp_num, -1);
	assert_string_equal(t.service, "");
	assert_int_equal(pl_mon_parse_qat_telemetry("sample_cnt      1\n"
						    "rp_num          2\n"
						    "service_type  asym\n"
						    "bw_out          9\n",
						    &t),
			 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rp_num, 2);
	assert_string_equal(t.service, "asym");
	assert_int_equal(pl_mon_parse_qat_telemetry("", &t), -EINVAL);
	assert_int_equal(pl_mon_parse_qat_telemetry(NULL, &t), -EINVAL);
	assert_int_equal(pl_mon_parse_qat_telemetry("service_type sym\nrp_num 1\n", &t), -EINVAL);
	/* past the table: the first PL_MON_QAT_TL_MAX kept */
	char big[PL_MON_QAT_TL_MAX * 2 * 16] = "";
	for (int i = 0; i < PL_MON_QAT_TL_MAX + 20; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "c%d %d\n", i, i);
	assert_int_equal(pl_mon_parse_qat_telemetry(big, &t), 0);
	assert_int_equal(t.n, PL_MON_QAT_TL_MAX);
	assert_int_equal(t.value[PL_MON_QAT_TL_MAX - 1], PL_MON_QAT_TL_MAX - 1);
}

/* CPU1 goes offline: the "cpu" line loses its ticks (it goes down); the interval is
 * marked, only CPU0 is shown, and all CPUs is CPU0's share. */
static void test_rates_offline(void **state)
{
	(void)state;
	static const char stat_off[] = "cpu  600 5 250 4000 50 10 15 20 0 0\n"
				       "cpu0 600 5 250 4000 50 10 15 20 0 0\n"
				       "ctxt 101000\nprocesses 5001\n";
	struct pl_mon_snap a, b;
	snap(&a, 1000000000ull, stat_a, irq_a, vm_a, disk_a, net_a, 0);
	snap(&b, 2000000000ull, stat_off, irq_b, vm_b, disk_b, net_b, 0);
	struct pl_mon_rates r;
	assert_int_equal(pl_mon_rates_compute(&a, &b, NULL, 0, &r), 0);
	assert_true(r.flags & PL_MON_F_CPUS_CHANGED);
	assert_false(r.reset_groups & (1u << PL_MON_G_CPU));
	assert_int_equal(r.ncpu, 1);
	assert_int_equal(r.cpu[0].cpu, 0);
	near(r.all.user, 100);
	near(r.all.busy, 100);
	pl_mon_rates_free(&r);
	/* and back online: marked again, CPU1 has no interval yet */
	assert_int_equal(pl_mon_rates_compute(
				 &b, &(struct pl_mon_snap){ .t_ns = 3000000000ull, .stat = a.stat },
				 NULL, 0, &r),
			 0);
	assert_true(r.flags & PL_MON_F_CPUS_CHANGED);
	assert_int_equal(r.ncpu, 1);
	pl_mon_rates_free(&r);
	pl_mon_snap_free(&a);
	pl_mon_snap_free(&b);
}

/* The whole snapshot from a fixture tree: partitions and idle devices are dropped. */
static void test_snap_read(void **state)
{
	(void)state;
	char root[] = "/tmp/perflab-mon.XXXXXX";
	assert_int_equal(pl_test_mkdtemp(root), 0);
	assert_int_equal(pl_test_put(root, "/proc/stat", stat_a), 0);
	assert_int_equal(pl_test_put(root, "/proc/loadavg", "1.00 2.00 3.00 4/500 99\n"), 0);
	assert_int_equal(pl_test_put(root, "/proc/interrupts", irq_a), 0);
	assert_int_equal(pl_test_put(root, "/proc/meminfo", meminfo), 0);
	assert_int_equal(pl_test_put(root, "/proc/vmstat", vm_a), 0);
	assert_int_equal(pl_test_put(root, "/proc/pressure/memory",
				     "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n"
				     "full avg10=0.00 avg60=0.00 avg300=0.00 total=3\n"),
			 0);
	assert_int_equal(pl_test_put(root, "/proc/diskstats", disk_a), 0);
	assert_int_equal(pl_test_put(root, "/sys/block/vda/stat", "0\n"), 0);
	assert_int_equal(pl_test_put(root, "/sys/block/loop0/stat", "0\n"), 0);
	assert_int_equal(pl_test_put(root, "/proc/net/dev", net_a), 0);
	assert_int_equal(
		pl_test_put(root, "/proc/net/snmp", "Tcp: OutSegs RetransSegs\nTcp: 100 5\n"), 0);
	assert_int_equal(pl_test_put(root, "/proc/net/netstat",
				     "TcpExt: ListenOverflows ListenDrops\nTcpExt: 1 2\n"),
			 0);
	assert_int_equal(
		pl_test_put(root, "/sys/kernel/debug/qat_c6xx_0000:3d:00.0/fw_counters", qat_a), 0);
	assert_int_equal(pl_test_put(root, "/sys/kernel/debug/qat_c6xx_0000:3f:00.0/fw_counters",
				     "garbage\n"),
			 0);
	assert_int_equal(pl_test_put(root, "/sys/kernel/debug/dri/0/name", "x\n"), 0);
	assert_int_equal(
		pl_test_put(root, "/sys/kernel/debug/qat_c6xx_0000:3d:00.0/telemetry/device_data",
			    "sample_cnt                               12\n"
			    "bw_in                                  8612\n"),
		0);
	assert_int_equal(pl_test_put(root,
				     "/sys/kernel/debug/qat_c6xx_0000:3d:00.0/telemetry/rp_B_data",
				     "rp_num                                    3\n"
				     "service_type                            dc\n"
				     "bw_out                                   77\n"),
			 0);
	assert_int_equal(pl_sysroot_set(root), 0);
	struct pl_mon_snap s;
	assert_int_equal(pl_mon_snap_read(&s), 0);
	assert_true(s.has_stat && s.has_load);
	assert_int_equal(s.load.tasks, 500);
	assert_int_equal(s.irq.nrows, 5);
	assert_int_equal(s.softirq.ncols, 0); /* no file: empty */
	assert_true(s.psi[PL_MON_PSI_MEMORY].present);
	assert_false(s.psi[PL_MON_PSI_CPU].present);
	assert_int_equal(s.ndisk, 1); /* vda; vda1 is a partition, loop0 idle */
	assert_string_equal(s.disk[0].name, "vda");
	assert_int_equal(s.nnet, 2);
	assert_int_equal(s.tcp.v[PL_MON_TCP_RETRANSSEGS], 5);
	assert_int_equal(s.tcp.v[PL_MON_TCP_LISTENDROPS], 2);
	assert_int_equal(s.nqat, 1); /* the garbage file is skipped */
	assert_string_equal(s.qat[0].name, "qat_c6xx_0000:3d:00.0");
	assert_int_equal(s.qat[0].requests, 3000);
	assert_true(s.qat[0].has_tl);
	assert_int_equal(s.qat[0].tl.n, 2);
	assert_string_equal(s.qat[0].tl.name[1], "bw_in");
	assert_int_equal(s.qat[0].tl.value[1], 8612);
	assert_false(s.qat[0].has_rp[0]); /* no file: no ring pair in slot A */
	assert_true(s.qat[0].has_rp[1]);
	assert_int_equal(s.qat[0].rp[1].rp_num, 3);
	assert_string_equal(s.qat[0].rp[1].service, "dc");
	assert_int_equal(s.qat[0].rp[1].value[0], 77);
	pl_mon_snap_free(&s);
	/* the files stay open between snapshots; a file rewritten in place, or replaced by
	 * another, is read anew */
	assert_int_equal(pl_test_put(root, "/proc/loadavg", "1.00 2.00 3.00 4/600 99\n"), 0);
	char tmp[300], dst[300];
	snprintf(tmp, sizeof(tmp), "%s/proc/net/snmp.new", root);
	snprintf(dst, sizeof(dst), "%s/proc/net/snmp", root);
	FILE *f = fopen(tmp, "w");
	assert_non_null(f);
	fputs("Tcp: OutSegs RetransSegs\nTcp: 100 9\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, dst), 0);
	assert_int_equal(pl_mon_snap_read(&s), 0);
	assert_int_equal(s.load.tasks, 600);
	assert_int_equal(s.tcp.v[PL_MON_TCP_RETRANSSEGS], 9);
	pl_mon_snap_free(&s);
	/* without /proc/stat there is nothing to monitor */
	char path[300];
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	assert_int_equal(remove(path), 0);
	assert_int_equal(pl_mon_snap_read(&s), -ENOENT);
	pl_mon_snap_close();
	pl_sysroot_set(NULL);
	assert_int_equal(pl_test_rmtree(root), 0);
}

/* The text of file @path (malloc'd), or NULL. */
static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Entries of directory @dir besides "." and "..". */
static int count_entries(const char *dir)
{
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	int n = -1;
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

/* The Prometheus textfile: label values escaped and whole whatever the machine names
 * its devices, every line a comment or a sample, one HELP and TYPE per family. */
static void test_prom_text(void **state)
{
	(void)state;
	char long_name[301];
	memset(long_name, 'n', 300);
	long_name[300] = '\0';
	long_name[0] = '"';
	struct pl_mon_disk_rate disk[2] = { { .name = long_name, .util_pct = 5 },
					    { .name = (char *)"sd\\a\n", .util_pct = 7 } };
	struct pl_mon_net_rate net = { .name = (char *)"e\"} 1\nforged{x=\"",
				       .rx_Bps = 1,
				       .tx_Bps = 2 };
	struct pl_mon_qat_rate qat = { .name = (char *)"qat_\xff\"", .requests_per_s = 3 };
	qat.has_tl = true;
	assert_int_equal(pl_mon_parse_qat_telemetry("bw_in 8\n", &qat.tl), 0);
	struct pl_mon_gpu gpu = {
		.name = "G\"P\\U\n", .util_pct = 9, .mem_used_bytes = NAN, .mem_total_bytes = 1
	};
	struct pl_mon_rates r = { .all = { .cpu = -1, .user = 1 },
				  .load = { NAN, NAN, NAN },
				  .ndisk = 2,
				  .disk = disk,
				  .nnet = 1,
				  .net = &net,
				  .nqat = 1,
				  .qat = &qat,
				  .ngpu = 1,
				  .gpu = &gpu };
	size_t len = 0;
	char *t = pl_mon_prom_text(&r, &len);
	assert_non_null(t);
	assert_int_equal(strlen(t), len);
	char want[400];
	snprintf(want, sizeof(want), "perflab_monitor_disk_util_percent{device=\"\\\"%s\"} 5\n",
		 long_name + 1);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "perflab_monitor_disk_util_percent{device=\"sd\\\\a\\n\"} 7\n"));
	assert_non_null(strstr(t, "perflab_monitor_net_bytes_per_second{device=\"e\\\"} "
				  "1\\nforged{x=\\\"\",direction=\"tx\"} 2\n"));
	assert_non_null(strstr(t, "perflab_monitor_qat_telemetry{device=\"qat_\\\\xff\\\"\","
				  "counter=\"bw_in\"} 8\n"));
	assert_non_null(strstr(
		t, "perflab_monitor_gpu_util_percent{gpu=\"0\",name=\"G\\\"P\\\\U\\n\"} 9\n"));
	assert_null(strstr(t, "gpu_memory_used_bytes{")); /* NaN: no sample */
	assert_null(strstr(t, "\nforged"));
	int help = 0, type = 0;
	for (char *l = t; *l; l = strchr(l, '\n') + 1) {
		bool comment = strncmp(l, "# HELP perflab_monitor_", 23) == 0 ||
			       strncmp(l, "# TYPE perflab_monitor_", 23) == 0;
		assert_true(comment || strncmp(l, "perflab_monitor_", 16) == 0);
		help += strncmp(l, "# HELP ", 7) == 0;
		type += strncmp(l, "# TYPE ", 7) == 0;
		assert_non_null(strchr(l, '\n'));
	}
	assert_int_equal(help, type);
	assert_int_equal(help, 24);
	free(t);
}

/* The textfile is written through its directory opened once: a symlink at the file's
 * name is replaced, not followed; a failed write keeps the previous file and leaves no
 * temporary; a directory swapped after the start is not written into. */
static void test_prom_write(void **state)
{
	(void)state;
	char root[] = "/tmp/perflab-prom-XXXXXX";
	assert_int_equal(pl_test_mkdtemp(root), 0);
	char dir[300], path[320], victim[320], moved[300];
	snprintf(dir, sizeof(dir), "%s/d", root);
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	snprintf(victim, sizeof(victim), "%s/victim", root);
	snprintf(moved, sizeof(moved), "%s/moved", root);
	assert_int_equal(pl_test_mkdirs(dir), 0);
	assert_int_equal(pl_test_put(root, "/victim", "victim\n"), 0);
	struct pl_mon_prom p = { .dirfd = -1 };
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(pl_mon_prom_open(&p, path), -EISDIR);
	assert_int_equal(pl_mon_prom_open(&p, "/nonexistent/m.prom"), -ENOENT);
	pl_mon_prom_close(&p);
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(pl_mon_prom_open(&p, path), 0);
	struct pl_mon_rates r = { .all = { .cpu = -1, .user = 1 } };
	assert_int_equal(pl_mon_prom_write(&p, &r), 0);
	char *v = slurp_file(victim);
	assert_string_equal(v, "victim\n");
	free(v);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	char *first = slurp_file(path);
	assert_non_null(strstr(first, "cpu=\"all\",mode=\"user\"} 1\n"));
	/* a write that fails (file size limit) leaves the previous file, no temporary */
	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 64;
	void (*h)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	r.all.user = 2;
	int rc = pl_mon_prom_write(&p, &r);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, h);
	assert_int_equal(rc, -EFBIG);
	char *now = slurp_file(path);
	assert_string_equal(now, first);
	free(now);
	free(first);
	assert_int_equal(count_entries(dir), 1);
	/* the directory swapped for a symlink after the start: writes stay in the one opened */
	assert_int_equal(rename(dir, moved), 0);
	assert_int_equal(symlink(root, dir), 0);
	assert_int_equal(pl_mon_prom_write(&p, &r), 0);
	assert_int_equal(access(path, F_OK), -1); /* root/m.prom: not written */
	snprintf(path, sizeof(path), "%s/m.prom", moved);
	now = slurp_file(path);
	assert_non_null(strstr(now, "cpu=\"all\",mode=\"user\"} 2\n"));
	free(now);
	assert_int_equal(count_entries(moved), 1);
	pl_mon_prom_close(&p);
	pl_mon_prom_close(&p);
	assert_int_equal(p.dirfd, -1);
	assert_int_equal(pl_test_rmtree(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_loadavg),
		cmocka_unit_test(test_irqtab),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_diskstats),
		cmocka_unit_test(test_netdev_snmp),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rates_wrap),
		cmocka_unit_test(test_rates_offline),
		cmocka_unit_test(test_snap_read),
		cmocka_unit_test(test_qat),
		cmocka_unit_test(test_sample_json_write),
		cmocka_unit_test(test_qat_telemetry),
		cmocka_unit_test(test_prom_text),
		cmocka_unit_test(test_prom_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
