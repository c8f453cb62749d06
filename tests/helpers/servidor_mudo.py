"""A PostgreSQL server that does not answer, for the watcher's reconnection: a local port whose connections
the kernel accepts (the listening socket's backlog) and nobody ever serves, so a client's connection attempt
hangs until its own connect timeout, as it does when the server's machine is unreachable."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from secretaria.db import Banco


@contextmanager
def servidor_mudo() -> Iterator[int]:
    """The port of a server that never answers (closed at the end)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as escuta:
        escuta.bind(("127.0.0.1", 0))
        escuta.listen(16)
        yield int(escuta.getsockname()[1])


@contextmanager
def servidor_fora_do_ar(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within: the new connections `banco`'s watcher opens go to a server that never answers (the pool keeps
    its own). Its pause between attempts starts short, so that the test need not wait for a second one."""
    from secretaria.services import mudancas

    monkeypatch.setattr(mudancas, "ESPERA_INICIAL", 0.05)
    url: sa.URL = banco.engine.url
    with servidor_mudo() as porta, monkeypatch.context() as mp:
        mp.setattr(banco.engine, "url", url.set(host="127.0.0.1", port=porta))
        yield
