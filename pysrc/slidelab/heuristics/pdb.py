"""Additive pattern databases for sliding puzzles (Korf & Felner's disjoint pattern databases).

The tiles are split into disjoint groups. A group's table holds, for every placement of its tiles, the fewest moves
*of those tiles* that bring them home, the other tiles being indistinguishable and the blank's moves free; so the
tables' values add up to an admissible bound. A board may have several partitions (3x4 and 4x4 have two); on square
boards whose goal blank lies in a corner each is also looked up on the state reflected about the main diagonal (the
same tables serve). The largest sum is used.

Tables are built in a *canonical frame*: the board turned (by one of its symmetries) so that rows <= cols and the
goal's blank sits in cell 0. Groups are given by their goal cells in that frame, so one set of tables serves every
goal with the blank in a corner (the default goal and Korf's alike, any tile labels). A table is one byte per
entry indexed directly by `sum(cell_i * N**i)` over the group's tiles (N the number of cells): the search kernel
updates that index from the moved tile alone. Entries with two tiles on one cell are unused; they hold the group's
Manhattan distance, like a lower bound would.

File format (one file per group, `<rows>x<cols>_<cells>.slpdb`): the magic `SLPDB2\\n`, a 4-byte little-endian
header length, a JSON header {"rows", "cols", "cells", "entries", "crc32"}, then, compressed with zlib, the
*excess* of each entry over the group's Manhattan distance, halved (it is always even, and mostly 0 or 1, so it
compresses to about 1.5 MB for a 6-tile table of the 15-puzzle, against 2.4 MB for the values themselves). Loading
rebuilds the Manhattan distances with `bytes.translate` and adds them back with one big-integer addition: no Python
loop over the entries, so it is quick in the browser too.
"""

from __future__ import annotations

import json
import math
import os
import struct
import sys
import zlib
from array import array
from pathlib import Path

from ..errors import InvalidBoard
from ..puzzles.sliding import neighbours

MAGIC = b"SLPDB2\n"
SUFFIX = ".slpdb"
ENV_DIR = "SLIDELAB_PDB_DIR"
MAX_CELLS = 16  # boards with more cells get no pattern database (their tables would be too large)
MAX_ENTRIES = 16 ** 6  # largest table (bytes): 6 tiles on 16 cells
QUICK_BUILD_PATTERNS = 30_000  # tables with at most this many placements are built on the spot when needed

# Partitions chosen by measurement (docs/benchmarks.md), as goal cells in the canonical frame (blank at
# cell 0). Each partition is one lookup; on square boards each is also looked up mirrored. Their maximum is used.
# On 4x4 the second partition is not the mirror image of the first: four lookups, four 6-tile tables.
PARTITIONS = {
    (3, 3): (((1, 2, 4, 5), (3, 6, 7, 8)),),
    (3, 4): (((2, 3, 6, 7, 10, 11), (1, 4, 5, 8, 9)), ((1, 2, 3, 5, 6, 7), (4, 8, 9, 10, 11))),
    (4, 4): (((1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
             ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15))),
}

_TABLES: dict[str, bytes] = {}  # loaded or built tables by file name


# ---------------------------------------------------------------------------------------------------------------
# Frames and partitions


def _symmetries(rows, cols):
    """Every symmetry of a rows x cols board as (rows', cols', cell map list), identity first."""
    result = []
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                r2, c2 = (cols, rows) if transpose else (rows, cols)
                cmap = []
                for p in range(rows * cols):
                    r, c = divmod(p, cols)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = r2 - 1 - r
                    if flip_c:
                        c = c2 - 1 - c
                    cmap.append(r * c2 + c)
                result.append((r2, c2, cmap))
    return result


def canonical_frame(rows, cols, blank_cell):
    """(rows', cols', cell map) turning the board so that rows' <= cols' and, when the blank's goal cell is a corner,
    the blank goes to cell 0."""
    fallback = None
    for r2, c2, cmap in _symmetries(rows, cols):
        if r2 > c2:
            continue
        if cmap[blank_cell] == 0:
            return r2, c2, cmap
        if fallback is None:
            fallback = (r2, c2, cmap)
    return fallback


def default_partitions(rows, cols, blank_cell):
    """The partitions (each a tuple of groups of goal cells, canonical frame) covering every cell but the blank's."""
    if blank_cell == 0 and (rows, cols) in PARTITIONS:
        return PARTITIONS[rows, cols]
    n = rows * cols
    k = 4 if n <= 9 else max(1, min(6, int(math.log(MAX_ENTRIES, n) + 1e-9)))  # small boards: instant tables
    cells = [p for p in range(n) if p != blank_cell]
    return (tuple(tuple(cells[i:i + k]) for i in range(0, len(cells), k)),)


def group_manhattan(rows, cols, cells) -> bytes:
    """For every table index, the sum of the group's tiles' Manhattan distances (unused indices included)."""
    n = rows * cols
    dist = [[abs(p // cols - c // cols) + abs(p % cols - c % cols) for p in range(n)] for c in cells]
    add = [bytes((x + d) & 255 for x in range(256)) for d in range(256)]
    result = bytes(dist[0])  # tile 0 is the lowest digit of the index
    for i in range(1, len(cells)):
        result = b"".join(result.translate(add[dist[i][p]]) for p in range(n))
    return result


def table_name(rows, cols, cells) -> str:
    return f"{rows}x{cols}_{'-'.join(map(str, cells))}{SUFFIX}"


def placements(n, k) -> int:
    """How many ways k distinct tiles can lie on n cells."""
    return math.perm(n, k)


# ---------------------------------------------------------------------------------------------------------------
# Building a table (breadth-first search over placements of the group, the blank's moves free)


def _component(free, start, nbrs):
    """Bit mask of the free cells connected to `start` (itself free)."""
    comp = 1 << start
    todo = [start]
    while todo:
        p = todo.pop()
        for q in nbrs[p]:
            bit = 1 << q
            if free & bit and not comp & bit:
                comp |= bit
                todo.append(q)
    return comp


def build_table(rows, cols, cells, progress=None) -> bytes:
    """The table for the tiles whose goal cells are `cells` (in order) on a rows x cols board.

    A breadth-first search from the goal placement over (placement, region of the blank): moving the blank within its
    region of free cells costs nothing, so a node is a placement plus the region's lowest cell, and each edge is one
    move of a group tile into the blank's region. `progress(done, total)` is called now and then with placements
    reached so far.
    """
    n = rows * cols
    k = len(cells)
    if not 0 < k < n or len(set(cells)) != k or not all(0 <= c < n for c in cells):
        raise InvalidBoard(f"bad pattern-database group {cells} for a {rows}x{cols} board")
    nbrs = neighbours(rows, cols)
    weights = [n ** i for i in range(k)]
    size = n ** k
    total = placements(n, k)
    dist = bytearray(group_manhattan(rows, cols, cells))  # unused entries keep these values
    seen = array("Q" if n > 32 else "L" if n > 16 else "H", bytes(size * (8 if n > 32 else 4 if n > 16 else 2)))
    full = (1 << n) - 1
    region_of = {}  # (occupied, cell) -> lowest cell of the blank's region
    moves_of = {}  # (occupied, region low cell) -> per cell, the cells of the region a tile there can move to

    def region(occ, cell):
        key = occ * n + cell
        low = region_of.get(key)
        if low is None:
            comp = _component(full ^ occ, cell, nbrs)
            low = (comp & -comp).bit_length() - 1
            c = comp
            while c:
                bit = c & -c
                region_of[occ * n + bit.bit_length() - 1] = low
                c ^= bit
        return low

    def moves(occ, low):
        key = occ * n + low
        result = moves_of.get(key)
        if result is None:
            comp = _component(full ^ occ, low, nbrs)
            result = tuple(tuple(q for q in nbrs[p] if comp >> q & 1) if occ >> p & 1 else () for p in range(n))
            moves_of[key] = result
        return result

    start = sum(c * w for c, w in zip(cells, weights))
    occ0 = sum(1 << c for c in cells)
    frontier = []
    for p in range(n):
        if not occ0 >> p & 1:
            low = region(occ0, p)
            if not seen[start] >> low & 1:
                seen[start] |= 1 << low
                frontier.append(start * n + low)
    reached = 1
    depth = 0
    while frontier:
        depth += 1
        if depth > 255:
            raise OverflowError("pattern-database distance does not fit in a byte")
        nxt = []
        append = nxt.append
        for code in frontier:
            idx, low = divmod(code, n)
            x = idx
            occ = 0
            pos = []
            for _ in range(k):
                x, p = divmod(x, n)
                pos.append(p)
                occ |= 1 << p
            targets = moves(occ, low)
            for i in range(k):
                p = pos[i]
                for q in targets[p]:
                    nidx = idx + (q - p) * weights[i]
                    nocc = occ ^ (1 << p) ^ (1 << q)
                    nlow = region_of.get(nocc * n + p)
                    if nlow is None:
                        nlow = region(nocc, p)
                    bit = 1 << nlow
                    s = seen[nidx]
                    if not s & bit:
                        seen[nidx] = s | bit
                        append(nidx * n + nlow)
                        if not s:
                            dist[nidx] = depth
                            reached += 1
        frontier = nxt
        if progress is not None:
            progress(reached, total)
    return bytes(dist)


def build_table_numpy(rows, cols, cells, progress=None) -> bytes:
    """The same table as `build_table`, computed with numpy (build time only; several times faster).

    A breadth-first search over (placement, blank cell), level by level: each level is first closed under the
    blank's free moves, then every move of a group tile into the blank starts the next level.
    """
    import numpy as np

    n = rows * cols
    k = len(cells)
    nbrs = neighbours(rows, cols)
    weights = np.array([n ** i for i in range(k)], dtype=np.int64)
    size = n ** k
    total = placements(n, k)
    step = np.full((n, 4), -1, dtype=np.int64)
    for p, ns in enumerate(nbrs):
        step[p, :len(ns)] = ns
    dist = np.full(size, 255, dtype=np.uint8)
    seen = np.zeros(size * n, dtype=bool)
    start = int(sum(c * n ** i for i, c in enumerate(cells)))
    level = np.array([start * n + b for b in range(n) if b not in cells], dtype=np.int64)
    seen[level] = True

    def cells_of(codes):
        idx, blank = np.divmod(codes, n)
        return idx, blank, [(idx // weights[i]) % n for i in range(k)]

    def close(codes):
        """codes (distinct, marked seen) plus every state reachable from them by free blank moves, marked seen."""
        parts = [codes]
        new = codes
        while new.size:
            idx, blank, pos = cells_of(new)
            found = []
            for d in range(4):
                nb = step[blank, d]
                ok = nb >= 0
                for p in pos:
                    ok &= p != nb
                cand = idx[ok] * n + nb[ok]  # distinct: one direction never merges two states
                cand = cand[~seen[cand]]
                seen[cand] = True
                found.append(cand)
            new = np.concatenate(found)
            parts.append(new)
        return np.concatenate(parts)

    depth = 0
    level = close(level)
    dist[level // n] = 0
    reached = int(np.count_nonzero(dist != 255))
    while level.size:
        depth += 1
        if depth > 255:
            raise OverflowError("pattern-database distance does not fit in a byte")
        idx, blank, pos = cells_of(level)
        found = []
        for d in range(4):
            nb = step[blank, d]
            for i, p in enumerate(pos):
                hit = p == nb
                cand = (idx[hit] + (blank[hit] - nb[hit]) * weights[i]) * n + nb[hit]  # distinct, as above
                cand = cand[~seen[cand]]
                seen[cand] = True
                found.append(cand)
        seeds = np.concatenate(found)
        level = close(seeds) if seeds.size else seeds
        reached_idx = level // n
        fresh = reached_idx[dist[reached_idx] == 255]
        dist[fresh] = depth
        reached = int(np.count_nonzero(dist != 255))
        if progress is not None:
            progress(reached, total)
    unused = dist == 255
    dist[unused] = np.frombuffer(group_manhattan(rows, cols, cells), dtype=np.uint8)[unused]
    return dist.tobytes()


def build(rows, cols, cells, progress=None) -> bytes:
    """The table: large ones by numpy when it is installed, else in pure Python (the same bytes)."""
    if placements(rows * cols, len(cells)) > QUICK_BUILD_PATTERNS:
        try:
            import numpy  # noqa: F401
        except ImportError:
            pass
        else:
            return build_table_numpy(rows, cols, cells, progress)
    return build_table(rows, cols, cells, progress)


# ---------------------------------------------------------------------------------------------------------------
# Files, cache folder and the tables in memory


def encode(rows, cols, cells, table: bytes) -> bytes:
    """The file bytes for a table (deterministic: the same table always gives the same bytes)."""
    size = len(table)
    if size != (rows * cols) ** len(cells):
        raise ValueError(f"a table for {len(cells)} tiles on {rows}x{cols} has {(rows * cols) ** len(cells)} entries")
    md = int.from_bytes(group_manhattan(rows, cols, cells), "little")
    if int.from_bytes(table, "little") < md:
        raise ValueError("a table entry is below its Manhattan distance")
    # every entry is at least its Manhattan distance and of the same parity, so the bytes subtract without borrows
    # and halve without a bit crossing into the next byte
    excess = ((int.from_bytes(table, "little") - md) >> 1).to_bytes(size, "little")
    if ((int.from_bytes(excess, "little") << 1) + md).to_bytes(size, "little") != table:
        raise ValueError("a table entry is below its Manhattan distance or of the other parity")
    header = json.dumps({"rows": rows, "cols": cols, "cells": list(cells), "entries": size,
                         "crc32": zlib.crc32(table)}, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(excess, 9)


def decode(data) -> tuple[str, bytes]:
    """(table name, table) from file bytes; InvalidBoard if the bytes are not a sound pattern-database file."""
    try:
        data = bytes(data)
        if not data.startswith(MAGIC):
            raise ValueError("not a Slide Lab pattern-database file (or one of an older format)")
        (hlen,) = struct.unpack_from("<I", data, len(MAGIC))
        start = len(MAGIC) + 4
        header = json.loads(data[start:start + hlen])
        rows, cols, cells = int(header["rows"]), int(header["cols"]), tuple(int(c) for c in header["cells"])
        if not (1 <= rows and 1 <= cols and rows * cols <= MAX_CELLS and 0 < len(cells) < rows * cols
                and len(set(cells)) == len(cells) and all(0 <= c < rows * cols for c in cells)):
            raise ValueError("its header describes no valid table")
        size = (rows * cols) ** len(cells)
        excess = zlib.decompressobj().decompress(data[start + hlen:], size + 1)  # never more than one table
        if len(excess) != header["entries"] or len(excess) != size:
            raise ValueError("its table has the wrong size")
        md = int.from_bytes(group_manhattan(rows, cols, cells), "little")
        table = ((int.from_bytes(excess, "little") << 1) + md).to_bytes(size, "little")
        if zlib.crc32(table) != header["crc32"]:
            raise ValueError("its checksum does not match (the file is damaged)")
    except (ValueError, KeyError, TypeError, OverflowError, struct.error, zlib.error) as e:
        raise InvalidBoard(f"bad pattern-database file: {e}") from None
    return table_name(rows, cols, cells), table


def install(data) -> str:
    """Keep a table given as file bytes (e.g. fetched by the browser) in memory; returns its name."""
    name, table = decode(data)
    _TABLES[name] = table
    return name


def cache_dir() -> Path:
    """Where the CLI keeps built tables: $SLIDELAB_PDB_DIR, else the user's cache folder."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "slidelab" / "pdb"


def _table(name, rows, cols, cells, directory=None, may_build=False, progress=None):
    """The table from memory, the cache folder, or (if `may_build` or small) a fresh build saved to the folder."""
    table = _TABLES.get(name)
    if table is not None:
        return table
    folder = Path(directory) if directory is not None else cache_dir()
    path = folder / name
    try:
        data = path.read_bytes()
    except OSError:
        data = None
    if data is not None:
        try:
            _, table = decode(data)
        except InvalidBoard:
            table = None  # a damaged cache file is rebuilt
    if table is None:
        small = placements(rows * cols, len(cells)) <= QUICK_BUILD_PATTERNS
        if not (may_build or small):
            return None
        table = build(rows, cols, cells, progress)
        if not small:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(encode(rows, cols, cells, table))
                tmp.replace(path)
            except OSError:
                pass  # a read-only cache only costs a rebuild next time
    _TABLES[name] = table
    return table


def write_files(rows, cols, directory, progress=None) -> list[Path]:
    """Build (or reuse) the standard tables for a rows x cols board with the blank in a corner and write them as
    files into `directory`; returns their paths. This is what the site build serves to the browser."""
    r2, c2, _ = canonical_frame(rows, cols, 0)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for cells in dict.fromkeys(cells for part in default_partitions(r2, c2, 0) for cells in part):
        name = table_name(r2, c2, cells)
        table = _table(name, r2, c2, cells, may_build=True, progress=progress)  # from memory or the cache folder
        path = folder / name
        cached = cache_dir() / name
        # the cache file is already encoded (compressing again costs seconds per table)
        data = cached.read_bytes() if cached.is_file() else encode(r2, c2, cells, table)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths.append(path)
    return paths


# ---------------------------------------------------------------------------------------------------------------
# The heuristic


class Orientation:
    """One way of looking the groups up: for each tile its group, and its index contribution per cell."""

    def __init__(self, group_of, contribution, tables):
        self.group_of = group_of  # group_of[tile] (-1 for the blank)
        self.contribution = contribution  # contribution[tile][cell]: added to its group's index
        self.tables = tables  # tables[group]

    def indices(self, state):
        idx = [0] * len(self.tables)
        for p, t in enumerate(state):
            g = self.group_of[t]
            if g >= 0:
                idx[g] += self.contribution[t][p]
        return idx

    def value(self, state) -> int:
        return sum(table[i] for table, i in zip(self.tables, self.indices(state)))


class PatternDatabaseHeuristic:
    """h(state) = the largest, over the orientations (normal, and mirrored when the board allows), of the sum of the
    groups' table entries."""

    name = "pdb"

    def __init__(self, orientations):
        self.orientations = orientations

    def __call__(self, state) -> int:
        return max(o.value(state) for o in self.orientations)


def plan(puzzle):
    """[(table name, rows, cols, cells)] for the tables this puzzle's pattern database needs (empty if none)."""
    if puzzle.size > MAX_CELLS:
        return []
    r2, c2, cmap = canonical_frame(puzzle.rows, puzzle.cols, puzzle.goal_pos[0])
    groups = dict.fromkeys(cells for part in default_partitions(r2, c2, cmap[puzzle.goal_pos[0]]) for cells in part)
    return [(table_name(r2, c2, cells), r2, c2, cells) for cells in groups]


def is_ready(name, rows, cols, cells, directory=None) -> bool:
    """Whether a table is in memory, in the cache folder, or small enough to build at once."""
    folder = Path(directory) if directory is not None else cache_dir()
    return name in _TABLES or (folder / name).is_file() or placements(rows * cols, len(cells)) <= QUICK_BUILD_PATTERNS


def available(puzzle, directory=None) -> bool:
    """Whether every table the puzzle needs is ready (see is_ready)."""
    entries = plan(puzzle)
    return bool(entries) and all(is_ready(*entry, directory) for entry in entries)


def ensure_table(name, rows, cols, cells, directory=None, progress=None) -> None:
    """Load the table into memory, building it (and saving it in the cache folder) if need be."""
    _table(name, rows, cols, cells, directory, may_build=True, progress=progress)


def ensure(puzzle, directory=None, progress=None) -> None:
    """Load or build (and cache) every table the puzzle needs; InvalidBoard if the board has no pattern database."""
    entries = plan(puzzle)
    if not entries:
        raise InvalidBoard(f"pattern databases exist only for boards of at most {MAX_CELLS} cells")
    for entry in entries:
        ensure_table(*entry, directory, progress)


def pattern_database(puzzle, directory=None):
    """The pattern-database estimator for `puzzle`, from tables in memory, the cache folder or quick to build;
    InvalidBoard if some table is missing (build them with `ensure` or `slidelab pdb`)."""
    entries = plan(puzzle)
    if not entries:
        raise InvalidBoard(f"pattern databases exist only for boards of at most {MAX_CELLS} cells")
    tables = {}
    for name, r, c, cells in entries:
        table = _table(name, r, c, cells, directory)
        if table is None:
            raise InvalidBoard(f"the pattern database {name} is not built yet (run: slidelab pdb "
                               f"{puzzle.rows}x{puzzle.cols})")
        tables[cells] = table
    r2, c2, cmap = canonical_frame(puzzle.rows, puzzle.cols, puzzle.goal_pos[0])
    maps = [cmap]
    if r2 == c2 and cmap[puzzle.goal_pos[0]] == 0:  # the mirror image about the main diagonal keeps the blank home
        transpose = [(q % c2) * c2 + q // c2 for q in range(puzzle.size)]
        maps.append([transpose[q] for q in cmap])
    # each partition, then the same mirrored
    lookups = [(part, m) for part in default_partitions(r2, c2, cmap[puzzle.goal_pos[0]]) for m in maps]
    n = puzzle.size
    orientations = []
    for groups, m in lookups:
        group_of = [-1] * n
        contribution = [[0] * n for _ in range(n)]
        for t in range(1, n):
            home = m[puzzle.goal_pos[t]]
            for g, cells in enumerate(groups):
                if home in cells:
                    i = cells.index(home)
                    group_of[t] = g
                    contribution[t] = [m[p] * n ** i for p in range(n)]
        orientations.append(Orientation(group_of, contribution, [tables[cells] for cells in groups]))
    return PatternDatabaseHeuristic(orientations)
