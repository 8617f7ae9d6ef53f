// The Workers selector and the pool's status line (pool.js): the size chosen and why (cores, or the device's
// memory), how many workers are ready, and the nodes each searched last time.
//
//   const view = new PoolView(pool, { select, status });   // fills the selector, follows its changes
//   view.show();                                           // after any change of the pool (its onChange)

import { MAX_WORKERS, SolverPool, WORKER_MB } from './pool.js';
import { formatLarge, plural } from './format.js';

const MAX_WORKERS_SHOWN = 8;  // the selector offers 1 to this, or one per core if there are more

export class PoolView {
  constructor(pool, { select, status }) {
    Object.assign(this, { pool, select, status });
    const { cores } = SolverPool.defaultSize();
    for (let n = 1; n <= Math.min(MAX_WORKERS, Math.max(MAX_WORKERS_SHOWN, cores)); n++) {
      select.add(new Option(n === 1 ? '1 (no pool)' : String(n), String(n)));
    }
    select.value = String(pool.size);
    select.addEventListener('change', () => { pool.size = Number(select.value); });
    this.show();
  }

  show() {
    const { pool } = this;
    const { cores, memoryGB, fits } = SolverPool.defaultSize();
    let text = `${cores} ${plural(cores, 'core')}`;
    if (fits !== null && pool.size === fits) {
      text += ` (${fits} ${plural(fits, 'worker')}: each needs about ${WORKER_MB} MB, and a quarter of this device's `
        + `${memoryGB} GB of memory holds ${fits})`;
    }
    const extra = pool.size - 1;
    if (extra > 0 && !pool.started) text += '; the pool starts with the first long IDA* search';
    else if (extra > 0) text += `; ${pool.ready} of ${pool.size} workers ready`;
    if (pool.last) {
      const nodes = pool.last.workers.map(w => formatLarge(w.expanded)).join(' · ');
      text += `. Last search on the pool: ${pool.last.workers.length} workers, ${nodes} nodes`;
    }
    this.status.textContent = text;
    this.status.dataset.ready = String(pool.ready);
    this.status.dataset.busy = String(pool.busy);
  }
}
