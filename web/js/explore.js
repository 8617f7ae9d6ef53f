// Explore: every position of a puzzle, found by a breadth-first search in the worker: how many lie at each distance
// (a histogram), the totals, and the farthest positions, which load onto the board. Sliding boards are explored from
// their goal; token puzzles from their start, where the answer also says how far the goal is.
//
//   const explorer = new Explorer(element, { solver, request: () => solveRequest(), onPick, onBusy });
//   explorer.setPuzzle('tokens');  // the puzzle kind, 'sliding' or 'tokens': the texts follow; the other kind's
//                                  // result is hidden and its running exploration stopped
//   explorer.setEnabled(free);     // whether the solver is free to start
//   explorer.running;
//
// request() gives the page's Solve request ({puzzle, board, goal?, rule?, algorithm, heuristic}); onPick({puzzle,
// board, goal, rule?}) is called when a farthest position is chosen (board and goal in the puzzle's text format).

import { BarChart } from './chart.js';
import { formatCount, formatElapsed, formatSeconds } from './format.js';
import { parseBoard } from './sliding.js';
import { PRESETS, parseTokenBoard } from './tokens.js';
import { TokenBoardView } from './tokens_board.js';
import { errorText, t } from './i18n.js';

export const MAX_CELLS = 10;  // 10!/2 = 1,814,400 positions; the engine refuses more than 2,000,000
const EXPLORED_URL = 'data/explored.json';  // 12-cell boards with their default goal, explored at build time (numpy)

// Each kind's texts are the catalogue's explore.<kind>.*: a sliding board is explored from its goal (positions), a
// token puzzle from its start (arrangements).
const say = (kind, key, params) => t(`explore.${kind}.${key}`, params);

export class Explorer {
  #running = false;
  #enabled = false;
  #answer = null;
  #precomputed;   // data/explored.json (a promise until it has come)
  #puzzle = 'sliding';  // the kind the texts are for
  #explored = null;     // {puzzle, kind, rule} of the answer shown
  #stopped = false;     // the kind changed while exploring

  constructor(element, { solver, request, onPick, onBusy = () => {} }) {
    Object.assign(this, { element, solver, request, onPick, onBusy });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">${say('sliding', 'intro', { cells: MAX_CELLS })}</p>
      <div class="actions">
        <button type="button" class="primary start" disabled>${t('explore.start')}</button>
        <button type="button" class="danger cancel" hidden>${t('solver.cancel')}</button>
      </div>
      <p class="message" aria-live="polite"></p>
      <div class="explore-result" hidden>
        <p class="explore-caption"></p>
        <dl class="stats explore-totals"></dl>
        <p class="explore-goal" hidden></p>
        <div class="chart-head">
          <h3 class="chart-title"></h3>
          <label class="check"><input type="checkbox" class="log-scale"> ${t('explore.log')}</label>
        </div>
        <div class="explore-chart"></div>
        <h3 class="farthest-title"></h3>
        <p class="muted farthest-note"></p>
        <ul class="farthest"></ul>
      </div>`);
    const find = selector => element.querySelector(selector);
    this.intro = find('.intro');
    this.startButton = find('.start');
    this.cancelButton = find('.cancel');
    this.message = find('.message');
    this.result = find('.explore-result');
    this.caption = find('.explore-caption');
    this.totals = find('.explore-totals');
    this.goalNote = find('.explore-goal');
    this.chartTitle = find('.chart-title');
    this.farthestTitle = find('.farthest-title');
    this.farthest = find('.farthest');
    this.farthestNote = find('.farthest-note');
    this.logScale = find('.log-scale');
    this.chart = new BarChart(find('.explore-chart'), { layout: 'columns' });
    this.startButton.addEventListener('click', () => this.run());
    this.cancelButton.addEventListener('click', () => this.solver.cancel());
    this.logScale.addEventListener('change', () => this.#drawChart());
    this.farthest.addEventListener('click', event => {
      const button = event.target.closest('button[data-board]');
      if (!button) return;
      const { puzzle, rule } = this.#explored;
      this.onPick({ puzzle, board: button.dataset.board, goal: this.#answer.goal, rule });
    });
  }

  get running() {
    return this.#running;
  }

  setEnabled(free) {
    this.#enabled = free;
    this.#controls();
  }

  /** The puzzle kind on the board, 'sliding' or 'tokens'. */
  setPuzzle(kind) {
    if (kind === this.#puzzle) return;
    this.#puzzle = kind;
    this.intro.textContent = say(kind, 'intro', { cells: MAX_CELLS });
    this.result.hidden = this.#explored?.kind !== kind;
    this.message.textContent = '';
    if (this.#running) {
      this.#stopped = true;
      this.solver.cancel();
    }
  }

  async run() {
    const { algorithm, heuristic, ...solving } = this.request();  // the puzzle without the search method
    const kind = solving.puzzle === 'sliding' ? 'sliding' : 'tokens';
    let request = solving;
    if (kind === 'sliding') {
      const { rows, cols } = parseBoard(solving.board);
      if (rows * cols > MAX_CELLS) {
        const known = solving.goal ? null : (await this.#explored12())?.[`${rows}x${cols}`];
        if (known) {
          const command = this.#precomputed.command.replace('SHAPE', `${rows}x${cols}`);
          this.message.textContent = t('explore.ahead', { command });
          this.#show(known, { puzzle: 'sliding', kind });
          return;
        }
        const positions = factorial(rows * cols) / 2n;
        this.message.textContent = t('explore.too-many', { rows, cols, count: formatCount(positions), cells: MAX_CELLS });
        return;
      }
      request = { shape: `${rows}x${cols}` };
      if (solving.goal) request.goal = solving.goal;
    }
    const explored = { puzzle: solving.puzzle, kind, rule: solving.rule ?? PRESETS[solving.puzzle]?.rule };
    this.#running = true;
    this.#stopped = false;
    this.message.textContent = t('explore.running');
    this.#controls();
    this.onBusy();
    const answer = await this.solver.explore(request, event => {
      if (event.type === 'progress' && !this.#stopped) {
        this.message.textContent = say(kind, 'progress', { count: event.expanded, depth: event.depth,
          time: formatElapsed(event.elapsed_s) });
      }
    });
    this.#running = false;
    if (this.#stopped) {
      this.message.textContent = t('explore.stopped');
    } else if (answer.ok) {
      this.message.textContent = '';
      this.#show(answer, explored);
    } else {
      this.message.textContent = answer.error.code === 'cancelled'
        ? t('explore.cancelled') : t('explore.failed', { problem: errorText(answer.error) });
    }
    this.#controls();
    this.onBusy();
  }

  /** The 12-cell boards explored at build time, by shape (null when the site has none); fetched once. */
  async #explored12() {
    this.#precomputed ??= fetch(new URL(EXPLORED_URL, document.baseURI)).then(r => (r.ok ? r.json() : null))
      .catch(() => null);
    this.#precomputed = await this.#precomputed;
    return this.#precomputed?.boards ?? null;
  }

  #controls() {
    this.startButton.disabled = !this.#enabled || this.#running;
    this.cancelButton.hidden = !this.#running;
  }

  #show(answer, explored) {
    this.#answer = answer;
    this.#explored = explored;
    const { kind } = explored;
    const goal = this.#parse(answer.goal);
    this.result.hidden = false;
    this.caption.textContent = kind === 'sliding'
      ? t('explore.caption-sliding', { rows: goal.rows, cols: goal.cols, goal: answer.goal })
      : t('explore.caption-tokens', { puzzle: t(PRESETS[explored.puzzle] ? `preset.${explored.puzzle}.title` : 'puzzle.tokens'),
        rule: t(`rule.${explored.rule}`), start: answer.board, goal: answer.goal });
    const totals = [
      [say(kind, 'positions'), formatCount(answer.states)],
      [t('explore.max-distance'), t('result.moves-count', { count: answer.max_depth })],
      [t('explore.farthest'), formatCount(answer.farthest_count)], [t('stat.time'), formatSeconds(answer.stats.elapsed_s)],
    ];
    this.totals.replaceChildren(...totals.map(([name, value]) => {
      const div = document.createElement('div');
      div.append(element('dt', name), element('dd', value));
      return div;
    }));
    this.goalNote.hidden = kind === 'sliding';
    this.goalNote.textContent = goalText(answer.board_depth);
    this.chartTitle.textContent = say(kind, 'chart');
    this.#drawChart();
    this.farthestTitle.textContent = say(kind, 'farthest');
    this.farthest.replaceChildren(...answer.farthest.map(board => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.board = board;
      button.title = say(kind, 'load');
      const preview = kind === 'sliding' ? miniBoard(this.#parse(board)) : this.#tokenPreview(board);
      preview.setAttribute('aria-hidden', 'true');
      const name = document.createElement('span');  // the name screen readers read: the board as text
      name.className = 'visually-hidden';
      name.textContent = t('explore.load-board', { board });
      button.append(name, preview);
      const item = document.createElement('li');
      item.append(button);
      return item;
    }));
    const shown = answer.farthest.length;
    const which = shown < answer.farthest_count ? 'first' : shown === 1 ? 'one' : 'all';
    this.farthestNote.textContent = say(kind, `farthest-${which}`, { shown, count: answer.farthest_count,
      depth: answer.max_depth });
  }

  #parse(text) {
    return this.#explored.kind === 'sliding' ? parseBoard(text) : parseTokenBoard(text, this.#explored.rule);
  }

  #tokenPreview(text) {
    const preview = document.createElement('div');
    new TokenBoardView(preview, { interactive: false }).render(this.#parse(text));
    return preview;
  }

  #drawChart() {
    const answer = this.#answer;
    if (!answer) return;
    const { kind } = this.#explored;
    const most = Math.max(...answer.depths);
    this.chart.log = this.logScale.checked;
    this.chart.label = say(kind, this.chart.log ? 'chart-label-log' : 'chart-label', { depth: answer.max_depth, most,
      at: answer.depths.indexOf(most) });
    this.chart.draw(answer.depths.map((n, depth) => ({
      label: String(depth), value: n,
      title: say(kind, depth === answer.board_depth ? 'bar-goal' : 'bar', {
        moves: t('result.moves-count', { count: depth }), count: n }),
      tone: depth === answer.max_depth ? 'highlight' : '',
    })));
  }
}

function miniBoard({ cols, cells }) {
  const grid = element('span', '');
  grid.className = 'mini-board';
  grid.style.setProperty('--cols', cols);
  for (const cell of cells) grid.append(element('span', cell === 0 ? '' : String(cell)));
  return grid;
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** Where the goal lies among the arrangements explored from the start: its distance, none when it is unreachable
 * (the engine's None arrives as undefined). */
function goalText(depth) {
  if (depth == null) return t('explore.goal-unreachable');
  if (depth === 0) return t('explore.goal-start');
  return t('explore.goal-at', { count: depth });
}

function factorial(n) {
  let f = 1n;
  for (let i = 2n; i <= BigInt(n); i++) f *= i;
  return f;
}
