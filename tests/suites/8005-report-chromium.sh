#!/bin/sh
# The HTML report opens in headless Chromium (Debian's chromium, as CI has
# it) without console messages, and renders to a screenshot.  A page that
# logs to the console is checked first, so a detector that sees nothing
# cannot pass.  Without chromium the suite reports itself skipped with
# 0 passed (CI installs it through scripts/install-deps.sh).
. tests/suites/8000-report.inc
rpt_init "$1" 8005-report-chromium

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ] || ! command -v gnuplot >/dev/null 2>&1; then
	echo "skip: chromium or gnuplot not installed (scripts/install-deps.sh installs both)"
	rpt_done
	exit $?
fi

# chrome_run MODE URL OUTFILE: --dump-dom (OUTFILE = DOM) or --screenshot
chrome_run() {
	profile=$(mktemp -d)
	if [ "$1" = dom ]; then
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$profile" --enable-logging=stderr --v=0 --dump-dom "$2" \
			>"$3" 2>"$TMP/chrome.err"
	else
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars \
			--window-size=1280,2600 --screenshot="$3" "$2" >/dev/null 2>"$TMP/chrome.err"
	fi
	rc=$?
	rm -rf "$profile"
	return $rc
}
# Console messages (errors, warnings, logs) and uncaught exceptions.
console_lines() {
	grep -E ':CONSOLE[:(]|Uncaught|Failed to load resource' "$TMP/chrome.err"
}

printf '<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p><script>console.error("boom-detector")</script></body></html>\n' \
	>"$TMP/bad.html"
chrome_run dom "file://$TMP/bad.html" "$TMP/bad.dom"
if console_lines | grep -q 'boom-detector'; then
	ok "detector sees a console error"
else
	sed 's/^/    /' "$TMP/chrome.err" | tail -n 5
	ko "detector sees a console error"
fi

$RPT report "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" --html "$TMP/report.html" \
	>"$TMP/out" 2>&1 || { cat "$TMP/out"; ko "report written"; }
if chrome_run dom "file://$TMP/report.html" "$TMP/report.dom" && grep -q 'Where the time went' "$TMP/report.dom"; then
	ok "page loads"
else
	ko "page loads"
fi
if [ -z "$(console_lines)" ]; then
	ok "no console messages"
else
	console_lines | head -n 5
	ko "no console messages"
fi
imgs=$(grep -o '<img alt=' "$TMP/report.dom" | wc -l)
[ "$imgs" -eq 11 ] && ok "eleven images in the DOM" || { echo "  $imgs"; ko "eleven images in the DOM"; }
shot=${REPORT_SCREENSHOT:-$TMP/report.png}
if chrome_run shot "file://$TMP/report.html" "$shot" && [ "$(wc -c <"$shot")" -gt 50000 ]; then
	ok "screenshot ($(wc -c <"$shot") bytes)"
else
	ko "screenshot"
fi
rpt_done
