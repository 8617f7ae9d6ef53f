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
import { formatCount, formatElapsed, formatSeconds, plural } from './format.js';
import { parseBoard } from './sliding.js';
import { PRESETS, parseTokenBoard } from './tokens.js';
import { TokenBoardView } from './tokens_board.js';

export const MAX_CELLS = 10;  // 10!/2 = 1,814,400 positions; the engine refuses more than 2,000,000
const EXPLORED_URL = 'data/explored.json';  // 12-cell boards with their default goal, explored at build time (numpy)

// What each kind's exploration starts from, and what it calls a position.
const WORDING = {
  sliding: {
    intro: 'Finds every position of this board that can reach the goal, by a breadth-first search from the goal: how '
      + `many lie at each distance, and which are the farthest. Boards of up to ${MAX_CELLS} cells (2x2 to 3x3, 2x5); `
      + 'for 3x4, 4x3, 2x6 and 6x2 (239,500,800 positions) the answer was computed ahead and comes with the site.',
    root: 'the goal', positions: 'Positions', position: 'position',
  },
  tokens: {
    intro: 'Finds every arrangement of the pieces that can be reached from the start position, by a breadth-first '
      + 'search from the start: how many lie at each distance, which are the farthest, and how far the goal is. '
      + 'Puzzles of up to 2,000,000 arrangements.',
    root: 'the start position', positions: 'Arrangements', position: 'arrangement',
  },
};

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
      <p class="muted intro">${WORDING.sliding.intro}</p>
      <div class="actions">
        <button type="button" class="primary start" disabled>Explore this board</button>
        <button type="button" class="danger cancel" hidden>Cancel</button>
      </div>
      <p class="message" aria-live="polite"></p>
      <div class="explore-result" hidden>
        <p class="explore-caption"></p>
        <dl class="stats explore-totals"></dl>
        <p class="explore-goal" hidden></p>
        <div class="chart-head">
          <h3 class="chart-title"></h3>
          <label class="check"><input type="checkbox" class="log-scale"> Log scale</label>
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
    this.intro.textContent = WORDING[kind].intro;
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
          this.message.textContent = `Computed ahead with \`${command}\` (the numpy engine) and served with the site.`;
          this.#show(known, { puzzle: 'sliding', kind });
          return;
        }
        const positions = factorial(rows * cols) / 2n;
        this.message.textContent = `A ${rows}x${cols} board has ${formatCount(positions)} positions that `
          + `can reach the goal: too many to list in a browser. Explore works on boards of up to ${MAX_CELLS} cells`
          + ' (and on 3x4, 4x3, 2x6 and 6x2 with their usual goal, from results computed ahead).';
        return;
      }
      request = { shape: `${rows}x${cols}` };
      if (solving.goal) request.goal = solving.goal;
    }
    const explored = { puzzle: solving.puzzle, kind, rule: solving.rule ?? PRESETS[solving.puzzle]?.rule };
    const { root, positions } = WORDING[kind];
    this.#running = true;
    this.#stopped = false;
    this.message.textContent = 'Exploring…';
    this.#controls();
    this.onBusy();
    const answer = await this.solver.explore(request, event => {
      if (event.type === 'progress' && !this.#stopped) {
        this.message.textContent = `Exploring: ${formatCount(event.expanded)} ${positions.toLowerCase()} so far, `
          + `${event.depth} moves from ${root}, ${formatElapsed(event.elapsed_s)}`;
      }
    });
    this.#running = false;
    if (this.#stopped) {
      this.message.textContent = 'Exploring stopped: the puzzle type changed.';
    } else if (answer.ok) {
      this.message.textContent = '';
      this.#show(answer, explored);
    } else {
      this.message.textContent = answer.error.code === 'cancelled'
        ? 'Exploring cancelled.' : `Could not explore: ${answer.error.message}.`;
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
    const words = WORDING[kind];
    const goal = this.#parse(answer.goal);
    this.result.hidden = false;
    this.caption.textContent = kind === 'sliding' ? `${goal.rows}x${goal.cols}, goal ${answer.goal}`
      : `${PRESETS[explored.puzzle]?.title ?? 'Custom token puzzle'} (${explored.rule} moves), `
        + `start ${answer.board}, goal ${answer.goal}`;
    const totals = [
      [words.positions, formatCount(answer.states)], ['Max distance', `${answer.max_depth} moves`],
      ['Farthest', formatCount(answer.farthest_count)], ['Time', formatSeconds(answer.stats.elapsed_s)],
    ];
    this.totals.replaceChildren(...totals.map(([name, value]) => {
      const div = document.createElement('div');
      div.append(element('dt', name), element('dd', value));
      return div;
    }));
    this.goalNote.hidden = kind === 'sliding';
    this.goalNote.textContent = goalText(answer.board_depth);
    this.chartTitle.textContent = `${words.positions} at each distance from ${words.root}`;
    this.#drawChart();
    this.farthestTitle.textContent = `Farthest ${words.position}s`;
    this.farthest.replaceChildren(...answer.farthest.map(board => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.board = board;
      button.title = `Load this ${words.position} onto the board`;
      const preview = kind === 'sliding' ? miniBoard(this.#parse(board)) : this.#tokenPreview(board);
      preview.setAttribute('aria-hidden', 'true');
      const name = document.createElement('span');  // the name screen readers read: the board as text
      name.className = 'visually-hidden';
      name.textContent = `Load ${board}`;
      button.append(name, preview);
      const item = document.createElement('li');
      item.append(button);
      return item;
    }));
    const shown = answer.farthest.length;
    const load = kind === 'sliding' ? 'load it onto the board' : 'load it onto the board as the start (the goal stays)';
    this.farthestNote.textContent = (shown < answer.farthest_count
      ? `The first ${shown} of ${formatCount(answer.farthest_count)}, ` : `${shown === 1 ? 'It is' : `All ${shown} are`} `)
      + `${answer.max_depth} moves from ${words.root}. Choose one to ${load}.`;
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
    const { root, position, positions } = WORDING[this.#explored.kind];
    const count = n => `${formatCount(n)} ${plural(n, position)}`;
    this.chart.log = this.logScale.checked;
    this.chart.label = `${positions} at each distance from ${root}, 0 to `
      + `${answer.max_depth} moves${this.chart.log ? ', log scale' : ''}; the most, `
      + `${formatCount(Math.max(...answer.depths))}, at distance ${answer.depths.indexOf(Math.max(...answer.depths))}`;
    this.chart.draw(answer.depths.map((n, depth) => ({
      label: String(depth), value: n,
      title: `${moves(depth)}: ${count(n)}${depth === answer.board_depth ? ', the goal among them' : ''}`,
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
  if (depth == null) return 'The goal is not among them: it cannot be reached from the start.';
  if (depth === 0) return 'The start is the goal.';
  return `The goal is among them, ${moves(depth)} from the start: its shortest solution is ${moves(depth)}.`;
}

const moves = n => `${n} ${plural(n, 'move')}`;

function factorial(n) {
  let f = 1n;
  for (let i = 2n; i <= BigInt(n); i++) f *= i;
  return f;
}
