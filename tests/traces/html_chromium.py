#!/usr/bin/env python3
"""ctest trace:html-chromium: `npusim run --html` reports rendered by headless Chromium.

For a passing design and for deadlocking ones, the report is written, loads nothing from the
network, and Chromium (Debian package `chromium`, installed by tools/install-deps.sh) renders it
without a script error: the page's script marks <body data-rendered="ok"> when it has drawn
everything and writes any error into #render-error. The DOM Chromium dumps must carry that mark,
an empty #render-error, a timeline with span rectangles, the fifo charts, the design graph and,
for a deadlock, the wait-for graph with its cycle.

usage: html_chromium.py NPUSIM WORKDIR
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys

npusim, workdir = sys.argv[1], sys.argv[2]
shutil.rmtree(workdir, ignore_errors=True)
os.makedirs(workdir)

chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if not chromium:
    sys.exit("chromium not found: install the Debian package chromium (tools/install-deps.sh); "
             "this test renders the --html report in headless Chromium")


class Dom(html.parser.HTMLParser):
    """The elements of the dumped DOM that the checks look at."""

    def __init__(self):
        super().__init__()
        self.body = {}
        self.ids = {}  # id -> attributes
        self.text = {}  # id -> text inside (for #render-error, #status)
        self.stack = []  # ids of the open elements with an id we collect text for
        self.svg_rects = {}  # svg id -> rects with class span
        self.svg = None
        self.count = {"g.node": 0, "g.node.in-cycle": 0, "g.edge.in-cycle": 0, "g.flow": 0, "path": 0}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if "id" in a:
            self.ids[a["id"]] = a
            if a["id"] in ("render-error", "status"):
                self.stack.append(a["id"])
                self.text[a["id"]] = ""
        if tag == "svg":
            self.svg = a.get("id")
            self.svg_rects.setdefault(self.svg, 0)
        if tag == "rect" and a.get("class") == "span" and self.svg:
            self.svg_rects[self.svg] += 1
        cls = a.get("class", "")
        if tag == "g" and cls.startswith("node"):
            self.count["g.node"] += 1
            if "in-cycle" in cls:
                self.count["g.node.in-cycle"] += 1
        if tag == "g" and cls == "edge in-cycle":
            self.count["g.edge.in-cycle"] += 1
        if tag == "g" and cls == "flow":
            self.count["g.flow"] += 1
        if tag == "path" and self.svg == "fifos-svg":
            self.count["path"] += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
        if tag == "div" and self.stack and self.stack[-1] == "render-error":
            self.stack.pop()
        if tag == "span" and self.stack and self.stack[-1] == "status":
            self.stack.pop()

    def handle_data(self, data):
        if self.stack:
            self.text[self.stack[-1]] += data


failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)


def render(name, args, want_code, want_status):
    page = os.path.join(workdir, name + ".html")
    run = subprocess.run([npusim, "run"] + args + ["--html", page], capture_output=True, text=True, timeout=120)
    check(run.returncode == want_code, f"{name}: npusim exits {run.returncode}, expected {want_code}")
    if not os.path.exists(page):
        check(False, f"{name}: {page} written\n{run.stdout}{run.stderr}")
        return None
    with open(page, encoding="utf-8") as f:
        text = f.read()
    print(f"{name}: {page}, {len(text):,} bytes")
    check("report written to " + page in run.stdout + run.stderr, f"{name}: npusim says where the report is")
    check("http://" not in text and "https://" not in text, f"{name}: no http:// or https:// in the page")
    check(not re.search(r"""\b(src|href)\s*=\s*(?!["']?#)""", text), f"{name}: every src/href is a fragment of the page")
    profile = os.path.join(workdir, "profile-" + name)
    try:
        chrome = subprocess.run(
            ["timeout", "60", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--dump-dom",
             "file://" + os.path.abspath(page)],
            capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        check(False, f"{name}: chromium finished within 90 s")
        return None
    with open(os.path.join(workdir, name + ".dom.html"), "w", encoding="utf-8") as f:
        f.write(chrome.stdout)
    with open(os.path.join(workdir, name + ".chromium.log"), "w", encoding="utf-8") as f:
        f.write(chrome.stderr)
    check(chrome.returncode == 0, f"{name}: chromium exits 0 (got {chrome.returncode})")
    console = [l for l in chrome.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    check(not console, f"{name}: no console message from the page" + ("".join("\n    " + l for l in console)))
    dom = Dom()
    dom.feed(chrome.stdout)
    check(dom.body.get("data-rendered") == "ok",
          f"{name}: the page's script finished (body data-rendered={dom.body.get('data-rendered')!r})")
    err = dom.text.get("render-error", None)
    check(err is not None and err.strip() == "", f"{name}: #render-error is empty (got {err!r})")
    check(dom.text.get("status", "").strip() == want_status,
          f"{name}: status {dom.text.get('status', '').strip()!r}, expected {want_status!r}")
    check(dom.svg_rects.get("timeline-svg", 0) > 0,
          f"{name}: the timeline has span rectangles ({dom.svg_rects.get('timeline-svg', 0)})")
    check("fifos-svg" in dom.ids and dom.count["path"] > 0, f"{name}: the fifo occupancy charts are drawn")
    check("design-graph" in dom.ids and dom.count["g.flow"] > 0, f"{name}: the design graph has its flows")
    check("util-cores" in dom.ids and "util-dma" in dom.ids, f"{name}: the utilisation tables")
    return dom


render("pass", ["passthrough_kernel"], 0, "PASS")
dom = render("matmul", ["matmul_single_core", "--device", "npu2"], 0, "PASS")
dom = render("fill_less", ["deadlock_fill_less"], 3, "deadlock")
if dom:
    check("deadlock-graph" in dom.ids and dom.count["g.node"] > 0, "fill_less: the wait-for graph is drawn")
    check("diagnosis-text" in dom.ids, "fill_less: the diagnosis text")
dom = render("ring3", ["deadlock_ring3"], 3, "deadlock")
if dom:
    check(dom.count["g.node.in-cycle"] >= 2 and dom.count["g.edge.in-cycle"] >= 2,
          f"ring3: the cycle is highlighted ({dom.count['g.node.in-cycle']} nodes, "
          f"{dom.count['g.edge.in-cycle']} edges)")

if failures:
    print(f"{len(failures)} check(s) failed; the pages and Chromium's DOM and log are in {workdir}", file=sys.stderr)
    sys.exit(1)
print("all reports rendered in Chromium without a script error")
