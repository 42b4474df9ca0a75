/* A table's own page (/t/<secret>/): entries, confirmations and disputes go to the
   table's JSON API, each with an Idempotency-Key, through one outbox kept in IndexedDB,
   so that an entry made with no network is sent when it returns (and a retry never
   makes a second result). A refused one stays on the page with the reason and the
   stored values until dismissed. No framework, no build step. */
"use strict";
(function () {
  const page = document.getElementById("table-page");
  if (!page) return;
  const secret = page.dataset.secret;
  const api = page.dataset.api;
  const text = page.dataset;
  let formOpenFor = null;     // the board ("" for the game) the entry form is open for
  let formKey = null;         // the idempotency key of the entry the form sent last
  let reloadWhenClosed = false;
  let confirmUnusual = false; // the next submit answers "yes, it is right" (an unusual result)

  // ------------------------------------------------------------------ large text
  const large = document.getElementById("large-text");
  const applyLarge = () => document.body.classList.toggle("large-text", large.checked);
  large.checked = localStorage.getItem("table-large-text") === "1";
  applyLarge();
  large.addEventListener("change", () => {
    localStorage.setItem("table-large-text", large.checked ? "1" : "0");
    applyLarge();
  });

  // ------------------------------------------------------------------ IndexedDB outbox
  const {all, save, drop} = window.botifarraOutbox("botifarra-table", (item) => item.secret === secret);

  // ------------------------------------------------------------------ the queue's status
  function label(item) {
    return item.board === "" ? text.gameLabel : text.boardLabel + " " + item.board;
  }
  const words = JSON.parse(text.labels || "{}");
  const word = (code) => words[code] || String(code);
  function describe(values) {
    if (!values) return "";
    if ("ns_points" in values) return word("NS") + " " + values.ns_points + " · " + word("EW") + " " + values.ew_points;
    const parts = [values.trump ? word(values.trump) : "—"];
    ["delegated", "contro", "recontro", "sant_vicenc"].forEach((k) => { if (values[k]) parts.push(word(k)); });
    if (values.ns_points_taken !== null && values.ns_points_taken !== undefined) parts.push(word("ns_points_taken") + " " + values.ns_points_taken);
    if (values.infraction) parts.push(word("infraction") + " " + word(values.infraction));
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
    items.filter((i) => i.status === "unusual").forEach((item) => list.append(unusualItem(item)));
    items.filter((i) => i.status === "refused").forEach((item) => {
      const li = document.createElement("li");
      li.className = "panel conflict refused";
      li.dataset.board = item.board;
      const head = document.createElement("strong");
      head.textContent = label(item) + ": " + text.refused + ". ";
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
      ok.textContent = text.dismiss || "OK";
      ok.addEventListener("click", async () => { await drop(item.key); render(); });
      li.append(ok);
      list.append(li);
    });
  }

  // An entry sent from the outbox (made offline) that came back asking about an unusual
  // result: its values and the question, "yes, it is right" sends it again confirmed.
  function unusualItem(item) {
    const li = document.createElement("li");
    li.className = "panel unusual refused";
    li.dataset.board = item.board;
    const head = document.createElement("strong");
    head.textContent = label(item) + ": " + text.unusual + ". ";
    const values = document.createElement("p");
    values.className = "stored";
    values.textContent = describe(item.body);
    const reasons = document.createElement("ul");
    (item.unusual || []).forEach((u) => {
      const one = document.createElement("li");
      one.dataset.code = u.code;
      one.textContent = u.message;
      reasons.append(one);
    });
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "btn small confirm-unusual";
    yes.textContent = text.unusualYes;
    yes.addEventListener("click", async () => {
      await drop(item.key);
      await queue(item.method, item.url, Object.assign({}, item.body, {confirm_unusual: true}), item.board);
      flush();
    });
    const no = document.createElement("button");
    no.type = "button";
    no.className = "btn secondary small";
    no.textContent = text.unusualNo;
    no.addEventListener("click", async () => { await drop(item.key); render(); });
    li.append(head, values, reasons, yes, no);
    return li;
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
        let response;
        try {
          response = await fetch(item.url, {
            method: item.method, credentials: "same-origin",
            headers: {"Content-Type": "application/json", "Accept": "application/json",
                      "Idempotency-Key": item.key},
            body: JSON.stringify(item.body),
          });
        } catch (error) {
          retry = true;  // no network: kept for later
          break;
        }
        if (response.status === 429 || response.status >= 500) { retry = true; break; }
        let body = null;
        try { body = await response.json(); } catch (error) { body = null; }
        if (response.ok) {
          await drop(item.key);
          sent = true;
        } else if (response.status === 400 && item.key === formKey && formOpenFor === item.board) {
          await drop(item.key);  // the form is still open: each error next to its field
          showErrors(body);
        } else if (response.status === 422 && body && body.code === "unusual_result") {
          if (item.key === formKey && formOpenFor === item.board) {
            await drop(item.key);  // asked in the form, still open
            showUnusual(body.unusual);
          } else {  // made offline: asked on the page, never dropped silently
            item.status = "unusual";
            item.unusual = body.unusual || [];
            await save(item);
          }
        } else {
          item.status = "refused";
          item.reason = reasonOf(body);
          item.current = body && body.current ? body.current : null;
          await save(item);
          sent = true;  // the table's state changed meanwhile: shown afresh
        }
      }
    } finally {
      flushing = false;
    }
    await render();
    if (retry && navigator.onLine) setTimeout(flush, 3000);
    if (sent) {
      if (formOpenFor === null) location.reload(); else reloadWhenClosed = true;
    }
  }
  async function queue(method, url, body, board) {
    const key = crypto.randomUUID();
    await save({key: key, secret: secret, method: method, url: url, body: body,
                board: board, status: "pending", created: Date.now()});
    await render();
    return key;
  }
  const entryUrl = (board) => api + (board === "" ? "game/" : "boards/" + board + "/result/");

  // ------------------------------------------------------------------ the entry form
  const form = document.getElementById("entry-form");
  const unusualBox = document.getElementById("entry-unusual");
  function clearErrors() {
    form.querySelectorAll("[data-errors]").forEach((ul) => { ul.replaceChildren(); ul.hidden = true; });
    const general = document.getElementById("entry-errors");
    general.replaceChildren();
    general.hidden = true;
    if (unusualBox) { unusualBox.querySelector("ul").replaceChildren(); unusualBox.hidden = true; }
  }
  function showUnusual(found) {
    // The referee's form's question: what is unusual, and one tap to say it is right.
    const list = unusualBox.querySelector("ul");
    list.replaceChildren();
    (found || []).forEach((u) => {
      const li = document.createElement("li");
      li.dataset.code = u.code;
      li.textContent = u.message;
      list.append(li);
    });
    unusualBox.hidden = false;
    unusualBox.scrollIntoView();
  }
  if (unusualBox) {
    document.getElementById("entry-confirm-unusual").addEventListener("click", () => {
      confirmUnusual = true;
      form.requestSubmit();
    });
  }
  function showErrors(body) {
    // The API's error body: {detail, code, errors: [{field, message}]}.
    clearErrors();
    const general = document.getElementById("entry-errors");
    const errors = body && Array.isArray(body.errors) && body.errors.length ? body.errors
      : [{field: null, message: reasonOf(body)}];
    errors.forEach((error) => {
      const field = error.field ? String(error.field).split(".")[0] : "";
      const target = (field && form.querySelector('[data-errors="' + field + '"]')) || general;
      const li = document.createElement("li");
      li.textContent = error.message;
      target.append(li);
      target.hidden = false;
    });
  }
  function open(board) {
    form.reset();
    clearErrors();
    formOpenFor = board;
    const live = document.getElementById("live-score");
    if (live) {  // result.js asks this board's hand score as the pair types
      live.dataset.url = live.dataset.urlPattern.replace(/\/0\/$/, "/" + board + "/");
      live.hidden = true;
    }
    form.dispatchEvent(new Event("input"));  // result.js: the doubles' order afresh
    document.getElementById("entry-title").textContent = board === "" ? text.gameLabel : text.boardLabel + " " + board;
    form.hidden = false;
    form.scrollIntoView();
  }
  function close() {
    form.hidden = true;
    formOpenFor = null;
    if (reloadWhenClosed && navigator.onLine) location.reload();
  }
  document.querySelectorAll("button.enter").forEach((button) =>
    button.addEventListener("click", () => open(button.dataset.board)));
  document.getElementById("entry-cancel").addEventListener("click", close);
  const number = (name) => {
    const value = (form.elements[name] && form.elements[name].value || "").trim();
    return value === "" ? null : (/^\d+$/.test(value) ? Number(value) : value);
  };
  const checked = (name) => Boolean(form.elements[name] && form.elements[name].checked);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const pair = form.elements.entered_by.value;
    const body = {entered_by: pair ? Number(pair) : null, note: form.elements.note.value.trim()};
    if (page.dataset.format === "classic") {
      Object.assign(body, {ns_points: number("ns_points"), ew_points: number("ew_points"),
                           deals: number("deals"), ended_by: form.elements.ended_by.value || null});
    } else {
      Object.assign(body, {
        trump: form.elements.trump.value || null, ns_points_taken: number("ns_points_taken"),
        delegated: checked("delegated"), contro: checked("contro"), recontro: checked("recontro"),
        sant_vicenc: checked("sant_vicenc"), infraction: form.elements.infraction.value || null,
      });
      if (confirmUnusual) body.confirm_unusual = true;
    }
    confirmUnusual = false;
    const board = formOpenFor;
    formKey = await queue("PUT", entryUrl(board), body, board);
    if (!navigator.onLine) { close(); render(); return; }
    // Online: wait for the answer; a 400 keeps the form open with its errors.
    await flush();
    const still = (await all()).some((i) => i.key === formKey && i.status === "pending");
    const hasErrors = [...form.querySelectorAll("[data-errors], #entry-errors, #entry-unusual")].some((ul) => !ul.hidden);
    if (!hasErrors || still) close();
  });

  // ------------------------------------------------------------------ confirm / dispute
  document.querySelectorAll("form.confirm-form").forEach((confirmForm) =>
    confirmForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const board = confirmForm.dataset.board;
      const pair = Number(confirmForm.elements.pair.value);
      const action = event.submitter && event.submitter.value === "dispute" ? "dispute" : "confirm";
      const body = action === "confirm" ? {pair: pair}
        : {pair: pair, note: confirmForm.elements.note.value.trim()};
      queue("POST", entryUrl(board) + action + "/", body, board).then(flush);
    }));

  // ------------------------------------------------------------------ offline
  window.addEventListener("online", () => { render(); flush(); });
  window.addEventListener("offline", render);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(page.dataset.sw, {scope: "/t/"}).then(() =>
      navigator.serviceWorker.ready).then((registration) => {
      // This page's first load did not go through the worker: the worker keeps it now
      // (in its own cache, whose name changes with each deploy).
      if (navigator.onLine && registration.active) registration.active.postMessage({keep: location.href});
    }).catch(() => {});
  }
  render().then(flush);
}());
