#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab --version [--json]: the first line scripts parse, the commit against git, the
# build facts, the JSON against docs/schemas/version.schema.json and against the text,
# and the run-time parts: perflab-mpi beside perflab or in PATH, NVML through the
# monitor's stand-in library (PERFLAB_NVML_LIB), QAT present or with its reason.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB

ok "--version" "$P" --version
cp "$OUT" "$TMP/v.txt"
want=$(sed -n "s/^  version : '\([^']*\)',$/\1/p" "$PERFLAB_SRCDIR/meson.build")
like "meson.build's version parsed" "$want" '^[0-9]+\.[0-9]+\.[0-9]+$'
is "first line: perflab X.Y.Z (scripts parse it)" "$(head -1 "$TMP/v.txt")" "perflab $want"
commit=$(sed -n 's/^commit: //p' "$TMP/v.txt")
if [ -e "$PERFLAB_SRCDIR/.git" ] && command -v git >/dev/null &&
	head=$(git -C "$PERFLAB_SRCDIR" rev-parse --short HEAD 2>/dev/null); then
	is "commit: git rev-parse --short HEAD of the source tree" "$commit" "$head"
else
	is "commit: unknown outside a git checkout" "$commit" "unknown"
fi
like "build type: one of meson's" "$(sed -n 's/^build type: //p' "$TMP/v.txt")" \
	'^(plain|debug|debugoptimized|release|minsize|custom)$'
with=$(sed -n 's/^built with: //p' "$TMP/v.txt")
for lib in libisal liburing libpci libarchive hwloc jansson libzstd; do
	like "built with: $lib and its version" "$with" "(^|, )$lib [0-9][0-9.]*(,|$)"
done
like "perflab-mpi built: yes or no" "$(sed -n 's/^perflab-mpi built: //p' "$TMP/v.txt")" '^(yes|no)$'
like "found at run time: perflab-mpi" "$(cat "$TMP/v.txt")" $'\n  perflab-mpi +(yes|no) \\([^)]+\\)'
like "found at run time: NVML" "$(cat "$TMP/v.txt")" $'\n  NVML +(yes|no) \\(.+\\)'
like "found at run time: QAT" "$(cat "$TMP/v.txt")" $'\n  QAT +(yes|no) \\(.+\\)'

ok "--version --json" "$P" --version --json
cp "$OUT" "$TMP/v.json"
validate version.schema.json "$TMP/v.json"
is "json: version = the text's" "$(jq -r .version "$TMP/v.json")" "$want"
is "json: commit = the text's" "$(jq -r .commit "$TMP/v.json")" "$commit"
is "json: built_with = the text's" \
	"$(jq -r '[.built_with[] | .name + (if .version then " " + .version else "" end)] | join(", ")' "$TMP/v.json")" "$with"
ok "--json --version (either order)" "$P" --json --version
is "--json --version prints the same document" "$(jq -S 'del(.run_time)' "$OUT")" "$(jq -S 'del(.run_time)' "$TMP/v.json")"

# --version takes only --json after it: anything else is a usage error of one line
for extra in "--bogus" "extra" "--json -o $TMP/v.out" "--json --json-bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "--version $extra: exit 2" "$P" --version $extra
	is "--version $extra: nothing on stdout" "$(cat "$OUT")" ""
	is "--version $extra: one line" "$(wc -l <"$ERR")" "1"
	like "--version $extra: names the word" "$(cat "$ERR")" "unexpected '[^']+' after --version"
done
[ ! -e "$TMP/v.out" ]
is "--version --json -o F: F not written" "$?" "0"

# perflab-mpi: beside perflab (a copy of perflab alone in a directory, PATH without one)
mkdir -p "$TMP/alone" "$TMP/beside"
cp "$P" "$TMP/alone/perflab"
cp "$P" "$TMP/beside/perflab"
printf '#!/bin/sh\n' >"$TMP/beside/perflab-mpi"
chmod +x "$TMP/beside/perflab-mpi"
ok "perflab-mpi beside perflab" env PATH=/usr/bin:/bin "$TMP/beside/perflab" --version --json
is "perflab-mpi beside perflab: found there" "$(jq -r '.run_time["perflab-mpi"] | "\(.found) \(.where)"' "$OUT")" \
	"true $TMP/beside/perflab-mpi"
if ! PATH=/usr/bin:/bin command -v perflab-mpi >/dev/null; then
	ok "perflab-mpi nowhere" env PATH=/usr/bin:/bin "$TMP/alone/perflab" --version --json
	is "perflab-mpi nowhere: not found" "$(jq -r '.run_time["perflab-mpi"].found' "$OUT")" "false"
	like "perflab-mpi nowhere: the reason" "$(jq -r '.run_time["perflab-mpi"].reason' "$OUT")" \
		'PATH|not built'
	ok "perflab-mpi in PATH" env PATH="$TMP/beside:/usr/bin:/bin" "$TMP/alone/perflab" --version --json
	is "perflab-mpi in PATH: found there" "$(jq -r '.run_time["perflab-mpi"].where' "$OUT")" \
		"$TMP/beside/perflab-mpi"
else
	skip "perflab-mpi nowhere" "a perflab-mpi is installed in /usr/bin or /bin"
fi

# NVML: the monitor tests' stand-in library loads; a missing one is named
stub=$PERFLAB_BUILDDIR/tests/monitor/libnvml-stub.so
if [ -f "$stub" ]; then
	ok "NVML stand-in" env PERFLAB_NVML_LIB="$stub" "$P" --version --json
	is "NVML stand-in: found" "$(jq -r .run_time.nvml.found "$OUT")" "true"
	validate version.schema.json "$OUT"
else
	skip "NVML stand-in" "tests/monitor/libnvml-stub.so not built"
fi
ok "NVML missing" env PERFLAB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 "$P" --version --json
is "NVML missing: not found" "$(jq -r .run_time.nvml.found "$OUT")" "false"
like "NVML missing: the reason names the library" "$(jq -r .run_time.nvml.reason "$OUT")" \
	'/nonexistent/libnvidia-ml.so.1'
ok "NVML missing: text" env PERFLAB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 "$P" --version
like "NVML missing: text says no and why" "$(cat "$OUT")" $'\n  NVML +no \\(/nonexistent/libnvidia-ml.so.1'
like "QAT: found, or a reason" "$(jq -r '.run_time.qat | if .found then .where else .reason end' "$TMP/v.json")" '.'
done_testing
