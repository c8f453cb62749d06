"""Whether a database still waits for its first administrator: the question asked before the program's first
window (the first-run dialog or the login).

It is asked on every start, before the login is on screen, so it reads the `usuario` table with plain SQL
on a connection of its own: the ORM, the models and the accounts service (together a third of a start) load
when someone logs in.
"""

from __future__ import annotations

import sqlalchemy as sa

from secretaria.db import Banco

_USUARIO = sa.table("usuario", sa.column("id"))


def existe_usuario(banco: Banco) -> bool:
    """Whether the database has any account at all (a locked or deactivated one counts)."""
    # DEFERRED: a read never takes SQLite's write lock (the engine's default BEGIN is IMMEDIATE).
    with banco.engine.execution_options(sqlite_begin="DEFERRED").connect() as conexao:
        return conexao.execute(sa.select(_USUARIO.c.id).limit(1)).first() is not None
