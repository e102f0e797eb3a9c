/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuid for the collectors: executed on the live system (x86 only), read from the
 * snapshot file /perflab-live/cpuid through the sysroot helper otherwise, and recorded
 * into that file while a snapshot records (docs/snapshot.md "perflab-live/cpuid"). A
 * fixture tree without the file has no cpuid (docs/ARCHITECTURE.md, sysroot trap 1). */
#ifndef PERFLAB_FACTS_CPUID_H
#define PERFLAB_FACTS_CPUID_H
#include <stdbool.h>

/** The snapshot file of the cpuid leaves a collector executed. */
#define PL_CPUID_FILE "/perflab-live/cpuid"

/** True when pl_cpuid() has something to answer from: the live system on x86, or a
 *  sysroot with a readable PL_CPUID_FILE. */
bool pl_cpuid_available(void);
/** cpuid leaf @leaf, subleaf @sub into @r (EAX, EBX, ECX, EDX). Live: the instruction on
 *  the CPU this runs on (recorded while a snapshot records); sysroot: the line of
 *  PL_CPUID_FILE for (@leaf, @sub), all zero when it has none. Returns false (and @r all
 *  zero) when pl_cpuid_available() is false. */
bool pl_cpuid(unsigned leaf, unsigned sub, unsigned r[4]);

#endif
