/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor's /proc parsers (src/monitor/proc.h) and the interval rates between two
 * parsed snapshots. The first byte picks the parser; the rest is split at the first
 * "\n====\n" into the text of the earlier and the later snapshot. Invariants: a parsed
 * table is consistent (columns, rows), and no rate or share is negative or above its
 * bound, whatever the two texts are (counters that go down give NaN, never a negative). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "monitor/proc.h"
#include "monitor/rates.h"

static void parse(unsigned which, const char *s, struct pl_mon_snap *o)
{
	memset(o, 0, sizeof(*o));
	switch (which) {
	case 0:
		o->has_stat = pl_mon_parse_stat(s, &o->stat) == 0;
		break;
	case 1:
		o->has_load = pl_mon_parse_loadavg(s, &o->load) == 0;
		break;
	case 2:
		if (pl_mon_parse_irqtab(s, &o->irq) == 0)
			FUZZ_ASSERT(o->irq.ncols > 0, "a table has columns");
		break;
	case 3:
		pl_mon_parse_meminfo(s, &o->mem);
		pl_mon_parse_vmstat(s, &o->vm);
		break;
	case 4:
		pl_mon_parse_psi(s, &o->psi[0]);
		break;
	case 5:
		pl_mon_parse_diskstats(s, &o->disk, &o->ndisk);
		break;
	default: {
		pl_mon_parse_netdev(s, &o->net, &o->nnet);
		uint64_t v;
		pl_mon_snmp_get(s, "Tcp", "RetransSegs", &v);
		break;
	}
	}
}

static void check(double v, double hi, const char *what)
{
	FUZZ_ASSERT(isnan(v) || (v >= 0 && v <= hi), what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 18)
		return -1;
	unsigned which = data[0] % 7;
	char *s = fuzz_cstr(data + 1, size - 1);
	char *sep = strstr(s, "\n====\n");
	const char *second = s;
	if (sep) {
		*sep = '\0';
		second = sep + 6;
	}
	struct pl_mon_snap a, b;
	parse(which, s, &a);
	parse(which, second, &b);
	a.t_ns = 1000000000;
	b.t_ns = 2000000000;
	if (which == 0 && !(a.has_stat && b.has_stat)) {
		pl_mon_snap_free(&a);
		pl_mon_snap_free(&b);
		free(s);
		return 0;
	}
	struct pl_mon_rates r;
	FUZZ_ASSERT(pl_mon_rates_compute(&a, &b, NULL, 0, &r) == 0, "rates of a later snapshot");
	check(r.all.busy, 100, "all busy within 0..100");
	check(r.all.idle, 100.0000001, "all idle within 0..100");
	for (size_t i = 0; i < r.ncpu; i++) {
		check(r.cpu[i].user, 100.0000001, "cpu user within 0..100");
		check(r.cpu[i].busy, 100, "cpu busy within 0..100");
		check(r.cpu[i].irq_per_s, INFINITY, "irq rate not negative");
	}
	check(r.ctxt_per_s, INFINITY, "ctxt rate not negative");
	check(r.irq_per_s, INFINITY, "irq rate not negative");
	check(r.numa_remote_ratio, 1, "remote ratio within 0..1");
	check(r.psi_some_pct[0], 100, "pressure within 0..100");
	for (size_t i = 0; i < r.ndisk; i++) {
		check(r.disk[i].util_pct, 100, "util within 0..100");
		check(r.disk[i].read_Bps, INFINITY, "read rate not negative");
		check(r.disk[i].w_await_ms, INFINITY, "await not negative");
	}
	for (size_t i = 0; i < r.nnet; i++)
		check(r.net[i].rx_Bps, INFINITY, "rx rate not negative");
	pl_mon_rates_free(&r);
	pl_mon_snap_free(&a);
	pl_mon_snap_free(&b);
	free(s);
	return 0;
}
