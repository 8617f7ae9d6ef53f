// Your heuristic: write h(board) in Python in the page (a CodeMirror editor), check it against the true distances
// (admissible? consistent? how informed?), and use it in Solve, Compare and Watch as "yours".
//
//   const yours = new YourHeuristic(element, { solver, request: () => ({board, goal?, puzzle?, rule?}), onBoard,
//                                              onUse, onCompare, onBusy, onChange });
//   yours.setCatalogue(await solver.describe());  // the starting examples (api.describe().heuristic_examples)
//   yours.setPuzzle('sliding');                    // the puzzle family shown: its examples
//   yours.runnableCode();                          // the code to send with a request, or null (none yet, or code
//                                                     that came with a link and was not allowed to run)
//   yours.fromLink(code);                          // code from a link: shown, never run until the person says so
//   yours.code;                                    // the code in the editor (for the link)
//
// The code runs in the solver's worker, never on the page's thread; the bridge attaches it to every request whose
// heuristic is "yours" (bridge.js). It is kept per tab (sessionStorage) like the player's moves.

import { formatSeconds } from './format.js';
import { svgElement, svgText } from './chart.js';
import { errorText, fact, t, tHTML } from './i18n.js';

const STORE = 'slidelab-your-heuristic';  // sessionStorage: {code, trusted}
// the assignment's table in Compare, per puzzle family (compare.js runs A* with these and yours)
const COMPARE_LABELS = { sliding: 'yours.compare-sliding', tokens: 'yours.compare-tokens' };  // catalogue keys
// The editor's look, from the page's colours (custom properties reach into the shadow root).
const EDITOR_THEME = EditorView => EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--card)', fontSize: '0.88rem' },
  '.cm-scroller': { fontFamily: 'ui-monospace, "SF Mono", Menlo, Consolas, monospace' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)' },
  '&.cm-focused': { outline: '3px solid var(--focus)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
});
const SVG_HEIGHT = 200;

// On a dark page the editor's default token colours (made for a light one) are too dark to read: each is swapped for
// a light one of the same hue (the default style's tags are reused: the tags themselves are not exported).
const DARK_COLOURS = {
  '#708': '#d8a6ff', '#219': '#9db8ff', '#164': '#86d99f', '#a11': '#ff9f9f', '#e40': '#ffb07a', '#00f': '#93b8ff',
  '#30a': '#bda8ff', '#085': '#6fd8ae', '#167': '#74d3e2', '#256': '#95cddb', '#00c': '#93b8ff', '#940': '#e6b97a',
  '#f00': '#ff7070', '#404740': '#c0c8c0', '#a50': '#ffbe7a', '#221199': '#9db8ff',
};
function darkColours({ HighlightStyle, defaultHighlightStyle, syntaxHighlighting }) {
  if (!matchMedia('(prefers-color-scheme: dark)').matches) return [];
  const specs = defaultHighlightStyle.specs.map(spec => (spec.color
    ? { ...spec, color: DARK_COLOURS[spec.color.toLowerCase()] ?? 'var(--text)' } : spec));
  return syntaxHighlighting(HighlightStyle.define(specs));
}

export class YourHeuristic {
  #code = '';
  #trusted = true;     // typed here or taken from an example; false for code from a link until allowed
  #examples = [];
  #catalogued = false;  // the examples have come: until then an empty editor is still loading its starting code
  #family = 'sliding';
  #editor = null;      // a CodeMirror EditorView, or null while it loads (or if it cannot: the textarea stays)
  #running = false;

  constructor(element, { solver, request, onBoard = () => {}, onUse = () => {}, onCompare = () => {},
    onBusy = () => {}, onChange = () => {} }) {
    Object.assign(this, { element, solver, request, onBoard, onUse, onCompare, onBusy, onChange });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">${tHTML('yours.intro')}</p>
      <div class="yours-link" role="alert" hidden>
        <p>${tHTML('yours.from-link')}</p>
        <button type="button" class="yours-trust">${t('yours.trust')}</button>
      </div>
      <div class="toolbar">
        <label class="field">${t('yours.start-from')} <select class="yours-example"></select></label>
      </div>
      <div class="yours-editor"><textarea class="yours-text" spellcheck="false" rows="12"
        aria-label="${t('yours.code')}"></textarea></div>
      <div class="actions">
        <button type="button" class="primary yours-check">${t('yours.check')}</button>
        <button type="button" class="yours-use">${t('yours.use')}</button>
        <button type="button" class="yours-compare">${t(COMPARE_LABELS.sliding)}</button>
        <button type="button" class="danger yours-cancel" hidden>${t('solver.cancel')}</button>
      </div>
      <p class="message yours-message" aria-live="polite"></p>
      <div class="yours-failed" hidden><button type="button" class="yours-failed-board">${t('yours.show-failed')}</button></div>
      <details class="yours-printed" hidden><summary>${t('yours.printed')}</summary><pre></pre></details>
      <div class="yours-report" hidden>
        <dl class="yours-verdicts"></dl>
        <div class="yours-examples"></div>
        <figure class="yours-chart"><div class="yours-plot"></div>
          <figcaption class="muted">${t('yours.chart-caption')}</figcaption></figure>
      </div>`);
    const find = selector => element.querySelector(selector);
    this.ui = {
      link: find('.yours-link'), trust: find('.yours-trust'), example: find('.yours-example'),
      box: find('.yours-editor'), text: find('.yours-text'), check: find('.yours-check'), use: find('.yours-use'),
      compare: find('.yours-compare'), cancel: find('.yours-cancel'), message: find('.yours-message'),
      report: find('.yours-report'), verdicts: find('.yours-verdicts'), counter: find('.yours-examples'),
      plot: find('.yours-plot'), failed: find('.yours-failed'), failedBoard: find('.yours-failed-board'),
      printed: find('.yours-printed'),
    };
    this.ui.failedBoard.addEventListener('click', () => this.onBoard(this.ui.failedBoard.dataset.board));
    this.ui.example.addEventListener('change', () => this.#takeExample(this.ui.example.value));
    this.ui.trust.addEventListener('click', () => this.#allow());
    this.ui.text.addEventListener('input', () => this.#edited(this.ui.text.value));
    this.ui.check.addEventListener('click', () => this.check());
    this.ui.use.addEventListener('click', () => this.#whenRunnable(() => this.onUse()));
    this.ui.compare.addEventListener('click', () => this.#whenRunnable(() => this.onCompare()));
    this.ui.cancel.addEventListener('click', () => this.solver.cancel());
    this.ui.counter.addEventListener('click', event => {
      const button = event.target.closest('button[data-board]');
      if (button) this.onBoard(button.dataset.board);
    });
    this.#restore();
    this.#loadEditor();
    this.#controls();
  }

  get code() {
    return this.#code;
  }

  get running() {
    return this.#running;
  }

  /** The code to send with a request whose heuristic is "yours", or null. */
  runnableCode() {
    return this.#trusted && this.#code.trim() ? this.#code : null;
  }

  setCatalogue(catalogue) {
    this.#examples = catalogue.heuristic_examples ?? [];
    this.#catalogued = true;
    this.#fillExamples();
    if (!this.#code) this.#takeExample(this.#examples.find(e => e.puzzle === this.#family)?.name);
    this.#controls();
  }

  /** The puzzle family shown ('sliding' or 'tokens'): its examples are offered. */
  setPuzzle(family) {
    if (family === this.#family) return;
    this.#family = family;
    this.ui.compare.textContent = t(COMPARE_LABELS[family]);
    this.#fillExamples();
  }

  setEnabled(free) {
    this.free = free;
    this.#controls();
  }

  /** Code that came with a link: shown in the editor, not run until the person allows it. */
  fromLink(code) {
    if (code === this.#code && this.#trusted) return;
    this.#setCode(code, false);
  }

  /** Put an example in the editor (a lesson uses one): trusted, it is the page's own. */
  useExample(name) {
    this.#takeExample(name);
  }

  /** Check the code against the true distances on the puzzle shown (every position on boards of up to 2,000,000
   * positions, a sample beyond). */
  async check() {
    const code = this.runnableCode();
    if (!code) {
      this.#say(t(this.#trusted ? 'yours.write-first' : 'yours.read-first'));
      return;
    }
    this.#running = true;
    this.#controls();
    this.onBusy();
    this.ui.report.hidden = true;
    this.#showFailure(null);
    this.#showPrinted('');
    this.#say(t('yours.checking'));
    const started = performance.now();
    const answer = await this.solver.checkHeuristic({ ...this.request(), heuristic: 'yours', heuristic_code: code },
      progress => {
        if (progress.type === 'progress') this.#say(t('yours.progress', { count: progress.expanded }));
      });
    this.#running = false;
    this.#controls();
    this.onBusy();
    this.#showPrinted(answer.printed ?? '');
    if (!answer.ok) {
      this.#say(answer.error.code === 'cancelled' ? t('yours.stopped') : errorText(answer.error), 'error');
      this.#showFailure(answer.error.details?.board ?? null);
      return;
    }
    this.#say(t(answer.complete ? 'yours.checked-all' : 'yours.checked-sample', { count: answer.positions,
      time: formatSeconds((performance.now() - started) / 1000) }));
    this.#showReport(answer);
  }

  // ---- the editor and the code ----

  // CodeMirror (bundled with PyScript) in a shadow root: there its styles go into a constructed style sheet, which
  // the page's Content-Security-Policy (style-src 'self') allows, where a <style> element in the document is refused.
  async #loadEditor() {
    try {
      const { codemirror } = await import(new URL('pyscript/core.js', document.baseURI).href);
      const [{ EditorView, basicSetup }, { python }, language] = await Promise.all([
        codemirror.core, codemirror.python, codemirror.language]);
      const host = document.createElement('div');
      host.className = 'yours-host';
      const root = host.attachShadow({ mode: 'open' });
      this.#editor = new EditorView({
        doc: this.#code, root, parent: root,
        // lines wrap and the editor grows with the code: no scrolled region (one more stop for the keyboard)
        extensions: [basicSetup, python(), EDITOR_THEME(EditorView), EditorView.lineWrapping, darkColours(language),
          EditorView.updateListener.of(update => {
            if (update.docChanged) this.#edited(update.state.doc.toString());
          }), EditorView.contentAttributes.of({ 'aria-label': t('yours.code') })],
      });
      this.ui.text.replaceWith(host);
    } catch {
      // the plain text area stays: the code can still be written, checked and used
    }
  }

  #edited(code) {
    if (code === this.#code) return;
    this.#code = code;
    this.#trusted = true;  // what the person typed is theirs
    this.ui.link.hidden = true;
    this.#showExample();
    this.#store();
    this.onChange();
    this.#controls();
  }

  #setCode(code, trusted) {
    this.#code = code;
    this.#trusted = trusted;
    if (this.#editor) {
      const doc = this.#editor.state.doc;
      // the update this dispatch reports finds the code unchanged: it is not taken for the person's own edit
      if (doc.toString() !== code) this.#editor.dispatch({ changes: { from: 0, to: doc.length, insert: code } });
    } else {
      this.ui.text.value = code;
    }
    this.ui.link.hidden = trusted;
    this.ui.report.hidden = true;
    this.#showExample();
    this.#store();
    this.#controls();
  }

  #allow() {
    this.#trusted = true;
    this.ui.link.hidden = true;
    this.#store();
    this.#controls();
    this.#say(t('yours.trusted'));
  }

  #takeExample(name) {
    const example = this.#examples.find(e => e.name === name);
    if (!example) return;
    this.#setCode(example.code, true);
    this.onChange();
  }

  #fillExamples() {
    const offered = this.#examples.filter(e => e.puzzle === this.#family);
    this.ui.example.replaceChildren(new Option(t('yours.own'), ''),
      ...offered.map(e => new Option(fact(`example.${e.name}.title`, e.title), e.name)));
    this.#showExample();
  }

  /** The example the editor holds, or 'your own code'. */
  #showExample() {
    this.ui.example.value = this.#examples.find(e => e.code === this.#code && e.puzzle === this.#family)?.name ?? '';
  }

  #store() {
    try {
      sessionStorage.setItem(STORE, JSON.stringify({ code: this.#code, trusted: this.#trusted }));
    } catch {
      // storage full or refused: the code stays for this page only
    }
  }

  #restore() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(STORE) ?? 'null');
      if (kept && typeof kept.code === 'string') {
        this.#code = kept.code;
        this.#trusted = kept.trusted === true;
        this.ui.text.value = kept.code;
        this.ui.link.hidden = this.#trusted;
      }
    } catch {
      // nothing kept
    }
  }

  #whenRunnable(action) {
    if (this.runnableCode()) action();
    else this.#say(t(this.#trusted ? 'yours.write-first' : 'yours.read-first'));
  }

  #controls() {
    const loading = !this.#catalogued && !this.#code;  // the starting code is on its way: nothing to run yet
    const free = this.free !== false && !this.#running && !loading;
    for (const button of [this.ui.check, this.ui.use, this.ui.compare]) button.disabled = !free;
    this.ui.cancel.hidden = !this.#running;
  }

  #say(text, tone = '') {
    this.ui.message.textContent = text;
    this.ui.message.dataset.tone = tone;
  }

  // ---- the report ----

  // The board on which the code failed or gave a bad value: a button puts it on the board.
  #showFailure(board) {
    this.ui.failed.hidden = board === null;
    if (board !== null) this.ui.failedBoard.dataset.board = board;
  }

  // What the code printed (kept apart from the answer by the engine).
  #showPrinted(text) {
    this.ui.printed.hidden = !text;
    this.ui.printed.querySelector('pre').textContent = text;
  }

  #showReport(report) {
    const verdict = value => (value === true ? 'yes' : value === false ? 'no' : 'unproved');
    const rows = [
      ['yours.admissible', verdict(report.admissible), report.worst ? t('yours.overestimates', {
        count: report.overestimated, h: report.worst.h, distance: report.worst.distance }) : ''],
      ['yours.consistent', verdict(report.consistent), report.move ? t('yours.drops', {
        drop: report.move.h_from - report.move.h_to, from: report.move.h_from, to: report.move.h_to }) : ''],
      ['yours.informed', 'informed', t('yours.exact', { share: (100 * report.exact_share).toFixed(1) })],
    ];
    this.ui.verdicts.replaceChildren(...rows.flatMap(([term, value, detail]) => {
      const dt = document.createElement('dt');
      dt.textContent = t(term);
      const dd = document.createElement('dd');
      const said = value === 'informed' ? t('yours.means', { h: report.mean_h.toFixed(2),
        distance: report.mean_distance.toFixed(2) }) : t(`yours.verdict-${value}`);
      dd.textContent = detail ? `${said}: ${detail}` : said;
      dd.dataset.verdict = value === 'yes' ? 'yes' : value === 'no' ? 'no' : '';
      return [dt, dd];
    }));
    const buttons = [];
    if (report.worst) buttons.push([t('yours.show-worst'), report.worst.board]);
    if (report.move) buttons.push([t('yours.show-drop'), report.move.from]);
    this.ui.counter.replaceChildren(...buttons.map(([label, board]) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.board = board;
      button.textContent = label;
      return button;
    }));
    this.ui.report.hidden = false;
    this.#drawChart(report.by_distance);
  }

  #drawChart(rows) {
    const width = Math.max(this.ui.plot.clientWidth, 240), height = SVG_HEIGHT;
    const left = 36, right = 8, top = 8, bottom = 26;
    const maxD = Math.max(1, ...rows.map(r => r.distance)), maxH = Math.max(maxD, ...rows.map(r => r.max_h));
    const x = d => left + (width - left - right) * (d / maxD);
    const y = h => top + (height - top - bottom) * (1 - h / maxH);
    const svg = svgElement('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': t('yours.chart-label') });
    svg.append(svgElement('line', { x1: x(0), y1: y(0), x2: x(maxD), y2: y(maxD), class: 'yours-diagonal' }));
    svg.append(svgElement('line', { x1: left, y1: y(0), x2: width - right, y2: y(0), class: 'grid' }));
    for (const row of rows) {
      const over = row.max_h > row.distance;
      svg.append(svgElement('line', { x1: x(row.distance), x2: x(row.distance), y1: y(row.min_h), y2: y(row.max_h),
        class: over ? 'yours-range over' : 'yours-range' }));
      const dot = svgElement('circle', { cx: x(row.distance), cy: y(row.mean_h), r: 2.5,
        class: row.mean_h > row.distance ? 'yours-mean over' : 'yours-mean' });
      dot.append(svgElement('title', {}, t('yours.dot', { distance: row.distance, count: row.count, min: row.min_h,
        max: row.max_h, mean: row.mean_h.toFixed(2) })));
      svg.append(dot);
    }
    svg.append(svgText(t('yours.true-distance'), { x: (left + width - right) / 2, y: height - 2, 'text-anchor': 'middle' }));
    svg.append(svgText(String(maxD), { x: x(maxD), y: y(0) + 14, 'text-anchor': 'end' }));
    svg.append(svgText('h', { x: 4, y: top + 10 }));
    svg.append(svgText(String(maxH), { x: left - 4, y: y(maxH) + 10, 'text-anchor': 'end' }));
    this.ui.plot.replaceChildren(svg);
  }
}
