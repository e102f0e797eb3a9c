#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Open a report.html in headless Chromium through chromedriver (W3C WebDriver over HTTP
on loopback, no third-party Python modules) and check it like a reader would.

Usage: browser.py REPORT.html SCREENSHOT.png EXPECTED_FINDING_IDS(comma-separated|-) [--flame] [--charts] [--cluster]
--charts: at a 480 px wide window, every bar chart fits its column and its text renders at
12 px or more.
--cluster: the page is a cluster report (report --from of 2 or more reports, report
--fleet, perflab-mpi report): no facts table is expected, and at every width the drift
table's every column is on screen without scrolling (its values wrap or are cut).
Prints TAP lines. Exit 77 (skip) when chromium or chromedriver is missing.

The layout is checked at a desktop, a narrow and a phone window width (WIDTHS), with every
<details> open: no element reaches past the page width (document and each element; a
table may reach past it only inside a horizontally scrolling table wrapper), no number is
on another line than its unit, no metric name is broken inside a word, every chart is at
least half as wide as its column, no table cell's content spills out of its cell, the facts table keeps a readable key
column and its source column on screen, and each embedded flame graph fills its iframe
exactly (no scrollbar inside, no blank band, controls inside the picture); every table
that scrolls sideways shows a scroll shadow, no findings header word breaks over two
lines and every fix command stays on one line. Screenshots
of the top of the page, the first profile and the facts table are written at each width
(SHOTS): SCREENSHOT.png is the top at the first width, the others SCREENSHOT-WIDTH-PART.png.
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


WIDTHS = (1280, 800, 480)
# The facts table's key column must hold at least this many characters of its
# monospace font on one line (dotted keys are up to ~50 characters and wrap at dots).
KEY_MIN_CHARS = 24

# Everything in the page that reaches past the page width (but what a horizontally
# scrolling table wrapper inside the page holds: div.tw, or a table that scrolls sideways
# at a phone's width), and table
# cells whose content spills out of the cell (what a reader would see as clipped or
# overlapping).
JS_PAGE = r"""
var de=document.documentElement,W=de.clientWidth,out=[],spill=[],wide=new Set(),n=0;
function nm(e){var c=typeof e.className=='string'&&e.className?'.'+e.className.trim().split(/\s+/).join('.'):'';
 return e.tagName.toLowerCase()+(e.id?'#'+e.id:'')+c;}
function clipped(e){for(var a=e.parentElement;a&&a!==document.body;a=a.parentElement){
 var o=getComputedStyle(a).overflowX;if((o==='auto'||o==='scroll')&&(a.tagName==='TABLE'||
 a.classList.contains('tw'))){var q=a.getBoundingClientRect();return q.right<=W+0.5&&q.left>=-0.5;}}
 return false;}
Array.prototype.forEach.call(document.body.querySelectorAll('*'),function(e){
 var r=e.getBoundingClientRect();if(!r.width&&!r.height)return;if(clipped(e))return;
 if(r.right>W+0.5||r.left<-0.5){wide.add(e);n++;if(!wide.has(e.parentElement))
  out.push(nm(e)+' '+Math.round(r.left)+'..'+Math.round(r.right)+' px');}});
Array.prototype.forEach.call(document.querySelectorAll('td,th'),function(e){
 if(e.scrollWidth>e.clientWidth+1)spill.push(nm(e.closest('table'))+' '+nm(e)+' '+
  e.scrollWidth+'>'+e.clientWidth+': '+e.textContent.slice(0,60));});
return {W:W,sw:de.scrollWidth,tables:document.querySelectorAll('table').length,
 out:out.slice(0,12),nout:n,spill:spill.slice(0,12),nspill:spill.length};
"""

# Text that wraps where a reader must not see it wrap: a number and its unit ("39.89 ns",
# "93454/s", "12.5 %") on two lines, and a metric name broken inside a word
# ("clock_gettime(MONOTONIC_COAR" / "SE)"; breaks after "(", "_" or a space are fine).
# Each is a text range whose boxes lie on more than one line.
JS_WRAP = r"""
var UNIT=/(\d+(?:[.,]\d+)*)([ \u00a0]?)((?:[kMGTPE]i?)?B(?:\/s)?|[kMGT]?bit\/s|[kMG]?Hz|ns|us|\u00b5s|ms|s|%|\/s|ops\/s)(?![A-Za-z0-9_\/])/g;
function lines(node,a,b){var r=document.createRange();r.setStart(node,a);r.setEnd(node,b);
 var t=Array.prototype.filter.call(r.getClientRects(),function(q){return q.width>0&&q.height>0});
 if(t.length<2)return false;var top=Math.min.apply(null,t.map(function(q){return q.top})),
 bot=Math.max.apply(null,t.map(function(q){return q.top}));return bot-top>t[0].height/2;}
function texts(root,skip){var out=[],w=document.createTreeWalker(root,NodeFilter.SHOW_TEXT,null),x;
 while((x=w.nextNode())){if(skip&&x.parentElement.closest(skip))continue;out.push(x);}return out;}
var units=[],words=[],nu=0,nw=0,m;
texts(document.body,'svg,script,style,title').forEach(function(t){UNIT.lastIndex=0;
 while((m=UNIT.exec(t.data))){nu++;if(lines(t,m.index,m.index+m[0].length))
  units.push(JSON.stringify(m[0])+' in '+t.parentElement.tagName.toLowerCase()+': '+t.data.slice(0,80));}});
document.querySelectorAll('table.metrics tbody td:first-child,table.comparison tbody td:first-child')
 .forEach(function(c){var name=c.textContent;texts(c).forEach(function(t){var re=/[A-Za-z0-9]+/g;
 while((m=re.exec(t.data))){nw++;if(lines(t,m.index,m.index+m[0].length))
  words.push(JSON.stringify(m[0])+' in '+JSON.stringify(name));}});});
return {nu:nu,units:units.slice(0,12),nbu:units.length,nw:nw,words:words.slice(0,12),nbw:words.length};
"""

# The key numbers' caveats: every row's caveats cell with content is on screen without
# scrolling sideways (at a narrow width the rows stack, the caveats under the figure).
JS_KEYCAV = r"""
var W=document.documentElement.clientWidth,n=0,off=[];
document.querySelectorAll('table.keynums tbody tr').forEach(function(tr){
 var c=tr.lastElementChild;if(!c||!c.textContent.trim())return;n++;
 var r=c.getBoundingClientRect();if(r.left<-0.5||r.right>W+0.5)
  off.push(tr.firstElementChild.textContent+' '+Math.round(r.left)+'..'+Math.round(r.right)+' px');});
return {n:n,off:off.slice(0,12)};
"""

# What a reader sees of tables that scroll and of the findings table: every element that
# scrolls sideways (scrollWidth past its width) shows it with a background (the shadow at
# an edge with more beyond it); no findings header word is broken over two lines
# ("expecte" / "d"); every fix command is one line (never broken mid-word: it is copied).
JS_READ = r"""
function multi(el){var r=document.createRange();r.selectNodeContents(el);
 var t=Array.prototype.filter.call(r.getClientRects(),function(q){return q.width>0&&q.height>0});
 if(t.length<2)return false;var tops=t.map(function(q){return q.top});
 return Math.max.apply(null,tops)-Math.min.apply(null,tops)>t[0].height/2;}
function nm(e){return e.tagName.toLowerCase()+(e.id?'#'+e.id:'')+(typeof e.className=='string'&&e.className?'.'+e.className.trim().split(/\s+/).join('.'):'');}
var scrolls=0,nocue=[],heads=[],cmds=0,broken=[];
Array.prototype.forEach.call(document.body.querySelectorAll('div.tw,table'),function(e){
 var cs=getComputedStyle(e);if(cs.overflowX!=='auto'&&cs.overflowX!=='scroll')return;
 if(e.scrollWidth<=e.clientWidth+1)return;scrolls++;
 if(cs.backgroundImage.indexOf('gradient')<0)nocue.push(nm(e)+' '+e.scrollWidth+'>'+e.clientWidth);});
document.querySelectorAll('#findings-table thead th').forEach(function(h){if(multi(h))heads.push(h.textContent);});
document.querySelectorAll('#findings-table tbody td:nth-child(5)>code:first-child').forEach(function(c){cmds++;
 if(multi(c))broken.push(c.textContent.slice(0,80));});
return {scrolls:scrolls,nocue:nocue.slice(0,12),heads:heads,cmds:cmds,broken:broken.slice(0,12),
 findings:document.querySelectorAll('#findings-table').length};
"""

# Every chart against its column (the content box of the block that holds it).
JS_CHART_WIDTH = r"""
var out=[];document.querySelectorAll('svg.chart,figure>svg').forEach(function(c){
 var p=c.parentElement;while(p&&getComputedStyle(p).display!=='block')p=p.parentElement;
 var cs=getComputedStyle(p),col=p.clientWidth-parseFloat(cs.paddingLeft)-parseFloat(cs.paddingRight);
 out.push({w:c.getBoundingClientRect().width,col:col,title:(c.querySelector('title')||{}).textContent});});
return out;
"""

# The facts table: column edges and the width of one character of the key font.
JS_FACTS = r"""
var t=document.getElementById('facts-table');if(!t)return null;
var th=t.querySelectorAll('thead th'),c=t.querySelector('tbody td code');
var px=7.8;if(c){var s=document.createElement('span');s.style.font=getComputedStyle(c).font;
 s.textContent='x'.repeat(100);document.body.appendChild(s);px=s.getBoundingClientRect().width/100;s.remove();}
return {W:document.documentElement.clientWidth,px:px,rows:t.querySelectorAll('tbody tr').length,
 cols:Array.prototype.map.call(th,function(h){var r=h.getBoundingClientRect();
  return {name:h.textContent,left:r.left,right:r.right,width:r.width};})};
"""

# Each flame graph iframe against the element that contains it.
JS_FRAMES = r"""
return Array.prototype.map.call(document.querySelectorAll('iframe.flame'),function(f){
 var r=f.getBoundingClientRect(),p=f.parentElement.getBoundingClientRect();
 return {left:r.left,right:r.right,width:r.width,height:r.height,cw:f.clientWidth,ch:f.clientHeight,
  pleft:p.left,pright:p.right,W:document.documentElement.clientWidth};});
"""

# Inside one flame graph iframe: scrollbars, the picture's box, the controls' boxes.
JS_FLAME = r"""
var de=document.documentElement,s=document.querySelector('svg');if(!s)return null;
var r=s.getBoundingClientRect(),c=[];
Array.prototype.forEach.call(s.querySelectorAll('text.h,text.b'),function(t){
 var b=t.getBoundingClientRect();c.push({t:t.textContent,l:b.left,r:b.right,top:b.top,b:b.bottom});});
return {cw:de.clientWidth,ch:de.clientHeight,sw:de.scrollWidth,sh:de.scrollHeight,
 x:r.left,y:r.top,w:r.width,h:r.height,controls:c};
"""


# What the screenshots show, at each width: the top of the page, the first metrics table, the first profile
# (its flame graph) and the facts table, each scrolled to the top of the window.
SHOTS = (("top", None), ("metrics", "table.metrics"), ("profile", "section.profile"),
         ("facts", "#facts-table"))
SHOT_HEIGHT = 1400


def shot_name(shot, width, part):
    """SCREENSHOT.png for the top of the page at the first width, else
    SCREENSHOT-WIDTH-PART.png."""
    if width == WIDTHS[0] and part == "top":
        return shot
    root, ext = os.path.splitext(shot)
    return f"{root}-{width}-{part}{ext or '.png'}"


# The cluster report's drift table: each header cell's box against the window, and
# whether its wrapper has to scroll to show it.
JS_DRIFT = r"""
var t=document.getElementById('drift-table');if(!t)return null;
var W=document.documentElement.clientWidth,w=t.parentElement;
return {W:W,scroll:w.scrollWidth-w.clientWidth,rows:t.querySelectorAll('tr').length,
 cols:Array.prototype.map.call(t.querySelectorAll('tr:first-child th'),function(h){
  var r=h.getBoundingClientRect();return {name:h.textContent,left:r.left,right:r.right};})};
"""


def check_drift(ex, at):
    """A cluster report's drift table: on screen whole, every column, without scrolling."""
    dr = ex(JS_DRIFT)
    tap(dr is not None and dr["rows"] > 1, f"{at}: drift table present", dr)
    if dr is None:
        return
    off = [c for c in dr["cols"] if c["left"] < -0.5 or c["right"] > dr["W"] + 0.5]
    tap(len(dr["cols"]) == 3 and not off and dr["scroll"] <= 1,
        f"{at}: every drift column on screen without scrolling",
        json.dumps({"scroll": dr["scroll"], "off": off or dr["cols"]}))


def check_layout(base, s, ex, width, want_flame, cluster=False):
    """The layout checks at one window width (TAP lines named with the width)."""
    call(base, "POST", s + "/window/rect", {"width": width, "height": 1000})
    ex("document.querySelectorAll('details').forEach(function(d){d.open=true})")
    pg = ex(JS_PAGE)
    at = f"at {width} px (page {pg['W']} px)"
    tap(pg["tables"] > 0, f"{at}: the page has tables to lay out", pg["tables"])
    tap(pg["sw"] <= pg["W"], f"{at}: no horizontal scrollbar (document {pg['sw']} px wide)",
        "\n".join(pg["out"]))
    tap(pg["nout"] == 0, f"{at}: no element wider than the page",
        f"{pg['nout']} elements past the edge, the outermost:\n" + "\n".join(pg["out"]))
    tap(pg["nspill"] == 0, f"{at}: no table cell's content spills out of its cell",
        f"{pg['nspill']} cells:\n" + "\n".join(pg["spill"]))
    wr = ex(JS_WRAP)
    tap(wr["nbu"] == 0, f"{at}: no number on another line than its unit ({wr['nu']} checked)",
        f"{wr['nbu']} split:\n" + "\n".join(wr["units"]))
    tap(wr["nbw"] == 0, f"{at}: no metric name broken inside a word ({wr['nw']} words checked)",
        f"{wr['nbw']} broken:\n" + "\n".join(wr["words"]))
    rd = ex(JS_READ)
    tap(not rd["nocue"], f"{at}: every table that scrolls sideways shows it "
        f"({rd['scrolls']} scroll)", "no scroll shadow:\n" + "\n".join(rd["nocue"]))
    if rd["findings"]:
        tap(not rd["heads"], f"{at}: no findings header broken over two lines",
            "\n".join(rd["heads"]))
        tap(not rd["broken"], f"{at}: every fix command on one line ({rd['cmds']} commands)",
            "\n".join(rd["broken"]))
    kc = ex(JS_KEYCAV)
    if kc["n"]:
        tap(not kc["off"], f"{at}: every key number's caveats on screen without scrolling "
            f"({kc['n']} rows)", "\n".join(kc["off"]))
    charts = ex(JS_CHART_WIDTH)
    narrow = [c for c in charts if c["w"] < c["col"] / 2]
    tap(not narrow, f"{at}: every chart at least half as wide as its column ({len(charts)} charts)",
        json.dumps(narrow[:5]))
    if cluster:
        check_drift(ex, at)
    fa = ex(JS_FACTS)
    if not cluster:
        tap(fa is not None and fa["rows"] > 0, f"{at}: facts table present", fa)
    if fa is not None and len(fa["cols"]) == 3:
        key, _, src = fa["cols"]
        chars = key["width"] / fa["px"]
        tap(chars >= KEY_MIN_CHARS,
            f"{at}: facts key column holds {chars:.0f} characters (>= {KEY_MIN_CHARS})",
            json.dumps(fa["cols"]))
        tap(src["left"] >= 0 and src["right"] <= fa["W"] + 0.5,
            f"{at}: facts source column on screen", json.dumps(src))
    frames = ex(JS_FRAMES)
    if want_flame:
        tap(len(frames) >= 1, f"{at}: flame graph iframe present", frames)
    for i, f in enumerate(frames):
        tap(f["left"] >= f["pleft"] - 0.5 and f["right"] <= f["pright"] + 0.5 and
            f["right"] <= f["W"] + 0.5, f"{at}: flame graph {i} inside its container",
            json.dumps(f))
        call(base, "POST", s + "/frame", {"id": i})
        try:
            fl = ex(JS_FLAME)
        finally:
            call(base, "POST", s + "/frame/parent", {})
        tap(fl is not None, f"{at}: flame graph {i} has its picture", fl)
        if fl is None:
            continue
        tap(fl["sw"] <= fl["cw"] and fl["sh"] <= fl["ch"],
            f"{at}: flame graph {i}: no scrollbar inside its frame",
            f"content {fl['sw']}x{fl['sh']} in a {fl['cw']}x{fl['ch']} frame")
        tap(abs(fl["w"] - fl["cw"]) <= 2 and abs(fl["h"] - fl["ch"]) <= 2,
            f"{at}: flame graph {i} fills its frame (no blank band)",
            f"picture {fl['w']:.0f}x{fl['h']:.0f} at {fl['x']:.0f},{fl['y']:.0f} "
            f"in a {fl['cw']}x{fl['ch']} frame")
        bad = [c for c in fl["controls"] if c["l"] < 0 or c["r"] > fl["cw"] + 0.5 or
               c["top"] < 0 or c["b"] > fl["ch"] + 0.5]
        tap(len(fl["controls"]) >= 3 and not bad,
            f"{at}: flame graph {i}: title and controls inside the frame",
            json.dumps(bad or fl["controls"]))


def screenshots(base, s, ex, shot, width):
    """Window-sized screenshots at @width of the parts in SHOTS that the page has."""
    call(base, "POST", s + "/window/rect", {"width": width, "height": SHOT_HEIGHT})
    for part, sel in SHOTS:
        if sel is None:
            found = ex("window.scrollTo(0,0);return true")
        else:
            found = ex("var e=document.querySelector(arguments[0]);if(!e)return false;"
                       "window.scrollTo(0,e.getBoundingClientRect().top+scrollY-8);return true",
                       [sel])
        if not found:
            continue
        path = shot_name(shot, width, part)
        png = call(base, "GET", s + "/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))
        tap(os.path.getsize(path) > 1000, f"screenshot of the {part} at {width} px: {path}")
    ex("window.scrollTo(0,0)")


def check_charts(base, s, ex):
    """At a phone's width (480 px) the charts scale down to their column: each must fit
    it, and its smallest text (labels, values, scale) must still render at 12 px or more."""
    call(base, "POST", s + "/window/rect", {"width": 480, "height": 1600})
    got = ex("var r=[];document.querySelectorAll('svg.chart').forEach(function(c){"
             "var vb=c.viewBox.baseVal,w=c.getBoundingClientRect().width,k=vb&&vb.width?w/vb.width:1,m=1e9;"
             "c.querySelectorAll('text').forEach(function(t){"
             "m=Math.min(m,parseFloat(getComputedStyle(t).fontSize)*k)});"
             "r.push({w:w,col:c.parentElement.clientWidth,px:m,"
             "ticks:c.querySelectorAll('g.scale text').length})});return r")
    tap(len(got) > 0, "charts present", got)
    small = [c for c in got if c["px"] < 12]
    tap(not small, "chart text at 480 px renders at 12 px or more",
        json.dumps(small or got[:3]))
    wide = [c for c in got if c["w"] > c["col"] + 1]
    tap(not wide, "every chart fits its column at 480 px", json.dumps(wide))
    noscale = [c for c in got if c["ticks"] < 2]
    tap(not noscale, "every chart has a scale with at least two tick values",
        json.dumps(noscale))


def main():
    html, shot, expected = sys.argv[1], sys.argv[2], sys.argv[3]
    want_flame = "--flame" in sys.argv[4:]
    want_charts = "--charts" in sys.argv[4:]
    cluster = "--cluster" in sys.argv[4:]
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
        try:
            sid = call(base, "POST", "/session", caps)["sessionId"]
        except Exception as e:  # installed, but the browser does not start here
            why = getattr(e, "read", lambda: str(e).encode())().decode(errors="replace")
            print("1..0 # SKIP chromium did not start: " + " ".join(why.split())[:200])
            return 0
        s = f"/session/{sid}"
        call(base, "POST", s + "/url", {"url": "file://" + os.path.abspath(html)})
        ex = lambda js, args=None: call(base, "POST", s + "/execute/sync",
                                        {"script": js, "args": args or []})
        title = ex("return document.title")
        tap(title.startswith("perflab cluster report" if cluster else "perflab report"),
            "page title", title)
        rows = ex("return Array.from(document.querySelectorAll('#findings-table tbody tr.finding'))"
                  ".map(function(r){return r.dataset.id})")
        if expected != "-":
            want = sorted(expected.split(",")) if expected else []
            tap(sorted(rows) == want, "findings table rows", f"got {sorted(rows)}\nwant {want}")
        ext = ex("return Array.from(document.querySelectorAll('script[src],link[href],img[src]'))"
                 ".map(function(e){return e.src||e.href})")
        tap(ext == [], "no external resources (self-contained page)", ext)
        for width in WIDTHS:
            check_layout(base, s, ex, width, want_flame, cluster)
            screenshots(base, s, ex, shot, width)
        call(base, "POST", s + "/window/rect", {"width": WIDTHS[0], "height": 1600})
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
        if want_charts:
            check_charts(base, s, ex)
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
