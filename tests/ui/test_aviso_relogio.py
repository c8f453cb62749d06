"""Time on SQLite, where each PC writes the audit moment with its own clock: an administrator who enters
sees the audit rows written, since their previous login, with a moment earlier than a row before them (a PC
clock set back)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from pytestqt.qtbot import QtBot

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal

SENHA = "Senha1234"


def _janela(qtbot: QtBot, banco: Banco, login: str) -> JanelaPrincipal:
    janela = JanelaPrincipal(Contexto(banco, contas.autenticar(banco.uow(), login, SENHA)))
    qtbot.addWidget(janela)
    janela.show()
    return janela


def test_administrador_ve_o_relogio_atrasado_ao_entrar(
    qtbot: QtBot, banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    for login, papel in (("admin", "administrador"), ("fiscal", "fiscal")):
        contas.criar_usuario(
            banco_sqlite.uow(), SISTEMA, login=login, nome=login.title(), senha=SENHA, papeis=[papel]
        )
    primeira = _janela(qtbot, banco_sqlite, "admin")
    assert primeira.aviso_relogio.isHidden()
    primeira.close()
    # The fiscal's PC runs a month late: their login is dated a month before rows written just before it.
    agora = relogio.agora()
    atrasado = agora - timedelta(days=30)
    monkeypatch.setattr("secretaria.relogio.agora", lambda: atrasado)
    contas.autenticar(banco_sqlite.uow(), "fiscal", SENHA)
    monkeypatch.setattr("secretaria.relogio.agora", lambda: agora + timedelta(minutes=1))
    with banco_sqlite.leitura() as s:
        linha = s.execute(
            sa.select(Auditoria.id).where(Auditoria.usuario_login == "fiscal", Auditoria.acao == "entrada")
        ).scalar_one()
    fiscal = _janela(qtbot, banco_sqlite, "fiscal")
    assert fiscal.aviso_relogio.isHidden()  # only the administrator is told
    fiscal.close()
    janela = _janela(qtbot, banco_sqlite, "admin")
    assert janela.aviso_relogio.isVisible()
    texto = janela.aviso_relogio.text()
    assert texto.startswith("Relógio atrasado: desde a sua última entrada, 1 registro de auditoria")
    assert f"Registro de auditoria nº {linha}: gravado com o momento {atrasado:%d/%m/%Y %H:%M}" in texto
    janela.close()
    # Seen once: the administrator's next login starts after it.
    seguinte = _janela(qtbot, banco_sqlite, "admin")
    assert seguinte.aviso_relogio.isHidden()


def test_sem_atraso_nada_aparece(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contas.criar_usuario(
        banco_sqlite.uow(), SISTEMA, login="admin", nome="Admin", senha=SENHA, papeis=["administrador"]
    )
    janela = _janela(qtbot, banco_sqlite, "admin")
    assert janela.aviso_relogio.isHidden() and janela.aviso_relogio.text() == ""


def test_primeira_entrada_confere_desde_a_criacao_da_conta(
    qtbot: QtBot, banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first login is told of the late clocks since the account was created, not of the whole audit (which
    on a large database is minutes of reading at login): that is `auditoria verificar`'s."""
    contas.criar_usuario(
        banco_sqlite.uow(), SISTEMA, login="fiscal", nome="Fiscal", senha=SENHA, papeis=["fiscal"]
    )
    agora = relogio.agora()

    def entrada_atrasada() -> int:
        monkeypatch.setattr("secretaria.relogio.agora", lambda: agora - timedelta(days=30))
        contas.autenticar(banco_sqlite.uow(), "fiscal", SENHA)
        with banco_sqlite.leitura() as s:
            return int(
                s.execute(
                    sa.select(sa.func.max(Auditoria.id)).where(
                        Auditoria.usuario_login == "fiscal", Auditoria.acao == "entrada"
                    )
                ).scalar_one()
            )

    antes_da_conta = entrada_atrasada()
    monkeypatch.setattr("secretaria.relogio.agora", lambda: agora + timedelta(minutes=1))
    contas.criar_usuario(
        banco_sqlite.uow(), SISTEMA, login="admin", nome="Admin", senha=SENHA, papeis=["administrador"]
    )
    depois_da_conta = entrada_atrasada()
    monkeypatch.setattr("secretaria.relogio.agora", lambda: agora + timedelta(minutes=2))
    janela = _janela(qtbot, banco_sqlite, "admin")
    texto = janela.aviso_relogio.text()
    assert janela.aviso_relogio.isVisible()
    assert f"Registro de auditoria nº {depois_da_conta}:" in texto
    assert f"Registro de auditoria nº {antes_da_conta}:" not in texto
    assert "1 registro de auditoria" in texto
