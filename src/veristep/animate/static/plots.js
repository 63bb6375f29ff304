/* veristep plots: zoom, pan and a trace readout for every plot the site draws, and what the
   browser needs to draw them itself.

   One controller (attach) serves three kinds of plot:
   - a page's plot, sampled on the server (in a worker, a fixed number of points, bounds limited):
     a new view asks the plot endpoint the editor's preview uses and swaps the SVG in;
   - the same plot in an exported page, where there is no server: the figure carries the
     function as a whitelisted expression tree, sampled here in plain floating point (never
     eval'd as code) and drawn as the same SVG the server draws;
   - the player's plots (uPlot charts and the curves of a system), which re-sample their trees.
   Buttons with labels, keyboard (+/- to zoom, left/right arrows to pan, up/down to move the
   trace cursor), wheel and drag; the readout says the values under the pointer or the cursor. */
(function () {
  "use strict";
  var LIMIT = 1e6;  // the plot endpoint's bound on |from| and |to|
  var MIN_SPAN = 1e-6;
  var SAMPLES = 161;  // as the server samples (workspace.plots.SAMPLES)
  var SVG_W = 480, SVG_H = 300;

  function number(v) {
    return Number(v).toPrecision(4).replace(/\.?0+(e|$)/, "$1").replace("-", "\u2212");
  }

  /* ---- expression trees (built by veristep.animate.plots from the parsed maths) ---- */
  var FN = {
    sin: Math.sin, cos: Math.cos, tan: Math.tan, exp: Math.exp, ln: Math.log, log: Math.log,
    sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, arctan: Math.atan
  };
  /* The value of tree t at x: a number for a function of one unknown, or an object of values by
     name ({x: 1, y: 2}) for a tree whose unknowns are named (["var", "y"]). */
  function evalTree(t, x) {
    if (!Array.isArray(t)) return NaN;
    var i, v;
    switch (t[0]) {
      case "num": return +t[1];
      case "var": return x !== null && typeof x === "object" ? +x[t[1]] : x;
      case "add": v = 0; for (i = 1; i < t.length; i++) v += evalTree(t[i], x); return v;
      case "mul": v = 1; for (i = 1; i < t.length; i++) v *= evalTree(t[i], x); return v;
      case "neg": return -evalTree(t[1], x);
      case "div": return evalTree(t[1], x) / evalTree(t[2], x);
      case "pow": return Math.pow(evalTree(t[1], x), evalTree(t[2], x));
      case "sqrt": return Math.sqrt(evalTree(t[1], x));
      case "root": return Math.pow(evalTree(t[1], x), 1 / evalTree(t[2], x));
      case "abs": return Math.abs(evalTree(t[1], x));
      case "fn": return FN[t[1]] ? FN[t[1]](evalTree(t[2], x)) : NaN;
      case "log": return Math.log(evalTree(t[2], x)) / Math.log(evalTree(t[1], x));
    }
    return NaN;
  }

  /* About count round values (1, 2 or 5 times a power of ten) from low to high, as the server's
     workspace.plots.nice_ticks. */
  function niceTicks(low, high, count) {
    count = count || 8;
    var span = high - low;
    if (!(span > 0) || !isFinite(span)) return [];
    var raw = span / Math.max(count - 1, 1);
    var power = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * power; })
      .filter(function (s) { return s >= raw; })[0];
    var ticks = [];
    for (var k = Math.ceil(low / step - 1e-9); k * step <= high + 1e-9 * step && ticks.length < 50; k++) {
      ticks.push(Math.round(k * step * 1e12) / 1e12);
    }
    return ticks;
  }

  function tickText(v) { return String(+v.toPrecision(6)).replace("-", "\u2212"); }

  /* ---- a page's plot drawn here: the server's drawing (workspace.plots.draw), in JS ---- */
  function sampleTree(tree, low, high) {
    var out = [];
    for (var i = 0; i < SAMPLES; i++) {
      var y = evalTree(tree, low + (high - low) * i / (SAMPLES - 1));
      out.push(isFinite(y) ? y : null);
    }
    return out;
  }

  function verticalRange(finite) {
    var ordered = finite.slice().sort(function (a, b) { return a - b; });
    var lo = ordered[0], hi = ordered[ordered.length - 1];
    var k = Math.floor(ordered.length / 50);
    var innerLo = ordered[k], innerHi = ordered[ordered.length - 1 - k], inner = innerHi - innerLo;
    if (k && inner > 0 && hi - lo > 10 * inner) { lo = innerLo; hi = innerHi; }
    if (hi - lo < 1e-12) { lo -= 1; hi += 1; }
    var pad = 0.05 * (hi - lo);
    return [lo - pad, hi + pad];
  }

  var clipCount = 0;
  function drawSvg(values, low, high) {
    var finite = values.filter(function (v) { return v !== null; });
    if (!finite.length) {
      return '<p class="vs-plot-error">nothing to draw: the function is undefined on this interval</p>';
    }
    var range = verticalRange(finite), bottom = range[0], top = range[1];
    var left = 48, right = SVG_W - 12, up = 12, down = SVG_H - 28;
    var px = function (i) { return left + (right - left) * i / (values.length - 1); };
    var py = function (v) { return down - (down - up) * (v - bottom) / (top - bottom); };
    var runs = [], run = [];
    values.forEach(function (v, i) {
      if (v === null) { if (run.length) runs.push(run); run = []; return; }
      var clipped = Math.min(Math.max(v, 2 * bottom - top), 2 * top - bottom);
      run.push(px(i).toFixed(1) + "," + py(clipped).toFixed(1));
    });
    if (run.length) runs.push(run);
    var clip = "vs-plot-local-" + (++clipCount);
    var parts = ['<clipPath id="' + clip + '"><rect x="' + left + '" y="' + up + '" width="' +
                 (right - left) + '" height="' + (down - up) + '"/></clipPath>'];
    var text = function (x, y, anchor, v) {
      return '<text x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" text-anchor="' + anchor + '">' +
        tickText(v) + "</text>";
    };
    niceTicks(low, high).forEach(function (t) {
      var x = left + (right - left) * (t - low) / (high - low);
      parts.push('<line x1="' + x.toFixed(1) + '" x2="' + x.toFixed(1) + '" y1="' + up + '" y2="' +
                 down + '" stroke="#e5e7eb"/>' + text(x, down + 16, "middle", t));
    });
    niceTicks(bottom, top).forEach(function (t) {
      var y = py(t);
      parts.push('<line x1="' + left + '" x2="' + right + '" y1="' + y.toFixed(1) + '" y2="' +
                 y.toFixed(1) + '" stroke="#e5e7eb"/>' + text(left - 6, y + 4, "end", t));
    });
    if (bottom < 0 && 0 < top) {
      parts.push('<line x1="' + left + '" x2="' + right + '" y1="' + py(0).toFixed(1) + '" y2="' +
                 py(0).toFixed(1) + '" stroke="#888"/>');
    }
    if (low < 0 && 0 < high) {
      var x0 = (left + (right - left) * (0 - low) / (high - low)).toFixed(1);
      parts.push('<line x1="' + x0 + '" x2="' + x0 + '" y1="' + up + '" y2="' + down + '" stroke="#888"/>');
    }
    parts.push('<rect x="' + left + '" y="' + up + '" width="' + (right - left) + '" height="' +
               (down - up) + '" fill="none" stroke="#ccc"/>');
    runs.forEach(function (r) {
      parts.push('<polyline points="' + r.join(" ") + '" fill="none" stroke="#2457c5" ' +
                 'stroke-width="2" clip-path="url(#' + clip + ')"/>');
    });
    var shown = JSON.stringify(values.map(function (v) { return v === null ? null : +v.toPrecision(6); }));
    return '<svg class="vs-plot" viewBox="0 0 ' + SVG_W + " " + SVG_H + '" role="img" font-size="11" ' +
      'font-family="sans-serif" fill="#444" data-from="' + low + '" data-to="' + high + '" data-left="' +
      left + '" data-right="' + right + '" data-values="' + shown.replace(/"/g, "&quot;") +
      '" aria-label="plot on ' + low + " \u2026 " + high + '">' + parts.join("") + "</svg>";
  }

  /* ---- the controller ---- */

  /* attach(fig, source) puts the controls on fig. source = {
       from, to: the first view; name: the variable across;
       draw(from, to): show that view (may return a Promise); false refuses it;
       readout(t): the words for fraction t (0..1) across the shown view, or null;
       area(): the plotting area's box in client pixels ({left, right}), or null;
       owns(target): whether a pointer event's target is the plot itself }.
     It returns { reset(from, to): the plot chose a new view by itself (a new state), which
     becomes the view "reset" returns to; enable(on): show or hide the controls }. */
  function attach(fig, source) {
    var view = { from: Number(source.from), to: Number(source.to) };
    var initial = { from: view.from, to: view.to };
    var bar = document.createElement("div");
    bar.className = "vs-plot-tools";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "plot view");
    var readout = document.createElement("output");
    readout.className = "vs-plot-readout";
    readout.setAttribute("aria-live", "polite");
    var hint = "point at the plot to read its values";
    readout.textContent = hint;
    var cursor = null, serial = 0;

    function button(text, label, fn) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.setAttribute("aria-label", label);
      b.addEventListener("click", fn);
      bar.appendChild(b);
    }
    function show(from, to) {
      var span = to - from;
      if (!(span >= MIN_SPAN) || Math.abs(from) > LIMIT || Math.abs(to) > LIMIT) return;
      var mine = ++serial;
      view = { from: from, to: to };
      fig.setAttribute("aria-busy", "true");
      Promise.resolve(source.draw(from, to)).then(function (drawn) {
        if (mine !== serial) return;  // a newer view was asked for meanwhile
        fig.removeAttribute("aria-busy");
        if (drawn === false) return;
        if (typeof drawn === "string") { readout.textContent = drawn; return; }
        fig.setAttribute("data-view", from + " " + to);
        if (cursor !== null) trace(cursor);
      }, function () { if (mine === serial) fig.removeAttribute("aria-busy"); });
    }
    function zoom(factor, centre) {
      var c = centre === undefined ? (view.from + view.to) / 2 : centre;
      show(c - (c - view.from) * factor, c + (view.to - c) * factor);
    }
    function pan(share) {
      var d = (view.to - view.from) * share;
      show(view.from + d, view.to + d);
    }
    function trace(t) {
      cursor = Math.min(1, Math.max(0, t));
      var words = source.readout(cursor);
      if (words) readout.textContent = words;
    }
    function fraction(event) {
      var box = source.area();
      if (!box || !(box.right > box.left)) return 0.5;
      return (event.clientX - box.left) / (box.right - box.left);
    }

    button("+", "zoom in", function () { zoom(0.5); });
    button("\u2212", "zoom out", function () { zoom(2); });
    button("\u2190", "pan left", function () { pan(-0.25); });
    button("\u2192", "pan right", function () { pan(0.25); });
    button("reset", "reset the view", function () { show(initial.from, initial.to); });
    bar.appendChild(readout);
    fig.appendChild(bar);

    fig.tabIndex = 0;
    fig.setAttribute("aria-keyshortcuts", "+ - ArrowLeft ArrowRight ArrowUp ArrowDown");
    fig.addEventListener("keydown", function (e) {
      if (e.target !== fig || bar.hidden) return;
      var keys = { "+": function () { zoom(0.5); }, "=": function () { zoom(0.5); },
        "-": function () { zoom(2); }, ArrowLeft: function () { pan(-0.25); },
        ArrowRight: function () { pan(0.25); },
        ArrowUp: function () { trace((cursor === null ? 0.5 : cursor) + 1 / (SAMPLES - 1)); },
        ArrowDown: function () { trace((cursor === null ? 0.5 : cursor) - 1 / (SAMPLES - 1)); } };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    fig.addEventListener("wheel", function (e) {
      if (bar.hidden || !source.owns(e.target)) return;
      e.preventDefault();
      var t = Math.min(1, Math.max(0, fraction(e)));
      zoom(e.deltaY < 0 ? 0.8 : 1.25, view.from + (view.to - view.from) * t);
    }, { passive: false });
    var drag = null;
    fig.addEventListener("pointerdown", function (e) {
      if (!bar.hidden && source.owns(e.target)) drag = { t: fraction(e) };
    });
    fig.addEventListener("pointermove", function (e) {
      if (!bar.hidden && source.owns(e.target)) trace(fraction(e));
    });
    fig.addEventListener("pointerup", function (e) {
      if (!drag) return;
      var moved = drag.t - fraction(e);
      drag = null;
      if (Math.abs(moved) > 0.02) pan(moved);  // drag the curve: the view moves the other way
    });
    fig.setAttribute("data-view", view.from + " " + view.to);
    return {
      reset: function (from, to) {
        view = { from: from, to: to }; initial = { from: from, to: to };
        cursor = null; readout.textContent = hint;
        fig.setAttribute("data-view", from + " " + to);
      },
      enable: function (on) { bar.hidden = !on; fig.tabIndex = on ? 0 : -1; }
    };
  }

  /* ---- a page's plot: server-drawn, or drawn here in an export ---- */
  function pageSource(fig) {
    var name = fig.dataset.var || "x", pending = null;
    var tree = fig.dataset.tree ? JSON.parse(fig.dataset.tree) : null;
    function svgOf() { return fig.querySelector("svg.vs-plot"); }
    function swap(markup) {
      var old = fig.querySelector("svg.vs-plot, .vs-plot-error");
      var holder = document.createElement("div");
      holder.innerHTML = markup;  // the server's drawing (escaped there) or drawSvg's own
      var fresh = holder.firstElementChild;
      if (old && fresh) fig.replaceChild(fresh, old);
      else if (fresh) fig.insertBefore(fresh, fig.querySelector(".vs-plot-tools"));
    }
    function ask(from, to) {
      if (tree) { swap(drawSvg(sampleTree(tree, from, to), from, to)); return true; }
      if (pending) pending.abort();
      pending = new AbortController();
      return fetch("/api/pages/plot", {
        method: "POST", headers: { "Content-Type": "application/json" }, signal: pending.signal,
        body: JSON.stringify({ expr: fig.dataset.expr, var: name, from: from, to: to })
      }).then(function (r) { return r.json(); }).then(function (answer) {
        if (!answer.ok) return answer.message || "cannot draw this view";
        swap(answer.svg);
        return true;
      });
    }
    return {
      from: Number(fig.dataset.from), to: Number(fig.dataset.to), name: name,
      draw: function (from, to) {
        return Promise.resolve(ask(from, to)).then(function (drawn) {
          if (drawn === true) { fig.dataset.from = String(from); fig.dataset.to = String(to); }
          return drawn;
        });
      },
      // (x, f(x)) of the sample nearest fraction t: the SVG carries the values it drew.
      readout: function (t) {
        var svg = svgOf();
        if (!svg) return null;
        var values = JSON.parse(svg.dataset.values || "[]");
        if (!values.length) return null;
        var i = Math.round(t * (values.length - 1));
        var from = Number(svg.dataset.from), to = Number(svg.dataset.to);
        var x = from + (to - from) * i / (values.length - 1);
        return name + " = " + number(x) + ", y = " + (values[i] === null ? "undefined" : number(values[i]));
      },
      area: function () {
        var svg = svgOf();
        if (!svg) return null;
        var box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
        return { left: box.left + Number(svg.dataset.left) * scale,
                 right: box.left + Number(svg.dataset.right) * scale };
      },
      owns: function (target) { return !!target.closest("svg.vs-plot"); }
    };
  }

  function start() {
    document.querySelectorAll("figure.vs-zoomable[data-expr]").forEach(function (fig) {
      if (fig.querySelector("svg.vs-plot")) attach(fig, pageSource(fig));
    });
  }

  window.VeristepPlots = {
    attach: attach, evalTree: evalTree, niceTicks: niceTicks, number: number,
    sampleTree: sampleTree, drawSvg: drawSvg
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
