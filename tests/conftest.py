"""Shared fixtures. `banco` runs each database test on SQLite (a temporary file) and on PostgreSQL.

PostgreSQL: one fresh database per test session (migrated once); each test starts from empty tables
(TRUNCATE) plus the seeded catalogue. Outside CI a missing server skips those tests with the reason; under
CI=true it fails them.

Every test runs on the same calendar day (`DIA_DOS_TESTES`), whatever the real date: the session-wide autouse
fixture `relogio_dos_testes` anchors the program's one clock there and lets it advance with real time (so two acts
a second apart are still a second apart). A test that needs another day patches `secretaria.relogio` itself.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Base
from secretaria.services.semente import abrir_e_semear

# No test opens a real window: Qt draws offscreen, and the command line's check of the system's xcb libraries
# (made before the window opens) stays out of tests that patch the window away.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The case services' city, script of acts and actors, as fixtures for every test folder.
pytest_plugins = ["tests.helpers.fixtures"]

PG_ADMIN_URL = os.environ.get("SECRETARIA_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NA_CI = os.environ.get("CI", "").lower() == "true"

# A Monday with no holiday around it; far enough into the year for the tests that look back months.
DIA_DOS_TESTES = datetime(2026, 11, 30, 10, 0, 0)


@pytest.fixture(scope="session", autouse=True)
def relogio_dos_testes() -> Iterator[None]:
    """Pin the program's clock to DIA_DOS_TESTES, advancing with real time from the session's start.

    Session-wide, so that session fixtures (the demo city, the migrated models) see the same day as the tests.
    """
    inicio = time.monotonic()  # elapsed time only: the real date is never read

    def agora() -> datetime:
        return (DIA_DOS_TESTES + timedelta(seconds=time.monotonic() - inicio)).replace(microsecond=0)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(relogio, "agora", agora)
        yield


def _pg_disponivel() -> str | None:
    try:
        engine = sa.create_engine(PG_ADMIN_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
        engine.dispose()
        return None
    except Exception as exc:  # any failure means "no server": the reason is shown on the skip
        return f"PostgreSQL indisponível em {PG_ADMIN_URL}: {str(exc).splitlines()[0]}"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    motivo = _pg_disponivel()
    if motivo is not None:
        if NA_CI:
            pytest.fail(f"{motivo} (sob CI=true os testes de PostgreSQL não podem ser pulados)")
        pytest.skip(motivo)
    nome = f"secretaria_teste_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{nome}"')
    url = sa.make_url(PG_ADMIN_URL).set(database=nome).render_as_string(hide_password=False)
    abrir_e_semear(url).fechar()  # migrate once for the whole session
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(scope="session")
def sqlite_modelo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, seeded SQLite file that each test copies (faster than migrating per test)."""
    arquivo = tmp_path_factory.mktemp("modelo") / "modelo.sqlite"
    abrir_e_semear(f"sqlite:///{arquivo}").fechar()
    return arquivo


def _limpar_pg(url: str) -> None:
    engine = sa.create_engine(url)
    nomes = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with engine.begin() as conn:
        # A session some earlier test left open would make TRUNCATE wait for ever: fail in seconds instead.
        conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")
        # The audit refuses TRUNCATE (migration 0003); a superuser's replica mode skips that trigger.
        conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
        conn.exec_driver_sql(f"TRUNCATE {nomes} RESTART IDENTITY CASCADE")
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def banco_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty (migrated and seeded) database of each kind."""
    if request.param == "sqlite":
        modelo: Path = request.getfixturevalue("sqlite_modelo")
        arquivo = tmp_path / "secretaria.sqlite"
        shutil.copyfile(modelo, arquivo)
        return f"sqlite:///{arquivo}"
    url: str = request.getfixturevalue("pg_url")
    _limpar_pg(url)
    return url


def _esperar_tarefas_em_segundo_plano() -> None:
    """A window the test opened may have started a background read (the Painel loads its numbers so) that
    is still running when the test ends: let it finish, so its session is closed before the count below."""
    tarefas = sys.modules.get("secretaria.ui.widgets.tarefas")
    if tarefas is not None:
        for tarefa in list(tarefas.Tarefa._em_andamento):
            assert tarefa.wait(30_000), "uma tarefa em segundo plano não terminou em 30 s"


@pytest.fixture
def banco(banco_url: str) -> Iterator[Banco]:
    b = abrir_e_semear(banco_url)
    try:
        yield b
        _esperar_tarefas_em_segundo_plano()
        abertas = b.engine.pool.checkedout()  # type: ignore[attr-defined]
        assert abertas == 0, f"conexões com o banco deixadas abertas pelo teste: {abertas} (feche as sessões)"
    finally:
        b.fechar()
