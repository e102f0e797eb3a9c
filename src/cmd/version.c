/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab --version [--json]: the version (first line "perflab X.Y.Z", which scripts
 * parse), the commit it was built from, the build type, the libraries built in (all of
 * them required by meson.build, with the versions pkg-config gave), and the optional
 * parts found at run time: perflab-mpi (beside perflab, else in PATH), NVML (the
 * monitor's dlopen of libnvidia-ml.so.1 and nvmlInit_v2) and QAT (bench compress's
 * check: a device bound to a qat driver and a working QATzip). The JSON document is
 * docs/schemas/version.schema.json. */
#include "cmd/version.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/compress/backends.h"
#include "cmd/commit.h"
#include "config.h"
#include "monitor/accel.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

/* One optional part at run time: found (with where or what), or why not. */
struct part {
	const char *name;
	bool found;
	char detail[512]; /* the path or library when found, else the reason */
};

/* perflab-mpi beside this executable (/proc/self/exe's directory), else in PATH. */
static void find_mpi(struct part *p)
{
	p->name = "perflab-mpi";
	pl_autofree char *self = NULL;
	if (pl_readlink("/proc/self/exe", &self) == 0 && strrchr(self, '/')) {
		*strrchr(self, '/') = '\0';
		snprintf(p->detail, sizeof(p->detail), "%s/perflab-mpi", self);
		if (access(p->detail, X_OK) == 0) {
			p->found = true;
			return;
		}
	}
	const char *path = getenv("PATH");
	pl_autostrv char **dirs = pl_split(path ? path : "", ":", NULL);
	for (size_t i = 0; dirs && dirs[i]; i++) {
		if (!dirs[i][0])
			continue;
		snprintf(p->detail, sizeof(p->detail), "%s/perflab-mpi", dirs[i]);
		if (access(p->detail, X_OK) == 0) {
			p->found = true;
			return;
		}
	}
	snprintf(p->detail, sizeof(p->detail), "%s",
		 PERFLAB_MPI_BUILT ? "neither beside perflab nor in PATH"
				   : "not built (meson found no MPI)");
}

static void find_nvml(struct part *p)
{
	p->name = "nvml";
	const char *why = NULL;
	p->found = pl_mon_nvml_available(&why);
	snprintf(p->detail, sizeof(p->detail), "%s",
		 p->found ? "libnvidia-ml.so.1" : (why ? why : "not loadable"));
	pl_mon_nvml_close();
}

static void find_qat(struct part *p)
{
	p->name = "qat";
	const struct pl_cz_backend *b = pl_cz_find("qat");
	const char *why = b ? b->unavailable() : "no QAT backend in this build";
	p->found = !why;
	snprintf(p->detail, sizeof(p->detail), "%s", why ? why : "QATzip (libqatzip.so.3)");
}

static json_t *json_doc(const struct part *parts, size_t n)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(d, "commit", pl_json_string(PERFLAB_COMMIT));
	json_object_set_new(d, "build_type", pl_json_string(PERFLAB_BUILDTYPE));
	json_t *with = json_array();
	pl_autostrv char **libs = pl_split(PERFLAB_BUILT_WITH, ",", NULL);
	for (size_t i = 0; libs && libs[i]; i++) {
		json_t *l = json_object();
		char *name = pl_trim(libs[i]), *sp = strchr(name, ' ');
		if (sp)
			*sp = '\0';
		json_object_set_new(l, "name", pl_json_string(name));
		json_object_set_new(l, "version", sp ? pl_json_string(sp + 1) : json_null());
		json_array_append_new(with, l);
	}
	json_object_set_new(d, "built_with", with);
	json_object_set_new(d, "mpi_built", json_boolean(PERFLAB_MPI_BUILT));
	json_t *rt = json_object();
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "found", json_boolean(parts[i].found));
		json_object_set_new(p, parts[i].found ? "where" : "reason",
				    pl_json_string(parts[i].detail));
		json_object_set_new(rt, parts[i].name, p);
	}
	json_object_set_new(d, "run_time", rt);
	return d;
}

int pl_version_print(bool json)
{
	struct part parts[3] = { 0 };
	find_mpi(&parts[0]);
	find_nvml(&parts[1]);
	find_qat(&parts[2]);
	if (json) {
		json_t *d = json_doc(parts, 3);
		int r = pl_json_write(stdout, d);
		json_decref(d);
		return r < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	}
	printf("perflab %s\n", PERFLAB_VERSION);
	printf("commit: %s\n", PERFLAB_COMMIT);
	printf("build type: %s\n", PERFLAB_BUILDTYPE);
	printf("built with: %s\n", PERFLAB_BUILT_WITH);
	printf("perflab-mpi built: %s\n", PERFLAB_MPI_BUILT ? "yes" : "no");
	printf("found at run time:\n");
	static const char *const label[] = { "perflab-mpi", "NVML", "QAT" };
	for (size_t i = 0; i < 3; i++)
		printf("  %-12s %s (%s)\n", label[i], parts[i].found ? "yes" : "no",
		       parts[i].detail);
	return PL_EXIT_OK;
}
