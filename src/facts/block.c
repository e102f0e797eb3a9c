/* SPDX-License-Identifier: GPL-3.0-or-later */
/* block.DEV.*: per-device queue settings (Documentation/ABI/stable/sysfs-block,
 * Documentation/block/queue-sysfs.rst). Loop, RAM and optical devices are skipped: no
 * tuning guide cares about their queues. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

static bool skipped(const char *dev)
{
	static const char *const prefixes[] = { "loop", "ram", "sr", "fd", "zram", "nbd", NULL };
	for (const char *const *p = prefixes; *p; p++)
		if (pl_startswith(dev, *p))
			return true;
	return false;
}

/* Room for "block." or "/sys/block/", a directory entry of up to NAME_MAX bytes and the
 * longest suffix below, so no device name the kernel (or a fixture tree) can give is
 * truncated into another device's key. */
enum { BLOCK_KEY_MAX = sizeof("/sys/block/") + NAME_MAX + sizeof("/queue/read_ahead_kb") };

static void collect_dev(struct pl_facts *f, const char *dev)
{
	char key[BLOCK_KEY_MAX], path[BLOCK_KEY_MAX], *s;
	int64_t v;
	int r;

	snprintf(key, sizeof(key), "block.%s.rotational", dev);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", dev);
	if ((r = pl_read_i64(path, &v)) == 0 && (v == 0 || v == 1))
		pl_fact_bool(f, key, v == 1, path);
	else
		pl_fact_unavailable(f, key, "%s: %s", path, r ? pl_read_strerror(r) : "not 0 or 1");

	snprintf(key, sizeof(key), "block.%s.size_bytes", dev);
	snprintf(path, sizeof(path), "/sys/block/%s/size", dev);
	if ((r = pl_read_i64(path, &v)) == 0 && v >= 0 && v <= INT64_MAX / 512)
		pl_fact_int(f, key, v * 512, path); /* always 512-byte sectors (sysfs-block) */
	else
		pl_fact_unavailable(f, key, "%s: %s", path,
				    r	    ? pl_read_strerror(r)
				    : v < 0 ? "negative"
					    : "out of range");

	snprintf(key, sizeof(key), "block.%s.queue.scheduler", dev);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", dev);
	if ((r = pl_read_str(path, &s)) == 0) {
		json_t *all;
		char *active = pl_parse_bracket_list(s, &all);
		/* "none" alone (no brackets) means the device has no elevator at all */
		if (!active && json_array_size(all) == 1)
			active = pl_xstrdup(json_string_value(json_array_get(all, 0)));
		if (active)
			pl_fact_str(f, key, active, path);
		else
			pl_fact_unavailable(f, key, "%s: no [selected] entry in '%.60s'", path, s);
		snprintf(key, sizeof(key), "block.%s.queue.schedulers", dev);
		pl_fact_set(f, key, all, path);
		free(active);
		free(s);
	} else {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
	}

	snprintf(key, sizeof(key), "block.%s.queue.read_ahead_kb", dev);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb", dev);
	pl_fact_from_file_uint(f, key, path);
	snprintf(key, sizeof(key), "block.%s.queue.nr_requests", dev);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/nr_requests", dev);
	pl_fact_from_file_uint(f, key, path);
}

void pl_collect_block(struct pl_facts *f)
{
	char **devs;
	int r = pl_list_dir("/sys/block", &devs, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "block.devices", "/sys/block: %s", pl_read_strerror(r));
		return;
	}
	json_t *list = json_array();
	for (char **d = devs; *d; d++) {
		if (skipped(*d) || strchr(*d, '.'))
			continue;
		json_array_append_new(list, pl_json_string(*d));
		collect_dev(f, *d);
	}
	pl_fact_set(f, "block.devices", list, "/sys/block");
	pl_strv_free(devs);
}
