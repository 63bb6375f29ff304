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
          badge.textContent = step.tier;
          li.appendChild(badge);
        }
        var head = document.createElement("span");
        head.className = "ws-op";
        head.textContent = " " + (step.operation || "start") + ": ";
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
        hint.textContent = "Next: " + view.suggestion.operation + " — " + view.suggestion.justification;
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

  var TEMPLATES = {
    markdown: { text: "Some text with maths: $x^2 = 4$." },
    plot: { expr: "x^2 - 4", from: -3, to: 3 },
    workspace: { workspace: { start: "x^2 = 4", cursor: 0, positive: [], nodes: [{ id: 0, parent: null, latex: "x^2 = 4" }] } },
    exercise: { exercise: { state: "2x = 4", expected: "x = 2", operation: null, choices: [{ latex: "x = 2", correct: true }] } }
  };

  function composerPage() {
    var root = $("pg"), ident = root.dataset.ident || null, blocks = [];
    var err = $("pg-error");

    function draw() {
      var host = $("pg-blocks");
      host.innerHTML = "";
      blocks.forEach(function (block, i) {
        var box = document.createElement("div");
        box.className = "pg-block";
        box.dataset.kind = block.kind;
        var label = document.createElement("strong");
        label.textContent = block.kind + " ";
        box.appendChild(label);
        [["↑", -1], ["↓", 1]].forEach(function (pair) {
          var b = document.createElement("button");
          b.type = "button"; b.textContent = pair[0];
          b.setAttribute("aria-label", "move " + (pair[1] < 0 ? "up" : "down"));
          b.addEventListener("click", function () {
            var j = i + pair[1];
            if (j < 0 || j >= blocks.length) { return; }
            var t = blocks[i]; blocks[i] = blocks[j]; blocks[j] = t; draw();
          });
          box.appendChild(b);
        });
        var del = document.createElement("button");
        del.type = "button"; del.textContent = "delete";
        del.addEventListener("click", function () { blocks.splice(i, 1); draw(); });
        box.appendChild(del);
        var area = document.createElement("textarea");
        area.value = block.kind === "markdown" ? block.data.text : JSON.stringify(block.data, null, 1);
        area.setAttribute("aria-label", block.kind + " block " + (i + 1));
        area.addEventListener("change", function () {
          try {
            block.data = block.kind === "markdown" ? { text: area.value } : JSON.parse(area.value);
            showError(err, null);
          } catch (e) { showError(err, new Error("block " + (i + 1) + ": " + e.message)); }
        });
        box.appendChild(area);
        host.appendChild(box);
      });
    }

    root.querySelectorAll("[data-add]").forEach(function (b) {
      b.addEventListener("click", function () {
        var kind = b.getAttribute("data-add");
        blocks.push({ kind: kind, data: JSON.parse(JSON.stringify(TEMPLATES[kind])) });
        draw();
      });
    });
    $("pg-save").addEventListener("click", function () {
      var body = { title: $("pg-title").value, blocks: blocks };
      var call = ident ? post("/api/pages/" + ident, body, "PUT") : post("/api/pages", body);
      call.then(function (saved) {
        showError(err, null);
        if (!ident) { ident = saved.id; history.replaceState(null, "", "/pages/" + ident + "/edit"); }
        var status = $("pg-status");
        status.innerHTML = "";
        status.appendChild(document.createTextNode("saved version " + saved.version + " · "));
        var a = document.createElement("a");
        a.href = saved.url; a.textContent = "view the page";
        status.appendChild(a);
      }).catch(function (e) { showError(err, e); });
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
