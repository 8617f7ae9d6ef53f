// Bar charts drawn as SVG: columns (the explore histogram) or rows (the comparison), on a linear or a log scale.
//
//   const chart = new BarChart(element, { layout: 'columns' | 'rows', log: false, label: 'what it shows' });
//   chart.draw([{ label: '20', value: 16993, title: 'depth 20: 16,993 positions', tone: 'highlight' }, ...]);
//
// The chart is drawn at the element's pixel width (and again when that changes), so its text keeps its size on a
// phone. A bar's tone is '' (accent), 'highlight' or 'partial' (a lower bound: a run stopped before it finished).

import { compact } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const COLUMN_HEIGHT = 190;
const ROW_HEIGHT = 28;
const FONT_PX = 12;

export class BarChart {
  #bars = [];
  #width = 0;

  constructor(element, { layout = 'columns', log = false, label = '' } = {}) {
    this.element = element;
    this.layout = layout;
    this.log = log;
    this.label = label;
    element.classList.add('chart');
    new ResizeObserver(() => {
      if (element.clientWidth !== this.#width) this.#render();
    }).observe(element);
  }

  draw(bars) {
    this.#bars = bars;
    this.#render();
  }

  #render() {
    this.#width = this.element.clientWidth;
    if (!this.#bars.length || !this.#width) {
      this.element.replaceChildren();
      return;
    }
    const svg = this.layout === 'rows' ? this.#rows() : this.#columns();
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', this.label);
    this.element.replaceChildren(svg);
  }

  // Column chart: one column per bar, labels under some of them, value ticks on the left.
  #columns() {
    const bars = this.#bars, width = this.#width, height = COLUMN_HEIGHT;
    const left = 52, right = 6, top = 10, bottom = 22;
    const plotW = width - left - right, plotH = height - top - bottom;
    const scale = new Scale(Math.max(...bars.map(b => b.value)), this.log, plotH / 30);
    const svg = svgElement('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
    for (const tick of scale.ticks) {
      const y = top + plotH * (1 - scale.at(tick));
      svg.append(svgElement('line', { x1: left, x2: width - right, y1: y, y2: y, class: 'grid' }));
      svg.append(text(compact(tick), { x: left - 6, y: y + FONT_PX / 3, 'text-anchor': 'end' }));
    }
    const step = plotW / bars.length;
    const every = Math.ceil(bars.length / Math.max(1, Math.floor(plotW / 28)));  // label spacing that fits
    const marked = bars.flatMap((bar, i) => (bar.tone === 'highlight' ? [i] : []));
    const labelled = i => marked.includes(i) || (i % every === 0 && marked.every(m => Math.abs(m - i) >= every));
    bars.forEach((bar, i) => {
      const h = plotH * scale.at(bar.value);
      const rect = svgElement('rect', {
        x: left + i * step + step * 0.1, y: top + plotH - h, width: Math.max(1, step * 0.8), height: h,
        class: `bar ${bar.tone ?? ''}`.trim(),
      });
      if (bar.title) rect.append(svgElement('title', {}, bar.title));
      svg.append(rect);
      if (labelled(i)) {
        svg.append(text(bar.label, { x: left + (i + 0.5) * step, y: height - 6, 'text-anchor': 'middle' }));
      }
    });
    return svg;
  }

  // Row chart: one row per bar, its label on the left and its value written after the bar.
  #rows() {
    const bars = this.#bars, width = this.#width;
    const top = 18, labelW = Math.min(170, width * 0.36), valueW = 78;
    const plotW = Math.max(40, width - labelW - valueW - 8);
    const height = top + bars.length * ROW_HEIGHT + 4;
    const scale = new Scale(Math.max(...bars.map(b => b.value)), this.log, plotW / 40);
    const svg = svgElement('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
    for (const tick of scale.ticks) {
      const x = labelW + plotW * scale.at(tick);
      svg.append(svgElement('line', { x1: x, x2: x, y1: top - 4, y2: height - 4, class: 'grid' }));
      svg.append(text(compact(tick), { x, y: top - 7, 'text-anchor': 'middle' }));
    }
    bars.forEach((bar, i) => {
      const y = top + i * ROW_HEIGHT;
      const w = plotW * scale.at(bar.value);
      svg.append(text(fit(bar.label, labelW - 10), { x: labelW - 8, y: y + ROW_HEIGHT / 2 + FONT_PX / 3, 'text-anchor': 'end', class: 'label' }));
      const rect = svgElement('rect', {
        x: labelW, y: y + 5, width: Math.max(bar.value > 0 ? 1 : 0, w), height: ROW_HEIGHT - 10,
        class: `bar ${bar.tone ?? ''}`.trim(),
      });
      if (bar.title) rect.append(svgElement('title', {}, bar.title));
      svg.append(rect);
      svg.append(text(bar.text ?? compact(bar.value), { x: labelW + w + 6, y: y + ROW_HEIGHT / 2 + FONT_PX / 3 }));
    });
    return svg;
  }
}

/** Where a value sits on the axis (0..1) and which tick values to mark (at most about `room` of them): round
 * numbers, or powers of ten. */
class Scale {
  constructor(max, log, room) {
    this.log = log;
    if (log) {
      this.top = 10 ** Math.max(1, Math.ceil(Math.log10(Math.max(max, 1))));
      const decades = Math.log10(this.top), stride = Math.ceil(decades / Math.max(1, Math.floor(room) - 1));
      this.ticks = [];
      for (let d = 0; d <= decades; d += stride) this.ticks.push(10 ** d);
    } else {
      const unit = 10 ** Math.floor(Math.log10(Math.max(max, 1)));
      const step = [0.2, 0.25, 0.5, 1, 2].map(f => f * unit).find(s => max / s <= 5) ?? 2 * unit;
      this.top = Math.max(step, Math.ceil(max / step) * step);
      this.ticks = [];
      for (let t = 0; t <= this.top + step / 2; t += step) this.ticks.push(t);
    }
  }

  at(value) {
    if (this.log) return value >= 1 ? Math.log10(value) / Math.log10(this.top) : 0;
    return value / this.top;
  }
}

/** The text cut with an ellipsis to about `width` pixels (SVG text does not wrap or clip by itself). */
function fit(label, width) {
  const chars = Math.floor(width / (FONT_PX * 0.56));
  return label.length <= chars ? label : `${label.slice(0, Math.max(1, chars - 1)).trimEnd()}…`;
}

export function svgElement(name, attributes, content) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (content !== undefined) element.textContent = content;
  return element;
}

export const svgText = (content, attributes) => svgElement('text', attributes, content);
const text = svgText;
