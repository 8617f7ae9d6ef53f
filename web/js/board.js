// The sliding-tile board view: one <button> per tile, placed on a CSS grid of cells by transform so that a move
// slides the tile. It knows nothing about solving; the app tells it what to show and hears which tile was clicked
// (or tapped) and which way the board was swiped (touch.js).

import { movableTiles, moveDirection, runTo } from './sliding.js';
import { listenTaps } from './touch.js';
import { t } from './i18n.js';

export class SlidingBoardView {
  /** @param {HTMLElement} element
   *  @param {{onTile: (tile: number) => void, onSwipe?: (direction: string) => void}} handlers */
  constructor(element, { onTile, onSwipe = () => {} }) {
    this.element = element;
    this.onTile = onTile;
    this.tiles = new Map();  // tile number -> button
    this.shape = '';
    element.classList.add('board');
    listenTaps(element, {
      onTap: target => {
        const button = target.closest?.('button.tile');
        if (button && this.element.contains(button)) this.onTile(Number(button.dataset.tile));
      },
      onSwipe,
    });
  }

  /**
   * Show `board` ({rows, cols, cells}); tiles on their `goal` cell are marked, `hint` (a tile number) is
   * highlighted, and `solved` makes the board glow.
   */
  render(board, { goal, hint = null, solved = false } = {}) {
    const { rows, cols, cells } = board;
    const shape = `${rows}x${cols}`;
    if (shape !== this.shape) this.#build(rows, cols);
    const movable = new Set(movableTiles(board));
    cells.forEach((tile, cell) => {
      if (tile === 0) return;
      const button = this.tiles.get(tile);
      const r = Math.floor(cell / cols), c = cell % cols;
      button.style.setProperty('--r', r);
      button.style.setProperty('--c', c);
      button.dataset.cell = cell;
      const home = goal ? goal[cell] === tile : false;
      button.classList.toggle('home', home);
      button.classList.toggle('hint', tile === hint);
      const canMove = movable.has(tile);
      const run = canMove ? null : runTo(board, tile);  // a tile in the gap's row or column slides with its run
      button.classList.toggle('movable', canMove);
      button.setAttribute('aria-disabled', String(!canMove && !run));
      const where = t(home ? 'tile.where-home' : 'tile.where', { tile, row: r + 1, col: c + 1 });
      if (canMove) button.setAttribute('aria-label', t('tile.can-move', { where, direction: t(`dir.${moveDirection(board, tile)}`) }));
      else if (run) button.setAttribute('aria-label', t('tile.can-slide', { where, count: run.length, direction: t(`dir.${moveDirection(board, run[0])}`) }));
      else button.setAttribute('aria-label', where);
    });
    this.element.classList.toggle('solved', solved);
  }

  /** How long a slide takes, in ms (the playback speeds it up; null: the usual). */
  set slideMs(ms) {
    if (ms === null) this.element.style.removeProperty('--slide-ms');  // back to the stylesheet's own
    else this.element.style.setProperty('--slide-ms', `${ms}ms`);
  }

  focusTile(tile) {
    this.tiles.get(tile)?.focus();
  }

  #build(rows, cols) {
    this.shape = `${rows}x${cols}`;
    this.element.replaceChildren();
    this.tiles.clear();
    this.element.style.setProperty('--rows', rows);
    this.element.style.setProperty('--cols', cols);
    this.element.setAttribute('aria-label', t('board.shape', { rows, cols }));
    for (let tile = 1; tile < rows * cols; tile++) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tile';
      button.dataset.tile = tile;
      const face = document.createElement('span');
      face.className = 'face';
      face.textContent = tile;
      face.setAttribute('aria-hidden', 'true');
      button.append(face);
      this.tiles.set(tile, button);
      this.element.append(button);
    }
  }
}
