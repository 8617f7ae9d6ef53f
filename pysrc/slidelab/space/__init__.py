"""The space layer: work over a whole state space rather than one search.

The explore engines (`explore.py` in pure Python, `indexed_explore.py` on numpy, `dask_explore.py` on a Dask
cluster), the heuristic checks against every true distance (`check.py`, `indexed_check.py`), and the pattern
databases' builders (`pdb_builder.py`, `pdb_builder_numpy.py`), which run the explore engines' level loops.
"""
