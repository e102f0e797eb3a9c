/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net.IFACE.*: MTU, link speed, driver and queue counts of each interface except lo
 * (Documentation/ABI/testing/sysfs-class-net, sysfs-class-net-queues); the IRQs of its
 * queues and the CPUs each may run on (/proc/interrupts action names, the device's
 * msi_irqs, /proc/irq/N/smp_affinity_list: Documentation/core-api/irq/irq-affinity.rst);
 * RPS/XPS masks (Documentation/networking/scaling.rst); and ring sizes and interrupt
 * coalescing through the ethtool ioctl (SIOCETHTOOL, include/uapi/linux/ethtool.h), live
 * or from a snapshot's perflab-live/ethtool/IFNAME. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/record.h"
#include "util/str.h"
#include "util/sysroot.h"

#define NET_DIR "/sys/class/net"
/* A snapshot's ethtool readings, one file per interface (docs/snapshot.md). */
#define ETHTOOL_LIVE "/perflab-live/ethtool"

static void collect_queues(struct pl_facts *f, const char *ifc)
{
	char dir[256], key[256];
	snprintf(dir, sizeof(dir), NET_DIR "/%s/queues", ifc);
	char **q;
	int r = pl_list_dir(dir, &q, NULL);
	snprintf(key, sizeof(key), "net.%s.queues", ifc);
	if (r < 0) {
		pl_fact_unavailable(f, key, "%s: %s", dir, pl_read_strerror(r));
		return;
	}
	int rx = 0, tx = 0, rps = 0, xps = 0;
	for (char **p = q; *p; p++) {
		rx += pl_startswith(*p, "rx-");
		tx += pl_startswith(*p, "tx-");
		struct pl_cpuset m;
		char *mask;
		if (pl_read_strf(&mask, "%s/%s/%s", dir, *p,
				 pl_startswith(*p, "rx-") ? "rps_cpus" : "xps_cpus") == 0) {
			if (pl_cpuset_parse_mask(mask, &m) == 0 && pl_cpuset_count(&m) > 0) {
				rps += pl_startswith(*p, "rx-");
				xps += pl_startswith(*p, "tx-");
			}
			free(mask);
		}
	}
	pl_strv_free(q);

	pl_fact_int(f, key, rx, dir); /* receive queues: what RSS spreads over */
	snprintf(key, sizeof(key), "net.%s.queues.tx", ifc);
	pl_fact_int(f, key, tx, dir);
	/* queues whose mask is set: RPS steers received packets to other CPUs in software,
	 * XPS picks the transmit queue by CPU (scaling.rst) */
	snprintf(key, sizeof(key), "net.%s.rps_queues", ifc);
	pl_fact_int(f, key, rps, dir);
	snprintf(key, sizeof(key), "net.%s.xps_queues", ifc);
	pl_fact_int(f, key, xps, dir);
}

static void collect_iface(struct pl_facts *f, const char *ifc)
{
	char key[256], path[256], *s;
	int64_t v;
	int r;
	snprintf(key, sizeof(key), "net.%s.mtu", ifc);
	snprintf(path, sizeof(path), NET_DIR "/%s/mtu", ifc);
	pl_fact_from_file_uint(f, key, path);

	snprintf(key, sizeof(key), "net.%s.operstate", ifc);
	snprintf(path, sizeof(path), NET_DIR "/%s/operstate", ifc);
	pl_fact_from_file_str(f, key, path);

	/* speed: EINVAL when the link is down, -1 or absent for virtual NICs (virtio) */
	snprintf(key, sizeof(key), "net.%s.speed_mbps", ifc);
	snprintf(path, sizeof(path), NET_DIR "/%s/speed", ifc);
	r = pl_read_i64(path, &v);
	if (r == 0 && v > 0)
		pl_fact_int(f, key, v, path);
	else if (r == 0 || r == -EINVAL)
		pl_fact_unavailable(f, key, "%s: unknown (link down or a virtual NIC)", path);
	else
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));

	snprintf(key, sizeof(key), "net.%s.driver", ifc);
	snprintf(path, sizeof(path), NET_DIR "/%s/device/driver", ifc);
	r = pl_readlink(path, &s);
	if (r == 0) {
		const char *base = strrchr(s, '/');
		pl_fact_str(f, key, base ? base + 1 : s, path);
		free(s);
	} else {
		snprintf(path, sizeof(path), NET_DIR "/%s/device", ifc);
		if (r == -ENOENT && !pl_exists(path))
			pl_fact_unavailable(f, key, "%s: not present (virtual interface)", path);
		else
			pl_fact_unavailable(f, key, "%s/driver: %s", path, pl_read_strerror(r));
	}
	collect_queues(f, ifc);
}

/* The IRQ number and action name of a /proc/interrupts line ("  45:  12  0  IR-PCI-MSI
 * 9437184-edge  i40e-eno1-TxRx-0"): the name is the last field. False for the header and
 * the per-CPU counters without a number (NMI, LOC...). */
static bool irq_line(const char *line, unsigned *irq, const char **name, size_t *nlen)
{
	const char *p = line;
	while (*p == ' ')
		p++;
	char *end;
	unsigned long v = strtoul(p, &end, 10);
	if (end == p || *end != ':' || v > 1u << 24)
		return false;
	const char *e = p + strlen(p);
	while (e > end && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	const char *b = e;
	while (b > end + 1 && b[-1] != ' ' && b[-1] != '\t')
		b--;
	if (b == e)
		return false;
	*irq = (unsigned)v;
	*name = b;
	*nlen = (size_t)(e - b);
	return true;
}

/* True when action name @n (@len bytes) belongs to interface @ifc: "eno1-TxRx-0",
 * "i40e-eno1-TxRx-3", "eth0_rx0" (the name then '-', '_' or the end). */
static bool irq_of(const char *n, size_t len, const char *ifc)
{
	size_t l = strlen(ifc);
	for (size_t i = 0; i + l <= len; i++)
		if (memcmp(n + i, ifc, l) == 0 && (i == 0 || n[i - 1] == '-') &&
		    (i + l == len || n[i + l] == '-' || n[i + l] == '_'))
			return true;
	return false;
}

json_t *pl_net_queue_irqs(const char *interrupts, const char *ifc, const char *const *msi)
{
	json_t *list = json_array();
	for (int pass = 0; pass < 2 && json_array_size(list) == 0; pass++) {
		if (pass == 1 && !msi)
			break;
		const char *p = interrupts;
		while (p && *p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			char line[1024];
			if (len < sizeof(line)) {
				memcpy(line, p, len);
				line[len] = '\0';
				unsigned irq;
				const char *name;
				size_t nlen;
				bool mine = false;
				if (irq_line(line, &irq, &name, &nlen)) {
					if (pass == 0) {
						mine = irq_of(name, nlen, ifc);
					} else { /* the device's MSI vectors, less its control one
						  */
						char num[16];
						snprintf(num, sizeof(num), "%u", irq);
						for (const char *const *m = msi; *m && !mine; m++)
							mine = strcmp(*m, num) == 0;
						mine = mine && !strstr(name, "config") &&
						       !strstr(name, "async") &&
						       !strstr(name, "admin") &&
						       !strstr(name, "ctrl");
					}
				}
				if (mine) {
					json_t *o = json_object();
					json_object_set_new(o, "irq", json_integer(irq));
					char *nm = pl_xasprintf("%.*s", (int)nlen, name);
					json_object_set_new(o, "name", pl_json_string(nm));
					free(nm);
					json_array_append_new(list, o);
				}
			}
			p = nl ? nl + 1 : NULL;
		}
	}
	return list;
}

/* A virtio NIC's device link is the virtio device ("../../devices/pci0000:00/0000:00:03.0/
 * virtio2/net/eth0"), whose queue IRQs /proc/interrupts names after it ("virtio2-input.0",
 * "virtio2-output.0"; drivers/virtio/virtio_pci_common.c) and whose MSI vectors belong to
 * the PCI parent: when @ifc's device is virtioN, replace *@irqs by those lines, without the
 * config vector. */
static void virtio_irqs(const char *ifc, const char *interrupts, json_t **irqs)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), NET_DIR "/%s/device", ifc);
	pl_autofree char *dev = NULL;
	if (pl_readlink(path, &dev) < 0)
		return;
	const char *b = strrchr(dev, '/');
	b = b ? b + 1 : dev;
	if (strncmp(b, "virtio", 6) != 0 || !b[6] || strspn(b + 6, "0123456789") != strlen(b + 6))
		return;
	json_t *v = pl_net_queue_irqs(interrupts, b, NULL), *keep = json_array();
	size_t i;
	json_t *o;
	json_array_foreach(v, i, o)
	{
		const char *n = pl_json_str(o, "name");
		if (n && !strstr(n, "config"))
			json_array_append(keep, o);
	}
	json_decref(v);
	if (json_array_size(keep)) {
		json_decref(*irqs);
		*irqs = keep;
	} else {
		json_decref(keep);
	}
}

static void collect_irqs(struct pl_facts *f, const char *ifc, const char *interrupts, int ir)
{
	char key[256], key2[256], path[320];
	snprintf(key, sizeof(key), "net.%s.irqs", ifc);
	snprintf(key2, sizeof(key2), "net.%s.irq_cpus", ifc);
	if (ir < 0) {
		pl_fact_unavailable(f, key, "/proc/interrupts: %s", pl_read_strerror(ir));
		pl_fact_unavailable(f, key2, "/proc/interrupts: %s", pl_read_strerror(ir));
		return;
	}
	snprintf(path, sizeof(path), NET_DIR "/%s/device/msi_irqs", ifc);
	char **msi = NULL;
	if (pl_list_dir(path, &msi, NULL) < 0)
		msi = NULL;
	json_t *irqs = pl_net_queue_irqs(interrupts, ifc, (const char *const *)msi);
	pl_strv_free(msi);
	if (json_array_size(irqs) == 0)
		virtio_irqs(ifc, interrupts, &irqs);
	struct pl_cpuset all;
	pl_cpuset_clear(&all);
	size_t i, known = 0;
	json_t *o;
	json_array_foreach(irqs, i, o)
	{
		pl_autofree char *cpus = NULL;
		struct pl_cpuset s;
		int irq = (int)json_integer_value(json_object_get(o, "irq"));
		if (pl_read_strf(&cpus, "/proc/irq/%d/smp_affinity_list", irq) == 0 &&
		    pl_cpuset_parse(cpus, &s) == 0) {
			char buf[256];
			json_object_set_new(o, "cpus",
					    pl_json_string(pl_cpuset_format(&s, buf, sizeof(buf))));
			for (int c = pl_cpuset_next(&s, 0); c >= 0;
			     c = pl_cpuset_next(&s, (unsigned)c + 1))
				pl_cpuset_set(&all, (unsigned)c);
			known++;
		} else {
			json_object_set_new(o, "cpus", json_null());
		}
	}
	size_t n = json_array_size(irqs);
	pl_fact_set(f, key, irqs, "/proc/interrupts");
	if (n == 0)
		pl_fact_unavailable(f, key2, "/proc/interrupts: no IRQ named after %s", ifc);
	else if (known < n)
		pl_fact_unavailable(f, key2, "/proc/irq/N/smp_affinity_list: not readable");
	else {
		char buf[1024];
		pl_fact_str(f, key2, pl_cpuset_format(&all, buf, sizeof(buf)),
			    "/proc/irq/*/smp_affinity_list");
	}
}

/* One ethtool get command (@cmd: a struct whose first field is the command) on @ifr's
 * interface through @fd. Returns 0 or -errno, read right after the ioctl. */
static int ethtool_get(int fd, struct ifreq *ifr, void *cmd)
{
	ifr->ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, ifr) == 0 ? 0 : -errno;
}

/* Why an ethtool get command failed with @err (-errno), in words. */
static const char *ethtool_why(int err)
{
	return err == -EOPNOTSUPP ? "not supported by the driver" : strerror(-err);
}

/* The ethtool readings of one interface: from the ioctl (live) or a snapshot's file. */
struct eth {
	int sock_err; /* 0, or -errno of socket(): nothing else was asked */
	int ring_err; /* 0, or -errno of ETHTOOL_GRINGPARAM */
	int co_err;   /* 0, or -errno of ETHTOOL_GCOALESCE */
	struct ethtool_ringparam ring;
	struct ethtool_coalesce co;
};

/* Ask the kernel for @ifc's rings and coalescing (@ifc shorter than IFNAMSIZ). */
static void ethtool_live(const char *ifc, struct eth *e)
{
	pl_autoclose int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		e->sock_err = -errno;
		return;
	}
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifc);
	e->ring.cmd = ETHTOOL_GRINGPARAM;
	e->ring_err = ethtool_get(fd, &ifr, &e->ring);
	e->co.cmd = ETHTOOL_GCOALESCE;
	e->co_err = ethtool_get(fd, &ifr, &e->co);
}

/* @e as the snapshot file perflab-live/ethtool/IFNAME (docs/snapshot.md) into @b. */
static void ethtool_text(const struct eth *e, struct pl_buf *b)
{
	if (e->sock_err) {
		pl_buf_printf(b, "socket errno=%d\n", -e->sock_err);
		return;
	}
	if (e->ring_err)
		pl_buf_printf(b, "ringparam errno=%d\n", -e->ring_err);
	else
		pl_buf_printf(b, "ringparam rx=%u rx_max=%u tx=%u tx_max=%u\n", e->ring.rx_pending,
			      e->ring.rx_max_pending, e->ring.tx_pending, e->ring.tx_max_pending);
	if (e->co_err)
		pl_buf_printf(b, "coalesce errno=%d\n", -e->co_err);
	else
		pl_buf_printf(b,
			      "coalesce rx_usecs=%u tx_usecs=%u rx_frames=%u adaptive_rx=%u "
			      "adaptive_tx=%u\n",
			      e->co.rx_coalesce_usecs, e->co.tx_coalesce_usecs,
			      e->co.rx_max_coalesced_frames, e->co.use_adaptive_rx_coalesce ? 1 : 0,
			      e->co.use_adaptive_tx_coalesce ? 1 : 0);
}

/* An errno value from a snapshot file: 1..4095 (the kernel's MAX_ERRNO), else EINVAL. */
static int file_errno(int v)
{
	return v > 0 && v < 4096 ? -v : -EINVAL;
}

/* Parse the snapshot file @text into @e; a reading the file lacks or garbles fails with
 * -ENODATA ("No data available"). */
static void ethtool_parse(char *text, struct eth *e)
{
	e->ring_err = e->co_err = -ENODATA;
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		int v;
		unsigned a, b, c, d, x;
		if (sscanf(p, "socket errno=%d", &v) == 1) {
			e->sock_err = file_errno(v);
		} else if (sscanf(p, "ringparam errno=%d", &v) == 1) {
			e->ring_err = file_errno(v);
		} else if (sscanf(p, "ringparam rx=%u rx_max=%u tx=%u tx_max=%u", &a, &b, &c, &d) ==
			   4) {
			e->ring_err = 0;
			e->ring.rx_pending = a;
			e->ring.rx_max_pending = b;
			e->ring.tx_pending = c;
			e->ring.tx_max_pending = d;
		} else if (sscanf(p, "coalesce errno=%d", &v) == 1) {
			e->co_err = file_errno(v);
		} else if (sscanf(p,
				  "coalesce rx_usecs=%u tx_usecs=%u rx_frames=%u adaptive_rx=%u "
				  "adaptive_tx=%u",
				  &a, &b, &c, &d, &x) == 5) {
			e->co_err = 0;
			e->co.rx_coalesce_usecs = a;
			e->co.tx_coalesce_usecs = b;
			e->co.rx_max_coalesced_frames = c;
			e->co.use_adaptive_rx_coalesce = d != 0;
			e->co.use_adaptive_tx_coalesce = x != 0;
		}
	}
}

/* Ring sizes and coalescing of @ifc through the ethtool ioctl (live, recorded while a
 * snapshot records), or from a snapshot's perflab-live/ethtool/IFNAME. */
static void collect_ethtool(struct pl_facts *f, const char *ifc)
{
	char rk[256], ck[256];
	snprintf(rk, sizeof(rk), "net.%s.ring", ifc);
	snprintf(ck, sizeof(ck), "net.%s.coalesce", ifc);
	if (strlen(ifc) >= IFNAMSIZ) {
		pl_fact_unavailable(f, rk, "ethtool: name too long");
		pl_fact_unavailable(f, ck, "ethtool: name too long");
		return;
	}
	struct eth e;
	memset(&e, 0, sizeof(e));
	char live_path[64];
	snprintf(live_path, sizeof(live_path), ETHTOOL_LIVE "/%s", ifc);
	if (pl_sysroot_is_live()) {
		ethtool_live(ifc, &e);
		if (pl_record_on()) {
			struct pl_buf b = { 0 };
			ethtool_text(&e, &b);
			pl_record_live(live_path, b.data, b.len);
			pl_buf_free(&b);
		}
	} else {
		pl_autofree char *text = NULL;
		if (pl_read_file(live_path, &text, NULL) < 0) {
			pl_fact_unavailable(f, rk, "ethtool: live system only (not in a sysroot)");
			pl_fact_unavailable(f, ck, "ethtool: live system only (not in a sysroot)");
			return;
		}
		ethtool_parse(text, &e);
	}
	if (e.sock_err) {
		pl_fact_unavailable(f, rk, "ethtool: %s", strerror(-e.sock_err));
		pl_fact_unavailable(f, ck, "ethtool: %s", strerror(-e.sock_err));
		return;
	}
	const char *lo = strcmp(ifc, "lo") == 0 ? " (loopback has no rings or coalescing)" : "";
	if (e.ring_err == 0) {
		json_t *o = json_object();
		json_object_set_new(o, "rx", json_integer(e.ring.rx_pending));
		json_object_set_new(o, "rx_max", json_integer(e.ring.rx_max_pending));
		json_object_set_new(o, "tx", json_integer(e.ring.tx_pending));
		json_object_set_new(o, "tx_max", json_integer(e.ring.tx_max_pending));
		pl_fact_set(f, rk, o, "ethtool ETHTOOL_GRINGPARAM");
	} else {
		pl_fact_unavailable(f, rk, "ethtool ETHTOOL_GRINGPARAM: %s%s",
				    ethtool_why(e.ring_err), lo);
	}
	if (e.co_err == 0) {
		json_t *o = json_object();
		json_object_set_new(o, "rx_usecs", json_integer(e.co.rx_coalesce_usecs));
		json_object_set_new(o, "tx_usecs", json_integer(e.co.tx_coalesce_usecs));
		json_object_set_new(o, "rx_frames", json_integer(e.co.rx_max_coalesced_frames));
		json_object_set_new(o, "adaptive_rx", json_boolean(e.co.use_adaptive_rx_coalesce));
		json_object_set_new(o, "adaptive_tx", json_boolean(e.co.use_adaptive_tx_coalesce));
		pl_fact_set(f, ck, o, "ethtool ETHTOOL_GCOALESCE");
	} else {
		pl_fact_unavailable(f, ck, "ethtool ETHTOOL_GCOALESCE: %s%s", ethtool_why(e.co_err),
				    lo);
	}
}

void pl_collect_net(struct pl_facts *f)
{
	char **ifs;
	int r = pl_list_dir(NET_DIR, &ifs, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "net.interfaces", NET_DIR ": %s", pl_read_strerror(r));
		return;
	}
	pl_autofree char *interrupts = NULL;
	int ir = pl_read_file("/proc/interrupts", &interrupts, NULL);
	json_t *list = json_array();
	for (char **i = ifs; *i; i++) {
		if (strcmp(*i, "lo") == 0) {
			collect_ethtool(f, *i); /* to say that it has none */
			continue;
		}
		if (strcmp(*i, "bonding_masters") == 0)
			continue;
		json_array_append_new(list, pl_json_string(*i));
		collect_iface(f, *i);
		collect_irqs(f, *i, interrupts, ir);
		collect_ethtool(f, *i);
	}
	pl_fact_set(f, "net.interfaces", list, NET_DIR);
	pl_strv_free(ifs);
}
