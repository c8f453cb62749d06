"""Printing: file names suggested from a document's title are valid file names, and Qt's print dialog
reads in Portuguese (its "Page Set:" label is left in English by Qt's translation)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel
from pytestqt.qtbot import QtBot

from secretaria.ui import impressao
from secretaria.ui.aplicacao import configurar_aplicacao
from secretaria.ui.widgets import arquivos


@pytest.mark.parametrize(
    ("titulo", "nome"),
    [
        ("Auto de infração nº 0732/2026", "Auto de infração nº 0732-2026.pdf"),
        ("Notificação de decisão nº 0001/2026", "Notificação de decisão nº 0001-2026.pdf"),
        ('Ficha: "Viação" <Sul>\\Norte|?*', "Ficha- -Viação- -Sul--Norte---.pdf"),
        ("auto-de-infracao-0732-2026.pdf", "auto-de-infracao-0732-2026.pdf"),
        ("Termo.", "Termo.pdf"),
        ("  ", "documento.pdf"),
    ],
)
def test_nome_de_arquivo_sem_barra(titulo: str, nome: str) -> None:
    assert impressao.nome_de_arquivo(titulo) == nome
    assert "/" not in nome and "\\" not in nome


def test_nome_sugerido_da_exportacao_sem_barra() -> None:
    """The spreadsheet export's suggested name follows the same rule as the PDFs': "/" → "-"."""
    from secretaria import relogio
    from secretaria.ui.widgets import exportar

    dia = f"{relogio.hoje():%Y-%m-%d}"
    assert (
        exportar.nome_arquivo("Autos do processo nº 0732/2026")
        == f"Autos do processo nº 0732-2026 {dia}.xlsx"
    )
    assert exportar.nome_arquivo("Veículos") == f"Veículos {dia}.xlsx"
    assert exportar.nome_arquivo("  ") == f"Lista {dia}.xlsx"
    assert impressao.nome_de_arquivo is arquivos.nome_de_arquivo  # one rule, not two copies


def test_nome_proposto_pelo_dialogo_de_impressao(qtbot: QtBot) -> None:
    configurar_aplicacao()
    impressora = impressao.nova_impressora("Auto de infração nº 0732/2026")
    assert impressora.docName() == "Auto de infração nº 0732-2026"  # the dialog proposes docName + ".pdf"


def test_salvar_pdf_sugere_nome_valido(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sugeridos: list[str] = []

    def salvar_como(_pai: Any, _titulo: str, nome: str, _filtro: str) -> Path:
        sugeridos.append(nome)
        return tmp_path / nome

    monkeypatch.setattr(arquivos, "salvar_como", salvar_como)
    destino = impressao.salvar_pdf(None, b"%PDF-1.4", "Auto de infração nº 0732/2026")
    assert sugeridos == ["Auto de infração nº 0732-2026.pdf"]
    assert destino == tmp_path / "Auto de infração nº 0732-2026.pdf" and destino.read_bytes() == b"%PDF-1.4"


_INGLES = ("Page", "Set", "Print", "Copies", "Options", "Collate", "Reverse", "Color", "Duplex", "Output")


def test_dialogo_de_impressao_em_portugues(qtbot: QtBot) -> None:
    configurar_aplicacao()
    dialogo = impressao.dialogo_impressao(None, impressao.nova_impressora("Auto"), 3)
    qtbot.addWidget(dialogo)
    rotulo = dialogo.findChild(QLabel, "pageSetLabel")
    assert rotulo is not None and rotulo.text() == "&Conjunto de páginas:"
    textos = [w.text() for w in dialogo.findChildren(QLabel)]
    textos += [w.text() for w in dialogo.findChildren(QAbstractButton)]
    textos += [w.title() for w in dialogo.findChildren(QGroupBox)]
    ingles = [t for t in textos if set(re.findall(r"\w+", t.replace("&", ""))) & set(_INGLES)]
    assert ingles == []
