"""Token puzzles: board text, validation, moves, the move graph, parity and solvability proofs."""

import random

import pytest

from slidelab.core.errors import InvalidBoard, Unsolvable
from slidelab.core.puzzles.tokens import PRESETS, PROOF_LIMIT, TokenPuzzle, parse_token_board, token_puzzle


def knights():
    return TokenPuzzle.preset("knights")


def reachable_states(puzzle, root):
    """Every state reachable from root with its distance, by a plain breadth-first search over `moves`."""
    dist, frontier = {root: 0}, [root]
    while frontier:
        following = []
        for state in frontier:
            for _, child in puzzle.moves(state):
                if child not in dist:
                    dist[child] = dist[state] + 1
                    following.append(child)
        frontier = following
    return dist


def test_knight_exchange_preset():
    p = knights()
    assert (p.rows, p.cols, p.rule) == (4, 3, "knight")
    assert p.format(p.start) == "BBB/.../.../WWW" and p.format(p.goal) == "WWW/.../.../BBB"
    assert p.state_count() == 18480  # 12! / (3! 3! 6!)


def test_knight_graph_of_the_3x4_board():
    p = knights()
    # a knight on a4 (top left) reaches c3 and b2; b3 and b2 are the middle cells, two moves each
    assert [p.square(q) for q in p.neighbours[0]] == ["c3", "b2"]
    edges = {(a, b) for a, near in enumerate(p.neighbours) for b in near}
    assert len(edges) == 2 * 14 and all((b, a) in edges for a, b in edges)


def test_knight_exchange_known_values():
    """Exactly 18,480 arrangements reachable; from the start the goal is 16 moves away and the farthest
    arrangements are 22 moves away, exactly 3 of them."""
    p = knights()
    dist = reachable_states(p, p.start)
    assert len(dist) == 18480
    assert dist[p.goal] == 16
    far = max(dist.values())
    assert far == 22
    assert sum(1 for d in dist.values() if d == far) == 3


def test_guarini_needs_16_moves():
    p = TokenPuzzle.preset("guarini")
    assert reachable_states(p, p.start)[p.goal] == 16


def test_moves_are_legal_and_complete():
    """`moves` lists exactly the (piece cell, empty neighbour) pairs, and `children` the same next states."""
    p = TokenPuzzle.from_text("AB.#/.CA./#..B", "BA.#/..CA/#B..", "king")
    rng = random.Random(4)
    state = p.start
    for _ in range(200):
        cells = p.cells(state)
        expected = sorted((a, b) for a in range(p.size) for b in p.neighbours[a]
                          if cells[a].isalpha() and cells[b] == ".")
        listed = p.moves(state)
        assert sorted(m for m, _ in listed) == expected
        assert [c for _, c in listed] == p.children(state)
        for move, child in listed:
            assert child == p.apply(state, move)
            after = p.cells(child)
            assert after[move[1]] == cells[move[0]] and after[move[0]] == "."
        state = rng.choice(listed)[1]


def test_format_and_parse_round_trip():
    p = TokenPuzzle.from_text("AB.#/.CA./#..B", "BA.#/..CA/#B..", "orthogonal")
    rng = random.Random(1)
    state = p.start
    for _ in range(100):
        assert p.parse(p.format(state)) == state
        state = rng.choice(p.moves(state))[1]
    assert p.parse(" A B . # / . C A . / # . . B ") == p.start  # spaces between cells are ignored


def test_replay_and_move_names():
    p = knights()
    moves = [(0, 5), (11, 6)]
    assert [p.move_name(m) for m in moves] == ["a4-c3", "c1-a2"]
    assert p.format(p.replay(moves)) == ".BB/..B/W../WW."
    assert p.replay([[0, 5]]) == p.apply(p.start, (0, 5))  # a move may come from JSON as a list


@pytest.mark.parametrize("move, reason", [
    ((0, 1), "not a knight move"),
    ((6, 1), "no piece on a2"),
    ((5, 0), "no piece on c3"),
    ((0, 12), "pair of cell indices"),
    ((0,), "pair of cell indices"),
    ("a4-c3", "pair of cell indices"),
    ((True, 5), "pair of cell indices"),
])
def test_illegal_moves_are_refused(move, reason):
    with pytest.raises(InvalidBoard, match=reason):
        knights().apply(knights().start, move)


def test_moving_onto_a_piece_is_refused():
    p = TokenPuzzle.from_text("AB", "BA", "orthogonal")
    with pytest.raises(InvalidBoard, match="b1 is not empty"):
        p.apply(p.start, (0, 1))


@pytest.mark.parametrize("board, goal, rule, message", [
    ("BBB/.*./.../WWW", "WWW/.../.../BBB", "knight", "'\\*' is not a cell"),
    ("BBB/.é./.../WWW", "WWW/.../.../BBB", "knight", "'é' is not a cell"),
    ("BBB/.1./.../WWW", "WWW/.../.../BBB", "knight", "'1' is not a cell"),
    ("BBB/../.../WWW", "WWW/.../.../BBB", "knight", "row 2 has 2 cells but row 1 has 3"),
    ("BBB//.../WWW", "WWW/.../.../BBB", "knight", "a row is empty"),
    ("", "WWW/.../.../BBB", "knight", "the board is empty"),
    ("..../....", "..../....", "king", "no pieces"),
    ("BBB/.../.../WWW", "WWW/.../BBB", "knight", "the start is 4x3 but the goal is 3x3"),
    ("BBB/.../.../WWW", "WWW/.../.../BBW", "knight", "the start has 3 B, 3 W but the goal has 2 B, 4 W"),
    ("BBB/.../.../WWW", "WWW/.../.../BB.", "knight", "the start and goal must hold the same pieces"),
    ("BBB/.#./.../WWW", "WWW/.../.#./BBB", "knight", "b3 is removed"),
    ("BBB/.../.../WWW", "WWW/.../.../BBB", "bishop", "unknown move rule 'bishop'"),
    ("B" * 11, "B" * 11, "king", "1x11 board is not supported"),
])
def test_bad_input_is_explained(board, goal, rule, message):
    with pytest.raises(InvalidBoard, match=message):
        TokenPuzzle.from_text(board, goal, rule)


def test_non_text_board_is_refused():
    with pytest.raises(InvalidBoard, match="must be given as text"):
        parse_token_board(42)


def test_request_builder():
    assert token_puzzle("knights").format(knights().start) == PRESETS["knights"].board
    p = token_puzzle("knights", board="WBB/.../.../BWW")
    assert p.format(p.goal) == "WWW/.../.../BBB"  # the preset's goal by default
    with pytest.raises(InvalidBoard, match="the default goal is the knights preset's 'WWW/.../.../BBB'; give a goal"):
        token_puzzle("knights", board="BB/../WW")
    with pytest.raises(InvalidBoard, match="uses knight moves"):
        token_puzzle("knights", rule="king")
    with pytest.raises(InvalidBoard, match="no goal given"):
        token_puzzle("tokens", board="AB.", rule="king")
    with pytest.raises(InvalidBoard, match="no move rule given"):
        token_puzzle("tokens", board="AB.", goal="BA.")
    with pytest.raises(InvalidBoard, match="no board given"):
        token_puzzle("tokens")


def test_solution_parity_only_for_bipartite_graphs():
    assert knights().solution_parity() == 0
    assert TokenPuzzle.from_text("A../...", ".../..A", "orthogonal").solution_parity() == 1
    assert TokenPuzzle.from_text("A./..", "../.A", "king").solution_parity() is None  # triangles
    assert TokenPuzzle.from_text("A..", "..A", "king").solution_parity() == 0  # a path is bipartite


@pytest.mark.parametrize("board, rule", [("BBB/.../.../WWW", "knight"), ("AB.#/.CA./#..B", "orthogonal"),
                                         ("AB./..B", "orthogonal")])
def test_solution_parity_matches_every_distance(board, rule):
    p = TokenPuzzle.from_text(board, board, rule)
    for state, d in reachable_states(p, p.start).items():
        q = TokenPuzzle(p.rows, p.cols, p.cells(p.start), p.cells(state), rule)
        assert q.solution_parity() == d % 2


def test_commuting_moves_touch_four_other_cells_and_sort_before():
    p = knights()
    skip = p.commuting_before((5, 10))
    assert (0, 7) in skip and (9, 4) not in skip  # (9, 4) sorts after
    assert (0, 5) not in skip and (3, 10) not in skip  # share a cell with c3-b1
    for a, b in skip:
        assert {a, b}.isdisjoint({5, 10}) and (a, b) < (5, 10)


def test_a_piece_that_can_never_move_is_reported():
    # Guarini's board: no knight move reaches the centre, so a knight there stays there
    p = TokenPuzzle.from_text("B.B/.W./W..", "B.B/.../WW.", "knight")
    with pytest.raises(Unsolvable, match="b2 hold 1 W in the start but no pieces in the goal"):
        p.check_solvable()


def test_a_full_part_of_the_board_is_reported():
    p = TokenPuzzle.from_text("AB#.....", "BA#.....", "orthogonal")
    with pytest.raises(Unsolvable, match="Nothing can ever move on a1, b1"):
        p.check_solvable()


def test_small_boards_are_decided_by_search():
    p = TokenPuzzle.from_text("AB..", "BA..", "orthogonal")  # pieces on a line cannot pass each other
    assert p.state_count() <= PROOF_LIMIT
    with pytest.raises(Unsolvable, match="a search of every arrangement reachable from the start"):
        p.check_solvable()
    TokenPuzzle.from_text("AB../....", "BA../....", "orthogonal").check_solvable()  # on a 2x4 board they can


def test_proofs_agree_with_exhaustive_search():
    """On random small boards, check_solvable raises exactly when the goal is unreachable."""
    rng = random.Random(7)
    for _ in range(60):
        rows, cols = rng.randint(1, 3), rng.randint(2, 4)
        cells = [rng.choice("AAB..#") for _ in range(rows * cols)]
        if not any(c.isalpha() for c in cells):
            continue
        goal = cells[:]
        live = [i for i, c in enumerate(cells) if c != "#"]
        contents = [cells[i] for i in live]
        rng.shuffle(contents)
        for i, c in zip(live, contents, strict=True):
            goal[i] = c
        rule = rng.choice(["knight", "king", "orthogonal"])
        p = TokenPuzzle(rows, cols, "".join(cells), "".join(goal), rule)
        reachable = p.goal in reachable_states(p, p.start)
        try:
            p.check_solvable()
            assert reachable
        except Unsolvable:
            assert not reachable


def test_describe_gives_what_the_app_draws():
    p = TokenPuzzle.from_text("B#B/.../W.W", "W#W/.../B.B", "knight")
    d = p.describe()
    assert d == {"rule": "knight", "removed": [1], "squares": ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]}
    assert 6 not in p.neighbours[1] and 5 in p.neighbours[0]
    assert {p.move_name(m) for m, _ in p.moves(p.start)} == {"a3-c2", "a3-b1", "c3-a2", "c3-b1", "a1-c2", "c1-a2"}
    assert all(child == p.apply(p.start, m) for m, child in p.moves(p.start))


def test_reversed_exchanges_start_and_goal():
    p = knights().reversed()
    assert p.format(p.start) == "WWW/.../.../BBB" and p.format(p.goal) == "BBB/.../.../WWW"
