"""The ranked pattern databases (the 7-8 set): the rank, the numpy builder, the packed file, and the kernel that
keeps the rank up to date. The real 7-8 tables take half an hour to build, so the kernel is tested with the 7-8 set
pointed at small groups (the same code path: ranked tables, two lookups, corrections for tiles passed over)."""

import io
import json
import math
import os
import random
import struct
import sys
import zlib

import pytest

from slidelab import api
from slidelab.core.control import Limits, run
from slidelab.core.errors import BadRequest, MissingData
from slidelab.core.puzzles.sliding import SlidingPuzzle, neighbours, random_position
from slidelab.heuristics import get_heuristic, pdb
from slidelab.heuristics.pdb import files, frames
from slidelab.heuristics.pdb.placement_index import cells_of, rank_change, rank_of
from slidelab.search.idastar import generic_idastar
from slidelab.search.pdb_idastar import pdb_idastar
from slidelab.space import pdb_builder as builder

np = pytest.importorskip("numpy")
builder_numpy = pytest.importorskip("slidelab.space.pdb_builder_numpy")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder and no tables in memory (restored afterwards)."""
    monkeypatch.setenv(pdb.ENV_DIR, str(tmp_path))
    monkeypatch.setattr(files, "_TABLES", {})
    monkeypatch.setattr(files, "_DAMAGED", {})
    return tmp_path


def test_rank_is_a_bijection_and_its_change_follows_the_tiles_passed_over():
    n, k = 16, 5
    assert rank_of(n, [0, 1, 2, 3, 4]) == 0 and rank_of(n, [15, 14, 13, 12, 11]) == math.perm(16, 5) - 1
    rng = random.Random(3)
    for _ in range(500):
        rank = rng.randrange(math.perm(n, k))
        cells = cells_of(n, k, rank)
        assert rank_of(n, cells) == rank
        i = rng.randrange(k)
        a = cells[i]
        for q in (a - 4, a + 4, a - 1, a + 1):
            if 0 <= q < n and q not in cells and (abs(q - a) == 4 or q // 4 == a // 4):
                moved = cells[:i] + [q] + cells[i + 1:]
                assert rank_of(n, moved) - rank == rank_change(n, k, i, a, q, cells)


@pytest.mark.parametrize("rows, cols, cells, compact", [
    (3, 3, (1, 2, 4, 5), False), (3, 3, (3, 6, 7, 8), False), (2, 4, (1, 2, 5), False), (3, 4, (2, 3, 6, 7, 10), False),
    (3, 4, (2, 3, 6, 7, 10), True)])  # the board tables over the sets of at most 5 cells only, as on larger boards
def test_ranked_build_equals_the_direct_table_read_by_rank(rows, cols, cells, compact, monkeypatch):
    from slidelab.heuristics.pdb import placement_index
    from slidelab.heuristics.pdb.placement_index import PlacementIndex

    if compact:
        monkeypatch.setattr(placement_index, "FULL_MASKS_UP_TO", 0)

    n = rows * cols
    ranked = builder_numpy.build_ranked_numpy(rows, cols, cells, blank=None)  # the direct tables' goal
    direct = np.frombuffer(builder.build_table(rows, cols, cells), dtype=np.uint8)
    index = PlacementIndex(np, rows, cols, cells)
    assert (index.masks is None) == (n <= placement_index.FULL_MASKS_UP_TO)
    where, _ = index.unrank(np.arange(math.perm(n, len(cells)), dtype=np.int64))
    assert len(ranked) == math.perm(n, len(cells))
    assert np.array_equal(ranked, direct[sum(p * n ** i for i, p in enumerate(where))])
    assert np.array_equal(index.rank(where), np.arange(len(ranked)))


@pytest.mark.parametrize("rows, cols, cells", [(3, 3, (1, 3, 4)), (5, 5, (1, 5, 6)), (4, 5, (1, 5, 6))])
def test_the_goal_keeps_the_blank_home_where_the_group_walls_it_off(rows, cols, cells):
    """Tiles around the blank's goal cell 0: against a 0-1 breadth-first search over (placement, blank cell) from
    the goal with the blank on 0, the table is exact; starting from every region of the goal placement instead gives
    smaller entries. On boards of more than 16 cells (5x5: the 24-puzzle's) the builder's board tables keep only the
    sets of cells a pattern can occupy, found by a sorted search, where smaller boards index every set by its mask."""
    from collections import deque

    from slidelab.heuristics.pdb.placement_index import FULL_MASKS_UP_TO, PlacementIndex

    n, nbrs = rows * cols, neighbours(rows, cols)
    best, todo = {(cells, 0): 0}, deque([(cells, 0)])
    while todo:  # 0-1 breadth-first: a blank move into a free cell costs nothing, moving a group tile one
        placement, blank = todo.popleft()
        d = best[placement, blank]
        for q in nbrs[blank]:
            moved = tuple(blank if c == q else c for c in placement)
            cost = int(q in placement)
            if best.get((moved, q), 99) > d + cost:
                best[moved, q] = d + cost
                (todo.append if cost else todo.appendleft)((moved, q))
    exact = {}
    for (placement, _), d in best.items():
        exact[placement] = min(d, exact.get(placement, 99))
    table = builder_numpy.build_ranked_numpy(rows, cols, cells)
    index = PlacementIndex(np, rows, cols, cells)
    assert (index.masks is None) == (n <= FULL_MASKS_UP_TO)
    where, _ = index.unrank(np.arange(len(table), dtype=np.int64))
    assert [exact[tuple(int(p[r]) for p in where)] for r in range(len(table))] == table.tolist()
    anywhere = builder_numpy.build_ranked_numpy(rows, cols, cells, blank=None)
    assert (anywhere <= table).all() and (anywhere < table).sum() > 0 and table.max() > anywhere.max() - 1


def test_the_packed_file_round_trips_and_caps_large_excesses():
    rows, cols, cells = 3, 3, (1, 2, 4, 5)
    table = builder_numpy.build_ranked_numpy(rows, cols, cells)
    data, restored = files.encode_ranked(rows, cols, cells, table)
    assert data.startswith(files.RANKED_MAGIC) and restored == table.tobytes()
    assert files.decode(data) == (frames.table_name(rows, cols, cells, ranked=True), restored)
    header = json.loads(data[len(files.RANKED_MAGIC) + 4:data.index(b"}") + 1])
    assert header["index"] == "ranked" and header["bits"] == 4 and header["capped"] == 0
    # an excess beyond 15 (two times 15 moves above the Manhattan distance) is stored as 15: a smaller lower bound
    big = table.copy()
    big[7] += 2 * 20
    data, restored = files.encode_ranked(rows, cols, cells, big)
    back = np.frombuffer(restored, dtype=np.uint8)
    assert table[7] < back[7] < big[7] and (back[7] - table[7]) % 2 == 0
    assert np.array_equal(np.delete(back, 7), np.delete(table, 7))
    assert json.loads(data[11:data.index(b"}") + 1])["capped"] == 1
    assert files.decode(data)[1] == restored
    odd = table.copy()
    odd[3] += 1
    with pytest.raises(ValueError, match="parity"):
        files.encode_ranked(rows, cols, cells, odd)


@pytest.mark.parametrize("cells", [(4,), (1, 8), (2, 6, 7)])
def test_tables_of_odd_sizes_and_blocks_round_trip(cells):
    """One tile on 3x3: 9 entries in blocks of one (each block ends inside a packed byte); two: blocks of 8."""
    table = builder_numpy.build_ranked_numpy(3, 3, cells)
    data, restored = files.encode_ranked(3, 3, cells, table)
    assert files.decode(data)[1] == restored == table.tobytes()


def test_a_ranked_file_decodes_in_little_more_than_its_table(monkeypatch):
    """A browser worker's memory never shrinks back from its peak: the decoder holds the table and one block of
    the Manhattan distances' temporaries (a twelfth of the table here, a sixteenth on the 15-puzzle), where decoding
    it whole took 6.9 times the table."""
    import tracemalloc

    rows, cols, cells = 3, 4, (1, 2, 3, 5, 6, 7)
    data, restored = files.encode_ranked(rows, cols, cells, builder_numpy.build_ranked_numpy(rows, cols, cells))
    monkeypatch.setitem(sys.modules, "numpy", None)  # the browser's path
    tracemalloc.start()
    try:
        table = files.decode(data)[1]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table == restored and len(table) == 665_280
    assert peak < 2.5 * len(table)


def _held_packed(excess):
    """What a packed table should read at every rank, from the file's halved excesses: each block's least, plus at
    most 3."""
    block = frames.PACKED_BLOCK
    least = [min(excess[at:at + block]) for at in range(0, len(excess), block)]
    return [least[r // block] + min(e - least[r // block], 3) for r, e in enumerate(excess)]


@pytest.mark.parametrize("rows, cols, cells", [(3, 4, (1, 2, 3, 5, 6)), (3, 3, (1, 2, 4, 5, 7))])
def test_a_packed_table_reads_each_entry_as_its_blocks_least_and_two_bits(rows, cols, cells):
    """The browser holds ranked tables packed (about a quarter of a byte an entry): each entry is its block's least
    plus at most 3, so a lower bound of the decoded table, and the same where its block spreads over 3 or less; read
    from the bytes, or a chunk at a time from a file, chunks that end inside a block or the body included."""
    data, restored = files.encode_ranked(rows, cols, cells, builder_numpy.build_ranked_numpy(rows, cols, cells))
    md = files._ranked_manhattan(rows, cols, cells)
    excess = [(v - m) // 2 for v, m in zip(restored, md, strict=True)]
    want = _held_packed(excess)
    assert want != excess and sum(w < e for w, e in zip(want, excess, strict=True)) < len(excess) // 50
    for source in (data, io.BytesIO(data)):
        name, table = files.decode(source, packed=True)
        assert name == frames.table_name(rows, cols, cells, ranked=True) and isinstance(table, files.PackedTable)
        assert len(table) + len(table.bases) == frames.packed_bytes(len(restored))
        assert [table.entry(r) for r in range(len(restored))] == want
    assert files.decode(io.BytesIO(data))[1] == restored  # a file read in chunks decodes as its bytes do
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(files, "CHUNK", 1000)  # many chunks, each ending inside the body
    try:
        packed = files.decode(io.BytesIO(data), packed=True)[1]
        assert packed == table and packed.bases == table.bases
        assert files.decode(io.BytesIO(data))[1] == restored
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("damage, reason", [
    (lambda d: d[:-40], "wrong size"),
    (lambda d: d + b"more", "wrong size"),
    (lambda d: d[:-300] + bytes([d[-300] ^ 1]) + d[-299:], "Error|wrong size"),
])
def test_damaged_files_are_refused_when_packed_too(damage, reason):
    """A packed table is not decoded, so zlib's own checksum of the body, and its end, vouch for it."""
    data, _ = files.encode_ranked(3, 4, (1, 2, 3, 5, 6), builder_numpy.build_ranked_numpy(3, 4, (1, 2, 3, 5, 6)))
    assert isinstance(files.decode(data, packed=True)[1], files.PackedTable)
    with pytest.raises(MissingData, match=reason):
        files.decode(damage(data), packed=True)


@pytest.mark.parametrize("damage, reason", [
    (lambda d: d[:-40], "wrong size"),
    (lambda d: d[:-300] + bytes([d[-300] ^ 1]) + d[-299:], "checksum|wrong size|Error"),
    (lambda d: b"SLPDB9\n" + d[7:], "not a Slide Lab"),
    (lambda d: d[:-5] + zlib.compress(b"x")[:5], "wrong size|Error|checksum"),
])
def test_damaged_or_foreign_ranked_files_are_refused(damage, reason):
    table = builder_numpy.build_ranked_numpy(3, 3, (1, 2, 4, 5))
    data, _ = files.encode_ranked(3, 3, (1, 2, 4, 5), table)
    with pytest.raises(MissingData, match=reason):
        files.decode(damage(data))


def test_a_ranked_header_on_the_direct_magic_is_refused():
    table = builder_numpy.build_ranked_numpy(3, 3, (1, 2, 4, 5))
    data, _ = files.encode_ranked(3, 3, (1, 2, 4, 5), table)
    with pytest.raises(MissingData, match="wrong size|checksum"):
        files.decode(files.MAGIC + data[len(files.RANKED_MAGIC):])
    hlen = struct.unpack_from("<I", data, 7)[0]
    header = json.loads(data[11:11 + hlen])
    header["bits"] = 8
    body = json.dumps(header).encode()
    with pytest.raises(MissingData, match="4-bit"):
        files.decode(files.RANKED_MAGIC + struct.pack("<I", len(body)) + body + data[11 + hlen:])


def _puzzles(rows, cols, count, seed):
    rng = random.Random(seed)
    return [SlidingPuzzle(rows, cols, random_position(rows, cols, None, rng)) for _ in range(count)]


def _walked(seed, steps=36, rows=4, cols=4):
    """A position `steps` random moves of the blank from the goal (a 15-puzzle's: quick to solve with 5-tile
    tables)."""
    rng, board, nbrs = random.Random(seed), list(range(1, rows * cols)) + [0], neighbours(rows, cols)
    for _ in range(steps):
        b = board.index(0)
        q = rng.choice(nbrs[b])
        board[b], board[q] = board[q], 0
    return SlidingPuzzle(rows, cols, tuple(board))


THREE_BY_THREE = (3, 3, ((1, 2, 4, 5), (3, 6, 7, 8)))
FOUR_BY_FOUR = (4, 4, ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)))
THREE_BY_FIVE = (3, 5, ((1, 2, 3, 4), (5, 6, 10, 11), (7, 8, 9, 12), (13, 14)))  # vertical moves pass over 4 cells


@pytest.mark.parametrize("rows, cols, groups, packed", [(*THREE_BY_THREE, False), (*THREE_BY_THREE, True),
                                                        (*FOUR_BY_FOUR, False), (*FOUR_BY_FOUR, True),
                                                        (*THREE_BY_FIVE, False), (*THREE_BY_FIVE, True)])
def test_the_ranked_kernel_searches_exactly_as_the_direct_one(rows, cols, groups, packed, cache, monkeypatch):
    """With the same groups ranked and direct, h is the same everywhere, so the two kernels make the same search:
    the same moves and the same numbers of positions, contour by contour; and so does the kernel of packed tables
    (the browser's), which adds the Manhattan distance back from the moves. (No group here walls the blank's goal
    cell off, where the ranked tables count more.)"""
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (rows, cols), (groups,))
    monkeypatch.setitem(frames.PARTITIONS, (rows, cols), (groups,))
    puzzles = _puzzles(rows, cols, 3, 5) if rows == cols == 3 else [_walked(seed, 36, rows, cols) for seed in (1, 2)]
    for name, r, c, cells in pdb.plan(puzzles[0], "pdb78") + pdb.plan(puzzles[0]):
        pdb.ensure_table(name, r, c, cells)
        if packed and frames.is_ranked(name):
            with open(os.path.join(cache, name), "rb") as f:
                files._TABLES[name] = files.decode(f, packed=True)[1]
    for puzzle in puzzles:
        ranked, direct = get_heuristic("pdb78", puzzle), get_heuristic("pdb", puzzle)
        assert ranked.name == "pdb78" and ranked.kernel == "pdb" and frames.is_ranked(pdb.plan(puzzle, "pdb78")[0][0])
        assert all(o.packed == packed for o in ranked.orientations)
        for state in _puzzles(rows, cols, 20, 9):
            assert ranked(state.start) == direct(state.start)
        fast = run(pdb_idastar(puzzle, ranked, Limits()))
        same = run(pdb_idastar(puzzle, direct, Limits()))
        assert fast.moves == same.moves and puzzle.replay(fast.moves) == puzzle.goal
        assert fast.stats.iterations == same.stats.iterations or [
            (i["bound"], i["expanded"]) for i in fast.stats.iterations] == [
            (i["bound"], i["expanded"]) for i in same.stats.iterations]
        if rows == cols == 3:  # the whole tree (no duplicate walks skipped) against the generic IDA*
            slow = run(generic_idastar(puzzle, ranked, Limits(), False))
            assert len(slow.moves) == len(fast.moves)
            every = run(pdb_idastar(puzzle, ranked, Limits(), all_solutions=True))
            assert sorted(map(tuple, every.solutions)) == sorted(map(tuple, run(
                pdb_idastar(puzzle, direct, Limits(), all_solutions=True)).solutions))


def test_files_cache_and_auto_prefer_the_large_set(cache, monkeypatch):
    groups = ((1, 2, 4, 5), (3, 6, 7, 8))
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (3, 3), (groups,))
    puzzle = SlidingPuzzle(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    assert not pdb.available(puzzle, table_set="pdb78")  # never built on the spot, however small
    assert get_heuristic("auto", puzzle).name == "pdb"
    with pytest.raises(MissingData, match="slidelab pdb 3x3-78"):
        get_heuristic("pdb78", puzzle)
    for name, r, c, cells in pdb.plan(puzzle, "pdb78"):
        pdb.ensure_table(name, r, c, cells)
        assert (cache / name).read_bytes().startswith(files.RANKED_MAGIC)
        assert (cache / name.replace(".slpdb", ".map")).exists()
    monkeypatch.setattr(files, "_TABLES", {})  # a new process: mapped from the cache folder
    auto = get_heuristic("auto", puzzle)
    assert auto.name == "pdb78"
    assert len(run(pdb_idastar(puzzle, auto, Limits())).moves) == 31


def test_the_24_puzzle_set_solves_optimally_and_auto_takes_it_once_built(cache, capsys, monkeypatch):
    """The 6-6-6-6 set's code, on small groups of the same board (the real tables take minutes each): the CLI
    builds them, `auto` then takes them on 5x5, and the kernel (a vertical move passes over four cells) finds the
    length the generic IDA* finds with the same heuristic."""
    from slidelab.cli import main

    groups = tuple(tuple(range(start, start + 3)) for start in range(1, 25, 3))  # eight groups of three tiles
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb6666"], (5, 5), (groups,))
    puzzle = _walked(3, 40, 5, 5)
    assert get_heuristic("auto", puzzle).name == "linear_conflict"  # no tables yet
    assert main(["pdb", "5x5-6666"]) == 0
    assert "building 5x5_1-2-3.ranked.slpdb: 13,800 entries" in capsys.readouterr().err
    h = get_heuristic("auto", puzzle)
    assert h.name == "pdb6666" and len(h.orientations) == 2 and h.orientations[0].cols == 5
    assert h(puzzle.start) >= get_heuristic("manhattan", puzzle)(puzzle.start)
    fast = run(pdb_idastar(puzzle, h, Limits()))
    slow = run(generic_idastar(puzzle, h, Limits(), False))  # the whole tree, h looked up afresh at every position
    assert len(fast.moves) == len(slow.moves) and puzzle.replay(fast.moves) == puzzle.goal
    assert pdb.plan(SlidingPuzzle(4, 4, tuple(range(1, 16)) + (0,)), "pdb6666") == []
    offered = {t["name"]: t for t in api.describe()["download_tables"]}
    assert offered["pdb6666"]["files"] == {"5x5": [f"5x5_{'-'.join(map(str, g))}.ranked.slpdb" for g in groups]}


def test_the_large_sets_are_for_the_15_puzzle_only():
    fifteen = SlidingPuzzle(4, 4, tuple(range(1, 16)) + (0,))
    for table_set in ("pdb78", "pdb771"):
        assert pdb.plan(SlidingPuzzle(3, 4, tuple(range(1, 12)) + (0,)), table_set) == []
        with pytest.raises(BadRequest, match="4x4 with the blank's goal in a corner"):
            get_heuristic(table_set, SlidingPuzzle(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8)))
    browser = {h["name"]: h["browser"] for h in api.describe()["heuristics"]}
    assert browser["pdb78"] is False and browser["pdb771"] is True  # the page offers the 7-7-1 set's download
    assert [name for name, *_ in pdb.plan(fifteen, "pdb78")] == [
        "4x4_1-2-3-4-5-6-7.ranked.slpdb", "4x4_8-9-10-11-12-13-14-15.ranked.slpdb"]
    assert [name for name, *_ in pdb.plan(fifteen, "pdb771")] == [  # the 7-tile table is the 7-8 set's first
        "4x4_1-2-3-4-5-6-7.ranked.slpdb", "4x4_8-9-10-11-12-13-14.ranked.slpdb", "4x4_15.ranked.slpdb"]


def test_auto_uses_the_set_a_request_chooses(tmp_path, monkeypatch):
    """The page names the set the user chose: auto waits for those tables (the page installs them), and says so; the
    standard set once the user goes back to it, though the large tables are still in memory."""
    request = {"puzzle": "sliding", "board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "algorithm": "idastar",
               "heuristic": "auto"}
    puzzle = api.make_puzzle(request)  # the package carries the 7-7-1 files; the 7-8 ones only where built
    assert pdb.auto_table_set(puzzle) == ("pdb78" if pdb.available(puzzle, table_set="pdb78") else "pdb771")
    monkeypatch.setenv(pdb.ENV_DIR, str(tmp_path))  # as in the browser: no files at hand, nothing in memory
    monkeypatch.setattr(files, "PACKAGED", str(tmp_path))
    monkeypatch.setattr(files, "_TABLES", {})
    assert pdb.auto_table_set(api.make_puzzle(request)) is None
    assert api.pattern_databases(request)["set"] == "pdb"
    offered = api.pattern_databases(dict(request, tables="pdb771"))
    assert offered["set"] == "pdb771"
    assert [t["name"] for t in offered["tables"]] == [name for name, *_ in pdb.plan(api.make_puzzle(request),
                                                                                     "pdb771")]
    assert not offered["ready"] and offered["tables"][1]["file_bytes"] > 5e6
    small = dict(request, board="1 2 3/4 5 6/7 0 8")  # no 7-7-1 tables for the 8-puzzle: the largest set at hand
    assert pdb.auto_table_set(api.make_puzzle(small), "pdb771") == "pdb"
    assert api.solve(dict(small, tables="pdb771"))["heuristic_used"] == "pdb"
    refused = api.solve(dict(request, tables="pdb99"))
    assert not refused["ok"] and "tables must be one of pdb, pdb78, pdb771" in refused["error"]["message"]
    files._TABLES.update((name, b"") for name, *_ in pdb.plan(api.make_puzzle(request), "pdb771"))  # installed
    assert pdb.auto_table_set(api.make_puzzle(request)) == "pdb771"
    assert api.pattern_databases(dict(request, tables="pdb"))["set"] == "pdb"
    twenty_four, largest, page = api.describe()["download_tables"]  # largest first, the smallest last
    assert twenty_four["name"] == "pdb6666" and len(twenty_four["files"]["5x5"]) == 4
    assert twenty_four["memory_bytes"] == 4 * (math.perm(25, 6) * 17 // 64) == 135_481_500
    assert page == {"name": "pdb771", "files": {"4x4": [t["name"] for t in offered["tables"]]},
                    "memory_bytes": sum(frames.packed_bytes(t["entries"]) for t in offered["tables"])}
    assert largest["name"] == "pdb78" and largest["files"]["4x4"][0] == page["files"]["4x4"][0]
    # a quarter of a byte an entry and a byte every 64 entries: 153 MB where half a byte an entry took 288 MB
    assert largest["memory_bytes"] == sum(math.perm(16, k) * 17 // 64 for k in (7, 8)) == 153_153_000


def test_the_dask_build_gives_the_same_bytes_as_one_machine():
    """On a 2-worker local cluster, three partitions (so every worker sends children to the other)."""
    pytest.importorskip("distributed")
    rows, cols, cells = 3, 4, (1, 2, 3, 5, 6)
    one = builder_numpy.build_ranked_numpy(rows, cols, cells)
    seen = []
    spread = builder_numpy.build_ranked_dask(rows, cols, cells, workers=2, partitions=3,
                                             progress=lambda done, total: seen.append((done, total)))
    assert spread.tobytes() == one.tobytes() and len(one) == math.perm(12, 5)
    assert files.encode_ranked(rows, cols, cells, spread) == files.encode_ranked(rows, cols, cells, one)


def test_the_cli_says_the_cost_first_then_builds_and_solves_with_them(cache, tmp_path, capsys, monkeypatch):
    from slidelab.cli import main

    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (3, 3), (((1, 2, 4, 5), (3, 6, 7, 8)),))
    site = tmp_path / "site"
    assert main(["pdb", "3x3-78", "--out", str(site)]) == 0
    err = capsys.readouterr().err
    assert "building 3x3_1-2-4-5.ranked.slpdb: 3,024 entries" in err and "of one core" in err
    assert sorted(p.name for p in site.iterdir()) == ["3x3_1-2-4-5.ranked.slpdb", "3x3_3-6-7-8.ranked.slpdb"]
    assert main(["pdb", "3x3-78"]) == 0 and "building" not in capsys.readouterr().err  # built once
    assert main(["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "auto", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["length"] == 31 and "pdb78" in json.dumps(answer)
    assert main(["pdb", "3x4-78"]) == 2 and "exist for 4x4, 3x3" in capsys.readouterr().err
    assert main(["pdb", "3x3-78", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--engine dask" in capsys.readouterr().err


def test_the_cli_says_why_a_build_failed_rather_than_that_the_tables_are_missing(cache, capsys, monkeypatch):
    from slidelab.cli import main

    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (3, 3), (((1, 2, 4, 5), (3, 6, 7, 8)),))
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` raises ImportError
    monkeypatch.setattr(frames, "RANKED_BUILD_S", 1.0)  # two tables of 3,024 entries: 101 minutes
    assert main(["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "pdb78", "--max-seconds", "60"]) == 1
    said = capsys.readouterr().err
    assert "about 101 minutes, beyond --max-seconds 60: build them first (slidelab pdb 3x3-78)" in said
    assert main(["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "pdb78"]) == 5
    err = capsys.readouterr().err
    assert "building 3x3_1-2-4-5.ranked.slpdb" in err
    assert 'unavailable: building the large pattern databases needs numpy: pip install ".[build]"' in err
    assert "not built yet" not in err


def test_a_scheduler_address_dask_cannot_read_is_refused_at_once(cache, capsys, monkeypatch):
    pytest.importorskip("distributed")
    from slidelab.cli import main

    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (3, 3), (((1, 2, 4, 5), (3, 6, 7, 8)),))
    assert main(["pdb", "3x3-78", "--engine", "dask", "--scheduler", "nonsense"]) == 5
    assert "cannot reach the Dask scheduler at nonsense: missing port number" in capsys.readouterr().err


def test_the_cli_writes_the_tables_of_the_goal_it_was_given_and_refuses_a_folder_it_cannot_write(cache, tmp_path,
                                                                                                  capsys):
    from slidelab.cli import main

    site = tmp_path / "site"
    assert main(["pdb", "3x3", "--goal", "1 2 3/4 0 5/6 7 8", "--out", str(site), "--json"]) == 0
    said = [t["name"] for shape in json.loads(capsys.readouterr().out)["shapes"] for t in shape["tables"]]
    assert sorted(p.name for p in site.iterdir()) == sorted(said) == ["3x3_0-1-2-3.slpdb", "3x3_5-6-7-8.slpdb"]
    (tmp_path / "a file").write_text("")
    assert main(["pdb", "3x3", "--out", str(tmp_path / "a file")]) == 2
    assert "cannot write the tables into" in capsys.readouterr().err


def test_a_solve_request_names_the_tables_its_heuristic_uses(cache, monkeypatch):
    monkeypatch.setitem(frames.LARGE_PARTITIONS["pdb78"], (3, 3), (((1, 2, 4, 5), (3, 6, 7, 8)),))
    request = {"board": "8 6 7/2 5 4/3 0 1", "algorithm": "idastar"}
    assert [t["name"] for t in api.pattern_databases(dict(request, heuristic="auto"))["tables"]] == [
        "3x3_1-2-4-5.slpdb", "3x3_3-6-7-8.slpdb"]
    large = api.pattern_databases(dict(request, heuristic="pdb78"))
    assert not large["ready"] and large["tables"][0]["build_s"] >= 0 and large["tables"][0]["entries"] == 3024
    assert api.pattern_databases(dict(request, heuristic="pdb78"), build=True)["ready"]
    assert [t["name"] for t in api.pattern_databases(dict(request, heuristic="auto"))["tables"]] == [
        "3x3_1-2-4-5.ranked.slpdb", "3x3_3-6-7-8.ranked.slpdb"]
    assert not api.pattern_databases({"shape": "3x3", "tables": "pdb99"})["ok"]


def test_ranked_files_are_read_and_written_without_numpy(monkeypatch):
    """The Manhattan distances by rank come from pure Python then (what the browser and a plain install use)."""

    rows, cols, cells = 3, 4, (1, 2, 3, 5, 6, 7)
    table = builder_numpy.build_ranked_numpy(rows, cols, cells)
    data, restored = files.encode_ranked(rows, cols, cells, table)
    by_numpy = files._ranked_manhattan(rows, cols, cells)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    with pytest.raises(ImportError):
        import numpy  # noqa: F401
    assert files._ranked_manhattan(rows, cols, cells) == by_numpy
    assert files.decode(data)[1] == restored == table.tobytes()
    assert files.encode_ranked(rows, cols, cells, restored) == (data, restored)
