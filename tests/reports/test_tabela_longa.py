"""The ficha's long tables, laid out by windows of rows, give the very bytes of ReportLab's plain Table.

The reference below is the straightforward way the ficha was drawn before `TabelaLonga`: one Table of every
row, a fresh Paragraph in each cell. Same data, same bytes — a re-print of an issued ficha must match its
stored SHA-256.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from secretaria.reports import tabela_longa
from secretaria.reports.dados import DadosFicha, LinhaFichaCaso
from secretaria.reports.ficha import FichaOperadoraPdf
from tests.helpers.amostras_documentos import casos, ficha


class FichaReferencia(FichaOperadoraPdf):
    """The ficha with ReportLab's plain Table and a Paragraph of its own in every cell."""

    # The PDF's /ID hashes the renderer's name with the data: the reference must hash as the ficha does.
    __qualname__ = FichaOperadoraPdf.__qualname__

    def celula(self, conteudo: str, estilo: str, coluna: str = "") -> Paragraph:
        return Paragraph(conteudo, self.estilos[estilo])

    def tabela(
        self,
        cabecalho: Sequence[object],
        linhas: Sequence[Sequence[object]],
        larguras: Sequence[float],
        estilo: Sequence[tuple[Any, ...]],
        fundo_linha: Callable[[int], object | None] = lambda _i: None,
    ) -> Flowable:
        tabela = Table(
            [list(cabecalho), *(list(linha) for linha in linhas)], colWidths=list(larguras), repeatRows=1
        )
        comandos = list(estilo)
        for indice in range(len(linhas)):
            fundo = fundo_linha(indice)
            if fundo is not None:
                comandos.append(("BACKGROUND", (0, indice + 1), (-1, indice + 1), fundo))
        tabela.setStyle(TableStyle(comandos))
        return tabela


def _variados(quantidade: int, semente: int) -> list[LinhaFichaCaso]:
    """Cases whose rows differ in height: some situations and payments wrap over two or three lines."""
    lista = casos(quantidade, semente)
    longos = (
        "Aguardando julgamento do recurso pela Junta (art. 12)",
        "Decisão definitiva, multa inscrita em dívida ativa após o prazo",
    )
    return [
        replace(caso, situacao=longos[i % 2])
        if i % 5 == 2
        else replace(caso, pagamento="Pago parcialmente")
        if i % 11 == 4
        else caso
        for i, caso in enumerate(lista)
    ]


def _mesmos_bytes(dados: DadosFicha) -> None:
    novo = FichaOperadoraPdf().render(dados)
    referencia = FichaReferencia().render(dados)
    assert novo.count(b"/Type /Page\n") == referencia.count(b"/Type /Page\n")
    assert novo == referencia


@pytest.mark.parametrize("quantidade", [0, 1, 40, 95, 96, 97, 450])
def test_ficha_por_janelas_tem_os_bytes_da_tabela_inteira(quantidade: int) -> None:
    _mesmos_bytes(ficha(quantidade))


def test_linhas_de_alturas_diferentes_e_muitas_suspensoes() -> None:
    """Rows of one, two and three lines; every case suspended, so the suspensions' table runs over pages."""
    lista = [
        replace(
            c, suspensao_dias=3 + i % 9, suspensao_inicio=date(2025, 4, 1), suspensao_fim=date(2025, 4, 3)
        )
        for i, c in enumerate(_variados(260, semente=5))
    ]
    dados = ficha(0, casos=lista)
    assert FichaOperadoraPdf().render(dados).count(b"/Type /Page\n") > 10
    _mesmos_bytes(dados)


def test_janelas_pequenas_estendidas_muitas_vezes_por_pagina(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows of a few rows: each page extends the window several times, always to the same pages."""
    monkeypatch.setattr(tabela_longa, "LINHAS_POR_JANELA", 4)
    _mesmos_bytes(ficha(0, casos=_variados(180, semente=9)))


def test_celula_repetida_e_medida_uma_vez_por_largura() -> None:
    pdf = FichaOperadoraPdf()
    pdf.historia(ficha(2))
    primeira = pdf.celula("Decidido", "Celula")
    assert pdf.celula("Decidido", "Celula") is primeira
    assert pdf.celula("Decidido", "CelulaDireita") is not primeira
    largura, altura = primeira.wrap(80, 1000)
    primeira.blPara = None  # a second layout at the same width would rebuild it
    assert primeira.wrap(80, 1000) == (largura, altura)
    assert primeira.blPara is None
    primeira.wrap(200, 1000)
    assert primeira.blPara is not None


def test_celula_ja_desenhada_escreve_sem_refazer_o_estado_do_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell's paragraph drawn before from the same state writes its operators without ReportLab's save
    and restore of the canvas's state in Python (the bytes are the plain Table's: the tests above)."""
    from reportlab.pdfgen.canvas import Canvas

    salvos = {"janelas": 0}
    salvar = Canvas.saveState

    def contar(canvas: Canvas) -> None:
        salvos["janelas"] += 1
        salvar(canvas)

    monkeypatch.setattr(Canvas, "saveState", contar)
    dados = ficha(450)
    FichaOperadoraPdf().render(dados)
    por_janelas = salvos["janelas"]
    salvos["janelas"] = 0
    FichaReferencia().render(dados)
    assert por_janelas < salvos["janelas"] * 0.6


@pytest.mark.parametrize("alinhamento", ["LEFT", "RIGHT", "CENTRE"])
@pytest.mark.parametrize("vertical", ["TOP", "MIDDLE", "BOTTOM"])
def test_alinhamentos_da_celula_como_os_da_tabela_do_reportlab(alinhamento: str, vertical: str) -> None:
    """Every placement `Table._drawCell` knows, in rows of different heights: the same bytes."""
    import io

    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import SimpleDocTemplate

    estilo_paragrafo = getSampleStyleSheet()["BodyText"]
    palavras = ["curto", "um texto um tanto maior que a coluna, em duas linhas", "médio e acentuado"]
    comandos = [
        ("GRID", (0, 0), (-1, -1), 0.3, "black"),
        ("ALIGN", (0, 0), (-1, -1), alinhamento),
        ("VALIGN", (0, 0), (-1, -1), vertical),
        ("FONTSIZE", (1, 1), (1, -1), 7.5),
    ]

    def pdf(com_janelas: bool) -> bytes:
        celulas: dict[str, Paragraph] = {}

        def celula(texto: str) -> Paragraph:
            if not com_janelas:
                return Paragraph(texto, estilo_paragrafo)
            return celulas.setdefault(texto, tabela_longa.ParagrafoCelula(texto, estilo_paragrafo))

        linhas = [[celula(palavras[(i + j) % 3]) for j in range(3)] for i in range(300)]
        cabecalho = [celula("Coluna"), celula("Outra"), celula("Mais uma")]
        larguras = [50 * 2.83, 40 * 2.83, 60 * 2.83]
        tabela: Flowable
        if com_janelas:
            tabela = tabela_longa.TabelaLonga(cabecalho, linhas, larguras, comandos)
        else:
            tabela = Table([cabecalho, *linhas], colWidths=larguras, repeatRows=1)
            tabela.setStyle(TableStyle(comandos))
        saida = io.BytesIO()
        SimpleDocTemplate(saida, invariant=1).build([tabela])
        return saida.getvalue()

    assert pdf(com_janelas=True) == pdf(com_janelas=False)


@pytest.mark.parametrize(
    "texto",
    [
        "12345/2026",
        "31/12/2025",
        "Pago em 03/02/2026",
        "R$ 1.234,56",
        "Art. 1º, VI — ônibus sem extintor",
        "Decidido",
        "x",
        "",
        " espaço antes",
        "dois  espaços",
        "tab\tdentro",
        "linha\nquebrada",
        "sem\u00a0quebra",
        "<b>negrito</b>",
        "A &amp; B",
        "5 > 3",
    ],
)
@pytest.mark.parametrize("estilo", ["Celula", "CelulaDireita", "CelulaCabecalho"])
def test_paragrafo_de_texto_e_o_que_o_analisador_do_reportlab_faria(texto: str, estilo: str) -> None:
    """Text with or without markup, odd spaces included: the same text, style and fragments as parsing it."""
    estilos = FichaOperadoraPdf().estilos
    rapido = tabela_longa.ParagrafoCelula.de_texto(texto, estilos[estilo])
    analisado = Paragraph(texto, estilos[estilo])
    assert rapido.text == analisado.text
    assert rapido.style is analisado.style
    assert rapido.bulletText == analisado.bulletText
    assert [vars(f) for f in rapido.frags] == [vars(f) for f in analisado.frags]
    assert rapido.wrap(60, 1000) == analisado.wrap(60, 1000)


def test_paragrafo_de_texto_simples_nao_passa_pelo_analisador(monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.platypus import paraparser

    estilo = FichaOperadoraPdf().estilos["Celula"]
    tabela_longa.ParagrafoCelula.de_texto("primeiro", estilo)  # the style's fragment, parsed once
    analisados: list[str] = []
    analisar = paraparser.ParaParser.parse

    def contar(parser: paraparser.ParaParser, texto: str, estilo_: object) -> object:
        analisados.append(texto)
        return analisar(parser, texto, estilo_)

    monkeypatch.setattr(paraparser.ParaParser, "parse", contar)
    tabela_longa.ParagrafoCelula.de_texto("12345/2026", estilo)
    tabela_longa.ParagrafoCelula.de_texto("<b>negrito</b>", estilo)
    assert analisados == ["<b>negrito</b>"]


def test_paragrafo_compartilhado_so_dentro_de_uma_coluna() -> None:
    """A shared paragraph keeps the layout of one width: "—" in the fine's two columns (cases without a fine)
    and in the suspension's and payment's must be a paragraph of each column, or each cell lays it out again."""
    lista = [replace(c, multa_urm=None, multa_reais=None, pagamento="—") for c in casos(30, 3)]
    historia = FichaOperadoraPdf().historia(ficha(0, casos=lista))
    tabelas = [f for f in historia if isinstance(f, tabela_longa.TabelaLonga)]
    assert tabelas
    for tabela in tabelas:
        colunas_de: dict[int, set[int]] = {}
        for linha in tabela._linhas:
            for coluna, celula in enumerate(linha):
                if isinstance(celula, tabela_longa.ParagrafoCelula):
                    colunas_de.setdefault(id(celula), set()).add(coluna)
        assert colunas_de and all(len(colunas) == 1 for colunas in colunas_de.values())


def test_os_paragrafos_vao_embora_quando_o_arquivo_fica_pronto() -> None:
    """Freed by reference counting as the render ends, not left in ReportLab's canvas↔document cycle for the
    cyclic collector (which holds the GIL while it walks: 0.6 s after the biggest ficha)."""
    import gc

    gc.collect()
    gc.disable()
    try:
        FichaOperadoraPdf().render(ficha(120))
        vivos = sum(1 for objeto in gc.get_objects() if isinstance(objeto, tabela_longa.ParagrafoCelula))
    finally:
        gc.enable()
    assert vivos == 0
