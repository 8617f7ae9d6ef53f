"""The run layer: how work is carried out and kept.

One scheduler of parallel IDA* rounds (`scheduler.py`) over carriers that only carry (`carriers.py`: forked
processes, the page's Web Workers, Dask workers), a split search's checkpoint (`checkpoint.py`), your own code run
where it can always be stopped (`supervised.py`), and the Compare table's runs (`compare.py`).
"""
