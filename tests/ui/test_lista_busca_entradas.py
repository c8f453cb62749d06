"""List pages with bad input, on SQLite and PostgreSQL: searched with text no record holds (5,000 letters, a
NUL, many words, wildcards) a page shows its empty-table message and stays usable; exported to Excel, text
that looks like a formula stays text (and Excel is told to keep it so), dates are dates."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services import cadastros, listas
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers.fabrica import popular


@pytest.fixture
def contexto(banco: Banco) -> Contexto:
    popular(banco)
    criar_usuario(
        banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=("administrador",)
    )
    return Contexto(banco, autenticar(banco.uow(), "ana", "segredo123"))


@pytest.mark.parametrize("nome", ["operadoras", "veiculos", "auditoria"])
def test_busca_absurda_mostra_a_lista_vazia(qtbot: QtBot, contexto: Contexto, nome: str) -> None:
    pagina = PaginaListaServico(contexto, nome)
    qtbot.addWidget(pagina)
    pagina.show()
    total = pagina.modelo.total
    assert total > 0
    for texto in ("ã" * 5_000, "zzz\x00", " ".join(f"p{i}" for i in range(3_000)), "%_[*?]\\"):
        pagina.busca.setText(texto)
        pagina.aplicar_filtro()
        assert pagina.modelo.total == 0 and pagina.modelo.rowCount() == 0, texto[:10]
        assert pagina.contagem.text().startswith("nenhum")
        assert pagina.tabela.aviso_vazio.endswith("encontrado com esta busca e estes filtros.")
        pagina.tabela.viewport().grab()  # paints the empty table without raising
    pagina.busca.clear()
    pagina.aplicar_filtro()
    assert pagina.modelo.total == total


def test_exportar_lista_guarda_formula_como_texto(
    qtbot: QtBot, contexto: Contexto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openpyxl import load_workbook

    nomes = ['=HYPERLINK("http://x";"abrir") Ltda', "+55 Transportes", "-1+1 Ônibus", "@SOMA Viação"]
    for nome, cnpj in zip(
        nomes, ("04252011000110", "33000167000101", "60746948000112", "00000000000191"), strict=True
    ):
        cadastros.criar_operadora(
            contexto.banco.uow(),
            contexto.ator,
            cadastros.DadosOperadora(razao_social=nome, cnpj=cnpj, logradouro="Rua A"),
        )
    destino = tmp_path / "operadoras.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    pagina = PaginaListaServico(contexto, "operadoras")
    qtbot.addWidget(pagina)
    pagina.show()
    pagina.exportar()
    assert "6 linhas" in mensagens.responder(QMessageBox.StandardButton.Ok)
    folha = load_workbook(destino).active
    celulas = {c.value: c for c in folha["A"][1:]}
    assert set(nomes) <= set(celulas)
    for nome in nomes:
        assert celulas[nome].data_type == "s" and celulas[nome].quotePrefix, nome
    assert not celulas["Viação Princesa do Sul Ltda."].quotePrefix


def test_exportar_auditoria_com_datas_de_verdade(
    qtbot: QtBot, contexto: Contexto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openpyxl import load_workbook

    destino = tmp_path / "auditoria.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    pagina = PaginaListaServico(contexto, "auditoria")
    qtbot.addWidget(pagina)
    pagina.show()
    pagina.exportar()
    mensagens.responder(QMessageBox.StandardButton.Ok)
    folha = load_workbook(destino).active
    cabecalho = [c.value for c in folha[1]]
    coluna = next(i for i, c in enumerate(listas.definicao("auditoria").colunas) if c.tipo == "data_hora")
    momento = folha.cell(row=2, column=coluna + 1)
    assert cabecalho[coluna] and momento.is_date and isinstance(momento.value, datetime)
    assert momento.number_format == "DD/MM/YYYY HH:MM"
