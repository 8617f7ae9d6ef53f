// The algorithm and heuristic selector, with a plain-language note on each choice.
//
//   const picker = new MethodPicker({ algorithm: select, heuristic: select, heuristicField, note, onChange });
//   picker.set('idastar', 'auto');            // before the catalogue is known: shows just these names
//   picker.setPuzzle('tokens');               // the puzzle kind: 'sliding' or 'tokens' (the lists and notes follow)
//   picker.setCatalogue(await solver.describe());  // fills the lists with what applies to the puzzle kind
//   picker.algorithm, picker.heuristic;       // the choice; onChange(algorithm, heuristic) when the user changes it
//
// The lists come from the engine's catalogue (api.describe(), whose algorithms and heuristics say which puzzle kinds
// they apply to); a choice that does not apply to the puzzle kind becomes the default, IDA* with auto. The notes here say the
// same things for a reader who has not met the algorithms before, and the catalogue's own description is used for
// anything not listed here.
import { fact, has, t } from './i18n.js';


export const DEFAULTS = { algorithms: 'idastar', heuristics: 'auto' };  // every puzzle kind has these

// The notes are the catalogue's note.algorithm.<name>, note.heuristic.<name> and, for token puzzles, note.tokens.<name>;
// names (the engine's titles) are algorithm.<name>.title and heuristic.<name>.title.
const titleOf = (kind, item) => fact(`${kind === 'algorithms' ? 'algorithm' : 'heuristic'}.${item.name}.title`, item.title);

export class MethodPicker {
  #catalogue = null;
  #puzzle = 'sliding';

  constructor({ algorithm, heuristic, heuristicField, note, onChange = () => {} }) {
    Object.assign(this, { algorithmSelect: algorithm, heuristicSelect: heuristic, heuristicField, note, onChange });
    for (const select of [algorithm, heuristic]) {
      select.addEventListener('change', () => {
        this.#show();
        this.onChange(this.algorithm, this.heuristic);
      });
    }
  }

  get algorithm() {
    return this.algorithmSelect.value;
  }

  get heuristic() {
    return this.heuristicSelect.value;
  }

  /** Whether the catalogue has arrived. */
  get ready() {
    return this.#catalogue !== null;
  }

  /** Whether the chosen algorithm uses a heuristic. */
  get usesHeuristic() {
    return this.usesHeuristicFor(this.algorithm);
  }

  /** Whether an algorithm uses a heuristic (before the catalogue is known: assume it does). */
  usesHeuristicFor(algorithm) {
    return this.#find('algorithms', algorithm)?.uses_heuristic ?? true;
  }

  /** Show this choice; names the catalogue does not know are kept as they are until setCatalogue checks them. */
  set(algorithm, heuristic) {
    for (const [select, name] of [[this.algorithmSelect, algorithm], [this.heuristicSelect, heuristic]]) {
      if (![...select.options].some(o => o.value === name)) select.append(new Option(name, name));
      select.value = name;
    }
    this.#show();
  }

  /** Fill the lists from api.describe(). */
  setCatalogue(catalogue) {
    this.#catalogue = catalogue;
    this.#fill();
  }

  /** The puzzle kind the lists are for: 'sliding' or 'tokens'. */
  setPuzzle(puzzle) {
    this.#puzzle = puzzle;
    this.#fill();
  }

  /** Whether an algorithm or heuristic (kind 'algorithms' or 'heuristics') applies to a puzzle kind (the current one
   * by default); before the catalogue is known any name passes: names are checked when it arrives. */
  offers(kind, name, puzzle = this.#puzzle) {
    return !this.#catalogue || this.#items(kind, puzzle).some(item => item.name === name);
  }

  /** The pair with each name the puzzle kind does not offer replaced by its default: {algorithm, heuristic,
   * dropped: what was replaced, as "the algorithm 'x'"}. */
  offered(algorithm, heuristic) {
    const dropped = [];
    const keep = (kind, name) => {
      if (this.offers(kind, name)) return name;
      dropped.push(t(`link.dropped-${kind}`, { name }));
      return DEFAULTS[kind];
    };
    return { algorithm: keep('algorithms', algorithm), heuristic: keep('heuristics', heuristic), dropped };
  }

  /** A short name for a pair, e.g. 'IDA* · Manhattan distance' (the heuristic left out when none is used). */
  title(algorithm, heuristic) {
    const a = this.#find('algorithms', algorithm);
    const h = this.#find('heuristics', heuristic);
    if (a && !a.uses_heuristic) return titleOf('algorithms', a);
    return `${a ? titleOf('algorithms', a) : algorithm} · ${h ? titleOf('heuristics', h) : heuristic}`;
  }

  /** How a sentence names a heuristic ('7-7-1 pattern databases'), or its name while the catalogue is unknown. */
  heuristicLabel(name) {
    const h = this.#find('heuristics', name);
    return fact(`heuristic.${name}.label`, h?.label ?? name.replaceAll('_', ' '));
  }

  /** The catalogue's entries of a kind (algorithms or heuristics) that apply to a puzzle kind and that the page can
   * run (not the command line's own, browser: false); [] until it is known. */
  #items(kind, puzzle = this.#puzzle) {
    return (this.#catalogue?.[kind] ?? []).filter(item => item.puzzles.includes(puzzle) && item.browser !== false);
  }

  #find(kind, name) {
    return this.#items(kind).find(item => item.name === name);
  }

  /** List what applies to the puzzle kind; a choice that does not apply becomes the default. */
  #fill() {
    if (this.#catalogue) {
      for (const [kind, select] of [['algorithms', this.algorithmSelect], ['heuristics', this.heuristicSelect]]) {
        const chosen = select.value;
        const items = this.#items(kind);
        select.replaceChildren(...items.map(item => new Option(titleOf(kind, item), item.name)));
        select.value = items.some(item => item.name === chosen) ? chosen : DEFAULTS[kind];
        select.disabled = false;
      }
    }
    this.#show();
  }

  #show() {
    const uses = this.usesHeuristic;
    this.heuristicField.hidden = !uses;
    this.heuristicSelect.disabled = !uses || !this.#catalogue;
    const algorithm = this.#find('algorithms', this.algorithm);
    const heuristic = this.#find('heuristics', this.heuristic);
    const notes = [fact(`note.algorithm.${this.algorithm}`, algorithm?.description)];
    const tokenNote = `note.tokens.${this.heuristic}`;
    if (uses) {
      notes.push(this.#puzzle === 'tokens' && has(tokenNote) ? t(tokenNote)
        : fact(`note.heuristic.${this.heuristic}`, heuristic?.description));
    }
    this.note.textContent = notes.filter(Boolean).join(' ');
  }
}
