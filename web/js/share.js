// Share links: the puzzle lives in the URL fragment, so a link works on any static host and never reaches a server.
//
//   #puzzle=sliding&board=8,6,7/2,5,4/3,0,1&goal=1,2,3/4,5,6/7,8,0&algorithm=idastar&heuristic=manhattan
//
// Keys: puzzle and board (required), goal (only when it is not the puzzle's default goal), algorithm and heuristic
// (names, checked against the solver's catalogue once it has loaded). Boards are written like board text with
// commas between cells. Parsing is strict: unknown or repeated keys, empty values and anything but the canonical
// board spelling are rejected, so formatFragment(parseFragment(link)) gives the same link back.

import { BoardError, defaultGoal, formatBoard, parseBoard, sameCells } from './sliding.js';

export class LinkError extends Error {}

const KEYS = ['puzzle', 'board', 'goal', 'algorithm', 'heuristic'];
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const NUMBER = '(?:0|[1-9][0-9]{0,3})';
const ROW = `${NUMBER}(?:,${NUMBER})*`;
const SLIDING_BOARD = new RegExp(`^${ROW}(?:/${ROW})*$`);

// One entry per puzzle type: how its boards are read from and written to a link.
const PUZZLES = {
  sliding: {
    parse(text, what) {
      if (!SLIDING_BOARD.test(text)) {
        throw new LinkError(`the ${what} must be numbers separated by commas, rows by '/', e.g. 1,2,3/4,5,6/7,8,0`);
      }
      try {
        return parseBoard(text);
      } catch (e) {
        if (e instanceof BoardError) throw new LinkError(`the ${what} is not valid: ${e.message}`);
        throw e;
      }
    },
    format: board => formatBoard(board.cells, board.cols, ','),
    isDefaultGoal: (board, goal) => sameCells(goal.cells, defaultGoal(board.rows, board.cols)),
    sameShape: (a, b) => a.rows === b.rows && a.cols === b.cols,
  },
};

/**
 * Read a fragment (with or without '#') into {puzzle, board, goal, algorithm, heuristic}; goal, algorithm and
 * heuristic are null when absent. An empty fragment gives null. Throws LinkError with a reason.
 */
export function parseFragment(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!text) return null;
  if (text.length > 4000) throw new LinkError('the link is too long');
  const fields = {};
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!KEYS.includes(key)) throw new LinkError(`'${key.slice(0, 20)}' is not something a link can set`);
    if (key in fields) throw new LinkError(`'${key}' is given twice`);
    let value = '';
    try {
      if (eq >= 0) value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      throw new LinkError(`the ${key} is not properly encoded`);
    }
    if (!value) throw new LinkError(`'${key}' has no value`);
    fields[key] = value;
  }
  if (!fields.puzzle) throw new LinkError('the link does not say which puzzle it is');
  const codec = PUZZLES[fields.puzzle];
  if (!codec) throw new LinkError(`'${fields.puzzle.slice(0, 20)}' is not a puzzle type this page knows`);
  if (!fields.board) throw new LinkError('the link has no board');
  const board = codec.parse(fields.board, 'board');
  let goal = null;
  if (fields.goal) {
    goal = codec.parse(fields.goal, 'goal');
    if (!codec.sameShape(board, goal)) throw new LinkError('the goal does not have the same shape as the board');
    if (codec.isDefaultGoal(board, goal)) goal = null;
  }
  for (const key of ['algorithm', 'heuristic']) {
    if (fields[key] && !NAME.test(fields[key])) throw new LinkError(`'${fields[key].slice(0, 20)}' is not a valid ${key} name`);
  }
  return { puzzle: fields.puzzle, board, goal, algorithm: fields.algorithm ?? null, heuristic: fields.heuristic ?? null };
}

/** Write {puzzle, board, goal?, algorithm?, heuristic?} as a fragment starting with '#'. */
export function formatFragment({ puzzle, board, goal = null, algorithm = null, heuristic = null }) {
  const codec = PUZZLES[puzzle];
  const parts = [`puzzle=${puzzle}`, `board=${codec.format(board)}`];
  if (goal && !codec.isDefaultGoal(board, goal)) parts.push(`goal=${codec.format(goal)}`);
  if (algorithm) parts.push(`algorithm=${algorithm}`);
  if (heuristic) parts.push(`heuristic=${heuristic}`);
  return `#${parts.join('&')}`;
}
