""" "Imprimir lista…" (Ctrl+P, "Salvar lista em PDF…") and "Copiar linhas" (Ctrl+C) on the list screens and
the home queues: every matching row (not only those the lazy table loaded), in the screen's order, the filters
in the heading; the clipboard holds tab-separated text and an HTML table."""

from __future__ import annotations

import dataclasses
import functools
import io
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QPageLayout
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from secretaria.codigos import ROTULOS_OPERADORA, SituacaoOperadora
from secretaria.db import Banco
from secretaria.lei.documentos import digitos_cnpj, formatar_cnpj
from secretaria.models import Operadora
from secretaria.services import filas
from secretaria.ui import impressao
from secretaria.ui.cadastros.operadoras import PaginaOperadoras
from secretaria.ui.inicio import PaginaInicio
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.widgets import arquivos
from secretaria.ui.widgets.imprimir_lista import imprimir_lista
from secretaria.ui.widgets.tarefas import Tarefa
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")

MUITAS = 430
"""More operators than the table's first block of 200 rows: the print must read them all."""


def _texto_pdf(conteudo: bytes) -> tuple[str, list[Any]]:
    leitor = PdfReader(io.BytesIO(conteudo))
    return "\n".join(p.extract_text() or "" for p in leitor.pages), list(leitor.pages)


def _operadoras(banco: Banco, n: int) -> list[str]:
    nomes = []
    with banco.uow() as uow:
        for i in range(n):
            base = f"{30000000 + i:08d}0001"
            nome = f"Viação Teste {i:04d} Ltda."
            nomes.append(nome)
            uow.session.add(
                Operadora(
                    razao_social=nome,
                    cnpj=base + digitos_cnpj(base),
                    delegacao="permissao",
                    logradouro="Rua A",
                    numero_endereco=str(i),
                    representante_nome="Representante",
                    alterado_por="teste",
                )
            )
        uow.commit()
    return nomes


def _pagina_operadoras(qtbot: QtBot, banco: Banco) -> PaginaListaServico:
    tela = ap.manter(PaginaOperadoras(ap.contexto(banco, "administrador")))
    qtbot.addWidget(tela)
    tela.resize(1366, 768)
    with qtbot.waitActive(tela):
        tela.show()
    pagina: PaginaListaServico = tela.operadoras
    return pagina


def _esperar_tarefas(qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: not Tarefa._em_andamento, timeout=60_000)


def test_salvar_lista_em_pdf_todas_as_linhas_na_ordem_da_tela(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fabrica.popular(banco)
    nomes = _operadoras(banco, MUITAS)
    pagina = _pagina_operadoras(qtbot, banco)
    pagina.busca.setText("viação teste")
    pagina.aplicar_filtro()
    pagina.tabela.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # razão social, Z→A
    assert pagina.modelo.total == MUITAS
    carregadas = sum(len(b) for b in pagina.modelo._cache.values())
    assert carregadas < MUITAS  # the lazy table holds only some of them
    destino = tmp_path / "lista.pdf"
    sugeridos: list[str] = []

    def salvar_como(_pai: Any, _titulo: str, nome: str, _filtro: str, **_k: Any) -> Path:
        sugeridos.append(nome)
        return destino

    monkeypatch.setattr(arquivos, "salvar_como", salvar_como)
    assert pagina.botao_salvar_pdf.isVisible()  # beside Imprimir, not only in the context menu
    qtbot.mouseClick(pagina.botao_salvar_pdf, Qt.MouseButton.LeftButton)
    _esperar_tarefas(qtbot)
    texto_caixa = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok)
    assert texto_caixa == f"Lista gravada em {destino}."
    assert sugeridos == ["Operadoras 2026-11-30.pdf"]

    texto, paginas = _texto_pdf(destino.read_bytes())
    assert "Busca: “viação teste”" in texto
    assert f"{MUITAS} linhas" in texto.replace(".", "")
    assert f"Página 1 de {len(paginas)}" in texto
    largura, altura = paginas[0].mediabox.width, paginas[0].mediabox.height
    assert largura > altura  # eight columns: landscape
    esperados = sorted(nomes, reverse=True)
    posicoes = [texto.find(nome) for nome in esperados]
    assert -1 not in posicoes
    assert posicoes == sorted(posicoes)  # every row, in the screen's order
    assert all("Viação Teste" in (p.extract_text() or "") for p in paginas)  # no page left without rows
    assert all("Razão social" in (p.extract_text() or "") for p in paginas)  # the header on every page
    primeira = esperados[0]
    with banco.leitura() as s:
        cnpj = s.query(Operadora.cnpj).filter(Operadora.razao_social == primeira).scalar()
    assert formatar_cnpj(cnpj) in texto  # formatted as on screen


def test_ctrl_p_imprime_com_o_filtro_de_situacao_em_paisagem(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    fabrica.popular(banco)
    pagina = _pagina_operadoras(qtbot, banco)
    indice = pagina.combo_situacao.findData(SituacaoOperadora.ATIVA)
    assert indice > 0
    pagina.combo_situacao.setCurrentIndex(indice)
    rotulo = ROTULOS_OPERADORA[SituacaoOperadora.ATIVA]
    impressos: list[tuple[bytes, bool]] = []

    def imprimir_pdf(_pai: Any, conteudo: bytes, _titulo: str, _nome: str, *, paisagem: bool = False) -> str:
        impressos.append((conteudo, paisagem))
        return impressao.CANCELADO

    monkeypatch.setattr(impressao, "imprimir_pdf", imprimir_pdf)
    pagina.tabela.setFocus()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    _esperar_tarefas(qtbot)
    qtbot.waitUntil(lambda: bool(impressos))
    conteudo, paisagem = impressos[0]
    texto, _paginas = _texto_pdf(conteudo)
    assert paisagem
    assert f"Situação: {rotulo}" in texto
    assert "Viação Princesa do Sul Ltda." in texto and "Transportes Laranjal Ltda." in texto


def test_impressora_que_recusa_o_trabalho_oferece_salvar_em_pdf(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No printer (the printer refused the job): the message says so and offers the same document as a
    PDF; "Salvar em PDF…" saves those bytes."""
    from PySide6.QtWidgets import QWidget

    from secretaria.ui.widgets import mensagens

    janela = QWidget()
    qtbot.addWidget(janela)
    conteudo = b"%PDF-1.4 documento de teste"

    def recusar(*_a: Any, **_k: Any) -> int:
        raise OSError("A impressora não aceitou o trabalho de impressão.")

    monkeypatch.setattr(impressao, "escolher_impressora", lambda *_a: True)
    monkeypatch.setattr(impressao, "pintar_paginas", recusar)
    monkeypatch.setattr(impressao, "contar_paginas", lambda _c: 1)
    destino = tmp_path / "lista.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    assert impressao.imprimir_pdf(janela, conteudo, "Lista", "lista.pdf") == impressao.IMPRESSO
    _esperar_tarefas(qtbot)
    caixa = mensagens.caixa_aberta()
    assert caixa is not None
    assert "A impressora não aceitou o trabalho" in caixa.text()
    assert "salve o documento em PDF" in caixa.text()
    assert caixa.button(QMessageBox.StandardButton.Save).text() == "&Salvar em PDF…"
    mensagens.responder(QMessageBox.StandardButton.Save)
    assert destino.read_bytes() == conteudo
    assert ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok) == f"Documento gravado em {destino}."


def test_impressora_em_paisagem(qapp: QApplication) -> None:
    deitada = impressao.nova_impressora("x", paisagem=True)
    em_pe = impressao.nova_impressora("x")
    assert deitada.pageLayout().orientation() == QPageLayout.Orientation.Landscape
    assert em_pe.pageLayout().orientation() == QPageLayout.Orientation.Portrait


def test_ctrl_c_copia_as_linhas_selecionadas_como_tabela(qtbot: QtBot, banco: Banco) -> None:
    fabrica.popular(banco)
    pagina = _pagina_operadoras(qtbot, banco)
    pagina.tabela.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    modelo = pagina.modelo
    assert modelo.total == 2
    selecao = pagina.tabela.selectionModel()
    pagina.tabela.setFocus()
    pagina.selecionar_linha(0)
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)  # both rows
    assert len(selecao.selectedRows()) == 2
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    mime = QApplication.clipboard().mimeData()
    linhas = mime.text().splitlines()
    cabecalhos = [str(modelo.headerData(c, Qt.Orientation.Horizontal)) for c in range(modelo.columnCount())]
    assert linhas[0].split("\t") == cabecalhos
    for r in range(2):
        assert linhas[r + 1].split("\t") == [
            str(modelo.index(r, c).data() or "") for c in range(modelo.columnCount())
        ]
    assert "Viação Princesa do Sul Ltda." in linhas[1] + linhas[2]
    html = mime.html()
    assert "<table" in html and "<th>Razão social</th>" in html and html.count("<tr>") == 3

    # The context menu offers the same act; one row selected copies one row.
    selecao.select(
        modelo.index(1, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    acoes = {a.text().replace("&", "").split("\t")[0]: a for a in pagina.tabela.actions()}
    assert {
        "Abrir",
        "Copiar linhas",
        "Exportar para Excel…",
        "Imprimir lista…",
        "Salvar lista em PDF…",
    } <= acoes.keys()
    acoes["Copiar linhas"].trigger()
    assert len(QApplication.clipboard().text().splitlines()) == 2


def test_inicio_imprime_a_fila_inteira(
    qtbot: QtBot, banco: Banco, roteiro: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    autos = [roteiro.lavrar(data_infracao=date(2026, 11, d)) for d in (20, 21, 22)]
    monkeypatch.setattr(filas, "painel", functools.partial(filas.painel, limite=2))  # the screen shows 2
    pagina = ap.manter(PaginaInicio(ap.contexto(banco, "protocolo")))
    qtbot.addWidget(pagina)
    pagina.show()
    pagina.selecionar_fila("aguardando_intimacao")
    assert pagina.modelo.total == 2
    # Ctrl+C on the queue copies the rows shown, with the header line
    pagina.tabela.setFocus()
    pagina.tabela.selectAll()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copiadas = QApplication.clipboard().text().splitlines()
    assert copiadas[0].split("\t")[0] == "Referência" and len(copiadas) == 3
    destino = tmp_path / "fila.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    pagina.acao_salvar_pdf.trigger()
    _esperar_tarefas(qtbot)
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok)
    texto, _paginas = _texto_pdf(destino.read_bytes())
    assert "Autos aguardando intimação" in texto
    assert "Fila de trabalho do Início: posição de 30/11/2026" in texto
    for auto in autos:
        assert f"AI nº {auto.numero_formatado}" in texto


def test_cancelar_a_impressao_nao_imprime(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    fabrica.popular(banco)
    pagina = _pagina_operadoras(qtbot, banco)
    pedido = pagina.pedido_impressao()
    lendo = threading.Event()

    def obter(sessao: Any, progresso: Any) -> list[tuple[Any, ...]]:
        lendo.set()
        fim = time.monotonic() + 30
        while time.monotonic() < fim:  # a long read: reports progress until Cancelar makes `progresso` raise
            progresso(0, 1, "Lendo as linhas da lista…")
            time.sleep(0.01)
        return []

    monkeypatch.setattr(impressao, "imprimir_pdf", lambda *_a, **_k: pytest.fail("não imprime"))
    tarefa = imprimir_lista(pagina, pagina.contexto, dataclasses.replace(pedido, obter=obter))
    assert tarefa.dialogo is not None and tarefa.dialogo.property("cancelavel")
    qtbot.waitUntil(lendo.is_set)
    botao = next(b for b in tarefa.dialogo.findChildren(QPushButton) if b.text() == "Cancelar")
    with qtbot.waitSignal(tarefa.cancelada, timeout=10_000):
        qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    _esperar_tarefas(qtbot)


def test_linhas_copiadas_nao_derrubam_o_programa_ao_sair(tmp_path: Path) -> None:
    """The clipboard keeps the copied rows until the process ends: exiting with them there ends cleanly
    (a QMimeData made in Python crashed the process at exit)."""
    import os
    import subprocess
    import sys

    roteiro = (
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from secretaria.ui.widgets.copiar import mime_das_linhas\n"
        "QApplication.clipboard().setMimeData(mime_das_linhas(['Nome', 'CNPJ'], [['A', '1'], ['B', '2']]))\n"
        "assert QApplication.clipboard().text().splitlines()[0] == 'Nome\\tCNPJ'\n"
    )
    ambiente = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    saida = subprocess.run(
        [sys.executable, "-c", roteiro], env=ambiente, cwd=tmp_path, capture_output=True, timeout=120
    )
    assert saida.returncode == 0, saida.stderr.decode(errors="replace")
