/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune journal reader (tune/journal.h): <state_dir>/tune-journal.jsonl as a crash,
 * a full disk or a hand edit may leave it. The input is the file's bytes; it is opened
 * read-only (nothing is rolled back or written) and every accessor `tune status` and
 * `tune rollback` use is called on what was read. Invariants: steps increase (entries
 * come in step order); every entry has a target; find() returns a live entry of that target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tune/journal.h"
#include "util/sysroot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	fuzz_write("state/" PL_JOURNAL_FILE, data, size);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/state", fuzz_tmpdir());
	struct pl_journal *j = NULL;
	if (pl_journal_open(dir, PL_JOURNAL_READ, &j) == 0) {
		size_t n = 0, live = 0;
		unsigned long maxstep = 0;
		const struct pl_journal_entry *e = pl_journal_entries(j, &n);
		for (size_t i = 0; i < n; i++) {
			FUZZ_ASSERT(e[i].target != NULL, "every entry has a target");
			if (i)
				FUZZ_ASSERT(e[i].step > e[i - 1].step, "steps increase");
			live += !e[i].undone;
			if (e[i].step > maxstep)
				maxstep = e[i].step;
			pl_journal_status_name(e[i].status);
			const struct pl_journal_entry *f = pl_journal_find(j, e[i].target);
			if (f)
				FUZZ_ASSERT(!f->undone && strcmp(f->target, e[i].target) == 0,
					    "find gives a live entry of the target");
		}
		FUZZ_ASSERT(pl_journal_live(j) == live, "live count");
		FUZZ_ASSERT(pl_journal_last_step(j) == maxstep, "last step is the highest");
		pl_journal_close(j);
	}
	return 0;
}
