/* SPDX-License-Identifier: GPL-3.0-or-later */
/* virt.hypervisor: which hypervisor runs this machine, from (in order of trust)
 * /sys/hypervisor/type (Xen), a paravirtual clocksource the kernel registered (kvm-clock,
 * xen, hyperv_*), the CPUID hypervisor leaf 0x40000000 (live, or a snapshot's readings),
 * DMI sys_vendor/product_name, and the cpuinfo "hypervisor" flag (x86 CPUID.1:ECX[31], set
 * by every x86 hypervisor: "unknown" when nothing names it). Same evidence
 * systemd-detect-virt uses. A Firecracker guest has no DMI: only cpuid names KVM. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "facts/collectors.h"
#include "facts/cpuid.h"
#include "util/str.h"
#include "util/sysroot.h"

static const struct {
	const char *needle; /* substring of DMI sys_vendor or product_name */
	const char *name;
} dmi_map[] = {
	{ "QEMU", "kvm" },
	{ "KVM", "kvm" },
	{ "Amazon EC2", "kvm" },
	{ "Google", "kvm" },
	{ "VMware", "vmware" },
	{ "Microsoft Corporation", "hyperv" },
	{ "Xen", "xen" },
	{ "innotek", "virtualbox" },
	{ "VirtualBox", "virtualbox" },
	{ "Parallels", "parallels" },
	{ "Bochs", "bochs" },
	{ "OpenStack", "kvm" },
};

static const char *dmi_lookup(const char *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < sizeof(dmi_map) / sizeof(dmi_map[0]); i++)
		if (strcasestr(s, dmi_map[i].needle))
			return dmi_map[i].name;
	return NULL;
}

/* Hypervisor vendor signatures at CPUID leaf 0x40000000 (EBX, ECX, EDX), as
 * systemd-detect-virt and the kernel's arch/x86/kernel/cpu/hypervisor.c know them. */
static const struct {
	const char *sig;
	const char *name;
} cpuid_map[] = {
	{ "KVMKVMKVM", "kvm" },		  { "XenVMMXenVMM", "xen" },
	{ "VMwareVMware", "vmware" },	  { "Microsoft Hv", "hyperv" },
	{ "TCGTCGTCGTCG", "qemu" },	  { "bhyve bhyve ", "bhyve" },
	{ " lrpepyh  vr", "parallels" },  { "ACRNACRNACRN", "acrn" },
	{ "VBoxVBoxVBox", "virtualbox" }, { "QNXQVMBSQG", "qnx" },
	{ "SRESRESRESRE", "sre" },	  { "EVMMEVMMEVMM", "evmm" },
};

static void cpuid_sig(unsigned leaf, char sig[13])
{
	unsigned r[4];
	pl_cpuid(leaf, 0, r);
	memcpy(sig, &r[1], 4);
	memcpy(sig + 4, &r[2], 4);
	memcpy(sig + 8, &r[3], 4);
	sig[12] = '\0';
}

/* The hypervisor signature, or false when CPUID.1:ECX[31] (hypervisor present) is clear
 * or there is no cpuid to ask (facts/cpuid.h: the live CPU, or a snapshot's readings). */
static bool cpuid_hypervisor(char sig[13])
{
	unsigned r[4];
	if (!pl_cpuid_available() || !pl_cpuid(0, 0, r) || r[0] < 1 || !pl_cpuid(1, 0, r) ||
	    !(r[2] & (1u << 31)))
		return false;
	cpuid_sig(0x40000000, sig);
	/* KVM and Xen with Hyper-V enlightenments put "Microsoft Hv" first and their own
	 * signature at 0x40000100. */
	if (strcmp(sig, "Microsoft Hv") == 0) {
		char next[13];
		cpuid_sig(0x40000100, next);
		if (strcmp(next, "KVMKVMKVM") == 0 || strcmp(next, "XenVMMXenVMM") == 0)
			memcpy(sig, next, 13);
	}
	return true;
}

/* Paravirtual clocksources register only when the kernel found that hypervisor's
 * interface, so they say what the *kernel* runs on. That beats user-space cpuid, which
 * in a nested or PVM guest (this machine: "Hypervisor detected: PVM" at boot, kvm-clock)
 * reaches the outer hypervisor and reports its signature ("bhyve bhyve " here). */
static const struct {
	const char *clocksource;
	const char *name;
} pvclock_map[] = {
	{ "kvm-clock", "kvm" },
	{ "xen", "xen" },
	{ "hyperv_clocksource_tsc_page", "hyperv" },
	{ "hyperv_clocksource_msr", "hyperv" },
};

static const char *pvclock_lookup(void)
{
	static const char path[] =
		"/sys/devices/system/clocksource/clocksource0/available_clocksource";
	char *s;
	if (pl_read_str(path, &s) < 0)
		return NULL;
	char **v = pl_split(s, " \t", NULL);
	const char *hv = NULL;
	for (size_t i = 0; !hv && i < sizeof(pvclock_map) / sizeof(pvclock_map[0]); i++)
		for (char **p = v; *p; p++)
			if (strcmp(*p, pvclock_map[i].clocksource) == 0)
				hv = pvclock_map[i].name;
	pl_strv_free(v);
	free(s);
	return hv;
}

static const char *cpuid_lookup(const char *sig)
{
	for (size_t i = 0; i < sizeof(cpuid_map) / sizeof(cpuid_map[0]); i++)
		if (strcmp(sig, cpuid_map[i].sig) == 0)
			return cpuid_map[i].name;
	return NULL;
}

void pl_collect_virt(struct pl_facts *f)
{
	char *xen = NULL, *vendor = NULL, *product = NULL, *cpuinfo = NULL;
	const char *hv = NULL, *src = NULL;

	if (pl_read_str("/sys/hypervisor/type", &xen) == 0 && strcmp(xen, "xen") == 0) {
		hv = "xen";
		src = "/sys/hypervisor/type";
	}
	if (pl_read_str("/sys/class/dmi/id/sys_vendor", &vendor) == 0)
		pl_fact_str(f, "virt.dmi.sys_vendor", vendor, "/sys/class/dmi/id/sys_vendor");
	if (pl_read_str("/sys/class/dmi/id/product_name", &product) == 0)
		pl_fact_str(f, "virt.dmi.product_name", product, "/sys/class/dmi/id/product_name");
	bool flag = false, have_cpuinfo = false;
	if (pl_cpuinfo_read(&cpuinfo) == 0) {
		struct pl_cpuinfo ci;
		have_cpuinfo = pl_cpuinfo_parse(cpuinfo, &ci) == 0;
		flag = pl_cpuinfo_has_flag(&ci, "hypervisor");
		pl_cpuinfo_free(&ci);
	}
	if (!hv && (hv = pvclock_lookup()))
		src = "/sys/devices/system/clocksource/clocksource0/available_clocksource";
	{
		char sig[13];
		if (cpuid_hypervisor(sig)) {
			pl_fact_str(f, "virt.cpuid.signature", sig, "cpuid:0x40000000");
			const char *c = cpuid_lookup(sig);
			if (c)
				pl_fact_str(f, "virt.cpuid.hypervisor", c, "cpuid:0x40000000");
			if (!hv && c) {
				hv = c;
				src = "cpuid:0x40000000";
			}
		}
	}
	if (!hv) {
		const char *d = dmi_lookup(vendor);
		if (d) {
			hv = d;
			src = "/sys/class/dmi/id/sys_vendor";
		} else if ((d = dmi_lookup(product))) {
			hv = d;
			src = "/sys/class/dmi/id/product_name";
		}
	}
	if (!hv && flag) {
		hv = "unknown";
		src = "/proc/cpuinfo";
	}
	if (!hv && have_cpuinfo) {
		hv = "none";
		src = "/proc/cpuinfo";
	}
	pl_fact_str_or(f, "virt.hypervisor", hv, src,
		       "no /sys/hypervisor/type, DMI or /proc/cpuinfo to decide from");
	free(xen);
	free(vendor);
	free(product);
	free(cpuinfo);
}
