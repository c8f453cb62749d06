"""PostgreSQL: the connection's role after a login (each program user is a role of the server).

Until a login, an engine connects with its URL's role (the pre-login role of `servidor preparar`); after it,
`conectar_como` makes every new connection of that engine log in as the user's own role with the typed
password, so the server, not the program, checks the password and names the author of each audit row.
"""

from __future__ import annotations

import weakref
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

_CREDENCIAIS: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
"""Per engine (keyed by its dialect, shared with its `execution_options` variants): the role and password the
next connections log in with instead of the URL's (the pre-login role of `servidor preparar`)."""


def aplicar_credenciais(engine: sa.Engine) -> None:
    """Install on a PostgreSQL engine the listener that gives each new connection the current role."""

    @event.listens_for(engine, "do_connect")
    def _credenciais(_dialeto: Any, _registro: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        cparams.update(_CREDENCIAIS.get(engine.dialect, {}))


def credenciais_do_servidor(engine: sa.Engine) -> dict[str, str]:
    """The user and password connections of `engine` use now, when a login changed them (else empty)."""
    return dict(_CREDENCIAIS.get(engine.dialect, {}))


def conectar_como(engine: sa.Engine, papel: str | None, senha: str | None = None) -> bool:
    """From now on `engine` connects as `papel` with `senha` (None: back to the URL's own role); the pooled
    connections of the former role are closed. Tries one connection at once: False (and back to the role it
    had) when the server refused that role's password or login; a server that cannot be reached at all
    raises as usual."""
    antes = _CREDENCIAIS.get(engine.dialect)
    if papel is None:
        _CREDENCIAIS.pop(engine.dialect, None)
    else:
        _CREDENCIAIS[engine.dialect] = {"user": papel, "password": senha or ""}
    engine.dispose()
    if papel is None:
        return True
    try:
        with engine.connect() as conexao:
            conexao.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError:
        if antes is None:
            _CREDENCIAIS.pop(engine.dialect, None)
        else:
            _CREDENCIAIS[engine.dialect] = antes
        engine.dispose()
        with engine.connect() as conexao:  # the server is there: it was the password (or NOLOGIN)
            conexao.exec_driver_sql("SELECT 1")
        return False
    return True
