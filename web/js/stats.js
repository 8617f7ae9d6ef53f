// The statistics of a solve: what the search did (length, nodes, memory, time) and, for IDA* and IDDFS, each
// iteration's bound and nodes, listed as they happen.
//
//   const panel = new StatsPanel(element);
//   panel.begin();            // a search starts: empty, iterations appear as progress events arrive
//   panel.progress(event);    // every progress dict from the worker ({"type": "iteration", "bound", "expanded"})
//   panel.finish(answer, methodTitle);  // the answer's statistics
//   panel.clear();

import { MISSING, formatCount, formatSeconds, plural } from './format.js';

const FIELDS = [
  ['length', 'Length'], ['optimal', 'Shortest?'], ['expanded', 'Expanded'], ['generated', 'Generated'],
  ['stored', 'Stored'], ['open_peak', 'Open-list peak'], ['iterations', 'Iterations'], ['time', 'Time'],
];

const MEANINGS = [
  ['Expanded', 'positions whose next moves the search worked out (A*: positions it closed).'],
  ['Generated', 'positions those moves led to, repeats included.'],
  ['Stored', 'the most positions held in memory at once: everything seen for BFS and A*, only the current path '
    + 'for IDA* and IDDFS.'],
  ['Open-list peak', 'the most positions waiting their turn at once (BFS, bidirectional BFS, A*).'],
  ['Iterations', 'IDA* and IDDFS search again with a larger bound each round: the bound is the longest solution '
    + 'that round allows, and each round redoes the work of the ones before.'],
  ['Time', 'wall time in the browser’s Python, which is slower than a native one.'],
];

export class StatsPanel {
  #rows = [];  // [{bound, expanded}] of the iterations shown

  constructor(element) {
    this.element = element;
    element.classList.add('stats-panel');
    element.innerHTML = `
      <p class="stats-method"></p>
      <dl class="stats"></dl>
      <div class="iterations" hidden>
        <table>
          <caption>Iterations</caption>
          <thead><tr><th scope="col">Bound</th><th scope="col">Nodes expanded</th><th scope="col">× previous</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <details class="stats-help">
        <summary>What these numbers mean</summary>
        <dl></dl>
      </details>`;
    this.method = element.querySelector('.stats-method');
    this.list = element.querySelector('dl.stats');
    this.iterations = element.querySelector('.iterations');
    this.body = element.querySelector('tbody');
    element.querySelector('.stats-help dl').append(...MEANINGS.flatMap(([term, text]) => [item('dt', term), item('dd', text)]));
    this.clear();
  }

  clear() {
    this.element.hidden = true;
    this.#rows = [];
    this.body.replaceChildren();
    this.iterations.hidden = true;
    this.list.replaceChildren();
    this.method.textContent = '';
  }

  begin() {
    this.clear();
    this.element.hidden = false;
    this.list.hidden = true;
    this.element.querySelector('.stats-help').hidden = true;
  }

  progress(event) {
    if (event.type === 'iteration') this.#addIteration(event);
  }

  finish(answer, methodTitle = '') {
    const stats = answer.stats;
    this.element.hidden = false;
    this.list.hidden = false;
    this.element.querySelector('.stats-help').hidden = false;
    const used = answer.heuristic_used ? ` (auto chose ${answer.heuristic_used.replaceAll('_', ' ')})` : '';
    this.method.textContent = methodTitle ? `${methodTitle}${used}` : used.trim();
    const values = {
      length: `${formatCount(answer.length)} ${plural(answer.length, 'move')}`,
      optimal: answer.optimal ? 'yes' : `not proven${answer.lower_bound != null ? ` (at least ${answer.lower_bound})` : ''}`,
      expanded: formatCount(stats.expanded), generated: formatCount(stats.generated), stored: formatCount(stats.stored),
      open_peak: stats.open_peak != null ? formatCount(stats.open_peak) : null,
      iterations: stats.iterations ? formatCount(stats.iterations.length) : null,
      time: formatSeconds(stats.elapsed_s),
    };
    this.list.replaceChildren(...FIELDS.filter(([key]) => values[key] != null).map(([key, name]) => {
      const div = item('div', '');
      div.dataset.stat = key;
      div.append(item('dt', name), item('dd', values[key]));
      return div;
    }));
    // the answer's counts are the final ones: they replace those reported while the search ran
    if (stats.iterations) {
      this.#rows = [];
      this.body.replaceChildren();
      for (const iteration of stats.iterations) this.#addIteration(iteration);
    }
  }

  #addIteration({ bound, expanded }) {
    const previous = this.#rows.at(-1);
    if (previous?.bound === bound) return;
    this.#rows.push({ bound, expanded });
    const row = document.createElement('tr');
    const growth = previous?.expanded ? (expanded / previous.expanded).toFixed(1) : MISSING;
    row.append(item('td', String(bound)), item('td', formatCount(expanded)), item('td', growth));
    this.body.append(row);
    this.iterations.hidden = false;
  }
}

function item(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

