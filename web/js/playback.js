// Playback of a solution: its headline ("31 moves (optimal)"), the list of its moves and the controls that step
// through it on the board or play it at a chosen speed.
//
//   const playback = new Playback({ result, length, list, first, back, play, forward, last, speed, speedOut, step },
//     { rules: () => kind, onStep: board => {} });
//   playback.show(answer, start);   // a solve answer ({length, moves, optimal, ...}) from the board `start`, at step 0
//   playback.follow(move);          // the player made `move`: true when it is the next step (then shown as such)
//   playback.hide();                // stop playing and hide the result
//   playback.active;                // whether a solution is shown
//
// rules() gives the board kind's rules ({apply(board, move), moveLabel(board, move), view}); onStep(board, said) is
// told the board of every step shown, for the page to draw, and `said`, the move to announce to screen readers
// ({move, back}: one step forward, or one back undoing `move`), or null (a jump, auto-play, or the player's own
// move, which the page announces itself).

import { lengthText } from './quick.js';
import { t } from './i18n.js';

const MAX_SLIDE_MS = 180;  // a tile slides at most this long while playing, and within most of one step's time

export class Playback {
  #shown = null;  // {start, moves, step, timer} while a solution is shown

  constructor(ui, { rules, onStep }) {
    Object.assign(this, { ui, rules, onStep });
    ui.first.addEventListener('click', () => this.#showStep(0, { stopTimer: true }));
    ui.back.addEventListener('click', () => this.#showStep(this.#shown.step - 1, { stopTimer: true }));
    ui.play.addEventListener('click', () => this.#toggle());
    ui.forward.addEventListener('click', () => this.#showStep(this.#shown.step + 1, { stopTimer: true }));
    ui.last.addEventListener('click', () => this.#showStep(this.#shown.moves.length, { stopTimer: true }));
    ui.speed.addEventListener('input', () => this.#changeSpeed());
    ui.list.addEventListener('click', event => {
      const button = event.target.closest('button[data-step]');
      if (button) this.#showStep(Number(button.dataset.step), { stopTimer: true });
    });
    this.#changeSpeed();
  }

  /** Whether a solution is shown. */
  get active() {
    return this.#shown !== null;
  }

  /** Show a solve answer's solution from the board `start`, at its first step (a solution playing stops). */
  show(answer, start) {
    const { ui } = this;
    this.#pause();
    ui.result.hidden = false;
    ui.length.textContent = lengthText(answer);
    const items = [];
    let board = start;
    answer.moves.forEach((move, i) => {
      const { text, label } = this.rules().moveLabel(board, move);
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.step = i + 1;
      button.textContent = text;
      button.setAttribute('aria-label', t('playback.step-label', { step: i + 1, label }));
      const item = document.createElement('li');
      item.append(button);
      items.push(item);
      board = this.rules().apply(board, move);
    });
    ui.list.replaceChildren(...items);
    this.#shown = { start, moves: answer.moves, step: 0, timer: null };
    this.#showStep(0);
  }

  /** The player made `move`: when it is the solution's next step, show that step (pausing play) and answer true. */
  follow(move) {
    const shown = this.#shown;
    if (!shown || String(shown.moves[shown.step]) !== String(move)) return false;
    this.#showStep(shown.step + 1, { stopTimer: true, silent: true });
    return true;
  }

  /** Stop playing and hide the result. */
  hide() {
    this.#pause();
    this.#shown = null;
    this.ui.result.hidden = true;
  }

  #showStep(step, { stopTimer = false, silent = false } = {}) {
    const { ui } = this;
    const shown = this.#shown;
    if (stopTimer) this.#pause();
    const said = silent || shown.timer || Math.abs(step - shown.step) !== 1 ? null
      : { move: shown.moves[Math.min(step, shown.step)], back: step < shown.step };
    let board = shown.start;
    for (const move of shown.moves.slice(0, step)) board = this.rules().apply(board, move);
    shown.step = step;
    ui.step.textContent = t('playback.step', { step, count: shown.moves.length });
    if (step === 0) ui.list.scrollTop = 0;  // the start has no move of its own to show
    for (const button of ui.list.querySelectorAll('button')) {
      const current = Number(button.dataset.step) === step;
      button.classList.toggle('done', Number(button.dataset.step) <= step);
      if (current) {
        button.setAttribute('aria-current', 'step');
        this.#scrollIntoList(button);
      } else {
        button.removeAttribute('aria-current');
      }
    }
    ui.back.disabled = ui.first.disabled = step === 0;
    ui.forward.disabled = ui.last.disabled = step === shown.moves.length;
    this.onStep(board, said);
  }

  /** Scroll the move list (never the page, which the player may be reading elsewhere) so that `button` shows. */
  #scrollIntoList(button) {
    const list = this.ui.list.getBoundingClientRect();
    const box = button.getBoundingClientRect();
    if (box.top < list.top) this.ui.list.scrollTop -= list.top - box.top;
    else if (box.bottom > list.bottom) this.ui.list.scrollTop += box.bottom - list.bottom;
  }

  #play() {
    const shown = this.#shown;
    if (shown.step === shown.moves.length) this.#showStep(0);
    const interval = 1000 / Number(this.ui.speed.value);
    this.rules().view.slideMs = Math.min(MAX_SLIDE_MS, interval * 0.8);
    shown.timer = setInterval(() => {
      if (shown.step < shown.moves.length) this.#showStep(shown.step + 1);
      if (shown.step === shown.moves.length) this.#pause();
    }, interval);
    this.ui.play.textContent = t('playback.pause');
  }

  #pause() {
    const shown = this.#shown;
    if (!shown?.timer) return;
    clearInterval(shown.timer);
    shown.timer = null;
    this.rules().view.slideMs = null;  // the player's own moves slide at the usual speed again
    this.ui.play.textContent = t('playback.play');
  }

  #toggle() {
    if (this.#shown.timer) this.#pause();
    else this.#play();
  }

  #changeSpeed() {
    this.ui.speedOut.textContent = t('playback.rate', { n: this.ui.speed.value });
    if (this.#shown?.timer) {
      this.#pause();
      this.#play();
    }
  }
}
