"""The core layer: what everything else stands on.

Puzzles (`puzzles/`), the failures every layer raises (`errors.py`), the answers' types (`answers.py`), the limits,
statistics and progress every search shares (`control.py`), the optional extras (`extras.py`), and the processes
work runs on: forked workers (`workers.py`) and Dask clusters (`cluster.py`). It imports nothing else of slidelab.
"""
