// Pattern databases in the browser: before a search, the worker is asked which table files that very search uses
// (the engine decides: none for token puzzles, searches without a heuristic, quick, heuristics other than auto and
// pdb); the missing ones are fetched from the site's pdb/ folder (the browser's HTTP cache keeps them across visits)
// and their bytes handed to the worker.
//
//   const tables = new TableLoader(solver);
//   const stop = new AbortController();   // stop.abort() leaves the wait (a download goes on for the next search)
//   const outcome = await tables.load(request, { onText: text => {}, signal: stop.signal });
//   // request: the whole solve request; onText: "Loading pattern databases: 1.2 of 6.0 MB, 1 of 4 files…"
//   // outcome: {ok: true, needed, fetched: [names], bytes, seconds} | {ok: false, needed: true, message},
//   // or null once aborted; `needed` says whether the search uses any tables
//
// A file's bytes are kept once fetched, so a worker that was restarted (after an unanswered cancel) gets them again
// without a download; a failed fetch is forgotten, so the next search tries again.

import { errorText, t } from './i18n.js';

export class TableLoader {
  #files = new Map();  // name -> promise of the file's bytes

  constructor(solver, { base = document.baseURI } = {}) {
    this.solver = solver;
    this.base = base;
  }

  /** Install every table a solve request ({puzzle, board, goal?, algorithm, heuristic, rule?}) uses into the worker,
   * fetching those it lacks, with the download told as text; resolves with null as soon as `signal` (an AbortSignal)
   * aborts, after which no more text is told. */
  load(request, { onText = () => {}, signal }) {
    const aborted = new Promise(resolve => {
      if (signal.aborted) resolve(null);
      signal.addEventListener('abort', () => resolve(null), { once: true });
    });
    return Promise.race([aborted, this.#prepare(request, progress => {
      if (!signal.aborted) onText(`${progressText(progress)}…`);
    })]);
  }

  /** One request for each set of tables the page's solver was given, by the tables' names (the engine's
   * patternDatabases answer): a pool's workers get them too when they start. */
  held = new Map();

  /** Install the tables a request uses into another solver (a pool worker), from the bytes this page holds (fetched
   * if need be): resolves like load, without progress. */
  installInto(solver, request) {
    return this.#prepare(request, () => {}, solver);
  }

  // progress: {filesDone, files, loaded, total} (total counts the sizes known so far), then {unpacking: true}.
  async #prepare(request, onProgress, solver = this.solver) {
    const started = performance.now();
    const status = await solver.patternDatabases(request);
    // an invalid request uses no tables: its search answers with the reason
    if (!status.ok || !status.tables.length) return { ok: true, needed: false, fetched: [], bytes: 0, seconds: 0 };
    if (solver === this.solver) this.held.set(status.tables.map(table => table.name).join(' '), request);
    const missing = status.tables.filter(table => !table.ready).map(table => table.name);
    const sizes = new Map(missing.map(name => [name, { loaded: 0, total: 0, done: false }]));
    const report = () => {
      const all = [...sizes.values()];
      onProgress({
        filesDone: all.filter(size => size.done).length, files: all.length,
        loaded: all.reduce((sum, size) => sum + size.loaded, 0), total: all.reduce((sum, size) => sum + size.total, 0),
      });
    };
    try {
      const files = await Promise.all(missing.map(async name => {
        const bytes = await this.#fetch(name, (loaded, total) => {
          Object.assign(sizes.get(name), { loaded, total });
          report();
        });
        Object.assign(sizes.get(name), { loaded: bytes.length, total: bytes.length, done: true });
        report();
        return [name, bytes];
      }));
      if (files.length) {
        onProgress({ filesDone: files.length, files: files.length, loaded: 0, total: 0, unpacking: true });
      }
      for (const [name, bytes] of files) {
        const answer = await solver.installPatternDatabase(bytes);
        if (!answer.ok || answer.name !== name) {
          this.#files.delete(name);
          throw new Error(answer.ok ? t('tables.wrong-file', { file: name, table: answer.name }) : errorText(answer.error));
        }
      }
      const bytes = files.reduce((sum, [, data]) => sum + data.length, 0);
      return { ok: true, needed: true, fetched: missing, bytes, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      return { ok: false, needed: true, message: String(error?.message ?? error) };
    }
  }

  // One download per file and page; a later caller of the same file shares it (and its progress is not reported).
  // A download that fails is tried once more (the service worker refuses bytes that do not match the build).
  #fetch(name, onBytes) {
    let file = this.#files.get(name);
    if (!file) {
      const url = new URL(`pdb/${name}`, this.base).href;
      file = download(url, onBytes).catch(() => download(url, onBytes));
      file.catch(() => this.#files.delete(name));
      this.#files.set(name, file);
    }
    return file;
  }
}

async function download(url, onBytes) {
  const failed = reason => new Error(`${url}: ${reason}`);
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw failed(t('tables.network'));
  }
  if (!response.ok) throw failed(`HTTP ${response.status}`);
  if ((response.headers.get('Content-Type') ?? '').startsWith('text/html')) throw failed(t('tables.html'));
  const total = Number(response.headers.get('Content-Length')) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    let done, value;
    try {
      ({ done, value } = await reader.read());
    } catch (error) {
      throw failed(error?.message ?? t('tables.broke-off'));
    }
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onBytes(loaded, Math.max(total, loaded));
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** "Loading pattern databases: 1.2 of 6.0 MB, 1 of 4 files", then "Unpacking the pattern databases". */
function progressText({ filesDone, files, loaded, total, unpacking = false }) {
  if (unpacking) return t('tables.unpacking');
  const mb = n => (n / 1e6).toFixed(1);
  return t('tables.loading', { loaded: mb(loaded), total: total ? mb(total) : '?', done: filesDone, count: files });
}
