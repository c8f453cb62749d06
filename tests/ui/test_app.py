"""The application shell: translations, the main window's navigation, title, status bar and user switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui import aplicacao
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import PAGINAS, JanelaPrincipal, PaginaIndisponivel
from secretaria.ui.widgets import arquivos, mensagens


def _contexto(banco: Banco, login: str, papeis: tuple[str, ...], demo: bool = False) -> Contexto:
    criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.capitalize(), senha="segredo123", papeis=papeis
    )
    return Contexto(banco, autenticar(banco.uow(), login, "segredo123"), demo)


def _janela(qtbot: QtBot, contexto: Contexto) -> JanelaPrincipal:
    janela = JanelaPrincipal(contexto)
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def test_traducoes_do_qt_em_portugues(qtbot: QtBot) -> None:
    aplicacao.configurar_aplicacao()
    assert aplicacao.instalar_traducoes(QApplication.instance())
    caixa = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel | QDialogButtonBox.StandardButton.Yes)
    qtbot.addWidget(caixa)
    textos = {b.text().replace("&", "") for b in caixa.buttons()}
    assert textos == {"Cancelar", "Sim"}


def test_inicio_leve_sem_reportlab_openpyxl_nem_matplotlib() -> None:
    import subprocess
    import sys

    # The shell and every page module that exists (pages are imported when first shown, Início at once).
    codigo = (
        "import importlib, sys, secretaria.ui.app, secretaria.ui.janela_principal as j\n"
        "for p in j.PAGINAS:\n"
        "    try:\n"
        "        importlib.import_module(p.modulo)\n"
        "    except ModuleNotFoundError:\n"
        "        pass\n"
        "print(sorted(m for m in ('reportlab', 'openpyxl', 'matplotlib') if m in sys.modules))"
    )
    saida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert saida.stdout.strip() == "[]"


def test_janela_do_administrador(qtbot: QtBot, banco_sqlite: Banco) -> None:
    janela = _janela(qtbot, _contexto(banco_sqlite, "ana", ("administrador", "secretario"), demo=True))
    titulo = janela.windowTitle()
    assert "secretaria.sqlite" in titulo and "Ana (ana)" in titulo and "DEMONSTRAÇÃO" in titulo
    assert janela.rotulo_usuario.text() == "Usuário: Ana (ana)"
    assert janela.rotulo_papeis.text() == "Papéis: Administrador, Secretário"
    assert janela.rotulo_banco.text().startswith("Banco: secretaria.sqlite")
    rotulos = [janela.navegacao.item(i).text() for i in range(janela.navegacao.count())]
    assert rotulos == [p.rotulo for p in PAGINAS]
    assert [a.text() for a in janela.menuBar().actions()] == ["&Arquivo", "A&juda"]
    qtbot.keyClick(janela, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert janela.navegacao.currentItem().text() == "Operadoras"
    assert janela.pagina_atual() is janela.pagina("operadoras")
    qtbot.keyClick(janela.navegacao, Qt.Key.Key_Down)
    assert janela.navegacao.currentItem().text() == "Veículos"


def test_administracao_so_para_administradores(qtbot: QtBot, banco_sqlite: Banco) -> None:
    janela = _janela(qtbot, _contexto(banco_sqlite, "fabio", ("fiscal",)))
    rotulos = [janela.navegacao.item(i).text() for i in range(janela.navegacao.count())]
    assert "Administração" not in rotulos and len(rotulos) == 9
    assert janela.mostrar_pagina("administracao") is None
    assert not janela.acao_backup.isEnabled()


def test_trocar_usuario(qtbot: QtBot, banco_sqlite: Banco) -> None:
    janela = _janela(qtbot, _contexto(banco_sqlite, "fabio", ("fiscal",)))
    criar_usuario(
        banco_sqlite.uow(),
        SISTEMA,
        login="ana",
        nome="Ana Lima",
        senha="segredo123",
        papeis=["administrador"],
    )
    janela.acao_trocar.trigger()
    dialogo = janela.dialogo_login
    assert dialogo is not None
    qtbot.keyClicks(dialogo.usuario, "ana")
    qtbot.keyClicks(dialogo.senha, "segredo123")
    qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    assert "Ana Lima (ana)" in janela.windowTitle()
    assert janela.navegacao.item(janela.navegacao.count() - 1).text() == "Administração"
    assert janela.contexto.ator.login == "ana"


def test_pagina_que_ainda_nao_existe_nao_impede_a_janela(
    qtbot: QtBot, banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria.ui import janela_principal

    falsa = janela_principal.DefinicaoPagina("x", "Tela futura", "secretaria.ui.nao_existe", "PaginaX")
    monkeypatch.setattr(janela_principal, "PAGINAS", (falsa, *PAGINAS))
    janela = _janela(qtbot, _contexto(banco_sqlite, "ana", ("administrador",)))
    assert isinstance(janela.pagina_atual(), PaginaIndisponivel)


def test_copia_de_seguranca_sqlite(
    qtbot: QtBot, banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    destino = tmp_path / "copia.sqlite"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    janela = _janela(qtbot, _contexto(banco_sqlite, "ana", ("administrador",)))
    janela.acao_backup.trigger()
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "Cópia de segurança gravada em" in texto and destino.exists()
