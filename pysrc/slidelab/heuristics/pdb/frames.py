"""Canonical frames, partitions and table names of the pattern databases.

Tables are built in a *canonical frame*: the board turned (by one of its symmetries) so that rows <= cols and the
goal's blank sits in cell 0. Groups are given by their goal cells in that frame, so one set of tables serves every
goal with the blank in a corner (the default goal and Korf's alike, any tile labels). A table of the standard set
("pdb") is one byte per entry indexed directly by `sum(cell_i * N**i)` over the group's tiles (N the number of
cells): the search kernel updates that index from the moved tile alone. Entries with two tiles on one cell are
unused; they hold the group's Manhattan distance, like a lower bound would. The tables of the large sets ("pdb78": 7
and 8 tiles; "pdb771": 7, 7 and 1, small enough for the page to download) are indexed by the rank of the placement
instead (placement_index.py), which has no unused entries.
"""

from __future__ import annotations

import functools
import math

SUFFIX = ".slpdb"
MAX_CELLS = 16  # boards with more cells get no standard pattern database (their tables would be too large)
MAX_RANKED_CELLS = 25  # nor a large set: the 24-puzzle's board at most
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

# The large sets, ranked, largest first: Korf and Felner's 7-8 partition of the 15-puzzle (the top two rows and the
# bottom two), and a 7-7-1 partition (15 MB of files): the same 7-tile table, another for tiles 8-14. Then Korf and
# Felner's 6-6-6-6 partition of the 24-puzzle (their Figure 5). The page offers all three to download
# (DOWNLOAD_SETS), where the site serves their files (the 7-8 and 6-6-6-6 ones only when it was built with them:
# README).
LARGE_PARTITIONS: dict[str, dict] = {
    "pdb78": {(4, 4): (((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),)},
    "pdb771": {(4, 4): (((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14), (15,)),)},
    "pdb6666": {(5, 5): (((1, 5, 6, 10, 11, 12), (2, 3, 4, 7, 8, 9), (13, 14, 18, 19, 23, 24),
                          (15, 16, 17, 20, 21, 22)),)},
}
# Sets that add dual lookups (dual.py) to a large set's: its partitions, and per board the tables (goal cells, the
# goal's blank cell) that cover every dual position with images of the set's own: on the 15-puzzle the top half but
# one cell, the blank there, for three of its cells (the 7-tile table is the fourth; the others are their mirror
# images). Not downloaded, and not taken by `auto`: half the positions, several times the time (docs/benchmarks.md).
DUAL_TABLES: dict[str, dict] = {
    "pdb78dual": {(4, 4): (((0, 2, 3, 4, 5, 6, 7), 1), ((0, 1, 2, 3, 5, 6, 7), 4), ((0, 1, 2, 3, 4, 6, 7), 5))},
}
DUAL_TABLES["pdb771dual"] = DUAL_TABLES["pdb78dual"]
LARGE_PARTITIONS["pdb78dual"] = LARGE_PARTITIONS["pdb78"]
LARGE_PARTITIONS["pdb771dual"] = LARGE_PARTITIONS["pdb771"]
DOWNLOAD_SETS = ("pdb6666", "pdb78", "pdb771")  # the page's: the smallest, which every site serves, last
# The seconds a first download and install of a set took in the page, from a local site, where it was measured
# (bench/bench_browser_24.py; docs/benchmarks.md): the page says it before the user agrees to the download.
INSTALL_S = {"pdb6666": 3.0}
TABLE_SETS = ("pdb", *LARGE_PARTITIONS)  # the standard tables, then the large ranked ones, largest first
AUTO_SETS = tuple(name for name in LARGE_PARTITIONS if name not in DUAL_TABLES)  # `auto`'s large sets, in order
SHAPE_SUFFIX = {"pdb": "", "pdb78": "-78", "pdb771": "-771", "pdb6666": "-6666",  # `slidelab pdb 4x4-78`: "pdb78"
                "pdb78dual": "-78dual", "pdb771dual": "-771dual"}
RANKED_SUFFIX = ".ranked" + SUFFIX
# What building a ranked table costs, measured on a 2-core machine with numpy, one core (docs/benchmarks.md): seconds
# per placement, and bytes of file per placement (4-bit entries, then zlib): the 24-puzzle's 6-tile tables exceed
# Manhattan distance by less than the 15-puzzle's 7- and 8-tile ones, and compress seven times better.
RANKED_BUILD_S = 4.0e-6  # the search and the packing
RANKED_FILE_BYTES = {(4, 4): 0.165, (5, 5): 0.027}  # other boards: the 15-puzzle's


@functools.cache  # asked for by every solve that plans pattern databases: a batch asks once a position
def symmetries(rows, cols):
    """Every symmetry of a rows x cols board as (rows', cols', cell map tuple), identity first."""
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
                result.append((r2, c2, tuple(cmap)))
    return tuple(result)


def canonical_frame(rows, cols, blank_cell):
    """(rows', cols', cell map) turning the board so that rows' <= cols' and, when the blank's goal cell is a corner,
    the blank goes to cell 0."""
    fallback = None
    for r2, c2, cmap in symmetries(rows, cols):
        if r2 > c2:
            continue
        if cmap[blank_cell] == 0:
            return r2, c2, cmap
        if fallback is None:
            fallback = (r2, c2, cmap)
    return fallback


def default_partitions(rows, cols, blank_cell, table_set="pdb"):
    """The partitions (each a tuple of groups of goal cells, canonical frame) covering every cell but the blank's;
    () when `table_set` is a large set without a partition for this board."""
    if table_set in LARGE_PARTITIONS:
        return LARGE_PARTITIONS[table_set].get((rows, cols), ()) if blank_cell == 0 else ()
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
    result = bytes(dist[0])  # tile 0 is the lowest digit of the index
    for i in range(1, len(cells)):
        # translating by bytes(range(d, 256)) + bytes(range(d)) adds d to every byte
        result = b"".join(result.translate(bytes(range(d, 256)) + bytes(range(d))) for d in dist[i])
    return result


def max_cells(table_set) -> int:
    """The most cells a board of `table_set`'s tables may have."""
    return MAX_RANKED_CELLS if table_set in LARGE_PARTITIONS else MAX_CELLS


def table_name(rows, cols, cells, ranked=False, blank=0) -> str:
    """The file name of a table: its board, its goal cells, and the goal's blank cell when not 0 (`_b<cell>`)."""
    at = f"_b{blank}" if blank else ""
    return f"{rows}x{cols}_{'-'.join(map(str, cells))}{at}{RANKED_SUFFIX if ranked else SUFFIX}"


def parse_table_name(name) -> tuple[int, int, tuple[int, ...]]:
    """(rows, cols, cells) of a table's file name: table_name's inverse (table_blank gives the blank's cell)."""
    shape, cells, *_ = name.removesuffix(RANKED_SUFFIX).removesuffix(SUFFIX).split("_")
    rows, cols = shape.split("x")
    return int(rows), int(cols), tuple(int(cell) for cell in cells.split("-"))


def table_blank(name) -> int:
    """The goal's blank cell of a table's file name (see table_name)."""
    parts = name.removesuffix(RANKED_SUFFIX).removesuffix(SUFFIX).split("_")
    return int(parts[2].removeprefix("b")) if len(parts) > 2 else 0


def is_ranked(name) -> bool:
    """Whether the table of this file name is indexed by rank (the large set) rather than directly."""
    return name.endswith(RANKED_SUFFIX)


PACKED_SHIFT = 6  # a table held packed (files.PackedTable) keeps one base for the ranks r with the same r >> 6
PACKED_BLOCK = 1 << PACKED_SHIFT  # (the packed kernel, search/pdb_idastar.py, writes the 6 out: a hot loop)


def packed_bytes(entries) -> int:
    """The memory of a ranked table of `entries` held packed (files.PackedTable, as the browser holds it): 2 bits an
    entry and a byte a PACKED_BLOCK."""
    return (entries + 3) // 4 + (entries + PACKED_BLOCK - 1) // PACKED_BLOCK


def cost(rows, cols, cells, ranked) -> dict:
    """What a table costs: its entries (one byte each in memory), and for a ranked one its memory held packed
    (packed_bytes: about a quarter of a byte an entry), the file's size and the
    build's time on one core, both estimated from measurements, and the build's memory (its record holds a byte per
    entry for each cell the blank may be on, the table one more: 4.7 GB measured for 8 tiles of the 15-puzzle)."""
    n, k = rows * cols, len(cells)
    if not ranked:
        return {"entries": n ** k, "memory_bytes": n ** k}
    entries = placements(n, k)
    return {"entries": entries, "memory_bytes": entries, "packed_bytes": packed_bytes(entries),
            "file_bytes": round(entries * RANKED_FILE_BYTES.get((rows, cols), RANKED_FILE_BYTES[4, 4])),
            "build_s": round(entries * RANKED_BUILD_S), "build_memory_bytes": entries * (n - k + 1)}


def placements(n, k) -> int:
    """How many ways k distinct tiles can lie on n cells."""
    return math.perm(n, k)
