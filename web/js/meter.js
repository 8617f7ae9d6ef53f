// The distance meter (the first level of a hint): how many moves the position on the board is from the goal, and
// whether the last move went closer or farther. It is measured with a shortest solution in the solver worker, as a
// background request: a newer position cancels an older measurement (the latest wins), and any search the user starts
// cancels it and goes first; the meter measures again once the solver is free (resume()).
//
//   const meter = new DistanceMeter(element, { solver, tables, solving, request, atGoal });
//   meter.show(true);                 // the player asked for it: measure now and after every move
//   meter.update(board, previous);    // the board changed (previous: the board before the move, or null)
//   meter.resume();                   // the solver is free again: measure what waited
//   meter.distance(board);            // the distance of a board measured so far, or null
//   meter.note(board, distance);      // a distance known from elsewhere (a famous position's)
//   await meter.lengthOf(board);      // the distance of a board, measured if it needs no download; or null
//
// Only where a shortest solution is cheap: token puzzles, sliding boards of up to 12 cells, and the 4x4 (with its
// pattern databases, fetched as a solve would); 3x5 or 2x8 have no tables, and a search there may take minutes. atGoal(board) says whether a board is the goal; request(board) gives the shortest-solution request for a board; solving keeps the optimal
// continuations met so far (a measured position makes the next hints instant, and a solved one needs no measuring).

import { errorText, t } from './i18n.js';

const MAX_CELLS = 12;      // up to 12 cells a shortest solution is cheap (3x4 and 4x3 with their tables)
const KEEP = 5000;         // distances kept

export class DistanceMeter {
  #seq = 0;                  // the newest measurement; an answer to an older one is ignored
  #distances = new Map();    // board key -> moves to the goal
  #waiting = null;           // {board, previous} when the solver was busy
  #stop = null;              // AbortController of the running measurement's table download

  constructor(element, { solver, tables, solving, request, atGoal }) {
    Object.assign(this, { element, solver, tables, solving, request, atGoal });
    this.on = false;
    element.hidden = true;
  }

  show(on) {
    this.on = on;
    this.element.hidden = !on;
  }

  distance(board) {
    if (this.atGoal(board)) return 0;
    return this.#distances.get(key(board)) ?? this.solving.known(board)?.length ?? null;
  }

  note(board, distance) {
    this.#keep(board, distance);
    if (this.on) this.update(board);
  }

  /** The distance of `board`, from what is known or by a background solve that needs no table download; null when
   * it is not cheap, or the solver is busy. */
  async lengthOf(board) {
    const known = this.distance(board);
    if (known !== null || !cheap(board) || this.solver.status !== 'ready') return known;
    const request = this.request(board);
    const tables = await this.solver.patternDatabases(request);
    if (!tables.ok || !tables.ready) return null;
    const answer = await this.solver.solve(request, () => {}, { background: true });
    if (!answer.ok || !answer.optimal) return null;
    this.solving.remember(board, answer.moves);
    this.#keep(board, answer.length);
    return answer.length;
  }

  /** Measure `board` (the position now on the board); `previous` is the board before the last move, or null. */
  async update(board, previous = null) {
    const seq = ++this.#seq;
    this.#waiting = null;
    this.#stop?.abort();
    this.solver.cancelBackground();  // an older measurement still running: its answer would be ignored
    if (!this.on) return;
    if (!cheap(board)) {
      this.#say(t('meter.not-here'), 'none');
      return;
    }
    const known = this.distance(board);
    if (known !== null) {
      this.#tell(board, known, previous);
      return;
    }
    if (this.solver.status !== 'ready') {
      this.#say(t('meter.wait-start'), 'wait');
      this.#waiting = { board, previous };
      return;
    }
    this.#say(t('meter.measuring'), 'wait');
    const request = this.request(board);
    const stop = new AbortController();
    this.#stop = stop;
    const tables = await this.tables.load(request, { signal: stop.signal, onText: text => this.#say(text, 'wait') });
    if (seq !== this.#seq) return;
    if (tables?.needed && !tables.ok) {
      this.#say(t('meter.no-tables'), 'none');
      return;
    }
    const answer = await this.solver.solve(request, () => {}, { background: true });
    if (seq !== this.#seq) return;  // the board changed meanwhile: that measurement is the one shown
    if (answer.ok && answer.optimal) {
      this.solving.remember(board, answer.moves);
      this.#keep(board, answer.length);
      this.#tell(board, answer.length, previous);
    } else if (answer.ok) {
      this.#say(t('meter.not-found'), 'none');
    } else if (answer.error.code === 'unsolvable') {
      this.#say(t('meter.unsolvable'), 'none');
    } else if (['busy', 'cancelled', 'not_ready'].includes(answer.error.code)) {
      this.#say(t('meter.wait-busy'), 'wait');  // a search the user started goes first
      this.#waiting = { board, previous };
    } else {
      this.#say(t('meter.failed', { problem: errorText(answer.error) }), 'none');
    }
  }

  /** The goal or the move rule changed: the distances measured no longer hold. */
  forget() {
    this.#distances.clear();
  }

  /** The solver is free again: measure the position that waited for it. */
  resume() {
    const waiting = this.#waiting;
    if (waiting && this.on && this.solver.status === 'ready' && !this.solver.busy) {
      this.update(waiting.board, waiting.previous);
    }
  }

  #keep(board, distance) {
    if (this.#distances.size > KEEP) this.#distances.clear();
    this.#distances.set(key(board), distance);
  }

  #tell(board, distance, previous) {
    this.#keep(board, distance);
    const before = previous ? this.distance(previous) : null;
    let trend = '', text = t('meter.distance', { count: distance });
    if (distance === 0) text = t('meter.at-goal');
    if (before !== null && before !== distance) {
      trend = distance < before ? 'closer' : 'farther';
      text += t(`meter.${trend}`, { before });
    }
    this.element.dataset.distance = distance;
    this.element.dataset.trend = trend;
    this.#show(text, trend || 'known');
  }

  #say(text, state) {
    delete this.element.dataset.distance;
    this.element.dataset.trend = '';
    this.#show(text, state);
  }

  #show(text, state) {
    this.element.dataset.state = state;
    this.element.querySelector('.meter-text').textContent = text;
  }
}

const cheap = board => board.rule !== undefined || board.cells.length <= MAX_CELLS
  || (board.rows === 4 && board.cols === 4);
const key = board => `${board.rule ?? ''}|${board.cols}|${board.cells.join(',')}`;
