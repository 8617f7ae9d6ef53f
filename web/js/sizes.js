// The sliding board's Size selector and Shuffle: the usual sizes (and a typed board's own, added while it is shown),
// and a shuffle to any position on small boards or by random moves on larger ones.
//
//   const sizes = new SizeControls({ size, scramble, shuffle }, {
//     current: () => ({ board, goal }),          // the position shown
//     onBoard: (board, goal, note) => {},        // a new size (solved, with a note to shuffle) or a shuffled board
//   });
//   sizes.show(board, previous);      // the selector follows the board; a new number of cells picks the shuffle

import { defaultGoal, randomPosition, scramble } from './sliding.js';
import { t } from './i18n.js';

const SIZES = ['2x2', '2x3', '3x3', '3x4', '4x4', '4x5', '5x5'];
const RANDOM_UP_TO = 12;  // boards up to this many cells shuffle to any position; larger ones by moves
const MOVES = '40';       // the shuffle of larger boards: this many random moves

export class SizeControls {
  constructor({ size, scramble: how, shuffle }, { current, onBoard }) {
    Object.assign(this, { size, how });
    for (const shape of SIZES) size.append(new Option(shape, shape));
    size.addEventListener('change', () => {
      const [rows, cols] = size.value.split('x').map(Number);
      const goal = defaultGoal(rows, cols);
      onBoard({ rows, cols, cells: goal.slice() }, goal, t('puzzle.press-shuffle'));
    });
    shuffle.addEventListener('click', () => {
      const { board, goal } = current();
      onBoard({ ...board, cells: this.#shuffled(board, goal) }, goal, '');
    });
  }

  /** The selector shows the board's size; a board of another number of cells than `previous` gets its shuffle. */
  show(board, previous) {
    const shape = `${board.rows}x${board.cols}`;
    this.size.querySelector('option[data-custom]')?.remove();
    if (!SIZES.includes(shape)) {
      const option = new Option(t('puzzle.typed-size', { shape }), shape);
      option.dataset.custom = '';
      this.size.append(option);
    }
    this.size.value = shape;
    if (board.cells.length !== previous?.cells.length) {  // the page starts on 3x3 with 'any position'
      this.how.value = board.cells.length <= RANDOM_UP_TO ? 'random' : MOVES;
    }
  }

  /** The cells of `board` shuffled: any position solvable for `goal`, or random moves away from it. */
  #shuffled({ rows, cols }, goal) {
    const how = this.how.value;
    return how === 'random' ? randomPosition(rows, cols, goal) : scramble(rows, cols, goal, Number(how));
  }
}
