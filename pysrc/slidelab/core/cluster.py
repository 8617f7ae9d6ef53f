"""Dask clusters for the work that can leave one machine (explore's dask engine, `batch --engine dask`): a local
cluster when no scheduler is named, a client that sees at least one worker, and both closed at the end, however the
work ended.

The `scale` extra (numpy and dask.distributed) is needed; without it, or when the scheduler cannot be reached, the
work is refused with Unavailable. A local cluster's scheduler and dashboard listen on 127.0.0.1 only.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager

from slidelab.core.errors import Unavailable
from slidelab.core.extras import require

CONNECT_TIMEOUT = "10s"  # how long a client waits for a scheduler and its first worker


@contextmanager
def dask_client(scheduler: str | None, workers: int, what: str):
    """A client of the cluster at `scheduler`, or of a local cluster of `workers` processes started for it; `what`
    names the work in the message when dask.distributed is missing."""
    require(what, "distributed")
    import distributed

    cluster = local_cluster(workers) if scheduler is None else None
    try:
        client = connect(distributed, scheduler or cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def local_cluster(workers: int):
    """A local Dask cluster of `workers` processes of one thread each, on 127.0.0.1 only.

    Its workers keep glibc's own malloc tuning: Dask's default MALLOC_TRIM_THRESHOLD_ turns every large numpy
    temporary into a fresh mmap, which made the indexed explore three times slower (docs/explore-at-scale.md).
    """
    import dask
    import distributed

    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                        dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)


def connect(distributed, scheduler):
    """A client of `scheduler` (an address or a cluster) that sees at least one worker."""
    try:
        if isinstance(scheduler, str):  # read first: a Client that fails on its address hangs 20 s when collected
            distributed.comm.get_address_host_port(scheduler)
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as error:  # unreachable, or an address Dask cannot read
        raise Unavailable(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except TimeoutError:
        client.close()
        raise Unavailable(f"the Dask scheduler at {scheduler} has no worker") from None
    return client
