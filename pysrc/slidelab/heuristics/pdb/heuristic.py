"""The pattern-database heuristic (Korf & Felner's disjoint pattern databases).

The tiles are split into disjoint groups. A group's table holds, for every placement of its tiles, the fewest moves
*of those tiles* that bring them home, the other tiles being indistinguishable and the blank's moves free; so the
tables' values add up to an admissible bound. A board may have several partitions (3x4 and 4x4 have two); on square
boards whose goal blank lies in a corner each is also looked up on the state reflected about the main diagonal (the
same tables serve). The largest sum is used. These sets of tables exist: "pdb", the standard ones, and two of the
15-puzzle, ranked (placement_index.py): "pdb78", the 7-8 partition, and "pdb771", a 7-7-1 one; the page offers
both to download where the site serves their files; `auto` takes the largest set at hand (`auto_table_set`).
"pdb6666" is the 24-puzzle's, ranked too. "pdb78dual" and "pdb771dual" add to the 15-puzzle's sets three tables
and two dual lookups (dual.py), for the command line.
"""

from __future__ import annotations

import functools

from slidelab.core.errors import BadRequest, MissingData
from slidelab.heuristics.pdb.dual import DualLookup
from slidelab.heuristics.pdb.files import PackedTable, damaged, is_ready, load
from slidelab.heuristics.pdb.frames import (
    AUTO_SETS,
    DOWNLOAD_SETS,
    DUAL_TABLES,
    INSTALL_S,
    LARGE_PARTITIONS,
    MAX_CELLS,
    SHAPE_SUFFIX,
    canonical_frame,
    cost,
    default_partitions,
    is_ranked,
    max_cells,
    table_blank,
    table_name,
)
from slidelab.heuristics.pdb.placement_index import rank_of


class Orientation:
    """One way of looking the groups up: for each tile its group, and its index contribution per cell (a direct
    index is their sum); a ranked group's index is the rank of its tiles' cells in this lookup's frame."""

    def __init__(self, group_of, contribution, tables, frame=None, ranked_tiles=None, home=None, cols=0):
        self.group_of = group_of  # group_of[tile] (-1 for the blank)
        self.contribution = contribution  # contribution[tile][cell]: added to its group's index (direct groups)
        self.tables = tables  # tables[group]
        self.frame = frame  # frame[cell]: the cell in the tables' frame
        self.ranked_tiles = ranked_tiles or {}  # ranked group -> its tiles, in the table's order
        self.home = home  # home[tile]: its goal cell in the frame (ranked groups)
        self.cols = cols  # the frame's columns
        # packed tables (files.PackedTable) hold each entry's halved excess over the group's Manhattan distance
        self.packed = all(isinstance(table, PackedTable) for table in tables)
        if not self.packed and any(isinstance(table, PackedTable) for table in tables):
            raise ValueError("a lookup's tables are all packed or none")
        self.direct = len(self.ranked_tiles) < len(tables)  # some group is indexed directly
        # distances[tile][cell]: a grouped tile's Manhattan distance from home there, which packed entries count over
        self.distances = [[self.distance(t, p) if g >= 0 else 0 for p in range(len(group_of))]
                          for t, g in enumerate(group_of)] if self.packed else []

    @functools.cached_property
    def key(self) -> str:
        """What the kernel's move tables are built from: its contents, the tables by identity (a lookup is not
        changed once made); a string, whose hash Python keeps."""
        return repr((self.group_of, self.contribution, [id(table) for table in self.tables], self.frame,
                     self.ranked_tiles))

    def distance(self, tile, cell) -> int:
        """The Manhattan distance of a ranked group's tile on a board cell from its home (in the frame)."""
        a, b = divmod(self.frame[cell], self.cols), divmod(self.home[tile], self.cols)
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def indices(self, state):
        idx = [0] * len(self.tables)
        if self.direct:
            for p, t in enumerate(state):
                g = self.group_of[t]
                if g >= 0 and g not in self.ranked_tiles:
                    idx[g] += self.contribution[t][p]
        if self.ranked_tiles:
            where, frame = [0] * len(state), self.frame
            for p, t in enumerate(state):
                where[t] = frame[p]
            for g, tiles in self.ranked_tiles.items():
                idx[g] = rank_of(len(state), [where[t] for t in tiles])
        return idx

    def value(self, state) -> int:
        if self.packed:
            distances = self.distances
            return (sum(distances[t][p] for p, t in enumerate(state))
                    + 2 * sum(table.entry(i) for table, i in zip(self.tables, self.indices(state), strict=True)))
        return sum(table[i] for table, i in zip(self.tables, self.indices(state), strict=True))


class PatternDatabaseHeuristic:
    """h(state) = the largest, over the orientations (normal, and mirrored when the board allows) and the dual
    lookups when the set has them (dual.DualLookup), of the sum of the groups' table entries."""

    kernel = "pdb"

    def __init__(self, orientations, table_set="pdb", dual=None):
        self.orientations = orientations
        self.name = table_set
        self.dual = dual

    def __call__(self, state) -> int:
        h = max(o.value(state) for o in self.orientations)
        return h if self.dual is None else max(h, self.dual.value(state))


def plan(puzzle, table_set="pdb"):
    """[(table name, rows, cols, cells)] for the tables of `table_set` this puzzle's pattern database needs (empty if
    none)."""
    if puzzle.size > max_cells(table_set):
        return []
    r2, c2, cmap = canonical_frame(puzzle.rows, puzzle.cols, puzzle.goal_pos[0])
    parts = default_partitions(r2, c2, cmap[puzzle.goal_pos[0]], table_set)
    groups = dict.fromkeys(cells for part in parts for cells in part)
    entries = [(table_name(r2, c2, cells, ranked=table_set in LARGE_PARTITIONS), r2, c2, cells) for cells in groups]
    if parts and table_set in DUAL_TABLES:
        entries += [(table_name(r2, c2, cells, ranked=True, blank=blank), r2, c2, cells)
                    for cells, blank in DUAL_TABLES[table_set][r2, c2]]
    return entries


def no_tables(table_set) -> BadRequest:
    """The error for a board that `table_set` has no tables for."""
    if table_set in LARGE_PARTITIONS:
        shapes = ", ".join(f"{r}x{c}" for r, c in LARGE_PARTITIONS[table_set])
        return BadRequest(f"the {table_set} pattern databases exist for {shapes} with the blank's goal in a corner")
    return BadRequest(f"pattern databases exist only for boards of at most {MAX_CELLS} cells")


def available(puzzle, directory=None, table_set="pdb") -> bool:
    """Whether every table of `table_set` the puzzle needs is ready (see is_ready)."""
    entries = plan(puzzle, table_set)
    return bool(entries) and all(is_ready(name, rows, cols, cells, directory) for name, rows, cols, cells in entries)


def auto_table_set(puzzle, chosen=None):
    """The set of tables `auto` uses on a sliding puzzle, None when no set is ready. By default the largest whose
    tables are all ready. The page chooses (`chosen`): a large set where it has tables for this board (its files are
    fetched before the search), else the standard set when ready."""
    if chosen in AUTO_SETS and plan(puzzle, chosen):
        return chosen
    for table_set in (*AUTO_SETS, "pdb") if chosen is None else ("pdb",):
        if available(puzzle, table_set=table_set):
            return table_set
    return None


def pattern_database(puzzle, directory=None, table_set="pdb"):
    """The pattern-database estimator for `puzzle`, from tables in memory, the cache folder or quick to build;
    MissingData if some table is missing (`slidelab pdb` builds them; the browser fetches and installs them)."""
    entries = plan(puzzle, table_set)
    if not entries:
        raise no_tables(table_set)
    shape = f"{puzzle.rows}x{puzzle.cols}{SHAPE_SUFFIX[table_set]}"
    tables = {}  # by (goal cells, the goal's blank cell)
    for name, r, c, cells in entries:
        table = load(name, r, c, cells, directory)
        if table is None:
            problem = damaged(name)
            state = f"is damaged ({problem})" if problem else "is not built yet"
            raise MissingData(f"the pattern database {name} {state} (run: slidelab pdb {shape})",
                              reason="table_missing", name=name)
        tables[cells, table_blank(name)] = table
    r2, c2, cmap = canonical_frame(puzzle.rows, puzzle.cols, puzzle.goal_pos[0])
    maps = [cmap]
    if r2 == c2 and cmap[puzzle.goal_pos[0]] == 0:  # the mirror image about the main diagonal keeps the blank home
        transpose = [(q % c2) * c2 + q // c2 for q in range(puzzle.size)]
        maps.append([transpose[q] for q in cmap])
    # each partition, then the same mirrored
    parts = default_partitions(r2, c2, cmap[puzzle.goal_pos[0]], table_set)
    lookups = [(part, m) for part in parts for m in maps]
    n = puzzle.size
    ranked = is_ranked(entries[0][0])
    orientations = []
    for groups, m in lookups:
        group_of, home = [-1] * n, [-1] * n
        contribution = [[0] * n for _ in range(n)]
        ranked_tiles = {g: [0] * len(cells) for g, cells in enumerate(groups)} if ranked else {}
        for t in range(1, n):
            home[t] = m[puzzle.goal_pos[t]]
            for g, cells in enumerate(groups):
                if home[t] in cells:
                    i = cells.index(home[t])
                    group_of[t] = g
                    if ranked:
                        ranked_tiles[g][i] = t
                    else:
                        contribution[t] = [m[p] * n ** i for p in range(n)]
        orientations.append(Orientation(group_of, contribution, [tables[cells, 0] for cells in groups], list(m),
                                        ranked_tiles, home, c2))
    dual = None
    if table_set in DUAL_TABLES:
        shapes = [(cells, 0) for part in parts for cells in part] + list(DUAL_TABLES[table_set][r2, c2])
        dual = DualLookup(r2, c2, cmap, [cmap[puzzle.goal_pos[t]] for t in range(n)], shapes,
                          [tables[shape] for shape in shapes])
    return PatternDatabaseHeuristic(orientations, table_set, dual)


def large_pattern_database(puzzle, directory=None):
    """The 7-8 pattern-database estimator ("pdb78") of the 15-puzzle (see pattern_database)."""
    return pattern_database(puzzle, directory, table_set="pdb78")


def download_tables() -> list[dict]:
    """The large sets the page may offer to download, largest first: {"name", "files": {shape: [file names]},
    "memory_bytes": what a runtime holds of a board's tables packed (files.PackedTable: the browser's way),
    "install_s"?: what their first download and install took where it was measured}. The page
    offers a set where the site serves its files (pdb/files.json)."""
    sets = []
    for name in DOWNLOAD_SETS:
        shapes = LARGE_PARTITIONS[name]
        files = {f"{rows}x{cols}": list(dict.fromkeys(table_name(rows, cols, cells, ranked=True)
                                                      for part in parts for cells in part))
                 for (rows, cols), parts in shapes.items()}
        memory = max(sum(cost(rows, cols, cells, True)["packed_bytes"] for cells in dict.fromkeys(
            cells for part in parts for cells in part)) for (rows, cols), parts in shapes.items())
        sets.append({"name": name, "files": files, "memory_bytes": memory})
        if name in INSTALL_S:
            sets[-1]["install_s"] = INSTALL_S[name]
    return sets


def twenty_four_pattern_database(puzzle, directory=None):
    """The 6-6-6-6 pattern-database estimator ("pdb6666") of the 24-puzzle (see pattern_database)."""
    return pattern_database(puzzle, directory, table_set="pdb6666")


def dual_pattern_database(puzzle, directory=None):
    """The 7-8 estimator with two dual lookups ("pdb78dual", see pattern_database and dual.py)."""
    return pattern_database(puzzle, directory, table_set="pdb78dual")


def dual_page_pattern_database(puzzle, directory=None):
    """The 7-7-1 estimator with four dual lookups ("pdb771dual", see pattern_database and dual.py)."""
    return pattern_database(puzzle, directory, table_set="pdb771dual")


def page_pattern_database(puzzle, directory=None):
    """The 7-7-1 pattern-database estimator ("pdb771") of the 15-puzzle (see pattern_database)."""
    return pattern_database(puzzle, directory, table_set="pdb771")
