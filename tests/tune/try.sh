#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tune try PROFILE... -- CMD: baseline + one compare variant per profile; the profile's
# values are applied during its runs and restored byte-identically after (normal end,
# failing command, SIGINT); reboot items are named as not applied; bad input is exit 2
# with nothing changed. Live sysctl writes happen inside a fresh network namespace
# (net.* sysctls are private there), as in tests/compare/sysctl.sh; compare refuses a
# --sysroot other than / for writes, so the fixture-tree form is not possible yet.
. "$PERFLAB_SRCDIR/tests/lib-netns.sh" "tune try in a network namespace"
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
K=/proc/sys/net/ipv4/ip_default_ttl
cp $K "$TMP/orig.bytes"
orig=$(cat $K)
new=$((orig == 77 ? 78 : 77))
STATE=(--state-dir "$TMP/state" --profile-dir "$TMP/profiles")
mkdir -p "$TMP/profiles/pltry" "$TMP/profiles/plboot"
printf '[main]\nsummary=try test\n[sysctl]\nnet.ipv4.ip_default_ttl=%s\n' "$new" \
	>"$TMP/profiles/pltry/tuned.conf"
printf '[main]\nsummary=try boot\n[sysctl]\nnet.ipv4.ip_default_ttl=%s\n[bootloader]\ncmdline=mitigations=off\n' "$new" \
	>"$TMP/profiles/plboot/tuned.conf"
# cat: cmp alone compares st_size first, and /proc files say 0
same() { cat "$K" | cmp -s - "$TMP/orig.bytes"; }

# each run prints the value it sees; the variant must see $new, the baseline $orig
ok "try: baseline and variant" "$P" --json -o "$TMP/try.json" tune try pltry --runs 3 --warmup 0 "${STATE[@]}" \
	-- /bin/sh -c "v=\$(cat $K); echo \$v >>$TMP/seen; test \$v = $orig -o \$v = $new"
is "json: variants" "$(jq -r '[.variants[].name] | join(",")' "$TMP/try.json")" "baseline,pltry"
is "json: the profile of the variant" "$(jq -r '.variants[1].profile' "$TMP/try.json")" "pltry"
is "values seen during the runs" "$(sort "$TMP/seen" | uniq -c | awk '{print $1"x"$2}' | tr '\n' ' ')" \
	"$(printf '%s\n' "3x$orig" "3x$new" | sort -t x -k2 | tr '\n' ' ')"
ok "restored byte-identically after" same

expect_exit 3 "try: failing command" "$P" tune try pltry --runs 3 "${STATE[@]}" -- /bin/sh -c 'exit 4'
ok "restored after a failing command" same

"$P" tune try pltry --runs 5 --warmup 0 "${STATE[@]}" -- /bin/sleep 30 >/dev/null 2>"$TMP/int.err" &
pid=$!
# the sleep first, then the value: the value is fixed while a run's child lives, but
# compare's up-front check writes and restores it before any run starts (CI once read
# $new in that window, then found the baseline's sleep)
for _ in $(seq 1200); do
	pgrep -P $pid -x sleep >/dev/null && [ "$(cat $K)" = "$new" ] && break
	sleep 0.05
done
is "applied while the variant runs" "$(cat $K)" "$new"
kill -INT $pid
wait $pid
is "SIGINT: exit 130, as every measuring command" "$?" 130
ok "restored after SIGINT" same

ok "try: reboot items" "$P" tune try plboot --runs 2 --warmup 0 "${STATE[@]}" --json -o "$TMP/boot.json" -- /bin/true
like "reboot item named as not applied" "$(cat "$ERR")" "profile 'plboot': not applied: .*cmdline.*needs a reboot"
validate compare.schema.json "$TMP/boot.json"
is "reboot item listed as not applied in the JSON, the sysctl item not" \
	"$(jq -c '[.variants[] | {(.name): .not_applied}] | add' "$TMP/boot.json")" \
	'{"baseline":[],"plboot":["[bootloader] cmdline (needs a reboot)"]}'
ok "restored after the reboot profile" same

ok "try --help is the help, not an error" "$P" tune try --help
like "try --help documents try" "$(cat "$OUT")" "try PROFILE\.\.\. -- CMD"
for c in "unknown profile|no-such-profile -- /bin/true" "no --|pltry /bin/true" "no command|pltry --" \
	"runs 0|pltry --runs 0 -- /bin/true" "no profile|-- /bin/true"; do
	# shellcheck disable=SC2086
	expect_exit 2 "bad input: ${c%%|*}" "$P" tune try "${STATE[@]}" ${c#*|}
	is "bad input: ${c%%|*}: one line" "$(wc -l <"$ERR")" 1
	ok "bad input: ${c%%|*}: unchanged" same
done
done_testing
