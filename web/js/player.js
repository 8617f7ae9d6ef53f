// Playing the puzzle yourself: your moves (a tap slides the whole run up to the gap, each tile a move), undo and redo
// (kept for the tab: a reload finds them again), the celebration with the shortest length and your best, and Hint,
// press by press: first the distance meter, then the tile (or piece) to move, then the move itself.
//
//   const player = new Player(ui, page);   // ui: {message, best, hint, announcer}; page: below
//   player.move(move);  player.undoRedo(redo);  player.hint();
//   player.onKey(event);  player.swipe('up');   // the keyboard (arrows, Ctrl+Z, Ctrl+Y) and swipes on the board
//   player.begin();      // a new position was set: no moves, no history, no hint
//   player.restore();    // after a reload of the tab: the moves, undo and redo kept for this position
//
// From the page: state (the page's: puzzle, board, start, goal, moves, history, hintLevel, hint), kind() (kinds.js),
// and meter, solving, watch, playback, with render(), writeLink(), updateControls(), showResult(null) and say(text).

import { sameCells } from './sliding.js';
import { MoveHistory, keepBest, readBest } from './play.js';
import { t } from './i18n.js';

const SWIPE_KEYS = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
const HINT_LABELS = ['solver.hint', 'hint.which', 'hint.the-move', 'hint.the-move'];  // what the next press gives

export class Player {
  constructor(ui, page) {
    this.ui = ui;
    this.page = page;
  }

  get #state() {
    return this.page.state;
  }

  #atGoal() {
    return sameCells(this.#state.board.cells, this.#state.goal);
  }

  /** A new position: no moves, no undo, no hint, no message; the player's best for it shown. */
  begin() {
    const state = this.#state;
    state.moves = 0;
    state.history = new MoveHistory();
    state.hintLevel = 0;
    state.hint = null;
    this.showHintLevel();
    this.ui.message.textContent = '';
    this.showBest();
  }

  /** The player moved a tile (a tap slides the whole run up to the gap) or a piece. */
  move(move) {
    const { state, playback } = this.page;
    const kind = this.page.kind();
    const before = state.board;
    const moves = kind.run(before, move);
    let after = before;
    for (const step of moves) after = after && kind.apply(after, step);
    if (!after) {
      this.ui.message.textContent = kind.refusal(before, move);
      return;
    }
    if (moves.length !== 1 || !playback.follow(move)) {
      if (playback.active) this.page.showResult(null);
      state.board = after;
    }
    state.history.push({ before, after: state.board, count: moves.length });
    this.announce(before, moves);
    this.#afterPlay(before, moves.length);
  }

  /** A key pressed on the page: Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, an arrow key moves the tile next to
   * the gap that way (on a sliding board; never while typing in a field). */
  onKey(event) {
    if (event.target.closest?.('input, textarea, select, [contenteditable]')) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && !event.altKey && (key === 'z' || key === 'y')) {
      event.preventDefault();
      this.undoRedo(key === 'y' || event.shiftKey);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const move = this.page.kind().keyMove(this.#state.board, event.key);
    if (move === null) return;
    event.preventDefault();
    this.move(move);
  }

  /** A swipe on the board ('up', 'down', 'left', 'right'): as the arrow key. */
  swipe(direction) {
    const move = this.page.kind().keyMove(this.#state.board, SWIPE_KEYS[direction]);
    if (move !== null) this.move(move);
  }

  /** Tell screen readers what a move did (the player's, or a step of a solution shown): "7 slid left", "7, 8 slid
   * left", "knight b1–c3". */
  announce(before, moves) {
    this.ui.announcer.textContent = this.page.kind().announce(before, moves);
  }

  /** Undo (or redo) the player's last move (or the last undone): a solution shown is put away. */
  undoRedo(redo) {
    const state = this.#state;
    const entry = redo ? state.history.redo() : state.history.undo();
    if (!entry) return;
    if (this.page.playback.active) this.page.showResult(null);
    const before = state.board;
    state.board = redo ? entry.after : entry.before;
    this.ui.announcer.textContent = t(redo ? 'play.redone' : 'play.undone', { count: entry.count });
    this.#afterPlay(before, redo ? entry.count : -entry.count);
  }

  /** After the player changed the board from `before`, by `count` moves (negative: undone). */
  #afterPlay(before, count) {
    const { page } = this;
    const state = this.#state;
    page.solving.stop(t(page.kind().moved));
    page.watch.clear(t(page.kind().moved));
    state.moves += count;
    state.hint = null;
    state.hintLevel = 0;
    this.showHintLevel();
    this.ui.message.textContent = '';
    page.writeLink();
    page.render();
    page.updateControls();
    state.history.save(this.key(state.board), { start: state.start, moves: state.moves });
    page.meter.update(state.board, before);
    if (this.#atGoal() && count > 0 && !sameCells(state.start.cells, state.goal)) this.#celebrate();  // no feat
  }

  /** Solved by the player: the count, the shortest (when known or cheap to know) and the player's best here. */
  async #celebrate() {
    const state = this.#state;
    const moves = state.moves, start = state.start;
    const { best, improved, stored } = keepBest(this.key(start), moves);
    const bestText = !stored ? '' : improved ? t('play.best-new') : t('play.best-is', { count: best });
    this.ui.message.textContent = `${t('play.solved', { count: moves })}${bestText}`;
    this.showBest();
    const shortest = await this.page.meter.lengthOf(start);
    if (shortest !== null && state.start === start && state.moves === moves && this.#atGoal()) {
      this.ui.message.textContent = `${t('play.solved-shortest', { count: moves, shortest })}${bestText}`;
    }
  }

  /** The key of a position for the player's history and best: the puzzle, its goal and the board. */
  key(board) {
    const state = this.#state;
    const { format } = this.page.kind();
    return `${state.puzzle}|${board.rule ?? ''}|${format({ ...board, cells: state.goal }, ',')}|${format(board, ',')}`;
  }

  showBest() {
    const best = readBest(this.key(this.#state.start));
    this.ui.best.hidden = best === null;
    this.ui.best.textContent = best === null ? '' : t('play.best', { count: best });
  }

  /** The Hint button says what its next press gives; data-level is the hint given so far (0 to 3). */
  showHintLevel() {
    const { hintLevel } = this.#state;
    this.ui.hint.textContent = t(HINT_LABELS[hintLevel === 0 && this.page.meter.on ? 1 : hintLevel],
      { thing: t(`thing.${this.page.kind().thing}`) });
    this.ui.hint.dataset.level = hintLevel;
  }

  /** Hint, press by press: first the distance meter, then the tile to move, then the move itself. */
  hint() {
    const state = this.#state;
    const { meter } = this.page;
    state.hintLevel = Math.min(3, state.hintLevel + 1);
    if (state.hintLevel === 1 && meter.on) state.hintLevel = 2;  // the meter is on already: name the tile
    this.showHintLevel();
    if (state.hintLevel === 1) {
      meter.show(true);
      meter.update(state.board);
      this.page.say(t('hint.meter'));
      return;
    }
    this.page.solving.run('hint', { detail: state.hintLevel === 2 ? 'tile' : 'move' });
  }

  /** On a reload of the tab, the player's moves, undo and redo come back (a link opened afresh starts clean). */
  restore() {
    const state = this.#state;
    const kept = MoveHistory.load(this.key(state.board));
    if (!kept || !kept.start || !Number.isInteger(kept.moves)) return;
    state.history = kept.history;
    state.start = kept.start;
    state.moves = kept.moves;
    this.page.render();
    this.page.updateControls();
    this.showBest();
  }
}
