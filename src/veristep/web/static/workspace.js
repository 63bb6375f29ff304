// The workspace pages: the conversational CAS, the page composer and the next-step game.
// All maths is graded on the server; this file only sends actions and shows what comes back.
(function () {
  "use strict";

  var KATEX = {
    throwOnError: false, strict: "ignore", displayMode: false,
    // \htmlData carries the node ids that make glyphs clickable; nothing else is trusted.
    trust: function (ctx) { return ctx.command === "\\htmlData"; }
  };

  function tex(el, source) {
    try { window.katex.render(source, el, KATEX); } catch (e) { el.textContent = source; }
  }

  // Prose with $…$ maths: text nodes for the words, KaTeX for each formula.
  function prose(el, text) {
    el.textContent = "";
    String(text).split(/\$([^$]+)\$/).forEach(function (part, i) {
      if (i % 2 === 0) { el.appendChild(document.createTextNode(part)); return; }
      var span = document.createElement("span");
      tex(span, part);
      el.appendChild(span);
    });
  }

  function post(url, body, method) {
    return fetch(url, {
      method: method || "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) { throw new Error(data.message || data.detail || ("HTTP " + r.status)); }
        return data;
      });
    });
  }

  function showError(el, err) {
    if (!el) { return; }
    if (err) { el.textContent = err.message || String(err); el.hidden = false; }
    else { el.textContent = ""; el.hidden = true; }
  }

  function $(id) { return document.getElementById(id); }

  // ---- workspace ---------------------------------------------------------------------------

  function workspacePage() {
    var ws = null, target = null, busy = false;
    var err = $("ws-error");

    function act(body) {
      if (busy) { return Promise.resolve(); }
      busy = true;
      body.workspace = ws;
      document.body.classList.add("ws-busy");
      return post("/api/workspace", body).then(function (view) {
        showError(err, null);
        render(view);
        return view;
      }).catch(function (e) { showError(err, e); }).finally(function () {
        busy = false;
        document.body.classList.remove("ws-busy");
      });
    }

    function render(view) {
      ws = view.workspace;
      var fig = $("ws-plot");  // "plot sin x": the function drawn beside its state
      fig.hidden = !view.plot;
      fig.innerHTML = view.plot || "";
      target = null;
      $("ws-selection").textContent = "no sub-term selected";
      var state = $("ws-state");
      tex(state, view.term);
      state.querySelectorAll("[data-n]").forEach(function (glyph) {
        glyph.addEventListener("click", function (ev) {
          ev.stopPropagation();
          state.querySelectorAll(".ws-picked").forEach(function (e) { e.classList.remove("ws-picked"); });
          glyph.classList.add("ws-picked");
          target = parseInt(glyph.getAttribute("data-n"), 10);
          $("ws-selection").textContent = "selected: " + glyph.textContent + " (say “expand this”)";
        });
      });
      var list = $("ws-steps");
      list.innerHTML = "";
      view.path.forEach(function (step, i) {
        var li = document.createElement("li");
        li.dataset.node = step.id;
        li.dataset.tier = step.tier || "start";
        if (i === view.path.length - 1) { li.classList.add("ws-current"); }
        if (step.tier) {
          var badge = document.createElement("span");
          badge.className = "ws-badge";
          if (window.veristepIcon) { badge.appendChild(window.veristepIcon(step.tier)); }
          badge.appendChild(document.createTextNode(" " + (BADGE_WORDS[step.tier] || step.tier)));
          li.appendChild(badge);
        }
        var head = document.createElement("span");
        head.className = "ws-op";
        prose(head, " " + (step.operation || "start") + ": ");  // planned lines carry $maths$
        var maths = document.createElement("span");
        tex(maths, step.latex);
        li.appendChild(head);
        li.appendChild(maths);
        (step.warnings || []).forEach(function (w) {
          var warn = document.createElement("div");
          warn.className = "ws-warn";
          prose(warn, "⚠ " + w);
          li.appendChild(warn);
        });
        if (step.tier && step.tier !== "grounded") {
          var why = document.createElement("div");
          why.className = "ws-reason";
          prose(why, step.reason);
          li.appendChild(why);
        }
        li.addEventListener("click", function () { act({ action: "goto", node: step.id }); });
        list.appendChild(li);
      });
      $("ws-undo").disabled = !view.can_undo;
      $("ws-redo").disabled = !view.can_redo;
      var hint = $("ws-suggestion");
      if (view.suggestion) {
        hint.hidden = false;
        prose(hint, "Next: " + view.suggestion.operation + " — " + view.suggestion.justification);
      } else { hint.hidden = true; }
    }

    $("ws-start").addEventListener("submit", function (ev) {
      ev.preventDefault();
      ws = null;
      act({ action: "start", start: $("ws-start-input").value });
    });
    $("ws-command").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var input = $("ws-command-input");
      var body = { action: "apply", command: input.value };
      if (target !== null) { body.target = target; }
      act(body).then(function (view) { if (view) { input.value = ""; } });
    });
    $("ws-undo").addEventListener("click", function () { act({ action: "undo" }); });
    $("ws-redo").addEventListener("click", function () { act({ action: "redo" }); });
    $("ws-next").addEventListener("click", function () { act({ action: "suggest" }); });
    $("ws-send").addEventListener("click", function () {
      if (!ws) { return; }
      post("/api/pages", { title: "Workspace: " + ws.start, blocks: [{ kind: "workspace", data: { workspace: ws } }] })
        .then(function (page) { window.location.href = page.url + "/edit"; })
        .catch(function (e) { showError(err, e); });
    });
    act({ action: "start", start: $("ws-start-input").value });
  }

  // ---- page composer -------------------------------------------------------------------------
  // A form per block kind: text with a live preview, a plot drawn as it is typed, a saved
  // derivation or workspace shown as maths, an exercise from two states. Nothing here grades:
  // the server grades the derivation, workspace and exercise blocks when the page is saved.

  var KIND_LABELS = {
    markdown: "Text", plot: "Plot", derivation: "Derivation", workspace: "Workspace", exercise: "Exercise"
  };
  var TEMPLATES = {
    markdown: { text: "Some text with maths: $x^2 = 4$." },
    plot: { expr: "x^2 - 4", from: -3, to: 3, var: "x" },
    exercise: { exercise: { state: "2x = 4", expected: "x = 2", operation: null, choices: [] } }
  };

  function debounce(fn, ms) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  function labelled(box, text, input) {
    var id = "pg-f-" + Math.random().toString(36).slice(2, 9);
    var label = document.createElement("label");
    label.htmlFor = id; label.textContent = text;
    input.id = id;
    box.appendChild(label); box.appendChild(input);
    return input;
  }

  function input(value, attrs) {
    var el = document.createElement("input");
    el.value = value === null || value === undefined ? "" : String(value);
    el.autocomplete = "off"; el.spellcheck = false;
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    return el;
  }

  // The small Markdown the pages render: # headings, - lists, paragraphs, $maths$.
  function previewMarkdown(el, text) {
    el.innerHTML = "";
    String(text).replace(/\r\n/g, "\n").split("\n\n").forEach(function (chunk) {
      var lines = chunk.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
      if (!lines.length) { return; }
      if (lines.every(function (l) { return /^[-*] /.test(l); })) {
        var ul = document.createElement("ul");
        lines.forEach(function (l) { var li = document.createElement("li"); prose(li, l.slice(2)); ul.appendChild(li); });
        el.appendChild(ul);
        return;
      }
      lines.forEach(function (l) {
        var h = /^(#{1,3}) (.+)/.exec(l);
        var node = document.createElement(h ? "h" + (h[1].length + 1) : "p");
        prose(node, h ? h[2] : l);
        el.appendChild(node);
      });
    });
  }

  function mathList(states) {
    var ol = document.createElement("ol");
    ol.className = "pg-states";
    states.forEach(function (st) {
      var li = document.createElement("li");
      if (st.op) { var op = document.createElement("span"); op.className = "pg-op"; op.textContent = st.op + " "; li.appendChild(op); }
      var m = document.createElement("span"); tex(m, st.latex); li.appendChild(m);
      ol.appendChild(li);
    });
    return ol;
  }

  var EDITORS = {
    markdown: function (block, box) {
      var area = document.createElement("textarea");
      area.value = block.data.text;
      labelled(box, "Text (Markdown; maths between $ signs)", area);
      var preview = document.createElement("div");
      preview.className = "pg-preview"; preview.setAttribute("aria-live", "polite");
      box.appendChild(preview);
      previewMarkdown(preview, area.value);
      area.addEventListener("input", function () { block.data.text = area.value; previewMarkdown(preview, area.value); });
    },
    plot: function (block, box) {
      var d = block.data;
      var expr = labelled(box, "Function of x (LaTeX or as you type it: sin x, x^2 - 4)", input(d.expr));
      var row = document.createElement("div"); row.className = "pg-row"; box.appendChild(row);
      var low = labelled(row, "from", input(d.from, { type: "number", step: "any" }));
      var high = labelled(row, "to", input(d.to, { type: "number", step: "any" }));
      var preview = document.createElement("div");
      preview.className = "pg-plot-preview"; preview.setAttribute("aria-live", "polite");
      box.appendChild(preview);
      var draw = debounce(function () {
        d.expr = expr.value; d.from = parseFloat(low.value); d.to = parseFloat(high.value);
        if (!expr.value.trim()) { preview.textContent = "type a function to plot"; return; }
        post("/api/pages/plot", { expr: d.expr, from: d.from, to: d.to, var: d.var || "x" })
          .then(function (r) {
            box.classList.toggle("pg-bad", !r.ok);
            if (r.ok) { preview.innerHTML = r.svg; } else { preview.textContent = r.message; }
          })
          .catch(function (e) { box.classList.add("pg-bad"); preview.textContent = e.message; });
      }, 350);
      [expr, low, high].forEach(function (el) { el.addEventListener("input", draw); });
      draw();
    },
    derivation: function (block, box) {
      var d = block.data.derivation, steps = d.steps || [];
      box.appendChild(mathList((d.states || []).map(function (st, i) {
        return { latex: typeof st === "string" ? st : st.latex, op: i ? (steps[i - 1] || {}).operation : "start" };
      })));
      var note = document.createElement("p"); note.className = "hint";
      note.textContent = "Every step is graded again by the server when the page is saved.";
      box.appendChild(note);
    },
    workspace: function (block, box) {
      var ws = block.data.workspace, byId = {}, path = [], at = ws.cursor;
      (ws.nodes || []).forEach(function (n) { byId[n.id] = n; });
      while (at !== null && at !== undefined && byId[at] && path.length < 200) { path.unshift(byId[at]); at = byId[at].parent; }
      box.appendChild(mathList(path.map(function (n) { return { latex: n.latex, op: n.operation || "start" }; })));
      var note = document.createElement("p"); note.className = "hint";
      note.textContent = "The current path of the workspace; the server grades every step when the page is saved.";
      box.appendChild(note);
    },
    exercise: function (block, box) {
      var ex = block.data.exercise;
      var from = labelled(box, "From", input(ex.state));
      var fromShown = document.createElement("div"); fromShown.className = "pg-math"; box.appendChild(fromShown);
      var next = labelled(box, "Expected next step", input(ex.expected));
      var nextShown = document.createElement("div"); nextShown.className = "pg-math"; box.appendChild(nextShown);
      var note = document.createElement("p"); note.className = "hint";
      note.textContent = "The choices are made and graded by the server when the page is saved.";
      box.appendChild(note);
      function sync() {
        ex.state = from.value; ex.expected = next.value; ex.choices = [];
        tex(fromShown, ex.state); tex(nextShown, ex.expected);
      }
      from.addEventListener("input", sync); next.addEventListener("input", sync);
      sync();
    }
  };

  // The badge words of the player (a shape and a word a learner reads right, never a digit).
  var BADGE_WORDS = {
    grounded: "proved", verified: "checked", plausible: "not proved", unchecked: "not checked",
    refuted: "wrong"
  };

  function composerPage() {
    var root = $("pg"), ident = root.dataset.ident || null, blocks = [];
    var err = $("pg-error");

    function draw() {
      var host = $("pg-blocks");
      host.innerHTML = "";
      blocks.forEach(function (block, i) {
        var box = document.createElement("section");
        box.className = "pg-block";
        box.dataset.kind = block.kind;
        box.setAttribute("aria-label", KIND_LABELS[block.kind] + " block " + (i + 1));
        var head = document.createElement("div");
        head.className = "pg-head";
        var label = document.createElement("strong");
        label.textContent = (i + 1) + ". " + KIND_LABELS[block.kind] + " ";
        head.appendChild(label);
        [["\u2191", -1, "move up"], ["\u2193", 1, "move down"]].forEach(function (m) {
          var b = document.createElement("button");
          b.type = "button"; b.textContent = m[0];
          b.setAttribute("aria-label", m[2]);
          b.addEventListener("click", function () {
            var j = i + m[1];
            if (j < 0 || j >= blocks.length) { return; }
            var t = blocks[i]; blocks[i] = blocks[j]; blocks[j] = t; draw();
          });
          head.appendChild(b);
        });
        var del = document.createElement("button");
        del.type = "button"; del.textContent = "delete";
        del.setAttribute("aria-label", "delete block " + (i + 1));
        del.addEventListener("click", function () { blocks.splice(i, 1); draw(); });
        head.appendChild(del);
        box.appendChild(head);
        (EDITORS[block.kind] || function () {})(block, box);
        host.appendChild(box);
      });
    }

    function add(block) { blocks.push(block); draw(); }

    root.querySelectorAll("[data-add]").forEach(function (b) {
      b.addEventListener("click", function () {
        var kind = b.getAttribute("data-add");
        add({ kind: kind, data: JSON.parse(JSON.stringify(TEMPLATES[kind])) });
      });
    });
    // A saved derivation from the gallery, picked by its title.
    var pick = $("pg-derivation");
    fetch("/api/derivations?limit=100").then(function (r) { return r.json(); }).then(function (data) {
      (data.derivations || []).forEach(function (d) {
        var o = document.createElement("option");
        o.value = d.id; o.textContent = d.title;
        pick.appendChild(o);
      });
    });
    $("pg-add-derivation").addEventListener("click", function () {
      if (!pick.value) { showError(err, new Error("pick a saved derivation first")); return; }
      fetch("/api/derivations/" + encodeURIComponent(pick.value)).then(function (r) { return r.json(); })
        .then(function (d) { showError(err, null); add({ kind: "derivation", data: { derivation: d.derivation } }); })
        .catch(function (e) { showError(err, e); });
    });

    // A refused save names its blocks (blocks.N.data…): those blocks are marked.
    function markBad(message) {
      var bad = {};
      String(message).replace(/blocks\.(\d+)\./g, function (_, n) { bad[n] = true; return _; });
      $("pg-blocks").querySelectorAll(".pg-block").forEach(function (box, i) { box.classList.toggle("pg-bad", !!bad[i]); });
    }

    $("pg-save").addEventListener("click", function () {
      var body = { title: $("pg-title").value, blocks: blocks };
      var status = $("pg-status");
      status.textContent = "saving and grading\u2026";
      var call = ident ? post("/api/pages/" + ident, body, "PUT") : post("/api/pages", body);
      call.then(function (saved) {
        showError(err, null);
        markBad("");
        if (!ident) { ident = saved.id; history.replaceState(null, "", "/pages/" + ident + "/edit"); }
        status.innerHTML = "";
        status.appendChild(document.createTextNode("saved version " + saved.version + " \u00B7 "));
        var a = document.createElement("a");
        a.href = saved.url; a.textContent = "view the page";
        status.appendChild(a);
      }).catch(function (e) { status.textContent = ""; markBad(e.message); showError(err, e); });
    });
    if (ident) {
      fetch("/api/pages/" + ident).then(function (r) { return r.json(); }).then(function (data) {
        $("pg-title").value = data.page.title;
        blocks = data.page.blocks;
        draw();
      });
    } else { draw(); }
  }

  // ---- next-step game ------------------------------------------------------------------------

  function playPage() {
    var exercise = null, key = "veristep-play-score";
    var score = JSON.parse(localStorage.getItem(key) || '{"points":0,"streak":0}');
    var err = $("pl-error");

    // Each exercise counts once: its first right answer scores, its first miss breaks the
    // streak; answering again (or an answer that could not be read) changes nothing.
    function record(right) {
      if (!exercise || exercise._scored) { return; }
      if (right) {
        exercise._scored = true;
        score.streak += 1;
        score.points += 1 + Math.min(score.streak, 5);
      } else if (!exercise._missed) {
        exercise._missed = true;
        score.streak = 0;
      }
      localStorage.setItem(key, JSON.stringify(score));
      $("pl-points").textContent = score.points;
      $("pl-streak").textContent = score.streak;
    }

    var onRight = null;  // set in a saved derivation: play the step's morph once it is guessed
    var WORDS = {
      "right": "Right", "right-but-different": "Right, written differently", "wrong": "Not this one",
      "incomplete": "Incomplete", "undecided": "Not decided", "unreadable": "Could not read that"
    };

    function feedback(outcome, reason) {
      var p = $("pl-feedback");
      var right = outcome === "right" || outcome === "right-but-different";
      p.className = right ? "pl-right" : "pl-wrong";
      p.textContent = (WORDS[outcome] || outcome) + (reason ? ": " + reason : "");
      if (outcome === "unreadable" || outcome === "undecided") {
        p.className = "pl-again";
        p.textContent += " \u2014 try again; nothing was scored.";
        return;
      }
      var first = exercise && !exercise._scored;
      record(right);
      if (right && first && onRight) { onRight(); }
    }

    // Predict, then reveal: the player waits on the step's first state; a right guess plays
    // the transition to the next one.
    function reveal(player, step) {
      var began = null, duration = 1200;
      function frame(now) {
        began = began === null ? now : began;
        var t = Math.min(1, (now - began) / duration);
        player.seek(step - 1 + t);
        if (t < 1) { window.requestAnimationFrame(frame); } else { player.show(step); }
      }
      window.requestAnimationFrame(frame);
    }

    function witnessText(choice) {
      var w = choice.witness;
      if (w === null || w === undefined || (Array.isArray(w) && !w.length)) { return ""; }
      return " (try " + (Array.isArray(w) ? w.join(", ") : String(w)) + ")";
    }

    function show(ex) {
      exercise = ex;
      $("pl-ex").hidden = false;
      $("pl-ex").dataset.step = ex.step || "";
      tex($("pl-state"), ex.state);
      var list = $("pl-choices");
      list.innerHTML = "";
      ex.choices.forEach(function (choice) {
        var li = document.createElement("li");
        var b = document.createElement("button");
        b.type = "button";
        tex(b, choice.latex);
        b.addEventListener("click", function () {
          if (choice.correct) {
            b.classList.add("pl-chosen-right");
            b.setAttribute("aria-describedby", "pl-feedback");
            feedback("right", "this is the next step");
            return;
          }
          // A wrong option stays marked, with the reason and a value to substitute.
          b.classList.add("pl-chosen-wrong");
          b.setAttribute("aria-disabled", "true");
          var why = document.createElement("span");
          why.className = "pl-why";
          why.textContent = (choice.reason || "this does not follow") + witnessText(choice);
          if (!li.querySelector(".pl-why")) { li.appendChild(why); }
          feedback(choice.tier === "plausible" ? "incomplete" : "wrong", choice.reason);
        });
        li.appendChild(b);
        list.appendChild(li);
      });
      $("pl-feedback").textContent = "";
      $("pl-answer").value = "";
    }

    $("pl-points").textContent = score.points;
    $("pl-streak").textContent = score.streak;
    // /play?d=ID: a saved derivation as a sequence of exercises (a teacher's exercise page).
    // The steps are listed at once; each exercise is built when it is needed (the next one is
    // built while the current one is played) and the server keeps them for the next learner.
    var saved = new URLSearchParams(window.location.search).get("d");
    if (saved) {
      var base = "/api/derivations/" + encodeURIComponent(saved);
      var getJSON = function (url) {
        return fetch(url).then(function (r) {
          return r.json().then(function (d) { if (!r.ok) { throw new Error(d.message); } return d; });
        });
      };
      $("pl-new").hidden = true;
      var status = $("pl-progress");
      status.textContent = "finding the steps to practise\u2026";
      getJSON(base + "/exercise-steps").then(function (listing) {
        var steps = listing.steps, at = 0, next = $("pl-next-ex"), player = null, built = {};
        if (!steps.length) { throw new Error("this derivation has no step to practise"); }
        function build(i) {
          if (!built[i]) { built[i] = getJSON(base + "/exercises/" + steps[i]).then(function (d) { return d.exercise; }); }
          return built[i];
        }
        getJSON(base).then(function (d) {
          var mount = $("pl-player");
          mount.hidden = false;
          mount.classList.add("pl-predict");
          player = window.veristepMount(mount, d.payload);
          player.pause();
          player.show(steps[at] - 1);
        });
        function go() {
          var i = at;
          next.hidden = true;
          $("pl-ex").hidden = true;
          status.textContent = "building exercise " + (i + 1) + " of " + steps.length + "\u2026";
          build(i).then(function (ex) {
            if (i !== at) { return; }
            status.textContent = "exercise " + (i + 1) + " of " + steps.length;
            next.hidden = i + 1 >= steps.length;
            show(ex);
            if (player) { player.pause(); player.show(steps[i] - 1); }
            onRight = function () { if (player) { reveal(player, steps[i]); } };
            if (i + 1 < steps.length) { build(i + 1); }  // ready by the time it is wanted
          }).catch(function (e) { showError(err, e); });
        }
        next.addEventListener("click", function () { at += 1; go(); });
        go();
      }).catch(function (e) { status.textContent = ""; showError(err, e); });
    }
    // /play?p=PAGE&b=BLOCK: an exercise block of a page, as the server built it at save.
    var params = new URLSearchParams(window.location.search);
    if (params.get("p") !== null && params.get("b") !== null) {
      $("pl-new").hidden = true;
      fetch("/api/pages/" + encodeURIComponent(params.get("p")) + "/exercises/" + encodeURIComponent(params.get("b")))
        .then(function (r) { return r.json().then(function (d) { if (!r.ok) { throw new Error(d.message); } return d; }); })
        .then(function (d) {
          var back = $("pl-progress");
          back.textContent = "";
          var a = document.createElement("a");
          a.href = "/pages/" + encodeURIComponent(params.get("p"));
          a.textContent = "\u2190 back to \u201C" + d.title + "\u201D";
          back.appendChild(a);
          show(d.exercise);
        })
        .catch(function (e) { showError(err, e); });
    }
    // /play: the teacher's form makes one exercise; once made, the form (which holds the
    // expected step) is put away until another exercise is wanted.
    $("pl-new").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var button = $("pl-new").querySelector("button[type=submit]");
      button.disabled = true;
      $("pl-progress").textContent = "building the exercise\u2026";
      post("/api/exercise", { prev: $("pl-prev").value, next: $("pl-next").value })
        .then(function (data) {
          showError(err, null);
          $("pl-new").hidden = true;
          $("pl-another").hidden = false;
          $("pl-progress").textContent = "";
          show(data.exercise);
        })
        .catch(function (e) { $("pl-progress").textContent = ""; showError(err, e); })
        .then(function () { button.disabled = false; });
    });
    $("pl-another").addEventListener("click", function () {
      $("pl-new").hidden = false;
      $("pl-ex").hidden = true;
      $("pl-another").hidden = true;
      $("pl-prev").focus();
    });
    $("pl-type").addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!exercise) { return; }
      post("/api/exercise/answer", { exercise: exercise, answer: $("pl-answer").value })
        .then(function (fb) {
          showError(err, null);
          var why = fb.reason + (fb.outcome === "wrong" && fb.witness !== null && fb.witness !== undefined
            ? witnessText(fb) : "");
          feedback(fb.outcome, why);
        })
        .catch(function (e) { showError(err, e); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if ($("ws-state")) { workspacePage(); }
    if ($("pg")) { composerPage(); }
    if ($("pl-new")) { playPage(); }
  });
})();
