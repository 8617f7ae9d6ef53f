// Solving for the page: Solve, Hint and Quick solve, one task at a time, with the progress readouts, the pattern
// databases fetched before a search that uses them, and the optimal continuations met so far, so that a hint from a
// known position needs no search.
//
//   const solving = new Solving({ progress, bound, nodes, rate, elapsed, workers, ahead, note, cancel, kept }, {
//     solver, tables, stats, board, goal, rules, request, say, notice, onBusy, onAnswer, onHint, open });
//   solving.run('solve');          // or 'hint', or 'quick' (the quick solver: not necessarily shortest)
//   solving.run('solve', { resume: text });  // go on from a checkpoint (the position on the board is its own)
//   solving.run('hint', { detail: 'tile' });  // a hint that names the tile (the piece) only, not where it goes
//   solving.known(board);          // an optimal move list from `board` met so far, or undefined
//   solving.remember(start, moves);  // an optimal solution found elsewhere (the distance meter)
//   solving.quick();               // the quick solver at once: a running search is stopped first
//   solving.stop('you moved a tile');  // stop the running task, saying why ('' when the user cancelled it)
//   solving.forget();              // the goal or the move rule changed: the known continuations no longer hold
//   solving.kept;                  // the KeptSearch of index.html's #kept-search (ui.kept): its show and setEnabled
//   solving.running;               // the kind of the running task, or null
//   solving.offersQuick;           // whether the running task offers the quick solver (slow, or waiting for tables)
//
// From the page: board(), goal() (its cells) and rules() (the board kind: apply, hintText, hintTile) of the position
// on the board, request() its solve request, say(text, tone) and notice(text) for messages, onBusy() when the
// controls may change (a task starts or stops, the quick solver is offered), onAnswer(answer, start) to show a
// solution found from `start` (null: none while a new search runs), onHint(move, detail) to mark the hinted move
// (null: none; detail 'tile': only the tile or piece, not where it goes), open(board, goal, rule) to put a sliding
// position (texts) on the board. `stats` is the StatsPanel that follows a search. A solve's checkpoint is kept in
// the browser (kept_search.js), and its Go on opens the search's position and solves on from it.

import { MISSING, formatCount, formatDuration, formatElapsed, formatLarge } from './format.js';
import { QUICK_OFFER_S, offerAtOnce, quickApplies, quickRequest } from './quick.js';
import { errorText, t } from './i18n.js';
import { KeptSearch } from './kept_search.js';

const LONG_SEARCH_S = 8;    // after this long, say that a search may take much longer
const CACHE_LIMIT = 20000;  // positions whose optimal continuation is known (for instant hints)
const row = readout => readout.parentElement;  // a progress readout's row (its term and value), shown or hidden
const SEARCHING = { solve: 'solve.searching', hint: 'solve.hinting', quick: 'solve.quick' };  // catalogue keys

export class Solving {
  #task = null;         // {kind, stopReason: null | text, offerQuick, stop: AbortController, finished} while it runs
  #known = new Map();   // "goal|position" -> an optimal move list from there (filled from solutions)
  #page;                // what the page gives: see the header

  constructor(ui, { solver, tables, stats, board, goal, rules, request, say, notice, onBusy, onAnswer, onHint,
    open }) {
    Object.assign(this, { ui, solver, tables, stats });
    this.#page = { board, goal, rules, request, say, notice, onBusy, onAnswer, onHint };
    this.kept = new KeptSearch(ui.kept, { say, onGoOn: kept => {
      open(kept.board, kept.goal, kept.rule);
      this.run('solve', { resume: kept.text });
    } });
    ui.cancel.addEventListener('click', () => this.stop(''));
  }

  /** The kind of the running task ('solve', 'hint' or 'quick'), or null. */
  get running() {
    return this.#task?.kind ?? null;
  }

  /** Whether the running task offers the quick solver instead: a long search, a table download, tables missing. */
  get offersQuick() {
    return !!this.#task?.offerQuick && this.#task.kind !== 'quick';
  }

  /** Run a task on the position on the board: 'solve', 'hint' or 'quick'; a solve keeps its checkpoint, or goes
   * on from the checkpoint `resume` (its text). */
  async run(kind, { detail = 'move', resume = null } = {}) {
    const page = this.#page;
    if (kind === 'hint') {
      const moves = this.known(page.board());
      if (moves) return this.#showHint({ moves, optimal: true }, detail);
    }
    const task = { kind, stopReason: null, offerQuick: false, stop: new AbortController() };
    task.finished = new Promise(resolve => { task.finish = resolve; });
    const start = page.board();
    this.#task = task;
    if (kind !== 'hint') page.onAnswer(null);
    page.onHint(null);
    page.say(t(SEARCHING[kind]));
    this.#showProgress(true);
    if (kind !== 'hint') this.stats.begin();
    page.onBusy();
    let request = kind === 'hint' ? this.#hintRequest() : page.request();
    if (kind === 'quick') request = quickRequest(request);
    const keptBefore = this.kept.text;
    if (kind === 'solve') {
      request = resume ? this.kept.resumeRequest(request, resume) : { ...request, keep_checkpoint: true };
    }
    request = await this.#loadTables(task, request);
    const heard = event => (event.type === 'checkpoint' ? this.kept.record(event.text)
      : this.#showProgressEvent(event));
    const long = kind === 'solve' && (resume !== null || offerAtOnce(start));  // to the pool at once
    const answer = task.stopReason === null ? await this.solver.solve(request, heard, { long }) : null;
    this.#task = null;
    task.finish();
    this.#showProgress(false);
    page.onBusy();
    if (task.stopReason !== null) {
      page.say(task.stopReason ? t('solve.stopped', { reason: task.stopReason }) : t('solve.cancelled'));
    } else if (answer.ok) {
      if (answer.optimal) this.remember(start, answer.moves);
      if (kind !== 'hint') {
        page.say('');
        page.onAnswer(answer, start);
      } else {
        this.#showHint(answer, detail);
      }
    } else if (resume && answer.error.code === 'invalid') {  // a checkpoint the engine refused cannot go on
      this.kept.refused(resume, keptBefore);
      page.say(t('kept.refused', { problem: errorText(answer.error) }), 'error');
    } else if (answer.error.code === 'unsolvable') {
      page.say(errorText(answer.error), 'explain');
    } else if (answer.error.code === 'limit') {
      page.say(t('solve.limit', { problem: errorText(answer.error) }), 'error');
    } else {
      page.say(t('solve.failed', { problem: errorText(answer.error) }), 'error');
    }
  }

  /** Stop the running task; reason '' means the user cancelled it, other text says what made it stop. */
  stop(reason) {
    const task = this.#task;
    if (!task) return;
    task.stopReason = reason;
    task.stop.abort();
    this.solver.cancel();
  }

  /** The quick solver, on request: any search running is stopped first. */
  async quick() {
    const running = this.#task;
    if (running) {
      this.stop(t('reason.quick'));
      await running.finished;
    }
    this.run('quick');
  }

  /** Forget the known continuations (they hold for one goal and move rule). */
  forget() {
    this.#known.clear();
  }

  /** An optimal move list from `board` to the goal met so far, or undefined. */
  known(board) {
    return this.#known.get(this.#key(board.cells));
  }

  #key(cells) {
    return `${this.#page.goal().join(',')}|${cells.join(',')}`;
  }

  /** A hint is the first move of a shortest solution whatever the selectors say (IDA* with the strongest heuristic);
   * on boards beyond optimal reach, the first move of a quick solution, labelled as such. */
  #hintRequest() {
    const request = { ...this.#page.request(), algorithm: 'idastar', heuristic: 'auto' };
    return quickApplies(request) && offerAtOnce(this.#page.board()) ? quickRequest(request) : request;
  }

  /** Before the search: fetch the pattern databases it uses (once per page), showing the download, and offer the
   * quick solver meanwhile. If they cannot be had, the search runs without them, with a notice. */
  async #loadTables(task, request) {
    const page = this.#page;
    const outcome = await this.tables.load(request, {
      signal: task.stop.signal,
      onText: text => {
        task.offerQuick = true;
        page.onBusy();
        page.say(text);
      },
    });
    if (!outcome?.needed) return request;
    page.say(t(SEARCHING[task.kind]));
    if (outcome.ok) return request;
    page.notice(t('tables.failed-search', { problem: outcome.message }));
    task.offerQuick = true;
    page.onBusy();
    return { ...request, heuristic: 'auto' };
  }

  /** Keep an optimal solution from `start`: every position along it then has a known continuation. */
  remember(start, moves) {
    if (this.#known.size > CACHE_LIMIT) this.#known.clear();
    let board = start;
    moves.forEach((move, i) => {
      this.#known.set(this.#key(board.cells), moves.slice(i));
      board = this.#page.rules().apply(board, move);
    });
  }

  /** Mark the first move of a solve answer ({moves, optimal}) and say how far the goal is; detail 'tile' names the
   * tile (piece) to move but not where. */
  #showHint({ moves, optimal }, detail = 'move') {
    const page = this.#page;
    if (!moves.length) {
      page.say(t('hint.at-goal'));
      return;
    }
    const togo = t(optimal ? 'hint.to-go' : 'hint.from-quick', { count: moves.length });
    const hint = detail === 'tile' ? page.rules().hintTile(page.board(), moves[0])
      : page.rules().hintText(page.board(), moves[0]);
    page.say(t('hint.says', { hint, togo }));
    page.onHint(moves[0], detail);
  }

  #showProgress(on) {
    const { ui } = this;
    ui.progress.hidden = !on;
    ui.cancel.hidden = !on;
    row(ui.ahead).hidden = true;
    ui.note.textContent = '';
    if (on) for (const out of [ui.bound, ui.nodes, ui.rate, ui.elapsed]) out.textContent = MISSING;
  }

  // A figure an event lacks shows '–'.
  #showProgressEvent(event) {
    const { ui } = this;
    const task = this.#task;
    ui.bound.textContent = event.bound ?? event.depth ?? MISSING;  // breadth-first searches report their depth
    if (task?.kind !== 'hint') this.stats.progress(event);
    if (event.type !== 'progress') return;
    ui.nodes.textContent = formatLarge(event.expanded);
    ui.rate.textContent = formatCount(event.nodes_per_s);
    ui.elapsed.textContent = formatElapsed(event.elapsed_s);
    row(ui.workers).hidden = !event.workers;  // a search on the pool of workers: each one's nodes
    if (event.workers) ui.workers.textContent = event.workers.map(formatLarge).join(' · ');
    const ahead = event.iteration;  // a split search's iteration under way, predicted (control.iteration_ahead)
    row(ui.ahead).hidden = !ahead;
    if (ahead) {
      ui.ahead.textContent = t('progress.ahead-says', { share: Math.round(100 * ahead.share),
        left: formatDuration(ahead.left_s) });
    }
    if (event.elapsed_s > QUICK_OFFER_S && task && !task.offerQuick && quickApplies(this.#page.request())) {
      task.offerQuick = true;
      this.#page.onBusy();
    }
    if (event.elapsed_s > LONG_SEARCH_S && !ui.note.textContent) {
      ui.note.textContent = t('solve.hard');
    }
  }
}
