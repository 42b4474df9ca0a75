/* The page after logging out: what the referee's pages kept on this phone for offline
   use goes (a shared phone must not show them to the next person): the referees'
   service workers (scope /c/<slug>/referee/), their caches ("botifarra-referee-*") and
   the referee's outbox (IndexedDB "botifarra-referee"). The tables' pages keep theirs:
   they hold no account's pages. */
"use strict";
(async function () {
  const note = document.getElementById("offline-cleared");
  const said = document.getElementById("logged-out");
  let cleared = false;
  try {
    if (navigator.serviceWorker && navigator.serviceWorker.getRegistrations) {
      for (const registration of await navigator.serviceWorker.getRegistrations()) {
        if (new URL(registration.scope).pathname.includes("/referee/")) {
          await registration.unregister();
          cleared = true;
        }
      }
    }
    if (window.caches) {
      for (const name of await caches.keys()) {
        if (name.startsWith("botifarra-referee-")) {
          await caches.delete(name);
          cleared = true;
        }
      }
    }
    if (window.indexedDB) {
      await new Promise((resolve) => {
        const request = indexedDB.deleteDatabase("botifarra-referee");
        request.onsuccess = request.onerror = request.onblocked = () => resolve();
      });
    }
  } finally {
    document.body.dataset.offlineCleared = "1";  // done (the browser test waits for it)
    if (cleared && note && said) note.textContent = said.dataset.cleared;
  }
}());
