// Explore: every position of a small sliding board, found by a breadth-first search from the goal in the worker:
// how many lie at each distance (a histogram), the totals, and the farthest positions, which load onto the board.
//
//   const explorer = new Explorer(element, { solver, puzzle: () => ({kind, rows, cols, goal}), onPick, onBusy });
//   explorer.setEnabled(free);   // whether the solver is free to start
//   explorer.running;
//
// puzzle() gives the puzzle type ('sliding' or a token puzzle), the board's shape and its goal text; onPick(boardText,
// goalText) is called when a farthest position is chosen.

import { BarChart } from './chart.js';
import { formatCount, formatSeconds } from './stats.js';

export const MAX_CELLS = 10;  // 10!/2 = 1,814,400 positions; the engine refuses more than 2,000,000

export class Explorer {
  #running = false;
  #enabled = false;
  #answer = null;

  constructor(element, { solver, puzzle, onPick, onBusy = () => {} }) {
    Object.assign(this, { element, solver, puzzle, onPick, onBusy });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">Finds every position of this board that can reach the goal, by a breadth-first search
        from the goal: how many lie at each distance, and which are the farthest. Boards of up to ${MAX_CELLS} cells
        (2x2 to 3x3, 2x5).</p>
      <div class="actions">
        <button type="button" class="primary start" disabled>Explore this board</button>
        <button type="button" class="danger cancel" hidden>Cancel</button>
      </div>
      <p class="message" aria-live="polite"></p>
      <div class="explore-result" hidden>
        <p class="explore-caption"></p>
        <dl class="stats explore-totals"></dl>
        <div class="chart-head">
          <h3>Positions at each distance from the goal</h3>
          <label class="check"><input type="checkbox" class="log-scale"> Log scale</label>
        </div>
        <div class="explore-chart"></div>
        <h3>Farthest positions</h3>
        <p class="muted farthest-note"></p>
        <ul class="farthest"></ul>
      </div>`);
    const find = selector => element.querySelector(selector);
    this.startButton = find('.start');
    this.cancelButton = find('.cancel');
    this.message = find('.message');
    this.result = find('.explore-result');
    this.caption = find('.explore-caption');
    this.totals = find('.explore-totals');
    this.farthest = find('.farthest');
    this.farthestNote = find('.farthest-note');
    this.logScale = find('.log-scale');
    this.chart = new BarChart(find('.explore-chart'), { layout: 'columns' });
    this.startButton.addEventListener('click', () => this.run());
    this.cancelButton.addEventListener('click', () => this.solver.cancel());
    this.logScale.addEventListener('change', () => this.#drawChart());
    this.farthest.addEventListener('click', event => {
      const button = event.target.closest('button[data-board]');
      if (button) this.onPick(button.dataset.board, this.#answer.goal);
    });
  }

  get running() {
    return this.#running;
  }

  setEnabled(free) {
    this.#enabled = free;
    this.#controls();
  }

  async run() {
    const { kind, rows, cols, goal } = this.puzzle();
    if (kind !== 'sliding') {
      this.message.textContent = 'Explore works on sliding boards; choose Sliding tiles to use it.';
      return;
    }
    if (rows * cols > MAX_CELLS) {
      const positions = factorial(rows * cols) / 2n;
      this.message.textContent = `A ${rows}x${cols} board has ${positions.toLocaleString('en-US')} positions that can `
        + `reach the goal: too many to list in a browser. Explore works on boards of up to ${MAX_CELLS} cells.`;
      return;
    }
    const request = { shape: `${rows}x${cols}` };
    if (goal) request.goal = goal;
    this.#running = true;
    this.message.textContent = 'Exploring…';
    this.#controls();
    this.onBusy();
    const answer = await this.solver.explore(request, event => {
      if (event.type === 'progress') {
        this.message.textContent = `Exploring: ${formatCount(event.expanded)} positions so far, `
          + `${event.depth} moves from the goal, ${event.elapsed_s.toFixed(1)} s`;
      }
    });
    this.#running = false;
    if (answer.ok) {
      this.message.textContent = '';
      this.#show(answer, `${rows}x${cols}`);
    } else {
      this.message.textContent = answer.error.code === 'cancelled'
        ? 'Exploring cancelled.' : `Could not explore: ${answer.error.message}.`;
    }
    this.#controls();
    this.onBusy();
  }

  #controls() {
    this.startButton.disabled = !this.#enabled || this.#running;
    this.cancelButton.hidden = !this.#running;
  }

  #show(answer, shape) {
    this.#answer = answer;
    this.result.hidden = false;
    this.caption.textContent = `${shape}, goal ${answer.goal}`;
    const totals = [
      ['Positions', formatCount(answer.states)], ['Max distance', `${answer.max_depth} moves`],
      ['Farthest', formatCount(answer.farthest_count)], ['Time', formatSeconds(answer.stats.elapsed_s)],
    ];
    this.totals.replaceChildren(...totals.map(([name, value]) => {
      const div = document.createElement('div');
      div.append(element('dt', name), element('dd', value));
      return div;
    }));
    this.#drawChart();
    const cols = Number(shape.split('x')[1]);
    this.farthest.replaceChildren(...answer.farthest.map(board => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.board = board;
      button.setAttribute('aria-label', `Load ${board}`);
      button.title = 'Load this position onto the board';
      const grid = element('span', '');
      grid.className = 'mini-board';
      grid.style.setProperty('--cols', cols);
      grid.setAttribute('aria-hidden', 'true');
      for (const cell of board.split(/[ /]/)) grid.append(element('span', cell === '0' ? '' : cell));
      button.append(grid);
      const item = document.createElement('li');
      item.append(button);
      return item;
    }));
    const shown = answer.farthest.length;
    this.farthestNote.textContent = (shown < answer.farthest_count
      ? `The first ${shown} of ${formatCount(answer.farthest_count)}, ` : `${shown === 1 ? 'It is' : `All ${shown} are`} `)
      + `${answer.max_depth} moves from the goal. Choose one to load it onto the board.`;
  }

  #drawChart() {
    const answer = this.#answer;
    if (!answer) return;
    this.chart.log = this.logScale.checked;
    this.chart.label = `Positions at each distance from the goal, 0 to ${answer.max_depth} moves`
      + `${this.chart.log ? ', log scale' : ''}; the most, ${formatCount(Math.max(...answer.depths))}, at distance `
      + `${answer.depths.indexOf(Math.max(...answer.depths))}`;
    this.chart.draw(answer.depths.map((n, depth) => ({
      label: String(depth), value: n, title: `${depth} ${depth === 1 ? 'move' : 'moves'}: ${formatCount(n)} ${n === 1 ? 'position' : 'positions'}`,
      tone: depth === answer.max_depth ? 'highlight' : '',
    })));
  }
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function factorial(n) {
  let f = 1n;
  for (let i = 2n; i <= BigInt(n); i++) f *= i;
  return f;
}
