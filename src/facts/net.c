/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net.IFACE.*: MTU, link speed, driver and queue counts of each interface except lo
 * (Documentation/ABI/testing/sysfs-class-net, sysfs-class-net-queues). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "out/json.h"
#include "util/str.h"
#include "util/sysroot.h"

#define NET_DIR "/sys/class/net"

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
	int rx = 0, tx = 0;
	for (char **p = q; *p; p++) {
		rx += pl_startswith(*p, "rx-");
		tx += pl_startswith(*p, "tx-");
	}
	pl_strv_free(q);
	pl_fact_int(f, key, rx, dir); /* receive queues: what RSS spreads over */
	snprintf(key, sizeof(key), "net.%s.queues.tx", ifc);
	pl_fact_int(f, key, tx, dir);
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

void pl_collect_net(struct pl_facts *f)
{
	char **ifs;
	int r = pl_list_dir(NET_DIR, &ifs, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "net.interfaces", NET_DIR ": %s", pl_read_strerror(r));
		return;
	}
	json_t *list = json_array();
	for (char **i = ifs; *i; i++) {
		if (strcmp(*i, "lo") == 0 || strcmp(*i, "bonding_masters") == 0)
			continue;
		json_array_append_new(list, pl_json_string(*i));
		collect_iface(f, *i);
	}
	pl_fact_set(f, "net.interfaces", list, NET_DIR);
	pl_strv_free(ifs);
}
