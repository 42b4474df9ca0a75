/* The referee's pages with no network. A service worker (/c/<slug>/referee/sw.js) keeps
   the pages the referee opened; on the result form, a result saved while the phone is
   offline is not posted (it would be lost) but kept in an IndexedDB outbox, and sent to
   the referee's JSON API (PUT .../boards/<b>/result/, the session's cookie and CSRF
   token, an Idempotency-Key) on load, when the network returns, and on retry. The API
   stores the same values twice as one result (a retry changes nothing); a refused one
   stays on the page with the reason and the stored values until dismissed.
   No framework, no build step. */
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
    if (values.adjusted) return "NS " + values.adjusted.NS + " · " + values.adjusted.EW;
    const parts = [values.trump || "—"];
    ["delegated", "contro", "recontro", "sant_vicenc"].forEach((k) => { if (values[k]) parts.push(k); });
    if (values.ns_points_taken !== null && values.ns_points_taken !== undefined) parts.push("NS " + values.ns_points_taken);
    if (values.infraction) parts.push("! " + values.infraction);
    return parts.join(" · ");
  }
  async function render() {
    const items = await all();
    const waiting = items.filter((i) => i.status === "pending").length;
    const status = document.getElementById("outbox-status");
    status.textContent = waiting === 0 ? text.allSent
      : waiting === 1 ? text.waitingOne : text.waitingMany.replace("%(n)s", waiting);
    if (!navigator.onLine) status.textContent += " · " + text.offline;
    status.dataset.waiting = waiting;
    const list = document.getElementById("refused-list");
    list.replaceChildren();
    items.filter((i) => i.status === "refused").forEach((item) => {
      const li = document.createElement("li");
      li.className = "panel conflict refused";
      li.dataset.board = item.board;
      const head = document.createElement("strong");
      head.textContent = text.tableLabel + " " + item.table + " · " + text.boardLabel + " " +
        item.board + ": " + text.refused + ". ";
      const reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = item.reason;
      li.append(head, reason);
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
  function reasonOf(body) {
    if (!body || typeof body !== "object") return "";
    if (Array.isArray(body.errors) && body.errors.length) {
      return body.errors.map((error) => error.message).join(" ");
    }
    return body.detail ? String(body.detail) : "";
  }
  let flushing = false;
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
          retry = true;  // no network: kept for later
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
    await render();
    if (retry && navigator.onLine) setTimeout(flush, 3000);
    if (sent && !dirty && navigator.onLine) location.reload();  // the page shows what is stored
  }

  // ------------------------------------------------------------------ the result form
  if (form) {
    const value = (name) => {
      const field = form.elements[name];
      return field ? String(field.value || "").trim() : "";
    };
    const number = (name) => (/^\d+$/.test(value(name)) ? Number(value(name)) : (value(name) || null));
    const checked = (name) => Boolean(form.elements[name] && form.elements[name].checked);
    form.addEventListener("submit", async (event) => {
      if (navigator.onLine) return;  // online: the form posts as ever (its checks, its answers)
      event.preventDefault();
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
      const version = value("version");
      const item = {
        key: crypto.randomUUID(), scope: scope, url: form.dataset.api, body: body,
        etag: form.dataset.result && version ? '"' + form.dataset.result + "." + version + '"' : null,
        csrf: value("csrfmiddlewaretoken"), table: form.dataset.table, board: form.dataset.board,
        status: "pending", created: Date.now(),
      };
      // One waiting result per board: the last one saved replaces an earlier one.
      for (const old of await all()) {
        if (old.url === item.url && old.status === "pending") await drop(old.key);
      }
      await save(item);
      dirty = false;
      await render();
      box.scrollIntoView();
    });
  }

  // ------------------------------------------------------------------ offline
  window.addEventListener("online", () => { render(); flush(); });
  window.addEventListener("offline", render);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(text.sw, {scope: scope}).then(() =>
      navigator.serviceWorker.ready).then(() => {
      // This page's first load did not go through the worker: keep it now.
      if (navigator.onLine) caches.open("botifarra-referee-v1").then((c) => c.add(location.href)).catch(() => {});
    }).catch(() => {});
  }
  render().then(flush);
}());
