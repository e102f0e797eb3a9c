/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench mem's default array size (memsize.h). */
#include "bench/mem/memsize.h"

uint64_t pl_mem_llc_used(const struct pl_mem_sizing *in, bool *bounded)
{
	uint64_t bound = (uint64_t)in->cpus * PL_MEM_LLC_PER_CPU_MAX;
	bool b = in->vm && in->llc && in->cpus && in->llc > bound;
	if (bounded)
		*bounded = b;
	return b ? bound : in->llc;
}

/* "2 x L3 = 1016 MiB" then @sep and the source ("hwloc"). */
static void llc_reported(const struct pl_mem_sizing *in, const char *sep, struct pl_buf *why)
{
	char b[32];
	pl_fmt_bytes(b, sizeof(b), (double)in->llc);
	if (in->count)
		pl_buf_printf(why, "%u x L%d = %s", in->count, in->level, b);
	else
		pl_buf_printf(why, "L%d %s", in->level, b);
	pl_buf_printf(why, "%s%s", sep, in->src ? in->src : "hwloc");
}

void pl_mem_llc_bound_text(const struct pl_mem_sizing *in, uint64_t llc_used, struct pl_buf *why)
{
	char b[32], c[32];
	pl_buf_puts(why, "LLC reported ");
	llc_reported(in, " by ", why);
	pl_buf_printf(why, ", likely the host's in a virtual machine; taken as %s = %u CPU%s x %s",
		      pl_fmt_bytes(b, sizeof(b), (double)llc_used), in->cpus,
		      in->cpus == 1 ? "" : "s",
		      pl_fmt_bytes(c, sizeof(c), (double)PL_MEM_LLC_PER_CPU_MAX));
}

struct pl_mem_size pl_mem_default_size(const struct pl_mem_sizing *in, struct pl_buf *why)
{
	char b2[32];
	struct pl_mem_size s = { 0 };
	s.llc_used = pl_mem_llc_used(in, &s.llc_bounded);
	uint64_t want = s.llc_used ? 4 * s.llc_used : (uint64_t)256 << 20;
	if (!in->llc) {
		pl_buf_printf(why, "256 MiB (the last-level cache size is unknown)");
	} else if (s.llc_bounded) {
		pl_buf_puts(why, "4x the last-level cache, capped (");
		pl_mem_llc_bound_text(in, s.llc_used, why);
		pl_buf_puts(why, ")");
	} else {
		pl_buf_puts(why, "4x the total last-level cache (");
		llc_reported(in, ", from ", why);
		pl_buf_puts(why, ")");
	}
	uint64_t cap = (uint64_t)((double)in->avail * PL_MEM_SHARE / 3);
	if (in->avail && want > cap) {
		want = cap;
		s.mem_capped = true;
		pl_buf_printf(why,
			      ", capped so the three arrays take %.0f%% of available memory (%s)",
			      PL_MEM_SHARE * 100, pl_fmt_bytes(b2, sizeof(b2), (double)in->avail));
		if (in->llc)
			pl_buf_printf(why, ": below STREAM's 4x rule, so the figures may include "
					   "cache bandwidth");
	}
	s.bytes = want & ~(uint64_t)4095;
	return s;
}
