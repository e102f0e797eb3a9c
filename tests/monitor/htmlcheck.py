#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check the charts of a monitor.html (perflab report --from monitor.json) like a reader
would: each y axis writes its tick values in one precision, the plot starts at the left
edge of its axes (no blank first interval before the first sample with data), and each
legend swatch has the colour (and opacity) its series is drawn with.

Usage: htmlcheck.py monitor.html. Prints one line per chart that fails a check, with the
chart's title, and a last line "charts: N"; exit 0 when every chart passes, else 1.
"""
import re
import sys
import xml.etree.ElementTree as ET


def decimals(label):
    num = label.split()[0]
    return len(num.split(".")[1]) if "." in num else 0


def main():
    text = open(sys.argv[1], "rb").read().decode("utf-8")
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    bad = 0
    for s in svgs:
        svg = ET.fromstring(s)
        title = svg.findtext("title")
        # the y axis: the grid lines and the labels at their left ends (text-anchor end)
        grid = [e for e in svg.iter("line") if e.get("stroke") == "#ddd"]
        left = min(float(e.get("x1")) for e in grid)
        ticks = [e.text or "" for e in svg.iter("text")
                 if e.get("text-anchor") == "end" and float(e.get("x")) < left]
        precisions = {decimals(t) for t in ticks}
        if len(ticks) < 2 or len(precisions) != 1:
            print(f"{title}: y tick labels in more than one precision: {ticks}")
            bad += 1
        # the series: polylines (stroke) or stacked polygons (fill), in drawing order
        series = [e for e in svg if e.tag in ("polyline", "polygon")]
        xs = [float(p.split(",")[0]) for e in series for p in e.get("points").split()]
        if not xs or abs(min(xs) - left) > 0.5:
            print(f"{title}: the plot starts at x={min(xs) if xs else None}, "
                  f"its axes at x={left}")
            bad += 1
        # each series' paint and opacity, in drawing order (a line with gaps is drawn as
        # several polylines of one colour), against the swatches in legend order: the
        # drawn ones must be the swatches of their series, in order
        drawn = []
        for e in series:
            line = e.tag == "polyline"
            paint = (e.get("stroke" if line else "fill"),
                     e.get("stroke-opacity" if line else "fill-opacity", "1"))
            if paint not in drawn:
                drawn.append(paint)
        swatches = [(e.get("fill"), e.get("fill-opacity", "1")) for e in svg.iter("rect")
                    if e.get("width") == "10" and e.get("height") == "10"]
        it = iter(swatches)
        if not drawn or not all(d in it for d in drawn):
            print(f"{title}: legend {swatches} does not match the series {drawn}")
            bad += 1
    print(f"charts: {len(svgs)}")
    return 1 if bad or not svgs else 0


sys.exit(main())
