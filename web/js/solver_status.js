// The solver's status line: loading (with a clock, and a hint to reload once it is slow), ready, or failed.
//
//   const status = new SolverStatus({ status, text, time });   // data-state on `status` says it to the tests
//   status.show('loading', 'Starting Python');
import { t } from './i18n.js';


const SLOW_START_S = 45;  // a solver still loading after this long may have failed inside its worker

export class SolverStatus {
  #timer = null;

  constructor({ status, text, time }) {
    Object.assign(this, { status, text, time });
  }

  show(status, detail) {
    this.status.dataset.state = status;
    this.text.textContent = status === 'loading' ? `${detail}…` : detail;
    this.time.textContent = '';
    clearInterval(this.#timer);
    if (status !== 'loading') return;
    const started = performance.now();  // a clock, not announced to screen readers
    this.#timer = setInterval(() => {
      const seconds = Math.round((performance.now() - started) / 1000);
      this.time.textContent = ` ${t(seconds > SLOW_START_S ? 'status.seconds-slow' : 'status.seconds', { n: seconds })}`;
    }, 500);
  }
}
