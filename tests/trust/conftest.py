"""Fixtures of the trust tests: a SQLite-only database, a way to tamper behind the program's back, and
the environment for child processes that run the real services."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, abrir_banco

RAIZ = Path(__file__).resolve().parents[2]


@pytest.fixture
def url_sqlite(sqlite_modelo: Path, tmp_path: Path) -> str:
    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    return f"sqlite:///{arquivo}"


@pytest.fixture
def banco_sqlite(url_sqlite: str) -> Iterator[Banco]:
    b = abrir_banco(url_sqlite)
    try:
        yield b
    finally:
        b.fechar()


def _ambiente_filho() -> dict[str, str]:
    """The environment of a child `python` running the real services from this work tree."""
    ambiente = dict(os.environ)
    ambiente["PYTHONPATH"] = os.pathsep.join(p for p in (str(RAIZ), ambiente.get("PYTHONPATH", "")) if p)
    ambiente["PYTHONUNBUFFERED"] = "1"
    return ambiente


def _adulterar(banco: Banco, sql: str, **parametros: Any) -> None:
    """Run `sql` on the audit table the way an intruder with database access would: with the triggers that
    keep it append-only switched off for that one transaction (dropped for good on a SQLite test file)."""
    with banco.engine.begin() as conn:
        if banco.eh_sqlite:
            conn.exec_driver_sql("DROP TRIGGER IF EXISTS auditoria_sem_alteracao")
            conn.exec_driver_sql("DROP TRIGGER IF EXISTS auditoria_sem_exclusao")
            conn.execute(sa.text(sql), parametros)
        else:
            conn.exec_driver_sql("ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_insercao")
            conn.execute(sa.text(sql), parametros)
            conn.exec_driver_sql("ALTER TABLE auditoria ENABLE TRIGGER auditoria_somente_insercao")


def _contar(banco: Banco, tabela: str) -> int:
    with banco.engine.connect() as conn:
        return int(conn.exec_driver_sql(f"SELECT count(*) FROM {tabela}").scalar() or 0)


Adulterar = Callable[..., None]
Contar = Callable[[Banco, str], int]


@pytest.fixture
def adulterar() -> Adulterar:
    return _adulterar


@pytest.fixture
def contar() -> Contar:
    return _contar


@pytest.fixture
def filho() -> tuple[str, dict[str, str]]:
    """(python executable, environment) for a child process running the real services."""
    return sys.executable, _ambiente_filho()
