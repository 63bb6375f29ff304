/* Zoom, pan and a trace readout for a page's plots.
   A plot is sampled on the server (in a worker, a fixed number of points, bounds limited), so a
   new view asks the same endpoint the editor's preview uses for the new interval and swaps the
   SVG in. Buttons with labels, keyboard (+/- to zoom, arrows to pan), wheel and drag; the readout
   gives (x, f(x)) of the sample nearest the pointer or the keyboard cursor. */
(function () {
  "use strict";
  var LIMIT = 1e6;  // the endpoint's bound on |from| and |to|
  var MIN_SPAN = 1e-6;

  function number(v) { return Number(v).toPrecision(4).replace(/\.?0+(e|$)/, "$1").replace("-", "\u2212"); }

  function controls(fig) {
    var view = { from: Number(fig.dataset.from), to: Number(fig.dataset.to) };
    var bar = document.createElement("div");
    bar.className = "vs-plot-tools";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "plot view");
    var readout = document.createElement("output");
    readout.className = "vs-plot-readout";
    readout.setAttribute("aria-live", "polite");
    readout.textContent = "point at the curve to read (x, y)";
    var pending = null, cursor = null;

    function button(text, label, fn) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.setAttribute("aria-label", label);
      b.addEventListener("click", fn);
      bar.appendChild(b);
    }
    function show(from, to) {
      var span = to - from;
      if (!(span >= MIN_SPAN) || Math.abs(from) > LIMIT || Math.abs(to) > LIMIT) return;
      view = { from: from, to: to };
      if (pending) pending.abort();
      pending = new AbortController();
      fig.setAttribute("aria-busy", "true");
      fetch("/api/pages/plot", {
        method: "POST", headers: { "Content-Type": "application/json" }, signal: pending.signal,
        body: JSON.stringify({ expr: fig.dataset.expr, var: fig.dataset.var || "x", from: from, to: to })
      }).then(function (r) { return r.json(); }).then(function (answer) {
        fig.removeAttribute("aria-busy");
        if (!answer.ok) { readout.textContent = answer.message || "cannot draw this view"; return; }
        var old = fig.querySelector("svg.vs-plot, .vs-plot-error");
        var holder = document.createElement("div");
        holder.innerHTML = answer.svg;  // the server's own drawing (escaped there)
        var fresh = holder.firstElementChild;
        if (old && fresh) fig.replaceChild(fresh, old); else if (fresh) fig.insertBefore(fresh, bar);
        fig.dataset.from = String(from); fig.dataset.to = String(to);
        if (cursor !== null) trace(cursor);
      }).catch(function () { fig.removeAttribute("aria-busy"); });
    }
    function zoom(factor, centre) {
      var c = centre === undefined ? (view.from + view.to) / 2 : centre;
      show(c - (c - view.from) * factor, c + (view.to - c) * factor);
    }
    function pan(share) {
      var d = (view.to - view.from) * share;
      show(view.from + d, view.to + d);
    }
    // (x, f(x)) of the sample at fraction t of the interval.
    function trace(t) {
      var svg = fig.querySelector("svg.vs-plot");
      if (!svg) return;
      var values = JSON.parse(svg.dataset.values || "[]");
      if (!values.length) return;
      cursor = Math.min(1, Math.max(0, t));
      var i = Math.round(cursor * (values.length - 1));
      var from = Number(svg.dataset.from), to = Number(svg.dataset.to);
      var x = from + (to - from) * i / (values.length - 1);
      var y = values[i];
      readout.textContent = (fig.dataset.var || "x") + " = " + number(x) + ", y = " +
        (y === null ? "undefined" : number(y));
    }
    function fraction(event) {
      var svg = fig.querySelector("svg.vs-plot");
      var box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
      var left = box.left + Number(svg.dataset.left) * scale;
      var right = box.left + Number(svg.dataset.right) * scale;
      return (event.clientX - left) / (right - left);
    }

    button("+", "zoom in", function () { zoom(0.5); });
    button("\u2212", "zoom out", function () { zoom(2); });
    button("\u2190", "pan left", function () { pan(-0.25); });
    button("\u2192", "pan right", function () { pan(0.25); });
    button("reset", "reset the view", function () {
      show(Number(fig.getAttribute("data-from-initial")), Number(fig.getAttribute("data-to-initial")));
    });
    fig.setAttribute("data-from-initial", String(view.from));
    fig.setAttribute("data-to-initial", String(view.to));
    bar.appendChild(readout);
    fig.appendChild(bar);

    fig.tabIndex = 0;
    fig.setAttribute("aria-keyshortcuts", "+ - ArrowLeft ArrowRight");
    fig.addEventListener("keydown", function (e) {
      if (e.target !== fig) return;
      var keys = { "+": function () { zoom(0.5); }, "=": function () { zoom(0.5); },
        "-": function () { zoom(2); }, ArrowLeft: function () { pan(-0.25); },
        ArrowRight: function () { pan(0.25); },
        ArrowUp: function () { trace((cursor === null ? 0.5 : cursor) + 1 / 160); },
        ArrowDown: function () { trace((cursor === null ? 0.5 : cursor) - 1 / 160); } };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    fig.addEventListener("wheel", function (e) {
      if (!e.target.closest("svg.vs-plot")) return;
      e.preventDefault();
      var t = fraction(e);
      zoom(e.deltaY < 0 ? 0.8 : 1.25, view.from + (view.to - view.from) * Math.min(1, Math.max(0, t)));
    }, { passive: false });
    var drag = null;
    fig.addEventListener("pointerdown", function (e) {
      if (e.target.closest("svg.vs-plot")) drag = { t: fraction(e) };
    });
    fig.addEventListener("pointermove", function (e) {
      if (e.target.closest("svg.vs-plot")) trace(fraction(e));
    });
    fig.addEventListener("pointerup", function (e) {
      if (!drag) return;
      var moved = drag.t - fraction(e);
      drag = null;
      if (Math.abs(moved) > 0.02) pan(moved);  // drag the curve: the view moves the other way
    });
  }

  function start() {
    document.querySelectorAll("figure.vs-zoomable[data-expr]").forEach(function (fig) {
      if (fig.querySelector("svg.vs-plot")) controls(fig);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
