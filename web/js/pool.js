// A pool of solver workers: one IDA* search split over several Python runtimes, one per core, as the command line's
// `--workers` splits it over processes, driven by the same Python generator (search/parallel_idastar.py's
// iterations, run in the page's own solver: api.pool_start, api.pool_next). Each round the driver names the subtrees
// that fit the bound, in frontier order and grouped into tasks (small neighbours travel together); this hands the
// tasks to the workers from one queue (every worker splits the search the same way), the first solution found stops
// the others (it is a shortest one), and the round's answers go back to the driver, which answers the next round, its iteration's event, or the
// answer, checked by replaying it.
//
//   const pool = new SolverPool(solver, tables, { onChange });   // solver: the page's Solver; tables: its TableLoader
//   pool.size = 2;                      // workers in all, the page's solver included (1: no pool)
//   const answer = await pool.solve(request, progress => {});     // like solver.solve; IDA* runs on the pool when
//   pool.cancel();                                                // it is ready, every other search on the solver
//
// Each extra worker is a whole Pyodide (a few seconds to start, and its own copy of the tables), so the pool starts
// lazily: when its size is chosen, or the first time a search runs past a second (that search goes on as it is).
// A worker whose subtree fails (its runtime died: the bridge restarts it) puts the subtree back in the queue, and
// once restarted gets its tables again and comes back. The size may change during a search: a worker taken away
// hands its subtrees back to the queue, and one added (or started late) joins at the start of an iteration once it
// holds the tables. Browsers share no memory between workers without cross-origin isolation, which a static host
// may not offer, so tables are copied into each worker rather than kept in one SharedArrayBuffer.
//
// SolverPool.latest (the pool last made) and pool.workers are there for the browser tests.

import { Solver, failure } from './bridge.js';
import { t } from './i18n.js';

const START_AFTER_MS = 1000;
export const MAX_WORKERS = 16;
// a worker's memory with the largest 4x4 tables the page offers (the 7-7-1 download; 230 with the standard ones),
// measured (docs/benchmarks.md, "A pool worker's memory")
export const WORKER_MB = 280;
const MEMORY_SHARE = 0.25;  // of the device's memory, for the pool's workers by default

export class SolverPool {
  static latest = null;  // the pool last made (the page's), for the browser tests
  #extra = [];         // the workers beyond the page's own solver
  #size;
  #starting = false;   // a start in turn is under way (#startInTurn)
  #running = null;     // {cancelled, members: [{worker, expanded, live, out}], joining, prepared}: the search
  last = null;         // the last parallel search's "parallel" statistics: {workers: [{expanded}], subtrees, ...}

  constructor(solver, tables, { onChange = () => {}, base = document.baseURI } = {}) {
    Object.assign(this, { solver, tables, onChange, base });
    this.#size = SolverPool.defaultSize().size;
    SolverPool.latest = this;
  }

  /** The pool's size unless the user picks one, and why: {size, cores, memoryGB, fits}. One worker per core, at
   * most MAX_WORKERS (on a one-core device, 1: no pool), and no more than fit in MEMORY_SHARE of the device's memory
   * where the browser tells it (navigator.deviceMemory, in GB, rounded down and at most 8): each worker holds a
   * whole Python runtime and its own copy of the tables, WORKER_MB in all (docs/benchmarks.md). `fits` is that
   * number when memory, not cores, set the size, else null. */
  static defaultSize() {
    const cores = navigator.hardwareConcurrency || 1;
    const memoryGB = navigator.deviceMemory ?? null;
    const size = Math.max(1, Math.min(cores, MAX_WORKERS));
    const fits = memoryGB ? Math.max(1, Math.floor(memoryGB * 1000 * MEMORY_SHARE / WORKER_MB)) : Infinity;
    return { size: Math.min(size, fits), cores, memoryGB, fits: fits < size ? fits : null };
  }

  get size() {
    return this.#size;
  }

  /** Choose the number of workers (the page's solver included): extra workers start now, surplus ones stop (the
   * subtrees they were searching go back to the queue). */
  set size(n) {
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
      for (let next; (next = this.#extra.find(worker => worker.status === 'idle'));) await next.start();
    } finally {
      this.#starting = false;
    }
  }

  #inPool(worker) {
    return worker === this.solver || this.#extra.includes(worker);
  }

  /** Solve like solver.solve: IDA* on the pool when two or more workers are ready, anything else on the solver (a
   * search with max_nodes or max_seconds too: the pool imposes no limits; and one with your heuristic, whose code
   * runs in one worker only). */
  async solve(request, onProgress = () => {}) {
    const parallel = this.#size > 1 && (request.algorithm ?? 'idastar') === 'idastar'
      && request.max_nodes == null && request.max_seconds == null && request.heuristic !== 'yours';
    if (!parallel || this.ready < 2) {
      const timer = parallel ? setTimeout(() => this.#grow(), START_AFTER_MS) : null;
      try {
        return await this.solver.solve(request, onProgress);
      } finally {
        clearTimeout(timer);
      }
    }
    const running = { cancelled: false, members: [{ worker: this.solver, expanded: 0, live: 0, out: false }],
      joining: new Map(), prepared: [] };
    this.#running = running;
    try {
      const answer = await this.#parallel(request, running, onProgress);
      if (answer.ok && answer.parallel) this.last = answer.parallel;
      return answer;
    } finally {
      this.#running = null;
      this.onChange();
    }
  }

  /** Stop the running search, on every worker. */
  async cancel() {
    const running = this.#running;
    if (!running) return this.solver.cancel();
    running.cancelled = true;
    await Promise.all(running.members.map(m => m.worker.cancel()));
  }

  /** Install the tables into every ready extra worker not yet in the search, all at once; each that got them is
   * added to the search at the start of the next iteration (resolves when these installs are done). */
  #enlist(running, request) {
    for (const worker of this.#extra) {
      if (worker.status !== 'ready' || running.joining.has(worker)) continue;
      running.joining.set(worker, this.tables.installInto(worker, request).then(tables => {
        if (tables.ok) running.prepared.push(worker);
      }));
    }
    return Promise.all(running.joining.values());
  }

  // The search's rounds come from the page's solver (api.pool_start, api.pool_next: the driver the command line's
  // processes run too); this hands each round's subtrees out and carries their answers back.
  async #parallel(request, running, onProgress) {
    const started = performance.now();
    const enlisted = this.#enlist(running, request);  // while the page's solver splits
    const base = { ...request, pool: this.#size };
    let step = await this.solver.poolStart(base, onProgress);  // a token puzzle's goal is proved reachable first
    if (step.ok && !step.answer) await enlisted;
    const { members } = running;
    let counted = 0;  // nodes of the subtrees searched so far (the progress line's)
    let replaced = 0;
    for (;;) {
      if (running.cancelled) return failure('cancelled', t('error.search-cancelled'));
      if (!step.ok) return step;
      for (const event of step.events) onProgress(event);  // each iteration's bound and nodes, as they end
      if (step.answer) return step.answer;
      const { bound, groups } = step.round;
      const report = () => {
        const elapsed = (performance.now() - started) / 1000;
        const expanded = counted + members.reduce((sum, m) => sum + m.live, 0);
        onProgress({
          type: 'progress', expanded, stored: bound + 1, bound,
          elapsed_s: elapsed, nodes_per_s: Math.round(expanded / Math.max(elapsed, 1e-9)),
          workers: members.map(m => m.expanded + m.live),
        });
        this.onChange();
      };
      this.#enlist(running, request);  // workers that became ready since (the size was raised) join when they can
      for (const worker of running.prepared.splice(0)) {
        if (!this.#inPool(worker) || worker.status !== 'ready') continue;
        const member = members.find(m => m.worker === worker);  // one that died and has restarted
        if (member) member.out = false;
        else members.push({ worker, expanded: 0, live: 0, out: false });
      }
      const queue = [...groups];
      const active = m => !m.out && this.#inPool(m.worker);  // out: died, not back yet
      const searched = [];
      let found = false;
      const redone = new Set();  // subtrees given back by a worker that died: a second death is a failure
      let failed = null;
      const done = () => running.cancelled || failed || (found && !request.all_solutions);
      const work = async member => {
        const { worker } = member;
        while (queue.length && !done() && active(member)) {
          const group = queue.shift();
          const answer = await worker.subtree({ ...base, subtree: group, bound }, event => {
            if (event.type === 'progress') {
              member.live = event.expanded;
              report();
            }
          });
          member.live = 0;
          if (answer.ok) {
            searched.push(answer);
            counted += answer.expanded;
            member.expanded += answer.expanded;
            if (answer.solutions.length) {
              found = true;
              if (!request.all_solutions) members.filter(m => m !== member).forEach(m => m.worker.cancel());
            }
          } else if (answer.error.code === 'cancelled' && done()) {
            return;  // stopped because another worker found the goal, or the user cancelled
          } else if (!this.#inPool(worker)) {
            queue.unshift(group);  // taken away by a smaller size: the others search its subtrees
            return;
          } else if (answer.error.code === 'internal' && worker !== this.solver && !running.cancelled
                     && !group.some(i => redone.has(i))) {
            // its runtime died and restarts (a few seconds): the others search its subtrees, and it gets the
            // tables again and comes back at the start of an iteration once it is ready
            queue.unshift(group);
            group.forEach(i => redone.add(i));
            replaced += 1;
            member.out = true;
            running.joining.delete(worker);
            return;
          } else {
            failed = answer;
          }
        }
      };
      do {  // again if a worker taken away gave subtrees back after the others had finished
        await Promise.all(members.filter(active).map(work));
      } while (queue.length && !done());
      if (running.cancelled) return failure('cancelled', t('error.search-cancelled'));
      if (failed) return failed;
      step = await this.solver.poolNext(base, {
        searched, workers: members.map(m => ({ expanded: m.expanded })), workers_replaced: replaced,
      });
      report();
    }
  }
}
