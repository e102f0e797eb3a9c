#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi's node names from hostile hostnames, one fixture sysroot per rank, each
# hostname 300 bytes of h then DUP, DUP, DUP#2 or a control sequence: four nodes (nodes
# are told apart by the whole key, never by a prefix) with four names (the real DUP#2
# keeps its own); the control sequence is escaped in the terminal output; a hostname
# longer than 1024 bytes is refused on every rank (exit 2, one line).
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

long=$(printf 'h%.0s' $(seq 300))
hosts=("${long}dup" "${long}dup" "${long}dup#2" "${long}"$'esc\e[2J\rforged')
mkdir "$TMP/sr"
for i in "${!hosts[@]}"; do
	cp -r "$FIXTURES/sysroots/intel-2s" "$TMP/sr/$i"
	printf '%s\n' "${hosts[$i]}" >"$TMP/sr/$i/proc/sys/kernel/hostname"
done
SR=(--sysroot-per-rank "$TMP/sr/%r")

J=$TMP/inspect.json
ok "inspect --json on 4 ranks with hostile hostnames" MPI inspect "${SR[@]}" --json -o "$J"
is "four nodes, four names" "$(jq '[.nodes[].name]|unique|length' "$J")" "4"
is "DUP, DUP, DUP#2: the real DUP#2 keeps its name" \
	"$(jq -r --arg l "$long" '[.nodes[0,1,2]|"\(.name|ltrimstr($l))=\(.source)"]|join(",")' "$J")" \
	"dup=rank 0,dup#3=rank 1,dup#2=rank 2"
ok "inspect (text)" MPI inspect "${SR[@]}"
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$OUT"; then
	_report fail "text: no control characters" "$(od -c "$OUT" | head -20)"
else _report ok "text: no control characters"; fi
like "text: the hostname escaped" "$(cat "$OUT")" 'esc\\x1b\[2J\\x0dforged'

printf '%s\n' "$(printf 'x%.0s' $(seq 1100))" >"$TMP/sr/1/proc/sys/kernel/hostname"
expect_exit 2 "a 1100-byte hostname: exit 2" MPI inspect "${SR[@]}" --json -o "$TMP/no.json"
is "one error line naming the rank and the limit" "$(one_error)" \
	"1 perflab-mpi: error: rank 1: the hostname is 1100 bytes long; perflab-mpi takes hostnames of at most 1024 bytes"
ok "nothing written" test ! -e "$TMP/no.json"
done_testing
