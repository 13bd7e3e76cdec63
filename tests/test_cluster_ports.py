"""``--cluster dask`` listens only on TLS ports (issue 28.5): Dask's scheduler serves plain HTTP on 8787 (its logs,
workers and identity, to every local account) and each worker on a port of its own, even with the dashboard off;
lv's local cluster starts none of them (lv/cluster.py)."""

from __future__ import annotations

import socket
import ssl

import pytest

from lv import simulate


def _listening(psutil) -> set[int]:
    """The TCP ports this process and its children listen on."""
    me = psutil.Process()
    ports = set()
    for p in [me, *me.children(recursive=True)]:
        try:
            conns = p.net_connections(kind="tcp") if hasattr(p, "net_connections") else p.connections(kind="tcp")
        except psutil.Error:
            continue
        ports |= {c.laddr.port for c in conns if c.status == psutil.CONN_LISTEN}
    return ports


def _speaks_tls(port: int) -> bool:
    """A TLS handshake completes on 127.0.0.1:port (the certificate is not checked: any TLS server will do)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:  # the timeout only guards against a hang: a handshake that is slow on a loaded machine is not plain
        with socket.create_connection(("127.0.0.1", port), timeout=120) as raw:
            with context.wrap_socket(raw):
                return True
    except (ssl.SSLError, OSError):
        return False


@pytest.mark.slow
def test_the_local_cluster_listens_on_tls_ports_only():
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("dask.distributed")
    pytest.importorskip("cryptography")
    before = _listening(psutil)
    client = simulate.dask_client(None, 2)
    try:
        ports = _listening(psutil) - before
        result = simulate.simulate(["revised"], 2, 4, 1, ["greedy"], client=client, batch=2)
        during = _listening(psutil) - before
        plain = [p for p in sorted(ports | during) if not _speaks_tls(p)]  # before 28.5: 8787 and the workers'
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert result["games"] == 4
    assert 8787 not in ports | during
    assert len(ports) >= 3  # the scheduler and the two workers (and their nannies)
    assert plain == []
