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
        self.svg_rects = {}  # svg id -> span rectangles (subpaths of its paths of class spans)
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
        if tag == "path" and a.get("class") == "spans" and self.svg:
            self.svg_rects[self.svg] += a.get("d", "").count("z")
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

# Interaction: a copy of the passing report with a probe that moves the mouse over a span and a
# fifo chart and presses the zoom button, then writes what the tooltip said and the new range.
PROBE = """<script>
setTimeout(function () {
  var out = {}, tip = document.getElementById('tooltip');
  var svg = document.getElementById('timeline-svg'), r = svg.getBoundingClientRect();
  var path = svg.querySelector('path.spans'), b = path.getBoundingClientRect();
  svg.dispatchEvent(new MouseEvent('mousemove', {clientX: b.left + 1, clientY: b.top + 3, bubbles: true}));
  out.span = tip.style.display + '|' + tip.textContent;
  var chart = document.querySelectorAll('#fifos-svg rect')[1], c = chart.getBoundingClientRect();
  chart.dispatchEvent(new MouseEvent('mousemove', {clientX: c.left + c.width / 2, clientY: c.top + 5, bubbles: true}));
  out.fifo = tip.textContent;
  document.getElementById('zoom-in').click();
  setTimeout(function () {
    out.range = document.getElementById('view-range').textContent;
    var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }, 200);
}, 50);
</script>"""
page = os.path.join(workdir, "pass.html")
if os.path.exists(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    probe_page = os.path.join(workdir, "pass.probe.html")
    with open(probe_page, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))
    chrome = subprocess.run(
        ["timeout", "60", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--user-data-dir=" + os.path.join(workdir, "profile-probe"), "--virtual-time-budget=5000", "--dump-dom",
         "file://" + os.path.abspath(probe_page)], capture_output=True, text=True, timeout=90)
    m = re.search(r'<pre id="probe">(.*?)</pre>', chrome.stdout, re.S)
    check(m is not None, "probe: the interaction probe ran")
    if m:
        import html as htmllib
        import json
        got = json.loads(htmllib.unescape(m.group(1)))
        print("probe:", got)
        check(got["span"].startswith("block|") and " cycles)" in got["span"], "probe: a span's tooltip shows its cycles")
        check("objects full" in got["fifo"], "probe: a fifo chart's tooltip shows its occupancy")
        check(got["range"].startswith("cycles ") and not got["range"].startswith("cycles 0 "),
              f"probe: the zoom button narrows the view ({got['range']})")
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
