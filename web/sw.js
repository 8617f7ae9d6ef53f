// The service worker: after one visit the app opens, starts Python and solves with no network.
//
// Installing it precaches the files every visit needs (the app, Pyodide, PyScript, the wheel) into the shell cache,
// named by a hash of those files; pattern-database and data files are cached the first time they are fetched, in the
// data cache, named by a hash of every pdb/ and data/ file. So a build that changes only the tables keeps the shell
// (nothing downloaded again), one that changes only the app keeps the tables (a 4x4 still solves offline after the
// update), and a change to either is a new worker. Everything of this origin is served from these caches first, and
// only from this build's own caches, so a page never mixes two builds' files.
//
// Every file is checked against the build's SHA-256 of it (FILES, written here by build.py) before it is kept: a
// half-finished upload, an edge still serving the old build or a host's HTML page in place of a missing table is
// refused, tried once more past the HTTP cache, and never stored. Precaching takes what the HTTP cache holds (the
// page has usually just fetched it; the hash says whether it is this build's) and fetches only the rest; on the
// first visit the page waits for this worker before it starts Python (offline.js), so Pyodide comes through it once.
//
// Caches are named after the app's path ("slidelab /apps/slidelab/ shell 1a2b..."): on an origin shared by many
// sites under paths, this worker deletes only its own older caches, never another app's or another copy's.
// A new build installs beside the old one and waits: the page shows "A new version is ready" and, on the user's
// click, sends 'skip-waiting'; activating deletes this app's other caches but Pyodide's snapshot (offline.js then
// reloads each open tab). The first install has nothing to wait for: it takes over the page at once.

const BUILD = '__BUILD__';
const DATA_BUILD = '__DATA_BUILD__';
const FILES = __FILES__;  // "./path" -> "sha256-<base64>" for every file of the build but this one
const FETCHED_ONCE = /^\.\/(pdb|data)\//;  // cached when first fetched: large, and only some visits need them
const APP = `slidelab ${new URL(self.registration.scope).pathname} `;  // every cache name of this app starts so
const SHELL = `${APP}shell ${BUILD}`;
const DATA = `${APP}data ${DATA_BUILD}`;
const SNAPSHOT = `${APP}snapshot`;  // Pyodide's memory snapshot: js/pyodide_start.mjs names (alike) and replaces it
const LEGACY = /^slidelab-((data-)?[0-9a-f]{16}|snapshot)$/;  // names before they carried the app's path

self.addEventListener('install', event => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // A shell cache of this name holds this very build (it is named by the files' hash): only what it lacks is
    // fetched.
    const precache = Object.keys(FILES).filter(path => !FETCHED_ONCE.test(path));
    await Promise.all(precache.map(async path => {
      if (await cache.match(path)) return;
      await cache.put(path, await fetchChecked(path, ['default', 'reload']));
    }));
    if (!self.registration.active) self.skipWaiting();  // the first install: nothing older to replace
  })());
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      const mine = key.startsWith(APP) || LEGACY.test(key);
      if (mine && key !== SHELL && key !== DATA && key !== SNAPSHOT) await caches.delete(key);
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

/** The build's path of a URL of this app ("./js/app.js"; "./" for the app's root), or null outside it. */
function pathOf(url) {
  const { pathname } = new URL(url);
  const root = new URL(self.registration.scope).pathname;
  return pathname.startsWith(root) ? `./${pathname.slice(root.length)}` : null;
}

async function respond(event) {
  const { request } = event;
  const path = pathOf(request.url);
  const data = path !== null && FETCHED_ONCE.test(path);
  const cache = await caches.open(data ? DATA : SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  if (!data || !(path in FILES)) return fetch(request);
  // Revalidated with the host (an older build's table may still sit in the HTTP cache) and answered at once, so the
  // page sees the download's progress; the bytes are checked as the stream ends, and kept only if they match.
  const response = await fetch(request.url, { cache: 'no-cache' });
  // an error, or a host's web page in place of a missing file: passed on as it is, never kept
  if (!response.ok || (response.headers.get('Content-Type') ?? '').startsWith('text/html')) return response;
  let ended;
  event.waitUntil(new Promise(resolve => { ended = resolve; }));
  return checkedStream(response, FILES[path], bytes => cache.put(request, new Response(bytes, {
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) },
  })), ended);
}

/** The file at `path`, checked against the build's hash: tried with each HTTP cache mode in turn (the first that
 * answers this build's bytes wins); throws when none does, which fails the install (the browser tries it again). */
async function fetchChecked(path, modes) {
  let reason = '';
  for (const mode of modes) {
    try {
      const response = await fetch(new Request(path, { cache: mode, integrity: FILES[path] }));
      if (response.ok) return response;
      reason = `HTTP ${response.status}`;
    } catch (error) {
      reason = String(error?.message ?? error);  // a network error, or bytes that do not match the hash
    }
  }
  throw new Error(`${path} could not be fetched as this build has it (${reason})`);
}

/** A response passing `response`'s bytes on as they come; at the end they are hashed: if they match `expected`,
 * `keep(bytes)` stores them and the stream ends; if not, the stream fails (the page reads an error) and nothing is
 * kept. `ended()` is called either way once done. */
function checkedStream(response, expected, keep, ended) {
  const reader = response.body.getReader();
  const chunks = [];
  const stream = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) {
          chunks.push(value);
          controller.enqueue(value);
          return;
        }
        const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
        let at = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, at);
          at += chunk.length;
        }
        if (await sha256(bytes) !== expected) {
          controller.error(new TypeError('the file does not match this build of the app'));
        } else {
          await keep(bytes);
          controller.close();
        }
        ended();
      } catch (error) {
        controller.error(error);
        ended();
      }
    },
    cancel() {
      reader.cancel();
      ended();
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}
