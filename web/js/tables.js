// Pattern databases in the browser: before an `auto` or `pdb` search, the worker is asked which table files the
// board needs; the missing ones are fetched from the site's pdb/ folder (the browser's HTTP cache keeps them across
// visits) and their bytes handed to the worker.
//
//   const tables = new TableLoader(solver);
//   const outcome = await tables.prepare({board, goal?}, progress => {});
//   // outcome: {ok: true, fetched: [names], bytes, seconds} | {ok: false, message}
//   // progress: {filesDone, files, loaded, total} (total counts the sizes known so far)
//
// A file's bytes are kept once fetched, so a worker that was restarted (after an unanswered cancel) gets them again
// without a download; a failed fetch is forgotten, so the next search tries again.

const TABLE_HEURISTICS = ['auto', 'pdb'];

export class TableLoader {
  #files = new Map();  // name -> promise of the file's bytes
  #heuristicSearches = null;  // promise of the names of the algorithms that use a heuristic

  constructor(solver, { base = document.baseURI } = {}) {
    this.solver = solver;
    this.base = base;
  }

  /** Whether a solve request may use pattern databases: a heuristic search with auto or pdb on a sliding board. */
  async needed(request) {
    if ((request.puzzle ?? 'sliding') !== 'sliding' || !TABLE_HEURISTICS.includes(request.heuristic ?? 'auto')) {
      return false;
    }
    this.#heuristicSearches ??= this.solver.describe().then(catalogue => (
      catalogue.algorithms?.filter(a => a.uses_heuristic).map(a => a.name) ?? null));
    const searches = await this.#heuristicSearches;
    if (!searches) this.#heuristicSearches = null;  // the solver could not answer: ask again next time
    return !!searches?.includes(request.algorithm ?? 'idastar');
  }

  /** Install every table a solve request ({board, goal?}) needs into the worker, fetching those it lacks. */
  async prepare(request, onProgress = () => {}) {
    const started = performance.now();
    const query = { board: request.board };
    if (request.goal) query.goal = request.goal;
    const status = await this.solver.patternDatabases(query);
    if (!status.ok) return { ok: true, fetched: [], bytes: 0, seconds: 0 };  // no tables for this board: nothing to do
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
      if (files.length) onProgress({ filesDone: files.length, files: files.length, loaded: 0, total: 0, unpacking: true });
      for (const [name, bytes] of files) {
        const answer = await this.solver.installPatternDatabase(bytes);
        if (!answer.ok || answer.name !== name) {
          this.#files.delete(name);
          throw new Error(answer.ok ? `${name} holds the table ${answer.name}` : answer.error.message);
        }
      }
      const bytes = files.reduce((sum, [, data]) => sum + data.length, 0);
      return { ok: true, fetched: missing, bytes, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      return { ok: false, message: String(error?.message ?? error) };
    }
  }

  // One download per file and page; a later caller of the same file shares it (and its progress is not reported).
  #fetch(name, onBytes) {
    let file = this.#files.get(name);
    if (!file) {
      file = download(new URL(`pdb/${name}`, this.base).href, onBytes);
      file.catch(() => this.#files.delete(name));
      this.#files.set(name, file);
    }
    return file;
  }
}

async function download(url, onBytes) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error(`${url} could not be fetched (network error)`);
  }
  if (!response.ok) throw new Error(`${url} could not be fetched (HTTP ${response.status})`);
  const total = Number(response.headers.get('Content-Length')) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
export function progressText({ filesDone, files, loaded, total, unpacking = false }) {
  if (unpacking) return 'Unpacking the pattern databases';
  const mb = n => (n / 1e6).toFixed(1);
  return `Loading pattern databases: ${mb(loaded)} of ${total ? mb(total) : '?'} MB, ${filesDone} of ${files} ${files === 1 ? 'file' : 'files'}`;
}
