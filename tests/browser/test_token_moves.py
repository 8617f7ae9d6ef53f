"""tokens.js's move rules pinned to the engine's: on many boards, the legal moves the page offers and the board each
one leads to are the ones slidelab.core.puzzles.tokens gives (the page plays token puzzles before Python has loaded)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from slidelab.core.puzzles.tokens import PRESETS, RULES, TokenPuzzle, format_token_board, parse_token_board

pytestmark = pytest.mark.browser

PIECES = "BWRGa"
# every legal move tokens.js lists, the board it leads to, and every (from, to) its applyTokenMove accepts
JS_MOVES = """boards => boards.map(([text, rule]) => {
  const board = m.parseTokenBoard(text, rule);
  const size = board.cells.length;
  const accepted = [];
  for (let from = 0; from < size; from++) {
    for (let to = 0; to < size; to++) if (m.applyTokenMove(board, [from, to])) accepted.push([from, to]);
  }
  return {
    moves: m.legalMoves(board).map(move => [...move, m.formatTokenBoard(m.applyTokenMove(board, move))]),
    accepted,
  };
})"""


@pytest.fixture
def tokens(page: Page, base_url: str) -> Page:
    """A page of the site that does not start the solver, with tokens.js loaded as `window.m`."""
    page.goto(base_url + "build-info.json")
    page.evaluate("async () => { window.m = await import('./js/tokens.js'); }")
    return page


def engine_moves(text: str, rule: str) -> list:
    """The engine's legal moves of a board as sorted [from, to, board text after the move]."""
    rows, cols, cells = parse_token_board(text)
    puzzle = TokenPuzzle(rows, cols, cells, cells, rule)
    return sorted([*move, puzzle.format(child)] for move, child in puzzle.moves(puzzle.start))


def random_board(rng: random.Random, rows: int, cols: int, removed: float, pieces: float) -> str:
    """A board with about the given shares of removed cells and pieces (at least one piece)."""
    cells = [rng.choice(PIECES) if rng.random() < pieces else "#" if rng.random() < removed else "."
             for _ in range(rows * cols)]
    if not any(ch in PIECES for ch in cells):
        cells[rng.randrange(len(cells))] = rng.choice(PIECES)
    return format_token_board("".join(cells), cols)


def preset_boards(rng: random.Random) -> list:
    """The presets' starts and goals, and positions along random walks from their starts."""
    boards = []
    for preset in PRESETS.values():
        puzzle = TokenPuzzle.preset(preset.name)
        boards += [(preset.board, preset.rule), (preset.goal, preset.rule)]
        state = puzzle.start
        for _ in range(30):
            state = rng.choice(puzzle.moves(state))[1]
            boards.append((puzzle.format(state), preset.rule))
    return boards


def custom_boards(rng: random.Random) -> list:
    """Boards of every rule: fixed ones with removed cells and one row or column, and random ones of any size."""
    boards = [(text, rule) for rule in RULES for text in [
        "B.W/.#./W.B", "AB#/..#/...", "B.#.W", "B", "BW", "B.", ".B.W..", "B/./W/#/.", "BBB/BBB/BBB", "###/#B#/###",
        "B..#..W", "B.W.R.G.a.", "..../.BW./.RG./....",
    ]]
    for rule in RULES:
        for _ in range(12):  # one row or one column
            length = rng.randint(2, 10)
            shape = (1, length) if rng.random() < 0.5 else (length, 1)
            boards.append((random_board(rng, *shape, removed=0.2, pieces=0.4), rule))
        for _ in range(40):
            rows, cols = rng.randint(1, 10), rng.randint(1, 10)
            boards.append((random_board(rng, rows, cols, removed=rng.choice([0, 0.15, 0.4]),
                                        pieces=rng.choice([0.1, 0.3, 0.6, 0.9])), rule))
    return boards


def test_token_moves_in_the_page_are_the_engines(tokens: Page):
    rng = random.Random(20261123)
    boards = preset_boards(rng) + custom_boards(rng)
    assert len(boards) > 200
    found = tokens.evaluate(JS_MOVES, boards)
    mismatches = []
    for (text, rule), js in zip(boards, found, strict=True):
        expected = engine_moves(text, rule)
        if sorted(js["moves"]) != expected or sorted(js["accepted"]) != [move[:2] for move in expected]:
            mismatches.append((text, rule, expected, js))
    assert not mismatches, f"{len(mismatches)} of {len(boards)} boards differ, the first: {mismatches[0]}"
    assert sum(bool(engine_moves(text, rule)) for text, rule in boards) > len(boards) * 0.7  # most boards can move
