# SPDX-License-Identifier: GPL-3.0-or-later
# Helpers shared by the facts tests (source after tests/lib.sh).

# fact KEY FILE: the value of KEY compact (strings raw), or "unavailable: REASON"
fact() {
	jq -r --arg k "$1" '.facts[$k] | if . == null then "missing"
		elif has("unavailable") then "unavailable: " + .unavailable
		elif (.value | type) == "string" then .value else (.value | tojson) end' "$2"
}

# source KEY FILE: where KEY was read from (empty when unavailable)
source_of() { jq -r --arg k "$1" '.facts[$k].source // ""' "$2"; }

inspect_json() { # NAME DIR -> $TMP/NAME.json
	ok "inspect --json --sysroot $1" "$PERFLAB" inspect --json --sysroot "$2"
	cp "$OUT" "$TMP/$1.json"
	validate inspect.schema.json "$TMP/$1.json"
	is "$1: nothing on stderr" "$(cat "$ERR")" ""
}
