#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab snapshot --redact (docs/snapshot.md, "Redaction"): (1) no identifying value of
# this machine (hostname, every address of /sys/class/net and the interfaces, DMI serials
# and UUIDs, machine-id, boot_id, the user and home of a non-system account) is left in
# the decompressed bytes of any member, the member names or the manifest; (2) the facts of
# a redacted snapshot are those of an unredacted one taken right after, but for the facts
# that hold redacted values (REDACTED below) and the volatile ones (snapshot.sh); (3) the
# same --redact-key gives the same pseudonyms, another key others; (4) a tree with planted
# tokens gives the expected counts per kind and keeps the other facts exactly; (5) a bad
# --redact-key is exit 2 with one line naming it, and no archive.
. "$PERFLAB_SRCDIR/tests/lib.sh"
command -v jq >/dev/null || { skip "redact" "jq missing"; done_testing; exit 0; }
tar --help | grep -q -- --zstd || { skip "redact" "tar without --zstd"; done_testing; exit 0; }
cd "$TMP" || exit 1
# the invoking user's name and home are literals only for uid >= 1000; the planted tree's
# counts must not depend on who runs the test
run() { env -u USER -u LOGNAME -u HOME -u SUDO_UID -u SUDO_USER "$PERFLAB" "$@"; }

# The facts that hold values --redact replaces: the hostname, and the boot command line
# (ip=, root=UUID=, addresses and hostnames given to the kernel) and its parameters.
REDACTED='["kernel.hostname","kernel.cmdline","kernel.cmdline.params"]'
# The facts that change by themselves (snapshot.sh and docs/snapshot.md, "Facts that differ").
VOLATILE='["mem.available_bytes","mem.hugepages.free","numa.local_pages","numa.other_pages","numa.remote_ratio"]'
# changed A.json B.json: the keys of the facts that differ, but for the volatile ones
changed() {
	jq -n -r --argjson v "$VOLATILE" --slurpfile a "$1" --slurpfile b "$2" '
		($a[0].facts) as $x | ($b[0].facts) as $y
		| [($x + $y) | keys[] | . as $k
		   | select(($v | index($k)) == null and ($k | startswith("kmsg.") | not))
		   | select($x[$k] != $y[$k])] | join(" ")'
}
# outside KEYS: the keys of KEYS (space-separated) that are not in REDACTED
outside() { jq -n -r --argjson r "$REDACTED" --arg k "$1" '[$k | split(" ")[] | . as $f | select($f != "" and ($r | index($f)) == null)] | join(" ")'; }

# leaks DIR TOKEN...: the tokens found in any member of DIR (names included; a .gz member's
# decompressed bytes, not its compressed ones), as whole words; a hostname of fewer than 4 bytes not next to '.', '/'
# either (the redactor's rule, docs/snapshot.md)
leaks() {
	local d=$1 t
	shift
	(cd "$d" && find . -print) >"$TMP/names.txt"
	find "$d" -name '*.gz' -type f -exec sh -c 'zcat "$1" 2>/dev/null' _ {} \; >"$TMP/gz.txt"
	for t in "$@"; do
		if [ "${#t}" -lt 4 ]; then
			grep -r -a -q --exclude='*.gz' -P "(?<![\\w./-])\\Q$t\\E(?![\\w./-])" "$d" "$TMP/names.txt" "$TMP/gz.txt" && echo "$t"
		else
			grep -r -a -q --exclude='*.gz' -P "(?<![\\w-])\\Q$t\\E(?![\\w-])" "$d" "$TMP/names.txt" "$TMP/gz.txt" && echo "$t"
		fi
	done
}

# --- (1) this machine: no original left ---------------------------------------------------
tokens=()
h=$(cat /proc/sys/kernel/hostname)
case $h in localhost | localhost.localdomain | "(none)" | "") ;; *) tokens+=("$h" "${h%%.*}") ;; esac
for a in /sys/class/net/*/address; do
	m=$(cat "$a" 2>/dev/null) || continue
	case $m in *[1-9a-f]*) case $m in *[0-9a-e]*) tokens+=("$m") ;; esac ;; esac
done
if command -v ip >/dev/null; then
	while read -r addr; do
		case $addr in 127.* | ::1 | 0.0.0.0 | ::) ;; *) tokens+=("$addr") ;; esac
	done < <(ip -o addr show | awk '{print $4}' | cut -d/ -f1)
fi
for f in product_serial board_serial chassis_serial product_uuid board_asset_tag chassis_asset_tag; do
	v=$(cat "/sys/class/dmi/id/$f" 2>/dev/null) || continue
	case $v in "" | "Not Specified" | "To Be Filled By O.E.M." | "Default string" | None | 0*0 | "Not Applicable") ;; *) tokens+=("$v") ;; esac
done
for f in /etc/machine-id /proc/sys/kernel/random/boot_id; do
	[ -r "$f" ] && tokens+=("$(cat "$f")")
done
if [ "$(id -u)" -ge 1000 ]; then tokens+=("$(id -un)" "$HOME"); fi
echo "# identifying values of this machine searched for: ${#tokens[@]}"

expect_exit 0 "live: snapshot --redact" "$PERFLAB" snapshot -q --redact -o "$TMP/red.tar.zst"
"$PERFLAB" snapshot -q -o "$TMP/plain.tar.zst"
mkdir -p red plain && tar --zstd -xf red.tar.zst -C red && tar --zstd -xf plain.tar.zst -C plain
is "live: no identifying value left in any member, name or the manifest" "$(leaks red "${tokens[@]}" | head -5)" ""
is "live: the manifest says it is redacted" "$(jq .hostname_redacted red/perflab-snapshot.json)" true
is "live: the manifest counts every kind" "$(jq -c '.redactions | keys' red/perflab-snapshot.json)" \
	'["home","hostname","instance_id","ipv4","ipv6","mac","serial","user","uuid"]'
validate snapshot.schema.json red/perflab-snapshot.json
is "live: an unredacted snapshot says so, without counts" \
	"$(jq -c '[.hostname_redacted, has("redactions")]' plain/perflab-snapshot.json)" '[false,false]'
is "live: redacted members match their manifest" \
	"$(/usr/bin/python3 "$PERFLAB_SRCDIR/tests/snapshot/manifest-check.py" red)" ""

# --- (2) the other facts unchanged -------------------------------------------------------
"$PERFLAB" inspect --json --sysroot red >red.json
"$PERFLAB" inspect --json --sysroot plain >plain.json
ch=$(changed plain.json red.json)
echo "# facts that differ between the redacted and the plain snapshot: ${ch:-none}"
is "live: only facts holding redacted values differ (and the volatile ones)" "$(outside "$ch")" ""
if [ -n "$h" ] && [ "$h" != localhost ]; then
	like "live: the hostname is a pseudonym" "$(jq -r '.facts["kernel.hostname"].value' red.json)" '^host-[0-9a-f]{6}$'
fi

# --- (4) a tree with planted tokens: the counts per kind ---------------------------------
cp -a "$FIXTURES/sysroots/dimm-2s" planted
mkdir -p planted/proc/sys/kernel
echo node17.example.com >planted/proc/sys/kernel/hostname
echo "BOOT_IMAGE=/boot/vmlinuz root=UUID=3e2a1c9d-5b7f-4e0a-9c1d-2f6b8a4e7d10 ro ip=10.20.30.40::10.20.30.1:255.255.255.0:node17:eth0:off ipv6=fd12:3456::7 mac=52:54:00:AB:cd:ef zero=00:00:00:00:00:00 lo=127.0.0.1 id=i-0123456789abcdef0 host=node17.example.com" \
	>planted/proc/cmdline
# a System Information (type 1) structure first, its UUID 16 raw bytes (DSP0134 7.2)
python3 - planted/sys/firmware/dmi/tables/DMI <<'PY'
import sys
p = sys.argv[1]
uuid = bytes.fromhex("8c1e5a6f2b3d4e7f9a0b1c2d3e4f5061")
t1 = bytes([1, 0x1b, 0x00, 0x01, 1, 2, 0, 0]) + uuid + bytes([6, 0, 0]) + b"Planted\0Box\0\0"
d = open(p, "rb").read()
open(p, "wb").write(t1 + d)
PY
printf 'k1-secret\n' >key1
printf 'k2-secret' >key2
expect_exit 0 "planted: snapshot --redact-key" run snapshot -q --sysroot planted --redact-key key1 \
	-o "$TMP/node17.example.com.tar.zst"
mkdir -p p1 && tar --zstd -xf node17.example.com.tar.zst -C p1
# hostname: the hostname file, "node17" and the FQDN on the command line, the -o argument;
# serial: the 16 memory devices' serial 0001ABCD of the SMBIOS table; the zero MAC,
# loopback and the netmask are kept
is "planted: replacements per kind" "$(jq -c .redactions p1/perflab-snapshot.json)" \
	'{"hostname":4,"ipv4":2,"ipv6":1,"mac":1,"serial":16,"uuid":2,"user":0,"home":0,"instance_id":1}'
is "planted: no planted token left" "$(leaks p1 node17.example.com node17 10.20.30.40 10.20.30.1 \
	fd12:3456::7 52:54:00:AB:cd:ef 3e2a1c9d-5b7f-4e0a-9c1d-2f6b8a4e7d10 i-0123456789abcdef0 0001ABCD)" ""
like "planted: the values that identify nothing are kept" "$(cat p1/proc/cmdline)" \
	'255\.255\.255\.0:host-[0-9a-f]{6}:eth0:off .*zero=00:00:00:00:00:00 lo=127\.0\.0\.1 '
like "planted: each pseudonym has its value's shape" "$(cat p1/proc/cmdline)" \
	'root=UUID=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} ro ip=(192\.0\.2|198\.51\.100|203\.0\.113)\.[0-9]+::(192\.0\.2|198\.51\.100|203\.0\.113)\.[0-9]+:.* ipv6=2001:db8:[0-9a-f:]+ mac=[0-9A-F][26AE](:[0-9A-Fa-f]{2}){5} .*id=i-[0-9a-f]{17} host=host-[0-9a-f]{6}$'
is "planted: the manifest's argv holds the pseudonym" \
	"$(jq -r '.argv[-1]' p1/perflab-snapshot.json | grep -c node17)" 0
run inspect --json --sysroot planted >pa.json
run inspect --json --sysroot p1 >pb.json
is "planted: only the facts holding redacted values differ" "$(changed pa.json pb.json)" "kernel.cmdline kernel.cmdline.params kernel.hostname"
is "planted: the SMBIOS System Information UUID's raw bytes are gone" \
	"$(python3 -c 'import sys; print(bytes.fromhex("8c1e5a6f2b3d4e7f9a0b1c2d3e4f5061") in open(sys.argv[1], "rb").read())' \
		p1/sys/firmware/dmi/tables/DMI)" False
is "planted: the SMBIOS table keeps its length" "$(stat -c %s p1/sys/firmware/dmi/tables/DMI)" \
	"$(stat -c %s planted/sys/firmware/dmi/tables/DMI)"
is "planted: the memory devices read as before" "$(jq -S '.facts | with_entries(select(.key | startswith("mem.dimm")))' pb.json)" \
	"$(jq -S '.facts | with_entries(select(.key | startswith("mem.dimm")))' pa.json)"

# --- (3) the key: the same pseudonyms under one key, others under another ----------------
run snapshot -q --sysroot planted --redact-key key1 -o "$TMP/again.tar.zst"
run snapshot -q --sysroot planted --redact-key key2 -o "$TMP/other.tar.zst"
mkdir -p p2 p3 && tar --zstd -xf again.tar.zst -C p2 && tar --zstd -xf other.tar.zst -C p3
is "key: the same key twice, the same members and bytes" \
	"$(diff <(jq -c .members p1/perflab-snapshot.json) <(jq -c .members p2/perflab-snapshot.json) | head -3)" ""
is "key: the same key twice, the same command line" "$(cat p2/proc/cmdline)" "$(cat p1/proc/cmdline)"
ok "key: another key, other pseudonyms" test "$(cat p3/proc/cmdline)" != "$(cat p1/proc/cmdline)"
is "key: another key, the same counts (but the -o name's hostname)" \
	"$(jq -c '.redactions | del(.hostname)' p3/perflab-snapshot.json)" \
	"$(jq -c '.redactions | del(.hostname)' p1/perflab-snapshot.json)"
run snapshot -q --sysroot planted --redact -o "$TMP/rand1.tar.zst"
run snapshot -q --sysroot planted --redact -o "$TMP/rand2.tar.zst"
ok "key: without --redact-key a random key each time" \
	test "$(tar --zstd -xOf rand1.tar.zst proc/cmdline)" != "$(tar --zstd -xOf rand2.tar.zst proc/cmdline)"

# --- (5) a bad --redact-key --------------------------------------------------------------
: >empty
mkdir -p keydir
for k in "$TMP/missing" "$TMP/empty" "$TMP/keydir"; do
	n=$(basename "$k")
	expect_exit 2 "--redact-key $n: exit 2" "$PERFLAB" snapshot -q --sysroot planted --redact-key "$k" -o "$TMP/bad-$n.tar.zst"
	like "--redact-key $n: one line naming it" "$(cat "$ERR")" "--redact-key '$k'"
	is "--redact-key $n: one line" "$(wc -l <"$ERR")" 1
	ok "--redact-key $n: no archive" test ! -e "$TMP/bad-$n.tar.zst"
done

done_testing
