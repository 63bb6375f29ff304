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

  /* Each tier in words: a label, a short word for the badge, and what it promises the reader. */
  var TIERS = {
    refuted: { icon: "\u2717", label: "Refuted", word: "wrong",
               meaning: "a checker shows the step does not follow; the witness lets you check it" },
    unchecked: { icon: "\u25CB", label: "Unchecked", word: "not checked",
                 meaning: "not read as mathematics (or nothing to judge), so nothing was checked" },
    plausible: { icon: "?", label: "Plausible", word: "not proved",
                 meaning: "well-formed, but no checker could decide it, or the step loses a solution" },
    verified: { icon: "\u2713", label: "Verified", word: "checked",
                meaning: "strong machine evidence short of a proof (e.g. it assumes a \u2260 0)" },
    grounded: { icon: "\u2713", label: "Grounded", word: "proved",
                meaning: "proved by a checker: a symbolic identity or an exact solution-set relation" }
  };
  var TIER_ORDER = ["grounded", "verified", "plausible", "unchecked", "refuted"];
  function tierOf(name) { return TIERS[name] || TIERS.unchecked; }
  /* A step's word: a step that loses a solution is "incomplete", never a neutral "not proved"
     that reads as probably fine. */
  function stepWord(s) {
    return s.relation === "narrows" && s.tier === "plausible" ? "incomplete" : tierOf(s.tier).word;
  }

  /* Tier icons drawn as SVG so they look the same with or without an emoji font. Shapes a reader
     cannot take for a number (medals read as the digits 1 and 2): a check mark in a filled
     green disc (proved), a check mark alone (checked), a question mark in a diamond (not
     proved), an empty ring (not checked), a red cross (wrong). The words beside them say it too. */
  var SVG = {
    grounded: '<circle cx="8" cy="8" r="7.2" fill="#1d7a46"/><path d="M4.3 8.4 L7 11 L11.8 5.2" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    verified: '<circle cx="8" cy="8" r="6.6" fill="none" stroke="#1d7a46" stroke-width="1.4"/><path d="M4.3 8.4 L7 11 L11.8 5.2" fill="none" stroke="#1d7a46" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    plausible: '<path d="M8 1 L15 8 L8 15 L1 8 Z" fill="#fff4e0" stroke="#b36b00" stroke-width="1.2"/><text x="8" y="11.6" font-size="10" text-anchor="middle" fill="#7a4a00" font-family="sans-serif" font-weight="700">?</text>',
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

  /* The same text for places that cannot hold markup (tooltips, accessible names): the maths
     spoken in words ("add (b squared) over (4 a squared)"), since a reader cannot parse TeX. */
  function plainProse(text) {
    return splitProse(String(text == null ? "" : text))
      .map(function (part) { return part.math ? speakTex(part.text) : part.text; }).join("");
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

  /* A readable label for a formula (KaTeX's HTML output alone says nothing to a screen reader):
     "\frac{-b}{2a}" reads "(minus b) over (2 a)". Words, not a full speech grammar. */
  var SPOKEN = {
    pm: " plus or minus ", mp: " minus or plus ", cdot: " times ", times: " times ",
    le: " less than or equal to ", leq: " less than or equal to ", ge: " greater than or equal to ",
    geq: " greater than or equal to ", ne: " not equal to ", neq: " not equal to ", lor: " or ",
    vee: " or ", land: " and ", wedge: " and ", infty: " infinity ", to: " to ",
    int: " integral of ", sum: " sum of ", prod: " product of ", lim: " limit ", cdots: " dots ",
    ldots: " dots ", dots: " dots ", quad: " ", qquad: " ", left: "", right: "",
    mathrel: "", mathbin: "", mathord: "", mathop: "", mathpunct: "", mathopen: "", mathclose: ""
  };
  function speakTex(tex) {
    var s = String(tex == null ? "" : tex).replace(/\\htmlData\{[^{}]*\}/g, "");
    s = s.replace(/\\left|\\right/g, "").replace(/\\[,;:! ]/g, " ");
    for (var guard = 0; guard < 60; guard++) {
      var before = s;
      s = s.replace(/\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}/g, " ($1) over ($2) ")
        .replace(/\\sqrt\{([^{}]*)\}/g, " square root of ($1) ")
        .replace(/\^\{?2\}?(?![0-9])/g, " squared ")
        .replace(/\^\{([^{}]*)\}/g, " to the power ($1) ").replace(/\^(\w)/g, " to the power $1 ")
        .replace(/_\{([^{}]*)\}/g, " sub $1 ").replace(/_(\w)/g, " sub $1 ")
        // A group that is not a command's argument is just grouping.
        .replace(/(?<![\\A-Za-z}^_])\{([^{}]*)\}/g, "$1")
        .replace(/\\(?:math(?:rel|bin|ord|op|punct|open|close|rm|it|bf)|text|operatorname)\{([^{}]*)\}/g, " $1 ");
      if (s === before) break;
    }
    s = s.replace(/\\([A-Za-z]+)/g, function (m, name) {
      return SPOKEN.hasOwnProperty(name) ? SPOKEN[name] : " " + name + " ";
    });
    s = s.replace(/\+/g, " plus ").replace(/-/g, " minus ").replace(/=/g, " equals ")
      .replace(/</g, " less than ").replace(/>/g, " greater than ").replace(/\*/g, " times ")
      .replace(/[{}]/g, " ");
    return s.replace(/\s+/g, " ").replace(/\(\s+/g, "(").replace(/\s+\)/g, ")").trim();
  }

  /* "at x = 7" for a witness {"x": 7}; other shapes as they are. */
  function witnessText(w) {
    if (w == null || w === "") return "";
    if (Array.isArray(w)) return w.map(plainValue).join(", ");
    if (typeof w === "object") {
      var keys = Object.keys(w);
      if (!keys.length) return "";
      return "at " + keys.map(function (k) { return k + " = " + plainValue(w[k]); }).join(", ");
    }
    return plainValue(w);
  }
  function plainValue(v) {
    if (v == null) return "";
    if (typeof v === "object") { try { return JSON.stringify(v); } catch (e) { return String(v); } }
    return String(v);
  }

  /* What a step warns about, if anything: refuted (red), loses a solution (amber), adds one,
     or could not be checked. The reason text comes from the verifier, never invented here. */
  function stepWarning(s) {
    var reason = s.reason || "", wit = witnessText(s.witness);
    if (s.tier === "refuted") return { kind: "refuted", head: "Step " + s.index + " is wrong", reason: reason, witness: wit };
    // A narrowing graded verified or better loses nothing for generic parameters: it holds
    // under an assumption (dividing by a assumes a \u2260 0), which is said, not alarmed about.
    if (s.relation === "narrows" && (s.tier === "verified" || s.tier === "grounded")) {
      return { kind: "assumes", head: "Step " + s.index + " holds under an assumption", reason: reason, witness: wit };
    }
    if (s.relation === "narrows") return { kind: "lossy", head: "Step " + s.index + " loses a solution", reason: reason, witness: wit };
    if (s.relation === "widens") return { kind: "widens", head: "Step " + s.index + " may add a solution", reason: reason, witness: wit };
    if (s.tier === "unchecked") return { kind: "unchecked", head: "Step " + s.index + " could not be checked", reason: reason, witness: "" };
    return null;
  }

  var players = [];

  function Player(root, payload) {
    this.root = root;
    this.payload = payload;
    this.frames = (payload.frames || []).map(function (f) { return f.tex; });
    if (!this.frames.length) this.frames = ["\\text{(no states)}"];
    this.k = 0;
    this.anims = [];
    this.transition = null;
    this.playing = false;
    this.speed = 1;  // > 1 plays faster (tests, impatient readers)
    this.last = null;
    this.lastHold = null;  // the pause (ms) used after the latest step while playing
    this.reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.widths = null;  // each state's natural width, measured once the stage has a size
    this.build();
    this.show(0);
    this.drawPlots();
    players.push(this);
  }

  Player.prototype.build = function () {
    var self = this, p = this.payload;
    this.root.classList.add("vs-player");
    this.root.innerHTML = "";
    var verdict = el("p", "vs-verdict");
    var conf = p.confidence || {};
    var tier = tierOf(conf.tier);
    verdict.setAttribute("data-tier", conf.tier || "unchecked");
    verdict.appendChild(icon(conf.tier));
    verdict.appendChild(document.createTextNode(" " + tier.label + " (" + tier.word + ") \u00B7 "));
    appendProse(verdict, conf.summary || "");
    verdict.setAttribute("aria-label", tier.label + " (" + tier.word + "): " + plainProse(conf.summary || ""));
    this.root.appendChild(verdict);
    this.root.appendChild(this.buildWarnings());
    this.wrap = el("div", "vs-stage-wrap");
    this.stage = el("div", "vs-stage");
    this.stage.setAttribute("aria-live", "polite");
    this.stage.setAttribute("role", "img");
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
    button("\u2039", "previous state (\u2190)", function () { self.back(); }, "vs-prev");
    this.playBtn = button("\u25B6", "play (space)", function () { self.toggle(); }, "vs-play");
    button("\u25B6|", "next step (\u2192)", function () { self.pause(); self.step(); }, "vs-step");
    this.scrubber = el("input", "vs-scrub");
    this.scrubber.type = "range"; this.scrubber.min = "0";
    this.scrubber.max = String(Math.max(this.frames.length - 1, 0));
    this.scrubber.step = "0.01"; this.scrubber.value = "0";
    this.scrubber.setAttribute("aria-label", "scrub through the derivation");
    this.scrubber.addEventListener("input", function () { self.pause(); self.seek(parseFloat(self.scrubber.value)); });
    // Letting go mid-way settles on the nearer state instead of freezing a half-drawn frame.
    this.scrubber.addEventListener("change", function () { self.settle(); });
    // Arrow keys move one whole step, not one hundredth of one.
    this.scrubber.addEventListener("keydown", function (ev) { self.scrubKey(ev); });
    controls.appendChild(this.scrubber);
    var speed = el("select", "vs-speed");
    speed.setAttribute("aria-label", "playback speed");
    speed.title = "playback speed";
    [["0.5", "0.5\u00D7"], ["1", "1\u00D7"], ["2", "2\u00D7"]].forEach(function (o) {
      var opt = el("option", null, o[1]); opt.value = o[0];
      if (o[0] === "1") opt.selected = true;
      speed.appendChild(opt);
    });
    speed.addEventListener("change", function () { self.speed = parseFloat(speed.value) || 1; });
    this.speedSelect = speed;
    controls.appendChild(speed);
    this.root.appendChild(controls);
    this.badges = el("ol", "vs-badges");
    this.badges.setAttribute("aria-label", "steps and their grades");
    (p.steps || []).forEach(function (s) {
      var t = tierOf(s.tier);
      var li = el("li");
      var b = el("button", "vs-badge");
      b.appendChild(icon(s.tier));
      b.appendChild(el("span", "vs-badge-text", s.index + " " + stepWord(s)));
      b.setAttribute("data-icon", t.icon);
      b.type = "button";
      b.setAttribute("data-step", String(s.index));
      b.setAttribute("data-tier", s.tier);
      var why = t.label + " (" + stepWord(s) + ") \u2014 " + (s.operation ? plainProse(s.operation) + ": " : "") +
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
    this.root.appendChild(legend());
    this.root.appendChild(this.buildPlots());
    // The plot that follows the animation sits beside the stage where there is room (CSS).
    this.root.classList.toggle("vs-plot-beside", (this.plotCharts || []).some(function (c) {
      return c.spec.kind === "states";
    }));
    this.root.appendChild(this.buildSteps());
    window.addEventListener("resize", function () {
      if (!self.transition) self.fit();
      self.drawPlots();
    });
  };

  /* Red, amber and grey notes above the stage, one per step that is wrong, lossy or unreadable,
     and one when the target is not reached: impossible to miss, each with a way to see the step. */
  Player.prototype.buildWarnings = function () {
    var self = this, p = this.payload, box = el("div", "vs-warnings");
    box.setAttribute("role", "group");  // an aria-label needs a role to be allowed
    box.setAttribute("aria-label", "warnings");
    (p.steps || []).forEach(function (s) {
      var w = stepWarning(s);
      if (!w) return;
      var note = el("div", "vs-warn");
      note.setAttribute("data-kind", w.kind);
      note.setAttribute("data-step", String(s.index));
      if (w.kind === "refuted") note.setAttribute("role", "alert");
      var head = el("strong", null, (w.kind === "refuted" ? "\u2717 " : "\u26A0 ") + w.head);
      note.appendChild(head);
      var text = el("span", "vs-warn-text");
      if (w.reason) { text.appendChild(document.createTextNode(": ")); appendProse(text, w.reason); }
      if (w.witness && w.reason.indexOf(w.witness) < 0) {
        text.appendChild(document.createTextNode(" (witness: " + w.witness + ")"));
      }
      note.appendChild(text);
      var go = el("button", "vs-btn vs-warn-go", "show step " + s.index);
      go.type = "button";
      go.addEventListener("click", function () { self.pause(); self.show(s.index); });
      note.appendChild(go);
      box.appendChild(note);
    });
    // The conclusion gate can refute a chain whose every step is honest (an extraneous root
    // carried to the end): that must be as loud as a wrong step.
    var conf = p.confidence || {};
    var stepRefuted = (p.steps || []).some(function (s) { return s.tier === "refuted"; });
    if (conf.tier === "refuted" && !stepRefuted) {
      var gate = el("div", "vs-warn");
      gate.setAttribute("data-kind", "refuted");
      gate.setAttribute("role", "alert");
      gate.appendChild(el("strong", null, "\u2717 The conclusion is wrong"));
      var why = el("span", "vs-warn-text", ": ");
      appendProse(why, conf.summary || "");
      gate.appendChild(why);
      box.appendChild(gate);
    }
    var end = p.endpoint || {};
    if (p.target && end.reached === false) {
      var note = el("div", "vs-warn");
      note.setAttribute("data-kind", "unreached");
      note.setAttribute("role", "alert");
      note.appendChild(el("strong", null, "\u26A0 The target is not reached"));
      var text = el("span", "vs-warn-text", ": the last state is not ");
      var goal = el("span", "vs-inline-math");
      renderInline(goal, p.target);
      text.appendChild(goal);
      text.appendChild(document.createTextNode(end.math_correct ? " as written (it is equivalent)." : "."));
      note.appendChild(text);
      box.appendChild(note);
    }
    if (!(p.steps || []).length) {
      var none = el("div", "vs-warn");
      none.setAttribute("data-kind", "empty");
      none.appendChild(el("strong", null, "Nothing to judge"));
      none.appendChild(el("span", "vs-warn-text", ": this derivation has no steps."));
      box.appendChild(none);
    }
    box.hidden = !box.children.length;
    return box;
  };

  /* Every state on one page, with its step's operation, justification, grade, reason and
     witness; the sub-terms the step inserted are highlighted. Printable; a click seeks there. */
  Player.prototype.buildSteps = function () {
    var self = this, p = this.payload, steps = p.steps || [];
    var section = el("section", "vs-steps-view");
    var head = el("div", "vs-steps-head");
    head.appendChild(el("h2", null, "All steps"));
    var print = el("button", "vs-btn vs-print", "print the steps");
    print.type = "button";
    print.addEventListener("click", function () { window.print(); });
    head.appendChild(print);
    section.appendChild(head);
    var list = el("ol", "vs-steps");
    list.setAttribute("start", "0");
    this.frames.forEach(function (tex, k) {
      var s = k ? steps[k - 1] : null;
      var item = el("li", "vs-step-item");
      item.setAttribute("data-step", String(k));
      var t = s ? tierOf(s.tier) : null;
      if (s) item.setAttribute("data-tier", s.tier);
      var top = el("div", "vs-step-top");
      var go = el("button", "vs-step-go", k ? "Step " + k : "Start");
      go.type = "button";
      go.setAttribute("aria-label", (k ? "show step " + k : "show the start") + " in the animation");
      top.appendChild(go);
      if (s) {
        var tag = el("span", "vs-tier-tag");
        tag.setAttribute("data-tier", s.tier);
        tag.appendChild(icon(s.tier));
        tag.appendChild(document.createTextNode(" " + t.label + " \u00B7 " + stepWord(s)));
        top.appendChild(tag);
        if (s.operation) appendProse(top.appendChild(el("span", "vs-step-op")), s.operation);
      }
      item.appendChild(top);
      var math = renderTex(tex);
      math.classList.add("vs-step-math");
      math.setAttribute("role", "img");
      math.setAttribute("aria-label", speakTex(tex));
      if (s) highlight(math, s.inserts || []);
      item.appendChild(math);
      if (s) {
        if (s.justification) {
          var j = el("p", "vs-step-just", "Why: ");
          appendProse(j, s.justification);
          item.appendChild(j);
        }
        if (s.reason) {
          var r = el("p", "vs-step-reason", "Checker: ");
          appendProse(r, s.reason);
          item.appendChild(r);
        }
        var wit = witnessText(s.witness);
        if (wit) item.appendChild(el("p", "vs-step-witness", "Witness: " + wit));
      }
      item.addEventListener("click", function (ev) {
        if (ev.target.closest && ev.target.closest("a")) return;
        self.pause(); self.show(k);
        if (self.wrap.scrollIntoView) self.wrap.scrollIntoView({ block: "nearest" });
      });
      list.appendChild(item);
    });
    section.appendChild(list);
    this.stepList = list;
    return section;
  };

  /* Plots (drawn with the vendored uPlot and plots.js when they are on the page). The payload
     gives expression trees; plots.js evaluates them in plain floating point, never eval'd as
     code, and gives every plot the same zoom, pan and trace readout as a page's plots. */
  function kit() { return window.VeristepPlots; }
  function evalTree(t, x) { return kit().evalTree(t, x); }
  function finite(y) { return isFinite(y) && Math.abs(y) < 1e6 ? y : null; }
  function round(v) { return Math.abs(v) < 1e-9 ? 0 : +v.toPrecision(4); }
  function num(v) { return kit().number(v); }

  /* Where f changes sign between samples and really is ~0 there (a pole is not a root). */
  function roots(f, lo, hi, n) {
    var out = [], step = (hi - lo) / n, a = lo, fa = f(a);
    for (var i = 1; i <= n; i++) {
      var b = lo + i * step, fb = f(b);
      if (isFinite(fa) && fa === 0) out.push(a);
      else if (isFinite(fa) && isFinite(fb) && fa * fb < 0) {
        var l = a, r = b, fl = fa;
        for (var j = 0; j < 60; j++) {
          var m = (l + r) / 2, fm = f(m);
          if (!isFinite(fm)) break;
          if (fl * fm <= 0) r = m; else { l = m; fl = fm; }
        }
        var x = (l + r) / 2;
        if (Math.abs(f(x)) < 1e-6 * (1 + Math.abs(fa) + Math.abs(fb))) out.push(x);
      }
      a = b; fa = fb;
    }
    return out.filter(function (x, k) { return k === 0 || Math.abs(x - out[k - 1]) > step; });
  }

  Player.prototype.buildPlots = function () {
    var self = this, specs = this.payload.plots || [];
    var section = el("section", "vs-plots");
    section.hidden = !specs.length || !window.uPlot || !kit();
    if (section.hidden) return section;
    section.appendChild(el("h2", null, "Plots"));
    this.plotCharts = [];
    specs.forEach(function (spec) {
      var fig = el("figure", "vs-plot");
      fig.setAttribute("data-kind", spec.kind);
      fig.setAttribute("data-frame", String(spec.frame));
      var cap = el("figcaption");
      var box = el("div", "vs-plot-canvas");
      fig.appendChild(box);
      fig.appendChild(cap);
      section.appendChild(fig);
      self.plotCharts.push({ spec: spec, fig: fig, box: box, cap: cap, chart: null, range: null });
    });
    return section;
  };

  /* Drawn once the section has a width (after build), and again when the window resizes. */
  Player.prototype.drawPlots = function () {
    var self = this;
    (this.plotCharts || []).forEach(function (p) {
      var width = Math.max(240, Math.min(720, p.box.clientWidth || self.root.clientWidth || 320));
      if (p.spec.kind === "states") { self.drawStatePlot(p, width); return; }
      if (p.chart && p.width === width) return;
      p.width = width;
      self.paint(p);
    });
  };

  /* Draw p again (its view changed, or its width): whatever it shows now, from scratch. */
  Player.prototype.paint = function (p) {
    if (p.chart) { p.chart.destroy(); p.chart = null; }
    p.box.innerHTML = "";
    p.fig.removeAttribute("data-error");
    var spec = p.current || p.spec, width = p.width || 320;
    try {
      if (spec.type === "numberline") drawNumberLine(p, spec, width, p.name);
      else if (spec.type === "system") drawSystem(p, spec, width, p.name);
      else if (spec.kind === "derivative" || spec.kind === "area") this.drawCalculus(p, spec, width);
      else this.drawPlot(p, spec, width);
    } catch (err) {
      p.fig.setAttribute("data-error", String(err && err.message || err));
      p.cap.textContent = "This plot could not be drawn.";
      p.shown = null;
    }
    p.fig.setAttribute("aria-label", p.cap.textContent);
    this.zoomable(p, spec.type !== "numberline" && !!p.shown);
  };

  /* The controls of plots.js on p's figure, made once; each drawing says what it shows in
     p.shown = {lo, hi, readout(x)}; a drawing p chose by itself (no p.range) becomes the view
     "reset" returns to. */
  Player.prototype.zoomable = function (p, on) {
    var self = this;
    if (!p.view) {
      if (!on) return;
      p.view = kit().attach(p.fig, {
        from: p.shown.lo, to: p.shown.hi, name: p.shown.name,
        draw: function (from, to) {
          if (!p.shown) return false;
          p.range = [from, to];
          self.paint(p);
          return p.shown ? true : "cannot draw this view";
        },
        readout: function (t) {
          if (!p.shown) return null;
          return p.shown.readout(p.shown.lo + (p.shown.hi - p.shown.lo) * t);
        },
        area: function () {
          var over = p.chart && p.chart.over;
          if (over) return over.getBoundingClientRect();
          var frame = p.box.querySelector("[data-frame-area]");
          return frame ? frame.getBoundingClientRect() : null;
        },
        owns: function (target) { return p.box.contains(target); }
      });
    }
    p.view.enable(on);
    if (on && !p.range) p.view.reset(p.shown.lo, p.shown.hi);
  };

  /* The plot that follows the animation: the shown state's own picture (both sides of an
     equation, the two curves of a system, or its solutions on a number line), redrawn when
     another state is shown. A new state starts at its own view; zooming stays within a state. */
  Player.prototype.drawStatePlot = function (p, width) {
    var k = this.k || 0, pick = p.spec.frames[0];
    p.spec.frames.forEach(function (f) { if (f[0] <= k) pick = f; });
    if (p.pick === pick[0] && p.width === width) return;
    if (p.pick !== pick[0]) p.range = null;
    p.pick = pick[0]; p.width = width;
    p.name = pick[0] ? "state " + pick[0] : "the start";
    var spec = pick[1];
    p.current = spec.type === "equation"
      ? { kind: "equation", frame: pick[0], var: spec.var, left: spec.left, right: spec.right }
      : spec;
    this.paint(p);
    p.fig.setAttribute("data-shows-frame", String(pick[0]));
  };

  var SVG_NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (a) { node.setAttribute(a, String(attrs[a])); });
    return node;
  }

  function intervalWords(v, iv) {
    var lo = iv[0], hi = iv[1];
    if (lo === null && hi === null) return "every " + v;
    if (lo === null) return v + (iv[3] ? " \u2264 " : " < ") + round(hi);
    if (hi === null) return v + (iv[2] ? " \u2265 " : " > ") + round(lo);
    return round(lo) + (iv[2] ? " \u2264 " : " < ") + v + (iv[3] ? " \u2264 " : " < ") + round(hi);
  }

  /* Points and intervals on an axis: a filled dot is included, a hollow one is not; an arrow
     runs on to infinity. */
  function drawNumberLine(p, spec, width, name) {
    p.shown = null;
    var v = spec.var || "x", marks = [];
    spec.points.forEach(function (pt) { marks.push(pt[0]); });
    spec.intervals.forEach(function (iv) { if (iv[0] !== null) marks.push(iv[0]); if (iv[1] !== null) marks.push(iv[1]); });
    var lo = marks.length ? Math.min.apply(null, marks) : -5, hi = marks.length ? Math.max.apply(null, marks) : 5;
    var pad = Math.max(1, (hi - lo) * 0.25);
    lo -= pad; hi += pad;
    var h = 90, left = 20, right = width - 20, y = 45;
    var X = function (t) { return left + (right - left) * (t - lo) / (hi - lo); };
    var root = svg("svg", { width: width, height: h, viewBox: "0 0 " + width + " " + h, role: "img",
                            class: "vs-numberline" });
    root.appendChild(svg("line", { x1: left, x2: right, y1: y, y2: y, stroke: "#8a93a3", "stroke-width": 2 }));
    spec.intervals.forEach(function (iv) {
      var a = iv[0] === null ? left : X(iv[0]), b = iv[1] === null ? right : X(iv[1]);
      root.appendChild(svg("line", { x1: a, x2: b, y1: y, y2: y, stroke: "#2f5fd0", "stroke-width": 6,
                                     "stroke-linecap": "butt" }));
      if (iv[0] === null) root.appendChild(svg("path", { d: "M" + (left - 8) + " " + y + " l10 -8 v16 z", fill: "#2f5fd0" }));
      if (iv[1] === null) root.appendChild(svg("path", { d: "M" + (right + 8) + " " + y + " l-10 -8 v16 z", fill: "#2f5fd0" }));
      [[iv[0], iv[2]], [iv[1], iv[3]]].forEach(function (end) {
        if (end[0] === null) return;
        root.appendChild(svg("circle", { cx: X(end[0]), cy: y, r: 7, stroke: "#2f5fd0", "stroke-width": 3,
                                         fill: end[1] ? "#2f5fd0" : "#fff" }));
      });
    });
    spec.points.forEach(function (pt) {
      root.appendChild(svg("circle", { cx: X(pt[0]), cy: y, r: 7, fill: "#1d2330" }));
    });
    var labelled = {};
    marks.forEach(function (m) {
      var key = String(round(m));
      if (labelled[key]) return;
      labelled[key] = true;
      var t = svg("text", { x: X(m), y: y + 28, "text-anchor": "middle", "font-size": 12, fill: "#1d2330" });
      t.textContent = key.replace("-", "\u2212");
      root.appendChild(t);
    });
    p.box.appendChild(root);
    var words = spec.points.map(function (pt) { return v + " = " + round(pt[0]); })
      .concat(spec.intervals.map(function (iv) { return intervalWords(v, iv); }));
    p.cap.textContent = "The solutions of " + name + " on a number line: " +
      (words.length ? words.join(" or ") : "none") + ".";
  }

  /* ---- a system of two equations in two unknowns: two curves and where they meet ---- */

  /* left − right of equation eq at (a, b), the unknowns named by names = [across, up]. */
  function residual(eq, names) {
    return function (a, b) {
      var env = {};
      env[names[0]] = a; env[names[1]] = b;
      return evalTree(eq[0], env) - evalTree(eq[1], env);
    };
  }

  /* The curve f = 0 in the box, as segments, by marching squares over an n × n grid: a vertical
     line or a circle draws as well as a slanted line. A sign change where |f| stays large is a
     pole, not the curve, and is left out. */
  function contour(f, box, n) {
    var xs = [], ys = [], g = [], i, j;
    for (i = 0; i <= n; i++) {
      xs.push(box.x0 + (box.x1 - box.x0) * i / n);
      ys.push(box.y0 + (box.y1 - box.y0) * i / n);
    }
    for (i = 0; i <= n; i++) { g.push([]); for (j = 0; j <= n; j++) g[i].push(f(xs[i], ys[j])); }
    var segments = [];
    function cross(xa, ya, va, xb, yb, vb) {
      var t = va === vb ? 0.5 : va / (va - vb), x = xa + (xb - xa) * t, y = ya + (yb - ya) * t;
      var here = f(x, y);
      return isFinite(here) && Math.abs(here) <= 0.25 * (Math.abs(va) + Math.abs(vb)) + 1e-12 ? [x, y] : null;
    }
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++) {
        var c = [[xs[i], ys[j], g[i][j]], [xs[i + 1], ys[j], g[i + 1][j]],
                 [xs[i + 1], ys[j + 1], g[i + 1][j + 1]], [xs[i], ys[j + 1], g[i][j + 1]]];
        if (!c.every(function (q) { return isFinite(q[2]); })) continue;
        var found = [];
        for (var e = 0; e < 4; e++) {
          var a = c[e], b = c[(e + 1) % 4];
          if ((a[2] >= 0) !== (b[2] >= 0)) {
            var pt = cross(a[0], a[1], a[2], b[0], b[1], b[2]);
            if (pt) found.push(pt);
          }
        }
        if (found.length >= 2) segments.push([found[0], found[1]]);
        if (found.length === 4) segments.push([found[2], found[3]]);
      }
    }
    return segments;
  }

  /* Where both equations hold: from each crossing of the drawn curves, Newton's method on the
     pair (so a meeting point is exact, not a pixel's guess), kept only when both residuals
     vanish there. */
  function meetings(f, g, segsF, segsG, box) {
    var out = [], scale = Math.max(box.x1 - box.x0, box.y1 - box.y0);
    function newton(x, y) {
      for (var k = 0; k < 40; k++) {
        var h = 1e-7 * (1 + Math.abs(x) + Math.abs(y));
        var a = f(x, y), b = g(x, y);
        var ax = (f(x + h, y) - a) / h, ay = (f(x, y + h) - a) / h;
        var bx = (g(x + h, y) - b) / h, by = (g(x, y + h) - b) / h;
        var det = ax * by - ay * bx;
        if (!isFinite(det) || det === 0) break;
        var dx = (a * by - ay * b) / det, dy = (ax * b - a * bx) / det;
        x -= dx; y -= dy;
        if (Math.abs(dx) + Math.abs(dy) < 1e-13 * (1 + Math.abs(x) + Math.abs(y))) break;
      }
      var tol = 1e-9 * (1 + Math.abs(x) + Math.abs(y));
      return Math.abs(f(x, y)) < tol && Math.abs(g(x, y)) < tol ? [x, y] : null;
    }
    segsF.forEach(function (s) {
      segsG.forEach(function (t) {
        var p = s[0], r = [s[1][0] - p[0], s[1][1] - p[1]], q = t[0], u = [t[1][0] - q[0], t[1][1] - q[1]];
        var d = r[0] * u[1] - r[1] * u[0];
        if (d === 0 || out.length > 8) return;
        var a = ((q[0] - p[0]) * u[1] - (q[1] - p[1]) * u[0]) / d;
        var b = ((q[0] - p[0]) * r[1] - (q[1] - p[1]) * r[0]) / d;
        if (a < -1e-9 || a > 1 + 1e-9 || b < -1e-9 || b > 1 + 1e-9) return;
        var m = newton(p[0] + a * r[0], p[1] + a * r[1]);
        if (!m) return;
        var near = out.some(function (o) { return Math.abs(o[0] - m[0]) + Math.abs(o[1] - m[1]) < 1e-6 * scale; });
        if (!near) out.push(m);
      });
    });
    return out;
  }

  /* Whether g vanishes all along the drawn curve segs (two equations with one line): checked at
     the segments' ends, against g's own size across the view. */
  function coincide(g, segs, box) {
    if (!segs.length) return false;
    var size = 0, k;
    [[box.x0, box.y0], [box.x1, box.y0], [box.x0, box.y1], [box.x1, box.y1]].forEach(function (c) {
      var v = Math.abs(g(c[0], c[1]));
      if (isFinite(v)) size = Math.max(size, v);
    });
    var stride = Math.max(1, Math.floor(segs.length / 40));
    for (k = 0; k < segs.length; k += stride) {
      if (!(Math.abs(g(segs[k][0][0], segs[k][0][1])) <= 1e-9 * (1 + size))) return false;
    }
    return true;
  }

  var SYS_COLOURS = ["#2f5fd0", "#b36b00"];
  var SYS_WIDTH = [4, 2];  // the first drawn wider, so the second shows on top where they overlap

  /* Both equations of the system as curves in the plane of its two unknowns, where they meet
     marked. The first view holds every meeting point found within ±50; zooming keeps the
     vertical span in proportion to the horizontal one. */
  function drawSystem(p, spec, width, name) {
    var names = spec.vars, f = residual(spec.equations[0], names), g = residual(spec.equations[1], names);
    var box;
    if (p.range && p.yRange) {
      var centre = (p.yRange[0] + p.yRange[1]) / 2, half = (p.range[1] - p.range[0]) / 2 * p.yRange[2];
      box = { x0: p.range[0], x1: p.range[1], y0: centre - half, y1: centre + half };
    } else {
      box = { x0: -10, x1: 10, y0: -10, y1: 10 };
      var wide = { x0: -50, x1: 50, y0: -50, y1: 50 };
      var far = meetings(f, g, contour(f, wide, 100), contour(g, wide, 100), wide);
      far.forEach(function (m) {
        box.x0 = Math.min(box.x0, m[0] - 3); box.x1 = Math.max(box.x1, m[0] + 3);
        box.y0 = Math.min(box.y0, m[1] - 3); box.y1 = Math.max(box.y1, m[1] + 3);
      });
    }
    p.yRange = [box.y0, box.y1, (box.y1 - box.y0) / (box.x1 - box.x0)];
    var curves = [contour(f, box, 120), contour(g, box, 120)];
    var same = coincide(g, curves[0], box) && coincide(f, curves[1], box);
    var found = same ? [] : meetings(f, g, curves[0], curves[1], box).filter(function (m) {
      return m[0] >= box.x0 && m[0] <= box.x1 && m[1] >= box.y0 && m[1] <= box.y1;
    });
    var h = Math.round(Math.min(360, Math.max(220, width * 0.6)));
    var left = 44, right = width - 10, top = 10, bottom = h - 26;
    var X = function (a) { return left + (right - left) * (a - box.x0) / (box.x1 - box.x0); };
    var Y = function (b) { return bottom - (bottom - top) * (b - box.y0) / (box.y1 - box.y0); };
    var root = svg("svg", { width: width, height: h, viewBox: "0 0 " + width + " " + h, role: "img",
                            class: "vs-system", "font-size": 11, "font-family": "sans-serif" });
    var clipId = "vs-sys-clip-" + (++systemCount);
    var clip = svg("clipPath", { id: clipId });
    clip.appendChild(svg("rect", { x: left, y: top, width: right - left, height: bottom - top }));
    root.appendChild(clip);
    kit().niceTicks(box.x0, box.x1).forEach(function (t) {
      root.appendChild(svg("line", { x1: X(t), x2: X(t), y1: top, y2: bottom, stroke: t === 0 ? "#888" : "#e5e7eb" }));
      var label = svg("text", { x: X(t), y: bottom + 16, "text-anchor": "middle", fill: "#444" });
      label.textContent = num(t);
      root.appendChild(label);
    });
    kit().niceTicks(box.y0, box.y1).forEach(function (t) {
      root.appendChild(svg("line", { x1: left, x2: right, y1: Y(t), y2: Y(t), stroke: t === 0 ? "#888" : "#e5e7eb" }));
      var label = svg("text", { x: left - 6, y: Y(t) + 4, "text-anchor": "end", fill: "#444" });
      label.textContent = num(t);
      root.appendChild(label);
    });
    var frame = svg("rect", { x: left, y: top, width: right - left, height: bottom - top, fill: "none",
                              stroke: "#ccc", "data-frame-area": "1" });
    root.appendChild(frame);
    curves.forEach(function (segs, k) {
      var d = segs.map(function (s) {
        return "M" + X(s[0][0]).toFixed(1) + " " + Y(s[0][1]).toFixed(1) + "L" + X(s[1][0]).toFixed(1) + " " + Y(s[1][1]).toFixed(1);
      }).join("");
      root.appendChild(svg("path", { d: d || "M0 0", fill: "none", stroke: SYS_COLOURS[k], "stroke-width": SYS_WIDTH[k],
                                     "clip-path": "url(#" + clipId + ")",
                                     "data-curve": String(k + 1), "data-segments": String(segs.length) }));
    });
    found.forEach(function (m) {
      root.appendChild(svg("circle", { cx: X(m[0]), cy: Y(m[1]), r: 6, fill: "#1d2330", class: "vs-meet" }));
    });
    var key = el("p", "vs-system-key");
    spec.equations.forEach(function (eq, k) {
      var sw = el("span", "vs-system-swatch");
      sw.style.borderTopColor = SYS_COLOURS[k];
      sw.style.borderTopWidth = SYS_WIDTH[k] + "px";
      sw.setAttribute("aria-hidden", "true");
      key.appendChild(sw);
      var tex = (spec.latex || [])[k];
      if (tex && window.katex) {
        var math = el("span", "vs-math");
        math.setAttribute("role", "img");  // a named span needs a role that may be named
        renderInline(math, tex);
        key.appendChild(document.createTextNode(" "));
        key.appendChild(math);
        key.appendChild(document.createTextNode("  "));
      } else {
        key.appendChild(document.createTextNode(k ? " second equation  " : " first equation  "));
      }
    });
    p.box.appendChild(root);
    p.box.appendChild(key);
    var v = names[0], w = names[1];
    var at = function (m) { return "(" + v + ", " + w + ") = (" + round(m[0]) + ", " + round(m[1]) + ")"; };
    p.fig.setAttribute("data-meets", JSON.stringify(found.map(function (m) { return [round(m[0]), round(m[1])]; })));
    p.cap.textContent = "The two equations of " + name + " drawn as curves in the (" + v + ", " + w +
      ") plane: " + (same ? "they are the same curve, so every point on it solves both." :
      found.length ? "they meet at " + found.map(at).join(" and ") + ", where both hold." :
      "they do not meet in this range.");
    root.setAttribute("aria-label", p.cap.textContent);
    // The readout: where each curve crosses the vertical line at x.
    var upAt = function (fn, x) {
      var ys = roots(function (y) { return fn(x, y); }, box.y0, box.y1, 200);
      if (ys.length > 20) return "every " + w;
      return ys.length ? ys.map(function (y) { return w + " = " + num(y); }).join(" or ") : "none";
    };
    p.shown = { lo: box.x0, hi: box.x1, name: v, readout: function (x) {
      return v + " = " + num(x) + ": first equation " + upAt(f, x) + "; second " + upAt(g, x);
    } };
  }
  var systemCount = 0;

  /* The readout of a uPlot chart: the sample nearest x of each named series. */
  function seriesReadout(v, xs, series) {
    return function (x) {
      var lo = 0, hi = xs.length - 1;
      while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (xs[mid] < x) lo = mid; else hi = mid; }
      var i = Math.abs(xs[lo] - x) <= Math.abs(xs[hi] - x) ? lo : hi;
      return v + " = " + num(xs[i]) + ": " + series.map(function (s) {
        return s.label + " " + (s.ys[i] === null ? "undefined" : num(s.ys[i]));
      }).join(", ");
    };
  }

  /* uPlot's own drag-to-select zoom is off: a drag pans, through plots.js, like every plot. */
  // uPlot keeps the options object it is given: a fresh one for each chart.
  function cursor() { return { drag: { x: false, y: false, setScale: false } }; }

  /* Calculus: f with its derivative (central differences) and the claimed right side, or f
     with the area between the bounds shaded. */
  Player.prototype.drawCalculus = function (p, spec, width) {
    var v = spec.var || "x", xs = [], n = 400, lo = -5, hi = 5;
    if (spec.kind === "area") {
      var pad = Math.max(1, (spec.upper - spec.lower) / 2);
      lo = spec.lower - pad; hi = spec.upper + pad;
    }
    if (p.range) { lo = p.range[0]; hi = p.range[1]; }
    for (var i = 0; i <= n; i++) xs.push(lo + (hi - lo) * i / n);
    var tree = spec.kind === "area" ? spec.integrand : spec.function;
    var f = function (x) { return evalTree(tree, x); };
    var series = [{ label: v }, { label: "f(" + v + ")", stroke: "#2f5fd0", width: 2 }];
    var data = [xs, xs.map(function (x) { return finite(f(x)); })];
    var opts = { width: width, height: 240, scales: { x: { time: false } }, axes: [{ label: v }, {}],
                 legend: { live: false }, cursor: cursor() };
    var traced = [{ label: "f(" + v + ")", ys: data[1] }];
    if (spec.kind === "derivative") {
      var h = 1e-4;
      series.push({ label: "f\u2032(" + v + "), computed", stroke: "#1d7a46", width: 2 });
      data.push(xs.map(function (x) { return finite((f(x + h) - f(x - h)) / (2 * h)); }));
      series.push({ label: "the step's right side", stroke: "#b36b00", width: 2, dash: [6, 4] });
      data.push(xs.map(function (x) { return finite(evalTree(spec.claimed, x)); }));
      traced.push({ label: "f\u2032(" + v + ")", ys: data[2] }, { label: "right side", ys: data[3] });
      p.cap.textContent = "The function, its derivative computed numerically, and the right " +
        "side the step claims: where the step is right, the last two curves coincide.";
    } else {
      series.push({ label: "area", stroke: "#7a4a00", width: 1, fill: "rgba(179,107,0,0.25)" });
      data.push(xs.map(function (x) {
        return x >= spec.lower && x <= spec.upper ? finite(f(x)) : null;
      }));
      series.push({ label: "y = 0", stroke: "#8a93a3", width: 1 });
      data.push(xs.map(function () { return 0; }));
      opts.bands = [{ series: [2, 3], fill: "rgba(179,107,0,0.25)" }];
      p.cap.textContent = "The integrand with the area from " + v + " = " + round(spec.lower) +
        " to " + round(spec.upper) + " shaded.";
    }
    opts.series = series;
    p.chart = new window.uPlot(opts, data, p.box);
    p.shown = { lo: lo, hi: hi, name: v, readout: seriesReadout(v, xs, traced) };
  };

  Player.prototype.drawPlot = function (p, spec, width) {
    var v = spec.var || "x";
    var f1, f2, label1, label2, marks, markLabel, lo = -10, hi = 10;
    if (spec.kind === "witness") {
      f1 = function (x) { return evalTree(spec.before, x); };
      f2 = function (x) { return evalTree(spec.after, x); };
      label1 = "state " + (spec.frame - 1) + ": left \u2212 right";
      label2 = "state " + spec.frame + ": left \u2212 right";
      lo = Math.min(lo, spec.witness - 5); hi = Math.max(hi, spec.witness + 5);
      marks = [spec.witness]; markLabel = "witness";
    } else {
      f1 = function (x) { return evalTree(spec.left, x); };
      f2 = function (x) { return evalTree(spec.right, x); };
      label1 = "left side"; label2 = "right side";
      var found = roots(function (x) { return f1(x) - f2(x); }, -50, 50, 2000);
      if (found.length) {
        lo = Math.min(lo, Math.min.apply(null, found) - 2);
        hi = Math.max(hi, Math.max.apply(null, found) + 2);
        if (hi - lo > 100) { lo = Math.max(lo, -50); hi = Math.min(hi, 50); }
      }
      marks = found;
    }
    if (p.range) {
      lo = p.range[0]; hi = p.range[1];
      if (spec.kind !== "witness") marks = roots(function (x) { return f1(x) - f2(x); }, lo, hi, 2000);
    }
    marks = marks.filter(function (x) { return x >= lo && x <= hi; });
    if (spec.kind !== "witness") markLabel = "roots";
    var xs = [], n = 400;
    for (var i = 0; i <= n; i++) xs.push(lo + (hi - lo) * i / n);
    marks.forEach(function (m) { xs.push(m); });
    xs.sort(function (a, b) { return a - b; });
    var markSet = new Set(marks);
    var y1 = xs.map(function (x) { return finite(f1(x)); });
    var y2 = xs.map(function (x) { return finite(f2(x)); });
    // A mark sits on the curve that holds there: the meeting point, or the state that is true.
    var ym = xs.map(function (x, k) {
      if (!markSet.has(x)) return null;
      if (spec.kind === "witness") return 0;
      return y1[k];
    });
    p.chart = new window.uPlot({
      width: width, height: 240,
      scales: { x: { time: false } },
      axes: [{ label: v }, {}],
      legend: { show: true, live: false },  // labels only: no "--" values before a hover
      cursor: cursor(),
      series: [
        { label: v },
        { label: label1, stroke: "#2f5fd0", width: 2 },
        { label: label2, stroke: "#b36b00", width: 2, dash: [6, 4] },
        { label: markLabel, stroke: spec.kind === "witness" ? "#b3261e" : "#1d2330",
          paths: function () { return null; },
          points: { show: true, size: 11, width: 2,
                    fill: spec.kind === "witness" ? "#b3261e" : "#1d2330" } }
      ]
    }, [xs, y1, y2, ym], p.box);
    p.shown = { lo: lo, hi: hi, name: v,
                readout: seriesReadout(v, xs, [{ label: label1, ys: y1 }, { label: label2, ys: y2 }]) };
    p.fig.setAttribute("data-marks", JSON.stringify(marks.map(round)));
    var words = marks.map(function (m) { return v + " = " + round(m); }).join(", ");
    if (spec.kind === "witness") {
      var before = f1(spec.witness), after = f2(spec.witness);
      p.cap.textContent = "Step " + spec.frame + ": at " + v + " = " + round(spec.witness) +
        " the previous state gives left \u2212 right = " + round(before) + " and the new one " +
        round(after) + ", so they do not have the same solutions.";
      p.fig.setAttribute("data-witness", String(round(spec.witness)));
    } else {
      p.cap.textContent = "Both sides of " + (spec.frame ? "state " + spec.frame : "the start") +
        " plotted against " + v + ": " +
        (marks.length ? "they meet at " + words + "." : "they do not meet in this range.");
    }
  };

  function highlight(frame, inserted) {
    var want = {};
    inserted.forEach(function (id) { want[String(id)] = true; });
    frame.querySelectorAll("[data-n]").forEach(function (n) {
      if (!want[n.getAttribute("data-n")]) return;
      // Only the outermost inserted element is marked, so nested ones do not double the tint.
      var p = n.parentElement;
      while (p && p !== frame) {
        if (p.hasAttribute("data-n") && want[p.getAttribute("data-n")]) return;
        p = p.parentElement;
      }
      n.classList.add("vs-changed");
    });
  }

  function renderInline(node, tex) {
    try {
      window.katex.render(String(tex), node, { throwOnError: false, strict: "ignore", trust: false });
    } catch (err) { node.textContent = String(tex); }
    node.setAttribute("aria-label", speakTex(tex));
  }

  function legend() {
    var box = el("details", "vs-legend");
    box.appendChild(el("summary", null, "What the grades mean"));
    var list = el("dl");
    TIER_ORDER.forEach(function (name) {
      var t = TIERS[name];
      var dt = el("dt");
      dt.setAttribute("data-tier", name);
      dt.appendChild(icon(name));
      dt.appendChild(document.createTextNode(" " + t.label + " (" + t.word + ")"));
      list.appendChild(dt);
      list.appendChild(el("dd", null, t.meaning));
    });
    box.appendChild(list);
    return box;
  }

  Player.prototype.explain = function (index) {
    var s = (this.payload.steps || [])[index - 1];
    if (!s) { this.reason.textContent = ""; return; }
    var t = tierOf(s.tier);
    this.reason.textContent = "";
    this.reason.setAttribute("data-tier", s.tier);
    this.reason.appendChild(icon(s.tier));
    this.reason.appendChild(document.createTextNode(" Step " + s.index + " \u00B7 " + t.label + " (" + stepWord(s) + "): "));
    appendProse(this.reason, s.reason || "");
    var wit = witnessText(s.witness);
    if (wit && (s.reason || "").indexOf(wit) < 0) this.reason.appendChild(document.createTextNode(" (witness: " + wit + ")"));
    this.reason.setAttribute("data-step", String(s.index));
  };

  Player.prototype.mark = function () {
    var k = this.k;
    this.badges.querySelectorAll(".vs-badge").forEach(function (b) {
      b.classList.toggle("vs-current", Number(b.getAttribute("data-step")) === k);
    });
    if (this.stepList) {
      this.stepList.querySelectorAll(".vs-step-item").forEach(function (item) {
        var on = Number(item.getAttribute("data-step")) === k;
        item.classList.toggle("vs-current", on);
        if (on) item.setAttribute("aria-current", "step"); else item.removeAttribute("aria-current");
      });
    }
    var s = (this.payload.steps || [])[k - 1];
    this.caption.textContent = "";
    appendProse(this.caption, s ? (s.operation || "step " + s.index) : "start");
    this.scrubber.value = String(k);
    this.root.setAttribute("data-frame", String(k));
    this.stage.setAttribute("aria-label", (k ? "state " + k : "start") + ": " + speakTex(this.frames[k]));
    this.explain(k);
    var self = this;
    (this.plotCharts || []).forEach(function (p) {
      if (p.spec.kind === "states" && p.box.clientWidth) { self.drawStatePlot(p, p.width || p.box.clientWidth); }
    });
  };

  /* Scale a state down (to half size at most) so it fits the stage; past that the stage scrolls
     sideways. Phones see every root instead of a cut-off line. A transition uses the smaller
     scale of its two states, so glyphs glide without changing size mid-way. */
  Player.prototype.fit = function (from, to) {
    var avail = this.wrap.clientWidth - 24;
    if (avail <= 0) return;
    if (!this.widths) {
      var probe = el("div", "vs-stage vs-probe");
      probe.setAttribute("aria-hidden", "true");
      this.wrap.appendChild(probe);
      this.widths = this.frames.map(function (tex) {
        var f = renderTex(tex);
        probe.appendChild(f);
        var w = probe.getBoundingClientRect().width;
        probe.removeChild(f);
        return w;
      });
      this.wrap.removeChild(probe);
    }
    from = from == null ? this.k : from;
    to = to == null ? from : to;
    var widest = Math.max(this.widths[from] || 0, this.widths[to] || 0);
    var scale = widest > avail ? Math.max(0.5, avail / widest) : 1;
    scale = Math.round(scale * 1000) / 1000;
    this.wrap.style.setProperty("--vs-scale", String(scale));
    this.root.setAttribute("data-scale", String(scale));
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
    k = Math.max(0, Math.min(this.frames.length - 1, k));
    this.clearTransition();
    this.k = k;
    this.fit(k);
    this.stage.innerHTML = "";
    this.stage.appendChild(renderTex(this.frames[k]));
    this.mark();
  };

  Player.prototype.back = function () {
    this.pause();
    // Mid-transition, "back" returns to the state the transition started from.
    var to = this.transition ? this.transition.from : this.k - 1;
    this.show(Math.max(0, to));
  };

  Player.prototype.toggle = function () { if (this.playing) this.pause(); else this.play(); };

  Player.prototype.scrubKey = function (ev) {
    var k = ev.key, last = this.frames.length - 1;
    var here = this.transition ? this.transition.from : this.k;
    var to = null;
    if (k === "ArrowLeft" || k === "ArrowDown") to = this.transition ? here : here - 1;
    else if (k === "ArrowRight" || k === "ArrowUp") to = here + 1;
    else if (k === "Home") to = 0;
    else if (k === "End") to = last;
    else if (k === "PageUp" || k === "PageDown") to = here + (k === "PageUp" ? 2 : -2);
    if (to === null) return;
    ev.preventDefault();
    this.pause();
    this.show(Math.max(0, Math.min(last, to)));
  };

  /* After a drag: a paused transition is finished or undone, whichever is nearer. */
  Player.prototype.settle = function () {
    var pos = parseFloat(this.scrubber.value);
    if (!isFinite(pos)) return;
    var i = Math.floor(pos), f = pos - i;
    if (f < 1e-6) return;
    this.show(f >= 0.5 ? i + 1 : i);
  };

  /* The keyboard: space plays or pauses, the arrows step; never while typing in a field. */
  function onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target, tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (t && t.isContentEditable)) return;
    var player = null;
    for (var i = players.length - 1; i >= 0; i--) {
      if (players[i].root.isConnected) { player = players[i]; break; }
    }
    if (!player) return;
    if (ev.key === " " || ev.key === "Spacebar") {
      if (tag === "button" || tag === "a" || tag === "summary") return;  // their own action
      ev.preventDefault(); player.toggle();
    } else if (ev.key === "ArrowRight") {
      ev.preventDefault(); player.pause(); player.step();
    } else if (ev.key === "ArrowLeft") {
      ev.preventDefault(); player.back();
    }
  }
  document.addEventListener("keydown", onKey);
  // A printed page carries the legend open.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll(".vs-legend").forEach(function (d) { d.open = true; });
  });

  Player.prototype.rel = function (node) {
    var r = node.getBoundingClientRect(), w = this.wrap.getBoundingClientRect();
    return { x: r.left - w.left, y: r.top - w.top, w: r.width, h: r.height };
  };

  /* Set up the transition k → k+1, paused at time 0; returns false at the last frame. */
  Player.prototype.prepare = function (k) {
    if (k + 1 >= this.frames.length) return false;
    if (this.k !== k || this.transition) this.show(k);
    this.fit(k, k + 1);  // before any box is measured
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
    this.playBtn.title = "pause (space)";
    this.playBtn.setAttribute("aria-label", "pause (space)");
    var loop = function () {
      if (!self.playing) return;
      var go = self.transition ? self.run() : self.step();
      Promise.resolve(go).then(function (moved) {
        if (!self.playing) return;
        if (moved === false || self.k >= self.frames.length - 1) { self.pause(); return; }
        // Reduced motion drops the gliding, not the time to read: the pause grows by the
        // length of the transition it replaces.
        var hold = PHASE.hold + (self.reduced ? PHASE.del + PHASE.move + PHASE.ins : 0);
        self.lastHold = hold / self.speed;
        setTimeout(loop, self.lastHold);
      });
    };
    loop();
  };

  Player.prototype.pause = function () {
    this.playing = false;
    this.playBtn.textContent = "\u25B6";
    this.playBtn.title = "play (space)";
    this.playBtn.setAttribute("aria-label", "play (space)");
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
