// Token puzzles in JS: pieces move along the edges of a move graph into empty cells (the knight exchange). The same
// rules as the Python engine (slidelab.puzzles.tokens), so the board is playable before Python has loaded.
//
// A board is {rows, cols, cells, rule}: cells row-major, one character each: a letter is a piece of that kind
// (equal letters are interchangeable), '.' an empty cell, '#' a removed cell. A move is [from, to] cell indices.
import { t } from './i18n.js';


export class TokenError extends Error {}

export const EMPTY = '.';
export const REMOVED = '#';
export const MAX_SIDE = 10;
export const RULES = {
  knight: [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]],
  king: [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]],
  orthogonal: [[-1, 0], [0, -1], [0, 1], [1, 0]],
};
export const PRESETS = {
  knights: { board: 'BBB/.../.../WWW', goal: 'WWW/.../.../BBB', rule: 'knight' },
  guarini: { board: 'B.B/.../W.W', goal: 'W.W/.../B.B', rule: 'knight' },
};

const PIECE = /^[A-Za-z]$/;
export const isPiece = ch => PIECE.test(ch);

/** Parse board text like 'BBB/.../.../WWW' (spaces between cells ignored) into a board; throws TokenError. */
export function parseTokenBoard(text, rule) {
  const rows = String(text ?? '').trim().split(/\s*\/\s*/).map(row => row.replace(/[\s,]+/g, ''));
  if (rows.length === 1 && !rows[0]) throw new TokenError(t('tokens.empty'));
  if (rows.some(row => !row)) throw new TokenError(t('tokens.row-empty'));
  const cols = rows[0].length;
  rows.forEach((row, i) => {
    if (row.length !== cols) throw new TokenError(t('tokens.row-length', { row: i + 1, count: row.length, first: cols }));
    for (const ch of row) {
      if (!isPiece(ch) && ch !== EMPTY && ch !== REMOVED) {
        throw new TokenError(t('tokens.not-cell', { text: ch }));
      }
    }
  });
  if (rows.length > MAX_SIDE || cols > MAX_SIDE) {
    throw new TokenError(t('tokens.size', { rows: rows.length, cols, max: MAX_SIDE }));
  }
  const cells = [...rows.join('')];
  if (!cells.some(isPiece)) throw new TokenError(t('tokens.no-pieces'));
  return { rows: rows.length, cols, cells, rule };
}

export function formatTokenBoard(board) {
  const lines = [];
  for (let i = 0; i < board.cells.length; i += board.cols) lines.push(board.cells.slice(i, i + board.cols).join(''));
  return lines.join('/');
}

/** Why a goal does not fit a start (shape, removed cells, pieces), or '' when it does. */
export function pairProblem(start, goal) {
  if (start.rows !== goal.rows || start.cols !== goal.cols) {
    return t('tokens.shapes', { rows: start.rows, cols: start.cols, goalRows: goal.rows, goalCols: goal.cols });
  }
  const cell = start.cells.findIndex((ch, i) => (ch === REMOVED) !== (goal.cells[i] === REMOVED));
  if (cell >= 0) return t('tokens.removed-once', { square: squareName(start, cell) });
  const a = pieceCounts(start.cells), b = pieceCounts(goal.cells);
  if (a !== b) return t('tokens.pieces-differ', { start: a || t('tokens.none'), goal: b || t('tokens.none') });
  return '';
}

function pieceCounts(cells) {
  const counts = {};
  for (const ch of cells) if (isPiece(ch)) counts[ch] = (counts[ch] ?? 0) + 1;
  return Object.keys(counts).sort().map(k => `${counts[k]} ${k}`).join(', ');
}

/** Chess-like square name: column letter from 'a' at the left, row number from 1 at the bottom. */
export function squareName({ rows, cols }, cell) {
  return `${String.fromCharCode(97 + (cell % cols))}${rows - Math.floor(cell / cols)}`;
}

export const moveName = (board, [from, to]) => `${squareName(board, from)}-${squareName(board, to)}`;

const graphs = new Map();  // "rows x cols rule removed" -> neighbours per cell

/** For each cell, the live cells one move of the board's rule away (none for a removed cell). */
export function neighbours(board) {
  const { rows, cols, cells, rule } = board;
  const key = `${rows}x${cols} ${rule} ${cells.map(ch => (ch === REMOVED ? 1 : 0)).join('')}`;
  if (!graphs.has(key)) {
    const live = cell => cells[cell] !== REMOVED;
    graphs.set(key, cells.map((_, cell) => {
      if (!live(cell)) return [];
      const r = Math.floor(cell / cols), c = cell % cols;
      return RULES[rule]
        .map(([dr, dc]) => [r + dr, c + dc])
        .filter(([rr, cc]) => rr >= 0 && rr < rows && cc >= 0 && cc < cols && live(rr * cols + cc))
        .map(([rr, cc]) => rr * cols + cc)
        .sort((a, b) => a - b);
    }));
  }
  return graphs.get(key);
}

/** The empty cells the piece on `cell` can move to (none when there is no piece there). */
export function targets(board, cell) {
  if (!isPiece(board.cells[cell])) return [];
  return neighbours(board)[cell].filter(to => board.cells[to] === EMPTY);
}

/** Every legal move on the board, as [from, to] pairs (by `from`, then `to`). */
export const legalMoves = board => board.cells.flatMap((_, from) => targets(board, from).map(to => [from, to]));

/** The board after moving [from, to], or null when that is not a legal move. */
export function applyTokenMove(board, [from, to]) {
  if (!targets(board, from).includes(to)) return null;
  const cells = board.cells.slice();
  cells[to] = cells[from];
  cells[from] = EMPTY;
  return { ...board, cells };
}

/** Why [from, to] is not a legal move on the board (for the player). */
export function refusal(board, [from, to]) {
  if (!isPiece(board.cells[from])) return t('tokens.no-piece', { square: squareName(board, from) });
  if (board.cells[to] === REMOVED) return t('tokens.off-board', { square: squareName(board, to) });
  if (board.cells[to] !== EMPTY) return t('tokens.taken', { square: squareName(board, to) });
  return t('tokens.unreachable', { from: squareName(board, from), to: squareName(board, to), rule: t(`rule.${board.rule}`) });
}
