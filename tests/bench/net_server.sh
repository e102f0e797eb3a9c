#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench net --server as something any client can reach: it listens on loopback unless
# --bind says otherwise (and warns then), refuses requests over its limits and goes on
# serving, drops silent connections, survives malformed and oversize requests, and takes
# data only from the control connection's host. Loopback only: the wildcard binds run in
# a network namespace created here, which has no interface but lo.
. "$PERFLAB_SRCDIR/tests/lib.sh"

cleanup() {
	[ -n "${SRVPID:-}" ] && kill "$SRVPID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# The listening TCP sockets of a server started in a fresh network namespace with
# "$@" as its options: /proc/net/tcp{,6} local addresses (hex), then its stderr.
in_netns() {
	unshare -n bash -c '
		p=$1 err=$2; shift 2
		timeout -s INT 10 "$p" bench net --server --timeout 1 "$@" 2>"$err" & pid=$!
		for _ in $(seq 50); do grep -q serving "$err" 2>/dev/null && break; sleep 0.1; done
		awk "NR > 1 && \$4 == \"0A\" { print \$2 }" /proc/net/tcp /proc/net/tcp6
		kill -INT "$pid"; wait "$pid"' _ "$PERFLAB" "$TMP/ns.err" "$@"
}

ok "bench net --help" "$PERFLAB" bench net --help
like "--help: --bind defaults to loopback" "$(grep -- '--bind' "$OUT")" 'default: 127\.0\.0\.1:5305\]'
like "--help: --max-time defaults to 60 s" "$(grep -- '--max-time' "$OUT")" '--server: .*60s by default'

# ---------------- the listening address ----------------
if ! unshare -n true 2>/dev/null; then
	skip "default bind and wildcard warning" "cannot create a network namespace here"
else
	is "default: listens on 127.0.0.1:5305 only" "$(in_netns)" "0100007F:14B9"
	is "default: no warning" "$(grep -c warning "$TMP/ns.err")" 0
	is "explicit --bind :5305: every interface" "$(in_netns --bind :5305)" "00000000:14B9"
	like "... warns it serves any host, unauthenticated" "$(grep warning "$TMP/ns.err")" \
		'warning: listening on :5305, beyond loopback, without authentication'
	is "... in one line" "$(grep -c . "$TMP/ns.err")" 2
	is "explicit --bind 0.0.0.0:5305 accepted" "$(in_netns --bind 0.0.0.0:5305)" "00000000:14B9"
	like "... and warns" "$(cat "$TMP/ns.err")" 'beyond loopback'
	is "--bind 127.0.0.2:5305: loopback, no warning" \
		"$(in_netns --bind 127.0.0.2:5305; grep -c warning "$TMP/ns.err")" "0200007F:14B9
0"
fi

# ---------------- limits ----------------
PORT=$(free_port)
"$PERFLAB" bench net --server --bind "127.0.0.1:$PORT" --timeout 2 --max-time 1 --max-size 64KiB \
	--max-streams 2 --idle-timeout 0.5 2>"$TMP/srv.err" &
SRVPID=$!
for _ in $(seq 50); do grep -q serving "$TMP/srv.err" 2>/dev/null && break; sleep 0.1; done
client() { "$PERFLAB" bench net --connect "127.0.0.1:$PORT" --runs 1 --timeout 2 "$@"; }

expect_exit 3 "over --max-time: refused" client --tests tcp_pp --sizes 64 --time 1.5
is "... in one line" "$(wc -l <"$ERR")" 1
like "... naming the limit" "$(cat "$ERR")" \
	"tcp_pp 64B: server refused the test: seconds=1.5 over this server's limit of 1 s \(--max-time\)"
ok "... then a normal request is served" client --tests tcp_pp --sizes 64 --time 0.1 --json -o "$TMP/ok.json"
like "... and measured" "$(jq -r '.metrics[] | select(.name == "tcp_pp 64B round-trip") | .median' "$TMP/ok.json")" '^[1-9]'
expect_exit 3 "over --max-size: refused" client --tests tcp_pp --sizes 128k --time 0.1
like "... naming the limit" "$(cat "$ERR")" "size=131072 over this server's limit of 65536 bytes \(--max-size\)"
expect_exit 3 "over --max-streams: refused" client --tests tcp_stream --streams 4 --stream-size 4k --time 0.1
is "... in one line" "$(wc -l <"$ERR")" 1
like "... naming the limit" "$(cat "$ERR")" "tcp_stream x4: .*streams=4 over this server's limit of 2 \(--max-streams\)"

# ---------------- raw clients ----------------
/usr/bin/python3 - "$PORT" >"$TMP/raw.out" <<'PY'
import socket, sys, time
port = int(sys.argv[1])

def ask(data, wait=3):
    """Send @data, return the server's first line and whether it then closed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    t0 = time.monotonic()
    if data:
        s.sendall(data)
    buf = b""
    try:
        while not buf.endswith(b"\n"):
            b = s.recv(300)
            if not b:
                break
            buf += b
        closed = s.recv(1) == b""
    except ConnectionResetError:  # closed with our unread bytes in its buffer
        closed = True
    except socket.timeout:
        closed = False
    s.close()
    return "%s | closed=%s | %.1f" % (buf.decode("ascii", "replace").strip(), closed,
                                       time.monotonic() - t0)

cases = [
    ("silent", b""),
    ("partial", b"PLNET1 test=tcp_pp"),
    ("long", b"PLNET1 " + b"x" * 10000 + b"\n"),
    ("binary", b"PLNET1 \x00\xff\x80 test=tcp_pp\n"),
    ("huge", b"PLNET1 test=tcp_pp size=99999999999999999999999999\n"),
    ("negative", b"PLNET1 test=tcp_pp size=-1\n"),
    ("nan", b"PLNET1 test=tcp_pp seconds=nan\n"),
    ("inf", b"PLNET1 test=tcp_pp seconds=1e999\n"),
    ("streams0", b"PLNET1 test=tcp_stream streams=0\n"),
    ("streams65", b"PLNET1 test=tcp_stream streams=65\n"),
    ("twice", b"PLNET1 test=tcp_pp test=udp_pp\n"),
    ("size", b"PLNET1 test=tcp_pp size=65537 seconds=0.1\n"),
    ("streams", b"PLNET1 test=tcp_stream size=1024 seconds=0.1 streams=3\n"),
    ("seconds", b"PLNET1 test=tcp_crr size=64 seconds=3600\n"),
]
for name, data in cases:
    print(name, ask(data))
PY
r() { sed -n "s/^$1 //p" "$TMP/raw.out"; }
like "silent connection dropped after --idle-timeout" "$(r silent)" \
	'^ERR no request within the handshake time \| closed=True \| 0\.[4-9]$'
like "half a request line: dropped after --idle-timeout" "$(r partial)" \
	'^ERR no request within the handshake time \| closed=True \| 0\.[4-9]$'
like "a 10 kB line: refused, closed" "$(r long)" '^ERR malformed request: line too long \| closed=True'
like "non-printable bytes: refused" "$(r binary)" '^ERR malformed request: non-printable byte 0x00'
like "size beyond 64 bits: refused" "$(r huge)" "^ERR malformed request: bad value '9+' for 'size'"
like "negative size: refused" "$(r negative)" "^ERR malformed request: bad value '-1' for 'size'"
like "seconds=nan: refused" "$(r nan)" "^ERR malformed request: bad value 'nan' for 'seconds'"
like "seconds=1e999: refused" "$(r inf)" "^ERR malformed request: bad value '1e999' for 'seconds'"
like "streams=0: refused" "$(r streams0)" "^ERR malformed request: bad value '0' for 'streams'"
like "streams=65: refused" "$(r streams65)" "^ERR malformed request: bad value '65' for 'streams'"
like "a key twice: refused" "$(r twice)" "^ERR malformed request: key 'test' given twice"
like "raw request over --max-size: refused" "$(r size)" \
	"^ERR size=65537 over this server's limit of 65536 bytes \(--max-size\) \| closed=True"
like "raw request over --max-streams: refused" "$(r streams)" "^ERR streams=3 over .*--max-streams"
like "raw request over --max-time: refused" "$(r seconds)" "^ERR seconds=3600 over .*--max-time"

# ---------------- data only from the control connection's host ----------------
/usr/bin/python3 - "$PORT" >"$TMP/peer.out" <<'PY'
import socket, sys
port = int(sys.argv[1])

def control(req):
    c = socket.create_connection(("127.0.0.1", port), timeout=3)
    c.sendall(req)
    return c, int(c.recv(200).decode().split("=")[1])

def done(c):
    c.sendall(b"END\n")
    return c.recv(200).decode().strip()

# TCP: a data connection from 127.0.0.2 is closed unserved, one from 127.0.0.1 echoes
c, dport = control(b"PLNET1 test=tcp_pp size=8 seconds=1\n")
o = socket.create_connection(("127.0.0.1", dport), timeout=1, source_address=("127.0.0.2", 0))
o.sendall(b"12345678")
try:
    print("tcp other", "closed" if o.recv(8) == b"" else "served")
except ConnectionResetError:
    print("tcp other", "closed")
d = socket.create_connection(("127.0.0.1", dport), timeout=2)
d.sendall(b"abcdefgh")
print("tcp peer", repr(d.recv(8)))
d.close()
print("tcp", done(c))
# UDP: a datagram from 127.0.0.2 gets no echo and is not counted
c, dport = control(b"PLNET1 test=udp_pp size=8 seconds=1\n")
for src, name in (("127.0.0.2", "other"), ("127.0.0.1", "peer")):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((src, 0))
    u.settimeout(0.5)
    u.sendto(b"12345678", ("127.0.0.1", dport))
    try:
        print("udp", name, repr(u.recv(8)))
    except socket.timeout:
        print("udp", name, "no echo")
print("udp", done(c))
PY
is "TCP data connection from another host: closed unserved" "$(sed -n 's/^tcp other //p' "$TMP/peer.out")" closed
is "TCP data connection from the control host: echoed" "$(sed -n 's/^tcp peer //p' "$TMP/peer.out")" "b'abcdefgh'"
like "... and only it counted" "$(sed -n 's/^tcp DONE/DONE/p' "$TMP/peer.out")" '^DONE rx_bytes=8 rx_msgs=1 '
is "UDP datagram from another host: no echo" "$(sed -n 's/^udp other //p' "$TMP/peer.out")" "no echo"
is "UDP datagram from the control host: echoed" "$(sed -n 's/^udp peer //p' "$TMP/peer.out")" "b'12345678'"
like "... and only it counted" "$(sed -n 's/^udp DONE/DONE/p' "$TMP/peer.out")" '^DONE rx_bytes=8 rx_msgs=1 '

ok "after all that, a normal request is served" client --tests tcp_pp,udp_pp --sizes 64 --time 0.1
kill -INT "$SRVPID"
wait "$SRVPID"
is "server exits 0 on SIGINT" "$?" 0
SRVPID=
is "server stderr: no sanitizer report" "$(grep -cE 'AddressSanitizer|runtime error' "$TMP/srv.err")" 0

done_testing
