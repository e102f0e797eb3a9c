#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The SMBIOS Memory Device parser (src/facts/dimm.c) against dmidecode on the same blob:
# tests/fixtures/make-smbios.py builds each table twice, as the kernel's raw
# /sys/firmware/dmi/tables/DMI (read by perflab through a sysroot) and as a
# `dmidecode --dump-bin` file (read by `dmidecode --from-dump`); every populated module's
# locator, size, type, speeds, rank, manufacturer and part number must agree. Then the
# channel and peak-bandwidth facts of the 16-DIMM layout, and bad tables.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/facts/facts-lib.sh"
GEN=$PERFLAB_SRCDIR/tests/fixtures/make-smbios.py
DMIDECODE=$(command -v dmidecode || echo /usr/sbin/dmidecode)

# tree NAME LAYOUT: $TMP/NAME/sys/firmware/dmi/tables/DMI and $TMP/NAME.dump
tree() {
	mkdir -p "$TMP/$1/sys/firmware/dmi/tables"
	python3 "$GEN" "$2" "$TMP/$1/sys/firmware/dmi/tables/DMI" "$TMP/$1.dump"
}

# perflab's view, one line per populated module, in dmidecode's words
ours() {
	jq -r '.facts["dimm.devices"].value[] |
		def sz: if . == null then "Unknown"
			elif . % 1073741824 == 0 then "\(. / 1073741824) GB"
			elif . % 1048576 == 0 then "\(. / 1048576) MB" else "\(. / 1024) kB" end;
		def ns: if . == "" then "Not Specified" else . end;
		[.locator, (.size_bytes | sz), .type, "\(.speed_mts) MT/s",
		 "\(.configured_mts) MT/s", "\(.rank)", (.manufacturer | ns),
		 (.part_number | ns)] | join("|")' "$1"
}

# dmidecode's view of the same fields, populated modules only
theirs() {
	"$DMIDECODE" --from-dump "$1" -t 17 | awk -F': ' '
		/^Memory Device/ { if (n) print line; line = ""; n = 1; sz = ""; next }
		/^\tSize: / { sz = $2 }
		/^\t(Locator|Size|Type|Speed|Configured Memory Speed|Rank|Manufacturer|Part Number): / {
			f[$1] = $2 }
		/^\tConfigured Voltage|^\tMemory Subsystem Controller Product ID|^$/ && n && sz != "" {
			if (sz != "No Module Installed")
				print f["\tLocator"] "|" sz "|" f["\tType"] "|" f["\tSpeed"] "|" \
				      f["\tConfigured Memory Speed"] "|" f["\tRank"] "|" \
				      f["\tManufacturer"] "|" f["\tPart Number"]
			n = 0; sz = "" }'
}

for layout in server16 edge; do
	tree "$layout" "$layout"
	ok "$layout: inspect --domain dimm" "$PERFLAB" inspect --json --domain dimm --sysroot "$TMP/$layout"
	cp "$OUT" "$TMP/$layout.json"
	validate inspect.schema.json "$TMP/$layout.json"
	if [ ! -x "$DMIDECODE" ]; then
		skip "$layout: modules agree with dmidecode --from-dump" "dmidecode not installed (scripts/install-deps.sh test)"
		continue
	fi
	want=$(theirs "$TMP/$layout.dump")
	like "$layout: dmidecode decoded the dump" "$want" '\|'
	is "$layout: every module agrees with dmidecode --from-dump" "$(ours "$TMP/$layout.json")" "$want"
done

J=$TMP/server16.json
is "server16: slots, modules, bytes" "$(fact dimm.slots "$J") $(fact dimm.count "$J") $(fact dimm.total_bytes "$J")" \
	"24 16 $((16 * 32 << 30))"
is "server16: channels populated of total" "$(fact dimm.channels.populated "$J")/$(fact dimm.channels.total "$J")" 11/12
is "server16: the downclocked channel" \
	"$(jq -r '[.facts["dimm.channels"].value[] | select(.configured_mts != 2933) | "\(.channel)=\(.configured_mts)"] | join(",")' "$J")" \
	"P1-DIMMC=2666"
# 10 channels x 2933 MT/s + 1 x 2666 MT/s, 8 B per transfer
is "server16: peak bandwidth (GB/s)" "$(jq -r '.facts["dimm.peak_bandwidth_gbps"].value * 1000 | round' "$J")" 255968
is "server16: source" "$(source_of dimm.devices "$J")" /sys/firmware/dmi/tables/DMI
J=$TMP/edge.json
is "edge: unknown size counts as a module" "$(fact dimm.count "$J")" 4
like "edge: DIMM_D1 has no strings" "$(jq -c '.facts["dimm.devices"].value[3]' "$J")" '"bank_locator":"","channel":"DIMM_D"'

# bad tables: truncated, garbage, empty, unreadable: unavailable facts, never a crash
mkdir -p "$TMP/bad/sys/firmware/dmi/tables"
mkdir -p "$TMP/bad/proc" && echo quiet >"$TMP/bad/proc/cmdline" # a tree needs one fact
B=$TMP/bad/sys/firmware/dmi/tables/DMI
head -c 150 "$TMP/server16/sys/firmware/dmi/tables/DMI" >"$B"
ok "truncated table" "$PERFLAB" inspect --json --domain dimm,kernel --sysroot "$TMP/bad"
is "truncated: the complete structures before the cut" "$(jq -r '.facts["dimm.slots"].value' "$OUT")" 1
printf '\021\002garbage' >"$B"
ok "garbage table" "$PERFLAB" inspect --json --domain dimm,kernel --sysroot "$TMP/bad"
like "garbage: unavailable" "$(jq -r '.facts["dimm.count"].unavailable' "$OUT")" 'not an SMBIOS structure table'
: >"$B"
ok "empty table" "$PERFLAB" inspect --json --domain dimm,kernel --sysroot "$TMP/bad"
like "empty: no type 17" "$(jq -r '.facts["dimm.count"].unavailable' "$OUT")" 'no Memory Device'
rm -f "$B"
ok "no table" "$PERFLAB" inspect --json --domain dimm,kernel --sysroot "$TMP/bad"
like "missing: not present" "$(jq -r '.facts["dimm.peak_bandwidth_gbps"].unavailable' "$OUT")" 'not present'
done_testing
