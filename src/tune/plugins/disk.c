/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [disk]: the block queue settings elevator, readahead, readahead_multiply and
 * nr_requests per disk of devices= (tuned's disk plugin). */
#include "tune/plugins/plugin.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* The readahead value to decide with (KiB, a leading '>'/'<' kept), as tuned's disk
 * plugin reads it (_parse_ra after _process_assignment_modifiers): "N", or "N WORD" where
 * a WORD starting with 's' means 512-byte sectors (halved, rounded down) and any other
 * WORD is ignored; ">N"/"<N" only with a plain integer N (">8192 s" is not a modifier
 * for tuned, then not a number: it writes nothing). NULL for anything else. Malloc'd. */
static char *readahead_value(const char *v)
{
	char op = v[0] == '>' || v[0] == '<' ? v[0] : 0;
	pl_autofree char *t = pl_xstrdup(op ? v + 1 : v);
	char *num = pl_trim(t);
	uint64_t n;
	if (op)
		return *num && strspn(num, "0123456789") == strlen(num) &&
				       pl_parse_u64(num, &n) == 0
			       ? pl_xasprintf("%c%llu", op, (unsigned long long)n)
			       : NULL;
	size_t dl = strspn(num, "0123456789");
	if (dl == 0 || (num[dl] && !isspace((unsigned char)num[dl])))
		return NULL;
	char *word = num + dl;
	while (isspace((unsigned char)*word))
		*word++ = '\0';
	if (pl_parse_u64(num, &n) < 0)
		return NULL;
	return pl_xasprintf("%llu", (unsigned long long)(word[0] == 's' ? n / 2 : n));
}

/* Whether tuned's disk plugin tunes block device @name at all, whatever devices= says
 * (DiskPlugin._device_is_supported, tuned 2.20): not removable (/sys/block/NAME/removable
 * is "0"), and either virtual (no device link) or on a scsi, virtio, xen or nvme parent
 * (the subsystem link of /sys/block/NAME/device). A CD drive or an SD card is never tuned. */
static bool disk_supported(const char *name)
{
	pl_autofree char *rem_path = pl_xasprintf("/sys/block/%s/removable", name);
	pl_autofree char *rem = NULL;
	if (pl_read_file(rem_path, &rem, NULL) == 0 && strcmp(pl_trim(rem), "0") != 0)
		return false;
	pl_autofree char *link = pl_xasprintf("/sys/block/%s/device/subsystem", name);
	pl_autofree char *target = NULL;
	if (pl_readlink(link, &target) < 0)
		return true;
	const char *sub = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	return strcmp(sub, "scsi") == 0 || strcmp(sub, "virtio") == 0 || strcmp(sub, "xen") == 0 ||
	       strcmp(sub, "nvme") == 0;
}

int pl_tune_plugin_disk(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
{
	static const char *const skip[] = { "loop", "ram", "zram", "sr", "fd", "dm-", "md", NULL };
	char **devs = pl_tune_devices(u, "/sys/block", "^[a-zA-Z]", skip, &c->taken_disk);
	size_t nd = 0;
	for (size_t k = 0; devs[k]; k++) {
		if (disk_supported(devs[k]))
			devs[nd++] = devs[k];
		else
			free(devs[k]);
	}
	devs[nd] = NULL;
	int r = 0;
	for (size_t i = 0; i < u->opts.n && r == 0; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = pl_tune_opt_value(o);
		const char *file = NULL;
		char *want = NULL, *ra_first = NULL;
		double mult = -1;
		if (strcmp(o->key, "elevator") == 0) {
			file = "scheduler";
		} else if (strcmp(o->key, "readahead") == 0) {
			file = "read_ahead_kb";
			want = readahead_value(v);
			if (!want) {
				r = pl_tune_bad_value(
					c, u, o,
					"is not a readahead tuned accepts ('N' KiB, 'N s' for "
					"512-byte sectors, '>N', '<N'; tuned writes nothing "
					"for it)");
				break;
			}
		} else if (strcmp(o->key, "readahead_multiply") == 0) {
			/* tuned: the readahead becomes int(F * current) KiB (after a readahead=
			 * of the same unit, which tuned applies first). */
			file = "read_ahead_kb";
			char *end;
			errno = 0;
			mult = strtod(v, &end);
			if (errno || end == v || *end || !(mult >= 0) || mult > 1e6) {
				r = pl_tune_bad_value(c, u, o, "is not a factor (a number >= 0)");
				break;
			}
			const struct pl_tune_opt *ra = pl_tune_opts_get(&u->opts, "readahead");
			ra_first = ra ? readahead_value(pl_tune_opt_value(ra)) : NULL;
		} else if (strcmp(o->key, "nr_requests") == 0) {
			file = "nr_requests";
			uint64_t n;
			if ((r = pl_tune_check_modifier(c, u, o)) < 0)
				break;
			if (v[0] != '>' && v[0] != '<' && pl_parse_u64(v, &n) < 0) {
				r = pl_tune_bad_value(c, u, o, "is not a number of requests");
				break;
			}
		} else {
			struct pl_tune_item *it = pl_tune_add_item(c, "disk", u, o, NULL);
			pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
					   "[disk] option '%s' is not supported by perflab",
					   o->key);
			continue;
		}
		if (!devs[0]) {
			struct pl_tune_item *it = pl_tune_add_item(c, "disk", u, o, NULL);
			pl_tune_set_reason(
				it, PL_TI_NA,
				"no disk matches devices=%s that an earlier [disk] unit did not "
				"take (tuned gives each disk to one unit)",
				u->devices);
		}
		for (size_t k = 0; devs[k]; k++) {
			struct pl_tune_item *it = pl_tune_add_item(c, "disk", u, o, devs[k]);
			it->target = pl_xasprintf("/sys/block/%s/queue/%s", devs[k], file);
			if (!pl_tune_read_current(it, "no such queue setting for this device"))
				continue;
			uint64_t base;
			if (strcmp(file, "scheduler") == 0) {
				pl_tune_decide_alt(it, v, NULL,
						   "none of these schedulers is offered");
			} else if (mult >= 0) {
				const char *b = ra_first && isdigit((unsigned char)ra_first[0])
							? ra_first
							: it->current;
				if (pl_parse_u64(b, &base) < 0) {
					pl_tune_set_reason(it, PL_TI_NA,
							   "the readahead '%s' is not a number", b);
					continue;
				}
				pl_autofree char *n = pl_xasprintf(
					"%llu", (unsigned long long)(mult * (double)base));
				pl_tune_decide(it, n);
			} else {
				pl_tune_decide(it, want ? want : v);
			}
		}
		free(want);
		free(ra_first);
	}
	pl_strv_free(devs);
	return r;
}
