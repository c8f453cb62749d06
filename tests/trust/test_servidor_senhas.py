"""PostgreSQL prepared by `servidor preparar` on a server that checks passwords (scram-sha-256, a private
cluster: `cluster_com_senha`): the server itself refuses a wrong password, and the program counts it, locks the
account, confirms the current password before a change and keeps a deactivated account's role from logging in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, credenciais_do_servidor
from secretaria.erros import ErroDominio
from secretaria.models import Usuario
from secretaria.services import contas
from secretaria.services.base import Ator
from secretaria.services.contas import FalhaLogin
from tests.trust.conftest import com_administrador

SENHA_ADMIN = "admin12345"
SENHA_FISCAL = "fiscal1234"


@dataclass
class Servidor:
    url_dono: str
    url_app: str
    banco: Banco

    def entrar(self, login: str, senha: str) -> Ator:
        return contas.autenticar(self.banco.uow(), login, senha)

    def consultar(self, sql: str, **parametros: object) -> list[sa.Row[tuple[object, ...]]]:
        motor = sa.create_engine(self.url_dono)
        try:
            with motor.begin() as conn:
                return list(conn.execute(sa.text(sql), parametros).all())
        finally:
            motor.dispose()

    def executar(self, sql: str, **parametros: object) -> None:
        """A change made with the owner's address (behind the program's back)."""
        motor = sa.create_engine(self.url_dono)
        try:
            with motor.begin() as conn:
                conn.execute(sa.text(sql), parametros)
        finally:
            motor.dispose()

    def papel_de(self, login: str) -> str:
        linha = self.consultar(
            "SELECT (SELECT prefixo FROM secretaria_servidor()) || '_u' || id FROM usuario WHERE login = :l",
            l=login,
        )
        return str(linha[0][0])

    def conectar(self, papel: str, senha: str) -> str | None:
        """None when the server let `papel` in with `senha`; else the server's refusal."""
        url = sa.make_url(self.url_app).set(username=papel, password=senha)
        motor = sa.create_engine(url)
        try:
            with motor.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
            return None
        except sa.exc.OperationalError as exc:
            return str(exc.orig)
        finally:
            motor.dispose()


@pytest.fixture
def servidor(preparado_com_senha: tuple[str, str, str]) -> Iterator[Servidor]:
    _url_admin, url_dono, url_app = preparado_com_senha
    with com_administrador(url_dono, url_app, login="admin", senha=SENHA_ADMIN) as banco:
        yield Servidor(url_dono, url_app, banco)


def _com_fiscal(servidor: Servidor) -> tuple[Ator, int]:
    admin = servidor.entrar("admin", SENHA_ADMIN)
    fiscal_id = contas.criar_usuario(
        servidor.banco.uow(),
        admin,
        login="fiscal",
        nome="Fábio Fiscal",
        senha=SENHA_FISCAL,
        papeis=["fiscal"],
    )
    return admin, fiscal_id


def test_o_servidor_recusa_a_senha_errada_e_a_conta_e_bloqueada(servidor: Servidor) -> None:
    _com_fiscal(servidor)
    papel = servidor.papel_de("fiscal")
    papel_admin = servidor.papel_de("admin")
    recusa = servidor.conectar(papel, "errada12345")
    assert recusa is not None and "password authentication failed" in recusa
    assert servidor.conectar(papel, SENHA_FISCAL) is None
    for _ in range(contas.FALHAS_PARA_BLOQUEIO - 1):
        with pytest.raises(FalhaLogin, match="incorretos"):
            servidor.entrar("fiscal", "errada12345")
        # refused by the server: the session still open (the administrator's) keeps its own role
        assert credenciais_do_servidor(servidor.banco.engine)["user"] == papel_admin
    with pytest.raises(FalhaLogin, match="bloqueada por 15 minutos"):
        servidor.entrar("fiscal", "errada12345")
    with pytest.raises(FalhaLogin, match="bloqueada"):
        servidor.entrar("fiscal", SENHA_FISCAL)
    recusa = servidor.conectar(papel, SENHA_FISCAL)  # the right password, the role itself shut (NOLOGIN)
    assert recusa is not None and "not permitted to log in" in recusa
    acoes = servidor.consultar(
        "SELECT acao, usuario_login FROM auditoria WHERE entidade = 'acesso' AND usuario_login = 'fiscal' "
        "ORDER BY id"
    )
    assert [a for a, _ in acoes] == ["falha_entrada"] * contas.FALHAS_PARA_BLOQUEIO + [
        "bloqueio",
        "recusa_entrada",
    ]
    # the lockout over by the server's clock: the right password enters, the role logs in again
    servidor.executar("UPDATE usuario SET bloqueado_ate = now()::timestamp - interval '1 minute'")
    servidor.entrar("fiscal", SENHA_FISCAL)
    assert servidor.conectar(papel, SENHA_FISCAL) is None


def test_conta_ja_migrada_com_a_senha_errada(servidor: Servidor) -> None:
    """An account upgraded from before (scrypt hash) whose first login gave its role the password: from then
    on the server alone judges it; a wrong one is refused by the server and counted."""
    _com_fiscal(servidor)
    servidor.executar(
        "UPDATE usuario SET senha_hash = :h WHERE login = 'fiscal'", h=contas.hash_senha(SENHA_FISCAL)
    )
    servidor.entrar("fiscal", SENHA_FISCAL)  # migrates
    assert servidor.consultar("SELECT senha_hash FROM usuario WHERE login = 'fiscal'")[0][0] == "servidor"
    with pytest.raises(FalhaLogin, match="incorretos"):
        servidor.entrar("fiscal", "errada12345")
    assert servidor.consultar("SELECT falhas_login FROM usuario WHERE login = 'fiscal'")[0][0] == 1
    assert servidor.conectar(servidor.papel_de("fiscal"), "errada12345") is not None
    fiscal = servidor.entrar("fiscal", SENHA_FISCAL)
    with servidor.banco.leitura() as s:
        assert s.scalar(sa.text("SELECT session_user::text")) == servidor.papel_de("fiscal")
        assert s.scalar(sa.select(Usuario.falhas_login).where(Usuario.id == fiscal.usuario_id)) == 0


def test_trocar_a_propria_senha_confere_a_atual_no_servidor(servidor: Servidor) -> None:
    _com_fiscal(servidor)
    papel = servidor.papel_de("fiscal")
    fiscal = servidor.entrar("fiscal", SENHA_FISCAL)
    with pytest.raises(ErroDominio, match="atual não confere"):
        contas.alterar_propria_senha(
            servidor.banco.uow(), fiscal, senha_atual="errada12345", nova_senha="nova1234567"
        )
    assert servidor.conectar(papel, SENHA_FISCAL) is None
    assert servidor.conectar(papel, "nova1234567") is not None
    contas.alterar_propria_senha(
        servidor.banco.uow(), fiscal, senha_atual=SENHA_FISCAL, nova_senha="nova1234567"
    )
    assert servidor.conectar(papel, "nova1234567") is None
    assert servidor.conectar(papel, SENHA_FISCAL) is not None
    servidor.entrar("fiscal", "nova1234567")


def test_conta_desativada_nao_entra_no_servidor(servidor: Servidor) -> None:
    admin, fiscal_id = _com_fiscal(servidor)
    papel = servidor.papel_de("fiscal")
    servidor.entrar("admin", SENHA_ADMIN)
    contas.definir_ativo(servidor.banco.uow(), admin, fiscal_id, ativo=False)
    recusa = servidor.conectar(papel, SENHA_FISCAL)
    assert recusa is not None and "not permitted to log in" in recusa
    with pytest.raises(FalhaLogin, match="incorretos"):
        servidor.entrar("fiscal", SENHA_FISCAL)
    contas.definir_ativo(servidor.banco.uow(), admin, fiscal_id, ativo=True)
    assert servidor.conectar(papel, SENHA_FISCAL) is None
    servidor.entrar("fiscal", SENHA_FISCAL)


def test_trocar_usuario_grava_a_saida_pelo_papel_de_quem_sai(servidor: Servidor) -> None:
    """ "Trocar usuário": the exit of the session still open is written through its own role, before the
    new entry (before: after the new login, so the server named the NEW user as the exit's author); a
    switch the server refuses writes no exit and the session goes on as its own role."""
    admin, _fiscal_id = _com_fiscal(servidor)
    with pytest.raises(FalhaLogin, match="incorretos"):
        contas.autenticar(servidor.banco.uow(), "fiscal", "errada12345", saindo=admin)
    with servidor.banco.leitura() as s:
        assert s.scalar(sa.text("SELECT session_user::text")) == servidor.papel_de("admin")
    fiscal = contas.autenticar(servidor.banco.uow(), "fiscal", SENHA_FISCAL, saindo=admin)
    with servidor.banco.leitura() as s:
        assert s.scalar(sa.text("SELECT session_user::text")) == servidor.papel_de("fiscal")
    acessos = servidor.consultar(
        "SELECT acao, usuario_login, entidade_id, depois FROM auditoria WHERE entidade = 'acesso' "
        "AND acao IN ('entrada', 'troca_usuario') ORDER BY id"
    )
    assert [(a, login) for a, login, _, _ in acessos] == [
        ("entrada", "admin"),
        ("troca_usuario", "admin"),
        ("entrada", "fiscal"),
    ]
    assert acessos[1][2] == admin.sessao and '"para": "fiscal"' in str(acessos[1][3])
    assert acessos[2][2] == fiscal.sessao
