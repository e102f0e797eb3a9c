/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fs.*: tmpfs mounts from /proc/mounts (fstab(5) format, octal escapes for blanks), each
 * mount point once, as its last mount shows it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
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
	/* A mount point mounted twice (this project's VMs list /dev/shm twice) or mounted
	 * over is what its last mount is, as the kernel resolves the path: keep each tmpfs
	 * mount point once, where its last mount is, and only when that mount is tmpfs. */
	json_t *list = json_array();
	char **lines = pl_split(text, "\n", NULL);
	size_t n = 0;
	for (char **l = lines; *l; l++)
		n++;
	char **mp = pl_xcalloc(n + 1, sizeof(char *));
	bool *tmpfs = pl_xcalloc(n + 1, sizeof(bool));
	for (size_t i = 0; i < n; i++) {
		char **w = pl_split(lines[i], " \t", NULL);
		if (w[0] && w[1] && w[2]) {
			unescape(w[1]);
			mp[i] = pl_xstrdup(w[1]);
			tmpfs[i] = strcmp(w[2], "tmpfs") == 0;
		}
		pl_strv_free(w);
	}
	for (size_t i = 0; i < n; i++) {
		bool last = mp[i] != NULL;
		for (size_t k = i + 1; last && k < n; k++)
			if (mp[k] && strcmp(mp[k], mp[i]) == 0)
				last = false;
		if (last && tmpfs[i])
			json_array_append_new(list, pl_json_string(mp[i]));
	}
	for (size_t i = 0; i < n; i++)
		free(mp[i]);
	free(mp);
	free(tmpfs);
	pl_strv_free(lines);
	free(text);
	pl_fact_set(f, "fs.tmpfs.mounts", list, "/proc/mounts");
}
