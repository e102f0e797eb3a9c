/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "snapshot/redact.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/sha256.h"
#include "util/str.h"

const char *const pl_redact_kind_names[PL_RK_COUNT] = {
	[PL_RK_HOSTNAME] = "hostname",
	[PL_RK_IPV4] = "ipv4",
	[PL_RK_IPV6] = "ipv6",
	[PL_RK_MAC] = "mac",
	[PL_RK_SERIAL] = "serial",
	[PL_RK_UUID] = "uuid",
	[PL_RK_USER] = "user",
	[PL_RK_HOME] = "home",
	[PL_RK_INSTANCE_ID] = "instance_id",
};

/* A malloc'd copy of @n bytes at @s and a NUL. */
static char *dupn(const char *s, size_t n)
{
	char *d = pl_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

struct lit {
	char *s;
	size_t len;
	enum pl_redact_kind kind;
	bool strict; /* a short hostname: not next to '.', '/' either */
};

struct pl_redactor {
	uint8_t *key;
	size_t keylen;
	struct lit *lit; /* longest first */
	size_t nlit, litcap;
	size_t counts[PL_RK_COUNT];
};

struct pl_redactor *pl_redactor_new(const void *key, size_t keylen)
{
	struct pl_redactor *r = pl_xcalloc(1, sizeof(*r));
	r->key = pl_xmalloc(keylen ? keylen : 1);
	memcpy(r->key, key, keylen);
	r->keylen = keylen;
	return r;
}

void pl_redactor_free(struct pl_redactor *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nlit; i++)
		free(r->lit[i].s);
	free(r->lit);
	free(r->key);
	free(r);
}

/* HMAC-SHA256 of @kind's name, a NUL and the @len-byte token @tok under the key. */
static void mac_of(const struct pl_redactor *r, enum pl_redact_kind kind, const char *tok,
		   size_t len, uint8_t h[32])
{
	const char *name = pl_redact_kind_names[kind];
	const void *parts[] = { name, tok };
	size_t lens[] = { strlen(name) + 1, len };
	pl_hmac_sha256(r->key, r->keylen, 2, parts, lens, h);
}

/* ---- literals ------------------------------------------------------------------------ */

/* True for values DMI tables and cloud images put where a serial or tag would be, which
 * identify nothing (dmidecode's and fwupd's lists of OEM placeholders). */
static bool placeholder(const char *s, size_t len)
{
	static const char *const ph[] = {
		"Not Specified",
		"To Be Filled By O.E.M.",
		"To be filled by O.E.M.",
		"Default string",
		"Not Applicable",
		"Not Available",
		"Not Present",
		"None",
		"N/A",
		"NA",
		"Unknown",
		"INVALID",
		"System Serial Number",
		"System Product Name",
		"Chassis Serial Number",
		"Base Board Serial Number",
		"Asset-1234567890",
		"No Asset Tag",
		"No Asset Information",
		"Asset Tag",
		"Asset Tag#",
		"0123456789",
		"123456789",
		"1234567890",
		"SerNum0",
		"Asset",
		"AssetTagNum0",
		"Serial",
		"(none)",
		"localhost",
		"localhost.localdomain",
	};
	for (size_t i = 0; i < sizeof(ph) / sizeof(ph[0]); i++)
		if (strlen(ph[i]) == len && strncasecmp(ph[i], s, len) == 0)
			return true;
	/* one byte repeated: 00000000, FFFFFFFF, ........ */
	size_t k = 1;
	while (k < len && s[k] == s[0])
		k++;
	return k == len;
}

bool pl_redactor_literal(struct pl_redactor *r, enum pl_redact_kind kind, const char *tok)
{
	if (!tok)
		return false;
	while (*tok && isspace((unsigned char)*tok))
		tok++;
	size_t len = strlen(tok);
	while (len && isspace((unsigned char)tok[len - 1]))
		len--;
	size_t min = kind == PL_RK_SERIAL || kind == PL_RK_INSTANCE_ID ? PL_REDACT_MIN_SERIAL
								       : PL_REDACT_MIN_NAME;
	if (len < min || len > 255 || placeholder(tok, len) || memchr(tok, '\n', len))
		return false;
	/* a home of one component (/home, /root) names no one */
	if (kind == PL_RK_HOME &&
	    (tok[0] != '/' || !memchr(tok + 1, '/', len - 1) || tok[len - 1] == '/'))
		return false;
	for (size_t i = 0; i < r->nlit; i++)
		if (r->lit[i].len == len && memcmp(r->lit[i].s, tok, len) == 0)
			return false;
	if (r->nlit + 1 > r->litcap) {
		r->litcap = r->litcap ? 2 * r->litcap : 16;
		r->lit = pl_xrealloc(r->lit, r->litcap * sizeof(*r->lit));
	}
	/* keep longest first, so "node7.example.com" wins over "node7" */
	size_t at = 0;
	while (at < r->nlit && r->lit[at].len >= len)
		at++;
	memmove(r->lit + at + 1, r->lit + at, (r->nlit - at) * sizeof(*r->lit));
	r->nlit++;
	r->lit[at].s = dupn(tok, len);
	r->lit[at].len = len;
	r->lit[at].kind = kind;
	r->lit[at].strict = kind == PL_RK_HOSTNAME && len < 4;
	if (kind == PL_RK_HOSTNAME) {
		const char *dot = memchr(tok, '.', len);
		if (dot && dot > tok) {
			char *first = dupn(tok, (size_t)(dot - tok));
			pl_redactor_literal(r, kind, first);
			free(first);
		}
	}
	return true;
}

/* The basename of @path. */
static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Learn /etc/passwd's users with uid >= 1000 (not 65534) and their homes. */
static void learn_passwd(struct pl_redactor *r, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = dupn(p, l);
		char *f[7] = { 0 };
		char *s = line;
		int n = 0;
		for (; n < 7 && s; n++) {
			f[n] = s;
			s = strchr(s, ':');
			if (s)
				*s++ = '\0';
		}
		if (n >= 6 && f[2]) {
			char *e;
			unsigned long uid = strtoul(f[2], &e, 10);
			if (*f[2] && !*e && uid >= 1000 && uid != 65534 && uid < 4294967295ul) {
				pl_redactor_literal(r, PL_RK_USER, f[0]);
				pl_redactor_literal(r, PL_RK_HOME, f[5]);
			}
		}
		free(line);
		p += l + 1;
	}
}

/* Learn the serials and asset tags of an SMBIOS structure table (DMTF DSP0134: each
 * structure is type, length, handle and its formatted area, then its strings, each
 * NUL-terminated, the set ending in a second NUL). */
static void learn_smbios(struct pl_redactor *r, const uint8_t *d, size_t n)
{
	static const struct {
		uint8_t type, field;
		enum pl_redact_kind kind;
	} want[] = {
		{ 1, 0x07, PL_RK_SERIAL },	 /* system serial number */
		{ 2, 0x07, PL_RK_SERIAL },	 /* baseboard serial number */
		{ 2, 0x08, PL_RK_INSTANCE_ID },	 /* baseboard asset tag */
		{ 3, 0x07, PL_RK_SERIAL },	 /* chassis serial number */
		{ 3, 0x08, PL_RK_INSTANCE_ID },	 /* chassis asset tag */
		{ 4, 0x20, PL_RK_SERIAL },	 /* processor serial number */
		{ 4, 0x21, PL_RK_INSTANCE_ID },	 /* processor asset tag */
		{ 17, 0x18, PL_RK_SERIAL },	 /* memory device serial number */
		{ 17, 0x19, PL_RK_INSTANCE_ID }, /* memory device asset tag */
	};
	size_t off = 0;
	while (off + 4 <= n) {
		uint8_t type = d[off], flen = d[off + 1];
		if (flen < 4 || off + flen > n)
			return;
		/* the strings: from off + flen to the double NUL */
		size_t s = off + flen, end = s;
		while (end + 1 < n && !(d[end] == 0 && d[end + 1] == 0))
			end++;
		if (end + 1 >= n)
			return;
		for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
			if (want[w].type != type || want[w].field >= flen ||
			    !d[off + want[w].field])
				continue;
			unsigned idx = d[off + want[w].field];
			size_t p = s;
			for (unsigned k = 1; k < idx && p < end; k++)
				p += strnlen((const char *)d + p, end - p) + 1;
			if (p < end) {
				char *str = dupn((const char *)d + p, end - p);
				pl_redactor_literal(r, want[w].kind, str);
				free(str);
			}
		}
		if (type == 127)
			return;
		off = end + 2;
	}
}

void pl_redactor_learn(struct pl_redactor *r, const char *path, const char *data, size_t len)
{
	static const struct {
		const char *name; /* a basename, or an absolute path */
		enum pl_redact_kind kind;
	} files[] = {
		{ "/proc/sys/kernel/hostname", PL_RK_HOSTNAME },
		{ "/etc/hostname", PL_RK_HOSTNAME },
		{ "product_serial", PL_RK_SERIAL },
		{ "board_serial", PL_RK_SERIAL },
		{ "chassis_serial", PL_RK_SERIAL },
		{ "serial", PL_RK_SERIAL },
		{ "wwid", PL_RK_SERIAL },
		{ "wwn", PL_RK_SERIAL },
		{ "product_uuid", PL_RK_UUID },
		{ "boot_id", PL_RK_UUID },
		{ "machine-id", PL_RK_UUID },
		{ "board_asset_tag", PL_RK_INSTANCE_ID },
		{ "chassis_asset_tag", PL_RK_INSTANCE_ID },
	};
	if (!path || !data)
		return;
	if (strcmp(path, "/etc/passwd") == 0) {
		learn_passwd(r, data, len);
		return;
	}
	if (strcmp(path, "/sys/firmware/dmi/tables/DMI") == 0) {
		learn_smbios(r, (const uint8_t *)data, len);
		return;
	}
	if (memchr(data, '\0', len) || len > 4096)
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *n = files[i].name;
		if (n[0] == '/' ? strcmp(path, n) == 0
				: strcmp(base(path), n) == 0 && strncmp(path, "/sys/", 5) == 0) {
			pl_redactor_literal(r, files[i].kind, data);
			return;
		}
	}
	if (strcmp(base(path), "machine-id") == 0)
		pl_redactor_literal(r, PL_RK_UUID, data);
}

/* ---- the scanner --------------------------------------------------------------------- */

static bool alnum(char c)
{
	return isalnum((unsigned char)c);
}

static bool word(char c)
{
	return alnum(c) || c == '_' || c == '-';
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* A literal at @i: returns its index + 1, or 0. */
static size_t at_literal(const struct pl_redactor *r, const char *d, size_t len, size_t i)
{
	char prev = i ? d[i - 1] : ' ';
	for (size_t k = 0; k < r->nlit; k++) {
		const struct lit *l = &r->lit[k];
		if (l->len > len - i || d[i] != l->s[0] || memcmp(d + i, l->s, l->len) != 0)
			continue;
		char next = i + l->len < len ? d[i + l->len] : ' ';
		if (l->kind == PL_RK_HOME) {
			/* a path: followed by '/', the end of the path or a separator */
			if (alnum(prev) || prev == '/' || word(next) || next == '.')
				continue;
		} else if (word(prev) || word(next) ||
			   (l->strict &&
			    (prev == '.' || prev == '/' || next == '.' || next == '/'))) {
			continue;
		}
		return k + 1;
	}
	return 0;
}

/* A UUID (8-4-4-4-12 hex digits) at @i: 36, else 0. All zeros and all f are kept. */
static size_t at_uuid(const char *d, size_t len, size_t i)
{
	if (len - i < 36 || (i + 36 < len && alnum(d[i + 36])))
		return 0;
	bool zero = true, ff = true;
	for (size_t k = 0; k < 36; k++) {
		char c = d[i + k];
		if (k == 8 || k == 13 || k == 18 || k == 23) {
			if (c != '-')
				return 0;
		} else if (hexval(c) < 0) {
			return 0;
		} else {
			zero &= c == '0';
			ff &= c == 'f' || c == 'F';
		}
	}
	return zero || ff ? 0 : 36;
}

/* A hardware address at @i: 6 to 32 hex pairs joined by ':' (or 6 by '-'); its length,
 * else 0. All 00 and all ff are kept. */
static size_t at_hwaddr(const char *d, size_t len, size_t i)
{
	char sep = 0;
	size_t n = 0, k = i;
	bool zero = true, ff = true;
	for (;;) {
		if (len - k < 2 || hexval(d[k]) < 0 || hexval(d[k + 1]) < 0)
			return 0;
		zero &= d[k] == '0' && d[k + 1] == '0';
		ff &= hexval(d[k]) == 15 && hexval(d[k + 1]) == 15;
		n++;
		k += 2;
		if (k < len && (d[k] == ':' || d[k] == '-') && (!sep || d[k] == sep) && n < 32 &&
		    len - k >= 3 && hexval(d[k + 1]) >= 0 && hexval(d[k + 2]) >= 0) {
			sep = d[k];
			k++;
			continue;
		}
		break;
	}
	if (n < 6 || (sep == '-' && n != 6) || !sep || (k < len && (alnum(d[k]) || d[k] == sep)))
		return 0;
	return zero || ff ? 0 : k - i;
}

/* An IPv4 address's 4 bytes in @a: true unless one that identifies nothing (0.0.0.0/8,
 * loopback, broadcast, a netmask, multicast 224.0.0.0/4). */
static bool ipv4_identifies(const uint8_t a[4])
{
	uint32_t v = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
	if (a[0] == 0 || a[0] == 127 || (a[0] & 0xf0) == 0xe0)
		return false;
	uint32_t inv = ~v;
	return (inv & (inv + 1)) != 0; /* a netmask: ones, then zeros */
}

/* An IPv4 dotted quad at @i (each part 0..255 without leading zeros, not part of a longer
 * dotted number): its length, else 0; its bytes in @a. */
static size_t at_ipv4(const char *d, size_t len, size_t i, uint8_t a[4])
{
	if (i && d[i - 1] == '.')
		return 0;
	size_t k = i;
	for (int part = 0; part < 4; part++) {
		if (part) {
			if (k >= len || d[k] != '.')
				return 0;
			k++;
		}
		size_t s = k;
		unsigned v = 0;
		while (k < len && k - s < 4 && d[k] >= '0' && d[k] <= '9')
			v = v * 10 + (unsigned)(d[k++] - '0');
		if (k == s || k - s > 3 || v > 255 || (k - s > 1 && d[s] == '0'))
			return 0;
		a[part] = (uint8_t)v;
	}
	if (k < len &&
	    (alnum(d[k]) || (d[k] == '.' && k + 1 < len && isdigit((unsigned char)d[k + 1]))))
		return 0;
	return k - i;
}

/* An IPv6 address at @i (inet_pton(3)'s forms, embedded IPv4 included): its length, else
 * 0; its bytes in @a. */
static size_t at_ipv6(const char *d, size_t len, size_t i, uint8_t a[16])
{
	if ((i && (d[i - 1] == ':' || d[i - 1] == '.')) ||
	    (d[i] == ':' && (len - i < 2 || d[i + 1] != ':')))
		return 0;
	size_t k = i, colons = 0;
	while (k < len && k - i < 46 && (hexval(d[k]) >= 0 || d[k] == ':' || d[k] == '.'))
		colons += d[k++] == ':';
	if (colons < 2 || k - i > 45 || (k < len && alnum(d[k])))
		return 0;
	while (k > i && d[k - 1] == '.')
		k--;
	if (k - i >= 2 && d[k - 1] == ':' && d[k - 2] != ':')
		k--;
	char buf[64];
	memcpy(buf, d + i, k - i);
	buf[k - i] = '\0';
	if (inet_pton(AF_INET6, buf, a) != 1)
		return 0;
	return k - i;
}

/* True unless @a is an IPv6 address that identifies nothing: unspecified, loopback,
 * multicast (ff00::/8), or link-local with an all-zero interface id. */
static bool ipv6_identifies(const uint8_t a[16])
{
	static const uint8_t zero[16];
	if (memcmp(a, zero, 15) == 0 && a[15] <= 1)
		return false;
	if (a[0] == 0xff)
		return false;
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80 && memcmp(a + 8, zero, 8) == 0)
		return false;
	return true;
}

/* An EC2 instance id at @i ("i-" and 8 or 17 lowercase hex digits): its length, else 0. */
static size_t at_instance(const char *d, size_t len, size_t i)
{
	if (len - i < 10 || d[i] != 'i' || d[i + 1] != '-')
		return 0;
	size_t k = i + 2;
	while (k < len && ((d[k] >= '0' && d[k] <= '9') || (d[k] >= 'a' && d[k] <= 'f')))
		k++;
	if ((k - i - 2 != 8 && k - i - 2 != 17) || (k < len && word(d[k])))
		return 0;
	return k - i;
}

bool pl_redact_next(const struct pl_redactor *r, const char *d, size_t len, size_t from,
		    bool binary, bool version_file, struct pl_redact_match *m)
{
	for (size_t i = from; i < len; i++) {
		char prev = i ? d[i - 1] : ' ';
		if (alnum(prev) && d[i] != '/')
			continue;
		size_t l, k = at_literal(r, d, len, i);
		uint8_t a[16];
		if (k) {
			*m = (struct pl_redact_match){ i, r->lit[k - 1].len, r->lit[k - 1].kind };
			return true;
		}
		if (prev == '_' || prev == '-' ? false : (l = at_uuid(d, len, i)) > 0) {
			*m = (struct pl_redact_match){ i, l, PL_RK_UUID };
			return true;
		}
		if (prev != ':' && prev != '-' && (l = at_hwaddr(d, len, i)) > 0) {
			*m = (struct pl_redact_match){ i, l, PL_RK_MAC };
			return true;
		}
		if (!binary && (l = at_ipv6(d, len, i, a)) > 0 && ipv6_identifies(a)) {
			*m = (struct pl_redact_match){ i, l, PL_RK_IPV6 };
			return true;
		}
		if (!binary && !version_file && (l = at_ipv4(d, len, i, a)) > 0 &&
		    ipv4_identifies(a)) {
			*m = (struct pl_redact_match){ i, l, PL_RK_IPV4 };
			return true;
		}
		if (prev != '_' && prev != '-' && (l = at_instance(d, len, i)) > 0) {
			*m = (struct pl_redact_match){ i, l, PL_RK_INSTANCE_ID };
			return true;
		}
	}
	return false;
}

/* ---- pseudonyms ---------------------------------------------------------------------- */

/* @n hex digits of the key's HMAC stream for (@kind, @tok) into @out (upper case when
 * @upper), NUL-terminated. */
static void hex_stream(const struct pl_redactor *r, enum pl_redact_kind kind, const char *tok,
		       size_t len, size_t n, bool upper, char *out)
{
	uint8_t h[32];
	mac_of(r, kind, tok, len, h);
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	for (size_t k = 0; k < n; k++) {
		if (k && k % 64 == 0) {
			const void *parts[] = { h };
			size_t lens[] = { sizeof(h) };
			pl_hmac_sha256(r->key, r->keylen, 1, parts, lens, h);
		}
		uint8_t b = h[(k % 64) / 2];
		out[k] = digits[k % 2 ? b & 15 : b >> 4];
	}
	out[n] = '\0';
}

static bool has_upper_hex(const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++)
		if (s[k] >= 'A' && s[k] <= 'F')
			return true;
	return false;
}

size_t pl_redact_pseudonym(const struct pl_redactor *r, enum pl_redact_kind kind, const char *tok,
			   size_t len, bool same_len, char *out)
{
	uint8_t h[32];
	mac_of(r, kind, tok, len, h);
	bool upper = has_upper_hex(tok, len);
	switch (kind) {
	case PL_RK_IPV4: {
		static const uint8_t nets[3][3] = { { 192, 0, 2 },
						    { 198, 51, 100 },
						    { 203, 0, 113 } };
		const uint8_t *n = nets[h[0] % 3];
		unsigned last = 1 + h[1] % 254u;
		int w = snprintf(out, 80, "%u.%u.%u.%u", n[0], n[1], n[2], last);
		if ((size_t)w == len && memcmp(out, tok, len) == 0)
			w = snprintf(out, 80, "%u.%u.%u.%u", n[0], n[1], n[2], last % 254u + 1);
		return (size_t)w;
	}
	case PL_RK_IPV6: {
		uint8_t a[16];
		char buf[64];
		memcpy(buf, tok, len);
		buf[len] = '\0';
		bool ll = inet_pton(AF_INET6, buf, a) == 1 && a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
		memset(a, 0, sizeof(a));
		if (ll) {
			a[0] = 0xfe, a[1] = 0x80;
			memcpy(a + 8, h, 8);
		} else {
			a[0] = 0x20, a[1] = 0x01, a[2] = 0x0d, a[3] = 0xb8;
			memcpy(a + 4, h, 12);
		}
		inet_ntop(AF_INET6, a, out, 80);
		return strlen(out);
	}
	case PL_RK_MAC: {
		/* locally administered unicast (IEEE 802: bit 1 set, bit 0 clear), same length */
		char sep = len > 2 ? tok[2] : ':';
		const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
		size_t n = (len + 1) / 3;
		for (size_t k = 0; k < n; k++) {
			uint8_t b = h[k % 32] ^ (uint8_t)(k / 32);
			if (k == 0)
				b = (uint8_t)((b & 0xfc) | 0x02);
			out[3 * k] = digits[b >> 4];
			out[3 * k + 1] = digits[b & 15];
			out[3 * k + 2] = sep;
		}
		out[len] = '\0';
		return len;
	}
	case PL_RK_UUID:
		if (len == 36 && tok[8] == '-') {
			hex_stream(r, kind, tok, len, 32, upper, out + 40);
			const char *x = out + 40;
			snprintf(out, 37, "%.8s-%.4s-4%.3s-%c%.3s-%.12s", x, x + 8, x + 12,
				 (upper ? "89AB" : "89ab")[hexval(x[15]) & 3], x + 16, x + 20);
			return 36;
		}
		break;
	case PL_RK_INSTANCE_ID:
		if (len >= 10 && tok[0] == 'i' && tok[1] == '-') {
			out[0] = 'i', out[1] = '-';
			hex_stream(r, kind, tok, len, len - 2, false, out + 2);
			return len;
		}
		break;
	default:
		break;
	}
	if (same_len || kind == PL_RK_UUID || kind == PL_RK_SERIAL || kind == PL_RK_INSTANCE_ID) {
		/* hex digits: the same length in a binary member; else "SN-" or "tag-" + 8 */
		if (same_len) {
			hex_stream(r, kind, tok, len, len, upper, out);
			return len;
		}
		if (kind == PL_RK_UUID) {
			hex_stream(r, kind, tok, len, len < 64 ? len : 64, upper, out);
			return strlen(out);
		}
		const char *pre = kind == PL_RK_SERIAL ? "SN-" : "tag-";
		size_t pl = strlen(pre);
		memcpy(out, pre, pl);
		hex_stream(r, kind, tok, len, 8, true, out + pl);
		return pl + 8;
	}
	char six[7];
	if (kind == PL_RK_HOME) {
		/* /home/ and the pseudonym of its last component as a user name */
		const char *b = tok + len;
		while (b > tok && b[-1] != '/')
			b--;
		hex_stream(r, PL_RK_USER, b, (size_t)(tok + len - b), 6, false, six);
		return (size_t)snprintf(out, 80, "/home/user-%s", six);
	}
	hex_stream(r, kind, tok, len, 6, false, six);
	return (size_t)snprintf(out, 80, "%s-%s", kind == PL_RK_USER ? "user" : "host", six);
}

/* ---- redaction ----------------------------------------------------------------------- */

static bool compressed(const char *d, size_t len)
{
	return (len >= 2 && memcmp(d, "\x1f\x8b", 2) == 0) ||
	       (len >= 4 && memcmp(d, "\x28\xb5\x2f\xfd", 4) == 0) ||
	       (len >= 6 && memcmp(d,
				   "\xfd"
				   "7zXZ\0",
				   6) == 0);
}

static bool version_file(const char *path)
{
	return path && (strcmp(path, "/proc/version") == 0 ||
			strcmp(path, "/proc/sys/kernel/osrelease") == 0 ||
			strcmp(path, "/proc/sys/kernel/version") == 0);
}

/* The SMBIOS table's System Information (type 1) UUID, 16 raw bytes at offset 08h (DMTF
 * DSP0134 7.2, SMBIOS 2.1 and later), replaced in place by keyed bytes laid out as a
 * version 4 UUID (the first three fields little endian, as SMBIOS 2.6 reads them). All
 * 00h ("not present") and all FFh ("not set") identify nothing and are kept. */
static void redact_smbios_uuid(struct pl_redactor *r, uint8_t *d, size_t n)
{
	size_t off = 0;
	while (off + 4 <= n) {
		uint8_t type = d[off], flen = d[off + 1];
		if (flen < 4 || off + flen > n)
			return;
		size_t end = off + flen;
		while (end + 1 < n && !(d[end] == 0 && d[end + 1] == 0))
			end++;
		if (end + 1 >= n)
			return;
		if (type == 1 && flen >= 0x18) {
			uint8_t *u = d + off + 8;
			bool zero = true, ones = true;
			for (int k = 0; k < 16; k++) {
				zero &= u[k] == 0x00;
				ones &= u[k] == 0xff;
			}
			if (!zero && !ones) {
				uint8_t h[32];
				mac_of(r, PL_RK_UUID, (const char *)u, 16, h);
				memcpy(u, h, 16);
				u[7] = (uint8_t)((u[7] & 0x0f) | 0x40); /* version 4 */
				u[8] = (uint8_t)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
				r->counts[PL_RK_UUID]++;
			}
		}
		if (type == 127)
			return;
		off = end + 2;
	}
}

char *pl_redact_buf(struct pl_redactor *r, const char *path, const char *data, size_t len,
		    size_t *outlen)
{
	bool binary = path && memchr(data, '\0', len) != NULL;
	if (path && compressed(data, len)) {
		char *o = pl_xmalloc(len + 1);
		memcpy(o, data, len);
		o[len] = '\0';
		*outlen = len;
		return o;
	}
	size_t cap = len + 64, n = 0, pos = 0;
	char *o = pl_xmalloc(cap);
	struct pl_redact_match m;
	bool vf = version_file(path);
	while (pl_redact_next(r, data, len, pos, binary, vf, &m)) {
		char ps[352]; /* a token is at most 255 bytes (a literal), a pseudonym 80 */
		size_t pl = pl_redact_pseudonym(r, m.kind, data + m.off, m.len, binary, ps);
		size_t need = n + (m.off - pos) + pl + (len - m.off - m.len) + 1;
		if (need > cap) {
			cap = need + cap / 2;
			o = pl_xrealloc(o, cap);
		}
		memcpy(o + n, data + pos, m.off - pos);
		n += m.off - pos;
		memcpy(o + n, ps, pl);
		n += pl;
		pos = m.off + m.len;
		r->counts[m.kind]++;
	}
	if (n + (len - pos) + 1 > cap)
		o = pl_xrealloc(o, n + (len - pos) + 1);
	memcpy(o + n, data + pos, len - pos);
	n += len - pos;
	o[n] = '\0';
	if (path && strcmp(path, "/sys/firmware/dmi/tables/DMI") == 0)
		redact_smbios_uuid(r, (uint8_t *)o, n);
	*outlen = n;
	return o;
}

char *pl_redact_str(struct pl_redactor *r, const char *s)
{
	size_t n;
	return pl_redact_buf(r, NULL, s, strlen(s), &n);
}

json_t *pl_redactor_counts(const struct pl_redactor *r)
{
	json_t *o = json_object();
	for (int k = 0; k < PL_RK_COUNT; k++)
		json_object_set_new(o, pl_redact_kind_names[k],
				    json_integer((json_int_t)r->counts[k]));
	return o;
}

size_t pl_redactor_count(const struct pl_redactor *r, enum pl_redact_kind kind)
{
	return r->counts[kind];
}
