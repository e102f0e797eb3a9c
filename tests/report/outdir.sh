#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The report's output directories and inputs against another user on the machine:
# a symlink planted at report.md (or monitor.md) is replaced, its target untouched; a
# directory another user owns, or one others may write without the sticky bit, is exit 2
# with one line (the directory, the reason, the fix) and nothing written, before any
# benchmark runs; a FIFO named x.json in a --from directory, or given itself, is exit 2
# at once, not a hang; an input over 64 MiB is refused; text of the input documents with
# HTML and Markdown in it is shown as text in report.md and report.html. The other user
# is nobody (uid 65534): tests run as root here, elsewhere those cases are skipped.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
SYS=$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm
MON=$PERFLAB_SRCDIR/tests/monitor/fixtures/monitor-kvm2.json
export PERFLAB_TIMESTAMP=1780000000
cd "$TMP" || exit 1

report() { "$PERFLAB" report --no-bench --sysroot "$SYS" "$@"; }
# refused NAME DIR REASON CMD...: exit 2, one error line naming DIR, REASON and the fix,
# nothing written into DIR
refused() {
	local name=$1 dir=$2 why=$3
	shift 3
	expect_exit 2 "$name: exit 2" "$@"
	is "$name: one error line" "$(wc -l <"$ERR")" 1
	like "$name: names the directory, the reason and the fix" "$(cat "$ERR")" \
		"error: refusing report directory '$dir': $why \(choose another with -o DIR\)"
	is "$name: nothing written" "$(ls -A "$dir")" ""
}

# a symlink planted in the user's own report directory is replaced, not followed
mkdir own
echo "precious" >target
ln -s "$TMP/target" own/report.md
ok "report into a directory with a planted report.md symlink" report -o own
is "the symlink's target is untouched" "$(cat target)" "precious"
ok "report.md is a regular file now" test -f own/report.md -a ! -L own/report.md
like "report.md is the report" "$(head -1 own/report.md)" '^# perflab report$'
is "no temporary files left" "$(ls -A own | grep -vc '^report\.\(json\|md\|html\)$')" 0

# the same for the cluster directory (report --from of two reports) and the monitor view
mkdir n1 n2 cl mon
report -o n1 >/dev/null && report -o n2 >/dev/null
ln -s "$TMP/target" cl/report.html
ok "cluster report into a directory with a planted symlink" \
	"$PERFLAB" report -o cl --from n1/report.json --from n2/report.json
is "cluster: the symlink's target is untouched" "$(cat target)" "precious"
ok "cluster: report.html is a regular file" test -f cl/report.html -a ! -L cl/report.html
ln -s "$TMP/target" mon/monitor.md
ok "monitor view into a directory with a planted symlink" "$PERFLAB" report -o mon --from "$MON"
is "monitor: the symlink's target is untouched" "$(cat target)" "precious"
ok "monitor: monitor.md is a regular file" test -f mon/monitor.md -a ! -L mon/monitor.md

# a directory others may write without the sticky bit
mkdir open
chmod 0777 open
refused "0777 directory" open "writable by other users" report -o open
refused "0777 directory, cluster" open "writable by other users" \
	"$PERFLAB" report -o open --from n1/report.json --from n2/report.json
refused "0777 directory, monitor view" open "writable by other users" \
	"$PERFLAB" report -o open --from "$MON"
mkdir sticky
chmod 1777 sticky
ok "1777 directory of the user (sticky bit): accepted" report -o sticky

if [ "$(id -u)" -ne 0 ]; then
	skip "a directory owned by another user" "not root: cannot give a directory to nobody"
else
	mkdir theirs
	chown 65534:65534 theirs
	refused "directory owned by nobody" theirs "not owned by you" report -o theirs
	refused "directory owned by nobody, cluster" theirs "not owned by you" \
		"$PERFLAB" report -o theirs --from n1/report.json --from n2/report.json
	refused "directory owned by nobody, monitor view" theirs "not owned by you" \
		"$PERFLAB" report -o theirs --from "$MON"
	# the default ./perflab-report, and before any benchmark runs (no --no-bench: a
	# refusal after the benchmarks would take a minute)
	mkdir cwd
	mkdir cwd/perflab-report
	chown 65534:65534 cwd/perflab-report
	(cd cwd && timeout 20 "$PERFLAB" report >"$OUT" 2>"$ERR")
	is "default ./perflab-report owned by nobody: exit 2 before the benchmarks" "$?" 2
	like "default directory: named with the reason" "$(cat "$ERR")" \
		"refusing report directory 'perflab-report': not owned by you"
	is "default directory: nothing written" "$(ls -A cwd/perflab-report)" ""
fi

# FIFOs and oversized files as --from inputs
mkdir fifo
cp n1/report.json fifo/a.json
cp n2/report.json fifo/b.json
mkfifo fifo/x.json
timeout 20 "$PERFLAB" report -o out-fifo --from fifo >"$OUT" 2>"$ERR"
is "a FIFO named x.json in a --from directory: exit 2, no hang" "$?" 2
like "the FIFO is named with the reason" "$(cat "$ERR")" \
	"cannot read JSON from 'fifo/x\.json': a FIFO"
timeout 20 "$PERFLAB" report --no-bench --sysroot "$SYS" -o out-fifo --from fifo/x.json \
	>"$OUT" 2>"$ERR"
is "a FIFO given as --from: exit 2, no hang" "$?" 2
ok "nothing written for the FIFO" test ! -e out-fifo
truncate -s 65M big.json
expect_exit 2 "an input over 64 MiB" report -o out-big --from big.json
like "the size is the reason" "$(cat "$ERR")" "'big\.json': 68157440 bytes, more than the 64 MiB"

# HTML and Markdown in the input documents' text
"$PERFLAB" inspect --sysroot "$SYS" --json -o facts.json
evil='<script>alert(1)</script> a | b
c [x](http://example.invalid) `tick` *em* &amp;'
# python, not jq: jq rounds the 64-bit integers of the documents
edit() { # IN OUT PYTHON-STATEMENT (d: the document, v: $evil)
	EVIL=$evil /usr/bin/python3 -c 'import json, os, sys
d = json.load(open(sys.argv[1]))
v = os.environ["EVIL"]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$@"
}
edit facts.json facts-evil.json 'd["facts"]["kernel.release"]["value"] = v'
edit "$FX/check-2.json" check-evil.json \
	'd["findings"][0]["title"] = v; d["findings"][0]["fix"]["command"] = v'
edit "$FX/bench-clock.json" bench-evil.json 'd["benchmark"] = "<img src=x onerror=alert(1)>"'
ok "report of documents with HTML and Markdown in their text" report -o esc \
	--from facts-evil.json --from check-evil.json --from bench-evil.json
md=$(cat esc/report.md)
html=$(cat esc/report.html)
row=$(grep '^| `kernel.release`' esc/report.md)
is "md: the fact value on one row, every character shown as text" "$row" \
	'| `kernel.release` | \<script>alert(1)\</script> a \| b c \[x](http://example.invalid) \`tick\` \*em\* \&amp; | /proc/sys/kernel/osrelease |'
# outside code spans (``...``: shown literally) every '<' of a document has its backslash
is "md: no HTML tag from a document" \
	"$(sed -E 's/``([^`]|`[^`])*``//g' esc/report.md | grep -cE '(^|[^\\])<(script|img)')" 0
like "md: a finding title escaped" "$md" '^\| warn \| \\<script>alert\(1\)\\</script> a \\\| b c \\\[x\]'
like "md: a fix command as one code span" "$md" \
	'``<script>alert\(1\)</script> a \\\| b c \[x\]\(http://example\.invalid\) `tick` \*em\* &amp;``'
like "md: a benchmark name escaped" "$md" '^### bench \\<img src=x onerror=alert\(1\)>$'
ok "html: no script or img from a document" sh -c "! grep -q '<script>alert\|<img src=x' esc/report.html"
like "html: the fact value escaped" "$html" '&lt;script&gt;alert\(1\)&lt;/script&gt; a \| b'
like "html: the benchmark name escaped" "$html" '&lt;img src=x onerror=alert\(1\)&gt;'
# a report directory still to be made needs a parent that exists and can be written:
# checked before the benchmarks run (the live machine, no --no-bench)
start=$SECONDS
expect_exit 2 "-o in a missing directory: exit 2" "$PERFLAB" report --quick -o /nonexistent/dir/r
is "-o in a missing directory: names it and the fix" "$(cat "$ERR")" \
	"perflab report: error: cannot create report directory '/nonexistent/dir/r': No such file or directory (choose another with -o DIR)"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	mkdir rodir
	chmod 755 "$TMP" rodir
	expect_exit 2 "-o in a directory the user cannot write: exit 2" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" report --quick -o "$TMP/rodir/r"
	is "-o in a directory the user cannot write: names it and the fix" "$(cat "$ERR")" \
		"perflab report: error: cannot create report directory '$TMP/rodir/r': Permission denied (choose another with -o DIR)"
	is "-o in a directory the user cannot write: nothing written" "$(ls -A rodir)" ""
else
	skip "-o in a directory the user cannot write" "needs root, the user nobody and setpriv"
fi
like "report -o refused before any benchmark" "$((SECONDS - start))" '^[0-9]$'
done_testing
