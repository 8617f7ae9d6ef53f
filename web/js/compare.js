// Compare: several algorithm/heuristic pairs run one after another on the same position, each under a time limit,
// with a table (length, expanded, stored, time) and a bar chart of the nodes expanded (log scale).
//
//   const comparison = new Comparison(element, { solver, tables, request: () => ({board, goal?, puzzle?}), onBusy });
//   comparison.setPuzzle('tokens');  // the puzzle kind, 'sliding' or 'tokens': each has its own list of pairs
//   comparison.setCatalogue(await solver.describe());
//   comparison.setEnabled(free);   // whether the solver is free to start a comparison
//   comparison.running;            // while a comparison runs (the page's other searches wait)
//   comparison.assignment();       // A* with h = 0, misplaced, Manhattan and your heuristic, at once
//
// A run can be skipped (the next one starts) or the comparison stopped; a run that reaches its time limit (or the
// memory cap of the searches that store positions) says so and shows the nodes it had expanded by then. Before the
// first run that uses pattern databases, their tables are fetched (`tables`, a TableLoader), with progress.

import { MethodPicker } from './algorithms.js';
import { BarChart } from './chart.js';
import { MISSING, compact, formatCount, formatSeconds } from './format.js';
import { errorText, t } from './i18n.js';

// The default pairs per puzzle kind, the assignment's (A* with no estimate, the simple heuristics and yours) and the
// time limits come with the catalogue (api.describe()["compare"], the engine's compare.py, which the command line's
// `slidelab compare` runs too).
const LIMIT_CODES = new Set(['limit', 'too_large']);
const MEMORY_REASONS = new Set(['memory', 'memory_limit']);  // a limit of memory, not of time

export class Comparison {
  #puzzle = 'sliding';
  #lists = {};        // the list of pairs each puzzle kind had when the page left it
  #runs = [];         // the pairs listed (the defaults once the catalogue has come)
  #pairs = null;      // the catalogue's compare: {runs, assignment, time_limits_s, default_time_limit_s}
  #current = null;    // the run in progress
  #stopping = false;  // Stop was pressed: the remaining runs are left out
  #enabled = false;
  #board = '';        // the position of the last comparison
  #loading = null;    // an AbortController while a run waits for pattern databases: aborting it stops the wait

  constructor(element, { solver, tables, request, onBusy = () => {} }) {
    Object.assign(this, { element, solver, tables, request, onBusy });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">${t('compare.intro')}</p>
      <div class="table-scroll">
        <table class="compare-table">
          <caption class="visually-hidden">${t('compare.caption')}</caption>
          <thead><tr><th scope="col">${t('compare.method')}</th><th scope="col">${t('stat.length')}</th>
            <th scope="col">${t('stat.expanded')}</th><th scope="col">${t('stat.stored')}</th><th scope="col">${t('stat.time')}</th>
            <th scope="col"><span class="visually-hidden">${t('editor.remove')}</span></th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <div class="compare-add">
        <label class="field">${t('solver.algorithm')} <select class="add-algorithm" disabled></select></label>
        <label class="field heuristic-field">${t('solver.heuristic')} <select class="add-heuristic" disabled></select></label>
        <button type="button" class="add-run" disabled>${t('compare.add')}</button>
      </div>
      <p class="method compare-note"></p>
      <div class="actions">
        <label class="field">${t('compare.time-limit')} <select class="time-limit"></select></label>
        <button type="button" class="primary start" disabled>${t('compare.start')}</button>
        <button type="button" class="skip" hidden>${t('compare.skip')}</button>
        <button type="button" class="danger stop" hidden>${t('compare.stop')}</button>
      </div>
      <p class="message" aria-live="polite"></p>
      <div class="compare-chart"></div>`);
    const find = selector => element.querySelector(selector);
    this.body = find('tbody');
    this.picker = new MethodPicker({
      algorithm: find('.add-algorithm'), heuristic: find('.add-heuristic'), heuristicField: find('.heuristic-field'),
      note: find('.compare-note'),
    });
    this.picker.set('idastar', 'walking_distance');
    this.addButton = find('.add-run');
    this.startButton = find('.start');
    this.skipButton = find('.skip');
    this.stopButton = find('.stop');
    this.timeLimit = find('.time-limit');
    this.message = find('.message');
    this.chart = new BarChart(find('.compare-chart'), { layout: 'rows', log: true, label: t('compare.chart') });
    this.addButton.addEventListener('click', () => this.#add());
    this.startButton.addEventListener('click', () => this.run());
    this.skipButton.addEventListener('click', () => this.#interrupt('skip'));
    this.stopButton.addEventListener('click', () => this.#interrupt('stop'));
    this.body.addEventListener('click', event => {
      const button = event.target.closest('button[data-remove]');
      if (button) this.#remove(Number(button.dataset.remove));
    });
    this.#render();
  }

  get running() {
    return this.#current !== null;
  }

  setCatalogue(catalogue) {
    this.picker.setCatalogue(catalogue);
    if (!this.#pairs && catalogue.compare) {
      this.#pairs = catalogue.compare;
      const { time_limits_s: limits, default_time_limit_s: chosen } = this.#pairs;
      this.timeLimit.replaceChildren(...limits.map(s => new Option(t('unit.s', { n: s }), s, false, s === chosen)));
      if (!this.#runs.length) this.#runs = this.#defaultRuns(this.#puzzle);
    }
    this.#render();
  }

  #defaultRuns(puzzle) {
    return (this.#pairs?.runs[puzzle] ?? []).map(([algorithm, heuristic]) => newRun(algorithm, heuristic));
  }

  /** Show the list of pairs of a puzzle kind (its defaults at first); a comparison on the other kind is stopped. */
  setPuzzle(puzzle) {
    if (puzzle === this.#puzzle) return;
    this.#interrupt('stop');
    if (this.#pairs) this.#lists[this.#puzzle] = this.#runs;  // (before the catalogue: the defaults are to come)
    this.#puzzle = puzzle;
    this.#runs = this.#lists[puzzle] ? freshRuns(this.#lists[puzzle]) : this.#defaultRuns(puzzle);
    this.#board = '';
    this.message.textContent = '';
    this.picker.setPuzzle(puzzle);
    this.#render();
  }

  /** Compare A* with h = 0, the simple heuristics and yours on the position shown (the assignment's table). */
  assignment() {
    if (this.running) return Promise.resolve();
    const pairs = this.#pairs?.assignment[this.#puzzle] ?? [];
    this.#runs = pairs.map(([algorithm, heuristic]) => newRun(algorithm, heuristic));
    this.#render();
    this.element.scrollIntoView({ block: 'start' });
    return this.run();
  }

  setEnabled(free) {
    this.#enabled = free;
    this.#controls();
  }

  /** Run every listed method on the position, one at a time. */
  async run() {
    const base = this.request();
    delete base.algorithm;  // each run names its own
    delete base.heuristic;
    const seconds = Number(this.timeLimit.value);
    this.#board = base.board;
    this.#stopping = false;
    const runs = this.#runs = freshRuns(this.#runs);
    this.message.textContent = '';
    this.#current = runs[0];  // busy from the first moment
    this.onBusy();
    let tables = null;  // how loading the pattern databases went: tried once per comparison
    for (const run of runs) {
      if (this.#stopping) {
        run.status = 'not run';
        continue;
      }
      this.#current = run;
      run.status = 'running';
      this.#render();
      await this.solver.start();  // after a restart (a cancel the worker did not answer) the solver loads again
      const request = { ...base, algorithm: run.algorithm, max_seconds: seconds };
      if (this.picker.usesHeuristicFor(run.algorithm)) request.heuristic = run.heuristic;
      if (!tables) {
        const outcome = await this.#loadTables(request);
        if (outcome?.needed) tables = outcome;
        if (run.action) {  // skipped or stopped while the tables loaded
          run.status = run.action === 'skip' ? 'skipped' : 'stopped';
          continue;
        }
      }
      const answer = await this.solver.solve(request, event => {
        if (event.type === 'progress' && event.expanded > run.reached) {
          run.reached = event.expanded;
          this.#render();
        }
      });
      if (answer.ok) {
        Object.assign(run, { status: 'done', answer });
      } else if (run.action) {
        run.status = run.action === 'skip' ? 'skipped' : 'stopped';
      } else if (LIMIT_CODES.has(answer.error.code)) {
        Object.assign(run, { status: 'limit', note: errorText(answer.error), memory: MEMORY_REASONS.has(answer.error.reason) });
      } else {
        Object.assign(run, { status: 'error', note: errorText(answer.error) });
      }
    }
    this.#current = null;
    if (runs === this.#runs) {  // not replaced by another puzzle kind's list meanwhile
      const finished = runs.filter(run => run.status === 'done').length;
      const failed = tables?.ok === false ? t('compare.tables-failed', { problem: tables.message }) : '';
      this.message.textContent = t('compare.finished', { finished, count: runs.length }) + failed;
    }
    this.#render();
    this.onBusy();
  }

  /** Fetch and install the pattern databases a run uses, showing the download as Solve does: the outcome of
   * TableLoader.load ({ok, needed, message?}), or null if the run was skipped or stopped meanwhile. */
  async #loadTables(request) {
    this.#loading = new AbortController();
    const outcome = await this.tables.load(request, {
      onText: text => { this.message.textContent = text; }, signal: this.#loading.signal,
    });
    this.#loading = null;
    this.message.textContent = '';
    return outcome;
  }

  #interrupt(action) {
    if (!this.#current) return;
    this.#current.action = action;
    if (action === 'stop') this.#stopping = true;
    this.#loading?.abort();
    this.solver.cancel();
  }

  #add() {
    const algorithm = this.picker.algorithm;
    const heuristic = this.picker.usesHeuristic ? this.picker.heuristic : 'auto';
    if (this.#runs.some(run => run.algorithm === algorithm && (run.heuristic === heuristic || !this.picker.usesHeuristic))) {
      this.message.textContent = t('compare.already', { method: this.picker.title(algorithm, heuristic) });
      return;
    }
    this.#runs.push(newRun(algorithm, heuristic));
    this.message.textContent = '';
    this.#render();
  }

  #remove(index) {
    this.#runs.splice(index, 1);
    this.#render();
  }

  #controls() {
    const running = this.running;
    this.startButton.disabled = !this.#enabled || running || !this.#runs.length;
    this.addButton.disabled = running || !this.picker.ready;
    this.skipButton.hidden = this.stopButton.hidden = !running;
    this.timeLimit.disabled = running;
    for (const button of this.body.querySelectorAll('button[data-remove]')) button.disabled = running;
  }

  #render() {
    this.body.replaceChildren(...this.#runs.map((run, i) => this.#row(run, i)));
    const caption = this.element.querySelector('caption');
    caption.textContent = this.#board ? t('compare.caption-on', { board: this.#board }) : t('compare.methods');
    const shown = this.#runs.filter(run => run.answer || run.reached);
    this.chart.label = this.#board ? t('compare.chart-on', { board: this.#board }) : t('compare.chart-log');
    this.chart.draw(shown.map(run => {
      const value = run.answer?.stats.expanded ?? run.reached;
      const partial = !run.answer;
      const text = partial ? `≥ ${compact(value)}` : compact(value);
      return { label: this.#title(run), value, text, tone: partial ? 'partial' : '',
        title: t(partial ? 'compare.bar-partial' : 'compare.bar', { method: this.#title(run), count: value }) };
    }));
    this.#controls();
  }

  #title(run) {
    return this.picker.title(run.algorithm, run.heuristic);
  }

  #row(run, index) {
    const row = document.createElement('tr');
    Object.assign(row.dataset, { algorithm: run.algorithm, heuristic: run.heuristic, status: run.status });
    const stats = run.answer?.stats;
    const cell = (text, title = '') => {
      const td = document.createElement('td');
      td.textContent = text;
      if (title) td.title = title;
      return td;
    };
    const method = document.createElement('th');
    method.scope = 'row';
    method.textContent = this.#title(run);
    const statusText = {
      waiting: MISSING, running: t('compare.running'), limit: t(run.memory ? 'compare.memory-limit' : 'compare.time-limit-hit'),
      skipped: t('compare.skipped'), stopped: t('compare.stopped'), 'not run': t('compare.not-run'), error: t('compare.failed'),
    };
    let length;
    if (run.answer) length = t(run.answer.optimal ? 'compare.length' : 'compare.length-not-shortest', { n: run.answer.length });
    else length = statusText[run.status];
    const lengthCell = cell(length, run.note);
    lengthCell.className = `status-${run.status.replace(' ', '-')}`;
    const reached = run.reached ? `≥ ${formatCount(run.reached)}` : MISSING;
    row.append(method, lengthCell,
      cell(stats ? formatCount(stats.expanded) : reached),
      cell(formatCount(stats?.stored)),
      cell(formatSeconds(stats?.elapsed_s)));
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'quiet';
    remove.dataset.remove = index;
    remove.textContent = '✕';
    remove.setAttribute('aria-label', t('compare.remove', { method: this.#title(run) }));
    const last = document.createElement('td');
    last.append(remove);
    row.append(last);
    return row;
  }
}

/** A run as listed before it starts: `reached` is the nodes expanded by the last progress report. */
const newRun = (algorithm, heuristic) => ({ algorithm, heuristic, status: 'waiting', answer: null, reached: 0, note: '', action: null });

const freshRuns = runs => runs.map(run => newRun(run.algorithm, run.heuristic));
