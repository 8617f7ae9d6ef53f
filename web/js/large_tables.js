// The larger pattern databases the page offers as a download. The engine names the sets, largest first, with their
// files per board shape, the memory a worker holds of them and, where measured, the time their first install takes
// (describe().download_tables); the site lists the files it serves, with their sizes, in pdb/files.json (the 7-8
// and 6-6-6-6 files only when it was built with them). A line under the method picker offers, on a board they
// serve, the largest set the device's memory holds (pool.js workersFitting; when a larger one is served but too
// large, it says so), with its size and, for a set that makes the board's shortest solutions reachable, what it
// gives (`tables.offer.NAME`); once chosen (remembered in this browser)
// every solve request names the set ("tables"), so that auto uses it and the table loader fetches its files; the
// service worker keeps them for offline use. Going back to the standard tables also names their set, so the large
// tables, still in the worker's memory, are left alone.
//
//   const large = new LargeTables({ line, text, button }, { tables, request, onChange });
//   // request(): the solve request; onChange(): the set in use changed (large.memoryMB)
//   large.setCatalogue(catalogue);   // once the solver is up: the sets offered
//   large.show(board);               // the board shown ({rows, cols}; null for a token puzzle): offer, in use, hidden
//   large.setEnabled(idle);          // the download waits while the solver is busy
//   large.choose(request)            // the request, naming the table set chosen

import { workersFitting } from './pool.js';
import { fact, has, t } from './i18n.js';

const STORED = 'slidelab.tables';
const STANDARD = 'pdb';

function stored() {
  try { return localStorage.getItem(STORED); } catch { return null; }  // storage may be off: the standard tables
}

function store(name) {
  try { localStorage.setItem(STORED, name); } catch { /* not remembered past this page */ }
}

const megabytes = bytes => (bytes ? (bytes / 1e6).toFixed(1) : '?');

export class LargeTables {
  #sets = [];        // [{name, files: {shape: [file names]}, memory_bytes, label}], largest first
  #chosen = stored();
  #served = null;    // {file name: bytes} the site serves, once pdb/files.json is read (null: it could not be)
  #index = null;     // promise of #served
  #loading = null;   // AbortController of the download in flight
  #board = null;
  #enabled = false;
  #offered = null;   // the set the button downloads

  constructor({ line, text, button }, { tables, request, onChange = () => {}, base = document.baseURI }) {
    Object.assign(this, { line, text, button, tables, request, onChange, base });
    button.addEventListener('click', () => (this.#offered ? this.#download(this.#offered) : this.#useStandard()));
  }

  /** The set in use: chosen, and served by the site (null: the standard tables). */
  get inUse() {
    return this.#sets.find(set => set.name === this.#chosen && this.#servesSome(set)) ?? null;
  }

  /** The memory (MB) a worker holds of the set in use (0 for the standard tables). */
  get memoryMB() {
    return (this.inUse?.memory_bytes ?? 0) / 1e6;
  }

  setCatalogue(catalogue) {
    this.#sets = (catalogue.download_tables ?? []).map(set => {
      const label = catalogue.heuristics.find(entry => entry.name === set.name)?.label;
      return { ...set, label: fact(`heuristic.${set.name}.label`, label ?? set.name) };
    });
    this.#read().then(() => this.onChange());
    this.show(this.#board);
  }

  /** The request with the table set chosen: the large one in use, or the standard one. */
  choose(request) {
    return { ...request, tables: this.inUse?.name ?? STANDARD };
  }

  setEnabled(enabled) {
    this.#enabled = enabled;
    this.button.disabled = !enabled || this.#loading !== null;
  }

  async show(board) {
    this.#board = board;
    await this.#read();
    if (board !== this.#board || this.#loading) return;  // another board was shown meanwhile, or a download runs
    const shape = board && `${board.rows}x${board.cols}`;
    const served = this.#sets.filter(set => shape && this.#serves(set, shape));
    const fitting = served.filter(set => workersFitting(set.memory_bytes / 1e6).fits >= 1);
    const using = served.find(set => set.name === this.inUse?.name) ?? null;
    const larger = fitting.find(set => !using || served.indexOf(set) < served.indexOf(using)) ?? null;
    const tooLarge = served.find(set => !fitting.includes(set) && (!larger || served.indexOf(set) < served.indexOf(larger)));
    this.line.hidden = served.length === 0;
    if (!served.length) return;
    this.#offered = larger;
    const parts = [];
    if (using) parts.push(t('tables.large-in-use', { name: using.label, mb: megabytes(this.#bytes(using, shape)) }));
    if (tooLarge) {
      const { memoryGB, workerMB } = workersFitting(tooLarge.memory_bytes / 1e6);
      parts.push(t('tables.large-too-big', { name: tooLarge.label, mb: workerMB, gb: memoryGB }));
    }
    if (larger) {
      const own = `tables.offer.${larger.name}`;  // a set that makes a board's optimal solutions reachable says so
      parts.push(!using && has(own) ? t(own, { name: larger.label, memory: Math.round(larger.memory_bytes / 1e6) })
        : t(using ? 'tables.large-better' : 'tables.large-offer', { name: larger.label }));
    }
    this.text.textContent = parts.join(' ');
    this.button.hidden = !larger && !using;
    if (larger) {
      const mb = megabytes(this.#bytes(larger, shape));
      this.button.textContent = larger.install_s ? t('tables.large-download-time', { mb,
        seconds: Math.round(larger.install_s) }) : t('tables.large-download', { mb });
    } else {
      this.button.textContent = t('tables.large-stop');
    }
    this.line.dataset.state = larger ? 'offered' : (using ? 'in-use' : 'too-large');
    this.line.dataset.offered = larger?.name ?? '';
    this.setEnabled(this.#enabled);
  }

  // Whether the site serves the set's files for a board shape. Where pdb/files.json could not be read (offline
  // before the service worker kept it), the set chosen is taken as served (its files were fetched, and are kept), and
  // so is the smallest set, which every site serves.
  #serves(set, shape) {
    const files = set.files[shape];
    if (!files) return false;
    if (this.#served === null) return set.name === this.#chosen || set === this.#sets.at(-1);
    return files.every(file => file in this.#served);
  }

  #servesSome(set) {
    return Object.keys(set.files).some(shape => this.#serves(set, shape));
  }

  #bytes(set, shape) {
    return set.files[shape].reduce((sum, file) => sum + (this.#served?.[file] ?? 0), 0);
  }

  // The files the site serves (pdb/files.json; none when it cannot be read).
  #read() {
    this.#index ??= fetch(new URL('pdb/files.json', this.base)).then(answer => (answer.ok ? answer.json() : null))
      .then(index => index?.files ?? null).catch(() => null)
      .then(files => { this.#served = files; });
    return this.#index;
  }

  // Fetch the set's files into the worker now (the service worker keeps them), then use them.
  async #download(set) {
    this.#loading = new AbortController();
    this.setEnabled(this.#enabled);
    this.line.dataset.state = 'loading';
    const request = { ...this.request(), algorithm: 'idastar', heuristic: 'auto', tables: set.name };
    const loading = this.#loading;
    const outcome = await this.tables.load(request, {
      onText: text => { this.text.textContent = text; }, signal: loading.signal,
    });
    loading.abort();  // a failed file's siblings may still be arriving: their progress is told no more
    this.#loading = null;
    if (outcome?.ok) {
      this.#chosen = set.name;
      store(this.#chosen);
      this.onChange();
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
    this.onChange();
    this.show(this.#board);
  }
}
