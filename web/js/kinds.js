// The two kinds of puzzle behind one interface: how a board of each is read, written and asked about, its default
// goal, how a move is made, refused, named and announced, so that the page does not branch on the kind.
//
//   const kind = kindOf(puzzle);            // SLIDING for 'sliding'; TOKENS for knights, guarini and custom tokens
//   kind.parse(text, puzzle, rule);  kind.format(board);  kind.defaultGoal(board, puzzle)
//   kind.request(board, goalCells, puzzle)  // the engine's puzzle, board and goal fields of a request
//   kind.apply(board, move)  kind.run(board, move)  kind.refusal(board, move)  kind.announce(board, moves)
//   kind.moveLabel(board, move)  kind.hintText(board, move)  kind.hintTile(board, move)  kind.keyMove(board, key)

import {
  applyMove, defaultGoal, formatBoard, moveDirection, parseBoard, runTo, sameCells, tileForArrow,
} from './sliding.js';
import {
  PRESETS, applyTokenMove, formatTokenBoard, moveName, parseTokenBoard, refusal, squareName,
} from './tokens.js';
import { pieceName } from './tokens_board.js';
import { t } from './i18n.js';

const ARROWS = { up: '↑', down: '↓', left: '←', right: '→' };
const DEFAULT_BOARD = '8 6 7/2 5 4/3 0 1';  // the page opens on this 8-puzzle
const CUSTOM_TOKENS = { board: 'B.W/.#./W.B', goal: 'W.B/.#./B.W', rule: 'king' };  // the first custom puzzle

export const SLIDING = {
  family: 'sliding',  // what the engine's catalogue calls it
  thing: 'tile',      // what a move moves: the catalogue's thing.tile
  help: 'play.help',
  moved: 'reason.moved-tile',
  parse: text => parseBoard(text),
  format: (board, sep = ' ') => formatBoard(board.cells, board.cols, sep),
  defaultGoal: board => defaultGoal(board.rows, board.cols),
  request(board, goal) {
    const request = { puzzle: 'sliding', board: SLIDING.format(board) };
    if (!sameCells(goal, defaultGoal(board.rows, board.cols))) request.goal = SLIDING.format({ ...board, cells: goal });
    return request;
  },
  apply: applyMove,
  run: (board, tile) => (applyMove(board, tile) ? [tile] : runTo(board, tile) ?? [tile]),  // a tap slides a run
  refusal: (board, tile) => t('play.not-next', { tile }),
  announce: (board, tiles) => t('play.slid', { tiles: tiles.join(', '), direction: t(`dir.${moveDirection(board, tiles[0])}`) }),
  moveLabel(board, tile) {
    const direction = moveDirection(board, tile);
    return { text: `${tile}${ARROWS[direction]}`, label: t('move.tile', { tile, direction: t(`dir.${direction}`) }) };
  },
  hintText: (board, tile) => t('hint.tile-move', { tile, direction: t(`dir.${moveDirection(board, tile)}`) }),
  hintTile: (board, tile) => t('hint.tile', { tile }),
  keyMove: tileForArrow,  // the tile an arrow key moves (null: none, or not an arrow)
};

const piece = (board, move) => pieceName(board.cells[move[0]], board.rule, { within: true });

export const TOKENS = {
  family: 'tokens',
  thing: 'piece',
  help: 'play.help-tokens',
  moved: 'reason.moved-piece',
  parse: (text, puzzle, rule = PRESETS[puzzle]?.rule) => parseTokenBoard(text, rule),
  format: board => formatTokenBoard(board),
  defaultGoal: (board, puzzle) => parseTokenBoard(PRESETS[puzzle].goal, board.rule).cells,
  request(board, goal, puzzle) {
    const request = { puzzle, board: formatTokenBoard(board), goal: formatTokenBoard({ ...board, cells: goal }) };
    if (puzzle === 'tokens') request.rule = board.rule;
    return request;
  },
  apply: applyTokenMove,
  run: (board, move) => [move],
  refusal,
  announce: (board, moves) => `${piece(board, moves[0])} ${moveName(board, moves[0])}`,
  moveLabel: (board, move) => ({ text: moveName(board, move), label: moveName(board, move) }),
  hintText: (board, move) => t('hint.piece-move', { piece: piece(board, move), move: moveName(board, move) }),
  hintTile: (board, move) => t('hint.piece', { piece: piece(board, move), square: squareName(board, move[0]) }),
  keyMove: () => null,  // pieces are moved by clicks
};

export const kindOf = puzzle => (puzzle === 'sliding' ? SLIDING : TOKENS);

/** A position of `puzzle` from its board text, with its goal (from goal text, or the puzzle's default); `rule`: a
 * custom token puzzle's (a preset's is known). */
export function positionOf(puzzle, boardText, goalText = null, rule = undefined) {
  const kind = kindOf(puzzle);
  const board = kind.parse(boardText, puzzle, rule);
  const goal = goalText ? kind.parse(goalText, puzzle, board.rule).cells : kind.defaultGoal(board, puzzle);
  return { board, goal };
}

/** The position a puzzle type opens with: the default 8-puzzle, a preset's, or the first custom token puzzle. */
export function openingOf(puzzle) {
  const { board, goal, rule } = puzzle === 'sliding' ? { board: DEFAULT_BOARD } : PRESETS[puzzle] ?? CUSTOM_TOKENS;
  return positionOf(puzzle, board, goal, rule);
}
