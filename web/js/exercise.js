// Exercises: open one (shipped with Slide Lab, a .toml file, or a link), answer its tasks, write its heuristics,
// check your work and hand it in as a file; and, for a teacher, grade the class's files (grading.js).
//
//   const exercises = new Exercises(element, { solver, onBoard });
//   exercises.setCatalogue(await solver.describe());   // the shipped list (describe().exercises); opens what waits
//   exercises.take(location.hash);  // #exercise=ID-or-URL or #exercise-text=TOML (percent-encoded) opens here: ''
//
// The engine reads the exercise (course/page.py): this module only shows what it answered. A student's work
// (answers, code, name) is kept in this browser per exercise (localStorage, by the SHA-256 of its student form), and
// so is the exercise open last, as its student form (no answer in it), so both survive a reload and going offline;
// "Clear my work" forgets it. Links carry the student form too. "Hand in" saves one file; nothing is uploaded.
// "Check my work" grades it here, telling what the exercise lets it (its check_my_work; grader.js).

import { Solver } from './bridge.js';
import { ExerciseEditor, textLink } from './exercise_editor.js';
import { Grader } from './grader.js';
import { GradeTable } from './grading.js';
import { errorText, escapeHTML, inLanguage, t, tHTML, withCode } from './i18n.js';
import { saveFile } from './save_file.js';

const OPEN = 'slidelab-exercise-open';  // localStorage: {toml: its student form, url?} of the exercise open last
const WORK = 'slidelab-exercise-work:';  // + sha256: {student, answers, code}


export class Exercises {
  exercise = null;  // the exercise shown: open's answer ({id, title, tasks, toml, student_text, sha256, ...})
  running = false;  // checking the work
  #pending = null;  // a request to open once the solver is ready
  #drawing = 0;  // the timer of a draw of positions asked for as the student types
  #ready = false;

  constructor(element, { solver, onBoard = () => {} }) {
    Object.assign(this, { element, solver, onBoard });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted intro">${t('exercise.intro')}</p>
      <div class="toolbar">
        <label class="field">${t('exercise.choose')} <select class="exercise-choose">
          <option value="">${t('exercise.none')}</option></select></label>
        <label class="field file-field">${t('exercise.open-file')}
          <input type="file" class="exercise-file" accept=".toml,text/plain"></label>
      </div>
      <p class="message exercise-message" aria-live="polite"></p>
      <article class="exercise-body" hidden>
        <h3 class="exercise-title"></h3>
        <p class="exercise-text"></p>
        <div class="exercise-positions actions"></div>
        <ol class="exercise-tasks"></ol>
        <div class="toolbar exercise-actions">
          <label class="field">${t('exercise.student')} <input type="text" class="exercise-student"
            autocomplete="name" maxlength="200"></label>
          <label class="field">${t('exercise.student-id')} <input type="text" class="exercise-student-id"
            autocomplete="off" maxlength="100"></label>
          <button type="button" class="primary exercise-check">${t('exercise.check')}</button>
          <button type="button" class="exercise-hand-in">${t('exercise.hand-in')}</button>
          <button type="button" class="exercise-link">${t('exercise.link')}</button>
          <button type="button" class="danger exercise-clear">${t('exercise.clear')}</button>
        </div>
        <p class="message exercise-status" aria-live="polite"></p>
        <div class="exercise-result"></div>
      </article>
      <details class="grade-view"><summary>${t('grade.heading')}</summary><div class="grade-body"></div></details>
      <details class="write-view"><summary>${t('editor.heading')}</summary><div class="editor-body"></div></details>`);
    const $ = name => element.querySelector(`.exercise-${name}`);
    this.ui = { choose: $('choose'), file: $('file'), message: $('message'), body: $('body'), title: $('title'),
      text: $('text'), positions: $('positions'), tasks: $('tasks'), student: $('student'),
      studentId: $('student-id'), check: $('check'),
      handIn: $('hand-in'), link: $('link'), clear: $('clear'), status: $('status'), result: $('result') };
    this.table = new GradeTable(element.querySelector('.grade-body'), { makeGrader: () => this.makeGrader(), solver,
      exercise: () => this.exercise, onBoard: board => this.#showBoard(board) });
    this.editor = new ExerciseEditor(element.querySelector('.editor-body'), { solver,
      preview: text => {
        this.#open({ text });
        this.element.scrollIntoView({ block: 'start' });
      } });
    element.querySelector('.write-view').addEventListener('toggle', event => {
      if (event.target.open && this.#ready) this.editor.check();
    });
    this.ui.choose.addEventListener('change', () => this.ui.choose.value && this.#open({ id: this.ui.choose.value }));
    this.ui.file.addEventListener('change', () => this.#openFile());
    this.ui.tasks.addEventListener('input', () => this.#save());
    for (const field of [this.ui.student, this.ui.studentId]) {
      field.addEventListener('input', () => {
        this.#save();
        this.#drawLater();
      });
    }
    this.ui.check.addEventListener('click', () => this.checkMine());
    this.ui.handIn.addEventListener('click', () => this.handIn());
    this.ui.link.addEventListener('click', () => this.#writeLink());
    this.ui.clear.addEventListener('click', () => this.clear());
    const stored = read(OPEN);
    if (stored?.toml) this.#pending = { request: { text: stored.toml }, url: stored.url };
    this.#enable();
  }

  /** Grading runs in workers of its own (grader.js): a grading worker, and a new one for each hand-in's code. */
  makeGrader() {
    return new Grader({ makeSolver: () => new Solver({ onStatus: () => {} }) });
  }

  /** Take a link's fragment: an exercise's (#exercise=..., #exercise-text=...) is opened here and '' is left for
   * the board; any other is left as it is. */
  take(hash) {
    if (!/^#exercise(-text)?=/.test(hash)) return hash;
    this.openLink(hash);
    return '';
  }

  /** Open the exercise a link names: a shipped one's id, a file on this site, or the TOML itself. */
  openLink(hash) {
    const [key, ...rest] = hash.slice(1).split('=');
    let value;
    try {
      value = decodeURIComponent(rest.join('='));
    } catch {
      this.#say(t('exercise.bad-link'), 'error');
      return;
    }
    if (key === 'exercise-text') this.#open({ text: value });
    else if (/^[a-z0-9][a-z0-9_-]*$/.test(value)) this.#open({ id: value });
    else this.#openUrl(value);
    this.element.scrollIntoView({ block: 'start' });
  }

  setCatalogue(catalogue) {
    const select = this.ui.choose;
    for (const { id, title } of catalogue.exercises ?? []) {
      if (![...select.options].some(option => option.value === id)) select.add(new Option(inLanguage(title), id));
    }
    this.#ready = true;
    this.#enable();
    if (this.#pending) {
      const { request, url } = this.#pending;
      this.#pending = null;
      this.#open(request, url);
    }
  }

  async #openUrl(address) {
    let url;
    try {
      url = new URL(address, document.baseURI);
    } catch {
      url = null;
    }
    if (!url || url.origin !== location.origin) {
      this.#say(t('exercise.other-site'), 'error');
      return;
    }
    try {
      const answer = await fetch(url);
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      this.#open({ text: await answer.text() }, url.href);
    } catch (error) {
      const stored = read(OPEN);  // offline: the copy kept when it was opened
      if (stored?.url === url.href) this.#open({ text: stored.toml }, url.href);
      else this.#say(t('exercise.not-fetched', { reason: String(error?.message ?? error) }), 'error');
    }
  }

  async #openFile() {
    const file = this.ui.file.files[0];
    if (!file) return;
    if (file.size > 200_000) {
      this.#say(t('exercise.too-large'), 'error');
      return;
    }
    this.#open({ text: await file.text() });
    this.ui.file.value = '';
  }

  async #open(request, url = undefined) {
    if (!this.#ready) {
      this.#pending = { request, url };
      this.#say(t('exercise.waiting'));
      return;
    }
    const answer = await this.solver.exercise('open', request);
    if (!answer.ok) {
      this.#say(t('exercise.refused', { reason: errorText(answer.error) }), 'error');
      return;
    }
    this.exercise = answer;
    write(OPEN, { toml: answer.student_text, url });
    this.#say('');
    this.#show();
  }

  #show() {
    const ex = this.exercise;
    const { ui } = this;
    ui.choose.value = [...ui.choose.options].some(o => o.value === ex.id) ? ex.id : '';
    ui.body.hidden = false;
    ui.title.textContent = t('exercise.title', { title: inLanguage(ex.title), count: ex.max_points });
    ui.text.innerHTML = withCode(inLanguage(ex.text));
    this.#showPositions();
    ui.tasks.replaceChildren(...ex.tasks.map(task => this.#taskItem(task)));
    ui.result.replaceChildren();
    ui.status.textContent = '';
    // work kept before exercises had student forms is under the digest of the text opened: taken over
    const work = read(WORK + ex.sha256) ?? read(WORK + ex.text_sha256) ?? {};
    ui.student.value = work.student ?? read(`${WORK}student`) ?? '';
    ui.studentId.value = work.student_id ?? read(`${WORK}student-id`) ?? '';
    this.#draw();
    for (const [id, value] of Object.entries(work.answers ?? {})) this.#setAnswer(id, value);
    for (const [id, code] of Object.entries(work.code ?? {})) {
      const area = ui.tasks.querySelector(`textarea[data-task="${CSS.escape(id)}"]`);
      if (area) area.value = code;
    }
    this.table.setExercise(ex);
    this.#enable();
  }

  /** The exercise's positions, each a button that puts it on the board; one drawn per student waits for a name. */
  #showPositions() {
    const ex = this.exercise;
    const buttons = Object.entries(ex.positions).map(([name, board]) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = t('exercise.show-position', { name, board });
      button.addEventListener('click', () => this.#showBoard(board));
      return button;
    });
    const waiting = (ex.drawn ?? []).filter(name => !(name in ex.positions)).map(name => {
      const note = document.createElement('span');
      note.className = 'muted';
      note.textContent = t('exercise.drawn-wait', { name });
      return note;
    });
    this.ui.positions.replaceChildren(...buttons, ...waiting);
  }

  /** The positions drawn for the student named (an exercise may draw each student's own): asked of the engine. */
  async #draw() {
    const ex = this.exercise;
    if (!ex?.drawn?.length) return;
    const student = this.ui.student.value.trim();
    const studentId = this.ui.studentId.value.trim();
    const answer = student || studentId
      ? await this.solver.exercise('open', { text: ex.toml, student, student_id: studentId }) : null;
    if (this.exercise !== ex) return;  // another exercise was opened meanwhile
    if (answer && !answer.ok) {
      this.#status(errorText(answer.error), 'error');
      return;
    }
    ex.positions = answer ? answer.positions : Object.fromEntries(Object.entries(ex.positions)
      .filter(([name]) => !ex.drawn.includes(name)));
    this.#showPositions();
  }

  #drawLater() {
    clearTimeout(this.#drawing);
    this.#drawing = setTimeout(() => this.#draw(), 400);
  }

  #taskItem(task) {
    const item = document.createElement('li');
    item.className = `exercise-task task-${task.kind}`;
    const heading = document.createElement('h4');
    heading.innerHTML = withCode(t('exercise.task-title', { title: inLanguage(task.title), count: task.points }));
    item.append(heading);
    if (inLanguage(task.text)) {
      const text = document.createElement('p');
      text.innerHTML = withCode(inLanguage(task.text));
      item.append(text);
    }
    const id = `exercise-${task.id}`;
    if (task.kind === 'measure') {
      item.insertAdjacentHTML('beforeend', `<label class="field">${t('exercise.your-answer')}
        <input type="text" inputmode="decimal" data-task="${escapeHTML(task.id)}" id="${escapeHTML(id)}"></label>`);
    } else if (task.kind === 'predict') {
      const choices = task.choices.map(choice => `<label class="choice"><input type="radio"
        name="${escapeHTML(id)}" value="${escapeHTML(choice.id)}" data-task="${escapeHTML(task.id)}"> ${escapeHTML(inLanguage(choice.text))}
        </label>`).join('');
      item.insertAdjacentHTML('beforeend', `<fieldset><legend>${t('exercise.choose-one')}</legend>${choices}
        </fieldset>`);
    } else {
      const criteria = task.criteria.map(c => `<li>${escapeHTML(criterionText(c))}</li>`).join('');
      item.insertAdjacentHTML('beforeend', `<p class="muted">${tHTML('exercise.criteria', { name: task.function })}</p>
        <ul class="exercise-criteria">${criteria}</ul>
        <textarea class="exercise-code" spellcheck="false" wrap="off" rows="10" data-task="${escapeHTML(task.id)}"
          aria-label="${escapeHTML(t('exercise.code', { title: inLanguage(task.title) }))}"></textarea>`);
      item.querySelector('textarea').value = task.starter ?? '';
    }
    return item;
  }

  #setAnswer(id, value) {
    for (const input of this.ui.tasks.querySelectorAll(`input[data-task="${CSS.escape(id)}"]`)) {
      if (input.type === 'radio') input.checked = input.value === value;
      else input.value = String(value);
    }
  }

  /** The work in the panel: {answers, code} by task id (a number where a measure answer reads as one). */
  work() {
    const answers = {};
    const code = {};
    for (const input of this.ui.tasks.querySelectorAll('[data-task]')) {
      const id = input.dataset.task;
      if (input.tagName === 'TEXTAREA') {
        if (input.value.trim()) code[id] = input.value;
      } else if (input.type === 'radio') {
        if (input.checked) answers[id] = input.value;
      } else if (input.value.trim()) {
        const number = Number(input.value.trim().replace(/[,_\s]/g, ''));
        answers[id] = Number.isFinite(number) ? number : input.value.trim();
      }
    }
    return { answers, code };
  }

  #save() {
    if (!this.exercise) return;
    const student = this.ui.student.value;
    const studentId = this.ui.studentId.value;
    write(WORK + this.exercise.sha256, { student, student_id: studentId, ...this.work() });
    write(`${WORK}student`, student);
    write(`${WORK}student-id`, studentId);
  }

  /** Forget the work on this exercise (kept in this browser), after asking. */
  clear() {
    if (!this.exercise || !confirm(t('exercise.clear-confirm'))) return;
    try { localStorage.removeItem(WORK + this.exercise.sha256); } catch { /* storage off */ }
    this.#show();
    this.#say(t('exercise.cleared'));
  }

  async #handInFile() {
    const answer = await this.solver.exercise('hand_in', { text: this.exercise.toml,
      student: this.ui.student.value, student_id: this.ui.studentId.value.trim() || null, ...this.work() });
    if (!answer.ok) {
      this.#status(errorText(answer.error), 'error');
      if (answer.error.reason === 'no_student') this.ui.student.focus();
      return null;
    }
    return answer;
  }

  /** Save the work as a hand-in file (downloaded: nothing is uploaded). */
  async handIn() {
    const made = await this.#handInFile();
    if (!made) return;
    saveFile(made.name, made.file, 'application/json');
    this.#status(t('exercise.handed-in', { name: made.name }));
  }

  /** Grade this work here, as the teacher's page will (in workers of their own). */
  async checkMine() {
    const made = await this.#handInFile();
    if (!made) return;
    this.#busy(true);
    this.#status(t('exercise.checking'));
    try {
      const [row] = await this.makeGrader().grade(this.exercise.toml, [{ name: made.name, text: made.file }],
        { student: true });
      const said = row.total === null ? t('exercise.checked-nothing') : t('exercise.checked', { total: row.total,
        max: row.max });
      this.#status(row.ok ? said : row.error, row.ok ? '' : 'error');
      this.ui.result.replaceChildren(this.table.details(row));
    } finally {
      this.#busy(false);
    }
  }

  #writeLink() {
    const ex = this.exercise;
    const shipped = [...this.ui.choose.options].some(o => o.value === ex.id);
    const stored = read(OPEN);
    let hash;
    if (stored?.url) hash = `#exercise=${encodeURIComponent(stored.url)}`;
    else if (shipped) hash = `#exercise=${ex.id}`;
    else hash = textLink(ex.student_text);
    if (!hash) {
      this.#status(t('exercise.no-link'), 'error');
      return;
    }
    const url = new URL(hash, location.href).href;
    navigator.clipboard?.writeText(url).then(() => this.#status(t('exercise.link-copied', { url })),
      () => this.#status(url));
  }

  #showBoard(board) {
    const ex = this.exercise;
    this.onBoard({ puzzle: ex.puzzle, board, goal: ex.goal });
  }

  #busy(busy) {
    this.running = busy;
    this.#enable();
  }

  #enable() {
    const off = !this.#ready || this.running;
    for (const button of [this.ui.check, this.ui.handIn]) button.disabled = off;
    this.ui.choose.disabled = this.ui.file.disabled = !this.#ready || this.running;
  }

  #say(text, tone = '') {
    this.ui.message.textContent = text;
    this.ui.message.className = `message exercise-message ${tone}`.trim();
  }

  #status(text, tone = '') {
    this.ui.status.textContent = text;
    this.ui.status.className = `message exercise-status ${tone}`.trim();
  }
}

function criterionText(criterion) {
  if (criterion.check === 'nodes') {
    return t('exercise.criterion-nodes', { algorithm: criterion.algorithm, n: criterion.at_most,
      positions: criterion.positions.join(', '), count: criterion.points });
  }
  return t(`exercise.criterion-${criterion.check}`, { reference: criterion.reference ?? '', count: criterion.points });
}

function read(key) {
  try { return JSON.parse(localStorage.getItem(key)); } catch { return null; }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage off or full: the work stays shown */ }
}

