/* Page scripts of the veristep web app: forms that talk to the JSON API. */
(function () {
  "use strict";
  function $(sel) { return document.querySelector(sel); }
  /* A list item; with a tier it starts with the tier's icon (the player's SVG, font-independent). */
  function li(text, tier) {
    var item = document.createElement("li");
    if (tier) {
      item.setAttribute("data-tier", tier);
      item.appendChild(window.veristepIcon(tier));
      text = " " + text;
    }
    item.appendChild(document.createTextNode(text));
    return item;
  }

  function mountResult(section, answer) {
    section.hidden = false;
    section.innerHTML = "";
    if (answer.url) {
      var p = document.createElement("p");
      var a = document.createElement("a");
      a.href = answer.url; a.textContent = "open the saved page"; a.id = "saved-link";
      p.appendChild(a);
      section.appendChild(p);
    }
    var mount = document.createElement("div");
    section.appendChild(mount);
    window.veristepMount(mount, answer.payload);
  }

  function stepLine(step) {
    return "step " + step.index + " (" + step.tier + ")" +
      (step.operation ? ": " + step.operation : "") + (step.reason ? " \u2014 " + step.reason : "");
  }

  function deriveForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var data = new FormData(form);
      var q = new URLSearchParams({ start: data.get("start"), target: data.get("target"),
                                    proposer: data.get("proposer") });
      var list = $("#progress-steps"), status = $("#progress-status");
      $("#progress").hidden = false; list.innerHTML = ""; status.textContent = "deriving\u2026";
      $("#result").hidden = true;
      var source = new EventSource("/api/derive/stream?" + q.toString());
      source.addEventListener("attempt", function (e) {
        var ev = JSON.parse(e.data);
        var head = li("attempt " + ev.attempt + ": " + ev.summary, ev.tier);
        var inner = document.createElement("ol");
        ev.steps.forEach(function (step) { inner.appendChild(li(stepLine(step), step.tier)); });
        head.appendChild(inner);
        list.appendChild(head);
      });
      source.addEventListener("done", function (e) {
        source.close();
        var answer = JSON.parse(e.data);
        status.textContent = answer.derivation.confidence.summary;
        mountResult($("#result"), answer);
        document.body.setAttribute("data-derive", "done");
      });
      source.addEventListener("error", function (e) {
        source.close();
        var msg = "the connection failed";
        try { msg = JSON.parse(e.data).message; } catch (err) { /* a network error has no data */ }
        status.textContent = "error: " + msg;
        document.body.setAttribute("data-derive", "error");
      });
    });
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                        body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }

  function checkForm(form) {
    // Graded as the learner goes: a pause in typing re-checks the lines written so far.
    var timer = null;
    form.querySelector("textarea").addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { form.requestSubmit(); }, 700);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      var data = new FormData(form);
      var states = String(data.get("states")).split("\n").map(function (s) { return s.trim(); })
        .filter(function (s) { return s.length > 0; });
      var target = String(data.get("target") || "").trim();
      var out = $("#check-results"), summary = $("#check-summary");
      if (states.length < 1) return;
      summary.textContent = "checking\u2026";
      var ticket = (form.ticket = (form.ticket || 0) + 1);
      post("/api/check", { states: states, target: target || null }).then(function (res) {
        if (ticket !== form.ticket) return;  // a newer check is on its way
        out.innerHTML = "";
        if (!res.ok) { summary.textContent = "error: " + res.body.message; return; }
        res.body.derivation.steps.forEach(function (s) {
          out.appendChild(li(stepLine(s) + "  [" + states[s.index] + "]", s.tier));
        });
        summary.textContent = res.body.derivation.confidence.summary;
        document.body.setAttribute("data-check", "done");
      });
    });
  }

  function chatForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var message = String(new FormData(form).get("message"));
      var log = $("#chat-log");
      log.appendChild(li("you: " + message));
      post("/api/chat", { message: message }).then(function (res) {
        if (!res.ok) { log.appendChild(li("error: " + res.body.message)); return; }
        log.appendChild(li("agent: " + res.body.answer));
        log.appendChild(li("verifier: " + res.body.verdict));
        if (res.body.result && res.body.result.payload) mountResult($("#chat-result"), res.body.result);
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".tier-icon[data-tier]").forEach(function (span) {
      span.appendChild(window.veristepIcon(span.getAttribute("data-tier")));
    });
    var f;
    if ((f = $("#derive-form"))) deriveForm(f);
    if ((f = $("#check-form"))) checkForm(f);
    if ((f = $("#chat-form"))) chatForm(f);
  });
})();
