// The service worker: after one visit the app opens, starts Python and solves with no network.
//
// Installing it precaches the files every visit needs (the app, Pyodide, PyScript, the wheel: the list is written
// here by build.py) into the shell cache, named by a hash of those files; pattern-database and data files are cached
// the first time they are fetched, in the data cache, named by a hash of every pdb/ and data/ file. So a build that
// changes only the tables keeps the shell (nothing downloaded again), one that changes only the app keeps the tables
// (a 4x4 still solves offline after the update), and a change to either is a new worker. Everything of this origin
// is served from these caches first, and only from this build's own caches, so a page never mixes two builds' files.
// A new build installs beside the old one and waits: the page shows "A new version is ready" and, on the user's
// click, sends 'skip-waiting'; activating deletes every other cache but Pyodide's snapshot (offline.js then reloads
// each open tab).

const BUILD = '__BUILD__';
const DATA_BUILD = '__DATA_BUILD__';
const PRECACHE = __PRECACHE__;
const SHELL = `slidelab-${BUILD}`;
const DATA = `slidelab-data-${DATA_BUILD}`;
const SNAPSHOT = 'slidelab-snapshot';  // Pyodide's memory snapshot: js/pyodide_start.mjs names and replaces it
const FETCHED_ONCE = /\/(pdb|data)\//;  // cached when first fetched: large, and only some visits need them

self.addEventListener('install', event => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // A shell cache of this name holds this very build (it is named by the files' hash): only what it lacks is
    // fetched, past the browser's HTTP cache, which may still hold an older build's file under the same address.
    const missing = [];
    for (const url of PRECACHE) {
      if (!await cache.match(url)) missing.push(new Request(url, { cache: 'reload' }));
    }
    await cache.addAll(missing);
  })());
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== SHELL && key !== DATA && key !== SNAPSHOT) await caches.delete(key);
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
  event.respondWith(respond(event));
});

async function respond(event) {
  const { request } = event;
  const data = FETCHED_ONCE.test(new URL(request.url).pathname);
  const cache = await caches.open(data ? DATA : SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  if (!data) return fetch(request);
  // revalidated with the host (an older build's table may still sit in the HTTP cache), answered at once so the
  // page sees the download's progress, and stored while it streams
  const response = await fetch(request.url, { cache: 'no-cache' });
  if (response.ok) event.waitUntil(cache.put(request, response.clone()));
  return response;
}
