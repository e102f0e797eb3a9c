#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Open a report.html in headless Chromium through chromedriver (W3C WebDriver over HTTP
on loopback, no third-party Python modules) and check it like a reader would.

Usage: browser.py REPORT.html SCREENSHOT.png EXPECTED_FINDING_IDS(comma-separated|-) [--flame]
Prints TAP lines. Exit 77 (skip) when chromium or chromedriver is missing.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

n = 0
failed = 0


def tap(ok, name, diag=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + f" {n} - {name}")
    if not ok:
        failed += 1
        for line in str(diag).splitlines()[:20]:
            print("# " + line)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read().decode())["value"]


def main():
    html, shot, expected = sys.argv[1], sys.argv[2], sys.argv[3]
    want_flame = "--flame" in sys.argv[4:]
    chromium = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        print("1..0 # SKIP chromium or chromedriver not installed (Debian packages chromium, chromium-driver)")
        return 0
    port = free_port()
    profile = tempfile.mkdtemp(prefix="perflab-chromium.")
    proc = subprocess.Popen([driver, f"--port={port}", "--allowed-ips=127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    sid = None
    try:
        for _ in range(100):
            try:
                call(base, "GET", "/status")
                break
            except Exception:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": chromium, "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--window-size=1280,1600", f"--user-data-dir={profile}"]}}}}
        sid = call(base, "POST", "/session", caps)["sessionId"]
        s = f"/session/{sid}"
        call(base, "POST", s + "/url", {"url": "file://" + os.path.abspath(html)})
        ex = lambda js, args=None: call(base, "POST", s + "/execute/sync",
                                        {"script": js, "args": args or []})
        title = ex("return document.title")
        tap(title.startswith("perflab report"), "page title", title)
        rows = ex("return Array.from(document.querySelectorAll('#findings-table tbody tr.finding'))"
                  ".map(function(r){return r.dataset.id})")
        if expected != "-":
            want = sorted(expected.split(",")) if expected else []
            tap(sorted(rows) == want, "findings table rows", f"got {sorted(rows)}\nwant {want}")
        ext = ex("return Array.from(document.querySelectorAll('script[src],link[href],img[src]'))"
                 ".map(function(e){return e.src||e.href})")
        tap(ext == [], "no external resources (self-contained page)", ext)
        if want_flame:
            n_frames = ex("return document.querySelectorAll('iframe.flame').length")
            tap(n_frames >= 1, "flame graph present", n_frames)
            if n_frames >= 1:
                call(base, "POST", s + "/frame", {"id": 0})
                js_w = ("var g=document.querySelector('g.f[data-d=\"1\"]');"
                        "return g?+g.querySelector('rect').getAttribute('width'):null")
                before = ex(js_w)
                tap(before is not None, "flame graph has frames", before)
                if before is not None:
                    hover = ex("var g=document.querySelector('g.f[data-d=\"1\"]');"
                               "g.dispatchEvent(new MouseEvent('mouseover',{bubbles:true}));"
                               "return document.getElementById('det').textContent")
                    tap("samples" in hover, "hover shows the function and its samples", hover)
                    ex("document.querySelector('g.f[data-d=\"1\"]')"
                       ".dispatchEvent(new MouseEvent('click',{bubbles:true}))")
                    after = ex(js_w)
                    tap(after is not None and after > before, "flame graph zooms on click",
                        f"width {before} -> {after}")
                call(base, "POST", s + "/frame/parent", {})
        png = call(base, "GET", s + "/screenshot")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        tap(os.path.getsize(shot) > 1000, f"screenshot written to {shot}")
        try:
            logs = call(base, "POST", s + "/se/log", {"type": "browser"})
        except Exception as e:  # chromedriver without the log endpoint
            logs = None
            tap(False, "browser console log readable", e)
        if logs is not None:
            errs = [l for l in logs if l.get("level") == "SEVERE"]
            tap(errs == [], "no console errors", json.dumps(errs, indent=1))
    finally:
        if sid:
            try:
                call(base, "DELETE", f"/session/{sid}")
            except Exception:
                pass
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)
    print(f"1..{n}")
    return 1 if failed else 0


sys.exit(main())
