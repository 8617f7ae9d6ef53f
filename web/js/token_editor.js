// The token-puzzle editor: board size, move rule, removed cells and the pieces of the start and the goal, edited on
// two small grids. A click on a square either cycles it (empty -> B -> W -> R -> G -> removed -> empty) or sets the
// kind picked in the palette; a removed square is removed from both grids. Every change is checked at once in JS
// (the same pieces on both sides) and then by the engine's `check`, whose message is shown; "Play this puzzle"
// hands {board, goal} (boards carrying the rule) to the app.

import { EMPTY, REMOVED, RULES, formatTokenBoard, isPiece, legalMoves, pairProblem, squareName } from './tokens.js';
import { errorText, t } from './i18n.js';

const MAX_EDIT_SIDE = 6;
const CYCLE = [EMPTY, 'B', 'W', 'R', 'G', REMOVED];
const PALETTE = [  // what a click puts on a square, with its name's catalogue key
  ['cycle', 'editor.cycle'], [EMPTY, 'editor.empty'], ['B', 'piece.B'], ['W', 'piece.W'], ['R', 'piece.R'],
  ['G', 'piece.G'], [REMOVED, 'editor.remove'],
];
const GLYPHS = { knight: '♞\uFE0E', king: '♚\uFE0E', orthogonal: '♜\uFE0E' };
const CHECK_DELAY_MS = 150;

export class TokenEditor {
  /**
   * @param {HTMLElement} element  where the editor builds its controls
   * @param {{check: (request: object) => Promise<object>, onPlay: (puzzle: {board, goal}) => void}} handlers
   *   check answers like api.check (or {ok: false, error: {code: 'not_ready'}} while the solver loads)
   */
  constructor(element, { check, onPlay }) {
    this.element = element;
    this.check = check;
    this.onPlay = onPlay;
    this.rows = 3;
    this.cols = 3;
    this.rule = 'knight';
    this.sides = { start: [], goal: [] };  // cells, row-major
    this.checked = 0;                      // number of the latest check, so a late answer is ignored
    this.#build();
  }

  /** Edit this puzzle (boards {rows, cols, cells, rule}). */
  load(board, goal) {
    this.rows = board.rows;
    this.cols = board.cols;
    this.rule = board.rule;
    this.sides = { start: board.cells.slice(), goal: goal.cells.slice() };
    this.#sync();
  }

  /** Check the puzzle again (e.g. once the solver has loaded). */
  validate() {
    const problem = this.#problem();
    this.ui.play.disabled = !!problem;
    this.#say(problem ? `${problem}.` : t('editor.checking'), problem ? 'error' : '');
    const number = ++this.checked;
    if (problem) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      const answer = await this.check({ puzzle: 'tokens', ...this.#texts(), rule: this.rule });
      if (number !== this.checked) return;
      if (!answer.ok && answer.error.code === 'not_ready') {
        this.#say(t('editor.looks-right'));
      } else if (!answer.ok) {
        this.ui.play.disabled = true;
        this.#say(`${capital(errorText(answer.error))}.`, 'error');
      } else if (!answer.solvable) {
        this.#say(errorText(answer.why), 'error');
      } else {
        const moves = legalMoves(this.#boards().start).length;
        this.#say(t('editor.ready', { count: moves }), 'ok');
      }
    }, CHECK_DELAY_MS);
  }

  #problem() {
    const { start, goal } = this.#boards();
    if (!start.cells.some(isPiece)) return t('editor.no-piece');
    return capital(pairProblem(start, goal));
  }

  #boards() {
    const board = cells => ({ rows: this.rows, cols: this.cols, cells: cells.slice(), rule: this.rule });
    return { start: board(this.sides.start), goal: board(this.sides.goal) };
  }

  #texts() {
    const { start, goal } = this.#boards();
    return { board: formatTokenBoard(start), goal: formatTokenBoard(goal) };
  }

  #say(text, tone = '') {
    this.ui.message.textContent = text;
    this.ui.message.className = `editor-message ${tone}`.trim();
  }

  #resize(rows, cols) {
    for (const side of ['start', 'goal']) {
      const old = this.sides[side];
      this.sides[side] = Array.from({ length: rows * cols }, (_, cell) => {
        const r = Math.floor(cell / cols), c = cell % cols;
        return r < this.rows && c < this.cols ? old[r * this.cols + c] : EMPTY;
      });
    }
    this.rows = rows;
    this.cols = cols;
    this.#sync();
  }

  #edit(side, cell) {
    const pick = this.element.querySelector('input[name="token-pick"]:checked').value;
    const current = this.sides[side][cell];
    const next = pick === 'cycle' ? CYCLE[(CYCLE.indexOf(current) + 1) % CYCLE.length] : pick;
    this.sides[side][cell] = next;
    const other = side === 'start' ? 'goal' : 'start';
    if (next === REMOVED) this.sides[other][cell] = REMOVED;
    else if (this.sides[other][cell] === REMOVED) this.sides[other][cell] = EMPTY;
    this.#sync();
    this.ui.grids[side].querySelector(`[data-cell="${cell}"]`).focus();
  }

  #sync() {
    for (const [select, value] of [[this.ui.rows, this.rows], [this.ui.cols, this.cols]]) {
      fillSides(select, Math.max(MAX_EDIT_SIDE, value));
      select.value = value;
    }
    this.ui.rule.value = this.rule;
    for (const side of ['start', 'goal']) {
      const grid = this.ui.grids[side];
      grid.style.setProperty('--rows', this.rows);
      grid.style.setProperty('--cols', this.cols);
      grid.replaceChildren(...this.sides[side].map((ch, cell) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.cell = cell;
        button.dataset.kind = ch;
        const r = Math.floor(cell / this.cols), c = cell % this.cols;
        button.className = `edit-cell ${(this.rows - 1 - r + c) % 2 ? 'light' : 'dark'}`;
        if (isPiece(ch)) button.textContent = ['B', 'W', 'R', 'G'].includes(ch) ? GLYPHS[this.rule] : ch;
        const what = ch === EMPTY ? t('editor.is-empty') : ch === REMOVED ? t('editor.is-removed')
          : t('piece.letter-within', { kind: ch });
        button.setAttribute('aria-label', t(`editor.${side}-square`, { square: squareName(this, cell), what }));
        return button;
      }));
    }
    const { board, goal } = this.#texts();
    this.ui.text.textContent = `${board}  →  ${goal}`;
    this.validate();
  }

  #build() {
    const html = `
      <div class="editor-fields">
        <label class="field">${t('editor.rows')} <select data-role="rows"></select></label>
        <label class="field">${t('editor.cols')} <select data-role="cols"></select></label>
        <label class="field">${t('editor.moves')} <select data-role="rule">${Object.keys(RULES).map(rule => `<option value="${rule}">${t(`rule.${rule}`)}</option>`).join('')}</select></label>
      </div>
      <fieldset class="palette">
        <legend>${t('editor.click')}</legend>
        ${PALETTE.map(([value, label], i) => `<label><input type="radio" name="token-pick" value="${value}"${i ? '' : ' checked'}>
          <span data-kind="${value}">${t(label)}</span></label>`).join('')}
      </fieldset>
      <div class="editor-grids">
        <figure><figcaption>${t('editor.start')}</figcaption><div class="edit-grid" data-side="start" role="group"
          aria-label="${t('editor.start-squares')}"></div></figure>
        <figure><figcaption>${t('tokens.goal')}</figcaption><div class="edit-grid" data-side="goal" role="group"
          aria-label="${t('editor.goal-squares')}"></div></figure>
      </div>
      <p class="muted editor-text" data-role="text"></p>
      <p class="editor-message" data-role="message" aria-live="polite"></p>
      <button type="button" class="primary" data-role="play">${t('editor.play')}</button>`;
    this.element.innerHTML = html;
    const role = name => this.element.querySelector(`[data-role="${name}"]`);
    this.ui = {
      rows: role('rows'), cols: role('cols'), rule: role('rule'), text: role('text'), message: role('message'),
      play: role('play'),
      grids: { start: this.element.querySelector('[data-side="start"]'), goal: this.element.querySelector('[data-side="goal"]') },
    };
    this.ui.rows.addEventListener('change', () => this.#resize(Number(this.ui.rows.value), this.cols));
    this.ui.cols.addEventListener('change', () => this.#resize(this.rows, Number(this.ui.cols.value)));
    this.ui.rule.addEventListener('change', () => {
      this.rule = this.ui.rule.value;
      this.#sync();
    });
    for (const [side, grid] of Object.entries(this.ui.grids)) {
      grid.addEventListener('click', event => {
        const button = event.target.closest('button[data-cell]');
        if (button) this.#edit(side, Number(button.dataset.cell));
      });
    }
    this.ui.play.addEventListener('click', () => {
      const { start, goal } = this.#boards();
      if (!this.#problem()) this.onPlay({ board: start, goal });
    });
  }
}

function fillSides(select, max) {
  if (select.options.length === max) return;
  select.replaceChildren(...Array.from({ length: max }, (_, i) => new Option(String(i + 1), String(i + 1))));
}

const capital = text => text && text[0].toUpperCase() + text.slice(1);
