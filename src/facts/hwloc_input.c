/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "facts/hwloc_input.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/escape.h"
#include "util/str.h"
#include "util/sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define NODE_DIR "/sys/devices/system/node"

/* How a file's first line must look. */
enum kind {
	K_LIST, /* cpulist "0-3,8", every number < PL_MAX_CPUS, no reversed range */
	K_MASK, /* hex cpumask "ff,00000001" of at most PL_HWLOC_MASK_MAX bytes */
	K_ID,	/* an integer -1 .. INT32_MAX (package, core, die, cluster ids, online, level) */
	K_SIZE, /* a cache size: a number with an optional K, M or G, below 2^40 bytes */
	K_TYPE, /* Data, Instruction or Unified */
	K_HINT, /* an unsigned number; dropped (not fatal) when bad */
};

struct ctx {
	struct pl_hwloc_input *in;
	char *why;
	size_t whylen;
	char made[PATH_MAX]; /* the directory mkdirs() made last: most files share it */
};

static int fail(struct ctx *c, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct ctx *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, c->whylen, fmt, ap);
	va_end(ap);
	return err;
}

static bool valid(enum kind k, const char *s)
{
	struct pl_cpuset set;
	int64_t v;
	switch (k) {
	case K_LIST:
		return pl_cpuset_parse(s, &set) == 0;
	case K_MASK:
		return strlen(s) <= PL_HWLOC_MASK_MAX && pl_cpuset_parse_mask(s, &set) == 0;
	case K_ID:
		return pl_parse_i64(s, &v) == 0 && v >= -1 && v <= INT32_MAX;
	case K_SIZE: {
		size_t n = strspn(s, "0123456789");
		uint64_t u;
		if (n == 0 || n > 12 || (s[n] && strchr("KMG", s[n]) == NULL) || (s[n] && s[n + 1]))
			return false;
		char num[16];
		memcpy(num, s, n);
		num[n] = '\0';
		return pl_parse_u64(num, &u) == 0;
	}
	case K_TYPE:
		return strcmp(s, "Data") == 0 || strcmp(s, "Instruction") == 0 ||
		       strcmp(s, "Unified") == 0;
	case K_HINT: {
		uint64_t u;
		return pl_parse_u64(s, &u) == 0 && u <= INT32_MAX;
	}
	}
	return false;
}

/* mkdir -p of @rel (starting with '/') inside the copy. */
static int mkdirs(struct ctx *c, const char *rel)
{
	if (strcmp(rel, c->made) == 0)
		return 0;
	char p[PATH_MAX];
	int n = snprintf(p, sizeof(p), "%s%s", c->in->dir, rel);
	if (n < 0 || (size_t)n >= sizeof(p))
		return -ENAMETOOLONG;
	for (char *s = p + strlen(c->in->dir) + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char save = *s;
		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = save;
		if (!save)
			break;
	}
	snprintf(c->made, sizeof(c->made), "%s", rel);
	return 0;
}

static int write_copy(struct ctx *c, const char *abs, const char *text)
{
	char dir[PATH_MAX], p[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", abs);
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	int r = mkdirs(c, dir);
	if (r < 0)
		return fail(c, r, "cannot make a copy of %s for hwloc: %s", abs, strerror(-r));
	if ((size_t)snprintf(p, sizeof(p), "%s%s", c->in->dir, abs) >= sizeof(p))
		return fail(c, -ENAMETOOLONG, "%s: path too long", abs);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(c, -errno, "cannot make a copy of %s for hwloc: %s", abs,
			    strerror(errno));
	size_t len = strlen(text);
	bool ok = write(fd, text, len) == (ssize_t)len && write(fd, "\n", 1) == 1;
	int e = errno;
	close(fd);
	if (!ok)
		return fail(c, -(e ? e : EIO), "cannot write a copy of %s for hwloc", abs);
	return 0;
}

/* Copy the file @abs of kind @k: 0 when copied or absent, -errno with the reason set. */
static int copy(struct ctx *c, enum kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int copy(struct ctx *c, enum kind k, const char *fmt, ...)
{
	char abs[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(abs, sizeof(abs), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(abs))
		return fail(c, -ENAMETOOLONG, "path too long under %s", CPU_DIR);
	pl_autofree char *buf = NULL;
	int r = pl_read_file(abs, &buf, NULL);
	if (r == -ENOENT || (r < 0 && k == K_HINT))
		return 0;
	if (r < 0)
		return fail(c, r, "%s: %s", abs, pl_read_strerror(r));
	buf[strcspn(buf, "\n")] = '\0';
	char *t = pl_trim(buf);
	if (!valid(k, t)) {
		static const char *const what[] = { "a CPU list",   "a CPU mask",   "an id",
						    "a cache size", "a cache type", "a number" };
		if (k == K_HINT)
			return 0;
		pl_autofree char *shown = pl_str_escape(t, PL_ESC_TERM);
		return fail(c, -EINVAL, "%s: not %s: '%.40s%s'", abs, what[k], shown,
			    strlen(shown) > 40 ? "..." : "");
	}
	return write_copy(c, abs, t);
}

/* Numbers N of the entries named PREFIX<N> of @dir, ascending, below PL_MAX_CPUS. */
static int numbered(const char *dir, const char *prefix, struct pl_cpuset *out)
{
	char **names;
	pl_cpuset_clear(out);
	int r = pl_list_dir(dir, &names, NULL);
	if (r < 0)
		return r;
	size_t pl = strlen(prefix);
	for (char **n = names; *n; n++) {
		uint64_t k;
		const char *d = *n + pl;
		if (strncmp(*n, prefix, pl) == 0 && *d >= '0' && *d <= '9' &&
		    strspn(d, "0123456789") == strlen(d) && pl_parse_u64(d, &k) == 0 &&
		    k < PL_MAX_CPUS)
			pl_cpuset_set(out, (unsigned)k);
	}
	pl_strv_free(names);
	return 0;
}

static int link_copy(struct ctx *c, const char *bus, const char *name, const char *target)
{
	char dir[PATH_MAX], p[PATH_MAX];
	snprintf(dir, sizeof(dir), "/sys/bus/%s/devices", bus);
	int r = mkdirs(c, dir);
	if (r < 0)
		return fail(c, r, "cannot make %s for hwloc: %s", dir, strerror(-r));
	if ((size_t)snprintf(p, sizeof(p), "%s%s/%s", c->in->dir, dir, name) >= sizeof(p) ||
	    symlink(target, p) < 0)
		return fail(c, -errno, "cannot link %s/%s for hwloc", dir, name);
	return 0;
}

static int copy_cpu(struct ctx *c, unsigned cpu)
{
	static const char *const masks[] = { "core_cpus",     "core_siblings",	 "thread_siblings",
					     "package_cpus",  "die_cpus",	 "cluster_cpus",
					     "book_siblings", "drawer_siblings", NULL };
	static const char *const ids[] = {
		"physical_package_id", "core_id", "die_id", "cluster_id", "book_id",
		"drawer_id",	       NULL
	};
	static const char *const cache_ids[] = { "level",
						 "coherency_line_size",
						 "number_of_sets",
						 "physical_line_partition",
						 "ways_of_associativity",
						 "id",
						 NULL };
	int r = 0;
	char base[64];
	snprintf(base, sizeof(base), CPU_DIR "/cpu%u", cpu);
	/* hwloc needs the directory even for a CPU without topology files */
	if ((r = mkdirs(c, base)) < 0)
		return fail(c, r, "cannot make %s for hwloc: %s", base, strerror(-r));
	for (const char *const *m = masks; !r && *m; m++)
		r = copy(c, K_MASK, "%s/topology/%s", base, *m);
	for (const char *const *m = ids; !r && *m; m++)
		r = copy(c, K_ID, "%s/topology/%s", base, *m);
	if (!r)
		r = copy(c, K_ID, "%s/online", base);
	if (!r)
		r = copy(c, K_HINT, "%s/cpu_capacity", base);
	if (!r)
		r = copy(c, K_HINT, "%s/cpufreq/cpuinfo_max_freq", base);
	if (!r)
		r = copy(c, K_HINT, "%s/cpufreq/base_frequency", base);
	char cdir[96];
	snprintf(cdir, sizeof(cdir), "%s/cache", base);
	struct pl_cpuset idx;
	if (r || numbered(cdir, "index", &idx) < 0)
		return r;
	for (int i = pl_cpuset_next(&idx, 0); !r && i >= 0;
	     i = pl_cpuset_next(&idx, (unsigned)i + 1)) {
		for (const char *const *m = cache_ids; !r && *m; m++)
			r = copy(c, K_ID, "%s/index%d/%s", cdir, i, *m);
		if (!r)
			r = copy(c, K_SIZE, "%s/index%d/size", cdir, i);
		if (!r)
			r = copy(c, K_TYPE, "%s/index%d/type", cdir, i);
		if (!r)
			r = copy(c, K_MASK, "%s/index%d/shared_cpu_map", cdir, i);
	}
	return r;
}

static int copy_all(struct ctx *c)
{
	static const char *const cpu_lists[] = { "online", "possible", "present", NULL };
	static const char *const node_lists[] = { "online",	"possible",	     "has_cpu",
						  "has_memory", "has_normal_memory", NULL };
	int r = 0;
	for (const char *const *l = cpu_lists; !r && *l; l++)
		r = copy(c, K_LIST, CPU_DIR "/%s", *l);
	if (!r)
		r = copy(c, K_ID, CPU_DIR "/kernel_max");
	struct pl_cpuset cpus;
	if (r || (r = numbered(CPU_DIR, "cpu", &cpus)) < 0)
		return r < 0 && !*c->why ? fail(c, r, CPU_DIR ": %s", pl_read_strerror(r)) : r;
	for (int i = pl_cpuset_next(&cpus, 0); !r && i >= 0;
	     i = pl_cpuset_next(&cpus, (unsigned)i + 1)) {
		char name[32], target[64];
		snprintf(name, sizeof(name), "cpu%d", i);
		snprintf(target, sizeof(target), "../../../devices/system/cpu/cpu%d", i);
		r = copy_cpu(c, (unsigned)i);
		if (!r)
			r = link_copy(c, "cpu", name, target);
	}
	struct pl_cpuset nodes;
	if (r || numbered(NODE_DIR, "node", &nodes) < 0)
		return r;
	for (const char *const *l = node_lists; !r && *l; l++)
		r = copy(c, K_LIST, NODE_DIR "/%s", *l);
	for (int i = pl_cpuset_next(&nodes, 0); !r && i >= 0;
	     i = pl_cpuset_next(&nodes, (unsigned)i + 1)) {
		char name[32], target[64];
		snprintf(name, sizeof(name), "node%d", i);
		snprintf(target, sizeof(target), "../../../devices/system/node/node%d", i);
		r = copy(c, K_MASK, NODE_DIR "/node%d/cpumap", i);
		if (!r) {
			char d[64];
			snprintf(d, sizeof(d), NODE_DIR "/node%d", i);
			if ((r = mkdirs(c, d)) < 0)
				r = fail(c, r, "cannot make %s for hwloc: %s", d, strerror(-r));
		}
		if (!r)
			r = link_copy(c, "node", name, target);
	}
	return r;
}

int pl_hwloc_input_make(struct pl_hwloc_input *in, char *why, size_t whylen)
{
	struct ctx c = { in, why, whylen, "" };
	why[0] = '\0';
	/* TMPDIR, else /dev/shm (tmpfs: a thousand small files cost 10x less than on a
	 * disk), else /tmp */
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	if ((size_t)snprintf(in->dir, sizeof(in->dir), "%s/perflab-hwloc.XXXXXX", tmp) >=
	    sizeof(in->dir)) {
		in->dir[0] = '\0';
		return fail(&c, -ENAMETOOLONG, "TMPDIR is too long for hwloc's input copy");
	}
	if (!mkdtemp(in->dir)) {
		int e = errno;
		in->dir[0] = '\0';
		return fail(&c, -e, "cannot make a directory in %s for hwloc's input: %s", tmp,
			    strerror(e));
	}
	int r = copy_all(&c);
	if (r < 0)
		pl_hwloc_input_remove(in);
	return r;
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void pl_hwloc_input_remove(struct pl_hwloc_input *in)
{
	if (!in || !in->dir[0])
		return;
	nftw(in->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	in->dir[0] = '\0';
}
