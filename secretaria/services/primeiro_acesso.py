"""Whether a database still waits for its first administrator: the question asked before the program's first
window (the first-run dialog or the login).

It is asked on every start, before the login is on screen, so it reads the `usuario` table with plain SQL: the
ORM models and the accounts service (importing the models is a fifth of a start) load when someone logs in.
"""

from __future__ import annotations

import sqlalchemy as sa

from secretaria.db import UnidadeDeTrabalho

_USUARIO = sa.table("usuario", sa.column("id"))


def existe_usuario(uow: UnidadeDeTrabalho) -> bool:
    """Whether the database has any account at all (a locked or deactivated one counts)."""
    with uow:
        return uow.session.scalar(sa.select(_USUARIO.c.id).limit(1)) is not None
