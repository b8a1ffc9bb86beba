#include "npusim/traces/HtmlReportSink.hpp"

#include "npusim/model/DeviceSpec.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <stdexcept>
#include <tuple>

namespace npusim::traces {

using sim::TraceKind;
using sim::TrackInfo;

namespace {

// The page's style and script. The script renders the timeline and the occupancy charts from
// the embedded JSON (#npusim-data); everything else is static HTML and SVG written below.
constexpr const char* kStyle = R"CSS(
:root { --fg:#1d2330; --muted:#5f6b7a; --line:#d8dde6; --bg:#ffffff; --panel:#f6f8fb; --accent:#2b6cb0; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color:var(--fg); background:var(--bg); }
header { padding: 16px 24px; background: var(--panel); border-bottom: 1px solid var(--line); }
header h1 { margin: 0 0 8px 0; font-size: 20px; }
main { padding: 8px 24px 40px 24px; }
section { margin-top: 24px; }
h2 { font-size: 17px; margin: 0 0 8px 0; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px 0; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; }
.status { display:inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; color: #fff; margin-left: 8px; font-size: 13px; vertical-align: middle; }
.status-pass { background:#2f855a; } .status-fail { background:#c05621; } .status-deadlock, .status-error { background:#c53030; }
.status-limit { background:#b7791f; } .status-finished { background:#4a5568; }
table.facts td { padding: 1px 16px 1px 0; vertical-align: top; } table.facts td:first-child { color: var(--muted); white-space: nowrap; }
table.grid { border-collapse: collapse; margin: 4px 0; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
table.grid th { background: var(--panel); font-weight: 600; }
table.grid td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bar { position: relative; width: 160px; height: 12px; background: #edf0f5; border-radius: 3px; overflow: hidden; }
.bar > span { position: absolute; left: 0; top: 0; bottom: 0; background: #4e79a7; }
.bar.dma > span { background: #59a14f; }
.note { color: var(--muted); font-size: 13px; }
.warn { background: #fffbea; border: 1px solid #f6e05e; padding: 6px 10px; border-radius: 4px; margin: 6px 0; }
.errbox { background: #fff5f5; border: 1px solid #feb2b2; padding: 8px 12px; border-radius: 4px; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 8px 10px; overflow: auto; font-size: 12px; max-height: 480px; }
.toolbar { margin: 6px 0; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.toolbar button { font: inherit; padding: 2px 10px; border: 1px solid var(--line); background: #fff; border-radius: 4px; cursor: pointer; }
.toolbar button:hover { background: var(--panel); }
.legend { display: flex; gap: 14px; flex-wrap: wrap; font-size: 13px; margin: 4px 0; }
.legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.plot { border: 1px solid var(--line); overflow: hidden; user-select: none; cursor: grab; }
.plot svg { display: block; }
.plot text { font-size: 11px; fill: var(--fg); }
#tooltip { position: fixed; pointer-events: none; background: rgba(29,35,48,0.95); color: #fff; padding: 6px 8px; border-radius: 4px; font-size: 12px; max-width: 480px; display: none; z-index: 10; white-space: pre-wrap; }
#render-error:empty { display: none; }
#render-error { background: #fff5f5; border: 1px solid #feb2b2; padding: 8px 12px; margin: 8px 24px; }
svg.graph text { font-size: 11px; }
svg.graph .tile-label { font-weight: 600; }
svg.graph .labels text { paint-order: stroke; stroke: rgba(255,255,255,0.85); stroke-width: 3px; stroke-linejoin: round; }
svg.graph .flow:hover path { stroke-width: 4; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
'use strict';
var errBox = document.getElementById('render-error');
function fail(msg) { errBox.textContent = 'report script error: ' + msg; document.body.dataset.rendered = 'error'; }
window.onerror = function (msg, src, line, col) { fail(msg + ' (line ' + line + ':' + col + ')'); return false; };
try {
var started = Date.now();
var D = JSON.parse(document.getElementById('npusim-data').textContent);
var NS = document.getElementById('ns-probe').namespaceURI;
var COLORS = D.colors;
var tip = document.getElementById('tooltip');
function el(tag, attrs, parent) {
  var e = document.createElementNS(NS, tag);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function fmtInt(n) { return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
function showTip(ev, text) { tip.textContent = text; tip.style.display = 'block';
  var x = ev.clientX + 14, y = ev.clientY + 14;
  if (x + tip.offsetWidth > window.innerWidth) x = ev.clientX - tip.offsetWidth - 8;
  if (y + tip.offsetHeight > window.innerHeight) y = ev.clientY - tip.offsetHeight - 8;
  tip.style.left = x + 'px'; tip.style.top = y + 'px'; }
function hideTip() { tip.style.display = 'none'; }

// Decode the span series: begins are delta-coded.
var maxEnd = Math.max(1, D.end);
D.groups.forEach(function (g) { g.tracks.forEach(function (t) { t.series.forEach(function (s) {
  var b = 0, maxDur = 0;
  for (var i = 0; i < s.b.length; ++i) { b += s.b[i]; s.b[i] = b; if (s.d[i] > maxDur) maxDur = s.d[i]; }
  s.maxDur = maxDur;
}); }); });

var view = { t0: 0, t1: maxEnd };
var LABEL_W = 280, ROW_H = 18, GROUP_H = 18, AXIS_H = 24, CHART_H = 46;
function plotWidth() { return Math.max(600, document.getElementById('timeline').clientWidth - LABEL_W - 2); }
function xOf(t, w) { return LABEL_W + (t - view.t0) / (view.t1 - view.t0) * w; }
function tOf(x, w) { return view.t0 + (x - LABEL_W) / w * (view.t1 - view.t0); }
function niceStep(span, n) { var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
  var m = raw / p; return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p; }
function drawAxis(svg, w, y) {
  var step = Math.max(1, niceStep(view.t1 - view.t0, 8));
  el('line', { x1: LABEL_W, x2: LABEL_W + w, y1: y, y2: y, stroke: '#9aa5b1' }, svg);
  for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
    var x = xOf(t, w);
    el('line', { x1: x, x2: x, y1: y - 4, y2: y, stroke: '#9aa5b1' }, svg);
    var tx = el('text', { x: x + 2, y: y - 6 }, svg); tx.textContent = fmtInt(t);
  }
}
function lowerBound(arr, v) { var lo = 0, hi = arr.length; while (lo < hi) { var m = (lo + hi) >> 1; if (arr[m] < v) lo = m + 1; else hi = m; } return lo; }
function spanText(track, s, i, count) {
  var b = s.b[i], d = s.d[i], lines = [];
  lines.push(D.names[s.n[i]]);
  lines.push(track.name + ' \u2014 ' + D.kinds[s.k]);
  lines.push('cycles ' + fmtInt(b) + ' \u2013 ' + fmtInt(b + d) + ' (' + fmtInt(d) + ' cycles)');
  if (s.m && s.m[i] > 1) lines.push(fmtInt(s.m[i]) + ' spans merged in the report (busy ' + fmtInt(s.u[i]) + ' cycles)');
  var a = s.a ? D.args[s.a[i]] : null;
  if (a) for (var k in a) lines.push(k + ': ' + (typeof a[k] === 'number' ? fmtInt(a[k]) : a[k]));
  if (count > 1) lines.push('(' + count + ' spans within 2 pixels here; zoom in to separate them)');
  return lines.join('\n');
}

// Each series (one kind on one row) is one <path> of rectangles: spans closer than a pixel are
// drawn as one. The tooltip finds the span under the mouse from its position.
function renderTimeline() {
  var box = document.getElementById('timeline');
  var w = plotWidth();
  var rows = 0; D.groups.forEach(function (g) { rows += g.tracks.length; });
  var h = AXIS_H + D.groups.length * GROUP_H + rows * ROW_H + 4;
  var svg = el('svg', { width: LABEL_W + w + 2, height: h, id: 'timeline-svg' });
  drawAxis(svg, w, AXIS_H - 2);
  var y = AXIS_H, rowsAt = [], drawn = 0;
  el('rect', { x: LABEL_W, y: AXIS_H, width: w, height: h - AXIS_H, fill: '#fbfcfe' }, svg);
  D.groups.forEach(function (g) {
    var gt = el('text', { x: 4, y: y + 13, 'font-weight': '600' }, svg); gt.textContent = g.label;
    el('line', { x1: 0, x2: LABEL_W + w, y1: y + GROUP_H - 1, y2: y + GROUP_H - 1, stroke: '#e2e6ee' }, svg);
    y += GROUP_H;
    g.tracks.forEach(function (t) {
      var lt = el('text', { x: 16, y: y + 13 }, svg); lt.textContent = t.name;
      el('line', { x1: LABEL_W, x2: LABEL_W + w, y1: y + ROW_H - 0.5, y2: y + ROW_H - 0.5, stroke: '#eef1f5' }, svg);
      t.series.forEach(function (s) {
        var thin = D.kinds[s.k] === 'streaming';
        var ry = thin ? y + ROW_H - 6 : y + 2, rh = thin ? 4 : ROW_H - 5;
        var first = lowerBound(s.b, view.t0 - s.maxDur);
        var parts = [], px0 = -1, px1 = -1;
        function flush() {
          if (px0 < 0) return;
          var pw = Math.max(1, px1 - px0);
          parts.push('M' + px0.toFixed(1) + ' ' + ry + 'h' + pw.toFixed(1) + 'v' + rh + 'h' + (-pw).toFixed(1) + 'z');
          ++drawn; px0 = -1;
        }
        for (var i = first; i < s.b.length && s.b[i] <= view.t1; ++i) {
          var e = s.b[i] + s.d[i];
          if (e < view.t0) continue;
          var x0 = Math.max(LABEL_W, xOf(s.b[i], w)), x1 = Math.min(LABEL_W + w, xOf(e, w));
          if (px0 >= 0 && x0 <= px1 + 1) { px1 = Math.max(px1, x1); continue; }
          flush(); px0 = x0; px1 = x1;
        }
        flush();
        if (parts.length) el('path', { d: parts.join(''), fill: COLORS[s.k], 'class': 'spans' }, svg);
      });
      rowsAt.push([y, t]);
      y += ROW_H;
    });
  });
  svg.addEventListener('mousemove', function (ev) {
    var rect = svg.getBoundingClientRect(), x = ev.clientX - rect.left, yy = ev.clientY - rect.top;
    var r = null;
    if (x >= LABEL_W) { var lo = 0, hi = rowsAt.length - 1;
      while (lo <= hi) { var m = (lo + hi) >> 1; if (rowsAt[m][0] > yy) hi = m - 1; else { r = rowsAt[m]; lo = m + 1; } } }
    if (!r || yy >= r[0] + ROW_H) { hideTip(); return; }
    var t = tOf(x, w), tol = (view.t1 - view.t0) / w * 2, inThin = yy >= r[0] + ROW_H - 7;
    var series = r[1].series;
    for (var k = series.length - 1; k >= 0; --k) {
      var s = series[k];
      if (D.kinds[s.k] === 'streaming' && !inThin) continue;
      var hit = -1, n = 0;
      for (var i = lowerBound(s.b, t - tol - s.maxDur); i < s.b.length && s.b[i] <= t + tol; ++i) {
        if (s.b[i] + s.d[i] < t - tol) continue;
        ++n;
        if (hit < 0 || (s.b[i] <= t && s.b[i] + s.d[i] >= t)) hit = i;
      }
      if (hit >= 0) { showTip(ev, spanText(r[1], s, hit, n)); return; }
    }
    hideTip();
  });
  svg.addEventListener('mouseleave', hideTip);
  box.replaceChildren(svg);
  box.dataset.rects = drawn;
  document.getElementById('view-range').textContent = 'cycles ' + fmtInt(view.t0) + ' \u2013 ' + fmtInt(view.t1) +
      ' of ' + fmtInt(D.end);
}

function valueAt(c, t) {
  var arr = c.t, i = lowerBound(arr, t + 0.5) - 1;
  if (i < 0) return null;
  return c.env ? [c.lo[i], c.hi[i]] : c.v[i];
}
function renderCounters() {
  var box = document.getElementById('fifos');
  if (!D.counters.length) { box.textContent = 'No fifo or lock counters in this run.'; return; }
  var w = plotWidth();
  var h = AXIS_H + D.counters.length * CHART_H + 4;
  var svg = el('svg', { width: LABEL_W + w + 2, height: h, id: 'fifos-svg' });
  drawAxis(svg, w, AXIS_H - 2);
  var y = AXIS_H;
  D.counters.forEach(function (c) {
    var cap = Math.max(1, c.cap), top = y + 6, bot = y + CHART_H - 6;
    function yOf(v) { return bot - (bot - top) * Math.min(v, cap) / cap; }
    var l1 = el('text', { x: 4, y: y + 16 }, svg); l1.textContent = c.label;
    var l2 = el('text', { x: 4, y: y + 30, fill: '#5f6b7a' }, svg); l2.textContent = c.sub;
    el('rect', { x: LABEL_W, y: top, width: w, height: bot - top, fill: '#fbfcfe', stroke: '#eef1f5' }, svg);
    var capText = el('text', { x: LABEL_W + w - 4, y: top + 10, 'text-anchor': 'end', fill: '#5f6b7a' }, svg);
    capText.textContent = (c.kind === 'fifo' ? 'depth ' : 'max ') + c.cap;
    function stepPath(vals) {
      var d = '', n = c.t.length, lastY = null;
      var first = Math.max(0, lowerBound(c.t, view.t0) - 1);
      for (var i = first; i < n && c.t[i] <= view.t1; ++i) {
        var x = Math.max(LABEL_W, xOf(c.t[i], w)), yy = yOf(vals[i]);
        if (lastY === null) d += 'M' + x.toFixed(1) + ' ' + yy.toFixed(1);
        else d += 'L' + x.toFixed(1) + ' ' + lastY.toFixed(1) + 'L' + x.toFixed(1) + ' ' + yy.toFixed(1);
        lastY = yy;
      }
      if (lastY !== null) d += 'L' + (LABEL_W + w).toFixed(1) + ' ' + lastY.toFixed(1);
      return d;
    }
    var color = c.kind === 'fifo' ? '#2b6cb0' : '#805ad5';
    if (c.env) {
      el('path', { d: stepPath(c.hi), fill: 'none', stroke: color, 'stroke-width': 1.2 }, svg);
      el('path', { d: stepPath(c.lo), fill: 'none', stroke: color, 'stroke-width': 1, 'stroke-dasharray': '3 2' }, svg);
    } else {
      el('path', { d: stepPath(c.v), fill: 'none', stroke: color, 'stroke-width': 1.5 }, svg);
    }
    var hit = el('rect', { x: LABEL_W, y: top, width: w, height: bot - top, fill: 'transparent' }, svg);
    hit.addEventListener('mousemove', function (ev) {
      var rect = svg.getBoundingClientRect(), t = Math.round(tOf(ev.clientX - rect.left, w)), v = valueAt(c, t);
      var what = v === null ? 'no value yet' : Array.isArray(v) ? 'between ' + v[0] + ' and ' + v[1] + ' (reduced)' :
          (c.kind === 'fifo' ? v + ' of ' + c.cap + ' objects full' : 'value ' + v);
      showTip(ev, c.label + '\n' + c.sub + '\ncycle ' + fmtInt(Math.max(0, t)) + ': ' + what);
    });
    hit.addEventListener('mouseleave', hideTip);
    y += CHART_H;
  });
  box.replaceChildren(svg);
}

function render() { renderTimeline(); renderCounters(); }
var pending = false;
function rerender() { if (pending) return; pending = true;
  window.setTimeout(function () { pending = false;
    try { render(); } catch (e) { fail(e && e.stack ? e.stack : String(e)); } }, 15); }
function zoom(factor, center) {
  var span = view.t1 - view.t0, c = center === undefined ? (view.t0 + view.t1) / 2 : center;
  var ns = Math.min(maxEnd, Math.max(10, span * factor));
  var t0 = c - (c - view.t0) * ns / span;
  t0 = Math.max(0, Math.min(maxEnd - ns, t0));
  view.t0 = t0; view.t1 = t0 + ns; rerender();
}
function pan(frac) { var span = view.t1 - view.t0, t0 = Math.max(0, Math.min(maxEnd - span, view.t0 + span * frac));
  view.t0 = t0; view.t1 = t0 + span; rerender(); }
document.getElementById('zoom-in').onclick = function () { zoom(0.5); };
document.getElementById('zoom-out').onclick = function () { zoom(2); };
document.getElementById('zoom-reset').onclick = function () { view.t0 = 0; view.t1 = maxEnd; rerender(); };
document.getElementById('pan-left').onclick = function () { pan(-0.25); };
document.getElementById('pan-right').onclick = function () { pan(0.25); };
['timeline', 'fifos'].forEach(function (id) {
  var box = document.getElementById(id), drag = null;
  box.addEventListener('wheel', function (ev) {
    var rect = box.getBoundingClientRect(), w = plotWidth(), x = ev.clientX - rect.left;
    if (x < LABEL_W) return;
    ev.preventDefault();
    zoom(ev.deltaY > 0 ? 1.25 : 0.8, tOf(x, w));
  }, { passive: false });
  box.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, t0: view.t0, t1: view.t1 }; box.style.cursor = 'grabbing'; });
  window.addEventListener('mouseup', function () { drag = null; box.style.cursor = ''; });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var span = drag.t1 - drag.t0, dt = (drag.x - ev.clientX) / plotWidth() * span;
    var t0 = Math.max(0, Math.min(maxEnd - span, drag.t0 + dt));
    view.t0 = t0; view.t1 = t0 + span; rerender();
  });
});
window.addEventListener('resize', rerender);
// Static SVG (design and deadlock graphs): <title> children give their tooltips natively.
var parsed = Date.now();
render();
document.body.dataset.parseMs = parsed - started;
document.body.dataset.renderMs = Date.now() - parsed;
if (document.body.dataset.rendered !== 'error') document.body.dataset.rendered = 'ok';
} catch (e) { fail(e && e.stack ? e.stack : String(e)); }
})();
)JS";

// Colours per kind, indexed like kKinds.
constexpr const char* kKinds[] = {"other",      "kernel call", "transfer",     "streaming",
                                  "lock stall", "blocked",     "stream stall", "cascade stall"};
constexpr const char* kColors[] = {"#9aa5b1", "#4e79a7", "#59a14f", "#1e6b2e",
                                   "#e15759", "#9b59b6", "#f28e2b", "#d4a017"};
constexpr int kFlowColors = 10;
constexpr const char* kFlowPalette[kFlowColors] = {"#2b6cb0", "#c05621", "#2f855a", "#b83280", "#6b46c1",
                                                   "#b7791f", "#2c7a7b", "#c53030", "#4a5568", "#38a169"};

int kind_index(TraceKind k) {
    switch (k) {
    case TraceKind::KernelCall: return 1;
    case TraceKind::Transfer: return 2;
    case TraceKind::Streaming: return 3;
    case TraceKind::LockStall: return 4;
    case TraceKind::Blocked: return 5;
    case TraceKind::StreamStall: return 6;
    case TraceKind::CascadeStall: return 7;
    default: return 0;
    }
}

// Drawing order of the kinds on a row: long spans first, so shorter ones show on top.
int draw_order(int kind) {
    // other, kernel, transfer, streaming, lock stall, blocked, stream stall, cascade stall
    static constexpr int order[] = {1, 2, 0, 4, 5, 6, 5, 5};
    return order[kind];
}

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string tile_str(model::TileCoord t) { return fmt::format("({},{})", t.col, t.row); }

std::string bytes_str(std::uint64_t b) {
    if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
    if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
    return fmt::format("{} B", grouped(b));
}

std::string pct(double v) { return fmt::format("{:.1f}%", v); }

std::string bar(double percent, const char* cls = "") {
    const double w = std::clamp(percent, 0.0, 100.0);
    return fmt::format(R"(<div class="bar{}{}"><span style="width:{:.1f}%"></span></div>)", *cls ? " " : "", cls, w);
}

// Text shortened to `n` characters for a box in an SVG (the full text is in its <title>).
std::string clip(const std::string& s, std::size_t n) {
    if (s.size() <= n) return s;
    std::size_t cut = n - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut; // not inside a UTF-8 sequence
    return s.substr(0, cut) + "\u2026";
}

std::string status_class(const std::string& status) {
    if (status == "PASS") return "pass";
    if (status == "FAIL") return "fail";
    if (status == "deadlock") return "deadlock";
    if (status == "limit") return "limit";
    if (status == "error") return "error";
    return "finished";
}

// Sort key of a track on the timeline: the runtime first, then tiles by column and from the top
// row down, the core before its DMA channels, S2MM before MM2S.
std::tuple<int, int, int, int, int, int> timeline_key(const TrackInfo& t) {
    if (t.kind == TrackInfo::Kind::Runtime) return {0, 0, 0, 0, 0, 0};
    return {1,        t.col, -t.row, t.kind == TrackInfo::Kind::Core ? 0 : 1, t.dir == model::Direction::S2MM ? 0 : 1,
            t.channel};
}

} // namespace

HtmlReportSink::HtmlReportSink(std::string path, bool write_on_finish)
    : HtmlReportSink(std::move(path), write_on_finish, Limits{}) {}

HtmlReportSink::HtmlReportSink(std::string path, bool write_on_finish, Limits limits)
    : path_(std::move(path)), write_on_finish_(write_on_finish), limits_(limits) {}

std::string HtmlReportSink::escape_html(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string HtmlReportSink::json_string(std::string_view s) {
    std::string out = "\"";
    out.reserve(s.size() + 2);
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '<': out += "\\u003c"; break;
            case '>': out += "\\u003e"; break;
            case '&': out += "\\u0026"; break;
            default:
                if (c < 0x20 || c == 0x7f)
                    out += fmt::format("\\u{:04x}", c);
                else
                    out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        // A well-formed UTF-8 sequence is copied; anything else becomes U+FFFD.
        const int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        bool ok = len > 0 && i + static_cast<std::size_t>(len) <= n && !(c == 0xC0 || c == 0xC1 || c > 0xF4);
        for (int k = 1; ok && k < len; ++k) ok = (p[i + static_cast<std::size_t>(k)] & 0xC0) == 0x80;
        if (ok) {
            out.append(s.substr(i, static_cast<std::size_t>(len)));
            i += static_cast<std::size_t>(len);
        } else {
            out += "\\ufffd";
            ++i;
        }
    }
    out += '"';
    return out;
}

void HtmlReportSink::begin_run(const sim::RunInfo& info) {
    run_ = info;
    run_.trace_config = nullptr; // not kept past the run
    run_.netlist = nullptr;
    run_.timing = nullptr;
    if (info.timing) {
        tile_dma_peak_ = info.timing->tile_dma_bytes_per_cycle;
        shim_dma_peak_ = info.timing->shim_dma_bytes_per_cycle;
    }
    locks_.clear();
    tiles_.clear();
    flows_.clear();
    shim_task_bytes_.clear();
    const model::Netlist* net = info.netlist;
    if (!net) return;
    if (net->device) {
        cols_ = net->device->cols;
        rows_ = net->device->rows;
    }
    std::map<std::pair<int, int>, std::size_t> tile_index;
    auto tile = [&](model::TileCoord t) -> TileInfo& {
        auto [it, added] = tile_index.try_emplace({t.col, t.row}, tiles_.size());
        if (added) {
            tiles_.emplace_back();
            tiles_.back().tile = t;
        }
        return tiles_[it->second];
    };
    for (const auto& c : net->cores) tile(c.tile).workers.push_back(c.worker);
    for (const auto& b : net->buffers) {
        auto& t = tile(b.tile);
        t.buffers.push_back(fmt::format("{} ({}, @0x{:05x})", b.name, bytes_str(b.bytes), b.address));
        t.buffer_bytes += b.bytes;
    }
    for (const auto& l : net->locks) {
        tile(l.tile).locks.push_back(fmt::format("{} (id {}, init {})", l.name, l.id, l.init));
        locks_.push_back({l.name, l.prov.object, l.prov.role, l.tile, l.init});
    }
    for (const auto& f : net->fifo_ends) {
        std::string text = f.describe() + ": " + model::fifo_end_holding_name(f.holding);
        if (f.depth > 0) text += fmt::format(", depth {} x {}", f.depth, bytes_str(f.object_bytes));
        tile(f.tile).fifo_ends.push_back(std::move(text));
    }
    for (const auto& f : net->flows) {
        tile(f.source.tile);
        for (const auto& d : f.dests) tile(d.tile);
        flows_.push_back({f.prov.describe(), f.source, f.dests, f.paths});
    }
    std::sort(tiles_.begin(), tiles_.end(), [](const TileInfo& a, const TileInfo& b) {
        return std::make_pair(a.tile.col, a.tile.row) < std::make_pair(b.tile.col, b.tile.row);
    });
    for (const auto& op : net->sequence) {
        if (op.kind != model::RuntimeOp::Kind::StartTask || op.task < 0) continue;
        const auto& task = net->tasks.at(static_cast<std::size_t>(op.task));
        shim_task_bytes_[model::to_string(model::StreamEndpoint{task.tile, task.dir, task.channel})].push_back(
            task.bytes());
    }
}

void HtmlReportSink::add_track(int track, const TrackInfo& info) {
    if (index_.count(track)) throw std::invalid_argument(fmt::format("HTML report: track {} added twice", track));
    index_.emplace(track, tracks_.size());
    tracks_.emplace_back();
    tracks_.back().id = track;
    tracks_.back().info = info;
}

HtmlReportSink::Track& HtmlReportSink::track_of(int track, const char* call) {
    const auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(fmt::format("HTML report: {}() on track {}, which was never added", call, track));
    return tracks_[it->second];
}

std::uint32_t HtmlReportSink::intern(std::string_view name) {
    if (const auto it = name_ids_.find(name); it != name_ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    name_ids_.emplace(names_.back(), id);
    return id;
}

void HtmlReportSink::span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) {
    add_span(track, TraceKind::Other, name, begin, end, {});
}

void HtmlReportSink::detailed_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin,
                                   std::uint64_t end, sim::TraceArgs args) {
    add_span(track, kind, name, begin, end, args);
}

void HtmlReportSink::add_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                              sim::TraceArgs args) {
    Track& t = track_of(track, "span");
    if (end < begin) end = begin;
    // A shim DMA reports each task as a plain span: it is that channel's transfer.
    if (kind == TraceKind::Other && t.info.kind == TrackInfo::Kind::Dma) kind = TraceKind::Transfer;
    const std::uint64_t dur = end - begin;
    switch (kind) {
    case TraceKind::KernelCall:
        t.kernel_cycles += dur;
        ++t.calls;
        break;
    case TraceKind::Transfer: {
        t.transfer_cycles += dur;
        bool has_bytes = false;
        for (const auto& a : args)
            if (a.key == "bytes" && a.is_number) {
                t.bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(0, a.number));
                has_bytes = true;
            }
        if (!has_bytes && t.info.kind == TrackInfo::Kind::Dma && t.info.row == 0) {
            // A shim task: its bytes from the sequence, in the order tasks run on the channel.
            const auto it = shim_task_bytes_.find(model::to_string(
                model::StreamEndpoint{{t.info.col, t.info.row}, t.info.dir, std::max(0, t.info.channel)}));
            if (it != shim_task_bytes_.end() && !it->second.empty())
                t.bytes += it->second[t.transfers % it->second.size()];
            t.streaming_cycles += dur;
        }
        ++t.transfers;
        break;
    }
    case TraceKind::Streaming: t.streaming_cycles += dur; break;
    case TraceKind::LockStall:
    case TraceKind::CascadeStall: t.stall_cycles += dur; break;
    case TraceKind::Blocked: t.blocked_cycles += dur; break;
    default: break;
    }
    Span s;
    s.begin = begin;
    s.end = end;
    s.kind = kind;
    s.name = intern(name);
    // A streaming span's arguments are its transfer's, shown with the transfer. Equal argument
    // sets (a BD's fifo, element, bytes) are stored once.
    if (!args.empty() && kind != TraceKind::Streaming) {
        std::string a = "{";
        for (const auto& arg : args) {
            if (a.size() > 1) a += ",";
            a += json_string(arg.key) + ":" + (arg.is_number ? std::to_string(arg.number) : json_string(arg.text));
        }
        a += "}";
        const auto [it, added] = arg_ids_.try_emplace(std::move(a), static_cast<std::uint32_t>(args_.size()));
        if (added) args_.push_back(it->first);
        s.args = it->second;
    }
    t.spans.push_back(s);
    ++span_count_;
}

void HtmlReportSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    auto& v = track_of(track, "counter").values;
    if (!v.empty() && v.back().first == cycle)
        v.back().second = value; // the value from this cycle on is the last one reported
    else if (v.empty() || v.back().second != value)
        v.emplace_back(cycle, value);
}

void HtmlReportSink::finish(std::uint64_t end_cycle) {
    end_cycle_ = end_cycle;
    finished_ = true;
    if (write_on_finish_) write({});
}

void HtmlReportSink::write(const Outcome& outcome) {
    const std::string page = render(outcome);
    OutputFile f(path_, "HTML report");
    f.write(page);
    f.close();
}

// ---------------------------------------------------------------------------------------------
// The header: what ran, how it ended, the figures.

std::string HtmlReportSink::render_header(const Outcome& o) const {
    const std::string status = o.status.empty() ? std::string("finished") : o.status;
    const std::string& design = run_.design.empty() ? o.design : run_.design;
    std::string h = "<header>\n";
    h += fmt::format("<h1>npusim report: {}<span class=\"status status-{}\" id=\"status\">{}</span></h1>\n",
                     escape_html(design.empty() ? std::string("(unnamed design)") : design), status_class(status),
                     escape_html(status));
    h += "<table class=\"facts\">\n";
    auto row = [&](const std::string& k, const std::string& v) {
        h += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", escape_html(k), escape_html(v));
    };
    if (run_.device.empty() && !o.device.empty())
        row("device", o.device + " (the run did not start)");
    else
        row("device", fmt::format("{} ({}{})", run_.device, model::arch_name(run_.arch),
                                  cols_ ? fmt::format(", {} column{} x {} rows", cols_, cols_ == 1 ? "" : "s", rows_)
                                        : std::string()));
    if (run_.clock_mhz > 0) {
        row("clock", fmt::format("{:g} MHz (1 cycle = {:g} ns)", run_.clock_mhz, 1000.0 / run_.clock_mhz));
        row("cycles",
            fmt::format("{} ({:.2f} us)", grouped(end_cycle_), static_cast<double>(end_cycle_) / run_.clock_mhz));
    } else {
        row("cycles", grouped(end_cycle_));
    }
    for (const auto& [k, v] : o.figures) row(k, v);
    row("trace", fmt::format("{} spans on {} tracks", grouped(span_count_), tracks_.size()));
    h += "</table>\n";
    h += "<nav>";
    if (o.diagnosis || !o.message.empty()) h += "<a href=\"#diagnosis\">diagnosis</a>";
    h += "<a href=\"#timeline-section\">timeline</a><a href=\"#fifos-section\">fifo occupancy</a>"
         "<a href=\"#utilisation\">utilisation</a><a href=\"#design\">design graph</a></nav>\n";
    h += "</header>\n";
    return h;
}

// ---------------------------------------------------------------------------------------------
// The deadlock / limit diagnosis: the case, the wait-for graph as SVG, the text.

std::string HtmlReportSink::render_diagnosis(const Outcome& o) const {
    if (!o.diagnosis && o.message.empty()) return {};
    std::string h = "<section id=\"diagnosis\">\n";
    const auto* d = o.diagnosis;
    if (!d) {
        h += "<h2>What went wrong</h2>\n<div class=\"errbox\"><pre id=\"error-text\">" + escape_html(o.message) +
             "</pre></div>\n</section>\n";
        return h;
    }
    h += fmt::format("<h2>{} at cycle {}</h2>\n",
                     d->trigger == sim::Diagnosis::Trigger::Deadlock ? "Deadlock" : "Limit", grouped(d->cycle));
    h += fmt::format("<p><b>case: {}</b> [{}]<br>{}</p>\n", escape_html(d->case_title), escape_html(d->case_id),
                     escape_html(d->case_explanation));

    // Layers: breadth-first from the nodes nothing points to (or the causal chain's first process),
    // rows top to bottom; an edge back up or within a row is drawn as a curve.
    const std::size_t n = d->nodes.size();
    std::vector<std::vector<std::size_t>> out(n);
    std::vector<int> indeg(n, 0);
    for (const auto& e : d->edges)
        if (e.from < n && e.to < n) {
            out[e.from].push_back(e.to);
            ++indeg[e.to];
        }
    std::vector<int> layer(n, -1);
    std::vector<std::size_t> roots;
    if (!d->chain_nodes.empty() && d->chain_nodes.front() < n) roots.push_back(d->chain_nodes.front());
    for (std::size_t i = 0; i < n; ++i)
        if (indeg[i] == 0) roots.push_back(i);
    for (std::size_t i = 0; i < n; ++i) roots.push_back(i); // whatever is left, in order
    for (auto r : roots) {
        if (layer[r] >= 0) continue;
        std::deque<std::size_t> q{r};
        layer[r] = 0;
        while (!q.empty()) {
            const auto u = q.front();
            q.pop_front();
            for (auto v : out[u])
                if (layer[v] < 0) {
                    layer[v] = layer[u] + 1;
                    q.push_back(v);
                }
        }
    }
    int layers = 0;
    for (auto l : layer) layers = std::max(layers, l + 1);
    std::vector<std::vector<std::size_t>> rows(static_cast<std::size_t>(layers));
    for (std::size_t i = 0; i < n; ++i) rows[static_cast<std::size_t>(layer[i])].push_back(i);
    constexpr double kW = 230, kH = 46, kGapX = 30, kGapY = 56, kPad = 20;
    std::size_t widest = 1;
    for (const auto& r : rows) widest = std::max(widest, r.size());
    const double width = kPad * 2 + static_cast<double>(widest) * (kW + kGapX);
    const double height = kPad * 2 + static_cast<double>(layers) * (kH + kGapY);
    std::vector<double> x(n), y(n);
    for (std::size_t l = 0; l < rows.size(); ++l) {
        const double row_w = static_cast<double>(rows[l].size()) * (kW + kGapX) - kGapX;
        for (std::size_t k = 0; k < rows[l].size(); ++k) {
            const auto i = rows[l][k];
            x[i] = (width - row_w) / 2 + static_cast<double>(k) * (kW + kGapX);
            y[i] = kPad + static_cast<double>(l) * (kH + kGapY);
        }
    }
    std::string s = fmt::format("<svg class=\"graph\" id=\"deadlock-graph\" width=\"{:.0f}\" height=\"{:.0f}\" "
                                "viewBox=\"0 0 {:.0f} {:.0f}\">\n",
                                width, height, width, height);
    s +=
        "<defs>"
        "<marker id=\"dl-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#4a5568\"/></marker>"
        "<marker id=\"dl-arrow-red\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#c53030\"/></marker>"
        "</defs>\n";
    for (const auto& e : d->edges) {
        if (e.from >= n || e.to >= n) continue;
        const double x1 = x[e.from] + kW / 2, x2 = x[e.to] + kW / 2;
        std::string path;
        double lx = 0, ly = 0;
        if (layer[e.to] > layer[e.from]) {
            const double y1 = y[e.from] + kH, y2 = y[e.to];
            path = fmt::format("M{:.1f} {:.1f}C{:.1f} {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}", x1, y1, x1, y1 + kGapY / 2,
                               x2, y2 - kGapY / 2, x2, y2);
            lx = (x1 + x2) / 2;
            ly = (y1 + y2) / 2;
        } else {
            // Back or sideways: from the right side of one box to the right side of the other, bulging out.
            const double sx = x[e.from] + kW, sy = y[e.from] + kH / 2, tx = x[e.to] + kW, ty = y[e.to] + kH / 2;
            const double bulge = 40 + 12 * std::abs(static_cast<double>(layer[e.from] - layer[e.to]));
            path = fmt::format("M{:.1f} {:.1f}C{:.1f} {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}", sx, sy, sx + bulge, sy,
                               tx + bulge, ty, tx, ty);
            lx = std::max(sx, tx) + bulge * 0.75;
            ly = (sy + ty) / 2;
        }
        const char* color = e.in_cycle ? "#c53030" : e.in_chain ? "#1d2330" : "#8a94a3";
        const double sw = e.in_cycle ? 2.6 : e.in_chain ? 1.8 : 1;
        s += fmt::format(
            "<g class=\"edge{}\"><title>{} \u2192 {}: {}</title><path d=\"{}\" fill=\"none\" stroke=\"{}\" "
            "stroke-width=\"{}\" marker-end=\"url(#{})\"/>",
            e.in_cycle ? " in-cycle" : "", escape_html(d->nodes[e.from].label), escape_html(d->nodes[e.to].label),
            escape_html(e.label), path, color, sw, e.in_cycle ? "dl-arrow-red" : "dl-arrow");
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"{}\">{}</text></g>\n", lx, ly,
                         color, escape_html(clip(e.label, 30)));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = d->nodes[i];
        std::string fill = "#ebf4ff", stroke = "#90a4c0";
        if (node.is_process()) {
            if (node.state == sim::ProcessProgress::State::Blocked)
                fill = "#fed7d7", stroke = "#c53030";
            else if (node.state == sim::ProcessProgress::State::Finished)
                fill = "#e2e8f0", stroke = "#718096";
            else if (node.state == sim::ProcessProgress::State::Idle)
                fill = "#feebc8", stroke = "#dd6b20";
            else
                fill = "#c6f6d5", stroke = "#2f855a";
        } else {
            fill = "#fefcbf", stroke = "#b7791f";
        }
        if (node.in_cycle) stroke = "#c53030";
        const double rx = node.is_process() ? 4 : 18;
        const double sw = node.in_cycle ? 3 : node.in_chain ? 2 : 1;
        s += fmt::format("<g class=\"node{}\" data-id=\"{}\"><title>{}{}{}</title>", node.in_cycle ? " in-cycle" : "",
                         escape_html(node.id), escape_html(node.label),
                         !node.state ? std::string() : escape_html(" [" + std::string(node.state_name()) + "]"),
                         node.detail.empty() ? std::string() : escape_html("\n" + node.detail));
        s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" "
                         "stroke=\"{}\" stroke-width=\"{}\"/>",
                         x[i], y[i], kW, kH, rx, fill, stroke, sw);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-weight=\"600\">{}</text>",
                         x[i] + kW / 2, y[i] + 18, escape_html(clip(node.label, 36)));
        const std::string sub = node.is_process() ? node.state_name() : node.detail;
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#4a5568\">{}</text></g>\n",
                         x[i] + kW / 2, y[i] + 34, escape_html(clip(sub, 38)));
    }
    s += "</svg>\n";
    h += "<div class=\"legend\"><span><i style=\"background:#fed7d7;border:1px solid #c53030\"></i>blocked "
         "process</span>"
         "<span><i style=\"background:#e2e8f0;border:1px solid #718096\"></i>finished</span>"
         "<span><i style=\"background:#feebc8;border:1px solid #dd6b20\"></i>idle</span>"
         "<span><i style=\"background:#c6f6d5;border:1px solid #2f855a\"></i>running</span>"
         "<span><i style=\"background:#fefcbf;border:1px solid #b7791f;border-radius:6px\"></i>lock / stream / "
         "task</span>"
         "<span><i style=\"background:#c53030\"></i>the cycle of waits</span>"
         "<span><i style=\"background:#1d2330\"></i>causal chain</span></div>\n";
    h += "<div style=\"overflow:auto\">" + s + "</div>\n";
    if (!d->chain.empty()) {
        h += "<h3>Why (causal chain)</h3>\n<ol id=\"chain\">\n";
        for (const auto& c : d->chain) h += "<li>" + escape_html(c) + "</li>\n";
        h += "</ol>\n";
    }
    h += "<h3>Full report</h3>\n<pre id=\"diagnosis-text\">" + escape_html(d->text) + "</pre>\n</section>\n";
    return h;
}

// ---------------------------------------------------------------------------------------------
// Utilisation against peak.

std::string HtmlReportSink::render_utilisation(const Outcome& o) const {
    const double total = static_cast<double>(std::max<std::uint64_t>(1, end_cycle_));
    std::vector<const Track*> cores, dmas;
    for (const auto& t : tracks_) {
        if (t.info.kind == TrackInfo::Kind::Core) cores.push_back(&t);
        if (t.info.kind == TrackInfo::Kind::Dma) dmas.push_back(&t);
    }
    auto by_key = [](const Track* a, const Track* b) { return timeline_key(a->info) < timeline_key(b->info); };
    std::sort(cores.begin(), cores.end(), by_key);
    std::sort(dmas.begin(), dmas.end(), by_key);
    std::string h = "<section id=\"utilisation\">\n<h2>Utilisation against peak</h2>\n";
    h += fmt::format(
        "<p class=\"note\">Over the run's {} cycles. A core is busy while a kernel call runs (its call "
        "overhead included); a DMA channel streams while its data moves. Peak: {} B/cycle per compute or "
        "mem tile DMA channel, {} B/cycle per shim DMA channel (timing parameters tile_dma_bytes_per_cycle, "
        "shim_dma_bytes_per_cycle).</p>\n",
        grouped(end_cycle_), tile_dma_peak_, shim_dma_peak_);
    h += "<h3>Cores</h3>\n";
    if (cores.empty()) {
        h += "<p class=\"note\">No core track.</p>\n";
    } else {
        h += "<table class=\"grid\" id=\"util-cores\"><tr><th>tile</th><th>core</th><th>kernel calls</th>"
             "<th>kernel cycles</th><th>busy</th><th></th><th>lock stall cycles</th><th>stalled</th></tr>\n";
        for (const auto* t : cores) {
            const double busy = 100.0 * static_cast<double>(t->kernel_cycles) / total;
            const double stalled = 100.0 * static_cast<double>(t->stall_cycles) / total;
            h += fmt::format(
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                "<td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                tile_str({t->info.col, t->info.row}), escape_html(t->info.name), grouped(t->calls),
                grouped(t->kernel_cycles), pct(busy), bar(busy), grouped(t->stall_cycles), pct(stalled));
        }
        h += "</table>\n";
    }
    h += "<h3>DMA channels</h3>\n";
    if (dmas.empty()) {
        h += "<p class=\"note\">No DMA channel track.</p>\n";
        return h + "</section>\n";
    }
    h += "<table class=\"grid\" id=\"util-dma\"><tr><th>channel</th><th>transfers</th><th>bytes</th>"
         "<th>streaming cycles</th><th>streaming</th><th>B/cycle over the run</th><th>B/cycle while streaming</th>"
         "<th>peak B/cycle</th><th>of peak</th><th></th></tr>\n";
    for (const auto* t : dmas) {
        std::uint64_t bytes = t->bytes, active = t->streaming_cycles, transfers = t->transfers;
        // Shim channels: a finished run's figures (the trace has one span per task, without its
        // streaming part). Tile DMA channels: the trace's transfers and streaming spans.
        if (o.result && t->info.row == 0) {
            const model::StreamEndpoint ep{{t->info.col, t->info.row}, t->info.dir, t->info.channel};
            for (const auto& c : o.result->channels)
                if (c.channel == ep) {
                    bytes = c.bytes;
                    if (c.active_cycles) active = c.active_cycles; // else the tasks' spans
                    transfers = c.bds;
                }
        }
        const double peak = t->info.row == 0 ? shim_dma_peak_ : tile_dma_peak_;
        const double rate = static_cast<double>(bytes) / total;
        const double while_active = active ? static_cast<double>(bytes) / static_cast<double>(active) : 0.0;
        const double of_peak = peak > 0 ? 100.0 * rate / peak : 0.0;
        h += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                         "<td class=\"num\">{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{:.3f}</td>"
                         "<td class=\"num\">{:g}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                         escape_html(t->info.name), grouped(transfers), grouped(bytes), grouped(active),
                         pct(100.0 * static_cast<double>(active) / total), rate, while_active, peak, pct(of_peak),
                         bar(of_peak, "dma"));
    }
    h += "</table>\n";
    if (!o.result)
        h += "<p class=\"note\">The run did not finish: bytes and cycles are those of the transfers completed "
             "before it stopped (a shim task's bytes are its size in the runtime sequence).</p>\n";
    return h + "</section>\n";
}

// ---------------------------------------------------------------------------------------------
// The design graph: the array grid, flows along their paths, what each tile holds.

std::string HtmlReportSink::render_design() const {
    std::string h = "<section id=\"design\">\n<h2>Design graph</h2>\n";
    if (!cols_ || !rows_) return h + "<p class=\"note\">No netlist was given to the report.</p>\n</section>\n";
    constexpr double kW = 190, kH = 118, kGap = 44, kPad = 16;
    const double width = kPad * 2 + cols_ * (kW + kGap) - kGap + 30;
    const double height = kPad * 2 + rows_ * (kH + kGap) - kGap;
    auto left = [&](int col) { return kPad + 30 + col * (kW + kGap); };
    auto top = [&](int row) { return kPad + (rows_ - 1 - row) * (kH + kGap); };
    std::map<std::pair<int, int>, const TileInfo*> used;
    for (const auto& t : tiles_) used[{t.tile.col, t.tile.row}] = &t;
    std::string s = fmt::format(
        "<svg class=\"graph\" id=\"design-graph\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\">\n",
        width, height, width, height);
    s += "<defs>";
    for (int k = 0; k < kFlowColors; ++k)
        s += fmt::format("<marker id=\"fa{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
                         "markerHeight=\"6\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"{}\"/></marker>",
                         k, kFlowPalette[k]);
    s += "</defs>\n";
    // Three layers: the tile boxes, the flows over them, the tiles' text over both (with a halo,
    // transparent to the mouse, so a box or an arrow under it keeps its tooltip).
    std::string labels = "<g class=\"labels\" pointer-events=\"none\">\n";
    for (int r = 0; r < rows_; ++r) {
        const auto kind = model::tile_kind_of_row(r);
        s += fmt::format("<text x=\"4\" y=\"{:.1f}\" fill=\"#5f6b7a\">row {}</text>\n", top(r) + kH / 2, r);
        for (int c = 0; c < cols_; ++c) {
            const auto it = used.find({c, r});
            const TileInfo* t = it == used.end() ? nullptr : it->second;
            const char* fill = !t                              ? "#f4f5f7"
                               : kind == model::TileKind::Shim ? "#e6fffa"
                               : kind == model::TileKind::Mem  ? "#faf5ff"
                                                               : "#ebf8ff";
            std::string title = fmt::format("{} tile ({},{})", model::tile_kind_name(kind), c, r);
            if (t) {
                for (const auto& w : t->workers) title += "\nworker " + w;
                for (const auto& f : t->fifo_ends) title += "\n" + f;
                if (!t->buffers.empty())
                    title += fmt::format("\n{} buffers, {}", t->buffers.size(), bytes_str(t->buffer_bytes));
                if (!t->locks.empty()) title += fmt::format("\n{} locks", t->locks.size());
            }
            s += fmt::format("<g class=\"tile{}\"><title>{}</title><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" "
                             "height=\"{}\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/></g>\n",
                             t ? " used" : "", escape_html(title), left(c), top(r), kW, kH, fill,
                             t ? "#5a6b80" : "#d5d9e0");
            labels +=
                fmt::format("<text class=\"tile-label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{} ({},{})</text>",
                            left(c) + 6, top(r) + 14, t ? "#1d2330" : "#a0a8b4", model::tile_kind_name(kind), c, r);
            if (t) {
                std::vector<std::string> lines;
                for (const auto& w : t->workers) lines.push_back("\u2699 " + w);
                for (const auto& f : t->fifo_ends) lines.push_back(f);
                if (!t->buffers.empty())
                    lines.push_back(fmt::format("{} buffers, {}", t->buffers.size(), bytes_str(t->buffer_bytes)));
                const std::size_t max_lines = 6;
                for (std::size_t k = 0; k < lines.size() && k < max_lines; ++k) {
                    const bool more = k + 1 == max_lines && lines.size() > max_lines;
                    const std::string text =
                        more ? fmt::format("+{} more (hover)", lines.size() - max_lines + 1) : clip(lines[k], 31);
                    labels += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}>{}</text>", left(c) + 6,
                                          top(r) + 30 + 15 * static_cast<double>(k),
                                          k < t->workers.size() ? " font-weight=\"600\"" : "", escape_html(text));
                }
            }
            labels += "\n";
        }
    }
    // Flows: a polyline through the centres of the tiles each path traverses, offset per flow so
    // parallel flows stay apart.
    for (std::size_t f = 0; f < flows_.size(); ++f) {
        const auto& flow = flows_[f];
        const int color = static_cast<int>(f % kFlowColors);
        const double off = (static_cast<double>(f % 9) - 4.0) * 7.0;
        auto cx = [&](model::TileCoord t) { return left(t.col) + kW / 2 + off; };
        auto cy = [&](model::TileCoord t) { return top(t.row) + kH / 2 + off * 0.6; };
        for (std::size_t d = 0; d < flow.dests.size(); ++d) {
            std::vector<model::TileCoord> pts;
            if (d < flow.paths.size() && flow.paths[d].size() >= 2)
                pts = flow.paths[d];
            else
                pts = {flow.source.tile, flow.dests[d].tile};
            std::string dpath;
            for (std::size_t k = 0; k < pts.size(); ++k)
                dpath += fmt::format("{}{:.1f} {:.1f}", k ? "L" : "M", cx(pts[k]), cy(pts[k]));
            const std::string title =
                fmt::format("{}: {} \u2192 {} ({} switch hops)", flow.label, model::to_string(flow.source),
                            model::to_string(flow.dests[d]), d < flow.paths.size() ? flow.paths[d].size() : 0);
            s += fmt::format("<g class=\"flow\"><title>{}</title><path d=\"{}\" fill=\"none\" stroke=\"{}\" "
                             "stroke-width=\"2.2\" stroke-opacity=\"0.85\" marker-end=\"url(#fa{})\"/>"
                             "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/></g>\n",
                             escape_html(title), dpath, kFlowPalette[color], color, cx(pts.front()), cy(pts.front()),
                             kFlowPalette[color]);
        }
    }
    s += labels + "</g>\n</svg>\n";
    h += fmt::format("<p class=\"note\">{} column{} x {} rows; {} tiles in use, {} stream flows (arrows from the MM2S "
                     "channel to each S2MM destination along its switchbox path; hover a tile or an arrow for "
                     "details).</p>\n",
                     cols_, cols_ == 1 ? "" : "s", rows_, tiles_.size(), flows_.size());
    h += "<div style=\"overflow:auto\">" + s + "</div>\n";
    if (!flows_.empty()) {
        h += "<h3>Flows</h3>\n<table class=\"grid\" id=\"flows\"><tr><th></th><th>flow</th><th>source</th>"
             "<th>destinations</th></tr>\n";
        for (std::size_t f = 0; f < flows_.size(); ++f) {
            std::string dests;
            for (const auto& d : flows_[f].dests) dests += (dests.empty() ? "" : ", ") + model::to_string(d);
            h += fmt::format("<tr><td><i style=\"display:inline-block;width:18px;height:4px;background:{};"
                             "vertical-align:middle\"></i></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                             kFlowPalette[f % kFlowColors], escape_html(flows_[f].label),
                             escape_html(model::to_string(flows_[f].source)), escape_html(dests));
        }
        h += "</table>\n";
    }
    h += "<h3>Tiles</h3>\n<table class=\"grid\" id=\"tiles\"><tr><th>tile</th><th>worker</th><th>fifo ends</th>"
         "<th>buffers</th><th>locks</th></tr>\n";
    auto list = [](const std::vector<std::string>& v) {
        std::string r;
        for (const auto& x : v) r += (r.empty() ? "" : "<br>") + escape_html(x);
        return r;
    };
    for (const auto& t : tiles_)
        h += fmt::format("<tr><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         model::tile_kind_name(model::tile_kind_of_row(t.tile.row)), tile_str(t.tile), list(t.workers),
                         list(t.fifo_ends), list(t.buffers), list(t.locks));
    h += "</table>\n</section>\n";
    return h;
}

// ---------------------------------------------------------------------------------------------
// The embedded data: spans per track and kind, counters. Reduced when larger than the limits.

std::string HtmlReportSink::render_data(std::uint64_t& merged_quantum, std::size_t& embedded) const {
    // Per track, per kind, the spans in time order.
    struct Series {
        int kind = 0;
        std::vector<const Span*> spans;
    };
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < tracks_.size(); ++i)
        if (tracks_[i].info.kind != TrackInfo::Kind::Lock) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return timeline_key(tracks_[a].info) < timeline_key(tracks_[b].info);
    });
    std::vector<std::vector<Series>> series(tracks_.size());
    for (auto i : order) {
        std::map<int, std::vector<const Span*>> by_kind;
        for (const auto& sp : tracks_[i].spans) by_kind[kind_index(sp.kind)].push_back(&sp);
        for (auto& [k, v] : by_kind) {
            std::stable_sort(v.begin(), v.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
            series[i].push_back({k, std::move(v)});
        }
        std::sort(series[i].begin(), series[i].end(),
                  [](const Series& a, const Series& b) { return draw_order(a.kind) < draw_order(b.kind); });
    }
    // The smallest gap (0, then powers of two) whose merging brings the count under the limit.
    auto count_with = [&](std::uint64_t q) {
        std::size_t c = 0;
        for (auto i : order)
            for (const auto& s : series[i]) {
                std::uint64_t end = 0;
                bool open = false;
                for (const auto* sp : s.spans) {
                    if (open && sp->begin <= end + q) {
                        end = std::max(end, sp->end);
                        continue;
                    }
                    ++c;
                    open = true;
                    end = sp->end;
                }
            }
        return c;
    };
    std::uint64_t q = 0;
    if (limits_.max_spans > 0 && span_count_ > limits_.max_spans) {
        q = 1;
        while (count_with(q) > limits_.max_spans && q < (std::uint64_t{1} << 62)) q *= 2;
    }
    merged_quantum = q;
    embedded = 0;

    std::string j = "{";
    j += fmt::format("\"end\":{},\"clock_mhz\":{},\"quantum\":{},\"kinds\":[", end_cycle_, run_.clock_mhz, q);
    for (std::size_t k = 0; k < std::size(kKinds); ++k) j += (k ? "," : "") + json_string(kKinds[k]);
    j += "],\"colors\":[";
    for (std::size_t k = 0; k < std::size(kColors); ++k) j += (k ? "," : "") + json_string(kColors[k]);
    j += "],\"names\":[";
    for (std::size_t k = 0; k < names_.size(); ++k) j += (k ? "," : "") + json_string(names_[k]);
    j += "],\n\"args\":[null";
    // With merging, a merged span keeps the arguments of its first span only; args of spans that
    // are dropped are not written (index 0).
    std::vector<std::uint32_t> args_used(args_.size(), 0);
    std::vector<std::uint32_t> arg_ids;
    std::string args_json;
    std::uint32_t next_arg = 1;
    auto arg_id = [&](std::uint32_t a) -> std::uint32_t {
        if (a == 0) return 0;
        if (!args_used[a]) {
            args_used[a] = next_arg++;
            args_json += ",";
            args_json += args_[a];
        }
        return args_used[a];
    };
    std::string groups = "\"groups\":[";
    std::string current_group;
    bool first_group = true, first_track = true;
    for (auto i : order) {
        const auto& t = tracks_[i];
        const std::string label =
            t.info.kind == TrackInfo::Kind::Runtime
                ? std::string("runtime (host)")
                : fmt::format("{} tile ({},{})", model::tile_kind_name(model::tile_kind_of_row(t.info.row)), t.info.col,
                              t.info.row);
        if (label != current_group || first_group) {
            if (!first_group) groups += "]},\n";
            groups += "{\"label\":" + json_string(label) + ",\"tracks\":[";
            current_group = label;
            first_group = false;
            first_track = true;
        }
        groups += first_track ? "" : ",\n";
        first_track = false;
        groups += "{\"name\":" + json_string(t.info.name) + ",\"series\":[";
        bool first_series = true;
        for (const auto& s : series[i]) {
            std::string b, d, n, a, m, u;
            bool any_merged = false, any_args = false;
            std::uint64_t prev = 0;
            std::size_t k = 0;
            while (k < s.spans.size()) {
                const Span* first = s.spans[k];
                std::uint64_t end = first->end, busy = first->end - first->begin, count = first->merged;
                std::size_t next = k + 1;
                if (q > 0)
                    while (next < s.spans.size() && s.spans[next]->begin <= end + q) {
                        end = std::max(end, s.spans[next]->end);
                        busy += s.spans[next]->end - s.spans[next]->begin;
                        count += s.spans[next]->merged;
                        ++next;
                    }
                const char* sep = b.empty() ? "" : ",";
                b += fmt::format("{}{}", sep, first->begin - prev);
                d += fmt::format("{}{}", sep, end - first->begin);
                n += fmt::format("{}{}", sep, first->name);
                a += fmt::format("{}{}", sep, arg_id(first->args));
                any_args |= first->args != 0;
                m += fmt::format("{}{}", sep, count);
                u += fmt::format("{}{}", sep, busy);
                any_merged |= count > 1;
                prev = first->begin;
                ++embedded;
                k = next;
            }
            groups +=
                fmt::format("{}{{\"k\":{},\"b\":[{}],\"d\":[{}],\"n\":[{}]", first_series ? "" : ",", s.kind, b, d, n);
            if (any_args) groups += ",\"a\":[" + a + "]";
            if (any_merged) groups += ",\"m\":[" + m + "],\"u\":[" + u + "]";
            groups += "}";
            first_series = false;
        }
        groups += "]}";
    }
    if (!first_group) groups += "]}";
    groups += "]";
    j += args_json + "],\n" + groups + ",\n\"counters\":[";

    // Counters: each fifo end's full-slot lock, then the other locks that are neither half of a
    // fifo's lock pair (barriers, runtime-set locks).
    struct Counter {
        std::string label, sub, kind;
        std::int64_t cap = 1;
        const Track* track = nullptr;
        std::tuple<int, int, int, std::string> key;
    };
    std::vector<Counter> counters;
    for (const auto& t : tracks_) {
        if (t.info.kind != TrackInfo::Kind::Lock || t.values.empty()) continue;
        const LockInfo* lock = nullptr;
        for (const auto& l : locks_)
            if (l.name == t.info.name && l.tile.col == t.info.col && l.tile.row == t.info.row) lock = &l;
        std::int64_t max_value = 0;
        for (const auto& v : t.values) max_value = std::max(max_value, v.second);
        Counter c;
        c.track = &t;
        const bool full_slots = lock && lock->role.find("cons_lock") != std::string::npos;
        const bool free_slots = lock && lock->role.find("prod_lock") != std::string::npos;
        if (free_slots) continue; // the complement of its full-slot lock
        if (full_slots) {
            std::string end = lock->role;
            if (const auto at = end.find(" cons_lock"); at != std::string::npos) end.erase(at);
            c.label = fmt::format("'{}' {}", lock->object, end);
            c.kind = "fifo";
            std::int64_t depth = lock->init;
            std::string prod = lock->name;
            if (const auto at = prod.rfind("_cons_lock_"); at != std::string::npos) {
                prod.replace(at, 11, "_prod_lock_");
                for (const auto& l : locks_)
                    if (l.name == prod && l.tile.col == lock->tile.col && l.tile.row == lock->tile.row) depth += l.init;
            }
            c.cap = std::max<std::int64_t>({1, depth, max_value});
            c.sub = fmt::format("{} on {}: objects full", lock->name, tile_str(lock->tile));
            c.key = {0, t.info.col, -t.info.row, c.label};
        } else {
            c.label = lock ? fmt::format("lock {}", lock->name) : "lock " + t.info.name;
            c.kind = "lock";
            c.cap = std::max<std::int64_t>(1, max_value);
            c.sub = fmt::format("on ({},{}){}", t.info.col, t.info.row,
                                lock && !lock->object.empty() ? fmt::format(", '{}' {}", lock->object, lock->role)
                                                              : std::string());
            c.key = {1, t.info.col, -t.info.row, c.label};
        }
        counters.push_back(std::move(c));
    }
    std::stable_sort(counters.begin(), counters.end(),
                     [](const Counter& a, const Counter& b) { return a.key < b.key; });
    bool first_counter = true;
    for (const auto& c : counters) {
        const auto& vals = c.track->values;
        j += first_counter ? "" : ",\n";
        first_counter = false;
        j += fmt::format("{{\"label\":{},\"sub\":{},\"kind\":{},\"cap\":{}", json_string(c.label), json_string(c.sub),
                         json_string(c.kind), c.cap);
        std::string t, v;
        if (limits_.max_counter_points == 0 || vals.size() <= limits_.max_counter_points) {
            for (std::size_t k = 0; k < vals.size(); ++k) {
                t += fmt::format("{}{}", k ? "," : "", vals[k].first);
                v += fmt::format("{}{}", k ? "," : "", vals[k].second);
            }
            j += ",\"t\":[" + t + "],\"v\":[" + v + "]}";
            continue;
        }
        // The minimum and maximum the value takes in each interval (the value carried into an
        // interval counts).
        const std::uint64_t buckets = std::max<std::size_t>(1, limits_.max_counter_points / 2);
        const std::uint64_t width =
            std::max<std::uint64_t>(1, (std::max(end_cycle_, vals.back().first) + buckets) / buckets);
        std::string lo, hi;
        std::size_t k = 0;
        std::int64_t carry = vals.front().second;
        bool first = true;
        for (std::uint64_t bkt = vals.front().first / width; k < vals.size(); ++bkt) {
            const std::uint64_t b0 = bkt * width, b1 = b0 + width;
            std::int64_t mn = carry, mx = carry;
            bool any = false;
            while (k < vals.size() && vals[k].first < b1) {
                if (!any && vals[k].first == b0) mn = mx = vals[k].second;
                mn = std::min(mn, vals[k].second);
                mx = std::max(mx, vals[k].second);
                carry = vals[k].second;
                any = true;
                ++k;
            }
            if (!any) { // jump to the next interval with a value
                if (k < vals.size()) bkt = vals[k].first / width - 1;
                continue;
            }
            t += fmt::format("{}{}", first ? "" : ",", b0);
            lo += fmt::format("{}{}", first ? "" : ",", mn);
            hi += fmt::format("{}{}", first ? "" : ",", mx);
            first = false;
            if (k < vals.size() && vals[k].first >= b1 + width) { // the value holds until the next change
                t += fmt::format(",{}", b1);
                lo += fmt::format(",{}", carry);
                hi += fmt::format(",{}", carry);
            }
        }
        j += fmt::format(",\"env\":1,\"w\":{},\"t\":[{}],\"lo\":[{}],\"hi\":[{}]}}", width, t, lo, hi);
    }
    j += "]}";
    return j;
}

std::string HtmlReportSink::render(const Outcome& o) const {
    std::uint64_t quantum = 0;
    std::size_t embedded = 0;
    const std::string data = render_data(quantum, embedded);
    std::string h;
    h.reserve(data.size() + 200'000);
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    h += fmt::format("<title>npusim: {} on {}</title>\n", escape_html(run_.design), escape_html(run_.device));
    h += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    h += "<svg id=\"ns-probe\" width=\"0\" height=\"0\" style=\"position:absolute\"></svg>\n";
    h += render_header(o);
    h += "<div id=\"render-error\"></div>\n<main>\n";
    h += render_diagnosis(o);

    h += "<section id=\"timeline-section\">\n<h2>Timeline</h2>\n";
    h += "<p class=\"note\">One row per core and DMA channel, grouped by tile (time in cycles). Wheel over the plot "
         "to zoom at the cursor, drag to pan; hover a span for its name, cycles and arguments. Spans narrower than a "
         "pixel are drawn together.</p>\n";
    if (quantum > 0)
        h += fmt::format("<div class=\"warn\" id=\"reduced\">This run recorded {} spans; to keep the report small, "
                         "spans of one kind on one row separated by at most {} cycles were merged, leaving {} (a "
                         "merged span's tooltip gives how many it stands for and their busy cycles). The utilisation "
                         "figures use every span.</div>\n",
                         grouped(span_count_), grouped(quantum), grouped(embedded));
    h += "<div class=\"toolbar\"><button id=\"zoom-in\" title=\"zoom in\">+</button><button id=\"zoom-out\" "
         "title=\"zoom out\">\u2212</button><button id=\"pan-left\" title=\"pan left\">\u2190</button><button "
         "id=\"pan-right\" title=\"pan right\">\u2192</button><button id=\"zoom-reset\">whole run</button>"
         "<span class=\"note\" id=\"view-range\"></span></div>\n";
    h += "<div class=\"legend\">";
    for (std::size_t k = 0; k < std::size(kKinds); ++k)
        h += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", kColors[k],
                         k == 0 ? "other (runtime awaits, ...)" : kKinds[k]);
    h += "</div>\n<div class=\"plot\" id=\"timeline\"></div>\n</section>\n";

    h += "<section id=\"fifos-section\">\n<h2>Fifo occupancy</h2>\n<p class=\"note\">Objects full in each fifo end's "
         "ring over time: the value of its full-slot lock (<code>&lt;fifo&gt;_cons_lock_N</code>), against the ring's "
         "depth; then other locks. Same time axis as the timeline. A dashed line is the minimum of a reduced "
         "chart (many values: per interval its minimum and maximum).</p>\n<div class=\"plot\" id=\"fifos\"></div>\n"
         "</section>\n";

    h += render_utilisation(o);
    h += render_design();
    h += "</main>\n<div id=\"tooltip\"></div>\n";
    h += "<script type=\"application/json\" id=\"npusim-data\">" + data + "</script>\n";
    h += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
    return h;
}

} // namespace npusim::traces
