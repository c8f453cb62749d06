"""Fixtures of the trust tests: a way to tamper behind the program's back, the environment for child processes
that run the real services, and the small city of `tests.helpers.cidade_pequena` with its URM table (the
SQLite-only database is `tests.helpers.fixtures`')."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import PAPEIS, ValorURM
from secretaria.services.base import Ator
from secretaria.services.semente import abrir_e_semear
from tests.helpers import cidade_pequena, fabrica
from tests.helpers.cidade_pequena import Cidade

RAIZ = Path(__file__).resolve().parents[2]


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


# ------------------------------------------------------------------------------------ a small city


ADMIN = Ator("admin", "Ana Administradora", frozenset({"administrador"}))
FISCAL = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
PROTOCOLO = Ator("protocolo", "Paula do Protocolo", frozenset({"protocolo"}))
AUTORIDADE = Ator("autoridade", "Augusto Autoridade", frozenset({"autoridade"}))
SECRETARIO = Ator("secretario", "Sérgio Secretário", frozenset({"secretario"}))
TODOS = Ator("todos", "Todos os Papéis", frozenset(PAPEIS))


@pytest.fixture
def cidade(banco: Banco) -> Cidade:
    """The small city (`tests.helpers.cidade_pequena`) with the URM table (inserted directly: these tests are
    about trust, not about the registries' forms)."""
    with banco.uow() as uow:
        s = uow.session
        cidade = cidade_pequena.inserir(s, delegacao="concessao")
        s.add_all(
            [
                ValorURM(
                    vigencia=date(2000, 1, 1),
                    valor=Decimal("150.0000"),
                    ato="Decreto 1/2000",
                    alterado_por="teste",
                ),
                ValorURM(
                    vigencia=date(2026, 1, 1),
                    valor=Decimal("164.7400"),
                    ato="Decreto 1/2026",
                    alterado_por="teste",
                ),
            ]
        )
        s.flush()
        uow.commit()
    return cidade


@pytest.fixture
def novo_auto(cidade: Cidade) -> Callable[..., Any]:
    """A valid NovoAuto on `cidade` (fields overridable)."""

    def fazer(**campos: Any) -> Any:
        dia = campos.pop("data", date(2026, 11, 2))
        return fabrica.novo_auto(cidade.operadora_id, cidade.fiscal_id, dia, **campos)

    return fazer


@pytest.fixture
def atores() -> dict[str, Ator]:
    return {
        "administrador": ADMIN,
        "fiscal": FISCAL,
        "protocolo": PROTOCOLO,
        "autoridade": AUTORIDADE,
        "secretario": SECRETARIO,
        "todos": TODOS,
    }


def _preparar_e_descartar(url_servidor: str) -> Iterator[tuple[str, str, str]]:
    """(admin URL, owner URL, application URL) of a fresh database on the server at `url_servidor` (a
    superuser's address) prepared by `preparar`; the database and every role made for it (owner,
    application, the users' group and the accounts' roles) dropped after."""
    from secretaria.servidor import preparar

    nome = f"secretaria_srv_{uuid.uuid4().hex[:8]}"
    url_admin = sa.make_url(url_servidor).set(database=nome).render_as_string(hide_password=False)
    try:
        preparado = preparar(url_admin)
        yield url_admin, preparado.url_dono, preparado.url_app
    finally:
        motor = sa.create_engine(url_servidor, isolation_level="AUTOCOMMIT")
        with motor.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
            papeis = conn.execute(
                sa.text("SELECT rolname FROM pg_roles WHERE starts_with(rolname, :p) ORDER BY rolname DESC"),
                {"p": nome + "_"},
            ).scalars()
            for papel in list(papeis):
                conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{papel}"')
        motor.dispose()


@pytest.fixture
def banco_preparado(pg_url: str) -> Iterator[tuple[str, str, str]]:
    """(admin URL, owner URL, application URL) of a fresh database prepared by `preparar` on the shared test
    server (which trusts local connections: see `preparado_com_senha` for one that checks passwords)."""
    from tests.conftest import PG_ADMIN_URL

    yield from _preparar_e_descartar(PG_ADMIN_URL)


@pytest.fixture(scope="session")
def cluster_com_senha(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The superuser's address of a private PostgreSQL cluster that checks every password (scram-sha-256),
    started once for the session (`tests.helpers.servidor_com_senha`) and stopped after. Skipped only when
    the PostgreSQL binaries are not installed, and never under CI=true."""
    from tests.conftest import NA_CI
    from tests.helpers import servidor_com_senha

    bin_dir = servidor_com_senha.binarios()
    if bin_dir is None:
        motivo = "binários do PostgreSQL (initdb, pg_ctl) não encontrados em /usr/lib/postgresql/*/bin"
        if NA_CI:
            pytest.fail(f"{motivo} (sob CI=true este teste não pode ser pulado)")
        pytest.skip(motivo)
    cluster = servidor_com_senha.iniciar(tmp_path_factory.mktemp("cluster_com_senha"), bin_dir)
    try:
        yield cluster.url()
    finally:
        servidor_com_senha.parar(cluster)


@pytest.fixture
def preparado_com_senha(cluster_com_senha: str) -> Iterator[tuple[str, str, str]]:
    """`banco_preparado` on the private cluster that checks passwords: the server, not the program, refuses a
    wrong one."""
    yield from _preparar_e_descartar(cluster_com_senha)


@contextmanager
def com_administrador(
    url_dono: str, url_app: str, *, login: str, senha: str, nome: str = "Ana Admin"
) -> Iterator[Banco]:
    """A prepared database whose first administrator the owner's address created (as the server's
    administrator does with `secretaria usuario criar`), opened with the entry address as every PC opens it
    (nobody logged in yet); closed after."""
    from secretaria.services.contas import criar_primeiro_administrador

    dono = abrir_e_semear(url_dono)
    try:
        criar_primeiro_administrador(dono.uow(), login=login, nome=nome, senha=senha)
    finally:
        dono.fechar()
    banco = abrir_e_semear(url_app)
    try:
        yield banco
    finally:
        banco.fechar()


SENHA_DO_USUARIO = "todos12345"


@pytest.fixture
def banco_do_usuario(banco_preparado: tuple[str, str, str]) -> Iterator[tuple[Banco, Ator]]:
    """A prepared database opened with the application role's address, as every PC opens it, and logged in:
    its connections are the account's own role ("todos", every program role; created by the owner as the
    server's administrator does with `secretaria usuario criar`)."""
    from secretaria.services.contas import autenticar, criar_primeiro_administrador

    _admin, url_dono, url_app = banco_preparado
    dono = abrir_e_semear(url_dono)
    try:
        criar_primeiro_administrador(
            dono.uow(), login="todos", nome="Todos os Papéis", senha=SENHA_DO_USUARIO, papeis=PAPEIS
        )
    finally:
        dono.fechar()
    banco = abrir_e_semear(url_app)
    try:
        yield banco, autenticar(banco.uow(), "todos", SENHA_DO_USUARIO)
    finally:
        banco.fechar()
