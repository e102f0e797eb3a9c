#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi snapshot: one snapshot per node (the lowest rank of each), gathered by rank 0
# over MPI into DIR/NODE.tar.zst. Four ranks on three fixture trees (ranks 0 and 1 on the
# same tree: one node, as ranks on one host are) give three archives, each with the members
# and facts `perflab snapshot --sysroot` gives for that tree; `perflab report --fleet DIR`
# reads them. Four ranks on this machine give one archive. Bad input: exit 2, nothing
# written.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

mkdir "$TMP/trees" "$TMP/sr"
for n in alpha beta; do
	cp -r "$FIXTURES/sysroots/intel-2s" "$TMP/trees/$n"
	echo "$n" >"$TMP/trees/$n/proc/sys/kernel/hostname"
done
echo "always madvise [never]" >"$TMP/trees/beta/sys/kernel/mm/transparent_hugepage/enabled"
cp -r "$FIXTURES/sysroots/xen-hvm" "$TMP/trees/gamma"
echo gamma >"$TMP/trees/gamma/proc/sys/kernel/hostname"
ln -s "$TMP/trees/alpha" "$TMP/sr/0"
ln -s "$TMP/trees/alpha" "$TMP/sr/1"
ln -s "$TMP/trees/beta" "$TMP/sr/2"
ln -s "$TMP/trees/gamma" "$TMP/sr/3"
D=$TMP/snaps
ok "snapshot on 4 ranks, 3 trees" MPI snapshot --sysroot-per-rank "$TMP/sr/%r" -o "$D"
is "one archive per node" "$(cd "$D" && echo *)" "alpha.tar.zst beta.tar.zst gamma.tar.zst"
like "a line per node" "$(cat "$OUT")" "alpha: $D/alpha.tar.zst \([0-9]+ bytes\)"
like "the summary line" "$(cat "$OUT")" "3 of 3 node snapshots written to $D/"
for n in alpha beta gamma; do
	"$PERFLAB" snapshot --sysroot "$TMP/trees/$n" -o "$TMP/$n.tar.zst" 2>/dev/null
	is "$n: the members perflab snapshot takes of its tree" \
		"$(tar --zstd -tf "$D/$n.tar.zst" | sort | md5sum)" "$(tar --zstd -tf "$TMP/$n.tar.zst" | sort | md5sum)"
	is "$n: the facts of the tree" \
		"$("$PERFLAB" inspect --json --sysroot "$D/$n.tar.zst" 2>/dev/null | jq -cS 'del(.generated)')" \
		"$("$PERFLAB" inspect --json --sysroot "$TMP/trees/$n" 2>/dev/null | jq -cS 'del(.generated)')"
done
is "the manifest's argv is perflab-mpi's" "$(tar --zstd -xOf "$D/alpha.tar.zst" perflab-snapshot.json | jq -r '.argv[0:2]|join(" ")')" \
	"perflab-mpi snapshot"
ok "report --fleet DIR reads them" "$PERFLAB" report --fleet "$D" -o "$TMP/fleet" --json
is "fleet nodes" "$(jq -r '[.nodes[].name]|join(",")' "$OUT")" "alpha,beta,gamma"
is "fleet drift: beta's THP" "$(jq -r '.drift.facts[]|select(.key=="mem.thp.enabled")|.values[]|select(.nodes==["beta"])|.value' "$OUT")" "never"

L=$TMP/live
ok "snapshot on 4 ranks of this machine" MPI snapshot -o "$L"
is "one archive: one host" "$(find "$L" -name '*.tar.zst' | wc -l)" "1"
ok "it is a sysroot" "$PERFLAB" inspect --sysroot "$(find "$L" -name '*.tar.zst')"

echo file >"$TMP/afile"
expect_exit 2 "-o naming a file: exit 2" MPI snapshot --sysroot-per-rank "$TMP/sr/%r" -o "$TMP/afile"
is "one error line" "$(one_error)" \
	"1 perflab-mpi: error: cannot create snapshot directory '$TMP/afile': Not a directory (choose another with -o DIR)"
expect_exit 2 "--json: exit 2" MPI snapshot --json -o "$TMP/no"
like "it says why" "$(one_error)" '^1 perflab-mpi: error: snapshot writes archives, not JSON'
ok "nothing written" test ! -e "$TMP/no"
done_testing
