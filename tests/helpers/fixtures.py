"""Fixtures over `fabrica` and `apoio_processo`, registered for the whole suite by `tests/conftest.py`.

`cidade`, `roteiro` and `atores` are the case services' small city, script of acts and one actor per role
(tests/trust overrides `cidade` and `atores` with its own smaller city). `url_sqlite` and `banco_sqlite` are a
fresh SQLite database only, for the tests where the database kind does not matter; `outro` is `banco` opened
by a second PC. `sem_caixas_abertas` is not autouse:
the case-screen modules ask for it with `pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from secretaria.db import Banco
from secretaria.services.base import Ator
from secretaria.services.semente import abrir_e_semear
from tests.helpers import fabrica


@pytest.fixture
def url_sqlite(sqlite_modelo: Path, tmp_path: Path) -> str:
    """The URL of a fresh (migrated and seeded) SQLite file of this test's own."""
    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    return f"sqlite:///{arquivo}"


@pytest.fixture
def banco_sqlite(url_sqlite: str) -> Iterator[Banco]:
    """A fresh SQLite database only (for the tests where the database kind does not matter), opened on
    `url_sqlite`."""
    banco = abrir_e_semear(url_sqlite)
    try:
        yield banco
    finally:
        banco.fechar()


@pytest.fixture
def outro(banco: Banco) -> Iterator[Banco]:
    """The same database opened by a second PC."""
    segundo = abrir_e_semear(banco.url)
    try:
        yield segundo
    finally:
        segundo.fechar()


@pytest.fixture
def atores() -> dict[str, Ator]:
    return dict(fabrica.ATORES)


@pytest.fixture
def cidade(banco: Banco) -> fabrica.Cidade:
    """Two operators (a concessionária and a permissionária), lines, buses, drivers, an inspector, URM values."""
    return fabrica.popular(banco)


@pytest.fixture
def roteiro(banco: Banco, cidade: fabrica.Cidade, monkeypatch: pytest.MonkeyPatch) -> fabrica.Roteiro:
    """Acts with defaults on `cidade`; the services' clock reads `roteiro.hoje` (30/11/2026 unless changed)."""
    return fabrica.Roteiro(banco, cidade, monkeypatch)


@pytest.fixture
def sem_caixas_abertas() -> Iterator[None]:
    """No window or message box left open by one test leaks into the next; the windows kept by
    `apoio_processo.manter` are released only after they are closed."""
    from tests.helpers import apoio_processo  # Qt only for the tests that ask for this fixture

    yield
    apoio_processo.fechar_caixas()
    apoio_processo.soltar_janelas()
