/* veristep derivation player: KaTeX frames morphed by a FLIP engine keyed on data-n.
 *
 * Every glyph of a state is wrapped by \htmlData{n=ID}{...}; an ID that appears in two consecutive
 * frames is the same glyph. A transition has three phases, in this order:
 *   DELETE  glyphs only in the old frame: a ghost copy of the old frame shows them fading out;
 *   MOVE    glyphs in both frames: the new element starts where the old one was (translate+scale)
 *           and glides to its own place;
 *   INSERT  glyphs only in the new frame: they fade in last.
 * Elements are selected by data-n only, never by KaTeX class names (they change between versions).
 * All animations are Web Animations, so pause, step and scrub are currentTime arithmetic.
 */
(function () {
  "use strict";

  var TIERS = {
    refuted: { icon: "\u2717", label: "Refuted" },
    unchecked: { icon: "\u25CB", label: "Unchecked" },
    plausible: { icon: "\uD83D\uDD39", label: "Plausible" },
    verified: { icon: "\uD83E\uDD48", label: "Verified" },
    grounded: { icon: "\uD83E\uDD47", label: "Grounded" }
  };
  /* Tier icons drawn as SVG so they look the same with or without an emoji font; the emoji
     itself stays in the accessible name and the tooltip. */
  var SVG = {
    grounded: '<circle cx="8" cy="8" r="7" fill="#f2c230" stroke="#a87a00"/><text x="8" y="11.5" font-size="10" text-anchor="middle" fill="#5a4100" font-family="sans-serif" font-weight="700">1</text>',
    verified: '<circle cx="8" cy="8" r="7" fill="#d5dae1" stroke="#7d8794"/><text x="8" y="11.5" font-size="10" text-anchor="middle" fill="#39414c" font-family="sans-serif" font-weight="700">2</text>',
    plausible: '<path d="M8 1.5 L14.5 8 L8 14.5 L1.5 8 Z" fill="#4a90e2" stroke="#2463b0"/>',
    unchecked: '<circle cx="8" cy="8" r="6" fill="none" stroke="#5b6475" stroke-width="1.6"/>',
    refuted: '<path d="M3 3 L13 13 M13 3 L3 13" stroke="#b3261e" stroke-width="2.4" stroke-linecap="round"/>'
  };
  function icon(tier) {
    var span = el("span", "vs-icon");
    span.setAttribute("aria-hidden", "true");
    span.innerHTML = '<svg viewBox="0 0 16 16" width="1em" height="1em">' + (SVG[tier] || SVG.unchecked) + "</svg>";
    return span;
  }
  var PHASE = { del: 350, move: 700, ins: 350, overlap: 100, hold: 900 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function renderTex(tex) {
    var holder = el("div", "vs-frame");
    try {
      holder.innerHTML = window.katex.renderToString(tex, {
        displayMode: true,
        output: "html",
        throwOnError: true,
        strict: "ignore",
        // Only \htmlData may emit HTML: it carries the glyph ids and nothing else.
        trust: function (ctx) { return ctx.command === "\\htmlData"; }
      });
    } catch (err) {
      holder.appendChild(el("code", "vs-unrendered", tex));
      holder.setAttribute("data-render-error", String(err && err.message || err));
    }
    return holder;
  }

  /* Prose with inline math, as proposers write it: "add $\frac{c}{a}$ to both sides".
     Split on unescaped $…$ (or $$…$$); "\$" is a literal dollar. Words become text nodes, never
     markup; math is typeset by KaTeX untrusted (no \htmlData: these carry no glyph ids). An
     unbalanced "$" means the text was not written with delimiters, so all of it stays text. */
  function splitProse(text) {
    var parts = [], plain = "", i = 0, n = text.length;
    while (i < n) {
      var c = text.charAt(i);
      if (c === "\\" && text.charAt(i + 1) === "$") { plain += "$"; i += 2; continue; }
      if (c !== "$") { plain += c; i++; continue; }
      var delim = text.charAt(i + 1) === "$" ? "$$" : "$";
      var j = i + delim.length, close = -1;
      while (j < n) {
        if (text.charAt(j) === "\\") { j += 2; continue; }
        if (text.substr(j, delim.length) === delim) { close = j; break; }
        j++;
      }
      if (close < 0) return [{ math: false, text: text }];
      var tex = text.slice(i + delim.length, close);
      if (plain) parts.push({ math: false, text: plain });
      plain = "";
      if (tex.trim()) parts.push({ math: true, text: tex });
      i = close + delim.length;
    }
    if (plain) parts.push({ math: false, text: plain });
    return parts;
  }

  function appendProse(node, text) {
    splitProse(String(text == null ? "" : text)).forEach(function (part) {
      if (!part.math || !window.katex) {
        node.appendChild(document.createTextNode(part.math ? "$" + part.text + "$" : part.text));
        return;
      }
      var span = el("span", "vs-math");
      try {
        window.katex.render(part.text, span, { throwOnError: false, strict: "ignore", trust: false });
      } catch (err) { span.textContent = part.text; }
      node.appendChild(span);
    });
    return node;
  }

  /* The same text for places that cannot hold markup (tooltips, accessible names). */
  function plainProse(text) {
    return splitProse(String(text == null ? "" : text))
      .map(function (part) { return part.text; }).join("");
  }

  /* The ids inside an element (itself included), as a signature: equal signatures = the same
     subtree, so the whole element may glide as one unit. */
  function signature(node) {
    var ids = [node.getAttribute("data-n")];
    var inner = node.querySelectorAll("[data-n]");
    for (var i = 0; i < inner.length; i++) ids.push(inner[i].getAttribute("data-n"));
    return ids.sort().join(",");
  }

  function isLeaf(node) { return !node.querySelector("[data-n]"); }

  function topLevel(root) {
    var out = [];
    var all = root.querySelectorAll("[data-n]");
    for (var i = 0; i < all.length; i++) {
      var p = all[i].parentElement, nested = false;
      while (p && p !== root) { if (p.hasAttribute("data-n")) { nested = true; break; } p = p.parentElement; }
      if (!nested) out.push(all[i]);
    }
    return out;
  }

  function childUnits(node) {
    var out = [];
    var all = node.querySelectorAll("[data-n]");
    for (var i = 0; i < all.length; i++) {
      var p = all[i].parentElement;
      while (p && p !== node && !p.hasAttribute("data-n")) p = p.parentElement;
      if (p === node) out.push(all[i]);
    }
    return out;
  }

  /* A container's own strokes: the visible boxes it draws itself (a fraction bar, a radical sign,
     a stretched delimiter) rather than through an id-carrying child. Found by geometry, not by
     KaTeX class names: childless or SVG, not a table cell, not an invisible spacer. */
  function strokes(container) {
    var out = [];
    (function walk(e) {
      for (var i = 0; i < e.children.length; i++) {
        var k = e.children[i];
        if (k.hasAttribute("data-n")) continue;
        var svg = k.tagName.toLowerCase() === "svg";
        if (!svg && k.children.length) { walk(k); continue; }
        var text = k.textContent.replace(/[\s\u200b]/g, "");
        if (!svg && k.textContent.length && !text.length) continue;
        if (getComputedStyle(k).display === "table-cell") continue;
        var r = k.getBoundingClientRect();
        if (r.width > 0.5 && r.height > 0.5) out.push(k);
      }
    })(container);
    return out;
  }

  function push(map, key, value) { (map[key] = map[key] || []).push(value); }

  /* Pair new elements with old ones: a whole unchanged subtree as one unit, else descend to
     the leaves; a container that persists moves its own strokes too (else they fade in).
     Returns {moves:[[old,new]], inserts:[new], deletes:[old]}. */
  function plan(oldRoot, newRoot) {
    var bySig = {}, byLeafId = {}, byContainerId = {}, used = new Set();
    oldRoot.querySelectorAll("[data-n]").forEach(function (o) {
      var id = o.getAttribute("data-n");
      push(bySig, id + "|" + signature(o), o);
      push(isLeaf(o) ? byLeafId : byContainerId, id, o);
    });
    function take(list) {
      if (!list) return null;
      for (var i = 0; i < list.length; i++) if (!used.has(list[i])) { used.add(list[i]); return list[i]; }
      return null;
    }
    var moves = [], inserts = [];
    function visit(n) {
      var id = n.getAttribute("data-n");
      var whole = take(bySig[id + "|" + signature(n)]);
      if (whole) { moves.push([whole, n]); markInside(whole); return; }
      if (isLeaf(n)) {
        var leaf = take(byLeafId[id]);
        if (leaf) moves.push([leaf, n]); else inserts.push(n);
        return;
      }
      var own = strokes(n);
      if (own.length) {
        var was = take(byContainerId[id]);
        var before = was ? strokes(was) : [];
        own.forEach(function (s, i) {
          var o = before.length === own.length ? before[i] : null;
          if (o && o.tagName === s.tagName) moves.push([o, s]); else inserts.push(s);
        });
      }
      childUnits(n).forEach(visit);
    }
    function markInside(o) { o.querySelectorAll("[data-n]").forEach(function (x) { used.add(x); }); }
    topLevel(newRoot).forEach(visit);
    // An old element is deleted when neither it nor anything inside it found a partner.
    var involved = new Set();
    moves.forEach(function (pair) {
      var p = pair[0];
      while (p && p !== oldRoot) { involved.add(p); p = p.parentElement; }
      markInside(pair[0]);
    });
    var deletes = [];
    oldRoot.querySelectorAll("[data-n]").forEach(function (o) {
      if (involved.has(o) || used.has(o)) return;
      var p = o.parentElement;
      while (p && p !== oldRoot) {
        if (p.hasAttribute("data-n") && !involved.has(p) && !used.has(p)) return;  // not maximal
        p = p.parentElement;
      }
      deletes.push(o);
    });
    return { moves: moves, inserts: inserts, deletes: deletes };
  }

  function ids(list) {
    var s = new Set();
    list.forEach(function (e) { if (e.hasAttribute("data-n")) s.add(e.getAttribute("data-n")); });
    return Array.from(s).sort(function (a, b) { return a - b; });
  }

  function Player(root, payload) {
    this.root = root;
    this.payload = payload;
    this.frames = payload.frames.map(function (f) { return f.tex; });
    this.k = 0;
    this.anims = [];
    this.transition = null;
    this.playing = false;
    this.speed = 1;  // > 1 plays faster (tests, impatient readers)
    this.last = null;
    this.reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.build();
    this.show(0);
  }

  Player.prototype.build = function () {
    var self = this, p = this.payload;
    this.root.classList.add("vs-player");
    this.root.innerHTML = "";
    var verdict = el("p", "vs-verdict");
    var conf = p.confidence || {};
    var tier = TIERS[conf.tier] || TIERS.unchecked;
    verdict.setAttribute("data-tier", conf.tier || "unchecked");
    verdict.appendChild(icon(conf.tier));
    verdict.appendChild(document.createTextNode(" " + tier.label + " \u00B7 " + (conf.summary || "")));
    verdict.setAttribute("aria-label", tier.icon + " " + tier.label + " \u00B7 " + (conf.summary || ""));
    this.root.appendChild(verdict);
    this.wrap = el("div", "vs-stage-wrap");
    this.stage = el("div", "vs-stage");
    this.stage.setAttribute("aria-live", "polite");
    this.ghosts = el("div", "vs-ghosts");
    this.ghosts.setAttribute("aria-hidden", "true");
    this.wrap.appendChild(this.stage);
    this.wrap.appendChild(this.ghosts);
    this.root.appendChild(this.wrap);
    this.caption = el("p", "vs-caption");
    this.root.appendChild(this.caption);
    var controls = el("div", "vs-controls");
    function button(label, title, fn, cls) {
      var b = el("button", "vs-btn " + (cls || ""), label);
      b.type = "button"; b.title = title; b.setAttribute("aria-label", title);
      b.addEventListener("click", fn);
      controls.appendChild(b);
      return b;
    }
    button("\u00AB", "first state", function () { self.pause(); self.show(0); }, "vs-first");
    button("\u2039", "previous state", function () { self.pause(); self.show(Math.max(0, self.k - 1)); }, "vs-prev");
    this.playBtn = button("\u25B6", "play", function () { self.playing ? self.pause() : self.play(); }, "vs-play");
    button("\u25B6|", "next step", function () { self.pause(); self.step(); }, "vs-step");
    this.scrubber = el("input", "vs-scrub");
    this.scrubber.type = "range"; this.scrubber.min = "0";
    this.scrubber.max = String(Math.max(this.frames.length - 1, 0));
    this.scrubber.step = "0.01"; this.scrubber.value = "0";
    this.scrubber.setAttribute("aria-label", "scrub through the derivation");
    this.scrubber.addEventListener("input", function () { self.pause(); self.seek(parseFloat(self.scrubber.value)); });
    controls.appendChild(this.scrubber);
    this.root.appendChild(controls);
    this.badges = el("ol", "vs-badges");
    (p.steps || []).forEach(function (s) {
      var t = TIERS[s.tier] || TIERS.unchecked;
      var li = el("li");
      var b = el("button", "vs-badge");
      b.appendChild(icon(s.tier));
      b.setAttribute("data-icon", t.icon);
      b.type = "button";
      b.setAttribute("data-step", String(s.index));
      b.setAttribute("data-tier", s.tier);
      var why = t.label + " \u2014 " + (s.operation ? plainProse(s.operation) + ": " : "") +
        plainProse(s.reason || "");
      b.title = why;
      b.setAttribute("aria-label", "step " + s.index + ": " + why);
      // Hover or keyboard focus explains the step; a tap (click) also jumps to it.
      b.addEventListener("mouseenter", function () { self.explain(s.index); });
      b.addEventListener("focus", function () { self.explain(s.index); });
      b.addEventListener("click", function () { self.pause(); self.show(s.index); self.explain(s.index); });
      li.appendChild(b);
      self.badges.appendChild(li);
    });
    this.root.appendChild(this.badges);
    this.reason = el("p", "vs-reason");
    this.reason.setAttribute("role", "status");
    this.root.appendChild(this.reason);
  };

  Player.prototype.explain = function (index) {
    var s = (this.payload.steps || [])[index - 1];
    if (!s) { this.reason.textContent = ""; return; }
    var t = TIERS[s.tier] || TIERS.unchecked;
    this.reason.textContent = "";
    this.reason.appendChild(icon(s.tier));
    this.reason.appendChild(document.createTextNode(" Step " + s.index + " \u00B7 " + t.label + ": "));
    appendProse(this.reason, s.reason || "");
    this.reason.setAttribute("data-step", String(s.index));
  };

  Player.prototype.mark = function () {
    var k = this.k;
    this.badges.querySelectorAll(".vs-badge").forEach(function (b) {
      b.classList.toggle("vs-current", Number(b.getAttribute("data-step")) === k);
    });
    var s = (this.payload.steps || [])[k - 1];
    this.caption.textContent = "";
    appendProse(this.caption, s ? (s.operation || "step " + s.index) : "start");
    this.scrubber.value = String(k);
    this.root.setAttribute("data-frame", String(k));
    this.explain(k);
  };

  Player.prototype.clearTransition = function () {
    this.anims.forEach(function (a) { a.cancel(); });
    this.anims = [];
    this.transition = null;
    this.ghosts.innerHTML = "";
    this.ghosts.style.transform = "";
  };

  /* Show frame k at once, with no animation. */
  Player.prototype.show = function (k) {
    this.clearTransition();
    this.k = k;
    this.stage.innerHTML = "";
    this.stage.appendChild(renderTex(this.frames[k]));
    this.mark();
  };

  Player.prototype.rel = function (node) {
    var r = node.getBoundingClientRect(), w = this.wrap.getBoundingClientRect();
    return { x: r.left - w.left, y: r.top - w.top, w: r.width, h: r.height };
  };

  /* Set up the transition k → k+1, paused at time 0; returns false at the last frame. */
  Player.prototype.prepare = function (k) {
    if (k + 1 >= this.frames.length) return false;
    if (this.k !== k || this.transition) this.show(k);
    var self = this;
    var oldFrame = this.stage.firstChild;
    var newFrame = renderTex(this.frames[k + 1]);
    // Strokes are found by their boxes, so the new frame is laid out (hidden) before planning.
    newFrame.style.visibility = "hidden";
    this.ghosts.appendChild(newFrame);
    var p = plan(oldFrame, newFrame);
    newFrame.style.visibility = "";
    var first = new Map();
    p.moves.forEach(function (pair) { first.set(pair[0], self.rel(pair[0])); });
    var oldWrapRect = this.rel(oldFrame);
    this.stage.replaceChild(newFrame, oldFrame);
    this.ghosts.appendChild(oldFrame);
    // The ghost copy must sit exactly where the old frame was, whatever the new frame's size.
    var now = this.rel(oldFrame);
    this.ghosts.style.transform = "translate(" + (oldWrapRect.x - now.x) + "px," + (oldWrapRect.y - now.y) + "px)";
    var f = this.reduced ? 0 : 1 / this.speed;
    var d = { del: PHASE.del * f, move: PHASE.move * f, ins: PHASE.ins * f, overlap: PHASE.overlap * f };
    var moveStart = Math.max(d.del - d.overlap, 0), insStart = moveStart + d.move - d.overlap;
    var anims = [];
    p.deletes.forEach(function (o) {
      o.classList.add("vs-ghost");
      anims.push(o.animate([{ opacity: 1 }, { opacity: 0 }], { duration: d.del, fill: "both", easing: "ease-in" }));
    });
    p.moves.forEach(function (pair) {
      var f = first.get(pair[0]), l = self.rel(pair[1]);
      if (!f || !l.w || !l.h) return;
      var dx = f.x - l.x, dy = f.y - l.y, sx = f.w / l.w, sy = f.h / l.h;
      if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && Math.abs(sx - 1) < 0.01 && Math.abs(sy - 1) < 0.01) return;
      pair[1].style.transformOrigin = "0 0";
      anims.push(pair[1].animate(
        [{ transform: "translate(" + dx + "px," + dy + "px) scale(" + sx + "," + sy + ")" }, { transform: "none" }],
        { duration: d.move, delay: moveStart, fill: "both", easing: "cubic-bezier(.4,0,.2,1)" }));
    });
    p.inserts.forEach(function (n) {
      anims.push(n.animate([{ opacity: 0 }, { opacity: 1 }], { duration: d.ins, delay: insStart, fill: "both", easing: "ease-out" }));
    });
    anims.forEach(function (a) { a.pause(); a.currentTime = 0; });
    this.anims = anims;
    this.total = insStart + d.ins;
    this.transition = { from: k, to: k + 1 };
    this.k = k + 1;
    this.mark();
    this.scrubber.value = String(k);
    this.last = {
      from: k, to: k + 1,
      moved: ids(p.moves.map(function (m) { return m[1]; })),
      deleted: ids(p.deletes), inserted: ids(p.inserts),
      duration: this.total
    };
    this.root.dispatchEvent(new CustomEvent("vs:transition", { detail: this.last }));
    return true;
  };

  /* Finish when every animation has; then drop the ghosts and the inline animation styles. */
  Player.prototype.run = function () {
    var self = this, t = this.transition;
    if (!t) return Promise.resolve();
    this.anims.forEach(function (a) { a.play(); });
    return Promise.all(this.anims.map(function (a) { return a.finished.catch(function () {}); }))
      .then(function () {
        if (self.transition !== t) return;
        self.clearTransition();
        self.mark();
        self.root.dispatchEvent(new CustomEvent("vs:settled", { detail: { frame: self.k } }));
      });
  };

  Player.prototype.step = function () {
    if (this.transition) {
      var t = this.transition;
      this.anims.forEach(function (a) { a.finish(); });
      if (this.transition === t) this.clearTransition();
    }
    if (!this.prepare(this.k)) return Promise.resolve(false);
    return this.run().then(function () { return true; });
  };

  Player.prototype.play = function () {
    var self = this;
    if (this.k >= this.frames.length - 1 && !this.transition) this.show(0);
    this.playing = true;
    this.playBtn.textContent = "\u2016";
    this.playBtn.title = "pause";
    var loop = function () {
      if (!self.playing) return;
      var go = self.transition ? self.run() : self.step();
      Promise.resolve(go).then(function (moved) {
        if (!self.playing) return;
        if (moved === false || self.k >= self.frames.length - 1) { self.pause(); return; }
        setTimeout(loop, self.reduced ? 0 : PHASE.hold / self.speed);
      });
    };
    loop();
  };

  Player.prototype.pause = function () {
    this.playing = false;
    this.playBtn.textContent = "\u25B6";
    this.playBtn.title = "play";
    this.anims.forEach(function (a) { a.pause(); });
  };

  /* Scrub: position 2.5 is halfway through the transition from frame 2 to frame 3. */
  Player.prototype.seek = function (pos) {
    var last = this.frames.length - 1;
    pos = Math.max(0, Math.min(last, pos));
    var i = Math.floor(pos), f = pos - i;
    if (f < 1e-6) { this.show(i); return; }
    if (!this.transition || this.transition.from !== i) this.prepare(i);
    var total = this.total;
    this.anims.forEach(function (a) { a.pause(); a.currentTime = f * total; });
    this.scrubber.value = String(pos);
  };

  window.VeristepPlayer = Player;
  window.veristepIcon = icon;
  window.veristepProse = appendProse;
  window.veristepMount = function (root, payload) {
    var player = new Player(root, payload);
    root.veristep = player;
    return player;
  };
  document.addEventListener("DOMContentLoaded", function () {
    // Plain formulas elsewhere on the page (titles): rendered untrusted, no ids.
    document.querySelectorAll("[data-vs-tex]").forEach(function (node) {
      try {
        window.katex.render(node.getAttribute("data-vs-tex"), node, { throwOnError: false, strict: "ignore" });
      } catch (err) { node.textContent = node.getAttribute("data-vs-tex"); }
    });
    document.querySelectorAll("[data-vs-prose]").forEach(function (node) {
      node.textContent = "";
      appendProse(node, node.getAttribute("data-vs-prose"));
    });
    document.querySelectorAll("[data-veristep-payload]").forEach(function (root) {
      var src = document.getElementById(root.getAttribute("data-veristep-payload"));
      if (src) window.veristepMount(root, JSON.parse(src.textContent));
    });
  });
})();
