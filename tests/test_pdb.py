"""Pattern databases: tables against exact distances, reproducible builds, the file format, the cache folder, and
the IDA* kernel against the generic IDA*."""

import random

import pytest

from slidelab import api
from slidelab.core.control import Limits, run
from slidelab.core.errors import BadRequest, MissingData
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, random_position
from slidelab.heuristics import get_heuristic, pdb
from slidelab.heuristics.pdb import files, frames
from slidelab.search.idastar import generic_idastar, idastar
from slidelab.search.pdb_idastar import DUPLICATES as pdb_duplicates
from slidelab.search.pdb_idastar import pdb_idastar
from slidelab.space import pdb_builder as builder


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder and no tables in memory (restored afterwards)."""
    monkeypatch.setenv(pdb.ENV_DIR, str(tmp_path))
    monkeypatch.setattr(files, "_TABLES", {})
    monkeypatch.setattr(files, "_DAMAGED", {})
    return tmp_path


def test_single_tile_table_is_its_manhattan_distance():
    # one tile alone: the blank is free, so the tile's distance is exactly its Manhattan distance
    table = builder.build_table(3, 4, (5,))
    assert list(table) == [abs(p // 4 - 1) + abs(p % 4 - 1) for p in range(12)]


def test_two_tiles_swapped_in_their_row_need_two_extra_moves():
    # 3x3, the tiles of goal cells 1 and 2 swapped: Manhattan 2, plus one of them leaving the row and coming back
    table = builder.build_table(3, 3, (1, 2))
    assert table[1 + 2 * 9] == 0  # both home
    assert table[2 + 1 * 9] == 4


def test_a_table_is_the_exact_distance_of_its_relaxed_puzzle():
    """The 3x3 group (1, 2, 4, 5): compare every entry with a breadth-first search over placements where the other
    tiles are interchangeable and the blank moves for free (a plain BFS on the full 3x3 space, projected)."""
    rows, cols, cells = 3, 3, (1, 2, 4, 5)
    table = builder.build_table(rows, cols, cells)
    # BFS over (placement, blank) with 0-1 costs, independent of the builder's region trick
    from collections import deque
    n = rows * cols
    nbrs = SlidingPuzzle(rows, cols, default_goal(rows, cols)).neighbours
    best = {}
    todo = deque()
    for b in range(n):
        if b not in cells:
            best[(cells, b)] = 0
            todo.append((0, cells, b))
    while todo:
        d, place, b = todo.popleft()
        if best[(place, b)] < d:
            continue
        for q in nbrs[b]:
            if q in place:
                i = place.index(q)
                nxt, cost = place[:i] + (b,) + place[i + 1:], d + 1
            else:
                nxt, cost = place, d
            if best.get((nxt, q), 99) > cost:
                best[(nxt, q)] = cost
                (todo.appendleft if cost == d else todo.append)((cost, nxt, q))
    exact = {}
    for (place, _), d in best.items():
        exact[place] = min(d, exact.get(place, 99))
    assert len(exact) == 9 * 8 * 7 * 6
    for place, d in exact.items():
        assert table[sum(p * n ** i for i, p in enumerate(place))] == d


def test_build_is_reproducible_and_both_builders_agree():
    a = builder.build_table(3, 4, (1, 4, 5, 8))
    b = builder.build_table(3, 4, (1, 4, 5, 8))
    assert a == b
    assert files.encode(3, 4, (1, 4, 5, 8), a) == files.encode(3, 4, (1, 4, 5, 8), b)
    builder_numpy = pytest.importorskip("slidelab.space.pdb_builder_numpy")
    assert builder_numpy.build_table_numpy(3, 4, (1, 4, 5, 8)) == a
    assert builder_numpy.build_table_numpy(2, 4, (1, 2, 3, 4, 5, 6)) == builder.build_table(2, 4, (1, 2, 3, 4, 5, 6))


def test_file_round_trip_and_size():
    table = builder.build_table(3, 3, (3, 6, 7, 8))
    data = files.encode(3, 3, (3, 6, 7, 8), table)
    assert data.startswith(files.MAGIC)
    assert files.decode(data) == ("3x3_3-6-7-8.slpdb", table)
    assert len(data) < len(table) // 2


@pytest.mark.parametrize("damage,reason", [
    (lambda d: b"junk" + d, "not a Slide Lab"),
    (lambda d: d[:-10], "bad pattern-database file"),
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "bad pattern-database file"),
    (lambda d: d.replace(b'"rows": 3', b'"rows": 9'), "header"),
])
def test_damaged_files_are_refused_with_a_reason(damage, reason):
    data = files.encode(3, 3, (3, 6, 7, 8), builder.build_table(3, 3, (3, 6, 7, 8)))
    with pytest.raises(MissingData, match=reason):
        files.decode(damage(data))
    answer = api.install_pattern_database(damage(data))
    assert answer["ok"] is False and answer["error"]["code"] == "missing_data"


def test_canonical_frame_puts_a_corner_blank_in_cell_0():
    for rows, cols in [(3, 4), (4, 3), (4, 4), (3, 3)]:
        n = rows * cols
        for blank in (0, cols - 1, n - cols, n - 1):
            r2, c2, cmap = frames.canonical_frame(rows, cols, blank)
            assert (r2, c2) == (min(rows, cols), max(rows, cols))
            assert cmap[blank] == 0 and sorted(cmap) == list(range(n))


def test_one_set_of_tables_serves_every_corner_goal():
    korf = SlidingPuzzle(4, 4, tuple(range(16)), tuple(range(16)))
    usual = SlidingPuzzle(4, 4, default_goal(4, 4))
    assert pdb.plan(korf) == pdb.plan(usual)
    assert [name for name, *_ in pdb.plan(korf)] == [
        "4x4_1-2-3.slpdb", "4x4_4-5-8-9-12-13.slpdb", "4x4_6-7-10-11-14-15.slpdb",
        "4x4_1-4-5-8-9-12.slpdb", "4x4_2-3-6-7-10-11.slpdb", "4x4_13-14-15.slpdb"]
    assert pdb.plan(SlidingPuzzle(3, 4, default_goal(3, 4))) == pdb.plan(SlidingPuzzle(4, 3, default_goal(4, 3)))


def test_cache_folder_build_save_and_install(cache):
    puzzle = SlidingPuzzle(2, 5, default_goal(2, 5))
    big = [entry for entry in pdb.plan(puzzle) if frames.placements(10, len(entry[3])) > builder.QUICK_BUILD_PATTERNS]
    assert big  # 2x5 needs a table too large to build on the spot
    assert not pdb.available(puzzle)
    with pytest.raises(MissingData, match="not built yet"):
        pdb.pattern_database(puzzle)
    status = api.pattern_databases({"shape": "2x5"})
    assert status["ok"] and not status["ready"]
    events = []
    status = api.pattern_databases({"shape": "2x5"}, build=True, on_progress=events.append)
    assert status["ready"] and events and events[-1]["done"] == events[-1]["total"]
    name = big[0][0]
    data = (cache / name).read_bytes()
    files._TABLES.clear()
    assert pdb.available(puzzle)  # from the folder
    (cache / name).unlink()
    assert not pdb.available(puzzle)
    assert api.install_pattern_database(data) == {"ok": True, "name": name}  # as the browser does
    assert pdb.available(puzzle)
    assert get_heuristic("auto", puzzle).name == "pdb"


def test_boards_beyond_16_cells_have_none():
    assert api.pattern_databases({"shape": "5x5"})["ok"] is False
    with pytest.raises(BadRequest, match="at most 16 cells"):
        get_heuristic("pdb", SlidingPuzzle(3, 6, default_goal(3, 6)))


def _small_puzzles():
    rng = random.Random(11)
    out = []
    for rows, cols, goal in [(3, 3, None), (3, 3, tuple(range(9))), (2, 4, None), (3, 3, (1, 2, 3, 4, 0, 5, 6, 7, 8))]:
        for _ in range(3):
            out.append(SlidingPuzzle(rows, cols, random_position(rows, cols, goal, rng), goal))
    return out


@pytest.mark.parametrize("puzzle", _small_puzzles(), ids=lambda p: p.format(p.start))
def test_kernel_matches_generic_idastar(puzzle):
    h = get_heuristic("pdb", puzzle)
    fast = run(pdb_idastar(puzzle, h, Limits()))
    slow = run(generic_idastar(puzzle, h, Limits(), False))
    manhattan = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits()))
    assert len(fast.moves) == len(slow.moves) == len(manhattan.moves)
    # the kernel skips duplicate move strings: no more positions in each full contour (the last one stops at a
    # solution, maybe another one)
    assert [i["bound"] for i in fast.stats.iterations] == [i["bound"] for i in slow.stats.iterations]
    assert all(f["expanded"] <= s["expanded"]
               for f, s in zip(fast.stats.iterations[:-1], slow.stats.iterations, strict=False))
    assert puzzle.replay(fast.moves) == puzzle.goal


@pytest.mark.parametrize("puzzle", _small_puzzles()[:6], ids=lambda p: p.format(p.start))
def test_kernel_with_four_lookups_matches_generic_idastar(puzzle, monkeypatch):
    """Two partitions, each mirrored, as on 4x4: here on 3x3, whose tables are quick to build."""
    monkeypatch.setitem(frames.PARTITIONS, (3, 3), frames.PARTITIONS[3, 3] + (((1, 4, 7), (2, 3, 5, 6, 8)),))
    h = get_heuristic("pdb", puzzle)
    assert len(h.orientations) == 4
    fast = run(pdb_idastar(puzzle, h, Limits()))
    slow = run(generic_idastar(puzzle, h, Limits(), False))
    assert len(fast.moves) == len(slow.moves)
    assert [i["bound"] for i in fast.stats.iterations] == [i["bound"] for i in slow.stats.iterations]
    assert all(f["expanded"] <= s["expanded"]
               for f, s in zip(fast.stats.iterations[:-1], slow.stats.iterations, strict=False))
    assert puzzle.replay(fast.moves) == puzzle.goal
    every = run(pdb_idastar(puzzle, h, Limits(), all_solutions=True))
    manhattan = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True))
    assert sorted(map(tuple, every.solutions)) == sorted(map(tuple, manhattan.solutions))


def test_duplicate_move_strings_are_every_one_up_to_10_moves():
    """Blank walks on an unbounded board with the same length and effect: all but the smallest are duplicates."""
    step = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}

    def effect(walk):
        blank, origin_at = (0, 0), {}
        for ch in walk:
            cell = (blank[0] + step[ch][0], blank[1] + step[ch][1])
            origin_at[blank] = origin_at.pop(cell, cell)
            blank = cell
        return blank, frozenset((o, c) for c, o in origin_at.items() if o != c)

    known = {a + b: "" for a, b in ("UD", "DU", "LR", "RL")}
    for n in range(3, 11):
        by_effect = {}
        walks = [""]
        while walks:
            walk = walks.pop()
            if len(walk) == n:
                by_effect.setdefault(effect(walk), []).append(walk)
                continue
            walks += [w for w in (walk + ch for ch in "UDLR") if not any(w[i:] in known for i in range(len(w) - 1))]
        for same in by_effect.values():
            same.sort()
            known.update((walk, same[0]) for walk in same[1:])
    assert {k: v for k, v in known.items() if v} == pdb_duplicates


def test_kernel_lists_every_shortest_solution():
    puzzle = SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")
    h = get_heuristic("pdb", puzzle)
    fast = run(pdb_idastar(puzzle, h, Limits(), all_solutions=True))
    slow = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True))
    assert len(fast.moves) == 31
    assert sorted(map(tuple, fast.solutions)) == sorted(map(tuple, slow.solutions))


def test_mirror_lookup_is_used_on_square_boards_only():
    assert len(get_heuristic("pdb", SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")).orientations) == 2
    middle = (1, 2, 3, 4, 0, 5, 6, 7, 8)
    assert len(get_heuristic("pdb", SlidingPuzzle(3, 3, middle, middle)).orientations) == 1


def test_kernel_honours_limits():
    from slidelab.core.errors import SearchLimit
    puzzle = SlidingPuzzle(2, 4, (7, 6, 5, 4, 3, 2, 1, 0))
    with pytest.raises(SearchLimit):
        run(pdb_idastar(puzzle, get_heuristic("pdb", puzzle), Limits(max_nodes=1)))


def test_api_solves_with_pdb_and_auto_reports_its_choice():
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "pdb"})
    assert answer["ok"] and answer["length"] == 31 and answer["optimal"] is True
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1"})
    assert answer["heuristic"] == "auto" and answer["heuristic_used"] == "pdb" and answer["length"] == 31


def test_cli_builds_and_writes_the_files_the_site_serves(cache, tmp_path, capsys):
    from slidelab.cli import main
    site = tmp_path / "site"
    assert main(["pdb", "3x3", "2x4", "--out", str(site)]) == 0
    names = sorted(p.name for p in site.iterdir())
    assert names == sorted(["3x3_1-2-4-5.slpdb", "3x3_3-6-7-8.slpdb", "2x4_1-2-3-4.slpdb", "2x4_5-6-7.slpdb"])
    for path in site.iterdir():
        assert files.decode(path.read_bytes())[0] == path.name
    assert "ready" in capsys.readouterr().out
    assert main(["pdb", "7x7"]) == 2


@pytest.mark.parametrize("junk", [None, "text", 12, 10 ** 15, b"", files.MAGIC + b"\xff\xff\xff\xff{}"])
def test_anything_else_is_refused_not_crashed_on(junk):
    answer = api.install_pattern_database(junk)
    assert answer["ok"] is False and answer["error"]["code"] == "missing_data"


def test_a_damaged_cache_file_is_replaced_by_the_packaged_one(cache):
    name = "3x4_1-4-5-8-9.slpdb"
    packaged = (__import__("pathlib").Path(files.PACKAGED) / name).read_bytes()
    (cache / name).write_bytes(packaged[:2000])  # cut short, its header whole
    answer = api.solve({"board": "5 1 3 4/9 2 7 8/0 6 10 11", "heuristic": "pdb"})
    assert answer["ok"] and answer["length"] == 7
    assert (cache / name).read_bytes() == packaged and not files._DAMAGED


def test_a_damaged_table_the_package_lacks_is_named_and_built_again(cache):
    puzzle = SlidingPuzzle(2, 5, default_goal(2, 5))
    assert api.pattern_databases({"shape": "2x5"}, build=True)["ready"]
    name = next(name for name, _, _, cells in pdb.plan(puzzle)
                if frames.placements(10, len(cells)) > builder.QUICK_BUILD_PATTERNS)
    path = cache / name
    path.write_bytes(path.read_bytes()[:-20])
    __import__("pathlib").Path(files._map_path(str(path))).unlink()  # else its map, which agrees with the header
    files._TABLES.clear()
    with pytest.raises(MissingData, match=f"{name} is damaged .*run: slidelab pdb 2x5"):
        pdb.pattern_database(puzzle)
    assert not pdb.available(puzzle) and not api.pattern_databases({"shape": "2x5"})["ready"]
    assert api.pattern_databases({"shape": "2x5"}, build=True)["ready"]  # what the message says to run
    assert pdb.available(puzzle) and files.damaged(name) is None
    files._TABLES.clear()
    assert pdb.pattern_database(puzzle) is not None


def test_a_ranked_header_with_too_short_a_body_is_refused_before_its_table_is_allocated():
    import json
    import struct
    import zlib
    header = json.dumps({"rows": 4, "cols": 4, "cells": list(range(8, 16)), "entries": 518_918_400, "crc32": 0,
                         "index": "ranked", "bits": 4}).encode()
    data = files.RANKED_MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(bytes(100))
    with pytest.raises(MissingData, match="too short"):
        files.decode(data)


def test_a_file_whose_payload_inflates_beyond_its_table_is_refused():
    import json
    import struct
    import zlib
    header = json.dumps({"rows": 2, "cols": 2, "cells": [1], "entries": 4, "crc32": 0}).encode()
    bomb = files.MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(bytes(10 ** 7))
    with pytest.raises(MissingData, match="wrong size"):
        files.decode(bomb)


def test_cached_tables_are_mapped_and_a_stale_or_damaged_map_is_made_again(cache, monkeypatch):
    rows, cols, cells = 3, 3, (1, 2, 4, 5)
    name = frames.table_name(rows, cols, cells)
    built = files.load(name, rows, cols, cells, may_build=True)
    map_file = cache / name.replace(".slpdb", ".map")
    assert isinstance(built, memoryview) and map_file.exists()
    expected = bytes(builder.build(rows, cols, cells))
    assert bytes(built) == expected
    for damage in (lambda b: b[:-1], lambda b: b"SLPDBMAP0\n" + b[10:],
                   lambda b: b[:10] + files.MAP_HEADER.pack(len(expected), 12345) + b[22:]):
        map_file.write_bytes(damage(map_file.read_bytes()))
        files._TABLES.clear()
        table = files.load(name, rows, cols, cells)
        assert bytes(table) == expected and isinstance(table, memoryview)  # decoded again and mapped anew
    files._TABLES.clear()
    map_file.unlink()

    def read_only(path, data):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(files, "_write", read_only)  # a folder that cannot be written: the decoded table serves
    table = files.load(name, rows, cols, cells)
    assert isinstance(table, bytes) and table == expected and not map_file.exists()


def test_a_solve_with_mapped_tables_gives_the_same_answer(cache):
    puzzle_request = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "pdb"}
    first = api.solve(puzzle_request)
    files._TABLES.clear()  # the next solve maps what the first one wrote
    second = api.solve(puzzle_request)
    assert first["length"] == second["length"] == 31
    assert first["stats"]["expanded"] == second["stats"]["expanded"]
    assert any(isinstance(t, memoryview) for t in files._TABLES.values())


def test_the_package_carries_the_tables_the_site_serves():
    """The 4x4 and 3x4 tables and the 15-puzzle's 7-7-1 ones ship inside the package (pip install gives them), one
    file per table of the default partitions, each whole (its checksum holds); the small ones are built again here and
    must agree byte for byte."""
    packaged = sorted(p for p in __import__("pathlib").Path(files.PACKAGED).iterdir())
    wanted = set()
    for rows, cols, table_set in ((4, 4, "pdb"), (3, 4, "pdb"), (4, 4, "pdb771")):
        for part in frames.default_partitions(rows, cols, 0, table_set):
            wanted |= {frames.table_name(rows, cols, cells, ranked=table_set != "pdb") for cells in part}
    assert {p.name for p in packaged} == wanted and len(wanted) == 13
    for path in packaged:
        name, table = files.decode(path.read_bytes())
        assert name == path.name
        rows, cols = map(int, name.split("_")[0].split("x"))
        cells = tuple(map(int, name.split("_")[1].removesuffix(".slpdb").removesuffix(".ranked").split("-")))
        if len(cells) <= 3 and not frames.is_ranked(name):  # quick to build: the same bytes
            assert bytes(table) == bytes(builder.build(rows, cols, cells))
        if len(cells) == 1:  # one tile: its Manhattan distance at every rank
            assert bytes(table) == files.manhattan_by_rank(rows, cols, cells)


def test_a_fresh_install_solves_the_15_puzzle_at_once_from_the_packaged_tables(cache, monkeypatch):
    def no_build(*args, **kwargs):
        raise AssertionError("a packaged table was built again")

    monkeypatch.setattr(builder, "build", no_build)  # where a missing table would be built
    puzzle = SlidingPuzzle(4, 4, default_goal(4, 4))
    assert pdb.available(puzzle)
    answer = api.solve({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15", "heuristic": "pdb"})
    assert answer["ok"] and answer["length"] == 2 and answer["heuristic"] == "pdb"
    kept = {p.name for p in cache.iterdir()}
    assert {name for name, *_ in pdb.plan(puzzle)} <= kept  # copied into the cache folder, and mapped from there


def test_a_packaged_five_tile_table_is_what_the_builder_makes():
    path = __import__("pathlib").Path(files.PACKAGED) / "3x4_4-8-9-10-11.slpdb"
    _, table = files.decode(path.read_bytes())
    assert bytes(table) == bytes(builder.build(3, 4, (4, 8, 9, 10, 11)))


def test_a_mapped_table_whose_bytes_changed_after_it_was_written_is_refused_and_written_again(cache, monkeypatch):
    board = "8 6 7/2 5 4/3 0 1"
    assert api.solve({"board": board, "heuristic": "pdb"})["length"] == 31
    maps = sorted(cache.glob("3x3_*.map"))
    assert maps
    start = len(files.MAP_MAGIC) + files.MAP_HEADER.size
    for path in maps:  # every entry raised by 5, the header left as it was: an inadmissible table
        data = bytearray(path.read_bytes())
        data[start:] = bytes(min(255, b + 5) for b in data[start:])
        path.write_bytes(bytes(data))
    monkeypatch.setattr(files, "_TABLES", {})  # as a new process finds the folder
    answer = api.solve({"board": board, "heuristic": "pdb", "max_seconds": 20})
    assert answer["ok"] and answer["length"] == 31 and answer["optimal"]
    assert sorted(answer["tables_rewritten"]) == [str(path) for path in maps]  # named, for the command to say
    for path in maps:  # decoded again from the .slpdb file and written whole
        body = path.read_bytes()[start:]
        assert max(body) <= 31 and files.zlib.crc32(body) == files.MAP_HEADER.unpack_from(
            path.read_bytes(), len(files.MAP_MAGIC))[1]
