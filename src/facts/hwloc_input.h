/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What we hand hwloc in sysroot mode: a sanitized copy of the sysfs files its Linux
 * backend reads for CPUs, caches and NUMA nodes, made through the sysroot helper. hwloc
 * reads HWLOC_FSROOT with plain open() and trusts the content: a FIFO blocks it forever,
 * a reversed node list ("5-2") trips an assertion, a cache map symlinked to /dev/zero or a
 * multi-MB cpumask makes it allocate GBs. The copy holds only regular files within the
 * helper's size cap whose content has been validated, so a bad tree becomes an
 * unavailable topology with a reason instead. */
#ifndef PERFLAB_FACTS_HWLOC_INPUT_H
#define PERFLAB_FACTS_HWLOC_INPUT_H
#include <limits.h>
#include <stddef.h>

/** A sanitized topology tree on disk (a temporary directory). */
struct pl_hwloc_input {
	char dir[PATH_MAX]; /**< the copy's root, for HWLOC_FSROOT; "" when none */
};

/** Longest cpumask text accepted (bytes): PL_MAX_CPUS bits in 32-bit hex words with
 *  commas, plus slack for leading zero words. */
#define PL_HWLOC_MASK_MAX 4096

/** Copy and validate, from the current sysroot: /sys/devices/system/cpu/{online,possible,
 *  present,kernel_max}, each cpuN's topology/ (masks and ids), cache/indexK/ (level,
 *  type, size, geometry, shared_cpu_map), online, cpu_capacity and cpufreq max/base
 *  frequencies, /sys/devices/system/node/{online,possible,has_*} and nodeN/cpumap, plus
 *  the /sys/bus/{cpu,node}/devices links. Lists must parse as cpulists below PL_MAX_CPUS
 *  (no reversed ranges), masks as hex masks of at most PL_HWLOC_MASK_MAX bytes, ids and
 *  sizes as bounded numbers. A missing file is left out (hwloc copes, as with a real
 *  kernel that lacks it); an unreadable or invalid one fails the whole copy, except the
 *  frequency and capacity hints, which are dropped. Returns 0 with @in filled (remove it
 *  with pl_hwloc_input_remove()), or -errno with a one-line reason naming the file in
 *  @why (size @whylen); nothing is left on disk on error. The copy is made in $TMPDIR,
 *  else /dev/shm, else /tmp, as perflab-hwloc.XXXXXX. */
int pl_hwloc_input_make(struct pl_hwloc_input *in, char *why, size_t whylen);

/** Remove the copy made by pl_hwloc_input_make() (recursively, never following links).
 *  Safe on a zeroed or already removed @in. */
void pl_hwloc_input_remove(struct pl_hwloc_input *in);

#endif
