/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab snapshot --redact (docs/snapshot.md, "Redaction"): identifying values in a
 * snapshot's bytes replaced with keyed pseudonyms. Two kinds of token are found:
 * patterns (IPv4 and IPv6 addresses, MAC and other hardware addresses, UUIDs, cloud
 * instance ids such as i-0123456789abcdef0) anywhere, and literals learnt from the
 * members first (pl_redactor_learn(): the hostname, DMI/SMBIOS and disk serials, asset
 * tags, machine-id and boot_id, the users of /etc/passwd with their homes) or given
 * (pl_redactor_literal(): the invoking user). A pseudonym is HMAC-SHA256 (RFC 2104) of
 * the kind and the token under the key, written in the token's shape: an IPv4 address in
 * a documentation range (RFC 5737), IPv6 in 2001:db8::/32 (RFC 3849) or fe80::/64, a MAC
 * locally administered, a UUID as a version 4 UUID, a hostname "host-3f9a2c", so the
 * same token gives the same pseudonym under the same key and the parsers read the result
 * as before. Values that identify nothing are kept: loopback, unspecified, broadcast,
 * netmask and multicast addresses, all-zero and all-ff MACs and UUIDs, DMI placeholders
 * ("Not Specified", "To Be Filled By O.E.M."). */
#ifndef PERFLAB_SNAPSHOT_REDACT_H
#define PERFLAB_SNAPSHOT_REDACT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** What a token is; the manifest's "redactions" counts replacements per kind. */
enum pl_redact_kind {
	PL_RK_HOSTNAME,
	PL_RK_IPV4,
	PL_RK_IPV6,
	PL_RK_MAC,
	PL_RK_SERIAL,
	PL_RK_UUID,
	PL_RK_USER,
	PL_RK_HOME,
	PL_RK_INSTANCE_ID,
	PL_RK_COUNT,
};

/** The manifest's name of each kind ("hostname", "ipv4", ..., "instance_id"). */
extern const char *const pl_redact_kind_names[PL_RK_COUNT];

/** One token found by the scanner: @len bytes at @off of the buffer, of @kind. */
struct pl_redact_match {
	size_t off, len;
	enum pl_redact_kind kind;
};

/** The shortest literal kept per kind: a hostname or user name of 2 bytes, a serial or
 *  asset tag of 4 (shorter values would match ordinary words and numbers). */
#define PL_REDACT_MIN_NAME 2
#define PL_REDACT_MIN_SERIAL 4

/** Largest output pl_redact_buf() gives for @len input bytes: a token of 3 bytes (an IPv6
 *  address "1::") becomes at most 39 ("2001:db8:" and six groups). */
#define PL_REDACT_BOUND(len) (16 * (len) + 16)

struct pl_redactor;

/** A redactor keyed with @keylen bytes at @key (copied; at least 1 byte). Never NULL. */
struct pl_redactor *pl_redactor_new(const void *key, size_t keylen);
/** Free @r (NULL is fine). */
void pl_redactor_free(struct pl_redactor *r);

/** Add the literal token @tok of @kind (hostname, serial, uuid, user, home, instance_id),
 *  trimmed of surrounding white space. A placeholder, a value of one repeated byte or one
 *  shorter than the kind's minimum is not added. A hostname with dots adds its first
 *  label too. Returns true when added. */
bool pl_redactor_literal(struct pl_redactor *r, enum pl_redact_kind kind, const char *tok);

/** Learn the literal tokens that the member @path (absolute, "/etc/passwd") with @len
 *  bytes at @data holds, by its path: the hostname files, DMI and disk serials, asset
 *  tags, machine-id, boot_id and product_uuid, /etc/passwd's users with uid 1000 or more
 *  (not nobody, 65534) and their homes, and the serials and asset tags of the SMBIOS
 *  table (/sys/firmware/dmi/tables/DMI: system, baseboard, chassis, processor, memory
 *  device). Call it for every member before redacting any. */
void pl_redactor_learn(struct pl_redactor *r, const char *path, const char *data, size_t len);

/** Find the first token at or after @from in @len bytes at @data into @m. @binary: the
 *  buffer holds NUL bytes, so only tokens whose pseudonym has their length are looked
 *  for (literals, UUIDs, hardware addresses, instance ids); @version_file: the buffer is
 *  a kernel version file (/proc/version, /proc/sys/kernel/osrelease, .../version), where
 *  a dotted quad is a version, not an IPv4 address. Returns true when one was found. */
bool pl_redact_next(const struct pl_redactor *r, const char *data, size_t len, size_t from,
		    bool binary, bool version_file, struct pl_redact_match *m);

/** The pseudonym of the @len-byte token @tok (at most 255 bytes) of @kind into @out (at
 *  least 352 bytes), NUL-terminated: its length. @same_len: exactly @len bytes (hex
 *  digits for a literal), as in a binary member. Counts nothing. */
size_t pl_redact_pseudonym(const struct pl_redactor *r, enum pl_redact_kind kind, const char *tok,
			   size_t len, bool same_len, char *out);

/** A malloc'd copy of @len bytes at @data with every token pl_redact_next() finds
 *  replaced by its pseudonym, NUL-terminated, its length in *outlen (at most
 *  PL_REDACT_BOUND(@len)); @path (the member's absolute path, or NULL for a string that
 *  is no member's bytes) decides the kernel version files. A member holding a NUL byte
 *  keeps its length; a compressed one (gzip, zstd, xz magic: /proc/config.gz) is copied
 *  as it is. In the SMBIOS table (/sys/firmware/dmi/tables/DMI) the System Information
 *  UUID's 16 raw bytes are replaced too (counted as uuid). Counts each replacement. */
char *pl_redact_buf(struct pl_redactor *r, const char *path, const char *data, size_t len,
		    size_t *outlen);
/** pl_redact_buf() of the string @s (a member name, a link target, an argument). */
char *pl_redact_str(struct pl_redactor *r, const char *s);

/** The replacements made so far per kind, as the manifest's "redactions" object (every
 *  kind, 0 included). New reference. */
json_t *pl_redactor_counts(const struct pl_redactor *r);
/** The replacements made so far of @kind. */
size_t pl_redactor_count(const struct pl_redactor *r, enum pl_redact_kind kind);

#endif
