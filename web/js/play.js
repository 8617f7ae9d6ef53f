// The player's own play: undo and redo of their moves, kept with the position for the tab, and their best number of
// moves per position, kept in the browser.
//
//   const history = new MoveHistory();
//   history.push({ before, after, count });   // a move (or a tap's run of `count` moves) from board before to after
//   history.undo();  history.redo();          // the entry undone or redone, or null
//   history.save(key, extra);  MoveHistory.load(key)   // sessionStorage: survives a reload of the tab
//   readBest(key);  keepBest(key, moves)      // localStorage: null when storage is unavailable
//
// The history is kept in sessionStorage with the position on the board (the link holds that position), one per tab:
// a reload finds it again, while a link shared to someone else opens a clean position, and the link stays short.

const HISTORY_KEY = 'slidelab.history';
const BEST_PREFIX = 'slidelab.best|';
const MAX_ENTRIES = 1000;  // older moves drop out of the undo list

export class MoveHistory {
  constructor(done = [], undone = []) {
    this.done = done;      // entries {before, after, count}, oldest first
    this.undone = undone;  // entries undone, the next to redo last
  }

  /** A new move: it clears what was undone. */
  push(entry) {
    this.done.push(entry);
    if (this.done.length > MAX_ENTRIES) this.done.shift();
    this.undone = [];
  }

  undo() {
    const entry = this.done.pop() ?? null;
    if (entry) this.undone.push(entry);
    return entry;
  }

  redo() {
    const entry = this.undone.pop() ?? null;
    if (entry) this.done.push(entry);
    return entry;
  }

  get canUndo() {
    return this.done.length > 0;
  }

  get canRedo() {
    return this.undone.length > 0;
  }

  /** Keep the history (with `extra`, such as the start and move count) for the tab, with the position `key`. */
  save(key, extra = {}) {
    try {
      const kept = { ...extra, position: key, done: this.done, undone: this.undone };
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(kept));
    } catch {
      // storage full or unavailable: undo still works until the page is left
    }
  }

  /** The history kept with the position `key` and its extra fields ({history, ...extra}), or null. */
  static load(key) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(HISTORY_KEY) ?? 'null');
      if (kept?.position !== key || !Array.isArray(kept.done) || !Array.isArray(kept.undone)) return null;
      const { done, undone, ...extra } = kept;
      delete extra.position;
      return { history: new MoveHistory(done, undone), ...extra };
    } catch {
      return null;
    }
  }
}

/** The player's best number of moves for a position (key), or null (none yet, or no storage). */
export function readBest(key) {
  try {
    const value = Number(localStorage.getItem(BEST_PREFIX + key));
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** Keep `moves` as the best for `key` when it beats the one kept: {best, improved, stored} (stored: false when the
 * browser does not let the page keep anything). */
export function keepBest(key, moves) {
  const before = readBest(key);
  const improved = before === null || moves < before;
  try {
    if (improved) localStorage.setItem(BEST_PREFIX + key, String(moves));
    return { best: improved ? moves : before, improved, stored: true };
  } catch {
    return { best: moves, improved, stored: false };
  }
}
