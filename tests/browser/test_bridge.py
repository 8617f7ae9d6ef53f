"""The solver bridge (web/js/bridge.js) against a stand-in PyScript: how it starts the worker, routes progress,
cancels cooperatively, and restarts a worker that does not answer a cancel."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

# Serves as <base>/fake/pyscript/core.js: a PyWorker whose solve answers only when told to (or when cancelled, if
# `cooperative`), recording what it was given.
FAKE_CORE = """
export async function PyWorker(file, options) {
  const fake = window.fake;
  if (fake.failWith) throw new Error(fake.failWith);
  if (fake.failOnce) {
    const reason = fake.failOnce;
    fake.failOnce = null;
    throw new Error(reason);
  }
  if (fake.hangOnce) {  // comes up only when released (after the bridge has given up on it, say)
    fake.hangOnce = false;
    return new Promise(resolve => { fake.release = () => resolve(made(file, options)); });
  }
  return made(file, options);
}

function made(file, options) {
  const fake = window.fake;
  fake.created.push({ file, options });
  const worker = new EventTarget();
  fake.worker = worker;
  worker.terminate = () => { fake.terminated += 1; };
  fake.uncopyable = () => { throw new DOMException('could not be cloned', 'DataCloneError'); };  // postMessage's
  const cancelled = { ok: false, error: { code: 'cancelled', message: 'the search was cancelled' } };
  worker.sync = {
    solve: request => request.uncopyable ? fake.uncopyable() : new Promise((resolve, reject) => {
      fake.requests.push(request);
      fake.finish = resolve;
      fake.fail = reject;
      worker.dispatchEvent(new MessageEvent('message', { data: { type: 'progress', expanded: 7, bound: 21 } }));
    }),
    cancel: async () => { if (fake.cooperative) fake.finish(cancelled); },
    check: async request => ({ ok: true, solvable: true, board: request.board }),
    describe: async () => ({ algorithms: [], heuristics: [] }),
  };
  return worker;
}
"""


@pytest.fixture
def bridge(page: Page, base_url: str) -> Page:
    page.route(base_url + "fake/pyscript/core.js",
               lambda route: route.fulfill(body=FAKE_CORE, content_type="text/javascript"))
    page.goto(base_url + "build-info.json")
    page.evaluate("""async base => {
      window.fake = { created: [], requests: [], terminated: 0, cooperative: true, statuses: [], base };
      const { Solver } = await import('./js/bridge.js');
      window.solver = new Solver({ base, onStatus: (status, detail) => fake.statuses.push([status, detail]) });
    }""", base_url + "fake/")
    return page


def test_the_worker_is_started_on_the_local_pyodide(bridge: Page, base_url: str):
    assert bridge.evaluate("solver.solve({ board: '1 2/3 0' })") == {
        "ok": False, "error": {"code": "not_ready", "message": "the solver is still loading; try again in a moment"}}
    bridge.evaluate("solver.start()")
    created = bridge.evaluate("fake.created")
    assert created == [{"file": base_url + "fake/py/worker.py", "options": {
        "config": base_url + "fake/pyscript.json", "version": base_url + "fake/js/pyodide_start.mjs"}}]
    assert bridge.evaluate("fake.statuses.map(s => s[0])") == ["loading", "loading", "ready"]
    assert bridge.evaluate("solver.check({ board: '1 2/3 0' })") == {"ok": True, "solvable": True, "board": "1 2/3 0"}


def test_progress_goes_to_the_running_solve_and_its_answer_comes_back(bridge: Page):
    answer = bridge.evaluate("""async () => {
      await solver.start();
      const progress = [];
      const pending = solver.solve({ board: '2 1/3 0' }, event => progress.push(event));
      const busy = await solver.solve({ board: '1 2/3 0' });
      fake.finish({ ok: true, length: 0, moves: [] });
      return { answer: await pending, progress, busy: busy.error.code, requests: fake.requests, after: solver.busy };
    }""")
    assert answer == {"answer": {"ok": True, "length": 0, "moves": []}, "progress": [
        {"type": "progress", "expanded": 7, "bound": 21}], "busy": "busy", "requests": [{"board": "2 1/3 0"}],
        "after": False}


def test_a_cooperative_cancel_answers_cancelled_without_a_restart(bridge: Page):
    result = bridge.evaluate("""async () => {
      await solver.start();
      const pending = solver.solve({ board: '2 1/3 0' });
      await solver.cancel();
      return { answer: await pending, terminated: fake.terminated, workers: fake.created.length };
    }""")
    assert result == {"answer": {"ok": False, "error": {"code": "cancelled", "message": "the search was cancelled"}},
                      "terminated": 0, "workers": 1}


def test_a_worker_that_ignores_cancel_is_terminated_and_started_again(bridge: Page):
    result = bridge.evaluate("""async () => {
      fake.cooperative = false;
      await solver.start();
      const pending = solver.solve({ board: '2 1/3 0' });
      const started = performance.now();
      await solver.cancel();
      const answer = await pending;
      const waited = performance.now() - started;
      await solver.start();
      return { answer, waited, terminated: fake.terminated, workers: fake.created.length, status: solver.status,
               busy: solver.busy };
    }""")
    assert result["answer"]["error"]["code"] == "cancelled"
    assert 1900 <= result["waited"] < 4000  # the grace period, then the answer given by the bridge itself
    assert (result["terminated"], result["workers"], result["status"], result["busy"]) == (1, 2, "ready", False)


@pytest.mark.parametrize("how", ["an error event", "a rejected call"])
def test_a_worker_that_fails_mid_search_answers_internal_and_is_started_again(bridge: Page, how: str):
    fatal = "Pyodide has suffered a fatal error"
    fail = (f"fake.worker.dispatchEvent(new ErrorEvent('error', {{ message: '{fatal}' }}))" if how == "an error event"
            else f"fake.fail(new Error('Traceback...\\nPythonError: {fatal}'))")
    result = bridge.evaluate(f"""async () => {{
      await solver.start();
      const pending = solver.solve({{ board: '2 1/3 0' }});
      {fail};
      const answer = await pending;
      await solver.start();
      return {{ answer, terminated: fake.terminated, workers: fake.created.length, status: solver.status,
               busy: solver.busy }};
    }}""")
    assert result["answer"]["error"]["code"] == "internal"
    assert "Pyodide has suffered a fatal error" in result["answer"]["error"]["message"]
    assert (result["terminated"], result["workers"], result["status"], result["busy"]) == (1, 2, "ready", False)


def test_a_request_that_cannot_be_sent_is_answered_and_leaves_the_solver_free(bridge: Page):
    result = bridge.evaluate("""async () => {
      await solver.start();
      const answer = await solver.solve({ board: '2 1/3 0', uncopyable: true }, () => {});
      const busy = solver.busy;
      const next = solver.solve({ board: '2 1/3 0' });
      fake.finish({ ok: true, length: 1, moves: [1] });
      return { answer, busy, next: await next, terminated: fake.terminated };
    }""")
    assert result["answer"]["error"]["code"] == "internal"
    assert result["answer"]["error"]["message"].startswith("the request could not be sent to the solver")
    assert (result["busy"], result["next"], result["terminated"]) == (False, {"ok": True, "length": 1, "moves": [1]}, 0)


def test_a_start_failure_is_reported_with_the_reason(bridge: Page):
    statuses = bridge.evaluate("""async () => {
      fake.failWith = 'Traceback (most recent call last):\\n  File "x.py", line 1\\nValueError: no wheel here';
      await solver.start();
      return fake.statuses;
    }""")
    assert statuses[-1] == ["failed",
                            "The solver could not start: ValueError: no wheel here. Reload the page to try again."]
    assert bridge.evaluate("solver.solve({ board: '1 2/3 0' })")["error"]["code"] == "not_ready"


def test_a_start_that_fails_once_is_tried_again_and_the_solver_is_ready(bridge: Page):
    statuses = bridge.evaluate("""async () => {
      fake.failOnce = 'a download broke off';
      await solver.start();
      return fake.statuses;
    }""")
    assert ["loading", "Starting Python again"] in statuses and statuses[-1] == ["ready", "Solver ready"]
    assert bridge.evaluate("fake.created.length") == 1


def test_a_start_past_its_time_limit_is_tried_again_and_the_late_runtime_is_ended(bridge: Page):
    result = bridge.evaluate("""async () => {
      const { Solver } = await import('./js/bridge.js');
      const statuses = [];
      const solver = new Solver({ base: fake.base, startTimeoutMs: 300,
                                  onStatus: (status, detail) => statuses.push([status, detail]) });
      fake.hangOnce = true;
      await solver.start();  // the first start hangs past 0.3 s; the second comes up
      const terminatedBefore = fake.terminated;
      fake.release();  // the first runtime comes up after all
      await new Promise(resolve => setTimeout(resolve, 50));
      return { statuses, terminatedBefore, terminated: fake.terminated, created: fake.created.length };
    }""")
    assert result["statuses"][-1] == ["ready", "Solver ready"]
    assert ["loading", "Starting Python again"] in result["statuses"]
    assert result["created"] == 2 and result["terminatedBefore"] == 0
    assert result["terminated"] == 1  # the late one: no Pyodide left running unused


def test_a_background_solve_gives_way_to_any_other_and_the_newest_background_wins(bridge: Page):
    result = bridge.evaluate("""async () => {
      await solver.start();
      const answers = {};
      const first = solver.solve({ board: 'a' }, () => {}, { background: true });
      const second = solver.solve({ board: 'b' }, () => {}, { background: true });  // cancels the first
      answers.first = (await first).error.code;
      await new Promise(resolve => setTimeout(resolve, 0));
      const user = solver.solve({ board: 'c' });               // a search the user started: the background one stops
      const late = solver.solve({ board: 'd' }, () => {}, { background: true });  // never takes the worker from it
      answers.second = (await second).error.code;
      answers.late = (await late).error.code;
      await new Promise(resolve => setTimeout(resolve, 0));
      fake.finish({ ok: true, length: 3, moves: [1, 2, 3] });
      answers.user = await user;
      answers.requests = fake.requests.map(r => r.board);
      return answers;
    }""")
    assert result["first"] == "cancelled" and result["second"] == "cancelled"
    assert result["late"] == "busy"
    assert result["user"] == {"ok": True, "length": 3, "moves": [1, 2, 3]}
    assert result["requests"] == ["a", "b", "c"]


@pytest.mark.parametrize("given", [None, 0.4])
def test_a_worker_still_running_your_code_past_its_time_is_ended_and_started_again(bridge: Page, given):
    # your code may never come back to the worker's loop (a bare except around a loop): only ending the worker stops
    # it; a request with no time limit of its own gets the solver's codeSeconds
    result = bridge.evaluate("""async given => {
      await solver.start();
      solver.codeSeconds = 0.3;
      const request = { board: '2 1/3 0', heuristic: 'yours', heuristic_code: 'def h(b):\\n  while True: pass' };
      if (given !== null) request.max_seconds = given;
      const started = performance.now();
      const answer = await solver.solve(request);
      const waited = performance.now() - started;
      await solver.start();
      return { answer, waited, terminated: fake.terminated, workers: fake.created.length, busy: solver.busy,
               status: solver.status };
    }""", given)
    seconds = given or 0.3
    assert result["answer"]["ok"] is False and result["answer"]["error"]["code"] == "limit"
    assert f"stopped after {seconds:g} s" in result["answer"]["error"]["message"]
    assert ("time limit for your own heuristic" in result["answer"]["error"]["message"]) == (given is None)
    assert 1000 * seconds + 900 <= result["waited"] < 1000 * seconds + 2500  # the limit and the grace
    assert (result["terminated"], result["workers"], result["status"], result["busy"]) == (1, 2, "ready", False)


def test_a_request_without_your_code_has_no_time_limit_of_the_bridge(bridge: Page):
    result = bridge.evaluate("""async () => {
      await solver.start();
      solver.codeSeconds = 0.1;
      const pending = solver.solve({ board: '2 1/3 0' });
      await new Promise(resolve => setTimeout(resolve, 1500));
      fake.finish({ ok: true, length: 1, moves: [1] });
      return { answer: await pending, terminated: fake.terminated };
    }""")
    assert result == {"answer": {"ok": True, "length": 1, "moves": [1]}, "terminated": 0}
