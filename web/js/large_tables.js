// The larger pattern databases the page offers as a download (the engine names the set and its files per board
// shape: describe().download_tables; the site lists each file's size in pdb/files.json). A line under the method
// picker offers them on a board they serve, with their size; once chosen (remembered in this browser) every solve
// request names the set ("tables"), so that auto uses it and the table loader fetches its files; the service worker
// keeps them for offline use. Going back to the standard tables also names its set, so the large tables, still in the
// worker's memory, are left alone.
//
//   const large = new LargeTables({ line, text, button }, { tables, request });  // request(): the solve request
//   large.setCatalogue(catalogue);   // once the solver is up: the set offered
//   large.show(board);               // the board shown ({rows, cols}; null for a token puzzle): offer, in use, hidden
//   large.setEnabled(idle);          // the download waits while the solver is busy
//   large.choose(request)            // the request, naming the table set chosen

import { fact, t } from './i18n.js';

const STORED = 'slidelab.tables';
const STANDARD = 'pdb';

function stored() {
  try { return localStorage.getItem(STORED); } catch { return null; }  // storage may be off: the standard tables
}

function store(name) {
  try { localStorage.setItem(STORED, name); } catch { /* not remembered past this page */ }
}

export class LargeTables {
  #set = null;       // {name, files: {shape: [file names]}, label}: the set offered, once the catalogue is known
  #chosen = stored();
  #sizes = null;     // promise of {file name: bytes}
  #loading = null;   // AbortController of the download in flight
  #board = null;
  #enabled = false;

  constructor({ line, text, button }, { tables, request, base = document.baseURI }) {
    Object.assign(this, { line, text, button, tables, request, base });
    button.addEventListener('click', () => (this.inUse ? this.#useStandard() : this.#download()));
  }

  /** Whether the large set is chosen and serves the board shown. */
  get inUse() {
    return this.#set !== null && this.#chosen === this.#set.name && this.#files() !== null;
  }

  setCatalogue(catalogue) {
    const set = catalogue.download_tables;
    const label = catalogue.heuristics.find(entry => entry.name === set?.name)?.label;
    this.#set = set ? { ...set, label: fact(`heuristic.${set.name}.label`, label ?? set.name) } : null;
    this.show(this.#board);
  }

  /** The request with the table set chosen: the large one, or the standard one. */
  choose(request) {
    return { ...request, tables: this.#set !== null && this.#chosen === this.#set.name ? this.#set.name : STANDARD };
  }

  setEnabled(enabled) {
    this.#enabled = enabled;
    this.button.disabled = !enabled || this.#loading !== null;
  }

  async show(board) {
    this.#board = board;
    const files = this.#files();
    this.line.hidden = files === null;
    if (files === null || this.#loading) return;
    const name = this.#set.label;
    const mb = await this.#megabytes(files);
    if (board !== this.#board) return;  // another board was shown meanwhile
    this.text.textContent = this.inUse ? t('tables.large-in-use', { name, mb }) : t('tables.large-offer', { name });
    this.button.textContent = this.inUse ? t('tables.large-stop') : t('tables.large-download', { mb });
    this.line.dataset.state = this.inUse ? 'in-use' : 'offered';
    this.setEnabled(this.#enabled);
  }

  // The set's files for the board shown, or null when it has none (or is not known yet).
  #files() {
    const board = this.#board;
    return (board && this.#set?.files[`${board.rows}x${board.cols}`]) ?? null;
  }

  async #megabytes(files) {
    this.#sizes ??= fetch(new URL('pdb/files.json', this.base)).then(answer => (answer.ok ? answer.json() : {}))
      .then(index => index.files ?? {}).catch(() => ({}));
    const sizes = await this.#sizes;
    const bytes = files.reduce((sum, file) => sum + (sizes[file] ?? 0), 0);
    return bytes ? (bytes / 1e6).toFixed(1) : '?';
  }

  // Fetch the set's files into the worker now (the service worker keeps them), then use them.
  async #download() {
    this.#loading = new AbortController();
    this.setEnabled(this.#enabled);
    this.line.dataset.state = 'loading';
    const request = { ...this.request(), algorithm: 'idastar', heuristic: 'auto', tables: this.#set.name };
    const outcome = await this.tables.load(request, {
      onText: text => { this.text.textContent = text; }, signal: this.#loading.signal,
    });
    this.#loading = null;
    if (outcome?.ok) {
      this.#chosen = this.#set.name;
      store(this.#chosen);
      await this.show(this.#board);
    } else {
      await this.show(this.#board);
      this.text.textContent = t('tables.large-failed', { problem: outcome?.message ?? '' });
      this.line.dataset.state = 'failed';
    }
  }

  #useStandard() {
    this.#chosen = STANDARD;
    store(STANDARD);
    this.show(this.#board);
  }
}
