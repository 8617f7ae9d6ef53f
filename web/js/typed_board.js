// The typed position and goal of a sliding puzzle (the Edit form): read, checked, and every problem said at its
// field (aria-invalid) and in one message.
//
//   const typed = new TypedBoard({ form, board, goal, error }, { onTyped: ({ board, goal }) => {} });
//   typed.show(board, goal);   // the fields show the board on the page (the goal only when it is not the usual one)

import { BoardError, defaultGoal, formatBoard, parseBoard, sameCells } from './sliding.js';
import { t } from './i18n.js';

export class TypedBoard {
  constructor(fields, { onTyped }) {
    this.fields = fields;
    fields.form.addEventListener('submit', event => {
      event.preventDefault();
      const typed = readTyped(fields);
      if (typed) onTyped(typed);
    });
  }

  show(board, goal) {
    this.fields.board.value = formatBoard(board.cells, board.cols);
    this.fields.goal.value = sameCells(goal, defaultGoal(board.rows, board.cols)) ? '' : formatBoard(goal, board.cols);
  }
}

/** {board, goal: cells} when both fields are valid (an empty goal: the usual one), else null (the problem said). */
function readTyped({ board: boardField, goal: goalField, error }) {
  const read = (input, what) => {
    try {
      const board = parseBoard(input.value);
      input.removeAttribute('aria-invalid');
      return board;
    } catch (problem) {
      if (!(problem instanceof BoardError)) throw problem;
      input.setAttribute('aria-invalid', 'true');
      error.textContent = t('edit.invalid', { what: t(what), problem: problem.message });
      return null;
    }
  };
  goalField.removeAttribute('aria-invalid');
  const board = read(boardField, 'edit.the-position');
  if (!board) return null;
  let goal = defaultGoal(board.rows, board.cols);
  if (goalField.value.trim()) {
    const given = read(goalField, 'edit.the-goal');
    if (!given) return null;
    if (given.rows !== board.rows || given.cols !== board.cols) {
      goalField.setAttribute('aria-invalid', 'true');
      error.textContent = t('edit.shapes', { rows: board.rows, cols: board.cols, goalRows: given.rows, goalCols: given.cols });
      return null;
    }
    goal = given.cells;
  }
  error.textContent = '';
  return { board, goal };
}
