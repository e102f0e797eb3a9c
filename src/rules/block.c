/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Block device rules, per device and by device type: rotational disks want a reordering
 * scheduler, deep queues and large read-ahead for streaming; NVMe wants no scheduler;
 * virtio disks are scheduled again by the host. Facts: block.<dev>.rotational,
 * block.<dev>.queue.{scheduler,read_ahead_kb,nr_requests}. Sources: Red Hat's "Available
 * disk schedulers" / "Different disk schedulers for different use cases", tuned's [disk]
 * plugin, Documentation/ABI/stable/sysfs-block. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

/* Room for "block.", a device name of up to NAME_MAX bytes and the longest fact suffix
 * read here ("queue.read_ahead_kb"), so a long name never truncates into no finding. */
enum { BLOCK_KEY_MAX = sizeof("block.") + NAME_MAX + sizeof(".queue.read_ahead_kb") };

enum blk_kind { BLK_SKIP, BLK_HDD, BLK_SSD, BLK_NVME, BLK_VIRT };
static const char *const kind_names[] = { "other", "rotational disk", "SSD", "NVMe",
					  "virtual disk" };

/* Device type from the kernel name and the rotational flag. Virtual disks are checked
 * first: virtio-blk and xen-blkfront often claim rotational=1. Stacked and memory devices
 * (dm, md, loop, zram...) have no scheduler of their own that matters. */
static enum blk_kind blk_kind(const struct pl_facts *f, const char *dev)
{
	static const char *const skip[] = { "loop", "ram", "zram", "sr",       "dm-",
					    "md",   "nbd", "fd",   "mtdblock", NULL };
	for (int i = 0; skip[i]; i++)
		if (pl_startswith(dev, skip[i]))
			return BLK_SKIP;
	if (pl_startswith(dev, "nvme"))
		return BLK_NVME;
	if (pl_startswith(dev, "vd") || pl_startswith(dev, "xvd"))
		return BLK_VIRT;
	char key[BLOCK_KEY_MAX];
	snprintf(key, sizeof(key), "block.%s.rotational", dev);
	int64_t rot;
	if (!pl_rf_int(f, key, &rot))
		return BLK_SKIP;
	return rot ? BLK_HDD : BLK_SSD;
}

/* Call @fn for every device named in block.<dev>.* facts, once each. */
static void for_each_dev(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
			 void (*fn)(const struct pl_rule *, const struct pl_facts *,
				    struct pl_findings *, const char *, enum blk_kind))
{
	char **seen = NULL;
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *k = f->v[i].key;
		if (!pl_startswith(k, "block."))
			continue;
		const char *d = k + strlen("block.");
		const char *dot = strchr(d, '.');
		if (!dot || dot == d)
			continue;
		char *dev = pl_xasprintf("%.*s", (int)(dot - d), d);
		bool dup = false;
		for (size_t j = 0; j < n && !dup; j++)
			dup = strcmp(seen[j], dev) == 0;
		if (dup) {
			free(dev);
			continue;
		}
		seen = pl_xrealloc(seen, (n + 1) * sizeof(*seen));
		seen[n++] = dev;
		enum blk_kind kind = blk_kind(f, dev);
		if (kind != BLK_SKIP)
			fn(r, f, out, dev, kind);
	}
	for (size_t j = 0; j < n; j++)
		free(seen[j]);
	free(seen);
}

static const char *dev_str(const struct pl_facts *f, const char *dev, const char *what)
{
	char key[BLOCK_KEY_MAX];
	snprintf(key, sizeof(key), "block.%s.%s", dev, what);
	return pl_facts_get_str(f, key);
}

static bool dev_int(const struct pl_facts *f, const char *dev, const char *what, int64_t *v)
{
	char key[BLOCK_KEY_MAX];
	snprintf(key, sizeof(key), "block.%s.%s", dev, what);
	return pl_rf_int(f, key, v);
}

static void add_dev(struct pl_findings *out, const struct pl_rule *r, const char *dev,
		    enum blk_kind kind, const char *what, const char *value, const char *expected)
{
	char *obs = pl_xasprintf("%s (%s): %s = %s", dev, kind_names[kind], what, value);
	pl_finding_add(out, r, dev, obs, expected);
	free(obs);
}

static void dev_sched_hdd(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out, const char *dev, enum blk_kind kind)
{
	const char *s = dev_str(f, dev, "queue.scheduler");
	if (kind == BLK_HDD && s && strcmp(s, "none") == 0)
		add_dev(out, r, dev, kind, "scheduler", s, r->expect);
}

static void dev_sched_nvme(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out, const char *dev, enum blk_kind kind)
{
	const char *s = dev_str(f, dev, "queue.scheduler");
	if (kind == BLK_NVME && s && strcmp(s, "none") != 0)
		add_dev(out, r, dev, kind, "scheduler", s, r->expect);
}

static void dev_sched_virt(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out, const char *dev, enum blk_kind kind)
{
	const char *s = dev_str(f, dev, "queue.scheduler");
	if (kind == BLK_VIRT && s && (strcmp(s, "bfq") == 0 || strcmp(s, "kyber") == 0))
		add_dev(out, r, dev, kind, "scheduler", s, r->expect);
}

static void dev_read_ahead(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out, const char *dev, enum blk_kind kind)
{
	int64_t ra;
	if ((kind != BLK_HDD && kind != BLK_VIRT) || !dev_int(f, dev, "queue.read_ahead_kb", &ra) ||
	    ra >= r->limit)
		return;
	char v[32];
	snprintf(v, sizeof(v), "%" PRId64, ra);
	add_dev(out, r, dev, kind, "read_ahead_kb", v, r->expect);
}

static void dev_nr_requests(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out, const char *dev, enum blk_kind kind)
{
	int64_t nr;
	const char *s = dev_str(f, dev, "queue.scheduler");
	if (kind != BLK_HDD || !s || strcmp(s, "none") == 0 ||
	    !dev_int(f, dev, "queue.nr_requests", &nr) || nr >= r->limit)
		return;
	char v[32];
	snprintf(v, sizeof(v), "%" PRId64, nr);
	add_dev(out, r, dev, kind, "nr_requests", v, r->expect);
}

#define EACH(fn)                                                                                   \
	static void eval_##fn(const struct pl_rule *r, const struct pl_facts *f,                   \
			      struct pl_findings *out)                                             \
	{                                                                                          \
		for_each_dev(r, f, out, fn);                                                       \
	}
EACH(dev_sched_hdd)
EACH(dev_sched_nvme)
EACH(dev_sched_virt)
EACH(dev_read_ahead)
EACH(dev_nr_requests)

static const char *const sched_keys[] = { "block.*.queue.scheduler", "block.*.rotational", NULL };
static const char *const ra_keys[] = { "block.*.queue.read_ahead_kb", "block.*.rotational", NULL };
static const char *const nr_keys[] = { "block.*.queue.nr_requests", "block.*.queue.scheduler",
				       "block.*.rotational", NULL };

#define SCHED_SOURCE                                                                               \
	"Red Hat Enterprise Linux 9 'Monitoring and managing system status and performance', "     \
	"'Different disk schedulers for different use cases'; Documentation/block/"                \
	"switching-sched.rst"

/* Evidence: bench io reads a file of the working directory's file system (cold cache),
 * which shows what the device delivers, though not necessarily the finding's device. */
static const char *const io_metrics[] = { "bandwidth", "iops", "latency", NULL };
static const struct pl_evidence io_evidence = {
	.bench = "io",
	.metrics = io_metrics,
	.text = "reading a file of the working directory (cold cache; the device may not be "
		"{subject}): {1}, {2} requests, {3} per request",
};

const struct pl_rule pl_rules_block[] = {
	{
		.id = "block.scheduler-hdd",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = sched_keys,
		.eval = eval_dev_sched_hdd,
		.expect = "mq-deadline (or bfq)",
		.title = "rotational disk has no I/O scheduler",
		.rationale =
			"A spinning disk pays a seek for every out-of-order request; without a "
			"scheduler requests reach it in submission order and concurrent "
			"streams thrash the head. mq-deadline sorts and batches them and bounds "
			"their wait; bfq shares bandwidth fairly for interactive use.",
		.source = SCHED_SOURCE,
		.fix_command = "echo mq-deadline > /sys/block/%s/queue/scheduler",
		.fix_tune = "[disk] devices=%s elevator=mq-deadline",
		.evidence = &io_evidence,
	},
	{
		.id = "block.scheduler-nvme",
		.workloads = PL_WL_STORAGE | PL_WL_THROUGHPUT | PL_WL_LATENCY | PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = sched_keys,
		.eval = eval_dev_sched_nvme,
		.expect = "none",
		.title = "NVMe device uses an I/O scheduler",
		.rationale = "NVMe devices have many hardware queues and no seek cost; a software "
			     "scheduler adds a lock and per-request CPU time and caps the IOPS one "
			     "core can submit. Red Hat recommends none for high-performance SSDs "
			     "and NVMe.",
		.source = SCHED_SOURCE,
		.fix_command = "echo none > /sys/block/%s/queue/scheduler",
		.fix_tune = "[disk] devices=%s elevator=none",
		.evidence = &io_evidence,
	},
	{
		.id = "block.scheduler-virtio",
		.workloads = PL_WL_STORAGE | PL_WL_THROUGHPUT | PL_WL_LATENCY | PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = sched_keys,
		.eval = eval_dev_sched_virt,
		.expect = "mq-deadline or none",
		.title = "virtual disk uses a heavyweight I/O scheduler",
		.rationale = "The host schedules a virtual disk's I/O again against the real "
			     "devices, so bfq's fairness and kyber's latency targets in the guest "
			     "cost CPU without knowing the real queue. Red Hat recommends "
			     "mq-deadline for virtual guests (none is also fine).",
		.source = SCHED_SOURCE,
		.fix_command = "echo mq-deadline > /sys/block/%s/queue/scheduler",
		.fix_tune = "[disk] devices=%s elevator=mq-deadline",
		.evidence = &io_evidence,
	},
	{
		.id = "block.read-ahead",
		.workloads = PL_WL_STORAGE | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = ra_keys,
		.eval = eval_dev_read_ahead,
		.limit = 4096,
		.expect = ">= 4096",
		.title = "read-ahead is small for streaming reads",
		.rationale =
			"Sequential buffered reads are issued in read_ahead_kb chunks (default "
			"128 KiB). On rotational and virtual disks larger read-ahead turns a "
			"stream of small requests into fewer large ones; tuned "
			"throughput-performance raises it to at least 4096 KiB. Not for NVMe "
			"and SSDs with random access, where it only reads unused data.",
		.source = "Documentation/ABI/stable/sysfs-block (read_ahead_kb); tuned "
			  "throughput-performance ([disk] readahead=>4096)",
		.fix_command = "echo 4096 > /sys/block/%s/queue/read_ahead_kb",
		.fix_tune = "[disk] devices=%s readahead=>4096",
		.evidence = &io_evidence,
	},
	{
		.id = "block.nr-requests",
		.workloads = PL_WL_STORAGE | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = nr_keys,
		.eval = eval_dev_nr_requests,
		.limit = 256,
		.expect = ">= 256",
		.title = "request queue of a rotational disk is short",
		.rationale =
			"nr_requests is how many requests the scheduler may hold per queue; a "
			"deeper queue gives mq-deadline more requests to sort and merge into "
			"sequential runs on a spinning disk, at the cost of longer waits for "
			"single requests. The SPEC CPU field report tuned it with read_ahead_kb.",
		.source = "Documentation/ABI/stable/sysfs-block (nr_requests); Red Hat Enterprise "
			  "Linux 7 Performance Tuning Guide, 'Tuning the deadline scheduler' / "
			  "nr_requests",
		.fix_command = "echo 256 > /sys/block/%s/queue/nr_requests",
		.fix_tune = "[disk] devices=%s nr_requests=256",
	},
};
const size_t pl_rules_block_n = sizeof(pl_rules_block) / sizeof(pl_rules_block[0]);
