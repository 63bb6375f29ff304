/* The research pages: review a proof, prove a Coq theorem, screen and judge a magma law.
   Results stream in as server-sent events; each form's state is on <body data-FORM="..."> (running,
   done, error, cancelled) so that people and tests can tell where it stands. */
(function () {
  "use strict";
  function $(sel) { return document.querySelector(sel); }
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text != null) e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  /* Prose with $…$ maths: typeset by the player's renderer when it is there, else plain text. */
  function prose(node, text) {
    if (window.veristepProse) window.veristepProse(node, text || "");
    else node.appendChild(document.createTextNode(text || ""));
    return node;
  }
  function tex(latex) {
    var code = el("code", latex);
    if (window.katex) {
      try { window.katex.render(latex, code, { throwOnError: true }); } catch (e) { code.textContent = latex; }
    }
    return code;
  }
  function state(form, value) { document.body.setAttribute("data-" + form, value); }
  function showError(box, message) {
    box.hidden = !message;
    box.textContent = message || "";
  }
  function message(body) {
    return (body && (body.message || body.detail)) || "the request failed";
  }

  /* POST and hand each server-sent event to onEvent; an error answer becomes an error event
     (the site's one stream reader, from app.js, which every page loads first). */
  function postStream(url, body, signal, onEvent) {
    return window.veristepPostStream(url, body, signal, onEvent);
  }
  /* A JSON request; aborting ``signal`` closes the connection, which stops the server's work
     (its prover is killed). An aborted request resolves to null: nothing to show. */
  function postJSON(url, body, signal) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                        body: JSON.stringify(body), signal: signal })
      .then(function (r) {
        return r.json().then(function (j) { return { ok: r.ok, body: j }; },
                             function () { return { ok: false, body: {} }; });
      }, function (err) {
        if (err && err.name === "AbortError") return null;
        return { ok: false, body: { message: "the connection to the server failed" } };
      });
  }

  /* One streamed job per form: a new submit or Cancel aborts the one running. */
  function job(name, cancelButton) {
    var current = null;
    if (cancelButton) cancelButton.addEventListener("click", function () {
      if (!current) return;
      current.abort();
      current = null;
      cancelButton.disabled = true;
      state(name, "cancelled");
    });
    return {
      start: function () {
        if (current) current.abort();
        current = new AbortController();
        if (cancelButton) cancelButton.disabled = false;
        state(name, "running");
        return current;
      },
      end: function (controller, value) {
        if (current !== controller) return false;  // cancelled or replaced: not ours to report
        current = null;
        if (cancelButton) cancelButton.disabled = true;
        state(name, value);
        return true;
      },
      live: function (controller) { return current === controller; }
    };
  }

  // -- review ---------------------------------------------------------------------------------
  var STATE_WORDS = { verified: "VERIFIED", flawed: "FLAWED", open: "OPEN" };

  function stepItem(step) {
    var li = el("li", null, { id: "step-" + step.id, "data-step": step.id,
                              "data-state": step.state, "data-tier": step.tier });
    var head = el("div", null, { "class": "rs-head" });
    head.appendChild(el("span", STATE_WORDS[step.state] || step.state, { "class": "rs-state" }));
    // The tier says how: grounded by a checker, or only plausible (a model's elaboration).
    if (step.state !== "open") head.appendChild(el("span", " · " + step.tier, { "class": "rs-tier-word" }));
    head.appendChild(el("span", " " + step.id + (step.location ? " (" + step.location + ")" : ""),
                        { "class": "muted" }));
    li.appendChild(head);
    li.appendChild(prose(el("div", null, { "class": "rs-text" }), step.text));
    var checks = step.checks || [];
    if (checks.length) {
      var ul = el("ul", null, { "class": "rs-checks", "aria-label": "machine checks" });
      checks.forEach(function (c) {
        var item = el("li", null, { "data-tier": c.tier });
        item.appendChild(el("span", c.tier + ": ", { "class": "rs-tier" }));
        item.appendChild(tex(c.latex));
        item.appendChild(document.createTextNode(" — " + c.reason + " (" + c.check + ")"));
        ul.appendChild(item);
      });
      li.appendChild(ul);
    }
    var e = step.elaboration;
    if (e && (e.derivation || []).length) {
      var more = el("details", null, { "class": "rs-elaboration" });
      more.appendChild(el("summary", "the model's elaboration (" + e.verdict + ")"));
      var ol = el("ol");
      e.derivation.forEach(function (line) { ol.appendChild(prose(el("li"), line)); });
      more.appendChild(ol);
      var rests = [].concat(e.local_context || [], e.external || [], e.background || []);
      if (rests.length) more.appendChild(prose(el("p", null, { "class": "muted" }), "rests on: " + rests.join(", ")));
      li.appendChild(more);
    }
    if (step.flaw) {
      var flaw = el("p", null, { "class": "rs-witness" });
      flaw.appendChild(el("b", "flaw (" + step.flaw.kind.replace(/_/g, " ") + "): "));
      prose(flaw, step.flaw.witness);
      li.appendChild(flaw);
      if (step.flaw.confirmation) {
        li.appendChild(prose(el("p", null, { "class": "rs-confirmation" }),
                             (step.flaw.confirmed ? "confirmed: " : "not confirmed: ") + step.flaw.confirmation));
      }
    } else if (step.state === "open") {
      li.appendChild(el("p", step.note || "not decided by the machine checks", { "class": "muted" }));
    }
    return li;
  }
  function putStep(list, step) {
    var old = document.getElementById("step-" + step.id), item = stepItem(step);
    if (old) old.replaceWith(item);
    else if (step.parent && document.getElementById("step-" + step.parent)) {
      var parent = document.getElementById("step-" + step.parent);
      var sub = parent.querySelector("ol") || parent.appendChild(el("ol"));
      sub.appendChild(item);
    } else list.appendChild(item);
  }
  function showReport(view) {
    var list = $("#review-steps");
    list.textContent = "";
    view.steps.forEach(function (s) { putStep(list, s); });
    var verdict = $("#review-verdict");
    verdict.textContent = "";
    verdict.setAttribute("data-verdict", view.verdict || "");
    verdict.appendChild(el("b", "Verdict: " + (view.verdict || "none") + ". "));
    prose(verdict, view.reason || "");
    var ledger = $("#review-ledger");
    ledger.textContent = "";
    (view.ledger || []).forEach(function (e) {
      ledger.appendChild(prose(el("li"), e.id + " [" + e.status + "] " + e.claim));
    });
    ledger.hidden = !(view.ledger || []).length;
    var counts = { verified: 0, flawed: 0, open: 0 };
    view.steps.forEach(function (s) { counts[s.state] = (counts[s.state] || 0) + 1; });
    $("#review-status").textContent = view.steps.length + " steps: " + counts.verified +
      " verified, " + counts.flawed + " flawed, " + counts.open + " open.";
    if (view.url) {
      $("#review-links").hidden = false;
      $("#review-share").href = view.url;
      $("#review-export").href = view.url + "/export";
    }
  }

  function initReview() {
    var form = $("#review-form"), saved = $("#review-data");
    if (saved) { showReport(JSON.parse(saved.textContent)); state("review", "done"); }
    if (!form) return;
    var proof = $("#review-proof"), error = $("#review-error");
    var running = job("review", $("#review-cancel"));
    document.querySelectorAll("[data-fill]").forEach(function (b) {
      b.addEventListener("click", function () {
        document.getElementById(b.getAttribute("data-fill")).value = b.getAttribute("data-value");
      });
    });
    $("#review-file").addEventListener("change", function (ev) {
      var file = ev.target.files[0];
      if (!file) return;
      if (file.size > 4 * proof.maxLength) { showError(error, "the file is too large for a review"); return; }
      file.text().then(function (text) {
        if (text.length > proof.maxLength) {
          showError(error, "the proof is longer than " + proof.maxLength + " characters");
          return;
        }
        showError(error, "");
        proof.value = text;
      });
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(error, "");
      proof.removeAttribute("aria-invalid");
      var list = $("#review-steps"), status = $("#review-status");
      list.textContent = ""; $("#review-verdict").textContent = ""; $("#review-links").hidden = true;
      status.textContent = "Checking the steps…";
      var controller = running.start(), first = true;
      var body = { proof: proof.value, problem: $("#review-problem").value };
      postStream("/api/review/stream", body, controller.signal, function (name, data) {
        if (!running.live(controller)) return;
        if (name === "started") {
          status.textContent = data.has_model
            ? "Machine checks first, then the review agent…"
            : "Machine checks only (no model configured)…";
        } else if (name === "step") {
          if (first) { first = false; document.body.setAttribute("data-review-first", "1"); }
          putStep(list, data);
          status.textContent = "Step " + data.id + ": " + (STATE_WORDS[data.state] || data.state);
        } else if (name === "iteration") {
          Object.keys(data.states).forEach(function (sid) {
            var item = document.getElementById("step-" + sid);
            if (!item || item.getAttribute("data-state") === data.states[sid]) return;
            item.setAttribute("data-state", data.states[sid]);
            var word = item.querySelector(".rs-state");
            if (word) word.textContent = STATE_WORDS[data.states[sid]] || data.states[sid];
          });
          status.textContent = "Agent iteration " + data.iteration + ": " + (data.log || []).slice(-1).join("");
        } else if (name === "done") {
          showReport(data);
          running.end(controller, "done");
        } else if (name === "error") {
          showError(error, message(data));
          proof.setAttribute("aria-invalid", "true");
          status.textContent = "The review stopped.";
          running.end(controller, "error");
        }
      }).catch(function (err) {
        if (err && err.name === "AbortError") return;
        showError(error, "the connection to the server failed");
        running.end(controller, "error");
      });
    });
  }

  // -- prove ----------------------------------------------------------------------------------
  var PHASES = { portfolio: "Portfolio of closing tactics", best_of_n: "Best-of-N scripts",
                 mcts: "Tree search (MCTS)" };

  function attemptItem(a) {
    var li = el("li", null, { "data-failure": a.failure, "data-complete": a.complete ? "1" : "0" });
    li.appendChild(el("span", a.n + ". ", { "class": "muted" }));
    li.appendChild(el("code", a.text));
    var goals = (a.goals_before == null ? "?" : a.goals_before) + "→" +
                (a.goals_after == null ? "?" : a.goals_after);
    li.appendChild(el("span", " syntax " + (a.syntax_ok ? "✓" : "✗") + " · type " +
      (a.type_ok ? "✓" : "✗") + " · goals " + goals + " · " +
      (a.complete ? "complete" : a.failure), { "class": "rs-signals" }));
    return li;
  }
  function verdictBox(box, verdict) {
    box.textContent = "";
    var p = el("p", null, { "class": verdict.accepted ? "rs-accepted" : "rs-refused",
                            "data-accepted": verdict.accepted ? "1" : "0" });
    p.appendChild(el("b", verdict.accepted ? "Proved: accepted by the strict path. "
                                           : "Refused by the strict path: "));
    p.appendChild(document.createTextNode(verdict.reason));
    box.appendChild(p);
    if (!verdict.accepted && verdict.failure && verdict.failure !== "none")
      box.appendChild(el("p", "failure: " + verdict.failure, { "class": "muted" }));
    if (verdict.accepted) {
      var axioms = verdict.axioms || [];
      box.appendChild(el("p", "kernel: compiled and type-checked · coqchk: audited · axioms: " +
        (axioms.length ? axioms.length + ", all on the allowlist" : "none"), { "class": "rs-audit" }));
      if (axioms.length) {
        var more = el("details", null, { "class": "rs-axioms" });
        more.appendChild(el("summary", "the axioms the proof rests on"));
        var ul = el("ul");
        axioms.forEach(function (a) { ul.appendChild(el("li", a)); });
        more.appendChild(ul);
        box.appendChild(more);
      }
    }
  }

  function initProve() {
    var form = $("#prove-form");
    if (!form) return;
    var error = $("#prove-error"), status = $("#prove-status"), list = $("#prove-attempts");
    var result = $("#prove-result"), running = job("prove", $("#prove-cancel"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(error, "");
      list.textContent = ""; result.textContent = "";
      var name = $("#prove-name").value.trim(), statement = $("#prove-statement").value.trim();
      var body = { budget_s: Number($("#prove-budget").value) || 60,
                   mcts_iterations: $("#prove-mcts").checked ? 40 : 0 };
      if (name) body.name = name;
      else { body.statement = statement; body.header = $("#prove-header").value; }
      var controller = running.start(), phase = null, count = 0;
      status.textContent = "Starting Coq…";
      postStream("/api/prove/stream", body, controller.signal, function (kind, data) {
        if (!running.live(controller)) return;
        if (kind === "phase") {
          status.textContent = data.phase === "strict"
            ? "A proof was found: checking it on the strict path…" : "Searching…";
          document.body.setAttribute("data-prove-phase", data.phase);
        } else if (kind === "attempt") {
          if (data.phase !== phase) {
            phase = data.phase;
            list.appendChild(el("li", PHASES[phase] || phase, { "class": "rs-phase" }));
          }
          count += 1;
          list.appendChild(attemptItem(data));
          status.textContent = "Searching: " + count + " attempts (" + (PHASES[phase] || phase) + ")";
        } else if (kind === "done") {
          var s = data.search || {};
          status.textContent = (data.found ? "Found a proof" : "No proof found") + " after " +
            count + " attempts in " + (s.seconds || 0) + " s.";
          if (data.found && data.verdict) {
            verdictBox(result, data.verdict);
            result.appendChild(el("pre", s.proof_file || "", { "class": "rs-proof", tabindex: "0" }));
          } else {
            result.appendChild(el("p", "Not proved: " + (s.verdict || "the search found nothing"),
                                  { "class": "rs-refused" }));
          }
          running.end(controller, "done");
        } else if (kind === "error") {
          showError(error, message(data));
          status.textContent = "The search stopped.";
          running.end(controller, "error");
        }
      }).catch(function (err) {
        if (err && err.name === "AbortError") return;
        showError(error, "the connection to the server failed");
        running.end(controller, "error");
      });
    });
    $("#prove-cancel").addEventListener("click", function () {
      status.textContent = "Cancelled: Coq was stopped.";
    });

    var check = $("#coqcheck-form"), checkError = $("#coqcheck-error"), checkBox = $("#coqcheck-result");
    var checking = job("coqcheck", $("#coqcheck-cancel"));
    check.addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(checkError, "");
      checkBox.textContent = "Compiling and auditing…";
      var body = { proof: $("#coqcheck-proof").value };
      var expect = $("#coqcheck-expect").value.trim();
      if (expect) body.expect = expect;
      var controller = checking.start();
      postStream("/api/prove/check", body, controller.signal, function (kind, data) {
        if (!checking.live(controller)) return;
        if (kind === "done") { verdictBox(checkBox, data.verdict); checking.end(controller, "done"); }
        else if (kind === "error") {
          checkBox.textContent = "";
          showError(checkError, message(data));
          checking.end(controller, "error");
        }
      }).catch(function (err) {
        if (err && err.name === "AbortError") return;
        showError(checkError, "the connection to the server failed");
        checking.end(controller, "error");
      });
    });
    $("#coqcheck-cancel").addEventListener("click", function () { checkBox.textContent = "Cancelled."; });
  }

  // -- laws -----------------------------------------------------------------------------------
  /* A finite model "0 1\n1 0" as a table of the operation: row a, column b holds a ◇ b. */
  function modelTable(text) {
    var rows = text.trim().split("\n").map(function (r) { return r.trim().split(/\s+/); });
    var figure = el("figure", null, { "class": "rs-figure" });
    figure.appendChild(el("figcaption", "A model of size " + rows.length +
                          ": row a, column b holds a ◇ b"));
    var table = figure.appendChild(el("table", null, { "class": "rs-model" }));
    var head = el("tr");
    head.appendChild(el("th", "◇", { scope: "col" }));
    rows.forEach(function (_, j) { head.appendChild(el("th", String(j), { scope: "col" })); });
    table.appendChild(head);
    rows.forEach(function (r, i) {
      var tr = el("tr");
      tr.appendChild(el("th", String(i), { scope: "row" }));
      r.forEach(function (v) { tr.appendChild(el("td", v)); });
      table.appendChild(tr);
    });
    return figure;
  }
  function screenBox(box, report) {
    box.textContent = "";
    box.appendChild(el("p", "Screen: " + report.status, { id: "law-status", "data-status": report.status }));
    var stages = report.stages || {}, certificates = report.certificates || {};
    var table = el("table", null, { "class": "rs-stages" });
    table.appendChild(el("caption", "Stages, cheapest first"));
    var head = el("tr");
    ["stage", "outcome", "evidence"].forEach(function (h) { head.appendChild(el("th", h, { scope: "col" })); });
    table.appendChild(head);
    Object.keys(stages).forEach(function (name) {
      var s = stages[name], tr = el("tr", null, { "data-stage": name, "data-outcome": s.outcome });
      tr.appendChild(el("th", name.replace(/_/g, " "), { scope: "row" }));
      tr.appendChild(el("td", s.outcome));
      var evidence = tr.appendChild(el("td", s.detail || ""));
      var cert = certificates[name];
      if (cert && name !== "finite_model") {  // the model is shown as a table below
        var more = el("details", null, { "class": "rs-certificate" });
        more.appendChild(el("summary", "certificate" + (cert.prover ? " (" + cert.prover + ")" : "")));
        more.appendChild(el("pre", cert.text, { tabindex: "0" }));
        evidence.appendChild(more);
      }
      table.appendChild(tr);
    });
    box.appendChild(table);
    if (report.model) box.appendChild(modelTable(report.model));
    if (report.witness) box.appendChild(el("p", "witness: " + report.witness));
  }

  /* A chain's links: each with the law application found (direction, position, σ) or why not. */
  function linkTable(links) {
    var table = el("table", null, { "class": "rs-stages rs-links" });
    table.appendChild(el("caption", "The chain, link by link"));
    var head = el("tr");
    ["link", "step", "how"].forEach(function (h) { head.appendChild(el("th", h, { scope: "col" })); });
    table.appendChild(head);
    links.forEach(function (l) {
      var tr = el("tr", null, { "data-link": String(l.index), "data-ok": l.ok ? "1" : "0" });
      tr.appendChild(el("th", (l.ok ? "✓ " : "✗ ") + l.index, { scope: "row" }));
      tr.appendChild(el("td", l.from + " = " + l.to));
      var a = l.application, how;
      if (a) {
        how = a.direction + " at " + (a.position.length ? a.position.join(".") : "the root") + ", " +
          Object.keys(a.sigma).map(function (k) { return k + " ↦ " + a.sigma[k]; }).join(", ");
        if ((l.bridge || []).length) how += " (bridged in " + l.bridge.length + " steps)";
      } else how = l.message || "not a law application";
      tr.appendChild(el("td", how));
      table.appendChild(tr);
    });
    return table;
  }

  function initLaws() {
    var form = $("#law-form");
    if (!form) return;
    var error = $("#law-error"), result = $("#law-result"), screen = $("#law-screen");
    var screening = job("law", $("#law-cancel"));
    $("#law-cancel").addEventListener("click", function () { screen.textContent = "Cancelled."; });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(error, "");
      result.textContent = ""; screen.textContent = "";
      var law = $("#law-text").value, controller = screening.start();
      postJSON("/api/alps/law", { law: law }, controller.signal).then(function (r) {
        if (!r || !screening.live(controller)) return null;
        if (!r.ok) { showError(error, message(r.body)); screening.end(controller, "error"); return null; }
        var dl = el("dl", null, { "class": "rs-facts" });
        [["Law", r.body.law], ["ETP number", "Equation " + r.body.id],
         ["Dual", r.body.dual.law], ["Dual's number", "Equation " + r.body.dual.id]]
          .forEach(function (kv) { dl.appendChild(el("dt", kv[0])); dl.appendChild(el("dd", kv[1])); });
        dl.querySelectorAll("dd")[1].id = "law-number";
        result.appendChild(dl);
        screen.textContent = "Screening (finite models, then E)…";
        state("law", "screening");
        return postJSON("/api/alps/screen", { law: law }, controller.signal);
      }).then(function (r) {
        if (!r || !screening.live(controller)) return;
        if (!r.ok) { screen.textContent = ""; showError(error, message(r.body)); screening.end(controller, "error"); return; }
        screenBox(screen, r.body);
        screening.end(controller, "done");
      });
    });

    var judge = $("#judge-form"), jError = $("#judge-error"), jBox = $("#judge-result");
    var judging = job("judge", $("#judge-cancel"));
    $("#judge-cancel").addEventListener("click", function () { jBox.textContent = "Cancelled."; });
    judge.addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(jError, "");
      jBox.textContent = "Judging…";
      var controller = judging.start();
      var body = { law: $("#judge-law").value, submission: $("#judge-submission").value };
      postJSON("/api/alps/judge", body, controller.signal).then(function (r) {
        if (!r || !judging.live(controller)) return;
        jBox.textContent = "";
        if (!r.ok) { showError(jError, message(r.body)); judging.end(controller, "error"); return; }
        var v = r.body;
        var p = el("p", null, { id: "judge-verdict", "data-status": v.status });
        p.appendChild(el("b", v.status + ": "));
        p.appendChild(document.createTextNode(v.message));
        jBox.appendChild(p);
        var links = (v.certificate && v.certificate.links) || [];
        if (links.length) jBox.appendChild(linkTable(links));
        if (v.certificate_hash) jBox.appendChild(el("p", "certificate sha-256: " + v.certificate_hash, { "class": "muted rs-hash" }));
        if (v.certificate) {
          var more = el("details", null, { "class": "rs-certificate" });
          more.appendChild(el("summary", "the whole certificate (JSON)"));
          more.appendChild(el("pre", JSON.stringify(v.certificate, null, 1), { tabindex: "0" }));
          jBox.appendChild(more);
        }
        judging.end(controller, "done");
      });
    });
  }

  function init() { initReview(); initProve(); initLaws(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
