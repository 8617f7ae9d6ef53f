// The solver bridge: a promise API over the PyScript worker (web/py/worker.py) that runs slidelab.api.
//
//   const solver = new Solver({ onStatus(status, detail) {} });   // status: loading | ready | failed
//   solver.start();
//   const answer = await solver.solve(request, progress => {});   // always resolves with an api answer dict
//   solver.cancel();                                              // the running solve answers code "cancelled"
//   solver.solve(request, progress => {}, { background: true });  // gives way to any other long request (the
//                                          page's distance meter): that one cancels it and runs, never answered busy
//   solver.cancelBackground();                                    // cancel the running request if it is background
//   const space = await solver.explore({shape: '3x3'}, progress => {});    // every position, by distance
//   const trace = await solver.trace({board, algorithm, heuristic, max_steps}); // a search, step by step (the worker
//                                          sends it as JSON text, parsed here: far cheaper than a converted object)
//   solver.solve(request, progress => {}, { onAsk: question => {} });   // a search split over the page's pool asks
//                                          it questions (pool.js): solver.reply(answer) answers each one
//   subtree (a long request): a pool worker searches subtrees of the page's split search (api.subtree_steps)
//   const report = await solver.checkHeuristic({board, heuristic: 'yours'}, progress => {}); // your heuristic, checked
//
// One long request (solve, explore or trace) runs at a time; check and describe may run beside it. Cancel is cooperative
// (the worker sees it between two progress reports); if the worker does not answer within CANCEL_GRACE_MS, it is
// terminated and started again, and the pending request is answered here. A long request that runs your own
// heuristic has a time limit (its max_seconds, else codeSeconds): your code may never return to the worker's loop,
// so past it (and CODE_GRACE_MS) the worker is ended and started again, and the request answers "limit".
import { t } from './i18n.js';


const CANCEL_GRACE_MS = 2000;
const CODE_SECONDS = 300;  // how long a request running your own heuristic may take when it names no max_seconds
const CODE_GRACE_MS = 1000;  // past its time, a worker still running your code is ended and started again
const START_TIMEOUT_MS = 120_000;  // a start (Pyodide's download past the service worker, then Python's start) longer
                                   // than this is given up and tried again
const START_TRIES = 2;

export const failure = (code, message) => ({ ok: false, error: { code, message } });

export class Solver {
  #worker = null;
  #running = null;  // {answer, settled, onProgress} of the long request in flight
  #ready = null;    // promise of the started worker
  #waiting = 0;     // long requests waiting for a background request to stop
  #stops = 0;       // stop() calls so far: a start that began before one is not used

  constructor({ onStatus = () => {}, base = document.baseURI, heuristicCode = () => null,
    startTimeoutMs = START_TIMEOUT_MS, codeSeconds = CODE_SECONDS } = {}) {
    this.onStatus = onStatus;
    this.base = base;
    this.heuristicCode = heuristicCode;
    this.startTimeoutMs = startTimeoutMs;
    this.codeSeconds = codeSeconds;
    this.status = 'idle';
  }

  /** Whether a long request (solve or explore) is in flight. */
  get busy() {
    return this.#running !== null;
  }

  /** Load Pyodide and the worker; resolves when the solver is ready or has failed twice (never rejects: see the
   * status). */
  start() {
    this.#ready ??= this.#boot();
    return this.#ready;
  }

  // A start that fails or takes longer than startTimeoutMs is tried once more (START_TRIES in all); a runtime whose
  // start succeeds after it was given up is terminated at once, so no Pyodide is left running unused.
  async #boot() {
    const stops = this.#stops;
    let reason = '';
    for (let attempt = 1; attempt <= START_TRIES; attempt++) {
      if (attempt > 1) this.#setStatus('loading', t('status.again'));
      reason = await this.#bootOnce(stops);
      if (reason === null || this.#stops !== stops) return;
    }
    this.#setStatus('failed', t('status.failed', { reason }));
  }

  /** One attempt at starting the worker: null once it is ready (or stopped meanwhile), else why it failed. */
  async #bootOnce(stops) {
    const url = path => new URL(path, this.base).href;
    this.#setStatus('loading', t('status.runtime'));
    // Some failed downloads while the worker starts surface only as an unhandled rejection, never settling PyWorker
    // (the pool starts its workers one at a time, so such a rejection is this start's).
    let onFailure;
    let timer;
    const failed = new Promise((_, reject) => {
      onFailure = event => reject(event.reason);
      window.addEventListener('unhandledrejection', onFailure);
      timer = setTimeout(() => reject(new Error(t('status.timeout', { n: this.startTimeoutMs / 1000 }))),
        this.startTimeoutMs);
    });
    let starting = null;
    try {
      const { PyWorker } = await Promise.race([failed, import(url('pyscript/core.js'))]);
      this.#setStatus('loading', t('status.python'));
      // `version` must be an absolute address (PyWorker ignores the config's interpreter): the local Pyodide, started
      // from a memory snapshot when one is stored (pyodide_start.mjs).
      starting = Promise.resolve(PyWorker(url('py/worker.py'), {
        config: url('pyscript.json'),
        version: url('js/pyodide_start.mjs'),
      }));
      const worker = await Promise.race([failed, starting]);
      if (this.#stops !== stops) {  // stopped while it started (the pool was made smaller): not used
        worker.terminate();
        return null;
      }
      worker.addEventListener('message', event => {
        if (worker === this.#worker) this.#running?.onProgress(event.data);
      });
      // An error nothing in the worker caught (Pyodide itself failing, say) leaves the request in flight unanswered.
      worker.addEventListener('error', event => {
        if (worker !== this.#worker || !this.#running) return;
        const reason = reasonOf(event.message || t('status.worker-failed'));
        const message = t('status.stopped', { reason });
        this.#restart(this.#running, failure('internal', message));
      });
      this.#worker = worker;
      this.#setStatus('ready', t('status.ready'));
      return null;
    } catch (error) {
      starting?.then(late => late.terminate(), () => {});  // given up: if it comes up after all, it goes
      return reasonOf(error);
    } finally {
      clearTimeout(timer);
      window.removeEventListener('unhandledrejection', onFailure);
    }
  }

  #setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  /** Solve a request ({board, goal?, puzzle?, algorithm?, heuristic?, ...}); progress dicts go to onProgress, and a
   * question the search asks the page (the pool's, pool.js) to onAsk(question), whose answer goes back with reply(). */
  solve(request, onProgress = () => {}, { background = false, onAsk = null } = {}) {
    const routed = onAsk ? event => (event?.ask ? onAsk(event.ask) : onProgress(event)) : onProgress;
    return this.#long('solve', request, routed, background);
  }

  // One long request at a time: another one is answered 'busy' at once, unless the running one is a background
  // request, which is cancelled first (the newest background request wins over an older one too). A background
  // request never takes the worker from a request waiting for such a cancel. `runsCode`: the request runs someone's
  // code though it carries none (its time limit is watched as if it did).
  async #long(name, request, onProgress, background = false, runsCode = false) {
    const busy = () => failure('busy', t('error.busy'));
    if (background && this.#waiting > 0) return busy();
    if (!background) this.#waiting += 1;
    try {
      while (this.#running?.background) {
        await this.cancel();
        await this.start();  // a worker that did not answer the cancel in time is started afresh
      }
    } finally {
      if (!background) this.#waiting -= 1;
    }
    if (this.#running || (background && this.#waiting > 0)) return busy();
    return this.#call(name, request, onProgress, { background, runsCode });
  }

  /** Explore a whole state space ({shape, goal?} or {board, ...}); like solve, it is the one long request. */
  explore(request, onProgress = () => {}) {
    return this.#long('explore', request, onProgress);
  }

  /** Trace a search step by step (a solve request and max_steps?; see docs/algorithms.md, "Traces"): a long request too. */
  trace(request, onProgress = () => {}) {
    return this.#long('trace', request, onProgress).then(answer => (typeof answer === 'string' ? JSON.parse(answer) : answer));
  }

  /** Search subtrees of a pooled search with a bound (api.subtree_steps): the long request, cancelled by cancel(). */
  subtree(request, onProgress = () => {}) {
    return this.#long('subtree', request, onProgress);
  }



  check(request) {
    return this.#call('check', request);
  }

  /** Whether the engine splits this solve request over a pool of workers: {ok, splits}. */
  splits(request) {
    return this.#call('splits', request);
  }

  /** Prepare for a split search of this solve request (api.warm: its estimator and the kernel's tables for its
   * goal), so that the first subtree handed to this worker does not pay for them: {ok, warmed}. */
  warm(request) {
    return this.#call('warm', request);
  }

  describe() {
    return this.#call('describe');
  }

  /** Which pattern-database tables a solve request's search uses (none: `tables: []`): {ok, tables: [{name, ready}],
   * ready}. */
  patternDatabases(request) {
    return this.#call('pattern_databases', request);
  }

  /** Hand a pattern-database file's bytes (a Uint8Array) to the worker: {ok, name}. */
  installPatternDatabase(bytes) {
    return this.#call('install_pattern_database', bytes);
  }

  /** Stop the running request if it is a background one (a newer question made its answer useless). */
  cancelBackground() {
    return this.#running?.background ? this.cancel() : Promise.resolve();
  }

  /** Stop the running solve; resolves when it has stopped. */
  async cancel() {
    const running = this.#running;
    if (!running || this.status !== 'ready') return;
    const worker = this.#worker;
    worker.sync.cancel().catch(() => {});
    const stopped = await Promise.race([running.settled.then(() => true), delay(CANCEL_GRACE_MS).then(() => false)]);
    if (!stopped && worker === this.#worker) {
      this.#restart(running, failure('cancelled', t('error.restarting')));
    }
  }

  /** An exercise call that runs no code (course/page.py): 'open' ({id} or {text}) or 'hand_in'. */
  exercise(name, request) {
    return this.#call('exercise', name, undefined, { more: [request] });
  }

  /** Compile a hand-in's heuristic ({puzzle, heuristic_code, function, max_seconds}): from then on this worker is
   * locked down and runs nothing else (grader.js starts one afresh for each hand-in). */
  evaluatorStart(request) {
    return this.#long('evaluator_start', request, () => {});
  }

  /** h of each state ({states, max_seconds}) of the heuristic started here: {ok, values}; past max_seconds the
   * worker is ended and the answer is "limit". */
  evaluate(request) {
    return this.#long('evaluate', request, () => {}, false, true);
  }

  /** Grade a hand-in ({exercise, handin, name}) in a worker that never runs code: its questions for h's values come
   * to onAsk(message), whose answer goes back with reply(). */
  grade(request, onAsk) {
    return this.#long('grade', request, event => { if (event?.ask) onAsk(event.ask); });
  }

  reply(answer) {
    return this.#call('reply', answer);
  }

  /** Check a heuristic against the true distances (api.check_heuristic): a long request, cancelled by cancel(). */
  checkHeuristic(request, onProgress = () => {}) {
    return this.#long('check_heuristic', request, onProgress);
  }

  // A call with onProgress is the long request: its progress messages are routed to it, and cancel() stops it.
  // A request naming the heuristic "yours" carries its code (heuristicCode(): null when there is none to run).
  #call(name, request, onProgress = null, { background = false, more = [], runsCode = false } = {}) {
    if (this.status !== 'ready') {
      return Promise.resolve(failure('not_ready', t('error.not-ready')));
    }
    if (request?.heuristic === 'yours' && request.heuristic_code === undefined) {
      const code = this.heuristicCode();
      if (code === null) {
        return Promise.resolve(failure('user_code', t('error.no-code')));
      }
      request = { ...request, heuristic_code: code };
    }
    let answer;
    const settled = new Promise(resolve => { answer = resolve; });
    const running = { answer, settled, onProgress, background };
    if (onProgress) this.#running = running;
    const args = request === undefined ? [] : [request, ...more];
    const worker = this.#worker;
    let call;
    try {
      call = worker.sync[name](...args);
    } catch (error) {  // the request could not be sent (a value the browser cannot copy): the worker is fine
      answer(failure('internal', t('error.not-sent', { reason: reasonOf(error) })));
      call = settled;
    }
    call.then(value => {
      globalThis.slidelabAnswers?.push([name, value]);  // the browser tests hold every answer to docs/api.schema.json
      answer(value);
    }, error => {
      // The engine answers every request, so a rejected call means the runtime itself failed: a long request's
      // worker is started afresh, so that the next request does not meet a dead one.
      const failed = failure('internal', reasonOf(error));
      if (onProgress && worker === this.#worker) this.#restart(running, failed);
      else answer(failed);
    });
    const code = runsCode || typeof request?.heuristic_code === 'string';
    const watchdog = onProgress && code ? this.#watch(running, request) : null;
    return settled.finally(() => {
      clearTimeout(watchdog);
      if (this.#running === running) this.#running = null;
    });
  }

  // Your code's time limit: the request's max_seconds, else codeSeconds; a worker still at it a grace later is ended.
  #watch(running, request) {
    const given = request.max_seconds;
    const seconds = Number.isFinite(given) && given > 0 ? given : this.codeSeconds;
    const worker = this.#worker;
    return setTimeout(() => {
      if (this.#running !== running || worker !== this.#worker) return;
      const key = given === seconds ? 'error.code-overran' : 'error.code-overran-default';
      this.#restart(running, failure('limit', t(key, { n: seconds })));
    }, seconds * 1000 + CODE_GRACE_MS);
  }

  /** Stop the worker for good (a pool worker no longer wanted): the request in flight answers 'cancelled'. */
  stop() {
    this.#stops += 1;
    this.#worker?.terminate();
    this.#worker = null;
    this.#ready = null;
    this.#running?.answer(failure('cancelled', t('error.solver-stopped')));
    this.#setStatus('idle', t('status.stopped-idle'));
  }

  // Terminating a worker leaves its pending calls unsettled forever, so the running request is answered here.
  #restart(running, answer) {
    this.#worker.terminate();
    this.#worker = null;
    this.#ready = null;
    running.answer(answer);
    this.start();
  }
}

const delay = ms => new Promise(resolve => setTimeout(resolve, ms));

/** An error's reason in one short line: a Python traceback ends with it. */
const reasonOf = error => String(error?.message ?? error).trim().split('\n').at(-1).slice(0, 300);
