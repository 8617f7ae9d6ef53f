// App wiring: the state of the page (the puzzle, its goal, the chosen method), setting puzzles (presets, sizes,
// shuffles, typed boards, links) and the wiring between the parts: the board views, the solver bridge, solving
// (solving.js), the playback of a solution (playback.js), the token editor, Compare, Explore and Watch the search.

import { MethodPicker } from './algorithms.js';
import { SlidingBoardView } from './board.js';
import { Solver } from './bridge.js';
import { Comparison } from './compare.js';
import { Explorer } from './explore.js';
import { FAMOUS } from './famous.js';
import { plural } from './format.js';
import { DistanceMeter } from './meter.js';
import { MoveHistory, keepBest, readBest } from './play.js';
import { Playback } from './playback.js';
import { offerAtOnce } from './quick.js';
import { Solving } from './solving.js';
import { Watch } from './watch.js';
import { YourHeuristic } from './your_heuristic.js';
import { StatsPanel } from './stats.js';
import { TableLoader } from './tables.js';
import { SolverPool } from './pool.js';
import { PoolView } from './pool_view.js';
import { registerServiceWorker } from './offline.js';
import { TokenEditor } from './token_editor.js';
import {
  PRESETS, applyTokenMove, formatTokenBoard, moveName, parseTokenBoard, refusal, squareName,
} from './tokens.js';
import { TokenBoardView, pieceName } from './tokens_board.js';
import { LinkError, formatFragment, parseFragment } from './share.js';
import {
  BoardError, applyMove, defaultGoal, formatBoard, moveDirection, parseBoard, randomPosition, runTo, sameCells,
  scramble, tileForArrow,
} from './sliding.js';

const DEFAULT_BOARD = '8 6 7/2 5 4/3 0 1';
const DEFAULT_ALGORITHM = 'idastar';
const DEFAULT_HEURISTIC = 'auto';
const SIZES = ['2x2', '2x3', '3x3', '3x4', '4x4', '4x5', '5x5'];
const SCRAMBLE_RANDOM_UP_TO = 12;  // boards up to this many cells shuffle to any position; larger ones by moves
const SLOW_START_S = 45;           // a solver still loading after this long may have failed inside its worker
const ARROWS = { up: '↑', down: '↓', left: '←', right: '→' };
const TOKEN_HEURISTIC = 'auto';    // the sliding heuristics do not apply to token puzzles
const SWIPE_KEYS = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
const HINT_LABELS = ['Hint', 'Hint: which tile?', 'Hint: the move', 'Hint: the move'];  // what the next press gives
const CUSTOM_TOKENS = { board: 'B.W/.#./W.B', goal: 'W.B/.#./B.W', rule: 'king' };  // the first custom puzzle

const $ = id => document.getElementById(id);
const ui = {
  status: $('solver-status'), statusText: $('solver-status-text'), statusTime: $('solver-status-time'),
  notice: $('notice'), noticeText: $('notice-text'),
  size: $('size'), scramble: $('scramble'), shuffle: $('shuffle'), reset: $('reset'),
  moveCount: $('move-count'), playMessage: $('play-message'),
  solve: $('solve'), hint: $('hint'), quick: $('quick-solve'), method: $('method'), message: $('solver-message'),
  link: $('share-link'), copy: $('copy-link'), copied: $('copy-message'),
  editForm: $('edit-form'), boardText: $('board-text'), goalText: $('goal-text'), editError: $('edit-error'),
  puzzleType: $('puzzle-type'), board: $('board'), tokenBoard: $('token-board'), tokenGoal: $('token-goal'),
  playHelp: $('play-help'), tokenEditor: $('token-editor'),
  undo: $('undo'), redo: $('redo'), famous: $('famous'), famousNote: $('famous-note'), best: $('best-score'),
};

const state = {
  puzzle: 'sliding',                 // sliding, or a token puzzle: knights, guarini (presets) or tokens (custom)
  board: parseBoard(DEFAULT_BOARD),  // {rows, cols, cells, rule?}: what the board shows
  start: null,                       // the board the puzzle was set to
  goal: defaultGoal(3, 3),
  algorithm: DEFAULT_ALGORITHM,
  heuristic: DEFAULT_HEURISTIC,
  moves: 0,        // moves the player made since the position was set (less those undone)
  history: new MoveHistory(),  // the player's moves, for undo and redo
  hintLevel: 0,    // the hint given for this position: 0 none, 1 the distance, 2 the tile, 3 the move
  hint: null,      // a move to highlight
  linkHash: '',    // the fragment this page last wrote
  pendingTrace: null,  // a link's trace step, shown once the solver is ready
};

const view = new SlidingBoardView($('board'), {
  onTile: tile => playerMove(tile),
  onSwipe: direction => {
    const tile = tileForArrow(state.board, SWIPE_KEYS[direction]);
    if (tile !== null) playerMove(tile);
  },
});
const solver = new Solver({ onStatus: showSolverStatus, heuristicCode: () => yours.runnableCode() });
const tokenView = new TokenBoardView(ui.tokenBoard, { onMove: move => playerMove(move) });
const goalView = new TokenBoardView($('token-goal-board'), { interactive: false });
const editor = new TokenEditor($('token-editor-body'), {
  check: request => solver.check(request),
  onPlay: ({ board, goal }) => setPuzzle(board, goal.cells, { puzzle: 'tokens' }),
});

// The two kinds of board behind one interface: the view, how a move is made, refused and named, and what Reset shows.
const SLIDING = {
  family: 'sliding',
  view,
  help: 'Click or tap a tile in the gap\'s row or column, swipe the board, or use the arrow keys.',
  apply: applyMove,
  run: (board, tile) => (applyMove(board, tile) ? [tile] : runTo(board, tile) ?? [tile]),  // a tap slides a run
  refusal: (board, tile) => `Tile ${tile} is not next to the gap.`,
  moveLabel(board, tile) {
    const direction = moveDirection(board, tile);
    return { text: `${tile}${ARROWS[direction]}`, label: `tile ${tile} ${direction}` };
  },
  hintText: (board, tile) => `move tile ${tile} ${moveDirection(board, tile)}`,
  hintTile: (board, tile) => `move tile ${tile}`,
  resetBoard: () => ({ ...state.board, cells: state.goal.slice() }),
};
const TOKENS = {
  family: 'tokens',
  view: tokenView,
  help: 'Click a piece, then one of the marked squares it can move to.',
  apply: applyTokenMove,
  run: (board, move) => [move],
  refusal,
  moveLabel: (board, move) => ({ text: moveName(board, move), label: moveName(board, move) }),
  hintText: (board, move) => `move the ${pieceName(board.cells[move[0]], board.rule).toLowerCase()} `
    + moveName(board, move),
  hintTile: (board, move) => `move the ${pieceName(board.cells[move[0]], board.rule).toLowerCase()} on `
    + squareName(board, move[0]),
  resetBoard: () => state.start,
};
const kind = () => (state.puzzle === 'sliding' ? SLIDING : TOKENS);
const familyOf = puzzle => (puzzle === 'sliding' ? SLIDING : TOKENS).family;  // what the engine's catalogue calls it
const tables = new TableLoader(solver);
const picker = new MethodPicker({
  algorithm: $('algorithm'), heuristic: $('heuristic'), heuristicField: $('heuristic-field'), note: ui.method,
  onChange: chooseMethod,
});
const statsPanel = new StatsPanel($('stats-panel'));
const playback = new Playback({
  result: $('result'), length: $('result-length'), list: $('move-list'), first: $('play-first'), back: $('play-back'),
  play: $('play-toggle'), forward: $('play-forward'), last: $('play-last'), speed: $('play-speed'),
  speedOut: $('play-speed-value'), step: $('play-step'),
}, {
  rules: kind,
  onStep: (board, said) => {
    if (said) announce(state.board, [said.back && state.puzzle !== 'sliding' ? said.move.toReversed() : said.move]);
    state.board = board;
    state.hint = null;
    render();
  },
});
let poolView = null;  // the Workers selector and status (made once the page's parts are wired)
const pool = new SolverPool(solver, tables, { onChange: () => poolView?.show() });
const solving = new Solving({
  progress: $('progress'), bound: $('progress-bound'), nodes: $('progress-nodes'), rate: $('progress-rate'),
  elapsed: $('progress-elapsed'), note: $('progress-note'), cancel: $('cancel'),
  workers: $('progress-workers'), workersRow: $('progress-workers-row'),
}, {
  solver: pool, tables, stats: statsPanel, board: () => state.board, goal: () => state.goal, rules: kind,
  request: () => solveRequest(), say, notice: showNotice, onBusy: updateControls, onAnswer: showResult,
  onHint: showHint,
});
const comparison = new Comparison($('compare'), {
  solver, tables, request: () => solveRequest(), onBusy: updateControls,
});
const explorer = new Explorer($('explore'), {
  solver, onBusy: updateControls, request: () => solveRequest(),
  onPick: ({ puzzle, board, goal, rule }) => {  // a farthest position becomes the start; goal and rule stay
    const parse = text => (puzzle === 'sliding' ? parseBoard(text) : parseTokenBoard(text, rule));
    setPuzzle(parse(board), parse(goal).cells, { puzzle });
    kind().view.element.scrollIntoView({ block: 'nearest' });
  },
});

const meter = new DistanceMeter($('meter'), {
  solver, tables, solving, request: board => ({ ...requestFor(board), algorithm: 'idastar', heuristic: 'auto' }),
  atGoal: board => sameCells(board.cells, state.goal),
});

const watch = new Watch($('watch'), {
  solver, tables, request: () => solveRequest(), board: () => state.board, onBusy: updateControls, onChange: writeLink,
  onShow: showTraceBoard, onMethod: chooseMethod, onLesson: openLesson,
});

const yours = new YourHeuristic($('yours'), {
  solver, request: () => solveRequest(), onBusy: updateControls, onChange: writeLink,
  onBoard: text => setPuzzle(kind() === SLIDING ? parseBoard(text) : parseTokenBoard(text, state.board.rule),
    state.goal),
  onUse: () => {  // an algorithm without a heuristic gives way to A*
    chooseMethod(picker.usesHeuristicFor(state.algorithm) ? state.algorithm : 'astar', 'yours');
    solving.run('solve');
  },
  onCompare: () => comparison.assignment(),
});

// ---- position and play ----------------------------------------------------------------------------------------

const boardText = (board, sep = ' ') => formatBoard(board.cells, board.cols, sep);
const goalBoard = () => ({ ...state.board, cells: state.goal });
const atGoal = () => sameCells(state.board.cells, state.goal);

/** Start a new puzzle: a position (and goal) of the `puzzle` type; stops any search, forgets the solution shown. */
function setPuzzle(board, goal = defaultGoal(board.rows, board.cols),
  { stopReason = 'the position changed', puzzle = state.puzzle } = {}) {
  solving.stop(stopReason);
  watch.clear(stopReason);
  showResult(null);
  if (!sameCells(goal, state.goal) || board.rule !== state.board.rule) {
    solving.forget();
    meter.forget();
  }
  if (puzzle !== state.puzzle) showPuzzleType(puzzle);
  state.start = board;
  if (puzzle !== 'sliding') {
    editor.load(board, { ...board, cells: goal });
  } else if (board.cells.length !== state.board.cells.length) {  // the page starts on 3x3 with 'any position'
    ui.scramble.value = board.cells.length <= SCRAMBLE_RANDOM_UP_TO ? 'random' : '40';
  }
  state.board = board;
  state.goal = goal;
  state.moves = 0;
  state.history = new MoveHistory();
  state.hintLevel = 0;
  showHintLevel();
  state.hint = null;
  say('');
  ui.playMessage.textContent = '';
  ui.famousNote.hidden = true;
  ui.famous.value = '';  // openFamous chooses it again when a famous position is what was opened
  if (puzzle === 'sliding') {
    ui.boardText.value = boardText(board);
    ui.goalText.value = sameCells(goal, defaultGoal(board.rows, board.cols)) ? '' : boardText(goalBoard());
    syncSizeSelect();
  }
  writeLink();
  render();
  updateControls();
  showBest();
  meter.update(board);
}

/** Show the controls, board and editor of a puzzle type (sliding, or a token puzzle). */
function showPuzzleType(puzzle) {
  state.puzzle = puzzle;
  ui.puzzleType.value = puzzle;
  const tokens = puzzle !== 'sliding';
  ui.size.closest('label').hidden = ui.shuffle.parentElement.hidden = ui.editForm.closest('details').hidden = tokens;
  ui.board.hidden = tokens;
  ui.tokenBoard.hidden = ui.tokenGoal.hidden = ui.tokenEditor.hidden = !tokens;
  ui.playHelp.textContent = kind().help;
  picker.setPuzzle(kind().family);
  comparison.setPuzzle(kind().family);
  explorer.setPuzzle(kind().family);
  yours.setPuzzle(kind().family);
}

/** The puzzle-type choice: the default sliding puzzle, a preset, or a custom token puzzle (the current one). */
function choosePuzzle(puzzle) {
  state.heuristic = puzzle === 'sliding' ? DEFAULT_HEURISTIC : TOKEN_HEURISTIC;
  if (!picker.offers('algorithms', state.algorithm, familyOf(puzzle))) state.algorithm = DEFAULT_ALGORITHM;
  if (puzzle === 'sliding') {
    setPuzzle(parseBoard(DEFAULT_BOARD), defaultGoal(3, 3), { puzzle });
  } else if (puzzle === 'tokens' && state.puzzle !== 'sliding') {
    setPuzzle(state.start, state.goal, { puzzle });
  } else {
    const { board, goal, rule } = PRESETS[puzzle] ?? CUSTOM_TOKENS;
    setPuzzle(parseTokenBoard(board, rule), parseTokenBoard(goal, rule).cells, { puzzle });
  }
  ui.tokenEditor.open ||= puzzle === 'tokens';
  if (solver.status === 'ready') checkMethod();
}

/** The player moved: a tile (a tap slides the whole run up to the gap, each tile a move) or a piece. */
function playerMove(move) {
  const before = state.board;
  const moves = kind().run(before, move);
  let after = before;
  for (const step of moves) after = after && kind().apply(after, step);
  if (!after) {
    ui.playMessage.textContent = kind().refusal(before, move);
    return;
  }
  if (moves.length !== 1 || !playback.follow(move)) {
    if (playback.active) showResult(null);
    state.board = after;
  }
  state.history.push({ before, after: state.board, count: moves.length });
  announce(before, moves);
  afterPlay(before, moves.length);
}

/** Tell screen readers what a move did (the player's, or a step of a solution shown): "7 slid left", "7, 8 slid
 * left", "knight b1–c3". */
function announce(before, moves) {
  const text = state.puzzle === 'sliding'
    ? `${moves.join(', ')} slid ${moveDirection(before, moves[0])}`
    : `${pieceName(before.cells[moves[0][0]], before.rule).toLowerCase()} ${moveName(before, moves[0])}`;
  $('move-announcer').textContent = text;
}

/** Undo (or redo) the player's last move (or the last undone): a solution shown is put away. */
function undoRedo(redo) {
  const entry = redo ? state.history.redo() : state.history.undo();
  if (!entry) return;
  if (playback.active) showResult(null);
  const before = state.board;
  state.board = redo ? entry.after : entry.before;
  $('move-announcer').textContent = `${redo ? 'Redone' : 'Undone'}: ${entry.count} ${plural(entry.count, 'move')}`;
  afterPlay(before, redo ? entry.count : -entry.count);
}

/** After the player changed the board from `before`, by `count` moves (negative: undone). */
function afterPlay(before, count) {
  solving.stop(state.puzzle === 'sliding' ? 'you moved a tile' : 'you moved a piece');
  watch.clear(state.puzzle === 'sliding' ? 'you moved a tile' : 'you moved a piece');
  state.moves += count;
  state.hint = null;
  state.hintLevel = 0;
  showHintLevel();
  ui.playMessage.textContent = '';
  writeLink();
  render();
  updateControls();
  state.history.save(playKey(state.board), { start: state.start, moves: state.moves });
  meter.update(state.board, before);
  if (atGoal() && count > 0 && !sameCells(state.start.cells, state.goal)) celebrate();  // from the goal: no feat
}

/** Solved by the player: the count, the shortest (when known or cheap to know) and the player's best here. */
async function celebrate() {
  const moves = state.moves, start = state.start;
  const { best, improved, stored } = keepBest(playKey(start), moves);
  const solved = `Solved in ${moves} ${plural(moves, 'move')}`;
  const bestText = !stored ? '' : improved ? ' Your best here!' : ` Your best here is ${best}.`;
  ui.playMessage.textContent = `${solved}!${bestText}`;
  showBest();
  const shortest = await meter.lengthOf(start);
  if (shortest !== null && state.start === start && state.moves === moves && atGoal()) {
    ui.playMessage.textContent = `${solved}; the shortest is ${shortest}.${bestText}`;
  }
}

/** The key of a position for the player's history and best: the puzzle, its goal and the board. */
function playKey(board) {
  const text = b => (state.puzzle === 'sliding' ? boardText(b, ',') : formatTokenBoard(b));
  return `${state.puzzle}|${board.rule ?? ''}|${text({ ...board, cells: state.goal })}|${text(board)}`;
}

function showBest() {
  const best = readBest(playKey(state.start));
  ui.best.hidden = best === null;
  ui.best.textContent = best === null ? '' : `Your best for this position: ${best} ${plural(best, 'move')}.`;
}

/** The Hint button says what its next press gives; data-level is the hint given so far (0 to 3). */
function showHintLevel() {
  ui.hint.textContent = HINT_LABELS[state.hintLevel === 0 && meter.on ? 1 : state.hintLevel];
  ui.hint.dataset.level = state.hintLevel;
}

/** Hint, press by press: first the distance meter, then the tile to move, then the move itself. */
function hint() {
  state.hintLevel = Math.min(3, state.hintLevel + 1);
  if (state.hintLevel === 1 && meter.on) state.hintLevel = 2;  // the meter is on already: name the tile
  showHintLevel();
  if (state.hintLevel === 1) {
    meter.show(true);
    meter.update(state.board);
    say('The distance meter shows how far the goal is, after every move. Press Hint again for the tile to move.');
    return;
  }
  solving.run('hint', { detail: state.hintLevel === 2 ? 'tile' : 'move' });
}

/** Put a famous position on the board, and say where it comes from. */
function openFamous(index) {
  const entry = FAMOUS[Number(index)];
  if (!entry) return;
  if (entry.puzzle !== state.puzzle) choosePuzzle(entry.puzzle);
  const rule = PRESETS[entry.puzzle]?.rule;
  const parse = text => (entry.puzzle === 'sliding' ? parseBoard(text) : parseTokenBoard(text, rule));
  const board = parse(entry.board);
  const goal = entry.goal ? parse(entry.goal).cells
    : entry.puzzle === 'sliding' ? defaultGoal(board.rows, board.cols) : parse(PRESETS[entry.puzzle].goal).cells;
  setPuzzle(board, goal, { stopReason: 'a famous position was opened', puzzle: entry.puzzle });
  ui.famous.value = index;  // the select shows what is open, so its arrow keys step through the list
  meter.note(board, entry.length);
  ui.famousNote.textContent = `${entry.title}: ${entry.length} moves at the fewest. Source: ${entry.source}.`;
  ui.famousNote.hidden = false;
}

function render() {
  const solved = atGoal() && (state.moves > 0 || playback.active);
  kind().view.render(state.board, { goal: state.goal, hint: state.hint, solved });
  if (kind() === TOKENS) goalView.render(goalBoard());
  ui.moveCount.textContent = state.moves;
}

function newShape(shape) {
  const [rows, cols] = shape.split('x').map(Number);
  const goal = defaultGoal(rows, cols);
  setPuzzle({ rows, cols, cells: goal.slice() }, goal);
  ui.playMessage.textContent = 'Press Shuffle to mix the tiles.';
}

function shuffle() {
  const { rows, cols } = state.board;
  const how = ui.scramble.value;
  const cells = how === 'random'
    ? randomPosition(rows, cols, state.goal)
    : scramble(rows, cols, state.goal, Number(how));
  setPuzzle({ rows, cols, cells }, state.goal);
}

function syncSizeSelect() {
  const shape = `${state.board.rows}x${state.board.cols}`;
  ui.size.querySelector('option[data-custom]')?.remove();
  if (!SIZES.includes(shape)) {
    const option = new Option(`${shape} (typed)`, shape);
    option.dataset.custom = '';
    ui.size.append(option);
  }
  ui.size.value = shape;
}

function onKey(event) {
  if (event.target.closest?.('input, textarea, select, [contenteditable]')) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !event.altKey && (key === 'z' || key === 'y')) {
    event.preventDefault();
    undoRedo(key === 'y' || event.shiftKey);
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey || state.puzzle !== 'sliding') return;
  const tile = tileForArrow(state.board, event.key);
  if (tile === null) return;
  event.preventDefault();
  playerMove(tile);
}

// ---- share links -----------------------------------------------------------------------------------------------

function linkState() {
  const { puzzle, algorithm, heuristic } = state;
  const board = watch.board ?? state.board;  // a trace's link holds its start, whichever node the board shows
  const trace = watch.unit ?? state.pendingTrace;
  const weight = algorithm === 'weighted' && trace !== null ? watch.weight : null;  // the weight of the trace shown
  return { puzzle, board, goal: goalBoard(), algorithm, heuristic, weight, trace, code: yours.code };
}

function writeLink() {
  state.linkHash = formatFragment(linkState());
  history.replaceState(null, '', state.linkHash);
  picker.set(state.algorithm, state.heuristic);
  watch.setMethod(state.algorithm, state.heuristic);
  ui.link.value = location.href;
  ui.copied.textContent = '';
}

/** Open a link; a link that passes the checks and still fails (a bug) shows why and the default puzzle, so the page
 * is never left without a board. */
function openLinkSafely(hash, { reload = false } = {}) {
  try {
    openLink(hash);
    if (reload) restorePlay();
  } catch (error) {
    showNotice(`This link could not be opened (${error?.message ?? error}). Showing the default puzzle instead.`);
    openLink('');
  }
}

/** Open the puzzle in the URL fragment; a malformed link gets a message and the default puzzle. */
function openLink(hash) {
  let link = null;
  try {
    link = parseFragment(hash);
  } catch (error) {
    if (!(error instanceof LinkError)) throw error;
    showNotice(`This link could not be opened: ${error.message}. Showing the default puzzle instead.`);
  }
  if (link) ui.notice.hidden = true;
  const puzzle = link?.puzzle ?? 'sliding';
  state.algorithm = link?.algorithm ?? DEFAULT_ALGORITHM;
  state.heuristic = link?.heuristic ?? (puzzle === 'sliding' ? DEFAULT_HEURISTIC : TOKEN_HEURISTIC);
  if (link?.weight) watch.weight = link.weight;
  if (link?.code) yours.fromLink(link.code);
  state.pendingTrace = link?.trace ?? null;
  const board = link?.board ?? parseBoard(DEFAULT_BOARD);
  const goal = link?.goal?.cells ?? (puzzle === 'sliding'
    ? defaultGoal(board.rows, board.cols) : parseTokenBoard(PRESETS[puzzle].goal, board.rule).cells);
  setPuzzle(board, goal, { stopReason: 'a new link was opened', puzzle });
  if (solver.status === 'ready') checkMethod();
}

/** On a reload of the tab, the player's moves, undo and redo come back (a link opened afresh starts clean). */
function restorePlay() {
  const kept = MoveHistory.load(playKey(state.board));
  if (!kept || !kept.start || !Number.isInteger(kept.moves)) return;
  state.history = kept.history;
  state.start = kept.start;
  state.moves = kept.moves;
  render();
  updateControls();
  showBest();
}

async function copyLink() {
  writeLink();
  try {
    await navigator.clipboard.writeText(location.href);
    ui.copied.textContent = 'Link copied.';
  } catch {
    ui.link.select();
    ui.copied.textContent = 'Select the link above and copy it.';
  }
}

function showNotice(text) {
  ui.noticeText.textContent = text;
  ui.notice.hidden = false;
}

// ---- editing ---------------------------------------------------------------------------------------------------

async function applyEdit(event) {
  event.preventDefault();
  const read = (input, what) => {
    try {
      const board = parseBoard(input.value);
      input.removeAttribute('aria-invalid');
      return board;
    } catch (error) {
      if (!(error instanceof BoardError)) throw error;
      input.setAttribute('aria-invalid', 'true');
      ui.editError.textContent = `The ${what} is not valid: ${error.message}.`;
      return null;
    }
  };
  ui.goalText.removeAttribute('aria-invalid');
  const board = read(ui.boardText, 'position');
  if (!board) return;
  let goal = defaultGoal(board.rows, board.cols);
  if (ui.goalText.value.trim()) {
    const given = read(ui.goalText, 'goal');
    if (!given) return;
    if (given.rows !== board.rows || given.cols !== board.cols) {
      ui.goalText.setAttribute('aria-invalid', 'true');
      ui.editError.textContent = `The position is ${board.rows}x${board.cols} `
        + `but the goal is ${given.rows}x${given.cols}.`;
      return;
    }
    goal = given.cells;
  }
  ui.editError.textContent = '';
  setPuzzle(board, goal);
  if (solver.status === 'ready') {
    const answer = await solver.check(solveRequest());
    if (answer.ok && !answer.solvable && state.board === board) say(answer.reason, 'explain');
  }
}

// ---- the solver: requests, answers, hints and controls ---------------------------------------------------------

function solveRequest() {
  return requestFor(state.board);
}

/** The solve request for a board of the puzzle and goal shown, with the method chosen. */
function requestFor(board) {
  const goal = { ...board, cells: state.goal };
  if (state.puzzle !== 'sliding') {
    const request = { puzzle: state.puzzle, board: formatTokenBoard(board), goal: formatTokenBoard(goal),
      algorithm: state.algorithm, heuristic: state.heuristic };
    if (state.puzzle === 'tokens') request.rule = board.rule;
    return request;
  }
  const request = {
    puzzle: 'sliding', board: boardText(board), algorithm: state.algorithm, heuristic: state.heuristic,
  };
  if (!sameCells(state.goal, defaultGoal(board.rows, board.cols))) request.goal = boardText(goal);
  return request;
}

/** Show a solve answer found from `start` (its statistics and its solution, at step 0), or none. */
function showResult(answer, start) {
  if (!answer) {
    playback.hide();
    statsPanel.clear();
    return;
  }
  statsPanel.finish(answer, picker.title(answer.algorithm, answer.heuristic));
  playback.show(answer, start);
}

/** Highlight a move on the board (a hint), or none; detail 'tile': the tile or piece only, not where it goes. */
function showHint(move, detail = 'move') {
  state.hint = detail === 'tile' && Array.isArray(move) ? [move[0], -1] : move;
  render();
  if (move !== null) kind().view.focusTile(move);
}

function say(text, tone = '') {
  ui.message.textContent = text;
  ui.message.className = `message ${tone}`.trim();
}

function updateControls() {
  const ready = solver.status === 'ready';
  const labBusy = comparison.running || explorer.running || watch.running || yours.running;  // they use the solver
  const busy = solving.running !== null;
  ui.solve.disabled = ui.hint.disabled = !ready || busy || labBusy;
  for (const part of [comparison, explorer, watch, yours]) part.setEnabled(ready && !busy && !labBusy);
  const title = ready ? '' : 'The solver is still loading';
  ui.solve.title = ui.hint.title = title;
  ui.quick.hidden = busy ? !solving.offersQuick : state.puzzle !== 'sliding' || !offerAtOnce(state.board);
  ui.quick.disabled = !ready || labBusy;
  ui.undo.disabled = !state.history.canUndo;
  ui.redo.disabled = !state.history.canRedo;
  if (ready && !busy && !labBusy) meter.resume();
}

// ---- the pool of workers (pool_view.js) -------------------------------------------------------------------------
poolView = new PoolView(pool, { select: $('pool-size'), status: $('pool-status') });

function showSolverStatus(status, detail) {
  ui.status.dataset.state = status;
  ui.statusText.textContent = status === 'loading' ? `${detail}…` : detail;
  ui.statusTime.textContent = '';
  clearInterval(showSolverStatus.timer);
  if (status === 'loading') {  // a clock, not announced to screen readers
    const started = performance.now();
    showSolverStatus.timer = setInterval(() => {
      const seconds = Math.round((performance.now() - started) / 1000);
      ui.statusTime.textContent = ` ${seconds} s${seconds > SLOW_START_S ? ' (slow: reload the page to retry)' : ''}`;
    }, 500);
  }
  if (status === 'ready') {
    checkMethod();
    editor.validate();
  }
  updateControls();
  poolView?.show();
}

/** Once the solver is up: fill the selectors, and drop names from a link that the puzzle does not offer. */
async function checkMethod() {
  const catalogue = await solver.describe();
  if (!catalogue.algorithms) return;
  picker.setCatalogue(catalogue);
  comparison.setCatalogue(catalogue);
  watch.setCatalogue(catalogue);
  yours.setCatalogue(catalogue);
  const dropped = [];
  if (!picker.offers('algorithms', state.algorithm)) {
    dropped.push(`the algorithm '${state.algorithm}'`);
    state.algorithm = DEFAULT_ALGORITHM;
  }
  if (!picker.offers('heuristics', state.heuristic)) {
    dropped.push(`the heuristic '${state.heuristic}'`);
    state.heuristic = state.puzzle === 'sliding' ? DEFAULT_HEURISTIC : TOKEN_HEURISTIC;
  }
  if (dropped.length) {
    showNotice(`This link names ${dropped.join(' and ')}, which the solver does not offer for this puzzle; `
      + 'using the default instead.');
    writeLink();
  }
  if (state.pendingTrace !== null) {  // a link to a trace: play it to its step
    const unit = state.pendingTrace;
    state.pendingTrace = null;
    if (await watch.start({ unit })) $('watch').scrollIntoView({ block: 'start' });
  }
}

/** Show a node of the trace on the main board (the trace keeps its own start). */
function showTraceBoard(text) {
  state.board = state.puzzle === 'sliding' ? parseBoard(text) : parseTokenBoard(text, state.board.rule);
  state.hint = null;
  render();
}

/** A lesson of Watch the search: its position on the board, its last method chosen. */
function openLesson(lesson) {
  const board = lesson.puzzle === 'sliding' ? parseBoard(lesson.board)
    : parseTokenBoard(lesson.board, PRESETS[lesson.puzzle].rule);
  const goal = lesson.puzzle === 'sliding' ? defaultGoal(board.rows, board.cols)
    : parseTokenBoard(PRESETS[lesson.puzzle].goal, board.rule).cells;
  setPuzzle(board, goal, { stopReason: 'a lesson was opened', puzzle: lesson.puzzle });
  if (lesson.example) yours.useExample(lesson.example);
  const { algorithm, heuristic } = lesson.methods.at(-1);
  chooseMethod(algorithm, heuristic);
}

/** The user chose another algorithm or heuristic: the next search uses it, and the link says so. */
function chooseMethod(algorithm, heuristic) {
  state.algorithm = algorithm;
  state.heuristic = heuristic;
  writeLink();
}

// ---- start -----------------------------------------------------------------------------------------------------

function wire() {
  for (const shape of SIZES) ui.size.append(new Option(shape, shape));
  ui.size.addEventListener('change', () => newShape(ui.size.value));
  ui.shuffle.addEventListener('click', shuffle);
  ui.reset.addEventListener('click', () => setPuzzle(kind().resetBoard(), state.goal));
  ui.puzzleType.addEventListener('change', () => choosePuzzle(ui.puzzleType.value));
  ui.solve.addEventListener('click', () => solving.run('solve'));
  ui.hint.addEventListener('click', hint);
  ui.undo.addEventListener('click', () => undoRedo(false));
  ui.redo.addEventListener('click', () => undoRedo(true));
  const groups = new Map();
  FAMOUS.forEach((entry, index) => {
    if (!groups.has(entry.group)) {
      groups.set(entry.group, document.createElement('optgroup'));
      groups.get(entry.group).label = entry.group;
      ui.famous.append(groups.get(entry.group));
    }
    groups.get(entry.group).append(new Option(entry.title, String(index)));
  });
  ui.famous.addEventListener('change', () => openFamous(ui.famous.value));
  ui.quick.addEventListener('click', () => solving.quick());
  ui.copy.addEventListener('click', copyLink);
  ui.editForm.addEventListener('submit', applyEdit);
  $('notice-close').addEventListener('click', () => { ui.notice.hidden = true; });
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => {
    if (location.hash !== state.linkHash) openLinkSafely(location.hash);
  });
}

wire();
openLinkSafely(location.hash, { reload: true });
registerServiceWorker({
  onUpdate: apply => {
    $('update').hidden = false;
    $('update-reload').onclick = apply;
  },
}).then(() => solver.start());
