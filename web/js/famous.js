// Famous positions, one click away: each with its puzzle, board (board text), goal (null: the puzzle's default), its
// known shortest length and where it comes from. tests/test_famous.py checks every length with the engine.

import { KORF_100, KORF_GOAL } from './korf100.js';
import { t } from './i18n.js';

// Titles, groups and sources are catalogue keys (i18n.js); a title's {n} and {length} come from the entry.
const EIGHT_PUZZLE = 'famous.source-8', EXPLORED = 'famous.source-3x4', KNIGHTS = 'famous.source-knights';

export const FAMOUS = [
  { group: 'famous.group-8', title: 'famous.8-first', puzzle: 'sliding',
    board: '8 6 7/2 5 4/3 0 1', goal: null, length: 31, source: EIGHT_PUZZLE },
  { group: 'famous.group-8', title: 'famous.8-second', puzzle: 'sliding',
    board: '6 4 7/8 5 0/3 2 1', goal: null, length: 31, source: EIGHT_PUZZLE },
  { group: 'famous.group-8', title: 'famous.assignment', puzzle: 'sliding',
    board: '7 8 2/6 3 4/5 0 1', goal: null, length: 25,
    source: 'famous.source-assignment' },
  { group: 'famous.group-3x4', title: 'famous.3x4', puzzle: 'sliding',
    board: '0 3 2 1/8 7 6 5/4 11 10 9', goal: null, length: 53, source: EXPLORED },
  { group: 'famous.group-knights', title: 'famous.knights', n: 1, puzzle: 'knights',
    board: '..B/BW./.BW/W..', goal: null, length: 22, source: KNIGHTS },
  { group: 'famous.group-knights', title: 'famous.knights', n: 2, puzzle: 'knights',
    board: 'B../.WB/WB./..W', goal: null, length: 22, source: KNIGHTS },
  { group: 'famous.group-knights', title: 'famous.knights', n: 3, puzzle: 'knights',
    board: 'B.B/.W./.B./W.W', goal: null, length: 22, source: KNIGHTS },
  { group: 'famous.group-knights', title: 'famous.guarini', puzzle: 'guarini',
    board: 'B.B/.../W.W', goal: null, length: 16,
    source: 'famous.source-guarini' },
  ...KORF_100.map(({ number, length, tiles }) => ({
    group: 'famous.group-korf', title: 'famous.korf', n: number, puzzle: 'sliding',
    board: [0, 4, 8, 12].map(i => tiles.slice(i, i + 4).join(' ')).join('/'), goal: KORF_GOAL, length,
    source: 'famous.source-korf',
  })),
];

/** An entry's title in the page's language: "Korf #12, 48 moves". */
export const titleOf = entry => t(entry.title, { n: entry.n, length: entry.length });

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
        groups.get(entry.group).label = t(entry.group);
        select.append(groups.get(entry.group));
      }
      groups.get(entry.group).append(new Option(titleOf(entry), String(index)));
    });
    select.addEventListener('change', () => {
      const index = select.value;
      const entry = FAMOUS[Number(index)];
      if (!entry) return;
      onOpen(entry);
      select.value = index;
      note.textContent = t('famous.note', { title: titleOf(entry), count: entry.length, source: t(entry.source) });
      note.hidden = false;
    });
  }

  clear() {
    this.note.hidden = true;
    this.select.value = '';
  }
}
