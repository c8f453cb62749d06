"""A database seen from outside the program under test: who can log in to a database file."""

from __future__ import annotations

import sqlalchemy as sa

from secretaria.db import abrir_banco
from secretaria.models import Usuario


def logins(url: str) -> set[str]:
    """The logins of the database at `url` (a copy, a restored file…), opened as it is (never migrated)."""
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            return set(s.scalars(sa.select(Usuario.login)))
    finally:
        banco.fechar()

