/* Page scripts of the veristep web app: forms that talk to the JSON API. */
(function () {
  "use strict";
  var MAX_LATEX = 20000;  // the API's limit per formula
  function $(sel) { return document.querySelector(sel); }
  /* A list item; with a tier it starts with the tier's icon (the player's SVG, font-independent)
     and the tier's name in words. */
  function li(text, tier) {
    var item = document.createElement("li");
    if (tier) {
      item.setAttribute("data-tier", tier);
      item.appendChild(window.veristepIcon(tier));
      text = " " + text;
    }
    // Operations, reasons and answers may carry $…$ math: the player's prose renderer typesets it
    // and keeps every other character as text.
    window.veristepProse(item, text);
    return item;
  }

  function mountResult(section, answer) {
    section.hidden = false;
    section.innerHTML = "";
    var p = document.createElement("p");
    if (answer.url) {
      var a = document.createElement("a");
      a.href = answer.url; a.textContent = "open the saved page"; a.id = "saved-link";
      p.appendChild(a);
    } else if (answer.not_saved) {
      p.id = "not-saved";
      p.className = "muted";
      p.textContent = "Not saved to the gallery: " + answer.not_saved + ".";
    }
    if (p.childNodes.length) section.appendChild(p);
    var mount = document.createElement("div");
    section.appendChild(mount);
    window.veristepMount(mount, answer.payload);
  }

  function stepLine(step) {
    return "step " + step.index + " (" + step.tier + ")" +
      (step.operation ? ": " + step.operation : "") + (step.reason ? " \u2014 " + step.reason : "");
  }

  /* A progress bar: `value` of `max` steps judged. */
  function setBar(bar, value, max) {
    bar.max = Math.max(max, 1); bar.value = value;
    bar.textContent = value + "/" + max;
  }

  /* The list item of attempt n (created when its first step arrives), with a growing step list. */
  function attemptItem(list, n) {
    var item = list.querySelector('li[data-attempt="' + n + '"]');
    if (!item) {
      item = document.createElement("li");
      item.setAttribute("data-attempt", n);
      var head = document.createElement("span");
      head.className = "attempt-head";
      head.textContent = "attempt " + n + ": grading\u2026";
      item.appendChild(head);
      item.appendChild(document.createElement("ol"));
      list.appendChild(item);
    }
    return item;
  }

  function stepItem(step, suffix) {
    var item = li(stepLine(step) + (suffix || ""), step.tier);
    item.setAttribute("data-step", step.index);
    return item;
  }

  /* Field errors: shown under the field they concern, in red, with the caret line kept. */
  function showError(id, message) {
    var box = document.getElementById(id);
    if (!box) return;
    box.hidden = !message;
    box.textContent = message || "";
    var input = document.getElementById(id.replace(/-error$/, ""));
    if (input) {
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }

  /* Which field a located error from the API is about ("START: …", "TARGET: …"). */
  function errorField(message, fallback) {
    var m = /^\s*(?:body\.)?(START|TARGET|STATE|states?)\b/i.exec(message || "");
    if (!m) return fallback;
    var w = m[1].toLowerCase();
    return w === "start" ? "start" : w === "target" ? "target" : fallback;
  }

  function tooLong(name, value) {
    return value.length > MAX_LATEX
      ? name + " is " + value.length.toLocaleString("en") + " characters long; the limit is " +
        MAX_LATEX.toLocaleString("en") + "."
      : "";
  }

  /* What the server reads a line as (POST /api/parse), cached: the preview shows *that*, so a
     line typed as plain maths is never misread silently. Resolves to {ok, latex} or a located
     error; null when the server could not be asked (the preview then typesets the text as is). */
  var readCache = {};
  function readBack(text) {
    if (readCache[text]) return readCache[text];
    var p = post("/api/parse", { text: text }).then(function (res) {
      if (res.ok) return res.body;
      delete readCache[text];
      return null;
    });
    readCache[text] = p;
    return p;
  }

  /* Typeset what the server read into `box`, or say what it could not read and where; nothing
     is drawn when `current` says the text was typed over while the server was asked (a slow
     answer must not overwrite a newer one). */
  function showRead(box, text, current) {
    return readBack(text).then(function (read) {
      if (current && !current()) return;
      box.textContent = "";
      box.removeAttribute("data-bad");
      if (read && !read.ok) {
        var col = read.position != null ? " (column " + (read.position + 1) + ")" : "";
        box.textContent = "not read: " + read.message + col + (read.hint ? "; did you mean " + read.hint + "?" : "");
        box.setAttribute("data-bad", "1");
        return;
      }
      var tex = read ? read.latex : text;
      box.setAttribute("data-read", tex);
      try {
        window.katex.render(tex, box, { throwOnError: true, strict: "ignore", trust: false });
      } catch (err) {
        box.textContent = text;
      }
    });
  }

  /* Live preview of what is typed, below the field, as the server reads it. */
  function preview(input) {
    var box = document.getElementById(input.getAttribute("data-preview"));
    if (!box) return;
    var timer = null;
    function draw() {
      var text = input.value;
      if (!text.trim() || text.length > 2000 || !window.katex) { box.textContent = ""; return; }
      showRead(box, text, function () { return input.value === text; });
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(draw, 250); });
    draw();
  }

  function linesPreview(textarea) {
    var box = document.getElementById("states-preview");
    if (!box) return;
    var timer = null;
    function draw() {
      box.textContent = "";
      textarea.value.split("\n").slice(0, 60).forEach(function (line) {
        if (!line.trim() || line.length > 2000) return;
        var item = document.createElement("li");
        box.appendChild(item);
        showRead(item, line.trim());
      });
    }
    textarea.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(draw, 250); });
    draw();
  }

  function deriveForm(form) {
    var submit = $("#derive-submit"), cancel = $("#derive-cancel");
    var running = null;  // {controller, token}: the one derive whose events may touch the page
    var token = 0;

    function finish(state) {
      // Aborting the fetch closes the old stream: the server stops sending to it.
      if (running) running.controller.abort();
      running = null;
      submit.disabled = false;
      submit.textContent = "Derive";
      cancel.hidden = true;
      form.removeAttribute("aria-busy");
      if (state) document.body.setAttribute("data-derive", state);
    }

    cancel.addEventListener("click", function () {
      if (!running) return;
      finish("cancelled");
      $("#progress-status").textContent = "cancelled";
    });

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var data = new FormData(form);
      var start = String(data.get("start") || ""), target = String(data.get("target") || "");
      showError("start-error", ""); showError("target-error", ""); showError("derive-error", "");
      var problem = false;
      // An empty target is a goal-only task: the planner solves (or simplifies) and says the answer.
      [["start", "Start", start, true], ["target", "Target", target, false]].forEach(function (f) {
        var msg = f[3] && !f[2].trim() ? f[1] + " is empty." : tooLong(f[1], f[2]);
        if (msg) { showError(f[0] + "-error", msg); problem = true; }
      });
      if (problem) { document.body.setAttribute("data-derive", "invalid"); return; }
      // A newer derive replaces the one on its way: its stream is closed and its events dropped.
      if (running) finish(null);
      var mine = ++token, controller = new AbortController();
      running = { controller: controller, token: mine };
      var list = $("#progress-steps"), status = $("#progress-status"), bar = $("#progress-bar");
      $("#progress").hidden = false; list.innerHTML = ""; status.textContent = "deriving\u2026";
      setBar(bar, 0, 1);
      $("#result").hidden = true; $("#result").innerHTML = "";
      document.body.setAttribute("data-derive", "running");
      document.body.setAttribute("data-derive-token", String(mine));
      submit.disabled = true; submit.textContent = "Deriving\u2026";
      cancel.hidden = false;
      form.setAttribute("aria-busy", "true");
      function live() { return running && running.token === mine && !controller.signal.aborted; }
      var handlers = {
        step: function (step) {
          attemptItem(list, step.attempt).querySelector("ol").appendChild(stepItem(step));
          setBar(bar, step.index, step.total);
          status.textContent = "attempt " + step.attempt + ": graded step " + step.index +
            " of " + step.total + " (" + step.tier + ")";
        },
        attempt: function (ev) {
          var item = attemptItem(list, ev.attempt), head = item.querySelector(".attempt-head");
          var inner = item.querySelector("ol");
          // The verdict's steps replace the live lines: they are final and also carry each
          // step's operation, which the live grounding events do not know.
          inner.innerHTML = "";
          ev.steps.forEach(function (step) { inner.appendChild(stepItem(step)); });
          item.setAttribute("data-tier", ev.tier);
          head.textContent = " attempt " + ev.attempt + ": " + ev.summary;
          head.insertBefore(window.veristepIcon(ev.tier), head.firstChild);
          status.textContent = "attempt " + ev.attempt + " graded: " + ev.summary;
        },
        done: function (answer) {
          status.textContent = answer.derivation.confidence.summary;
          statedAnswer(answer.derivation);
          mountResult($("#result"), answer);
          finish("done");
          // The answer lands below the progress list: bring it into view (no jump for people
          // who asked for reduced motion).
          var calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          var top = $("#derive-answer").hidden ? $("#result") : $("#derive-answer");
          if (top.scrollIntoView) top.scrollIntoView({ behavior: calm ? "auto" : "smooth", block: "start" });
        },
        error: function (ev) {
          var msg = (ev && ev.message) || "the derive failed";
          status.textContent = "error: " + msg.split("\n")[0];
          showError(errorField(msg, "derive") + "-error", msg);
          finish("error");
        }
      };
      var body = { start: start, proposer: String(data.get("proposer")) };
      if (target.trim()) body.target = target;  // omitted: the API derives to the goal's answer
      $("#derive-answer").hidden = true;
      postStream("/api/derive/stream", body,
                 controller.signal, function (name, ev) {
        if (live() && handlers[name]) handlers[name](ev);
      }).then(function () {
        if (live()) handlers.error({ message: "the server closed the stream before the answer" });
      }).catch(function (err) {
        if (err.name === "AbortError" || !live()) return;
        handlers.error({ message: "the connection to the server was lost; is it still running?" });
      });
    });
  }

  /* The answer in a sentence: the one a goal-only task states, or the correction of a wrong
     target ("x = 12 does not solve it: … the solution is x = 11"). */
  function statedAnswer(d) {
    var box = $("#derive-answer");
    if (!box) return;
    var said = (d.answer && d.answer.sentence) || (d.endpoint && d.endpoint.correction) || "";
    box.textContent = "";
    box.hidden = !said;
    if (!said) return;
    box.setAttribute("data-stated", d.answer && d.answer.stated ? "1" : "0");
    window.veristepProse(box, said);
  }

  /* POST `body` and hand each server-sent event to `onEvent` as it arrives; an error answer
     (validation, too large) becomes an `error` event. Resolves when the stream ends. */
  function postStream(url, body, signal, onEvent) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                        body: JSON.stringify(body), signal: signal })
      .then(function (r) {
        if (!r.ok) return r.json().then(function (j) { onEvent("error", j); },
                                        function () { onEvent("error", {}); });
        var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = "";
        function frame(text) {
          var name = "message", data = "";
          text.split("\n").forEach(function (line) {
            if (line.indexOf("event: ") === 0) name = line.slice(7);
            else if (line.indexOf("data: ") === 0) data += line.slice(6);
          });
          if (data) onEvent(name, JSON.parse(data));
        }
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) return;
            buffer += decoder.decode(chunk.value, { stream: true });
            var cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              frame(buffer.slice(0, cut));
              buffer = buffer.slice(cut + 2);
            }
            return pump();
          });
        }
        return pump();
      });
  }

  // One reader of server-sent events for every page (the research pages use it too).
  window.veristepPostStream = postStream;

  function post(url, body, method) {
    return fetch(url, { method: method || "POST", headers: { "content-type": "application/json" },
                        body: body == null ? undefined : JSON.stringify(body) })
      .then(function (r) {
        return r.json().then(function (j) { return { ok: r.ok, status: r.status, body: j }; },
                             function () { return { ok: r.ok, status: r.status, body: {} }; });
      })
      .catch(function () {
        return { ok: false, status: 0, body: { message: "the connection to the server failed" } };
      });
  }

  function checkLines(form) {
    var data = new FormData(form);
    return {
      states: String(data.get("states")).split("\n").map(function (s) { return s.trim(); })
        .filter(function (s) { return s.length > 0; }),
      target: String(data.get("target") || "").trim()
    };
  }

  /* The learner's word for a step: a shape and a word nobody reads as a number or a grade. */
  function learnerWord(step) {
    if (step.tier === "refuted") return "wrong";
    if (step.tier === "unchecked") return "not read";
    if (step.relation === "narrows" && step.tier === "plausible") return "incomplete";
    if (step.tier === "plausible") return "not sure";
    return "right";
  }
  var LEARNER_MARK = { right: "\u2713", wrong: "\u2717", incomplete: "!", "not sure": "?", "not read": "\u25CB" };

  /* One checked step in the chosen view: the learner's plain sentence (and the likely slip), or
     the teacher's tier, check, reason and witness. */
  function checkedItem(step, line, view, slip) {
    var item;
    if (view === "teacher") {
      var wit = step.witness != null ? "  (witness: " + JSON.stringify(step.witness) + ")" : "";
      item = li(stepLine(step) + (step.check ? " [check: " + step.check + "]" : "") + wit +
                "  [" + line + "]", step.tier);
    } else {
      var word = learnerWord(step);
      item = document.createElement("li");
      item.setAttribute("data-tier", step.tier);
      item.setAttribute("data-word", word);
      var mark = document.createElement("span");
      mark.className = "learner-mark";
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", word);
      mark.textContent = LEARNER_MARK[word];
      item.appendChild(mark);
      var text = document.createElement("span");
      text.className = "learner-text";
      text.textContent = " Line " + (step.index + 1) + " (" + word + "): " + (step.learner || "");
      item.appendChild(text);
      if (slip) {
        var why = document.createElement("span");
        why.className = "learner-slip";
        why.textContent = " Likely slip: " + slip.sentence + ".";
        item.appendChild(why);
      }
    }
    item.setAttribute("data-step", step.index);
    item.setAttribute("data-view", view);
    return item;
  }

  function checkForm(form) {
    // Graded as the learner goes: a pause in typing re-checks the lines written so far.
    var timer = null, saveBtn = $("#check-save"), last = null;
    var shown = { steps: [], lines: [], doc: null, slips: {} };  // what the list shows, per view
    function view() {
      var checked = form.querySelector("input[name=view]:checked");
      return checked ? checked.value : "learner";
    }
    function render() {
      var out = $("#check-results"), summary = $("#check-summary"), v = view();
      out.innerHTML = "";
      out.setAttribute("data-view", v);
      shown.steps.forEach(function (step) {
        out.appendChild(checkedItem(step, shown.lines[step.index] || "", v, shown.slips[step.index]));
      });
      var conf = shown.doc && shown.doc.confidence;
      if (!conf) return;
      summary.setAttribute("data-tier", conf.tier);
      summary.textContent = v === "teacher" ? conf.tier + ": " + conf.summary
                                            : (conf.learner_summary || "");
    }
    form.querySelectorAll("input[name=view]").forEach(function (r) {
      r.addEventListener("change", function () {
        render();
        document.body.setAttribute("data-check-view", view());
      });
    });
    /* Name the slip of each wrong or incomplete line (POST /api/slip), for the learner view. */
    function nameSlips(doc, lines) {
      doc.steps.forEach(function (step) {
        var wrong = step.tier === "refuted" || (step.relation === "narrows" && step.tier === "plausible");
        if (!wrong || step.index > 5) return;
        post("/api/slip", { previous: lines[step.index - 1], next: lines[step.index] }).then(function (res) {
          if (shown.doc !== doc || !res.ok || !res.body.slip) return;
          shown.slips[step.index] = res.body.slip;
          render();
        });
      });
    }
    form.querySelector("textarea").addEventListener("input", function () {
      clearTimeout(timer);
      saveBtn.disabled = true;
      resetHints();
      timer = setTimeout(function () { form.requestSubmit(); }, 700);
    });
    saveBtn.addEventListener("click", function () {
      var input = last || checkLines(form);
      saveBtn.disabled = true;
      post("/api/check", { states: input.states, target: input.target || null, save: true })
        .then(function (res) {
          if (!res.ok) { showError("states-error", res.body.message || "could not save"); return; }
          mountResult($("#check-result"), res.body);
          document.body.setAttribute("data-check-saved", res.body.id || "");
        });
    });
    /* The hint ladder for the last line: each press shows one more rung (a nudge, the move, the
       line); typing starts it again. */
    var hints = { line: null, rungs: null, shown: 0 };
    function resetHints() {
      hints = { line: null, rungs: null, shown: 0 };
      var list = $("#hint-list");
      if (list) list.innerHTML = "";
      var b = $("#check-hint");
      if (b) { b.disabled = false; b.textContent = "Hint"; }
    }
    var hintBtn = $("#check-hint");
    if (hintBtn) hintBtn.addEventListener("click", function () {
      var lines = checkLines(form).states;
      if (!lines.length) return;
      var line = lines[lines.length - 1];
      function reveal() {
        var list = $("#hint-list");
        if (!hints.rungs) {
          list.innerHTML = "";
          var none = document.createElement("li");
          none.textContent = "No hint here: the last line looks finished, or it could not be read.";
          list.appendChild(none);
          hintBtn.disabled = true;
          return;
        }
        var rung = hints.rungs[hints.shown++];
        var item = document.createElement("li");
        item.setAttribute("data-rung", rung.rung);
        item.textContent = rung.text;
        list.appendChild(item);
        if (hints.shown >= hints.rungs.length) { hintBtn.disabled = true; hintBtn.textContent = "No more hints"; }
        else hintBtn.textContent = "Another hint";
        document.body.setAttribute("data-hints", String(hints.shown));
      }
      if (hints.line === line) { reveal(); return; }
      hintBtn.disabled = true;
      post("/api/hint", { state: line }).then(function (res) {
        hintBtn.disabled = false;
        hints = { line: line, rungs: res.ok ? res.body.hints : null, shown: 0 };
        reveal();
      });
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      var input = checkLines(form);
      var summary = $("#check-summary"), bar = $("#check-bar");
      showError("states-error", ""); showError("target-error", "");
      if (input.states.length < 1) { showError("states-error", "Type at least one state."); return; }
      var long = input.states.filter(function (s) { return s.length > MAX_LATEX; });
      if (long.length) { showError("states-error", tooLong("A line", long[0])); return; }
      if (form.running) form.running.abort();  // a newer check replaces the one on its way
      var controller = (form.running = new AbortController());
      summary.textContent = "checking\u2026";
      shown = { steps: [], lines: input.states, doc: null, slips: {} };
      render();
      saveBtn.disabled = true;
      document.body.removeAttribute("data-check");
      postStream("/api/check/stream", { states: input.states, target: input.target || null },
                 controller.signal, function (name, ev) {
        if (controller.signal.aborted) return;
        if (name === "started") { bar.hidden = false; setBar(bar, 0, ev.total); }
        else if (name === "step") {
          shown.steps.push(ev);
          render();
          setBar(bar, ev.index, ev.total);
          summary.textContent = "checked line " + (ev.index + 1) + " of " + (ev.total + 1) + "\u2026";
        } else if (name === "done") {
          // The final verdict words each step with both lines in view: it replaces the live ones.
          shown.doc = ev.derivation;
          shown.steps = ev.derivation.steps;
          render();
          nameSlips(ev.derivation, input.states);
          last = input;
          saveBtn.disabled = false;
          document.body.setAttribute("data-check", "done");
        } else if (name === "error") {
          var msg = ev.message || "the check failed";
          summary.textContent = "error: " + msg.split("\n")[0];
          showError(/^\s*TARGET/i.test(msg) ? "target-error" : "states-error", msg);
          document.body.setAttribute("data-check", "error");
        }
      }).catch(function (err) {
        if (err.name !== "AbortError") summary.textContent = "error: the connection to the server failed";
      });
    });
  }

  function chatForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var input = form.querySelector("input[name=message]");
      var message = String(input.value || "").trim();
      if (!message) return;
      var log = $("#chat-log"), button = form.querySelector("button[type=submit]");
      log.appendChild(li("you: " + message));
      input.value = "";
      button.disabled = true;
      post("/api/chat", { message: message }).then(function (res) {
        button.disabled = false;
        input.focus();
        if (!res.ok) { log.appendChild(li("error: " + res.body.message)); return; }
        log.appendChild(li("agent: " + res.body.answer));
        log.appendChild(li("verifier: " + res.body.verdict));
        if (res.body.result && res.body.result.payload) mountResult($("#chat-result"), res.body.result);
      });
    });
  }

  /* The derivation tool without a model: the same verified derive the agent would call. */
  function toolForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var start = $("#tool-start").value, target = $("#tool-target").value;
      showError("tool-error", "");
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      var args = JSON.stringify({ start_latex: start, target_latex: target });
      post("/api/tools/derive_proof_animation", { arguments: args }).then(function (res) {
        button.disabled = false;
        if (!res.ok) { showError("tool-error", res.body.message || "the tool failed"); return; }
        var result = res.body.result || {};
        if (result.error) { showError("tool-error", result.error); return; }
        if (res.body.payload) {
          mountResult($("#chat-result"), { url: result.url, payload: res.body.payload,
                                           not_saved: result.url ? null : "see the warnings" });
        }
        document.body.setAttribute("data-tool", "done");
      });
    });
  }

  function examples() {
    document.querySelectorAll("button.example").forEach(function (b) {
      b.addEventListener("click", function () {
        var form = document.getElementById(b.getAttribute("data-form") + "-form");
        if (!form) return;
        ["start", "target", "states"].forEach(function (name) {
          var value = b.getAttribute("data-" + name);
          var field = form.querySelector("[name=" + name + "]");
          if (value == null || !field) return;
          field.value = value;
          field.dispatchEvent(new Event("input", { bubbles: true }));
        });
        if (b.getAttribute("data-form") === "derive") form.querySelector("[name=start]").focus();
      });
    });
  }

  function gallery(list) {
    list.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (!b) return;
      var id = b.getAttribute("data-id"), item = b.closest("li");
      if (b.classList.contains("delete")) {
        if (!window.confirm("Delete this derivation from the gallery?")) return;
        post("/api/derivations/" + encodeURIComponent(id), null, "DELETE").then(function (res) {
          if (res.ok) item.remove();
          else window.alert(res.body.message || "could not delete");
        });
      } else if (b.classList.contains("rename")) {
        renameInline(item, b, id);
      }
    });
  }

  function renameInline(item, button, id) {
    if (item.querySelector("form.rename-form")) return;
    var form = document.createElement("form");
    form.className = "rename-form";
    var input = document.createElement("input");
    input.value = button.getAttribute("data-title") || "";
    input.maxLength = 200;
    input.setAttribute("aria-label", "new title");
    var ok = document.createElement("button"); ok.type = "submit"; ok.textContent = "Save";
    var no = document.createElement("button"); no.type = "button"; no.textContent = "Cancel";
    var err = document.createElement("span"); err.className = "field-error";
    form.appendChild(input); form.appendChild(ok); form.appendChild(no); form.appendChild(err);
    item.appendChild(form);
    input.focus(); input.select();
    no.addEventListener("click", function () { form.remove(); button.focus(); });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      post("/api/derivations/" + encodeURIComponent(id), { title: input.value }, "PATCH")
        .then(function (res) {
          if (!res.ok) { err.textContent = res.body.message || "could not rename"; return; }
          var link = item.querySelector("a.title");
          link.textContent = res.body.title;
          link.title = res.body.title;
          button.setAttribute("data-title", res.body.title);
          form.remove();
          button.focus();
        });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".tier-icon[data-tier]").forEach(function (span) {
      span.appendChild(window.veristepIcon(span.getAttribute("data-tier")));
    });
    document.querySelectorAll("input[data-preview]").forEach(preview);
    var f;
    if ((f = $("#derive-form"))) deriveForm(f);
    if ((f = $("#check-form"))) { checkForm(f); linesPreview(f.querySelector("textarea")); }
    if ((f = $("#chat-form"))) chatForm(f);
    if ((f = $("#tool-form"))) toolForm(f);
    if ((f = $("#gallery"))) gallery(f);
    examples();
  });
})();
