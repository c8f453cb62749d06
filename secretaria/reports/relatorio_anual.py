"""The annual report for the Câmara and the transparency portal: the year's autos, penalties and amounts by
operator and tipo, with the charts — as a PDF (ReportLab, the charts drawn by matplotlib) and as a workbook
(the shared writer, with native Excel charts).

Without personal data: no CPF, no name of a petitioner, an employee or a driver — only the operators (legal
entities that hold the concession or permission), the provisions of the law and counts and amounts.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, BinaryIO

from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais
from secretaria.reports.dados import Timbre
from secretaria.reports.graficos import Grafico, png, rotulo_mes


@dataclass(frozen=True)
class LinhaAnual:
    """One operator and tipo: the autos drawn up in the year and what became of them by the day of issue (fines
    as they stand after any appeal, dismissals, suspensions), so fines and dismissals never exceed the autos."""

    operadora: str
    tipo: str
    autos: int
    multas_aplicadas: int
    arquivados: int
    multas_reais: Decimal
    suspensoes: int
    dias_suspensao: int


@dataclass(frozen=True)
class MesAnual:
    mes: date
    """The month's first day."""
    autos: int
    """Autos drawn up in the month."""
    multas_reais: Decimal
    pago: Decimal
    divida_ativa: Decimal


@dataclass(frozen=True)
class DispositivoAnual:
    rotulo: str
    tipo: str
    autos: int


@dataclass(frozen=True)
class DadosAnuais:
    ano: int
    timbre: Timbre
    emitido_em: date
    linhas: tuple[LinhaAnual, ...]
    meses: tuple[MesAnual, ...]
    dispositivos: tuple[DispositivoAnual, ...]
    graficos: tuple[Grafico, ...]

    @property
    def total_autos(self) -> int:
        return sum(x.autos for x in self.linhas)

    @property
    def total_multas(self) -> Decimal:
        """The fines (as they stand) of the autos drawn up in the year: the operators table's total."""
        return sum((x.multas_reais for x in self.linhas), Decimal(0))

    @property
    def total_multas_no_ano(self) -> Decimal:
        """The fines applied by decisions of the year (as they stand): the months table's total."""
        return sum((m.multas_reais for m in self.meses), Decimal(0))

    @property
    def total_dispositivos(self) -> int:
        """Every provision's autos (the list is whole; the PDF shows the ten most cited and the rest)."""
        return sum(d.autos for d in self.dispositivos)


ABAS_ANUAIS = ("Por operadora e tipo", "Por mês", "Dispositivos")
DISPOSITIVOS_NO_PDF = 10
FORMATO_MES = "mmm/yy"
"""A month is a date (the first day) shown "jan/26": it sorts and filters as a date."""


def _inteiro(n: int) -> str:
    """ "27.665", as the charts and the summary write a count."""
    return formatar_decimal(n, 0)


def nome_arquivo_anual(ano: int, extensao: str) -> str:
    return f"relatorio-anual-{ano}.{extensao}"


# --- PDF ---------------------------------------------------------------------------------------------------


def gerar_pdf_anual(dados: DadosAnuais) -> bytes:
    pdf: bytes = _documento_anual()().render(dados)
    return pdf


@functools.cache
def _documento_anual() -> type[Any]:
    """The document class, built on first use: ReportLab is imported with it, never at start-up (the
    service that gathers the year's numbers imports this module)."""
    from secretaria.reports.pdf_base import DocumentoPdf, texto

    class _DocumentoAnual(DocumentoPdf[DadosAnuais]):
        TITULO = "Relatório anual da fiscalização do transporte coletivo"

        def timbre_de(self, dados: DadosAnuais) -> Timbre:
            return dados.timbre

        def data_de(self, dados: DadosAnuais) -> tuple[date, None]:
            return dados.emitido_em, None

        def identificacao_de(self, dados: DadosAnuais) -> str:
            return f"Relatório anual {dados.ano}"

        def historia(self, dados: DadosAnuais) -> list[Any]:
            from reportlab.lib.units import mm
            from reportlab.platypus import CondPageBreak, Image, KeepTogether, Spacer

            h: list[Any] = [
                self.p(f"Relatório anual de {dados.ano}", "Titulo"),
                self.p(
                    "Fiscalização do transporte coletivo — Lei Municipal nº 2.413/1978. Autos pela data da "
                    "lavratura (a do número do auto), salvo nos gráficos que dizem “mês da infração”; multas "
                    "aplicadas pela data da decisão; pagamentos pela data do pagamento e inscrições em dívida "
                    "ativa pela data da inscrição. Multas como estão na data da emissão: a anulada em recurso "
                    "não conta, a reduzida conta pelo valor final. Sem dados pessoais: constam apenas as "
                    "operadoras, os dispositivos da lei, quantidades e valores."
                ),
                Spacer(1, 3 * mm),
                self.campos(
                    [
                        ("Autos lavrados", _inteiro(dados.total_autos)),
                        ("Multas aplicadas no ano", formatar_reais(dados.total_multas_no_ano)),
                        ("Pago no ano", formatar_reais(sum((m.pago for m in dados.meses), Decimal(0)))),
                        (
                            "Inscrito em dívida ativa",
                            formatar_reais(sum((m.divida_ativa for m in dados.meses), Decimal(0))),
                        ),
                        ("Emitido em", formatar_data(dados.emitido_em)),
                    ]
                ),
            ]
            linhas = dados.linhas
            por_operadora = self._tabela(
                [
                    "Operadora",
                    "Tipo",
                    "Autos lavrados",
                    "Multas",
                    "Arquivados",
                    "Multas dos autos (R$)",
                    "Suspensões",
                    "Dias de suspensão",
                ],
                [
                    [
                        texto(x.operadora),
                        x.tipo,
                        _inteiro(x.autos),
                        _inteiro(x.multas_aplicadas),
                        _inteiro(x.arquivados),
                        formatar_reais(x.multas_reais),
                        _inteiro(x.suspensoes),
                        _inteiro(x.dias_suspensao),
                    ]
                    for x in linhas
                ],
                numericas=2,
                total=[
                    "Total",
                    "",
                    _inteiro(dados.total_autos),
                    _inteiro(sum(x.multas_aplicadas for x in linhas)),
                    _inteiro(sum(x.arquivados for x in linhas)),
                    formatar_reais(dados.total_multas),
                    _inteiro(sum(x.suspensoes for x in linhas)),
                    _inteiro(sum(x.dias_suspensao for x in linhas)),
                ],
            )
            # The long table splits over pages (its header repeated): its heading only goes down with room
            # for the header and a few rows under it, never alone at the foot of a page.
            h += [
                CondPageBreak(30 * mm),
                self.secao("Por operadora e tipo"),
                self.p(
                    "Os autos lavrados no ano e o desfecho de cada um até a emissão: multas aplicadas (como "
                    "estão após recurso), arquivados e suspensões. Autos ainda sem decisão e penalidades "
                    "anuladas em recurso não entram em “Multas” nem em “Arquivados”.",
                    "Nota",
                ),
                por_operadora,
            ]
            meses = self._tabela(
                ["Mês", "Autos lavrados", "Multas aplicadas (R$)", "Pago (R$)", "Dívida ativa (R$)"],
                [
                    [
                        rotulo_mes(f"{m.mes:%Y-%m}"),
                        _inteiro(m.autos),
                        formatar_reais(m.multas_reais),
                        formatar_reais(m.pago),
                        formatar_reais(m.divida_ativa),
                    ]
                    for m in dados.meses
                ],
                numericas=1,
                total=[
                    "Total",
                    _inteiro(sum(m.autos for m in dados.meses)),
                    formatar_reais(dados.total_multas_no_ano),
                    formatar_reais(sum((m.pago for m in dados.meses), Decimal(0))),
                    formatar_reais(sum((m.divida_ativa for m in dados.meses), Decimal(0))),
                ],
            )
            h.append(KeepTogether([self.secao("Por mês"), meses]))  # twelve rows: heading and table together
            mais = dados.dispositivos[:DISPOSITIVOS_NO_PDF]
            demais = dados.dispositivos[DISPOSITIVOS_NO_PDF:]
            corpo = [[d.rotulo, d.tipo, _inteiro(d.autos)] for d in mais]
            if demais:
                outros = "outro dispositivo" if len(demais) == 1 else "outros dispositivos"
                corpo.append(
                    [f"Demais ({_inteiro(len(demais))} {outros})", "", _inteiro(sum(d.autos for d in demais))]
                )
            disp = self._tabela(
                ["Dispositivo", "Tipo", "Autos lavrados"],
                corpo,
                numericas=2,
                total=["Total", "", _inteiro(dados.total_dispositivos)],
            )
            h.append(KeepTogether([self.secao("Os dispositivos mais citados"), disp]))
            largura = self.largura_util
            for k, g in enumerate(dados.graficos):
                altura = 4.0 if g.forma != "barras_h" else max(4.0, 0.22 * len(g.categorias) + 1.0)
                imagem = Image(
                    io.BytesIO(png(g, 8.0, altura, 150)), width=largura, height=largura * altura / 8.0
                )
                bloco = [imagem, Spacer(1, 4 * mm)]
                h.append(KeepTogether([self.secao("Gráficos"), *bloco] if k == 0 else bloco))
            return h

        def _tabela(
            self, cabecalho: list[str], linhas: list[list[str]], numericas: int, total: list[str]
        ) -> Any:
            """A table whose header repeats on each page, every column as wide as its header and values
            need (bold headers wrap at spaces, never cut), the first one taking the room left; the columns
            from `numericas` on right-aligned, headers too; `total` the last row, in bold."""
            from reportlab.lib import colors
            from reportlab.lib.units import mm
            from reportlab.pdfbase.pdfmetrics import stringWidth
            from reportlab.platypus import Paragraph, Table, TableStyle

            folga = 14.0  # the cell's padding (6 pt each side) and a little air
            negrito = self.estilos["CelulaCabecalho"]
            corpo = self.estilos["Celula"]

            linhas = [*linhas, total]

            def largura(i: int, partir: bool) -> float:
                valores = [stringWidth(x[i], negrito.fontName, corpo.fontSize) for x in linhas]
                partes = cabecalho[i].split() if partir else [cabecalho[i]]
                titulo = [stringWidth(w, negrito.fontName, negrito.fontSize) for w in partes]
                return float(max([*valores, *titulo, 0.0])) + folga

            # Headers on one line when the page has room for them, else wrapped at their spaces.
            larguras = [largura(i, False) for i in range(len(cabecalho))]
            if sum(larguras) > self.largura_util:
                larguras = [largura(i, True) for i in range(len(cabecalho))]
            resto = self.largura_util - sum(larguras[1:])
            larguras[0] = max(min(larguras[0], resto), 30 * mm)

            def cabeca(i: int, t: str) -> Paragraph:
                estilo = negrito if i < numericas else negrito.clone("CabecalhoDireita", alignment=2)
                return Paragraph(texto(t), estilo)

            # The first column (a name) wraps within its width; the others are short values.
            corpo_linhas = [[Paragraph(texto(x[0]), corpo), *x[1:]] for x in linhas[:-1]]
            corpo_linhas.append([Paragraph(f"<b>{texto(total[0])}</b>", corpo), *total[1:]])
            estilo = TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), corpo.fontName, corpo.fontSize),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dbe5f1")),
                    ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
                    ("ALIGN", (numericas, 1), (-1, -1), "RIGHT"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("FONT", (1, -1), (-1, -1), negrito.fontName, corpo.fontSize),
                    ("BACKGROUND", (0, -1), (-1, -1), colors.HexColor("#eef2f8")),
                    ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.HexColor("#333333")),
                    # The totals row never starts a page alone: it goes with the last rows above it.
                    ("NOSPLIT", (0, max(1, len(linhas) - 2)), (-1, -1)),
                ]
            )
            return Table(
                [[cabeca(i, t) for i, t in enumerate(cabecalho)], *corpo_linhas],
                colWidths=larguras,
                repeatRows=1,
                style=estilo,
            )

    return _DocumentoAnual


# --- workbook ----------------------------------------------------------------------------------------------


def gerar_planilha_anual(dados: DadosAnuais, destino: str | os.PathLike[str] | BinaryIO) -> None:
    from secretaria.reports.planilha import (
        FORMATO_INTEIRO,
        FORMATO_REAIS,
        Aba,
        Coluna,
        Formula,
        TabelaGrafico,
        aba_de_graficos,
        medir,
        novo_livro,
    )

    livro = novo_livro()
    livro.properties.title = f"Relatório anual {dados.ano}"
    livro.properties.subject = "Fiscalização do transporte coletivo – Lei Municipal nº 2.413/1978"
    livro.properties.creator = "Secretaria – SMSU Pelotas"
    livro.calculation.fullCalcOnLoad = True
    folhas: list[tuple[str, str, Sequence[Coluna], list[tuple[object, ...]]]] = [
        (
            ABAS_ANUAIS[0],
            "PorOperadoraETipo",
            (
                Coluna("Operadora", 20),
                Coluna("Tipo", 4),
                Coluna("Autos lavrados", 6, FORMATO_INTEIRO, total=True),
                Coluna("Multas aplicadas", 6, FORMATO_INTEIRO, total=True),
                Coluna("Arquivados", 6, FORMATO_INTEIRO, total=True),
                Coluna("Multas dos autos (R$)", 10, FORMATO_REAIS, total=True),
                Coluna("Suspensões", 6, FORMATO_INTEIRO, total=True),
                Coluna("Dias de suspensão", 6, FORMATO_INTEIRO, total=True),
            ),
            [
                (x.operadora, x.tipo, x.autos, x.multas_aplicadas, x.arquivados, x.multas_reais, x.suspensoes,
                 x.dias_suspensao)
                for x in dados.linhas
            ],
        ),
        (
            ABAS_ANUAIS[1],
            "PorMes",
            (
                Coluna("Mês", 8, FORMATO_MES),
                Coluna("Autos lavrados", 6, FORMATO_INTEIRO, total=True),
                Coluna("Multas aplicadas (R$)", 10, FORMATO_REAIS, total=True),
                Coluna("Pago (R$)", 10, FORMATO_REAIS, total=True),
                Coluna("Dívida ativa (R$)", 10, FORMATO_REAIS, total=True),
            ),
            [(m.mes, m.autos, m.multas_reais, m.pago, m.divida_ativa) for m in dados.meses],
        ),
        (
            ABAS_ANUAIS[2],
            "Dispositivos",
            (
                Coluna("Dispositivo", 14),
                Coluna("Tipo", 4),
                Coluna("Autos lavrados", 6, FORMATO_INTEIRO, total=True),
            ),
            [(d.rotulo, d.tipo, d.autos) for d in dados.dispositivos],
        ),
    ]  # fmt: skip
    for titulo, tabela, colunas, linhas in folhas:
        aba = Aba(livro, titulo, tabela, medir(colunas, linhas))
        for linha in linhas:
            aba.escrever(linha)
        aba.fechar()
    n = len(dados.meses)
    mes = f"'{ABAS_ANUAIS[1]}'"
    disp = f"'{ABAS_ANUAIS[2]}'"
    aba_de_graficos(
        livro,
        [
            TabelaGrafico(
                f"Autos lavrados por mês, {dados.ano}",
                "Mês",
                "Autos",
                [(m.mes, Formula(f"={mes}!B{i}")) for i, m in enumerate(dados.meses, start=2)],
                formato_rotulo=FORMATO_MES,
            ),
            TabelaGrafico(
                f"Multas aplicadas por mês (R$), {dados.ano}",
                "Mês",
                "Multas (R$)",
                [(m.mes, Formula(f"={mes}!C{i}")) for i, m in enumerate(dados.meses, start=2)],
                FORMATO_REAIS,
                formato_rotulo=FORMATO_MES,
            ),
            TabelaGrafico(
                "Os dez dispositivos mais citados",
                "Dispositivo",
                "Autos",
                [
                    (d.rotulo, Formula(f"={disp}!C{i}"))
                    for i, d in enumerate(dados.dispositivos[:DISPOSITIVOS_NO_PDF], start=2)
                ],
            ),
        ][: 3 if n else 0],
    )
    livro.save(destino)
