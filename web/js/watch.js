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
// (lessons.json) whose position the page sets; onChange asks for the link to be written again.

import { formatCount, plural } from './format.js';
import { NEXT_STYLE, STATUS_STYLE, TreeView } from './tree_view.js';
import { GOAL, OPEN, PATH, STATUS_COUNT, TraceModel } from './trace_model.js';

const OPEN_ROWS = 12;        // rows of the open list shown: the ones the search takes next
const FRAME_BUDGET_MS = 8;   // at full speed, the time a frame may spend stepping
const SPEEDS = [['1', 1], ['2', 2], ['5', 5], ['10', 10], ['30', 30], ['100', 100], ['full', Infinity]];
const DEFAULT_SPEED = '5';

/** One sentence per algorithm: the rule it expands by. */
export const RULES = {
  bfs: 'Breadth-first search expands the oldest open node first (a first-in, first-out queue), so it finishes '
    + 'each depth before the next: the first path to the goal is a shortest one.',
  bidirectional: 'Bidirectional search grows breadth-first layers from the start and from the goal in turn, and '
    + 'stops where the two sides meet.',
  iddfs: 'Iterative deepening searches depth-first down to a depth bound, then starts again with the bound one '
    + 'deeper: the memory of a depth-first search, the shortest path of breadth-first.',
  idastar: 'IDA* searches depth-first and prunes every node whose f = g + h is over the bound; the next iteration\'s '
    + 'bound is the least f it pruned.',
  astar: 'A* expands the open node with the least f = g + h (moves made plus the estimate; ties: the smaller h, '
    + 'then the older): with an estimate that never overestimates, its path is a shortest one.',
  greedy: 'Greedy best-first search expands the open node with the least estimate h, ignoring the moves made: it '
    + 'heads for the goal, but its path is not necessarily the shortest.',
  weighted: 'Weighted A* expands the open node with the least f = g + W × h: W over 1 trusts the estimate more, '
    + 'for fewer expansions and a path at most W times the shortest.',
};

/** Ready-made lessons from the source material (lessons.json, which tests/test_watch_lessons.py checks against the
 * engine): a position, methods, and the numbers a student should find. */
const LESSONS = fetch(new URL('./lessons.json', import.meta.url)).then(answer => answer.json()).catch(() => []);

// The engine's facts, from its catalogue (api.describe(), setCatalogue): how a sentence names each algorithm and
// heuristic, whether an algorithm takes a heuristic, weighted A*'s default W, and a trace's limits.
const catalogue = { labels: {}, informed: new Set(), weight: null, maxSteps: Infinity, maxNodes: Infinity };
const label = name => catalogue.labels[name] ?? name;
const methodName = (algorithm, heuristic) => (catalogue.informed.has(algorithm)
  ? `${label(algorithm)}, ${label(heuristic)}` : label(algorithm));

export class Watch {
  #model = null;
  #pending = null;  // a link's trace step, traced once the solver is ready (startPending)
  #playing = false;
  #frame = 0;
  #last = 0;
  #carry = 0;
  #running = false;  // a trace or a lesson's solve is in flight
  lessons = [];      // the lessons, once lessons.json has arrived
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
      <p class="muted intro">Plays the search of the method chosen under Solver on the position on the board, node
        by node: the search tree, its open list and counters. Keys in this panel: <kbd>S</kbd> step,
        <kbd>B</kbd> step back, <kbd>N</kbd> next iteration, <kbd>E</kbd> to the end, <kbd>P</kbd> play or pause,
        <kbd>Home</kbd> to the start; in the tree, arrows move between nodes, <kbd>Shift</kbd>+arrows pan,
        <kbd>+</kbd>/<kbd>-</kbd> zoom.</p>
      <div class="actions watch-setup">
        <button type="button" class="primary watch-start" disabled>Watch the search</button>
        <label class="field watch-weight-field" hidden>Weight W
          <input class="watch-weight" type="number" min="1" max="10" step="0.5"></label>
        <label class="field">Lesson <select class="watch-lesson">
          <option value="">Choose a lesson…</option>
        </select></label>
      </div>
      <div class="watch-lesson-box" hidden>
        <p class="watch-lesson-text"></p>
        <div class="table-scroll"><table class="watch-lesson-table">
          <caption class="visually-hidden">The lesson's methods and the numbers to find</caption>
          <thead><tr><th scope="col">Method</th><th scope="col">Moves</th><th scope="col">Closed (expected)</th>
            <th scope="col">Solver says</th><th scope="col"><span class="visually-hidden">Watch</span></th></tr></thead>
          <tbody></tbody></table></div>
        <button type="button" class="watch-check" disabled>Count with the solver</button>
      </div>
      <p class="method watch-rule"></p>
      <p class="message watch-message" aria-live="polite"></p>
      <div class="watch-body" hidden>
        <div class="player watch-controls" role="toolbar" aria-label="Trace controls">
          <button type="button" class="watch-first" aria-keyshortcuts="Home">Start</button>
          <button type="button" class="watch-back" aria-keyshortcuts="B">Step back</button>
          <button type="button" class="primary watch-play" aria-keyshortcuts="P">Play</button>
          <button type="button" class="watch-step" aria-keyshortcuts="S">Step</button>
          <button type="button" class="watch-iteration" aria-keyshortcuts="N" hidden>Next iteration</button>
          <button type="button" class="watch-end" aria-keyshortcuts="E">Run to the end</button>
          <label class="field">Speed <select class="watch-speed">
            ${SPEEDS.map(([v]) => `<option value="${v}"${v === DEFAULT_SPEED ? ' selected' : ''}>${
              v === 'full' ? 'full speed' : `${v} per second`}</option>`).join('')}
          </select></label>
          <span class="muted watch-position" aria-live="off"></span>
        </div>
        <dl class="watch-counters"></dl>
        <div class="watch-main">
          <div class="watch-tree">
            <canvas class="watch-canvas" tabindex="0" role="img" aria-describedby="watch-details"></canvas>
            <div class="watch-zoom">
              <button type="button" class="icon watch-zoom-in" aria-label="Zoom in">+</button>
              <button type="button" class="icon watch-zoom-out" aria-label="Zoom out">−</button>
              <button type="button" class="watch-fit">Whole tree</button>
              <button type="button" class="watch-center">Current node</button>
              <label class="watch-follow-field"><input type="checkbox" class="watch-follow" checked> Follow</label>
            </div>
            <ul class="watch-legend" aria-label="Legend"></ul>
          </div>
          <div class="watch-side">
            <div class="watch-details" id="watch-details"></div>
            <p class="visually-hidden watch-announce" aria-live="polite"></p>
            <div class="table-scroll"><table class="watch-open">
              <caption></caption>
              <thead><tr><th scope="col">#</th><th scope="col">Node</th><th scope="col">Move</th>
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
      .map(s => `<li><span class="watch-key" data-color="${s.color}" aria-hidden="true">${s.mark}</span>${s.name}</li>`)
      .join('');
    for (const key of ui.legend.querySelectorAll('.watch-key')) key.style.setProperty('--key', `var(${key.dataset.color})`);
    ui.start.addEventListener('click', () => (this.#running ? this.cancel() : this.start()));
    ui.weight.addEventListener('change', () => {
      if (this.#model && this.#method.weight !== this.weight) this.clear('the weight changed');
      this.onChange();
    });
    ui.first.addEventListener('click', () => this.#goto(0));
    ui.back.addEventListener('click', () => this.#goto(this.#model.unit - 1));
    ui.step.addEventListener('click', () => this.#goto(this.#model.unit + 1));
    ui.iteration.addEventListener('click', () => this.#goto(this.#model.nextIterationUnit()));
    ui.end.addEventListener('click', () => this.#goto(this.#model.units));
    ui.play.addEventListener('click', () => this.#toggle());
    ui.lesson.addEventListener('change', () => this.#showLesson(ui.lesson.value));
    LESSONS.then(lessons => {
      this.lessons = lessons;
      ui.lesson.append(...lessons.map(l => new Option(l.title, l.id)));
    });
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
  setCatalogue({ algorithms, heuristics, trace }) {
    for (const entry of [...algorithms, ...heuristics]) catalogue.labels[entry.name] = entry.label;
    catalogue.informed = new Set(algorithms.filter(a => a.uses_heuristic).map(a => a.name));
    catalogue.weight = algorithms.find(a => Number.isFinite(a.default_weight))?.default_weight ?? null;  // None arrives as undefined
    catalogue.maxSteps = trace.max_steps;
    catalogue.maxNodes = trace.max_nodes;
    if (this.ui.weight.value === '' && catalogue.weight !== null) this.ui.weight.value = String(catalogue.weight);
  }

  /** The chosen method (maybe) changed: say its rule, offer the weight for weighted A*; a trace of another method is
   * closed, so that the link never names one method and shows another's trace. */
  setMethod(algorithm, heuristic) {
    const traced = this.#method;
    if (this.#model && (traced.algorithm !== algorithm || traced.heuristic !== heuristic)) {
      this.clear('the method changed');
    }
    this.ui.rule.textContent = RULES[algorithm] ?? 'This method cannot be traced: choose another one under Solver.';
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
    this.#say(reason ? `The trace was closed: ${reason}.` : '');
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
      this.#say('The trace was cancelled.');
      return false;
    }
    if (!answer.ok) {
      this.#say(`The search could not be traced: ${answer.error.message}.`, 'error');
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
      this.#say(`This trace has ${formatCount(this.#model.units)} steps, not ${formatCount(unit)}: showing the end.`,
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
    this.#say('Tracing the search…');
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
    this.#say('Tracing the search…');
    return this.solver.trace(request, event => {
      if (event.type === 'progress' && !this.#cancelled) {
        this.#say(`Tracing the search: ${formatCount(event.expanded)} ${plural(event.expanded, 'expansion')}…`);
      }
    });
  }

  #describe(answer, tablesFailed) {
    const used = answer.heuristic_used ? ` (${label(answer.heuristic_used)})` : '';
    const title = `${methodName(answer.algorithm, answer.heuristic)}${used}${
      answer.weight ? ` (W = ${answer.weight})` : ''}`;
    const end = answer.truncated
      ? `${answer.note} (a trace records at most ${formatCount(catalogue.maxSteps)} expansions and `
        + `${formatCount(catalogue.maxNodes)} nodes; Solve counts the whole search)`
      : `${formatCount(answer.expanded)} ${plural(answer.expanded, 'expansion')}, a path of ${answer.length} `
        + `${plural(answer.length, 'move')}${answer.optimal ? ' (shortest)' : ' (not necessarily shortest)'}${
          answer.longer_by ? `, ${answer.longer_by} longer than the shortest (${answer.shortest_length})` : ''}`;
    let counts = '';  // Solve's IDA* and IDDFS on sliding boards are faster kernels than the search traced
    if (this.#model.iterative && answer.puzzle === 'sliding') {
      counts = answer.algorithm === 'iddfs' || answer.heuristic === 'zero'
        ? ' Solve counts far fewer expansions: without an estimate its faster search never expands the nodes at the '
          + 'bound (all their children go over it), which this trace expands in every iteration.'
        : ' Solve runs a faster kernel of this search, whose count differs by a few nodes in the last iteration.';
    }
    const tables = tablesFailed ? ` The pattern databases could not be loaded (${tablesFailed}), so this search ran `
      + 'without them.' : '';
    this.#say(`Traced ${title}: ${end}.${counts}${tables}`);
    this.ui.canvas.setAttribute('aria-label', `Search tree of ${title}, ${formatCount(this.#model.size)} nodes. `
      + 'Arrow keys move between nodes; the selected node is described beside the tree.');
  }

  #say(text, tone = '') {
    this.ui.message.textContent = text;
    this.ui.message.className = `message watch-message ${tone}`.trim();
  }

  #controls() {
    const ui = this.ui;
    const traceable = RULES[this.algorithm] !== undefined;
    ui.start.disabled = this.#running ? false : !this.#enabled || !traceable;
    ui.start.textContent = this.#running ? 'Cancel' : 'Watch the search';
    ui.start.classList.toggle('primary', !this.#running);
    ui.check.disabled = !this.#enabled || this.#running;
    for (const button of ui.lessonBody.querySelectorAll('button')) button.disabled = !this.#enabled || this.#running;
    const m = this.#model;
    if (!m) return;
    ui.first.disabled = ui.back.disabled = m.unit === 0;
    ui.step.disabled = ui.end.disabled = ui.iteration.disabled = m.finished;
    ui.play.disabled = m.finished && !this.#playing;
    ui.play.textContent = this.#playing ? 'Pause' : 'Play';
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
    ui.position.textContent = `Step ${formatCount(m.unit)} of ${formatCount(m.units)}`;
    this.#renderCounters();
    this.#renderOpen();
    this.#renderDetails();
    this.#controls();
  }

  #renderCounters() {
    const m = this.#model;
    const count = (status, side = null) => (side === null
      ? m.counts[status] + m.counts[STATUS_COUNT + status] : m.counts[side * STATUS_COUNT + status]);
    const items = [['Expanded (closed)', formatCount(m.expanded), 'expanded']];
    if (m.iterative) {
      items.push(['Bound', m.bound ?? '–', 'bound'], ['Iteration', m.iteration + 1 || '–', 'iteration'],
        ['Expanded this iteration', formatCount(m.expandedInIteration), 'expanded-iteration'],
        ['Path length', m.pathEnd >= 0 ? m.g[m.pathEnd] : '–', 'path']);
    } else if (m.bidirectional) {
      const side = m.sideStep;
      items.push(['Open (forward)', formatCount(count(OPEN, 0)), 'open-forward'],
        ['Open (backward)', formatCount(count(OPEN, 1)), 'open-backward'],
        ['Side', side ? `${side.side}, depth ${side.depth}` : '–', 'side']);
    } else {
      items.push(['Open', formatCount(count(OPEN)), 'open']);
    }
    if (m.finished) {
      const found = count(PATH) + count(GOAL);
      items.push(['Path', m.answer.length == null ? 'not reached' : `${m.answer.length} ${plural(m.answer.length, 'move')}`,
        'length']);
      if (!found && m.answer.truncated) items.push(['Trace', 'truncated', 'truncated']);
    }
    const html = items.map(([label, value, key]) => `<div data-stat="${key}"><dt>${label}</dt><dd>${value}</dd></div>`)
      .join('');
    if (html !== this.ui.counters.innerHTML) this.ui.counters.innerHTML = html;
  }

  #renderOpen() {
    const m = this.#model;
    const ui = this.ui;
    const { ids, total } = m.openList(OPEN_ROWS);
    ui.openCaption.textContent = m.iterative
      ? `The path the search is on (its stack), root first: ${total} ${plural(total, 'node')}`
      : `Open list in the order ${label(m.algorithm)} takes it: ${ids.length < total ? `first ${ids.length} of ` : ''}`
        + `${formatCount(total)}`;
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
      button.setAttribute('aria-label', `node ${id}${m.bidirectional ? (m.side[id] ? ', backward' : ', forward') : ''}`);
      cells[2].textContent = m.names[id] ?? '–';
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
    const what = this.#selected >= 0 ? 'Selected node' : id === m.next ? 'Next to expand' : 'Last expanded';
    const text = `${what}: node ${id}${m.bidirectional ? ` (${m.side[id] ? 'backward' : 'forward'})` : ''}, `
      + `${look ? look.name : 'not generated yet'}; g ${m.g[id]}, h ${fmt(m.h[id])}, f ${fmt(m.f[id])}`
      + `${m.expansion[id] && m.expanded >= m.expansion[id] ? `, expansion #${m.expansion[id]}` : ''}`
      + `${m.names[id] ? `, move ${m.names[id]}` : ''}.`;
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
    this.ui.lessonText.textContent = lesson.text;
    // iterative methods list each iteration's bound and the nodes it expands (in the last one, up to the goal)
    const perIteration = ({ bounds, iterations }) => (bounds ? `<br><span class="muted">by bound: ${
      bounds.map((bound, i) => `${bound}: ${formatCount(iterations[i])}`).join(', ')}</span>` : '');
    this.ui.lessonBody.innerHTML = lesson.methods.map((method, i) => `<tr>
      <th scope="row">${methodName(method.algorithm, method.heuristic)}${perIteration(method)}</th>
      <td>${method.moves}</td>
      <td>${formatCount(method.expanded)}</td><td data-solved="${i}">–</td>
      <td>${method.expanded <= catalogue.maxSteps ? `<button type="button" data-method="${i}">Watch</button>`
        : '<span class="muted">too many to watch</span>'}</td></tr>`).join('');
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
        cell.textContent = 'solving…';
        const { algorithm, heuristic } = method;
        const answer = await this.solver.solve({ puzzle: lesson.puzzle, board: lesson.board, algorithm, heuristic });
        if (this.#lesson !== lesson) return;
        cell.textContent = this.#cancelled ? 'cancelled' : answer.ok
          ? `${answer.length} moves, ${formatCount(answer.stats.expanded)} closed` : answer.error.message;
      }
    } finally {
      this.#running = false;
      this.#controls();
      this.onBusy();
    }
  }
}

const fmt = value => (Number.isInteger(value) ? String(value) : value.toFixed(1));
