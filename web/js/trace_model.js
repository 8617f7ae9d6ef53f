// A trace (the engine's JSON, docs/algorithms.md, "Traces") turned into something a page can play fast: nodes in typed arrays,
// every step's effect on the nodes' statuses worked out once, so that playing forward or back is a few array writes
// per step, and the counters follow incrementally.
//
//   const model = new TraceModel(answer);     // answer: api.trace's dict
//   model.go(unit);                           // 0 .. model.units: before the first expansion .. the end
//   model.status[id], model.counts[OPEN], model.expanded, model.bound(), model.openList(20)
//
// A "unit" is one expansion with the children it generates: unit k is the position just before the (k+1)-th
// expansion, k expansions made (unit 0 before the first; the last one, the end of the trace). Share links and the Step button count
// in units.

export const HIDDEN = 0;   // not generated yet
export const OPEN = 1;     // waiting to be expanded (open list, frontier, or the child IDA* descends into next)
export const CLOSED = 2;   // expanded
export const CURRENT = 3;  // expanded last: its children are the ones just generated
export const PRUNED = 4;   // f over the IDA* and IDDFS bound
export const SEEN = 5;     // its board was open or closed already: dropped
export const REPLACED = 6; // a better node for its board was added later (A*): its entry is stale
export const GOAL = 7;     // the goal reached (or, bidirectional, the meeting)
export const PATH = 8;     // on the solution path, at the end
export const STATUS_COUNT = 9;

const ITERATIVE = new Set(['idastar', 'iddfs']);

export class TraceModel {
  constructor(answer) {
    this.answer = answer;
    this.algorithm = answer.algorithm;
    this.iterative = ITERATIVE.has(answer.algorithm);
    this.bidirectional = answer.algorithm === 'bidirectional';
    const entries = Object.entries(answer.nodes);  // from the worker, None arrives as undefined: compare with == null
    const n = entries.length;
    this.size = n;
    this.parent = new Int32Array(n);
    this.g = new Int32Array(n);
    this.h = new Float64Array(n);
    this.f = new Float64Array(n);
    this.side = new Uint8Array(n);          // 1 on the backward side of bidirectional search
    this.group = new Int32Array(n);         // the IDA* and IDDFS iteration a node belongs to (0 otherwise)
    this.expansion = new Int32Array(n);     // its expansion number (1, 2, ...), 0 if never expanded
    this.boards = new Array(n);
    this.names = new Array(n);
    const weight = answer.algorithm === 'greedy' ? null : (answer.weight ?? 1);
    const roots = [];
    for (const [key, node] of entries) {
      const id = Number(key);
      this.parent[id] = node.parent == null ? -1 : Number(node.parent);
      this.g[id] = node.g;
      this.h[id] = node.h;
      this.f[id] = weight === null ? node.h : node.g + weight * node.h;  // a generate step gives the engine's own f
      this.side[id] = node.side === 'backward' ? 1 : 0;
      this.boards[id] = node.board;
      this.names[id] = node.name;
      if (node.parent == null) roots.push(id);
    }
    this.roots = roots;
    this.#findGroups();
    this.#simulate(answer.steps, roots);
  }

  // Play the whole trace once, writing each step's changes as (node, old status, new status) triples.
  #simulate(steps, roots) {
    const n = this.size;
    const status = new Uint8Array(n);
    const changes = [];
    const stepStart = new Int32Array(steps.length + 1);
    const live = new Map();  // side + board -> its node that waits (or waited) in the open list
    const key = id => `${this.side[id]}${this.boards[id]}`;
    let current = -1;
    const set = (id, to) => {
      if (status[id] !== to) changes.push(id, status[id], to);
      status[id] = to;
    };
    const base = new Uint8Array(n);
    if (!this.iterative) {
      for (const r of roots) {
        base[r] = status[r] = OPEN;
        live.set(key(r), r);
      }
    }
    this.base = base;
    // unit k: k expansions made (IDA* and IDDFS start with their first iteration's step, before unit 0)
    const boundaries = [Math.max(0, steps.findIndex(step => step.type === 'expand'))];
    this.iterationSteps = [];  // step index of each iteration (IDA*, IDDFS)
    this.bounds = [];
    this.lastIteration = new Int32Array(steps.length + 1).fill(-1);  // per position: the iteration it is in
    this.lastSide = new Int32Array(steps.length + 1).fill(-1);       // per position: the side step it is in
    this.expandedBefore = new Int32Array(steps.length + 1);          // per position: expansions done
    let expanded = 0;
    let iterations = 0;
    let group = -1;
    steps.forEach((step, i) => {
      stepStart[i] = changes.length;
      this.lastIteration[i] = iterations - 1;
      this.lastSide[i] = i > 0 ? this.lastSide[i - 1] : -1;
      this.expandedBefore[i] = expanded;
      if (step.type === 'expand' && i > boundaries[0]) boundaries.push(i);
      switch (step.type) {
        case 'iteration': {
          if (group >= 0) {  // the last contour is over: what waited there is done
            for (let id = 0; id < n; id++) {
              if (this.group[id] === group && (status[id] === OPEN || status[id] === CURRENT)) set(id, CLOSED);
            }
          }
          group = iterations;
          const root = roots[iterations];
          set(root, OPEN);
          current = -1;
          this.iterationSteps.push(i);
          this.bounds.push(step.bound);
          iterations += 1;
          this.lastIteration[i] = iterations - 1;
          break;
        }
        case 'side':
          this.lastSide[i] = i;
          break;
        case 'expand':
          if (current >= 0 && status[current] === CURRENT) set(current, CLOSED);
          current = Number(step.node);
          set(current, CURRENT);
          expanded += 1;
          this.expansion[current] = expanded;
          if (step.f !== undefined) this.f[current] = step.f;
          break;
        case 'generate': {
          const id = Number(step.node);
          this.f[id] = step.f;
          if (step.status === 'new' || step.status === 'better') {
            const before = live.get(key(id));
            if (before !== undefined && status[before] === OPEN) set(before, REPLACED);
            live.set(key(id), id);
            set(id, OPEN);
          } else {
            set(id, step.status === 'pruned' ? PRUNED : SEEN);
          }
          break;
        }
        case 'goal':
          set(Number(step.node), GOAL);
          break;
        case 'meet':
          set(Number(step.forward), GOAL);
          set(Number(step.backward), GOAL);
          break;
        case 'solution':
          if (current >= 0 && status[current] === CURRENT) set(current, CLOSED);
          for (const id of step.path) set(Number(id), PATH);
          break;
        default:
          break;
      }
    });
    const last = steps.length;
    stepStart[last] = changes.length;
    this.lastIteration[last] = iterations - 1;
    this.lastSide[last] = last > 0 ? this.lastSide[last - 1] : -1;
    this.expandedBefore[last] = expanded;
    if (boundaries.at(-1) !== last) boundaries.push(last);
    this.steps = steps;
    this.changes = Int32Array.from(changes);
    this.stepStart = stepStart;
    this.boundaries = boundaries;
    this.units = boundaries.length - 1;
    this.reset();
  }

  // Each IDA* and IDDFS iteration's nodes: the root of iteration k and everything below it.
  #findGroups() {
    if (!this.iterative) return;
    this.roots.forEach((root, k) => { this.group[root] = k; });
    for (let id = 0; id < this.size; id++) {
      if (this.parent[id] >= 0) this.group[id] = this.group[this.parent[id]];
    }
  }

  /** Back to the start of the trace. */
  reset() {
    this.status = this.base.slice();
    this.counts = new Int32Array(STATUS_COUNT * 2);
    for (let id = 0; id < this.size; id++) this.counts[this.side[id] * STATUS_COUNT + this.status[id]] += 1;
    this.openSet = new Set();
    for (let id = 0; id < this.size; id++) if (this.status[id] === OPEN) this.openSet.add(id);
    this.position = 0;
    this.unit = 0;
    this.go(0);
  }

  #write(id, from, to) {
    this.status[id] = to;
    const side = this.side[id] * STATUS_COUNT;
    this.counts[side + from] -= 1;
    this.counts[side + to] += 1;
    if (from === OPEN) this.openSet.delete(id);
    if (to === OPEN) this.openSet.add(id);
  }

  /** Move to a unit (clamped to 0 .. units), forward or back, one recorded change at a time. */
  go(unit) {
    const target = Math.max(0, Math.min(this.units, unit));
    const to = this.boundaries[target];
    const c = this.changes;
    if (to > this.position) {
      for (let i = this.stepStart[this.position]; i < this.stepStart[to]; i += 3) this.#write(c[i], c[i + 1], c[i + 2]);
    } else {
      for (let i = this.stepStart[this.position] - 3; i >= this.stepStart[to]; i -= 3) {
        this.#write(c[i], c[i + 2], c[i + 1]);
      }
    }
    this.position = to;
    this.unit = target;
  }

  get finished() {
    return this.unit === this.units;
  }

  get expanded() {
    return this.expandedBefore[this.position];
  }

  /** The node the search expands next (-1 at the end). */
  get next() {
    const step = this.steps[this.position];
    return step?.type === 'expand' ? Number(step.node) : -1;
  }

  /** The node expanded last (-1 before the first expansion). */
  get current() {
    for (let i = this.position - 1; i >= 0; i--) {
      const step = this.steps[i];
      if (step.type === 'expand') return Number(step.node);
      if (step.type === 'iteration') return -1;
    }
    return -1;
  }

  /** The end of the path a depth-first search is on: the node it expands next, else the one it expanded last. */
  get pathEnd() {
    const next = this.next;
    return next >= 0 ? next : this.current;
  }

  /** The IDA* and IDDFS iteration the position is in (-1 before the first, or for other algorithms). */
  get iteration() {
    return this.lastIteration[this.position];
  }

  /** The bound of the current iteration (null outside IDA* and IDDFS). */
  get bound() {
    const k = this.iteration;
    return k >= 0 ? this.bounds[k] : null;
  }

  /** Expansions made in the current iteration. */
  get expandedInIteration() {
    const k = this.iteration;
    return k >= 0 ? this.expanded - this.expandedBefore[this.iterationSteps[k]] : this.expanded;
  }

  /** The side step the position is in: {side, depth} for bidirectional search, else null. */
  get sideStep() {
    const i = this.lastSide[this.position];
    return i >= 0 ? this.steps[i] : null;
  }

  /** The unit where the next iteration's first expansion waits (the end if there is none). */
  nextIterationUnit() {
    const next = this.iterationSteps.find(i => i >= this.position);
    if (next === undefined) return this.units;
    const unit = this.boundaries.findIndex(b => b > next);
    return unit < 0 ? this.units : unit;
  }

  /** Nodes from the root to `id`. */
  chain(id) {
    const ids = [];
    for (let node = id; node >= 0; node = this.parent[node]) ids.push(node);
    return ids.reverse();
  }

  /** The first `limit` open nodes as the algorithm orders them, and how many there are: best-first by (f, h, age),
   * breadth-first by age (bidirectional: the frontier of the side growing now first), IDA* and IDDFS the path from the root to the node
   * it descends into next. */
  openList(limit) {
    if (this.iterative) {
      const end = this.pathEnd;
      const ids = end >= 0 ? this.chain(end) : [];
      return { ids: ids.slice(0, limit), total: ids.length };
    }
    const ids = [...this.openSet];
    const { f, h, side } = this;
    if (this.algorithm === 'bfs') ids.sort((a, b) => a - b);
    else if (this.bidirectional) {  // the side growing now first, each side by age
      const now = this.sideStep?.side === 'backward' ? 1 : 0;
      ids.sort((a, b) => (side[a] !== now) - (side[b] !== now) || a - b);
    }
    else ids.sort((a, b) => f[a] - f[b] || h[a] - h[b] || a - b);
    return { ids: ids.slice(0, limit), total: ids.length };
  }
}
