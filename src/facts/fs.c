/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fs.*: tmpfs mounts from /proc/mounts (fstab(5) format, octal escapes for blanks). */
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "out/json.h"
#include "util/str.h"
#include "util/sysroot.h"

/* Undo the \040-style escapes of /proc/mounts in place. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r;) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

void pl_collect_fs(struct pl_facts *f)
{
	char *text;
	int r = pl_read_file("/proc/mounts", &text, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "fs.tmpfs.mounts", "/proc/mounts: %s", pl_read_strerror(r));
		return;
	}
	json_t *list = json_array();
	char **lines = pl_split(text, "\n", NULL);
	for (char **l = lines; *l; l++) {
		char **w = pl_split(*l, " \t", NULL);
		if (w[0] && w[1] && w[2] && strcmp(w[2], "tmpfs") == 0) {
			unescape(w[1]);
			json_array_append_new(list, pl_json_string(w[1]));
		}
		pl_strv_free(w);
	}
	pl_strv_free(lines);
	free(text);
	pl_fact_set(f, "fs.tmpfs.mounts", list, "/proc/mounts");
}
