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
