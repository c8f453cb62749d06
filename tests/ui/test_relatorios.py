"""The "Relatórios" page and the case's document buttons (offscreen; the file and print dialogs patched).

The database holds the November 2026 scenario of tests/helpers/cenario_documentos.py; "today" is 30/11/2026.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import DocumentoEmitido
from secretaria.ui import impressao
from secretaria.ui.contexto import Contexto
from secretaria.ui.relatorios import PaginaRelatorios
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.tarefas import aguardar_tarefas
from tests.helpers import cenario_documentos as cen


@pytest.fixture
def cenario(banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch) -> Any:
    return cen.montar(banco_sqlite, monkeypatch)


@pytest.fixture
def contexto(banco_sqlite: Banco, cenario: Any) -> Contexto:
    return Contexto(banco_sqlite, cen.ATORES["consulta"])


@pytest.fixture
def pagina(qtbot: QtBot, contexto: Contexto) -> Iterator[PaginaRelatorios]:
    p = PaginaRelatorios(contexto)
    qtbot.addWidget(p)
    p.resize(1000, 640)
    p.show()
    yield p
    while (caixa := mensagens.caixa_aberta()) is not None:
        caixa.done(0)


@pytest.fixture
def salvar_em(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[str, str]]:
    """`arquivos.salvar_como` answers tmp_path/<suggested name>; the calls (title, name) are recorded."""
    chamadas: list[tuple[str, str]] = []

    def salvar_como(_parent: QWidget | None, titulo: str, nome: str, _filtro: str) -> Path:
        chamadas.append((titulo, nome))
        return tmp_path / nome

    monkeypatch.setattr(arquivos, "salvar_como", salvar_como)
    return chamadas


def texto_da_caixa() -> str:
    caixa = mensagens.caixa_aberta()
    assert caixa is not None, "nenhuma caixa de mensagem aberta"
    texto = caixa.text()
    caixa.done(0)
    return texto


def test_planilha_mensal_pela_tela(
    qtbot: QtBot, pagina: PaginaRelatorios, salvar_em: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert (pagina.mes.currentText(), pagina.ano.value()) == ("Outubro", 2026)  # the month before today's
    pagina.mes.setCurrentIndex(10)
    qtbot.mouseClick(pagina.botao_planilha, Qt.MouseButton.LeftButton)
    assert aguardar_tarefas()
    assert salvar_em == [("Salvar planilha mensal", "relatorio-mensal-2026-11.xlsx")]
    destino = tmp_path / "relatorio-mensal-2026-11.xlsx"
    livro = load_workbook(destino)
    assert livro.sheetnames == [
        "Autos",
        "Resumo por operadora",
        "Penalidades",
        "Suspensões",
        "Prazos",
        "Pagamentos",
        "Gráficos",
    ]
    assert livro["Autos"].max_row == 7  # header, five autos, totals row
    aviso = texto_da_caixa()
    assert "Planilha de 11/2026 gravada em" in aviso
    assert "5 autos lavrados, " in aviso and "(s)" not in aviso and "(ões)" not in aviso

    # a month not begun: refused before asking where to save
    pagina.mes.setCurrentIndex(11)
    pagina.gerar_planilha()
    assert "O mês 12/2026 ainda não começou" in texto_da_caixa()
    assert len(salvar_em) == 1


def test_planilha_cancelada_no_dialogo_nao_grava(
    pagina: PaginaRelatorios, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a: None)
    pagina.gerar_planilha()
    assert mensagens.caixa_aberta() is None
    assert list(tmp_path.glob("*.xlsx")) == []


def test_ficha_salva_e_impressa(
    pagina: PaginaRelatorios,
    salvar_em: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    banco_sqlite: Banco,
) -> None:
    indice = pagina.operadora.findText("Princesa do Sul")
    assert indice >= 0
    pagina.operadora.setCurrentIndex(indice)
    pagina.botao_ficha_salvar.click()
    assert aguardar_tarefas()
    nome = salvar_em[-1][1]
    assert nome == "ficha-11222333000181-2026-11-30.pdf"
    texto = PdfReader(tmp_path / nome).pages[0].extract_text()
    assert "Viação Princesa do Sul Ltda." in texto and "FICHA DA OPERADORA" in texto
    aviso = texto_da_caixa()
    assert f"Ficha da operadora 11.222.333/0001-81 em 30/11/2026 gravada em {tmp_path / nome}" in aviso
    assert "SHA-256" in aviso

    # "Imprimir…": the system dialog (patched to print to a PDF file) receives every page of the same document
    saida = tmp_path / "impresso.pdf"

    def escolher(_parent: QWidget | None, impressora: QPrinter, paginas_total: int) -> bool:
        assert paginas_total == 1
        impressora.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        impressora.setOutputFileName(str(saida))
        return True

    monkeypatch.setattr(impressao, "escolher_impressora", escolher)
    pagina.botao_ficha_imprimir.click()
    assert aguardar_tarefas()
    assert len(PdfReader(saida).pages) == 1
    assert mensagens.caixa_aberta() is None
    with banco_sqlite.leitura() as s:  # printed the stored document: issued once
        assert s.scalar(sa.select(sa.func.count(DocumentoEmitido.id))) == 1


def test_lote_do_periodo(pagina: PaginaRelatorios, salvar_em: list[tuple[str, str]], tmp_path: Path) -> None:
    assert pagina.contagem_lote.text() == "2 autos do período aguardam intimação."
    pagina.botao_lote_salvar.click()
    assert aguardar_tarefas()
    nome = salvar_em[-1][1]
    assert nome == "intimacoes-2026-11-01-a-2026-11-30.pdf"
    leitor = PdfReader(tmp_path / nome)
    assert len(leitor.pages) == 3
    assert "RELAÇÃO DE ENTREGA DE INTIMAÇÕES" in leitor.pages[2].extract_text()
    texto_da_caixa()

    pagina.inicio.definir_data(date(2026, 1, 1))
    pagina.fim.definir_data(date(2026, 1, 31))
    assert pagina.contagem_lote.text() == "Nenhum auto do período aguarda intimação."
    assert not pagina.botao_lote_salvar.isEnabled()

    pagina.inicio.definir_data(date(2026, 11, 1))
    pagina.fim.definir_data(date(2026, 11, 30))
    pagina.entrega.limpar()
    pagina.lote("salvar")
    assert texto_da_caixa() == "Informe a data prevista da entrega."


def test_botoes_de_documentos_do_caso(
    qtbot: QtBot, contexto: Contexto, cenario: Any, salvar_em: list[tuple[str, str]], tmp_path: Path
) -> None:
    botoes = impressao.BotoesDocumentosCaso(contexto, cenario.multado)
    qtbot.addWidget(botoes)
    botoes.mostrar(fase="decidido", decidido=True)
    assert botoes.botoes["auto"].isEnabled() and botoes.botoes["decisao"].isEnabled()
    assert not botoes.botoes["intimacao"].isEnabled()
    with qtbot.waitSignal(botoes.documentoEmitido) as sinal:
        botoes.acoes[("decisao", "salvar")]()
    assert aguardar_tarefas()
    assert isinstance(sinal.args[0], int)
    texto = PdfReader(io.BytesIO((tmp_path / "decisao-0005-2026.pdf").read_bytes())).pages[0].extract_text()
    assert "R$ 49,42" in texto
    caixa = mensagens.caixa_aberta()
    assert caixa is not None and "Notificação de decisão do auto nº 0005/2026" in caixa.text()
    caixa.done(QMessageBox.StandardButton.Ok.value)

    botoes.mostrar(fase="cancelado", decidido=False)
    # The complete case file stays: a court may still ask for a cancelled case's file.
    assert not any(b.isEnabled() for tipo, b in botoes.botoes.items() if tipo != "processo")
    assert botoes.botoes["processo"].isEnabled()


def test_documento_guardado_e_salvo_com_os_bytes_emitidos(
    qtbot: QtBot,
    contexto: Contexto,
    cenario: Any,
    salvar_em: list[tuple[str, str]],
    tmp_path: Path,
    banco_sqlite: Banco,
) -> None:
    from secretaria.services.documentos import emitir_documento, obter_documento

    info = emitir_documento(banco_sqlite.uow(), cen.ATORES["fiscal"], tipo="auto", auto_id=cenario.multado)
    guardado = impressao.documento_guardado(None, contexto, info.id, "salvar")
    assert guardado is not None and (guardado.id, guardado.sha256) == (info.id, info.sha256)
    with banco_sqlite.leitura() as s:
        assert (tmp_path / info.nome_arquivo).read_bytes() == obter_documento(s, info.id)
    assert f"SHA-256: {info.sha256}" in texto_da_caixa()
    assert impressao.documento_guardado(None, contexto, 999, "salvar") is None
    assert "Documento emitido não encontrado (nº 999)" in texto_da_caixa()


def test_relatorio_anual_pela_tela(
    qtbot: QtBot, pagina: PaginaRelatorios, salvar_em: list[tuple[str, str]], tmp_path: Path
) -> None:
    """The year (the current one in December, else the last), then the PDF and the workbook, in the
    background with a progress dialog; the message says where it went."""
    assert pagina.ano_anual.value() == 2025  # "today" is 30/11/2026: the last whole year
    pagina.ano_anual.setValue(2026)
    qtbot.mouseClick(pagina.botao_anual_pdf, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None, timeout=30_000)
    assert "Relatório anual de 2026 gravado em" in texto_da_caixa()
    qtbot.mouseClick(pagina.botao_anual_xlsx, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None, timeout=30_000)
    assert "Relatório anual de 2026 gravado em" in texto_da_caixa()
    assert salvar_em == [
        ("Salvar relatório anual de 2026", "relatorio-anual-2026.pdf"),
        ("Salvar relatório anual de 2026", "relatorio-anual-2026.xlsx"),
    ]
    assert len(PdfReader(io.BytesIO((tmp_path / "relatorio-anual-2026.pdf").read_bytes())).pages) >= 2
    assert "Gráficos" in load_workbook(tmp_path / "relatorio-anual-2026.xlsx").sheetnames
