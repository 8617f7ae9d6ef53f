// A pool of solver workers: one IDA* search split over several Python runtimes, one per core, as the command line's
// `--workers` splits it over processes, on the same scheduler (the engine's scheduler.py): the page's own solver runs
// the search ("engine": "page") and its scheduler, which decides what each worker searches, retries what a worker
// lost, stops at the first solution and counts every node; the solver searches tasks itself and, between two steps,
// asks this pool (PoolTasks below) to start tasks on the other workers and what they reported.
//
//   const pool = new SolverPool(solver, tables, { onChange });   // solver: the page's Solver; tables: its TableLoader
//   pool.size = 2;                      // workers in all, the page's solver included (1: no pool)
//   const answer = await pool.solve(request, progress => {});     // like solver.solve; IDA* runs on the pool when
//   pool.cancel();                                                // it is ready, every other search on the solver
//   pool.solve(request, progress => {}, { long: true });          // a long search: on the pool at once
//
// Each extra worker is a whole Pyodide (a few seconds to start, and its own copy of the tables), so the pool starts
// lazily: when its size is chosen, or the first time a search runs past a second (that search goes on as it is).
// A worker whose runtime dies (the bridge restarts it) loses its task, which the scheduler hands out again, and once
// restarted it gets its tables again and comes back. The size may change during a search: a worker taken away loses
// its task too, and one added (or started late) joins once it holds the tables. Browsers share no memory between
// workers without cross-origin isolation, which a static host may not offer, so tables are copied into each worker
// rather than kept in one SharedArrayBuffer.
//
// SolverPool.latest (the pool last made) and pool.workers are there for the browser tests.

import { Solver } from './bridge.js';

const START_AFTER_MS = 1000;
// how long a long split search's first tasks wait for the extra workers' tables to go in (the 6-6-6-6 ones take
// seconds, which the solver spends searching instead)
const JOIN_WAIT_MS = 250;
export const MAX_WORKERS = 16;
// a worker's memory with the standard 4x4 tables, measured (docs/benchmarks.md, "A pool worker's memory"); a larger
// set of tables in use adds its own memory (describe().download_tables)
export const WORKER_MB = 230;
const MEMORY_SHARE = 0.25;  // of the device's memory, for the pool's workers by default

/** How many workers of WORKER_MB and `tablesMB` more fit in MEMORY_SHARE of the device's memory, where the browser
 * tells it (navigator.deviceMemory, in GB, rounded down and at most 8; Infinity where it does not): {fits, memoryGB,
 * workerMB}. */
export function workersFitting(tablesMB = 0) {
  const memoryGB = navigator.deviceMemory ?? null;
  const workerMB = Math.round(WORKER_MB + tablesMB);
  return { fits: memoryGB ? Math.floor(memoryGB * 1000 * MEMORY_SHARE / workerMB) : Infinity, memoryGB, workerMB };
}

export class SolverPool {
  static latest = null;  // the pool last made (the page's), for the browser tests
  #extra = [];         // the workers beyond the page's own solver
  #size;
  #starting = false;   // a start in turn is under way (#startInTurn)
  #running = null;     // the PoolTasks of the search running on the pool
  #installs = new Map();  // extra worker -> its latest tables' install (one at a time per worker)
  #tablesMB = 0;       // the memory of the larger tables in use, beyond WORKER_MB
  #picked = false;     // the user chose the size: the tables' memory no longer sets it
  last = null;         // the last parallel search's "parallel" statistics: {workers: [{expanded}], subtrees, ...}

  constructor(solver, tables, { onChange = () => {}, base = document.baseURI } = {}) {
    Object.assign(this, { solver, tables, onChange, base });
    this.#size = this.defaultSize().size;
    SolverPool.latest = this;
  }

  /** The pool's size unless the user picks one, and why: {size, cores, memoryGB, workerMB, fits}. One worker per
   * core, at most MAX_WORKERS (on a one-core device, 1: no pool), and no more than fit in the device's memory
   * (workersFitting): each worker holds a whole Python runtime and its own copy of the tables in use. `fits` is that
   * number when memory, not cores, set the size, else null. */
  defaultSize() {
    const cores = navigator.hardwareConcurrency || 1;
    const { fits, memoryGB, workerMB } = workersFitting(this.#tablesMB);
    const size = Math.max(1, Math.min(cores, MAX_WORKERS));
    const held = Math.max(1, fits);
    return { size: Math.min(size, held), cores, memoryGB, workerMB, fits: held < size ? held : null };
  }

  /** The memory (MB) of the larger tables in use (0: the standard ones): the default size follows it until the user
   * picks a size. */
  set tablesMB(mb) {
    this.#tablesMB = mb;
    if (this.#picked) {
      this.onChange();
    } else if (this.#extra.length) {
      this.#resize(this.defaultSize().size);
    } else {  // not started yet: it starts later, as it would have
      this.#size = this.defaultSize().size;
      this.onChange();
    }
  }

  get size() {
    return this.#size;
  }

  /** Choose the number of workers (the page's solver included): extra workers start now, surplus ones stop (the
   * subtrees they were searching go back to the queue). */
  set size(n) {
    this.#picked = true;
    this.#resize(n);
  }

  #resize(n) {
    this.#size = Math.max(1, Math.min(MAX_WORKERS, Math.floor(n) || 1));
    for (const worker of this.#extra.splice(this.#size - 1)) worker.stop();
    this.#grow();
  }

  /** The page's solver and the extra workers, started or not. */
  get workers() {
    return [this.solver, ...this.#extra];
  }

  /** Workers ready to search, the page's solver included. */
  get ready() {
    return (this.solver.status === 'ready' ? 1 : 0) + this.#extra.filter(w => w.status === 'ready').length;
  }

  /** Extra workers started (ready or starting). */
  get started() {
    return this.#extra.length;
  }

  /** Workers searching a subtree right now (0 when no search runs). */
  get busy() {
    return this.#running ? this.#running.members.filter(m => m.worker.busy).length : (this.solver.busy ? 1 : 0);
  }

  #grow() {
    while (this.#extra.length < this.#size - 1) {
      this.#extra.push(new Solver({ onStatus: () => this.onChange(), base: this.base }));
    }
    this.#startInTurn();
    this.onChange();
  }

  // Workers start one at a time, after the page's solver: a start's failures are then its own (some surface only as
  // an unhandled rejection, which names no worker), and starts do not compete for the network and memory.
  async #startInTurn() {
    if (this.#starting) return;
    this.#starting = true;
    try {
      await this.solver.start();
      for (let next; (next = this.#extra.find(worker => worker.status === 'idle'));) {
        await next.start();
        // the tables the page's solver holds go in now, before a search needs them
        if (next.status === 'ready') for (const held of this.tables.held.values()) this.#prepare(next, held);
      }
    } finally {
      this.#starting = false;
    }
  }

  /** Install the tables `request` uses into an extra worker, after its installs before: resolves to
   * tables.installInto's outcome (a worker that holds them already answers at once). */
  install(worker, request) {
    const done = (this.#installs.get(worker) ?? Promise.resolve()).then(() => this.tables.installInto(worker, request));
    this.#installs.set(worker, done.catch(() => {}));
    return done;
  }

  // The tables `request` uses into an extra worker, then its search warmed for it (Solver.warm): done while the page's
  // solver searches alone, before the search is split, and at most once per goal in each worker (the kernel keeps it).
  #prepare(worker, request) {
    this.install(worker, request).then(tables => tables.ok && worker.warm(request)).catch(() => {});
  }

  /** Resolves once every install under way into the extra workers is done. */
  installed() {
    return Promise.all(this.#installs.values());
  }

  /** Solve like solver.solve: on the pool when two or more workers are ready and the engine splits this request
   * (api.splits: IDA* without limits or your heuristic), anything else on the solver. A search known to be `long`
   * (a board beyond the 15-puzzle, one that goes on from a checkpoint) goes to the pool however many workers are
   * ready: the pool starts, and its workers join as they come. */
  async solve(request, onProgress = () => {}, { long = false } = {}) {
    const parallel = (this.#size > 1 || long) && (await this.solver.splits(request)).splits === true;
    if (parallel && long) this.#grow();
    if (!parallel || (this.ready < 2 && !long)) {
      const timer = parallel ? setTimeout(() => this.#grow(), START_AFTER_MS) : null;
      try {
        return await this.solver.solve(request, onProgress);
      } finally {
        clearTimeout(timer);
      }
    }
    for (const worker of this.extra) {  // the tables go in while the search begins in the solver alone
      if (worker.status === 'ready') this.#prepare(worker, request);
    }
    const running = new PoolTasks(this, request, long);
    this.#running = running;
    try {
      const answer = await this.solver.solve({ ...request, engine: 'page', workers: this.#size }, onProgress, {
        onAsk: question => running.answer(question.pool).then(reply => {
          // the browser tests hold both messages to docs/api.schema.json, as every answer (bridge.js)
          globalThis.slidelabAnswers?.push(['pool_question', question.pool], ['pool_reply', reply]);
          return this.solver.reply(reply);
        }),
      });
      if (answer.ok && answer.parallel) this.last = answer.parallel;
      return answer;
    } finally {
      running.stop();
      this.#running = null;
      this.onChange();
    }
  }

  /** Stop the running search, on every worker. */
  async cancel() {
    const running = this.#running;
    if (!running) return this.solver.cancel();
    await Promise.all([this.solver.cancel(), running.stop()]);
  }

  /** The extra workers ready now. */
  get extra() {
    return this.#extra;
  }

  /** Whether `worker` is (still) one of the pool's. */
  has(worker) {
    return worker === this.solver || this.#extra.includes(worker);
  }
}

// The page's side of a search split over the pool. The page's solver runs the search and its scheduler (the engine's
// scheduler.py, with carriers.PageCarrier) and is one of the workers: between two slices of its own task, or while
// it has none, it asks this {start: [{id, subtrees, bound, place, partial?}], take, wait_ms, request?} -> {workers:
// [the names of the workers ready], take: the id of the task it is to search next (when it asked to take one) or
// null, events: [{type: progress | done | lost | failed, task, worker?, ...}]}. This only carries: the round's tasks
// wait here in the round's order (`place`), and every worker takes the next one as soon as it is free (a task's
// `partial`, where its subtree's search had got, goes with it, and a progress event's `at`, where it has got, comes
// back); an answer, a worker's runtime that died (lost, and started again: it gets its tables and is ready again)
// and a worker taken away by a smaller pool (lost) are reported; what to search again, when to stop and what to
// count is the scheduler's. Workers are named by the order they joined (the page's solver is 0).
class PoolTasks {
  #queue = [];
  #events = [];
  #wake = null;
  #stopped = false;

  constructor(pool, request, long) {
    this.pool = pool;
    this.request = request;
    this.long = long;          // a search known to be long (pool.solve's): its workers join as they come
    this.members = [{ worker: pool.solver, name: 0, task: null, out: false }];
    this.joining = new Map();  // worker -> its tables' install
    this.base = null;          // the request the workers split the search from (the first question's)
  }

  /** The answer to one question of the page's solver. */
  async answer({ request = null, start = [], take = false, wait_ms: wait = 0 }) {
    if (request) {
      this.base = request;
      // the workers ready now get the tables before the first tasks; in a long search, only while that is quick
      // (the 6-6-6-6 tables install in seconds): then the solver begins and each joins when its install ends
      const joined = this.#enlist();
      await (this.long ? Promise.race([joined, new Promise(resolve => setTimeout(resolve, JOIN_WAIT_MS))]) : joined);
    } else {
      this.#enlist();
    }
    for (const task of start) {  // in the round's order: a task queued again goes before those after its place
      const at = this.#queue.findIndex(queued => queued.place > task.place);
      this.#queue.splice(at < 0 ? this.#queue.length : at, 0, task);
    }
    const taken = take ? (this.#queue.shift() ?? null) : null;
    this.#feed();
    if (take && !taken && !this.#events.length && wait > 0 && !this.#stopped) {
      await new Promise(resolve => {
        this.#wake = resolve;
        setTimeout(resolve, wait);
      });
    }
    this.#wake = null;
    return { workers: this.#ready().map(m => m.name), take: taken?.id ?? null, events: this.#events.splice(0) };
  }

  /** Stop every task still running (the search has its answer, or was cancelled). */
  stop() {
    this.#stopped = true;
    this.#wake?.();
    return Promise.all(this.members.slice(1).filter(m => m.task).map(m => m.worker.cancel()));
  }

  #ready() {
    return this.members.slice(1).filter(m => !m.out && this.pool.has(m.worker) && m.worker.status === 'ready');
  }

  // Install the tables into every ready extra worker not yet in the search; each that got them joins (resolves when
  // these installs are done).
  #enlist() {
    for (const worker of this.pool.extra) {
      if (worker.status !== 'ready' || this.joining.has(worker)) continue;
      this.joining.set(worker, this.pool.install(worker, this.request).then(tables => {
        if (!tables.ok) return;
        const member = this.members.find(m => m.worker === worker);  // one that died and has started again
        if (member) member.out = false;
        else this.members.push({ worker, name: this.members.length, task: null, out: false });
        this.#feed();
      }));
    }
    return Promise.all(this.joining.values());
  }

  #tell(event) {
    this.#events.push(event);
    this.#wake?.();
  }

  #feed() {
    for (const member of this.#ready()) {
      if (!member.task && this.#queue.length && !this.#stopped) this.#run(member, this.#queue.shift());
    }
  }

  async #run(member, task) {
    const { worker, name } = member;
    member.task = task;
    const partial = task.partial ? { partial: task.partial } : {};  // null would reach Python as jsnull, not None
    const request = { ...this.base, subtree: task.subtrees, bound: task.bound, ...partial };
    const answer = await worker.subtree(request, event => {
      if (event.type !== 'progress' || this.#stopped) return;
      this.#tell({ type: 'progress', task: task.id, worker: name, expanded: event.expanded,
        generated: event.generated, ...(event.at ? { at: event.at } : {}) });
      this.pool.onChange();
    });
    member.task = null;
    if (this.#stopped) return;
    if (answer.ok) {
      this.#tell({ type: 'done', task: task.id, worker: name, answer });
    } else if (!this.pool.has(worker)) {
      this.#tell({ type: 'lost', task: task.id, worker: name, how: 'the worker was taken away' });
    } else if (answer.error.code === 'internal') {
      // its runtime died and starts again (a few seconds): it gets the tables again and comes back once ready
      this.#tell({ type: 'lost', task: task.id, worker: name, how: 'its runtime died', died: true });
      member.out = true;
      this.joining.delete(worker);
    } else {
      this.#tell({ type: 'failed', task: task.id, worker: name, error: answer.error });
    }
    this.#feed();
  }
}
