// Famous positions, one click away: each with its puzzle, board (board text), goal (null: the puzzle's default), its
// known shortest length and where it comes from. tests/test_famous.py checks every length with the engine.

import { KORF_100, KORF_GOAL } from './korf100.js';

const EIGHT_PUZZLE = 'Reinefeld, "Complete solution of the eight-puzzle", IJCAI 1993: the two positions 31 moves '
  + 'from the goal, the most there are';
const EXPLORED = "Every 3x4 position explored breadth-first (this site's Explore, data/explored.json): the 18 "
  + 'farthest are 53 moves away';
const KNIGHTS = "Every arrangement of the knight exchange explored from its goal (this site's Explore, or slidelab "
  + 'explore): the three farthest from the goal, 22 moves';

export const FAMOUS = [
  { group: 'The 8-puzzle', title: '8-puzzle, 31 moves (the first of two)', puzzle: 'sliding',
    board: '8 6 7/2 5 4/3 0 1', goal: null, length: 31, source: EIGHT_PUZZLE },
  { group: 'The 8-puzzle', title: '8-puzzle, 31 moves (the second of two)', puzzle: 'sliding',
    board: '6 4 7/8 5 0/3 2 1', goal: null, length: 31, source: EIGHT_PUZZLE },
  { group: 'The 8-puzzle', title: 'The A* assignment position, 25 moves', puzzle: 'sliding',
    board: '7 8 2/6 3 4/5 0 1', goal: null, length: 25,
    source: 'The start position of a widely set A* programming assignment (8-puzzle)' },
  { group: 'The 3x4 puzzle', title: 'Hardest 3x4, 53 moves', puzzle: 'sliding',
    board: '0 3 2 1/8 7 6 5/4 11 10 9', goal: null, length: 53, source: EXPLORED },
  { group: 'Knights', title: 'Knight exchange, 22 moves (1 of 3)', puzzle: 'knights',
    board: '..B/BW./.BW/W..', goal: null, length: 22, source: KNIGHTS },
  { group: 'Knights', title: 'Knight exchange, 22 moves (2 of 3)', puzzle: 'knights',
    board: 'B../.WB/WB./..W', goal: null, length: 22, source: KNIGHTS },
  { group: 'Knights', title: 'Knight exchange, 22 moves (3 of 3)', puzzle: 'knights',
    board: 'B.B/.W./.B./W.W', goal: null, length: 22, source: KNIGHTS },
  { group: 'Knights', title: "Guarini's problem, 16 moves", puzzle: 'guarini',
    board: 'B.B/.../W.W', goal: null, length: 16,
    source: "Paolo Guarini di Forli, 1512: swap two white and two black knights on a 3x3 board" },
  ...KORF_100.map(({ number, length, tiles }) => ({
    group: "Korf's 100 (15-puzzle)", title: `Korf #${number}, ${length} moves`, puzzle: 'sliding',
    board: [0, 4, 8, 12].map(i => tiles.slice(i, i + 4).join(' ')).join('/'), goal: KORF_GOAL, length,
    source: 'Korf, "Depth-first iterative-deepening", Artificial Intelligence 27 (1985), Table 1: 100 random '
      + '15-puzzle positions (goal with the blank at the top left); the pattern databases solve them in the '
      + 'browser, the hardest in minutes',
  })),
];

/** The famous positions' select and the note under it: `onOpen(entry)` puts the chosen one on the board, then the
 * note says where it comes from and the select shows it (so its arrow keys step through the list); clear() when
 * another position is set. */
export class FamousPicker {
  constructor({ select, note }, { onOpen }) {
    Object.assign(this, { select, note });
    const groups = new Map();
    FAMOUS.forEach((entry, index) => {
      if (!groups.has(entry.group)) {
        groups.set(entry.group, document.createElement('optgroup'));
        groups.get(entry.group).label = entry.group;
        select.append(groups.get(entry.group));
      }
      groups.get(entry.group).append(new Option(entry.title, String(index)));
    });
    select.addEventListener('change', () => {
      const index = select.value;
      const entry = FAMOUS[Number(index)];
      if (!entry) return;
      onOpen(entry);
      select.value = index;
      note.textContent = `${entry.title}: ${entry.length} moves at the fewest. Source: ${entry.source}.`;
      note.hidden = false;
    });
  }

  clear() {
    this.note.hidden = true;
    this.select.value = '';
  }
}
