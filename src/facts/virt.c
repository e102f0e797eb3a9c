/* SPDX-License-Identifier: GPL-3.0-or-later */
/* virt.hypervisor: which hypervisor runs this machine, from (in order of trust)
 * /sys/hypervisor/type (Xen), DMI sys_vendor/product_name, and the cpuinfo "hypervisor"
 * flag (x86 CPUID.1:ECX[31], set by every x86 hypervisor). Same evidence systemd-detect-virt
 * uses. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "facts/collectors.h"
#include "util/str.h"
#include "util/sysroot.h"

static const struct {
	const char *needle; /* substring of DMI sys_vendor or product_name */
	const char *name;
} dmi_map[] = {
	{ "QEMU", "kvm" },         { "KVM", "kvm" },          { "Amazon EC2", "kvm" },
	{ "Google", "kvm" },       { "VMware", "vmware" },    { "Microsoft Corporation", "hyperv" },
	{ "Xen", "xen" },          { "innotek", "virtualbox" }, { "VirtualBox", "virtualbox" },
	{ "Parallels", "parallels" }, { "Bochs", "bochs" },   { "OpenStack", "kvm" },
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

static bool cpuinfo_has_flag(const char *cpuinfo, const char *flag)
{
	const char *p = strstr(cpuinfo, "\nflags");
	if (!p)
		return false;
	const char *colon = strchr(p, ':');
	const char *eol = strchr(p + 1, '\n');
	if (!colon || (eol && colon > eol))
		return false;
	size_t fl = strlen(flag);
	for (const char *q = colon + 1; q && (!eol || q < eol);) {
		while (*q == ' ')
			q++;
		size_t n = strcspn(q, " \n");
		if (n == fl && strncmp(q, flag, fl) == 0)
			return true;
		q += n;
		if (*q != ' ')
			break;
	}
	return false;
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
	bool flag = false;
	if (pl_read_file("/proc/cpuinfo", &cpuinfo, NULL) == 0)
		flag = cpuinfo_has_flag(cpuinfo, "hypervisor");
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
	if (!hv && cpuinfo) {
		hv = "none";
		src = "/proc/cpuinfo";
	}
	if (hv)
		pl_fact_str(f, "virt.hypervisor", hv, src);
	else
		pl_fact_unavailable(f, "virt.hypervisor",
				    "no /sys/hypervisor/type, DMI or /proc/cpuinfo to decide from");
	free(xen);
	free(vendor);
	free(product);
	free(cpuinfo);
}
