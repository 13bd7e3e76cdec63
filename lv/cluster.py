"""The local Dask cluster of ``--cluster dask``: TLS between its scheduler, workers and client, and no HTTP server.

Dask's scheduler always serves HTTP (port 8787: its logs, workers and identity, to every account on the machine,
issue 28.5), and each worker on a port of its own, even with the dashboard off: there is no option to start them
without one. Here the scheduler and the workers are Dask's own with ``start_http_server`` making the routes and
binding no port, so the only ports the cluster listens on are its TLS ones. Needs the ``dask`` extra; imported
only when such a cluster is asked for.
"""

from __future__ import annotations

import logging
from typing import Any

from distributed import LocalCluster, Nanny, Scheduler, Security, Worker
from distributed.deploy.spec import SpecCluster
from distributed.http.routing import RoutingApplication


class QuietScheduler(Scheduler):
    """Dask's scheduler with no HTTP server: its routes made, no port bound."""

    def start_http_server(self, routes: Any, dashboard_address: Any, default_port: int = 0,
                          ssl_options: Any = None) -> None:
        self.http_application = RoutingApplication(routes)  # type: ignore[no-untyped-call]


class QuietWorker(Worker):
    """Dask's worker with no HTTP server (the nanny starts it in the worker's process)."""

    def start_http_server(self, routes: Any, dashboard_address: Any, default_port: int = 0,
                          ssl_options: Any = None) -> None:
        self.http_application = RoutingApplication(routes)  # type: ignore[no-untyped-call]


class _Quiet(SpecCluster):
    """Between LocalCluster and SpecCluster in ``QuietCluster``'s order: swaps in the quiet classes in the
    specification LocalCluster builds, so everything else (ports, memory limits, TLS) stays LocalCluster's."""

    def __init__(self, *, scheduler: dict[str, Any], workers: dict[Any, dict[str, Any]], worker: dict[str, Any],
                 **kwargs: Any) -> None:
        quiet = {**worker, "options": {**worker["options"], "worker_class": QuietWorker}}
        super().__init__(scheduler={**scheduler, "cls": QuietScheduler},  # type: ignore[no-untyped-call]
                         workers={k: quiet for k in workers}, worker=quiet, **kwargs)


class QuietCluster(LocalCluster, _Quiet):
    """A LocalCluster of nanny-run worker processes, none of which serves HTTP."""


def local_cluster(workers: int, security: Security) -> Any:
    """``workers`` processes of one thread each on 127.0.0.1, speaking TLS with ``security``, no HTTP."""
    return QuietCluster(n_workers=workers, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                        worker_class=Nanny, dashboard_address=None, silence_logs=logging.ERROR, security=security)
