#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perf_event_open refused by something other than perf_event_paranoid: perflab runs under
# a seccomp filter that answers EPERM, EACCES or ENOSYS for it (tests/profile/
# seccomp_wrap.c, as a container's seccomp profile does). The advice names the filter
# or an LSM and what to check, never blames paranoid where it allows the request, and
# never tells root to run as root. The expectations follow this machine's paranoid value
# and capabilities as read here, so they hold on any machine. ~1 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_SECCOMP_WRAP:?}"
WRAP=$PROFILE_SECCOMP_WRAP

if ! "$WRAP" EPERM true 2>"$ERR"; then
	skip "seccomp refusal tests" "cannot install a seccomp filter: $(head -c 300 "$ERR")"
	done_testing
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)
# CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set: the kernel's perfmon_capable(),
# which counts them only in the initial user namespace (uid_map "0 0 4294967295")
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
initns=1 # no uid_map: a kernel without user namespaces
if [ -e /proc/self/uid_map ]; then
	initns=$(awk 'NR == 1 && $1 == 0 && $2 == 0 && $3 == 4294967295 { n = 1 }
		END { print (NR == 1 && n) ? 1 : 0 }' /proc/self/uid_map)
fi
perfmon=0
if [ "$initns" = 1 ] && [ -n "$capeff" ] && (((0x$capeff >> 38) & 1 || (0x$capeff >> 21) & 1)); then
	perfmon=1
fi

# refused NAME ERRNO ARGS...: perflab profile under the filter exits 3 with one line
refused() {
	local name=$1 e=$2
	shift 2
	expect_exit 3 "$name: exit 3" "$WRAP" "$e" "$PERFLAB" profile "$@"
	is "$name: one line" "$(wc -l <"$ERR")" 1
}

if [ "$perfmon" = 1 ]; then
	for e in EPERM EACCES; do
		refused "privileged, $e" "$e" -- true
		m=$(cat "$ERR")
		like "privileged, $e: says what was refused" "$m" "perf_event_open: [a-z-]+ sampling \(user space only, per task\) refused with $e"
		like "privileged, $e: says paranoid does not restrict it" "$m" "does not restrict"
		like "privileged, $e: names a seccomp filter or an LSM" "$m" "a seccomp filter or a Linux security module"
		like "privileged, $e: what to check" "$m" "seccomp profile.*SELinux.*AppArmor"
		if printf '%s' "$m" | grep -Eq "run as root|sysctl kernel.perf_event_paranoid="; then
			_report fail "privileged, $e: no advice to run as root or lower paranoid" "$m"
		else
			_report ok "privileged, $e: no advice to run as root or lower paranoid"
		fi
	done
	refused "privileged, system-wide" EPERM -a -d 0.1
	like "privileged, system-wide: says so" "$(cat "$ERR")" "system-wide\) refused with EPERM.*seccomp filter"
	[ "$(id -u)" = 0 ] && like "root: says it runs as root" "$(cat "$ERR")" "as root with CAP_PERFMON"
else
	skip "privileged seccomp refusal" "this process has neither CAP_PERFMON nor CAP_SYS_ADMIN in the initial user namespace"
fi

# ENOSYS: this kernel has perf events when the paranoid file exists, so the filter answered.
refused "ENOSYS" ENOSYS -- true
if [ "$paranoid" != none ]; then
	like "ENOSYS: a seccomp filter answered it" "$(cat "$ERR")" "seccomp filter answers ENOSYS"
else
	like "ENOSYS: no perf events in the kernel" "$(cat "$ERR")" "kernel has no perf events"
fi

# As an unprivileged user (uid 65534): user-space task sampling is allowed up to paranoid 2,
# so a refusal is the filter's at <= 2 and paranoid's at 3+ (Debian's "no perf at all").
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "unprivileged seccomp refusal" "the tests do not run as root (cannot switch to uid 65534)"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" --version >/dev/null 2>&1; then
	skip "unprivileged seccomp refusal" "uid 65534 cannot run $PERFLAB (build dir not readable)"
elif [ "$paranoid" = none ]; then
	skip "unprivileged seccomp refusal" "no /proc/sys/kernel/perf_event_paranoid"
else
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
	expect_exit 3 "unprivileged, EPERM: exit 3" "${NOBODY[@]}" "$WRAP" EPERM "$PERFLAB" profile -- true
	m=$(cat "$ERR")
	if [ "$paranoid" -le 2 ]; then
		like "unprivileged, paranoid $paranoid allows user space: the filter is named" "$m" \
			"kernel.perf_event_paranoid is $paranoid, which allows it \(<= 2\).*a seccomp filter or a Linux security module"
	else
		like "unprivileged, paranoid $paranoid refuses: paranoid is named" "$m" \
			"kernel.perf_event_paranoid is $paranoid .*this needs <= 2.*run as root"
	fi
	# -p PID of another user's process (a sleep of root's): the kernel's ptrace access
	# mode check refuses it (EACCES) where paranoid allows user-space sampling.
	sleep 60 &
	SLEEPER=$!
	trap 'kill "$SLEEPER" 2>/dev/null; rm -rf "$TMP"' EXIT
	expect_exit 3 "unprivileged, -p of root's process: exit 3" "${NOBODY[@]}" "$PERFLAB" profile \
		-p "$SLEEPER" -d 0.1
	m=$(cat "$ERR")
	# --off-cpu and --locks: one line naming the option, the cause and the fix
	for o in --off-cpu --locks; do
		expect_exit 3 "unprivileged, $o -p of root's process: exit 3" "${NOBODY[@]}" \
			"$PERFLAB" profile "$o" -p "$SLEEPER" -d 0.1
		is "unprivileged, $o -p: one line" "$(wc -l <"$ERR")" 1
		like "unprivileged, $o -p: names $o, the cause and the fix" "$(cat "$ERR")" \
			"^perflab profile: error: $o( -p)?: .*kernel.perf_event_paranoid.*CAP_PERFMON \(Linux 5.8\+"
		is "unprivileged, $o -p: short (under 400 characters)" "$(($(wc -c <"$ERR") < 400))" 1
	done
	kill "$SLEEPER" 2>/dev/null
	wait "$SLEEPER" 2>/dev/null
	is "unprivileged, -p of root's process: one line" "$(wc -l <"$ERR")" 1
	if [ "$paranoid" -le 2 ]; then
		like "unprivileged, -p of root's process: the ptrace access check is named" "$m" \
			"refused with EACCES .*-p PID: the process belongs to another user or is not dumpable \(ptrace access mode check; see Documentation/admin-guide/perf-security.rst\)"
	else
		like "unprivileged, -p of root's process, paranoid $paranoid: paranoid is named" "$m" \
			"kernel.perf_event_paranoid is $paranoid .*this needs <= 2"
	fi
	# Without the filter, where paranoid refuses kernel samples (>= 2), the warning blames
	# paranoid, rightly, and sampling goes on in user space.
	if [ "$paranoid" -ge 2 ] && "${NOBODY[@]}" "$PERFLAB" profile -- true 2>"$ERR"; then
		like "unprivileged, no filter: kernel samples refused by paranoid" "$(cat "$ERR")" \
			"kernel samples: .*\(user and kernel, per task\) refused with EACCES.*kernel.perf_event_paranoid is $paranoid.*sampling user space only"
	else
		skip "unprivileged, no filter" "paranoid $paranoid allows kernel samples, or perf_event_open is unusable for uid 65534: $(head -c 300 "$ERR")"
	fi
fi

# Root of a user namespace (unshare -r): capget shows every capability there, but the
# kernel checks CAP_PERFMON in the initial namespace, where it has none; where paranoid
# refuses kernel samples (>= 2) that is what the advice says, not "a seccomp filter".
if ! command -v unshare >/dev/null; then
	skip "root of a user namespace" "no unshare (util-linux)"
elif ! unshare -r true 2>"$ERR"; then
	skip "root of a user namespace" "cannot create a user namespace: $(head -c 300 "$ERR")"
elif [ "$paranoid" = none ]; then
	skip "root of a user namespace" "no /proc/sys/kernel/perf_event_paranoid"
elif [ "$paranoid" -le 1 ]; then
	ok "user namespace, paranoid $paranoid: kernel samples allowed" unshare -r "$PERFLAB" profile -- true
	if grep -q "kernel samples" "$ERR"; then
		_report fail "user namespace, paranoid $paranoid: no refusal warning" "$(cat "$ERR")"
	else
		_report ok "user namespace, paranoid $paranoid: no refusal warning"
	fi
else
	want=0
	[ "$paranoid" -ge 3 ] && want=3 # Debian's 3: no perf_event_open at all unprivileged
	expect_exit "$want" "user namespace, paranoid $paranoid: exit $want" unshare -r "$PERFLAB" profile -- true
	m=$(cat "$ERR")
	like "user namespace: paranoid is named, with the namespace" "$m" \
		"refused with EACCES .*kernel.perf_event_paranoid is $paranoid .*root of a user namespace.*capabilities do not count"
	if printf '%s' "$m" | grep -Eq "does not restrict|seccomp"; then
		_report fail "user namespace: no seccomp/LSM blame" "$m"
	else
		_report ok "user namespace: no seccomp/LSM blame"
	fi
fi
done_testing
