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

export const DEFAULTS = { algorithms: 'idastar', heuristics: 'auto' };  // every puzzle kind has these

const ALGORITHM_NOTES = {
  bfs: 'Breadth-first search looks at every position 1 move away, then 2, then 3… so the first time it meets the goal '
    + 'it has a shortest solution. It has to remember every position it has seen.',
  bidirectional: 'Two breadth-first searches, one from the position and one from the goal, each taking a step in '
    + 'turn until they meet in the middle. Shortest solutions, with far fewer positions remembered than one-way BFS.',
  iddfs: 'Iterative deepening: tries every path of up to 1 move, then up to 3, 5… (depth-first, remembering only '
    + 'the current path). No heuristic, so it is slow beyond about 20 moves, but it needs almost no memory.',
  idastar: 'IDA*: iterative deepening guided by a heuristic. Each round follows only the paths whose length so far '
    + 'plus the heuristic’s estimate stays within a bound, and raises the bound until the goal is reached. Shortest '
    + 'solutions, memory only for the current path.',
  astar: 'A*: always continues from the open position with the least length so far plus estimate. Shortest '
    + 'solutions, usually the fewest positions looked at, but it remembers every position it has seen.',
  greedy: 'Greedy best-first search: always continues from the open position whose estimate says it is closest to '
    + 'the goal, ignoring the length so far. Often fast, but a misleading estimate can lead it down a long path: '
    + 'not necessarily shortest.',
  weighted: 'Weighted A*: like A*, but the estimate counts twice (length so far plus 2 × estimate), so it heads for '
    + 'the goal more eagerly. Far fewer positions looked at; its solutions are at most twice the shortest.',
  quick: 'Not a shortest-solution search: it puts the tiles in place a row or column at a time and solves the last '
    + '3x3 optimally. An answer at once on any board, shown with the best lower bound known.',
};

const HEURISTIC_NOTES = {
  zero: 'No estimate at all (always 0): A* becomes uniform-cost search and IDA* plain iterative deepening.',
  misplaced: 'How many tiles are not on their goal cell: each needs at least one move. Weak, but never too high.',
  manhattan: 'For each tile, how many rows and columns it is from its goal cell, added up: a tile moves one cell at '
    + 'a time.',
  linear_conflict: 'Manhattan distance plus 2 moves for each tile that has to step out of its goal row or column to '
    + 'let another tile past it.',
  walking_distance: 'Counts the up/down moves a simplified puzzle needs (tiles only known by their goal row) and '
    + 'the same for left/right. Much stronger than Manhattan; boards up to 4x4.',
  pdb: 'Pattern databases: precomputed tables of the exact moves each group of tiles needs, added up. The strongest '
    + 'here; the tables are loaded once.',
  auto: 'The strongest estimate available for this board: pattern databases when their tables are at hand, else '
    + 'walking distance, else linear conflict. The result says which was used.',
};

const TOKEN_HEURISTIC_NOTES = {
  nearest: 'For each piece, the fewest moves it needs to reach the nearest goal square of its kind (as if the other '
    + 'pieces were not there), added up.',
  matching: 'Like the nearest goal square, but two pieces of a kind cannot both end on one square: each kind’s pieces '
    + 'are paired with its goal squares so that their moves add up to the least (an optimal assignment).',
  auto: 'The strongest estimate for token puzzles, the optimal assignment: each kind’s pieces paired with its goal '
    + 'squares so that their moves (other pieces ignored) add up to the least. The result says which was used.',
};

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
    const keep = (kind, name, what) => {
      if (this.offers(kind, name)) return name;
      dropped.push(`the ${what} '${name}'`);
      return DEFAULTS[kind];
    };
    return { algorithm: keep('algorithms', algorithm, 'algorithm'), heuristic: keep('heuristics', heuristic, 'heuristic'),
      dropped };
  }

  /** A short name for a pair, e.g. 'IDA* · Manhattan distance' (the heuristic left out when none is used). */
  title(algorithm, heuristic) {
    const a = this.#find('algorithms', algorithm);
    if (a && !a.uses_heuristic) return a.title;
    return `${a?.title ?? algorithm} · ${this.#find('heuristics', heuristic)?.title ?? heuristic}`;
  }

  /** The catalogue's entries of a kind (algorithms or heuristics) that apply to a puzzle kind ([] until it is known). */
  #items(kind, puzzle = this.#puzzle) {
    return (this.#catalogue?.[kind] ?? []).filter(item => item.puzzles.includes(puzzle));
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
        select.replaceChildren(...items.map(item => new Option(item.title, item.name)));
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
    const notes = [ALGORITHM_NOTES[this.algorithm] ?? algorithm?.description];
    const heuristicNotes = this.#puzzle === 'tokens' ? TOKEN_HEURISTIC_NOTES : {};
    if (uses) notes.push(heuristicNotes[this.heuristic] ?? HEURISTIC_NOTES[this.heuristic] ?? heuristic?.description);
    this.note.textContent = notes.filter(Boolean).join(' ');
  }
}
