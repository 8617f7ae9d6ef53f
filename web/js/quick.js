// The quick solver in the app: when it is offered, how its request is made, and how its answer is labelled. Its
// solutions are not necessarily shortest, so they are always shown beside the best lower bound, never as optimal.

import { t } from './i18n.js';

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
  const moves = t('result.moves-count', { count: answer.length });
  if (answer.optimal) return t('result.optimal', { moves });
  if (answer.lower_bound === undefined) return t('result.not-shortest', { moves });  // greedy, weighted A*
  if (answer.lower_bound === answer.length) return t('result.quick-shortest', { moves });
  return t('result.quick', { moves, bound: answer.lower_bound });
}
