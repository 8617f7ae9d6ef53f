// Share links: the puzzle lives in the URL fragment, so a link works on any static host and never reaches a server.
//
//   #puzzle=sliding&board=8,6,7/2,5,4/3,0,1&goal=1,2,3/4,5,6/7,8,0&algorithm=idastar&heuristic=manhattan
//
// Keys: puzzle and board (required), goal (only when it is not the puzzle's default goal), algorithm and heuristic
// (names, checked against the solver's catalogue once it has loaded). Boards are written like board text with
// commas between cells. Parsing is strict: unknown or repeated keys, empty values and anything but the canonical
// board spelling are rejected, so formatFragment(parseFragment(link)) gives the same link back.
//
// A link may also open the search visualiser (Watch the search) at a step: `trace=STEP` (0, 1, ...: expansions
// made, as the panel counts them), and for weighted A* its `weight` (1 to 10, written as the shortest decimal):
//
//   #puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=weighted&heuristic=manhattan&weight=1.5&trace=40
//
// With the heuristic "yours", a link carries its Python code as `code` (percent-encoded; the page shows it and runs
// nothing until the person allows it, see your_heuristic.js):
//
//   #puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=yours&code=def%20h(board)%3A%0A...
//
// Token puzzles (puzzle=knights, guarini or tokens) write boards as token board text, '#' (a removed cell) escaped
// as %23, and add `rule` for puzzle=tokens (a preset's own rule is accepted and dropped):
//
//   #puzzle=tokens&board=AB%23/..%23/...&goal=..%23/..%23/.BA&rule=king

import { BoardError, defaultGoal, formatBoard, parseBoard, sameCells } from './sliding.js';
import { PRESETS, RULES, TokenError, formatTokenBoard, pairProblem, parseTokenBoard } from './tokens.js';
import { t } from './i18n.js';

export class LinkError extends Error {}

const KEYS = ['puzzle', 'board', 'goal', 'rule', 'algorithm', 'heuristic', 'weight', 'trace', 'code'];
const MAX_LINK = 4000;  // characters a link may have without code
const MAX_CODE = 10000;  // characters of a heuristic's code a link may carry
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const NUMBER = '(?:0|[1-9][0-9]{0,3})';
const ROW = `${NUMBER}(?:,${NUMBER})*`;
const SLIDING_BOARD = new RegExp(`^${ROW}(?:/${ROW})*$`);
const STEP = /^(?:0|[1-9][0-9]{0,5})$/;
const WEIGHT = /^(?:10|[1-9](?:\.[0-9]{0,2}[1-9])?)$/;  // 1 to 10, at most three decimals, none trailing
const TOKEN_BOARD = /^[A-Za-z.#]+(?:\/[A-Za-z.#]+)*$/;

// One entry per puzzle type: how its boards are read from and written to a link.
const PUZZLES = {
  sliding: {
    parse(text, what) {
      if (!SLIDING_BOARD.test(text)) {
        throw new LinkError(t('link.sliding-format', { what: t(`link.${what}`) }));
      }
      try {
        return parseBoard(text);
      } catch (e) {
        if (e instanceof BoardError) throw new LinkError(t('link.invalid', { what: t(`link.${what}`), problem: e.message }));
        throw e;
      }
    },
    format: board => formatBoard(board.cells, board.cols, ','),
    isDefaultGoal: (board, goal) => sameCells(goal.cells, defaultGoal(board.rows, board.cols)),
    sameShape: (a, b) => a.rows === b.rows && a.cols === b.cols,
    check(board, goal, fields) {
      if (fields.rule) throw new LinkError(t('link.sliding-rule'));
    },
  },
  ...Object.fromEntries(Object.keys(PRESETS).map(name => [name, tokenCodec(name)])),
  tokens: tokenCodec(null),
};

/** How boards of a token puzzle are read and written: a preset (its rule and default goal) or any (preset null). */
function tokenCodec(preset) {
  const fixed = PRESETS[preset];
  const ruleOf = fields => fixed?.rule ?? fields.rule;
  return {
    parse(text, what, fields) {
      if (!TOKEN_BOARD.test(text)) {
        throw new LinkError(t('link.tokens-format', { what: t(`link.${what}`) }));
      }
      try {
        return parseTokenBoard(text, ruleOf(fields));
      } catch (e) {
        if (e instanceof TokenError) throw new LinkError(t('link.invalid', { what: t(`link.${what}`), problem: e.message }));
        throw e;
      }
    },
    format: board => formatTokenBoard(board).replaceAll('#', '%23'),
    isDefaultGoal: (board, goal) => !!fixed && formatTokenBoard(goal) === fixed.goal,
    sameShape: (a, b) => a.rows === b.rows && a.cols === b.cols,
    check(board, goal, fields) {
      if (fixed && fields.rule && fields.rule !== fixed.rule) {
        throw new LinkError(t('link.preset-rule', { preset, rule: t(`rule.${fixed.rule}`) }));
      }
      if (!fixed && !fields.rule) throw new LinkError(t('link.no-rule'));
      if (!Object.hasOwn(RULES, ruleOf(fields))) {
        throw new LinkError(t('link.bad-rule', { rule: fields.rule.slice(0, 20), rules: Object.keys(RULES).join(', ') }));
      }
      if (!fixed && !goal) throw new LinkError(t('link.no-goal'));
      const problem = pairProblem(board, goal ?? parseTokenBoard(fixed.goal, fixed.rule));
      if (problem) throw new LinkError(t('link.mismatch', { problem }));
    },
  };
}

/**
 * Read a fragment (with or without '#') into {puzzle, board, goal, algorithm, heuristic, weight, trace, code}; all but
 * puzzle and board are null when absent (token boards carry their `rule`; a preset's default goal reads as null). An
 * empty fragment gives null. Throws LinkError with a reason.
 */
export function parseFragment(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!text) return null;
  if (text.length > MAX_LINK + 3 * MAX_CODE) throw new LinkError(t('link.too-long'));
  const fields = {};
  let codeChars = 0;  // the code's part of the link, which has a limit of its own
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!KEYS.includes(key)) throw new LinkError(t('link.unknown-key', { key: key.slice(0, 20) }));
    if (key in fields) throw new LinkError(t('link.twice', { key }));
    let value = '';
    try {
      if (eq >= 0) value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      throw new LinkError(t('link.encoding', { key }));
    }
    if (!value) throw new LinkError(t('link.no-value', { key }));
    fields[key] = value;
    if (key === 'code') codeChars = part.length + 1;
  }
  if (text.length - codeChars > MAX_LINK) throw new LinkError(t('link.too-long'));
  if (!fields.puzzle) throw new LinkError(t('link.no-puzzle'));
  const codec = Object.hasOwn(PUZZLES, fields.puzzle) ? PUZZLES[fields.puzzle] : null;
  if (!codec) throw new LinkError(t('link.bad-puzzle', { puzzle: fields.puzzle.slice(0, 20) }));
  if (!fields.board) throw new LinkError(t('link.no-board'));
  const board = codec.parse(fields.board, 'board', fields);
  let goal = null;
  if (fields.goal) {
    goal = codec.parse(fields.goal, 'goal', fields);
    if (!codec.sameShape(board, goal)) throw new LinkError(t('link.goal-shape'));
  }
  codec.check(board, goal, fields);
  if (goal && codec.isDefaultGoal(board, goal)) goal = null;
  for (const key of ['algorithm', 'heuristic']) {
    if (fields[key] && !NAME.test(fields[key])) throw new LinkError(t(`link.bad-${key}`, { name: fields[key].slice(0, 20) }));
  }
  if (fields.weight !== undefined) {
    if (fields.algorithm !== 'weighted') throw new LinkError(t('link.weight-for'));
    if (!WEIGHT.test(fields.weight)) throw new LinkError(t('link.weight-range'));
  }
  if (fields.code !== undefined) {
    if (fields.heuristic !== 'yours') throw new LinkError(t('link.code-for'));
    if (fields.code.length > MAX_CODE) throw new LinkError(t('link.code-long', { count: MAX_CODE }));
  }
  if (fields.trace !== undefined) {
    if (!fields.algorithm) throw new LinkError(t('link.trace-algorithm'));
    if (!STEP.test(fields.trace)) throw new LinkError(t('link.trace-step'));
  }
  return {
    puzzle: fields.puzzle, board, goal, algorithm: fields.algorithm ?? null, heuristic: fields.heuristic ?? null,
    weight: fields.weight === undefined ? null : Number(fields.weight),
    trace: fields.trace === undefined ? null : Number(fields.trace), code: fields.code ?? null,
  };
}

/** Write {puzzle, board, goal?, algorithm?, heuristic?, weight?, trace?, code?} as a fragment starting with '#'
 * (token boards carry rule; weight only for algorithm 'weighted'; code only for heuristic 'yours', within MAX_CODE). */
export function formatFragment({ puzzle, board, goal = null, algorithm = null, heuristic = null, weight = null,
  trace = null, code = null }) {
  const codec = PUZZLES[puzzle];
  const parts = [`puzzle=${puzzle}`, `board=${codec.format(board)}`];
  if (goal && !codec.isDefaultGoal(board, goal)) parts.push(`goal=${codec.format(goal)}`);
  if (puzzle === 'tokens') parts.push(`rule=${board.rule}`);
  if (algorithm) parts.push(`algorithm=${algorithm}`);
  if (heuristic) parts.push(`heuristic=${heuristic}`);
  if (weight !== null && algorithm === 'weighted') parts.push(`weight=${weight}`);
  if (trace !== null && algorithm) parts.push(`trace=${trace}`);
  if (code && heuristic === 'yours' && code.length <= MAX_CODE) parts.push(`code=${encodeURIComponent(code)}`);
  return `#${parts.join('&')}`;
}

/** The page's share link: the fragment rewritten as the page changes (replaceState: Back is not filled with every
 * move), the link field and its Copy button, and a fragment changed by hand (or by Back) opened with `open(hash)`;
 * `current()` gives formatFragment's fields of what the page shows. */
export class PageLink {
  #written = location.hash;  // the fragment this page last wrote, or is opening (the first: the page's own link)

  constructor({ field, copy, copied }, { current, open }) {
    Object.assign(this, { field, copied, current });
    copy.addEventListener('click', () => this.copy());
    window.addEventListener('hashchange', () => {
      if (location.hash === this.#written) return;
      this.#written = location.hash;
      open(location.hash);
    });
  }

  /** Write what the page shows into the link; not while a fragment changed by hand waits for its hashchange (the
   * page would overwrite the link about to be opened). */
  write() {
    if (location.hash !== this.#written) return;
    this.#written = formatFragment(this.current());
    history.replaceState(null, '', this.#written);
    this.field.value = location.href;
    this.copied.textContent = '';
  }

  async copy() {
    this.write();
    try {
      await navigator.clipboard.writeText(location.href);
      this.copied.textContent = t('share.copied');
    } catch {
      this.field.select();
      this.copied.textContent = t('share.select');
    }
  }

  /** The link in a fragment: {link} (null for none), or {problem} when it is malformed (a LinkError's message). */
  static read(hash) {
    try {
      return { link: parseFragment(hash) };
    } catch (error) {
      if (!(error instanceof LinkError)) throw error;
      return { link: null, problem: error.message };
    }
  }
}
