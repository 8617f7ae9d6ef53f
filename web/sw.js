// The service worker: after one visit the app opens, starts Python and solves with no network.
//
// Installing it precaches the files every visit needs (the app, Pyodide, PyScript, the wheel: the list is written
// here by build.py, with the build's id) into a cache named by the build; pattern-database and data files are cached
// the first time they are fetched. Everything of this origin is served from these caches first, and only from this
// build's own caches, so a page never mixes two builds' files. A new build installs beside the old one and waits:
// the page shows "A new version is ready" and, on the user's click, sends 'skip-waiting'; activating deletes the
// caches of other builds.

const BUILD = '__BUILD__';
const PRECACHE = __PRECACHE__;
const SHELL = `slidelab-${BUILD}`;
const DATA = `slidelab-data-${BUILD}`;
const FETCHED_ONCE = /\/(pdb|data)\//;  // cached when first fetched: large, and only some visits need them

self.addEventListener('install', event => {
  event.waitUntil(caches.open(SHELL).then(cache => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== SHELL && key !== DATA) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', event => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', event => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});

async function respond(request) {
  const url = new URL(request.url);
  const data = FETCHED_ONCE.test(url.pathname);
  const cache = await caches.open(data ? DATA : SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (data && response.ok) await cache.put(request, response.clone());
  return response;
}
