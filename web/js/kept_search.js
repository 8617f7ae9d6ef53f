// A long search kept in this browser. A search split over the page's pool writes its checkpoint as it goes (the
// command line's `slidelab solve --checkpoint` file, the same format: web/py/worker.py posts each write); this keeps
// the latest one in localStorage under one key, so that a search stopped by closing the tab, by Stop or by a crash
// can go on when the page is opened again, can be downloaded and resumed with `slidelab solve --resume FILE`, and a
// checkpoint file from the command line can go on here. Nothing else of the browser's storage is touched. A search
// that ends with its answer is forgotten; one search is kept at a time (a new one takes its place).
//
//   const kept = new KeptSearch(line, { onGoOn, say });   // line: index.html's #kept-search
//   kept.record(text);         // a checkpoint event's file text, of the search running
//   kept.refused(text, before);  // the engine refused to go on from `text`: `before` (kept when it began) is kept
//   kept.show(board);          // the board shown ({rows, cols, cells}; null for a token puzzle)
//   kept.setEnabled(idle);     // the buttons wait while the solver is busy
//   kept.resumeRequest(request, text)  // a solve request that goes on from the checkpoint `text`
//
// onGoOn({board, goal, rule, text}) opens the checkpoint's position and solves it from there; say(text, tone)
// tells what went wrong with a file.

import { saveFile } from './save_file.js';
import { formatElapsed, formatLarge } from './format.js';
import { t } from './i18n.js';
import { parseBoard } from './sliding.js';

const STORED = 'slidelab.search';
const FILE_FROM_CELLS = 16;  // boards this large offer to go on from a checkpoint file even when none is kept

function stored() {
  try { return localStorage.getItem(STORED); } catch { return null; }  // storage may be off: nothing is kept
}

/** The checkpoint in `text` read: {state: the file ({search: {board, goal, rule, heuristic, ...}, bound, counted,
 * done, partial?, elapsed_s}), board: its board parsed}, or null when it is not one the page can go on from (a sliding
 * puzzle's, whose board and goal read as boards; the engine checks the rest). */
export function readCheckpoint(text) {
  try {
    const state = JSON.parse(text);
    const search = state?.search;
    if (state?.slidelab_checkpoint !== 1 || (search?.puzzle ?? 'sliding') !== 'sliding'
      || typeof search?.heuristic !== 'string') return null;
    parseBoard(search.goal);
    return { state, board: parseBoard(search.board) };
  } catch {
    return null;  // not JSON, or a board or goal that is no board
  }
}

export class KeptSearch {
  #text = stored();
  #board = null;
  #enabled = false;

  constructor(line, { onGoOn, say }) {
    const part = name => line.querySelector(`.kept-${name}`);
    Object.assign(this, { line, onGoOn, say, textOut: part('text'), goOn: part('go-on'),
      downloadButton: part('download'), forgetButton: part('forget'), file: part('file') });
    this.goOn.addEventListener('click', () => this.#goOn(this.#text));
    this.downloadButton.addEventListener('click', () => saveFile('slidelab-checkpoint.json', this.#text,
      'application/json'));
    this.forgetButton.addEventListener('click', () => this.forget());
    this.file.addEventListener('change', () => this.#open(this.file.files[0]));
  }

  /** The checkpoint kept (its text), or null. */
  get text() {
    return this.#text;
  }

  record(text) {
    const read = readCheckpoint(text);
    if (read) this.#keep(read.state.finished ? null : text);
  }

  /** The engine refused to go on from `text`: the search kept when it began (`before`) is kept again, unless it was
   * that one (a file opened never costs the search kept). */
  refused(text, before) {
    this.#keep(before === text ? null : before);
  }

  forget() {
    this.#keep(null);
  }

  #keep(text) {
    this.#text = text;
    try {
      if (text === null) localStorage.removeItem(STORED);
      else localStorage.setItem(STORED, text);
    } catch { /* storage is off: kept in this page only */ }
    this.show(this.#board);
  }

  /** The solve request `request` going on from the checkpoint `text`, with its heuristic (the same search). */
  resumeRequest(request, text) {
    const { search } = readCheckpoint(text).state;
    return { ...request, algorithm: 'idastar', heuristic: search.heuristic, resume_text: text };
  }

  show(board) {
    this.#board = board;
    const read = this.#text && readCheckpoint(this.#text);
    const large = board && board.cells.length >= FILE_FROM_CELLS;
    this.line.hidden = (!read && !large) || !this.#enabled;  // not while a search runs: it may be the one kept
    for (const button of [this.goOn, this.downloadButton, this.forgetButton]) button.hidden = !read;
    this.line.dataset.state = read ? 'kept' : 'none';
    if (!read) {
      this.textOut.textContent = '';
      return;
    }
    const { state, board: { rows, cols } } = read;
    const searched = [...state.done, ...(state.partial ?? [])];  // the subtrees done, and those searched in part
    const nodes = searched.reduce((sum, part) => sum + (Number(part?.expanded) || 0), state.counted.expanded);
    this.textOut.textContent = t('kept.text', {
      shape: `${rows}×${cols}`, bound: state.bound ?? '–', nodes: formatLarge(nodes),
      time: formatElapsed(state.elapsed_s),
    });
  }

  setEnabled(enabled) {
    if (enabled === this.#enabled) return;
    this.#enabled = enabled;
    this.goOn.disabled = this.file.disabled = !enabled;
    this.show(this.#board);
  }

  #goOn(text) {
    const read = readCheckpoint(text);
    if (!read) return;
    const { board, goal, rule } = read.state.search;
    this.onGoOn({ board, goal, rule: rule ?? undefined, text });
  }

  async #open(chosen) {
    if (!chosen) return;
    const text = await chosen.text().catch(() => '');
    this.file.value = '';
    const read = readCheckpoint(text);
    if (!read) {
      this.say(t('kept.not-a-checkpoint', { name: chosen.name }), 'error');
      return;
    }
    const { finished } = read.state;
    if (finished) {
      this.say(t('kept.finished', { name: chosen.name, length: finished.length }), 'explain');
      return;
    }
    this.#goOn(text);
  }
}
