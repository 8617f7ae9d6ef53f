// The sliding-tile puzzle in the page: board text, moves, shuffles. It mirrors slidelab.puzzles.sliding (same text
// format, same limits) so the board is playable before Python has loaded; the solver itself stays in Python.

import { t } from './i18n.js';

export const MIN_SIDE = 2;
export const MAX_SIDE = 10;
const BLANK_NAMES = new Set(['0', '_', '.']);

export class BoardError extends Error {}

/** Parse board text like `8 6 7/2 5 4/3 0 1` into {rows, cols, cells}; throw BoardError with a clear reason. */
export function parseBoard(text) {
  text = String(text ?? '').trim();
  if (!text) throw new BoardError(t('board.empty'));
  if (text.length > 2000) throw new BoardError(t('board.too-long'));
  const rowsText = text.split(/\s*(?:\/|\n|;)\s*/);
  if (rowsText.some(r => !r.replace(/[ ,]/g, ''))) {
    throw new BoardError(t('board.row-empty'));
  }
  const grid = rowsText.map(r => r.split(/[\s,]+/).filter(Boolean));
  const cols = grid[0].length;
  grid.forEach((row, i) => {
    if (row.length !== cols) {
      throw new BoardError(t('board.row-length', { row: i + 1, count: row.length, first: cols }));
    }
  });
  const rows = grid.length;
  checkShape(rows, cols);
  const cells = grid.flat().map(c => {
    if (BLANK_NAMES.has(c)) return 0;
    if (/^\d{1,4}$/.test(c)) return Number(c);
    throw new BoardError(t('board.not-tile', { text: c.slice(0, 20) }));
  });
  const n = rows * cols;
  const seen = new Set();
  for (const c of cells) {  // the checks come in the engine's order, so both give the same reason
    if (seen.has(c)) throw new BoardError(c === 0 ? t('board.blank-twice') : t('board.tile-twice', { tile: c }));
    seen.add(c);
  }
  if (!seen.has(0)) throw new BoardError(t('board.no-blank'));
  const largest = Math.max(...cells);
  if (largest >= n) throw new BoardError(t('board.tile-large', { tile: largest, rows, cols, largest: n - 1 }));
  return { rows, cols, cells };
}

export function checkShape(rows, cols) {
  if (!(rows >= MIN_SIDE && rows <= MAX_SIDE && cols >= MIN_SIDE && cols <= MAX_SIDE)) {
    throw new BoardError(t('board.size', { rows, cols, min: MIN_SIDE, max: MAX_SIDE }));
  }
}

/** Board text: cells separated by `sep` (a space, or a comma in links), rows by '/'. */
export function formatBoard(cells, cols, sep = ' ') {
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).join(sep));
  return rows.join('/');
}

/** 1, 2, ..., N-1 then the blank at the bottom right. */
export function defaultGoal(rows, cols) {
  const n = rows * cols;
  return [...Array(n - 1).keys()].map(i => i + 1).concat(0);
}

export const sameCells = (a, b) => a.length === b.length && a.every((t, i) => t === b[i]);

/** The cells orthogonally next to cell p. */
export function neighbours(rows, cols, p) {
  const r = Math.floor(p / cols), c = p % cols, out = [];
  if (r > 0) out.push(p - cols);
  if (c > 0) out.push(p - 1);
  if (c < cols - 1) out.push(p + 1);
  if (r < rows - 1) out.push(p + cols);
  return out;
}

/** The tiles that may slide into the blank. */
export function movableTiles(board) {
  const b = board.cells.indexOf(0);
  return neighbours(board.rows, board.cols, b).map(p => board.cells[p]);
}

/** The board after sliding `tile` into the blank, or null if the tile is not next to the blank. */
export function applyMove(board, tile) {
  const b = board.cells.indexOf(0), p = board.cells.indexOf(tile);
  if (tile === 0 || !neighbours(board.rows, board.cols, b).includes(p)) return null;
  const cells = board.cells.slice();
  cells[b] = tile;
  cells[p] = 0;
  return { ...board, cells };
}

/** The tiles a tap on `tile` slides, nearest the gap first: the run from the gap up to `tile` when it shares the gap's
 * row or column (as in Simon Tatham's Fifteen, each tile of the run counts as a move); null otherwise. */
export function runTo(board, tile) {
  const { cols, cells } = board;
  const b = cells.indexOf(0), p = cells.indexOf(tile);
  if (tile === 0 || p < 0) return null;
  let step;
  if (Math.floor(b / cols) === Math.floor(p / cols)) step = Math.sign(p - b);
  else if (b % cols === p % cols) step = Math.sign(p - b) * cols;
  else return null;
  const run = [];
  for (let q = b + step; ; q += step) {
    run.push(cells[q]);
    if (q === p) return run;
  }
}

// Arrow keys move the tile on the far side of the blank in the arrow's direction (the tile slides that way).
const ARROW_OFFSETS = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, 1], ArrowRight: [0, -1] };

/** The tile an arrow key moves, or null when no tile can move that way. */
export function tileForArrow(board, key) {
  const offset = ARROW_OFFSETS[key];
  if (!offset) return null;
  const b = board.cells.indexOf(0);
  const r = Math.floor(b / board.cols) + offset[0], c = (b % board.cols) + offset[1];
  if (r < 0 || r >= board.rows || c < 0 || c >= board.cols) return null;
  return board.cells[r * board.cols + c];
}

/** Which way `tile` slides when moved: 'up', 'down', 'left' or 'right'. */
export function moveDirection(board, tile) {
  const b = board.cells.indexOf(0), p = board.cells.indexOf(tile);
  if (b === p - board.cols) return 'up';
  if (b === p + board.cols) return 'down';
  return b === p - 1 ? 'left' : 'right';
}

function permutationParity(seq) {
  const sorted = seq.slice().sort((a, b) => a - b);
  const index = new Map(sorted.map((v, i) => [v, i]));
  const perm = seq.map(v => index.get(v));
  const seen = new Array(perm.length).fill(false);
  let parity = 0;
  for (let i = 0; i < perm.length; i++) {
    let j = i, length = 0;
    while (!seen[j]) { seen[j] = true; j = perm[j]; length++; }
    if (length) parity ^= (length - 1) & 1;
  }
  return parity;
}

/** Whether `cells` can reach `goal` (same parity rule as the Python engine). */
export function isSolvable(cells, goal, cols) {
  const relabel = new Map(goal.map((t, i) => [t, i]));
  const b0 = cells.indexOf(0), b1 = goal.indexOf(0);
  const distance = Math.abs(Math.floor(b0 / cols) - Math.floor(b1 / cols)) + Math.abs((b0 % cols) - (b1 % cols));
  return permutationParity(cells.map(t => relabel.get(t))) === distance % 2;
}

/** A uniformly random position that can reach `goal`. */
export function randomPosition(rows, cols, goal, random = Math.random) {
  const cells = goal.slice();
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  if (!isSolvable(cells, goal, cols)) {
    const [i, j] = cells.map((t, k) => (t ? k : -1)).filter(k => k >= 0);
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  return cells;
}

/** The goal scrambled by `count` random moves, never undoing the previous one (at most `count` moves from it). */
export function scramble(rows, cols, goal, count, random = Math.random) {
  const cells = goal.slice();
  let blank = cells.indexOf(0), previous = -1;
  for (let k = 0; k < count; k++) {
    const options = neighbours(rows, cols, blank).filter(p => p !== previous);
    const p = options[Math.floor(random() * options.length)];
    cells[blank] = cells[p];
    cells[p] = 0;
    previous = blank;
    blank = p;
  }
  return cells;
}
