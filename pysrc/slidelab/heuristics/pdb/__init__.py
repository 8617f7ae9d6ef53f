"""Additive pattern databases for sliding puzzles, in five parts, each found by its name:

- frames.py: canonical frames (one set of tables serves every goal with the blank in a corner), partitions, names;
- builder.py: building a table in pure Python (pdb_builder_numpy.py: the same bytes with numpy, at build time only);
- files.py: the file format, the cache folder and the tables in memory;
- heuristic.py: the heuristic itself, and which tables a puzzle needs;
- dual.py: the lookups on a position's dual.

What the rest of the engine uses is named here.
"""

from slidelab.heuristics.pdb.files import ENV_DIR, cache_dir, ensure_table, install, is_ready, write_files
from slidelab.heuristics.pdb.frames import (
    AUTO_SETS,
    MAX_CELLS,
    SHAPE_SUFFIX,
    TABLE_SETS,
    cost,
    is_ranked,
    parse_table_name,
)
from slidelab.heuristics.pdb.heuristic import (
    auto_table_set,
    available,
    download_tables,
    dual_page_pattern_database,
    dual_pattern_database,
    large_pattern_database,
    no_tables,
    page_pattern_database,
    pattern_database,
    plan,
    twenty_four_pattern_database,
)

__all__ = ["AUTO_SETS", "ENV_DIR", "MAX_CELLS", "SHAPE_SUFFIX", "TABLE_SETS", "auto_table_set", "available",
           "cache_dir", "cost", "download_tables", "dual_page_pattern_database", "dual_pattern_database",
           "ensure_table", "install", "is_ranked", "is_ready", "large_pattern_database", "no_tables",
           "page_pattern_database", "parse_table_name", "pattern_database", "plan", "twenty_four_pattern_database",
           "write_files"]
