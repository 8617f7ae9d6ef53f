// Write an exercise, for teachers: its TOML in a text box, read by the engine as you type (an error says its line and
// field: course/format.py), a preview as students see it (opened in the panel above), the answer key the engine
// computes, Download .toml, and Copy a student link (the student form: no answer in it). The draft is kept in this
// browser (it holds your answers: it is yours).
//
//   const editor = new ExerciseEditor(element, { solver, preview: text => exercises.openText(text) });

import { errorText, escapeHTML, inLanguage, t } from './i18n.js';
import { saveFile } from './save_file.js';

const DRAFT = 'slidelab-exercise-draft';  // localStorage: the TOML being written
const MAX_LINK_TEXT = 4000;  // characters of a student form a link may carry itself
const TEMPLATE = `format = 1
id = "my-exercise"
title = { en = "My exercise" }
check_my_work = "right_or_wrong"

[positions]
start = "1 2 3/4 0 6/7 5 8"

[[tasks]]
id = "length"
kind = "measure"
title = { en = "How many moves does the shortest solution of start take?" }
position = "start"
algorithm = "astar"
heuristic = "manhattan"
quantity = "length"
`;

export class ExerciseEditor {
  #timer = 0;
  #checked = null;  // the engine's last answer for the text as it is: open's (ok) or its error

  constructor(element, { solver, preview }) {
    Object.assign(this, { element, solver, preview });
    element.insertAdjacentHTML('beforeend', `
      <p class="muted">${t('editor.intro')}</p>
      <label class="field editor-field">${t('editor.text')}
        <textarea class="editor-text" spellcheck="false" wrap="off" rows="16"></textarea></label>
      <p class="message editor-status" aria-live="polite"></p>
      <div class="toolbar">
        <button type="button" class="editor-preview">${t('editor.preview')}</button>
        <button type="button" class="editor-key">${t('editor.key')}</button>
        <button type="button" class="editor-download">${t('editor.download')}</button>
        <button type="button" class="editor-link">${t('editor.link')}</button>
      </div>
      <div class="editor-answers"></div>`);
    const $ = name => element.querySelector(`.editor-${name}`);
    this.ui = { text: $('text'), status: $('status'), preview: $('preview'), key: $('key'),
      download: $('download'), link: $('link'), answers: $('answers') };
    this.ui.text.value = read() ?? TEMPLATE;
    this.ui.text.addEventListener('input', () => {
      write(this.ui.text.value);
      this.#checked = null;
      this.ui.answers.replaceChildren();
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.check(), 400);
    });
    this.ui.preview.addEventListener('click', () => this.#whenValid(() => this.preview(this.ui.text.value)));
    this.ui.key.addEventListener('click', () => this.#whenValid(() => this.showKey()));
    this.ui.download.addEventListener('click', () => this.#whenValid(answer =>
      saveFile(`${answer.id}.toml`, this.ui.text.value, 'application/toml')));
    this.ui.link.addEventListener('click', () => this.#whenValid(answer => this.#copyLink(answer)));
  }

  /** Read the text with the engine: the status says it is valid (its tasks and points), or what is wrong where. */
  async check() {
    const text = this.ui.text.value;
    const answer = await this.solver.exercise('open', { text });
    if (text !== this.ui.text.value) return null;  // typed on meanwhile: the next check says
    this.#checked = answer;
    if (answer.ok) {
      this.#say(t('editor.valid', { tasks: answer.tasks.length, count: answer.max_points }));
    } else {
      const line = answer.error.details?.line;
      const said = errorText(answer.error);
      this.#say(line ? t('editor.error-at', { line, error: said }) : said, 'error');
    }
    return answer;
  }

  async showKey() {
    const answer = await this.solver.exercise('key', { text: this.ui.text.value });
    if (!answer.ok) {
      this.#say(errorText(answer.error), 'error');
      return;
    }
    const checked = this.#checked;
    const items = checked.tasks.map(task => {
      const right = answer.key[task.id];
      const shown = Array.isArray(right) ? right.join('; ') : right?.error ?? String(right ?? '–');
      return `<li><strong>${escapeHTML(task.id)}</strong> (${escapeHTML(inLanguage(task.title))}):
        <span class="editor-answer">${escapeHTML(shown)}</span></li>`;
    });
    this.ui.answers.innerHTML = `<h4>${t('editor.key-heading')}</h4><ul>${items.join('')}</ul>`;
  }

  async #whenValid(then) {
    const answer = this.#checked ?? await this.check();
    if (answer?.ok) then(answer);
  }

  #copyLink(answer) {
    const hash = textLink(answer.student_text);
    if (!hash) {
      this.#say(t('exercise.no-link'), 'error');
      return;
    }
    const url = new URL(hash, location.href).href;
    navigator.clipboard?.writeText(url).then(() => this.#say(t('editor.link-copied', { url })),
      () => this.#say(url));
  }

  #say(text, tone = '') {
    this.ui.status.textContent = text;
    this.ui.status.className = `message editor-status ${tone}`.trim();
  }
}

/** The link fragment that carries an exercise's student form itself, or null when it is too long for a link. */
export function textLink(studentText) {
  return studentText.length <= MAX_LINK_TEXT ? `#exercise-text=${encodeURIComponent(studentText)}` : null;
}

function read() {
  try { return localStorage.getItem(DRAFT); } catch { return null; }
}

function write(text) {
  try { localStorage.setItem(DRAFT, text); } catch { /* storage off or full: the text stays shown */ }
}
