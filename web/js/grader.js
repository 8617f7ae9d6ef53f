// Grading hand-ins in the page, as `slidelab grade` does on the command line and with the same code
// (course/page.py and grade.py): each hand-in is graded afresh, never trusting what its file says.
//
//   const grader = new Grader({ makeSolver: () => new Solver({...}), lanes: 2 });
//   const rows = await grader.grade(toml, [{ name, text }], { onRow(row, index) {}, onStart(index) {}, student });
//   grader.cancel();   // the rows not graded yet answer "cancelled"
//
// A hand-in's code is someone else's program running in this browser, so it never runs where its grade is decided:
// a lane is a grading worker, which never runs code (the worker refuses to grade once it has), and an evaluating
// worker, started afresh for each hand-in and locked down by its first request (no network, storage, caches or
// workers: worker.py), which only compiles the code and computes h of the states it is sent. The grading worker's
// questions come here and go to the evaluating worker; its answers go back as they are, and are checked there.
// Nothing else of the evaluating worker is read (it may post what it likes). The code's time is counted here, per
// task, and a worker still running it past the task's limit is ended by the bridge (the answer is "limit"); the
// task fails, the rest of the hand-in and the other hand-ins go on.

const LANES = 2;  // hand-ins graded at once (two workers each)

export class Grader {
  #lanes = [];
  #cancelled = false;

  constructor({ makeSolver, lanes = Math.min(LANES, navigator.hardwareConcurrency || 1) }) {
    this.makeSolver = makeSolver;
    this.lanes = Math.max(1, lanes);
  }

  /** Grade every file ({name, text}); onRow(row, index) as each is graded (in the order they finish). `student`: a
   * student's own check, which tells what the exercise lets it (course/grade.py for_student). */
  async grade(toml, files, { onRow = () => {}, onStart = () => {}, student = false } = {}) {
    this.#cancelled = false;
    const rows = new Array(files.length).fill(null);
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.lanes, files.length) }, () => this.#lane());
    this.#lanes = lanes;
    try {
      await Promise.all(lanes.map(async lane => {
        while (next < files.length && !this.#cancelled) {
          const index = next++;
          onStart(index);
          rows[index] = await this.#gradeOne(lane, toml, files[index], next < files.length, student);
          onRow(rows[index], index);
        }
      }));
    } finally {
      for (const lane of lanes) this.#close(lane);
      this.#lanes = [];
    }
    return rows.map((row, index) => row ?? stopped(files[index].name, 'cancelled'));
  }

  /** Stop grading: the workers are ended, the hand-ins not graded yet are left out. */
  cancel() {
    this.#cancelled = true;
    for (const lane of this.#lanes) this.#close(lane);
  }

  #lane() {
    return { checker: this.#started(), evaluator: null, spare: this.#started() };
  }

  /** A new worker, starting. */
  #started() {
    const solver = this.makeSolver();
    solver.start();
    return solver;
  }

  #close(lane) {
    for (const solver of [lane.checker, lane.evaluator, lane.spare]) solver?.stop();
  }

  async #gradeOne(lane, toml, file, more, student) {
    // this hand-in's evaluating worker (started while the last one was graded), and the next one's
    lane.evaluator = lane.spare;
    lane.spare = more ? this.#started() : null;
    const evaluator = lane.evaluator;
    let seconds = 0;
    let used = 0;
    const onAsk = async message => {
      await evaluator.start();
      const began = performance.now();
      let answer;
      if (message.start) {
        seconds = message.start.max_seconds;
        used = 0;
        answer = await evaluator.evaluatorStart(message.start);
      } else {
        answer = await evaluator.evaluate({ states: message.states, max_seconds: Math.max(seconds - used, 0.01) });
      }
      used += (performance.now() - began) / 1000;
      if (!this.#cancelled) await lane.checker.reply(answer);
    };
    await lane.checker.start();
    const row = await lane.checker.grade({ exercise: toml, handin: file.text, name: file.name, student }, onAsk);
    evaluator.stop();
    lane.evaluator = null;
    if (row && typeof row.file === 'string') return row;
    return stopped(file.name, row?.error?.code === 'cancelled' ? 'cancelled' : row?.error?.message ?? 'failed');
  }
}

/** The row of a hand-in that was not graded. */
const stopped = (name, error) => ({ file: name, student: null, ok: false, error, total: 0, max: null, tasks: {} });
