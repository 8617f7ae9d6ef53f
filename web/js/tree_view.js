// The search tree of a trace on one <canvas>: every node a small board with g, h, f and its expansion number,
// coloured and marked by its status (trace_model.js). The nodes generated so far (of the IDA* iteration shown) are
// laid out in one pass whenever the trace moves, so the tree stays compact as it grows; a frame draws only the nodes
// in view, at a level of detail that suits the zoom (boards, numbers, or marks). Pan by dragging, zoom with the wheel; the selected node moves with the arrow keys (parent, child,
// neighbours in its row).
//
//   const tree = new TreeView(canvas, { onSelect(id) {} });
//   tree.setModel(model); tree.invalidate(); tree.select(id); tree.follow(id); tree.zoom(1.25); tree.fit();

import {
  CLOSED, CURRENT, GOAL, HIDDEN, OPEN, PATH, PRUNED, REPLACED, SEEN,
} from './trace_model.js';
import { t } from './i18n.js';

const SLOT = 76;        // world units between two leaves
const ROW = 118;        // world units between two depths
const BOX_W = 66;
const BOX_H = 96;
const MIN_SCALE = 0.002;  // a few thousand leaves across the canvas
const MAX_SCALE = 3;

// Per status: the CSS custom property of its colour, a mark drawn on the node (never colour alone) and its name (a
// catalogue key).
export const STATUS_STYLE = {
  [OPEN]: { color: '--watch-open', mark: '○', name: 'status.open', dash: [4, 3] },
  [CLOSED]: { color: '--watch-closed', mark: '✓', name: 'status.closed' },
  [CURRENT]: { color: '--watch-current', mark: '●', name: 'status.current' },
  [PRUNED]: { color: '--watch-pruned', mark: '✂', name: 'status.pruned', dash: [2, 3] },
  [SEEN]: { color: '--watch-seen', mark: '=', name: 'status.seen', dash: [2, 3] },
  [REPLACED]: { color: '--watch-seen', mark: '↻', name: 'status.replaced', dash: [2, 3] },
  [GOAL]: { color: '--watch-path', mark: '◎', name: 'status.goal' },
  [PATH]: { color: '--watch-path', mark: '★', name: 'status.path' },
};
export const NEXT_STYLE = { color: '--watch-next', mark: '▶', name: 'status.next' };
const COLOR_NAMES = ['--watch-open', '--watch-closed', '--watch-current', '--watch-pruned', '--watch-seen',
  '--watch-path', '--watch-next', '--watch-edge', '--watch-text', '--watch-node'];

export class TreeView {
  #model = null;
  #layoutOf = null;  // {x: Float64Array, rows: [ids by depth, in x order], width} of the nodes shown
  #layoutKey = '';   // the group and trace position it was made for
  #group = 0;
  #scale = 0.8;
  #stretch = 1;  // rows further apart than the boxes' scale: Whole tree fills the canvas's height too
  #ox = 0;
  #oy = 0;
  #frame = 0;
  #drag = null;
  #colors = {};

  constructor(canvas, { onSelect = () => {} } = {}) {
    this.canvas = canvas;
    this.onSelect = onSelect;
    this.selected = -1;
    this.path = new Set();  // nodes to draw as on the current path (IDA*, IDDFS)
    canvas.addEventListener('pointerdown', event => this.#down(event));
    canvas.addEventListener('pointermove', event => this.#move(event));
    canvas.addEventListener('pointerup', event => this.#up(event));
    canvas.addEventListener('pointercancel', () => { this.#drag = null; });
    canvas.addEventListener('wheel', event => {
      event.preventDefault();
      const { x, y } = this.#point(event);
      this.zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, x, y);
    }, { passive: false });
    canvas.addEventListener('keydown', event => this.#key(event));
    new ResizeObserver(() => this.invalidate()).observe(canvas);
  }

  setModel(model) {
    this.#model = model;
    this.#layoutKey = '';
    this.selected = -1;
    this.#group = -1;
    this.showGroup(0);
  }

  /** Show an IDA* or IDDFS iteration's tree (the others have one group, 0). */
  showGroup(group) {
    if (group === this.#group) return;
    this.#group = group;
    const root = this.#layouts()?.rows[0]?.[0];
    if (root !== undefined) this.center(root);
    this.invalidate();
  }

  /** The layout of the nodes shown now (made again when the trace has moved). */
  #layouts() {
    const m = this.#model;
    if (!m) return null;
    const key = `${this.#group}:${m.position}`;
    if (key !== this.#layoutKey) {
      this.#layoutOf = this.#layout(this.#group);
      this.#layoutKey = key;
    }
    return this.#layoutOf;
  }

  // One pass over the group's nodes shown: leaves take the next slot in depth-first order, a parent sits over the
  // middle of its children. Ids grow from parent to child, so children lists in id order come from one scan.
  #layout(group) {
    const m = this.#model;
    const n = m.size;
    const status = m.status;
    const first = new Int32Array(n).fill(-1);  // first child, next sibling: linked lists in id order
    const last = new Int32Array(n).fill(-1);
    const sibling = new Int32Array(n).fill(-1);
    const roots = [];
    for (let id = 0; id < n; id++) {
      if (m.group[id] !== group || status[id] === HIDDEN) continue;
      const p = m.parent[id];
      if (p < 0) roots.push(id);
      else if (first[p] < 0) first[p] = last[p] = id;
      else last[p] = sibling[last[p]] = id;
    }
    const x = new Float64Array(n);
    const rowLists = [];
    let slot = 0;
    const stack = [];
    for (const root of roots) {
      stack.push(root, 0);
      while (stack.length) {  // (id, state): 0 = enter, 1 = leave
        const state = stack.pop();
        const id = stack.pop();
        if (state === 0) {
          const depth = m.g[id];
          (rowLists[depth] ??= []).push(id);
          if (first[id] < 0) {
            x[id] = slot++ * SLOT;
            continue;
          }
          stack.push(id, 1);
          const children = [];
          for (let c = first[id]; c >= 0; c = sibling[c]) children.push(c);
          for (let i = children.length - 1; i >= 0; i--) stack.push(children[i], 0);
        } else {
          x[id] = (x[first[id]] + x[last[id]]) / 2;
        }
      }
      slot += 1;  // a gap between two trees (bidirectional search's two sides)
    }
    return { x, rows: rowLists.map(r => Int32Array.from(r ?? [])), width: slot * SLOT };
  }

  /** Draw at the next animation frame (once, however often it is asked). */
  invalidate() {
    if (!this.#frame) this.#frame = requestAnimationFrame(() => { this.#frame = 0; this.draw(); });
  }

  get #row() {
    return ROW * this.#stretch;
  }

  get scale() {
    return this.#scale;
  }

  zoom(factor, cx = this.canvas.clientWidth / 2, cy = this.canvas.clientHeight / 2) {
    const scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.#scale * factor));
    this.#stretch = Math.max(1, this.#stretch / (scale / this.#scale));  // zooming in brings the rows back
    this.#ox = cx - (cx - this.#ox) * (scale / this.#scale);
    this.#oy = cy - (cy - this.#oy) * (scale / this.#scale);
    this.#scale = scale;
    this.invalidate();
  }

  pan(dx, dy) {
    this.#ox += dx;
    this.#oy += dy;
    this.invalidate();
  }

  /** Zoom out to the whole tree (or as far as the least zoom goes). */
  fit() {
    const layout = this.#layouts();
    if (!layout) return;
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    const height = layout.rows.length * ROW;
    this.#scale = Math.max(MIN_SCALE, Math.min(1, (w - 20) / layout.width, (h - 20) / height));
    this.#stretch = Math.max(1, (h - 20 - BOX_H * this.#scale) / (height * this.#scale));
    this.#ox = (w - layout.width * this.#scale) / 2;
    this.#oy = 10;
    this.invalidate();
  }

  /** Put a node in the middle of the view. */
  center(id) {
    const layout = this.#layouts();
    if (!layout || id < 0) return;
    this.#ox = this.canvas.clientWidth / 2 - (layout.x[id] + BOX_W / 2) * this.#scale;
    this.#oy = this.canvas.clientHeight / 2 - (this.#model.g[id] * this.#row + BOX_H / 2) * this.#scale;
    this.invalidate();
  }

  /** Keep a node in view: pan to it only when it is outside. */
  follow(id) {
    const layout = this.#layouts();
    if (!layout || id < 0 || this.#model.group[id] !== this.#group) return;
    const sx = layout.x[id] * this.#scale + this.#ox;
    const sy = this.#model.g[id] * this.#row * this.#scale + this.#oy;
    const margin = 30;
    if (sx < margin || sy < margin || sx + BOX_W * this.#scale > this.canvas.clientWidth - margin
      || sy + BOX_H * this.#scale > this.canvas.clientHeight - margin) this.center(id);
  }

  select(id, { center = false } = {}) {
    this.selected = id;
    if (id >= 0 && this.#model.group[id] !== this.#group) this.showGroup(this.#model.group[id]);
    if (center) this.center(id);
    else this.follow(id);
    this.invalidate();
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const m = this.#model;
    const layout = this.#layouts();
    if (!m || !layout) return;
    const style = getComputedStyle(canvas);
    for (const name of COLOR_NAMES) this.#colors[name] = style.getPropertyValue(name).trim() || '#888';
    const s = this.#scale;
    const { x, rows } = layout;
    const status = m.status;
    // the nodes in view, row by row (a row's ids are in x order: binary search its first one)
    const visible = [];
    const firstRow = Math.max(0, Math.floor((-this.#oy / s - BOX_H) / this.#row));
    const lastRow = Math.min(rows.length - 1, Math.ceil((h - this.#oy) / s / this.#row));
    const left = -this.#ox / s - BOX_W - SLOT;
    const right = (w - this.#ox) / s + SLOT;
    for (let r = firstRow; r <= lastRow; r++) {
      const row = rows[r];
      let lo = 0;
      let hi = row.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x[row[mid]] < left) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < row.length && x[row[i]] <= right; i++) {
        if (status[row[i]] !== HIDDEN) visible.push(row[i]);
      }
    }
    this.drawn = visible.length;
    // edges first, in one path
    ctx.strokeStyle = this.#colors['--watch-edge'];
    ctx.lineWidth = Math.max(0.5, Math.min(1.5, s * 1.5));
    ctx.beginPath();
    for (const id of visible) {
      const p = m.parent[id];
      if (p < 0) continue;
      const cx = (x[id] + BOX_W / 2) * s + this.#ox;
      const cy = m.g[id] * this.#row * s + this.#oy;
      ctx.moveTo(cx, cy);
      ctx.lineTo((x[p] + BOX_W / 2) * s + this.#ox, (m.g[p] * this.#row + BOX_H) * s + this.#oy);
    }
    ctx.stroke();
    const next = m.next;
    const detail = s * BOX_W >= 48 ? 2 : s * BOX_W >= 14 ? 1 : 0;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const id of visible) {
      const sx = x[id] * s + this.#ox;
      const sy = m.g[id] * this.#row * s + this.#oy;
      this.#node(ctx, id, sx, sy, s, detail, id === next);
    }
    if (m.bidirectional && detail > 0) {  // say which tree grows from where
      ctx.fillStyle = this.#colors['--watch-text'];
      ctx.font = `${Math.max(10, Math.round(13 * s))}px sans-serif`;
      for (const id of rows[0] ?? []) {
        ctx.fillText(t(m.side[id] ? 'watch.from-goal' : 'watch.from-start'),
          (x[id] + BOX_W / 2) * s + this.#ox, this.#oy - 12 * s);
      }
    }
  }

  #node(ctx, id, sx, sy, s, detail, isNext) {
    const m = this.#model;
    const look = isNext ? NEXT_STYLE : STATUS_STYLE[m.status[id]];
    const color = this.#colors[look.color];
    const bw = BOX_W * s;
    const bh = BOX_H * s;
    if (detail === 0) {  // a mark: filled when expanded, hollow while it waits, crossed when dropped
      const size = Math.max(3, bw);
      const status = m.status[id];
      ctx.fillStyle = color;
      ctx.strokeStyle = color;
      ctx.lineWidth = 1;
      if (status === OPEN && !isNext) ctx.strokeRect(sx, sy, size, size);
      else ctx.fillRect(sx, sy, size, size);
      if (status === PRUNED || status === SEEN || status === REPLACED) {
        ctx.beginPath();
        ctx.moveTo(sx - 1, sy - 1);
        ctx.lineTo(sx + size + 1, sy + size + 1);
        ctx.stroke();
      }
      if (isNext || id === this.selected || this.path.has(id)) {
        ctx.strokeStyle = this.#colors['--watch-text'];
        ctx.strokeRect(sx - 2, sy - 2, size + 4, size + 4);
      }
      return;
    }
    ctx.fillStyle = this.#colors['--watch-node'];
    ctx.fillRect(sx, sy, bw, bh);
    ctx.lineWidth = isNext || m.status[id] === PATH || m.status[id] === CURRENT ? 3 : 1.5;
    ctx.strokeStyle = color;
    ctx.setLineDash(look.dash ?? []);
    ctx.strokeRect(sx, sy, bw, bh);
    ctx.setLineDash([]);
    if (id === this.selected || this.path.has(id)) {
      ctx.lineWidth = id === this.selected ? 2 : 1;
      ctx.strokeStyle = this.#colors['--watch-text'];
      ctx.strokeRect(sx - 4, sy - 4, bw + 8, bh + 8);
    }
    // the mark in a coloured tab at the top left, the expansion number at the top right
    const tab = Math.max(9, 16 * s);
    ctx.fillStyle = color;
    ctx.fillRect(sx, sy, tab, tab);
    ctx.fillStyle = this.#colors['--watch-node'];
    ctx.font = `${Math.round(tab * 0.8)}px sans-serif`;
    ctx.fillText(look.mark, sx + tab / 2, sy + tab / 2 + 0.5);
    ctx.fillStyle = this.#colors['--watch-text'];
    if (detail === 1) {
      ctx.font = `${Math.max(8, Math.round(20 * s))}px sans-serif`;
      ctx.fillText(fmt(m.f[id]), sx + bw / 2, sy + bh / 2 + tab / 3);
      return;
    }
    const font = Math.max(7, Math.round(11 * s));
    ctx.font = `${font}px sans-serif`;
    if (m.expansion[id] && m.status[id] !== OPEN) {
      ctx.textAlign = 'right';
      ctx.fillText(`#${m.expansion[id]}`, sx + bw - 3 * s, sy + tab / 2 + 0.5);
      ctx.textAlign = 'center';
    }
    // the board: its rows of cells (tokens or tiles), in a square under the tab
    const cells = this.#cells(id);
    const rowsN = cells.length;
    const colsN = cells[0].length;
    const area = 56 * s;
    const cell = area / Math.max(rowsN, colsN);
    const bx = sx + (bw - cell * colsN) / 2;
    const by = sy + tab + 2 * s;
    ctx.font = `${Math.max(6, Math.round(cell * 0.7))}px sans-serif`;
    for (let r = 0; r < rowsN; r++) {
      for (let c = 0; c < colsN; c++) {
        const text = cells[r][c];
        if (text === '0' || text === '.') continue;
        if (text === '#') {
          ctx.fillRect(bx + c * cell, by + r * cell, cell, cell);
          continue;
        }
        ctx.fillText(text, bx + (c + 0.5) * cell, by + (r + 0.5) * cell + 0.5);
      }
    }
    ctx.fillText(`g${m.g[id]} h${fmt(m.h[id])} f${fmt(m.f[id])}`, sx + bw / 2, sy + bh - 7 * s);
  }

  #cellCache = new Map();

  #cells(id) {
    const text = this.#model.boards[id];
    let cells = this.#cellCache.get(text);
    if (!cells) {
      cells = text.split('/').map(row => (row.includes(' ') ? row.trim().split(/\s+/) : [...row]));
      if (this.#cellCache.size > 20000) this.#cellCache.clear();
      this.#cellCache.set(text, cells);
    }
    return cells;
  }

  /** The node drawn at a point of the canvas (CSS pixels), or -1. */
  nodeAt(px, py) {
    const m = this.#model;
    const layout = this.#layouts();
    if (!m || !layout) return -1;
    const wx = (px - this.#ox) / this.#scale;
    const wy = (py - this.#oy) / this.#scale;
    const row = layout.rows[Math.floor(wy / this.#row)];
    if (!row || wy - Math.floor(wy / this.#row) * this.#row > Math.max(BOX_H, 6 / this.#scale)) return -1;
    const width = Math.max(BOX_W, 6 / this.#scale);
    let best = -1;
    for (const id of row) {  // a row holds at most a few thousand nodes
      if (m.status[id] !== HIDDEN && wx >= layout.x[id] - 2 / this.#scale && wx <= layout.x[id] + width) best = id;
    }
    return best;
  }

  /** A node's place on screen (CSS pixels, the middle of its box), for tests and tooltips. */
  screenOf(id) {
    const layout = this.#layouts();
    return {
      x: (layout.x[id] + BOX_W / 2) * this.#scale + this.#ox,
      y: (this.#model.g[id] * this.#row + BOX_H / 2) * this.#scale + this.#oy,
    };
  }

  #point(event) {
    const rect = this.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  #down(event) {
    this.#drag = { ...this.#point(event), moved: 0 };
    this.canvas.setPointerCapture(event.pointerId);
  }

  #move(event) {
    if (!this.#drag) return;
    const { x, y } = this.#point(event);
    this.#drag.moved += Math.abs(x - this.#drag.x) + Math.abs(y - this.#drag.y);
    this.pan(x - this.#drag.x, y - this.#drag.y);
    this.#drag.x = x;
    this.#drag.y = y;
  }

  #up(event) {
    const drag = this.#drag;
    this.#drag = null;
    if (!drag || drag.moved > 4) return;
    const { x, y } = this.#point(event);
    const id = this.nodeAt(x, y);
    if (id >= 0) {
      this.select(id);
      this.onSelect(id);
    }
  }

  // Arrows move the selection (up: parent, down: first child shown, left/right: the neighbours in its row);
  // Shift+arrows pan; + and - zoom; 0 fits the tree.
  #key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = 60;
    const pans = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (event.shiftKey && pans[event.key]) {
      this.pan(...pans[event.key]);
    } else if (event.key === '+' || event.key === '=') {
      this.zoom(1.25);
    } else if (event.key === '-') {
      this.zoom(0.8);
    } else if (event.key === '0') {
      this.fit();
    } else if (pans[event.key]) {
      const id = this.#neighbour(event.key);
      if (id >= 0) {
        this.select(id);
        this.onSelect(id);
      }
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  #neighbour(key) {
    const m = this.#model;
    const layout = this.#layouts();
    if (!m || !layout) return -1;
    const shown = id => m.status[id] !== HIDDEN;
    const from = this.selected >= 0 && m.group[this.selected] === this.#group ? this.selected : -1;
    if (from < 0) return layout.rows[0]?.find(shown) ?? -1;
    if (key === 'ArrowUp') return m.parent[from];
    const row = layout.rows[m.g[from]];
    if (key === 'ArrowDown') {
      const below = layout.rows[m.g[from] + 1] ?? [];
      return below.find(id => m.parent[id] === from && shown(id)) ?? -1;
    }
    const at = row.indexOf(from);
    const dir = key === 'ArrowLeft' ? -1 : 1;
    for (let i = at + dir; i >= 0 && i < row.length; i += dir) if (shown(row[i])) return row[i];
    return -1;
  }
}

const fmt = value => (Number.isInteger(value) ? String(value) : value.toFixed(1));
