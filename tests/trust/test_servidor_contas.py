"""PostgreSQL prepared by `servidor preparar`: each account is a role of the server, whose password the server
checks; the address every PC holds (the application role) is only the login screen's."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, conectar_como, credenciais_do_servidor
from secretaria.models import Auditoria, Usuario
from secretaria.services import auditoria, contas
from secretaria.services.base import Ator
from secretaria.services.contas import FalhaLogin
from secretaria.services.semente import abrir_e_semear
from tests.trust.conftest import com_administrador

SENHA_ADMIN = "admin12345"


@dataclass
class Servidor:
    url_admin: str
    url_dono: str
    url_app: str
    banco: Banco
    """Opened with the application role's address, as every PC opens it."""

    def entrar(self, login: str, senha: str) -> Ator:
        return contas.autenticar(self.banco.uow(), login, senha)

    def criar_fiscal(self, admin: Ator) -> int:
        return contas.criar_usuario(
            self.banco.uow(),
            admin,
            login="fiscal",
            nome="Fábio Fiscal",
            senha="fiscal1234",
            papeis=["fiscal"],
        )

    def papel_de(self, login: str) -> str:
        dono = abrir_e_semear(self.url_dono)
        try:
            with dono.leitura() as s:
                usuario_id = s.scalar(sa.select(Usuario.id).where(Usuario.login == login))
                prefixo = s.scalar(sa.text("SELECT prefixo FROM secretaria_servidor()"))
            return f"{prefixo}_u{usuario_id}"
        finally:
            dono.fechar()

    def url_de(self, papel: str, senha: str) -> str:
        return (
            sa.make_url(self.url_app)
            .set(username=papel, password=senha)
            .render_as_string(hide_password=False)
        )


@pytest.fixture
def servidor(banco_preparado: tuple[str, str, str]) -> Iterator[Servidor]:
    url_admin, url_dono, url_app = banco_preparado
    with com_administrador(url_dono, url_app, login="admin", senha=SENHA_ADMIN) as banco:
        yield Servidor(url_admin, url_dono, url_app, banco)


def _senha_do_papel(servidor: Servidor, papel: str, senha: str) -> bool:
    """Whether the server would accept `senha` for `papel`: its SCRAM-SHA-256 verifier (pg_authid, read as a
    superuser) checked as the server checks a login. The test server trusts every local connection, so this
    is how a test sees what a server with password authentication (PostgreSQL's default) would decide."""
    motor = sa.create_engine(servidor.url_admin)
    try:
        with motor.connect() as conn:
            guardada = conn.scalar(
                sa.text("SELECT rolpassword FROM pg_authid WHERE rolname = :p"), {"p": papel}
            )
    finally:
        motor.dispose()
    if not guardada:
        return False
    esquema, resto = guardada.split("$", 1)
    assert esquema == "SCRAM-SHA-256"
    iteracoes_sal, chaves = resto.split("$")
    iteracoes, sal = iteracoes_sal.split(":")
    chave_guardada = base64.b64decode(chaves.split(":")[0])
    salgada = hashlib.pbkdf2_hmac("sha256", senha.encode(), base64.b64decode(sal), int(iteracoes))
    cliente = hmac.new(salgada, b"Client Key", "sha256").digest()
    return hmac.compare_digest(hashlib.sha256(cliente).digest(), chave_guardada)


def _como_antes_da_atualizacao(servidor: Servidor, login: str, senha: str) -> None:
    """The account as a database upgraded from before keeps it: its scrypt hash, no password on the server."""
    motor = sa.create_engine(servidor.url_dono)
    try:
        with motor.begin() as conn:
            conn.execute(
                sa.text("UPDATE usuario SET senha_hash = :h WHERE login = :l"),
                {"h": contas.hash_senha(senha), "l": login},
            )
    finally:
        motor.dispose()


def _conecta(url: str) -> bool:
    motor = sa.create_engine(url)
    try:
        with motor.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
        return True
    except sa.exc.OperationalError:
        return False
    finally:
        motor.dispose()


def test_login_conecta_com_o_papel_do_usuario(servidor: Servidor) -> None:
    motor = servidor.banco.engine
    assert not credenciais_do_servidor(motor)
    admin = servidor.entrar("admin", SENHA_ADMIN)
    papel = servidor.papel_de("admin")
    assert credenciais_do_servidor(motor)["user"] == papel
    with servidor.banco.leitura() as s:
        assert s.scalar(sa.text("SELECT session_user::text")) == papel
        # the server keeps the password: nothing in the table to test a guess against
        assert s.scalar(sa.select(Usuario.senha_hash).where(Usuario.login == "admin")) == "servidor"
    fiscal_id = servidor.criar_fiscal(admin)
    fiscal = servidor.entrar("fiscal", "fiscal1234")
    assert fiscal.usuario_id == fiscal_id
    assert credenciais_do_servidor(motor)["user"] == servidor.papel_de("fiscal")
    with servidor.banco.leitura() as s:
        entrada = s.scalars(sa.select(Auditoria).order_by(Auditoria.id.desc())).first()
        assert entrada is not None and (entrada.acao, entrada.usuario_login) == ("entrada", "fiscal")
        assert auditoria.verificar_cadeia(s).integra


def test_endereco_dos_computadores_nao_age_como_ninguem(servidor: Servidor) -> None:
    with servidor.banco.engine.connect() as conn:
        for sql in (
            "SELECT count(*) FROM auto_infracao",
            "SELECT login, senha_hash FROM usuario",
            "UPDATE usuario SET nome = 'x'",
            "SELECT count(*) FROM auditoria",
            "SELECT secretaria_auditar('admin', NULL, 'x', 'y', NULL, NULL, NULL)",
            "SELECT secretaria_sincronizar_conta(1, 'outra12345')",
        ):
            with pytest.raises(sa.exc.DatabaseError, match=r"permission denied|Só "), conn.begin_nested():
                conn.exec_driver_sql(sql)
        conn.rollback()


def test_senha_errada_e_bloqueio_pelo_servidor(servidor: Servidor) -> None:
    """Counted and locked by the server's functions, with the server's clock (an account still on its old
    password: the test server trusts local connections, so only there does the program see a wrong one)."""
    _como_antes_da_atualizacao(servidor, "admin", SENHA_ADMIN)
    papel = servidor.papel_de("admin")
    for _ in range(contas.FALHAS_PARA_BLOQUEIO - 1):
        with pytest.raises(FalhaLogin, match="incorretos"):
            servidor.entrar("admin", "errada12345")
    with pytest.raises(FalhaLogin, match="bloqueada por 15 minutos"):
        servidor.entrar("admin", "errada12345")
    with pytest.raises(FalhaLogin, match="bloqueada"):
        servidor.entrar("admin", SENHA_ADMIN)
    assert not _conecta(servidor.url_de(papel, SENHA_ADMIN))  # NOLOGIN: the server refuses the role itself
    dono = sa.create_engine(servidor.url_dono)
    try:
        with dono.begin() as conn:
            acoes = conn.execute(
                sa.text("SELECT acao, usuario_login FROM auditoria WHERE entidade = 'acesso' ORDER BY id")
            ).all()
            servidor_agora = conn.scalar(sa.text("SELECT clock_timestamp()::timestamp"))
            momentos = conn.execute(
                sa.text("SELECT momento FROM auditoria WHERE entidade = 'acesso'")
            ).scalars()
            assert all(abs((m - servidor_agora).total_seconds()) < 300 for m in momentos)
            conn.execute(sa.text("UPDATE usuario SET bloqueado_ate = bloqueado_ate - interval '16 minutes'"))
    finally:
        dono.dispose()
    assert [a for a, _ in acoes] == ["falha_entrada"] * 5 + ["bloqueio", "recusa_entrada"]
    assert {login for _, login in acoes} == {"admin"}
    # the lockout over (by the server's clock), the old password still enters once and becomes the server's
    servidor.entrar("admin", SENHA_ADMIN)
    assert _conecta(servidor.url_de(papel, SENHA_ADMIN))
    assert _senha_do_papel(servidor, papel, SENHA_ADMIN)


def test_quem_pula_o_programa_precisa_da_senha(servidor: Servidor) -> None:
    papel = servidor.papel_de("admin")
    assert _senha_do_papel(servidor, papel, SENHA_ADMIN)
    assert not _senha_do_papel(servidor, papel, "chute12345")


def test_desativar_redefinir_e_trocar_a_propria_senha(servidor: Servidor) -> None:
    admin = servidor.entrar("admin", SENHA_ADMIN)
    fiscal_id = servidor.criar_fiscal(admin)
    papel = servidor.papel_de("fiscal")
    assert _senha_do_papel(servidor, papel, "fiscal1234")
    contas.redefinir_senha(servidor.banco.uow(), admin, fiscal_id, nova_senha="nova123456")
    assert not _senha_do_papel(servidor, papel, "fiscal1234")
    assert _senha_do_papel(servidor, papel, "nova123456")
    fiscal = servidor.entrar("fiscal", "nova123456")
    contas.alterar_propria_senha(
        servidor.banco.uow(), fiscal, senha_atual="nova123456", nova_senha="minha12345"
    )
    assert _senha_do_papel(servidor, papel, "minha12345")
    # a user cannot set another's password nor make themselves administrator
    with servidor.banco.engine.connect() as conn:
        admin_id = admin.usuario_id
        with pytest.raises(sa.exc.DatabaseError, match="Só o administrador"), conn.begin_nested():
            conn.exec_driver_sql(f"SELECT secretaria_sincronizar_conta({admin_id}, 'tomada12345')")
        with pytest.raises(sa.exc.DatabaseError, match="row-level security"), conn.begin_nested():
            conn.exec_driver_sql(
                f"INSERT INTO usuario_papel (usuario_id, papel) VALUES ({fiscal_id}, 'administrador')"
            )
        assert conn.exec_driver_sql(f"UPDATE usuario SET ativo = false WHERE id = {admin_id}").rowcount == 0
        conn.rollback()
    admin = servidor.entrar("admin", SENHA_ADMIN)
    contas.definir_ativo(servidor.banco.uow(), admin, fiscal_id, ativo=False)
    assert not _conecta(servidor.url_de(papel, "minha12345"))
    with pytest.raises(FalhaLogin, match="incorretos"):
        servidor.entrar("fiscal", "minha12345")


def test_linha_forjada_em_nome_do_secretario_fica_em_nome_de_quem_gravou(servidor: Servidor) -> None:
    admin = servidor.entrar("admin", SENHA_ADMIN)
    servidor.criar_fiscal(admin)
    servidor.entrar("fiscal", "fiscal1234")
    secretario = Ator("secretario", "Secretário", frozenset({"secretario"}))
    with servidor.banco.uow() as uow:
        reg = auditoria.registrar(uow.session, secretario, "decidir", "decisao", 1, None, {"multa": "1.00"})
        uow.commit()
    assert reg.usuario_login == "fiscal"


def test_atualizacao_mantem_os_usuarios_e_a_primeira_entrada_usa_a_senha_antiga(pg_url: str) -> None:
    """A database whose accounts have scrypt hashes (before the server kept passwords), prepared again: each
    user's first login checks the old hash once and gives their role that password."""
    import uuid

    from secretaria.servidor import preparar
    from tests.conftest import PG_ADMIN_URL

    nome = f"secretaria_srv_{uuid.uuid4().hex[:8]}"
    url_admin = sa.make_url(PG_ADMIN_URL).set(database=nome).render_as_string(hide_password=False)
    motor = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with motor.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{nome}"')
    try:
        antigo = abrir_e_semear(url_admin)  # the old way: the program as a superuser, hashes in the table
        try:
            contas.criar_primeiro_administrador(antigo.uow(), login="admin", nome="Ana", senha=SENHA_ADMIN)
            admin = contas.autenticar(antigo.uow(), "admin", SENHA_ADMIN)
            contas.criar_usuario(
                antigo.uow(), admin, login="fiscal", nome="Fábio", senha="fiscal1234", papeis=["fiscal"]
            )
        finally:
            antigo.fechar()
        preparado = preparar(url_admin)
        banco = abrir_e_semear(preparado.url_app)
        try:
            with pytest.raises(FalhaLogin, match="incorretos"):
                contas.autenticar(banco.uow(), "fiscal", "errada1234")
            fiscal = contas.autenticar(banco.uow(), "fiscal", "fiscal1234")
            assert fiscal.login == "fiscal"
            admin = contas.autenticar(banco.uow(), "admin", SENHA_ADMIN)
            conectar_como(banco.engine, None)
            contas.autenticar(banco.uow(), "fiscal", "fiscal1234")  # the second time, the server's password
            with banco.leitura() as s:
                assert set(s.scalars(sa.select(Usuario.senha_hash))) == {"servidor"}
                assert auditoria.verificar_cadeia(s).integra
        finally:
            banco.fechar()
    finally:
        with motor.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
            for (papel,) in conn.execute(
                sa.text("SELECT rolname FROM pg_roles WHERE starts_with(rolname, :p) ORDER BY rolname DESC"),
                {"p": nome + "_"},
            ).all():
                conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{papel}"')
        motor.dispose()


def test_conta_ainda_nao_migrada_nao_e_tomada_sem_a_senha_antiga(servidor: Servidor) -> None:
    """The entry address gets the old hash's salt, never its key: claiming the account with a made-up key
    does nothing, and the real owner's first login still works."""
    _como_antes_da_atualizacao(servidor, "admin", SENHA_ADMIN)
    with servidor.banco.engine.begin() as conn:
        parametros = conn.execute(sa.text("SELECT hash_antigo FROM secretaria_entrada('admin')")).scalar_one()
        assert parametros.startswith("scrypt$") and parametros.endswith("$")
        chave = contas._chave_scrypt("chute12345", parametros)
        tomada = conn.execute(
            sa.text("SELECT secretaria_migrar_conta('admin', :c, 'tomada12345')"), {"c": chave}
        ).scalar()
    assert tomada is None
    assert not _senha_do_papel(servidor, servidor.papel_de("admin"), "tomada12345")
    dono = sa.create_engine(servidor.url_dono)
    try:
        with dono.connect() as conn:  # counted, the program skipped or not
            assert conn.scalar(sa.text("SELECT falhas_login FROM usuario WHERE login = 'admin'")) == 1
    finally:
        dono.dispose()
    servidor.entrar("admin", SENHA_ADMIN)
    assert _senha_do_papel(servidor, servidor.papel_de("admin"), SENHA_ADMIN)


def test_atualizacao_ao_vivo_entre_dois_usuarios(servidor: Servidor) -> None:
    """Two PCs logged in as two users: the watcher (on the user's own role) hears the other's act, named by
    the account whose role wrote it."""
    import time

    from secretaria.services.mudancas import Mudanca, Vigia

    admin = servidor.entrar("admin", SENHA_ADMIN)
    servidor.criar_fiscal(admin)
    outro = abrir_e_semear(servidor.url_app)
    try:
        contas.autenticar(outro.uow(), "fiscal", "fiscal1234")
        vigia = Vigia(servidor.banco)
        try:
            assert vigia.ler() == []
            with outro.uow() as uow:
                auditoria.registrar(uow.session, Ator("secretario", "S", frozenset()), "teste", "caso", 5)
                uow.commit()
            lidas: list[Mudanca] = []
            prazo = time.monotonic() + 5
            while not lidas and time.monotonic() < prazo:
                lidas = vigia.ler()
                time.sleep(0.02)
            assert [(m.entidade, m.entidade_id, m.login, m.proprio) for m in lidas] == [
                ("caso", "5", "fiscal", False)
            ]
        finally:
            vigia.fechar()
    finally:
        outro.fechar()


def test_papel_retirado_pelo_administrador_encerra_a_sessao_do_usuario(servidor: Servidor) -> None:
    """Revocation through the roles: the administrator's role edits the account (row-level policies let only
    an administrator's role write accounts); the user's next act, on the user's own role, is refused."""
    from secretaria.services.base import SessaoEncerrada

    admin = servidor.entrar("admin", SENHA_ADMIN)
    fiscal_id = servidor.criar_fiscal(admin)
    outro = abrir_e_semear(servidor.url_app)
    try:
        fiscal = contas.autenticar(outro.uow(), "fiscal", "fiscal1234")
        with servidor.banco.leitura() as s:
            versao = contas.obter_usuario(s, fiscal_id).versao
        contas.editar_usuario(
            servidor.banco.uow(), admin, fiscal_id, nome="Fábio Fiscal", papeis=["consulta"], versao=versao
        )
        with pytest.raises(SessaoEncerrada), outro.uow() as uow:
            auditoria.registrar(uow.session, fiscal, "teste", "caso", 1)
    finally:
        outro.fechar()


def test_linha_de_comando_com_o_dono_confere_a_senha_no_servidor(servidor: Servidor) -> None:
    """`usuario criar --db <dono>` asks an administrator's login: the program is the owner there, not the
    account's role, so the server is asked whether the password is the role's."""
    dono = abrir_e_semear(servidor.url_dono)
    try:
        admin = contas.autenticar(dono.uow(), "admin", SENHA_ADMIN)
        contas.criar_usuario(
            dono.uow(), admin, login="fiscal", nome="Fábio Fiscal", senha="fiscal1234", papeis=["fiscal"]
        )
    finally:
        dono.fechar()
    assert _senha_do_papel(servidor, servidor.papel_de("fiscal"), "fiscal1234")
    servidor.entrar("fiscal", "fiscal1234")


def test_trocar_usuario_recusado_mantem_a_sessao_aberta(servidor: Servidor) -> None:
    """ "Trocar usuário" with a wrong login: the session still open goes on as its own role."""
    admin = servidor.entrar("admin", SENHA_ADMIN)
    papel = servidor.papel_de("admin")
    with pytest.raises(FalhaLogin, match="incorretos"):
        servidor.entrar("ninguem", "qualquer123")
    with servidor.banco.leitura() as s:
        assert s.scalar(sa.text("SELECT session_user::text")) == papel
    servidor.criar_fiscal(admin)  # an act of the session still open


def test_preparar_de_novo_mantem_os_usuarios_do_servidor(servidor: Servidor) -> None:
    """`servidor preparar` run again (after an upgrade) renews the owner's and the entry's passwords and the
    grants; the accounts' roles and their passwords stay."""
    from secretaria.servidor import preparar

    admin = servidor.entrar("admin", SENHA_ADMIN)
    servidor.criar_fiscal(admin)
    novo = preparar(servidor.url_admin)
    assert novo.url_app != servidor.url_app
    banco = abrir_e_semear(novo.url_app)
    try:
        fiscal = contas.autenticar(banco.uow(), "fiscal", "fiscal1234")
        assert fiscal.login == "fiscal"
        assert _senha_do_papel(servidor, servidor.papel_de("fiscal"), "fiscal1234")
        with banco.leitura() as s:
            assert auditoria.verificar_cadeia(s).integra
    finally:
        banco.fechar()


def test_bloqueio_julgado_pelo_relogio_do_servidor(
    servidor: Servidor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server sets a lockout with its own clock; an act of a session still open is judged by that clock
    too, whatever the PC's says (before: the PC's clock, a day ahead, let a locked account act; a day behind,
    it refused one whose lockout was over)."""
    from datetime import datetime, timedelta

    from secretaria import relogio
    from secretaria.services.base import SessaoEncerrada

    admin = servidor.entrar("admin", SENHA_ADMIN)
    servidor.criar_fiscal(admin)
    fiscal = servidor.entrar("fiscal", "fiscal1234")
    dono = sa.create_engine(servidor.url_dono)

    def bloquear(minutos: int) -> datetime:
        with dono.begin() as conn:
            conn.execute(
                sa.text(
                    "UPDATE usuario SET bloqueado_ate = clock_timestamp()::timestamp + make_interval(mins => :m) "
                    "WHERE login = 'fiscal'"
                ),
                {"m": minutos},
            )
            momento = conn.scalar(sa.text("SELECT clock_timestamp()::timestamp"))
            assert isinstance(momento, datetime)
            return momento

    def agir() -> None:
        with servidor.banco.uow() as uow:
            auditoria.registrar(uow.session, fiscal, "teste", "caso", 1)
            uow.commit()

    try:
        agora_servidor = bloquear(10)
        monkeypatch.setattr(relogio, "agora", lambda: agora_servidor + timedelta(days=1))
        with pytest.raises(SessaoEncerrada, match="bloqueada"):
            agir()
        agora_servidor = bloquear(-1)
        monkeypatch.setattr(relogio, "agora", lambda: agora_servidor - timedelta(days=1))
        agir()
    finally:
        dono.dispose()
