// The quick solver in the app: when it is offered, how its request is made, and how its answer is labelled. Its
// solutions are not necessarily shortest, so they are always shown beside the best lower bound, never as optimal.

import { plural } from './format.js';

export const QUICK_OFFER_S = 5;  // a search running this long offers the quick solver
const OPTIMAL_REACH_CELLS = 16;  // beyond the 15-puzzle, optimal search is out of reach in seconds: offer it at once

export const offerAtOnce = board => board.cells.length > OPTIMAL_REACH_CELLS;

/** Whether the quick solver can answer a solve request: it solves sliding boards only. */
export const quickApplies = request => (request.puzzle ?? 'sliding') === 'sliding';

/** The quick solver's request for a solve request: the `auto` heuristic gives the best lower bound at hand. */
export const quickRequest = request => ({ ...request, algorithm: 'quick', heuristic: 'auto' });

/** The result's headline: "31 moves (optimal)", "47 moves (not necessarily shortest)" (greedy, weighted A*), or for
 * the quick solver "212 moves (quick: not necessarily shortest; the shortest needs at least 88)". */
export function lengthText(answer) {
  const moves = `${answer.length} ${plural(answer.length, 'move')}`;
  if (answer.optimal) return `${moves} (optimal)`;
  if (answer.lower_bound === undefined) return `${moves} (not necessarily shortest)`;  // greedy, weighted A*
  if (answer.lower_bound === answer.length) return `${moves} (quick solver; shortest, as it meets the lower bound)`;
  return `${moves} (quick: not necessarily shortest; the shortest needs at least ${answer.lower_bound})`;
}
