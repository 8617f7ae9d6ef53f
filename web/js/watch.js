// Watch the search: the panel that plays a trace of the chosen method on the position on the board
// (docs/user-guide.md, "Watch the search"). The search tree is drawn on a canvas (tree_view.js); the open list, the counters and the selected
// node are DOM; a trace is played from its precomputed changes (trace_model.js), so stepping, running to the end
// and stepping back cost a few array writes per step, and a frame never draws more than what is in view.
//
//   const watch = new Watch(element, { solver, tables, request: () => solveRequest(), board: () => state.board,
//                                      onShow(boardText) {}, onMethod(algorithm, heuristic) {}, onLesson(lesson) {},
//                                      onChange() {}, onBusy() {} });
//   await watch.start({ unit });   // trace the position and method of request(), then show that unit (the pattern
//                                  // databases the search uses are fetched first through `tables`, a TableLoader,
//                                  // as Solve does; while it works the panel's button is Cancel)
//   watch.unit, watch.board        // the unit shown and the board traced (for the link), null without a trace
//   watch.weight                   // weighted A*'s W for the next trace (the panel's input)
//   watch.setMethod(a, h)          // the chosen method: its rule shown; a trace of another method is closed
//   watch.clear(reason)            // the position changed: the trace no longer applies
//
// onShow gets a node's board text to show on the main board; onMethod a lesson's method to choose; onLesson a lesson
// (api.describe().lessons) whose position the page sets; onChange asks for the link to be written again.

import { MISSING, formatCount } from './format.js';
import { NEXT_STYLE, STATUS_STYLE, TreeView } from './tree_view.js';
import { GOAL, OPEN, PATH, STATUS_COUNT, TraceModel } from './trace_model.js';
import { errorText, fact, has, inLanguage, t, tHTML } from './i18n.js';

const OPEN_ROWS = 12;        // rows of the open list shown: the ones the search takes next
const FRAME_BUDGET_MS = 8;   // at full speed, the time a frame may spend stepping
const SPEEDS = [['1', 1], ['2', 2], ['5', 5], ['10', 10], ['30', 30], ['100', 100], ['full', Infinity]];
const DEFAULT_SPEED = '5';

/** Whether a trace can follow `algorithm`: the traceable ones (api.describe()'s `traceable`, which
 * tests/test_i18n.py holds equal to this set) each have their rule, the one sentence they expand by, in the catalogue. */
const traceable = algorithm => has(`watch.rule.${algorithm}`);

// The engine's facts, from its catalogue (api.describe(), setCatalogue): how a sentence names each algorithm and
// heuristic, whether an algorithm takes a heuristic, weighted A*'s default W, and a trace's limits.
const catalogue = { labels: {}, informed: new Set(), weight: null, maxSteps: Infinity, maxNodes: Infinity };
const label = name => catalogue.labels[name] ?? name;
const methodName = (algorithm, heuristic) => (catalogue.informed.has(algorithm)
  ? t('watch.method', { algorithm: label(algorithm), heuristic: label(heuristic) }) : label(algorithm));

export class Watch {
  #model = null;
  #pending = null;  // a link's trace step, traced once the solver is ready (startPending)
  #playing = false;
  #frame = 0;
  #last = 0;
  #carry = 0;
  #running = false;  // a trace or a lesson's solve is in flight
  lessons = [];      // the lessons (api.describe().lessons: course/lessons.py), once the catalogue has come
  #enabled = false;
  #board = null;     // the position traced (the board object the app gave)
  #selected = -1;
  #method = null;    // {algorithm, heuristic, weight} of the trace shown
  #loading = null;   // the AbortController of a table download waited for
  #cancelled = false;

  constructor(element, { solver, tables, request, board, onShow = () => {}, onMethod = () => {}, onLesson = () => {},
    onChange = () => {}, onBusy = () => {} }) {
    Object.assign(this, { element, solver, tables, request, boardOf: board, onShow, onMethod, onLesson, onChange,
      onBusy });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">${tHTML('watch.intro')}</p>
      <div class="actions watch-setup">
        <button type="button" class="primary watch-start" disabled>${t('watch.heading')}</button>
        <label class="field watch-weight-field" hidden>${t('watch.weight')}
          <input class="watch-weight" type="number" min="1" max="10" step="0.5"></label>
        <label class="field">${t('watch.lesson')} <select class="watch-lesson">
          <option value="">${t('watch.choose-lesson')}</option>
        </select></label>
      </div>
      <div class="watch-lesson-box" hidden>
        <p class="watch-lesson-text"></p>
        <div class="table-scroll"><table class="watch-lesson-table">
          <caption class="visually-hidden">${t('watch.lesson-caption')}</caption>
          <thead><tr><th scope="col">${t('compare.method')}</th><th scope="col">${t('play.moves')}</th>
            <th scope="col">${t('watch.expected')}</th><th scope="col">${t('watch.solver-says')}</th>
            <th scope="col"><span class="visually-hidden">${t('watch.watch')}</span></th></tr></thead>
          <tbody></tbody></table></div>
        <button type="button" class="watch-check" disabled>${t('watch.count')}</button>
      </div>
      <p class="method watch-rule"></p>
      <p class="message watch-message" aria-live="polite"></p>
      <div class="watch-body" hidden>
        <div class="player watch-controls" role="toolbar" aria-label="${t('watch.controls')}">
          <button type="button" class="watch-first" aria-keyshortcuts="Home">${t('watch.first')}</button>
          <button type="button" class="watch-back" aria-keyshortcuts="B">${t('playback.back')}</button>
          <button type="button" class="primary watch-play" aria-keyshortcuts="P">${t('playback.play')}</button>
          <button type="button" class="watch-step" aria-keyshortcuts="S">${t('watch.step')}</button>
          <button type="button" class="watch-iteration" aria-keyshortcuts="N" hidden>${t('watch.next-iteration')}</button>
          <button type="button" class="watch-end" aria-keyshortcuts="E">${t('watch.end')}</button>
          <label class="field">${t('playback.speed')} <select class="watch-speed">
            ${SPEEDS.map(([v]) => `<option value="${v}"${v === DEFAULT_SPEED ? ' selected' : ''}>${
              v === 'full' ? t('watch.full-speed') : t('watch.per-second', { n: Number(v) })}</option>`).join('')}
          </select></label>
          <span class="muted watch-position" aria-live="off"></span>
        </div>
        <dl class="watch-counters"></dl>
        <div class="watch-main">
          <div class="watch-tree">
            <canvas class="watch-canvas" tabindex="0" role="img" aria-describedby="watch-details"></canvas>
            <div class="watch-zoom">
              <button type="button" class="icon watch-zoom-in" aria-label="${t('watch.zoom-in')}">+</button>
              <button type="button" class="icon watch-zoom-out" aria-label="${t('watch.zoom-out')}">−</button>
              <button type="button" class="watch-fit">${t('watch.fit')}</button>
              <button type="button" class="watch-center">${t('watch.center')}</button>
              <label class="watch-follow-field"><input type="checkbox" class="watch-follow" checked> ${t('watch.follow')}</label>
            </div>
            <ul class="watch-legend" aria-label="${t('watch.legend')}"></ul>
          </div>
          <div class="watch-side">
            <div class="watch-details" id="watch-details"></div>
            <p class="visually-hidden watch-announce" aria-live="polite"></p>
            <div class="table-scroll"><table class="watch-open">
              <caption></caption>
              <thead><tr><th scope="col">#</th><th scope="col">${t('watch.node')}</th><th scope="col">${t('watch.move')}</th>
                <th scope="col">g</th><th scope="col">h</th><th scope="col">f</th></tr></thead>
              <tbody></tbody></table></div>
          </div>
        </div>
      </div>`);
    const find = selector => element.querySelector(selector);
    this.ui = {
      start: find('.watch-start'), weightField: find('.watch-weight-field'), weight: find('.watch-weight'),
      lesson: find('.watch-lesson'), lessonBox: find('.watch-lesson-box'), lessonText: find('.watch-lesson-text'),
      lessonBody: find('.watch-lesson-table tbody'), check: find('.watch-check'), rule: find('.watch-rule'),
      message: find('.watch-message'), body: find('.watch-body'), first: find('.watch-first'),
      back: find('.watch-back'), play: find('.watch-play'), step: find('.watch-step'),
      iteration: find('.watch-iteration'), end: find('.watch-end'), speed: find('.watch-speed'),
      position: find('.watch-position'), counters: find('.watch-counters'), canvas: find('.watch-canvas'),
      details: find('.watch-details'), open: find('.watch-open'), openBody: find('.watch-open tbody'),
      openCaption: find('.watch-open caption'), announce: find('.watch-announce'), follow: find('.watch-follow'), legend: find('.watch-legend'),
    };
    const ui = this.ui;
    this.tree = new TreeView(ui.canvas, { onSelect: id => this.#select(id, { fromTree: true }) });
    ui.legend.innerHTML = [NEXT_STYLE, ...Object.values(STATUS_STYLE)].filter((s, i, all) => all.indexOf(s) === i)
      .map(s => `<li><span class="watch-key" data-color="${s.color}" aria-hidden="true">${s.mark}</span>${t(s.name)}</li>`)
      .join('');
    for (const key of ui.legend.querySelectorAll('.watch-key')) key.style.setProperty('--key', `var(${key.dataset.color})`);
    ui.start.addEventListener('click', () => (this.#running ? this.cancel() : this.start()));
    ui.weight.addEventListener('change', () => {
      if (this.#model && this.#method.weight !== this.weight) this.clear(t('reason.weight'));
      this.onChange();
    });
    ui.first.addEventListener('click', () => this.#goto(0));
    ui.back.addEventListener('click', () => this.#goto(this.#model.unit - 1));
    ui.step.addEventListener('click', () => this.#goto(this.#model.unit + 1));
    ui.iteration.addEventListener('click', () => this.#goto(this.#model.nextIterationUnit()));
    ui.end.addEventListener('click', () => this.#goto(this.#model.units));
    ui.play.addEventListener('click', () => this.#toggle());
    ui.lesson.addEventListener('change', () => this.#showLesson(ui.lesson.value));
    ui.check.addEventListener('click', () => this.#checkLesson());
    ui.lessonBody.addEventListener('click', event => {
      const button = event.target.closest('button[data-method]');
      if (button) this.#watchLessonMethod(Number(button.dataset.method));
    });
    ui.openBody.addEventListener('click', event => {
      const button = event.target.closest('button[data-node]');
      if (button) this.#select(Number(button.dataset.node), { center: true });
    });
    find('.watch-zoom-in').addEventListener('click', () => this.tree.zoom(1.25));
    find('.watch-zoom-out').addEventListener('click', () => this.tree.zoom(0.8));
    find('.watch-fit').addEventListener('click', () => this.tree.fit());
    find('.watch-center').addEventListener('click', () => {
      const m = this.#model;
      if (m) this.tree.center(m.next >= 0 ? m.next : m.current);
    });
    element.addEventListener('keydown', event => this.#key(event));
    element.watch = this;  // for the browser tests and the benchmark
  }

  #lesson = null;

  get running() {
    return this.#running;
  }

  /** The unit shown, for the share link (a link's step still to trace; null without a trace). */
  get unit() {
    return this.#model ? this.#model.unit : this.#pending;
  }

  /** A link's trace step (or null), traced by startPending once the solver is ready. */
  set pending(unit) {
    this.#pending = unit;
  }

  /** Trace the pending step of a link, if there is one: whether it is shown. */
  async startPending() {
    const unit = this.#pending;
    this.#pending = null;
    return unit !== null && this.start({ unit });
  }

  /** The board the trace starts from (null without a trace). */
  get board() {
    return this.#model ? this.#board : null;
  }

  /** The weight of weighted A* that the next trace uses. */
  get weight() {
    const value = Number(this.ui.weight.value);
    return this.ui.weight.value !== '' && Number.isFinite(value) && value >= 1 && value <= 10 ? value
      : catalogue.weight;
  }

  set weight(value) {
    this.ui.weight.value = String(value);
  }

  setEnabled(free) {
    this.#enabled = free;
    this.#controls();
  }

  /** The engine's catalogue (api.describe()): labels, the default weight, the trace limits. */
  setCatalogue({ algorithms, heuristics, trace, lessons }) {
    for (const entry of algorithms) catalogue.labels[entry.name] = fact(`algorithm.${entry.name}.label`, entry.label);
    for (const entry of heuristics) catalogue.labels[entry.name] = fact(`heuristic.${entry.name}.label`, entry.label);
    catalogue.informed = new Set(algorithms.filter(a => a.uses_heuristic).map(a => a.name));
    catalogue.weight = algorithms.find(a => Number.isFinite(a.default_weight))?.default_weight ?? null;  // None arrives as undefined
    catalogue.maxSteps = trace.max_steps;
    catalogue.maxNodes = trace.max_nodes;
    if (this.ui.weight.value === '' && catalogue.weight !== null) this.ui.weight.value = String(catalogue.weight);
    if (!this.lessons.length) {
      // ready-made lessons from the source material: a position, methods, and the figures a student should find
      this.lessons = lessons;
      this.ui.lesson.append(...lessons.map(l => new Option(inLanguage(l.title), l.id)));
    }
  }

  /** The chosen method (maybe) changed: say its rule, offer the weight for weighted A*; a trace of another method is
   * closed, so that the link never names one method and shows another's trace. */
  setMethod(algorithm, heuristic) {
    const traced = this.#method;
    if (this.#model && (traced.algorithm !== algorithm || traced.heuristic !== heuristic)) {
      this.clear(t('reason.method'));
    }
    this.ui.rule.textContent = t(traceable(algorithm) ? `watch.rule.${algorithm}` : 'watch.untraceable');
    this.ui.weightField.hidden = algorithm !== 'weighted';
    this.algorithm = algorithm;
    this.#controls();
  }

  /** Forget the trace (the position changed). */
  clear(reason = '') {
    if (!this.#model) return;
    this.#stop();
    this.#model = null;
    this.ui.body.hidden = true;
    this.#say(reason ? t('watch.closed', { reason }) : '');
  }

  /** Stop the trace (or the lesson's solving) in progress: the panel's button while it works. */
  cancel() {
    if (!this.#running) return;
    this.#cancelled = true;
    this.#loading?.abort();
    this.solver.cancel();
  }

  /** Trace the request's position and method (or a lesson's method), then show `unit`. */
  async start({ unit = 0, method = null } = {}) {
    if (this.#running) return false;
    const request = { ...this.request(), ...(method ?? {}) };
    if (request.algorithm === 'weighted') request.weight = this.weight;
    this.clear();  // the trace shown goes, whatever the new one brings
    this.#method = { algorithm: request.algorithm, heuristic: request.heuristic, weight: request.weight };
    this.#running = true;
    this.#cancelled = false;
    this.#board = this.boardOf();
    this.#controls();
    this.onBusy();
    let answer;
    let tablesFailed;
    try {
      tablesFailed = await this.#loadTables(request);
      if (tablesFailed && request.heuristic === 'pdb') request.heuristic = 'auto';  // as Solve does without them
      if (!this.#cancelled) answer = await this.#trace(request);
    } finally {
      this.#running = false;
      this.#controls();
      this.onBusy();
    }
    if (this.#cancelled) {
      this.#say(t('watch.cancelled'));
      return false;
    }
    if (!answer.ok) {
      this.#say(t('watch.failed', { problem: errorText(answer.error) }), 'error');
      return false;
    }
    const received = performance.now();
    this.#model = new TraceModel(answer);
    this.timing = { traceMs: received - this.timing.started, modelMs: performance.now() - received };
    this.#selected = -1;
    this.ui.body.hidden = false;
    this.tree.setModel(this.#model);
    this.ui.iteration.hidden = !this.#model.iterative;
    this.ui.open.classList.toggle('two-sides', this.#model.bidirectional);
    this.#describe(answer, tablesFailed);
    if (unit > this.#model.units) {
      this.#say(t('watch.short', { count: this.#model.units, asked: unit }),
        'error');
    }
    this.#model.go(unit);
    this.tree.showGroup(Math.max(0, this.#model.iteration));
    this.tree.center(this.#focusNode());
    this.#render();
    this.onChange();
    return true;
  }

  /** Fetch the pattern databases the search uses, showing the download as Solve does: null when they are there
   * (or not needed, or the wait was cancelled), else why they could not be had. */
  async #loadTables(request) {
    this.#say(t('watch.tracing'));
    this.timing = { started: performance.now() };
    await this.solver.start();  // after a restart (a cancel the worker did not answer) the solver loads again
    if (this.#cancelled) return null;
    this.#loading = new AbortController();
    const outcome = await this.tables.load(request, { onText: text => this.#say(text), signal: this.#loading.signal });
    this.#loading = null;
    this.timing.started = performance.now();  // the trace's own time, without the download
    return outcome?.ok === false ? outcome.message : null;
  }

  #trace(request) {
    this.#say(t('watch.tracing'));
    return this.solver.trace(request, event => {
      if (event.type === 'progress' && !this.#cancelled) {
        this.#say(t('watch.tracing-count', { count: event.expanded }));
      }
    });
  }

  #describe(answer, tablesFailed) {
    const used = answer.heuristic_used ? ` (${label(answer.heuristic_used)})` : '';
    const title = `${methodName(answer.algorithm, answer.heuristic)}${used}${
      answer.weight ? ` (W = ${answer.weight})` : ''}`;
    const end = answer.truncated
      ? t('watch.truncated', { note: t(`watch.stopped-${answer.limit}`, { count: answer.expanded, nodes: catalogue.maxNodes }),
        steps: catalogue.maxSteps,
        nodes: catalogue.maxNodes })
      : t('watch.expansions', { count: answer.expanded }) + t(answer.optimal ? 'watch.path-shortest' : 'watch.path', {
        moves: t('result.moves-count', { count: answer.length }) })
        + (answer.longer_by ? t('watch.longer', { by: answer.longer_by, shortest: answer.shortest_length }) : '');
    let counts = '';  // Solve's IDA* and IDDFS on sliding boards are faster kernels than the search traced
    if (this.#model.iterative && answer.puzzle === 'sliding') {
      counts = answer.algorithm === 'iddfs' || answer.heuristic === 'zero'
        ? t('watch.counts-blind') : t('watch.counts-kernel');
    }
    const tables = tablesFailed ? t('watch.tables-failed', { problem: tablesFailed }) : '';
    this.#say(t('watch.traced', { title, end }) + counts + tables);
    this.ui.canvas.setAttribute('aria-label', t('watch.tree-label', { title, count: this.#model.size }));
  }

  #say(text, tone = '') {
    this.ui.message.textContent = text;
    this.ui.message.className = `message watch-message ${tone}`.trim();
  }

  #controls() {
    const ui = this.ui;
    ui.start.disabled = this.#running ? false : !this.#enabled || !traceable(this.algorithm);
    ui.start.textContent = t(this.#running ? 'solver.cancel' : 'watch.heading');
    ui.start.classList.toggle('primary', !this.#running);
    ui.check.disabled = !this.#enabled || this.#running;
    for (const button of ui.lessonBody.querySelectorAll('button')) button.disabled = !this.#enabled || this.#running;
    const m = this.#model;
    if (!m) return;
    ui.first.disabled = ui.back.disabled = m.unit === 0;
    ui.step.disabled = ui.end.disabled = ui.iteration.disabled = m.finished;
    ui.play.disabled = m.finished && !this.#playing;
    ui.play.textContent = t(this.#playing ? 'playback.pause' : 'playback.play');
    ui.play.setAttribute('aria-pressed', String(this.#playing));
    // a control that is disabled while it has the focus would drop the focus to the page: keep it in the toolbar
    const focused = document.activeElement;
    if (focused?.disabled && ui.body.contains(focused)) {
      [ui.play, ui.step, ui.back, ui.first].find(button => !button.disabled)?.focus();
    }
  }

  #goto(unit) {
    if (!this.#model) return;
    this.#stop();
    this.#model.go(unit);
    this.#afterMove();
    this.onChange();
  }

  #afterMove() {
    const m = this.#model;
    this.tree.showGroup(Math.max(0, m.iteration));
    if (this.ui.follow.checked) this.tree.follow(this.#focusNode());
    this.#render();
  }

  #focusNode() {
    const m = this.#model;
    return m.next >= 0 ? m.next : m.current >= 0 ? m.current : m.roots[Math.max(0, m.iteration)];
  }

  #toggle() {
    if (this.#playing) {
      this.#stop();
      this.onChange();
      return;
    }
    if (this.#model.finished) return;
    this.#playing = true;
    this.#last = performance.now();
    this.#carry = 0;
    this.#frame = requestAnimationFrame(now => this.#tick(now));
    this.#controls();
  }

  #stop() {
    if (!this.#playing) return;
    this.#playing = false;
    cancelAnimationFrame(this.#frame);
    this.#controls();
  }

  // One frame of playing: as many units as the speed asks for since the last frame (at full speed, as many as fit in
  // the frame's budget), then one drawing.
  #tick(now) {
    const m = this.#model;
    const speed = Object.fromEntries(SPEEDS)[this.ui.speed.value] ?? 5;
    if (speed === Infinity) {
      const until = performance.now() + FRAME_BUDGET_MS;
      let batch = 1;
      while (!m.finished && performance.now() < until) {
        m.go(m.unit + batch);
        batch = Math.min(batch * 2, 64);
      }
    } else {
      this.#carry += ((now - this.#last) / 1000) * speed;
      const units = Math.floor(this.#carry);
      this.#carry -= units;
      if (units > 0) m.go(m.unit + units);
    }
    this.#last = now;
    this.#afterMove();
    if (m.finished) {
      this.#stop();
      this.onChange();
      return;
    }
    this.#frame = requestAnimationFrame(t => this.#tick(t));
  }

  #key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !this.#model) return;
    if (event.target.closest('input, select, textarea')) return;
    const actions = { s: this.ui.step, b: this.ui.back, n: this.ui.iteration, e: this.ui.end, p: this.ui.play,
      Home: this.ui.first };
    const button = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!button || button.hidden || button.disabled) return;
    event.preventDefault();
    button.click();
  }

  #select(id, { center = false, fromTree = false } = {}) {
    const m = this.#model;
    if (!m || id < 0) return;
    this.#selected = id;
    if (!fromTree) this.tree.select(id, { center });
    this.onShow(m.boards[id]);
    this.#renderDetails();
    // said once per choice (the details change at every step while it plays, so they are not a live region)
    this.ui.announce.textContent = this.ui.details.firstChild?.textContent ?? '';
  }

  // ---- drawing -------------------------------------------------------------------------------------------------

  #render() {
    const m = this.#model;
    const ui = this.ui;
    this.tree.path = m.iterative ? new Set(m.chain(m.pathEnd)) : new Set();
    this.tree.draw();
    ui.position.textContent = t('playback.step', { step: m.unit, count: m.units });
    this.#renderCounters();
    this.#renderOpen();
    this.#renderDetails();
    this.#controls();
  }

  #renderCounters() {
    const m = this.#model;
    const count = (status, side = null) => (side === null
      ? m.counts[status] + m.counts[STATUS_COUNT + status] : m.counts[side * STATUS_COUNT + status]);
    const items = [['watch.expanded', formatCount(m.expanded), 'expanded']];
    if (m.iterative) {
      items.push(['progress.bound', m.bound ?? MISSING, 'bound'], ['watch.iteration', m.iteration + 1 || MISSING, 'iteration'],
        ['watch.expanded-iteration', formatCount(m.expandedInIteration), 'expanded-iteration'],
        ['watch.path-length', m.pathEnd >= 0 ? m.g[m.pathEnd] : MISSING, 'path']);
    } else if (m.bidirectional) {
      const side = m.sideStep;
      items.push(['Open (forward)', formatCount(count(OPEN, 0)), 'open-forward'],
        ['Open (backward)', formatCount(count(OPEN, 1)), 'open-backward'],
        ['watch.side', side ? t('watch.side-depth', { side: t(`watch.${side.side}`), depth: side.depth }) : MISSING, 'side']);
    } else {
      items.push(['watch.open', formatCount(count(OPEN)), 'open']);
    }
    if (m.finished) {
      const found = count(PATH) + count(GOAL);
      items.push(['watch.path-found', m.answer.length == null ? t('watch.not-reached') : t('result.moves-count', { count: m.answer.length }),
        'length']);
      if (!found && m.answer.truncated) items.push(['watch.trace', t('watch.is-truncated'), 'truncated']);
    }
    const html = items.map(([name, value, key]) => `<div data-stat="${key}"><dt>${t(name)}</dt><dd>${value}</dd></div>`)
      .join('');
    if (html !== this.ui.counters.innerHTML) this.ui.counters.innerHTML = html;
  }

  #renderOpen() {
    const m = this.#model;
    const ui = this.ui;
    const { ids, total } = m.openList(OPEN_ROWS);
    ui.openCaption.textContent = m.iterative
      ? t('watch.stack', { count: total })
      : t(ids.length < total ? 'watch.open-first' : 'watch.open-all', { algorithm: label(m.algorithm), shown: ids.length,
        count: total });
    const rows = ui.openBody.rows;
    while (rows.length < ids.length) {
      const row = ui.openBody.insertRow();
      row.innerHTML = '<td></td><td><button type="button" class="link"></button></td><td></td><td></td><td></td><td></td>';
    }
    while (rows.length > ids.length) ui.openBody.deleteRow(-1);
    ids.forEach((id, i) => {
      const cells = rows[i].cells;
      cells[0].textContent = i + 1;
      const button = cells[1].firstChild;
      button.dataset.node = id;
      button.textContent = `${m.side[id] ? '◂ ' : ''}${id}`;
      button.setAttribute('aria-label', t(m.bidirectional ? `watch.node-${m.side[id] ? 'backward' : 'forward'}` : 'watch.node-id', { id }));
      cells[2].textContent = m.names[id] ?? MISSING;
      cells[3].textContent = m.g[id];
      cells[4].textContent = fmt(m.h[id]);
      cells[5].textContent = fmt(m.f[id]);
      rows[i].classList.toggle('next', id === m.next);
    });
  }

  #renderDetails() {
    const m = this.#model;
    const id = this.#selected >= 0 ? this.#selected : this.#focusNode();
    if (id === undefined || id < 0) {
      this.ui.details.textContent = '';
      return;
    }
    const look = id === m.next ? NEXT_STYLE : STATUS_STYLE[m.status[id]];
    const what = t(this.#selected >= 0 ? 'watch.selected' : id === m.next ? 'watch.next' : 'watch.last');
    const node = t(m.bidirectional ? `watch.node-${m.side[id] ? 'backward' : 'forward'}` : 'watch.node-id', { id });
    const text = t('watch.detail', { what, node, look: t(look ? look.name : 'watch.not-generated'), g: m.g[id],
      h: fmt(m.h[id]), f: fmt(m.f[id]) })
      + (m.expansion[id] && m.expanded >= m.expansion[id] ? t('watch.expansion', { n: m.expansion[id] }) : '')
      + (m.names[id] ? t('watch.move-named', { move: m.names[id] }) : '') + t('watch.full-stop');
    const board = m.boards[id].split('/').join('\n');
    const key = `${text}|${board}`;
    if (this.ui.details.dataset.key === key) return;
    this.ui.details.dataset.key = key;
    this.ui.details.innerHTML = '<p class="watch-detail-text"></p><pre class="watch-detail-board"></pre>';
    this.ui.details.firstChild.textContent = text;
    this.ui.details.lastChild.textContent = board;
  }

  // ---- lessons -------------------------------------------------------------------------------------------------

  #showLesson(id) {
    const lesson = this.lessons.find(l => l.id === id) ?? null;
    this.#lesson = lesson;
    this.ui.lessonBox.hidden = !lesson;
    if (!lesson) return;
    this.ui.lessonText.textContent = inLanguage(lesson.text);
    this.ui.lessonBody.innerHTML = lesson.methods.map((method, i) => `<tr>
      <th scope="row">${methodName(method.algorithm, method.heuristic)}</th>
      <td>${method.moves}</td>
      <td>${formatCount(method.expanded)}</td><td data-solved="${i}">–</td>
      <td>${method.expanded <= catalogue.maxSteps ? `<button type="button" data-method="${i}">${t('watch.watch')}</button>`
        : `<span class="muted">${t('watch.too-many')}</span>`}</td></tr>`).join('');
    this.onLesson(lesson);
    this.#controls();
  }

  async #watchLessonMethod(index) {
    const { algorithm, heuristic } = this.#lesson.methods[index];
    this.onMethod(algorithm, heuristic);
    await this.start({ method: { algorithm, heuristic } });
  }

  // Run solve for each of the lesson's methods: the numbers the engine really reports, beside the expected ones.
  async #checkLesson() {
    const lesson = this.#lesson;
    if (!lesson || this.#running) return;
    this.#running = true;
    this.#cancelled = false;
    this.#controls();
    this.onBusy();
    try {
      for (const [i, method] of lesson.methods.entries()) {
        if (this.#cancelled) return;
        const cell = this.ui.lessonBody.querySelector(`[data-solved="${i}"]`);
        cell.textContent = t('watch.solving');
        const { algorithm, heuristic } = method;
        const answer = await this.solver.solve({ puzzle: lesson.puzzle, board: lesson.board, algorithm, heuristic });
        if (this.#lesson !== lesson) return;
        cell.textContent = this.#cancelled ? t('watch.lesson-cancelled') : answer.ok
          ? t('watch.lesson-result', { moves: t('result.moves-count', { count: answer.length }),
            count: answer.stats.expanded }) : errorText(answer.error);
        // an iterative method lists each iteration's bound and the nodes it expands (in the last, up to the goal)
        const iterations = answer.ok ? answer.stats.iterations ?? [] : [];
        if (iterations.length) {
          cell.append(document.createElement('br'), Object.assign(document.createElement('span'), {
            className: 'muted', textContent: t('watch.by-bound', {
              list: iterations.map(({ bound, expanded }) => `${bound}: ${formatCount(expanded)}`).join(', ') }) }));
        }
      }
    } finally {
      this.#running = false;
      this.#controls();
      this.onBusy();
    }
  }
}

const fmt = value => (Number.isInteger(value) ? String(value) : value.toFixed(1));
