"""`auditoria verificar` names an act's audit row whose author's account did not hold the role the act requires
at that row (a decision written by a fiscal), on SQLite, on PostgreSQL and on a prepared server (where the
server, not the program, names the author)."""

from __future__ import annotations

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import PAPEIS, Auditoria
from secretaria.services import auditoria, contas
from secretaria.services.base import Ator
from secretaria.services.caso import PAPEIS_DOS_ATOS
from secretaria.services.semente import abrir_e_semear
from secretaria.services.verificacao import atos_sem_papel, papeis_das_acoes, verificar_tudo

SENHA_ADMIN = "Admin12345"
SENHA = "Senha12345"


def _sem_papel(banco: Banco) -> list[int]:
    with banco.leitura() as s:
        return [reg_id for reg_id, _ in atos_sem_papel(s)]


def _decisao(banco: Banco, ator: Ator, decisao_id: int) -> int:
    """A decision's audit row written with `ator`'s own login (the program's services would refuse a fiscal
    before this point: this is an insider writing through the audit function)."""
    with banco.uow() as uow:
        reg = auditoria.registrar(
            uow.session, ator, "decidir", "decisao", decisao_id, None, {"multa": "1.00"}
        )
        uow.commit()
        return int(reg.id)


def test_decisao_gravada_por_quem_nao_tinha_o_papel(banco: Banco) -> None:
    contas.criar_primeiro_administrador(banco.uow(), login="admin", nome="Ana Admin", senha=SENHA_ADMIN)
    admin = contas.autenticar(banco.uow(), "admin", SENHA_ADMIN)
    fiscal_id = contas.criar_usuario(
        banco.uow(), admin, login="fiscal", nome="Fábio Fiscal", senha=SENHA, papeis=["fiscal"]
    )
    secretario_id = contas.criar_usuario(
        banco.uow(), admin, login="secretario", nome="Sérgio", senha=SENHA, papeis=["secretario"]
    )
    assert _sem_papel(banco) == []  # the accounts' own acts, the first administrator creating itself included
    secretario = contas.autenticar(banco.uow(), "secretario", SENHA)
    legitima = _decisao(banco, secretario, 1)
    fiscal = contas.autenticar(banco.uow(), "fiscal", SENHA)
    forjada = _decisao(banco, fiscal, 2)
    assert _sem_papel(banco) == [forjada]
    # the secretary's role taken away later: the decision made while holding it stays good
    admin = contas.autenticar(banco.uow(), "admin", SENHA_ADMIN)
    with banco.leitura() as s:
        versao = contas.obter_usuario(s, secretario_id).versao
    contas.editar_usuario(
        banco.uow(), admin, secretario_id, nome="Sérgio", papeis=["consulta"], versao=versao
    )
    sem_o_papel = _decisao(banco, Ator("secretario", "Sérgio", frozenset()), 3)
    assert _sem_papel(banco) == [forjada, sem_o_papel]
    assert legitima not in _sem_papel(banco)
    with banco.leitura() as s:
        relatorio = verificar_tudo(s)
    assert relatorio.contagem_achados["papel do autor"] == 2
    achado = next(a for a in relatorio.achados if f"nº {forjada}:" in a)
    assert "fiscal" in achado and "Secretário" in achado and "decisao nº 2" in achado
    assert fiscal_id != secretario_id


def test_decisao_forjada_no_servidor_fica_em_nome_de_quem_gravou(
    banco_preparado: tuple[str, str, str],
) -> None:
    """On a prepared server the fiscal's role writes a row in the Secretary's name: the server names the
    fiscal, and `verificar` names the row as an act without the role."""
    _admin, url_dono, url_app = banco_preparado
    dono = abrir_e_semear(url_dono)
    try:
        contas.criar_primeiro_administrador(
            dono.uow(), login="admin", nome="Ana", senha=SENHA_ADMIN, papeis=PAPEIS
        )
    finally:
        dono.fechar()
    banco = abrir_e_semear(url_app)
    try:
        admin = contas.autenticar(banco.uow(), "admin", SENHA_ADMIN)
        contas.criar_usuario(banco.uow(), admin, login="fiscal", nome="Fábio", senha=SENHA, papeis=["fiscal"])
        legitima = _decisao(banco, admin, 1)
        contas.autenticar(banco.uow(), "fiscal", SENHA)
        forjada = _decisao(banco, Ator("secretario", "Sérgio", frozenset({"secretario"})), 2)
        with banco.leitura() as s:
            assert s.scalar(sa.select(Auditoria.usuario_login).where(Auditoria.id == forjada)) == "fiscal"
        assert _sem_papel(banco) == [forjada]
        assert legitima != forjada
    finally:
        banco.fechar()


def test_cada_ato_do_caso_e_conferido_pela_acao_que_grava() -> None:
    """Every case act's key names the audit action it writes (the intimations: "registrar_intimacao")."""
    acoes = papeis_das_acoes()
    for ato, papeis in PAPEIS_DOS_ATOS.items():
        acao = "registrar_intimacao" if ato.startswith("registrar_intimacao_") else ato
        assert acoes[acao] == papeis, ato
