"""The auto form as a fiscal types it: the provision found however its number is written ("2-VII", "2, VII",
"art 2 vii"), shown from its start once chosen; a vehicle fills in its line unless the user chose one."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services import cadastros
from secretaria.ui.processo.campos import chave_de_busca
from secretaria.ui.processo.form_auto import DialogoAuto
from tests.helpers import apoio_processo as ap
from tests.helpers.fabrica import ATORES

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")

CONSULTAS = ("2-VII", "2, VII", "2 VII", "art 2 vii", "Art. 2º, VII", "art. 2º vii", "2vii")


def test_chave_de_busca_une_as_grafias() -> None:
    assert chave_de_busca("Art. 2º, VII (tipo B) — Trafegar…") == " art 2 vii tipo b trafegar"
    assert chave_de_busca("2-VII") == chave_de_busca("2, VII") == chave_de_busca("2 VII") == " 2 vii"
    assert chave_de_busca("Viação Laranjal") == " viacao laranjal"
    assert " 2 vii" not in chave_de_busca("Art. 12, VII")


def _form(qtbot: QtBot, banco: Banco) -> DialogoAuto:
    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal")))
    qtbot.addWidget(dialogo)
    with qtbot.waitActive(dialogo):
        dialogo.show()
    return dialogo


def _editor(combo: QComboBox) -> QLineEdit:
    editor = combo.lineEdit()
    assert editor is not None
    return editor


def _digitar_e_escolher(qtbot: QtBot, combo: QComboBox, texto: str) -> list[str]:
    """Type in the combo's field as a user does, then take the first suggestion with ↓ and Enter; returns
    the suggestions offered."""
    editor = _editor(combo)
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    qtbot.keyClicks(editor, texto)
    completer = combo.completer()
    assert completer is not None
    popup = completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    modelo = completer.completionModel()
    sugestoes = [str(modelo.index(i, 0).data()) for i in range(modelo.rowCount())]
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not popup.isVisible())
    return sugestoes


@pytest.mark.parametrize("consulta", CONSULTAS)
def test_dispositivo_achado_por_qualquer_grafia(
    qtbot: QtBot, banco: Banco, roteiro: Any, consulta: str
) -> None:
    dialogo = _form(qtbot, banco)
    sugestoes = _digitar_e_escolher(qtbot, dialogo.dispositivo, consulta)
    assert sugestoes and sugestoes[0].startswith("Art. 2º, VII (")
    assert all(s.startswith(("Art. 2º, VII (", "Art. 2º, VIII (")) for s in sugestoes), sugestoes
    assert dialogo.dispositivo.currentData() == "2-VII"
    editor = _editor(dialogo.dispositivo)
    assert editor.text().startswith("Art. 2º, VII (")
    qtbot.waitUntil(lambda: editor.cursorPosition() == 0)  # the start of the text shows, not its tail


def test_veiculo_preenche_a_linha_sem_trocar_a_escolhida(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    cidade = roteiro.cidade
    admin = ATORES["administrador"]
    outra = cadastros.criar_linha(
        banco.uow(),
        admin,
        cadastros.DadosLinha(codigo="L99", nome="Centro–Areal", operadora_id=cidade.operadora_id),
    )
    segundo = cadastros.criar_veiculo(
        banco.uow(),
        admin,
        cadastros.DadosVeiculo(
            prefixo="150",
            placa="IUW4D55",
            renavam="00639884962",
            operadora_id=cidade.operadora_id,
            linha_id=outra,
            lugares_sentados=40,
        ),
    )
    dialogo = _form(qtbot, banco)
    _digitar_e_escolher(qtbot, dialogo.operadora, "Princesa")
    assert dialogo.operadora.currentData() == cidade.operadora_id
    assert dialogo.linha.currentData() is None
    # Empty line: the vehicle's own fills it in.
    _digitar_e_escolher(qtbot, dialogo.veiculo, "101")
    assert dialogo.veiculo.currentData() == cidade.veiculo_id
    assert dialogo.linha.currentData() == cidade.linha_id
    # Filled in this way: another vehicle brings its line.
    _digitar_e_escolher(qtbot, dialogo.veiculo, "150")
    assert dialogo.veiculo.currentData() == segundo
    assert dialogo.linha.currentData() == outra
    # The user's own choice of line stays, whatever vehicle comes next.
    _digitar_e_escolher(qtbot, dialogo.linha, "L10")
    assert dialogo.linha.currentData() == cidade.linha_id
    _digitar_e_escolher(qtbot, dialogo.veiculo, "150")
    assert dialogo.linha.currentData() == cidade.linha_id
    selecionar = dialogo.dispositivo
    _digitar_e_escolher(qtbot, selecionar, "2-VII")
    dialogo.data_infracao.definir_data(date(2026, 11, 27))
    dialogo.resize(1366, 768)
    qtbot.waitUntil(lambda: "Art. 2º, VII" in dialogo.painel.texto())
    ap.salvar_png(dialogo, "h15-auto-dispositivo-veiculo")
