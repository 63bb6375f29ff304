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
    // Operations, reasons and answers may carry $…$ math: the player's prose renderer typesets it
    // and keeps every other character as text.
    window.veristepProse(item, text);
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
      head.textContent = "attempt " + n + ": grounding\u2026";
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

  function deriveForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var data = new FormData(form);
      var q = new URLSearchParams({ start: data.get("start"), target: data.get("target"),
                                    proposer: data.get("proposer") });
      var list = $("#progress-steps"), status = $("#progress-status"), bar = $("#progress-bar");
      $("#progress").hidden = false; list.innerHTML = ""; status.textContent = "deriving\u2026";
      setBar(bar, 0, 1);
      $("#result").hidden = true;
      var source = new EventSource("/api/derive/stream?" + q.toString());
      source.addEventListener("step", function (e) {
        var step = JSON.parse(e.data);
        attemptItem(list, step.attempt).querySelector("ol").appendChild(stepItem(step));
        setBar(bar, step.index, step.total);
        status.textContent = "attempt " + step.attempt + ": step " + step.index + " of " +
          step.total + " judged";
      });
      source.addEventListener("attempt", function (e) {
        var ev = JSON.parse(e.data);
        var item = attemptItem(list, ev.attempt), head = item.querySelector(".attempt-head");
        var inner = item.querySelector("ol");
        // The verdict's steps replace the live lines: they are final and also carry each step's
        // operation, which the live grounding events do not know.
        inner.innerHTML = "";
        ev.steps.forEach(function (step) { inner.appendChild(stepItem(step)); });
        item.setAttribute("data-tier", ev.tier);
        head.textContent = " attempt " + ev.attempt + ": " + ev.summary;
        head.insertBefore(window.veristepIcon(ev.tier), head.firstChild);
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

  /* POST `body` and hand each server-sent event to `onEvent` as it arrives; an error answer
     (validation, too large) becomes an `error` event. Resolves when the stream ends. */
  function postStream(url, body, signal, onEvent) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                        body: JSON.stringify(body), signal: signal })
      .then(function (r) {
        if (!r.ok) return r.json().then(function (j) { onEvent("error", j); });
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
      var out = $("#check-results"), summary = $("#check-summary"), bar = $("#check-bar");
      if (states.length < 1) return;
      if (form.running) form.running.abort();  // a newer check replaces the one on its way
      var controller = (form.running = new AbortController());
      summary.textContent = "checking\u2026";
      out.innerHTML = "";
      document.body.removeAttribute("data-check");
      postStream("/api/check/stream", { states: states, target: target || null },
                 controller.signal, function (name, ev) {
        if (controller.signal.aborted) return;
        if (name === "started") { bar.hidden = false; setBar(bar, 0, ev.total); }
        else if (name === "step") {
          out.appendChild(stepItem(ev, "  [" + states[ev.index] + "]"));
          setBar(bar, ev.index, ev.total);
          summary.textContent = ev.index + " of " + ev.total + " steps judged\u2026";
        } else if (name === "done") {
          summary.textContent = ev.derivation.confidence.summary;
          document.body.setAttribute("data-check", "done");
        } else if (name === "error") {
          summary.textContent = "error: " + ev.message;
          document.body.setAttribute("data-check", "error");
        }
      }).catch(function (err) {
        if (err.name !== "AbortError") summary.textContent = "error: the connection failed";
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
