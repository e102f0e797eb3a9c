/* SPDX-License-Identifier: GPL-3.0-or-later */
/* accel.*: offload hardware on the PCI bus: Intel QuickAssist (the gateway report's gzip
 * offload) and GPUs. IDs come from /sys/bus/pci/devices/SLOT/{vendor,device,class}
 * (Documentation/ABI/testing/sysfs-bus-pci), so fixtures work; libpci is used only for
 * its name database (pci.ids), loaded with dlopen(3) when a device matched: linked, it
 * (with the zlib and libudev it brings) cost 0.2 M instructions of every command's
 * start-up (valgrind callgrind), and most machines have no QAT or GPU to name. Without
 * libpci a device is named by its IDs. */
#include <pci/pci.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/dl.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

#define PCI_DIR "/sys/bus/pci/devices"

/* QAT physical and virtual functions: drivers/crypto/intel/qat/qat_common/adf_accel_devices.h
 * (ADF_*_PCI_DEVICE_ID). */
static const unsigned qat_ids[] = {
	0x0435, 0x0443, /* DH895xCC PF/VF */
	0x37c8, 0x37c9, /* C62x */
	0x19e2, 0x19e3, /* C3xxx */
	0x18ee, 0x18ef, /* 200xx */
	0x6f54, 0x6f55, /* D15xx */
	0x4940, 0x4941, /* 4xxx */
	0x4942, 0x4943, /* 401xx */
	0x4944, 0x4945, /* 402xx */
	0x4946, 0x4947, /* 420xx */
	0x578a, 0x578b, /* 6xxx */
};

/* Display-class vendors whose devices are real GPUs; other VGA devices are BMC or
 * emulated framebuffers (ASPEED, Matrox G200, QEMU std-vga, virtio-gpu). A 3D
 * controller (class 0x0302) counts whoever made it. */
static const unsigned gpu_vendors[] = { 0x10de /* NVIDIA */, 0x1002 /* AMD */, 0x8086 /* Intel */,
					0x1ed5 /* Moore Threads */ };

struct names_db {
	struct pci_access *pacc;
};

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

/* libpci's functions, once loaded */
static struct {
	int state; /* 0 not tried, 1 loaded, -1 missing */
	__typeof__(pci_alloc) *alloc;
	__typeof__(pci_lookup_name) *lookup_name;
	__typeof__(pci_cleanup) *cleanup;
} lp;

static bool libpci(void)
{
	if (lp.state == 0) {
		static const char *const names[] = { "pci_alloc", "pci_lookup_name",
						     "pci_cleanup" };
		void *fns[3];
		char why[256];
		lp.state = -1;
		if (pl_dl_open("libpci.so.3", names, fns, 3, why, sizeof(why))) {
			lp.alloc = (__typeof__(pci_alloc) *)fns[0];
			lp.lookup_name = (__typeof__(pci_lookup_name) *)fns[1];
			lp.cleanup = (__typeof__(pci_cleanup) *)fns[2];
			lp.state = 1;
		}
	}
	return lp.state > 0;
}

static char *device_name(struct names_db *db, unsigned vendor, unsigned device)
{
	if (!db->pacc && libpci()) {
		db->pacc = lp.alloc();
		db->pacc->warning = pci_quiet;
	}
	if (!db->pacc)
		return pl_xasprintf("%04x:%04x", vendor, device);
	char vb[128], db_[256];
	const char *v = lp.lookup_name(
		db->pacc, vb, sizeof(vb),
		PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB, vendor);
	const char *d = lp.lookup_name(
		db->pacc, db_, sizeof(db_),
		PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB, vendor, device);
	if (v && d)
		return pl_xasprintf("%s %s", v, d);
	if (v)
		return pl_xasprintf("%s device %04x", v, device);
	return pl_xasprintf("%04x:%04x", vendor, device);
}

static bool is_qat(unsigned vendor, unsigned device)
{
	if (vendor != 0x8086)
		return false;
	for (size_t i = 0; i < sizeof(qat_ids) / sizeof(qat_ids[0]); i++)
		if (qat_ids[i] == device)
			return true;
	return false;
}

static bool is_gpu(unsigned vendor, unsigned cls)
{
	if ((cls >> 16) != 0x03)
		return false;
	if ((cls >> 8) == 0x0302)
		return true;
	for (size_t i = 0; i < sizeof(gpu_vendors) / sizeof(gpu_vendors[0]); i++)
		if (gpu_vendors[i] == vendor)
			return true;
	return false;
}

static json_t *dev_obj(struct names_db *db, const char *slot, unsigned vendor, unsigned device)
{
	json_t *o = json_object();
	char *name = device_name(db, vendor, device);
	json_object_set_new(o, "slot", pl_json_string(slot));
	json_object_set_new(o, "name", pl_json_string(name));
	char id[16];
	snprintf(id, sizeof(id), "%04x:%04x", vendor, device);
	json_object_set_new(o, "id", pl_json_string(id));
	free(name);
	return o;
}

void pl_collect_accel(struct pl_facts *f)
{
	char **slots;
	int r = pl_list_dir(PCI_DIR, &slots, NULL);
	if (r < 0) {
		static const char *const keys[] = { "accel.qat.count", "accel.qat.devices",
						    "accel.gpu.count", "accel.gpu.devices", NULL };
		for (const char *const *k = keys; *k; k++)
			pl_fact_unavailable(f, *k, PCI_DIR ": %s", pl_read_strerror(r));
		return;
	}
	struct names_db db = { 0 };
	json_t *qat = json_array(), *gpu = json_array();
	for (char **s = slots; *s; s++) {
		uint64_t vendor, device, cls;
		if (pl_read_u64f(&vendor, PCI_DIR "/%s/vendor", *s) < 0 ||
		    pl_read_u64f(&device, PCI_DIR "/%s/device", *s) < 0 ||
		    pl_read_u64f(&cls, PCI_DIR "/%s/class", *s) < 0 || vendor > 0xffff ||
		    device > 0xffff || cls > 0xffffff)
			continue; /* unreadable or garbage: not a device we can name */
		if (is_qat((unsigned)vendor, (unsigned)device))
			json_array_append_new(qat,
					      dev_obj(&db, *s, (unsigned)vendor, (unsigned)device));
		else if (is_gpu((unsigned)vendor, (unsigned)cls))
			json_array_append_new(gpu,
					      dev_obj(&db, *s, (unsigned)vendor, (unsigned)device));
	}
	pl_strv_free(slots);
	if (db.pacc)
		lp.cleanup(db.pacc);
	pl_fact_int(f, "accel.qat.count", (int64_t)json_array_size(qat), PCI_DIR);
	pl_fact_set(f, "accel.qat.devices", qat, PCI_DIR);
	pl_fact_int(f, "accel.gpu.count", (int64_t)json_array_size(gpu), PCI_DIR);
	pl_fact_set(f, "accel.gpu.devices", gpu, PCI_DIR);
}
