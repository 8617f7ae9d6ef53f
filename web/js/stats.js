// The statistics of a solve: what the search did (length, nodes, memory, time) and, for IDA* and IDDFS, each
// iteration's bound and nodes, listed as they happen.
//
//   const panel = new StatsPanel(element, { label });  // label(name): a heuristic's name as the page shows it
//   panel.begin();            // a search starts: empty, iterations appear as progress events arrive
//   panel.progress(event);    // every progress dict from the worker ({"type": "iteration", "bound", "expanded"})
//   panel.finish(answer, methodTitle);  // the answer's statistics, with the heuristic auto chose (its label)
//   panel.clear();

import { MISSING, formatCount, formatSeconds } from './format.js';
import { t } from './i18n.js';

// Each figure's name is the catalogue's stat.<key>, what it means stat.<key>.means.
const FIELDS = ['length', 'optimal', 'expanded', 'generated', 'stored', 'open_peak', 'iterations', 'time'];
const MEANINGS = ['expanded', 'generated', 'stored', 'open_peak', 'iterations', 'time'];

export class StatsPanel {
  #rows = [];  // [{bound, expanded}] of the iterations shown

  constructor(element, { label = name => name } = {}) {
    this.element = element;
    this.label = label;
    element.classList.add('stats-panel');
    element.innerHTML = `
      <p class="stats-method"></p>
      <dl class="stats"></dl>
      <div class="iterations" hidden>
        <table>
          <caption>${t('stat.iterations')}</caption>
          <thead><tr><th scope="col">${t('progress.bound')}</th><th scope="col">${t('stats.nodes-expanded')}</th>
            <th scope="col">${t('stats.growth')}</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <details class="stats-help">
        <summary>${t('stats.meaning')}</summary>
        <dl></dl>
      </details>`;
    this.method = element.querySelector('.stats-method');
    this.list = element.querySelector('dl.stats');
    this.iterations = element.querySelector('.iterations');
    this.body = element.querySelector('tbody');
    element.querySelector('.stats-help dl').append(...MEANINGS.flatMap(key => [item('dt', t(`stat.${key}`)),
      item('dd', t(`stat.${key}.means`))]));
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
    const used = answer.heuristic_used ? t('stats.auto-chose', { name: this.label(answer.heuristic_used) }) : '';
    this.method.textContent = methodTitle ? `${methodTitle}${used}` : used.trim();
    const values = {
      length: t('result.moves-count', { count: answer.length }),
      optimal: answer.optimal ? t('stats.yes')
        : answer.lower_bound != null ? t('stats.at-least', { bound: answer.lower_bound }) : t('stats.not-proven'),
      expanded: formatCount(stats.expanded), generated: formatCount(stats.generated), stored: formatCount(stats.stored),
      open_peak: stats.open_peak != null ? formatCount(stats.open_peak) : null,
      iterations: stats.iterations ? formatCount(stats.iterations.length) : null,
      time: formatSeconds(stats.elapsed_s),
    };
    this.list.replaceChildren(...FIELDS.filter(key => values[key] != null).map(key => {
      const div = item('div', '');
      div.dataset.stat = key;
      div.append(item('dt', t(`stat.${key}`)), item('dd', values[key]));
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

