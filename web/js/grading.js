// Grade hand-ins: a teacher's view of the exercise open in the page. Drop (or choose) the class's hand-in files; each
// is graded afresh in this page's workers (grader.js), only when Grade is clicked, and its row comes as it is graded:
// student, file, each task's points, total, and the first problem with its failing board. The table sorts by any
// column and downloads as the CSV `slidelab grade --csv` writes (the engine writes both).
//
//   const table = new GradeTable(element, { makeGrader, solver, exercise: () => openExercise, onBoard });
//   table.setExercise(exercise);   // the exercise open (its answer from course/page.py's open)
//   table.details(row);            // one row's tasks and criteria as an element (a student's own check)

import { errorText, escapeHTML, formatCount, inLanguage, t } from './i18n.js';
import { saveFile } from './save_file.js';

const MAX_FILE = 2_000_000;  // bytes of a hand-in read

export class GradeTable {
  rows = [];
  files = [];
  #sort = { key: 'student', up: true };
  #grader = null;

  constructor(element, { makeGrader, solver, exercise, onBoard = () => {} }) {
    Object.assign(this, { element, makeGrader, solver, exercise, onBoard });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted grade-intro">${t('grade.intro')}</p>
      <p class="note grade-no-key" hidden>${t('grade.no-key')}</p>
      <div class="grade-drop" tabindex="-1">
        <label class="field file-field">${t('grade.files')}
          <input type="file" class="grade-files" multiple accept=".json,application/json"></label>
        <span class="muted grade-chosen"></span>
      </div>
      <div class="toolbar">
        <button type="button" class="primary grade-run" disabled>${t('grade.run')}</button>
        <button type="button" class="danger grade-cancel" hidden>${t('solver.cancel')}</button>
        <button type="button" class="grade-csv" disabled>${t('grade.csv')}</button>
      </div>
      <p class="message grade-progress" aria-live="polite"></p>
      <div class="table-scroll"><table class="grade-table" hidden><thead></thead><tbody></tbody></table></div>`);
    const $ = name => element.querySelector(`.grade-${name}`);
    this.ui = { drop: $('drop'), input: $('files'), chosen: $('chosen'), run: $('run'), cancel: $('cancel'),
      csv: $('csv'), progress: $('progress'), table: $('table'), noKey: $('no-key') };
    this.ui.input.addEventListener('change', () => this.#take([...this.ui.input.files]));
    // files dropped anywhere on the view are taken (never opened by the browser in place of the page)
    element.addEventListener('dragover', event => {
      event.preventDefault();
      this.ui.drop.classList.add('dragging');
    });
    element.addEventListener('dragleave', () => this.ui.drop.classList.remove('dragging'));
    element.addEventListener('drop', event => {
      event.preventDefault();
      this.ui.drop.classList.remove('dragging');
      if (!this.running) this.#take([...event.dataTransfer.files]);
    });
    this.ui.run.addEventListener('click', () => this.run());
    this.ui.cancel.addEventListener('click', () => this.#grader?.cancel());
    this.ui.csv.addEventListener('click', () => this.downloadCsv());
    this.ui.table.tHead.addEventListener('click', event => {
      const key = event.target.closest('button[data-key]')?.dataset.key;
      if (!key) return;
      this.#sort = { key, up: this.#sort.key === key ? !this.#sort.up : true };
      this.#render();
    });
  }

  /** A new exercise open: its rows cleared; a student form (no answers) said to be one. */
  setExercise(exercise) {
    this.ui.noKey.hidden = exercise?.key !== false;
    this.rows = [];
    this.#render();
    this.#enable();
  }

  async #take(files) {
    this.files = [];
    for (const file of files) {
      // a file too large to be a hand-in is a row of its own, never read whole
      const text = file.size > MAX_FILE ? '' : await file.text();
      this.files.push({ name: file.name, text });
    }
    this.ui.chosen.textContent = t('grade.chosen', { count: this.files.length });
    this.#enable();
  }

  /** Grade the files chosen against the exercise open. */
  async run() {
    const exercise = this.exercise();
    if (!exercise || !this.files.length) return;
    this.rows = [];
    this.#render();
    this.#grader = this.makeGrader();
    this.running = true;
    this.#enable();
    const total = this.files.length;
    const began = performance.now();
    this.ui.progress.textContent = t('grade.progress', { done: 0, total });
    try {
      await this.#grader.grade(exercise.toml, this.files, {
        onRow: row => {
          this.rows.push(row);
          this.#render();
          this.ui.progress.textContent = t('grade.progress', { done: this.rows.length, total });
        },
      });
      const seconds = ((performance.now() - began) / 1000).toFixed(1);
      this.ui.progress.textContent = t('grade.done', { done: this.rows.length, total, seconds });
    } finally {
      this.#grader = null;
      this.running = false;
      this.#enable();
    }
  }

  async downloadCsv() {
    const exercise = this.exercise();
    const answer = await this.solver.exercise('table', { text: exercise.toml, rows: this.#sorted() });
    if (!answer.ok) {
      this.ui.progress.textContent = errorText(answer.error);
      return;
    }
    saveFile(`${exercise.id}-grades.csv`, answer.csv, 'text/csv');
  }

  #sorted() {
    const { key, up } = this.#sort;
    const value = row => {
      if (key === 'student') return (row.student ?? '').toLowerCase();
      if (key === 'file') return row.file;
      if (key === 'total') return row.total;
      return row.ok ? row.tasks[key]?.points ?? -1 : -1;
    };
    return [...this.rows].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      const order = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
      return (up ? order : -order) || a.file.localeCompare(b.file);
    });
  }

  #render() {
    const exercise = this.exercise();
    const { table } = this.ui;
    table.hidden = !this.rows.length;
    if (!exercise || !this.rows.length) return;
    // a task's column is headed by its title, cut to one short line: the whole on hover
    const columns = [['student', t('grade.student')], ['file', t('grade.file')],
      ...exercise.tasks.map(task => [task.id, inLanguage(task.title)]), ['total', t('grade.total')]];
    table.tHead.innerHTML = `<tr>${columns.map(([key, label]) => {
      const sorted = this.#sort.key === key ? (this.#sort.up ? 'ascending' : 'descending') : 'none';
      return `<th scope="col" aria-sort="${sorted}"><button type="button" data-key="${escapeHTML(key)}"
        title="${escapeHTML(label)}">${escapeHTML(label)}</button></th>`;
    }).join('')}<th scope="col">${t('grade.problem')}</th></tr>`;
    table.tBodies[0].replaceChildren(...this.#sorted().map(row => this.#row(exercise, row)));
  }

  #row(exercise, row) {
    const tr = document.createElement('tr');
    const cell = (text, className = '') => {
      const td = document.createElement('td');
      td.textContent = text;
      if (className) td.className = className;
      tr.append(td);
      return td;
    };
    cell(row.student ?? '–', 'name student');
    cell(row.file, 'name');
    for (const task of exercise.tasks) cell(row.ok ? formatCount(row.tasks[task.id].points) : '–', 'number');
    cell(`${formatCount(row.total)} / ${formatCount(row.max ?? exercise.max_points)}`, 'number');
    const said = row.ok ? row.problem : row.error;
    const problem = cell('', 'problem');
    const text = document.createElement('span');
    text.className = 'elided';  // three lines at most: the whole on hover
    text.textContent = said;
    text.title = said;
    problem.append(text);
    const board = row.ok && Object.values(row.tasks).find(r => r.points < r.max && r.board)?.board;
    if (board) problem.append(' ', this.#boardButton(board));
    return tr;
  }

  #boardButton(board) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = t('grade.show-board');
    button.addEventListener('click', () => this.onBoard(board));
    return button;
  }

  /** One row's tasks, each criterion with its points and what was found (a student's own check of their work). */
  details(row) {
    const list = document.createElement('ul');
    list.className = 'grade-details';
    if (!row.ok) return list;
    const exercise = this.exercise();
    for (const task of exercise.tasks) {
      const result = row.tasks[task.id];
      const item = document.createElement('li');
      item.textContent = result.status === 'ungraded' ? t('grade.task-ungraded', { task: task.id,
        detail: result.detail }) : t('grade.task-line', { task: task.id, points: result.points, max: result.max,
        detail: result.detail });
      if (result.explanation) item.append(' ', inLanguage(result.explanation));
      if (result.board) item.append(' ', this.#boardButton(result.board));
      if (result.criteria?.length) {
        const criteria = document.createElement('ul');
        for (const c of result.criteria) {
          const li = document.createElement('li');
          li.textContent = t('grade.task-line', { task: c.check, points: c.points, max: c.max, detail: c.detail });
          criteria.append(li);
        }
        item.append(criteria);
      }
      list.append(item);
    }
    return list;
  }

  #enable() {
    const { ui } = this;
    ui.run.disabled = this.running || !this.files.length || !this.exercise();
    ui.cancel.hidden = !this.running;
    ui.csv.disabled = this.running || !this.rows.length;
    ui.input.disabled = this.running;
  }
}

