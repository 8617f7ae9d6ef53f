// The Workers selector and the pool's status line (pool.js): the size chosen and why (cores, or the device's
// memory), how many workers are ready, and the nodes each searched last time.
//
//   const view = new PoolView(pool, { select, status });   // fills the selector, follows its changes
//   view.show();                                           // after any change of the pool (its onChange)

import { MAX_WORKERS } from './pool.js';
import { formatLarge } from './format.js';
import { t } from './i18n.js';

const MAX_WORKERS_SHOWN = 8;  // the selector offers 1 to this, or one per core if there are more

export class PoolView {
  constructor(pool, { select, status }) {
    Object.assign(this, { pool, select, status });
    const { cores } = pool.defaultSize();
    for (let n = 1; n <= Math.min(MAX_WORKERS, Math.max(MAX_WORKERS_SHOWN, cores)); n++) {
      select.add(new Option(n === 1 ? t('pool.one') : String(n), String(n)));
    }
    select.addEventListener('change', () => { pool.size = Number(select.value); });
    this.show();
  }

  show() {
    const { pool } = this;
    this.select.value = String(pool.size);  // the default size follows the tables in use
    const { cores, memoryGB, workerMB, fits } = pool.defaultSize();
    let text = t('pool.cores', { count: cores });
    if (fits !== null && pool.size === fits) text += t('pool.memory', { count: fits, mb: workerMB, gb: memoryGB });
    const extra = pool.size - 1;
    if (extra > 0 && !pool.started) text += t('pool.not-started');
    else if (extra > 0) text += t('pool.ready', { ready: pool.ready, count: pool.size });
    if (pool.last) {
      const nodes = pool.last.workers.map(w => formatLarge(w.expanded)).join(' · ');
      text += t('pool.last', { count: pool.last.workers.length, nodes });
    }
    this.status.textContent = text;
    this.status.dataset.ready = String(pool.ready);
    this.status.dataset.busy = String(pool.busy);
  }
}
