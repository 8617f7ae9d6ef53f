"""Dual lookups (heuristics/pdb/dual.py): sound over a whole state space, found where the set's tables cover a dual
position, and searched by the kernel as the generic IDA* searches them. The 15-puzzle's tables take minutes, so the
code is tested with the dual sets pointed at small boards cut in halves the same way."""

from collections import deque

import pytest

import test_pdb_ranked
from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle, neighbours, random_position
from slidelab.heuristics import get_heuristic, pdb
from slidelab.heuristics.pdb import files, frames
from slidelab.heuristics.pdb.dual import covers, goal_region
from slidelab.search.idastar import generic_idastar
from slidelab.search.pdb_idastar import pdb_idastar

pytest.importorskip("numpy")
cache = test_pdb_ranked.cache  # an empty cache folder, no tables in memory

# 2x4 in halves: the left one but the blank's cell (for the goal's and three more blank cells), the right one whole
TWO_BY_FOUR = (2, 4, ((1, 4, 5), (2, 3, 6, 7)), (((0, 4, 5), 1), ((0, 1, 5), 4), ((0, 1, 4), 5)))
# 4x4 in quadrants: the lookups of some blank cells read tables turned a quarter, not only mirrored
QUADRANTS = (4, 4, ((1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)),
             (((0, 4, 5), 1), ((0, 1, 5), 4), ((0, 1, 4), 5)))
# 3x4 in halves the same way (12 cells: the kernel skips duplicate walks there)
THREE_BY_FOUR = (3, 4, ((1, 4, 5, 8, 9), (2, 3, 6, 7, 10, 11)),
                 (((0, 4, 5, 8, 9), 1), ((0, 1, 5, 8, 9), 4), ((0, 1, 4, 8, 9), 5)))


def _dual_set(monkeypatch, rows, cols, groups, dual_tables, puzzle):
    """Point pdb78 and pdb78dual at these groups on this board, build their tables: (pdb78, pdb78dual) for puzzle."""
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (rows, cols), (groups,))
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78dual"], (rows, cols), (groups,))
    monkeypatch.setitem(frames.DUAL_TABLES["pdb78dual"], (rows, cols), dual_tables)
    for name, r, c, cells in pdb.plan(puzzle, "pdb78dual"):
        pdb.ensure_table(name, r, c, cells)
    return get_heuristic("pdb78", puzzle), get_heuristic("pdb78dual", puzzle)


def _distances(puzzle, depth=None):
    """Every position of the puzzle's space (within `depth` moves) with its distance to the goal (breadth-first)."""
    nbrs = neighbours(puzzle.rows, puzzle.cols)
    dist, todo = {puzzle.goal: 0}, deque([puzzle.goal])
    while todo:
        s = todo.popleft()
        b = s.index(0)
        for q in nbrs[b]:
            t = list(s)
            t[b], t[q] = t[q], 0
            t = tuple(t)
            if t not in dist and (depth is None or dist[s] < depth):
                dist[t] = dist[s] + 1
                todo.append(t)
    return dist


def test_a_table_with_the_blank_elsewhere_is_named_built_and_read_back_with_it(cache):
    name = frames.table_name(2, 4, (0, 4, 5), ranked=True, blank=1)
    assert name == "2x4_0-4-5_b1.ranked.slpdb"
    assert frames.parse_table_name(name) == (2, 4, (0, 4, 5)) and frames.table_blank(name) == 1
    assert frames.table_blank(frames.table_name(2, 4, (1, 4, 5), ranked=True)) == 0
    pdb.ensure_table(name, 2, 4, (0, 4, 5))
    read_name, table = files.decode((cache / name).read_bytes())
    assert read_name == name
    # with tiles 0, 4 and 5 home the blank on cell 1 has cells 1, 2, 3, 6, 7: the goal is 0 there, 1 move away if
    # tile 5 stands on cell 1 (the blank then on 5, outside that region: no longer the goal's)
    from slidelab.heuristics.pdb.placement_index import rank_of
    assert table[rank_of(8, [0, 4, 5])] == 0 and table[rank_of(8, [0, 4, 6])] == 1
    assert goal_region(2, 4, (0, 4, 5), 1) == {1, 2, 3, 6, 7}
    # a direct table's cells hold cell 0 where the goal's blank is elsewhere: its files read as before
    from slidelab.space import pdb_builder as builder
    direct = builder.build(3, 3, (0, 1, 2, 3))
    assert files.decode(files.encode(3, 3, (0, 1, 2, 3), direct)) == ("3x3_0-1-2-3.slpdb", direct)


def test_every_dual_position_of_the_15_puzzle_sets_is_covered_twice_or_four_times():
    """Two covers a blank cell with the 7-8 tables (the half across and the half along), four with 7-7-1 (tile 15's
    table at either end of the half of 8), so four and six lookups in all; none needs a table the sets lack."""
    for table_set, count in (("pdb78dual", 2), ("pdb771dual", 4)):
        shapes = [(cells, 0) for part in frames.LARGE_PARTITIONS[table_set][4, 4] for cells in part]
        shapes += list(frames.DUAL_TABLES[table_set][4, 4])
        for beta in range(16):
            found = covers(4, 4, shapes, beta)
            assert len(found) == count
            assert all(len(cover) == len(shapes) - 3 for cover in found)  # the groups of the partition, one each
    assert "pdb78dual" not in frames.AUTO_SETS and "pdb78dual" in pdb.TABLE_SETS


def test_dual_lookups_never_overestimate_over_a_whole_space_and_raise_h_often(cache, monkeypatch):
    """All 20,160 positions of 2x4 (the goal's blank in the corner the frame turns to cell 0): the dual lookups are
    at most the distance everywhere, above the regular lookups on 4,899 positions; the blank home, the dual position
    is the inverse permutation and the goal's own tables serve it."""
    rows, cols, groups, dual_tables = TWO_BY_FOUR
    puzzle = SlidingPuzzle(rows, cols, (1, 2, 3, 4, 5, 6, 0, 7))
    regular, dual = _dual_set(monkeypatch, rows, cols, groups, dual_tables, puzzle)
    assert dual.dual is not None and regular.dual is None and dual.dual.ways == 1
    dist = _distances(puzzle)
    assert len(dist) == 20_160
    raised = 0
    for state, d in dist.items():
        h, hd = regular(state), dual.dual.value(state)
        assert hd <= d and hd % 2 == d % 2
        raised += hd > h
        assert dual(state) == max(h, hd)
    assert raised == 4_899


def test_the_kernel_searches_with_dual_lookups_as_the_generic_ida_star_does(cache, monkeypatch):
    """On 3x4 (duplicate walks skipped), random positions: the same optimal length as the generic IDA* with the same
    h, replayed to the goal, and fewer positions than without the dual lookups."""
    import random

    rows, cols, groups, dual_tables = THREE_BY_FOUR
    rng = random.Random(4)
    puzzles = [SlidingPuzzle(rows, cols, random_position(rows, cols, None, rng)) for _ in range(3)]
    regular, dual = _dual_set(monkeypatch, rows, cols, groups, dual_tables, puzzles[0])
    with_dual = without = 0
    for puzzle in puzzles:
        fast = run(pdb_idastar(puzzle, dual, Limits()))
        plain = run(pdb_idastar(puzzle, regular, Limits()))
        slow = run(generic_idastar(puzzle, dual, Limits(), False))
        assert len(fast.moves) == len(plain.moves) == len(slow.moves) > 30
        assert puzzle.replay(fast.moves) == puzzle.goal
        with_dual, without = with_dual + fast.stats.generated, without + plain.stats.generated
    assert with_dual < 0.8 * without


def test_dual_lookups_read_turned_tables_soundly_on_the_15_puzzle(cache, monkeypatch):
    """4x4 in quadrants: every position within 14 moves of the goal (61,865) gets at most its distance from
    the dual lookups, which raise h on 5,412 of them; walked positions are solved as long as without them."""
    import random

    rows, cols, groups, dual_tables = QUADRANTS
    puzzle = SlidingPuzzle(rows, cols, tuple(range(1, 16)) + (0,))
    regular, dual = _dual_set(monkeypatch, rows, cols, groups, dual_tables, puzzle)
    shapes = [(cells, 0) for cells in groups] + list(dual_tables)
    turned = {beta for beta in range(16) for cover in covers(rows, cols, shapes, beta) for _, m in cover
              if any(m[m[c]] != c for c in range(16))}
    assert turned == {7, 8}  # the blank there, a table is read turned a quarter (the others: mirrored or not)
    dist = _distances(puzzle, 14)
    raised = 0
    for state, d in dist.items():
        hd = dual.dual.value(state)
        assert hd <= d
        raised += hd > regular(state)
    assert len(dist) == 61_865 and raised == 5_412
    rng, nbrs = random.Random(5), neighbours(rows, cols)
    for _ in range(3):
        board = list(puzzle.goal)
        for _ in range(40):
            b = board.index(0)
            q = rng.choice(nbrs[b])
            board[b], board[q] = board[q], 0
        walked = SlidingPuzzle(rows, cols, tuple(board))
        fast = run(pdb_idastar(walked, dual, Limits()))
        assert len(fast.moves) == len(run(pdb_idastar(walked, regular, Limits())).moves)
        assert walked.replay(fast.moves) == walked.goal
