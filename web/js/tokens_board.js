// The token-puzzle board view: a chess-like board (light and dark squares, removed cells as holes) with the pieces
// drawn as Unicode chess glyphs on top. Pieces and legal target squares are buttons: the player selects a piece,
// its legal targets are marked, and choosing a square asks the app to make that move. Pieces keep their element
// from one render to the next, so a move slides the piece. The same class draws the small goal preview
// (interactive: false), with no buttons at all.

import { REMOVED, isPiece, neighbours, squareName, targets } from './tokens.js';
import { listenTaps } from './touch.js';
import { t } from './i18n.js';

const GLYPHS = { knight: '♞', king: '♚', orthogonal: '♜' };
const TEXT_STYLE = '\uFE0E';  // keeps the glyph a text character, never an emoji
const COLOURED = ['B', 'W', 'R', 'G'];  // pieces named by their colour (piece.B ...); others show their letter
const RULE_PIECES = { knight: 'knight', king: 'king', orthogonal: 'rook' };

/** What the player would call a piece: "White knight", "Piece A"; `within`: inside a sentence ("white knight"). */
export function pieceName(kind, rule, { within = false } = {}) {
  if (!COLOURED.includes(kind)) return t(within ? 'piece.letter-within' : 'piece.letter', { kind });
  const piece = t(`piece.${RULE_PIECES[rule]}`);
  const color = t(`piece.${kind}`);
  return within ? t('piece.named-within', { color: color.toLowerCase(), piece }) : t('piece.named', { color, piece });
}

export class TokenBoardView {
  /** @param {HTMLElement} element  @param {{onMove?: (move: number[]) => void, interactive?: boolean}} options */
  constructor(element, { onMove = () => {}, interactive = true } = {}) {
    this.element = element;
    this.onMove = onMove;
    this.interactive = interactive;
    this.layout = '';        // shape, rule and removed cells the squares were built for
    this.squares = [];       // cell -> square element
    this.pieces = [];        // cell -> piece element (or undefined)
    this.board = null;
    this.selected = null;    // cell of the selected piece
    element.classList.add('board', 'token-board');
    if (!interactive) return;
    listenTaps(element, {  // a click, or a tap on a touch screen
      onTap: (target, click) => {
        const square = target.closest?.('[data-cell]');
        if (square && element.contains(square)) this.#choose(Number(square.dataset.cell), click?.detail === 0);
      },
    });
    element.addEventListener('keydown', event => {
      if (event.key === 'Escape' && this.selected !== null) this.#select(null);
    });
  }

  /**
   * Show `board` ({rows, cols, cells, rule}); pieces on a goal cell of their kind are marked, `hint` (a move) is
   * highlighted, and `solved` makes the board glow.
   */
  render(board, { goal = null, hint = null, solved = false } = {}) {
    const layout = `${board.rows}x${board.cols} ${board.rule} ${board.cells.map(ch => ch === REMOVED).join()}`;
    const rebuilt = layout !== this.layout;
    if (rebuilt) this.#build(board, layout);
    const moved = this.#placePieces(board, rebuilt);
    this.board = board;
    if (this.selected !== null && !isPiece(board.cells[this.selected])) this.selected = null;
    this.squares.forEach((square, cell) => {
      square.classList.toggle('last', moved.includes(cell));
      square.classList.toggle('hint-target', hint?.[1] === cell);
    });
    this.pieces.forEach((piece, cell) => {
      if (!piece) return;
      piece.classList.toggle('home', !!goal && goal[cell] === board.cells[cell]);
      piece.classList.toggle('hint', hint?.[0] === cell);
    });
    this.#showSelection();
    this.element.classList.toggle('solved', solved);
    if (!this.interactive) {
      this.element.setAttribute('aria-label', t('board.goal-shape', { rows: board.rows, cols: board.cols }));
    }
  }

  /** How long a piece takes to move, in ms (the playback speeds it up; null: the usual). */
  set slideMs(ms) {
    if (ms === null) this.element.style.removeProperty('--slide-ms');  // back to the stylesheet's own
    else this.element.style.setProperty('--slide-ms', `${ms}ms`);
  }

  /** Focus the piece that `move` ([from, to]) moves (the name matches the sliding view's). */
  focusTile(move) {
    this.pieces[move[0]]?.focus();
  }

  #choose(cell, byKeyboard) {
    const board = this.board;
    if (isPiece(board.cells[cell])) {
      this.#select(cell === this.selected ? null : cell);
      if (byKeyboard && this.selected !== null) this.squares[targets(board, cell)[0]]?.focus();
    } else if (this.selected !== null) {
      const from = this.selected;
      this.selected = null;
      this.onMove([from, cell]);
      this.#showSelection();
    }
  }

  #select(cell) {
    this.selected = cell;
    this.#showSelection();
  }

  #showSelection() {
    const board = this.board;
    const reachable = this.selected === null ? [] : targets(board, this.selected);
    this.pieces.forEach((piece, cell) => {
      if (!piece) return;
      const selected = cell === this.selected;
      piece.classList.toggle('selected', selected);
      if (!this.interactive) return;
      const moves = targets(board, cell).length;
      piece.setAttribute('aria-pressed', String(selected));
      piece.setAttribute('aria-label', t(moves ? 'piece.can-move' : 'piece.cannot-move', {
        piece: pieceName(board.cells[cell], board.rule), square: squareName(board, cell), count: moves }));
    });
    this.squares.forEach((square, cell) => {
      if (board.cells[cell] === REMOVED) return;
      const target = reachable.includes(cell);
      square.classList.toggle('target', target);
      if (!this.interactive) return;
      square.tabIndex = target ? 0 : -1;
      square.setAttribute('aria-label', target
        ? t('square.target', { square: squareName(board, cell), from: squareName(board, this.selected),
          piece: pieceName(board.cells[this.selected], board.rule, { within: true }) })
        : t(isPiece(board.cells[cell]) ? 'square.taken' : 'square.empty', { square: squareName(board, cell) }));
    });
  }

  #build(board, layout) {
    const { rows, cols, cells } = board;
    this.layout = layout;
    this.selected = null;
    this.element.replaceChildren();
    this.pieces = [];
    this.element.style.setProperty('--rows', rows);
    this.element.style.setProperty('--cols', cols);
    if (this.interactive) this.element.setAttribute('aria-label', t('board.tokens-shape', { rows, cols }));
    const edges = neighbours(board);
    this.squares = cells.map((ch, cell) => {
      const removed = ch === REMOVED;
      const square = document.createElement(this.interactive && !removed ? 'button' : 'div');
      const r = Math.floor(cell / cols), c = cell % cols;
      square.className = `square ${(rows - 1 - r + c) % 2 ? 'light' : 'dark'}`;
      if (removed) square.classList.add('hole');
      else if (!edges[cell].length) square.classList.add('unreachable');
      if (square.tagName === 'BUTTON') square.type = 'button';
      square.dataset.cell = cell;
      square.style.setProperty('--r', r);
      square.style.setProperty('--c', c);
      if (this.interactive) {
        if (c === 0) square.dataset.rank = rows - r;
        if (r === rows - 1) square.dataset.file = String.fromCharCode(97 + c);
      }
      if (removed && this.interactive) square.setAttribute('aria-hidden', 'true');
      this.element.append(square);
      return square;
    });
  }

  // Keep each piece's element where its cell still holds that kind; the others move to the cells of their kind
  // that were empty before (one move: the moved piece slides). Returns the cells a lone moved piece left and took.
  #placePieces(board, rebuilt) {
    const old = rebuilt ? [] : this.pieces;
    const next = [];
    const freed = {};   // kind -> elements whose cell no longer holds their kind
    const filled = [];  // cells that need an element
    board.cells.forEach((ch, cell) => {
      const piece = old[cell];
      if (piece && piece.dataset.kind === ch) next[cell] = piece;
      else if (isPiece(ch)) filled.push(cell);
      if (piece && piece.dataset.kind !== ch) (freed[piece.dataset.kind] ??= []).push(piece);
    });
    const moved = [];
    for (const cell of filled) {
      const piece = freed[board.cells[cell]]?.shift() ?? this.#newPiece(board.cells[cell], board.rule);
      if (piece.dataset.cell !== undefined) moved.push(Number(piece.dataset.cell), cell);
      next[cell] = piece;
      piece.dataset.cell = cell;
      piece.style.setProperty('--r', Math.floor(cell / board.cols));
      piece.style.setProperty('--c', cell % board.cols);
    }
    for (const pieces of Object.values(freed)) for (const piece of pieces) piece.remove();
    this.pieces = next;
    return moved.length === 2 ? moved : [];
  }

  #newPiece(kind, rule) {
    const piece = document.createElement(this.interactive ? 'button' : 'span');
    if (this.interactive) piece.type = 'button';
    piece.className = 'piece';
    piece.dataset.kind = kind;
    const glyph = document.createElement('span');
    glyph.className = 'glyph';
    glyph.textContent = GLYPHS[rule] + TEXT_STYLE;
    glyph.setAttribute('aria-hidden', 'true');
    piece.append(glyph);
    if (!COLOURED.includes(kind)) {
      const letter = document.createElement('span');
      letter.className = 'letter';
      letter.textContent = kind;
      letter.setAttribute('aria-hidden', 'true');
      piece.append(letter);
    }
    this.element.append(piece);
    return piece;
  }
}
