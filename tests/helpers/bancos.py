"""A database seen from outside the program under test: who can log in to a database file, and another
program holding the lock a save needs."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from secretaria.db import Banco, abrir_banco, arquivo_sqlite, criar_engine
from secretaria.models import Usuario


def logins(url: str) -> set[str]:
    """The logins of the database at `url` (a copy, a restored file…), opened as it is (never migrated)."""
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            return set(s.scalars(sa.select(Usuario.login)))
    finally:
        banco.fechar()


@contextmanager
def travado(banco: Banco, sql_postgresql: str) -> Iterator[None]:
    """Another program holds a lock the program needs, in a transaction of its own: on SQLite the write lock
    (BEGIN IMMEDIATE on a connection of its own), on PostgreSQL the lock `sql_postgresql` takes (a record's
    row with SELECT … FOR UPDATE, a table with LOCK TABLE)."""
    if banco.eh_sqlite:
        arquivo = arquivo_sqlite(banco.url)
        assert arquivo is not None
        outro = sqlite3.connect(arquivo, isolation_level=None)
        outro.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            outro.rollback()
            outro.close()
        return
    engine = criar_engine(banco.url)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(sql_postgresql)
            try:
                yield
            finally:
                conn.rollback()
    finally:
        engine.dispose()
