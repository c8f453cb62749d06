"""Ctrl+1…9 puts the focus where the page's work starts (a list's search box), so Ctrl+F, Ctrl+N and Ctrl+E
act at once; Ctrl+E exports with the focus in a search box even where the text field claims that key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers import apoio_processo as ap

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")


def _janela(qtbot: QtBot, banco: Banco) -> Any:
    from secretaria.ui.janela_principal import JanelaPrincipal

    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "administrador", "fiscal", "protocolo")))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def _tecla(qtbot: QtBot, tecla: Qt.Key, modificador: Qt.KeyboardModifier) -> None:
    foco = QApplication.focusWidget()
    assert foco is not None
    qtbot.keyClick(foco, tecla, modificador)


def test_ctrl_numero_leva_o_foco_a_busca_e_ctrl_n_abre_o_novo(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    from secretaria.ui.cadastros.empregados import DialogoEmpregado, PaginaEmpregados
    from secretaria.ui.janela_principal import PAGINAS

    janela = _janela(qtbot, banco)
    posicao = [p.chave for p in PAGINAS].index("empregados") + 1
    _tecla(qtbot, getattr(Qt.Key, f"Key_{posicao}"), Qt.KeyboardModifier.ControlModifier)
    pagina = janela.pagina_atual()
    assert isinstance(pagina, PaginaEmpregados)
    assert QApplication.focusWidget() is pagina.busca
    # Ctrl+F from the table comes back to the search box, Ctrl+N opens a new employee.
    pagina.tabela.setFocus()
    _tecla(qtbot, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is pagina.busca
    _tecla(qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialogo = ap.esperar_dialogo(qtbot, DialogoEmpregado)
    assert dialogo.registro_id is None
    dialogo.reject()


def test_cada_pagina_recebe_o_foco_depois_do_ctrl_numero(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    janela = _janela(qtbot, banco)
    for n in range(1, janela.navegacao.count() + 1):
        tecla = getattr(Qt.Key, f"Key_{n % 10}")  # the tenth page is Ctrl+0
        _tecla(qtbot, tecla, Qt.KeyboardModifier.ControlModifier)
        pagina = janela.pagina_atual()
        foco = QApplication.focusWidget()
        assert foco is not janela.navegacao and foco is not None and pagina.isAncestorOf(foco), n
        busca = getattr(pagina, "busca", None)
        if isinstance(busca, QLineEdit):
            assert foco is busca, n


class _BuscaX11(QLineEdit):
    """A text field as on an X11/GNOME desktop, where Ctrl+E is the field's own "end of line" key."""

    def event(self, evento: QEvent) -> bool:
        if (
            evento.type() == QEvent.Type.ShortcutOverride
            and isinstance(evento, QKeyEvent)
            and QKeySequence(evento.keyCombination()) == QKeySequence("Ctrl+E")
        ):
            evento.accept()
            return True
        return super().event(evento)


def test_ctrl_e_exporta_com_o_foco_na_busca(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openpyxl import load_workbook

    from secretaria.ui.cadastros.veiculos import PaginaVeiculos

    destino = tmp_path / "veiculos.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    janela = _janela(qtbot, banco)
    pagina = janela.mostrar_pagina("veiculos")
    assert isinstance(pagina, PaginaVeiculos)
    # The same filter on a field that claims Ctrl+E, as QLineEdit does under X11 key bindings.
    x11 = _BuscaX11(pagina)
    pagina._filtros.addWidget(x11)
    x11.installEventFilter(pagina._atalhos_da_pagina)
    x11.show()
    for campo in (pagina.busca, x11):
        if destino.exists():
            destino.unlink()
        # The export's progress and message windows have closed; the offscreen platform does not hand the
        # activation back by itself as a desktop does.
        janela.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is janela)
        campo.setFocus()
        qtbot.waitUntil(lambda c=campo: QApplication.focusWidget() is c)  # type: ignore[misc]
        qtbot.keyClick(campo, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
        assert f"{pagina.modelo.total} linhas" in mensagens.responder(QMessageBox.StandardButton.Ok)
        folha = load_workbook(destino).active
        assert folha.max_row == pagina.modelo.total + 1  # the header and every vehicle
