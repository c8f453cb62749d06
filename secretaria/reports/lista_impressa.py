"""A printed list ("Imprimir lista…" of any list screen): the letterhead, the list's title, the filters and
search in effect, then the visible columns and every matching row in the screen's order, "Página X de Y".

The data arrives as plain text (cells already formatted as the screen shows them: dd/mm/aaaa, "R$ 1.234,56"),
so the paper says exactly what the clerk saw. Many or wide columns print on a landscape page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import ClassVar, Literal

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from secretaria.reports.dados import Timbre
from secretaria.reports.fontes import FONTE, FONTE_NEGRITO, imprimivel, registrar_fontes
from secretaria.reports.pdf_base import DocumentoPdf, texto

__all__ = ["DadosListaImpressa", "ListaImpressaPaisagemPdf", "ListaImpressaPdf", "gerar_lista_impressa"]

Alinhamento = Literal["esquerda", "direita", "centro"]

_TAMANHO_CELULA = 7.5
_ENTRELINHA = 9.0
_FOLGA_VERTICAL = 3.5  # top + bottom padding of a cell
_FOLGA_PAGINA = 6.0  # room left at the foot of each page, so a rounding never pushes a row over
_FOLGA_CELULA = 6.0  # left + right padding of a cell, in points


@dataclass(frozen=True)
class DadosListaImpressa:
    timbre: Timbre
    titulo: str
    """The list's title as the screen names it ("Autos de infração")."""
    filtros: tuple[tuple[str, str], ...]
    """(name, value) of every filter in effect, the search included: ("Situação", "Ativas"), ("Busca", "“viação”")."""
    colunas: tuple[str, ...]
    alinhamentos: tuple[Alinhamento, ...]
    linhas: tuple[tuple[str, ...], ...]
    emitida_em: datetime
    emitida_por: str

    @property
    def linha_de_filtros(self) -> str:
        """ "Situação: Ativa · Busca: “viação”", or "Sem filtros: todos os registros"."""
        if not self.filtros:
            return "Sem filtros: todos os registros"
        return " · ".join(f"{nome}: {valor}" for nome, valor in self.filtros)


def _contagem(n: int) -> str:
    if n == 0:
        return "nenhuma linha"
    return "1 linha" if n == 1 else f"{n:,} linhas".replace(",", ".")


def _quebrar(valor: str, largura: float) -> str:
    """The cell's text in lines that fit `largura` (a word longer than the column is cut, as ReportLab does)."""
    limpo = imprimivel(" ".join(valor.split()))
    if not limpo or stringWidth(limpo, FONTE, _TAMANHO_CELULA) <= largura:
        return limpo
    return "\n".join(simpleSplit(limpo, FONTE, _TAMANHO_CELULA, max(largura, 10.0)))


class ListaImpressaPdf(DocumentoPdf[DadosListaImpressa]):
    TITULO = "Lista impressa"
    MARGEM_ESQUERDA: ClassVar[float] = 14 * mm
    MARGEM_DIREITA: ClassVar[float] = 12 * mm

    def timbre_de(self, dados: DadosListaImpressa) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosListaImpressa) -> tuple[date, time | None]:
        return dados.emitida_em.date(), dados.emitida_em.time()

    def identificacao_de(self, dados: DadosListaImpressa) -> str:
        return f"{dados.titulo} — impressa em {dados.emitida_em:%d/%m/%Y %H:%M}"

    def larguras(self, dados: DadosListaImpressa) -> list[float]:
        """Each column as wide as its longest cell (header in bold), capped; when the total passes the page,
        the widest columns give way first (their text wraps), the narrow ones (dates, numbers) stay whole."""
        n = len(dados.colunas)
        if n == 0:
            return []
        naturais = _larguras_naturais(dados, 90 * mm)
        disponivel = self.largura_util
        if sum(naturais) <= disponivel:
            sobra = disponivel - sum(naturais)
            return [w + sobra * w / sum(naturais) for w in naturais]
        teto = max(naturais)
        while sum(min(w, teto) for w in naturais) > disponivel and teto > 12 * mm:
            teto -= 1
        larguras = [min(w, teto) for w in naturais]
        escala = disponivel / sum(larguras)
        return [w * escala for w in larguras] if escala < 1 else larguras

    def historia(self, dados: DadosListaImpressa) -> list[Flowable]:
        titulo = self.estilos["CelulaCabecalho"]
        estilos_titulo = {
            "esquerda": titulo,
            "direita": ParagraphStyle("CabecalhoDireita", parent=titulo, alignment=TA_RIGHT),
            "centro": ParagraphStyle("CabecalhoCentro", parent=titulo, alignment=TA_CENTER),
        }
        cabecalho = [
            Paragraph(texto(c), estilos_titulo[dados.alinhamentos[i]]) for i, c in enumerate(dados.colunas)
        ]
        larguras = self.larguras(dados)
        # Body cells are plain text broken into lines here, not Paragraphs: ReportLab re-measures the rest of
        # the table at every page break, and with Paragraph cells 5,000 rows took 21 s instead of 2.
        corpo = [
            [
                _quebrar(valor, larguras[i] - _FOLGA_CELULA)
                for i, valor in enumerate(linha[: len(dados.colunas)])
            ]
            for linha in dados.linhas
        ]
        f: list[Flowable] = [
            self.p(texto(dados.titulo), "Titulo"),
            self.p(texto(dados.linha_de_filtros), "Subtitulo"),
            self.p(
                texto(
                    f"{_contagem(len(dados.linhas))} · impressa em {dados.emitida_em:%d/%m/%Y} às "
                    f"{dados.emitida_em:%H:%M} por {dados.emitida_por}"
                ),
                "Nota",
            ),
            Spacer(1, 3 * mm),
        ]
        if not dados.colunas:
            return f
        if not corpo:
            f.append(self.p("Nenhum registro corresponde a estes filtros.", "Corpo"))
            return f
        # Every row's height is known, so the rows are laid out in pages here, one table (with the header)
        # per page: ReportLab splitting one long table re-processes all the rows left at every page break,
        # which grew with the square of the rows (20,000 rows: 24 s; one table per page keeps it linear).
        altura_titulo = max(
            p.wrap(w - _FOLGA_CELULA, 1000)[1] for p, w in zip(cabecalho, larguras, strict=True)
        )
        alturas = [max(c.count("\n") + 1 for c in linha) * _ENTRELINHA + _FOLGA_VERTICAL for linha in corpo]
        quadro = self.TAMANHO[1] - self.MARGEM_SUPERIOR - self.ALTURA_TIMBRE
        quadro -= self.MARGEM_INFERIOR + self.ALTURA_RODAPE
        ocupado = sum(
            x.wrap(self.largura_util, quadro)[1] + x.getSpaceBefore() + x.getSpaceAfter() for x in f
        )
        livre = quadro - ocupado - _FOLGA_PAGINA
        inicio = 0
        while inicio < len(corpo):
            fim, usado = inicio, altura_titulo + _FOLGA_VERTICAL
            while fim < len(corpo) and (fim == inicio or usado + alturas[fim] <= livre):
                usado += alturas[fim]
                fim += 1
            if inicio:
                f.append(PageBreak())
            f.append(
                self._tabela(
                    dados, cabecalho, corpo[inicio:fim], larguras, altura_titulo, alturas[inicio:fim]
                )
            )
            inicio, livre = fim, quadro - _FOLGA_PAGINA
        return f

    def _tabela(
        self,
        dados: DadosListaImpressa,
        cabecalho: list[Paragraph],
        corpo: list[list[str]],
        larguras: list[float],
        altura_titulo: float,
        alturas: list[float],
    ) -> Table:
        tabela = Table(
            [cabecalho, *corpo],
            colWidths=larguras,
            rowHeights=[altura_titulo + _FOLGA_VERTICAL, *alturas],
            repeatRows=1,
        )
        alinhar = {"esquerda": "LEFT", "direita": "RIGHT", "centro": "CENTER"}
        tabela.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 1), (-1, -1), FONTE, _TAMANHO_CELULA, _ENTRELINHA),
                    *(("ALIGN", (i, 1), (i, -1), alinhar[a]) for i, a in enumerate(dados.alinhamentos)),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e5e7eb")),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.HexColor("#111827")),
                    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f4f6")]),
                    ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#d1d5db")),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), _FOLGA_CELULA / 2),
                    ("RIGHTPADDING", (0, 0), (-1, -1), _FOLGA_CELULA / 2),
                    ("TOPPADDING", (0, 0), (-1, -1), _FOLGA_VERTICAL / 2),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), _FOLGA_VERTICAL / 2),
                ]
            )
        )
        return tabela


class ListaImpressaPaisagemPdf(ListaImpressaPdf):
    TAMANHO = landscape(A4)


def _larguras_naturais(dados: DadosListaImpressa, teto: float) -> list[float]:
    """Each column's width for its longest cell (the bold header included), at most `teto`. The first 2,000
    rows are a sample enough to size by: a longer cell further down wraps."""
    registrar_fontes()  # the widths are measured in the embedded font, before (or without) a render
    larguras = []
    for i, titulo in enumerate(dados.colunas):
        maior = stringWidth(titulo, FONTE_NEGRITO, _TAMANHO_CELULA)
        for linha in dados.linhas[:2000]:
            if i < len(linha):
                maior = max(maior, stringWidth(linha[i], FONTE, _TAMANHO_CELULA))
        larguras.append(min(maior, teto) + _FOLGA_CELULA + 1)
    return larguras


def em_paisagem(dados: DadosListaImpressa) -> bool:
    """Landscape when the columns are many (more than six) or do not fit a portrait page's width."""
    retrato = A4[0] - ListaImpressaPdf.MARGEM_ESQUERDA - ListaImpressaPdf.MARGEM_DIREITA
    return len(dados.colunas) > 6 or sum(_larguras_naturais(dados, 60 * mm)) > retrato


def gerar_lista_impressa(dados: DadosListaImpressa) -> tuple[bytes, bool]:
    """The PDF and whether its pages are landscape (the printer is set up to match)."""
    paisagem = em_paisagem(dados)
    classe = ListaImpressaPaisagemPdf if paisagem else ListaImpressaPdf
    return classe().render(dados), paisagem
