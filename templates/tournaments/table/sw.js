{% load static %}/* The tables' service worker (served at /t/sw.js, scope /t/): keeps each table's
   page and its static files, so that the page opens with no network; the page queues its
   entries itself (static/tournaments/table.js). */
"use strict";
// The cache's name changes with this file and the static files' names (a deploy): the
// new worker's activation deletes the caches of the workers before it.
const PREFIX = "botifarra-table-";
const CACHE = PREFIX + "{{ cache_version }}";
const STATIC = [
  "{% static 'tournaments/site.css' %}", "{% static 'tournaments/outbox.js' %}", "{% static 'tournaments/table.js' %}",
  "{% static 'tournaments/result.js' %}",
  "{% static 'tournaments/favicon.svg' %}",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(STATIC)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// A page opened before the worker controlled it asks to be kept (its own address only).
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keep;
  if (typeof url === "string" && url.startsWith(self.registration.scope)) {
    event.waitUntil(caches.open(CACHE).then((c) => c.add(url)).catch(() => {}));
  }
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, {ignoreSearch: true, ignoreVary: true});
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, {ignoreVary: true});
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;  // entries go to the network (the page queues them)
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("{% get_static_prefix %}")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith("/t/") || url.pathname.startsWith("/api/v1/tables/")) {
    event.respondWith(networkFirst(request));
  }
});
