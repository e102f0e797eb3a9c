/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab tune recommend [--workload W]`: which profile along the search path (bundled,
 * /etc/tuned, /usr/lib/tuned, --profile-dir) fits this machine and workload, and why.
 *
 * tuned-adm recommend answers one name from the first section of recommend.conf whose
 * conditions match (virt= from systemd-detect-virt, system= from /etc/system-release-cpe,
 * chassis_type=, process=, ...; /usr/lib/tuned/recommend.d/50-tuned.conf: a VM gets
 * virtual-guest, a "server" or "computenode" release throughput-performance, anything
 * else balanced). It never looks at the machine's settings or the workload. This ranks
 * every loadable profile by what it would do here instead:
 *   score = fit + sum(weight of the findings it fixes) - sum(weight of those it works
 *           against), weights crit 3, warn 2, info 1 (one reason per severity, "fixes 2
 *           warning findings: ID, ID" worth +4);
 *   fit   = +3 when the profile is made for the workload (a table of stock and bundled
 *           profiles, recommend.c), +3 for virtual-guest on a VM and for the power-saving
 *           profiles on a laptop, -2 for a performance profile on a laptop, +1 for
 *           balanced as the general fallback;
 * a finding is fixed when every line of its fix (rule fix_tune) is an item of the
 * profile's plan with the same value (">N" items count when they reach N; "a|b" when one
 * alternative is the fix), and worked against when the profile sets one of those keys to
 * another value. A profile may name its premises in [main] perflab_needs (gpu: a GPU,
 * accel.gpu.count > 0; numa: numa.nodes > 1; nic: an interface backed by a device):
 * one the machine lacks puts it after every profile without ("unmet": "needs a GPU:
 * accel.gpu.count is 0"; the text leaves it out of the top 5), whatever its score; a
 * premise whose fact is unavailable is assumed. Each candidate also lists the items it would change
 * here (the plan of `tune diff`: applicable items whose current value differs). Ties: fewer changes
 * first, then the name. */
#ifndef PERFLAB_TUNE_RECOMMEND_H
#define PERFLAB_TUNE_RECOMMEND_H

#include "tune/actions.h"

/** `tune recommend`: collect the facts the rules of @q->workload read (plus virt), run
 *  them, plan every profile of the search path and print the ranking (text: the top 5,
 *  with @q->all every profile; --json: docs/schemas/tune-recommend.schema.json, every
 *  profile). Returns PL_EXIT_OK, PL_EXIT_USAGE for an unknown workload, PL_EXIT_RUNTIME
 *  when the output cannot be written. Profiles that do not load are listed with their
 *  error, last. */
int pl_tune_do_recommend(const struct pl_tune_req *q);

#endif
