"""The open window of a user the administrator demoted or deactivated: their next act is refused, and the
window goes back to the login screen with the reason. Logins, switches and exits are audited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import contas
from secretaria.services.auditoria import ENTIDADE_ACESSO
from secretaria.services.base import SISTEMA, SessaoEncerrada
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.login import DialogoLogin
from secretaria.ui.processo.campos import selecionar_dado
from secretaria.ui.processo.form_representacao import DialogoRepresentacao
from secretaria.ui.processo.paginas import PaginaRepresentacoes
from secretaria.ui.widgets import mensagens
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
SENHA = "segredo123"


def _conta(banco: Banco, login: str, *papeis: str) -> int:
    return contas.criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.title(), senha=SENHA, papeis=papeis
    )


def _janela(qtbot: QtBot, banco: Banco, login: str) -> JanelaPrincipal:
    janela = JanelaPrincipal(Contexto(banco, contas.autenticar(banco.uow(), login, SENHA)))
    qtbot.addWidget(janela)
    janela.show()
    return janela


def _acessos(banco: Banco) -> list[tuple[str, str | None]]:
    with banco.leitura() as s:
        return list(
            s.execute(
                sa.select(Auditoria.acao, Auditoria.usuario_login)
                .where(Auditoria.entidade == ENTIDADE_ACESSO)
                .order_by(Auditoria.id)
            ).tuples()
        )


def _abrir_formulario(qtbot: QtBot, janela: JanelaPrincipal, operadora_id: int) -> DialogoRepresentacao:
    pagina = janela.mostrar_pagina("representacoes")
    assert isinstance(pagina, PaginaRepresentacoes)
    qtbot.mouseClick(pagina.botao_novo, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, DialogoRepresentacao)
    qtbot.keyClicks(dialogo.peticionario_nome, "Maria Passageira")
    qtbot.keyClicks(dialogo.peticionario_profissao, "professora")
    qtbot.keyClicks(dialogo.peticionario_endereco, "Rua Goncalves Chaves, 500")
    qtbot.keyClicks(dialogo.fatos, "O onibus da linha L10 nao parou no ponto.")
    qtbot.keyClicks(dialogo.meios_prova, "Fotografia.")
    selecionar_dado(dialogo.operadora, operadora_id)
    return dialogo


def test_fiscal_rebaixado_volta_ao_login_com_o_motivo(qtbot: QtBot, banco: Banco, cidade: Any) -> None:
    uid = _conta(banco, "fabio", "fiscal")
    _conta(banco, "ana", "administrador")
    janela = _janela(qtbot, banco, "fabio")
    dialogo = _abrir_formulario(qtbot, janela, cidade.operadora_id)
    # Meanwhile, at another PC, the administrator reduces Fábio to "consulta".
    ana = contas.autenticar(banco.uow(), "ana", SENHA)
    with banco.leitura() as s:
        versao = contas.obter_usuario(s, uid).versao
    contas.editar_usuario(banco.uow(), ana, uid, nome="Fabio", papeis=["consulta"], versao=versao)

    qtbot.keyClick(dialogo.local_fato, Qt.Key.Key_Return)  # Fábio saves the representação
    qtbot.waitUntil(lambda: janela.dialogo_login is not None and janela.dialogo_login.isVisible())
    login = janela.dialogo_login
    assert isinstance(login, DialogoLogin) and login.rotulo_motivo is not None
    assert "não tem mais o papel Fiscal" in login.rotulo_motivo.text()
    assert "Entre de novo" in login.rotulo_motivo.text() and login.usuario.text() == "fabio"
    ap.salvar_png(janela, "sessao_encerrada_janela")
    ap.salvar_png(login, "sessao_encerrada_login")
    # Nothing of the session stays open (the form was closed, and may already be deleted).
    assert ap.dialogo_aberto(DialogoRepresentacao) is None and mensagens.caixa_aberta() is None
    assert janela.navegacao.count() == 0 and janela.pagina_atual() is janela.aviso_encerrada
    assert janela.aviso_encerrada is not None and "papel Fiscal" in janela.aviso_encerrada.text()
    assert fabrica.contagens(banco)["representacao"] == 0

    # Fábio enters again: the window now shows what "consulta" may see, and the exit is audited.
    qtbot.keyClicks(login.senha, SENHA)
    qtbot.keyClick(login.senha, Qt.Key.Key_Return)
    assert janela.contexto.ator.papeis == {"consulta"}
    assert janela.navegacao.count() > 0 and "Papéis: Consulta" in janela.rotulo_papeis.text()
    assert janela.aviso_encerrada is None and janela.pagina("inicio") is janela.pagina_atual()
    assert _acessos(banco)[-2:] == [("saida", "fabio"), ("entrada", "fabio")]


def test_desistir_do_login_fecha_o_programa(qtbot: QtBot, banco_sqlite: Banco) -> None:
    banco = banco_sqlite
    uid = _conta(banco, "fabio", "fiscal")
    janela = _janela(qtbot, banco, "fabio")
    contas.definir_ativo(banco.uow(), SISTEMA, uid, ativo=False)
    # Any act of the session, from any screen: here the user's own password change.
    with pytest.raises(SessaoEncerrada, match="desativada"):
        contas.alterar_propria_senha(
            banco.uow(), janela.contexto.ator, senha_atual=SENHA, nova_senha="outra12345"
        )
    qtbot.waitUntil(lambda: janela.dialogo_login is not None and janela.dialogo_login.isVisible())
    assert janela.dialogo_login is not None and janela.dialogo_login.rotulo_motivo is not None
    assert "desativada" in janela.dialogo_login.rotulo_motivo.text()
    janela.dialogo_login.reject()
    qtbot.waitUntil(lambda: not janela.isVisible())
    assert _acessos(banco)[-1] == ("saida", "fabio")
    assert [a for a in _acessos(banco) if a[0] == "saida"] == [("saida", "fabio")]  # recorded once


def test_trocar_usuario_e_sair_ficam_na_auditoria(qtbot: QtBot, banco_sqlite: Banco) -> None:
    banco = banco_sqlite
    _conta(banco, "fabio", "fiscal")
    _conta(banco, "ana", "administrador")
    janela = _janela(qtbot, banco, "fabio")
    janela.acao_trocar.trigger()
    dialogo = janela.dialogo_login
    assert dialogo is not None and dialogo.rotulo_motivo is None
    qtbot.keyClicks(dialogo.usuario, "ana")
    qtbot.keyClicks(dialogo.senha, SENHA)
    qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    assert janela.contexto.ator.login == "ana"
    janela.close()
    assert _acessos(banco) == [
        ("entrada", "fabio"),
        ("troca_usuario", "fabio"),  # recorded by the login, before the new entry
        ("entrada", "ana"),
        ("saida", "ana"),
    ]


def test_recusa_que_escapa_de_um_slot_nao_e_erro_inesperado(
    qtbot: QtBot, banco_sqlite: Banco, tmp_path: Path
) -> None:
    """A slot that does not catch the refusal: the exception hook shows no "Erro inesperado" box; the window
    still goes back to the login screen with the reason."""
    from PySide6.QtWidgets import QPushButton

    from secretaria.ui import erros

    banco = banco_sqlite
    uid = _conta(banco, "fabio", "fiscal")
    janela = _janela(qtbot, banco, "fabio")
    contas.definir_ativo(banco.uow(), SISTEMA, uid, ativo=False)
    erros.instalar(tmp_path / "secretaria.log")
    try:
        botao = QPushButton("Trocar senha", janela)
        botao.clicked.connect(
            lambda: contas.alterar_propria_senha(
                banco.uow(), janela.contexto.ator, senha_atual=SENHA, nova_senha="outra12345"
            )
        )
        botao.show()
        qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: janela.dialogo_login is not None and janela.dialogo_login.isVisible())
        caixa = mensagens.caixa_aberta()
        assert caixa is None or caixa.windowTitle() != erros.TITULO
    finally:
        erros.desinstalar()
    registro = tmp_path / "secretaria.log"
    assert not registro.exists() or "Erro inesperado" not in registro.read_text(encoding="utf-8")
