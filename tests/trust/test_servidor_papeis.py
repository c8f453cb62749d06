"""The role × act matrix and a restore on a prepared PostgreSQL server, through the accounts' own roles (each
account logged in, its connections that account's server role): the program's role checks hold there, and
the server lets every role reach what its acts read."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, conectar_como
from secretaria.models import PAPEIS
from secretaria.services import contas
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import ROTULOS_PAPEIS, AcessoNegado, ErroDominio
from secretaria.services.semente import abrir_e_semear
from secretaria.services.verificacao import atos_sem_papel, verificar_tudo
from tests.services.test_papeis import MATRIZ
from tests.trust.conftest import com_administrador

SENHA = "Senha12345"


@dataclass
class Contas:
    url_admin: str
    url_dono: str
    banco: Banco
    """Opened with the entry role's address, as every PC opens it."""


def _login(papel: str) -> str:
    return f"u_{papel}"


def _criar_contas(preparado: tuple[str, str, str]) -> Iterator[Contas]:
    """One account per program role (`u_<papel>`), created by the administrator through its own role."""
    url_admin, url_dono, url_app = preparado
    with com_administrador(url_dono, url_app, login=_login("administrador"), senha=SENHA) as banco:
        admin = contas.autenticar(banco.uow(), _login("administrador"), SENHA)
        for papel in PAPEIS:
            if papel != "administrador":
                contas.criar_usuario(
                    banco.uow(),
                    admin,
                    login=_login(papel),
                    nome=f"Conta {papel}",
                    senha=SENHA,
                    papeis=[papel],
                )
        yield Contas(url_admin, url_dono, banco)


@pytest.fixture
def contas_por_papel(banco_preparado: tuple[str, str, str]) -> Iterator[Contas]:
    yield from _criar_contas(banco_preparado)


@pytest.fixture
def contas_com_senha(preparado_com_senha: tuple[str, str, str]) -> Iterator[Contas]:
    """The same accounts on the private cluster that checks passwords (`cluster_com_senha`)."""
    yield from _criar_contas(preparado_com_senha)


def _contagens(url_dono: str) -> dict[str, int]:
    motor = sa.create_engine(url_dono)
    try:
        with motor.connect() as conn:
            tabelas = conn.execute(
                sa.text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'auditoria'"
                )
            ).scalars()
            return {
                t: int(conn.exec_driver_sql(f'SELECT count(*) FROM "{t}"').scalar() or 0) for t in tabelas
            }
    finally:
        motor.dispose()


def test_matriz_de_papeis_pelos_papeis_do_servidor(contas_por_papel: Contas) -> None:
    banco = contas_por_papel.banco
    antes = _contagens(contas_por_papel.url_dono)
    falhas: list[str] = []
    for papel in PAPEIS:
        ator = contas.autenticar(banco.uow(), _login(papel), SENHA)
        with banco.leitura() as s:
            assert s.scalar(sa.text("SELECT session_user::text")).endswith(f"_u{ator.usuario_id}")
        for ato, (permitidos, funcao, argumentos) in MATRIZ.items():
            try:
                funcao(banco.uow(), ator, **argumentos)
            except AcessoNegado as exc:
                if papel in permitidos:
                    falhas.append(f"{ato}: {papel} deveria poder")
                elif not all(ROTULOS_PAPEIS[p] in exc.mensagem for p in permitidos):
                    falhas.append(f"{ato}/{papel}: a mensagem não nomeia o papel: {exc.mensagem}")
            except ErroDominio:
                if papel not in permitidos:
                    falhas.append(f"{ato}: {papel} passou pela verificação de papel")
            except sa.exc.DBAPIError as exc:  # the server refused what the act reads or writes
                falhas.append(f"{ato}/{papel}: recusado pelo servidor: {str(exc.orig).splitlines()[0]}")
            else:
                falhas.append(f"{ato}/{papel}: gravou com argumentos impossíveis")
    assert not falhas, "\n".join(falhas)
    assert _contagens(contas_por_papel.url_dono) == antes
    with banco.leitura() as s:
        assert list(atos_sem_papel(s)) == []
        assert verificar_cadeia(s).integra


def _ferramenta(nome: str) -> str:
    caminho = shutil.which(nome)
    if caminho is None:
        from tests.helpers.servidor_com_senha import binarios

        pasta = binarios()
        if pasta is not None and (pasta / nome).is_file():
            caminho = str(pasta / nome)
    if caminho is None:
        pytest.skip(f"{nome} não instalado neste computador")
    return caminho


def test_restaurar_copia_do_servidor_preparado_e_entrar_pelos_papeis(
    contas_com_senha: Contas, tmp_path: Path
) -> None:
    """A pg_dump copy of a prepared database, restored over it (same name) by the server's administrator and
    prepared again, on a server that checks passwords: every account logs in through its own role with its
    own password (a wrong one refused by the server), acts, and the whole verification passes."""
    banco = contas_com_senha.banco
    dono_url = sa.make_url(contas_com_senha.url_dono)
    admin_url = sa.make_url(contas_com_senha.url_admin)
    nome = admin_url.database
    assert nome is not None
    copia = tmp_path / "copia.dump"
    subprocess.run(
        [
            _ferramenta("pg_dump"),
            "--format=custom",
            f"--file={copia}",
            f"--dbname={dono_url.set(drivername='postgresql').render_as_string(hide_password=False)}",
        ],
        check=True,
        capture_output=True,
    )
    banco.fechar()
    conectar_como(banco.engine, None)
    servidor = sa.create_engine(admin_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with servidor.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{nome}" WITH (FORCE)')
            conn.exec_driver_sql(f'CREATE DATABASE "{nome}"')
    finally:
        servidor.dispose()
    subprocess.run(
        [
            _ferramenta("pg_restore"),
            "--no-owner",
            f"--dbname={admin_url.set(drivername='postgresql').render_as_string(hide_password=False)}",
            str(copia),
        ],
        check=True,
        capture_output=True,
    )
    from secretaria.servidor import preparar

    preparado = preparar(admin_url.render_as_string(hide_password=False))
    restaurado = abrir_e_semear(preparado.url_app)
    try:
        with pytest.raises(contas.FalhaLogin, match="incorretos"):
            contas.autenticar(restaurado.uow(), _login("fiscal"), "Errada12345")
        for papel in PAPEIS:
            ator = contas.autenticar(restaurado.uow(), _login(papel), SENHA)
            with restaurado.leitura() as s:
                assert s.scalar(sa.text("SELECT session_user::text")).endswith(f"_u{ator.usuario_id}")
        admin = contas.autenticar(restaurado.uow(), _login("administrador"), SENHA)
        with restaurado.leitura() as s:
            fiscal_id = next(u.id for u in contas.listar_usuarios(s) if u.login == _login("fiscal"))
        contas.redefinir_senha(restaurado.uow(), admin, fiscal_id, nova_senha="Outra12345")
        contas.autenticar(restaurado.uow(), _login("fiscal"), "Outra12345")
        with restaurado.leitura() as s:
            relatorio = verificar_tudo(s)
        assert relatorio.integro, relatorio.achados
    finally:
        restaurado.fechar()
