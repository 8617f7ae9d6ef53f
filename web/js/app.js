// App wiring: the state of the page (the puzzle, its goal, the chosen method), setting a puzzle (from a type, a size,
// a shuffle, a typed board, a famous position, a link), and the wiring between the parts, each a module of its own:
// the board views, the two kinds of puzzle (kinds.js), your play (player.js), the solver bridge and its pool, solving,
// the playback of a solution, the token editor, Compare, Explore, Watch the search and your heuristic.

import { DEFAULTS, MethodPicker } from './algorithms.js';
import { SlidingBoardView } from './board.js';
import { Solver } from './bridge.js';
import { Comparison } from './compare.js';
import { Exercises } from './exercise.js';
import { Explorer } from './explore.js';
import { LargeTables } from './large_tables.js';
import { FamousPicker } from './famous.js';
import { SLIDING as SLIDING_KIND, TOKENS as TOKENS_KIND, kindOf, openingOf, positionOf } from './kinds.js';
import { DistanceMeter } from './meter.js';
import { Notice } from './notice.js';
import { MoveHistory } from './play.js';
import { Player } from './player.js';
import { Playback } from './playback.js';
import { offerAtOnce } from './quick.js';
import { Solving } from './solving.js';
import { Watch } from './watch.js';
import { YourHeuristic } from './your_heuristic.js';
import { errorText, t } from './i18n.js';
import { StatsPanel } from './stats.js';
import { TableLoader } from './tables.js';
import { SolverPool } from './pool.js';
import { PoolView } from './pool_view.js';
import { registerServiceWorker } from './offline.js';
import { SolverStatus } from './solver_status.js';
import { TokenEditor } from './token_editor.js';
import { TokenBoardView } from './tokens_board.js';
import { PageLink } from './share.js';
import { defaultGoal, sameCells } from './sliding.js';
import { SizeControls } from './sizes.js';
import { TypedBoard } from './typed_board.js';

const $ = id => document.getElementById(id);
const ui = {
  size: $('size'), scramble: $('scramble'), shuffle: $('shuffle'), reset: $('reset'),
  moveCount: $('move-count'), playMessage: $('play-message'),
  solve: $('solve'), hint: $('hint'), quick: $('quick-solve'), method: $('method'), message: $('solver-message'),
  link: $('share-link'), copy: $('copy-link'), copied: $('copy-message'),
  editForm: $('edit-form'), boardText: $('board-text'), goalText: $('goal-text'), editError: $('edit-error'),
  puzzleType: $('puzzle-type'), tokenBoard: $('token-board'), playHelp: $('play-help'), tokenEditor: $('token-editor'),
  undo: $('undo'), redo: $('redo'), famous: $('famous'), famousNote: $('famous-note'), best: $('best-score'),
};

const state = {
  puzzle: 'sliding',                 // sliding, or a token puzzle: knights, guarini (presets) or tokens (custom)
  ...openingOf('sliding'),           // board: {rows, cols, cells, rule?}, what the board shows; goal: its cells
  start: null,                       // the board the puzzle was set to
  algorithm: DEFAULTS.algorithms,
  heuristic: DEFAULTS.heuristics,
  moves: 0,        // moves the player made since the position was set (less those undone)
  history: new MoveHistory(),  // the player's moves, for undo and redo
  hintLevel: 0,    // the hint given for this position: 0 none, 1 the distance, 2 the tile, 3 the move
  hint: null,      // a move to highlight
};

const notice = new Notice({ box: $('notice'), text: $('notice-text'), close: $('notice-close') });
const view = new SlidingBoardView($('board'), { onTile: tile => player.move(tile), onSwipe: d => player.swipe(d) });
const solverStatus = new SolverStatus({ status: $('solver-status'), text: $('solver-status-text'),
  time: $('solver-status-time') });
const solver = new Solver({ onStatus: showSolverStatus, heuristicCode: () => yours.runnableCode() });
const tokenView = new TokenBoardView(ui.tokenBoard, { onMove: move => player.move(move) });
const goalView = new TokenBoardView($('token-goal-board'), { interactive: false });
const editor = new TokenEditor($('token-editor-body'), {
  check: request => solver.check(request),
  onPlay: ({ board, goal }) => setPuzzle(board, goal.cells, { puzzle: 'tokens' }),
});

// The two kinds of board (kinds.js), each with its view here and what Reset shows.
const SLIDING = { ...SLIDING_KIND, view, resetBoard: () => ({ ...state.board, cells: state.goal.slice() }) };
const TOKENS = { ...TOKENS_KIND, view: tokenView, resetBoard: () => state.start };
const kind = () => (kindOf(state.puzzle) === SLIDING_KIND ? SLIDING : TOKENS);
const tables = new TableLoader(solver);
const largeTables = new LargeTables({
  line: $('large-tables'), text: $('large-tables-text'), button: $('large-tables-button'),
}, { tables, request: () => solveRequest(), onChange: () => { pool.tablesMB = largeTables.memoryMB; } });
const picker = new MethodPicker({
  algorithm: $('algorithm'), heuristic: $('heuristic'), heuristicField: $('heuristic-field'), note: ui.method,
  onChange: chooseMethod,
});
const statsPanel = new StatsPanel($('stats-panel'), { label: name => picker.heuristicLabel(name) });
const playback = new Playback({
  result: $('result'), length: $('result-length'), list: $('move-list'), first: $('play-first'), back: $('play-back'),
  play: $('play-toggle'), forward: $('play-forward'), last: $('play-last'), speed: $('play-speed'),
  speedOut: $('play-speed-value'), step: $('play-step'),
}, {
  rules: kind,
  onStep: (board, said) => {
    if (said) player.announce(state.board, [said.back && kind() === TOKENS ? said.move.toReversed() : said.move]);
    state.board = board;
    state.hint = null;
    render();
  },
});
const pool = new SolverPool(solver, tables, { onChange: () => poolView.show() });
const poolView = new PoolView(pool, { select: $('pool-size'), status: $('pool-status') });  // the Workers selector
const solving = new Solving({
  progress: $('progress'), bound: $('progress-bound'), nodes: $('progress-nodes'), rate: $('progress-rate'),
  elapsed: $('progress-elapsed'), note: $('progress-note'), cancel: $('cancel'), workers: $('progress-workers'),
  ahead: $('progress-ahead'), kept: $('kept-search'),
}, {
  solver: pool, tables, stats: statsPanel, board: () => state.board, goal: () => state.goal, rules: kind,
  request: () => solveRequest(), say, notice: text => notice.show(text), onBusy: updateControls, onAnswer: showResult,
  onHint: showHint, open: (board, goal, rule) => openPosition(SLIDING.family, board, goal, { rule, show: true }),
});
const comparison = new Comparison($('compare'), { solver, tables, request: () => solveRequest(),
  onBusy: updateControls });
const explorer = new Explorer($('explore'), {
  solver, onBusy: updateControls, request: () => solveRequest(),
  // a farthest position becomes the start; goal and rule stay
  onPick: ({ puzzle, board, goal, rule }) => openPosition(puzzle, board, goal, { rule, show: true }),
});

const meter = new DistanceMeter($('meter'), {
  solver, tables, solving, request: board => ({ ...requestFor(board), algorithm: 'idastar', heuristic: 'auto' }),
  atGoal: board => sameCells(board.cells, state.goal),
});

const watch = new Watch($('watch'), {
  solver, tables, request: () => solveRequest(), board: () => state.board, onBusy: updateControls, onChange: writeLink,
  onShow: showTraceBoard, onMethod: chooseMethod, onLesson: openLesson,
});

const exercises = new Exercises($('exercise'), {
  solver, onBoard: ({ puzzle, board, goal }) => openPosition(puzzle, board, goal, { reason: t('reason.exercise'),
    show: true }),
});

const yours = new YourHeuristic($('yours'), {
  solver, request: () => solveRequest(), onBusy: updateControls, onChange: writeLink,
  onBoard: text => setPuzzle(kind().parse(text, state.puzzle, state.board.rule), state.goal),
  onUse: () => {  // an algorithm without a heuristic gives way to A*
    chooseMethod(picker.usesHeuristicFor(state.algorithm) ? state.algorithm : 'astar', 'yours');
    solving.run('solve');
  },
  onCompare: () => comparison.assignment(),
});

const sizes = new SizeControls({ size: ui.size, scramble: ui.scramble, shuffle: ui.shuffle }, {
  current: () => state, onBoard: (board, goal, note) => {
    setPuzzle(board, goal);
    ui.playMessage.textContent = note;
  },
});
const typed = new TypedBoard({ form: ui.editForm, board: ui.boardText, goal: ui.goalText, error: ui.editError }, {
  onTyped: async ({ board, goal }) => {
    setPuzzle(board, goal);
    const answer = solver.status === 'ready' ? await solver.check(solveRequest()) : null;
    if (answer?.ok && !answer.solvable && state.board === board) say(errorText(answer.why), 'explain');
  },
});
const famous = new FamousPicker({ select: ui.famous, note: ui.famousNote }, {
  onOpen: entry => {
    if (entry.puzzle !== state.puzzle) choosePuzzle(entry.puzzle);
    openPosition(entry.puzzle, entry.board, entry.goal, { reason: t('reason.famous') });
    meter.note(state.board, entry.length);
  },
});
const pageLink = new PageLink({ field: ui.link, copy: ui.copy, copied: ui.copied }, {
  current: () => linkState(), open: hash => openLinkSafely(hash),
});
const player = new Player({ message: ui.playMessage, best: ui.best, hint: ui.hint, announcer: $('move-announcer') }, {
  state, kind, meter, solving, watch, playback, render, writeLink: () => writeLink(), updateControls, showResult, say,
});

// ---- position ------------------------------------------------------------------------------------------------

const goalBoard = () => ({ ...state.board, cells: state.goal });
const atGoal = () => sameCells(state.board.cells, state.goal);

/** Start a new puzzle: a position (and goal) of the `puzzle` type; stops any search, forgets the solution shown. */
function setPuzzle(board, goal = defaultGoal(board.rows, board.cols),
  { stopReason = t('reason.position'), puzzle = state.puzzle } = {}) {
  solving.stop(stopReason);
  watch.clear(stopReason);
  showResult(null);
  if (!sameCells(goal, state.goal) || board.rule !== state.board.rule) {
    solving.forget();
    meter.forget();
  }
  if (puzzle !== state.puzzle) showPuzzleType(puzzle);
  state.start = board;
  const previous = state.board;
  state.board = board;
  state.goal = goal;
  player.begin();
  say('');
  famous.clear();
  if (kind() === TOKENS) {
    editor.load(board, goalBoard());
  } else {
    typed.show(board, goal);
    sizes.show(board, previous);
  }
  for (const part of [largeTables, solving.kept]) part.show(kind() === SLIDING ? board : null);
  writeLink();
  render();
  updateControls();
  meter.update(board);
}

/** Show the controls, board and editor of a puzzle type (sliding, or a token puzzle). */
function showPuzzleType(puzzle) {
  state.puzzle = puzzle;
  ui.puzzleType.value = puzzle;
  // what only one kind of puzzle has (index.html marks it: data-for="sliding" or "tokens")
  for (const element of document.querySelectorAll('[data-for]')) element.hidden = element.dataset.for !== kind().family;
  ui.playHelp.textContent = t(kind().help);
  for (const part of [picker, comparison, explorer, yours]) part.setPuzzle(kind().family);
}

/** The puzzle-type choice: the default sliding puzzle, a preset, or a custom token puzzle (the current one). */
function choosePuzzle(puzzle) {
  state.heuristic = DEFAULTS.heuristics;  // the sliding heuristics do not apply to token puzzles
  if (!picker.offers('algorithms', state.algorithm, kindOf(puzzle).family)) state.algorithm = DEFAULTS.algorithms;
  if (puzzle === 'tokens' && kind() === TOKENS) {
    setPuzzle(state.start, state.goal, { puzzle });
  } else {
    const { board, goal } = openingOf(puzzle);
    setPuzzle(board, goal, { puzzle });
  }
  ui.tokenEditor.open ||= puzzle === 'tokens';
  if (solver.status === 'ready') checkMethod();
}

function render() {
  const solved = atGoal() && (state.moves > 0 || playback.active);
  kind().view.render(state.board, { goal: state.goal, hint: state.hint, solved });
  if (kind() === TOKENS) goalView.render(goalBoard());
  ui.moveCount.textContent = state.moves;
}

// ---- share links -----------------------------------------------------------------------------------------------

function linkState() {
  const { puzzle, algorithm, heuristic } = state;
  const board = watch.board ?? state.board;  // a trace's link holds its start, whichever node the board shows
  const trace = watch.unit;  // a link's step still to trace too
  const weight = algorithm === 'weighted' && trace !== null ? watch.weight : null;  // the weight of the trace shown
  return { puzzle, board, goal: goalBoard(), algorithm, heuristic, weight, trace, code: yours.code };
}

function writeLink() {
  pageLink.write();
  picker.set(state.algorithm, state.heuristic);
  watch.setMethod(state.algorithm, state.heuristic);
}

/** Open a link; a link that passes the checks and still fails (a bug) shows why and the default puzzle, so the page
 * is never left without a board. */
function openLinkSafely(hash, { reload = false } = {}) {
  hash = exercises.take(hash);  // an exercise's link opens in its panel: the board shows the default puzzle
  try {
    openLink(hash);
    if (reload) player.restore();
  } catch (error) {
    notice.show(t('link.broken', { problem: error?.message ?? error }));
    openLink('');
  }
}

/** Open the puzzle in the URL fragment; a malformed link gets a message and the default puzzle. */
function openLink(hash) {
  const { link, problem } = PageLink.read(hash);
  if (problem) notice.show(t('link.broken', { problem }));
  if (link) notice.hide();
  const puzzle = link?.puzzle ?? 'sliding';
  state.algorithm = link?.algorithm ?? DEFAULTS.algorithms;
  state.heuristic = link?.heuristic ?? DEFAULTS.heuristics;
  if (link?.weight) watch.weight = link.weight;
  if (link?.code) yours.fromLink(link.code);
  watch.pending = link?.trace ?? null;
  const board = link?.board ?? openingOf('sliding').board;
  const goal = link?.goal?.cells ?? kindOf(puzzle).defaultGoal(board, puzzle);
  setPuzzle(board, goal, { stopReason: t('reason.link'), puzzle });
  if (solver.status === 'ready') checkMethod();
}

// ---- the solver: requests, answers, hints and controls ---------------------------------------------------------

function solveRequest() {
  return requestFor(state.board);
}

/** The solve request for a board of the puzzle and goal shown, with the method and the table set chosen. */
function requestFor(board) {
  const request = kind().request(board, state.goal, state.puzzle);
  return largeTables.choose({ ...request, algorithm: state.algorithm, heuristic: state.heuristic });
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
  for (const part of [comparison, explorer, watch, yours, largeTables, solving.kept]) part.setEnabled(ready && !busy && !labBusy);
  ui.solve.title = ui.hint.title = ready ? '' : t('solver.loading');
  ui.quick.hidden = busy ? !solving.offersQuick : kind() !== SLIDING || !offerAtOnce(state.board);
  ui.quick.disabled = !ready || labBusy;
  ui.undo.disabled = !state.history.canUndo;
  ui.redo.disabled = !state.history.canRedo;
  if (ready && !busy && !labBusy) meter.resume();
}

function showSolverStatus(status, detail) {
  solverStatus.show(status, detail);
  if (status === 'ready') {
    checkMethod();
    editor.validate();
  }
  updateControls();
  poolView.show();
}

/** Once the solver is up: fill the selectors, and drop names from a link that the puzzle does not offer. */
async function checkMethod() {
  const catalogue = await solver.describe();
  if (!catalogue.algorithms) return;
  for (const part of [picker, comparison, watch, yours, largeTables, exercises]) part.setCatalogue(catalogue);
  const { algorithm, heuristic, dropped } = picker.offered(state.algorithm, state.heuristic);
  Object.assign(state, { algorithm, heuristic });
  if (dropped.length) {
    notice.show(t('link.dropped', { names: dropped.join(t('list.and')) }));
    writeLink();
  }
  if (await watch.startPending()) $('watch').scrollIntoView({ block: 'start' });  // a link to a trace: at its step
}

/** Show a node of the trace on the main board (the trace keeps its own start). */
function showTraceBoard(text) {
  state.board = kind().parse(text, state.puzzle, state.board.rule);
  state.hint = null;
  render();
}

/** A lesson of Watch the search: its position on the board, its last method chosen. */
function openLesson(lesson) {
  openPosition(lesson.puzzle, lesson.board, null, { reason: t('reason.lesson') });
  if (lesson.example) yours.useExample(lesson.example);
  const { algorithm, heuristic } = lesson.methods.at(-1);
  chooseMethod(algorithm, heuristic);
}

/** A position given as text (Explore's farthest, a lesson's, an exercise's) on the board; `show`: in view too. */
function openPosition(puzzle, boardText, goalText, { reason, rule, show = false } = {}) {
  const { board, goal } = positionOf(puzzle, boardText, goalText, rule);
  setPuzzle(board, goal, { stopReason: reason, puzzle });
  if (show) kind().view.element.scrollIntoView({ block: 'nearest' });
}

/** The user chose another algorithm or heuristic: the next search uses it, and the link says so. */
function chooseMethod(algorithm, heuristic) {
  state.algorithm = algorithm;
  state.heuristic = heuristic;
  writeLink();
}

// ---- start -----------------------------------------------------------------------------------------------------

function wire() {
  ui.reset.addEventListener('click', () => setPuzzle(kind().resetBoard(), state.goal));
  ui.puzzleType.addEventListener('change', () => choosePuzzle(ui.puzzleType.value));
  ui.solve.addEventListener('click', () => solving.run('solve'));
  ui.hint.addEventListener('click', () => player.hint());
  ui.undo.addEventListener('click', () => player.undoRedo(false));
  ui.redo.addEventListener('click', () => player.undoRedo(true));
  ui.quick.addEventListener('click', () => solving.quick());
  document.addEventListener('keydown', event => player.onKey(event));
}

wire();
openLinkSafely(location.hash, { reload: true });
registerServiceWorker({ prompt: $('update'), button: $('update-reload') }).then(() => solver.start());
