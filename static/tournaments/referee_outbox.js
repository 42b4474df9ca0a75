/* The referee's pages with no network. A service worker (/c/<slug>/referee/sw.js) keeps
   the pages the referee opened; on the result form and on a classic table's game form,
   a save that cannot reach the server is not posted (it would be lost) but kept in an
   IndexedDB outbox: with the phone offline, and also online when the server does not
   answer (the hall's Wi-Fi up, the server unreachable: a quick HEAD of the form's API
   address first, 4 s at most). It is sent to the referee's JSON API (PUT
   .../boards/<b>/result/ or .../game/, the session's cookie and CSRF token, an
   Idempotency-Key, If-Match when it corrects a stored one) on load, when the network
   returns, and while the server fails after 1 s, 2 s, then every 3 s. The API stores the same values twice
   as one (a retry changes nothing); a refused one stays on the page with the reason
   and the stored values until dismissed. No framework, no build step. */
"use strict";
(function () {
  const box = document.getElementById("referee-outbox");
  if (!box || !window.indexedDB) return;
  const text = box.dataset;
  const scope = text.scope;
  const form = document.querySelector("form.result-form[data-api]");
  let dirty = false;  // the referee is typing: no reload under their fingers
  if (form) form.addEventListener("input", () => { dirty = true; });

  // ------------------------------------------------------------------ IndexedDB outbox
  const {all, save, drop} = window.botifarraOutbox("botifarra-referee", (item) => item.scope === scope);

  // ------------------------------------------------------------------ the queue's status
  function describe(current) {
    const values = current && current.values;
    if (!values) return "";
    if ("ns_points" in values) {  // a classic game
      return "NS " + values.ns_points + " · " + text.ewLabel + " " + values.ew_points +
        (values.deals ? " (" + values.deals + ")" : "");
    }
    if (values.adjusted) return "NS " + values.adjusted.NS + " · " + values.adjusted.EW;
    const parts = [values.trump || "—"];
    ["delegated", "contro", "recontro", "sant_vicenc"].forEach((k) => { if (values[k]) parts.push(k); });
    if (values.ns_points_taken !== null && values.ns_points_taken !== undefined) parts.push("NS " + values.ns_points_taken);
    if (values.infraction) parts.push("! " + values.infraction);
    return parts.join(" · ");
  }
  function where(item) {
    return text.tableLabel + " " + item.table + " · " +
      (item.board ? text.boardLabel + " " + item.board : text.gameLabel);
  }
  async function render() {
    const items = await all();
    const waiting = items.filter((i) => i.status === "pending").length;
    const status = document.getElementById("outbox-status");
    status.textContent = waiting === 0 ? text.allSent
      : waiting === 1 ? text.waitingOne : text.waitingMany.replace("%(n)s", waiting);
    if (!navigator.onLine) status.textContent += " · " + text.offline;
    else if (waiting && unreachable) status.textContent += " · " + text.unreachable;
    status.dataset.waiting = waiting;
    const list = document.getElementById("refused-list");
    list.replaceChildren();
    items.filter((i) => i.status === "refused").forEach((item) => {
      const li = document.createElement("li");
      li.className = "panel conflict refused";
      li.dataset.board = item.board;
      const head = document.createElement("strong");
      head.textContent = where(item) + ": " + text.refused + ". ";
      const reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = item.reason;
      li.append(head, reason);
      const sent = document.createElement("p");
      sent.className = "sent";
      sent.textContent = text.sent + ": " + describe({values: item.body});
      li.append(sent);
      if (item.current) {
        const stored = document.createElement("p");
        stored.className = "stored";
        stored.textContent = text.stored + ": " + describe(item.current);
        li.append(stored);
      }
      const ok = document.createElement("button");
      ok.type = "button";
      ok.className = "btn small";
      ok.textContent = text.dismiss;
      ok.addEventListener("click", async () => { await drop(item.key); render(); });
      li.append(ok);
      list.append(li);
    });
  }

  // ------------------------------------------------------------------ sending
  let unreachable = false;  // the last try found no server (online or not)
  function reasonOf(body) {
    if (!body || typeof body !== "object") return "";
    if (Array.isArray(body.errors) && body.errors.length) {
      return body.errors.map((error) => error.message).join(" ");
    }
    return body.detail ? String(body.detail) : "";
  }
  let flushing = false;
  let retryDelay = 1000;
  async function flush() {
    if (flushing) return;
    flushing = true;
    let sent = false;
    let retry = false;
    try {
      for (const item of await all()) {
        if (item.status !== "pending") continue;
        const headers = {"Content-Type": "application/json", "Accept": "application/json",
                         "Idempotency-Key": item.key, "X-CSRFToken": item.csrf};
        if (item.etag) headers["If-Match"] = item.etag;
        let response;
        try {
          response = await fetch(item.url, {method: "PUT", credentials: "same-origin",
                                            headers: headers, body: JSON.stringify(item.body)});
        } catch (error) {
          retry = true;  // no network, or no server: kept for later
          break;
        }
        if (response.status === 429 || response.status >= 500) { retry = true; break; }
        let body = null;
        try { body = await response.json(); } catch (error) { body = null; }
        if (response.ok) {
          await drop(item.key);
        } else {
          item.status = "refused";
          item.reason = reasonOf(body);
          item.current = body && body.current ? body.current : null;
          await save(item);
        }
        sent = true;
      }
    } finally {
      flushing = false;
    }
    unreachable = retry;
    await render();
    if (retry && navigator.onLine) {  // after 1 s, 2 s, then every 3 s
      setTimeout(flush, retryDelay);
      retryDelay = Math.min(retryDelay + 1000, 3000);
    } else if (!retry) {
      retryDelay = 1000;
    }
    if (sent && !dirty && navigator.onLine) location.reload();  // the page shows what is stored
  }

  // Online as the browser says: does the server answer? A HEAD of the form's API address
  // (outside the worker's scope, so never answered from its cache), 4 s at most.
  async function serverAnswers(url) {
    if (!navigator.onLine) return false;
    // An older browser without AbortSignal.timeout asks with no time limit.
    const signal = AbortSignal.timeout ? AbortSignal.timeout(4000) : undefined;
    try {
      await fetch(url, {method: "HEAD", credentials: "same-origin", cache: "no-store",
                        signal: signal});
      return true;
    } catch (error) {
      return false;
    }
  }

  // ------------------------------------------------------------------ the forms
  if (form) {
    const value = (name) => {
      const field = form.elements[name];
      return field ? String(field.value || "").trim() : "";
    };
    const number = (name) => (/^\d+$/.test(value(name)) ? Number(value(name)) : (value(name) || null));
    const checked = (name) => Boolean(form.elements[name] && form.elements[name].checked);
    function resultBody() {
      const body = {
        trump: value("trump") || null, ns_points_taken: number("ns_points_taken"),
        delegated: checked("delegated"), contro: checked("contro"), recontro: checked("recontro"),
        sant_vicenc: checked("sant_vicenc"), infraction: value("infraction") || null,
        note: value("note"),
      };
      if (value("adjusted_ns") || value("adjusted_ew")) {
        body.adjusted = {NS: value("adjusted_ns"), EW: value("adjusted_ew")};
        body.trump = null;
        body.ns_points_taken = null;
      }
      return body;
    }
    function gameBody() {
      // The final, or the score sheet's lines (h0-, h1-...; a blank line left out), as
      // the game API takes them (api/games.py).
      const body = {ended_by: value("ended_by") || null, note: value("note")};
      if (value("mode") !== "sheet") {
        return Object.assign(body, {ns_points: number("ns_points"), ew_points: number("ew_points"),
                                    deals: number("deals")});
      }
      const hands = [];
      for (let k = 0; k < Number(value("lines") || 0); k++) {
        const p = "h" + k + "-";
        const hand = {
          chooser: value(p + "chooser") || null, delegated: checked(p + "delegated"),
          trump: value(p + "trump") || null, points: number(p + "points"),
          revoke: value(p + "revoke") || null,
        };
        ["contro", "recontro", "sant_vicenc"].forEach((d) => { if (form.elements[p + d]) hand[d] = checked(p + d); });
        const typed = hand.chooser || hand.trump || hand.points !== null || hand.revoke ||
          hand.delegated || hand.contro || hand.recontro || hand.sant_vicenc;
        if (typed) hands.push(hand);
      }
      body.hands = hands;
      return body;
    }
    let passing = false;  // the server answered: this submit posts as ever
    form.addEventListener("submit", async (event) => {
      if (passing) { passing = false; return; }
      const submitter = event.submitter;
      // A sheet's "add a line" asks the page again; nothing to keep.
      if (submitter && submitter.name === "add_line") return;
      event.preventDefault();
      if (await serverAnswers(form.dataset.api)) {
        unreachable = false;
        passing = true;  // online and answered: the form posts (its checks, its answers)
        if (submitter) form.requestSubmit(submitter); else form.requestSubmit();
        return;
      }
      unreachable = navigator.onLine;
      const version = value("version");
      const item = {
        key: crypto.randomUUID(), scope: scope, url: form.dataset.api,
        body: form.dataset.kind === "game" ? gameBody() : resultBody(),
        etag: form.dataset.result && version ? '"' + form.dataset.result + "." + version + '"' : null,
        csrf: value("csrfmiddlewaretoken"), table: form.dataset.table, board: form.dataset.board || "",
        status: "pending", created: Date.now(),
      };
      // One waiting save per board (per game): the last one saved replaces an earlier one.
      for (const old of await all()) {
        if (old.url === item.url && old.status === "pending") await drop(old.key);
      }
      await save(item);
      dirty = false;
      await render();
      box.scrollIntoView();
      if (navigator.onLine) flush();  // fails now, then retried (1 s, 2 s, then every 3 s)
    });
  }

  // ------------------------------------------------------------------ offline
  window.addEventListener("online", () => { render(); flush(); });
  window.addEventListener("offline", render);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(text.sw, {scope: scope}).then(() =>
      navigator.serviceWorker.ready).then((registration) => {
      // This page's first load did not go through the worker: the worker keeps it now
      // (in its own cache, whose name changes with each deploy).
      if (navigator.onLine && registration.active) registration.active.postMessage({keep: location.href});
    }).catch(() => {});
  }
  render().then(flush);
}());
