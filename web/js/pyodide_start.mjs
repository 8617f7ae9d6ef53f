// Pyodide's start for the solver worker, about five times faster from the second visit on: a memory snapshot.
//
// PyScript imports this module in place of pyodide.mjs (bridge.js passes it as `version`) and calls its
// loadPyodide. With no snapshot stored, it starts one interpreter only to take the snapshot (Pyodide's
// _makeSnapshot: the wheels PyScript passes as `packages` unpacked, the engine imported), keeps the snapshot in
// Cache Storage and hands PyScript an interpreter restored from it: PyScript's own set-up fails in the one that took
// it ("Illegal invocation"). Later starts restore the stored snapshot, which skips Python's start-up (about 80% of
// a start). A snapshot holds memory only, not files: the wheels are unpacked again on each start, for the engine's
// lazy imports. It is named by Pyodide's version and the wheels' digest, so a new engine never restores an old one;
// one that cannot be restored is deleted and made again. Without Cache Storage (not a secure context) Pyodide
// starts as usual.

import { loadPyodide as load, version } from '../pyodide/pyodide.mjs';

export { version };

// kept by sw.js across builds (its name is sw.js's SNAPSHOT: the app's path, this module's folder's parent); this
// module drops the snapshots it does not use
const CACHE = `slidelab ${new URL('../', import.meta.url).pathname} snapshot`;
const START_NOTE = 'Python started from the stored snapshot';  // for the console (and the browser tests)
const PRELOAD = 'import asyncio, json\nfrom slidelab import api\napi.preload()';  // what the first answers use
// a restored snapshot repeats its random state and its string hashes: reseed `random` if it was imported
const RESEED = "import sys\nif 'random' in sys.modules: sys.modules['random'].seed()";

export async function loadPyodide({ packages = [], ...options }) {
  options.indexURL = new URL('../pyodide/', import.meta.url).href;  // PyScript would say this module's folder
  const wheels = await Promise.all(packages.map(fetchBytes));
  const cache = (globalThis.caches && globalThis.crypto?.subtle) ? await caches.open(CACHE).catch(() => null) : null;
  if (!cache) return install(await load(options), wheels);
  const key = new URL(`snapshot-${version}-${await digest(wheels)}.bin`, import.meta.url).href;
  const stored = await cache.match(key);
  if (stored) {
    try {
      const pyodide = restore(await load({ ...options, _loadSnapshot: stored.arrayBuffer() }), wheels);
      console.info(`${START_NOTE} ${key}`);
      return pyodide;
    } catch (error) {
      console.warn('The stored Pyodide snapshot could not be restored; making a new one:', error);
      await cache.delete(key);
    }
  }
  const maker = install(await load({ ...options, _makeSnapshot: true }), wheels);
  maker.runPython(PRELOAD);
  const snapshot = maker.makeMemorySnapshot();
  save(cache, key, snapshot);  // not awaited: storing it must not delay this start
  return restore(await load({ ...options, _loadSnapshot: snapshot }), wheels);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} could not be fetched (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

function install(pyodide, wheels) {
  for (const wheel of wheels) pyodide.unpackArchive(wheel, 'wheel');
  return pyodide;
}

function restore(pyodide, wheels) {
  pyodide.runPython(RESEED);
  return install(pyodide, wheels);
}

async function save(cache, key, snapshot) {
  try {
    for (const request of await cache.keys()) if (request.url !== key) await cache.delete(request);
    await cache.put(key, new Response(snapshot, { headers: { 'Content-Type': 'application/octet-stream' } }));
  } catch (error) {
    console.warn('The Pyodide snapshot could not be stored (the next start makes it again):', error);
  }
}

async function digest(arrays) {
  const all = new Uint8Array(arrays.reduce((size, array) => size + array.length, 0));
  let at = 0;
  for (const array of arrays) { all.set(array, at); at += array.length; }
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return Array.from(hash.subarray(0, 8), byte => byte.toString(16).padStart(2, '0')).join('');
}
