#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A real node_exporter (Debian's prometheus-node-exporter) scrapes the textfile perflab
# monitor writes: on 127.0.0.1 at a free port, the textfile collector alone, reading a
# directory of ours. Every perflab metric name of the file is exported, as many perflab
# series as the file has, and node_textfile_scrape_error is 0 (no parse error).
# Skipped with the reason where node_exporter is not installed.
. "$PERFLAB_SRCDIR/tests/lib.sh"
NE=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -z "$NE" ]; then
	skip "node_exporter scrapes the textfile" "node_exporter is not installed (Debian package prometheus-node-exporter)"
	done_testing
fi
D=$TMP/textfile
mkdir -p "$D"
ok "monitor --prom-textfile" "$PERFLAB" monitor -I 100ms -d 350ms --prom-textfile "$D/perflab_monitor.prom"
F=$D/perflab_monitor.prom
names() { grep -v '^#' "$1" | grep '^perflab_' | sed 's/[{ ].*//' | sort -u; }
names "$F" >"$TMP/file.names"
like "the textfile has metrics" "$(wc -l <"$TMP/file.names")" '^[1-9][0-9]+$'

nepid=
cleanup() {
	[ -n "$nepid" ] && kill "$nepid" 2>/dev/null && wait "$nepid" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
# GET url -> stdout; loopback only
get() { /usr/bin/python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
freeport() { /usr/bin/python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
M=$TMP/metrics
up=
for try in 1 2 3; do
	port=$(freeport)
	"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$D" >"$TMP/ne.log" 2>&1 &
	nepid=$!
	for _ in $(seq 100); do
		if get "http://127.0.0.1:$port/metrics" >"$M" 2>/dev/null; then up=1; break; fi
		kill -0 "$nepid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$up" ] && break
	kill "$nepid" 2>/dev/null; wait "$nepid" 2>/dev/null; nepid=
	echo "# try $try: node_exporter on port $port did not answer: $(tail -c 300 "$TMP/ne.log")"
done
if [ -z "$up" ]; then
	_report fail "node_exporter answers on 127.0.0.1" "$(tail -c 1000 "$TMP/ne.log")"
	done_testing
fi
_report ok "node_exporter answers on 127.0.0.1:$port"
is "node_textfile_scrape_error is 0" "$(sed -n 's/^node_textfile_scrape_error \(.*\)/\1/p' "$M")" 0
like "it read our file" "$(grep '^node_textfile_mtime_seconds' "$M")" 'file="[^"]*perflab_monitor\.prom"'
names "$M" >"$TMP/scraped.names"
is "every perflab metric of the textfile is exported" "$(comm -23 "$TMP/file.names" "$TMP/scraped.names")" ""
is "and no other" "$(comm -13 "$TMP/file.names" "$TMP/scraped.names")" ""
is "as many perflab series as the textfile has" "$(grep -c '^perflab_' "$M")" "$(grep -c '^perflab_' "$F")"
is "each metric has its HELP and TYPE" \
	"$(grep -c '^# TYPE perflab_' "$M"):$(grep -c '^# HELP perflab_' "$M")" \
	"$(wc -l <"$TMP/file.names"):$(wc -l <"$TMP/file.names")"
done_testing
