/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dimm.*: memory modules from the SMBIOS Memory Device structures (type 17) of
 * /sys/firmware/dmi/tables/DMI (Documentation/ABI/testing/sysfs-firmware-dmi-tables; the
 * raw structure table, no entry point), their channels and the theoretical peak bandwidth.
 * Layout: DMTF DSP0134 (SMBIOS 3.x) section 7.18. The parser is ours: Debian's only C
 * SMBIOS library (libsmbios, Dell) reads the live firmware itself and has no API for a
 * buffer from a sysroot tree; tests/facts/dimm.sh checks it against
 * `dmidecode --from-dump` on the same blob. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

#define DMI_TABLE "/sys/firmware/dmi/tables/DMI"

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* String number @idx (1-based) of the string set [s, end), trimmed; NULL for 0 or
 * when the set has fewer strings. */
static char *smbios_string(const uint8_t *s, const uint8_t *end, uint8_t idx)
{
	if (idx == 0)
		return NULL;
	for (uint8_t i = 1; s < end && *s; i++) {
		const uint8_t *z = memchr(s, 0, (size_t)(end - s));
		if (!z)
			return NULL;
		if (i == idx) {
			char *c = pl_xmalloc((size_t)(z - s) + 1);
			memcpy(c, s, (size_t)(z - s));
			c[z - s] = '\0';
			char *t = pl_trim(c);
			memmove(c, t, strlen(t) + 1);
			return c;
		}
		s = z + 1;
	}
	return NULL;
}

/* SMBIOS 3.x table 76 "Memory Device - Type". */
static const char *mem_type_name(uint8_t t)
{
	static const char *const names[] = {
		[0x01] = "Other",  [0x02] = "Unknown",
		[0x03] = "DRAM",   [0x04] = "EDRAM",
		[0x05] = "VRAM",   [0x06] = "SRAM",
		[0x07] = "RAM",	   [0x08] = "ROM",
		[0x09] = "Flash",  [0x0a] = "EEPROM",
		[0x0b] = "FEPROM", [0x0c] = "EPROM",
		[0x0d] = "CDRAM",  [0x0e] = "3DRAM",
		[0x0f] = "SDRAM",  [0x10] = "SGRAM",
		[0x11] = "RDRAM",  [0x12] = "DDR",
		[0x13] = "DDR2",   [0x14] = "DDR2 FB-DIMM",
		[0x18] = "DDR3",   [0x19] = "FBD2",
		[0x1a] = "DDR4",   [0x1b] = "LPDDR",
		[0x1c] = "LPDDR2", [0x1d] = "LPDDR3",
		[0x1e] = "LPDDR4", [0x1f] = "Logical non-volatile device",
		[0x20] = "HBM",	   [0x21] = "HBM2",
		[0x22] = "DDR5",   [0x23] = "LPDDR5",
		[0x24] = "HBM3",
	};
	const char *n = t < sizeof(names) / sizeof(names[0]) ? names[t] : NULL;
	return n ? n : "Unknown";
}

void pl_dimms_free(struct pl_dimm *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++) {
		free(d[i].locator);
		free(d[i].bank_locator);
		free(d[i].manufacturer);
		free(d[i].part_number);
	}
	free(d);
}

/* Fill @d from the type 17 structure @p (formatted length @flen) and its strings. */
static void parse_type17(struct pl_dimm *d, const uint8_t *p, uint8_t flen, const uint8_t *str,
			 const uint8_t *end)
{
	memset(d, 0, sizeof(*d));
	d->type = "Unknown";
	if (flen < 0x15) /* SMBIOS 2.1: up to Type Detail */
		return;
	uint16_t size = rd16(p + 0x0c);
	if (size == 0x7fff && flen >= 0x20)
		d->size_bytes = (uint64_t)(rd32(p + 0x1c) & 0x7fffffff) << 20;
	else if (size != 0xffff && size != 0x7fff)
		d->size_bytes = (uint64_t)(size & 0x7fff) << ((size & 0x8000) ? 10 : 20);
	d->unknown_size = size == 0xffff;
	d->locator = smbios_string(str, end, p[0x10]);
	d->bank_locator = smbios_string(str, end, p[0x11]);
	d->type = mem_type_name(p[0x12]);
	if (flen >= 0x17) {
		uint16_t s = rd16(p + 0x15);
		d->speed_mts = s == 0xffff && flen >= 0x58 ? rd32(p + 0x54) : s == 0xffff ? 0 : s;
	}
	if (flen >= 0x1b) {
		d->manufacturer = smbios_string(str, end, p[0x17]);
		d->part_number = smbios_string(str, end, p[0x1a]);
	}
	if (flen >= 0x1c)
		d->rank = p[0x1b] & 0x0f;
	if (flen >= 0x22) {
		uint16_t s = rd16(p + 0x20);
		d->configured_mts = s == 0xffff && flen >= 0x5c ? rd32(p + 0x58)
				    : s == 0xffff		? 0
								: s;
	}
}

int pl_smbios_dimms(const uint8_t *buf, size_t len, struct pl_dimm **out, size_t *n)
{
	struct pl_dimm *v = NULL;
	size_t nv = 0, cap = 0;
	size_t off = 0;
	int r = 0;
	while (off + 4 <= len) {
		const uint8_t *p = buf + off;
		uint8_t type = p[0], flen = p[1];
		if (flen < 4 || off + flen > len) {
			r = -EINVAL; /* a structure shorter than its header or past the end */
			break;
		}
		/* the string set ends with two NULs (also when empty) */
		size_t s = off + flen, e = s;
		while (e + 1 < len && !(buf[e] == 0 && buf[e + 1] == 0))
			e++;
		if (e + 1 >= len) {
			r = -EINVAL;
			break;
		}
		if (type == 17) {
			if (nv == cap) {
				cap = cap ? cap * 2 : 16;
				v = pl_xrealloc(v, cap * sizeof(*v));
			}
			parse_type17(&v[nv++], p, flen, buf + s, buf + e + 1);
		}
		off = e + 2;
		if (type == 127)
			break; /* end of table */
	}
	if (r < 0 && nv == 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = nv;
	return r;
}

char *pl_dimm_channel(const struct pl_dimm *d)
{
	const char *loc = d->locator;
	if (!loc || !*loc)
		return NULL;
	size_t l = strlen(loc), k = l;
	while (k > 0 && loc[k - 1] >= '0' && loc[k - 1] <= '9')
		k--;
	/* "P1-DIMMA1", "CPU1_DIMM_B2", "DIMM_C1": a channel letter, then the slot number.
	 * Dell's "A1".."A12" number slots per socket, not channels: unknown. */
	if (k == l || k == 0 ||
	    !((loc[k - 1] >= 'A' && loc[k - 1] <= 'Z') || (loc[k - 1] >= 'a' && loc[k - 1] <= 'z')))
		return NULL;
	if (k == 1)
		return NULL;
	return pl_xasprintf("%.*s", (int)k, loc);
}

/* A module is in the slot: a size, or "unknown" (0xFFFF), which only a module has. */
static bool populated(const struct pl_dimm *d)
{
	return d->size_bytes > 0 || d->unknown_size;
}

/* One channel: its name, DIMM count, bytes and the slowest configured speed. */
struct chan {
	char *name;
	int64_t dimms, bytes, mts;
};

static json_t *dimm_obj(const struct pl_dimm *d, const char *chan)
{
	json_t *o = json_object();
	json_object_set_new(o, "locator", pl_json_string(d->locator ? d->locator : ""));
	json_object_set_new(o, "bank_locator",
			    pl_json_string(d->bank_locator ? d->bank_locator : ""));
	json_object_set_new(o, "channel", chan ? pl_json_string(chan) : json_null());
	json_object_set_new(o, "size_bytes",
			    d->unknown_size ? json_null()
					    : json_integer((json_int_t)d->size_bytes));
	json_object_set_new(o, "type", pl_json_string(d->type));
	json_object_set_new(o, "speed_mts", json_integer(d->speed_mts));
	json_object_set_new(o, "configured_mts", json_integer(d->configured_mts));
	json_object_set_new(o, "rank", json_integer(d->rank));
	json_object_set_new(o, "manufacturer",
			    pl_json_string(d->manufacturer ? d->manufacturer : ""));
	json_object_set_new(o, "part_number", pl_json_string(d->part_number ? d->part_number : ""));
	return o;
}

static const char *const dimm_keys[] = { "dimm.slots",
					 "dimm.count",
					 "dimm.total_bytes",
					 "dimm.devices",
					 "dimm.channels.total",
					 "dimm.channels.populated",
					 "dimm.channels",
					 "dimm.peak_bandwidth_gbps",
					 NULL };

static void all_unavailable(struct pl_facts *f, const char *why)
{
	for (const char *const *k = dimm_keys; *k; k++)
		pl_fact_unavailable(f, *k, "%s", why);
}

/* Channels of the populated DIMMs @d (slots of empty channels counted in *total). Returns
 * the channel array (malloc'd, names owned) or NULL when a locator names no channel. */
static struct chan *channels(const struct pl_dimm *d, size_t n, size_t *nch, size_t *total)
{
	struct chan *c = pl_xcalloc(n ? n : 1, sizeof(*c));
	size_t nc = 0, tot = 0;
	char **all = pl_xcalloc(n + 1, sizeof(*all));
	for (size_t i = 0; i < n; i++) {
		char *name = pl_dimm_channel(&d[i]);
		if (!name) {
			for (size_t k = 0; k < nc; k++)
				free(c[k].name);
			free(c);
			pl_strv_free(all);
			return NULL;
		}
		bool seen = false;
		for (size_t k = 0; k < tot; k++)
			seen |= strcmp(all[k], name) == 0;
		if (!seen)
			all[tot++] = pl_xstrdup(name);
		if (!populated(&d[i])) {
			free(name);
			continue;
		}
		size_t k = 0;
		while (k < nc && strcmp(c[k].name, name) != 0)
			k++;
		if (k == nc) {
			c[nc++] = (struct chan){ .name = name, .mts = INT64_MAX };
		} else {
			free(name);
		}
		c[k].dimms++;
		c[k].bytes += (int64_t)d[i].size_bytes;
		int64_t mts = d[i].configured_mts ? d[i].configured_mts : d[i].speed_mts;
		if (mts > 0 && mts < c[k].mts)
			c[k].mts = mts;
	}
	pl_strv_free(all);
	*nch = nc;
	*total = tot;
	return c;
}

void pl_collect_dimm(struct pl_facts *f)
{
	pl_autofree char *buf = NULL;
	size_t len;
	int r = pl_read_file(DMI_TABLE, &buf, &len);
	if (r < 0) {
		pl_autofree char *why =
			pl_xasprintf(DMI_TABLE ": %s%s", pl_read_strerror(r),
				     r == -EACCES ? " (root only: run as root or sudo)" : "");
		all_unavailable(f, why);
		return;
	}
	struct pl_dimm *d = NULL;
	size_t n = 0;
	r = pl_smbios_dimms((const uint8_t *)buf, len, &d, &n);
	if (r < 0 && n == 0) {
		all_unavailable(f, DMI_TABLE ": not an SMBIOS structure table");
		return;
	}
	if (n == 0) {
		all_unavailable(f, DMI_TABLE ": no Memory Device (type 17) structure");
		return;
	}
	json_t *list = json_array();
	int64_t count = 0, bytes = 0;
	for (size_t i = 0; i < n; i++) {
		if (!populated(&d[i]))
			continue; /* an empty slot */
		pl_autofree char *ch = pl_dimm_channel(&d[i]);
		json_array_append_new(list, dimm_obj(&d[i], ch));
		count++;
		bytes += (int64_t)d[i].size_bytes;
	}
	pl_fact_int(f, "dimm.slots", (int64_t)n, DMI_TABLE);
	pl_fact_int(f, "dimm.count", count, DMI_TABLE);
	pl_fact_int(f, "dimm.total_bytes", bytes, DMI_TABLE);
	pl_fact_set(f, "dimm.devices", list, DMI_TABLE);
	size_t nc = 0, total = 0;
	struct chan *c = channels(d, n, &nc, &total);
	if (!c) {
		static const char why[] =
			DMI_TABLE ": the slot names (Locator) do not say the "
				  "channel (e.g. \"A1\" numbers slots, \"P1-DIMMA1\" names "
				  "channel A)";
		pl_fact_unavailable(f, "dimm.channels.total", why);
		pl_fact_unavailable(f, "dimm.channels.populated", why);
		pl_fact_unavailable(f, "dimm.channels", why);
		pl_fact_unavailable(f, "dimm.peak_bandwidth_gbps", why);
		pl_dimms_free(d, n);
		return;
	}
	json_t *chs = json_array();
	double peak = 0;
	bool speed_known = true;
	for (size_t k = 0; k < nc; k++) {
		json_t *o = json_object();
		json_object_set_new(o, "channel", pl_json_string(c[k].name));
		json_object_set_new(o, "dimms", json_integer(c[k].dimms));
		json_object_set_new(o, "size_bytes", json_integer(c[k].bytes));
		bool known = c[k].mts != INT64_MAX;
		json_object_set_new(o, "configured_mts",
				    known ? json_integer(c[k].mts) : json_null());
		json_array_append_new(chs, o);
		if (known)
			peak += (double)c[k].mts * 1e6 * 8 /
				1e9; /* 64-bit channel: 8 B per transfer */
		else
			speed_known = false;
		free(c[k].name);
	}
	free(c);
	pl_fact_int(f, "dimm.channels.total", (int64_t)total, DMI_TABLE);
	pl_fact_int(f, "dimm.channels.populated", (int64_t)nc, DMI_TABLE);
	pl_fact_set(f, "dimm.channels", chs, DMI_TABLE);
	if (speed_known && nc)
		pl_fact_set(f, "dimm.peak_bandwidth_gbps", json_real(peak), DMI_TABLE);
	else
		pl_fact_unavailable(f, "dimm.peak_bandwidth_gbps",
				    DMI_TABLE ": a populated channel has no known speed");
	pl_dimms_free(d, n);
}

/* The value of fact @key in @facts (pl_facts_to_json form), or NULL; *why gets its
 * unavailable reason when it has one. */
static const json_t *fact_value(const json_t *facts, const char *key, const char **why)
{
	const json_t *o = json_object_get(facts, key);
	const json_t *u = json_object_get(o, "unavailable");
	if (why && json_is_string(u))
		*why = json_string_value(u);
	return json_object_get(o, "value");
}

bool pl_dimm_peak_get(const json_t *facts, struct pl_dimm_peak *p)
{
	*p = (struct pl_dimm_peak){ .populated = -1, .total = -1 };
	const char *why = NULL;
	const json_t *pk = fact_value(facts, "dimm.peak_bandwidth_gbps", &why);
	if (!json_is_number(pk) || !(json_number_value(pk) > 0)) {
		p->why = why ? why : "no DIMM facts (SMBIOS type 17) for a theoretical peak";
		return false;
	}
	p->gbps = json_number_value(pk);
	const json_t *pop = fact_value(facts, "dimm.channels.populated", NULL);
	const json_t *tot = fact_value(facts, "dimm.channels.total", NULL);
	if (json_is_integer(pop))
		p->populated = (int64_t)json_integer_value(pop);
	if (json_is_integer(tot))
		p->total = (int64_t)json_integer_value(tot);
	const json_t *chs = fact_value(facts, "dimm.channels", NULL);
	size_t i;
	const json_t *c;
	json_array_foreach(chs, i, c)
	{
		const json_t *m = json_object_get(c, "configured_mts");
		int64_t v = json_is_integer(m) ? (int64_t)json_integer_value(m) : 0;
		if (i == 0)
			p->mts = v;
		else if (v != p->mts)
			p->mts = 0;
	}
	return true;
}

char *pl_dimm_peak_text(const struct pl_dimm_peak *p)
{
	if (!(p->gbps > 0))
		return pl_xasprintf("unknown: %s", p->why ? p->why : "no DIMM facts");
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "%.1f GB/s (", p->gbps);
	if (p->populated >= 0)
		pl_buf_printf(&b, "%lld channel%s", (long long)p->populated,
			      p->populated == 1 ? "" : "s");
	else
		pl_buf_printf(&b, "channels");
	if (p->mts > 0)
		pl_buf_printf(&b, " x %lld MT/s x 8 B, SMBIOS)", (long long)p->mts);
	else
		pl_buf_printf(&b, " x configured MT/s each x 8 B, SMBIOS)");
	return pl_buf_steal(&b);
}
