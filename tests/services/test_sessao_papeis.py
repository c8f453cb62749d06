"""Roles take effect at once: every act re-reads the logged-in user in its own transaction, so a user the
administrator deactivated, locked or demoted cannot act in the session already open."""

from __future__ import annotations

import secrets
from datetime import date, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Auditoria, Usuario
from secretaria.services import contas
from secretaria.services.base import SISTEMA, AcessoNegado, Ator, SessaoEncerrada
from secretaria.services.representacoes import receber_representacao
from tests.helpers.fabrica import contagens

SENHA = "segredo123"


def _conta(banco: Banco, login: str, *papeis: str) -> int:
    return contas.criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.title(), senha=SENHA, papeis=papeis
    )


def _receber(banco: Banco, ator: Ator) -> Any:
    return receber_representacao(
        banco.uow(),
        ator,
        recebida_em=date(2026, 11, 30),
        peticionario_nome="Marta Passageira",
        peticionario_profissao="professora",
        peticionario_endereco="Rua Andrade Neves, 1000",
        fatos="O ônibus da linha L10 passou lotado sem parar no ponto.",
        meios_prova="testemunhas",
    )


def _versao(banco: Banco, usuario_id: int) -> int:
    with banco.leitura() as s:
        return contas.obter_usuario(s, usuario_id).versao


@pytest.fixture
def admin(banco: Banco) -> Ator:
    _conta(banco, "ana", "administrador")
    return contas.autenticar(banco.uow(), "ana", SENHA)


def test_login_real_tem_o_id_da_conta(banco: Banco, admin: Ator) -> None:
    uid = _conta(banco, "fabio", "fiscal")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    assert fabio.usuario_id == uid and fabio.sessao and fabio.entrada_pendente is None
    assert admin.usuario_id is not None and SISTEMA.usuario_id is None


def test_rebaixado_a_consulta_nao_recebe_mais_representacoes(banco: Banco, admin: Ator) -> None:
    """A fiscal reduced to consulta (and then deactivated) while logged in loses the acts at once."""
    uid = _conta(banco, "fabio", "fiscal")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    _receber(banco, fabio)  # allowed while a fiscal
    contas.editar_usuario(
        banco.uow(), admin, uid, nome="Fabio", papeis=["consulta"], versao=_versao(banco, uid)
    )
    antes = contagens(banco)
    with pytest.raises(SessaoEncerrada, match="não tem mais o papel Fiscal") as erro:
        _receber(banco, fabio)
    assert "Entre de novo" in erro.value.mensagem and erro.value.usuario_id == uid
    assert contagens(banco) == antes  # nothing written, not even an audit row
    contas.definir_ativo(banco.uow(), admin, uid, ativo=False)
    antes = contagens(banco)
    with pytest.raises(SessaoEncerrada, match="sua conta foi desativada"):
        _receber(banco, fabio)
    assert contagens(banco) == antes


def test_desativado_nao_age_mesmo_com_os_papeis(banco: Banco, admin: Ator) -> None:
    uid = _conta(banco, "fabio", "fiscal")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    contas.definir_ativo(banco.uow(), admin, uid, ativo=False)
    antes = contagens(banco)
    with pytest.raises(SessaoEncerrada, match="desativada"):
        _receber(banco, fabio)
    assert contagens(banco) == antes


def test_conta_bloqueada_nao_age(banco: Banco, admin: Ator) -> None:
    """Someone typing wrong passwords for this login elsewhere locks the account: the open session stops too."""
    _conta(banco, "fabio", "fiscal")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    for _ in range(contas.FALHAS_PARA_BLOQUEIO):
        with pytest.raises(contas.FalhaLogin):
            contas.autenticar(banco.uow(), "fabio", "errada999")
    antes = contagens(banco)
    with pytest.raises(SessaoEncerrada, match=r"bloqueada até \d\d:\d\d"):
        _receber(banco, fabio)
    assert contagens(banco) == antes


def test_papel_retirado_do_administrador_vale_para_os_atos_de_administracao(
    banco: Banco, admin: Ator
) -> None:
    """A second administrator removes the first one's role: the first can no longer create users."""
    uid_bia = _conta(banco, "bia", "administrador")
    bia = contas.autenticar(banco.uow(), "bia", SENHA)
    assert admin.usuario_id is not None
    contas.editar_usuario(
        banco.uow(),
        bia,
        admin.usuario_id,
        nome="Ana",
        papeis=["consulta"],
        versao=_versao(banco, admin.usuario_id),
    )
    antes = contagens(banco)
    with pytest.raises(SessaoEncerrada, match="Administrador"):
        _conta_por(banco, admin, "intrusa")
    assert contagens(banco) == antes
    _conta_por(banco, bia, "nova")  # the remaining administrator still acts
    assert uid_bia


def _conta_por(banco: Banco, ator: Ator, login: str) -> int:
    return contas.criar_usuario(banco.uow(), ator, login=login, nome=login, senha=SENHA, papeis=["fiscal"])


def test_administrador_pode_retirar_o_proprio_papel(banco: Banco, admin: Ator) -> None:
    """The act that changes the actor's own account is checked against the account as it was before it."""
    _conta(banco, "bia", "administrador")
    assert admin.usuario_id is not None
    contas.editar_usuario(
        banco.uow(),
        admin,
        admin.usuario_id,
        nome="Ana",
        papeis=["consulta"],
        versao=_versao(banco, admin.usuario_id),
    )
    with banco.leitura() as s:
        assert contas.obter_usuario(s, admin.usuario_id).papeis == {"consulta"}
    with pytest.raises(SessaoEncerrada):
        _conta_por(banco, admin, "depois")


def test_papel_acrescentado_vale_no_proximo_login(banco: Banco, admin: Ator) -> None:
    """Roles granted meanwhile do not widen an open session (the act's check runs on the login's roles);
    the other acts go on; the next login has them."""
    uid = _conta(banco, "fabio", "consulta")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    contas.editar_usuario(
        banco.uow(), admin, uid, nome="Fabio", papeis=["consulta", "fiscal"], versao=_versao(banco, uid)
    )
    with pytest.raises(AcessoNegado):
        _receber(banco, fabio)
    _receber(banco, contas.autenticar(banco.uow(), "fabio", SENHA))


def test_atores_sem_conta_nao_sao_relidos(banco: Banco) -> None:
    """The system, the demo generator and literal actors are not accounts: no re-read, no refusal."""
    literal = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
    _receber(banco, literal)
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Usuario.id)).where(Usuario.login == "fiscal")) == 0


def test_uma_releitura_por_transacao(banco: Banco, admin: Ator) -> None:
    """One SELECT of the account per act, however many audit rows the act writes."""
    uid = _conta(banco, "fabio", "fiscal")
    fabio = contas.autenticar(banco.uow(), "fabio", SENHA)
    comandos: list[str] = []

    def anotar(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        comandos.append(sql)

    sa.event.listen(banco.engine, "before_cursor_execute", anotar)
    try:
        _receber(banco, fabio)
    finally:
        sa.event.remove(banco.engine, "before_cursor_execute", anotar)
    releituras = [c for c in comandos if "usuario_papel" in c and "FROM usuario" in c]
    assert len(releituras) == 1, releituras
    assert uid


def test_entrada_adiada_registrada_pelo_primeiro_ato(banco: Banco, admin: Ator) -> None:
    """A login whose record could not be written in time (database busy) is recorded by the session's first
    audited act, before that act's own row, once."""
    uid = _conta(banco, "fabio", "fiscal")
    agora = relogio.agora() - timedelta(minutes=3)
    token = secrets.token_hex(16)
    fabio = Ator(
        "fabio", "Fabio", frozenset({"fiscal"}), usuario_id=uid, sessao=token, entrada_pendente=agora
    )
    _receber(banco, fabio)
    _receber(banco, fabio)
    with banco.leitura() as s:
        linhas = s.execute(
            sa.select(Auditoria.acao, Auditoria.entidade_id, Auditoria.usuario_login)
            .where(Auditoria.usuario_login == "fabio")
            .order_by(Auditoria.id)
        ).all()
        ultimo = s.scalar(sa.select(Usuario.ultimo_acesso).where(Usuario.id == uid))
    acoes = [a for a, _e, _u in linhas]
    assert acoes[0] == "entrada" and acoes.count("entrada") == 1 and len(acoes) == 3
    assert linhas[0].entidade_id == token and ultimo == agora


def test_entradas_adiadas_lembradas_tem_limite(
    banco: Banco, admin: Ator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tokens of delayed logins seen recorded are a bounded memory: the oldest are forgotten, and a
    session whose token was forgotten finds its row again and never writes a second one."""
    from secretaria.services import auditoria

    monkeypatch.setattr(auditoria, "_MAX_ENTRADAS_LEMBRADAS", 2)
    monkeypatch.setattr(auditoria, "_entradas_registradas", {})
    uid = _conta(banco, "fabio", "fiscal")
    agora = relogio.agora() - timedelta(minutes=3)
    sessoes = [
        Ator(
            "fabio",
            "Fabio",
            frozenset({"fiscal"}),
            usuario_id=uid,
            sessao=secrets.token_hex(16),
            entrada_pendente=agora,
        )
        for _ in range(3)
    ]
    for fabio in sessoes:
        _receber(banco, fabio)  # writes the delayed entry
        _receber(banco, fabio)  # finds it: remembered
    assert list(auditoria._entradas_registradas) == [s.sessao for s in sessoes[1:]]
    _receber(banco, sessoes[0])  # forgotten: looked up again, found, not written again
    with banco.leitura() as s:
        entradas = s.scalars(
            sa.select(Auditoria.entidade_id).where(
                Auditoria.usuario_login == "fabio", Auditoria.acao == "entrada"
            )
        ).all()
    assert sorted(e or "" for e in entradas) == sorted(s.sessao or "" for s in sessoes)
    assert list(auditoria._entradas_registradas) == [s.sessao for s in sessoes[2:]] + [sessoes[0].sessao]
