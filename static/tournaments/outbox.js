/* An outbox kept in IndexedDB, shared by the table's page (table.js) and the referee's
   pages (referee_outbox.js): items keyed by their idempotency key, read back in the
   order they were made. botifarraOutbox(database, keep) -> {all, save, drop}; `keep`
   picks the items of this page (its table or its championship). */
"use strict";
window.botifarraOutbox = function (database, keep) {
  function db() {
    return new Promise((resolve, reject) => {
      const open = indexedDB.open(database, 1);
      open.onupgradeneeded = () => open.result.createObjectStore("outbox", {keyPath: "key"});
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
  }
  async function store(mode, action) {
    const conn = await db();
    return new Promise((resolve, reject) => {
      const tx = conn.transaction("outbox", mode);
      const request = action(tx.objectStore("outbox"));
      // Closed after each use, so that the logout page may delete the database at once.
      tx.oncomplete = () => { conn.close(); resolve(request ? request.result : undefined); };
      tx.onerror = () => { conn.close(); reject(tx.error); };
    });
  }
  return {
    all: async () => (await store("readonly", (s) => s.getAll()))
      .filter(keep).sort((a, b) => a.created - b.created),
    save: (item) => store("readwrite", (s) => s.put(item)),
    drop: (key) => store("readwrite", (s) => s.delete(key)),
  };
};
