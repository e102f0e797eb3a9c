#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench io, net, compress through the command line: real values, JSON against the schema,
# bad input (exit 2, one line, nothing left behind), SIGINT cleanup, net robustness.
. "$PERFLAB_SRCDIR/tests/lib.sh"

# A directory on the build tree's file system (a real disk here, O_DIRECT works).
WORK=$(mktemp -d "$PERFLAB_BUILDDIR/bench-io-net-compress.XXXXXX")
cleanup() {
	[ -n "${SRVPID:-}" ] && kill "$SRVPID" 2>/dev/null
	[ -n "${SILENTPID:-}" ] && kill "$SILENTPID" 2>/dev/null
	[ -n "${IDLEPID:-}" ] && kill "$IDLEPID" 2>/dev/null
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT
num() { jq -r --arg n "$2" '.metrics[] | select(.name == $n) | .median' "$1"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }
# What this machine offers, read independently of the checks that use it: the first CPU
# this process may run on, O_DIRECT on $WORK's file system (dd), the file system type
# (tmpfs keeps pages whatever posix_fadvise says), io_uring (bench --list's note).
CPU=$(awk '/^Cpus_allowed_list:/ { split($2, a, "[,-]"); print a[1] }' /proc/self/status)
DIRECT=$(dd if=/dev/zero of="$WORK/.probe" bs=4096 count=1 oflag=direct 2>/dev/null && echo yes || echo no)
rm -f "$WORK/.probe"
FSTYPE=$(stat -f -c %T "$WORK")
URING=$("$PERFLAB" bench --list | grep -q 'io_uring: not available' && echo no || echo yes)
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# ---------------- compress ----------------
ok "compress --quick --json" "$PERFLAB" bench compress --quick --json -o "$TMP/cz.json"
validate bench.schema.json "$TMP/cz.json"
r_isal=$(num "$TMP/cz.json" "isal-1 ratio")
r_zlib9=$(num "$TMP/cz.json" "zlib-9 ratio")
r_zlib1=$(num "$TMP/cz.json" "zlib-1 ratio")
like "text corpus compresses 2-5x at zlib-1 ($r_zlib1)" "$r_zlib1" '^[2-4]\.'
if gt "$r_zlib9" "$r_zlib1"; then _report ok "zlib-9 ratio > zlib-1"; else _report fail "zlib-9 ratio > zlib-1" "$r_zlib9 vs $r_zlib1"; fi
is "isal, libdeflate, zlib, zstd all measured" \
	"$(jq -r '[.metrics[].name | select(endswith(" compress")) | split("-")[0]] | unique | join(",")' "$TMP/cz.json")" \
	"isal,libdeflate,zlib,zstd"
like "qat reported with a reason" "$(jqv "$TMP/cz.json" .info.backends.qat)" '.'
s_isal=$(num "$TMP/cz.json" "isal-1 compress")
s_zlib=$(num "$TMP/cz.json" "zlib-1 compress")
if gt "$s_isal" "$s_zlib"; then _report ok "isal-1 faster than zlib-1 ($s_isal vs $s_zlib MB/s)"; else
	_report fail "isal-1 faster than zlib-1" "$s_isal vs $s_zlib"; fi

ok "compress auto with injected failures" "$PERFLAB" bench compress --backend auto --inject-accel-failure 0.3 \
	--workers 2 --size 1MiB --request-size 64KiB --time 0.3 --runs 1 --json -o "$TMP/auto.json"
validate bench.schema.json "$TMP/auto.json"
is "auto: zero failed requests" "$(jqv "$TMP/auto.json" .info.serve.failed)" 0
req=$(jqv "$TMP/auto.json" .info.serve.requests)
fb=$(jqv "$TMP/auto.json" .info.serve.fallbacks)
like "auto: requests served ($req)" "$req" '^[1-9][0-9]+$'
frac=$(awk -v a="$fb" -v b="$req" 'BEGIN { printf "%.2f", a / b }')
if gt "$frac" 0.15 && gt 0.45 "$frac"; then _report ok "auto: ~30% fell back ($fb of $req)"; else
	_report fail "auto: ~30% fell back" "$fb of $req"; fi

expect_exit 2 "compress unreadable --input" "$PERFLAB" bench compress --input "$WORK/nope" --runs 1
like "unreadable --input is named" "$(cat "$ERR")" "cannot read --input '.*nope'"
is "unreadable --input: one line" "$(wc -l <"$ERR")" 1
# QAT runs only with a device bound to a qat driver (sysfs, read here) and QATzip
if ls -d /sys/bus/pci/drivers/qat*/0000:* >/dev/null 2>&1; then
	skip "compress --backend qat without a device" "a QAT device is bound here"
else
	expect_exit 3 "compress --backend qat without a device" "$PERFLAB" bench compress --backend qat --runs 1
	like "qat unavailable says why" "$(cat "$ERR")" "qat"
fi
ok "compress --save-input and --input" "$PERFLAB" bench compress --backend zlib --level 1 --corpus json \
	--size 200000 --time 0.01 --runs 1 --save-input "$TMP/corpus.json"
is "saved corpus has --size bytes" "$(stat -c %s "$TMP/corpus.json")" 200000
ok "compress --input FILE" "$PERFLAB" bench compress --input "$TMP/corpus.json" --backend isal --level 1 \
	--time 0.01 --runs 1 --json -o "$TMP/in.json"
is "input size recorded" "$(jqv "$TMP/in.json" .info.input_bytes)" 200000
expect_exit 2 "compress --level out of range" "$PERFLAB" bench compress --backend isal --level 7 --runs 1

# ---------------- io ----------------
expect_exit 2 "io --dir that does not exist" "$PERFLAB" bench io --dir /nonexistent/perflab-io
like "io --dir missing: the file size as a size, not a byte count" "$(cat "$ERR")" "cannot create a 256 MiB test file"
ok "io --quick --json" "$PERFLAB" bench io --quick --dir "$WORK" --json -o "$TMP/io.json"
validate bench.schema.json "$TMP/io.json"
bw=$(num "$TMP/io.json" bandwidth)
if gt "$bw" 1; then _report ok "io read bandwidth > 1 MB/s ($bw)"; else _report fail "io bandwidth" "$bw"; fi
like "io latency percentiles" "$(jq -r '.metrics[] | select(.name=="latency") | .latency_ns | [.p50,.p90,.p99,."p99.9",.max] | map(tostring) | join(" ")' "$TMP/io.json")" '^[0-9.e+]+ [0-9.e+]+ [0-9.e+]+ [0-9.e+]+ [0-9.e+]+$'
case "$FSTYPE" in
tmpfs | ramfs) skip "cold cache: residency before the run is low" "$WORK is on $FSTYPE (pages cannot be dropped)" ;;
*) like "cold cache: residency before the run is low" "$(num "$TMP/io.json" "residency before")" '^[0-9](\.|$)' ;;
esac
ok "io hot cache" "$PERFLAB" bench io --quick --cache hot --dir "$WORK" --json -o "$TMP/hot.json"
like "hot cache: residency 100%" "$(num "$TMP/hot.json" "residency before")" '^100'
# --cache auto (the report's choice): O_DIRECT exactly where dd could open $WORK with it
ok "io --cache auto" "$PERFLAB" bench io --cache auto --size 8MiB --time 0.1 --runs 1 --dir "$WORK" \
	--json -o "$TMP/auto-io.json"
is "io --cache auto: direct where the file system supports O_DIRECT, else cold" \
	"$(jq -r '"\(.info.cache) \(.options.direct)"' "$TMP/auto-io.json")" \
	"$([ "$DIRECT" = yes ] && echo "direct true" || echo "cold false")"
like "io --cache auto: a note says which and why" "$(jq -r '.notes[]' "$TMP/auto-io.json")" \
	'^--cache auto: (O_DIRECT \(the file system|the file system .* does not support O_DIRECT)'
ok "io --cache auto --bs 1000: cold (unaligned for O_DIRECT)" "$PERFLAB" bench io --cache auto --bs 1000 \
	--size 1MiB --time 0.05 --runs 1 --dir "$WORK" --json -o "$TMP/auto-io2.json"
is "io --cache auto --bs 1000: info.cache" "$(jq -r .info.cache "$TMP/auto-io2.json")" cold
if [ "$URING" = yes ] && [ "$DIRECT" = yes ]; then
	ok "io randread io_uring direct" "$PERFLAB" bench io --pattern randread --bs 4k --engine io_uring --iodepth 8 \
		--direct --size 16MiB --time 0.2 --runs 1 --dir "$WORK" --json -o "$TMP/rr.json"
	like "io_uring iops" "$(num "$TMP/rr.json" iops)" '^[1-9]'
	is "io_uring: the default --iodepth-batch is fio's (1), in the workload" \
		"$(jqv "$TMP/rr.json" .info.workload)" "randread, bs 4 KiB, io_uring, iodepth 8, batch 1, 1 job, direct (O_DIRECT), file 16 MiB"
	like "io_uring: the rings' setup flags are stated" "$(jqv "$TMP/rr.json" .info.io_uring_setup)" \
		'^(none|COOP_TASKRUN|COOP_TASKRUN\|SINGLE_ISSUER|COOP_TASKRUN\|SINGLE_ISSUER\|DEFER_TASKRUN)$'
	# syscalls/op x operations = the io_uring_enter(2) calls strace counts; batch 1 enters
	# the kernel once per operation at least, batch 8 at most 8 operations per call
	for b in 1 8; do
		if ! command -v strace >/dev/null; then
			skip "io --iodepth-batch $b: syscalls/op = strace's count" "no strace"
			continue
		fi
		# LeakSanitizer cannot run under ptrace: leaks are checked by the other runs
		ok "io --iodepth-batch $b under strace" env ASAN_OPTIONS=detect_leaks=0 \
			strace -f -c -e trace=io_uring_enter -o "$TMP/st$b" "$PERFLAB" bench io --pattern randread --bs 4k --engine io_uring --iodepth 8 --iodepth-batch $b \
			--direct --size 16MiB --time 0.2 --warmup 0 --runs 1 --dir "$WORK" --json -o "$TMP/b$b.json"
		calls=$(awk '$NF == "io_uring_enter" { print $4 }' "$TMP/st$b")
		got=$(jq -r '[.metrics[] | select(.name == "syscalls/op") | .median][0] as $s |
			[.metrics[] | select(.name == "latency") | .latency_ns.n][0] as $n | $s * $n | round' "$TMP/b$b.json")
		is "io --iodepth-batch $b: syscalls/op x ops = strace's io_uring_enter count" "$got" "$calls"
		ops=$(jq -r '.metrics[] | select(.name == "latency") | .latency_ns.n' "$TMP/b$b.json")
		if [ "$b" = 1 ]; then
			is "io --iodepth-batch 1: at least one call per operation" "$((calls >= ops))" 1
		else
			is "io --iodepth-batch 8: at most 8 operations per call" "$((calls * 8 >= ops))" 1
		fi
	done
	ok "io --iodepth-batch above --iodepth" "$PERFLAB" bench io --pattern randread --bs 4k --engine io_uring \
		--iodepth 4 --iodepth-batch 64 --direct --size 8MiB --time 0.1 --runs 1 --dir "$WORK" --json -o "$TMP/b64.json"
	like "io --iodepth-batch above --iodepth: every free slot (batch = iodepth)" \
		"$(jqv "$TMP/b64.json" .info.workload)" 'iodepth 4, batch 4,'
else
	skip "io randread io_uring direct" "io_uring available: $URING, O_DIRECT on $WORK: $DIRECT"
fi
if [ "$URING" = yes ]; then
	ok "io buffered io_uring warns" "$PERFLAB" bench io --engine io_uring --iodepth 8 --size 8MiB --time 0.1 --runs 1 --dir "$WORK"
	like "async + buffered warning" "$(cat "$ERR")" "iodepth has little effect"
else
	expect_exit 3 "io --engine io_uring where it is not available" "$PERFLAB" bench io --engine io_uring --runs 1 --dir "$WORK"
fi
ok "io text output: the workload first" "$PERFLAB" bench io --pattern randwrite --bs 64k --jobs 2 --size 8MiB \
	--time 0.1 --runs 1 --dir "$WORK"
is "workload line: pattern, bs, engine, iodepth, jobs, buffered/direct, cache, file size" "$(sed -n 2p "$OUT")" \
	"workload: randwrite, bs 64 KiB, psync, iodepth 1, 2 jobs, buffered, cache cold, file 8 MiB"
like "latency percentiles in scaled units" "$(grep -E '^  latency +[0-9.]+ (ns|us|ms|s) ' "$OUT")" \
	'^  latency +[0-9.]+ (ns|us|ms|s) +[0-9.]+ (ns|us|ms|s) +[0-9.]+ (ns|us|ms|s) '
like "latency row in the unit of its median" "$(grep -E '^  latency +(ns|us|ms|s) ' "$OUT")" '^  latency +(ns|us|ms|s) +[0-9.]+ '
is "the JSON keeps nanoseconds" "$(jq -r '.metrics[] | select(.name=="latency") | .unit' "$TMP/io.json")" ns
like "the JSON has the workload" "$(jqv "$TMP/io.json" .info.workload)" '^read, bs 1 MiB, psync'
ok "io smallfiles" "$PERFLAB" bench io --pattern smallfiles --files 100 --file-size 4k --runs 1 --dir "$WORK" --json -o "$TMP/sf.json"
validate bench.schema.json "$TMP/sf.json"
like "smallfiles cold files/s" "$(num "$TMP/sf.json" "open+read+close cold")" '^[1-9]'
is "io leaves nothing behind" "$(ls -A "$WORK")" ""

# default --dir: a temporary directory in the current directory, removed afterwards
mkdir "$WORK/cwd"
(cd "$WORK/cwd" && "$PERFLAB" bench io --size 4MiB --time 0.05 --runs 1 --json -o "$TMP/cwd.json" 2>/dev/null)
like "default dir is a temporary directory under the cwd" "$(jqv "$TMP/cwd.json" .info.dir)" '^\./perflab-io\.'
is "default dir removed" "$(ls -A "$WORK/cwd")" ""
rmdir "$WORK/cwd"

expect_exit 2 "io --iodepth-batch 0" "$PERFLAB" bench io --engine io_uring --iodepth-batch 0 --runs 1 --dir "$WORK"
like "io --iodepth-batch 0: names the option" "$(cat "$ERR")" "iodepth-batch"
ok "io psync --iodepth-batch warns" "$PERFLAB" bench io --iodepth-batch 4 --size 4MiB --time 0.05 --runs 1 --dir "$WORK"
like "psync + --iodepth-batch warning" "$(cat "$ERR")" "iodepth-batch has no effect with --engine psync"
expect_exit 2 "io --dir missing" "$PERFLAB" bench io --dir "$WORK/missing" --runs 1
like "missing --dir is named" "$(cat "$ERR")" "missing.*no such directory"
is "missing --dir: one line" "$(wc -l <"$ERR")" 1
# twice the free space of $WORK's file system (df), within --size's 1 PiB
free=$(df --output=avail -B1 "$WORK" | tail -1)
if [ "$free" -lt $((1 << 49)) ]; then
	expect_exit 2 "io --size larger than free space" "$PERFLAB" bench io --dir "$WORK" --size $((2 * free + (1 << 30))) --runs 1
	like "--size too large says so" "$(cat "$ERR")" "not enough free space"
else
	skip "io --size larger than free space" "$WORK has more than 512 TiB free"
fi
touch "$TMP/afile"
expect_exit 2 "io --dir on a file" "$PERFLAB" bench io --dir "$TMP/afile" --runs 1
expect_exit 2 "io --direct with unaligned --bs" "$PERFLAB" bench io --dir "$WORK" --direct --bs 1000 --runs 1
if [ "$(id -u)" -eq 0 ] && mkdir "$WORK/ro" && mount -t tmpfs -o ro,size=1m tmpfs "$WORK/ro" 2>/dev/null; then
	expect_exit 2 "io --dir read-only" "$PERFLAB" bench io --dir "$WORK/ro" --runs 1
	like "read-only --dir says not writable" "$(cat "$ERR")" "not writable"
	umount "$WORK/ro"
	rmdir "$WORK/ro"
else
	skip "io --dir read-only" "needs root to mount a read-only tmpfs"
	rmdir "$WORK/ro" 2>/dev/null
fi
is "bad input leaves nothing behind" "$(ls -A "$WORK")" ""

# SIGINT in the middle of a run: the file is removed
"$PERFLAB" bench io --dir "$WORK" --size 32MiB --time 30 --runs 5 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	[ -n "$(ls -A "$WORK" 2>/dev/null)" ] && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
like "io SIGINT exit status ($rc)" "$rc" '^(0|130)$'
is "io SIGINT leaves nothing behind" "$(ls -A "$WORK")" ""

# ---------------- net ----------------
ok "net --quick --json" "$PERFLAB" bench net --quick --json -o "$TMP/net.json"
validate bench.schema.json "$TMP/net.json"
rtt=$(num "$TMP/net.json" "tcp_pp 64B round-trip")
if gt "$rtt" 1000 && gt 50000000 "$rtt"; then _report ok "loopback TCP RTT in 1 us..50 ms ($rtt ns)"; else
	_report fail "loopback TCP RTT" "$rtt"; fi
like "RTT labelled round trip" "$(jqv "$TMP/net.json" .info.latency)" "round trip"
like "client CPU recorded" "$(jq -r '.metrics[] | select(.name=="tcp_pp 64B round-trip") | .notes.client_cpu' "$TMP/net.json")" '^[0-9]+$'
like "server CPU recorded" "$(jq -r '.metrics[] | select(.name=="tcp_pp 64B round-trip") | .notes.server_cpu' "$TMP/net.json")" '^[0-9]+$'
# without --cpus a loopback run pins its two ends to two CPUs it may use (cross-core), so
# the round trip does not depend on where the scheduler put them
if [ "$(nproc)" -ge 2 ]; then
	ccpu=$(jqv "$TMP/net.json" .info.client_cpu_pinned) scpu=$(jqv "$TMP/net.json" .info.server_cpu_pinned)
	like "loopback default: client pinned" "$ccpu" '^[0-9]+$'
	like "loopback default: server pinned to another CPU" "$scpu" '^[0-9]+$'
	is "loopback default: cross-core" "$([ "$ccpu" != "$scpu" ] && echo yes)" yes
	is "loopback default: the client ran where it was pinned" \
		"$(jq -r '.metrics[] | select(.name=="tcp_pp 64B round-trip") | .notes.client_cpu' "$TMP/net.json")" "$ccpu"
	like "loopback default: a note says so" "$(jq -r '.notes[]?' "$TMP/net.json")" "pinned the client to CPU $ccpu and the server to CPU $scpu"
	is "loopback default: the result says pinned" "$(jqv "$TMP/net.json" .runner.pinned) $(jqv "$TMP/net.json" .environment.pinning)" "true pinned"
	# the streams ran unpinned: no client/server CPU pair (a report would read a shared
	# CPU as a placement), their placement as the run note says
	is "loopback default: a stream has no CPU pair" \
		"$(jq -r '.metrics[] | select(.name=="tcp_stream x1") | .notes | [.client_cpu // "-", .server_cpu // "-"] | join(" ")' "$TMP/net.json")" "- -"
	like "loopback default: a stream's placement agrees with the run note" \
		"$(jq -r '.metrics[] | select(.name=="tcp_stream x1") | .notes.placement' "$TMP/net.json")" \
		'^left to the scheduler \(at the end: client on CPU -?[0-9]+, server on CPU -?[0-9]+\)$'
	like "... and the run note says the streams are left to the scheduler" "$(jq -r '.notes[]?' "$TMP/net.json")" "streams left to the scheduler"
else
	skip "loopback default placement" "one CPU allowed: both ends share it"
fi
gb=$(num "$TMP/net.json" "tcp_stream x1")
if gt "$gb" 0.01; then _report ok "tcp_stream Gbit/s ($gb)"; else _report fail "tcp_stream" "$gb"; fi
like "udp receiver loss recorded" "$(num "$TMP/net.json" "udp_stream 1400B loss")" '^[0-9]'
ok "net pinned to CPU $CPU both sides" "$PERFLAB" bench net --tests tcp_pp --sizes 64 --time 0.1 --runs 1 --cpus "$CPU" --json -o "$TMP/pin.json"
is "pinned client CPU" "$(jq -r '.metrics[0].notes.client_cpu' "$TMP/pin.json")" "$CPU"
is "pinned server CPU" "$(jq -r '.metrics[0].notes.server_cpu' "$TMP/pin.json")" "$CPU"

expect_exit 2 "net bad --connect" "$PERFLAB" bench net --connect nohostport --runs 1
like "bad address named" "$(cat "$ERR")" "--connect 'nohostport'"
expect_exit 2 "net --tests unknown" "$PERFLAB" bench net --tests tcp_xx --runs 1

PORT=$(free_port)
"$PERFLAB" bench net --server --bind "127.0.0.1:$PORT" --timeout 1 2>"$TMP/srv.err" &
SRVPID=$!
for _ in $(seq 50); do grep -q serving "$TMP/srv.err" 2>/dev/null && break; sleep 0.1; done
expect_exit 2 "net --server on a port in use" "$PERFLAB" bench net --server --bind "127.0.0.1:$PORT"
like "port in use says so" "$(cat "$ERR")" "already in use"
ok "net --connect to the server" "$PERFLAB" bench net --connect "127.0.0.1:$PORT" --tests tcp_pp,tcp_stream,udp_stream \
	--sizes 64 --streams 1 --time 0.2 --runs 1 --json -o "$TMP/remote.json"
validate bench.schema.json "$TMP/remote.json"
like "remote RTT measured" "$(num "$TMP/remote.json" "tcp_pp 64B round-trip")" '^[1-9]'
reply=$(/usr/bin/python3 - "$PORT" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
s.sendall(b"PLNET1 test=tcp_pp size=banana\n")
print(s.recv(200).decode().strip())
PY
)
like "malformed control message rejected" "$reply" "^ERR malformed request: bad value 'banana' for 'size'"
# a client that connects, starts a test and disappears mid-test
/usr/bin/python3 - "$PORT" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
s.sendall(b"PLNET1 test=tcp_stream size=65536 seconds=5 streams=1\n")
port = int(s.recv(200).decode().split("=")[1])
d = socket.create_connection(("127.0.0.1", port), timeout=3)
d.sendall(b"x" * 1000000)
d.close(); s.close()
PY
ok "server survives a client leaving mid-test" "$PERFLAB" bench net --connect "127.0.0.1:$PORT" --tests tcp_pp \
	--sizes 64 --time 0.1 --runs 1
kill -INT "$SRVPID"
wait "$SRVPID"
is "server exits 0 on SIGINT" "$?" 0
SRVPID=
# idle connections (connect, send nothing) must not delay a real client: three of them,
# then a real test, against a server whose --timeout is 5 s (none may hold it that long)
IPORT=$(free_port)
"$PERFLAB" bench net --server --bind "127.0.0.1:$IPORT" --timeout 5 2>"$TMP/isrv.err" &
IDLEPID=$!
for _ in $(seq 50); do grep -q serving "$TMP/isrv.err" 2>/dev/null && break; sleep 0.1; done
/usr/bin/python3 - "$IPORT" >"$TMP/idle.out" <<'PY' &
import socket, sys, time
socks = [socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10) for _ in range(3)]
t0 = time.monotonic()
for s in socks:  # the server's verdict on each idle connection, and when it came
    r = s.recv(200).decode().strip()
    print("%.1f %s" % (time.monotonic() - t0, r))
PY
IDLEPY=$!
sleep 0.3
start=$(date +%s.%N)
ok "a real client behind 3 idle connections" "$PERFLAB" bench net --connect "127.0.0.1:$IPORT" --tests tcp_pp \
	--sizes 64 --time 0.1 --runs 1 --timeout 5
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if gt 3 "$took"; then _report ok "... served without waiting for the idle ones (${took}s, --timeout 5)"; else
	_report fail "real client delayed by idle connections" "took $took s"; fi
wait "$IDLEPY"
like "idle connections are told why and dropped" "$(cat "$TMP/idle.out")" "ERR (no request within the handshake time|busy)"
like "... within the handshake time, not --timeout" "$(awk '{ print ($1 < 4.5) ? "quick" : "slow " $1 }' "$TMP/idle.out" | sort -u)" '^quick$'
kill -INT "$IDLEPID"
wait "$IDLEPID"
is "server with idle clients exits 0 on SIGINT" "$?" 0
IDLEPID=


expect_exit 3 "net dead peer" "$PERFLAB" bench net --connect "127.0.0.1:$PORT" --timeout 1 --runs 1
like "dead peer: clear error" "$(cat "$ERR")" "connection refused"
SPORT=$(free_port)
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4)
c = s.accept(); time.sleep(30)' "$SPORT" &
SILENTPID=$!
sleep 0.3
start=$(date +%s.%N)
expect_exit 3 "net silent peer" "$PERFLAB" bench net --connect "127.0.0.1:$SPORT" --timeout 0.5 --runs 1
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
like "silent peer: clear error" "$(cat "$ERR")" "silent"
if gt 10 "$took"; then _report ok "silent peer: no hang (${took}s)"; else _report fail "silent peer hang" "$took s"; fi
kill "$SILENTPID" 2>/dev/null
SILENTPID=

# two hosts: network namespaces joined by a veth pair, created and removed here
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
	skip "net across two network namespaces" "needs root and iproute2"
else
	A=plA$$ B=plB$$
	if ip netns add "$A" 2>/dev/null && ip netns add "$B" 2>/dev/null &&
		ip link add "va$$" type veth peer name "vb$$" 2>/dev/null &&
		ip link set "va$$" netns "$A" && ip link set "vb$$" netns "$B" &&
		ip -n "$A" addr add 10.213.7.1/24 dev "va$$" && ip -n "$B" addr add 10.213.7.2/24 dev "vb$$" &&
		ip -n "$A" link set "va$$" up && ip -n "$B" link set "vb$$" up &&
		ip -n "$A" link set lo up && ip -n "$B" link set lo up; then
		ip netns exec "$A" "$PERFLAB" bench net --server --bind 10.213.7.1:5305 2>"$TMP/ns.err" &
		NSPID=$!
		for _ in $(seq 50); do grep -q serving "$TMP/ns.err" 2>/dev/null && break; sleep 0.1; done
		ok "net across two namespaces (veth)" ip netns exec "$B" "$PERFLAB" bench net --connect 10.213.7.1:5305 \
			--sizes 64,1k --streams 1 --time 0.2 --runs 1 --json -o "$TMP/ns.json"
		validate bench.schema.json "$TMP/ns.json"
		like "veth TCP RTT measured" "$(num "$TMP/ns.json" "tcp_pp 64B round-trip")" '^[1-9]'
		like "veth UDP receiver rate" "$(num "$TMP/ns.json" "udp_stream 1400B receiver rate")" '^[1-9]'
		expect_exit 3 "unreachable peer in the namespace times out" ip netns exec "$B" "$PERFLAB" bench net \
			--connect 10.213.7.99:5305 --timeout 0.5 --runs 1
		kill -INT "$NSPID"
		wait "$NSPID"
	else
		skip "net across two network namespaces" "cannot create namespaces or a veth pair here"
	fi
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	is "namespaces removed" "$(ip netns list | grep -c "pl[AB]$$")" 0
fi

done_testing
