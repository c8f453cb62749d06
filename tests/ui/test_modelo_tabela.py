"""The lazy table model and the list page, over an in-memory source that counts its queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from secretaria.ui.lista import PaginaLista
from secretaria.ui.modelo_tabela import (
    ColunaTabela,
    FiltroTabela,
    FonteEmMemoria,
    LinhaTabela,
    ModeloTabela,
    Ordem,
    formatar_celula,
    formatar_contagem,
)
from secretaria.ui.widgets import arquivos

COLUNAS = (
    ColunaTabela("nome", "Nome"),
    ColunaTabela("data", "Data"),
    ColunaTabela("valor", "Valor (R$)"),
    ColunaTabela("situacao", "Situação"),
)


class FonteContada(FonteEmMemoria):
    """Records every window asked for: proves the model never loads the whole table."""

    def __init__(self, n: int) -> None:
        linhas = [
            LinhaTabela(
                i,
                (
                    f"Viação {i:05d}",
                    date(2026, 1, 1 + i % 28),
                    Decimal(i) / 4,
                    "ativa" if i % 3 else "suspensa",
                ),
                "alerta" if i % 3 == 0 else None,
            )
            for i in range(n)
        ]
        super().__init__(COLUNAS, linhas, {lin.id: lin.valores[3] for lin in linhas})
        self.todas = linhas
        self.pedidos: list[tuple[int, int]] = []

    def buscar(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int
    ) -> Sequence[LinhaTabela]:
        self.pedidos.append((inicio, quantidade))
        return super().buscar(filtro, ordem, inicio, quantidade)


def test_modelo_passa_no_qtmodeltester(qtmodeltester: ModelTester) -> None:
    modelo = ModeloTabela(FonteContada(30), bloco=7)
    qtmodeltester.check(modelo)
    modelo.sort(0, Qt.SortOrder.DescendingOrder)
    modelo.definir_filtro(FiltroTabela("viação 0001"))
    qtmodeltester.check(modelo)


def test_consulta_lida_fora_e_aplicada_de_uma_vez(qtmodeltester: ModelTester, qtbot: QtBot) -> None:
    """A search read by `consulta` (in any thread) is shown by `aplicar_consulta` in one reset: the count
    signalled, the first block already in hand (no second read), and an order changed meanwhile wins."""
    fonte = FonteContada(3000)
    modelo = ModeloTabela(fonte, bloco=50)
    qtmodeltester.check(modelo)
    consulta = modelo.consulta(FiltroTabela("viação 001"))()
    assert modelo.total == 3000  # reading it changed nothing on screen
    fonte.pedidos.clear()
    with qtbot.waitSignal(modelo.contagemMudou) as sinal:
        modelo.aplicar_consulta(consulta)
    esperadas = [lin for lin in fonte.todas if lin.valores[0][7:10] == "001"]
    assert sinal.args == [len(esperadas)] and modelo.total == len(esperadas)
    assert modelo.data(modelo.index(0, 0)) == esperadas[0].valores[0]
    assert fonte.pedidos == []  # the first block came with the search
    qtmodeltester.check(modelo)
    modelo.sort(0, Qt.SortOrder.DescendingOrder)
    antiga = modelo.consulta(FiltroTabela("viação"))
    modelo.sort(0, Qt.SortOrder.AscendingOrder)
    modelo.aplicar_consulta(antiga())
    assert modelo.data(modelo.index(0, 0)) == "Viação 00000"  # the order on screen, not the one read


def test_le_so_as_janelas_pedidas_e_limita_o_cache() -> None:
    fonte = FonteContada(100_000)
    modelo = ModeloTabela(fonte, bloco=200, blocos_em_cache=3)
    assert modelo.rowCount() == 100_000
    assert fonte.pedidos == []  # counting does not fetch rows
    assert modelo.data(modelo.index(99_999, 0)) == "Viação 99999"
    assert fonte.pedidos == [(99_800, 200)]
    for linha in (0, 400, 800, 1200):
        modelo.data(modelo.index(linha, 0))
    modelo.data(modelo.index(1, 0))  # block 0 was evicted (cache of 3): asked again
    assert fonte.pedidos[-1] == (0, 200)
    assert len(fonte.pedidos) == 6


def test_formata_alinha_e_destaca() -> None:
    modelo = ModeloTabela(FonteContada(10))
    assert modelo.data(modelo.index(5, 1)) == "06/01/2026"
    assert modelo.data(modelo.index(5, 2)) == "1,25"
    alinhamento = modelo.data(modelo.index(5, 2), Qt.ItemDataRole.TextAlignmentRole)
    assert alinhamento & Qt.AlignmentFlag.AlignRight
    assert modelo.data(modelo.index(3, 0), Qt.ItemDataRole.ForegroundRole) is not None  # overdue: red
    assert modelo.data(modelo.index(4, 0), Qt.ItemDataRole.ForegroundRole) is None
    assert modelo.headerData(2, Qt.Orientation.Horizontal) == "Valor (R$)"
    assert formatar_celula(True) == "Sim"
    assert formatar_celula(Decimal("1234.5")) == "1.234,50"
    assert formatar_contagem(1234) == "1.234 registros"
    assert formatar_contagem(1) == "1 registro"
    assert formatar_contagem(0) == "nenhum registro"


def test_tabela_pequena_com_cores_dicas_e_titulos_proprios(qtmodeltester, qtbot: QtBot) -> None:  # type: ignore[no-untyped-def]
    """What the small in-memory tables (timeline, queue) ask of the one model: colours of their own codes,
    a highlight that spares some columns, the cell's text as its tooltip, Qt's own header alignment, and a
    title that changes with the rows."""
    colunas = (
        ColunaTabela("ref", "Referência", dica_do_texto=True, destacar=False),
        ColunaTabela("prazo", "Prazo", alinhamento="centro", dica_do_texto=True),
    )
    fonte = FonteEmMemoria(
        colunas, [LinhaTabela(("auto", 1), ("AI nº 0001/2026", date(2026, 11, 16)), "atrasado")]
    )
    modelo = ModeloTabela(fonte, cores={"atrasado": "#b00020"}, alinhar_titulos=False)
    qtmodeltester.check(modelo)
    assert modelo.data(modelo.index(0, 0), Qt.ItemDataRole.ForegroundRole) is None
    assert modelo.data(modelo.index(0, 1), Qt.ItemDataRole.ForegroundRole).color().name() == "#b00020"
    assert modelo.data(modelo.index(0, 1), Qt.ItemDataRole.ToolTipRole) == "16/11/2026"
    assert modelo.data(modelo.index(0, 1), Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignHCenter
    assert modelo.data(modelo.index(0, 0), Qt.ItemDataRole.UserRole) == ("auto", 1)
    assert modelo.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole) is None
    comum = ModeloTabela(fonte)  # "atrasado" is not one of the shared codes
    assert comum.data(comum.index(0, 1), Qt.ItemDataRole.ForegroundRole) is None

    fonte.trocar([], colunas=(colunas[0], ColunaTabela("prazo", "Defesa até")))
    with qtbot.waitSignal(modelo.headerDataChanged):
        modelo.recarregar()
    assert modelo.headerData(1, Qt.Orientation.Horizontal) == "Defesa até"
    assert modelo.rowCount() == 0
    qtmodeltester.check(modelo)


def test_ordenar_pelo_cabecalho_refaz_a_consulta() -> None:
    fonte = FonteContada(50)
    modelo = ModeloTabela(fonte)
    modelo.sort(2, Qt.SortOrder.DescendingOrder)
    assert modelo.ordem == Ordem("valor", True)
    assert modelo.data(modelo.index(0, 0)) == "Viação 00049"


def _pagina(qtbot: QtBot, n: int = 500) -> PaginaLista:
    pagina = PaginaLista(
        FonteContada(n),
        titulo="Operadoras",
        situacoes=[(None, "Todas"), ("ativa", "Ativas"), ("suspensa", "Suspensas")],
        pode_criar=True,
        texto_novo="Nova operadora",
    )
    qtbot.addWidget(pagina)
    pagina.resize(1000, 600)
    with qtbot.waitActive(pagina):
        pagina.show()
    return pagina


def test_pagina_busca_enquanto_digita_e_mostra_a_contagem(qtbot: QtBot) -> None:
    pagina = _pagina(qtbot, 1500)
    assert pagina.contagem.text() == "1.500 registros"
    qtbot.keyClicks(pagina.busca, "viacao 0012")  # accents and case do not matter
    qtbot.waitUntil(lambda: pagina.contagem.text() == "10 registros")
    pagina.combo_situacao.setCurrentIndex(2)  # Suspensas
    assert pagina.contagem.text() == "4 registros"
    assert pagina.modelo.data(pagina.modelo.index(0, 3)) == "suspensa"


def test_nova_busca_mostra_o_inicio_dos_resultados(qtbot: QtBot) -> None:
    """Scrolled to the end, a search shows its first results and reads only the first window of them."""
    pagina = _pagina(qtbot, 5000)
    fonte = pagina.modelo.fonte
    assert isinstance(fonte, FonteContada)
    pagina.tabela.scrollToBottom()
    qtbot.wait(10)
    fonte.pedidos.clear()
    pagina.busca.setText("viacao 01")
    pagina.aplicar_filtro()
    pagina.tabela.viewport().repaint()
    assert pagina.contagem.text() == "1.000 registros"
    assert pagina.tabela.rowAt(0) == 0
    assert pagina.tabela.verticalScrollBar().value() == 0
    assert {inicio for inicio, _ in fonte.pedidos} == {0}


def test_pagina_abre_com_enter_e_clique_duplo(qtbot: QtBot) -> None:
    pagina = _pagina(qtbot)
    pagina.tabela.setFocus()
    pagina.selecionar_linha(7)
    with qtbot.waitSignal(pagina.abrirRegistro) as sinal:
        qtbot.keyClick(pagina.tabela, Qt.Key.Key_Return)
    assert sinal.args == [7]
    rect = pagina.tabela.visualRect(pagina.modelo.index(2, 0))
    qtbot.mouseClick(pagina.tabela.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    with qtbot.waitSignal(pagina.abrirRegistro) as sinal:
        qtbot.mouseDClick(pagina.tabela.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert sinal.args == [2]
    with qtbot.waitSignal(pagina.novoRegistro):
        qtbot.keyClick(pagina.tabela, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)


def _coluna_na_tela(pagina: PaginaLista, coluna: int) -> list[Any]:
    """The values of `coluna`, row by row as the table shows them (each cell's text checked against it)."""
    modelo = pagina.modelo
    valores = []
    for row in range(modelo.rowCount()):
        linha = modelo.linha(row)
        assert linha is not None
        assert modelo.data(modelo.index(row, coluna)) == formatar_celula(linha.valores[coluna])
        valores.append(linha.valores[coluna])
    return valores


def test_clique_no_cabecalho_ordena(qtbot: QtBot) -> None:
    """Each click on a header shows every row ordered by that column, and the next click reverses it."""
    from PySide6.QtCore import QPoint

    pagina = _pagina(qtbot)
    fonte = pagina.modelo.fonte
    assert isinstance(fonte, FonteContada)
    cabecalho = pagina.tabela.horizontalHeader()
    for coluna in (2, 1):  # valor (all distinct), then data (many rows share a day)
        todos = [linha.valores[coluna] for linha in fonte.todas]
        x = cabecalho.sectionViewportPosition(coluna) + 5
        sentidos = []
        for _clique in range(2):
            qtbot.mouseClick(cabecalho.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
            decrescente = cabecalho.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
            assert cabecalho.sortIndicatorSection() == coluna
            assert pagina.modelo.ordem == Ordem(COLUNAS[coluna].chave, decrescente)
            assert _coluna_na_tela(pagina, coluna) == sorted(todos, reverse=decrescente)
            sentidos.append(decrescente)
        assert sorted(sentidos) == [False, True]  # both directions, one per click


def test_exporta_as_linhas_visiveis(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openpyxl import load_workbook

    from secretaria.ui.widgets import mensagens

    destino = tmp_path / "lista.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    pagina = _pagina(qtbot, 300)
    pagina.combo_situacao.setCurrentIndex(2)
    pagina.tabela.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    pagina.exportar()
    assert "100 linhas" in mensagens.responder(QMessageBox.StandardButton.Ok)
    folha = load_workbook(destino).active
    linhas = list(folha.iter_rows(values_only=True))
    assert linhas[0] == ("Nome", "Data", "Valor (R$)", "Situação")
    assert len(linhas) == 101
    assert linhas[1][0] == "Viação 00297" and linhas[1][2] == 74.25
    assert folha.freeze_panes == "A2"


def test_lista_vazia_diz_por_que(qtbot: QtBot) -> None:
    pagina = _pagina(qtbot, 50)
    assert pagina.tabela.aviso_vazio == "Nenhum registro cadastrado."
    qtbot.keyClicks(pagina.busca, "nada assim")
    qtbot.waitUntil(lambda: pagina.contagem.text() == "nenhum registro")
    assert pagina.tabela.aviso_vazio == "Nenhum registro encontrado com esta busca e estes filtros."
    imagem = pagina.tabela.viewport().grab().toImage()
    centro = imagem.rect().center()
    escuros = sum(  # the message is drawn across the middle of the empty table
        1
        for x in range(imagem.width())
        for y in range(centro.y() - 12, centro.y() + 12)
        if imagem.pixelColor(x, y).lightness() < 160
    )
    assert escuros > 50
