# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the report tests after tests/lib.sh: browser_check WHAT ARGS... runs
# tests/report/browser.py ARGS (REPORT.html SCREENSHOT.png IDS [--flame] [--charts]) in
# headless Chromium and reports each of its TAP lines as "chromium: ..."; without
# chromium/chromedriver, or when chromium does not start, it is one skip naming WHAT and
# the reason.
browser_check() {
	local what=$1 line
	shift
	if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
		skip "$what in headless chromium" "chromium/chromedriver not installed"
		return
	fi
	/usr/bin/python3 "$PERFLAB_SRCDIR/tests/report/browser.py" "$@" >"$TMP/tap" 2>&1
	while IFS= read -r line; do
		case "$line" in
		"ok "*) _report ok "chromium: ${line#ok * - }" ;;
		"not ok "*) _report fail "chromium: ${line#not ok * - }" "$(grep '^#' "$TMP/tap")" ;;
		"1..0 # SKIP "*) skip "$what in headless chromium" "${line#1..0 # SKIP }" ;;
		esac
	done <"$TMP/tap"
}
