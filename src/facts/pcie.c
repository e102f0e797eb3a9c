/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pcie.*: the PCIe links of the devices that move a workload's data (GPUs, NICs, NVMe
 * controllers, accelerators): negotiated vs maximum speed and width, NUMA node and local
 * CPUs, from /sys/bus/pci/devices/SLOT/{class,current_link_speed,max_link_speed,
 * current_link_width,max_link_width,numa_node,local_cpulist}
 * (Documentation/ABI/testing/sysfs-bus-pci); and the NVIDIA driver's /proc/driver/nvidia
 * (version, gpus/BUS/information) where it is loaded. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

#define PCI_DIR "/sys/bus/pci/devices"
#define NV_DIR "/proc/driver/nvidia"

const char *pl_pci_kind(unsigned cls)
{
	unsigned base = cls >> 16, sub = (cls >> 8) & 0xff;
	if (base == 0x03)
		return sub == 0x00 || sub == 0x02 ? "gpu" : NULL; /* VGA or 3D controller */
	if (base == 0x02)
		return "nic";
	if (base == 0x01 && sub == 0x08)
		return "nvme";
	if (base == 0x12 || (base == 0x0b && sub == 0x40))
		return "accel"; /* processing accelerator, co-processor (QAT) */
	return NULL;
}

double pl_pcie_speed_gts(const char *s)
{
	/* "8 GT/s", "16.0 GT/s PCIe", "2.5 GT/s"; "Unknown" (no link) */
	char *end;
	double v = strtod(s, &end);
	if (end == s || v <= 0 || v > 1000)
		return 0;
	while (*end == ' ')
		end++;
	return pl_startswith(end, "GT/s") ? v : 0;
}

/* The speed attribute @name of @slot in GT/s into @o (JSON null when unknown). */
static void link_speed(json_t *o, const char *slot, const char *attr, const char *field)
{
	char *s = NULL;
	double v = 0;
	if (pl_read_strf(&s, PCI_DIR "/%s/%s", slot, attr) == 0)
		v = pl_pcie_speed_gts(s);
	free(s);
	json_object_set_new(o, field, v > 0 ? json_real(v) : json_null());
}

static void link_int(json_t *o, const char *slot, const char *attr, const char *field, bool sign)
{
	char *s = NULL;
	int64_t v;
	bool ok = pl_read_strf(&s, PCI_DIR "/%s/%s", slot, attr) == 0 && pl_parse_i64(s, &v) == 0 &&
		  (sign ? v >= -1 : v > 0) && v < 4096;
	free(s);
	json_object_set_new(o, field, ok ? json_integer(v) : json_null());
}

static json_t *device(const char *slot, const char *kind, unsigned vendor, unsigned dev)
{
	json_t *o = json_object();
	json_object_set_new(o, "slot", pl_json_string(slot));
	json_object_set_new(o, "kind", pl_json_string(kind));
	char id[16];
	snprintf(id, sizeof(id), "%04x:%04x", vendor, dev);
	json_object_set_new(o, "id", pl_json_string(id));
	char path[320], *drv = NULL;
	snprintf(path, sizeof(path), PCI_DIR "/%s/driver", slot);
	if (pl_readlink(path, &drv) == 0) {
		const char *b = strrchr(drv, '/');
		json_object_set_new(o, "driver", pl_json_string(b ? b + 1 : drv));
		free(drv);
	} else {
		json_object_set_new(o, "driver", json_null());
	}
	link_speed(o, slot, "current_link_speed", "speed_gts");
	link_speed(o, slot, "max_link_speed", "max_speed_gts");
	link_int(o, slot, "current_link_width", "width", false);
	link_int(o, slot, "max_link_width", "max_width", false);
	link_int(o, slot, "numa_node", "numa_node", true);
	char *cpus = NULL;
	if (pl_read_strf(&cpus, PCI_DIR "/%s/local_cpulist", slot) == 0 &&
	    pl_cpulist_count(cpus) > 0)
		json_object_set_new(o, "local_cpus", pl_json_string(cpus));
	else
		json_object_set_new(o, "local_cpus", json_null());
	free(cpus);
	return o;
}

json_t *pl_nvidia_info_parse(const char *text)
{
	json_t *o = json_object();
	pl_autostrv char **lines = pl_split(text, "\n", NULL);
	for (char **l = lines; *l; l++) {
		char *colon = strchr(*l, ':');
		if (!colon || colon == *l)
			continue;
		*colon = '\0';
		char *k = pl_trim(*l), *v = pl_trim(colon + 1);
		if (!*k || strlen(k) > 64)
			continue;
		/* "Bus Location" -> "bus_location" */
		for (char *c = k; *c; c++)
			*c = *c == ' ' ? '_' : (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		pl_json_set(o, k, pl_json_string(v));
	}
	return o;
}

static void collect_nvidia(struct pl_facts *f)
{
	char *s = NULL;
	int r = pl_read_str(NV_DIR "/version", &s);
	if (r < 0) {
		pl_fact_unavailable(f, "pcie.nvidia.driver_version", NV_DIR "/version: %s%s",
				    pl_read_strerror(r),
				    r == -ENOENT ? " (no NVIDIA driver loaded)" : "");
		pl_fact_unavailable(f, "pcie.nvidia.gpus", NV_DIR "/gpus: %s", pl_read_strerror(r));
		return;
	}
	/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.154.05  Thu Dec 28 ..." */
	pl_autostrv char **w = pl_split(s, " \t", NULL);
	const char *ver = NULL;
	for (char **p = w; *p && !ver; p++)
		if (**p >= '0' && **p <= '9' && strchr(*p, '.'))
			ver = *p;
	pl_fact_str_or(f, "pcie.nvidia.driver_version", ver, NV_DIR "/version",
		       NV_DIR "/version: no version number in '%.60s'", s);
	free(s);
	char **gpus;
	r = pl_list_dir(NV_DIR "/gpus", &gpus, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "pcie.nvidia.gpus", NV_DIR "/gpus: %s", pl_read_strerror(r));
		return;
	}
	json_t *list = json_array();
	for (char **g = gpus; *g; g++) {
		char *text;
		if (pl_read_filef(&text, NULL, NV_DIR "/gpus/%s/information", *g) < 0)
			continue;
		json_t *o = pl_nvidia_info_parse(text);
		free(text);
		json_object_set_new(o, "bus", pl_json_string(*g));
		json_array_append_new(list, o);
	}
	pl_strv_free(gpus);
	pl_fact_set(f, "pcie.nvidia.gpus", list, NV_DIR "/gpus");
}

void pl_collect_pcie(struct pl_facts *f)
{
	char **slots;
	int r = pl_list_dir(PCI_DIR, &slots, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "pcie.devices", PCI_DIR ": %s", pl_read_strerror(r));
	} else {
		json_t *list = json_array();
		for (char **s = slots; *s; s++) {
			uint64_t vendor, dev, cls;
			if (pl_read_u64f(&vendor, PCI_DIR "/%s/vendor", *s) < 0 ||
			    pl_read_u64f(&dev, PCI_DIR "/%s/device", *s) < 0 ||
			    pl_read_u64f(&cls, PCI_DIR "/%s/class", *s) < 0 || vendor > 0xffff ||
			    dev > 0xffff || cls > 0xffffff)
				continue;
			const char *kind = pl_pci_kind((unsigned)cls);
			/* a VGA device of a BMC has no link worth checking: only real GPUs */
			if (kind && strcmp(kind, "gpu") == 0 && (cls >> 8) == 0x0300 &&
			    vendor != 0x10de && vendor != 0x1002 && vendor != 0x8086)
				continue;
			if (kind)
				json_array_append_new(
					list, device(*s, kind, (unsigned)vendor, (unsigned)dev));
		}
		pl_strv_free(slots);
		pl_fact_set(f, "pcie.devices", list, PCI_DIR);
	}
	collect_nvidia(f);
}
